// The board: 63 buttons drawn from explicit state. It knows terrain and how to show animals,
// and nothing of the rules: the server's `legal` list decides what may move where.

import { DEN_PICTURE, TRAP_PICTURE, svg } from './animals.js';
import { ANIMALS, DENS, TRAPS, WATER, squareName } from './fen.js';
import { t } from './i18n.js';
import { pieceFace, pieceStyle } from './pieces.js';

/**
 * @typedef {{ side: 'red' | 'blue', letter: string }} Piece
 * @typedef {{ from: string, to: string }} LastMove
 * @typedef {{ pieces: Map<string, Piece>, orientation: 'red' | 'blue', legal: string[], lastMove: LastMove | null, animate?: boolean, hint?: LastMove | null, premove?: LastMove | null, premoving?: boolean }} BoardView
 * @typedef {{ from: string, x: number, y: number, moved: boolean, cancelOnUp: boolean }} Drag
 * @typedef {{
 *   root: HTMLElement,
 *   onMove: (move: string) => void,
 *   view: BoardView,
 *   selected: string | null,
 *   drag: Drag | null,
 *   ghost: HTMLElement | null,
 *   buttons: Map<string, HTMLButtonElement>,
 *   orientation: string | null,
 *   destroy: () => void,
 * }} Board
 */

/**
 * Creates the board inside `root`. `onMove(text)` is called with moves such as "a3a4".
 * `destroy()` removes every listener it added (on the window too) and empties `root`.
 * @param {HTMLElement} root
 * @param {(move: string) => void} onMove
 * @returns {Board}
 */
export function createBoard(root, onMove) {
  const listeners = new AbortController();
  const signal = listeners.signal;
  /** @type {Board} */
  const board = {
    root,
    onMove,
    view: { pieces: new Map(), orientation: 'red', legal: [], lastMove: null },
    selected: null,
    drag: null,
    ghost: null,
    buttons: new Map(),
    orientation: null,
    destroy() {
      listeners.abort();
      board.ghost?.remove();
      board.ghost = null;
      board.buttons.clear();
      root.replaceChildren();
    },
  };
  root.classList.add('board');
  root.setAttribute('role', 'group');
  root.addEventListener('pointerdown', (e) => pointerDown(board, e), { signal });
  window.addEventListener('pointermove', (e) => pointerMove(board, e), { signal });
  window.addEventListener('pointerup', (e) => pointerUp(board, e), { signal });
  root.addEventListener('click', (e) => keyboardClick(board, e), { signal });
  root.addEventListener('keydown', (e) => keyDown(board, e), { signal });
  return board;
}

/**
 * Draws `view`. With `animate` (a move just played), the animal glides from its old square in
 * 120 ms, straight over the water for a jump; input is never held up by it.
 * @param {Board} board
 * @param {BoardView} view
 */
export function renderBoard(board, view) {
  const previousMove = board.view.lastMove;
  board.view = view;
  if (board.orientation !== view.orientation) build(board, view.orientation);
  // While queuing a move on the opponent's turn every square could be a target: none is marked.
  const targets = new Set(view.premoving ? [] : destinations(board, board.selected));
  if (board.selected && !movable(board).has(board.selected)) board.selected = null;
  board.root.setAttribute('aria-label', t('boardLabel'));
  for (const [name, button] of board.buttons) {
    const piece = view.pieces.get(name);
    button.classList.toggle('last', !!view.lastMove && (view.lastMove.from === name || view.lastMove.to === name));
    // The engine's best move, on the analysis board.
    button.classList.toggle('hint-from', view.hint?.from === name);
    button.classList.toggle('hint-to', view.hint?.to === name);
    // A move queued for when the opponent has moved.
    button.classList.toggle('premove', view.premove?.from === name || view.premove?.to === name);
    button.classList.toggle('selected', board.selected === name);
    // Announced, not only shown: the square picked up for a move.
    if (board.selected === name) button.setAttribute('aria-pressed', 'true');
    else button.removeAttribute('aria-pressed');
    button.classList.toggle('target', targets.has(name) && !piece);
    button.classList.toggle('capture', targets.has(name) && !!piece);
    drawPiece(button, piece, name);
  }
  const move = view.lastMove;
  if (view.animate && move && (!previousMove || previousMove.from !== move.from || previousMove.to !== move.to)) {
    glide(board, move);
  }
}

