// The game's record on its page: the moves list, the captured animals, the position at a
// turn looked back at, and the moves a premove may be.

import { initialMs } from '../../clock.js';
import { capturedHtml } from '../../pieces.js';
import { t } from '../../i18n.js';
import { keepInSight, lastMove } from '../../components/replay.js';

/** @typedef {import('../../types.js').GameState} GameState */

/**
 * Moves one may queue on the opponent's turn: any of one's animals to any square not one's
 * own. The client knows no rules; the queued move is sent only if it is legal when the turn
 * comes (docs/decisions.md).
 * @param {Map<string, { side: string, letter: string }>} pieces
 * @param {string} side
 */
export function premoveCandidates(pieces, side) {
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
 * Numbered pairs (`1. a3a4 g7g6`), each turn a button that shows the board after it.
 * @param {HTMLElement} el
 * @param {GameState} game
 * @param {number} shown the turns played in the position on the board
 * @param {(string | null)[] | undefined} marks the whole-game analysis's marks, once known
 */
export function drawMoves(el, game, shown, marks) {
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
export function drawCaptured(el, captured) {
  const lost = captured ?? { red: [], blue: [] };
  el.innerHTML = capturedHtml(lost);
}
