// The game page: board, players, clocks, moves, actions and the end panel, drawn from the
// latest `game` state the server sent (held by the store, store.js), and redrawn whenever the
// store says the game changed. It derives nothing the server says.

import { createBoard, renderBoard } from '../board.js';
import { formatClock, formatDeadline, initialMs, lowTimeMs, remainingMs, describeClock } from '../clock.js';
import { $, valueOf } from '../dom.js';
import { ANIMAL_BY_NAME, parseBoard, glyphOf } from '../fen.js';
import { locale, t } from '../i18n.js';
import { escape } from '../format.js';
import * as api from '../api.js';
import * as sound from '../sound.js';
import { evalGraph, plyAt } from '../components/eval_graph.js';
import { drawChat } from '../components/chat.js';
import { keepInSight, lastMove, replayBar } from '../components/replay.js';
import { createPracticeBanner } from '../components/practice_banner.js';

/** @typedef {import('../types.js').App} App */
/** @typedef {import('../types.js').GameState} GameState */
/** @typedef {import('../types.js').View & { update: () => void }} GameView */

/**
 * Draws the game page for the store's game; it redraws itself when the store's game changes.
 * @param {HTMLElement} root
 * @param {App} app
 * @returns {GameView}
 */
export function renderGame(root, app) {
  root.innerHTML = `
  <div class="game">
    <div id="practice-banner" class="practice-slot" hidden></div>
    <section aria-label="${t('boardSection')}">
      <div id="room-panel"></div>
      <div class="player-bar" id="top-bar"></div>
      <div id="board"></div>
      <div class="player-bar" id="bottom-bar"></div>
      <div id="away" class="away" role="alert" hidden></div>
      <div class="actions prompt-bar" id="actions"></div>
      ${replayBar()}
      <div id="eval-graph" class="eval-graph-box"></div>
    </section>
    <aside class="side">
      <div id="end-panel"></div>
      <div class="card" id="turn-info" role="status"></div>
      <div class="card"><h3 class="row spread">${t('moves')}
        <span><a href="/analysis?game=${app.store.state.game.game}" data-link id="analyse-game" class="download">${t('analyse')}</a><span class="muted" id="analyse-later" title="${t('engineAfterGameWhy')}">${t('engineAfterGame')}</span> ·
        <a href="/api/games/${app.store.state.game.game}.jgn" download id="download-game" class="download">${t('downloadGame')}</a></span></h3>
        <div class="moves" id="moves"></div></div>
      <div class="card"><h3>${t('captured')}</h3><div class="captured" id="captured"></div></div>
      <div id="chat"></div>
    </aside>
  </div>`;
  const board = createBoard($(root, '#board'), (mv) => {
    const game = app.store.state.game;
    if (game.turn === game.you) {
      app.send({ t: 'move', game: game.game, mv });
    } else {
      // The opponent's turn: queued, sent when their move arrives if it is legal then.
      app.store.set({ premove: mv });
    }
  });
  const cancelPremove = () => {
    if (!app.store.state.premove) return false;
    app.store.set({ premove: null });
    return true;
  };
  $(root, '#board').addEventListener('contextmenu', (e) => {
    if (cancelPremove()) e.preventDefault();
  });
  $(root, '#board').addEventListener('pointerdown', (e) => {
    // A click elsewhere than on one's own animals lets the queued move go.
    const square = /** @type {HTMLElement} */ (e.target).closest?.('[data-square]')?.getAttribute('data-square');
    const { game, premove } = app.store.state;
    const piece = square ? parseBoard(game.position).get(square) : null;
    if (premove && piece?.side !== game.you) cancelPremove();
  }, { capture: true });
  /** What this page remembers: the clocks of the turn looked back at, the turn last warned of,
   * deadlines written out. */
  const local = { pastClocks: null, lowWarned: -1, deadlines: /** @type {Map<number, string>} */ (new Map()) };
  const tick = () => tickClocks(root, app, local);
  app.tickers.push(tick);
  const replay = { ply: /** @type {number | null} */ (null), record: /** @type {any} */ (null), loading: false, analysis: /** @type {any} */ (null), analysing: false };
  // A practice game of the lessons says its goal, and whether it was reached.
  const practice = createPracticeBanner($(root, '#practice-banner'), app);
  const update = () => {
    updateGame(root, app, board, replay, local);
    practice.update();
  };

  /** Shows the position after `ply` turns (the live one at the end). */
  const goTo = async (ply) => {
    const total = app.store.state.game.moves.length;
    const target = Math.max(0, Math.min(total, ply));
    replay.ply = target === total ? null : target;
    if (replay.ply != null && (!replay.record || replay.record.moves.length < total) && !replay.loading) {
      replay.loading = true;
      replay.record = await api.game(app.store.state.game.game).catch(() => null);
      replay.loading = false;
    }
    const hash = replay.ply == null ? '' : `#${replay.ply}`;
    if (location.hash !== hash) history.replaceState(history.state, '', `${location.pathname}${hash}`);
    update();
  };
  const played = () => app.store.state.game.moves.length;
  const current = () => replay.ply ?? played();
  const steps = { first: () => 0, prev: () => current() - 1, next: () => current() + 1, last: played };
  $(root, '.replay-bar').onclick = (e) => {
    const step = /** @type {HTMLElement} */ (e.target).closest?.('[data-step]')?.getAttribute('data-step');
    if (step) goTo(steps[step]());
  };
  $(root, '#moves').onclick = (e) => {
    const ply = /** @type {HTMLElement} */ (e.target).closest?.('[data-ply]')?.getAttribute('data-ply');
    if (ply) goTo(Number(ply));
  };
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    // The board takes arrows for its own cursor; fields take them for editing.
    // A board moved about with the keyboard keeps them; one just clicked does not.
    const keyboardBoard = target.closest?.('.board') && target.matches?.(':focus-visible');
    if (e.altKey || e.ctrlKey || e.metaKey || keyboardBoard || target.closest?.('input, select, textarea')) return;
    const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
    if (keys[e.key]) {
      e.preventDefault();
      goTo(steps[keys[e.key]]());
    }
  };
  document.addEventListener('keydown', onKey);
  // The whole game's evaluation, asked for from the moves card, answered over the socket.
  // Chat redraws on its own, so that a line arriving never disturbs what is being typed.
  const chatEl = $(root, '#chat');
  const redrawChat = () => {
    const typing = document.activeElement?.id === 'chat-text' ? /** @type {HTMLInputElement} */ (document.activeElement).value : null;
    drawChat(chatEl, app, app.store.state.chat);
    if (typing != null) {
      const input = /** @type {HTMLInputElement | null} */ (chatEl.querySelector('#chat-text'));
      if (input) {
        input.value = typing;
        input.focus();
      }
    }
  };
  redrawChat();
  const onGameAnalysis = (frame) => {
    if (frame.game !== app.store.state.game?.game) return;
    if (frame.t === 'error') {
      // Refused (analysis_unavailable): the reason is shown by the status line.
      replay.analysing = false;
    } else {
      replay.analysis = frame;
    }
    update();
  };
  $(root, '#eval-graph').onclick = (e) => {
    const svg = /** @type {Element} */ (e.target).closest?.('svg');
    if (svg instanceof SVGElement && replay.analysis) goTo(plyAt(/** @type {MouseEvent} */ (e), svg, replay.analysis.evals.length - 1));
  };
  root.addEventListener('click', (e) => {
    if (/** @type {Element} */ (e.target).closest?.('[data-rematch]')) askRematch(app);
    if (/** @type {Element} */ (e.target).closest?.('#analyse-whole')) {
      replay.analysing = true;
      app.send({ t: 'analyse_game', game: app.store.state.game.game });
      update();
    }
  });
  const unsubscribe = [
    app.store.subscribe('game', update),
    app.store.subscribe('chat', redrawChat),
    app.store.subscribe('game_analysis', onGameAnalysis),
  ];
  const view = {
    update,
    destroy() {
      board.destroy();
      practice.destroy();
      unsubscribe.forEach((stop) => stop());
      document.removeEventListener('keydown', onKey);
      app.tickers = app.tickers.filter((f) => f !== tick);
    },
  };
  update();
  const opening = location.hash.match(/^#(\d+)$/);
  if (opening) goTo(Number(opening[1]));
  return view;
}

