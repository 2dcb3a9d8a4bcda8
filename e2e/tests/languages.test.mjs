// Three languages (issue 25): a browser set to Taiwan's or Hong Kong's Chinese is answered in
// Traditional Chinese, other Chinese in Simplified, the rest in English; the header's button
// steps through all three, and the rules read in each.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, serverAndBrowser, watchPage } from './harness.mjs';

const env = serverAndBrowser();

for (const [locale, brand] of [['zh-TW', '鬥獸棋競技場'], ['zh-HK', '鬥獸棋競技場'], ['zh-CN', '斗兽棋竞技场'], ['en-GB', 'Jungle Arena']]) {
  test(`a browser in ${locale} reads the site as ${brand}`, async () => {
    const context = await env.browser.newContext({ locale, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    watchPage(page, locale);
    await page.goto(env.server.url);
    await page.waitForSelector('#name');
    assert.equal(await page.locator('.brand').innerText().then((s) => s.replace(/^象\s*/, '').trim()), brand);
    if (locale === 'zh-TW') await page.screenshot({ path: join(artifacts, 'lobby-zh-hant-390.png') });
    await context.close();
  });
}

test('the header steps through English, Simplified and Traditional Chinese; the rules read in each', async () => {
  const context = await env.browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  watchPage(page, 'reader');
  await page.goto(env.server.url);
  await page.fill('#name', 'Reader');
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  await page.evaluate(() => window.jungleApp.router.navigate('/rules/classic'));
  await page.waitForSelector('.rules-text li');
  const seen = [];
  for (const expected of [/Red moves first/, /红方先走/, /紅方先走/, /Red moves first/]) {
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.rules-text')?.textContent ?? ''), expected.source);
    seen.push(await page.locator('#lang').innerText());
    await page.click('#lang');
  }
  // The button names the language it switches to.
  assert.deepEqual(seen, ['简体', '繁體', 'English', '简体']);
  await context.close();
});
