// Puzzles in the browser (issue 27): the board turned to the solver, the opponent's mistake
// played first, the solution found move by move (the opponent answering), the result, the
// themes and the ratings; a wrong move marked as one. At 390 and 1366 px, in every language.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, clickMove, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

/** The puzzle the page shows, from its address, as the API gives it. */
async function shownPuzzle(page) {
  await page.waitForURL(/\/puzzles\/[a-z0-9]{8}$/);
  const id = page.url().split('/').pop();
  return (await fetch(`${env.server.url}/api/puzzles/${id}`)).json();
}

/** Waits for the page to wait for the solver's move. */
const solversTurn = (page) => page.waitForSelector('.puzzles[data-phase="play"]');

/** A legal move of the solver's that is not the solution's first (and does not win at once). */
function wrongMove(page, puzzle) {
  return page.evaluate(async ({ url, puzzle }) => {
    const line = await (await fetch(`${url}/api/lines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: puzzle.rules, start: puzzle.position, moves: [puzzle.blunder] }),
    })).json();
    for (const mv of line.legal) {
      if (mv === puzzle.solution[0]) continue;
      const after = await (await fetch(`${url}/api/lines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rules: puzzle.rules, start: puzzle.position, moves: [puzzle.blunder, mv] }),
      })).json();
      if (after.outcome?.winner !== puzzle.solver) return mv;
    }
    return null;
  }, { url: env.server.url, puzzle });
}

/** Plays the puzzle's solution from the solver's first move. */
async function solve(page, puzzle) {
  for (let i = 0; i < puzzle.solution.length; i += 2) {
    await solversTurn(page);
    await clickMove(page, puzzle.solution[i]);
    if (i + 1 < puzzle.solution.length) await page.waitForSelector('.puzzle-status.right');
  }
}

const cases = [
  ['en', { width: 390, height: 844 }, /Solved/], ['en', { width: 1366, height: 900 }, /Solved/],
  ['zh', { width: 390, height: 844 }, /解开了/], ['zh', { width: 1366, height: 900 }, /解开了/],
  ['zh-Hant', { width: 390, height: 844 }, /解開了/], ['zh-Hant', { width: 1366, height: 900 }, /解開了/],
];

for (const [lang, viewport, solvedText] of cases) {
  test(`a puzzle is solved move by move (${lang}, ${viewport.width}px)`, async () => {
    const page = await newPlayer(env.browser, env.server.url, 'Puzzle_Solver_Longest_Nm', viewport);
    await useLanguage(page, lang);
    await page.goto(`${env.server.url}/puzzles`);
    const puzzle = await shownPuzzle(page);
    // The board is the solver's way up: their side at the bottom.
    await solversTurn(page);
    const [red, blue] = [await page.locator('[data-square="d1"]').boundingBox(), await page.locator('[data-square="d9"]').boundingBox()];
    assert.equal(red.y > blue.y ? 'red' : 'blue', puzzle.solver, 'the solver\'s den is at the bottom');
    for (let i = 0; i < puzzle.solution.length; i += 2) {
      await solversTurn(page);
      await clickMove(page, puzzle.solution[i]);
      if (i + 1 < puzzle.solution.length) {
        await page.waitForSelector('.puzzle-status.right');
      }
    }
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#puzzle-status')?.textContent ?? ''), solvedText.source);
    await page.waitForSelector('#puzzle-about:not([hidden]) .themes');
    await page.waitForSelector('#puzzle-next:not([hidden])');
    await page.screenshot({ path: join(artifacts, `puzzle-solved-${lang}-${viewport.width}.png`), fullPage: viewport.width > 400 });
    // The next one opens, and a wrong move there is marked.
    await page.click('#puzzle-next');
    await page.waitForURL((url) => !url.pathname.endsWith(puzzle.id));
    const second = await shownPuzzle(page);
    await solversTurn(page);
    const legal = await page.locator('#board [data-square]').evaluateAll((squares) => squares.length);
    assert.equal(legal, 63);
    // Any move but the solution's (and not a den entry): the first other legal move shown.
    const expected = second.solution[0];
    const wrong = await wrongMove(page, second);
    assert.ok(wrong && wrong !== expected);
    await clickMove(page, wrong);
    await page.waitForSelector('.puzzle-status.wrong');
    await page.waitForSelector('#puzzle-about:not([hidden])');
    // The solution may still be asked for: it is played out, and written.
    await page.click('#puzzle-solution');
    await page.waitForFunction((first) => document.querySelector('#puzzle-status')?.textContent.includes(first), second.solution[0]);
    await page.waitForSelector('#puzzle-solution', { state: 'hidden' });
    if (viewport.width < 400) await page.screenshot({ path: join(artifacts, `puzzle-failed-${lang}-390.png`) });
    await page.context().close();
  });
}

