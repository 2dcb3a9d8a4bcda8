// What another ruleset changes (issue 29): after an exercise, its starting position twice, side
// by side, under the exercise's ruleset and under the other, with one animal's moves marked in
// each (the server's legal lists), said in words too, and the lesson's sentence about it.

import { createBoard, renderBoard } from '../board.js';
import { $ } from '../dom.js';
import { parseBoard } from '../fen.js';
import { escape } from '../format.js';
import { t } from '../i18n.js';
import { say } from '../learn_progress.js';

/** The squares `legal` lets the animal on `square` move to, in order. */
const targetsOf = (legal, square) => legal.filter((m) => m.startsWith(square)).map((m) => m.slice(2, 4)).sort();

/**
 * The square to show: the first whose moves differ between the two lists, else where the
 * player's move started.
 * @param {string[]} mine @param {string[]} other @param {string | undefined} played
 */
function squareToShow(mine, other, played) {
  const froms = [...new Set([...mine, ...other].map((m) => m.slice(0, 2)))];
  const differs = froms.find((sq) => targetsOf(mine, sq).join() !== targetsOf(other, sq).join());
  return differs ?? played?.slice(0, 2) ?? froms[0] ?? '';
}

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').ExerciseBoard} start the exercise's board as first seen
 * @param {import('../types.js').Contrast} contrast
 * @param {string | undefined} played the player's first move
 * @returns {import('../types.js').View}
 */
export function renderContrast(root, start, contrast, played) {
  const square = squareToShow(start.legal, contrast.legal, played);
  const sides = [{ rules: start.rules, legal: start.legal }, { rules: contrast.rules, legal: contrast.legal }];
  const caption = ({ rules, legal }) => {
    const targets = targetsOf(legal, square);
    const name = t(`ruleset.${rules}`);
    return targets.length ? t('learnMovesFrom', { rules: name, square, targets: targets.join(', ') }) : t('learnNoMoves', { rules: name, square });
  };
  const orientation = start.position.split(' ')[1] === 'b' ? 'blue' : 'red';
  // Where both rulesets allow the same moves the difference is elsewhere (a draw, an ending):
  // the sentence says it, without two boards that look alike.
  const same = [...start.legal].sort().join() === [...contrast.legal].sort().join();
  const figures = same ? [] : sides;
  root.innerHTML = `<section class="contrast" aria-labelledby="contrast-title">
    <h3 id="contrast-title">${t('learnContrastTitle', { a: t(`ruleset.${start.rules}`), b: t(`ruleset.${contrast.rules}`) })}</h3>
    ${same ? '' : `<div class="contrast-boards">${figures.map((s, i) => `<figure>
      <div class="contrast-board" id="contrast-${i}" inert></div><figcaption>${caption(s)}</figcaption></figure>`).join('')}</div>`}
    <p>${escape(say(contrast.text))}</p></section>`;
  // Shown, not played: the boards take no input (inert), and the captions say what they show.
  // The square is outlined on both, even where its animal cannot move.
  const boards = figures.map((s, i) => {
    const board = createBoard($(root, `#contrast-${i}`), () => {});
    board.selected = square;
    renderBoard(board, { pieces: parseBoard(start.position), orientation, legal: s.legal, lastMove: null, hint: { from: square, to: '' } });
    return board;
  });
  return {
    destroy() {
      boards.forEach((board) => board.destroy());
    },
  };
}
