// The game page's panels: the private room's, the turn, the actions a player may take, and
// the end (result, rematch, reports).

import { remainingMs, describeClock } from '../../clock.js';
import { $, valueOf } from '../../dom.js';
import { t } from '../../i18n.js';
import { escape } from '../../format.js';
import { deadlineText } from './clocks.js';
import { mayAsk } from '../../notify.js';

/** @typedef {import('../../types.js').App} App */
/** @typedef {import('../../types.js').GameState} GameState */

export function drawRoomPanel(el, app) {
  const { game } = app.store.state;
  if (game.status !== 'waiting' || !game.code) {
    el.innerHTML = '';
    return;
  }
  const url = `${location.origin}/r/${game.code}`;
  // The computer plays in one sitting: never in a room over days.
  const computer = game.clock.kind !== 'days';
  // The link to share comes first: on a phone it is what the host came for, on screen.
  el.innerHTML = `<div class="card"><p>${t('roomReady')}</p>
    <p class="row"><input type="text" readonly value="${url}" aria-label="${t('roomLink')}" id="room-link" class="grow">
    <button type="button" class="secondary" id="copy-link">${t('copy')}</button></p>
    <p>${t('codeAloud')} <span class="code" id="room-code">${game.code}</span></p>
    <p class="muted">${t('waitingForOpponent')}</p>
    ${computer ? `<p class="row"><select id="add-level" aria-label="${t('level')}">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}" ${n === 3 ? 'selected' : ''}>${t('levelN', { n })}</option>`).join('')}</select>
    <button type="button" class="secondary" id="add-computer">${t('addComputer')}</button></p>` : ''}
    ${game.you != null ? `<p><button type="button" class="secondary" id="close-room">${t('closeRoom')}</button></p>` : ''}</div>`;
  // Nobody came (or the link went to the wrong person): the host closes the room; its link
  // then names no room.
  el.querySelector('#close-room')?.addEventListener('click', () => {
    app.session.send({ t: 'resign', game: game.game });
    app.router.navigate('/');
  });
  el.querySelector('#add-computer')?.addEventListener('click', () => {
    app.session.send({ t: 'add_computer', game: game.game, level: Number(valueOf(el, '#add-level')) });
  });
  $(el, '#copy-link').onclick = async (e) => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      /** @type {HTMLInputElement} */ ($(el, '#room-link')).select();
      document.execCommand?.('copy');
    }
    $(el, '#copy-link').textContent = t('copied');
  };
}
export function endText(game) {
  const r = game.result;
  if (!r) return null;
  const winnerName = r.winner ? t(r.winner) : null;
  const loser = r.winner ? t(r.winner === 'red' ? 'blue' : 'red') : '';
  // A player reads the result as theirs; a spectator by colour.
  const mine = game.you != null && r.winner ? (r.winner === game.you ? t('youWin') : t('youLose')) : null;
  const headline = r.reason === 'aborted' ? t('aborted') : mine ?? (r.winner ? t('wins', { side: winnerName }) : t('draw'));
  const why = t(`reason.${r.reason}`, { side: winnerName ?? '', loser });
  return { headline, why };
}
export function drawEnd(el, app) {
  const { game, rematchAsked, rematchOffered } = app.store.state;
  const text = endText(game);
  if (!text) {
    el.innerHTML = '';
    return;
  }
  const r = game.result;
  let rating = '';
  if (r.rating_change) {
    const fmt = (n) => `<span class="change ${n >= 0 ? 'up' : 'down'}">${n >= 0 ? '+' : '−'}${Math.abs(n)}</span>`;
    const seat = game.you != null ? game[game.you] : null;
    if (seat && !seat.computer) {
      // A player reads their own: from the rating they brought to this one; "?" while it is
      // provisional (the seat says whether it was).
      const change = r.rating_change[game.you];
      const mark = seat.provisional ? '?' : '';
      rating = t('yourRatingChange', { before: `${seat.rating}${mark}`, after: `${seat.rating + change}${mark}`, change: fmt(change) });
      if (seat.provisional) rating += `<br><span class="muted">${t('provisionalNote')}</span>`;
    } else {
      rating = t('ratingChange', { red: fmt(r.rating_change.red), blue: fmt(r.rating_change.blue) });
    }
  } else if (game.rated && r.reason !== 'aborted' && !game.tournament) {
    // A rated game whose result changed no rating: the server's 10-move rule.
    rating = t('notRated');
  } else if (!game.rated) {
    rating = t('casualGame');
  }
  const player = game.you != null;
  // A game whose room has closed (seq 0: it sends no more events) takes no rematch; one's own
  // is still shown as one's own.
  const archived = game.seq === 0;
  el.innerHTML = `<section class="card end" id="end" aria-live="polite" tabindex="-1"><h2>${text.headline}</h2><p>${text.why}</p><p>${rating}</p>
    <div class="actions">
      ${player && !archived && !game.tournament ? rematchButton('rematch', rematchAsked) : ''}
      ${game.tournament ? `<a href="/t/${game.tournament}" data-link class="button primary link-button">${t('backToTournament')}</a>` : ''}
      <a href="/" data-link class="button secondary link-button">${t('backToLobby')}</a>
    </div>
    ${rematchOffered && !rematchAsked ? `<p class="notice">${t('rematchOffered')}</p>` : ''}
    ${game.tournament && player ? `<p class="muted">${t('nextPairing')}</p>` : ''}
    ${reportLinks(game)}</section>`;
}
/**
 * The rematch button, in the end panel and in the bar under the board alike.
 * @param {string} id
 * @param {boolean} asked
 */
