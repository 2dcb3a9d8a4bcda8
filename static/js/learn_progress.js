// What the reader has done of the lessons (issue 29): exercise and practice ids, kept in this
// browser (a guest's only record), and for an account brought together with the server's list.

import * as api from './api.js';
import { language } from './i18n.js';

const KEY = 'jungle.learn.done';

/**
 * A lesson's text in the reader's language. Every text has all three: no other language is
 * shown in its place.
 * @param {import('./types.js').LearnText} text
 */
export const say = (text) => text[language()];

/** The ids done, as this browser knows them. @returns {Set<string>} */
export function doneIds() {
  try {
    const ids = JSON.parse(localStorage.getItem(KEY) || '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** @param {Iterable<string>} ids */
function keep(ids) {
  localStorage.setItem(KEY, JSON.stringify([...new Set(ids)]));
}

/** @param {string[]} ids done now (an account's are stored by the server as it judges them) */
export function markDone(ids) {
  keep([...doneIds(), ...ids]);
}

/** Whether anything is done in this browser: a newcomer has nothing. */
export const hasProgress = () => doneIds().size > 0;

/** The accounts whose progress this page has brought together already. */
const synced = new Set();

/**
 * The progress to show: this browser's, and for an account the server's too; ids done here that
 * the account lacks are brought into it (the first time the lessons open for it on this page).
 * @param {import('./types.js').StoredPlayer | null} player
 * @returns {Promise<Set<string>>}
 */
export async function syncProgress(player) {
  const local = doneIds();
  if (!player?.username || synced.has(player.id)) return local;
  try {
    let { done } = await api.accountLearn();
    const missing = [...local].filter((id) => !done.includes(id));
    if (missing.length) ({ done } = await api.bringLearn(missing));
    synced.add(player.id);
    keep([...local, ...done]);
  } catch {
    // Offline, or the account's list refused an id: this browser's list still shows.
  }
  return doneIds();
}
