// The board as players expect it (issue 14): long names on a phone, presence that is true,
// a first-move countdown, dark mode by the system's setting, a 404 in the app's style.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, matchPages, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';
import { lowContrast } from './contrast.mjs';

const env = serverAndBrowser();
const phone = { width: 390, height: 844 };

test('a quick match between 24-character names fits a phone, both online, first move counted down', async () => {
  const alice = await newPlayer(env.browser, env.server.url, 'Wwwwwwwwwwwwwwwwwwwwwwww', phone);
  const bob = await newPlayer(env.browser, env.server.url, 'Mmmmmmmmmmmmmmmmmmmmmmmm', phone);
  await useLanguage(bob, 'zh');
  await bob.reload();
  await bob.waitForSelector('#play');
  const { red, blue } = await matchPages(alice, bob);
  for (const page of [red, blue]) {
    await page.waitForSelector('.clock');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no sideways scrolling');
    for (const clock of await page.locator('.clock').all()) {
      const box = await clock.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `a clock off-screen: ${JSON.stringify(box)}`);
    }
    // Both dots say online, the opponent's included.
    await page.waitForFunction(() => document.querySelectorAll('.dot.on').length === 2);
    await page.waitForFunction(() => /\d/.test(document.querySelector('#first-move')?.textContent ?? ''));
  }
  await red.screenshot({ path: join(artifacts, 'long-names-390.png') });
  await blue.screenshot({ path: join(artifacts, 'long-names-zh-390.png') });
  await red.context().close();
  await blue.context().close();
});

test('dark mode follows the system, and the switch overrides it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(env.server.url);
  await page.fill('#name', 'Night Owl');
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor);
  const paper = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--paper').trim());
  assert.equal(await paper(), '#15191c', 'dark by the system');
  await page.screenshot({ path: join(artifacts, 'dark-1366.png'), fullPage: true });
  await page.click('#theme');
  assert.equal(await paper(), '#f6f3ea', 'light by choice');
  await page.reload();
  await page.waitForSelector('#play');
  assert.equal(await paper(), '#f6f3ea', 'the choice is kept');
  await background();
  await context.close();
});

test('an unknown address answers 404 with the app\'s own page', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Lost', phone);
  await useLanguage(page, 'zh');
  const response = await page.goto(`${env.server.url}/no/such/page`);
  assert.equal(response.status(), 404);
  await page.waitForSelector('[role="alert"] h1');
  assert.match(await page.locator('[role="alert"]').innerText(), /这里没有页面/);
  await page.context().close();
});

test('a move queued on the opponent\'s turn is played the moment it becomes legal, or dropped', async () => {
  const { red, blue } = await matchPages(
    await newPlayer(env.browser, env.server.url, 'Quick Red', { width: 1366, height: 900 }),
    await newPlayer(env.browser, env.server.url, 'Quick Blue', { width: 1366, height: 900 }),
  );
  // Blue queues its rat's step while Red thinks; a right-click lets it go, then queue again.
  await blue.click('[data-square="a7"]');
  await blue.click('[data-square="a6"]');
  await blue.waitForFunction(() => document.querySelectorAll('.sq.premove').length === 2);
  await blue.click('[data-square="a6"]', { button: 'right' });
  await blue.waitForFunction(() => document.querySelectorAll('.sq.premove').length === 0);
  await blue.click('[data-square="a7"]');
  await blue.click('[data-square="a6"]');
  await blue.waitForFunction(() => document.querySelectorAll('.sq.premove').length === 2);
  await red.click('[data-square="e3"]');
  await red.click('[data-square="d3"]');
  // Blue's queued move went by itself.
  await red.waitForFunction(() => window.jungleApp.store.state.game?.moves.join(' ') === 'e3d3 a7a6');
  assert.equal(await blue.locator('.sq.premove').count(), 0);
  // A queued move that is illegal when the turn comes (a leopard cannot leap five squares)
  // is dropped silently.
  await red.click('[data-square="d3"]');
  await red.click('[data-square="d4"]');
  await blue.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 3);
  await red.click('[data-square="d4"]');
  await red.click('[data-square="d9"]');
  await red.waitForFunction(() => document.querySelectorAll('.sq.premove').length === 2);
  await blue.click('[data-square="a6"]');
  await blue.click('[data-square="a5"]');
  await red.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 4);
  await red.waitForTimeout(500);
  assert.equal(await red.evaluate(() => window.jungleApp.store.state.game.moves.length), 4, 'nothing sent');
  assert.equal(await red.locator('.sq.premove').count(), 0, 'the queued move is gone');
  await red.context().close();
  await blue.context().close();
});

