// Fair play in the browser: a live game's page offers no analysis (it says why), the analysis
// board opened on it or on its pasted position gets nothing from the engine, and everything
// opens once the game ends. The app runs under the server's Content-Security-Policy
// throughout (the harness fails on any violation). Phone and desktop sizes, both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage, watchPage } from './harness.mjs';

const env = serverAndBrowser();

test('the server sends its security headers', async () => {
  const answer = await fetch(`${env.server.url}/`);
  const policy = answer.headers.get('content-security-policy') ?? '';
  assert.match(policy, /script-src 'self'/);
  assert.match(policy, /frame-ancestors 'none'/);
  assert.doesNotMatch(policy, /unsafe-inline/);
  assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(answer.headers.get('x-frame-options'), 'DENY');
  assert.equal(answer.headers.get('referrer-policy'), 'same-origin');
});

for (const [lang, viewport] of [['en', { width: 390, height: 844 }], ['zh', { width: 1366, height: 900 }]]) {
  test(`no engine on a live game, everything after it (${lang}, ${viewport.width}px)`, async () => {
    const alice = await newPlayer(env.browser, env.server.url, 'Alice', viewport);
    const bob = await newPlayer(env.browser, env.server.url, 'Bob', viewport);
    for (const page of [alice, bob]) {
      await useLanguage(page, lang);
      await page.reload();
      await page.waitForSelector('#play');
      await page.uncheck('#qm-rated').catch(() => {});
    }
    const { red, blue } = await matchPages(alice, bob);
    await playMoves(red, blue, ['e3d3', 'a9b9']);
    const game = new URL(red.url()).pathname.split('/').pop();

    // The game page: no analysis link, a note saying why.
    assert.equal(await red.locator('#analyse-game').isVisible(), false);
    await red.locator('#analyse-later').waitFor({ state: 'visible' });
    await red.screenshot({ path: join(artifacts, `fairplay-live-${lang}-${viewport.width}.png`) });

    // A spectator opens the analysis board on it: the moves, but no evaluation.
    const board = await newPlayer(env.browser, env.server.url, 'Watcher', viewport);
    await useLanguage(board, lang);
    await board.goto(`${env.server.url}/analysis?game=${game}`);
    await board.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '2 / 2');
    const closed = await board.locator('#eval-text').innerText();
    assert.ok(closed.length > 20, `the board says why: ${closed}`);
    assert.equal(await board.locator('#pv').innerText(), '');
    // Pasting the live position instead: the server refuses it too.
    const record = await (await fetch(`${env.server.url}/api/games/${game}`)).json();
    await board.goto(`${env.server.url}/analysis`);
    await board.waitForSelector('#import-text');
    await board.fill('#import-text', record.positions.at(-1));
    await board.click('#import-load');
    await board.waitForFunction((before) => {
      const text = document.querySelector('#eval-text')?.textContent ?? '';
      return text.length > 20 && text !== before;
    }, '…');
    assert.equal(await board.locator('#pv').innerText(), '');
    await board.screenshot({ path: join(artifacts, `fairplay-board-${lang}-${viewport.width}.png`) });

    // Over: the link is back, and the engine speaks.
    await red.click('#resign');
    await red.click('#resign-yes');
    await red.waitForSelector('#end');
    await red.locator('#analyse-game').waitFor({ state: 'visible' });
    assert.equal(await red.locator('#analyse-later').isVisible(), false);
    await board.goto(`${env.server.url}/analysis?game=${game}`);
    await board.waitForFunction(() => /\d/.test(document.querySelector('#eval-depth')?.textContent ?? ''));
    assert.notEqual(await board.locator('#pv').innerText(), '');
    await board.context().close();
    await alice.context().close();
    await bob.context().close();
  });
}
