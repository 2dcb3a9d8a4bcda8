// Reads position text for drawing only: which animal stands where. No rules live here; the
// server sends the legal moves.

export const ANIMALS = {
  e: { name: 'elephant', glyph: '象', rank: 8 },
  l: { name: 'lion', glyph: '狮', rank: 7 },
  t: { name: 'tiger', glyph: '虎', rank: 6 },
  p: { name: 'leopard', glyph: '豹', rank: 5 },
  w: { name: 'wolf', glyph: '狼', rank: 4 },
  d: { name: 'dog', glyph: '狗', rank: 3 },
  c: { name: 'cat', glyph: '猫', rank: 2 },
  r: { name: 'rat', glyph: '鼠', rank: 1 },
};

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

/** The animals by their wire names (`rat` … `elephant`), for captures the server reports. */
export const ANIMAL_BY_NAME = Object.fromEntries(Object.values(ANIMALS).map((a) => [a.name, a]));

export const WATER = new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']);
export const TRAPS = new Map([['c1', 'red'], ['e1', 'red'], ['d2', 'red'], ['c9', 'blue'], ['e9', 'blue'], ['d8', 'blue']]);
export const DENS = new Map([['d1', 'red'], ['d9', 'blue']]);
