// The settings' "Notifications on your devices" (issue 52): what an account wants pushed is
// chosen there and kept with the account; this device's subscription is offered once the
// browser allows notifications. The headless browser has no push service to subscribe with, so
// the subscription itself is tested against the server (tests/server/push.rs); here, the page
// in every language on a phone and a desktop, with the longest usernames (20).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newAccount, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();


for (const [lang, viewport, username] of [
  ['en', { width: 390, height: 844 }, 'Push_settings_long_a'],
  ['zh', { width: 390, height: 844 }, 'Push_settings_long_b'],
  ['zh-Hant', { width: 1366, height: 900 }, 'Push_settings_long_c'],
]) {
  test(`what is pushed is chosen and kept (${lang}, ${viewport.width}px)`, async () => {
    const page = await newAccount(env.browser, env.server.url, username, viewport);
    await page.context().grantPermissions(['notifications']);
    await useLanguage(page, lang);
    await page.goto(`${env.server.url}/settings`);
    await page.waitForSelector('#push-toggle');
    const boxes = page.locator('#push input[data-kind]');
    assert.equal(await boxes.count(), 3);
    for (let i = 0; i < 3; i++) assert.equal(await boxes.nth(i).isChecked(), true, 'everything until turned off');
    assert.match(await page.locator('#push-here').innerText(), lang === 'en' ? /does not receive/ : /不会收到|不會收到/);
    // Turning off "my move over days" is kept with the account.
    await page.locator('#push input[data-kind="turns"]').uncheck();
    await page.waitForFunction(() => document.querySelector('#push-note')?.textContent !== '');
    await page.locator('#push').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `push-settings-${lang}-${viewport.width}.png`) });
    await page.reload();
    await page.waitForSelector('#push-toggle');
    assert.equal(await page.locator('#push input[data-kind="turns"]').isChecked(), false);
    assert.equal(await page.locator('#push input[data-kind="challenges"]').isChecked(), true);
    const view = await page.evaluate(() => import('/js/api.js').then((api) => api.pushSettings()));
    assert.deepEqual([view.turns, view.challenges, view.tournaments, view.subscriptions], [false, true, true, 0]);
    assert.match(view.public_key, /^[A-Za-z0-9_-]{87}$/, 'the server key browsers subscribe with');
    // Nothing of the section overflows the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false);
    await page.context().close();
  });
}
