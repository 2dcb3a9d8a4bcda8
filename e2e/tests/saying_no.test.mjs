// Players can say no, in the browser: who may challenge me, set on the settings page, and a
// block from a profile, listed (and undone) on the settings page. Phone in Chinese, desktop in
// English, with the longest usernames.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();
const PASSWORD = 'correct horse battery';

async function account(url, username, viewport, lang) {
  const page = await newPlayer(env.browser, url, username.slice(0, 24), viewport);
  await useLanguage(page, lang);
  await page.reload();
  await page.waitForSelector('#claim-form');
  await page.fill('#claim-user', username);
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  return page;
}

for (const [lang, viewport] of [['zh', { width: 390, height: 844 }], ['en', { width: 1366, height: 900 }]]) {
  test(`a block from a profile and who may challenge me (${lang}, ${viewport.width}px)`, async () => {
    const me = await account(env.server.url, `Blocker_${lang}_longname_x`.slice(0, 20), viewport, lang);
    const pest = await account(env.server.url, `Pest_${lang}_longer_name_`.slice(0, 20), viewport, lang);
    const pestId = await pest.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')).id);

    // Their profile: block, and the note says what it means.
    await me.goto(`${env.server.url}/p/${pestId}`);
    await me.click('#block-toggle');
    await me.waitForFunction(() => document.querySelector('#block-toggle')?.getAttribute('aria-pressed') === 'true');
    assert.ok((await me.locator('#block-note').innerText()).length > 10);
    assert.ok(await me.evaluate(() => document.documentElement.scrollWidth) <= viewport.width);
    await me.screenshot({ path: join(artifacts, `block-profile-${lang}-${viewport.width}.png`), fullPage: true });

    // The settings page lists them; who may challenge me is saved and kept.
    await me.goto(`${env.server.url}/settings`);
    await me.waitForSelector('#blocked [data-unblock]');
    assert.match(await me.locator('#blocked').innerText(), /Pest_/);
    await me.selectOption('#set-challenges', 'accounts');
    await me.click('#privacy-form button[type=submit]');
    await me.waitForFunction(() => (document.querySelector('#privacy-note')?.textContent ?? '') !== '');
    await me.locator('#privacy-form').scrollIntoViewIfNeeded();
    await me.screenshot({ path: join(artifacts, `say-no-settings-${lang}-${viewport.width}.png`) });
    await me.reload();
    await me.waitForFunction(() => document.querySelector('#set-challenges')?.value === 'accounts');
    // A display setting saved afterwards keeps it.
    await me.click('#display-form button[type=submit]');
    await me.waitForFunction(() => (document.querySelector('#display-note')?.textContent ?? '') !== '');
    await me.reload();
    await me.waitForFunction(() => document.querySelector('#set-challenges')?.value === 'accounts');

    // Unblocked from the list.
    await me.click('#blocked [data-unblock]');
    await me.waitForFunction(() => !document.querySelector('#blocked [data-unblock]'));
    await me.context().close();
    await pest.context().close();
  });
}