/**
 * While a private room waits for its guest the host sits on Red whatever they chose; the room
 * shows the colour as chosen (a host who chose Blue sees Blue at the bottom; `random` stays
 * random until the guest arrives and the sides are drawn).
 * @param {GameState} game
 * @returns {'red' | 'blue' | 'random' | null} the host's colour as shown, while waiting
 */
function waitingHostColour(game) {
  return game.status === 'waiting' && game.host_colour ? game.host_colour : null;
}

/** @param {GameState} game */
function orientation(game) {
  if (waitingHostColour(game) === 'blue') return 'blue';
  return game.you === 'blue' ? 'blue' : 'red';
}

/**
 * Who sits on `side` as the room shows it, and the colour its chip reads.
 * @param {GameState} game
 * @param {'red' | 'blue'} side
 */
function shownSeat(game, side) {
  const chosen = waitingHostColour(game);
  if (!chosen) return { seat: game[side], chip: t(side), you: game.you === side };
  const hostSide = chosen === 'blue' ? 'blue' : 'red';
  const host = side === hostSide;
  return {
    seat: host ? game.red : null,
    chip: chosen === 'random' ? t('random') : t(side),
    you: host && game.you != null,
  };
}

/**
 * Moves one may queue on the opponent's turn: any of one's animals to any square not one's
 * own. The client knows no rules; the queued move is sent only if it is legal when the turn
 * comes (docs/decisions.md).
 * @param {Map<string, { side: string, letter: string }>} pieces
 * @param {string} side
 */
