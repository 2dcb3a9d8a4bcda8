// Tournaments in the client (issue 15, begun): the lobby's list of upcoming, running and
// finished arenas, a form to make one, and a tournament's page with its standings.

import * as api from '../api.js';
import { describeClock } from '../clock.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { language, t } from '../i18n.js';
import { PRESETS, presetClock, escape } from './home.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/** @param {string} iso */
function when(iso) {
  return new Date(iso).toLocaleString(language() === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** @param {any} tour */
function line(tour) {
  const rated = tour.rated ? t('rated') : t('casual');
  return `<li><span><a href="/t/${tour.id}" data-link>${escape(tour.name)}</a><br>
    <span class="muted">${t(`ruleset.${tour.rules}`)} ${describeClock(tour.clock, t)} · ${rated} · ${t('playersN', { n: tour.players })} · ${when(tour.starts_at)}</span></span></li>`;
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
        <label class="row"><input type="checkbox" id="tour-private"> ${t('privateTournament')}</label>
        <label class="row ${app.player?.username ? '' : 'muted'}"><input type="checkbox" id="tour-rated" ${app.player?.username ? '' : 'disabled'}> ${t('rated')}</label>
        <p class="error" id="tour-error" role="alert"></p>
        <button type="submit" class="secondary">${t('createTournament')}</button></form></details>`;
  const list = $(root, '#tour-list');
  let alive = true;
  const load = async () => {
    const all = await api.tournaments().catch(() => ({ upcoming: [], running: [], finished: [] }));
    if (!alive) return;
    const shown = [...all.running, ...all.upcoming, ...all.finished.slice(0, 5)];
    list.innerHTML = shown.length ? shown.map(line).join('') : `<li class="muted">${t('noTournaments')}</li>`;
  };
  load();
  const timer = setInterval(load, 15000);
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
      app.navigate(`/t/${made.id}`);
    } catch (err) {
      $(root, '#tour-error').textContent = err.message;
    }
  };
  return { destroy() { alive = false; clearInterval(timer); } };
}

/**
 * A tournament's page: its settings, time and standings.
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {import('../types.js').View}
 */
export function renderTournament(root, id) {
  root.innerHTML = `<section class="card leaderboard"><h1 id="tour-title">…</h1><p class="muted" id="tour-facts"></p>
    <table class="ranking"><thead><tr><th scope="col">#</th><th scope="col">${t('player')}</th><th scope="col">${t('rating')}</th><th scope="col">${t('points')}</th></tr></thead>
    <tbody id="tour-standings"></tbody></table></section>`;
  let alive = true;
  const load = async () => {
    const tour = await api.tournament(id).catch((err) => {
      if (alive) $(root, '#tour-title').textContent = err.message;
      return null;
    });
    if (!tour || !alive) return;
    $(root, '#tour-title').textContent = tour.name;
    $(root, '#tour-facts').textContent = `${t(`ruleset.${tour.rules}`)} ${describeClock(tour.clock, t)} · ${tour.rated ? t('rated') : t('casual')} · ${t(`tournament.${tour.status}`)} · ${when(tour.starts_at)} – ${when(tour.ends_at)}`;
    $(root, '#tour-standings').innerHTML = tour.standings.length
      ? tour.standings.map((s, i) => `<tr><td>${i + 1}</td><td class="name"><a href="/p/${s.player}" data-link>${escape(s.name)}</a></td><td>${s.rating}</td><td>${s.points}${s.streak >= 2 ? ` <span class="streak" title="${t('onStreak')}">×2</span>` : ''}</td></tr>`).join('')
      : `<tr><td colspan="4" class="muted">${t('noEntries')}</td></tr>`;
  };
  load();
  const timer = setInterval(load, 10000);
  return { destroy() { alive = false; clearInterval(timer); } };
}
