// Game review in the browser: a finished game steps back and forth by buttons, keys and the
// move list; `/g/<id>#N` opens at turn N; the game downloads as text. Phone and desktop sizes,
// both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, clickMove, DEN_WIN_AT_PLY_13, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

/** Whether an animal stands on `square` of the page's board. */
const occupied = (page, square) => page.locator(`[data-square="${square}"] .piece`).count().then((n) => n > 0);
const shownPly = (page) => page.locator('#replay-ply').innerText();

for (const [lang, viewport] of [['en', { width: 390, height: 844 }], ['zh', { width: 1366, height: 900 }]]) {
  test(`a finished game replays (${lang}, ${viewport.width}px)`, async () => {
    const alice = await newPlayer(env.browser, env.server.url, 'Maximiliana Longname_24x', viewport);
    const bob = await newPlayer(env.browser, env.server.url, 'Bartholomew Q Longname24', viewport);
    for (const page of [alice, bob]) {
      await useLanguage(page, lang);
      await page.reload();
      await page.waitForSelector('#play');
      await page.uncheck('#qm-rated').catch(() => {});
    }
    const { red, blue } = await matchPages(alice, bob);
    await playMoves(red, blue, DEN_WIN_AT_PLY_13);
    await red.waitForSelector('#end');
    const page = blue;
    assert.equal(await shownPly(page), '13 / 13');

    await page.click('[data-step="first"]');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '0 / 13');
    assert.equal(await occupied(page, 'e3'), true, 'the start: the leopard on e3');
    assert.match(page.url(), /#0$/);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '1 / 13');
    assert.equal(await occupied(page, 'e3'), false);
    assert.equal(await occupied(page, 'd3'), true, 'after e3d3');
    await page.click('#moves [data-ply="5"]');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '5 / 13');
    assert.equal(await occupied(page, 'd5'), true, 'after d4d5');
    assert.equal(await page.locator('#moves [data-ply="5"]').getAttribute('aria-current'), 'step');
    await page.screenshot({ path: join(artifacts, `replay-${lang}-${viewport.width}.png`), fullPage: true });
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '13 / 13');
    assert.equal(await occupied(page, 'd9'), true, 'the den entered');

    // A link to a turn opens there, in a fresh page.
    const id = new URL(page.url()).pathname.split('/').pop();
    const other = await page.context().newPage();
    await other.goto(`${env.server.url}/g/${id}#3`);
    await other.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '3 / 13');
    assert.equal(await occupied(other, 'd4'), true, 'after e3d3 a9b9 d3d4');
    await other.click('[data-step="prev"]');
    await other.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '2 / 13');
    const href = await other.locator('#download-game').getAttribute('href');
    assert.equal(href, `/api/games/${id}.jgn`);
    const text = await (await fetch(`${env.server.url}${href}`)).text();
    assert.match(text, /\[Termination "den"\]/);
    assert.match(text, /1\. e3d3 \{\[%clk 0:0\d:\d\d\]\} a9b9/);

    // Every turn evaluated: a graph under the board, marked turns, and a click on it moves there.
    await other.click('#analyse-whole');
    await other.waitForSelector('.eval-graph', { timeout: 30000 });
    assert.ok(await other.locator('.moves .mark-symbol').count() >= 1, 'Blue let Red walk in');
    // A person scrolls to the graph under the board first (on a phone it is below the fold).
    await other.locator('.eval-graph').scrollIntoViewIfNeeded();
    const graph = await other.locator('.eval-graph').boundingBox();
    await other.mouse.click(graph.x + graph.width / 2, graph.y + graph.height / 2);
    await other.waitForFunction(() => /^(6|7) \/ 13$/.test(document.querySelector('#replay-ply')?.textContent ?? ''));
    await other.screenshot({ path: join(artifacts, `evaluated-${lang}-${viewport.width}.png`), fullPage: true });
    await alice.context().close();
    await bob.context().close();
  });
}

