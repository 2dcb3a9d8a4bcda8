// Installable (issue 52): what browsers require before they offer to install a site (a
// manifest with a name, a start address, standalone display and 192 and 512 px icons, one of
// them maskable; a service worker controlling the page), and the shell opening offline, saying
// so, and reconnecting by itself. Nothing is installed: browsers decide that with the player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

// As a release serves it: content-named files, the import map, the worker's versioned cache.
const env = serverAndBrowser({ embedded: true });

/** The manifest the page links to, as JSON. */
const manifestOf = (page) => page.evaluate(async () => {
  const href = /** @type {HTMLLinkElement} */ (document.querySelector('link[rel="manifest"]')).href;
  return { href: new URL(href).pathname, manifest: await (await fetch(href)).json() };
});

test('the site can be installed and opens offline', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Installer_Longest_Name_24', { width: 390, height: 844 });
  const { href, manifest } = await manifestOf(page);
  assert.equal(href, '/manifest.webmanifest');
  assert.equal(manifest.name, 'Jungle Arena');
  assert.ok(manifest.short_name && manifest.short_name.length <= 12);
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  const sizes = await page.evaluate(async (icons) => Promise.all(icons.map(async (icon) => {
    const response = await fetch(icon.src);
    const image = await createImageBitmap(await response.blob());
    return { purpose: icon.purpose, sizes: icon.sizes, type: response.headers.get('content-type'), real: `${image.width}x${image.height}` };
  })), manifest.icons);
  for (const icon of sizes) {
    assert.equal(icon.real, icon.sizes, `${icon.sizes} is what it says`);
    assert.match(icon.type ?? '', /^image\/png/);
  }
  assert.ok(sizes.some((i) => i.sizes === '192x192' && i.purpose === 'any'));
  assert.ok(sizes.some((i) => i.sizes === '512x512' && i.purpose === 'any'));
  assert.ok(sizes.some((i) => i.purpose === 'maskable'));

  // A service worker controls the page once it has been installed.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForSelector('#play');
  assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true);

  // Offline: the shell opens, says so; back online, it reconnects by itself.
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForFunction(() => /offline/.test(document.querySelector('#status')?.textContent ?? ''));
  assert.equal(await page.locator('.top .brand').isVisible(), true, 'the shell is drawn');
  await page.screenshot({ path: join(artifacts, 'offline-390.png') });
  await page.context().setOffline(false);
  await page.waitForFunction(() => document.querySelector('#status')?.hasAttribute('hidden'));
  await page.reload();
  await page.waitForSelector('#play');

  // In Chinese the installed app is named in Chinese.
  await useLanguage(page, 'zh');
  await page.reload();
  // Once the Chinese words have come, the page links to the Chinese manifest.
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  const zh = await manifestOf(page);
  assert.equal(zh.href, '/manifest.zh.webmanifest');
  assert.equal(zh.manifest.name, '斗兽棋竞技场');
  await page.context().close();
});
