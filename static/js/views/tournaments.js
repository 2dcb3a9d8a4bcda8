// A tournament's page (issue 15): its settings, the time left, joining and withdrawing, and
// live standings. The lobby's list of tournaments is components/tournament_list.js.

import { setPageTitle } from '../tab_title.js';
import * as api from '../api.js';
import { describeClock, formatMs } from '../clock.js';
import { $ } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { escape, when } from '../format.js';

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
  const me = app.session.player?.id;
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
  /** An arena for bots: people watch it, they do not join. */
  let forBots = false;
  let alive = true;

  const drawActions = () => {
    const open = status === 'upcoming' || status === 'running';
    const mine = [...lines.values()].find((l) => l.player === me);
    if (active === null && mine) active = !mine.paused;
    joinButton.hidden = !open || active === true || forBots;
    joinButton.textContent = mine ? t('rejoinTournament') : t('joinTournament');
    withdrawButton.hidden = !open || active !== true;
  };
  const drawTime = () => {
    $(root, '#tour-status').textContent = status ? t(`tournament.${status}`) : '';
    const left = Math.max(0, endsAt - performance.now());
    $(root, '#tour-left').textContent = status === 'finished' || !status ? '' : `· ${status === 'upcoming' ? t('startsIn') : t('endsIn')} ${formatMs(left)}`;
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
  const onNews = (frame) => {
    if (frame.id !== id) return;
    if (frame.t === 'tournament_entry') {
      active = frame.active;
      $(root, '#tour-error').textContent = '';
      drawActions();
      return;
    }
    if (!frame.full && frame.seq !== seq + 1) {
      // A gap: ask for the whole table again.
      if (frame.seq > seq) app.session.send({ t: 'watch_tournament', id });
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
  const unsubscribe = [
    app.store.subscribe('tournament', onNews),
    app.store.subscribe('tournament_error', (frame) => {
      $(root, '#tour-error').textContent = errorText(frame.code, frame.message);
    }),
  ];
  joinButton.onclick = () => app.session.send(code ? { t: 'join_tournament', id, code } : { t: 'join_tournament', id });
  withdrawButton.onclick = () => app.session.send({ t: 'withdraw', id });
  app.session.send({ t: 'watch_tournament', id });
  api.tournament(id).then((tour) => {
    if (!alive) return;
    $(root, '#tour-title').textContent = tour.name;
    setPageTitle(`${tour.name} · Jungle Arena`);
    $(root, '#tour-facts').textContent = `${t(`ruleset.${tour.rules}`)} ${describeClock(tour.clock, t)} · ${tour.rated ? t('rated') : t('casual')} · ${when(tour.starts_at)} – ${when(tour.ends_at)}`;
    if (tour.bots) {
      forBots = true;
      $(root, '#tour-title').innerHTML = `<span class="title-badge" title="${t('botsArena')}">BOT</span> ${escape(tour.name)}`;
      $(root, '#tour-facts').textContent += ` · ${t('botsArena')}`;
      drawActions();
    }
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
      unsubscribe.forEach((stop) => stop());
      app.session.send({ t: 'unwatch_tournament', id });
    },
  };
}
