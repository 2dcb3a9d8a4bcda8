// The client lets go of what a view held: after many route changes there is one board and the
// window and document carry the same listeners as before.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newPlayer, serverAndBrowser,
} from './harness.mjs';

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
    await page.evaluate((p) => window.jungleApp.navigate(p), path);
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