function premoveCandidates(pieces, side) {
  const squares = [];
  for (const file of 'abcdefg') for (let rank = 1; rank <= 9; rank++) squares.push(`${file}${rank}`);
  const moves = [];
  for (const [from, piece] of pieces) {
    if (piece.side !== side) continue;
    for (const to of squares) if (to !== from && pieces.get(to)?.side !== side) moves.push(from + to);
  }
  return moves;
}

/**
 * What the board shows at `ply` of a stored game: its position, last move, losses and clocks.
 * @param {any} record the game as `GET /api/games/{id}` gives it
 * @param {number} ply turns played
 */
export function stateAtPly(record, ply) {
  const fenAt = ply === 0 ? record.start : record.positions[ply - 1];
  const captured = { red: [], blue: [] };
  // Each capture is a loss of the side that did not move; sides alternate from the start's.
  let mover = record.start.split(' ')[1] === 'b' ? 'blue' : 'red';
  for (let i = 0; i < ply; i++) {
    const animal = record.captures[i];
    if (animal) captured[mover === 'red' ? 'blue' : 'red'].push(animal);
    mover = mover === 'red' ? 'blue' : 'red';
  }
  const initial = initialMs(record.clock);
  const clocks = ply === 0 ? { red_ms: initial, blue_ms: initial } : record.clocks[ply - 1] ?? null;
  return { position: fenAt, lastMove: lastMove({ moves: record.moves.slice(0, ply) }), captured, clocks };
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 * @param {import('../board.js').Board} board
 * @param {{ ply: number | null, record: any, analysis: any, analysing: boolean }} replay the turn
 *   looked back at, if any, and the whole game's evaluation once asked for
 */
function updateGame(root, app, board, replay, local) {
  const { game, premove } = app.store.state;
  if (!game) return;
  const past = replay.ply != null && replay.record ? stateAtPly(replay.record, replay.ply) : null;
  const pieces = parseBoard(past ? past.position : game.position);
  const premoving = !past && game.status === 'active' && game.you != null && game.turn !== game.you;
  renderBoard(board, {
    pieces,
    orientation: orientation(game),
    legal: past || game.status !== 'active' ? [] : premoving ? premoveCandidates(pieces, game.you) : game.legal,
    lastMove: past ? past.lastMove : lastMove(game),
    premove: premove ? { from: premove.slice(0, 2), to: premove.slice(2, 4) } : null,
    premoving,
    animate: true,
  });
  root.querySelector('.board')?.classList.toggle('looking-back', Boolean(past));
  const bottom = orientation(game);
  const top = bottom === 'red' ? 'blue' : 'red';
  drawBar($(root, '#top-bar'), game, top);
  drawBar($(root, '#bottom-bar'), game, bottom);
  local.pastClocks = past ? past.clocks : null;
  tickClocks(root, app, local);
  const shown = past ? replay.ply : game.moves.length;
  $(root, '#replay-ply').textContent = t('plyOf', { n: shown, total: game.moves.length });
  drawAway(root, app);
  drawRoomPanel($(root, '#room-panel'), app);
  drawEnd($(root, '#end-panel'), app);
  drawTurn($(root, '#turn-info'), app, local);
  drawActions($(root, '#actions'), app);
  drawMoves($(root, '#moves'), game, shown, replay.analysis?.marks);
  const over = game.status === 'finished' || game.status === 'aborted';
  // Fair play: no engine on a game in progress, for its players or its spectators.
  $(root, '#analyse-game').hidden = !over;
  $(root, '#analyse-later').hidden = over;
  $(root, '#eval-graph').innerHTML = replay.analysis
    ? evalGraph(replay.analysis, shown)
    : over && game.moves.length
      ? `<button type="button" class="secondary" id="analyse-whole" ${replay.analysing ? 'disabled' : ''}>${replay.analysing ? t('analysingGame') : t('analyseWholeGame')}</button>`
      : '';
  drawCaptured($(root, '#captured'), past ? past.captured : game.captured);
}

/**
 * @param {Element} el
 * @param {GameState} game
 * @param {'red' | 'blue'} side
 */
function drawBar(el, game, side) {
  const { seat, chip, you: isYou } = shownSeat(game, side);
  let name = '…';
  let rating = '';
  if (seat?.computer) name = `${t('computer')} · ${t('levelN', { n: seat.computer })}`;
  else if (seat) {
    // A bot carries its title before its name, as on lichess.
    const title = seat.title ? `<span class="title-badge" title="${t('botTitle')}">${escape(seat.title)}</span> ` : '';
    name = `${title}<a href="/p/${seat.id}" data-link>${escape(seat.name)}</a>`;
    // Outside the name, which gives way first: a long name never hides the rating.
    rating = `<span class="seat-rating">(${seat.rating}${seat.provisional ? '?' : ''})</span>`;
  }
  // Seed 002's disconnect count, which players look at before a game.
  const left = seat?.disconnects > 0
    ? `<span class="seat-note muted" title="${t('disconnectsTitle', { n: seat.disconnects })}">· ${t('disconnects', { n: seat.disconnects })}</span>`
    : '';
  const online = seat?.online ? 'on' : 'off';
  const you = isYou ? `<span class="seat-note">· ${t('you')}</span>` : '';
  // The name gives way (with an ellipsis) so that the rating, the notes and the clock stay on
  // the line.
  const chipClass = waitingHostColour(game) === 'random' ? 'random' : side;
  // A days clock is wide (with its deadline under it): the name takes a line of its own above
  // the dot, the side and the rating, rather than giving way.
  el.classList.toggle('days', game.clock?.kind === 'days');
  el.innerHTML = `<span class="player-name"><span class="dot ${online}" title="${t(seat?.online ? 'online' : 'offline')}"></span>
    <span class="piece-chip ${chipClass}">${chip}</span> <span class="seat-name" title="${escape(seat?.name ?? '')}">${name}</span>${rating}${left}${you}</span>
    <span class="clock" data-clock="${side}" aria-label="${t('clockOf', { side: t(side) })}"></span>`;
}

/** What each clock element shows now. @type {WeakMap<HTMLElement, string>} */
const drawnClocks = new WeakMap();

function tickClocks(root, app, local) {
  const { game, clockReceivedAt } = app.store.state;
  if (!game) return;
  tickFirstMove(root, app, local);
  const past = local.pastClocks;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-clock]'))) {
    const side = el.dataset.clock;
    const days = game.clock.kind === 'days';
    el.classList.toggle('days', days);
    if (past) {
      // Looking back: the clocks as they stood after that turn.
      el.innerHTML = formatClock(side === 'red' ? past.red_ms : past.blue_ms, game.clock, t);
      drawnClocks.delete(el);
      el.classList.remove('running', 'low');
      continue;
    }
    let running = game.status === 'active' && game.clocks.running === side;
    let ms = game.status === 'active' ? remainingMs(game.clocks, side, clockReceivedAt) : remainingMs({ ...game.clocks, running: null }, side, 0);
    // A correspondence side's first move has its days too, on the abort timer: shown as its clock.
    const { abortDeadline } = app.store.state;
    if (days && game.status === 'active' && game.clocks.running == null && game.turn === side && abortDeadline != null) {
      running = true;
      ms = Math.max(0, abortDeadline - performance.now());
    }
    let text = formatClock(ms, game.clock, t);
    if (days && running) {
      // The turn's end in the reader's own time ("until Sat 14:05"), to the minute.
      text += `<small class="deadline">${t('untilWhen', { when: deadlineText(local, Date.now() + ms) })}</small>`;
    }
    if (game.clock.kind === 'per_move') {
      // The turn's time as a ring that empties, beside the seconds (full while waiting).
      text = moveRing(running ? ms / (game.clock.move_s * 1000) : 1) + text;
      const count = side === 'red' ? game.clocks.red_timeouts : game.clocks.blue_timeouts;
      const vars = { n: count, max: game.clock.max_timeouts };
      text += `<small title="${t('timeoutsTitle', vars)}" aria-label="${t('timeoutsTitle', vars)}">${t('timeouts', vars)}</small>`;
    }
    // Drawn again only when it changed (a clock of days, once a minute).
    if (drawnClocks.get(el) !== text) {
      el.innerHTML = text;
      drawnClocks.set(el, text);
    }
    el.classList.toggle('running', running);
    el.classList.toggle('low', running && ms < lowTimeMs(game.clock));
    // One warning a turn when our own time runs short: 10 s on a Fischer clock, 5 s a move
    // (none over days: nobody is listening).
    const warnBelow = game.clock.kind === 'per_move' ? 5000 : 10000;
    if (running && !days && side === game.you && ms < warnBelow && local.lowWarned !== game.moves.length) {
      local.lowWarned = game.moves.length;
      sound.play('low');
    }
  }
  drawAway(root, app);
}

