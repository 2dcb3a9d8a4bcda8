// The leaderboard of one ruleset (/leaderboard/classic): the top 100 established ratings, and
// apart from them, marked, the best 50 still provisional. People and bots are ranked apart
// (/leaderboard/classic?bots=1 for the bots).

import * as api from '../api.js';
import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { escape } from '../format.js';

export const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/**
 * @param {HTMLElement} root
 * @param {string} rules
 * @param {boolean} bots the bots' ranking in place of the people's
 * @returns {import('../types.js').View}
 */
export function renderLeaderboard(root, rules, bots = false) {
  if (!RULESETS.includes(rules)) rules = 'classic';
  const query = bots ? '?bots=1' : '';
  root.innerHTML = `<section class="card leaderboard">
    <h1>${t('leaderboardTitle', { rules: t(`ruleset.${rules}`) })}</h1>
    <nav class="tabs" aria-label="${t('ruleset')}">${RULESETS.map((r) => `<a href="/leaderboard/${r}${query}" data-link ${r === rules ? 'aria-current="page"' : ''}>${t(`ruleset.${r}`)}</a>`).join('')}</nav>
    <nav class="tabs" aria-label="${t('whoIsRanked')}"><a href="/leaderboard/${rules}" data-link ${bots ? '' : 'aria-current="page"'}>${t('people')}</a><a href="/leaderboard/${rules}?bots=1" data-link ${bots ? 'aria-current="page"' : ''}>${t('bots')}</a></nav>
    <p class="muted">${t('leaderboardHint')}</p>
    <table class="ranking"><thead><tr><th scope="col">#</th><th scope="col">${t('player')}</th><th scope="col">${t('rating')}</th><th scope="col">${t('gamesShort')}</th></tr></thead>
    <tbody id="ranking"></tbody></table>
    <section id="settling" hidden><h2>${t('provisionalTitle')}</h2><p class="muted">${t('provisionalHint')}</p>
    <table class="ranking"><thead><tr><th scope="col"><span class="sr-only">#</span></th><th scope="col">${t('player')}</th><th scope="col">${t('rating')}</th><th scope="col">${t('gamesShort')}</th></tr></thead>
    <tbody id="provisional"></tbody></table></section></section>`;
  const body = $(root, '#ranking');
  let alive = true;
  api.leaderboard(rules, bots).then((data) => {
    if (!alive) return;
    body.innerHTML = data.players.length
      ? data.players.map((p, i) => `<tr><td>${i + 1}</td><td class="name"><a href="/p/${p.id}" data-link>${escape(p.name)}</a></td><td>${p.rating}</td><td>${p.games}</td></tr>`).join('')
      : `<tr><td colspan="4" class="muted">${t('noRatings')}</td></tr>`;
    // A new site's players are all provisional: listed apart, marked, not ranked.
    const settling = data.provisional ?? [];
    $(root, '#settling').hidden = settling.length === 0;
    $(root, '#provisional').innerHTML = settling
      .map((p) => `<tr><td class="muted">–</td><td class="name"><a href="/p/${p.id}" data-link>${escape(p.name)}</a></td><td>${p.rating}?</td><td>${p.games}</td></tr>`).join('');
  }).catch((err) => {
    if (alive) body.innerHTML = `<tr><td colspan="4" role="alert">${escape(err.message)}</td></tr>`;
  });
  return { destroy() { alive = false; } };
}
