// Who sits where on the game page, as shown: the side at the bottom, each player's bar.

import { t } from '../../i18n.js';
import { escape } from '../../format.js';

/** @typedef {import('../../types.js').GameState} GameState */

/**
 * While a private room waits for its guest the host sits on Red whatever they chose; the room
 * shows the colour as chosen (a host who chose Blue sees Blue at the bottom; `random` stays
 * random until the guest arrives and the sides are drawn).
 * @param {GameState} game
 * @returns {'red' | 'blue' | 'random' | null} the host's colour as shown, while waiting
 */
function waitingHostColour(game) {
  return game.status === 'waiting' && game.host_colour ? game.host_colour : null;
}
/** @param {GameState} game */
export function orientation(game) {
  if (waitingHostColour(game) === 'blue') return 'blue';
  return game.you === 'blue' ? 'blue' : 'red';
}
/**
 * Who sits on `side` as the room shows it, and the colour its chip reads.
 * @param {GameState} game
 * @param {'red' | 'blue'} side
 */
function shownSeat(game, side) {
  const chosen = waitingHostColour(game);
  if (!chosen) return { seat: game[side], chip: t(side), you: game.you === side };
  const hostSide = chosen === 'blue' ? 'blue' : 'red';
  const host = side === hostSide;
  return {
    seat: host ? game.red : null,
    chip: chosen === 'random' ? t('random') : t(side),
    you: host && game.you != null,
  };
}
/**
 * @param {Element} el
 * @param {GameState} game
 * @param {'red' | 'blue'} side
 */
export function drawBar(el, game, side) {
  const { seat, chip, you: isYou } = shownSeat(game, side);
  let name = '…';
  let rating = '';
  if (seat?.computer) name = `${t('computer')} · ${t('levelN', { n: seat.computer })}`;
  else if (seat) {
    // A bot carries its title before its name, as on lichess.
    const title = seat.title ? `<span class="title-badge" title="${t('botTitle')}">${escape(seat.title)}</span> ` : '';
    name = `${title}<a href="/p/${seat.id}" data-link>${escape(seat.name)}</a>`;
    // Outside the name, which gives way first: a long name never hides the rating.
    rating = `<span class="seat-rating">(${seat.rating}${seat.provisional ? '?' : ''})</span>`;
  }
  // Seed 002's disconnect count, which players look at before a game.
  const left = seat?.disconnects > 0
    ? `<span class="seat-note muted" title="${t('disconnectsTitle', { n: seat.disconnects })}">· ${t('disconnects', { n: seat.disconnects })}</span>`
    : '';
  const online = seat?.online ? 'on' : 'off';
  const you = isYou ? `<span class="seat-note">· ${t('you')}</span>` : '';
  // The name gives way (with an ellipsis) so that the rating, the notes and the clock stay on
  // the line.
  const chipClass = waitingHostColour(game) === 'random' ? 'random' : side;
  // A days clock is wide (with its deadline under it): the name takes a line of its own above
  // the dot, the side and the rating, rather than giving way.
  el.classList.toggle('days', game.clock?.kind === 'days');
  el.innerHTML = `<span class="player-name"><span class="dot ${online}" title="${t(seat?.online ? 'online' : 'offline')}"></span>
    <span class="piece-chip ${chipClass}">${chip}</span> <span class="seat-name" title="${escape(seat?.name ?? '')}">${name}</span>${rating}${left}${you}</span>
    <span class="clock" data-clock="${side}" aria-label="${t('clockOf', { side: t(side) })}"></span>`;
}