/**
 * A deadline as the reader's clock reads it, to the minute; remembered, since the clocks are
 * drawn ten times a second.
 * @param {{ deadlines: Map<number, string> }} local
 * @param {number} at Unix milliseconds
 */
function deadlineText(local, at) {
  // Rounded down: a deadline never reads later than it is.
  const minute = Math.floor(at / 60000) * 60000;
  let text = local.deadlines.get(minute);
  if (text == null) {
    if (local.deadlines.size > 20) local.deadlines.clear();
    text = formatDeadline(minute, locale());
    local.deadlines.set(minute, text);
  }
  return text;
}

/** Circumference of the per-move ring's circle (r = 8). */
const RING = 2 * Math.PI * 8;

/**
 * A ring showing the share of a move's time left.
 * @param {number} left 0–1
 */
function moveRing(left) {
  const share = Math.max(0, Math.min(1, left));
  return `<svg class="move-ring" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8" class="ring-track"/>`
    + `<circle cx="10" cy="10" r="8" class="ring-left" stroke-dasharray="${RING.toFixed(2)}" stroke-dashoffset="${(RING * (1 - share)).toFixed(2)}"/></svg>`;
}

function drawAway(root, app) {
  const el = root.querySelector('#away');
  const { game, awayDeadline } = app.store.state;
  if (!(el instanceof HTMLElement) || !game) return;
  const messages = [];
  for (const side of ['red', 'blue']) {
    const deadline = awayDeadline[side];
    if (game.status === 'active' && deadline && side !== game.you) {
      const seconds = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      messages.push(t('opponentAway', { name: escape(game[side]?.name ?? t(side)), s: seconds }));
    }
  }
  el.hidden = messages.length === 0;
  el.innerHTML = messages.join('<br>');
}

