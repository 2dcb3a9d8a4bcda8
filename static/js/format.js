// Helpers every page shares: escaping text for markup, the clock presets, dates. No view's code
// lives here, so that views import it and never each other.

import { locale, t } from './i18n.js';

export const PRESETS = [
  { id: '3+2', clock: { kind: 'fischer', base_s: 180, inc_s: 2 } },
  { id: '5+3', clock: { kind: 'fischer', base_s: 300, inc_s: 3 } },
  { id: '10+5', clock: { kind: 'fischer', base_s: 600, inc_s: 5 } },
  { id: '30s', clock: { kind: 'per_move', move_s: 30, max_timeouts: 3, consecutive: false } },
];

/** Correspondence: days a move, in a group of their own where they are offered (games between
 * accounts; not against the computer, nor in tournaments). */
export const DAY_PRESETS = [1, 2, 3, 5, 7, 14].map((days) => ({ id: `${days}d`, clock: { kind: 'days', days } }));

/** @param {string} presetId */
export const isDaysPreset = (presetId) => DAY_PRESETS.some((p) => p.id === presetId);

/**
 * A preset as the player reads it: "5+3", "30 s per move", "3 days".
 * @param {string} presetId
 */
export function presetLabel(presetId) {
  const days = DAY_PRESETS.find((p) => p.id === presetId);
  if (days) return t('nDays', { n: days.clock.days });
  return presetId === '30s' ? t('perMove', { s: 30 }) : presetId;
}

/**
 * A clock select's options: the real-time presets, then the correspondence ones as a group
 * (disabled, with the reason in the group's label, unless `correspondence`).
 * @param {string} selected
 * @param {boolean} correspondence
 */
export function clockOptions(selected, correspondence) {
  const chosen = !correspondence && isDaysPreset(selected) ? '5+3' : selected;
  const option = (id, disabled) => `<option value="${id}" ${id === chosen ? 'selected' : ''} ${disabled ? 'disabled' : ''}>${presetLabel(id)}</option>`;
  const label = correspondence ? t('correspondencePerMove') : `${t('correspondencePerMove')} (${t('accountsOnly')})`;
  return PRESETS.map((p) => option(p.id, false)).join('')
    + `<optgroup label="${escape(label)}">${DAY_PRESETS.map((p) => option(p.id, !correspondence)).join('')}</optgroup>`;
}

/// The clock of a preset; the per-move preset follows the ruleset's own custom (daitou counts
/// consecutive timeouts, one allowed).
export function presetClock(presetId, rules) {
  const days = DAY_PRESETS.find((p) => p.id === presetId);
  if (days) return days.clock;
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

/**
 * A device as people name it, from its browser's User-Agent ("Chrome on Android"); a string
 * not recognised is kept, cut to 60 characters.
 * @param {string} agent
 */
export function deviceName(agent) {
  /** @type {[RegExp, string][]} */
  const browsers = [[/Edg\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/Firefox\//, 'Firefox'], [/SamsungBrowser\//, 'Samsung Internet'],
    [/Chrom(e|ium)\//, 'Chrome'], [/Version\/.*Safari\//, 'Safari'], [/curl\//, 'curl'], [/python/i, 'Python']];
  /** @type {[RegExp, string][]} */
  const systems = [[/Android/, 'Android'], [/iPhone|iPad|iPod/, 'iOS'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']];
  const browser = browsers.find(([re]) => re.test(agent))?.[1];
  const system = systems.find(([re]) => re.test(agent))?.[1];
  if (browser && system) return `${browser} · ${system}`;
  if (browser || system) return /** @type {string} */ (browser ?? system);
  return agent.length > 60 ? `${agent.slice(0, 59)}…` : agent;
}