function rematchButton(id, asked) {
  return `<button type="button" class="primary" id="${id}" data-rematch ${asked ? 'disabled' : ''}>${asked ? t('rematchAsked') : t('rematch')}</button>`;
}
/** @param {App} app */
export function askRematch(app) {
  app.store.set({ rematchAsked: true });
  app.session.send({ t: 'rematch', game: app.store.state.game.game });
}
/**
 * Links to report the game's other players (never oneself or the computer), about this game.
 * @param {import('../../types.js').GameState} game
 */
function reportLinks(game) {
  const others = [game.red, game.blue].filter((seat) => seat && !seat.computer && (game.you == null || seat !== game[game.you]));
  if (!others.length) return '';
  return `<p class="muted report-links">${others.map((seat) => `<a href="/p/${seat.id}?report=${game.game}" data-link>${t('reportTitle', { name: escape(seat.name) })}</a>`).join(' · ')}</p>`;
}
/**
 * @param {HTMLElement} el
 * @param {App} app
 * @param {{ deadlines: Map<number, string> }} local
 */
export function drawTurn(el, app, local) {
  const { game, clockReceivedAt } = app.store.state;
  const parts = [`${t(`ruleset.${game.rules}`)} · ${describeClock(game.clock, t)} · ${game.rated ? t('rated') : t('casual')}`];
  // Over days, when the turn ends, in the reader's time (a first move's on the abort timer,
  // said under this line instead).
  let until = '';
  if (game.clock.kind === 'days' && game.status === 'active' && game.clocks.running != null) {
    const left = remainingMs(game.clocks, game.clocks.running, clockReceivedAt);
    until = ` · ${t('untilWhen', { when: deadlineText(local, Date.now() + left) })}`;
  }
  if (game.you == null) parts.push(t('spectating'));
  else if (game.status === 'active') parts.push(game.turn === game.you ? `<strong>${t('yourTurn')}</strong>${until}` : `${t('theirTurn')}${until}`);
  // Over days, the opponent gave the reader a day for this turn (their clock grew by it).
  if (game.clock.kind === 'days' && game.status === 'active' && game.you != null && game.turn === game.you && game.day_given) {
    const giver = game[game.you === 'red' ? 'blue' : 'red'];
    parts.push(`<span class="day-received">${t('dayGivenToYou', { name: escape(giver?.name ?? '') })}</span>`);
  }
  parts.push('<span id="first-move" class="first-move" role="timer"></span>');
  // Asked only when the player wants it: a notification of their move while away.
  if (game.you != null && game.status === 'active' && mayAsk()) {
    parts.push(`<button type="button" class="secondary notify-ask" id="ask-notify">${t('notifyAsk')}</button>`);
  }
  el.innerHTML = parts.join('<br>');
}
/**
 * The bar under the board: whatever asks for an answer takes the place of the game's buttons
 * (an offer, a request, a resignation to confirm), and the result stands there once the game
 * is over, so that on a phone none of it is below the fold.
 * @param {HTMLElement} el
 * @param {App} app
 */
