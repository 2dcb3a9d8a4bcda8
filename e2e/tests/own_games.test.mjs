// One's own games are one's own (issue 51): a finished game opened after its room has closed
// (here after a restart, as five minutes after the end would) is still its player's: the board
// turned to their colour, "you" on their seat, no "you are watching", no report of oneself,
// no rematch of a room that is gone. Another player opening it watches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DEN_WIN_AT_PLY_13, artifacts, launchBrowser, matchPages, newPlayer, playMoves, startServer, useLanguage, watchPage } from './harness.mjs';

for (const [lang, viewport, watching] of [
  ['en', { width: 390, height: 844 }, /You are watching/],
  ['zh', { width: 1366, height: 900 }, /你正在观战/],
  ['zh-Hant', { width: 390, height: 844 }, /你正在觀戰/],
]) {
  test(`one's own finished game, its room closed, is one's own (${lang}, ${viewport.width}px)`, async () => {
    const first = await startServer();
    const browser = await launchBrowser();
    let again = null;
    try {
      const { red, blue } = await matchPages(
        await newPlayer(browser, first.url, 'Own_Game_Alice_Longest_', viewport),
        await newPlayer(browser, first.url, 'Own_Game_Bob', viewport),
      );
      await playMoves(red, blue, DEN_WIN_AT_PLY_13);
      await blue.waitForFunction(() => window.jungleApp.store.state.game?.status === 'finished');
      const game = await blue.evaluate(() => window.jungleApp.store.state.game.game);
      const bluePlayer = await blue.evaluate(() => localStorage.getItem('jungle.player'));
      await first.stopped();
      again = await startServer([], first.dir);
      // The same player on the restarted server (another port: another origin, so the
      // player's token is carried over).
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      watchPage(page, 'blue again');
      await page.goto(again.url);
      await page.evaluate(([player, l]) => {
        localStorage.setItem('jungle.player', /** @type {string} */ (player));
        localStorage.setItem('jungle.lang', l);
      }, [bluePlayer, lang]);
      await page.goto(`${again.url}/g/${game}`);
      await page.waitForFunction(() => window.jungleApp.store.state.game?.status === 'finished');
      await page.waitForSelector('#board [data-square="d1"]');
      assert.equal(await page.evaluate(() => window.jungleApp.store.state.game.you), 'blue');
      // Blue's den at the bottom.
      const [d1, d9] = [await page.locator('[data-square="d1"]').boundingBox(), await page.locator('[data-square="d9"]').boundingBox()];
      assert.ok(d9.y > d1.y, 'the board is turned to Blue');
      const text = await page.locator('#app').innerText();
      assert.doesNotMatch(text, watching);
      const me = await page.evaluate(() => window.jungleApp.session.player.id);
      assert.equal(await page.locator(`.report-links a[href^="/p/${me}"]`).count(), 0, 'no report of oneself');
      assert.equal(await page.locator('.report-links a').count(), 1, 'the opponent may be reported');
      assert.equal(await page.locator('#rematch, #bar-rematch').count(), 0, 'no rematch: the room is gone');
      await page.screenshot({ path: join(artifacts, `own-game-${lang}-${viewport.width}.png`) });
      // Someone else opening it watches.
      const fan = await newPlayer(browser, again.url, 'Fan', viewport);
      await useLanguage(fan, lang);
      await fan.goto(`${again.url}/g/${game}`);
      await fan.waitForFunction(() => window.jungleApp.store.state.game?.status === 'finished');
      // The game page arrives (its module fetched on first showing).
      await fan.waitForSelector('#board');
      assert.match(await fan.locator('#app').innerText(), watching);
    } finally {
      await browser.close();
      again?.stop();
      first.stop();
    }
  });
}
