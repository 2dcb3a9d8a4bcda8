// How fast the site opens on a phone (issue 52): Chromium at 390×844 on the throttled profile
// the issue measured with (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), against a
// server already running: `node tools/measure-load.mjs http://127.0.0.1:8080` (a release
// build, started on a fresh database). Prints, for a first visit (cold: nothing cached) and a
// return (warm: the same browser again), the time until the first screen can be used (the
// name form, then the lobby's Play button), the requests made and the bytes over the wire.
// Service workers are blocked: this measures the server's delivery and the browser's HTTP
// cache. Run from the repository with e2e's packages installed.

import { chromium } from '../e2e/node_modules/playwright-core/index.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const RUNS = Number(process.env.RUNS ?? 5);
// The browser's language (`LOCALE=zh-CN`: a reader of Chinese, whose words are fetched too).
const LOCALE = process.env.LOCALE ?? 'en-US';
const PROFILE = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** Opens `path` in `page` with the network throttled; the figures until `ready` shows. */
async function visit(page, path, ready) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', PROFILE);
  let requests = 0;
  let bytes = 0;
  cdp.on('Network.requestWillBeSent', () => { requests += 1; });
  cdp.on('Network.loadingFinished', (event) => { bytes += event.encodedDataLength; });
  const start = Date.now();
  await page.goto(`${base}${path}`, { waitUntil: 'commit' });
  await page.waitForSelector(ready, { state: 'visible' });
  // Usable: the control answers (modules run, listeners on).
  await page.waitForFunction(() => Boolean(window.jungleApp));
  const ms = Date.now() - start;
  await cdp.detach();
  return { ms, requests, kib: bytes / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
const cold = [];
const warm = [];
for (let run = 0; run < RUNS; run++) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'block', locale: LOCALE });
  const page = await context.newPage();
  cold.push(await visit(page, '/', '#name'));
  await page.fill('#name', `Measure ${run}`);
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  warm.push(await visit(page, '/', '#play'));
  await context.close();
}
await browser.close();
if (process.env.VERBOSE) console.log(JSON.stringify({ cold, warm }));
for (const [name, runs] of [['cold', cold], ['warm', warm]]) {
  console.log(`${name} (${LOCALE}): ${median(runs.map((r) => r.ms))} ms to a usable first screen, ${median(runs.map((r) => r.requests))} requests, ${median(runs.map((r) => r.kib)).toFixed(1)} KiB over the wire (median of ${runs.length})`);
}
