// Boots the client: identity, the socket, the router, and the frames that change app state.

import { markMove } from './focus.js';
import * as api from './api.js';
import { LANGUAGES, errorText, language, setLanguage, t, translatePage } from './i18n.js';
import { connect } from './socket.js';
import * as sound from './sound.js';
import { $ } from './dom.js';
import { renderHome } from './views/home.js';
import { escape } from './format.js';
import { renderGame } from './views/game.js';
import { renderRules } from './views/rules.js';
import { renderSignIn } from './components/account.js';
import { renderProfile } from './views/profile.js';
import { renderLeaderboard } from './views/leaderboard.js';
import { renderSettings, renderReset } from './views/settings.js';
import { createChallengeNotices } from './components/challenge.js';
import { createTurnBadge } from './components/turn_badge.js';
import { renderAnalysis } from './views/analysis.js';
import { renderPuzzles } from './views/puzzles.js';
import { renderLearn } from './views/learn.js';
import { hasProgress } from './learn_progress.js';
import { renderEditor } from './views/editor.js';
import { renderTournament } from './views/tournaments.js';
import { renderInvite } from './views/invite.js';
import * as preferences from './preferences.js';
import { createStore } from './store.js';

const root = $(document, '#app');
const statusBar = $(document, '#status');
const challengeNotices = createChallengeNotices($(document, '#notices'), (frame) => app.send(frame));

/** @type {import('./types.js').App} */
const app = {
  player: api.storedPlayer(),
  socket: null,
  route: null,
  view: null,
  store: createStore((effect) => carryOut(effect)),
  tickers: [],
  send(frame) {
    app.socket?.send(markMove(frame));
  },
  identityChanged: () => identityChanged(),
  playerStored() {
    app.player = api.storedPlayer();
  },
  forgetPlayer() {
    api.forgetPlayer();
    app.player = null;
    app.socket?.close();
    app.socket = null;
  },
  navigate(path, replace = false) {
    if (replace) history.replaceState({}, '', path);
    else history.pushState({}, '', path);
    route();
  },
};
/** @type {any} */ (window).jungleApp = app; // for debugging in the console
// The correspondence games waiting for the reader's move, on every page.
const turnBadge = createTurnBadge(/** @type {HTMLAnchorElement} */ ($(document, '#turn-badge')), app);

function parseRoute() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/g\/([0-9a-f-]{36})$/i))) return { name: 'game', id: m[1].toLowerCase() };
  if ((m = path.match(/^\/r\/([A-Za-z0-9]{1,12})$/))) return { name: 'room', code: m[1].toUpperCase() };
  if ((m = path.match(/^\/rules\/(\w+)$/))) return { name: 'rules', rules: m[1] };
  if ((m = path.match(/^\/@\/([A-Za-z][A-Za-z0-9_-]{1,19})$/))) return { name: 'profile', username: m[1] };
  if ((m = path.match(/^\/p\/([0-9a-f-]{36})$/i))) return { name: 'profile', id: m[1].toLowerCase() };
  if ((m = path.match(/^\/leaderboard(?:\/(\w+))?$/))) {
    return { name: 'leaderboard', rules: m[1] || 'classic', bots: new URLSearchParams(location.search).has('bots') };
  }
  if (path === '/settings') return { name: 'settings' };
  if (path === '/analysis') return { name: 'analysis' };
  if (path === '/puzzles') return { name: 'puzzles' };
  if ((m = path.match(/^\/puzzles\/([a-z0-9]{8})$/))) return { name: 'puzzles', id: m[1] };
  if (path === '/editor') return { name: 'editor' };
  if (path === '/learn') return { name: 'learn' };
  if ((m = path.match(/^\/learn\/([a-z0-9-]{1,64})$/))) return { name: 'learn', chapter: m[1] };
  if ((m = path.match(/^\/t\/([0-9a-f-]{36})$/i))) {
    // A private tournament's link carries its join code.
    const code = new URLSearchParams(location.search).get('code');
    return { name: 'tournament', id: m[1].toLowerCase(), code: code ? code.toUpperCase().slice(0, 12) : undefined };
  }
  if ((m = path.match(/^\/reset\/([0-9a-f]{64})$/))) return { name: 'reset', code: m[1] };
  if (path === '/' || path === '') return { name: 'home' };
  return { name: 'notfound' };
}

function showStatus(text) {
  statusBar.hidden = !text;
  statusBar.textContent = text || '';
}