export function drawActions(el, app) {
  const { game, rematchAsked, rematchOffered, confirmResign, drawOfferedAt, drawDeclined, takebackDeclined, dayGivenAt } = app.store.state;
  const ended = endText(game);
  if (ended) {
    el.hidden = false;
    // No rematch in a room that has closed (seq 0), as in the end panel.
    const player = game.you != null && !game.tournament && game.seq !== 0;
    el.innerHTML = `<p class="result-line full" role="status"><strong>${ended.headline}</strong> · ${ended.why}</p>
      ${rematchOffered && !rematchAsked ? `<p class="notice full">${t('rematchOffered')}</p>` : ''}${player ? rematchButton('bar-rematch', rematchAsked) : ''}`;
    return;
  }
  if (game.you == null || game.status !== 'active') {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const opponent = game.you === 'red' ? 'blue' : 'red';
  const id = game.game;
  if (game.draw_offer === opponent) {
    el.innerHTML = `<p class="notice full">${t('drawOfferedToYou')}</p>
      <button type="button" class="primary" id="accept-draw">${t('accept')}</button>
      <button type="button" class="secondary" id="decline-draw">${t('decline')}</button>`;
    $(el, '#accept-draw').onclick = () => app.session.send({ t: 'accept_draw', game: id });
    $(el, '#decline-draw').onclick = () => app.session.send({ t: 'decline_draw', game: id });
    return;
  }
  if (game.takeback_offer === opponent) {
    el.innerHTML = `<p class="notice full" role="status">${t('takebackOfferedToYou')}</p>
      <button type="button" class="primary" id="accept-takeback">${t('accept')}</button>
      <button type="button" class="secondary" id="decline-takeback">${t('decline')}</button>`;
    $(el, '#accept-takeback').onclick = () => app.session.send({ t: 'accept_takeback', game: id });
    $(el, '#decline-takeback').onclick = () => app.session.send({ t: 'decline_takeback', game: id });
    return;
  }
  if (confirmResign) {
    el.innerHTML = `<p class="full">${t('confirmResign')}</p>
      <button type="button" class="danger" id="resign-yes">${t('yes')}</button>
      <button type="button" class="secondary" id="resign-no">${t('no')}</button>`;
    $(el, '#resign-yes').onclick = () => {
      app.store.set({ confirmResign: false });
      app.session.send({ t: 'resign', game: id });
    };
    $(el, '#resign-no').onclick = () => app.store.set({ confirmResign: false });
    $(el, '#resign-no').focus();
    return;
  }
  const offered = game.draw_offer === game.you;
  // Casual games only, once one has a move to take back (the first turn is Red's).
  const firstMover = game.start.split(' ')[1] === 'b' ? 'blue' : 'red';
  const canTakeBack = !game.rated && (game.moves.length >= 2 || (game.moves.length === 1 && firstMover === game.you));
  const asked = game.takeback_offer === game.you;
  // The server allows one offer per player every 20 turns: the button says when again.
  const againAt = drawOfferedAt != null ? drawOfferedAt + 20 : 0;
  const waiting = !offered && game.moves.length < againAt;
  const label = offered ? t('drawOffered') : waiting ? t('drawAgainAt', { n: Math.floor(againAt / 2) + 1 }) : t('offerDraw');
  // Correspondence: a day more for the opponent's turn, once a turn, after the first move.
  const canGiveDay = game.clock.kind === 'days' && game.turn !== game.you && game.moves.length >= 1;
  // The game's state says so (from any device of either player); until it comes back, this
  // page's click does.
  const dayGiven = Boolean(game.day_given) || dayGivenAt === game.moves.length;
  el.innerHTML = `${drawDeclined ? `<p class="notice full" role="status">${t('drawDeclinedToYou')}</p>` : ''}
    ${canGiveDay ? `<button type="button" class="secondary" id="give-day" title="${t('giveDayTitle')}" ${dayGiven ? 'disabled' : ''}>${dayGiven ? t('dayGiven') : t('giveDay')}</button>` : ''}
    <button type="button" class="secondary" id="offer-draw" ${offered || waiting ? 'disabled' : ''}>${label}</button>
    ${canTakeBack ? `<button type="button" class="secondary" id="takeback" ${asked ? 'disabled' : ''}>${asked ? t('takebackAsked') : t('takeback')}</button>` : ''}
    ${takebackDeclined ? `<p class="notice full" role="status">${t('takebackDeclinedToYou')}</p>` : ''}
    <button type="button" class="danger" id="resign">${t('resign')}</button>`;
  el.querySelector('#give-day')?.addEventListener('click', () => {
    app.store.set({ dayGivenAt: game.moves.length });
    app.session.send({ t: 'give_day', game: id });
  });
  el.querySelector('#takeback')?.addEventListener('click', () => {
    app.store.set({ takebackDeclined: false });
    app.session.send({ t: 'takeback', game: id });
  });
  $(el, '#offer-draw').onclick = () => {
    app.store.set({ drawOfferedAt: game.moves.length, drawDeclined: false });
    app.session.send({ t: 'offer_draw', game: id });
  };
  $(el, '#resign').onclick = () => {
    app.store.set({ confirmResign: true });
  };
}
