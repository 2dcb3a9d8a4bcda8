// Tournaments in the browser (issue 15): one is made from the lobby, shows in another player's
// list with its countdown, and has its page; two players join a private one by its link, are
// paired, play, and see the standings change; on a phone in Chinese (the longest name allowed)
// and on a desktop in English.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { lowContrast } from './contrast.mjs';
import { artifacts, DEN_WIN_AT_PLY_13, mySide, newPlayer, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

test('a tournament made in the lobby is listed for others and has its page', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Tournament Director 24c', { width: 1366, height: 900 });
  // A guest may only make a private tournament, and is told so.
  await host.click('#tournaments summary');
  assert.equal(await host.locator('#tour-private').isDisabled(), true);
  assert.match(await host.locator('#tour-form').innerText(), /Public tournaments are made by accounts/);
  // With an account, a public one.
  await host.fill('#claim-user', 'TournamentDirector');
  await host.fill('#claim-pass', 'correct horse battery');
  await host.click('#claim-form button[type=submit]');
  await host.waitForSelector('#sign-out');
  await host.waitForSelector('#tour-private:not([disabled])', { state: 'attached' });
  if (!(await host.locator('#tour-name').isVisible())) await host.click('#tournaments summary');
  await host.fill('#tour-name', 'Friday Night Jungle Arena Open');
  await host.selectOption('#tour-minutes', '45');
  await host.click('#tour-form button[type=submit]');
  await host.waitForURL(/\/t\//);
  await host.waitForFunction(() => document.querySelector('#tour-title')?.textContent === 'Friday Night Jungle Arena Open');
  await host.waitForFunction(() => /In progress/.test(document.querySelector('#tour-status')?.textContent ?? ''));
  assert.match(await host.locator('#tour-left').innerText(), /Ends in 4\d:\d\d/);
  await host.screenshot({ path: join(artifacts, 'tournament-1366.png'), fullPage: true });

  const guest = await newPlayer(env.browser, env.server.url, 'Curious Onlooker', { width: 390, height: 844 });
  await useLanguage(guest, 'zh');
  await guest.reload();
  await guest.waitForSelector('#tour-list a');
  assert.match(await guest.locator('#tour-list').innerText(), /Friday Night Jungle Arena Open/);
  assert.match(await guest.locator('#tour-list').innerText(), /距结束 4\d:\d\d/);
  assert.ok(await guest.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await guest.locator('#tournaments').scrollIntoViewIfNeeded();
  await guest.screenshot({ path: join(artifacts, 'tournaments-zh-390.png') });
  await guest.click('#tour-list a');
  await guest.waitForFunction(() => /进行中/.test(document.querySelector('#tour-status')?.textContent ?? ''));
  await host.context().close();
  await guest.context().close();
});

test('two players join a private tournament by its link, are paired, play, and see the standings change', async () => {
  const longName = 'Grandmaster of the Jungl'; // 24 characters, the longest name allowed
  const host = await newPlayer(env.browser, env.server.url, 'Club Host', { width: 1366, height: 900 });
  await host.click('#tournaments summary');
  await host.fill('#tour-name', 'Thursday club night arena');
  await host.check('#tour-private');
  await host.click('#tour-form button[type=submit]');
  await host.waitForURL(/\/t\/[0-9a-f-]+\?code=/);
  const link = await host.locator('#tour-share input').inputValue();
  assert.match(link, /\/t\/[0-9a-f-]{36}\?code=[A-Z0-9]{8}$/);
  // Private: not in the lobby's list.
  const listed = await host.evaluate(async () => (await fetch('/api/tournaments')).json());
  assert.ok(![...listed.running, ...listed.upcoming].some((t) => t.name === 'Thursday club night arena'));
  await host.click('#tour-join');
  await host.waitForSelector('#tour-withdraw:not([hidden])');

  const guest = await newPlayer(env.browser, env.server.url, longName, { width: 390, height: 844 });
  await useLanguage(guest, 'zh');
  // Without the code the page shows the refusal; with the link, joining works.
  await guest.goto(link.replace(/\?code=.*/, ''));
  await guest.waitForSelector('#tour-join:not([hidden])');
  await guest.click('#tour-join');
  await guest.waitForFunction(() => /私人比赛/.test(document.querySelector('#tour-error')?.textContent ?? ''));
  await guest.goto(link);
  await guest.waitForFunction(() => document.querySelectorAll('#tour-standings tr').length === 1
    && /Club Host/.test(document.querySelector('#tour-standings')?.textContent ?? ''));
  await guest.screenshot({ path: join(artifacts, 'tournament-private-zh-390.png'), fullPage: true });
  assert.ok(await guest.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await guest.click('#tour-join');

  // Paired within a second or two: each game opens by itself.
  await host.waitForURL(/\/g\//, { timeout: 10000 });
  await guest.waitForURL(/\/g\//, { timeout: 10000 });
  const red = (await mySide(host)) === 'red' ? host : guest;
  const blue = red === host ? guest : host;
  assert.ok(await red.evaluate(() => window.jungleApp.store.state.game.tournament));
  await playMoves(red, blue, DEN_WIN_AT_PLY_13);
  await red.waitForSelector('#end');
  // No rematch in a tournament: the way back is to the tournament, and the game was rated.
  assert.equal(await red.locator('#rematch').count(), 0);
  await red.screenshot({ path: join(artifacts, 'tournament-game-over.png') });

  // Back on the tournament page the host withdraws (before the next pairing, a few seconds
  // after the game), and both see the winner's 2 points, live.
  const winnerName = red === host ? 'Club Host' : longName;
  await host.locator('#end a[href^="/t/"]').click();
  await host.click('#tour-withdraw');
  await host.waitForSelector('#tour-join:not([hidden])');
  await guest.locator('#end a[href^="/t/"]').click();
  for (const page of [host, guest]) {
    await page.waitForFunction((name) => {
      const first = document.querySelector('#tour-standings tr');
      return first && first.textContent.includes(name) && /\b2\b/.test(first.children[3]?.textContent ?? '');
    }, winnerName, { timeout: 10000 });
  }
  await guest.screenshot({ path: join(artifacts, 'tournament-standings-zh-390.png'), fullPage: true });
  await host.screenshot({ path: join(artifacts, 'tournament-standings-1366.png'), fullPage: true });
  assert.ok(await guest.evaluate(() => document.documentElement.scrollWidth) <= 390);
  // Withdrawing paused the host: the line says so.
  await guest.waitForFunction(() => /已暂停/.test(document.querySelector('#tour-standings')?.textContent ?? ''));
  // Every text on the page is readable, in both themes.
  for (const page of [host, guest]) {
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await lowContrast(page), [], `tournament page, ${colorScheme}`);
    }
  }
  await host.context().close();
  await guest.context().close();
});
