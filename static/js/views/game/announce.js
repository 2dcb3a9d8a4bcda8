// Each move said to screen readers as it is played, with the animals' names in the page's
// language ("Blue Wolf a7 to a6, takes Red Cat"): the board's squares are named, but a move
// that arrives changes them without a word otherwise.

import { ANIMALS, parseBoard } from '../../fen.js';
import { t } from '../../i18n.js';

/**
 * @typedef {{ plies: number, position: string } | null} Said the position last said, by its ply count
 */

/**
 * Says the move that took `said` to `game`'s position, if exactly one did (a resync or a page
 * opened on a game says nothing: the board is there to read). Returns what is said now.
 * @param {HTMLElement} el an aria-live region
 * @param {Said} said
 * @param {import('../../types.js').GameState} game
 * @returns {Said}
 */
export function sayMove(el, said, game) {
  const now = { plies: game.moves.length, position: game.position };
  if (!said || now.plies !== said.plies + 1) return now;
  const move = game.moves[now.plies - 1];
  const before = parseBoard(said.position);
  const mover = before.get(move.slice(0, 2));
  if (move === 'pass' || !mover) {
    el.textContent = t('passSaid', { side: t(game.turn === 'red' ? 'blue' : 'red') });
    return now;
  }
  const name = (piece) => t('sideAnimal', { side: t(piece.side), animal: t(`animal.${ANIMALS[piece.letter].name}`) });
  const taken = before.get(move.slice(2, 4));
  const words = t('moveSaid', { animal: name(mover), from: move.slice(0, 2), to: move.slice(2, 4) });
  el.textContent = taken ? `${words}${t('takesSaid', { animal: name(taken) })}` : words;
  return now;
}
