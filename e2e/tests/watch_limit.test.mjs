// A socket follows at most 32 games (the server answers `limit_reached` past that): the
// client lets go of a game (`unwatch`) when its page is left for another page or game, except
// a game in one sitting that the reader plays and that is still in progress, and follows a
// game again (`watch`) when its page is opened again. A reader who opens game after game
// (35 here) is never stuck on the 33rd.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPlayer, startServer } from './harness.mjs';

/** @type {{ url: string, stop: () => void }} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  // Rate limits off: 12 guests open 36 games against the computer from one address.
  server = await startServer(['--no-rate-limits']);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/**
 * `count` games against the computer in progress, opened through the WebSocket protocol by
 * guests (three each, the most one may play) from a page of their own: their ids.
 * @param {import('playwright-core').Page} page
 * @param {number} count
 */
async function computerGames(page, count) {
  return page.evaluate(async (n) => {
    const ids = [];
    /** @type {WebSocket[]} */
    const sockets = [];
    window.hosts = sockets;
    for (let h = 0; ids.length < n; h++) {
      const response = await fetch('/api/players', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Host ${h}` }),
      });
      const { token } = await response.json();
      const ws = new WebSocket(`ws://${location.host}/ws`);
      sockets.push(ws);
      await new Promise((resolve) => { ws.onopen = resolve; });
      ws.send(JSON.stringify({ t: 'hello', token }));
      for (let k = 0; k < 3 && ids.length < n; k++) {
        const id = await new Promise((resolve, reject) => {
          ws.onmessage = (event) => {
            const frame = JSON.parse(event.data);
            if (frame.t === 'game' && frame.status === 'active' && frame.moves.length === 0) resolve(frame.game);
            if (frame.t === 'error') reject(new Error(`${frame.code}: ${frame.message}`));
          };
          ws.send(JSON.stringify({ t: 'play_computer', rules: 'classic', clock: { kind: 'fischer', base_s: 600, inc_s: 5 }, level: 1, color: 'red' }));
        });
        // A first move: the game is under way (an unplayed game is aborted after a while).
        ws.send(JSON.stringify({ t: 'move', game: id, mv: 'e3d3' }));
        ids.push(id);
      }
      ws.onmessage = null;
    }
    return ids;
  }, count);
}

/** Records the frames `page`'s session sends from now on, in `window.sent`. */
async function recordSent(page) {
  await page.evaluate(() => {
    const session = window.jungleApp.session;
    const send = session.send;
    window.sent = [];
    session.send = (frame) => {
      window.sent.push(frame);
      send(frame);
    };
  });
}

/** Opens game `id` on `page` from within the app (the same socket) and waits for its board. */
async function openGame(page, id) {
  await page.evaluate((g) => window.jungleApp.router.navigate(`/g/${g}`), id);
  await page.waitForFunction((g) => window.jungleApp.store.state.game?.game === g
    && document.querySelector('[data-square="a1"]') != null && !document.querySelector('#status:not([hidden])'), id);
}

test('a reader opens 35 games one after another: each left is let go, none is refused, one opened again is followed again', async () => {
  const hostPage = await (await browser.newContext()).newPage();
  await hostPage.goto(server.url);
  const games = await computerGames(hostPage, 35);
  assert.equal(new Set(games).size, 35);

  const page = await newPlayer(browser, server.url, 'Reader');
  /** @type {string[]} */
  const refusals = [];
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    if (String(payload).includes('limit_reached')) refusals.push(String(payload));
  }));
  await recordSent(page);

  for (const [i, id] of games.entries()) {
    await openGame(page, id);
    // Now and then by way of the lobby, as from its list of games.
    if (i % 5 === 4 && i < games.length - 1) {
      await page.evaluate(() => window.jungleApp.router.navigate('/'));
      await page.waitForSelector('#play');
    }
  }
  assert.deepEqual(refusals, []);
  assert.ok(await page.locator('[data-square="a1"]').isVisible(), 'the 35th game is shown');
  const sent = await page.evaluate(() => window.sent);
  const unwatched = sent.filter((f) => f.t === 'unwatch').map((f) => f.game);
  // Every game left was let go, once.
  assert.deepEqual(unwatched, games.slice(0, 34));

  // A game left earlier, its state still held, is followed again when opened again.
  await page.evaluate(() => window.jungleApp.router.navigate('/'));
  await page.waitForSelector('#play');
  await page.evaluate(() => { window.sent = []; });
  await openGame(page, games[34]);
  assert.deepEqual(await page.evaluate(() => window.sent), [{ t: 'watch', game: games[34] }]);
  // ...and one left long ago too.
  await openGame(page, games[0]);
  assert.deepEqual(await page.evaluate(() => window.sent.filter((f) => f.t === 'watch').map((f) => f.game)), [games[34], games[0]]);
  assert.deepEqual(refusals, []);

  // A game in one sitting the reader plays, in progress, stays followed when its page is left.
  await page.evaluate(() => window.jungleApp.router.navigate('/'));
  await page.waitForSelector('#play-computer');
  await page.selectOption('#pc-clock', '10+5');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\//);
  const own = await page.evaluate(() => window.jungleApp.store.state.game.game);
  await page.evaluate(() => { window.sent = []; });
  await page.evaluate(() => window.jungleApp.router.navigate('/'));
  await page.waitForSelector('#play');
  assert.deepEqual(await page.evaluate(() => window.sent.filter((f) => f.t === 'unwatch')), []);
  await page.evaluate((g) => window.jungleApp.router.navigate(`/g/${g}`), own);
  await page.waitForSelector('[data-square="a1"]');
  assert.deepEqual(await page.evaluate(() => window.sent.filter((f) => f.t === 'watch')), []);
  await hostPage.evaluate(() => window.hosts.forEach((ws) => ws.close()));
});
