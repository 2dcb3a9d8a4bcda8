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

/** Notifications stubbed in `context`: what was shown is kept in `window.notes`; the tab is
 * hidden while `window.hideTab` is true. */
async function withNotifications(context) {
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.notes = [];
    w.hideTab = false;
    class Recorded {
      static permission = 'default';
      static async requestPermission() {
        Recorded.permission = 'granted';
        return 'granted';
      }
      constructor(title, options) {
        w.notes.push({ title, body: options?.body ?? '' });
      }
      close() {}
    }
    w.Notification = Recorded;
    Object.defineProperty(document, 'visibilityState', { get: () => (w.hideTab ? 'hidden' : 'visible') });
  });
}

async function player(name) {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  await withNotifications(context);
  const page = await context.newPage();
  await page.goto(env.server.url);
  await page.fill('#name', name);
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  return page;
}

test('a hidden tab notifies the player of their move and of the result, once they allowed it', async () => {
  const { red, blue } = await matchPages(await player('Notified_Red'), await player('Notified_Blue'));
  // Never asked on its own: a button asks, and goes once answered.
  await blue.waitForSelector('#ask-notify');
  await blue.click('#ask-notify');
  await blue.waitForSelector('#ask-notify', { state: 'detached' });
  await blue.evaluate(() => { /** @type {any} */ (window).hideTab = true; });
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(0, 1));
  await blue.waitForFunction(() => /** @type {any} */ (window).notes.length === 1);
  const [note] = await blue.evaluate(() => /** @type {any} */ (window).notes);
  assert.equal(note.title, 'Your move');
  const redName = await red.evaluate(() => window.jungleApp.session.player.name);
  assert.equal(note.body, `${redName} played e3d3`);
  // A visible tab is not notified; nor is a player who was never asked.
  await blue.evaluate(() => { /** @type {any} */ (window).hideTab = false; });
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(1, 3), 1);
  await blue.evaluate(() => { /** @type {any} */ (window).hideTab = true; });
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(3), 3);
  await blue.waitForFunction(() => /** @type {any} */ (window).notes.some((n) => n.title === 'You lose'));
  assert.deepEqual(await red.evaluate(() => /** @type {any} */ (window).notes), []);
  await red.context().close();
  await blue.context().close();
});
