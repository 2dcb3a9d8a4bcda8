// The game page's clocks and deadlines: ticked ten times a second from the last state the
// server sent (it keeps the time; this only counts down), the away and first-move warnings.

import { formatClock, formatDeadline, lowTimeMs, remainingMs } from '../../clock.js';
import { locale, t } from '../../i18n.js';
import { escape } from '../../format.js';
import * as sound from '../../sound.js';

/** What each clock element shows now. @type {WeakMap<HTMLElement, string>} */
const drawnClocks = new WeakMap();
export function tickClocks(root, app, local) {
  const { game, clockReceivedAt } = app.store.state;
  if (!game) return;
  tickFirstMove(root, app, local);
  const past = local.pastClocks;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-clock]'))) {
    const side = el.dataset.clock;
    const days = game.clock.kind === 'days';
    el.classList.toggle('days', days);
    if (past) {
      // Looking back: the clocks as they stood after that turn.
      el.innerHTML = formatClock(side === 'red' ? past.red_ms : past.blue_ms, game.clock, t);
      drawnClocks.delete(el);
      el.classList.remove('running', 'low');
      continue;
    }
    let running = game.status === 'active' && game.clocks.running === side;
    let ms = game.status === 'active' ? remainingMs(game.clocks, side, clockReceivedAt) : remainingMs({ ...game.clocks, running: null }, side, 0);
    // A correspondence side's first move has its days too, on the abort timer: shown as its clock.
    const { abortDeadline } = app.store.state;
    if (days && game.status === 'active' && game.clocks.running == null && game.turn === side && abortDeadline != null) {
      running = true;
      ms = Math.max(0, abortDeadline - performance.now());
    }
    let text = formatClock(ms, game.clock, t);
    if (days && running) {
      // The turn's end in the reader's own time ("until Sat 14:05"), to the minute.
      text += `<small class="deadline">${t('untilWhen', { when: deadlineText(local, Date.now() + ms) })}</small>`;
    }
    if (game.clock.kind === 'per_move') {
      // The turn's time as a ring that empties, beside the seconds (full while waiting).
      text = moveRing(running ? ms / (game.clock.move_s * 1000) : 1) + text;
      const count = side === 'red' ? game.clocks.red_timeouts : game.clocks.blue_timeouts;
      const vars = { n: count, max: game.clock.max_timeouts };
      text += `<small title="${t('timeoutsTitle', vars)}" aria-label="${t('timeoutsTitle', vars)}">${t('timeouts', vars)}</small>`;
    }
    // Drawn again only when it changed (a clock of days, once a minute).
    if (drawnClocks.get(el) !== text) {
      el.innerHTML = text;
      drawnClocks.set(el, text);
    }
    el.classList.toggle('running', running);
    el.classList.toggle('low', running && ms < lowTimeMs(game.clock));
    // One warning a turn when our own time runs short: 10 s on a Fischer clock, 5 s a move
    // (none over days: nobody is listening).
    const warnBelow = game.clock.kind === 'per_move' ? 5000 : 10000;
    if (running && !days && side === game.you && ms < warnBelow && local.lowWarned !== game.moves.length) {
      local.lowWarned = game.moves.length;
      sound.play('low');
    }
  }
  drawAway(root, app);
}
/**
 * A deadline as the reader's clock reads it, to the minute; remembered, since the clocks are
 * drawn ten times a second.
 * @param {{ deadlines: Map<number, string> }} local
 * @param {number} at Unix milliseconds
 */
export function deadlineText(local, at) {
  // Rounded down: a deadline never reads later than it is.
  const minute = Math.floor(at / 60000) * 60000;
  let text = local.deadlines.get(minute);
  if (text == null) {
    if (local.deadlines.size > 20) local.deadlines.clear();
    text = formatDeadline(minute, locale());
    local.deadlines.set(minute, text);
  }
  return text;
}
/** Circumference of the per-move ring's circle (r = 8). */
const RING = 2 * Math.PI * 8;
/**
 * A ring showing the share of a move's time left.
 * @param {number} left 0–1
 */
function moveRing(left) {
  const share = Math.max(0, Math.min(1, left));
  return `<svg class="move-ring" viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="8" class="ring-track"/>`
    + `<circle cx="10" cy="10" r="8" class="ring-left" stroke-dasharray="${RING.toFixed(2)}" stroke-dashoffset="${(RING * (1 - share)).toFixed(2)}"/></svg>`;
}
export function drawAway(root, app) {
  const el = root.querySelector('#away');
  const { game, awayDeadline } = app.store.state;
  if (!(el instanceof HTMLElement) || !game) return;
  const messages = [];
  for (const side of ['red', 'blue']) {
    const deadline = awayDeadline[side];
    if (game.status === 'active' && deadline && side !== game.you) {
      const seconds = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      messages.push(t('opponentAway', { name: escape(game[side]?.name ?? t(side)), s: seconds }));
    }
  }
  el.hidden = messages.length === 0;
  el.innerHTML = messages.join('<br>');
}
/** The countdown for a first move: the game is aborted when it runs out. */
function tickFirstMove(root, app, local) {
  const el = root.querySelector('#first-move');
  if (!(el instanceof HTMLElement)) return;
  const { game, abortDeadline } = app.store.state;
  const deadline = game.status === 'active' ? abortDeadline : null;
  if (deadline == null) {
    el.textContent = '';
    return;
  }
  const left = deadline - performance.now();
  if (game.clock.kind === 'days') {
    // Days ahead: the deadline in the reader's time, not seconds.
    const when = deadlineText(local, Date.now() + left);
    el.textContent = game.turn === game.you ? t('yourFirstMoveBy', { when }) : t('firstMoveBy', { side: t(game.turn), when });
    return;
  }
  const s = Math.max(0, Math.ceil(left / 1000));
  el.textContent = game.turn === game.you ? t('yourFirstMove', { s }) : t('firstMove', { side: t(game.turn), s });
}
