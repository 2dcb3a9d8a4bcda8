// Helpers every page shares: escaping text for markup, the clock presets, dates. No view's code
// lives here, so that views import it and never each other.

import { locale } from './i18n.js';

export const PRESETS = [
  { id: '3+2', clock: { kind: 'fischer', base_s: 180, inc_s: 2 } },
  { id: '5+3', clock: { kind: 'fischer', base_s: 300, inc_s: 3 } },
  { id: '10+5', clock: { kind: 'fischer', base_s: 600, inc_s: 5 } },
  { id: '30s', clock: { kind: 'per_move', move_s: 30, max_timeouts: 3, consecutive: false } },
];

/// The clock of a preset; the per-move preset follows the ruleset's own custom (daitou counts
/// consecutive timeouts, one allowed).
export function presetClock(presetId, rules) {
  const preset = PRESETS.find((p) => p.id === presetId) ?? PRESETS[1];
  if (preset.clock.kind === 'per_move' && rules === 'daitou') {
    return { kind: 'per_move', move_s: 30, max_timeouts: 1, consecutive: true };
  }
  return preset.clock;
}

/**
 * Text made safe to place in HTML.
 * @param {unknown} text
 * @returns {string}
 */
export function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * A moment as the reader's language writes a date and time.
 * @param {string} iso
 */
export function when(iso) {
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}
