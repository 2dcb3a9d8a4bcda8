// Moving between pages on a phone: a new page starts at its top, wherever the page left was
// scrolled to (issue 51: a new room's link and a new game's board were off screen).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

test('on a phone a page reached from a scrolled lobby starts at its top', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Scroller', { width: 390, height: 844 });
  await page.waitForSelector('#full-leaderboard');
  await page.evaluate(() => window.scrollTo(0, 800));
  const down = await page.evaluate(() => window.scrollY);
  assert.ok(down > 300, `the lobby was scrolled down (${down} px)`);
  // The header's link to the rules (a long page), followed without scrolling to it first.
  await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('a[href="/rules/classic"]')).click());
  await page.waitForURL(/\/rules\/classic/);
  const tall = await page.evaluate(() => document.body.scrollHeight - window.innerHeight);
  assert.ok(tall > down, `the rules page is longer than the lobby was scrolled (${tall} px)`);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the new page is at its top');
  await page.screenshot({ path: join(artifacts, 'navigation-top-390.png') });
  await page.context().close();
});
