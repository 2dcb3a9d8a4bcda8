// The puzzles (/puzzles, /puzzles/<id>): the board turned to the solver, the opponent's
// mistake played first, then "your turn: find the best move"; right and wrong marked at once,
// a hint, another try, the solution on request, and the next puzzle. Puzzle Streak
// (/puzzles/streak) plays the same board through puzzles of rising difficulty until the first
// mistake, without hints; the server keeps the score and the best. The server does the rules (each step's
// position and legal moves come from POST /api/lines) and judges the attempt; this page only
// compares the player's move with the line it was given.

import * as api from '../api.js';
import { createBoard, renderBoard } from '../board.js';
import { $ } from '../dom.js';
import { parseBoard } from '../fen.js';
import { t } from '../i18n.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];
const THEMES = ['den1', 'den2', 'den3', 'denLong', 'material', 'trapCapture', 'ratCapturesElephant',
  'riverJump', 'riverBlock', 'riverUnblocked', 'defence', 'higherCapture', 'endgame', 'long'];
/** The fewest puzzles of a theme for the page to offer it as a filter (issue 53). */
const FEWEST_TO_FILTER = 5;
/** How long the opponent's moves take to arrive, so that the eye follows them. */
const REPLY_MS = 500;

/**
 * @typedef {{ id: string, rules: string, position: string, blunder: string, solver: 'red' | 'blue',
 *   solution: string[], themes: string[], rating: number, plays: number, game: string | null }} PuzzleView
 * @typedef {{ positions: string[], legal: string[], outcome: { winner: string | null, reason: string } | null }} Line
 */

/** How often a puzzle was tried (rated attempts), after a separator; nothing for none. */
const timesTried = (n) => (n === 0 ? '' : ` · ${n === 1 ? t('playedOnce') : t('playedN', { n })}`);

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {string | null} id a puzzle's id, or none for the next one
 * @param {boolean} streak Puzzle Streak
 * @returns {import('../types.js').View}
 */