/** Shows `view` in place of the current one, which lets go of everything it held. */
function show(view) {
  app.view?.destroy();
  app.view = view;
}

/** The game page shown, if one is (it redraws itself when the store's game changes). */
let gameView = null;

/** Shows the game page for the store's game. */
function showGame() {
  const view = renderGame(root, app);
  show(view);
  gameView = view;
  const destroy = view.destroy;
  view.destroy = () => {
    gameView = null;
    destroy();
  };
}

/**
 * A game's state arrived: its page opens (or, for another game on the page shown, a rematch
 * followed, opens afresh); the page of the same game redraws by itself.
 * @param {string} id
 * @param {boolean} arriving
 */
function openGame(id, arriving) {
  if (app.route?.name !== 'game' || app.route.id !== id) app.navigate(`/g/${id}`, app.route?.name === 'room');
  else if (arriving && gameView) route();
  else if (!gameView) showGame();
}

/**
 * What a frame's reducer asks of the page besides its state.
 * @param {import('./reducers.js').Effect} effect
 */
function carryOut(effect) {
  if ('sound' in effect) sound.play(effect.sound);
  else if ('send' in effect) app.send(effect.send);
  else if ('openGame' in effect) openGame(effect.openGame, effect.arriving);
  // Focused for screen readers, without scrolling the board away on a phone (the result also
  // stands in the bar under the board).
  else if ('focusEnd' in effect) /** @type {HTMLElement | null} */ (root.querySelector('#end'))?.focus?.({ preventScroll: true });
}

/**
 * Whether the socket keeps following game `id` once its page is left: a game in one sitting
 * that the reader plays, still in progress (its moves and clock must keep reaching them).
 * @param {string} id
 */
function keptFollowed(id) {
  const game = app.store.state.game;
  return game?.game === id && game.you != null && game.clock?.kind !== 'days'
    && game.status !== 'finished' && game.status !== 'aborted';
}

/** The games this socket stopped following when their page was left: watched again on return. */
const unwatched = new Set();

/**
 * The page of game `id` is left for another page or game: the socket stops following it
 * (a connection follows at most 32 games), unless it is kept followed.
 * @param {string} id
 */
function leaveGame(id) {
  if (keptFollowed(id)) return;
  app.send({ t: 'unwatch', game: id });
  unwatched.add(id);
}

function route() {
  show(null);
  app.tickers = [];
  const left = app.route;
  app.route = parseRoute();
  if (left?.name === 'game' && !(app.route.name === 'game' && app.route.id === left.id)) leaveGame(left.id);
  translatePage();
  drawToggles();
  turnBadge.redraw();
  // A reset link works on any device, signed in or not; so does a wrong address.
  if (app.route.name === 'reset') {
    show(renderReset(root, app.route.code, app));
    return;
  }
  if (app.route.name === 'notfound') {
    root.innerHTML = `<section class="card narrow" role="alert"><h1>404</h1>
      <p>${t('notFound')}</p><p><a href="/" data-link>${t('notFoundBack')}</a></p></section>`;
    return;
  }
  if (app.route.name === 'room') {
    const code = app.route.code;
    const join = () => {
      ensureSocket();
      root.innerHTML = `<p class="card">${t('loading')}</p>`;
      app.send({ t: 'join_room', code });
    };
    show(renderInvite(root, app, code, join, renderNamePrompt));
    return;
  }
  // The lessons need no player until a practice game starts (a first visit reaches them in
  // one click, before choosing a name).
  if (app.route.name === 'learn') {
    if (app.player) ensureSocket();
    show(renderLearn(root, app, app.route.chapter ?? null));
    return;
  }
  if (!app.player) {
    renderNamePrompt();
    return;
  }
  ensureSocket();
  switch (app.route.name) {
    case 'rules':
      show(renderRules(root, app.route.rules));
      break;
    case 'profile': {
      const report = new URLSearchParams(location.search).get('report');
      show(renderProfile(root, app, { username: app.route.username, id: app.route.id, report }));
      break;
    }
    case 'leaderboard':
      show(renderLeaderboard(root, app.route.rules, app.route.bots));
      break;
    case 'settings':
      show(renderSettings(root, app));
      break;
    case 'analysis':
      show(renderAnalysis(root, app));
      break;
    case 'puzzles':
      show(renderPuzzles(root, app, app.route.id ?? null));
      break;
    case 'editor':
      show(renderEditor(root, app));
      break;
    case 'tournament':
      show(renderTournament(root, app, app.route.id, app.route.code ?? null));
      break;

    case 'game':
      if (app.store.state.game?.game === app.route.id) {
        showGame();
        // Left earlier: its state here may be old, and the socket follows it again.
        if (unwatched.delete(app.route.id)) app.send({ t: 'watch', game: app.route.id });
      } else {
        unwatched.delete(app.route.id);
        root.innerHTML = `<p class="card">${t('connecting')}</p>`;
        app.send({ t: 'watch', game: app.route.id });
      }
      break;
    default:
      show(renderHome(root, app));
  }
}