for (const [lang, viewport] of cases) {
  test(`the theme filter offers the themes there are enough puzzles of, with their counts (${lang}, ${viewport.width}px)`, async () => {
    const page = await newPlayer(env.browser, env.server.url, 'Theme_Filter_Longest_Nm', viewport);
    await useLanguage(page, lang);
    await page.goto(`${env.server.url}/puzzles?rules=international`);
    await shownPuzzle(page);
    const counts = await (await fetch(`${env.server.url}/api/puzzles/themes?rules=international`)).json();
    const enough = counts.themes.filter((c) => c.count >= 5);
    await page.waitForFunction((n) => document.querySelectorAll('#puzzle-theme option').length === n + 1, enough.length);
    const options = await page.locator('#puzzle-theme option').evaluateAll((all) => all.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options.map(([value]) => value), ['', ...enough.map((c) => c.theme)]);
    assert.ok(options[0][1].endsWith(`(${counts.total})`), options[0][1]);
    for (const [i, c] of enough.entries()) assert.ok(options[i + 1][1].endsWith(`(${c.count})`), options[i + 1][1]);
    assert.ok(enough.length >= 6, `themes to filter by: ${enough.map((c) => c.theme)}`);
    // The rarest theme offered deals a puzzle of it.
    const rarest = enough.reduce((a, b) => (b.count < a.count ? b : a));
    const before = page.url();
    await page.selectOption('#puzzle-theme', rarest.theme);
    await page.waitForURL((url) => url.href !== before);
    const puzzle = await shownPuzzle(page);
    assert.ok(puzzle.themes.includes(rarest.theme), `${rarest.theme}: ${puzzle.themes}`);
    await solversTurn(page);
    await page.screenshot({ path: join(artifacts, `puzzle-theme-${lang}-${viewport.width}.png`), fullPage: true });
    // Opened by its address, a puzzle of another ruleset brings that ruleset's themes.
    const strict = await (await fetch(`${env.server.url}/api/puzzles/next?rules=strict`)).json();
    const strictCounts = await (await fetch(`${env.server.url}/api/puzzles/themes?rules=strict`)).json();
    await page.goto(`${env.server.url}/puzzles/${strict.id}`);
    await page.waitForFunction((total) => document.querySelector('#puzzle-theme option')?.textContent.endsWith(`(${total})`), strictCounts.total);
    assert.equal(await page.locator('#puzzle-rules').inputValue(), 'strict');
    await page.context().close();
  });
}

test('an account\'s solved puzzle moves its puzzle rating, shown on its profile (1366px)', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Rated_Puzzler', { width: 1366, height: 900 });
  await page.fill('#claim-user', 'RatedPuzzler');
  await page.fill('#claim-pass', 'correct horse battery');
  await page.click('#claim-form button[type=submit]');
  await page.waitForFunction(() => window.jungleApp.session.player?.username);
  await page.goto(`${env.server.url}/puzzles`);
  const puzzle = await shownPuzzle(page);
  for (let i = 0; i < puzzle.solution.length; i += 2) {
    await solversTurn(page);
    await clickMove(page, puzzle.solution[i]);
    if (i + 1 < puzzle.solution.length) await page.waitForSelector('.puzzle-status.right');
  }
  await page.waitForSelector('#puzzle-about:not([hidden])');
  await page.waitForFunction(() => /\(\+\d+\)/.test(document.querySelector('#puzzle-about')?.textContent ?? ''));
  const id = await page.evaluate(() => window.jungleApp.session.player.id);
  await page.goto(`${env.server.url}/p/${id}`);
  await page.waitForSelector('#profile-puzzles:not([hidden]) #puzzle-ratings li');
  assert.match(await page.locator('#puzzle-ratings').innerText(), /1 of 1 solved/);
  await page.context().close();
});

