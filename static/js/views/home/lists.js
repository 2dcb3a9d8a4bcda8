// The lobby's lists: games being played, others' seeks to take, the leaderboard, and the
// player's own ratings, each fetched as the lobby opens (the first two again every few seconds).

import * as api from '../../api.js';
import { describeClock } from '../../clock.js';
import { $ } from '../../dom.js';
import { t } from '../../i18n.js';
import { escape } from '../../format.js';
import { RULESETS, nameLink } from './common.js';

/**
 * Fills the lobby's lists (drawn by the lobby's page).
 * @param {HTMLElement} root
 * @param {import('../../types.js').App} app
 * @param {boolean} account whether the player has an account (a rated seek needs one)
 * @returns {import('../../types.js').View}
 */
export function fillLists(root, app, account) {
  const live = $(root, '#live');
  // One's own game in the list is to play, not to watch.
  const me = app.session.player?.id;
  const loadLive = async () => {
    const games = await api.liveGames().catch(() => []);
    live.innerHTML = games.length
      ? games.map((g) => `<li><span>${nameLink(g.red, g.red_id, g.red_title)} (${g.red_rating}) – ${nameLink(g.blue, g.blue_id, g.blue_title)} (${g.blue_rating}) · ${t(`ruleset.${g.rules}`)} ${describeClock(g.clock, t)}</span>
          <a href="/g/${g.id}" data-link>${g.red_id === me || g.blue_id === me ? t('play') : t('watch')}</a></li>`).join('')
      : `<li class="muted">${t('noLiveGames')}</li>`;
  };
  loadLive();
  const liveTimer = setInterval(loadLive, 10000);

  // Others' seeks, to take with a click (a rated one needs an account).
  const openList = $(root, '#open-seeks');
  const loadSeeks = async () => {
    const seeks = (await api.openSeeks().catch(() => [])).filter((s) => s.player.id !== app.session.player.id);
    // Rated games and games over days are an account's.
    openList.innerHTML = seeks.length
      ? seeks.slice(0, 20).map((s) => `<li><span>${nameLink(s.player.name, s.player.id)} (${s.rating}${s.provisional ? '?' : ''}) · ${t(`ruleset.${s.rules}`)} ${describeClock(s.clock, t)} · ${s.rated ? t('rated') : t('casual')}</span>
          <button type="button" class="secondary" data-seek="${s.id}" ${(s.rated || s.clock.kind === 'days') && !account ? 'disabled' : ''}>${t('play')}</button></li>`).join('')
      : `<li class="muted">${t('noOpenSeeks')}</li>`;
  };
  openList.onclick = (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest?.('[data-seek]')?.getAttribute('data-seek');
    if (id) app.session.send({ t: 'accept_seek', seek: id });
  };
  loadSeeks();
  const seeksTimer = setInterval(loadSeeks, 5000);

  // Elements are looked up now, not when a request answers: by then the player may have
  // moved on to another view, and `root` holds that view instead.
  const lbRules = /** @type {HTMLSelectElement} */ ($(root, '#lb-rules'));
  const boardList = $(root, '#board-list');
  const mine = $(root, '#mine');
  const loadBoard = async () => {
    const data = await api.leaderboard(lbRules.value).catch(() => ({ players: [], provisional: [] }));
    // A new site's players are all provisional: shown, marked "?", as the full list shows
    // them apart, rather than "nobody is rated".
    const settling = (data.provisional ?? []).map((p) => ({ ...p, provisional: true }));
    const shown = data.players.length ? data.players : settling;
    boardList.innerHTML = shown.length
      ? shown.slice(0, 20).map((p) => `<li><a href="/p/${p.id}" data-link>${escape(p.name)}</a><span>${p.rating}${p.provisional ? '?' : ''}</span></li>`).join('')
      : `<li class="muted">${t('noRatings')}</li>`;
  };
  lbRules.onchange = loadBoard;
  loadBoard();

  api.profile(app.session.player.id).then((profile) => {
    const row = (label, rating) => `<li><span>${label}</span><span>${Math.round(rating.rating)}${rating.provisional ? '?' : ''} · ${t('games', { n: rating.games })}</span></li>`;
    // Correspondence ratings apart, for the rulesets played over days.
    const byDays = RULESETS.filter((r) => profile.correspondence_ratings?.[r]?.games > 0);
    mine.innerHTML = RULESETS.map((r) => row(t(`ruleset.${r}`), profile.ratings[r])).join('')
      + byDays.map((r) => row(`${t(`ruleset.${r}`)} · ${t('correspondence')}`, profile.correspondence_ratings[r])).join('')
      + `<li class="muted">${t('leaveRecord', { d: profile.disconnects ?? 0, a: profile.aborts ?? 0 })}</li>`;
  }).catch(() => {});

  return {
    destroy() {
      clearInterval(liveTimer);
      clearInterval(seeksTimer);
    },
  };
}