for (const [lang, viewport] of [['zh', { width: 390, height: 844 }], ['en', { width: 1366, height: 900 }]]) {
  test(`the analysis board imports, varies and asks the engine (${lang}, ${viewport.width}px)`, async () => {
    const page = await newPlayer(env.browser, env.server.url, 'Analyst With A Long Name', viewport);
    await useLanguage(page, lang);
    await page.reload();
    await page.waitForSelector('#analysis-link');
    await page.click('#analysis-link');
    await page.waitForSelector('#import-text');
    // The engine speaks about the start position.
    await page.waitForFunction(() => /depth|深度/.test(document.querySelector('#eval-depth')?.textContent ?? ''));

    // A pasted game, stepped back, then a move of our own from there.
    await page.fill('#import-text', '[Rules "classic"]\n1. e3d3 a9b9 2. d3d4 *');
    await page.click('#import-load');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '3 / 3');
    await page.click('[data-step="prev"]');
    await page.click('[data-step="prev"]');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '1 / 3');
    // The list marks the move shown.
    assert.equal(await page.locator('#moves .move.current').innerText(), 'e3d3');
    assert.equal(await page.locator('#moves [aria-current="step"]').count(), 1);
    // Turned round, Blue's den is at the bottom; turned again, Red's.
    const denRow = () => page.evaluate(() => {
      const squares = [...document.querySelectorAll('[data-square]')];
      return squares.findIndex((el) => el.getAttribute('data-square') === 'd1') < squares.findIndex((el) => el.getAttribute('data-square') === 'd9') ? 'red-first' : 'blue-first';
    });
    const before = await denRow();
    await page.click('#flip');
    assert.equal(await page.locator('#flip').getAttribute('aria-pressed'), 'true');
    assert.notEqual(await denRow(), before, 'the board turned round');
    await page.click('#flip');
    assert.equal(await denRow(), before);
    await page.waitForSelector('[data-square="g9"]');
    await clickMove(page, 'g9f9');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent === '2 / 2');
    assert.equal(await page.locator('#variation').isVisible(), true);
    await page.click('#back-to-game');
    await page.waitForFunction(() => document.querySelector('#replay-ply')?.textContent?.endsWith('/ 3'));
    assert.equal(await page.locator('#variation').isVisible(), false);

    // A position with a den entry in one: the engine says so and shows the move.
    await page.selectOption('#import-rules', 'international');
    await page.fill('#import-text', '2e4/3L3/7/7/7/7/7/7/7 r 0 30');
    await page.click('#import-load');
    await page.waitForFunction(() => /den in 1|1 步进兽穴/.test(document.querySelector('#eval-text')?.textContent ?? ''));
    assert.equal(await page.locator('[data-square="d8"].hint-from').count(), 1);
    assert.equal(await page.locator('[data-square="d9"].hint-to').count(), 1);
    await page.waitForTimeout(300); // the bar's slide
    await page.screenshot({ path: join(artifacts, `analysis-${lang}-${viewport.width}.png`), fullPage: true });

    // Bad text says where.
    await page.fill('#import-text', '1. e3d3 x9');
    await page.click('#import-load');
    await page.waitForFunction(() => /line 1, column 9/.test(document.querySelector('#import-error')?.textContent ?? ''));
    await page.context().close();
  });
}

test('a position set up in the editor is played against the computer (zh, 390px)', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Setter Upper Of Boards', { width: 390, height: 844 });
  await useLanguage(page, 'zh');
  await page.reload();
  await page.click('#editor-link');
  await page.waitForFunction(() => /走法/.test(document.querySelector('#ed-verdict')?.textContent ?? ''));
  await page.click('#ed-clear');
  await page.waitForFunction(() => document.querySelector('#ed-verdict')?.className === 'error');
  assert.equal(await page.locator('#ed-computer').isDisabled(), true);
  await page.selectOption('#ed-rules', 'international');
  await page.click('.palette-piece.red[data-letter="l"]');
  await page.click('[data-square="d8"]');
  await page.click('.palette-piece.blue[data-letter="e"]');
  await page.click('[data-square="c9"]');
  await page.waitForFunction(() => document.querySelector('#ed-text')?.value === '2e4/3L3/7/7/7/7/7/7/7 r 0 1');
  await page.waitForFunction(() => document.querySelector('#ed-verdict')?.className === 'muted');
  await page.screenshot({ path: join(artifacts, 'editor-zh-390.png'), fullPage: true });
  await page.selectOption('#ed-colour', 'red');
  await page.click('#ed-computer');
  await page.waitForURL(/\/g\//);
  await page.waitForFunction(() => window.jungleApp.store.state.game?.start === '2e4/3L3/7/7/7/7/7/7/7 r 0 1');
  await clickMove(page, 'd8d9');
  await page.waitForSelector('#end');
  assert.match(await page.locator('#end').innerText(), /你赢了/, 'the winner reads it as theirs');
  await page.context().close();
});

test('bad text in the editor shows where it is wrong and changes nothing (en, 1366px)', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Typist', { width: 1366, height: 900 });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${env.server.url}/editor`);
  await page.waitForFunction(() => /legal moves/.test(document.querySelector('#ed-verdict')?.textContent ?? ''));
  const board = await page.locator('#board').innerHTML();
  const cases = [
    ['hello', /1 ranks; a board has 9/],
    ['l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r', /Rank 9 has 8 squares/],
    ['l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X r', /Rank 1: “X” is no animal/],
    ['l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x', /“x” after the board/],
  ];
  for (const [text, said] of cases) {
    await page.fill('#ed-text', text);
    await page.press('#ed-text', 'Enter');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#ed-verdict')?.textContent ?? ''), said.source);
    assert.equal(await page.locator('#ed-verdict').getAttribute('class'), 'error');
    assert.equal(await page.locator('#ed-computer').isDisabled(), true, `nothing to play from “${text}”`);
    assert.equal(await page.locator('#board').innerHTML(), board, 'the board is as it was');
  }
  // Good text again: drawn and judged.
  await page.fill('#ed-text', '2e4/3L3/7/7/7/7/7/7/7 r 0 1');
  await page.press('#ed-text', 'Enter');
  await page.waitForFunction(() => document.querySelector('#ed-verdict')?.className === 'muted');
  assert.equal(await page.locator('[data-square="d8"] .piece').count(), 1);
  assert.deepEqual(errors, []);
  await page.context().close();
});