function glide(board, move) {
  const from = board.buttons.get(move.from)?.getBoundingClientRect();
  const to = board.buttons.get(move.to);
  const piece = to?.querySelector('.piece');
  if (!from || !piece || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const target = to.getBoundingClientRect();
  piece.style.transition = 'none';
  piece.style.transform = `translate(${from.left - target.left}px, ${from.top - target.top}px)`;
  piece.getBoundingClientRect();
  piece.style.transition = '';
  piece.style.transform = '';
}

function build(board, orientation) {
  board.orientation = orientation;
  board.root.replaceChildren();
  board.buttons.clear();
  const ranks = orientation === 'red' ? [8, 7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const files = orientation === 'red' ? [0, 1, 2, 3, 4, 5, 6] : [6, 5, 4, 3, 2, 1, 0];
  let first = true;
  for (const rank of ranks) {
    for (const file of files) {
      const name = squareName(file, rank);
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sq';
      button.dataset.square = name;
      button.tabIndex = first ? 0 : -1;
      first = false;
      if ((file + rank) % 2) button.classList.add('alt');
      if (WATER.has(name)) button.classList.add('water');
      if (TRAPS.has(name)) {
        button.classList.add('trap', `${TRAPS.get(name)}-trap`);
        button.insertAdjacentHTML('beforeend', svg(TRAP_PICTURE, 'terrain'));
      }
      if (DENS.has(name)) {
        button.classList.add('den', `${DENS.get(name)}-den`);
        button.insertAdjacentHTML('beforeend', svg(DEN_PICTURE, 'terrain'));
      }
      // Square names along the edges, drawn by CSS: not text of the square, whose name says
      // its square already (a visible "5" apart from the name "a5" confuses speech input).
      if (rank === ranks[ranks.length - 1]) button.insertAdjacentHTML('beforeend', `<span class="coord file" data-coord="${name[0]}"></span>`);
      if (file === files[0]) button.insertAdjacentHTML('beforeend', `<span class="coord rank" data-coord="${rank + 1}"></span>`);
      board.root.append(button);
      board.buttons.set(name, button);
    }
  }
}

/** What stands on `name` besides an animal, in words: water, or whose trap or den. */
function terrainOf(name) {
  if (WATER.has(name)) return t('terrain.water');
  if (TRAPS.has(name)) return t('terrain.trap', { side: t(TRAPS.get(name) ?? '') });
  if (DENS.has(name)) return t('terrain.den', { side: t(DENS.get(name) ?? '') });
  return '';
}

function drawPiece(button, piece, name) {
  const style = pieceStyle();
  const key = piece ? `${piece.side}${piece.letter}${style}` : '';
  const terrain = terrainOf(name);
  const where = terrain ? t('squareWithTerrain', { square: name, terrain }) : name;
  const label = piece
    ? t('pieceLabel', { side: t(piece.side), animal: t(`animal.${ANIMALS[piece.letter].name}`), rank: ANIMALS[piece.letter].rank, square: where })
    : t('emptyLabel', { square: where });
  button.setAttribute('aria-label', label);
  if (button.dataset.piece === key) return;
  button.dataset.piece = key;
  button.querySelector('.piece')?.remove();
  if (!piece) return;
  const el = document.createElement('span');
  el.className = `piece ${piece.side} style-${style}`;
  el.title = t(`animal.${ANIMALS[piece.letter].name}`);
  el.innerHTML = pieceFace(piece.letter, { style });
  button.append(el);
}

/// Squares holding an animal with at least one legal move.
function movable(board) {
  return new Set(board.view.legal.map((m) => m.slice(0, 2)));
}

function destinations(board, from) {
  if (!from) return [];
  return board.view.legal.filter((m) => m.startsWith(from)).map((m) => m.slice(2, 4));
}

function squareOf(target) {
  return target?.closest?.('.sq')?.dataset.square ?? null;
}

/// The tap logic shared by mouse, touch and keyboard.
function tap(board, square) {
  if (board.selected && destinations(board, board.selected).includes(square)) {
    const move = board.selected + square;
    board.selected = null;
    renderBoard(board, board.view);
    board.onMove(move);
    return 'moved';
  }
  if (square === board.selected) {
    board.selected = null;
  } else {
    board.selected = movable(board).has(square) ? square : null;
  }
  renderBoard(board, board.view);
  return 'selected';
}

function pointerDown(board, e) {
  if (e.button !== 0) return;
  const square = squareOf(e.target);
  if (!square) return;
  e.preventDefault();
  board.buttons.get(square)?.focus({ preventScroll: true });
  const wasSelected = board.selected === square;
  if (wasSelected) {
    board.drag = { from: square, x: e.clientX, y: e.clientY, moved: false, cancelOnUp: true };
    return;
  }
  if (tap(board, square) === 'selected' && board.selected === square) {
    board.drag = { from: square, x: e.clientX, y: e.clientY, moved: false, cancelOnUp: false };
  }
}

function pointerMove(board, e) {
  const drag = board.drag;
  if (!drag) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    const piece = board.buttons.get(drag.from)?.querySelector('.piece');
    if (piece) {
      board.ghost = piece.cloneNode(true);
      board.ghost.classList.add('drag-ghost');
      board.ghost.style.width = `${piece.getBoundingClientRect().width}px`;
      document.body.append(board.ghost);
      piece.classList.add('dragging');
    }
  }
  if (board.ghost) {
    board.ghost.style.left = `${e.clientX}px`;
    board.ghost.style.top = `${e.clientY}px`;
  }
}

function pointerUp(board, e) {
  const drag = board.drag;
  board.drag = null;
  if (!drag) return;
  board.ghost?.remove();
  board.ghost = null;
  board.buttons.get(drag.from)?.querySelector('.piece')?.classList.remove('dragging');
  if (drag.moved) {
    const square = squareOf(document.elementFromPoint(e.clientX, e.clientY));
    // An illegal drop snaps back silently; the animal stays selected for a click.
    if (square && destinations(board, drag.from).includes(square)) tap(board, square);
    return;
  }
  if (drag.cancelOnUp) {
    board.selected = null;
    renderBoard(board, board.view);
  }
}

/// Enter or Space on a focused square arrives as a click with no pointer behind it.
function keyboardClick(board, e) {
  if (e.detail !== 0) return;
  const square = squareOf(e.target);
  if (square) tap(board, square);
}

function keyDown(board, e) {
  const square = squareOf(e.target);
  const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (!square || !steps[e.key]) {
    if (e.key === 'Escape') {
      board.selected = null;
      renderBoard(board, board.view);
    }
    return;
  }
  // A board moved about with the keyboard keeps the arrows; one just clicked with the mouse
  // leaves them to the page (the game's replay).
  if (!/** @type {HTMLElement} */ (e.target).matches(':focus-visible')) return;
  e.preventDefault();
  const buttons = [...board.buttons.values()];
  const index = buttons.indexOf(board.buttons.get(square));
  const [dx, dy] = steps[e.key];
  const col = (index % 7) + dx;
  const row = Math.floor(index / 7) + dy;
  if (col < 0 || col > 6 || row < 0 || row > 8) return;
  const next = buttons[row * 7 + col];
  buttons[index].tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
