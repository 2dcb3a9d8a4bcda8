// How an animal is drawn: as a picture, as its Chinese character, or both, in the style the
// player chose (piece_style.js).

import { PICTURES, svg } from './animals.js';
import { ANIMALS, glyphOf } from './fen.js';
import { t } from './i18n.js';
import { pieceStyle } from './piece_style.js';

export { PIECE_STYLES, chosenStyle, choose, defaultStyle, pieceStyle } from './piece_style.js';
/** @typedef {import('./piece_style.js').PieceStyle} PieceStyle */

/**
 * The inside of a round piece for the animal `letter` (e l t p w d c r): picture and/or
 * character, and the rank in its corner. Hidden from screen readers: the square or button
 * holding it names the animal in words.
 * @param {string} letter
 * @param {{ style?: PieceStyle, rank?: boolean }} [options]
 */
export function pieceFace(letter, { style = pieceStyle(), rank = true } = {}) {
  const animal = ANIMALS[letter];
  if (!animal) return '';
  const picture = style === 'glyphs' ? '' : svg(PICTURES[animal.name], 'animal');
  // Drawn by CSS from an attribute: the character is not text, so a square's visible text
  // stays part of its name (English names say "Lion", not 狮).
  const glyph = style === 'pictures' ? '' : `<span class="glyph" aria-hidden="true" data-glyph="${glyphOf(animal)}"></span>`;
  const corner = rank ? `<span class="rank" aria-hidden="true">${animal.rank}</span>` : '';
  return `${picture}${glyph}${corner}`;
}

/**
 * A small token for lists (captured animals, the legend): a piece of `side`'s colours.
 * @param {string} letter
 * @param {'red' | 'blue'} side
 * @param {{ style?: PieceStyle, rank?: boolean }} [options]
 */
export function token(letter, side, options) {
  return `<span class="piece token ${side} style-${options?.style ?? pieceStyle()}">${pieceFace(letter, options)}</span>`;
}

/**
 * The animals each side has lost, as tokens of that side's colours, said in words for screen
 * readers. `lost` holds animal names (elephant … rat).
 * @param {{ red: string[], blue: string[] }} lost
 */
export function capturedHtml(lost) {
  return /** @type {const} */ (['red', 'blue']).map((side) => {
    const letters = lost[side].map((name) => Object.keys(ANIMALS).find((l) => ANIMALS[l].name === name) ?? '');
    const words = lost[side].map((name) => t(`animal.${name}`)).join(', ');
    const tokens = letters.map((letter) => token(letter, side)).join('');
    return `<div class="${side}">${words ? `<span class="sr-only">${t('lostAnimals', { side: t(side), animals: words })}</span>` : ''}<span aria-hidden="true">${tokens}</span></div>`;
  }).join('');
}
