// The tab says "your move" (issue 52): a player looking at another tab sees in its title, and
// by a dot on its icon, that a move is theirs; and the result once the game ends.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEN_WIN_AT_PLY_13, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

const titled = (page, re) => page.waitForFunction((source) => new RegExp(source).test(document.title), re.source);
const dotted = (page) => page.evaluate(() => /** @type {HTMLLinkElement} */ (document.querySelector('link[rel="icon"]')).href.startsWith('data:image/png'));

test('the tab title and icon say whose move it is, and the result', async () => {
  const { red, blue } = await matchPages(
    await newPlayer(env.browser, env.server.url, 'Title_Red_Longest_Name_', { width: 1366, height: 900 }),
    await newPlayer(env.browser, env.server.url, 'Title_Blue', { width: 390, height: 844 }),
  );
  await useLanguage(blue, 'zh');
  await blue.reload();
  await titled(red, /^● Your move · Jungle Arena$/);
  await titled(blue, /^斗兽棋 · Jungle Arena$/);
  assert.equal(await dotted(red), true);
  assert.equal(await dotted(blue), false);
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(0, 1));
  await titled(blue, /^● 轮到你走 · 斗兽棋/);
  await titled(red, /^Jungle Arena$/);
  assert.equal(await dotted(red), false);
  assert.equal(await dotted(blue), true);
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(1), 1);
  await titled(red, /^You win · Jungle Arena$/);
  await titled(blue, /^你输了 · 斗兽棋/);
  assert.equal(await dotted(blue), false);
  // Another page: the site's name again.
  await red.evaluate(() => window.jungleApp.router.navigate('/rules/classic'));
  await titled(red, /^Jungle Arena$/);
  await red.context().close();
  await blue.context().close();
});