for (const [lang, viewport, again, helped] of [
  ['en', { width: 390, height: 844 }, /Try again/, /Solved, with help/],
  ['zh', { width: 1366, height: 900 }, /再试一次/, /在帮助下解开/],
  ['zh-Hant', { width: 390, height: 844 }, /再試一次/, /在幫助下解開/],
]) {
test(`a failed puzzle can be tried again, and a solve after a mistake or a hint counts as failed (${lang}, ${viewport.width}px)`, async () => {
  const page = await newPlayer(env.browser, env.server.url, `Retry_Puzzler_${lang}`, viewport);
  await page.fill('#claim-user', `RetryPuzzler${lang.replace('-', '')}`);
  await page.fill('#claim-pass', 'correct horse battery');
  await page.click('#claim-form button[type=submit]');
  await page.waitForFunction(() => window.jungleApp.session.player?.username);
  await useLanguage(page, lang);
  await page.goto(`${env.server.url}/puzzles`);
  const puzzle = await shownPuzzle(page);
  await solversTurn(page);
  await clickMove(page, await wrongMove(page, puzzle));
  await page.waitForSelector('.puzzle-status.wrong');
  // Counted at once as a failure: the rating went down.
  await page.waitForFunction(() => /\(−\d+\)/.test(document.querySelector('#puzzle-about')?.textContent ?? ''));
  await page.click('#puzzle-retry');
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#puzzle-status')?.textContent ?? ''), again.source);
  await page.screenshot({ path: join(artifacts, `puzzle-retry-${lang}-${viewport.width}.png`) });
  await solve(page, puzzle);
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#puzzle-status')?.textContent ?? ''), helped.source);
  const history = await page.evaluate(() => import('/js/api.js').then((api) => api.puzzleHistory(window.jungleApp.session.player.id)));
  assert.equal(history.attempts.length, 1, 'one attempt, the first');
  assert.equal(history.ratings[0].wins, 0, 'not counted as solved');

  // With the hint, a solve is not a clean one either: nothing gained.
  await page.click('#puzzle-next');
  await page.waitForURL((url) => !url.pathname.endsWith(puzzle.id));
  const second = await shownPuzzle(page);
  await solversTurn(page);
  await page.click('#puzzle-hint');
  await solve(page, second);
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#puzzle-status')?.textContent ?? ''), helped.source);
  await page.waitForFunction(() => /\(−\d+\)/.test(document.querySelector('#puzzle-about')?.textContent ?? ''));
  await page.context().close();
});
}

/** The streak's next puzzle once the page shows it (another than `before`), as the API gives it. */
async function streakPuzzle(page, before) {
  const handle = await page.waitForFunction((id) => {
    const shown = document.querySelector('.puzzles')?.getAttribute('data-puzzle');
    return shown && shown !== id ? shown : null;
  }, before?.id ?? null);
  return (await fetch(`${env.server.url}/api/puzzles/${await handle.jsonValue()}`)).json();
}

for (const [lang, viewport, overText] of [
  ['en', { width: 390, height: 844 }, /Streak over: 2 solved \(your best: 2\)/],
  ['zh', { width: 1366, height: 900 }, /连胜结束：解开 2 题（你的最佳：2）/],
  ['zh-Hant', { width: 390, height: 844 }, /連勝結束：解開 2 題（你的最佳：2）/],
]) {
  test(`Puzzle Streak: harder puzzles until the first mistake, the best kept (${lang}, ${viewport.width}px)`, async () => {
    const page = await newPlayer(env.browser, env.server.url, 'Streak_Player_Longest_Nm', viewport);
    await useLanguage(page, lang);
    await page.goto(`${env.server.url}/puzzles`);
    await page.click('#streak-link');
    await page.waitForURL(/\/puzzles\/streak$/);
    await page.click('#streak-start');
    let last = null;
    for (let solved = 1; solved <= 2; solved++) {
      const puzzle = await streakPuzzle(page, last);
      if (last) assert.ok(puzzle.rating >= last.rating, `rising: ${puzzle.rating} after ${last.rating}`);
      await solve(page, puzzle);
      await page.waitForFunction((n) => document.querySelector('#streak-score strong')?.textContent === String(n), solved);
      last = puzzle;
    }
    const third = await streakPuzzle(page, last);
    await solversTurn(page);
    // No hint in a streak.
    assert.equal(await page.locator('#puzzle-hint').isVisible(), false);
    await clickMove(page, await wrongMove(page, third));
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#puzzle-status')?.textContent ?? ''), overText.source);
    await page.waitForSelector('#streak-start:not([hidden])');
    await page.screenshot({ path: join(artifacts, `streak-over-${lang}-${viewport.width}.png`), fullPage: viewport.width > 400 });
    // A reload keeps the best.
    await page.reload();
    await page.waitForFunction(() => /2/.test(document.querySelector('#streak-score')?.textContent ?? ''));
    await page.waitForSelector('#streak-start:not([hidden])');
    await page.context().close();
  });
}

