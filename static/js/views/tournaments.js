// Tournaments in the client (issue 15): the lobby's list of upcoming, running and finished
// arenas with their countdowns, a form to make one, and a tournament's page with live
// standings, joining and withdrawing.

import * as api from '../api.js';
import { describeClock, formatMs } from '../clock.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { errorText, locale, t } from '../i18n.js';
import { PRESETS, presetClock, escape } from '../format.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/** @param {string} iso */
function when(iso) {
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * When a listed tournament starts or ends, counted down on the lobby.
 * @param {any} tour
 */
function countdown(tour) {
  const at = Date.parse(tour.status === 'upcoming' ? tour.starts_at : tour.ends_at);
  if (tour.status === 'finished') return `${t('tournament.finished')} · ${when(tour.ends_at)}`;
  const label = tour.status === 'upcoming' ? t('startsIn') : t('endsIn');
  return `${label} <span class="countdown" data-at="${at}">${formatMs(Math.max(0, at - Date.now()))}</span>`;
}

/** @param {any} tour */
function line(tour) {
  const rated = tour.rated ? t('rated') : t('casual');
  const official = tour.official ? ` <span class="badge official" title="${t('officialTournament')}">★ ${t('officialShort')}</span>` : '';
  return `<li><span><a href="/t/${tour.id}" data-link>${escape(tour.name)}</a>${official}<br>
    <span class="muted">${t(`ruleset.${tour.rules}`)} ${describeClock(tour.clock, t)} · ${rated} · ${t('playersN', { n: tour.players })} · ${countdown(tour)}</span></span></li>`;
}

/**
 * The lobby's tournaments card.
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderTournamentList(root, app) {
  root.innerHTML = `<ul class="list" id="tour-list"></ul>
    <details class="action-panel"><summary>${t('newTournament')}</summary>
      <form id="tour-form">
        <label>${t('tournamentName')} <input type="text" id="tour-name" maxlength="40" required></label>
        <label>${t('ruleset')} <select id="tour-rules">${RULESETS.map((r) => `<option value="${r}">${t(`ruleset.${r}`)}</option>`).join('')}</select></label>
        <label>${t('clock')} <select id="tour-clock">${PRESETS.map((p) => `<option value="${p.id}">${p.id === '30s' ? t('perMove', { s: 30 }) : p.id}</option>`).join('')}</select></label>
        <label>${t('minutes')} <select id="tour-minutes">${[20, 30, 45, 60, 90, 120].map((m) => `<option value="${m}" ${m === 30 ? 'selected' : ''}>${m}</option>`).join('')}</select></label>
        <label class="row"><input type="checkbox" id="tour-private" ${app.player?.username ? '' : 'checked disabled'}> ${t('privateTournament')}</label>
        ${app.player?.username ? '' : `<p class="muted">${t('publicNeedsAccount')}</p>`}
        <label class="row ${app.player?.username ? '' : 'muted'}"><input type="checkbox" id="tour-rated" ${app.player?.username ? '' : 'disabled'}> ${t('rated')}</label>
        <p class="error" id="tour-error" role="alert"></p>
        <button type="submit" class="secondary">${t('createTournament')}</button></form></details>`;
  const list = $(root, '#tour-list');
  const pager = document.createElement('p');
  pager.className = 'row pager';
  list.after(pager);
  let alive = true;
  let page = 1;
  const load = async () => {
    const all = await api.tournaments(page).catch(() => ({ upcoming: [], running: [], finished: [], page: 1, pages: 1 }));
    if (!alive) return;
    // The operator's arenas come first on every page, then the players' by players and start.
    const open = [...all.upcoming, ...all.running].sort((a, b) => Number(b.official) - Number(a.official));
    const shown = [...open, ...all.finished.slice(0, 5)];
    list.innerHTML = shown.length ? shown.map(line).join('') : `<li class="muted">${t('noTournaments')}</li>`;
    const pages = all.pages || 1;
    pager.innerHTML = pages > 1
      ? `<button type="button" class="secondary" data-page="${page - 1}" ${page <= 1 ? 'disabled' : ''} aria-label="${t('previousPage')}">‹</button>
         <span>${t('pageOf', { n: page, total: pages })}</span>
         <button type="button" class="secondary" data-page="${page + 1}" ${page >= pages ? 'disabled' : ''} aria-label="${t('nextPage')}">›</button>`
      : '';
  };
  pager.onclick = (e) => {
    const to = /** @type {HTMLElement} */ (e.target).closest?.('[data-page]')?.getAttribute('data-page');
    if (to) {
      page = Math.max(1, Number(to));
      load();
    }
  };
  load();
  const timer = setInterval(load, 15000);
  const ticker = setInterval(() => {
    for (const el of list.querySelectorAll('.countdown')) {
      el.textContent = formatMs(Math.max(0, Number(/** @type {HTMLElement} */ (el).dataset.at) - Date.now()));
    }
  }, 1000);
  $(root, '#tour-form').onsubmit = async (e) => {
    e.preventDefault();
    const rules = valueOf(root, '#tour-rules');
    try {
      const made = await api.createTournament({
        name: valueOf(root, '#tour-name'),
        rules,
        clock: presetClock(valueOf(root, '#tour-clock'), rules),
        minutes: Number(valueOf(root, '#tour-minutes')),
        rated: checkedOf(root, '#tour-rated'),
        private: checkedOf(root, '#tour-private'),
      });
      app.navigate(made.code ? `/t/${made.id}?code=${made.code}` : `/t/${made.id}`);
    } catch (err) {
      $(root, '#tour-error').textContent = err.message;
    }
  };
  return { destroy() { alive = false; clearInterval(timer); clearInterval(ticker); } };
}