/** The first visit's name card; `note` says why it is asked (a room link's game to watch). */
function renderNamePrompt(note = '') {
  // A newcomer reaches the first lesson from here in one click.
  const learn = note ? '' : `<p class="learn-invite"><span>${t(hasProgress() ? 'learnInviteBack' : 'learnInvite')}</span>
    <a href="${hasProgress() ? '/learn' : '/learn/board'}" data-link class="button secondary link-button" id="learn-invite">${t(hasProgress() ? 'learnContinue' : 'learnInviteButton')}</a></p>`;
  root.innerHTML = `<section class="card narrow">
    ${note ? `<p class="notice" role="status">${escape(note)}</p>` : ''}${learn}
    <h1>${t('chooseName')}</h1>
    <form id="name-form"><label for="name">${t('chooseName')}</label>
    <input type="text" id="name" maxlength="24" autocomplete="nickname" required aria-describedby="name-hint">
    <p class="muted" id="name-hint">${t('nameHint')}</p>
    <p class="error" id="name-error" role="alert"></p>
    <p class="row"><button type="submit" class="primary">${t('start')}</button>
    <button type="button" class="secondary" id="play-now">${t('playNow')}</button></p></form></section>
    <section class="card narrow-below" id="sign-in"></section>`;
  show(renderSignIn($(root, '#sign-in'), app.identityChanged));
  const input = /** @type {HTMLInputElement} */ ($(root, '#name'));
  input.focus();
  const error = $(root, '#name-error');
  /** @param {string | undefined} name absent: the server names the guest */
  const start = async (name) => {
    try {
      await api.createPlayer(name);
      app.playerStored();
      route();
    } catch (err) {
      error.textContent = err.message;
    }
  };
  $(root, '#name-form').onsubmit = (e) => {
    e.preventDefault();
    start(input.value);
  };
  $(root, '#play-now').onclick = () => start(undefined);
}

/** The player signed in, out, or became an account: start again as whoever is stored now. */
function identityChanged() {
  app.playerStored();
  app.store.reset();
  app.socket?.close();
  app.socket = null;
  unwatched.clear();
  challengeNotices.clear();
  turnBadge.restart();
  route();
  loadAccountSettings();
}

/** An account's display settings follow it to this device. */
function loadAccountSettings() {
  if (!app.player?.username) return;
  preferences.loadForAccount().then((relabel) => {
    drawToggles();
    if (relabel) route();
  }).catch(() => {});
}

function ensureSocket() {
  if (app.socket) return;
  app.socket = connect(app.player.token, {
    onFrame,
    onStatus: (s) => showStatus(s === 'reconnecting' ? t('connecting') : ''),
    onOpen: () => {
      // After a reconnect the server re-sends our live games; a watched or joining page asks again.
      if (app.route?.name === 'game') app.send({ t: 'watch', game: app.route.id });
      if (app.route?.name === 'tournament') app.send({ t: 'watch_tournament', id: app.route.id });
    },
  });
}

/** Refusals a tournament's page shows beside its buttons. */
const TOURNAMENT_ERRORS = new Set(['unknown_tournament', 'tournament_over', 'tournament_code', 'already_joined',
  'in_tournament_game', 'tournament_full', 'account_required', 'rate_limited']);

/**
 * A frame from the server: the store's reducers take what changes state; what is left is the
 * page's own (who we are, refusals, the server going away).
 * @param {import('./types.js').Frame} frame
 */
