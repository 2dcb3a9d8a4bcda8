// The lobby's list of games over days: those waiting for the player's move, and those
// waiting for the opponent's, with the time each side has left.

import * as api from '../../api.js';
import { describeClock, formatDays, formatDeadline } from '../../clock.js';
import { $ } from '../../dom.js';
import { locale, t } from '../../i18n.js';
import { nameLink } from './common.js';

/**
 * Draws the list of games over days (the header's badge keeps it in the store).
 * @param {HTMLElement} root
 * @param {import('../../types.js').App} app
 * @param {boolean} account whether the player has an account (games over days are an account's)
 * @returns {import('../../types.js').View}
 */
export function drawYourTurnList(root, app, account) {
  const yourTurn = $(root, '#your-turn');
  // The header's badge links here: the list is shown once it has come.
  let scrollTo = location.hash === '#your-turn';
  const drawYourTurn = () => {
    const waiting = app.store.state.waiting;
    const theirs = waiting?.opponents_turn ?? [];
    yourTurn.hidden = !account || !waiting || (!waiting.games.length && !theirs.length && !waiting.in_progress);
    if (yourTurn.hidden) return;
    if (scrollTo) {
      scrollTo = false;
      requestAnimationFrame(() => yourTurn.scrollIntoView({ block: 'nearest' }));
    }
    const n = waiting.games.length;
    // A vacation this browser knows of (read on the settings page, where it is taken): its end.
    const vacationEnd = api.knownVacationEnd();
    const vacation = $(yourTurn, '#yt-vacation');
    vacation.hidden = vacationEnd == null;
    if (vacationEnd != null) {
      vacation.innerHTML = `<a href="/settings" data-link>${t('vacationLobby', { when: formatDeadline(vacationEnd, locale()) })}</a>`;
    }
    $(yourTurn, '#yt').textContent = n ? t('yourTurnInN', { n }) : t('correspondence');
    $(yourTurn, '#yt-note').textContent = n ? t('correspondenceInProgress', { n: waiting.in_progress }) : `${t('noGameWaiting')} ${t('correspondenceInProgress', { n: waiting.in_progress })}`;
    /**
     * One game of the list: the opponent, the ruleset and clock, the time left to the side to
     * move (the reader's, or the opponent's) until when, and the way to the game.
     * @param {import('../../types.js').WaitingGame} g
     * @param {boolean} mine
     */
    const row = (g, mine) => {
      const left = Math.max(0, g.left_ms - (Date.now() - waiting.at));
      const until = t('untilWhen', { when: formatDeadline(waiting.at + g.left_ms, locale()) });
      const leftText = `<strong>${formatDays(left, t)}</strong>`;
      const timing = `${mine ? t('timeLeft', { left: leftText }) : t('opponentTimeLeft', { left: leftText })} · <span class="nowrap">${until}</span>`;
      const button = mine
        ? `<a href="/g/${g.id}" data-link class="button primary link-button">${t('makeMove')}</a>`
        : `<a href="/g/${g.id}" data-link class="button secondary link-button">${t('openGame')}</a>`;
      return `<li class="game-row"><span>${nameLink(g.opponent.name, g.opponent.id)} · ${t(`ruleset.${g.rules}`)} · ${describeClock(g.clock, t)}<br>
        <span class="muted">${timing}</span></span>
        ${button}</li>`;
    };
    $(yourTurn, '#yt-list').innerHTML = waiting.games.map((g) => row(g, true)).join('');
    // The games waiting for the opponent's move: reopened from here (to read them, or give a day).
    const theirsHeading = $(yourTurn, '#yt-theirs-h');
    theirsHeading.hidden = !theirs.length;
    theirsHeading.textContent = t('opponentsTurnGames');
    $(yourTurn, '#yt-theirs').innerHTML = theirs.map((g) => row(g, false)).join('');
  };
  drawYourTurn();
  const stopWaitingNews = app.store.subscribe('waiting', drawYourTurn);
  const yourTurnTimer = setInterval(drawYourTurn, 30000);
  app.store.tell('correspondence');

  return {
    destroy() {
      clearInterval(yourTurnTimer);
      stopWaitingNews();
    },
  };
}
