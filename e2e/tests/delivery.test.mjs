// How the site is delivered (issue 52), against the client embedded in the binary as a release
// serves it: the page runs its modules from content-named addresses through its import map,
// under its Content-Security-Policy (watchPage fails on anything it blocks); the first screen
// comes without the other pages, which arrive when shown; and a page of an older client
// reloads itself on its next move to another page, never while its player is in a game on the
// clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPlayer, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser({ embedded: true });

/** The client's files this page fetched, by path. @param {import('playwright-core').Page} page */
const fetched = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map((entry) => new URL(entry.name).pathname)
  .filter((path) => /^\/(js|css|fonts)\//.test(path)));

test('the page runs from content-named files, and other pages come when shown', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Delivery_Longest_Name_24', { width: 390, height: 844 });
  const files = await fetched(page);
  assert.ok(files.length > 20, `${files.length} files`);
  for (const path of files) assert.match(path, /\.[0-9a-f]{10}\.(js|css|woff2)$/, path);
  assert.ok(files.some((p) => p.startsWith('/js/views/home.')), 'the lobby came with the first screen');
  assert.ok(!files.some((p) => p.startsWith('/js/views/rules.')), 'the rules did not');
  assert.ok(!files.some((p) => p.startsWith('/js/views/settings.')), 'nor the settings');

  await page.click('.top-actions a[href="/rules/classic"]');
  await page.waitForSelector('h1');
  await page.waitForFunction(() => location.pathname === '/rules/classic');
  const later = await fetched(page);
  assert.ok(later.some((p) => /^\/js\/views\/rules\.[0-9a-f]{10}\.js$/.test(p)), 'the rules arrived when shown');
  await page.context().close();
});

test('a page of an older client reloads on its next page, not during a game on the clock', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  // The server's welcomes, as they reach the page (one on each connection).
  let welcomes = 0;
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => {
    if (String(frame.payload).includes('"t":"welcome"')) welcomes += 1;
  }));
  const welcomed = async (count) => {
    for (let i = 0; i < 300 && welcomes < count; i++) await page.waitForTimeout(50);
    assert.ok(welcomes >= count, `welcome ${count} came`);
  };
  /** The page becomes one of an older build, then its socket drops and comes back (as a
   * deploy's restart does): the new welcome names another client. */
  const deployed = async () => {
    const before = welcomes;
    await page.evaluate(() => {
      document.querySelector('meta[name="jungle-client"]')?.setAttribute('content', '0ld0ld0ld0ld');
      window.jungleApp.session.closeSocket();
      window.jungleApp.session.ensureSocket();
    });
    await welcomed(before + 1);
  };
  await page.goto(env.server.url);
  await page.fill('#name', 'Old Page');
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  await welcomed(1);
  await deployed();
  // The next move to another page reloads it.
  await page.evaluate(() => { window.sameDocument = true; });
  await page.click('.top-actions a[href="/learn"]');
  await page.waitForFunction(() => location.pathname === '/learn');
  await page.waitForFunction(() => window.sameDocument === undefined && Boolean(window.jungleApp));
  assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation')[0].type), 'reload');

  // In a game against the computer, on the clock: moving to another page keeps the document.
  await page.goto(env.server.url);
  await page.waitForSelector('#play-computer');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\//);
  await page.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  await deployed();
  await page.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  await page.evaluate(() => { window.sameDocument = true; });
  await page.click('.top-actions a[href="/rules/classic"]');
  await page.waitForFunction(() => location.pathname === '/rules/classic');
  await page.waitForSelector('h1');
  assert.equal(await page.evaluate(() => window.sameDocument), true, 'no reload during a game');
  await context.close();
});
