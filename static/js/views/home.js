// The lobby: correspondence games waiting for one's move, quick match, private rooms, join by
// code, live games, leaderboard, own ratings.

import * as api from '../api.js';
import { describeClock, formatDays, formatDeadline } from '../clock.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { locale, t } from '../i18n.js';
import { DAY_PRESETS, PRESETS, clockOptions, escape, isDaysPreset, presetClock, presetLabel } from '../format.js';
import { renderAccountBox } from '../components/account.js';
import { renderTournamentList } from '../components/tournament_list.js';
import { hasProgress } from '../learn_progress.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

function remembered() {
  try {
    return { rules: 'classic', preset: '5+3', rated: true, ...JSON.parse(localStorage.getItem('jungle.lastSeek') || '{}') };
  } catch {
    return { rules: 'classic', preset: '5+3', rated: true };
  }
}

function options(values, selected, label) {
  return values.map((v) => `<option value="${v}" ${v === selected ? 'selected' : ''}>${label(v)}</option>`).join('');
}

/**
 * The lobby.
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderHome(root, app) {
  const last = remembered();
  // Rated games are for accounts; a guest's boxes stay unticked and say why.
  const account = Boolean(app.player.username);
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
      <label>${t('clock')} <select id="pr-clock">${clockOptions(last.preset, account)}</select></label>
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
    <section class="card" aria-labelledby="yr"><h2 id="yr">${t('yourRatings')} · <a href="/p/${app.player.id}" data-link id="my-name">${escape(app.player.name)}</a></h2><ul class="list" id="mine"></ul>
      <h3>${t('account')}</h3><div id="account-box"></div></section>
  </div>`;

  let preset = last.preset;
  // A seek over days waits in the open list: the computer never steps in.
  const computerChoice = /** @type {HTMLSelectElement} */ ($(root, '#qm-computer'));
  const showPreset = () => {
    computerChoice.disabled = isDaysPreset(preset);
    $(root, '#qm-computer-label').classList.toggle('muted', isDaysPreset(preset));
  };
  showPreset();
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-preset]'))) {
    button.addEventListener('click', () => {
      preset = button.dataset.preset;
      for (const b of root.querySelectorAll('[data-preset]')) b.setAttribute('aria-pressed', String(b === button));
      showPreset();
    });
  }
  const seekArea = $(root, '#seek-area');
  const drawSeek = () => {
    const { seek } = app.store.state;
    if (seek) {
      const seconds = Math.floor((performance.now() - seek.since) / 1000);
      const waiting = seek.days ? t('correspondenceSeekListed') : t('waiting', { s: seconds });
      seekArea.innerHTML = `<p class="notice" role="status">${waiting}${seek.pool > 1 ? ` · ${t('pool', { n: seek.pool - 1 })}` : ''}</p>
        <button type="button" class="danger" id="cancel-seek">${t('cancel')}</button>`;
      $(seekArea, '#cancel-seek').onclick = () => app.send({ t: 'cancel_seek' });
    } else {
      seekArea.innerHTML = `<button type="button" class="primary" id="play">${t('play')}</button>`;
      $(seekArea, '#play').onclick = () => {
        const rules = valueOf(root, '#qm-rules');
        const rated = account && checkedOf(root, '#qm-rated');
        const computerAfter = valueOf(root, '#qm-computer');
        localStorage.setItem('jungle.lastSeek', JSON.stringify({ ...remembered(), rules, preset, rated: account ? rated : last.rated, computerAfter }));
        const days = isDaysPreset(preset);
        const frame = { t: 'seek', rules, clock: presetClock(preset, rules), rated };
        if (computerAfter && !days) frame.computer_after_s = Number(computerAfter);
        app.send(frame);
        app.store.set({ seek: { since: performance.now(), pool: 0, days } }, 'seek');
      };
    }
  };
  drawSeek();
  // A seek over days says the same thing all along: only the seconds of others are redrawn.
  app.tickers.push(() => app.store.state.seek && !app.store.state.seek.days && drawSeek());
  const stopSeekNews = app.store.subscribe('seek', drawSeek);

  $(root, '#play-computer').onclick = () => {
    const rules = valueOf(root, '#pc-rules');
    const level = valueOf(root, '#pc-level');
    localStorage.setItem('jungle.lastSeek', JSON.stringify({ ...remembered(), level }));
    app.send({
      t: 'play_computer',
      rules,
      clock: presetClock(valueOf(root, '#pc-clock'), rules),
      level: Number(level),
      color: valueOf(root, '#pc-colour'),
    });
  };
  $(root, '#create-room').onclick = () => {
    const rules = valueOf(root, '#pr-rules');
    app.send({
      t: 'create_room',
      rules,
      clock: presetClock(valueOf(root, '#pr-clock'), rules),
      rated: account && checkedOf(root, '#pr-rated'),
      color: valueOf(root, '#pr-colour'),
    });
  };
  $(root, '#join-form').onsubmit = (e) => {
    e.preventDefault();
    const code = valueOf(root, '#join-code').trim().toUpperCase();
    if (code) app.navigate(`/r/${code}`);
  };

  const live = $(root, '#live');
  const loadLive = async () => {
    const games = await api.liveGames().catch(() => []);
    live.innerHTML = games.length
      ? games.map((g) => `<li><span>${nameLink(g.red, g.red_id, g.red_title)} (${g.red_rating}) – ${nameLink(g.blue, g.blue_id, g.blue_title)} (${g.blue_rating}) · ${t(`ruleset.${g.rules}`)} ${describeClock(g.clock, t)}</span>
          <a href="/g/${g.id}" data-link>${t('watch')}</a></li>`).join('')
      : `<li class="muted">${t('noLiveGames')}</li>`;
  };
  loadLive();
  const liveTimer = setInterval(loadLive, 10000);

  // Others' seeks, to take with a click (a rated one needs an account).
  const openList = $(root, '#open-seeks');
  const loadSeeks = async () => {
    const seeks = (await api.openSeeks().catch(() => [])).filter((s) => s.player.id !== app.player.id);
    // Rated games and games over days are an account's.
    openList.innerHTML = seeks.length
      ? seeks.slice(0, 20).map((s) => `<li><span>${nameLink(s.player.name, s.player.id)} (${s.rating}${s.provisional ? '?' : ''}) · ${t(`ruleset.${s.rules}`)} ${describeClock(s.clock, t)} · ${s.rated ? t('rated') : t('casual')}</span>
          <button type="button" class="secondary" data-seek="${s.id}" ${(s.rated || s.clock.kind === 'days') && !account ? 'disabled' : ''}>${t('play')}</button></li>`).join('')
      : `<li class="muted">${t('noOpenSeeks')}</li>`;
  };
  openList.onclick = (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest?.('[data-seek]')?.getAttribute('data-seek');
    if (id) app.send({ t: 'accept_seek', seek: id });
  };
  loadSeeks();
  const seeksTimer = setInterval(loadSeeks, 5000);

  // Elements are looked up now, not when a request answers: by then the player may have
  // moved on to another view, and `root` holds that view instead.
  const lbRules = /** @type {HTMLSelectElement} */ ($(root, '#lb-rules'));
  const boardList = $(root, '#board-list');
  const mine = $(root, '#mine');
  const loadBoard = async () => {
    const data = await api.leaderboard(lbRules.value).catch(() => ({ players: [] }));
    boardList.innerHTML = data.players.length
      ? data.players.slice(0, 20).map((p) => `<li><a href="/p/${p.id}" data-link>${escape(p.name)}</a><span>${p.rating}${p.provisional ? '?' : ''}</span></li>`).join('')
      : `<li class="muted">${t('noRatings')}</li>`;
  };
  lbRules.onchange = loadBoard;
  loadBoard();

  api.profile(app.player.id).then((profile) => {
    const row = (label, rating) => `<li><span>${label}</span><span>${Math.round(rating.rating)}${rating.provisional ? '?' : ''} · ${t('games', { n: rating.games })}</span></li>`;
    // Correspondence ratings apart, for the rulesets played over days.
    const byDays = RULESETS.filter((r) => profile.correspondence_ratings?.[r]?.games > 0);
    mine.innerHTML = RULESETS.map((r) => row(t(`ruleset.${r}`), profile.ratings[r])).join('')
      + byDays.map((r) => row(`${t(`ruleset.${r}`)} · ${t('correspondence')}`, profile.correspondence_ratings[r])).join('')
      + `<li class="muted">${t('leaveRecord', { d: profile.disconnects ?? 0, a: profile.aborts ?? 0 })}</li>`;
  }).catch(() => {});

  // Correspondence games waiting for this player's move (the header's badge keeps the list,
  // and fetches it afresh as the lobby opens).
  const yourTurn = $(root, '#your-turn');
  // The header's badge links here: the list is shown once it has come.
  let scrollTo = location.hash === '#your-turn';
  const drawYourTurn = () => {
    const waiting = app.store.state.waiting;
    const theirs = waiting?.opponents_turn ?? [];
    yourTurn.hidden = !account || !waiting || (!waiting.games.length && !theirs.length && !waiting.in_progress);
    if (yourTurn.hidden) return;
    if (scrollTo) {
      scrollTo = false;
      requestAnimationFrame(() => yourTurn.scrollIntoView({ block: 'nearest' }));
    }
    const n = waiting.games.length;
    // A vacation this browser knows of (read on the settings page, where it is taken): its end.
    const vacationEnd = api.knownVacationEnd();
    const vacation = $(yourTurn, '#yt-vacation');
    vacation.hidden = vacationEnd == null;
    if (vacationEnd != null) {
      vacation.innerHTML = `<a href="/settings" data-link>${t('vacationLobby', { when: formatDeadline(vacationEnd, locale()) })}</a>`;
    }
    $(yourTurn, '#yt').textContent = n ? t('yourTurnInN', { n }) : t('correspondence');
    $(yourTurn, '#yt-note').textContent = n ? t('correspondenceInProgress', { n: waiting.in_progress }) : `${t('noGameWaiting')} ${t('correspondenceInProgress', { n: waiting.in_progress })}`;
    /**
     * One game of the list: the opponent, the ruleset and clock, the time left to the side to
     * move (the reader's, or the opponent's) until when, and the way to the game.
     * @param {import('../types.js').WaitingGame} g
     * @param {boolean} mine
     */
    const row = (g, mine) => {
      const left = Math.max(0, g.left_ms - (Date.now() - waiting.at));
      const until = t('untilWhen', { when: formatDeadline(waiting.at + g.left_ms, locale()) });
      const leftText = `<strong>${formatDays(left, t)}</strong>`;
      const timing = `${mine ? t('timeLeft', { left: leftText }) : t('opponentTimeLeft', { left: leftText })} · <span class="nowrap">${until}</span>`;
      const button = mine
        ? `<a href="/g/${g.id}" data-link class="button primary link-button">${t('makeMove')}</a>`
        : `<a href="/g/${g.id}" data-link class="button secondary link-button">${t('openGame')}</a>`;
      return `<li class="game-row"><span>${nameLink(g.opponent.name, g.opponent.id)} · ${t(`ruleset.${g.rules}`)} · ${describeClock(g.clock, t)}<br>
        <span class="muted">${timing}</span></span>
        ${button}</li>`;
    };
    $(yourTurn, '#yt-list').innerHTML = waiting.games.map((g) => row(g, true)).join('');
    // The games waiting for the opponent's move: reopened from here (to read them, or give a day).
    const theirsHeading = $(yourTurn, '#yt-theirs-h');
    theirsHeading.hidden = !theirs.length;
    theirsHeading.textContent = t('opponentsTurnGames');
    $(yourTurn, '#yt-theirs').innerHTML = theirs.map((g) => row(g, false)).join('');
  };
  drawYourTurn();
  const stopWaitingNews = app.store.subscribe('waiting', drawYourTurn);
  const yourTurnTimer = setInterval(drawYourTurn, 30000);
  app.store.tell('correspondence');

  const accountBox = renderAccountBox($(root, '#account-box'), app, app.identityChanged);
  const tournamentList = renderTournamentList($(root, '#tournaments'), app);

  return {
    destroy() {
      accountBox.destroy();
      tournamentList.destroy();
      clearInterval(liveTimer);
      clearInterval(seeksTimer);
      clearInterval(yourTurnTimer);
      stopSeekNews();
      stopWaitingNews();
    },
  };
}

/**
 * A player's name as a link to their profile (plain text when the id is unknown), after
 * their title (BOT) if they have one.
 * @param {string} name
 * @param {string | null | undefined} id
 * @param {string | null} [title]
 */
function nameLink(name, id, title) {
  const badge = title ? `<span class="title-badge" title="${t('botTitle')}">${escape(title)}</span> ` : '';
  return badge + (id ? `<a href="/p/${id}" data-link>${escape(name)}</a>` : escape(name));
}
