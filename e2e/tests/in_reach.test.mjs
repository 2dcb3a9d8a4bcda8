// The game screen, second pass (issue 25): what asks for an answer is in view beside the board
// without scrolling — an offer, a request, an away countdown, the result — on a phone, and the
// board with both player bars and the replay bar fits a desk's window.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();
const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 900 };

/** Fails unless `selector` lies wholly inside the viewport as the page stands (no scrolling). */
async function inView(page, selector, what) {
  // A clock redraws each tick: wait for the element drawn now, then measure it.
  await page.locator(selector).waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
  // The element found may be replaced by the next tick before it is measured: measured again.
  let box = null;
  for (let tries = 0; tries < 20 && !box; tries++) {
    box = await page.locator(selector).boundingBox().catch(() => null);
    if (!box) await page.waitForTimeout(50);
  }
  const { width, height } = page.viewportSize();
  assert.ok(box, `${what}: not shown`);
  assert.ok(box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width,
    `${what} is outside the ${width}×${height} viewport: ${JSON.stringify(box)}`);
}

async function casualMatch(viewport, lang) {
  const alice = await newPlayer(env.browser, env.server.url, 'Wwwwwwwwwwwwwwwwwwwwwwww', viewport);
  const bob = await newPlayer(env.browser, env.server.url, 'Mmmmmmmmmmmmmmmmmmmmmmmm', viewport);
  for (const page of [alice, bob]) {
    await useLanguage(page, lang);
    await page.reload();
    await page.waitForSelector('#play');
    await page.uncheck('#qm-rated').catch(() => {});
  }
  return matchPages(alice, bob);
}

for (const lang of ['en', 'zh']) {
  test(`on a phone an offer, a request, an away countdown and the result are in view (${lang}, 390px)`, async () => {
    const { red, blue } = await casualMatch(phone, lang);
    await playMoves(red, blue, ['g3g4', 'a7a6']);
    await red.evaluate(() => window.scrollTo(0, 0));
    await blue.evaluate(() => window.scrollTo(0, 0));
    await inView(red, '#offer-draw', 'the game\'s buttons');

    await red.click('#offer-draw');
    await blue.waitForSelector('#accept-draw');
    await inView(blue, '#accept-draw', 'Accept (draw)');
    await inView(blue, '#decline-draw', 'Decline (draw)');
    await blue.screenshot({ path: join(artifacts, `draw-offer-${lang}-390.png`) });
    await blue.click('#decline-draw');

    await red.waitForSelector('#takeback:not([disabled])');
    await red.click('#takeback');
    await blue.waitForSelector('#accept-takeback');
    await inView(blue, '#accept-takeback', 'Accept (takeback)');
    await inView(blue, '#decline-takeback', 'Decline (takeback)');
    await blue.click('#decline-takeback');

    // Blue goes away: Red sees the countdown beside the board.
    await blue.close();
    await red.waitForSelector('#away:not([hidden])');
    await inView(red, '#away', 'the away countdown');
    await red.screenshot({ path: join(artifacts, `away-${lang}-390.png`) });

    await red.click('#resign');
    await red.click('#resign-yes');
    await red.waitForSelector('.result-line');
    await inView(red, '.result-line', 'the result');
    await red.screenshot({ path: join(artifacts, `result-${lang}-390.png`) });
    await red.context().close();
    await blue.context().close();
  });
}

test('at 1366×900 the board, both player bars, the actions and the replay bar fit the window', async () => {
  const { red, blue } = await casualMatch(desk, 'en');
  await playMoves(red, blue, ['g3g4', 'a7a6']);
  for (const selector of ['#top-bar', '#board', '#bottom-bar', '#actions', '.replay-bar']) {
    await inView(red, selector, selector);
  }
  // Stepping back through the game keeps the top ranks in view.
  await red.click('[data-step="first"]');
  await inView(red, '[data-square="a9"]', 'the top rank');
  await red.screenshot({ path: join(artifacts, 'game-1366.png') });
  await red.context().close();
  await blue.context().close();
});

test('a clock per move shows the turn emptying as a ring beside its seconds', async () => {
  const alice = await newPlayer(env.browser, env.server.url, 'Ring Alice', phone);
  const bob = await newPlayer(env.browser, env.server.url, 'Ring Bob', phone);
  for (const page of [alice, bob]) await page.click('[data-preset="30s"]');
  const { red, blue } = await matchPages(alice, bob);
  // Each side's first move has its own countdown; the clocks run from the third turn.
  await playMoves(red, blue, ['g3g4', 'a7a6', 'g4g5']);
  // Blue's turn: Blue's ring empties, Red's stands full.
  const offsets = (page) => page.evaluate(() => Object.fromEntries(['red', 'blue'].map((side) => [side,
    Number(document.querySelector(`[data-clock="${side}"] .ring-left`)?.getAttribute('stroke-dashoffset') ?? NaN)])));
  const first = await offsets(red);
  await red.waitForTimeout(1500);
  const later = await offsets(red);
  assert.equal(later.red, 0, `the waiting side's ring is full: ${JSON.stringify(later)}`);
  assert.ok(later.blue > first.blue && later.blue > 0, `the running ring empties: ${JSON.stringify([first, later])}`);
  await inView(red, '[data-clock="blue"] .move-ring', "the running clock's ring");
  await red.screenshot({ path: join(artifacts, 'per-move-ring-390.png') });
  for (const page of [red, blue]) await page.context().close();
});