test('a first visit plays at once and takes a name later (zh, 390px)', async () => {
  const context = await env.browser.newContext({ viewport: phone, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (error) => { throw error; });
  await page.goto(env.server.url);
  await page.click('#play-now');
  await page.waitForSelector('#play');
  assert.match(await page.locator('#my-name').innerText(), /^Guest-\d{4}$/);
  await page.click('#my-name');
  await page.waitForSelector('#rename-form');
  await page.fill('#rename', '后来取的名字');
  await page.click('#rename-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#profile-name')?.textContent === '后来取的名字');
  await page.fill('#rename', '');
  await page.click('#rename-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#rename-error')?.textContent === '请输入昵称。');
  await context.close();
});

test('a move taken back against the computer (en, 1366px)', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Second Thoughts', { width: 1366, height: 900 });
  await page.selectOption('#pc-level', '1');
  await page.selectOption('#pc-colour', 'red');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\//);
  await page.click('[data-square="e3"]');
  await page.click('[data-square="d3"]');
  await page.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 2);
  await page.click('#takeback');
  await page.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 0);
  assert.equal(await page.locator('[data-square="e3"] .piece').count(), 1, 'the leopard is home again');
  assert.equal(await page.locator('#chat-form').count(), 0, 'no chat with the computer');
  await page.context().close();
});

