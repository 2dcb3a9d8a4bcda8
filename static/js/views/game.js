// The game page: board, players, clocks, moves, actions and the end panel, drawn from the
// latest `game` state the server sent (kept in app.game). It derives nothing the server says.

import { createBoard, renderBoard } from '../board.js';
import { formatMs, lowTimeMs, remainingMs, describeClock } from '../clock.js';
import { $, valueOf } from '../dom.js';
import { ANIMAL_BY_NAME, parseBoard } from '../fen.js';
import { t } from '../i18n.js';
import { escape } from './home.js';

/** @typedef {import('../types.js').App} App */
/** @typedef {import('../types.js').GameState} GameState */
/** @typedef {import('../types.js').View & { update: () => void }} GameView */

/**
 * Draws the game page for `app.game`; `update()` redraws it after the state changed.
 * @param {HTMLElement} root
 * @param {App} app
 * @returns {GameView}
 */
export function renderGame(root, app) {
  root.innerHTML = `
  <div class="game">
    <section aria-label="board">
      <div class="player-bar" id="top-bar"></div>
      <div id="board"></div>
      <div class="player-bar" id="bottom-bar"></div>
    </section>
    <aside class="side">
      <div id="away" class="away" role="alert" hidden></div>
      <div id="room-panel"></div>
      <div id="end-panel"></div>
      <div class="card" id="turn-info" role="status"></div>
      <div class="card actions" id="actions"></div>
      <div class="card"><h3>${t('moves')}</h3><div class="moves" id="moves"></div></div>
      <div class="card"><h3>${t('captured')}</h3><div class="captured" id="captured"></div></div>
    </aside>
  </div>`;
  const board = createBoard($(root, '#board'), (mv) => app.send({ t: 'move', game: app.game.game, mv }));
  const tick = () => tickClocks(root, app);
  app.tickers.push(tick);
  const view = {
    update: () => updateGame(root, app, board),
    destroy() {
      board.destroy();
      app.tickers = app.tickers.filter((f) => f !== tick);
    },
  };
  view.update();
  return view;
}

function orientation(game) {
  return game.you === 'blue' ? 'blue' : 'red';
}

export function lastMove(game) {
  const last = game.moves[game.moves.length - 1];
  return last && last !== 'pass' ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null;
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 * @param {import('../board.js').Board} board
 */
function updateGame(root, app, board) {
  const game = app.game;
  if (!game) return;
  const pieces = parseBoard(game.position);
  renderBoard(board, {
    pieces,
    orientation: orientation(game),
    legal: game.status === 'active' ? game.legal : [],
    lastMove: lastMove(game),
    animate: true,
  });
  const bottom = orientation(game);
  const top = bottom === 'red' ? 'blue' : 'red';
  drawBar($(root, '#top-bar'), game, top);
  drawBar($(root, '#bottom-bar'), game, bottom);
  tickClocks(root, app);
  drawAway(root, app);
  drawRoomPanel($(root, '#room-panel'), app);
  drawEnd($(root, '#end-panel'), app);
  drawTurn($(root, '#turn-info'), game);
  drawActions($(root, '#actions'), app);
  drawMoves($(root, '#moves'), game);
  drawCaptured($(root, '#captured'), game);
}

/**
 * @param {Element} el
 * @param {GameState} game
 * @param {'red' | 'blue'} side
 */
function drawBar(el, game, side) {
  const seat = game[side];
  let name = '…';
  if (seat?.computer) name = `${t('computer')} · ${t('levelN', { n: seat.computer })}`;
  else if (seat) name = `<a href="/p/${seat.id}" data-link>${escape(seat.name)}</a> (${seat.rating}${seat.provisional ? '?' : ''})`;
  // Seed 002's disconnect count, which players look at before a game.
  const left = seat?.disconnects > 0
    ? `<span class="seat-note muted" title="${t('disconnectsTitle', { n: seat.disconnects })}">· ${t('disconnects', { n: seat.disconnects })}</span>`
    : '';
  const online = seat?.online ? 'on' : 'off';
  const you = game.you === side ? `<span class="seat-note">· ${t('you')}</span>` : '';
  // The name gives way (with an ellipsis) so that the notes and the clock stay on the line.
  el.innerHTML = `<span class="player-name"><span class="dot ${online}" title="${online}"></span>
    <span class="piece-chip ${side}">${t(side)}</span> <span class="seat-name" title="${escape(seat?.name ?? '')}">${name}</span>${left}${you}</span>
    <span class="clock" data-clock="${side}" aria-label="${t(side)} clock"></span>`;
}

function tickClocks(root, app) {
  const game = app.game;
  if (!game) return;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-clock]'))) {
    const side = el.dataset.clock;
    const running = game.status === 'active' && game.clocks.running === side;
    const ms = game.status === 'active' ? remainingMs(game.clocks, side, app.clockReceivedAt) : remainingMs({ ...game.clocks, running: null }, side, 0);
    let text = formatMs(ms);
    if (game.clock.kind === 'per_move') {
      const count = side === 'red' ? game.clocks.red_timeouts : game.clocks.blue_timeouts;
      text += `<small>${t('timeouts', { n: count, max: game.clock.max_timeouts })}</small>`;
    }
    el.innerHTML = text;
    el.classList.toggle('running', running);
    el.classList.toggle('low', running && ms < lowTimeMs(game.clock));
  }
  drawAway(root, app);
}

