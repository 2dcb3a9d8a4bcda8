// A player's page (/@/username): ratings per ruleset, the rating after each rated game drawn
// as a line, and their recent games, each linking to its page.

import * as api from '../api.js';
import { $ } from '../dom.js';
import { locale, t } from '../i18n.js';
import { describeClock } from '../clock.js';
import { escape } from '../format.js';
import { renderChallengeForm } from '../components/challenge.js';
import { renderReportForm } from '../components/report.js';

/** Games per page of a player's list (the server's page size). */
const GAMES_PER_PAGE = 20;

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/**
 * The rating line as SVG: time along, rating up; a single game is a dot.
 * @param {{ at: number, rating: number }[]} points
 * @param {string} [empty] what to say when there is no point
 * @returns {string}
 */
export function ratingChart(points, empty = t('noRatedGames')) {
  if (!points.length) return `<p class="muted">${empty}</p>`;
  // The dates of the first and last points along the bottom, under the line's area.
  const [width, height, pad, dates] = [600, 216, 24, 16];
  const ratings = points.map((p) => p.rating);
  const low = Math.min(...ratings) - 20;
  const high = Math.max(...ratings) + 20;
  const x = (i) => (points.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (points.length - 1));
  const y = (r) => height - dates - pad - ((r - low) * (height - dates - 2 * pad)) / (high - low);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const first = points[0];
  const last = points[points.length - 1];
  const day = (at) => new Date(at).toLocaleDateString(locale(), { year: 'numeric', month: 'short', day: 'numeric' });
  const oneDay = day(first.at) === day(last.at);
  const span = oneDay ? day(last.at) : `${day(first.at)} – ${day(last.at)}`;
  return `<svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img"
      aria-label="${t('ratingHistory')}: ${Math.round(first.rating)} → ${Math.round(last.rating)}, ${span}">
    <text x="4" y="${pad - 2}" class="axis">${Math.round(high - 20)}</text>
    <text x="4" y="${height - dates - 6}" class="axis">${Math.round(low + 20)}</text>
    <text x="${pad}" y="${height - 2}" class="axis">${day(first.at)}</text>
    ${oneDay ? '' : `<text x="${width - pad}" y="${height - 2}" class="axis" text-anchor="end">${day(last.at)}</text>`}
    <polyline points="${line}" fill="none" stroke="currentColor" stroke-width="3" stroke-linejoin="round"/>
    ${points.length === 1 ? `<circle cx="${x(0)}" cy="${y(last.rating)}" r="5" fill="currentColor"/>` : ''}
  </svg>`;
}

/** The rating a new player starts from (the server's Glicko-2 default). */
const START_RATING = 1500;

/**
 * One line of a player's games, from their side: the opponent (linked) and their rating then,
 * the ruleset and clock, the result, its length, the date, and what it did to the player's
 * rating; "Replay" for a finished game, "Watch" for one in progress, "Play" for the
 * viewer's own game in progress.
 * @param {any} g a `GameSummary`
 * @param {string} playerId whose page this is
 * @param {string | undefined} viewerId who reads it
 */
export function gameRow(g, playerId, viewerId) {
  const side = g.red === playerId ? 'red' : 'blue';
  const other = side === 'red' ? 'blue' : 'red';
  const outcome = g.status !== 'finished'
    ? t(`status.${g.status}`)
    : g.winner == null ? t('drawShort') : g.winner === side ? t('win') : t('loss');
  const change = g.rating_change?.[side];
  const changed = change == null ? ''
    : ` · <span class="change ${change >= 0 ? 'up' : 'down'}">${change >= 0 ? '+' : '−'}${Math.abs(change)}</span>`;
  const date = new Date(g.created_at).toLocaleDateString(locale(), { year: 'numeric', month: 'short', day: 'numeric' });
  // Their rating as the game began; "?" while it was provisional.
  const title = g[`${other}_title`];
  const badge = title ? `<span class="title-badge" title="${t('botTitle')}">${escape(title)}</span> ` : '';
  const opponent = `${badge}<a href="/p/${g[other]}" data-link>${escape(g[`${other}_name`])}</a> (${g[`${other}_rating`]}${g[`${other}_provisional`] ? '?' : ''})`;
  const settings = `${t(`ruleset.${g.rules}`)} · ${describeClock(g.clock, t)} · ${g.rated ? t('rated') : t('casual')}`;
  const mine = viewerId != null && (g.red === viewerId || g.blue === viewerId);
  const link = g.status !== 'active' ? t('replayGame') : mine ? t('play') : t('watch');
  return `<li class="game-row"><span><span class="piece-chip ${side}">${t(side)}</span> ${t('versus')} ${opponent}<br>
    <span class="muted">${settings} · <strong>${outcome}</strong> · ${t('movesN', { n: g.plies })} · <span class="nowrap">${date}</span></span>${changed}</span>
    <a href="/g/${g.id}" data-link>${link}</a></li>`;
}

/**
 * A player's page, found by an account's username or by any player's id. `report` opens the
 * report form about that game (the game page links here with it).
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {{ username?: string, id?: string, report?: string | null }} who
 * @returns {import('../types.js').View}
 */
