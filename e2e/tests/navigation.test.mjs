// Moving between pages on a phone: a new page starts at its top, wherever the page left was
// scrolled to (issue 51: a new room's link and a new game's board were off screen).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

test('on a phone a page reached from a scrolled lobby starts at its top', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Scroller', { width: 390, height: 844 });
  await page.waitForSelector('#full-leaderboard');
  await page.evaluate(() => window.scrollTo(0, 800));
  const down = await page.evaluate(() => window.scrollY);
  assert.ok(down > 300, `the lobby was scrolled down (${down} px)`);
  // The header's link to the rules (a long page), followed without scrolling to it first.
  await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('a[href="/rules/classic"]')).click());
  await page.waitForURL(/\/rules\/classic/);
  await page.waitForSelector('.rules-text li');
  const tall = await page.evaluate(() => document.body.scrollHeight - window.innerHeight);
  assert.ok(tall > down, `the rules page is longer than the lobby was scrolled (${tall} px)`);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the new page is at its top');
  await page.screenshot({ path: join(artifacts, 'navigation-top-390.png') });
  await page.context().close();
});

test('on a phone a new private room shows its link to share, and the game its board', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Maximilian_Longername_24', { width: 390, height: 844 });
  await host.evaluate(() => window.scrollTo(0, 600));
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  const inView = (selector) => host.evaluate((s) => {
    const box = /** @type {HTMLElement} */ (document.querySelector(s)).getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }, selector);
  assert.ok(await inView('#room-link'), 'the link is on screen');
  assert.ok(await inView('#copy-link'), 'and its copy button');
  await host.screenshot({ path: join(artifacts, 'room-link-390.png') });
  const link = await host.inputValue('#room-link');
  const guest = await newPlayer(env.browser, env.server.url, 'Guest_With_A_Long_Name_1', { width: 390, height: 844 });
  await guest.evaluate(() => window.scrollTo(0, 600));
  await guest.goto(link);
  await guest.click('#take-seat');
  for (const page of [host, guest]) {
    // The game has begun: the room's panel has gone from above the board.
    await page.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active' && !document.querySelector('#room-link'));
    const board = await page.evaluate(() => {
      const box = /** @type {HTMLElement} */ (document.querySelector('#board')).getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: window.innerHeight };
    });
    assert.ok(board.top >= 0 && board.bottom <= board.height, `the whole board is on screen: ${JSON.stringify(board)}`);
  }
  await guest.screenshot({ path: join(artifacts, 'room-game-390.png') });
  await host.context().close();
  await guest.context().close();
});
