// What the game page and the analysis board share about stepping through a game: the bar of
// ⏮ ◀ ▶ ⏭ buttons and the last move's squares.

import { t } from '../i18n.js';

/** The ⏮ ◀ n/N ▶ ⏭ bar under a board that steps through turns (`data-step` buttons). */
export function replayBar() {
  return `<nav class="replay-bar" aria-label="${t('replay')}">
        <button type="button" class="secondary" data-step="first" aria-label="${t('replayFirst')}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 5h2.5v14H5zM19 5v14L8.5 12z"/></svg></button>
        <button type="button" class="secondary" data-step="prev" aria-label="${t('replayPrev')}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 5v14L6 12z"/></svg></button>
        <span id="replay-ply" class="muted" aria-live="polite"></span>
        <button type="button" class="secondary" data-step="next" aria-label="${t('replayNext')}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l11-7z"/></svg></button>
        <button type="button" class="secondary" data-step="last" aria-label="${t('replayLast')}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16.5 5H19v14h-2.5zM5 5v14l10.5-7z"/></svg></button>
      </nav>`;
}

/**
 * The squares of the last move played, for the board to mark; none after a pass.
 * @param {{ moves: string[] }} game
 */
export function lastMove(game) {
  const last = game.moves[game.moves.length - 1];
  return last && last !== 'pass' ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null;
}

/**
 * Scrolls a list of moves (and only the list, never the page: on a phone the board stays in
 * view) so that the move shown is in sight.
 * @param {HTMLElement} list
 */
export function keepInSight(list) {
  const current = list.querySelector('.current');
  if (!(current instanceof HTMLElement)) return;
  const item = current.getBoundingClientRect();
  const box = list.getBoundingClientRect();
  if (item.top < box.top || item.bottom > box.bottom) {
    // Centred, by whole rows: the list's top row is never cut in half.
    const row = list.querySelector('li')?.getBoundingClientRect().height || 1;
    const wanted = list.scrollTop + item.top - box.top - list.clientHeight / 2;
    list.scrollTop = Math.round(wanted / row) * row;
  }
}
