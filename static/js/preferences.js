// Display settings: language, sound, square names, the board's colours and how animals are drawn. Kept in this browser, and with the
// account when signed in to one, so that every device shows the same.

import * as api from './api.js';
import { hasLanguage, language, loadLanguage, setLanguage } from './i18n.js';
import { chosenStyle, choose, pieceStyle } from './piece_style.js';
import * as sound from './sound.js';

const COORDS_KEY = 'jungle.coordinates';
const THEME_KEY = 'jungle.theme';
const BOARD_KEY = 'jungle.board';

/** @typedef {{ language?: string, muted: boolean, coordinates: boolean, theme?: string, board?: string, pieces?: string }} Settings */

/** @returns {Settings} the settings this browser shows now */
export function current() {
  return {
    language: language(),
    muted: sound.isMuted(),
    coordinates: localStorage.getItem(COORDS_KEY) !== '0',
    theme: localStorage.getItem(THEME_KEY) || undefined,
    board: localStorage.getItem(BOARD_KEY) === 'meadow' ? 'meadow' : undefined,
    pieces: chosenStyle(),
  };
}

/**
 * Shows `settings` (and keeps them in this browser). True if the language changed, so that
 * the page is to be drawn again.
 * @param {Partial<Settings>} settings
 * @returns {boolean}
 */
export function apply(settings) {
  const before = language();
  if (settings.language) setLanguage(settings.language);
  if (settings.muted != null) sound.setMuted(settings.muted);
  if (settings.coordinates != null) localStorage.setItem(COORDS_KEY, settings.coordinates ? '1' : '0');
  if ('theme' in settings) {
    if (settings.theme === 'light' || settings.theme === 'dark') localStorage.setItem(THEME_KEY, settings.theme);
    else localStorage.removeItem(THEME_KEY);
  }
  document.body.classList.toggle('no-coords', !current().coordinates);
  if ('board' in settings) {
    if (settings.board === 'meadow') localStorage.setItem(BOARD_KEY, 'meadow');
    else localStorage.removeItem(BOARD_KEY);
  }
  document.documentElement.dataset.board = current().board ?? 'wood';
  // Absent: the language's default, which a change of language changes too.
  if ('pieces' in settings) choose(settings.pieces);
  document.documentElement.dataset.pieces = pieceStyle();
  const theme = current().theme;
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  return language() !== before;
}

/**
 * Changes some settings here, and saves them with the account if there is one.
 * @param {Partial<Settings>} change
 * @param {boolean} account
 */
export async function update(change, account) {
  // Shown at once when its words are here (the caller may have fetched them first).
  if (change.language && !hasLanguage(change.language)) await loadLanguage(change.language);
  apply(change);
  if (account) await api.saveSettings(current());
}

/** An account's saved settings, applied here; true if the language changed. */
export async function loadForAccount() {
  const settings = await api.settings();
  if (settings.language) await loadLanguage(settings.language);
  return apply(settings);
}
