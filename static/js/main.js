// Boots the client: identity, the socket, the router, and the frames that change app state.

import * as api from './api.js';
import { LANGUAGES, errorText, language, loadLanguage, setLanguage, t, translatePage } from './i18n.js';
import * as sound from './sound.js';
import { $ } from './dom.js';
import { escape } from './format.js';
import { renderSignIn } from './components/account.js';
import { createChallengeNotices } from './components/challenge.js';
import { setPageTitle } from './tab_title.js';
import { hasProgress } from './learn_progress.js';
import * as preferences from './preferences.js';
import { createStore } from './store.js';
import { createSession } from './session.js';
import { createRouter } from './router.js';
import { createTicker } from './ticker.js';
import { fetchGamePageAhead, loadPage, loadedPage } from './pages.js';

const root = $(document, '#app');
const statusBar = $(document, '#status');
const challengeNotices = createChallengeNotices($(document, '#notices'), (frame) => session.send(frame));

const session = createSession({
  onFrame: (frame) => onFrame(frame),
  onStatus: (s) => {
    connection = s;
    drawConnection();
  },
  onOpen: () => {
    // After a reconnect the server re-sends our live games; a watched or joining page asks again.
    const at = router.route;
    if (at?.name === 'game') session.send({ t: 'watch', game: at.id });
    if (at?.name === 'tournament') session.send({ t: 'watch_tournament', id: at.id });
  },
  onIdentityChanged: () => identityChanged(),
});
const router = createRouter((left, now) => route(left, now));
const ticker = createTicker();
/** The page's services: views read them and act through them; none writes another's state.
 * @type {import('./types.js').App} */
const app = {
  store: createStore((effect) => carryOut(effect)),
  session,
  router,
  ticker,
};
/** @type {any} */ (window).jungleApp = app; // for debugging in the console
/** The badge, the tab's title, notifications and the new-version watch (companions.js),
 * started once the first screen is drawn. @type {import('./types.js').Companions | null} */
let companions = null;
/** The client version the server's welcome named, for companions that arrive after it. */
let servedVersion = '';
function startCompanions() {
  import('./companions.js').then((module) => {
    companions = module.startCompanions(app, /** @type {HTMLAnchorElement} */ ($(document, '#turn-badge')));
    companions.turnBadge.redraw();
    companions.tabTitle.redraw();
    if (servedVersion) companions.newVersion.served(servedVersion);
  }).catch(() => {});
}

/** The socket's state as the session last said it. */
let connection = '';
/** Offline (the browser says so) or reconnecting, in words; nothing once connected. */
function drawConnection() {
  if (!navigator.onLine) showStatus(t('offlineNotice'));
  else showStatus(connection === 'reconnecting' ? t('connecting') : '');
}
window.addEventListener('offline', drawConnection);
window.addEventListener('online', drawConnection);
// Installable, and opens offline: the service worker keeps the client's shell.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});

function showStatus(text) {
  statusBar.hidden = !text;
  statusBar.textContent = text || '';
}

/** The page shown. */
let shown = /** @type {import('./types.js').View | null} */ (null);

/** Shows `view` in place of the current one, which lets go of everything it held. */
function show(view) {
  shown?.destroy();
  shown = view;
}

/** The game page shown, if one is (it redraws itself when the store's game changes). */
let gameView = null;

/** Shows the game page for the store's game (once its module is here). */
function showGame() {
  const page = loadedPage('game');
  if (!page) {
    const turn = routeTurn;
    showLoading();
    loadPage('game').then(() => {
      if (turn === routeTurn && !gameView && app.store.state.game) showGame();
    }, () => pageMissing(turn));
    return;
  }
  const view = page.renderGame(root, app);
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
  const at = router.route;
  if (at?.name !== 'game' || at.id !== id) router.navigate(`/g/${id}`, at?.name === 'room');
  else if (arriving && gameView) router.reroute();
  else if (!gameView) showGame();
}

/**
 * What a frame's reducer asks of the page besides its state.
 * @param {import('./reducers.js').Effect} effect
 */
function carryOut(effect) {
  if ('sound' in effect) sound.play(effect.sound);
  else if ('send' in effect) session.send(effect.send);
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
  session.send({ t: 'unwatch', game: id });
  unwatched.add(id);
}

