// The client lets go of what a view held: after many route changes there is one board and the
// window and document carry the same listeners as before. And it speaks both languages in
// full: every string and every error code has words in each.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

test('a hundred route changes leave one board and a constant listener count', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Wanderer');
  await page.selectOption('#pc-level', '1');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\//);
  await page.waitForSelector('#board .sq');
  const gamePath = new URL(page.url()).pathname;
  const cdp = await page.context().newCDPSession(page);
  const listeners = async (expression) => {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const { listeners: found } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return found.length;
  };
  const counts = async () => ({ window: await listeners('window'), document: await listeners('document') });

  const routes = ['/', '/rules/classic', '/rules/daitou', gamePath];
  let baseline = null;
  for (let i = 0; i < 100; i += 1) {
    const path = routes[i % routes.length];
    await page.evaluate((p) => window.jungleApp.router.navigate(p), path);
    if (path === gamePath) {
      await page.waitForSelector('#board .sq');
      assert.equal(await page.locator('.board').count(), 1, `one board after ${i + 1} route changes`);
      const now = await counts();
      // The first round settles what the app keeps for its whole life; from then on nothing grows.
      if (i >= routes.length) {
        baseline ??= now;
        assert.deepEqual(now, baseline, `listeners after ${i + 1} route changes`);
      }
    }
  }
  assert.ok(baseline, 'the game page was measured');
  await page.context().close();
});

test('every string exists in both languages, every error code has words, errors show in Chinese', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Translator');
  const tables = await page.evaluate(async () => {
    const { STRINGS, loadLanguage } = await import('/js/i18n.js');
    // The Chinese tables are fetched for their readers only.
    await loadLanguage('zh');
    await loadLanguage('zh-Hant');
    return { en: Object.keys(STRINGS.en), zh: Object.keys(STRINGS.zh), 'zh-Hant': Object.keys(STRINGS['zh-Hant']) };
  });
  // All three tables hold the same keys.
  for (const [name, keys] of Object.entries(tables)) {
    for (const [other, otherKeys] of Object.entries(tables)) {
      if (name === other) continue;
      assert.deepEqual(keys.filter((k) => !otherKeys.includes(k)), [], `keys of ${name} missing in ${other}`);
    }
  }
  // Every error code the protocol defines, read from its source.
  const frames = readFileSync(join(import.meta.dirname, '../../crates/jungle-protocol/src/frames.rs'), 'utf8');
  const body = frames.slice(frames.indexOf('pub enum ErrorCode {'));
  const codes = [...body.slice(0, body.indexOf('\n}')).matchAll(/^\s+([A-Z]\w+),/gm)]
    .map((m) => m[1].replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase());
  assert.ok(codes.length > 20);
  const untranslated = codes.filter((c) => !tables.en.includes(`error.${c}`));
  assert.deepEqual(untranslated, [], 'error codes without words');

  // A refusal from the server, in the Chinese interface: our words, not the server's.
  await useLanguage(page, 'zh');
  await page.goto(`${env.server.url}/r/ZZZZZZZZ`);
  await page.waitForSelector('[role="alert"]');
  assert.equal(await page.locator('[role="alert"] p').first().innerText(), '没有这个房间码。');
  // The tab is named in the page's language and script.
  assert.equal(await page.title(), '斗兽棋 · Jungle Arena');
  await useLanguage(page, 'zh-Hant');
  await page.goto(`${env.server.url}/`);
  // Named once its words have come.
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hant');
  assert.equal(await page.title(), '鬥獸棋 · Jungle Arena');
  // Taiwan's words: an account is 帳號, never the Mainland's 賬號.
  const mainland = await page.evaluate(async () => {
    const { ZH_HANT } = await import('/js/strings_zh_hant.js');
    return Object.values(ZH_HANT).filter((text) => String(text).includes('賬'));
  });
  assert.deepEqual(mainland, []);
  await useLanguage(page, 'en');
  await page.goto(`${env.server.url}/`);
  assert.equal(await page.title(), 'Jungle Arena');
  await page.context().close();
});
