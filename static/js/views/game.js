// The game page: board, players, clocks, moves, actions and the end panel, drawn from the
// latest `game` state the server sent (held by the store, store.js), and redrawn whenever the
// store says the game changed. It derives nothing the server says.

import { createBoard, renderBoard } from '../board.js';
import { $ } from '../dom.js';
import { parseBoard } from '../fen.js';
import { t } from '../i18n.js';
import { evalGraph, plyAt } from '../components/eval_graph.js';
import { drawChat } from '../components/chat.js';
import { lastMove, replayBar } from '../components/replay.js';
import { createPracticeBanner } from '../components/practice_banner.js';
import * as api from '../api.js';
import { drawAway, tickClocks } from './game/clocks.js';
import { askRematch, drawActions, drawEnd, drawRoomPanel, drawTurn } from './game/panels.js';
import { drawCaptured, drawMoves, premoveCandidates, stateAtPly } from './game/record.js';
import { drawBar, orientation } from './game/seats.js';
import { sayMove } from './game/announce.js';
import { askPermission } from '../notify.js';
import { pushSupported, subscribeThisDevice } from '../push.js';

/** @typedef {import('../types.js').App} App */
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
      <div id="move-said" class="sr-only" aria-live="polite"></div>
      <div class="actions prompt-bar" id="actions"></div>
      <button type="button" class="secondary chat-badge" id="chat-badge" hidden></button>
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
      app.session.send({ t: 'move', game: game.game, mv });
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
  const local = { pastClocks: null, lowWarned: -1, deadlines: /** @type {Map<number, string>} */ (new Map()), said: /** @type {import('./game/announce.js').Said} */ (null) };
  const tick = () => tickClocks(root, app, local);
  const stopTicking = app.ticker.add(tick);
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
    // The board takes arrows for its own cursor (it says so by preventing their default; a
    // board just clicked leaves them to the replay); fields take them for editing.
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || target.closest?.('input, select, textarea')) return;
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
  // On a phone the chat is far below the board: a line arriving out of sight is announced
  // by a badge under the board, which leads to it.
  let lastSeen = app.store.state.chat[app.store.state.chat.length - 1] ?? null;
  const badge = /** @type {HTMLButtonElement} */ ($(root, '#chat-badge'));
  const chatInView = () => {
    const box = chatEl.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  };
  const drawBadge = () => {
    const lines = app.store.state.chat;
    if (chatInView()) lastSeen = lines[lines.length - 1] ?? null;
    const me = app.session.player?.id;
    const unread = lines.slice(lines.indexOf(lastSeen) + 1).filter((line) => line.from.id !== me).length;
    badge.hidden = unread === 0;
    badge.textContent = t('chatUnread', { n: unread });
  };
  badge.onclick = () => {
    chatEl.scrollIntoView({ block: 'center' });
    /** @type {HTMLElement | null} */ (chatEl.querySelector('#chat-text'))?.focus({ preventScroll: true });
    drawBadge();
  };
  const onScroll = () => { if (!badge.hidden) drawBadge(); };
  window.addEventListener('scroll', onScroll, { passive: true });
  const onGameAnalysis = (frame) => {
    if (frame.game !== app.store.state.game?.game) return;
    if (frame.t === 'error') {
      // Refused (fair play, a limit, or interrupted): the reason is shown by the status line.
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
    if (/** @type {Element} */ (e.target).closest?.('#ask-notify')) {
      // Over days, an account's move should reach it with the site closed: Web Push too.
      const overDays = app.store.state.game?.clock?.kind === 'days' && Boolean(app.session.player?.username) && pushSupported();
      (overDays ? subscribeThisDevice().then(() => {}, () => askPermission()) : askPermission()).then(update, update);
    }
    if (/** @type {Element} */ (e.target).closest?.('#analyse-whole')) {
      replay.analysing = true;
      app.session.send({ t: 'analyse_game', game: app.store.state.game.game });
      update();
    }
  });
  const unsubscribe = [
    app.store.subscribe('game', update),
    app.store.subscribe('chat', () => {
      redrawChat();
      drawBadge();
    }),
    app.store.subscribe('game_analysis', onGameAnalysis),
  ];
  const view = {
    update,
    destroy() {
      board.destroy();
      practice.destroy();
      unsubscribe.forEach((stop) => stop());
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll);
      stopTicking();
    },
  };
  update();
  const opening = location.hash.match(/^#(\d+)$/);
  if (opening) goTo(Number(opening[1]));
  return view;
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
  local.said = sayMove($(root, '#move-said'), local.said, game);
}