/** Counts the routes taken: a page whose module arrives after another route was taken is not
 * shown. */
let routeTurn = 0;

function showLoading() {
  root.innerHTML = `<p class="card">${t('loading')}</p>`;
}

/** A page's module could not be fetched: after a deploy the page reloads as the new client;
 * otherwise (offline) it says so, with a way to try again. @param {number} turn */
function pageMissing(turn) {
  if (turn !== routeTurn || companions?.newVersion.reloadsForMissingFile()) return;
  root.innerHTML = `<section class="card narrow" role="alert"><p>${t('pageMissing')}</p>
    <p><button type="button" class="primary" id="page-again">${t('tryAgain')}</button></p></section>`;
  $(root, '#page-again').onclick = () => router.reroute();
  // Back online, it tries again by itself (unless another page was taken meanwhile).
  window.addEventListener('online', () => { if (turn === routeTurn) router.reroute(); }, { once: true });
}

/**
 * Page `name`, made by `make` from its module: at once when the module is here, else after a
 * "Loading…" while it arrives (unless another route was taken meanwhile).
 * @template {import('./pages.js').PageName} K
 * @param {K} name
 * @param {(module: Awaited<ReturnType<typeof loadPage<K>>>) => import('./types.js').View | null} make
 */
function showPage(name, make) {
  const ready = loadedPage(name);
  if (ready) {
    show(make(ready));
    return;
  }
  const turn = routeTurn;
  showLoading();
  loadPage(name).then((module) => {
    if (turn === routeTurn) show(make(module));
  }, () => pageMissing(turn));
}

/**
 * Draws the page of route `at` (`left`: the route left, if any).
 * @param {import('./router.js').Route | null} left
 * @param {import('./router.js').Route} at
 */
