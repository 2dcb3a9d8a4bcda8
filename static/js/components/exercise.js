// One exercise of a lesson (issue 29): a reading card, or a task on a board. The server judges
// every move (POST /api/learn/try) and sends the positions and legal moves; the board offers
// only those. The opponent's scripted answers are shown after a short pause, which a tap skips.

import * as api from '../api.js';
import { createBoard, renderBoard } from '../board.js';
import { $ } from '../dom.js';
import { parseBoard } from '../fen.js';
import { escape } from '../format.js';
import { t } from '../i18n.js';
import { markDone, say } from '../learn_progress.js';
import { renderContrast } from './contrast.js';

/** How long the opponent's answer, or a wrong move before it is taken back, stays in view. */
const PAUSE_MS = 600;

/** @param {string} mv such as "a3a4" */
const arrow = (mv) => `${mv.slice(0, 2)} → ${mv.slice(2, 4)}`;

/**
 * Draws `exercise` in `root`. `onDone` hears it solved (or read); `onNext` the Next button.
 * @param {HTMLElement} root
 * @param {import('../types.js').Exercise} exercise
 * @param {{ onDone: () => void, onNext: () => void, nextLabel: string }} options
 * @returns {import('../types.js').View}
 */
export function createExercise(root, exercise, options) {
  return exercise.board ? boardExercise(root, exercise, exercise.board, options) : readingCard(root, exercise, options);
}

/** Text only: done once read. */
function readingCard(root, exercise, options) {
  root.innerHTML = `<article class="card exercise reading">
    <p class="ex-intro">${escape(say(exercise.intro))}</p>
    <p class="ex-goal">${escape(say(exercise.goal))}</p>
    <p class="ex-why">${escape(say(exercise.why))}</p>
    <p class="ex-status" role="status" aria-live="polite"></p>
    <p><button type="button" class="primary" id="ex-next">${t('learnGotIt')}</button></p></article>`;
  let alive = true;
  const next = /** @type {HTMLButtonElement} */ ($(root, '#ex-next'));
  next.onclick = async () => {
    next.disabled = true;
    try {
      await api.learnTry(exercise.id, []);
    } catch (err) {
      if (!alive) return;
      next.disabled = false;
      $(root, '.ex-status').textContent = t('learnUnreachable', { msg: err.message });
      return;
    }
    if (!alive) return;
    markDone([exercise.id]);
    options.onDone();
    options.onNext();
  };
  return {
    destroy() {
      alive = false;
    },
  };
}

/**
 * A task on a board: `steps` moves of the player's, the opponent answering between them.
 * @param {HTMLElement} root
 * @param {import('../types.js').Exercise} exercise
 * @param {import('../types.js').ExerciseBoard} start
 * @param {{ onDone: () => void, onNext: () => void, nextLabel: string }} options
 */
