// Practice games (issue 29): an ordinary game against the computer at level 1 from a lesson's
// position. The game page learns that a game is a practice from this tab's sessionStorage:
// the practice asked for is remembered until its game arrives, then kept by the game's id.

const PENDING = 'jungle.practice.pending';
const GAMES = 'jungle.practice.games';
/** A relaxed clock: the practice is about the goal, not the time. */
const PRACTICE_CLOCK = { kind: 'fischer', base_s: 600, inc_s: 5 };
/** A game arriving later than this after the request is not the practice's. */
const PENDING_MS = 60_000;

/**
 * @typedef {{ id: string, chapter: string, text: import('./types.js').LearnText, why: import('./types.js').LearnText, within: number }} PracticeGame
 *   what the game page shows of the practice
 */

function read(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || 'null') ?? fallback;
  } catch {
    return fallback;
  }
}

/** The board part of position text: the server may write the counters its own way. */
const boardOf = (fen) => String(fen).split(' ').slice(0, 2).join(' ');

/**
 * Asks for the practice's game; its page opens when the server sends it.
 * @param {import('./types.js').App} app
 * @param {string} chapter the chapter's id, for the way back
 * @param {import('./types.js').Practice} practice
 */
export function startPractice(app, chapter, practice) {
  /** @type {PracticeGame} */
  const shown = { id: practice.id, chapter, text: practice.text, why: practice.why, within: practice.goal.within };
  sessionStorage.setItem(PENDING, JSON.stringify({
    practice: shown, rules: practice.rules, position: boardOf(practice.position), side: practice.side, at: Date.now(),
  }));
  app.session.send({ t: 'play_computer', rules: practice.rules, clock: PRACTICE_CLOCK, level: 1, color: practice.side, position: practice.position });
}

/**
 * The practice `game` is played for, if it is one: known by its id, or the practice asked for
 * just now if the game fits it (ruleset, position, side, the computer at level 1).
 * @param {import('./types.js').GameState} game
 * @returns {PracticeGame | null}
 */
export function practiceOf(game) {
  const games = read(GAMES, {});
  if (games[game.game]) return games[game.game];
  const pending = read(PENDING, null);
  if (!pending || Date.now() - pending.at > PENDING_MS || game.you !== pending.side) return null;
  const computer = game[game.you === 'red' ? 'blue' : 'red']?.computer;
  if (game.rules !== pending.rules || boardOf(game.start) !== pending.position || computer !== 1) return null;
  // Only the latest few are kept: a tab plays few practices.
  const kept = Object.entries(games).slice(-9);
  sessionStorage.setItem(GAMES, JSON.stringify(Object.fromEntries([...kept, [game.game, pending.practice]])));
  sessionStorage.removeItem(PENDING);
  return pending.practice;
}
