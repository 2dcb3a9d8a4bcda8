// The board editor (/editor): set up a position by clicking, choose the side to move and the
// ruleset, copy its text, and start a casual game from it against the computer or a friend.
// The server judges the position (POST /api/lines) and again when the game is made.

import * as api from '../api.js';
import { createBoard, renderBoard } from '../board.js';
import { $, valueOf } from '../dom.js';
import { ANIMALS, formatBoard, parseBoard, readBoard } from '../fen.js';
import { pieceFace, pieceStyle } from '../pieces.js';
import { t } from '../i18n.js';
import { PRESETS, presetClock } from '../format.js';

const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1';
const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderEditor(root, app) {
  const row = (side) => Object.entries(ANIMALS).map(([letter, a]) =>
    `<button type="button" class="palette-piece ${side}" data-side="${side}" data-letter="${letter}" aria-pressed="false" aria-label="${t(side)} ${t(`animal.${a.name}`)}"><span class="piece token ${side} style-${pieceStyle()}" aria-hidden="true">${pieceFace(letter, { rank: false })}</span></button>`).join('');
  // Red's eight and the eraser, then Blue's eight: two rows of nine.
  const palette = `${row('red')}<button type="button" class="palette-piece erase" data-erase="1" aria-pressed="false" aria-label="${t('editorErase')}">✕</button>${row('blue')}`;
  root.innerHTML = `<div class="analysis">
    <section aria-label="${t('editorTitle')}">
      <div class="palette" role="group" aria-label="${t('editorPalette')}">${palette}</div>
      <div id="board"></div>
    </section>
    <aside class="side">
      <div class="card"><h1>${t('editorTitle')}</h1>
        <p class="muted">${t('editorHint')}</p>
        <label>${t('editorToMove')} <select id="ed-turn"><option value="red">${t('red')}</option><option value="blue">${t('blue')}</option></select></label>
        <label>${t('ruleset')} <select id="ed-rules">${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select></label>
        <p class="row"><button type="button" class="secondary" id="ed-start">${t('editorStart')}</button>
          <button type="button" class="secondary" id="ed-clear">${t('editorClear')}</button></p>
        <label for="ed-text">${t('editorText')}</label>
        <p class="row"><input type="text" id="ed-text" spellcheck="false" class="grow mono">
          <button type="button" class="secondary" id="ed-copy">${t('copyText')}</button></p>
        <p id="ed-verdict" role="status"></p></div>
      <div class="card"><h3>${t('editorPlay')}</h3>
        <label>${t('clock')} <select id="ed-clock">${PRESETS.map((p) => `<option value="${p.id}" ${p.id === '5+3' ? 'selected' : ''}>${p.id === '30s' ? t('perMove', { s: 30 }) : p.id}</option>`).join('')}</select></label>
        <label>${t('colour')} <select id="ed-colour"><option value="red">${t('red')}</option><option value="blue">${t('blue')}</option><option value="random">${t('random')}</option></select></label>
        <label>${t('level')} <select id="ed-level">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}" ${n === 3 ? 'selected' : ''}>${t('levelN', { n })}</option>`).join('')}</select></label>
        <p class="row"><button type="button" class="primary" id="ed-computer" disabled>${t('playComputer')}</button>
          <button type="button" class="secondary" id="ed-room" disabled>${t('createRoom')}</button>
          <a href="/analysis" data-link id="ed-analyse">${t('analyse')}</a></p></div>
    </aside></div>`;
  const board = createBoard($(root, '#board'), () => {});
  let pieces = parseBoard(START);
  /** @type {{ side: string, letter: string } | 'erase' | null} */
  let brush = null;
  let alive = true;
  let checking = 0;
  const text = /** @type {HTMLInputElement} */ ($(root, '#ed-text'));
  const verdict = $(root, '#ed-verdict');
  const buttons = [$(root, '#ed-computer'), $(root, '#ed-room')].map((b) => /** @type {HTMLButtonElement} */ (b));

  const fen = () => formatBoard(pieces, /** @type {'red' | 'blue'} */ (valueOf(root, '#ed-turn')));

  /** Draws the board and asks the server whether the position is one to play. */
  async function changed() {
    renderBoard(board, { pieces, orientation: 'red', legal: [], lastMove: null });
    const position = fen();
    text.value = position;
    const rules = valueOf(root, '#ed-rules');
    $(root, '#ed-analyse').setAttribute('href', `/analysis?rules=${rules}&position=${encodeURIComponent(position)}`);
    const asked = ++checking;
    let ok = false;
    let said;
    try {
      const line = await api.line(rules, position, []);
      ok = !line.outcome;
      said = ok ? t('editorValid', { n: line.legal.length }) : t('editorOver');
    } catch (err) {
      said = err.message;
    }
    // An answer to an older board says nothing about this one.
    if (!alive || asked !== checking) return;
    verdict.className = ok ? 'muted' : 'error';
    verdict.textContent = said;
    buttons.forEach((b) => { b.disabled = !ok; });
  }

  $(root, '.palette').onclick = (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest?.('button');
    if (!(button instanceof HTMLElement)) return;
    brush = button.dataset.erase ? 'erase' : { side: button.dataset.side, letter: button.dataset.letter };
    for (const b of root.querySelectorAll('.palette-piece')) b.setAttribute('aria-pressed', String(b === button));
  };
  $(root, '#board').addEventListener('click', (e) => {
    const square = /** @type {HTMLElement} */ (e.target).closest?.('[data-square]')?.getAttribute('data-square');
    if (!square || !brush) return;
    if (brush === 'erase') pieces.delete(square);
    else {
      // One of each animal a side: placing it again moves it here.
      for (const [at, p] of pieces) if (p.side === brush.side && p.letter === brush.letter) pieces.delete(at);
      pieces.set(square, { ...brush });
    }
    changed();
  });
  $(root, '#ed-turn').onchange = changed;
  $(root, '#ed-rules').onchange = changed;
  $(root, '#ed-start').onclick = () => { pieces = parseBoard(START); changed(); };
  $(root, '#ed-clear').onclick = () => { pieces = new Map(); changed(); };
  text.onchange = () => {
    const read = readBoard(text.value);
    if ('error' in read) {
      // Bad text changes nothing: the board stays, and nothing can be played from the text.
      checking += 1;
      verdict.className = 'error';
      verdict.textContent = t(read.error.key, read.error.vars);
      text.setAttribute('aria-invalid', 'true');
      buttons.forEach((b) => { b.disabled = true; });
      return;
    }
    text.removeAttribute('aria-invalid');
    pieces = read.pieces;
    /** @type {HTMLSelectElement} */ ($(root, '#ed-turn')).value = read.turn;
    changed();
  };
  $(root, '#ed-copy').onclick = () => navigator.clipboard?.writeText(text.value).catch(() => text.select());
  const game = (kind) => {
    const rules = valueOf(root, '#ed-rules');
    const common = { rules, clock: presetClock(valueOf(root, '#ed-clock'), rules), color: valueOf(root, '#ed-colour'), position: fen() };
    app.session.send(kind === 'computer'
      ? { t: 'play_computer', ...common, level: Number(valueOf(root, '#ed-level')) }
      : { t: 'create_room', ...common, rated: false });
  };
  buttons[0].onclick = () => game('computer');
  buttons[1].onclick = () => game('room');
  changed();
  return {
    destroy() {
      alive = false;
      board.destroy();
    },
  };
}