function boardExercise(root, exercise, start, options) {
  const side = start.position.split(' ')[1] === 'b' ? 'blue' : 'red';
  const opponent = side === 'red' ? 'blue' : 'red';
  const history = start.history.length
    ? `<p class="ex-history muted">${t('learnHistory', { n: start.history.length })}</p>` : '';
  root.innerHTML = `<article class="card exercise">
    <div class="ex-head">
      <p class="ex-intro">${escape(say(exercise.intro))}</p>
      <p class="ex-goal" id="ex-goal"><strong>${escape(say(exercise.goal))}</strong></p>
      ${history}
      <p class="ex-rules muted">${t('learnRuleset', { rules: t(`ruleset.${start.rules}`) })}${start.steps > 1 ? ` · ${t('learnSteps', { n: start.steps })}` : ''}</p>
      <p class="ex-status" id="ex-status" role="status" aria-live="polite"></p>
    </div>
    <div class="ex-board" id="ex-board" aria-describedby="ex-goal"></div>
    <div class="ex-after" id="ex-after" hidden>
      <p class="ex-why">${escape(say(exercise.why))}</p>
      <div id="ex-contrast"></div>
      <p><button type="button" class="primary" id="ex-next">${escape(options.nextLabel)}</button></p>
    </div></article>`;
  const board = createBoard($(root, '#ex-board'), (mv) => play(mv));
  const statusEl = $(root, '#ex-status');
  /** The player's right moves so far (the server replays them with its answers). */
  const moves = [];
  let position = start.position;
  let legal = start.legal;
  /** @type {string | null} */
  let last = null;
  /** 'play', 'wait' (the server judges), 'done' */
  let phase = 'play';
  let alive = true;
  /** @type {{ timer: number, run: () => void } | null} what the pause holds back */
  let pending = null;
  /** @type {{ destroy: () => void } | null} */
  let contrast = null;

  const status = (text, kind = '') => {
    statusEl.textContent = text;
    statusEl.className = `ex-status ${kind}`;
    // On a phone a long exercise's words push the board down: a reader scrolled to the board
    // is brought back to the verdict above it, the board whole below it.
    if (text && statusEl.getBoundingClientRect().top < 0) statusEl.scrollIntoView({ block: 'start' });
  };
  const article = $(root, '.exercise');
  const draw = (animate = true) => {
    // What the exercise waits for, for tests and styles: 'play', 'wait' or 'done'.
    article.dataset.phase = phase;
    drawBoard(animate);
  };
  const drawBoard = (animate) => renderBoard(board, {
    pieces: parseBoard(position),
    orientation: side,
    legal: phase === 'play' ? legal : [],
    lastMove: last && last !== 'pass' ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null,
    animate,
  });
  /** Runs `run` after the pause; at once when motion is reduced, or when the reader taps. */
  const later = (run) => {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
      run();
      return;
    }
    pending = { timer: window.setTimeout(() => flush(), PAUSE_MS), run };
  };
  const flush = () => {
    if (!pending) return;
    const { timer, run } = pending;
    pending = null;
    clearTimeout(timer);
    if (alive) run();
  };
  $(root, '#ex-board').addEventListener('pointerdown', flush, { capture: true });
  $(root, '#ex-board').addEventListener('keydown', flush, { capture: true });

  /** The move is shown where it goes while the server judges it: drawing only, no rules. */
  function showPlayed(mv) {
    const pieces = parseBoard(position);
    const piece = pieces.get(mv.slice(0, 2));
    pieces.delete(mv.slice(0, 2));
    if (piece) pieces.set(mv.slice(2, 4), piece);
    renderBoard(board, { pieces, orientation: side, legal: [], lastMove: { from: mv.slice(0, 2), to: mv.slice(2, 4) }, animate: true });
    article.dataset.phase = phase;
  }

  async function play(mv) {
    if (phase !== 'play') return;
    phase = 'wait';
    showPlayed(mv);
    status('');
    /** @type {import('../types.js').TryAnswer} */
    let answer;
    try {
      answer = await api.learnTry(exercise.id, [...moves, mv]);
    } catch (err) {
      if (!alive) return;
      phase = 'play';
      draw(false);
      status(t('learnUnreachable', { msg: err.message }), 'wrong');
      return;
    }
    if (!alive) return;
    if (answer.verdict === 'continue') {
      moves.push(mv);
      status(t('learnRight'), 'right');
      later(() => {
        position = answer.position;
        legal = answer.legal;
        last = answer.reply;
        phase = 'play';
        draw();
        const reply = answer.reply === 'pass' || !answer.reply
          ? t('learnPassed', { side: t(opponent) })
          : t('learnAnswered', { side: t(opponent), move: arrow(answer.reply) });
        status(`${t('learnRight')} ${reply} ${t('learnYourMove')}`, 'right');
      });
    } else if (answer.verdict === 'done') {
      moves.push(mv);
      position = answer.position;
      last = mv;
      phase = 'done';
      draw(false);
      finished();
    } else {
      const words = answer.verdict === 'wrong' ? t('learnWrong') : t('learnIllegal');
      status(answer.hint ? `${words} ${say(answer.hint)}` : words, 'wrong');
      later(() => {
        position = answer.position;
        legal = answer.legal;
        phase = 'play';
        draw(false);
      });
    }
  }

  /** Solved: why it works, what another ruleset changes, and the way on. */
  function finished() {
    markDone([exercise.id]);
    options.onDone();
    status(t('learnDone'), 'right');
    $(root, '#ex-after').hidden = false;
    if (start.contrast) {
      contrast = renderContrast($(root, '#ex-contrast'), start, start.contrast, moves[0]);
    }
    const next = $(root, '#ex-next');
    next.onclick = () => options.onNext();
    next.focus({ preventScroll: true });
    $(root, '#ex-after').scrollIntoView?.({ block: 'nearest' });
  }

  draw(false);
  return {
    destroy() {
      alive = false;
      if (pending) clearTimeout(pending.timer);
      pending = null;
      contrast?.destroy();
      board.destroy();
    },
  };
}