function drawAway(root, app) {
  const el = root.querySelector('#away');
  const game = app.game;
  if (!(el instanceof HTMLElement) || !game) return;
  const messages = [];
  for (const side of ['red', 'blue']) {
    const deadline = app.awayDeadline?.[side];
    if (game.status === 'active' && deadline && side !== game.you) {
      const seconds = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      messages.push(t('opponentAway', { name: escape(game[side]?.name ?? t(side)), s: seconds }));
    }
  }
  el.hidden = messages.length === 0;
  el.innerHTML = messages.join('<br>');
}

function drawRoomPanel(el, app) {
  const game = app.game;
  if (game.status !== 'waiting' || !game.code) {
    el.innerHTML = '';
    return;
  }
  const url = `${location.origin}/r/${game.code}`;
  el.innerHTML = `<div class="card"><p>${t('waitingForOpponent')}</p>
    <p class="row"><select id="add-level" aria-label="${t('level')}">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}" ${n === 3 ? 'selected' : ''}>${t('levelN', { n })}</option>`).join('')}</select>
    <button type="button" class="secondary" id="add-computer">${t('addComputer')}</button></p>
    <p>${t('roomReady')}</p><p class="row"><input type="text" readonly value="${url}" aria-label="link" id="room-link" style="flex:1">
    <button type="button" class="secondary" id="copy-link">${t('copy')}</button></p>
    <p>${t('codeAloud')} <span class="code" id="room-code">${game.code}</span></p></div>`;
  $(el, '#add-computer').onclick = () => {
    app.send({ t: 'add_computer', game: game.game, level: Number(valueOf(el, '#add-level')) });
  };
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
  const headline = r.reason === 'aborted' ? t('aborted') : r.winner ? t('wins', { side: winnerName }) : t('draw');
  const why = t(`reason.${r.reason}`, { side: winnerName ?? '', loser });
  return { headline, why };
}

function drawEnd(el, app) {
  const game = app.game;
  const text = endText(game);
  if (!text) {
    el.innerHTML = '';
    return;
  }
  const r = game.result;
  let rating = '';
  if (r.rating_change) {
    const fmt = (n) => `<span class="change ${n >= 0 ? 'up' : 'down'}">${n >= 0 ? '+' : '−'}${Math.abs(n)}</span>`;
    rating = t('ratingChange', { red: fmt(r.rating_change.red), blue: fmt(r.rating_change.blue) });
  } else if (game.rated && r.reason !== 'aborted') {
    // A rated game whose result changed no rating: the server's 10-move rule.
    rating = t('notRated');
  } else if (!game.rated) {
    rating = t('casualGame');
  }
  const player = game.you != null;
  el.innerHTML = `<section class="card end" id="end" aria-live="polite"><h2>${text.headline}</h2><p>${text.why}</p><p>${rating}</p>
    <div class="actions">
      ${player ? `<button type="button" class="primary" id="rematch" ${app.rematchAsked ? 'disabled' : ''}>${app.rematchAsked ? t('rematchAsked') : t('rematch')}</button>` : ''}
      <a href="/" data-link class="button secondary" style="display:inline-flex;align-items:center;text-decoration:none">${t('backToLobby')}</a>
    </div>
    ${app.rematchOffered && !app.rematchAsked ? `<p class="notice">${t('rematchOffered')}</p>` : ''}
    ${reportLinks(game)}</section>`;
  const rematch = el.querySelector('#rematch');
  if (rematch instanceof HTMLElement) {
    rematch.onclick = () => {
      app.rematchAsked = true;
      app.send({ t: 'rematch', game: game.game });
      drawEnd(el, app);
    };
  }
}

/**
 * Links to report the game's other players (never oneself or the computer), about this game.
 * @param {import('../types.js').GameState} game
 */
function reportLinks(game) {
  const others = [game.red, game.blue].filter((seat) => seat && !seat.computer && (game.you == null || seat !== game[game.you]));
  if (!others.length) return '';
  return `<p class="muted report-links">${others.map((seat) => `<a href="/p/${seat.id}?report=${game.game}" data-link>${t('reportTitle', { name: escape(seat.name) })}</a>`).join(' · ')}</p>`;
}

function drawTurn(el, game) {
  const parts = [`${t(`ruleset.${game.rules}`)} · ${describeClock(game.clock, t)} · ${game.rated ? t('rated') : t('casual')}`];
  if (game.you == null) parts.push(t('spectating'));
  else if (game.status === 'active') parts.push(game.turn === game.you ? `<strong>${t('yourTurn')}</strong>` : t('theirTurn'));
  el.innerHTML = parts.join('<br>');
}

function drawActions(el, app) {
  const game = app.game;
  if (game.you == null || game.status !== 'active') {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const opponent = game.you === 'red' ? 'blue' : 'red';
  const id = game.game;
  if (game.draw_offer === opponent) {
    el.innerHTML = `<p class="notice" style="width:100%">${t('drawOfferedToYou')}</p>
      <button type="button" class="primary" id="accept-draw">${t('accept')}</button>
      <button type="button" class="secondary" id="decline-draw">${t('decline')}</button>`;
    $(el, '#accept-draw').onclick = () => app.send({ t: 'accept_draw', game: id });
    $(el, '#decline-draw').onclick = () => app.send({ t: 'decline_draw', game: id });
    return;
  }
  if (app.confirmResign) {
    el.innerHTML = `<p style="width:100%">${t('confirmResign')}</p>
      <button type="button" class="danger" id="resign-yes">${t('yes')}</button>
      <button type="button" class="secondary" id="resign-no">${t('no')}</button>`;
    $(el, '#resign-yes').onclick = () => {
      app.confirmResign = false;
      app.send({ t: 'resign', game: id });
    };
    $(el, '#resign-no').onclick = () => {
      app.confirmResign = false;
      drawActions(el, app);
    };
    $(el, '#resign-no').focus();
    return;
  }
  const offered = game.draw_offer === game.you;
  el.innerHTML = `<button type="button" class="secondary" id="offer-draw" ${offered ? 'disabled' : ''}>${offered ? t('drawOffered') : t('offerDraw')}</button>
    <button type="button" class="danger" id="resign">${t('resign')}</button>`;
  $(el, '#offer-draw').onclick = () => app.send({ t: 'offer_draw', game: id });
  $(el, '#resign').onclick = () => {
    app.confirmResign = true;
    drawActions(el, app);
  };
}

function drawMoves(el, game) {
  const rows = [];
  for (let i = 0; i < game.moves.length; i += 2) {
    const current = (k) => (k === game.moves.length - 1 ? ' class="current" aria-current="step"' : '');
    rows.push(`<li${current(i) || current(i + 1)}>${game.moves[i]} ${game.moves[i + 1] ?? ''}</li>`);
  }
  el.innerHTML = `<ol>${rows.join('')}</ol>`;
  el.scrollTop = el.scrollHeight;
}

/**
 * The animals each side has lost, as the server counts them.
 * @param {Element} el
 * @param {GameState} game
 */
function drawCaptured(el, game) {
  const lost = game.captured ?? { red: [], blue: [] };
  el.innerHTML = ['red', 'blue']
    .map((side) => `<div class="${side}" aria-label="${t(side)}">${lost[side].map((name) => `<span title="${t(`animal.${name}`)}">${ANIMAL_BY_NAME[name]?.glyph ?? '?'}</span>`).join(' ')}</div>`)
    .join('');
}