function onFrame(frame) {
  if (challengeNotices.onFrame(frame)) return;
  if (app.store.dispatch(frame, { now: performance.now(), route: app.route })) return;
  const store = app.store;
  switch (frame.t) {
    case 'welcome':
      if (frame.player.id !== app.player.id) api.forgetPlayer();
      break;
    case 'error':
      // The engine's refusal (fair play) goes where its answer would have gone: the analysis
      // board shows it in place; a game page shows it on the status line too.
      if (frame.code === 'analysis_unavailable') {
        store.tell(frame.game ? 'game_analysis' : 'analysis', frame);
        if (!frame.game && store.listened('analysis')) break;
      }
      if (store.listened('tournament_error') && TOURNAMENT_ERRORS.has(frame.code)) {
        store.tell('tournament_error', frame);
      } else if (frame.code === 'room_not_found' || frame.code === 'unknown_game' || (app.route?.name === 'room' && !gameView)) {
        // Nothing to show in place of the room or game asked for: say why, and the way back.
        show(null);
        root.innerHTML = `<section class="card narrow" role="alert"><p>${escape(errorText(frame.code, frame.message))}</p>
          <p><a href="/" data-link class="button primary link-button">${t('backToLobby')}</a></p></section>`;
      } else if (frame.code === 'banned') {
        show(null);
        root.innerHTML = `<p class="card" role="alert">${escape(frame.message)}</p>`;
      } else if (frame.code === 'bad_token') {
        app.forgetPlayer();
        route();
      } else {
        const said = errorText(frame.code, frame.message);
        showStatus(said);
        // Unless something else is said by then (a reconnect's "connecting" must stay).
        setTimeout(() => { if (statusBar.textContent === said) showStatus(''); }, 4000);
        // A refused action (a move, an offer) redraws what it had changed.
        store.tell('game');
      }
      break;
    case 'shutdown':
      showStatus(t('connecting'));
      break;
    default:
      break;
  }
}

// Links inside the app navigate without reloading.
document.addEventListener('click', (e) => {
  const link = /** @type {Element} */ (e.target).closest?.('a[data-link]');
  if (!link || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  app.navigate(link.getAttribute('href'));
});
window.addEventListener('popstate', route);

const langButton = document.getElementById('lang');
const muteButton = document.getElementById('mute');
/** Each language by its own name, short enough for a phone's header. */
const LANGUAGE_NAMES = { en: 'English', zh: '简体', 'zh-Hant': '繁體' };
const nextLanguage = () => LANGUAGES[(LANGUAGES.indexOf(language()) + 1) % LANGUAGES.length];
const themeButton = document.getElementById('theme');
/** The theme shown now: the player's choice, else the system's. */
const shownTheme = () => preferences.current().theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
function drawToggles() {
  const dark = shownTheme() === 'dark';
  themeButton.innerHTML = dark
    ? '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="5"/><path d="M12 1v3M12 20v3M1 12h3M20 12h3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1" stroke="currentColor" stroke-width="2"/></svg>'
    : '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M20 15.5A8.5 8.5 0 0 1 8.5 4a8.5 8.5 0 1 0 11.5 11.5z"/></svg>';
  themeButton.setAttribute('aria-label', t(dark ? 'themeLight' : 'themeDark'));
  // The button names the language it switches to.
  langButton.textContent = LANGUAGE_NAMES[nextLanguage()];
  langButton.setAttribute('aria-label', `${t('language')}: ${LANGUAGE_NAMES[nextLanguage()]}`);
  const wave = sound.isMuted()
    ? '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" fill="none"/>'
    : '<path d="M16 8a5 5 0 010 8M18.5 5a9 9 0 010 14" stroke="currentColor" stroke-width="2" fill="none"/>';
  muteButton.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z"/>${wave}</svg>`;
  muteButton.setAttribute('aria-label', t('sound'));
  muteButton.setAttribute('aria-pressed', String(sound.isMuted()));
}
const isAccount = () => Boolean(app.player?.username);
langButton.onclick = () => {
  preferences.update({ language: nextLanguage() }, isAccount()).catch(() => {});
  drawToggles();
  route();
};
themeButton.onclick = () => {
  preferences.update({ theme: shownTheme() === 'dark' ? 'light' : 'dark' }, isAccount()).catch(() => {});
  drawToggles();
};
muteButton.onclick = () => {
  preferences.update({ muted: !sound.isMuted() }, isAccount()).catch(() => {});
  drawToggles();
};
setLanguage(language());
preferences.apply({});
drawToggles();
loadAccountSettings();
setInterval(() => app.tickers.forEach((tick) => tick()), 100);
route();
