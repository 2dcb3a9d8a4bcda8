// The header's badge on every page: how many correspondence games wait for the reader's move,
// linking to the lobby's list of them. It keeps the list in the store (`waiting`), fetched from
// `GET /api/account/games/waiting` about once a minute, and soon after news of a correspondence
// game (a move, a day given, a game begun or ended: the store's `correspondence` topic), never
// twice within a few seconds (the server allows one request every 2 s after a burst). Guests
// have no correspondence games: no badge, no requests.

import * as api from '../api.js';
import { t } from '../i18n.js';

/** How often the list is asked for when nothing happens. */
const POLL_MS = 60000;
/** After news, the list is asked for this much later (more news waits with it)… */
const SETTLE_MS = 500;
/** …and never sooner than this after the last request. */
const SPACING_MS = 5000;

/**
 * @param {HTMLAnchorElement} badge the header's link, hidden while nothing waits
 * @param {import('../types.js').App} app
 * @returns {{ restart: () => void, redraw: () => void, destroy: () => void }}
 */
export function createTurnBadge(badge, app) {
  let lastAsked = -Infinity;
  let pending = 0;
  let inFlight = false;
  /** Bumped when the player changes: an answer for the one before is dropped. */
  let generation = 0;

  const draw = () => {
    const waiting = app.store.state.waiting;
    const n = app.session.player?.username && waiting ? waiting.games.length : 0;
    badge.hidden = n === 0;
    if (!n) return;
    const label = t('turnBadge', { n });
    badge.setAttribute('aria-label', label);
    badge.title = label;
    badge.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h18v12H3z" fill="none" stroke="currentColor" stroke-width="2"/>`
      + `<path d="M3 6l9 7 9-7" fill="none" stroke="currentColor" stroke-width="2"/></svg><span class="count">${n}</span>`;
  };

  const ask = async () => {
    pending = 0;
    if (!app.session.player?.username || inFlight) return;
    inFlight = true;
    lastAsked = performance.now();
    const asked = generation;
    try {
      const answer = await api.waitingGames();
      if (asked === generation) app.store.set({ waiting: { ...answer, at: Date.now() } }, 'waiting');
    } catch {
      // Kept as it was (the next poll tries again).
    } finally {
      inFlight = false;
    }
  };

  /** Asks soon: after the news settles, and not too close to the last request. */
  const soon = () => {
    if (!app.session.player?.username) return;
    clearTimeout(pending);
    const wait = Math.max(SETTLE_MS, lastAsked + SPACING_MS - performance.now());
    pending = window.setTimeout(ask, wait);
  };

  const poll = () => {
    if (document.visibilityState !== 'hidden') ask();
  };
  const onVisible = () => {
    // Back to the tab after a while: what waits now.
    if (document.visibilityState === 'visible' && performance.now() - lastAsked > POLL_MS) soon();
  };

  const stops = [app.store.subscribe('waiting', draw), app.store.subscribe('correspondence', soon)];
  const timer = window.setInterval(poll, POLL_MS);
  document.addEventListener('visibilitychange', onVisible);
  draw();
  soon();

  return {
    /** In the language now chosen. */
    redraw: draw,
    /** Another player now: their list, from nothing. */
    restart() {
      generation += 1;
      lastAsked = -Infinity;
      inFlight = false;
      draw();
      soon();
    },
    destroy() {
      stops.forEach((stop) => stop());
      clearInterval(timer);
      clearTimeout(pending);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
