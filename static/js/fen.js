// Reads position text for drawing only: which animal stands where. No rules live here; the
// server sends the legal moves.

import { language } from './i18n.js';

export const ANIMALS = {
  e: { name: 'elephant', glyph: '象', rank: 8 },
  l: { name: 'lion', glyph: '狮', hant: '獅', rank: 7 },
  t: { name: 'tiger', glyph: '虎', rank: 6 },
  p: { name: 'leopard', glyph: '豹', rank: 5 },
  w: { name: 'wolf', glyph: '狼', rank: 4 },
  d: { name: 'dog', glyph: '狗', rank: 3 },
  c: { name: 'cat', glyph: '猫', hant: '貓', rank: 2 },
  r: { name: 'rat', glyph: '鼠', rank: 1 },
};

/**
 * An animal's character as the reader's script writes it (獅 and 貓 in Traditional Chinese).
 * @param {{ glyph: string, hant?: string }} animal
 */
export function glyphOf(animal) {
  return language() === 'zh-Hant' ? animal.hant ?? animal.glyph : animal.glyph;
}

export const FILES = 'abcdefg';

/// Square name from file 0–6 and rank 0–8.
export function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

/// A map of square name → { side, letter } from position text.
export function parseBoard(fen) {
  const pieces = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') {
        file += Number(ch);
      } else {
        const lower = ch.toLowerCase();
        pieces.set(squareName(file, rank), { side: ch === lower ? 'blue' : 'red', letter: lower });
        file += 1;
      }
    }
  });
  return pieces;
}

/**
 * @typedef {{ key: string, vars: Record<string, string | number> }} TextError
 *   what is wrong with typed position text, and where: an i18n key and its placeholders
 */

/**
 * Reads position text typed by a person, strictly: nine ranks of seven squares separated by
 * `/` (Blue's back rank first), animals `e l t p w d c r` (capitals for Red), digits for empty
 * squares, then optionally `r` or `b` to move. Only the shape is checked; whether the position
 * is one to play is the server's to say.
 * @param {string} text
 * @returns {{ pieces: Map<string, { side: string, letter: string }>, turn: 'red' | 'blue' } | { error: TextError }}
 */
export function readBoard(text) {
  const [board = '', turn = 'r'] = text.trim().split(/\s+/);
  const rows = board.split('/');
  if (rows.length !== 9) return { error: { key: 'editorBadRanks', vars: { n: rows.length } } };
  if (turn !== 'r' && turn !== 'b') return { error: { key: 'editorBadTurn', vars: { turn } } };
  const pieces = new Map();
  for (let i = 0; i < 9; i++) {
    const rank = 8 - i;
    let file = 0;
    for (const ch of rows[i]) {
      // 8 and 9 are counted too, so that "8" is said to be a rank too wide, not no animal.
      if (ch >= '1' && ch <= '9') {
        file += Number(ch);
        continue;
      }
      const lower = ch.toLowerCase();
      if (!ANIMALS[lower]) return { error: { key: 'editorBadLetter', vars: { rank: rank + 1, ch } } };
      if (file < 7) pieces.set(squareName(file, rank), { side: ch === lower ? 'blue' : 'red', letter: lower });
      file += 1;
    }
    if (file !== 7) return { error: { key: 'editorBadWidth', vars: { rank: rank + 1, n: file } } };
  }
  return { pieces, turn: turn === 'b' ? 'blue' : 'red' };
}

/** The animals by their wire names (`rat` … `elephant`), for captures the server reports. */
export const ANIMAL_BY_NAME = Object.fromEntries(Object.values(ANIMALS).map((a) => [a.name, a]));

export const WATER = new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']);
export const TRAPS = new Map([['c1', 'red'], ['e1', 'red'], ['d2', 'red'], ['c9', 'blue'], ['e9', 'blue'], ['d8', 'blue']]);
export const DENS = new Map([['d1', 'red'], ['d9', 'blue']]);

/**
 * Position text from a map of square name → { side, letter } (the inverse of `parseBoard`),
 * with `turn` to move and the counters of a fresh game. Drawing only: the server judges it.
 * @param {Map<string, { side: string, letter: string }>} pieces
 * @param {'red' | 'blue'} turn
 */
export function formatBoard(pieces, turn) {
  const rows = [];
  for (let rank = 8; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 7; file++) {
      const piece = pieces.get(squareName(file, rank));
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += piece.side === 'red' ? piece.letter.toUpperCase() : piece.letter;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${turn === 'blue' ? 'b' : 'r'} 0 1`;
}
