// The analysis board (/analysis): a game (from a game page, or pasted as JGN text) or a
// position to step through, free moves from any turn, and our engine's view of each position
// — an evaluation bar, the best move on the board, its line and depth. The server does the
// rules (POST /api/lines, /api/games/import) and the thinking (the `analyse` frame).

import * as api from '../api.js';
import { createBoard, renderBoard } from '../board.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { parseBoard } from '../fen.js';
import { capturedHtml } from '../pieces.js';
import { errorText, t } from '../i18n.js';
import { keepInSight, lastMove, replayBar } from '../components/replay.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/**
 * @typedef {{ rules: string, start: string, moves: string[], positions: string[],
 *   captures: (string | null)[], legal: string[], outcome: { winner: string | null, reason: string } | null,
 *   tags?: [string, string][], result?: string }} Line
 */

/** The side to move in a position's text. */
const toMove = (fen) => (fen.split(' ')[1] === 'b' ? 'blue' : 'red');

/**
 * Red's share of the bar (0–100) and the text, from a score for the side to move.
 * @param {{ cp?: number, den_in?: number }} score
 * @param {'red' | 'blue'} mover
 */
export function evalShown(score, mover) {
  const sign = mover === 'red' ? 1 : -1;
  if (score.den_in != null) {
    const red = score.den_in * sign > 0;
    return { share: red ? 100 : 0, text: t('denIn', { side: t(red ? 'red' : 'blue'), n: Math.abs(score.den_in) }) };
  }
  const cp = (score.cp ?? 0) * sign;
  const share = 100 / (1 + Math.exp(-cp / 400));
  return { share, text: `${cp >= 0 ? '+' : '−'}${(Math.abs(cp) / 100).toFixed(2)}` };
}

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderAnalysis(root, app) {
  root.innerHTML = `<div class="analysis">
    <section aria-label="${t('analysisBoard')}">
      <div class="eval-bar" id="eval-bar" role="img" aria-label="${t('evaluation')}"><div class="eval-fill"></div></div>
      <div id="board" class="gap-above"></div>
      ${replayBar()}
    </section>
    <aside class="side">
      <div class="card"><h1>${t('analysisBoard')}</h1>
        <p class="row spread"><label class="row"><input type="checkbox" id="engine-on" checked> ${t('engine')}</label>
        <button type="button" class="secondary" id="flip" aria-pressed="false">${t('flipBoard')}</button></p>
        <p><span class="eval-text" id="eval-text">…</span> <span class="muted" id="eval-depth"></span></p>
        <p class="pv" id="pv"></p>
        <p class="muted" id="outcome"></p>
        <p id="variation" hidden><span class="muted">${t('variation')}</span> <button type="button" class="secondary" id="back-to-game">${t('backToGame')}</button></p></div>
      <div class="card"><h3>${t('moves')}</h3><div class="moves" id="moves"></div><div class="captured" id="captured"></div></div>
      <div class="card import"><h3>${t('importTitle')}</h3>
        <label>${t('ruleset')} <select id="import-rules">${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select></label>
        <label for="import-text">${t('importHint')}</label>
        <textarea id="import-text" spellcheck="false"></textarea>
        <p class="error" id="import-error" role="alert"></p>
        <button type="button" class="primary" id="import-load">${t('load')}</button></div>
    </aside></div>`;
  const board = createBoard($(root, '#board'), (mv) => play(mv));
  /** @type {Line | null} */
  let line = null;
  /** @type {string[] | null} the game's own moves, while a variation is shown */
  let mainline = null;
  let ply = 0;
  let alive = true;
  /** @type {{ position: string, best?: string, score?: any, pv: string[], depth: number } | null} */
  let analysis = null;
  let asked = '';
  let timer = 0;
  /** The engine's refusal for the shown position (fair play), if any. */
  let refused = '';
  /** Blue at the bottom, once the board is turned round. */
  let flipped = false;
  /** @returns {'red' | 'blue'} */
  const orientation = () => (flipped ? 'blue' : 'red');

  const positionAt = (k) => (k === 0 ? line.start : line.positions[k - 1]);

  function draw() {
    if (!line || !alive) return;
    const fen = positionAt(ply);
    const atEnd = ply === line.moves.length;
    const hint = analysis?.position === fen && analysis.best ? { from: analysis.best.slice(0, 2), to: analysis.best.slice(2, 4) } : null;
    renderBoard(board, {
      pieces: parseBoard(fen),
      orientation: orientation(),
      legal: atEnd ? line.legal : prefixLegal ?? [],
      lastMove: lastMove({ moves: line.moves.slice(0, ply) }),
      hint,
      animate: true,
    });
    $(root, '#replay-ply').textContent = t('plyOf', { n: ply, total: line.moves.length });
    const rows = [];
    const turn = (k) => (k < line.moves.length
      ? `<button type="button" class="move${k === ply - 1 ? ' current' : ''}" data-ply="${k + 1}" ${k === ply - 1 ? 'aria-current="step"' : ''}>${line.moves[k]}</button>`
      : '');
    for (let i = 0; i < line.moves.length; i += 2) rows.push(`<li>${turn(i)} ${turn(i + 1)}</li>`);
    $(root, '#moves').innerHTML = `<ol>${rows.join('')}</ol>`;
    keepInSight($(root, '#moves'));
    const lost = { red: [], blue: [] };
    let mover = toMove(line.start);
    for (let i = 0; i < ply; i++) {
      if (line.captures[i]) lost[mover === 'red' ? 'blue' : 'red'].push(line.captures[i]);
      mover = mover === 'red' ? 'blue' : 'red';
    }
    $(root, '#captured').innerHTML = capturedHtml(lost);
    $(root, '#outcome').textContent = atEnd && line.outcome ? t(`reason.${line.outcome.reason}`, { side: t(line.outcome.winner ?? 'red'), loser: t(line.outcome.winner === 'red' ? 'blue' : 'red') }) : '';
    $(root, '#variation').hidden = !mainline;
    drawAnalysis();
    if (location.hash !== `#${ply}`) history.replaceState(history.state, '', `${location.pathname}${location.search}#${ply}`);
  }

  function drawAnalysis() {
    const fen = positionAt(ply);
    const bar = /** @type {HTMLElement} */ ($(root, '#eval-bar').firstElementChild);
    if (!checkedOf(root, '#engine-on')) {
      $(root, '#eval-text').textContent = '';
      $(root, '#eval-depth').textContent = '';
      $(root, '#pv').textContent = '';
      return;
    }
    if (refused) {
      // Fair play: the server says why the engine is silent here.
      $(root, '#eval-text').textContent = refused;
      $(root, '#eval-depth').textContent = '';
      $(root, '#pv').textContent = '';
      return;
    }
    if (analysis?.position !== fen) {
      $(root, '#eval-text').textContent = '…';
      return;
    }
    if (!analysis.score) {
      $(root, '#eval-text').textContent = t('gameOverHere');
      $(root, '#eval-depth').textContent = '';
      $(root, '#pv').textContent = '';
      return;
    }
    const shown = evalShown(analysis.score, toMove(fen));
    bar.style.width = `${shown.share}%`;
    $(root, '#eval-bar').setAttribute('aria-label', `${t('evaluation')}: ${shown.text}`);
    $(root, '#eval-text').textContent = shown.text;
    $(root, '#eval-depth').textContent = t('depthN', { n: analysis.depth });
    $(root, '#pv').textContent = analysis.pv.join(' ');
  }

  /** Asks the engine about the shown position, once the player stops on it. */
  function askEngine() {
    clearTimeout(timer);
    if (!line || liveGame || !checkedOf(root, '#engine-on')) return;
    const key = `${line.rules}|${line.start}|${line.moves.slice(0, ply).join(' ')}`;
    if (key === asked) return;
    timer = window.setTimeout(() => {
      asked = key;
      app.session.send({ t: 'analyse', rules: line.rules, position: line.start, moves: line.moves.slice(0, ply) });
    }, 250);
  }

  /** @type {string[] | null} legal moves at `ply` when it is not the line's end */
  let prefixLegal = null;
  async function loadPrefixLegal() {
    prefixLegal = null;
    if (!line || ply === line.moves.length) return;
    const at = ply;
    const prefix = await api.line(line.rules, line.start, line.moves.slice(0, at)).catch(() => null);
    if (alive && prefix && at === ply) {
      prefixLegal = prefix.legal;
      draw();
    }
  }

  function goTo(k) {
    if (!line) return;
    ply = Math.max(0, Math.min(line.moves.length, k));
    refused = liveGame ? t('engineAfterGameWhy') : '';
    draw();
    askEngine();
    loadPrefixLegal();
  }

  /** A free move at the shown turn: the line after it is replaced (a variation). */
  async function play(mv) {
    if (!line) return;
    const moves = [...line.moves.slice(0, ply), mv];
    const next = await api.line(line.rules, line.start, moves).catch((err) => {
      $(root, '#import-error').textContent = err.message;
      return null;
    });
    if (!next || !alive) return;
    if (!mainline && ply < line.moves.length) mainline = line.moves;
    line = { ...next, tags: line.tags };
    goTo(moves.length);
  }

  /** @param {Line} loaded @param {number} at */
  function show(loaded, at) {
    line = loaded;
    mainline = null;
    /** @type {HTMLSelectElement} */ ($(root, '#import-rules')).value = loaded.rules;
    goTo(at);
  }

  $(root, '#back-to-game').onclick = async () => {
    if (!mainline || !line) return;
    const back = await api.line(line.rules, line.start, mainline).catch(() => null);
    if (back && alive) show({ ...back, tags: line.tags }, Math.min(ply, back.moves.length));
  };
  $(root, '.replay-bar').onclick = (e) => {
    const step = /** @type {HTMLElement} */ (e.target).closest?.('[data-step]')?.getAttribute('data-step');
    if (!step || !line) return;
    goTo({ first: 0, prev: ply - 1, next: ply + 1, last: line.moves.length }[step]);
  };
  $(root, '#moves').onclick = (e) => {
    const k = /** @type {HTMLElement} */ (e.target).closest?.('[data-ply]')?.getAttribute('data-ply');
    if (k) goTo(Number(k));
  };
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    // A board moved about with the keyboard keeps the arrows; one just clicked does not.
    const keyboardBoard = target.closest?.('.board') && target.matches?.(':focus-visible');
    if (!line || e.altKey || e.ctrlKey || e.metaKey || keyboardBoard || target.closest?.('input, select, textarea')) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: line.moves.length }[e.key];
    if (to != null) {
      e.preventDefault();
      goTo(to);
    }
  };
  document.addEventListener('keydown', onKey);
  $(root, '#flip').onclick = () => {
    flipped = !flipped;
    $(root, '#flip').setAttribute('aria-pressed', String(flipped));
    draw();
  };
  $(root, '#engine-on').onchange = () => {
    asked = '';
    draw();
    askEngine();
  };
  $(root, '#import-load').onclick = async () => {
    const text = valueOf(root, '#import-text').trim();
    const rules = valueOf(root, '#import-rules');
    const error = $(root, '#import-error');
    error.textContent = '';
    // A position's text (`…/… r 0 1`) starts a board there; anything else is read as a game.
    const position = /^[^[\]{}]*\/[^[\]{}]* [rb] \d+ \d+$/.test(text);
    try {
      const loaded = position ? await api.line(rules, text, []) : await api.importGame(text);
      if (alive) show(loaded, position ? 0 : loaded.moves.length);
    } catch (err) {
      error.textContent = err.message;
    }
  };

  // The engine's answers come over the socket; so do its refusals.
  const stopAnswers = app.store.subscribe('analysis', (frame) => {
    if (frame.t === 'error') {
      refused = errorText(frame.code, frame.message);
    } else {
      refused = '';
      analysis = frame;
    }
    draw();
  });
  /** A game in progress was opened here: its moves, but no engine until it ends. */
  let liveGame = false;

  const params = new URLSearchParams(location.search);
  const opening = Number(location.hash.match(/^#(\d+)$/)?.[1] ?? NaN);
  const gameId = params.get('game');
  const loading = gameId
    ? api.game(gameId).then((record) => {
      liveGame = record.status === 'active';
      return api.line(record.rules, record.start, record.moves);
    })
    : api.line(params.get('rules') || 'classic', params.get('position') || undefined, []);
  loading.then((loaded) => {
    if (alive) show(loaded, Number.isNaN(opening) ? loaded.moves.length : opening);
  }).catch((err) => {
    if (alive) $(root, '#import-error').textContent = err.message;
  });

  return {
    destroy() {
      alive = false;
      clearTimeout(timer);
      board.destroy();
      document.removeEventListener('keydown', onKey);
      stopAnswers();
    },
  };
}
