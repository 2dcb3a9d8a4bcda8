// The lobby's card of tournaments (issue 15): upcoming, running and finished arenas with their
// countdowns, and a form to make one. A tournament's own page is views/tournaments.js.

import * as api from '../api.js';
import { describeClock, formatMs } from '../clock.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { t } from '../i18n.js';
import { PRESETS, presetClock, escape, when } from '../format.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];


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
  const bots = tour.bots ? ` <span class="title-badge" title="${t('botsArena')}">BOT</span>` : '';
  return `<li><span><a href="/t/${tour.id}" data-link>${escape(tour.name)}</a>${official}${bots}<br>
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
        <label class="row"><input type="checkbox" id="tour-private" ${app.session.player?.username ? '' : 'checked disabled'}> ${t('privateTournament')}</label>
        ${app.session.player?.username ? '' : `<p class="muted">${t('publicNeedsAccount')}</p>`}
        <label class="row ${app.session.player?.username ? '' : 'muted'}"><input type="checkbox" id="tour-rated" ${app.session.player?.username ? '' : 'disabled'}> ${t('rated')}</label>
        <label class="row ${app.session.player?.username ? '' : 'muted'}"><input type="checkbox" id="tour-bots" ${app.session.player?.username ? '' : 'disabled'}> ${t('botsTournament')}</label>
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
        bots: checkedOf(root, '#tour-bots'),
      });
      app.router.navigate(made.code ? `/t/${made.id}?code=${made.code}` : `/t/${made.id}`);
    } catch (err) {
      $(root, '#tour-error').textContent = err.message;
    }
  };
  return { destroy() { alive = false; clearInterval(timer); clearInterval(ticker); } };
}