/** @typedef {{ n: number, player: string, name: string, rating: number, points: number, games: number, streak: number, game?: string | null, paused?: boolean }} Line */

/**
 * One line of the standings.
 * @param {number} rank
 * @param {Line} s
 * @param {string | undefined} me
 */
function standingRow(rank, s, me) {
  const streak = s.streak >= 2 ? ` <span class="streak" title="${t('onStreak')}" aria-label="${t('onStreak')}">🔥${s.streak}</span>` : '';
  const paused = s.paused ? ` <span class="muted paused">${t('paused')}</span>` : '';
  const watch = s.game ? `<a href="/g/${s.game}" data-link title="${t('watchGame')}" aria-label="${t('watchGame')}">▶</a>` : '';
  return `<td>${rank}</td><td class="name${s.player === me ? ' me' : ''}"><a href="/p/${s.player}" data-link title="${escape(s.name)}">${escape(s.name)}</a>${paused}</td>
    <td>${s.rating}</td><td>${s.points}${streak}</td><td>${s.games}</td><td class="watch">${watch}</td>`;
}

/**
 * A tournament's page: its settings, the time left, joining and withdrawing, and standings
 * that follow the server's `tournament_standings` frames: lines by player number and the
 * ranking; a row is redrawn only when the player at its rank, or that player's line, changed
 * (a page with 500 players redraws only what changed).
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {string} id
 * @param {string | null} code the join code of a private tournament, from its link
 * @returns {import('../types.js').View}
 */