function drawRoomPanel(el, app) {
  const { game } = app.store.state;
  if (game.status !== 'waiting' || !game.code) {
    el.innerHTML = '';
    return;
  }
  const url = `${location.origin}/r/${game.code}`;
  // The computer plays in one sitting: never in a room over days.
  const computer = game.clock.kind !== 'days';
  el.innerHTML = `<div class="card"><p>${t('waitingForOpponent')}</p>
    ${computer ? `<p class="row"><select id="add-level" aria-label="${t('level')}">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}" ${n === 3 ? 'selected' : ''}>${t('levelN', { n })}</option>`).join('')}</select>
    <button type="button" class="secondary" id="add-computer">${t('addComputer')}</button></p>` : ''}
    <p>${t('roomReady')}</p><p class="row"><input type="text" readonly value="${url}" aria-label="${t('roomLink')}" id="room-link" class="grow">
    <button type="button" class="secondary" id="copy-link">${t('copy')}</button></p>
    <p>${t('codeAloud')} <span class="code" id="room-code">${game.code}</span></p>
    ${game.you != null ? `<p><button type="button" class="secondary" id="close-room">${t('closeRoom')}</button></p>` : ''}</div>`;
  // Nobody came (or the link went to the wrong person): the host closes the room; its link
  // then names no room.
  el.querySelector('#close-room')?.addEventListener('click', () => {
    app.send({ t: 'resign', game: game.game });
    app.navigate('/');
  });
  el.querySelector('#add-computer')?.addEventListener('click', () => {
    app.send({ t: 'add_computer', game: game.game, level: Number(valueOf(el, '#add-level')) });
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

function drawEnd(el, app) {
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
  el.innerHTML = `<section class="card end" id="end" aria-live="polite" tabindex="-1"><h2>${text.headline}</h2><p>${text.why}</p><p>${rating}</p>
    <div class="actions">
      ${player && !game.tournament ? rematchButton('rematch', rematchAsked) : ''}
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
function askRematch(app) {
  app.store.set({ rematchAsked: true });
  app.send({ t: 'rematch', game: app.store.state.game.game });
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

/**
 * @param {HTMLElement} el
 * @param {App} app
 * @param {{ deadlines: Map<number, string> }} local
 */
function drawTurn(el, app, local) {
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
  el.innerHTML = parts.join('<br>');
}

/** The countdown for a first move: the game is aborted when it runs out. */
function tickFirstMove(root, app, local) {
  const el = root.querySelector('#first-move');
  if (!(el instanceof HTMLElement)) return;
  const { game, abortDeadline } = app.store.state;
  const deadline = game.status === 'active' ? abortDeadline : null;
  if (deadline == null) {
    el.textContent = '';
    return;
  }
  const left = deadline - performance.now();
  if (game.clock.kind === 'days') {
    // Days ahead: the deadline in the reader's time, not seconds.
    const when = deadlineText(local, Date.now() + left);
    el.textContent = game.turn === game.you ? t('yourFirstMoveBy', { when }) : t('firstMoveBy', { side: t(game.turn), when });
    return;
  }
  const s = Math.max(0, Math.ceil(left / 1000));
  el.textContent = game.turn === game.you ? t('yourFirstMove', { s }) : t('firstMove', { side: t(game.turn), s });
}

/**
 * The bar under the board: whatever asks for an answer takes the place of the game's buttons
 * (an offer, a request, a resignation to confirm), and the result stands there once the game
 * is over, so that on a phone none of it is below the fold.
 * @param {HTMLElement} el
 * @param {App} app
 */
function drawActions(el, app) {
  const { game, rematchAsked, rematchOffered, confirmResign, drawOfferedAt, drawDeclined, takebackDeclined, dayGivenAt } = app.store.state;
  const ended = endText(game);
  if (ended) {
    el.hidden = false;
    const player = game.you != null && !game.tournament;
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
    $(el, '#accept-draw').onclick = () => app.send({ t: 'accept_draw', game: id });
    $(el, '#decline-draw').onclick = () => app.send({ t: 'decline_draw', game: id });
    return;
  }
  if (game.takeback_offer === opponent) {
    el.innerHTML = `<p class="notice full" role="status">${t('takebackOfferedToYou')}</p>
      <button type="button" class="primary" id="accept-takeback">${t('accept')}</button>
      <button type="button" class="secondary" id="decline-takeback">${t('decline')}</button>`;
    $(el, '#accept-takeback').onclick = () => app.send({ t: 'accept_takeback', game: id });
    $(el, '#decline-takeback').onclick = () => app.send({ t: 'decline_takeback', game: id });
    return;
  }
  if (confirmResign) {
    el.innerHTML = `<p class="full">${t('confirmResign')}</p>
      <button type="button" class="danger" id="resign-yes">${t('yes')}</button>
      <button type="button" class="secondary" id="resign-no">${t('no')}</button>`;
    $(el, '#resign-yes').onclick = () => {
      app.store.set({ confirmResign: false });
      app.send({ t: 'resign', game: id });
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
    app.send({ t: 'give_day', game: id });
  });
  el.querySelector('#takeback')?.addEventListener('click', () => {
    app.store.set({ takebackDeclined: false });
    app.send({ t: 'takeback', game: id });
  });
  $(el, '#offer-draw').onclick = () => {
    app.store.set({ drawOfferedAt: game.moves.length, drawDeclined: false });
    app.send({ t: 'offer_draw', game: id });
  };
  $(el, '#resign').onclick = () => {
    app.store.set({ confirmResign: true });
  };
}

/**
 * Numbered pairs (`1. a3a4 g7g6`), each turn a button that shows the board after it.
 * @param {HTMLElement} el
 * @param {GameState} game
 * @param {number} shown the turns played in the position on the board
 * @param {(string | null)[] | undefined} marks the whole-game analysis's marks, once known
 */
function drawMoves(el, game, shown, marks) {
  const rows = [];
  const symbol = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  const turn = (k) => (k < game.moves.length
    ? `<button type="button" class="move${k === shown - 1 ? ' current' : ''}${marks?.[k] ? ` ${marks[k]}` : ''}" data-ply="${k + 1}" ${k === shown - 1 ? 'aria-current="step"' : ''}>${game.moves[k]}${marks?.[k] ? `<span class="mark-symbol" title="${t(`mark.${marks[k]}`)}">${symbol[marks[k]]}</span>` : ''}</button>`
    : '');
  for (let i = 0; i < game.moves.length; i += 2) rows.push(`<li>${turn(i)} ${turn(i + 1)}</li>`);
  el.innerHTML = `<ol>${rows.join('')}</ol>`;
  if (shown < game.moves.length) keepInSight(el);
  else el.scrollTop = el.scrollHeight;
}

/**
 * The animals each side has lost, as the server counts them.
 * @param {Element} el
 * @param {{ red: string[], blue: string[] }} captured
 */
function drawCaptured(el, captured) {
  const lost = captured ?? { red: [], blue: [] };
  el.innerHTML = ['red', 'blue']
    .map((side) => `<div class="${side}" aria-label="${t(side)}">${lost[side].map((name) => `<span title="${t(`animal.${name}`)}">${ANIMAL_BY_NAME[name] ? glyphOf(ANIMAL_BY_NAME[name]) : '?'}</span>`).join(' ')}</div>`)
    .join('');
}
