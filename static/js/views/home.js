// The lobby: correspondence games waiting for one's move, quick match, private rooms, join by
// code, live games, leaderboard, own ratings. The page lays the cards out; each part wires its
// own (views/home/): play.js, lists.js, your_turn.js.

import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { DAY_PRESETS, PRESETS, clockOptions, escape, isDaysPreset, presetLabel } from '../format.js';
import { renderAccountBox } from '../components/account.js';
import { renderTournamentList } from '../components/tournament_list.js';
import { hasProgress } from '../learn_progress.js';
import { RULESETS, options, remembered, rememberedRoomClock } from './home/common.js';
import { wirePlayCards } from './home/play.js';
import { fillLists } from './home/lists.js';
import { drawYourTurnList } from './home/your_turn.js';

/**
 * The lobby.
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderHome(root, app) {
  const last = remembered();
  // Rated games are for accounts; a guest's boxes stay unticked and say why.
  const account = Boolean(app.session.player.username);
  const ratedBox = (id, checked) => account
    ? `<label class="row"><input type="checkbox" id="${id}" ${checked ? 'checked' : ''}> ${t('rated')}</label>`
    : `<label class="row muted"><input type="checkbox" id="${id}" disabled> ${t('rated')}</label><p class="muted hint">${t('ratedNeedsAccount')}</p>`;
  // Games over days are between accounts: a guest's choices of days stay greyed, and say why.
  if (!account && isDaysPreset(last.preset)) last.preset = '5+3';
  const realTime = isDaysPreset(last.preset) ? '5+3' : last.preset;
  // A newcomer (no lesson done, no account) is shown the way to the first lesson; a returning
  // player has the header's Learn link.
  const newcomer = !account && !hasProgress();
  root.innerHTML = `
  <div class="grid">
    ${newcomer ? `<p class="card learn-invite wide"><span>${t('learnInvite')}</span>
      <a href="/learn/board" data-link class="button primary link-button" id="learn-invite">${t('learnInviteButton')}</a></p>` : ''}
    <section class="card" id="your-turn" aria-labelledby="yt" hidden>
      <h2 id="yt"></h2><p class="notice" id="yt-vacation" hidden></p><p class="muted" id="yt-note"></p><ul class="list" id="yt-list"></ul>
      <h3 id="yt-theirs-h" hidden></h3><ul class="list" id="yt-theirs" aria-labelledby="yt-theirs-h"></ul></section>
    <section class="card" aria-labelledby="qm">
      <h2 id="qm">${t('quickMatch')}</h2>
      <label>${t('ruleset')} <select id="qm-rules">${options(RULESETS, last.rules, (r) => t(`ruleset.${r}`))}</select></label>
      <div class="presets" role="group" aria-label="${t('clock')}">
        ${PRESETS.map((p) => `<button type="button" data-preset="${p.id}" aria-pressed="${p.id === last.preset}">${presetLabel(p.id)}</button>`).join('')}
      </div>
      <p class="preset-group" id="qm-days-label">${t('correspondencePerMove')}</p>
      <div class="presets days" role="group" aria-labelledby="qm-days-label">
        ${DAY_PRESETS.map((p) => `<button type="button" data-preset="${p.id}" aria-pressed="${p.id === last.preset}" ${account ? '' : 'disabled'}>${presetLabel(p.id)}</button>`).join('')}
      </div>
      ${account ? '' : `<p class="muted hint">${t('correspondenceNeedsAccount')}</p>`}
      ${ratedBox('qm-rated', last.rated)}
      <label id="qm-computer-label">${t('computerAfter')} <select id="qm-computer">${options(['', '15', '30', '60'], last.computerAfter ?? '30', (v) => (v ? t('afterS', { s: v }) : t('never')))}</select></label>
      <div id="seek-area"></div>
    </section>
    <section class="card" aria-labelledby="pc">
      <h2 id="pc">${t('playComputer')}</h2>
      <label>${t('level')} <select id="pc-level">${options(['1', '2', '3', '4', '5', '6', '7', '8'], last.level ?? '3', (n) => t('levelN', { n }))}</select></label>
      <label>${t('ruleset')} <select id="pc-rules">${options(RULESETS, last.rules, (r) => t(`ruleset.${r}`))}</select></label>
      <label>${t('clock')} <select id="pc-clock">${options(PRESETS.map((p) => p.id), realTime, presetLabel)}</select></label>
      <label>${t('colour')} <select id="pc-colour">${options(['random', 'red', 'blue'], 'random', (c) => t(c))}</select></label>
      <button type="button" class="primary" id="play-computer">${t('playComputer')}</button>
      <p><a href="/analysis" data-link id="analysis-link">${t('analysisBoard')}</a> ·
        <a href="/editor" data-link id="editor-link">${t('editorTitle')}</a></p>
    </section>
    <section class="card" aria-labelledby="pr">
      <h2 id="pr">${t('privateRoom')}</h2>
      <label>${t('ruleset')} <select id="pr-rules">${options(RULESETS, last.rules, (r) => t(`ruleset.${r}`))}</select></label>
      <label>${t('clock')} <select id="pr-clock">${clockOptions(rememberedRoomClock(), account)}</select></label>
      <label>${t('colour')} <select id="pr-colour">${options(['random', 'red', 'blue'], 'random', (c) => t(c))}</select></label>
      ${ratedBox('pr-rated', false)}
      <button type="button" class="secondary" id="create-room">${t('createRoom')}</button>
      <h3>${t('joinByCode')}</h3>
      <form class="row" id="join-form"><input type="text" id="join-code" aria-label="${t('code')}" placeholder="${t('code')}" maxlength="12" autocomplete="off" class="grow">
      <button type="submit" class="secondary">${t('join')}</button></form>
    </section>
    <section class="card" aria-labelledby="tn"><h2 id="tn">${t('tournaments')}</h2><div id="tournaments"></div></section>
    <section class="card" aria-labelledby="os"><h2 id="os">${t('openSeeks')}</h2><ul class="list" id="open-seeks"></ul></section>
    <section class="card" aria-labelledby="lg"><h2 id="lg">${t('liveGames')}</h2><ul class="list" id="live"></ul></section>
    <section class="card" aria-labelledby="lb"><h2 id="lb">${t('leaderboard')}</h2>
      <select id="lb-rules" aria-label="${t('ruleset')}">${options(RULESETS, last.rules, (r) => t(`ruleset.${r}`))}</select>
      <ol class="list" id="board-list"></ol>
      <p><a href="/leaderboard/${escape(last.rules)}" data-link id="full-leaderboard">${t('fullLeaderboard')}</a></p></section>
    <section class="card" aria-labelledby="yr"><h2 id="yr">${t('yourRatings')} · <a href="/p/${app.session.player.id}" data-link id="my-name" class="whole-name">${escape(app.session.player.name)}</a></h2><ul class="list" id="mine"></ul>
      <h3>${t('account')}</h3><div id="account-box"></div></section>
  </div>`;

  const parts = [
    wirePlayCards(root, app, { last, account }),
    fillLists(root, app, account),
    drawYourTurnList(root, app, account),
    renderAccountBox($(root, '#account-box'), app, app.session.identityChanged),
    renderTournamentList($(root, '#tournaments'), app),
  ];
  return {
    destroy() {
      parts.forEach((part) => part.destroy());
    },
  };
}