export function renderProfile(root, app, who) {
  root.innerHTML = `<section class="card profile"><h1 id="profile-name">${escape(who.username ?? '')}</h1>
    <p id="profile-presence" class="muted"></p>
    <ul class="list" id="profile-ratings"></ul>
    <section id="profile-correspondence" hidden><h2>${t('correspondence')}</h2><ul class="list" id="correspondence-ratings"></ul></section>
    <div id="profile-actions"></div>
    <h2>${t('ratingHistory')}</h2>
    <div class="chart-choice"><select id="profile-rules" aria-label="${t('ruleset')}">${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select>
      <div class="presets" id="profile-speed" role="group" aria-label="${t('ratingSpeed')}" hidden>
        <button type="button" data-speed="" aria-pressed="true">${t('oneSitting')}</button>
        <button type="button" data-speed="correspondence" aria-pressed="false">${t('correspondence')}</button></div></div>
    <div id="profile-chart"></div>
    <section id="profile-puzzles" hidden><h2>${t('puzzles')}</h2><ul class="list" id="puzzle-ratings"></ul><div id="puzzle-chart"></div></section>
    <h2>${t('recentGames')}</h2>
    <select id="games-rules" aria-label="${t('ruleset')}"><option value="">${t('allRulesets')}</option>${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select>
    <ul class="list" id="profile-games"></ul>
    <nav class="pager" aria-label="${t('recentGames')}"><button type="button" class="secondary" id="games-newer">${t('newerGames')}</button>
      <span id="games-page" class="muted"></span><button type="button" class="secondary" id="games-older">${t('olderGames')}</button></nav></section>`;
  const ratings = $(root, '#profile-ratings');
  const chart = $(root, '#profile-chart');
  const games = $(root, '#profile-games');
  const rules = /** @type {HTMLSelectElement} */ ($(root, '#profile-rules'));
  const gamesRules = /** @type {HTMLSelectElement} */ ($(root, '#games-rules'));
  const newer = /** @type {HTMLButtonElement} */ ($(root, '#games-newer'));
  const older = /** @type {HTMLButtonElement} */ ($(root, '#games-older'));
  const actions = $(root, '#profile-actions');
  /** @type {import('../types.js').View[]} */
  const parts = [];
  let alive = true;
  let page = 1;
  const found = who.username ? api.accountProfile(who.username) : api.profile(who.id);
  found.then(async (profile) => {
    if (!alive) return;
    $(root, '#profile-name').innerHTML = `${profile.title ? `<span class="title-badge" title="${t('botTitle')}">${escape(profile.title)}</span> ` : ''}${escape(profile.name)}`;
    // One's own page: one is here, even before this tab's socket has said so to the server.
    $(root, '#profile-presence').textContent = profile.banned ? t('banned') : profile.online || profile.id === app.session.player?.id ? t('online') : t('offline');
    ratings.innerHTML = RULESETS.map((r) => {
      const rating = profile.ratings[r];
      return `<li><span>${t(`ruleset.${r}`)}</span><span>${Math.round(rating.rating)}${rating.provisional ? '?' : ''} · ${t('games', { n: rating.games })}</span></li>`;
    }).join('') + `<li class="muted">${t('record', { w: profile.stats.wins, l: profile.stats.losses, d: profile.stats.draws })}</li>`;
    // Correspondence ratings stand apart, for the rulesets played over days.
    const byDays = RULESETS.filter((r) => profile.correspondence_ratings?.[r]?.games > 0);
    $(root, '#profile-correspondence').hidden = byDays.length === 0;
    $(root, '#correspondence-ratings').innerHTML = byDays.map((r) => {
      const rating = profile.correspondence_ratings[r];
      return `<li><span>${t(`ruleset.${r}`)}</span><span>${Math.round(rating.rating)}${rating.provisional ? '?' : ''} · ${t('games', { n: rating.games })}</span></li>`;
    }).join('');
    drawActions(profile);
    api.puzzleHistory(profile.id).then((history) => {
      if (!alive || !history.ratings.length) return;
      $(root, '#profile-puzzles').hidden = false;
      $(root, '#puzzle-ratings').innerHTML = history.ratings.map((r) => `<li><span>${t(`ruleset.${r.rules}`)}</span>
        <span>${r.rating}${r.provisional ? '?' : ''} · ${t('puzzlesSolvedOf', { w: r.wins, n: r.attempts })}</span></li>`).join('');
      // The chart of the ruleset tried most, oldest first.
      const most = [...history.ratings].sort((a, b) => b.attempts - a.attempts)[0].rules;
      const points = history.attempts.filter((a) => a.rules === most && a.rating != null)
        .map((a) => ({ at: a.at, rating: a.rating })).reverse();
      if (points.length > 1) $(root, '#puzzle-chart').innerHTML = ratingChart(points);
    }).catch(() => {});
    // The chart of games in one sitting, or (for a player who has played over days) of games
    // over days: at first, of the ruleset and speed with games, classic in one sitting first.
    const speeds = $(root, '#profile-speed');
    const played = (speed, r) => ((speed ? profile.correspondence_ratings : profile.ratings)?.[r]?.games ?? 0) > 0;
    speeds.hidden = byDays.length === 0;
    let speed = '';
    const first = ['', 'correspondence'].flatMap((s) => RULESETS.map((r) => ({ s, r }))).find(({ s, r }) => played(s, r));
    if (first && !played('', 'classic')) {
      speed = first.s;
      rules.value = first.r;
    }
    let drawn = 0;
    const drawChart = async () => {
      for (const button of speeds.querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.getAttribute('data-speed') === speed));
      const asked = ++drawn;
      const points = await api.ratingHistory(profile.id, rules.value, speed).catch(() => []);
      // The line starts where every player starts, before their first rated game.
      const line = points.length ? [{ at: points[0].at, rating: START_RATING }, ...points] : points;
      // Only the latest choice is drawn, whichever answer comes last.
      if (alive && asked === drawn) chart.innerHTML = ratingChart(line, speed ? t('noRatedGamesDays') : t('noRatedGames'));
    };
    rules.onchange = drawChart;
    speeds.onclick = (e) => {
      const button = /** @type {HTMLElement} */ (e.target).closest?.('button');
      if (!button || button.getAttribute('data-speed') === speed) return;
      speed = button.getAttribute('data-speed') ?? '';
      drawChart();
    };
    drawChart();
    const drawGames = async () => {
      const list = await api.playerGames(profile.id, gamesRules.value, page).catch(() => []);
      if (!alive) return;
      games.innerHTML = list.length
        ? list.map((g) => gameRow(g, profile.id, app.session.player?.id)).join('')
        : `<li class="muted">${t('noGames')}</li>`;
      newer.disabled = page === 1;
      // A full page may have more behind it.
      older.disabled = list.length < GAMES_PER_PAGE;
      $(root, '#games-page').textContent = t('pageN', { n: page });
    };
    gamesRules.onchange = () => { page = 1; drawGames(); };
    newer.onclick = () => { page = Math.max(1, page - 1); drawGames(); };
    older.onclick = () => { page += 1; drawGames(); };
    drawGames();
  }).catch((err) => {
    if (alive) root.innerHTML = `<p class="card" role="alert">${escape(err.message)}</p>`;
  });

  /** A guest's own page offers a new name; anyone else's, challenge and report. */
  function drawActions(profile) {
    if (profile.id === app.session.player?.id && !app.session.player?.username) {
      actions.innerHTML = `<form id="rename-form" class="row"><label for="rename" class="full">${t('changeName')}</label>
        <input type="text" id="rename" maxlength="24" value="${escape(profile.name)}" class="grow">
        <button type="submit" class="secondary">${t('save')}</button><p class="error" id="rename-error" role="alert" class="full"></p></form>`;
      $(actions, '#rename-form').onsubmit = async (e) => {
        e.preventDefault();
        try {
          const renamed = await api.renameGuest(/** @type {HTMLInputElement} */ ($(actions, '#rename')).value);
          app.session.playerStored();
          $(root, '#profile-name').textContent = renamed.name;
          $(actions, '#rename-error').textContent = '';
        } catch (err) {
          $(actions, '#rename-error').textContent = err.message;
        }
      };
      return;
    }
    if (profile.id === app.session.player?.id || profile.banned || profile.computer) return;
    const target = { id: profile.id, name: profile.name, username: profile.username };
    actions.innerHTML = `<details class="action-panel" id="challenge-panel"><summary>${t('challengeTitle', { name: escape(profile.name) })}</summary><div id="challenge-body"></div></details>
      <details class="action-panel" id="report-panel" ${who.report ? 'open' : ''}><summary>${t('reportTitle', { name: escape(profile.name) })}</summary><div id="report-body"></div></details>`;
    const challengeBody = $(actions, '#challenge-body');
    if (profile.online) parts.push(renderChallengeForm(challengeBody, app, target));
    else challengeBody.innerHTML = `<p class="muted">${t('challengeOffline', { name: escape(profile.name) })}</p>`;
    parts.push(renderReportForm($(actions, '#report-body'), target, who.report ?? null));
    if (app.session.player?.username) drawBlock(profile);
  }

  /** An account may block anyone: no challenges from them, no chat, never paired. */
  async function drawBlock(profile) {
    const listed = await api.blocks().catch(() => []);
    if (!alive) return;
    let blocked = listed.some((b) => b.id === profile.id);
    const row = document.createElement('p');
    row.className = 'row';
    actions.append(row);
    const draw = () => {
      row.innerHTML = `<button type="button" class="secondary" id="block-toggle" aria-pressed="${blocked}">${blocked ? t('unblock') : t('block')}</button>
        <span class="muted" id="block-note">${blocked ? t('blockedNote', { name: escape(profile.name) }) : ''}</span>`;
      $(row, '#block-toggle').onclick = async () => {
        try {
          if (blocked) await api.unblock(profile.id);
          else await api.block(profile.id);
          blocked = !blocked;
          draw();
        } catch (err) {
          $(row, '#block-note').textContent = err.message;
        }
      };
    };
    draw();
  }

  return {
    destroy() {
      alive = false;
      parts.forEach((p) => p.destroy());
    },
  };
}
