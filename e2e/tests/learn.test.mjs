// Learn to play in the browser (issue 29): a newcomer reaches the first lesson from the first
// page in one click and walks the first chapter by making the moves (reading cards, a wrong
// move and its hint, the opponent's answers between the steps); a ruleset difference shown
// after its exercise; the ticks kept over a reload. At 390 and 1366 px, in every language.
// Then an account: a guest's progress brought into it, and a practice game against the
// computer judged complete on the game page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, clickMove, newPlayer, serverAndBrowser, watchPage, PASSWORD } from './harness.mjs';
import { lowContrast } from './contrast.mjs';

const env = serverAndBrowser();

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1366, height: 900 };

/** The answer to one try, straight from the API (for the hint's words). */
async function tryMoves(exercise, moves) {
  const response = await fetch(`${env.server.url}/api/learn/try`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exercise, moves }),
  });
  return response.json();
}

/** A browser profile that has never been here, reading `lang`, on the first page. */
async function newcomer(lang, viewport) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  watchPage(page, `newcomer-${lang}-${viewport.width}`);
  await page.addInitScript((l) => {
    if (!localStorage.getItem('jungle.lang')) localStorage.setItem('jungle.lang', l);
  }, lang);
  await page.goto(env.server.url);
  return page;
}

/** The page scrolls down only: nothing sticks out at the side. */
async function assertNoSideScroll(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide in a ${width} px window`);
}

/** Waits for the exercise `id` to wait for the reader's move (or for a reading card's button). */
async function exerciseShown(page, id) {
  await page.waitForFunction((x) => location.hash === `#${x}`, id);
  await page.waitForSelector('.exercise.reading, .exercise[data-phase=play]');
}

/** Plays `mv` and waits for the server's verdict to be shown. */
async function play(page, mv) {
  await page.waitForSelector('.exercise[data-phase=play]');
  await clickMove(page, mv);
  // The status is emptied as the move goes, and says the verdict once it comes.
  await page.waitForFunction(() => document.querySelector('.ex-status')?.textContent);
}

/** Presses Next (or a reading card's Got it). */
async function next(page) {
  await page.click('#ex-next');
}

/** The ids of the ticks done in the chapter's row. */
const ticksDone = (page) => page.locator('#tick-row .tick.done').evaluateAll((ticks) => ticks.map((t) => t.getAttribute('data-stage')));

