// The game page's banner for a practice game (issue 29): the practice's goal, the reader's moves
// against the allowance, and the server's verdict (POST /api/learn/practice/{id}/judge), asked
// after each of the reader's moves and at the end. Reached: "Practice complete", the way back
// to the chapter, and the practice marked done.

import * as api from '../api.js';
import { t } from '../i18n.js';
import { escape } from '../format.js';
import { markDone, say } from '../learn_progress.js';
import { practiceOf, startPractice } from '../practice_games.js';

/**
 * The reader's own moves in `game` (passes not counted): the moves alternate from the side the
 * start position names.
 * @param {import('../types.js').GameState} game
 */
function ownMoves(game) {
  const first = game.start.split(' ')[1] === 'b' ? 'blue' : 'red';
  const mineAt = first === game.you ? 0 : 1;
  return game.moves.filter((mv, i) => i % 2 === mineAt && mv !== 'pass').length;
}

/**
 * @param {HTMLElement} el
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View & { update: () => void }}
 */
export function createPracticeBanner(el, app) {
  const gameId = app.store.state.game?.game;
  const practice = app.store.state.game ? practiceOf(app.store.state.game) : null;
  let alive = true;
  /** The verdict as last heard, and for how many of the reader's moves and whether the game was over. */
  let verdict = { reached: false, moves: /** @type {number | null} */ (null) };
  let judgedFor = '';
  let judging = false;
  let endRetried = false;
  let drawn = '';

  async function judge(key, over) {
    judging = true;
    judgedFor = key;
    try {
      const answer = await api.judgePractice(/** @type {any} */ (practice).id, gameId);
      if (!alive) return;
      verdict = answer;
      if (answer.reached) markDone([/** @type {any} */ (practice).id]);
      // The last move is stored before the end is sent, but one more look costs little.
      if (over && !answer.reached && !endRetried) {
        endRetried = true;
        setTimeout(() => {
          judgedFor = '';
          if (alive) update();
        }, 1000);
      }
    } catch {
      // Asked again after the next move, or at the end.
      judgedFor = '';
    } finally {
      judging = false;
    }
    if (alive) update();
  }

  function update() {
    const game = app.store.state.game;
    if (!practice || !game || game.game !== gameId) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const over = game.status === 'finished' || game.status === 'aborted';
    const mine = ownMoves(game);
    const key = `${mine}:${over}`;
    if (!verdict.reached && !judging && judgedFor !== key && (mine > 0 || over)) judge(key, over);
    const missed = !verdict.reached && (mine > practice.within || over) && !judging;
    let state = `<span class="practice-count">${t('learnPracticeMoves', { n: Math.min(mine, practice.within), within: practice.within })}</span>`;
    if (verdict.reached) {
      state = `<strong class="practice-done">${t('learnPracticeComplete')}</strong> ${escape(say(practice.why))}`;
    } else if (missed) {
      // An aborted game never began: no move was made in time, which is not the goal missed.
      const why = game.status === 'aborted' && mine === 0 ? t('learnPracticeAborted') : t('learnPracticeMissed', { n: practice.within });
      state = `${why} <button type="button" class="secondary" id="practice-again">${t('learnTryAgain')}</button>`;
    }
    const html = `<div class="card practice-banner" role="status">
      <p><strong>${escape(say(practice.text))}</strong></p>
      <p>${state} <a href="/learn/${practice.chapter}#practice" data-link>${t('learnBackToChapter')}</a></p></div>`;
    // Drawn again only when it changed: a screen reader reads the status once.
    if (html === drawn) return;
    drawn = html;
    el.innerHTML = html;
    el.querySelector('#practice-again')?.addEventListener('click', async () => {
      const catalogue = await api.learnCatalogue().catch(() => null);
      const found = catalogue?.chapters.flatMap((c) => c.practice).find((p) => p.id === practice.id);
      if (found && alive) startPractice(app, practice.chapter, found);
    });
  }

  return {
    update,
    destroy() {
      alive = false;
    },
  };
}
