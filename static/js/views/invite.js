// A room link's page (issue 25): whoever opens /r/CODE learns who invites them to what ("Ada
// invites you to a game of Classic, 5+3"), and takes the seat with one button, choosing a name
// on the way if this browser has no player yet. The host opening their own link goes back to
// the room; a link whose game has started lets one watch it; a code that names no room says so.

import * as api from '../api.js';
import { describeClock } from '../clock.js';
import { $ } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { escape } from '../format.js';

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {string} code
 * @param {() => void} join takes the seat (or the room's news) for the player now stored
 * @param {(note: string) => void} askName the name prompt with a note, for a game one can watch
 * @returns {import('../types.js').View}
 */
export function renderInvite(root, app, code, join, askName) {
  let alive = true;
  root.innerHTML = `<p class="card">${t('loading')}</p>`;
  /** A card that says why there is nothing to sit down to, and the way back. */
  const nothing = (text) => {
    root.innerHTML = `<section class="card narrow" role="alert"><p>${escape(text)}</p>
      <p><a href="/" data-link class="button primary link-button">${t('backToLobby')}</a></p></section>`;
  };
  api.roomInvite(code).then((found) => {
    if (!alive) return;
    if (found.status === 'unknown') nothing(errorText('room_not_found', ''));
    else if (found.status === 'started') {
      // The game is under way: the link lets one watch it, once one has a name.
      if (app.session.player) join();
      else askName(t('roomStartedWatch'));
    } else if (found.invite.host_id === app.session.player?.id) join();
    else draw(found.invite);
  }).catch((err) => {
    if (alive) nothing(err.message);
  });

  /** @param {import('../api.js').RoomInvite} invite */
  function draw(invite) {
    const host = `<a href="/p/${invite.host_id}" data-link>${escape(invite.host)}</a>`;
    const rating = `${invite.host_rating}${invite.host_provisional ? '?' : ''}`;
    const guestColour = invite.host_colour === 'random' ? null : invite.host_colour === 'red' ? 'blue' : 'red';
    const facts = [
      invite.rated ? t('rated') : t('casual'),
      guestColour ? t('youPlaySide', { side: t(guestColour) }) : t('coloursDrawn'),
      ...(invite.start ? [t('fromSetUpPosition')] : []),
    ];
    const named = Boolean(app.session.player);
    root.innerHTML = `<section class="card narrow invite">
      <h1>${t('invitesYou', { name: host, rules: t(`ruleset.${invite.rules}`), clock: describeClock(invite.clock, t) })}</h1>
      <p class="muted">${t('rating')} ${rating} · ${facts.join(' · ')}</p>
      <form id="invite-form">
        ${named ? '' : `<label for="invite-name">${t('chooseName')}</label>
        <input type="text" id="invite-name" maxlength="24" autocomplete="nickname" aria-describedby="invite-hint">
        <p class="muted" id="invite-hint">${t('inviteNameHint')}</p>`}
        <p class="error" id="invite-error" role="alert"></p>
        <p class="row"><button type="submit" class="primary" id="take-seat">${t('takeSeat')}</button></p>
      </form></section>`;
    $(root, '#invite-form').onsubmit = async (e) => {
      e.preventDefault();
      if (!app.session.player) {
        const name = /** @type {HTMLInputElement} */ ($(root, '#invite-name')).value.trim();
        try {
          await api.createPlayer(name || undefined);
          app.session.playerStored();
        } catch (err) {
          $(root, '#invite-error').textContent = err.message;
          return;
        }
      }
      join();
    };
    if (!named) $(root, '#invite-name').focus();
  }

  return { destroy() { alive = false; } };
}