const LANGS = ['en', 'zh', 'zh-Hant'];
for (const lang of LANGS) {
  for (const viewport of [PHONE, WIDE]) {
    test(`a newcomer walks the first chapter and sees a ruleset difference (${lang}, ${viewport.width}px)`, async () => {
      const catalogue = await (await fetch(`${env.server.url}/api/learn`)).json();
      const say = (text) => text[lang];
      const shot = (name) => join(artifacts, `learn-${name}-${lang}-${viewport.width}.png`);
      const page = await newcomer(lang, viewport);
      // The first page of a first visit: one click to the first lesson.
      await page.waitForSelector('#learn-invite');
      await page.screenshot({ path: shot('first-page') });
      await page.click('#learn-invite');
      await page.waitForURL(/\/learn\/board#board-read$/);
      await exerciseShown(page, 'board-read');
      const chapter = catalogue.chapters[0];
      assert.equal(await page.locator('.learn-page h1').innerText(), say(chapter.title));
      assert.equal(await page.locator('.ex-intro').innerText(), say(chapter.lessons[0].exercises[0].intro));
      await assertNoSideScroll(page, 'reading card');
      await page.screenshot({ path: shot('reading') });
      await next(page);

      // One step, a wrong move first: the hint, and the board put back.
      await exerciseShown(page, 'board-step');
      assert.equal(await page.locator('#ex-goal').innerText(), say(chapter.lessons[0].exercises[1].goal));
      await page.screenshot({ path: shot('lesson') });
      const wrong = await tryMoves('board-step', ['d3c3']);
      assert.equal(wrong.verdict, 'wrong');
      await play(page, 'd3c3');
      await page.waitForSelector('.ex-status.wrong');
      assert.ok((await page.locator('.ex-status').innerText()).includes(say(wrong.hint)), 'the hint is read out');
      await page.waitForSelector('.exercise[data-phase=play] [data-square=d3] .piece');
      assert.equal(await page.locator('[data-square=c3] .piece').count(), 0, 'the wrong move is taken back');
      await assertNoSideScroll(page, 'a wrong move');
      await page.screenshot({ path: shot('wrong') });
      await play(page, 'd3d4');
      await page.waitForSelector('#ex-after:not([hidden])');
      assert.equal(await page.locator('.ex-why').innerText(), say(chapter.lessons[0].exercises[1].why));
      await page.screenshot({ path: shot('done') });
      await next(page);

      // Three steps around the river, the opponent answering between them.
      await exerciseShown(page, 'board-water');
      await play(page, 'c3b3');
      await page.waitForSelector('.exercise[data-phase=play]');
      await page.waitForSelector('[data-square=g8] .piece.blue');
      assert.match(await page.locator('.ex-status').innerText(), /g9 → g8/, 'the answer is said');
      await page.screenshot({ path: shot('answered') });
      await play(page, 'b3a3');
      await page.waitForSelector('.exercise[data-phase=play] [data-square=g7] .piece.blue');
      await play(page, 'a3a4');
      await page.waitForSelector('#ex-after:not([hidden])');
      await next(page);

      await exerciseShown(page, 'board-own-den');
      await play(page, 'c1c2');
      await page.waitForSelector('.exercise[data-phase=play] [data-square=g8] .piece.blue');
      await play(page, 'c2d2');
      await page.waitForSelector('#ex-after:not([hidden])');
      await next(page);

      await exerciseShown(page, 'animals-ranks');
      await next(page);
      await exerciseShown(page, 'animals-rat-swims');
      await play(page, 'b3b4');
      await page.waitForSelector('.exercise[data-phase=play] [data-square=g8] .piece.blue');
      await play(page, 'b4b5');
      await page.waitForSelector('#ex-after:not([hidden])');
      await next(page);

      // The chapter is done: every tick, kept over a reload, and on the list of chapters.
      await page.waitForSelector('.learn-end');
      const ids = chapter.lessons.flatMap((lesson) => lesson.exercises.map((e) => e.id));
      assert.deepEqual(await ticksDone(page), ids);
      await assertNoSideScroll(page, 'the chapter\'s end');
      await page.screenshot({ path: shot('chapter-end') });
      await page.reload();
      await page.waitForSelector('.learn-end');
      assert.deepEqual(await ticksDone(page), ids, 'the ticks survive a reload');
      await page.click('.crumbs a');
      await page.waitForSelector('.learn-chapters');
      const firstChapterTicks = await page.locator('[data-chapter=board] .tick-mark.done').count();
      assert.equal(firstChapterTicks, ids.length);
      await assertNoSideScroll(page, 'the chapters');
      await page.screenshot({ path: shot('chapters'), fullPage: true });
      // Continue leads to the next chapter's first exercise.
      assert.equal(await page.locator('#learn-go').getAttribute('href'), `/learn/${catalogue.chapters[1].id}#${catalogue.chapters[1].lessons[0].exercises[0].id}`);

      // A ruleset difference: the tiger's jump under Classic, then the same position under Daitou.
      await page.goto(`${env.server.url}/learn/rulesets#diff-tiger`);
      await exerciseShown(page, 'diff-tiger');
      await play(page, 'c3c7');
      await page.waitForSelector('.contrast');
      const rulesets = catalogue.chapters.find((c) => c.id === 'rulesets');
      const tiger = rulesets.lessons.flatMap((l) => l.exercises).find((e) => e.id === 'diff-tiger');
      const contrast = await page.locator('.contrast').innerText();
      assert.ok(contrast.includes(say(tiger.board.contrast.text)), 'the contrast\'s sentence');
      const names = await page.evaluate(async () => {
        const { t } = await import('/js/i18n.js');
        return [t('ruleset.classic'), t('ruleset.daitou')];
      });
      for (const name of names) assert.ok(contrast.includes(name), `the contrast names ${name}`);
      // Each board marks the tiger's moves there: c7 under Classic only.
      assert.equal(await page.locator('#contrast-0 [data-square=c7].target').count(), 1);
      assert.equal(await page.locator('#contrast-1 [data-square=c7].target').count(), 0);
      assert.equal(await page.locator('#contrast-1 .sq.target').count(), 3);
      await page.locator('.contrast').scrollIntoViewIfNeeded();
      await assertNoSideScroll(page, 'a contrast');
      await page.screenshot({ path: shot('contrast') });
      await page.context().close();
    });
  }
}

test('a guest\'s lessons are brought into their account; a practice game is judged complete', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Learner', WIDE);
  // A guest with no lesson done is invited from the lobby.
  await page.waitForSelector('#learn-invite');
  await page.screenshot({ path: join(artifacts, 'learn-lobby-en-1366.png') });
  await page.goto(`${env.server.url}/learn/board`);
  await exerciseShown(page, 'board-read');
  await next(page);
  await exerciseShown(page, 'board-step');
  await play(page, 'd3d4');
  await page.waitForSelector('#ex-after:not([hidden])');
  // Now the guest keeps their player with a username: the lessons follow.
  await page.goto(env.server.url);
  await page.fill('#claim-user', 'Learner');
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  // An account is no newcomer: no invitation in the lobby.
  assert.equal(await page.locator('#learn-invite').count(), 0);
  await page.click('#learn-link');
  await page.waitForSelector('.learn-chapters');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')).token);
  const progress = async () => (await (await fetch(`${env.server.url}/api/account/learn`, { headers: { authorization: `Bearer ${token}` } })).json()).done;
  assert.deepEqual((await progress()).sort(), ['board-read', 'board-step']);

  // The den's practice: the lion walks up the d-file into the den within 6 moves.
  await page.goto(`${env.server.url}/learn/den#practice`);
  await page.waitForSelector('[data-practice=practice-den]');
  await page.click('[data-practice=practice-den]');
  await page.waitForURL(/\/g\//);
  await page.waitForSelector('.practice-banner');
  assert.match(await page.locator('.practice-banner').innerText(), /enter the blue den within 6 moves/);
  await page.screenshot({ path: join(artifacts, 'learn-practice-game-en-1366.png') });
  for (const mv of ['d5d6', 'd6d7', 'd7d8', 'd8d9']) {
    await page.waitForFunction(() => {
      const game = window.jungleApp.store.state.game;
      return game?.status === 'active' && game.turn === game.you;
    });
    await clickMove(page, mv);
    await page.waitForFunction((m) => window.jungleApp.store.state.game.moves.includes(m), mv);
  }
  await page.waitForSelector('.practice-banner .practice-done');
  await page.screenshot({ path: join(artifacts, 'learn-practice-complete-en-1366.png') });
  assert.ok((await progress()).includes('practice-den'), 'the account has the practice done');
  // Back in the chapter, the practice is ticked.
  await page.click('.practice-banner a');
  await page.waitForSelector('.learn-end .done-mark');
  assert.ok((await ticksDone(page)).includes('practice'));
  await page.context().close();
});

test('a practice game from a first visit, at 390px: the banner fits above the board', async () => {
  const page = await newcomer('zh', PHONE);
  await page.click('#learn-invite');
  await page.goto(`${env.server.url}/learn/den#practice`);
  await page.click('[data-practice=practice-den]');
  await page.waitForURL(/\/g\//);
  await page.waitForSelector('.practice-banner');
  assert.match(await page.locator('.practice-banner').innerText(), /6 步内走进蓝方兽穴/);
  await assertNoSideScroll(page, 'a practice game');
  await page.screenshot({ path: join(artifacts, 'learn-practice-game-zh-390.png') });
  await page.context().close();
});

test('the rules page links each rule to its lesson (zh-Hant, 390px)', async () => {
  const page = await newcomer('zh-Hant', PHONE);
  await page.click('#play-now');
  await page.waitForSelector('#play');
  await page.goto(`${env.server.url}/rules/daitou`);
  await page.waitForSelector('.rules-text li');
  const chapters = await page.locator('.rules-text li .try-it').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const chapter of ['board', 'den', 'winning', 'captures', 'river', 'traps', 'online']) {
    assert.ok(chapters.includes(`/learn/${chapter}`), `a rule links to /learn/${chapter}`);
  }
  assert.equal(await page.locator('.rules-text p .try-it[href="/learn/rulesets"]').count(), 1);
  // Named by the chapters' titles once the lessons are read.
  await page.waitForFunction(() => document.querySelector('.try-it[href="/learn/den"]')?.textContent.includes('獸穴'));
  await assertNoSideScroll(page, 'the rules');
  await page.screenshot({ path: join(artifacts, 'learn-rules-links-zh-Hant-390.png'), fullPage: true });
  await page.click('.try-it[href="/learn/traps"]');
  await exerciseShown(page, 'trap-any-captures');
  await page.context().close();
});

/** Each exercise's answers as the lessons' files write them (the API never sends them). */
function answers() {
  const dir = join(import.meta.dirname, '../../crates/jungle-learn/src/chapters');
  const found = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const chapter = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const exercise of chapter.lessons.flatMap((l) => l.exercises)) {
      if (exercise.board) found.set(exercise.id, exercise.board.steps.map((step) => step.accept[0]));
    }
  }
  return found;
}