test('players chat, spectators chat apart, markup stays text, a person can be muted', async () => {
  const { red, blue } = await matchPages(
    await newPlayer(env.browser, env.server.url, 'Talker Red', { width: 1366, height: 900 }),
    await newPlayer(env.browser, env.server.url, 'Talker Blue', phone),
  );
  await useLanguage(blue, 'zh');
  const path = new URL(red.url()).pathname;
  const fan = await newPlayer(env.browser, env.server.url, 'Fan In The Stands', phone);
  await fan.goto(`${env.server.url}${path}`);
  await fan.waitForSelector('#chat-form');
  await red.click('.chat-presets [data-preset="good_luck"]');
  await red.waitForFunction(() => /Good luck!/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  await blue.reload();
  await blue.waitForSelector('#chat-lines');
  await fan.fill('#chat-text', '<i>go</i> red');
  await fan.press('#chat-text', 'Enter');
  await fan.waitForFunction(() => /<i>go<\/i> red/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  assert.equal(await fan.locator('#chat-lines i').count(), 0, 'markup is shown as text');
  await blue.fill('#chat-text', '谢谢');
  await blue.press('#chat-text', 'Enter');
  await red.waitForFunction(() => /谢谢/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  assert.doesNotMatch(await red.locator('#chat-lines').innerText(), /go/, 'players do not read the stands');
  await red.click('.chat-presets [data-preset="well_played"]');
  await blue.waitForFunction(() => /下得好/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  await blue.screenshot({ path: join(artifacts, 'chat-zh-390.png'), fullPage: true });
  await blue.click('#chat-lines [data-mute]');
  await blue.waitForFunction(() => !/下得好/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  // The mute says so, and can be undone.
  assert.match(await blue.locator('.chat-muted-note').innerText(), /已屏蔽 1 人/);
  await blue.click('.chat-muted-note [data-unmute]');
  await blue.waitForFunction(() => /下得好/.test(document.querySelector('#chat-lines')?.textContent ?? ''));
  assert.equal(await blue.locator('.chat-muted-note').count(), 0);
  for (const page of [red, blue, fan]) await page.context().close();
});

test('a seek waiting in the lobby is taken with a click', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Open Challenger', { width: 1366, height: 900 });
  await host.selectOption('#qm-computer', '');
  await host.click('[data-preset="10+5"]');
  await host.click('#play');
  await host.waitForSelector('#cancel-seek');
  const taker = await newPlayer(env.browser, env.server.url, 'Passer By', phone);
  await taker.waitForSelector('#open-seeks [data-seek]', { timeout: 15000 });
  assert.match(await taker.locator('#open-seeks').innerText(), /Open Challenger.*10\+5/s);
  await taker.click('#open-seeks [data-seek]');
  await taker.waitForURL(/\/g\//);
  await host.waitForURL(/\/g\//);
  assert.equal(new URL(taker.url()).pathname, new URL(host.url()).pathname);
  await host.context().close();
  await taker.context().close();
});

test('a guest chooses the meadow board in the settings', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Green Thumb', phone);
  await page.click('#my-settings');
  await page.waitForSelector('#set-board');
  assert.equal(await page.locator('#sessions').count(), 0, 'devices and passwords are an account\'s');
  await page.selectOption('#set-board', 'meadow');
  await page.click('#display-form button[type=submit]');
  await page.waitForFunction(() => document.documentElement.dataset.board === 'meadow');
  await page.goto(`${env.server.url}/editor`);
  await page.waitForSelector('.board .sq');
  await page.screenshot({ path: join(artifacts, 'meadow-390.png') });
  await page.context().close();
});

test('every text reads at 4.5:1 or better, light and dark, on every page', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme });
    const page = await context.newPage();
    await page.goto(env.server.url);
    await page.fill('#name', `Reader ${colorScheme}`);
    await page.click('#name-form button[type=submit]');
    await page.waitForSelector('#play');
    assert.deepEqual(await lowContrast(page), [], `lobby, ${colorScheme}`);
    for (const path of ['/rules/classic', '/leaderboard/classic', '/analysis', '/editor', '/settings', '/nowhere']) {
      await page.goto(`${env.server.url}${path}`);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await lowContrast(page), [], `${path}, ${colorScheme}`);
    }
    const id = await page.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')).id);
    await page.goto(`${env.server.url}/p/${id}`);
    await page.waitForSelector('#profile-games li');
    assert.deepEqual(await lowContrast(page), [], `profile, ${colorScheme}`);
    await page.goto(env.server.url);
    await page.waitForSelector('#play');
    await page.selectOption('#pc-level', '1');
    await page.click('#play-computer');
    await page.waitForURL(/\/g\//);
    await page.waitForSelector('.clock');
    assert.deepEqual(await lowContrast(page), [], `game, ${colorScheme}`);
    // The measure itself: grey on white is caught.
    await page.evaluate(() => {
      const probe = document.createElement('p');
      probe.textContent = 'probe';
      probe.style.cssText = 'color:#aaaaaa;background:#ffffff';
      document.body.append(probe);
    });
    assert.match((await lowContrast(page)).join(), /"probe" 2\.3\d:1/);
    await context.close();
  }
});

test('a spectator follows the players into their rematch', async () => {
  const { red, blue } = await matchPages(
    await newPlayer(env.browser, env.server.url, 'Rematch Red', { width: 1366, height: 900 }),
    await newPlayer(env.browser, env.server.url, 'Rematch Blue', { width: 1366, height: 900 }),
  );
  const first = new URL(red.url()).pathname;
  const fan = await newPlayer(env.browser, env.server.url, 'Loyal Fan', phone);
  await fan.goto(`${env.server.url}${first}`);
  await fan.waitForSelector('.clock');
  await blue.click('#resign');
  await blue.click('#resign-yes');
  await fan.waitForSelector('#end');
  await red.click('#rematch');
  await blue.click('#rematch');
  await red.waitForFunction((path) => location.pathname !== path, first);
  const second = new URL(red.url()).pathname;
  await fan.waitForFunction((path) => location.pathname === path, second);
  await fan.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  for (const page of [red, blue, fan]) await page.context().close();
});
