// Pieces anyone can read (issue 51): the animals as pictures, as Chinese characters or both,
// by default pictures in English and characters in Chinese; the player's choice kept with the
// account; a legend of the eight animals on the rules pages and in the first lesson; squares
// named with their animal and terrain in the page's language.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newAccount, serverAndBrowser, signIn, useLanguage, watchPage } from './harness.mjs';

const env = serverAndBrowser();

const SIZES = [{ width: 390, height: 844 }, { width: 1366, height: 900 }];
const WORDS = {
  en: { tiger: 'Tiger', lion: 'Lion', trap: 'Red trap', style: 'pictures' },
  zh: { tiger: '虎', lion: '狮', trap: '红方陷阱', style: 'glyphs' },
  'zh-Hant': { tiger: '虎', lion: '獅', trap: '紅方陷阱', style: 'glyphs' },
};
const LONGEST = 'Maximilian_Longername_24';

/** A guest reading `lang` at `viewport`. */
async function reader(lang, viewport) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  watchPage(page, `${lang}-${viewport.width}`);
  await page.goto(env.server.url);
  await useLanguage(page, lang);
  await page.reload();
  await page.fill('#name', LONGEST);
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  return page;
}

/** What each of the board's animals shows: 'pictures', 'glyphs' or 'both'. */
const drawnAs = (page) => page.$$eval('.board .piece', (pieces) => pieces.map((p) => {
  const picture = !!p.querySelector('svg.animal');
  const glyph = !!p.querySelector('.glyph');
  return picture && glyph ? 'both' : picture ? 'pictures' : glyph ? 'glyphs' : 'nothing';
}));

for (const [lang, words] of Object.entries(WORDS)) {
  for (const viewport of SIZES) {
    test(`${lang} at ${viewport.width}: the board draws the language's default, the rules page has the legend`, async () => {
      const page = await reader(lang, viewport);
      await page.evaluate(() => window.jungleApp.router.navigate('/analysis'));
      await page.waitForSelector('.board .piece');
      const styles = await drawnAs(page);
      assert.equal(styles.length, 16);
      assert.ok(styles.every((s) => s === words.style), `${lang} draws ${styles}`);
      // Each animal's rank is drawn, and named with the animal for screen readers.
      assert.equal(await page.locator('.board .piece .rank').count(), 16);
      const lionSquare = await page.locator('.sq[data-square="g1"]').getAttribute('aria-label');
      assert.match(lionSquare ?? '', new RegExp(`${words.lion}.*7`));
      const trapSquare = await page.locator('.sq[data-square="c1"]').getAttribute('aria-label');
      assert.ok(trapSquare?.includes(words.trap), trapSquare ?? '');
      // The visible text of a square is part of its name (no "狮 7" that is not in it).
      const mismatched = await page.$$eval('.board .sq', (squares) => squares.filter((sq) => {
        const shown = /** @type {HTMLElement} */ (sq).innerText.replace(/\s+/g, ' ').trim();
        return shown && !shown.split(' ').every((part) => (sq.getAttribute('aria-label') ?? '').includes(part));
      }).map((sq) => sq.getAttribute('data-square')));
      assert.deepEqual(mismatched, []);
      await page.locator('.board').screenshot({ path: join(artifacts, `pieces-${lang}-${viewport.width}.png`) });

      await page.evaluate(() => window.jungleApp.router.navigate('/rules/classic'));
      const legend = page.locator('.rules-text .legend');
      await legend.waitFor();
      const items = await legend.locator('.legend-list li').allInnerTexts();
      assert.equal(items.length, 13, 'eight animals, the two sides, water, trap and den');
      assert.ok(items.some((text) => text.includes(words.tiger) && text.includes('6')), items.join(' | '));
      assert.ok(items.some((text) => text.includes(words.lion) && text.includes('7')), items.join(' | '));
      // Nothing of it runs off a phone's screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      await legend.screenshot({ path: join(artifacts, `legend-${lang}-${viewport.width}.png`) });
      await page.context().close();
    });
  }
}

test('the first lesson shows the eight animals as the board draws them', async () => {
  const page = await reader('en', SIZES[0]);
  await page.evaluate(() => window.jungleApp.router.navigate('/learn/board#animals-ranks'));
  const legend = page.locator('#learn-stage .legend');
  await legend.waitFor();
  assert.equal(await legend.locator('.legend-list li svg.animal').count(), 10, 'eight animals and the two sides');
  assert.match(await legend.innerText(), /Elephant[\s\S]*rank 8[\s\S]*Rat[\s\S]*rank 1/);
  // Every chapter keeps it one tap away.
  await page.evaluate(() => window.jungleApp.router.navigate('/learn/traps'));
  const folded = page.locator('details.legend');
  await folded.locator('summary').click();
  assert.ok(await folded.locator('.legend-list').isVisible());
  await page.context().close();
});

test('the style chosen in settings follows the account to another device, and back to the default', async () => {
  const viewport = SIZES[0];
  const page = await newAccount(env.browser, env.server.url, 'piecesfan', viewport);
  await page.evaluate(() => window.jungleApp.router.navigate('/settings'));
  await page.selectOption('#set-pieces', 'both');
  // The preview shows the choice before it is saved.
  await page.waitForFunction(() => document.querySelectorAll('#piece-preview .glyph').length === 8
    && document.querySelectorAll('#piece-preview svg.animal').length === 8);
  await page.screenshot({ path: join(artifacts, 'pieces-settings-390.png') });
  await page.click('#display-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#display-note')?.textContent?.length);

  const other = await signIn(env.browser, env.server.url, 'piecesfan', viewport);
  await other.waitForFunction(() => document.documentElement.dataset.pieces === 'both');
  await other.evaluate(() => window.jungleApp.router.navigate('/analysis'));
  await other.waitForSelector('.board .piece');
  const styles = await drawnAs(other);
  assert.ok(styles.length === 16 && styles.every((s) => s === 'both'), styles.join());
  await other.locator('.board').screenshot({ path: join(artifacts, 'pieces-both-390.png') });

  // "As the language" again: the English default, and nothing kept.
  await other.evaluate(() => window.jungleApp.router.navigate('/settings'));
  await other.selectOption('#set-pieces', '');
  await other.click('#display-form button[type=submit]');
  await other.waitForFunction(() => document.querySelector('#display-note')?.textContent?.length);
  await other.reload();
  await other.waitForFunction(() => document.documentElement.dataset.pieces === 'pictures');
  const saved = await other.evaluate(() => import('/js/api.js').then((api) => api.settings()));
  assert.equal(saved.pieces, undefined);
  await page.context().close();
  await other.context().close();
});