test('every exercise of every chapter is solved in the browser, a chapter after another (en, 390px)', async () => {
  const catalogue = await (await fetch(`${env.server.url}/api/learn`)).json();
  const moves = answers();
  const page = await newcomer('en', PHONE);
  for (const chapter of catalogue.chapters) {
    await page.goto(`${env.server.url}/learn/${chapter.id}`);
    for (const exercise of chapter.lessons.flatMap((l) => l.exercises)) {
      await exerciseShown(page, exercise.id);
      if (exercise.board?.history.length) {
        assert.match(await page.locator('.ex-history').innerText(), new RegExp(`^${exercise.board.history.length} moves were played before`));
      }
      // "Any move" is any the board offers: the first legal one.
      for (const mv of exercise.board ? moves.get(exercise.id) : []) await play(page, mv === 'any' ? exercise.board.legal[0] : mv);
      if (exercise.board) {
        await page.waitForSelector('#ex-after:not([hidden])');
        await assertNoSideScroll(page, exercise.id);
      }
      if (exercise.board?.contrast) {
        await page.locator('.contrast').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(artifacts, `learn-contrast-${exercise.id}-en-390.png`) });
      }
      await next(page);
    }
    await page.waitForSelector('.learn-end');
    assert.equal(await page.locator('#tick-row .tick.done:not([data-stage=practice])').count(), chapter.lessons.flatMap((l) => l.exercises).length);
  }
  await page.click('.learn-end a[href="/learn"]');
  await page.waitForSelector('.learn-chapters');
  // Everything but the practice games: Continue leads to the first of them.
  assert.equal(await page.locator('#learn-go').getAttribute('href'), '/learn/captures#practice');
  await page.context().close();
});

test('the lessons read at 4.5:1 or better, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ colorScheme, viewport: PHONE });
    const page = await context.newPage();
    watchPage(page, `contrast-${colorScheme}`);
    await page.goto(`${env.server.url}/learn/river#block-own-rat`);
    await exerciseShown(page, 'block-own-rat');
    await play(page, answers().get('block-own-rat')[0]);
    await page.waitForSelector('.contrast');
    assert.deepEqual(await lowContrast(page), [], `an exercise done, ${colorScheme}`);
    await page.click('#tick-row [data-stage=jump-up]');
    await exerciseShown(page, 'jump-up');
    await play(page, 'b3a3');
    await page.waitForSelector('.ex-status.wrong');
    assert.deepEqual(await lowContrast(page), [], `a wrong move, ${colorScheme}`);
    await page.goto(`${env.server.url}/learn`);
    await page.waitForSelector('.learn-chapters');
    assert.deepEqual(await lowContrast(page), [], `the chapters, ${colorScheme}`);
    await page.screenshot({ path: join(artifacts, `learn-chapters-${colorScheme}-390.png`) });
    await context.close();
  }
});
