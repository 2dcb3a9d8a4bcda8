// Which way animals are drawn: as pictures, as their Chinese characters, or both. The player
// chooses in settings (kept with the account); until then each language has its own default:
// pictures for English readers, who cannot tell 虎 from 狮, and the characters Chinese players
// know. Apart from the drawing (pieces.js) so that the page can apply the choice before it
// has fetched any picture.

import { language } from './i18n.js';

const STYLE_KEY = 'jungle.pieces';

/** @typedef {'pictures' | 'glyphs' | 'both'} PieceStyle */

/** @type {PieceStyle[]} */
export const PIECE_STYLES = ['pictures', 'glyphs', 'both'];

/**
 * The style shown to a reader of `lang` who has not chosen one.
 * @param {string} lang
 * @returns {PieceStyle}
 */
export function defaultStyle(lang = language()) {
  return lang === 'en' ? 'pictures' : 'glyphs';
}

/** @returns {PieceStyle | undefined} the style chosen in this browser, if any */
export function chosenStyle() {
  const saved = localStorage.getItem(STYLE_KEY);
  return PIECE_STYLES.find((style) => style === saved);
}

/** @returns {PieceStyle} the style the board draws now */
export function pieceStyle() {
  return chosenStyle() ?? defaultStyle();
}

/**
 * Keeps `style` in this browser; anything else goes back to the language's default.
 * @param {string | undefined} style
 */
export function choose(style) {
  const known = PIECE_STYLES.find((s) => s === style);
  if (known) localStorage.setItem(STYLE_KEY, known);
  else localStorage.removeItem(STYLE_KEY);
  document.documentElement.dataset.pieces = pieceStyle();
}