export function renderPuzzles(root, app, id, streak = false) {
  const params = new URLSearchParams(location.search);
  root.innerHTML = `<div class="puzzles">
    <section aria-label="${t('puzzles')}"><div id="board"></div>
      <p class="puzzle-status" id="puzzle-status" role="status" aria-live="polite"></p>
      <p class="row" id="puzzle-actions">
        <button type="button" class="primary" id="puzzle-retry" hidden>${t('puzzleRetry')}</button>
        <button type="button" class="secondary" id="puzzle-hint">${t('hint')}</button>
        <button type="button" class="secondary" id="puzzle-solution">${t('viewSolution')}</button>
        <button type="button" class="primary" id="puzzle-next" hidden>${t('nextPuzzle')}</button>
        <button type="button" class="primary" id="streak-start" hidden>${t('streakStart')}</button></p></section>
    <aside class="side">
      <div class="card"><h1>${streak ? t('streakTitle') : t('puzzles')}</h1>
        ${streak ? `<p class="muted">${t('streakAbout')}</p>
        <p class="streak-score" id="streak-score" aria-live="polite"></p>` : `<p id="puzzle-mine" class="muted"></p>`}
        <label>${t('ruleset')} <select id="puzzle-rules">${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select></label>
        ${streak ? '' : `<label>${t('puzzleTheme')} <select id="puzzle-theme"><option value="">${t('allThemes')}</option>${THEMES.map((th) => `<option value="${th}">${t(`theme.${th}`)}</option>`).join('')}</select></label>`}
        <p class="error" id="puzzle-error" role="alert"></p>
        <p>${streak ? `<a href="/puzzles" data-link>${t('puzzles')} →</a>` : `<a href="/puzzles/streak" data-link id="streak-link">${t('streakTitle')} →</a>`}</p></div>
      <div class="card" id="puzzle-about" hidden></div>
      <div class="card" id="puzzle-daily" ${streak ? 'hidden' : ''}></div>
    </aside></div>`;
  const rulesSelect = /** @type {HTMLSelectElement} */ ($(root, '#puzzle-rules'));
  const themeSelect = /** @type {HTMLSelectElement | null} */ (root.querySelector('#puzzle-theme'));
  rulesSelect.value = RULESETS.includes(params.get('rules') ?? '') ? /** @type {string} */ (params.get('rules')) : 'classic';
  if (themeSelect) themeSelect.value = THEMES.includes(params.get('theme') ?? '') ? /** @type {string} */ (params.get('theme')) : '';
  const board = createBoard($(root, '#board'), (mv) => tried(mv));
  let alive = true;
  /** @type {PuzzleView | null} */
  let puzzle = null;
  /** The moves played after the position: the opponent's mistake, then the line so far. */
  let played = [];
  /** @type {Line | null} the server's view of the position after `played` */
  let line = null;
  /** 'wait' (the opponent's move comes), 'play', 'solved', 'failed' */
  let phase = 'wait';
  let hinted = false;
  /** A hint was shown at some move of this puzzle, or a move was wrong: it is not solved
   * cleanly, and counts as failed (as lichess counts a puzzle done after a mistake). */
  let helped = false;
  let recorded = false;
  /** The solution was played out. */
  let shown = false;
  /** @type {number[]} */
  const timers = [];

  const status = (text, kind = '') => {
    const el = $(root, '#puzzle-status');
    el.textContent = text;
    el.className = `puzzle-status ${kind}`;
  };
  const fail = (message) => {
    if (alive) $(root, '#puzzle-error').textContent = message;
  };
  /**
   * No puzzle could be opened (none left here, or one withheld while a game stands on it):
   * why, under the board where the player looks, and no hint or solution of nothing.
   * @param {string} message
   * @param {boolean} another whether another puzzle may be asked for
   */
  const cannotOpen = (message, another) => {
    if (!alive) return;
    timers.splice(0).forEach((timer) => clearTimeout(timer));
    puzzle = null;
    phase = 'wait';
    status(message);
    $(root, '#puzzle-hint').hidden = true;
    $(root, '#puzzle-solution').hidden = true;
    $(root, '#puzzle-next').hidden = !another;
  };

  function draw() {
    if (!puzzle || !line || !alive) return;
    const fen = played.length ? line.positions[line.positions.length - 1] : puzzle.position;
    const last = played[played.length - 1];
    const expected = puzzle.solution[played.length - 1];
    renderBoard(board, {
      pieces: parseBoard(fen),
      orientation: puzzle.solver,
      legal: phase === 'play' ? line.legal : [],
      lastMove: last ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null,
      hint: phase === 'play' && hinted && expected ? { from: expected.slice(0, 2), to: expected.slice(0, 2) } : null,
      animate: true,
    });
    // Whose move it is, for tests and styles: 'play' while the board takes the solver's move.
    const page = /** @type {HTMLElement} */ ($(root, '.puzzles'));
    page.dataset.phase = phase;
    page.dataset.puzzle = puzzle.id;
    $(root, '#puzzle-next').hidden = streak || (phase !== 'solved' && phase !== 'failed');
    // A wrong move can be taken back and the puzzle tried again (it stays counted as failed);
    // a streak ends at it instead.
    $(root, '#puzzle-retry').hidden = streak || phase !== 'failed' || shown;
    $(root, '#puzzle-hint').hidden = streak || phase !== 'play';
    // After a wrong move the solution may still be asked for; once shown or solved, not.
    $(root, '#puzzle-solution').hidden = phase === 'solved' || phase === 'wait' || shown || (streak && phase !== 'failed');
    $(root, '#streak-start').hidden = !streak || phase !== 'failed';
  }

  /** Asks the server for the position after `moves` from the puzzle's. */
  async function advance(moves) {
    if (!puzzle) return;
    line = await api.line(puzzle.rules, puzzle.position, moves);
    played = moves;
  }

  /** The solver's move: right, as good (it wins at once), or wrong. */
  async function tried(mv) {
    if (!puzzle || phase !== 'play') return;
    const at = played.length - 1; // the solution's index of the move expected
    const expected = puzzle.solution[at];
    phase = 'wait';
    try {
      await advance([...played, mv]);
    } catch (err) {
      phase = 'play';
      fail(err.message);
      return;
    }
    if (!alive) return;
    const winsAtOnce = line?.outcome?.winner === puzzle.solver;
    if (mv !== expected && !winsAtOnce) {
      phase = 'failed';
      helped = true;
      status(t('puzzleWrong'), 'wrong');
      draw();
      record(false);
      return;
    }
    const reply = puzzle.solution[at + 1];
    if (winsAtOnce || reply === undefined) {
      phase = 'solved';
      status(helped ? t('puzzleSolvedHelped') : t('puzzleSolved'), 'right');
      draw();
      record(!helped);
      return;
    }
    status(t('puzzleRight'), 'right');
    draw();
    timers.push(window.setTimeout(async () => {
      await advance([...played, reply]).catch((err) => fail(err.message));
      if (!alive) return;
      phase = 'play';
      hinted = false;
      status(t('puzzleYourTurn', { side: t(/** @type {PuzzleView} */ (puzzle).solver) }));
      draw();
    }, REPLY_MS));
  }

  /** The server judges the solver's moves and says what the ratings did (in a streak: the
   * score, and the next puzzle). */
  async function record(win) {
    if (!puzzle || recorded) return;
    recorded = true;
    const mine = played.slice(1).filter((_, i) => i % 2 === 0);
    if (streak) {
      streakAnswered(puzzle, mine);
      return;
    }
    const shown = puzzle;
    try {
      const result = await api.puzzleAttempt(shown.id, mine, win);
      if (alive && puzzle === shown) about(result);
    } catch (err) {
      fail(err.message);
    }
  }

  /**
   * A streak's answer came back: the score, then the next puzzle after a moment, or the end.
   * @param {PuzzleView} answered
   * @param {string[]} moves
   */
  async function streakAnswered(answered, moves) {
    let view;
    try {
      view = await api.streakAnswer(answered.id, moves);
    } catch (err) {
      fail(err.message);
      return;
    }
    if (!alive || puzzle !== answered) return;
    showScore(view);
    if (view.over) {
      phase = 'failed';
      status(view.complete ? t('streakComplete', { n: view.score }) : t('streakOver', { n: view.score, best: view.best }), view.complete ? 'right' : 'wrong');
      draw();
      return;
    }
    const following = view.puzzle;
    if (!following) return;
    timers.push(window.setTimeout(() => alive && puzzle === answered && open(following), REPLY_MS * 2));
  }

  /** The streak's score and best, beside the board. */
  function showScore(view) {
    const el = root.querySelector('#streak-score');
    if (el) el.innerHTML = `${t('streakScore', { n: `<strong>${view.score}</strong>` })} · ${t('streakBest', { n: view.best })}`;
  }

  /** A new streak from its easiest puzzle. */
  async function startStreak() {
    timers.splice(0).forEach((timer) => clearTimeout(timer));
    $(root, '#streak-start').hidden = true;
    try {
      const view = await api.startStreak(rulesSelect.value);
      if (!alive) return;
      showScore(view);
      if (view.puzzle) open(view.puzzle);
    } catch (err) {
      cannotOpen(err.message, false);
    }
  }

  /** The streak running here (after a reload), or the way to start one. */
  async function resumeStreak() {
    try {
      const view = await api.streak(rulesSelect.value);
      if (!alive) return;
      showScore(view);
      if (view.puzzle) {
        open(view.puzzle);
        return;
      }
    } catch (err) {
      fail(err.message);
    }
    phase = 'failed';
    status(t('streakReady'));
    $(root, '#streak-start').hidden = false;
    $(root, '#puzzle-hint').hidden = true;
    $(root, '#puzzle-solution').hidden = true;
  }

  /** After the end: the themes, the ratings, the game it came from. */
  function about(result) {
    if (!puzzle) return;
    const box = $(root, '#puzzle-about');
    box.hidden = false;
    const change = result?.rated ? ` (${result.change >= 0 ? '+' : '−'}${Math.abs(result.change)})` : '';
    box.innerHTML = `<h2>${t('aboutPuzzle')}</h2>
      <p>${t('puzzleRatingN', { n: result?.puzzle_rating ?? puzzle.rating })}${timesTried(puzzle.plays + (result?.rated ? 1 : 0))}</p>
      ${result ? `<p>${t('yourPuzzleRating', { n: result.rating })}${change}${result.rated ? '' : ` · ${t('puzzleNotRated')}`}</p>` : ''}
      <p class="themes">${puzzle.themes.map((th) => `<a href="/puzzles?rules=${puzzle?.rules}&theme=${th}" data-link class="badge">${t(`theme.${th}`)}</a>`).join(' ')}</p>
      <p>${puzzle.game ? `<a href="/g/${puzzle.game}" data-link>${t('puzzleFromGame')}</a>` : `<span class="muted">${t('puzzleFromSelfPlay')}</span>`}
       · <a href="/puzzles/${puzzle.id}" data-link>${t('puzzleLink')}</a></p>`;
    loadMine();
  }

  /** Takes back the wrong move: the same position, to find the right one. */
  async function retry() {
    if (!puzzle || phase !== 'failed' || shown) return;
    phase = 'wait';
    try {
      await advance(played.slice(0, -1));
    } catch (err) {
      phase = 'failed';
      fail(err.message);
      return;
    }
    if (!alive) return;
    phase = 'play';
    status(t('puzzleTryAgain', { side: t(puzzle.solver) }));
    draw();
  }

  /** Plays the rest of the line, one move at a time; counts as failed. */
  async function showSolution() {
    if (!puzzle || (phase !== 'play' && phase !== 'failed') || shown) return;
    shown = true;
    phase = 'failed';
    record(false);
    // From where the line left off: a wrong move is taken back first.
    const right = [puzzle.blunder];
    for (const mv of played.slice(1)) {
      if (mv !== puzzle.solution[right.length - 1]) break;
      right.push(mv);
    }
    if (right.length !== played.length) await advance(right).catch((err) => fail(err.message));
    const rest = puzzle.solution.slice(right.length - 1);
    status(`${t('puzzleSolutionShown')} ${rest.join(' ')}`);
    rest.forEach((mv, i) => {
      timers.push(window.setTimeout(async () => {
        await advance([...played, mv]).catch((err) => fail(err.message));
        draw();
      }, REPLY_MS * (i + 1)));
    });
    draw();
  }

  async function open(found) {
    puzzle = found;
    played = [];
    line = { positions: [], legal: [], outcome: null };
    phase = 'wait';
    hinted = false;
    helped = false;
    recorded = false;
    shown = false;
    $(root, '#puzzle-about').hidden = true;
    $(root, '#puzzle-error').textContent = '';
    if (rulesSelect.value !== found.rules) {
      // Opened by its address: the filter's themes are this puzzle's ruleset's.
      rulesSelect.value = found.rules;
      loadThemes();
    }
    if (!streak && location.pathname !== `/puzzles/${found.id}`) history.replaceState(history.state, '', `/puzzles/${found.id}`);
    status(t('puzzleOpponentMoves'));
    draw();
    // The opponent's mistake, played after a moment so that it is seen.
    timers.push(window.setTimeout(async () => {
      try {
        await advance([found.blunder]);
      } catch (err) {
        fail(err.message);
        return;
      }
      if (!alive || puzzle !== found) return;
      phase = 'play';
      status(t('puzzleYourTurn', { side: t(found.solver) }));
      draw();
    }, REPLY_MS * 1.5));
  }

  async function next() {
    timers.splice(0).forEach((timer) => clearTimeout(timer));
    try {
      const found = await api.nextPuzzle(rulesSelect.value, themeSelect?.value ?? '');
      if (alive) open(found);
    } catch (err) {
      // Nothing left here (another ruleset or theme may have some): the board shown is not
      // playable any more.
      cannotOpen(err.message, false);
    }
  }

  async function loadMine() {
    if (!app.session.player) return;
    const history = await api.puzzleHistory(app.session.player.id).catch(() => null);
    if (!alive || !history) return;
    const rating = history.ratings.find((r) => r.rules === rulesSelect.value);
    $(root, '#puzzle-mine').textContent = rating
      ? t('yourPuzzleRating', { n: `${rating.rating}${rating.provisional ? '?' : ''}` })
      : t('puzzleNewcomer');
  }

  async function loadDaily() {
    const daily = await api.dailyPuzzle().catch(() => null);
    if (!alive || !daily) return;
    $(root, '#puzzle-daily').innerHTML = `<h2>${t('puzzleOfTheDay')}</h2>
      <p>${t(`ruleset.${daily.rules}`)} · ${t('puzzleRatingN', { n: daily.rating })}</p>
      <p><a href="/puzzles/${daily.id}" data-link>${t('solveIt')} →</a></p>`;
  }

  $(root, '#puzzle-hint').onclick = () => {
    hinted = true;
    helped = true;
    draw();
  };
  $(root, '#puzzle-retry').onclick = () => retry();
  $(root, '#puzzle-solution').onclick = () => showSolution();
  $(root, '#puzzle-next').onclick = () => next();
  $(root, '#streak-start').onclick = () => startStreak();
  /** Offers the themes the ruleset has enough puzzles of, each with its count (the one
   * chosen stays, however few); without the counts, the full list stays. */
  async function loadThemes() {
    if (!themeSelect) return;
    /** @type {{ total: number, themes: { theme: string, count: number }[] }} */
    let counts;
    const rules = rulesSelect.value;
    try {
      counts = await api.puzzleThemes(rules);
    } catch {
      return;
    }
    // Another ruleset was chosen meanwhile: its own answer fills the list.
    if (!alive || rulesSelect.value !== rules) return;
    const chosen = themeSelect.value;
    const offered = counts.themes.filter((c) => THEMES.includes(c.theme) && (c.count >= FEWEST_TO_FILTER || c.theme === chosen));
    // A theme asked for by a link that this ruleset has none of stays, with its nought, so
    // that "no puzzle left" reads as what it is.
    if (chosen && THEMES.includes(chosen) && !offered.some((c) => c.theme === chosen)) offered.push({ theme: chosen, count: 0 });
    themeSelect.innerHTML = `<option value="">${t('allThemes')} (${counts.total})</option>${
      offered.map((c) => `<option value="${c.theme}">${t(`theme.${c.theme}`)} (${c.count})</option>`).join('')}`;
    themeSelect.value = offered.some((c) => c.theme === chosen) ? chosen : '';
  }

  rulesSelect.onchange = async () => {
    if (streak) {
      resumeStreak();
      return;
    }
    loadMine();
    await loadThemes();
    next();
  };
  if (themeSelect) themeSelect.onchange = () => next();

  if (streak) {
    resumeStreak();
  } else if (id) {
    api.puzzle(id).then((found) => alive && open(found)).catch((err) => cannotOpen(err.message, true));
  } else {
    next();
  }
  if (!streak) {
    loadMine();
    loadDaily();
    loadThemes();
  }
  return {
    destroy() {
      alive = false;
      timers.splice(0).forEach((timer) => clearTimeout(timer));
      board.destroy();
    },
  };
}
