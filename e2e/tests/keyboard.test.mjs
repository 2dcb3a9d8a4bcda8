// A whole game with the keyboard alone (issue 51): two players name themselves, seek and play
// to a den entry with Tab, the arrow keys and Enter, never the mouse; each move is said to
// screen readers with the animals' names in the page's language; a system asking for reduced
// motion gets no animation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DEN_WIN_AT_PLY_13, artifacts, mySide, serverAndBrowser, useLanguage, waitForPlies, watchPage } from './harness.mjs';

const env = serverAndBrowser();

/** Presses Tab until the focus is on an element matching `selector` (at most 80 presses). */
async function tabTo(page, selector) {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Moves the board's focus to `square` with the arrow keys, by where the squares are drawn. */
async function arrowTo(page, square) {
  for (let i = 0; i < 20; i++) {
    const step = await page.evaluate((target) => {
      const here = /** @type {HTMLElement} */ (document.activeElement);
      if (here?.dataset.square === target) return null;
      const a = here.getBoundingClientRect();
      const b = /** @type {HTMLElement} */ (document.querySelector(`[data-square="${target}"]`)).getBoundingClientRect();
      if (Math.abs(b.top - a.top) > 2) return b.top < a.top ? 'ArrowUp' : 'ArrowDown';
      return b.left < a.left ? 'ArrowLeft' : 'ArrowRight';
    }, square);
    if (!step) return;
    await page.keyboard.press(step);
  }
  throw new Error(`the arrows never reached ${square}`);
}

/** Plays `move` (like e3d3) from the keyboard: to the board, to the animal, Enter, to its destination, Enter. */
async function keyMove(page, move) {
  if (!(await page.evaluate(() => document.activeElement?.matches('.sq') ?? false))) await tabTo(page, '.sq');
  await arrowTo(page, move.slice(0, 2));
  await page.keyboard.press('Enter');
  await arrowTo(page, move.slice(2, 4));
  await page.keyboard.press('Enter');
}

/** A player who names themself and seeks a game, by keyboard only. */
async function keyboardPlayer(name, lang, viewport) {
  const context = await env.browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  watchPage(page, name);
  await page.goto(env.server.url);
  await useLanguage(page, lang);
  await page.reload();
  await tabTo(page, '#name');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#play');
  return page;
}

for (const [lang, viewport, said, won] of [
  ['en', { width: 1366, height: 900 }, /(Red|Blue) [A-Z][a-z]+ [a-g][1-9] to [a-g][1-9]/, /You win/],
  ['zh', { width: 390, height: 844 }, /从 [a-g][1-9] 走到 [a-g][1-9]/, /你赢了/],
  ['zh-Hant', { width: 1366, height: 900 }, /從 [a-g][1-9] 走到 [a-g][1-9]/, /你贏了/],
]) {
  test(`a whole game played with the keyboard alone, each move said (${lang}, ${viewport.width}px)`, async () => {
    const alice = await keyboardPlayer('Keyboard_Alice_Longest_N', lang, viewport);
    const bob = await keyboardPlayer('Keyboard_Bob', lang, viewport);
    for (const page of [alice, bob]) {
      await tabTo(page, '#play');
      await page.keyboard.press('Enter');
      if (page === alice) await alice.waitForSelector('#cancel-seek');
    }
    await alice.waitForURL(/\/g\//);
    await bob.waitForURL(/\/g\//);
    const red = (await mySide(alice)) === 'red' ? alice : bob;
    const blue = red === alice ? bob : alice;
    for (const [ply, move] of DEN_WIN_AT_PLY_13.entries()) {
      const mover = ply % 2 === 0 ? red : blue;
      const other = mover === red ? blue : red;
      await keyMove(mover, move);
      await waitForPlies(red, ply + 1);
      await waitForPlies(blue, ply + 1);
      if (ply === 11 || ply === 12) {
        // The move is said on the other side's page, in its language.
        await other.waitForFunction((re) => new RegExp(re).test(document.querySelector('#move-said')?.textContent ?? ''), said.source);
      }
    }
    await red.waitForFunction(() => window.jungleApp.store.state.game?.status === 'finished');
    assert.match(await red.locator('#end').innerText(), won);
    // The move list, scrolled to its last move, shows whole rows: the top one is not cut.
    const cut = await red.evaluate(() => {
      const list = /** @type {HTMLElement} */ (document.querySelector('#moves'));
      const top = list.getBoundingClientRect().top;
      const first = [...list.querySelectorAll('li')].find((li) => li.getBoundingClientRect().bottom > top + 1);
      return first ? Math.abs(first.getBoundingClientRect().top - top) : 0;
    });
    assert.ok(cut < 2, `the top row of the move list is cut by ${cut}px`);
    // Reduced motion: the animals do not glide.
    const transition = await red.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector('.board .piece'))).transitionDuration);
    assert.ok(parseFloat(transition) < 0.001, `transition ${transition}`);
    await red.screenshot({ path: join(artifacts, `keyboard-game-${lang}-${viewport.width}.png`) });
    await alice.context().close();
    await bob.context().close();
  });
}
