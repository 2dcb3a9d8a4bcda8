// Draws the home-screen icons (static/icons/*.png) from the elephant of static/js/animals.js,
// in Chromium: `node tools/make-icons.mjs` (run from the repository, with e2e's packages
// installed). The PNGs are committed; run again after changing the drawing.
//   icon-192.png, icon-512.png: a rounded dark square, the elephant in the paper's colour;
//   maskable-512.png: the same on a full square, the elephant inside the safe circle (80 %).

import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '../e2e/node_modules/playwright-core/index.mjs';
import { PICTURES } from '../static/js/animals.js';

const repo = resolve(import.meta.dirname, '..');
const INK = '#1d2327';
const PAPER = '#f6f3ea';

/** The icon as SVG, `size` pixels: `maskable` fills the square and keeps to the safe circle. */
function icon(size, maskable) {
  const inner = maskable ? 0.56 : 0.72;
  const offset = (1 - inner) / 2;
  const background = maskable
    ? `<rect width="64" height="64" fill="${INK}"/>`
    : `<rect width="64" height="64" rx="14" fill="${INK}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
    <style>.cut { fill: ${INK}; } .rim { stroke: ${INK}; stroke-width: 2; } .line { fill: none; stroke: ${PAPER}; stroke-width: 3; stroke-linecap: round; }
      .cut-line { fill: none; stroke: ${INK}; stroke-width: 3; stroke-linecap: round; } .rim-ink { stroke: ${PAPER}; stroke-width: 3; }</style>
    ${background}
    <g transform="translate(${64 * offset} ${64 * offset}) scale(${inner})" fill="${PAPER}">${PICTURES.elephant}</g></svg>`;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
for (const [name, size, maskable] of [['icon-192.png', 192, false], ['icon-512.png', 512, false], ['maskable-512.png', 512, true]]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${icon(size, maskable)}</body></html>`);
  writeFileSync(join(repo, 'static/icons', name), await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  await page.close();
}
await browser.close();
