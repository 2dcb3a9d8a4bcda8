// Direct challenges, reports, the leaderboard page and display settings in the browser: one
// player challenges another from their profile, the other accepts from the notice on whatever
// page they are on, both play; the loser reports from the end panel. On a phone and a desktop,
// in both languages, with the longest names allowed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

const PASSWORD = 'correct horse battery';
const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 900 };

/** The lobby again, in `lang`. @param {import('playwright-core').Page} page @param {string} lang */
async function inLanguage(page, lang) {
  await useLanguage(page, lang);
  await page.reload();
  await page.waitForSelector('#play');
}

for (const [lang, challengerView, challengedView] of [['en', desktop, phone], ['zh', phone, desktop]]) {
  test(`a challenge from a profile starts a game for both (${lang})`, async () => {
    const alice = await newPlayer(env.browser, env.server.url, `Alexandrina Victoria ${lang}1`.padEnd(24, 'x').slice(0, 24), challengerView);
    const bob = await newPlayer(env.browser, env.server.url, `Bartholomew Roberts ${lang}22`.padEnd(24, 'y').slice(0, 24), challengedView);
    await inLanguage(alice, lang);
    await inLanguage(bob, lang);
    const bobId = await bob.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')).id);
    // Bob wanders off to the rules page: the notice finds him there.
    await bob.click('a[href="/rules/classic"]');

    await alice.goto(`${env.server.url}/p/${bobId}`);
    await alice.waitForSelector('#challenge-panel');
    await alice.click('#challenge-panel summary');
    // Guests play casual only.
    assert.equal(await alice.locator('#ch-rated').isDisabled(), true);
    await alice.selectOption('#ch-colour', 'red');
    await alice.click('#challenge-form button[type=submit]');
    await alice.waitForSelector('.challenge-notice [data-cancel]');
    await bob.waitForSelector('.challenge-notice [data-accept]');
    const notice = await bob.locator('.challenge-notice').innerText();
    assert.match(notice, /Alexandrina/);
    assert.match(notice, lang === 'en' ? /you play Blue/ : /你执蓝方/);
    await bob.screenshot({ path: join(artifacts, `challenged-${lang}-${challengedView.width}.png`) });
    await alice.screenshot({ path: join(artifacts, `challenge-sent-${lang}-${challengerView.width}.png`), fullPage: true });

    await bob.click('.challenge-notice [data-accept]');
    await alice.waitForURL(/\/g\//);
    await bob.waitForURL(/\/g\//);
    assert.equal(new URL(alice.url()).pathname, new URL(bob.url()).pathname, 'the same game');
    assert.equal(await alice.evaluate(() => window.jungleApp.store.state.game.you), 'red');
    assert.equal(await alice.locator('.challenge-notice').count(), 0, 'the notice went with the answer');

    // Bob resigns; Alice reports him from the end panel, about this game.
    await bob.click('#resign');
    await bob.click('#resign-yes');
    await alice.waitForSelector('#end .report-links a');
    await alice.click('#end .report-links a');
    await alice.waitForSelector('#report-form');
    assert.match(await alice.locator('#report-panel').innerText(), lang === 'en' ? /About the game/ : /关于对局/);
    await alice.selectOption('#report-reason', 'stalling');
    await alice.fill('#report-details', 'resigned at once, every game');
    await alice.click('#report-form button[type=submit]');
    await alice.waitForSelector('#report-panel .notice');
    await alice.screenshot({ path: join(artifacts, `reported-${lang}-${challengerView.width}.png`), fullPage: true });
    await alice.context().close();
    await bob.context().close();
  });
}

test('an account\'s display settings follow it to a new device; the leaderboard has its page', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Settler', phone);
  await page.fill('#claim-user', 'Settings_Keeper_2026');
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.click('#my-settings');
  await page.waitForSelector('#display-form');
  await page.waitForSelector('#sessions li');
  assert.match(await page.locator('#sessions').innerText(), /this device/);
  await page.selectOption('#set-language', 'zh');
  await page.uncheck('#set-coordinates');
  await page.click('#display-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === '设置');
  await page.screenshot({ path: join(artifacts, 'settings-zh-390.png'), fullPage: true });
  await page.context().close();

  // Another browser, in English, signs in: it turns to Chinese without square names.
  const context = await env.browser.newContext({ viewport: desktop });
  const other = await context.newPage();
  other.on('pageerror', (error) => { throw error; });
  await other.goto(env.server.url);
  await useLanguage(other, 'en');
  await other.reload();
  await other.fill('#signin-user', 'settings_keeper_2026');
  await other.fill('#signin-pass', PASSWORD);
  await other.click('#signin-form button[type=submit]');
  await other.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await other.evaluate(() => document.body.classList.contains('no-coords')), true);
  await other.click('#full-leaderboard');
  await other.waitForSelector('.ranking');
  await other.click('.tabs a[href="/leaderboard/strict"]');
  await other.waitForFunction(() => location.pathname === '/leaderboard/strict');
  assert.match(await other.locator('h1').innerText(), /严格|Strict|排行榜/);
  await other.screenshot({ path: join(artifacts, 'leaderboard-zh-1366.png'), fullPage: true });
  await context.close();
});
