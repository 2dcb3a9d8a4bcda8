// Treated kindly (issue 51): claiming an account says that one's name will change and offers
// a username made from it; on a phone a chat line arriving out of sight is announced under the
// board; one's own game in progress is offered to play, not to watch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, matchPages, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();
const phone = { width: 390, height: 844 };

for (const [lang, viewport, says] of [
  ['en', phone, /will change from Maximilian Longername 24 to your username, Maximilian_Longernam/],
  ['zh', { width: 1366, height: 900 }, /将从 Maximilian Longername 24 改为用户名 Maximilian_Longernam/],
  ['zh-Hant', phone, /將從 Maximilian Longername 24 改為使用者名稱 Maximilian_Longernam/],
]) {
  test(`claiming an account says the name will change, and offers a username from it (${lang}, ${viewport.width}px)`, async () => {
    const page = await newPlayer(env.browser, env.server.url, 'Maximilian Longername 24', viewport);
    await useLanguage(page, lang);
    await page.reload();
    await page.waitForSelector('#claim-user');
    assert.equal(await page.inputValue('#claim-user'), 'Maximilian_Longernam', 'a username of 20 characters made from the name');
    assert.match(await page.locator('#claim-rename').innerText(), says);
    await page.locator('#claim-form').screenshot({ path: join(artifacts, `claim-${lang}-${viewport.width}.png`) });
    // Another username: the sentence follows it.
    await page.fill('#claim-user', 'Maxi');
    assert.match(await page.locator('#claim-rename').innerText(), /Maxi\b/);
    await page.context().close();
  });
}

test('on a phone a chat line arriving out of sight shows a badge under the board that leads to it', async () => {
  const { red, blue } = await matchPages(
    await newPlayer(env.browser, env.server.url, 'Chatty_Red_Longest_Name', phone),
    await newPlayer(env.browser, env.server.url, 'Quiet_Blue_Longest_Name', phone),
  );
  await red.waitForSelector('#chat-form');
  await blue.waitForSelector('#chat-form');
  await blue.evaluate(() => window.scrollTo(0, 0));
  await red.click('.chat-presets [data-preset="good_luck"]');
  await blue.waitForSelector('#chat-badge:not([hidden])');
  const badge = await blue.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.querySelector('#chat-badge')).getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, text: document.querySelector('#chat-badge')?.textContent };
  });
  assert.ok(badge.bottom <= 844, `the badge is on screen: ${JSON.stringify(badge)}`);
  assert.match(badge.text ?? '', /New message \(1\)/);
  await blue.screenshot({ path: join(artifacts, 'chat-badge-390.png') });
  // Not for one's own lines.
  assert.equal(await red.locator('#chat-badge').isHidden(), true);
  await blue.click('#chat-badge');
  await blue.waitForSelector('#chat-badge', { state: 'hidden' });
  assert.ok(await blue.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.querySelector('#chat-lines')).getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }), 'the chat is in view');

  // One's own game in progress, on one's profile and in the lobby's list: "Play".
  const id = await red.evaluate(() => window.jungleApp.session.player.id);
  const game = await red.evaluate(() => window.jungleApp.store.state.game.game);
  await red.evaluate((path) => window.jungleApp.router.navigate(path), `/p/${id}`);
  const link = red.locator(`#profile-games a[href="/g/${game}"]`);
  await link.waitFor();
  assert.equal((await link.innerText()).trim(), 'Play');
  await red.context().close();
  await blue.context().close();
});

test('smaller things: a room keeps its own clock, devices by name, one\'s own profile online, the editor counts a rank, the chart has dates', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Small_Things_Longest_Nam', phone);
  // A seek over days last: a room for a friend still offers the clock in one sitting.
  await page.evaluate(() => localStorage.setItem('jungle.lastSeek', JSON.stringify({ rules: 'classic', preset: '1d', rated: true })));
  await page.reload();
  await page.waitForSelector('#pr-clock');
  assert.equal(await page.inputValue('#pr-clock'), '5+3');
  const names = await page.evaluate(() => import('/js/format.js').then((f) => [
    f.deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'),
    f.deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'),
    f.deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0'),
  ]));
  assert.deepEqual(names, ['Chrome · Android', 'Safari · iOS', 'Firefox · Windows']);
  // One's own page says one is online, even just after a reload.
  const id = await page.evaluate(() => window.jungleApp.session.player.id);
  await page.goto(`${env.server.url}/p/${id}`);
  await page.waitForFunction(() => document.querySelector('#profile-presence')?.textContent === 'online');
  // The editor: a rank of 8 squares is said to be one, not "no animal".
  await page.evaluate(() => window.jungleApp.router.navigate('/editor'));
  await page.waitForSelector('#board .piece');
  const fenField = page.locator('#ed-text');
  await fenField.fill('8/7/7/7/7/7/7/7/7 r');
  await fenField.press('Enter');
  await page.waitForFunction(() => /8 squares/.test(document.body.innerText));
  // The rating chart says when.
  const chart = await page.evaluate(() => import('/js/views/profile.js').then((p) => p.ratingChart([
    { at: Date.UTC(2026, 0, 5), rating: 1500 }, { at: Date.UTC(2026, 2, 9), rating: 1560 },
  ])));
  assert.match(chart, /Jan 5, 2026/);
  assert.match(chart, /Mar 9, 2026/);
  await page.context().close();
});
