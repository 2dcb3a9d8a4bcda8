// The legend: the eight animals as the board draws them, with their names and ranks in the
// page's language, and the squares that are not land. Shown on every rules page and in the
// lessons, so that a reader who does not read 虎 or 狮 can still tell the tiger from the lion.

import { DEN_PICTURE, TRAP_PICTURE, svg } from '../animals.js';
import { ANIMALS } from '../fen.js';
import { t } from '../i18n.js';
import { token } from '../pieces.js';

/**
 * The legend as HTML, headed at `level` (2 or 3); `open` false folds it under its heading, one
 * tap away.
 * @param {{ level?: number, open?: boolean }} [options]
 */
export function legendHtml({ level = 2, open = true } = {}) {
  const animals = Object.entries(ANIMALS).map(([letter, animal]) =>
    `<li>${token(letter, 'red', { rank: false })}<span><strong>${t(`animal.${animal.name}`)}</strong> · <span class="nowrap">${t('legendRank', { rank: animal.rank })}</span></span></li>`).join('');
  // Red and Blue apart without colour: a solid ring and a dashed one.
  const sides = /** @type {const} */ (['red', 'blue']).map((side) =>
    `<li>${token('e', side, { rank: false })}<span><strong>${t(side)}</strong> · ${t(`legendRing.${side}`)}</span></li>`).join('');
  const terrain = [
    ['water', '', t('legendWater')],
    ['trap', svg(TRAP_PICTURE, 'terrain'), t('legendTrap')],
    ['den', svg(DEN_PICTURE, 'terrain'), t('legendDen')],
  ].map(([kind, picture, name]) => `<li><span class="terrain-chip ${kind}" aria-hidden="true">${picture}</span><span>${name}</span></li>`).join('');
  const body = `<ul class="legend-list">${animals}${sides}${terrain}</ul><p class="legend-hint">${t('legendHint')}</p>`;
  const heading = `<h${level} class="legend-title">${t('legendTitle')}</h${level}>`;
  return open
    ? `<section class="legend" aria-label="${t('legendTitle')}">${heading}${body}</section>`
    : `<details class="legend"><summary>${t('legendTitle')}</summary>${body}</details>`;
}