function route(left, at) {
  routeTurn += 1;
  // A page of an older client takes the move to another page to reload as the new one.
  if (left && companions?.newVersion.reloadsOnNavigation()) return;
  show(null);
  ticker.clear();
  if (left?.name === 'game' && !(at.name === 'game' && at.id === left.id)) leaveGame(left.id);
  translatePage();
  drawToggles();
  companions?.turnBadge.redraw();
  setPageTitle('');
  companions?.tabTitle.redraw();
  // A reset link works on any device, signed in or not; so does a wrong address.
  if (at.name === 'reset') {
    showPage('settings', (page) => page.renderReset(root, at.code, app));
    return;
  }
  if (at.name === 'notfound') {
    root.innerHTML = `<section class="card narrow" role="alert"><h1>404</h1>
      <p>${t('notFound')}</p><p><a href="/" data-link>${t('notFoundBack')}</a></p></section>`;
    return;
  }
  if (at.name === 'room') {
    const code = at.code;
    const join = () => {
      session.ensureSocket();
      root.innerHTML = `<p class="card">${t('loading')}</p>`;
      session.send({ t: 'join_room', code });
    };
    showPage('invite', (page) => page.renderInvite(root, app, code, join, renderNamePrompt));
    return;
  }
  // The lessons need no player until a practice game starts (a first visit reaches them in
  // one click, before choosing a name).
  if (at.name === 'learn') {
    if (session.player) session.ensureSocket();
    showPage('learn', (page) => page.renderLearn(root, app, at.chapter ?? null));
    return;
  }
  // The rules are read before choosing a name too: a visitor deciding whether to play.
  if (at.name === 'rules') {
    if (session.player) session.ensureSocket();
    showPage('rules', (page) => page.renderRules(root, at.rules));
    return;
  }
  if (!session.player) {
    renderNamePrompt();
    return;
  }
  session.ensureSocket();
  switch (at.name) {
    case 'profile': {
      const report = new URLSearchParams(location.search).get('report');
      showPage('profile', (page) => page.renderProfile(root, app, { username: at.username, id: at.id, report }));
      break;
    }
    case 'leaderboard':
      showPage('leaderboard', (page) => page.renderLeaderboard(root, at.rules, at.bots));
      break;
    case 'settings':
      showPage('settings', (page) => page.renderSettings(root, app));
      break;
    case 'analysis':
      showPage('analysis', (page) => page.renderAnalysis(root, app));
      break;
    case 'puzzles':
      showPage('puzzles', (page) => page.renderPuzzles(root, app, at.id ?? null, at.streak ?? false));
      break;
    case 'editor':
      showPage('editor', (page) => page.renderEditor(root, app));
      break;
    case 'tournament':
      showPage('tournament', (page) => page.renderTournament(root, app, at.id, at.code ?? null));
      break;

    case 'game':
      if (app.store.state.game?.game === at.id) {
        showGame();
        // Left earlier: its state here may be old, and the socket follows it again.
        if (unwatched.delete(at.id)) session.send({ t: 'watch', game: at.id });
      } else {
        unwatched.delete(at.id);
        root.innerHTML = `<p class="card">${t('connecting')}</p>`;
        session.send({ t: 'watch', game: at.id });
      }
      break;
    default:
      showPage('home', (page) => page.renderHome(root, app));
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
  show(renderSignIn($(root, '#sign-in'), session.identityChanged));
  const input = /** @type {HTMLInputElement} */ ($(root, '#name'));
  input.focus();
  const error = $(root, '#name-error');
  /** @param {string | undefined} name absent: the server names the guest */
  const start = async (name) => {
    try {
      await api.createPlayer(name);
      session.playerStored();
      router.reroute();
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

/** The player signed in, out, or became an account: start again as whoever is stored now
 * (the session has taken them in and closed the socket). */
function identityChanged() {
  app.store.reset();
  unwatched.clear();
  challengeNotices.clear();
  companions?.turnBadge.restart();
  router.reroute();
  loadAccountSettings();
}

/** An account's display settings follow it to this device. */
function loadAccountSettings() {
  if (!session.player?.username) return;
  preferences.loadForAccount().then((relabel) => {
    drawToggles();
    if (relabel) router.reroute();
  }).catch(() => {});
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
  if (app.store.dispatch(frame, { now: performance.now(), route: router.route })) return;
  const store = app.store;
  switch (frame.t) {
    case 'welcome':
      if (frame.player.id !== session.player?.id) api.forgetPlayer();
      servedVersion = frame.client ?? '';
      companions?.newVersion.served(servedVersion);
      break;
    case 'error':
      // The engine's refusal (fair play) goes where its answer would have gone: the analysis
      // board shows it in place; a game page shows it on the status line too. Any refusal
      // about a game reaches the game page, which stops waiting for its analysis.
      if (frame.game) {
        store.tell('game_analysis', frame);
      } else if (frame.code === 'analysis_unavailable') {
        store.tell('analysis', frame);
        if (store.listened('analysis')) break;
      }
      if (store.listened('tournament_error') && TOURNAMENT_ERRORS.has(frame.code)) {
        store.tell('tournament_error', frame);
      } else if (frame.code === 'room_not_found' || frame.code === 'unknown_game' || (router.route?.name === 'room' && !gameView)) {
        // Nothing to show in place of the room or game asked for: say why, and the way back.
        show(null);
        root.innerHTML = `<section class="card narrow" role="alert"><p>${escape(errorText(frame.code, frame.message))}</p>
          <p><a href="/" data-link class="button primary link-button">${t('backToLobby')}</a></p></section>`;
      } else if (frame.code === 'banned') {
        show(null);
        root.innerHTML = `<p class="card" role="alert">${escape(frame.message)}</p>`;
      } else if (frame.code === 'bad_token') {
        session.forgetPlayer();
        router.reroute();
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
  router.navigate(link.getAttribute('href'));
});
window.addEventListener('popstate', () => router.reroute());

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
const isAccount = () => Boolean(session.player?.username);
langButton.onclick = async () => {
  const next = nextLanguage();
  await loadLanguage(next);
  // Its words are here: shown at once, saved with the account in the background.
  preferences.update({ language: next }, isAccount()).catch(() => {});
  drawToggles();
  router.reroute();
};
themeButton.onclick = () => {
  preferences.update({ theme: shownTheme() === 'dark' ? 'light' : 'dark' }, isAccount()).catch(() => {});
  drawToggles();
};
muteButton.onclick = () => {
  preferences.update({ muted: !sound.isMuted() }, isAccount()).catch(() => {});
  drawToggles();
};
// A reader of Chinese waits for its words before the first screen is drawn.
await loadLanguage(language());
setLanguage(language());
preferences.apply({});
drawToggles();
loadAccountSettings();
router.reroute();
startCompanions();
fetchGamePageAhead();