export function renderTournament(root, app, id, code) {
  root.innerHTML = `<section class="card leaderboard tournament"><h1 id="tour-title">…</h1><p class="muted" id="tour-facts"></p>
    <p class="tour-time"><strong id="tour-status"></strong> <span id="tour-left" class="clock-text"></span></p>
    <p class="row" id="tour-actions"><button type="button" class="primary" id="tour-join" hidden>${t('joinTournament')}</button>
    <button type="button" class="secondary" id="tour-withdraw" hidden>${t('withdraw')}</button></p>
    <p class="notice" id="tour-share" hidden></p>
    <p class="error" id="tour-error" role="alert"></p>
    <table class="ranking standings"><thead><tr><th scope="col">#</th><th scope="col">${t('player')}</th><th scope="col">${t('rating')}</th><th scope="col">${t('points')}</th><th scope="col">${t('gamesShort')}</th><th scope="col"><span class="sr-only">${t('watchGame')}</span></th></tr></thead>
    <tbody id="tour-standings"><tr><td colspan="6" class="muted">${t('noEntries')}</td></tr></tbody></table></section>`;
  const tbody = /** @type {HTMLTableSectionElement} */ ($(root, '#tour-standings'));
  const joinButton = /** @type {HTMLButtonElement} */ ($(root, '#tour-join'));
  const withdrawButton = /** @type {HTMLButtonElement} */ ($(root, '#tour-withdraw'));
  const me = app.player?.id;
  /** @type {Map<number, Line>} lines by player number */
  const lines = new Map();
  /** @type {number[]} player numbers, best first */
  let order = [];
  /** @type {Array<Line | undefined>} the line each row shows now */
  let drawn = [];
  let seq = -1;
  let status = '';
  let endsAt = 0;
  /** @type {boolean | null} whether we are being paired; null: not known yet */
  let active = null;
  let alive = true;

  const drawActions = () => {
    const open = status === 'upcoming' || status === 'running';
    const mine = [...lines.values()].find((l) => l.player === me);
    if (active === null && mine) active = !mine.paused;
    joinButton.hidden = !open || active === true;
    joinButton.textContent = mine ? t('rejoinTournament') : t('joinTournament');
    withdrawButton.hidden = !open || active !== true;
  };
  const drawTime = () => {
    $(root, '#tour-status').textContent = status ? t(`tournament.${status}`) : '';
    const left = Math.max(0, endsAt - performance.now());
    $(root, '#tour-left').textContent = status === 'finished' || !status ? '' : `${status === 'upcoming' ? t('startsIn') : t('endsIn')} ${formatMs(left)}`;
  };
  const drawTable = () => {
    if (!order.length) {
      tbody.innerHTML = `<tr><td colspan="6" class="muted">${t('noEntries')}</td></tr>`;
      drawn = [];
      return;
    }
    if (!drawn.length) tbody.innerHTML = '';
    order.forEach((n, i) => {
      const line = lines.get(n);
      if (!line || drawn[i] === line) return;
      const row = tbody.rows[i] ?? tbody.insertRow();
      row.innerHTML = standingRow(i + 1, line, me);
      drawn[i] = line;
    });
    while (tbody.rows.length > order.length) tbody.deleteRow(-1);
    drawn.length = order.length;
  };
  /** @param {any} frame */
  app.onTournament = (frame) => {
    if (frame.id !== id) return;
    if (frame.t === 'tournament_entry') {
      active = frame.active;
      $(root, '#tour-error').textContent = '';
      drawActions();
      return;
    }
    if (!frame.full && frame.seq !== seq + 1) {
      // A gap: ask for the whole table again.
      if (frame.seq > seq) app.send({ t: 'watch_tournament', id });
      return;
    }
    seq = frame.seq;
    status = frame.status;
    endsAt = performance.now() + frame.ms_left;
    if (frame.full) lines.clear();
    for (const line of frame.lines) lines.set(line.n, line);
    if (frame.order) order = frame.order;
    drawTable();
    drawTime();
    drawActions();
  };
  app.onTournamentError = (frame) => {
    $(root, '#tour-error').textContent = errorText(frame.code, frame.message);
  };
  joinButton.onclick = () => app.send(code ? { t: 'join_tournament', id, code } : { t: 'join_tournament', id });
  withdrawButton.onclick = () => app.send({ t: 'withdraw', id });
  app.send({ t: 'watch_tournament', id });
  api.tournament(id).then((tour) => {
    if (!alive) return;
    $(root, '#tour-title').textContent = tour.name;
    document.title = `${tour.name} · Jungle Arena`;
    $(root, '#tour-facts').textContent = `${t(`ruleset.${tour.rules}`)} ${describeClock(tour.clock, t)} · ${tour.rated ? t('rated') : t('casual')} · ${when(tour.starts_at)} – ${when(tour.ends_at)}`;
    if (tour.private && code) {
      const share = $(root, '#tour-share');
      share.hidden = false;
      share.innerHTML = `${t('shareTournament')} <input type="text" readonly aria-label="${t('shareTournament')}" value="${escape(`${location.origin}/t/${id}?code=${code}`)}">`;
    }
  }).catch((err) => {
    if (alive) $(root, '#tour-title').textContent = err.message;
  });
  const timer = setInterval(drawTime, 1000);
  return {
    destroy() {
      alive = false;
      clearInterval(timer);
      app.onTournament = null;
      app.onTournamentError = null;
      app.send({ t: 'unwatch_tournament', id });
    },
  };
}
