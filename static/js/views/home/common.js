// What the lobby's parts share: the rulesets offered, the last choices remembered, options
// of a select, and a player's name as a link.

import { t } from '../../i18n.js';
import { escape } from '../../format.js';

export const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/** The last seek's choices, remembered in this browser. */
export function remembered() {
  try {
    return { rules: 'classic', preset: '5+3', rated: true, ...JSON.parse(localStorage.getItem('jungle.lastSeek') || '{}') };
  } catch {
    return { rules: 'classic', preset: '5+3', rated: true };
  }
}

/** The clock of the last private room made in this browser: a room for a friend keeps its
 * own, not the last seek's (a seek over days would make every room a game of days). */
export function rememberedRoomClock() {
  return localStorage.getItem('jungle.lastRoomClock') || '5+3';
}

/** @param {string} preset */
export function rememberRoomClock(preset) {
  localStorage.setItem('jungle.lastRoomClock', preset);
}

/** A select's options, `selected` chosen. */
export function options(values, selected, label) {
  return values.map((v) => `<option value="${v}" ${v === selected ? 'selected' : ''}>${label(v)}</option>`).join('');
}

/**
 * A player's name as a link to their profile (plain text when the id is unknown), after
 * their title (BOT) if they have one.
 * @param {string} name
 * @param {string | null | undefined} id
 * @param {string | null} [title]
 */
export function nameLink(name, id, title) {
  const badge = title ? `<span class="title-badge" title="${t('botTitle')}">${escape(title)}</span> ` : '';
  return badge + (id ? `<a href="/p/${id}" data-link>${escape(name)}</a>` : escape(name));
}
