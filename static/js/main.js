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
import { renderSignIn } from './views/account.js';
import { renderProfile } from './views/profile.js';
import { renderLeaderboard } from './views/leaderboard.js';
import { renderSettings, renderReset } from './views/settings.js';
import { createChallengeNotices } from './views/challenge.js';
import { renderAnalysis } from './views/analysis.js';
import { renderEditor } from './views/editor.js';
import { renderTournament } from './views/tournaments.js';
import * as preferences from './preferences.js';

const root = $(document, '#app');
const statusBar = $(document, '#status');
const challengeNotices = createChallengeNotices($(document, '#notices'), (frame) => app.send(frame));

/** @type {import('./types.js').App} */
const app = {
  player: api.storedPlayer(),
  socket: null,
  route: null,
  view: null,
  game: null,
  clockReceivedAt: 0,
  awayDeadline: {},
  seek: null,
  rematchAsked: false,
  rematchOffered: false,
  confirmResign: false,
  tickers: [],
  redrawSeek: null,
  redrawGame: null,
  send(frame) {
    app.socket?.send(markMove(frame));
  },
  identityChanged: () => identityChanged(),
  navigate(path, replace = false) {
    if (replace) history.replaceState({}, '', path);
    else history.pushState({}, '', path);
    route();
  },
};
/** @type {any} */ (window).jungleApp = app; // for debugging in the console

function parseRoute() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/g\/([0-9a-f-]{36})$/i))) return { name: 'game', id: m[1].toLowerCase() };
  if ((m = path.match(/^\/r\/([A-Za-z0-9]{1,12})$/))) return { name: 'room', code: m[1].toUpperCase() };
  if ((m = path.match(/^\/rules\/(\w+)$/))) return { name: 'rules', rules: m[1] };
  if ((m = path.match(/^\/@\/([A-Za-z][A-Za-z0-9_-]{1,19})$/))) return { name: 'profile', username: m[1] };
  if ((m = path.match(/^\/p\/([0-9a-f-]{36})$/i))) return { name: 'profile', id: m[1].toLowerCase() };
  if ((m = path.match(/^\/leaderboard(?:\/(\w+))?$/))) return { name: 'leaderboard', rules: m[1] || 'classic' };
  if (path === '/settings') return { name: 'settings' };
  if (path === '/analysis') return { name: 'analysis' };
  if (path === '/editor') return { name: 'editor' };
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

/** Draws the game page for `app.game`, or redraws the one shown. */
function drawGame() {
  if (app.redrawGame) {
    app.redrawGame();
    return;
  }
  const view = renderGame(root, app);
  show(view);
  app.redrawGame = view.update;
  const destroy = view.destroy;
  view.destroy = () => {
    app.redrawGame = null;
    destroy();
  };
}

function route() {
  show(null);
  app.tickers = [];
  app.route = parseRoute();
  translatePage();
  drawToggles();
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
      show(renderLeaderboard(root, app.route.rules));
      break;
    case 'settings':
      show(renderSettings(root, app));
      break;
    case 'analysis':
      show(renderAnalysis(root, app));
      break;
    case 'editor':
      show(renderEditor(root, app));
      break;
    case 'tournament':
      show(renderTournament(root, app, app.route.id, app.route.code ?? null));
      break;

    case 'room':
      root.innerHTML = `<p class="card">${t('connecting')}</p>`;
      app.send({ t: 'join_room', code: app.route.code });
      break;
    case 'game':
      if (app.game?.game === app.route.id) drawGame();
      else {
        root.innerHTML = `<p class="card">${t('connecting')}</p>`;
        app.send({ t: 'watch', game: app.route.id });
      }
      break;
    default:
      show(renderHome(root, app));
  }
}

function renderNamePrompt() {
  root.innerHTML = `<section class="card narrow">
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
      app.player = await api.createPlayer(name);
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
  app.player = api.storedPlayer();
  app.socket?.close();
  app.socket = null;
  challengeNotices.clear();
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

function setGame(state) {
  const previous = app.game;
  if (!previous || previous.game !== state.game) {
    app.rematchAsked = false;
    app.rematchOffered = false;
    app.confirmResign = false;
    app.drawOfferedAt = null;
    app.drawDeclined = false;
    app.premove = null;
    app.chat = [];
    app.awayDeadline = {};
    if (state.status === 'active' && state.moves.length === 0) sound.play('start');
  }
  app.game = state;
  app.clockReceivedAt = performance.now();
  app.abortDeadline = state.abort_in_ms != null ? performance.now() + state.abort_in_ms : null;
  for (const side of ['red', 'blue']) {
    const ms = state[`${side}_away_ms`];
    app.awayDeadline[side] = ms != null ? performance.now() + ms : null;
  }
}

/**
 * Whether an event about the shown game follows on from the state we hold. A frame we already
 * applied is dropped; after a gap (a frame was missed) the full state is asked for again.
 * @param {import('./types.js').Frame} frame
 */
function inSequence(frame) {
  const game = app.game;
  const seq = Number(frame.seq);
  if (seq <= game.seq) return false;
  if (seq !== game.seq + 1) {
    app.send({ t: 'watch', game: game.game });
    return false;
  }
  game.seq = seq;
  return true;
}

function redraw() {
  if (app.redrawGame) app.redrawGame();
}

/** Refusals a tournament's page shows beside its buttons. */
const TOURNAMENT_ERRORS = new Set(['unknown_tournament', 'tournament_over', 'tournament_code', 'already_joined',
  'in_tournament_game', 'tournament_full', 'account_required', 'rate_limited']);

/** @param {import('./types.js').Frame} frame */
function onFrame(frame) {
  if (challengeNotices.onFrame(frame)) return;
  const game = app.game;
  const here = (id) => game && game.game === id;
  switch (frame.t) {
    case 'welcome':
      if (frame.player.id !== app.player.id) api.forgetPlayer();
      break;
    case 'seeking':
      if (app.seek) app.seek.pool = frame.pool;
      app.redrawSeek?.();
      break;
    case 'seek_cancelled':
      app.seek = null;
      app.redrawSeek?.();
      break;
    case 'room':
      break;
    case 'game': {
      const arriving = !here(frame.game);
      // A game we play always takes the screen; one we merely watch only on its own page.
      const ours = frame.you != null && frame.status !== 'finished' && frame.status !== 'aborted';
      const wanted = app.route?.name === 'game' && app.route.id === frame.game;
      // A spectator of a finished game follows its rematch: the same two players, a new game.
      const rematch = game && game.game !== frame.game && game.status !== 'active' && app.route?.name === 'game'
        && frame.status === 'active' && [frame.red?.id, frame.blue?.id].sort().join() === [game.red?.id, game.blue?.id].sort().join();
      if (!ours && !wanted && !rematch && !(app.route?.name === 'room')) break;
      if (ours && arriving) app.seek = null;
      setGame(/** @type {import('./types.js').GameState} */ (/** @type {unknown} */ (frame)));
      if (app.route?.name !== 'game' || app.route.id !== frame.game) {
        app.navigate(`/g/${frame.game}`, app.route?.name === 'room');
      } else if (arriving && app.redrawGame) {
        // Another game on the same page (a rematch followed): a fresh board.
        route();
      } else {
        drawGame();
      }
      break;
    }
    case 'moved':
      if (!here(frame.game) || !inSequence(frame)) break;
      app.drawDeclined = false;
      app.takebackDeclined = false;
      game.takeback_offer = null;
      game.moves.push(frame.mv);
      game.position = frame.position;
      game.turn = frame.turn;
      game.status = frame.status;
      game.draw_offer = frame.draw_offer ?? null;
      game.clocks = frame.clocks;
      game.legal = frame.legal;
      app.abortDeadline = frame.abort_in_ms != null ? performance.now() + frame.abort_in_ms : null;
      // The side now to move is the one whose animal was taken.
      if (frame.captured) game.captured[frame.turn].push(frame.captured);
      app.clockReceivedAt = performance.now();
      // Our turn now: a queued move goes at once if it is legal; otherwise it is dropped.
      if (frame.turn === game.you && app.premove) {
        const queued = app.premove;
        app.premove = null;
        if (frame.legal.includes(queued)) app.send({ t: 'move', game: game.game, mv: queued });
      }
      sound.play(frame.captured ? 'capture' : 'move');
      redraw();
      break;
    case 'game_over':
      if (!here(frame.game) || !inSequence(frame)) break;
      game.status = frame.status;
      game.result = { winner: frame.winner, reason: frame.reason, rated: frame.rated, rating_change: frame.rating_change };
      game.legal = [];
      game.draw_offer = null;
      // As they stood at the end, not as at the last move.
      game.clocks = frame.clocks ?? { ...game.clocks, running: null };
      app.clockReceivedAt = performance.now();
      sound.play(frame.reason === 'den' ? 'den' : 'start');
      redraw();
      // Focused for screen readers, without scrolling the board away on a phone (the result
      // also stands in the bar under the board).
      /** @type {HTMLElement | null} */ (root.querySelector('#end'))?.focus?.({ preventScroll: true });
      break;
    case 'presence':
      if (!here(frame.game) || !inSequence(frame)) break;
      if (game[frame.side]) game[frame.side].online = frame.online;
      app.awayDeadline[frame.side] = frame.online || frame.abandon_in_ms == null ? null : performance.now() + frame.abandon_in_ms;
      redraw();
      break;
    case 'draw_offered':
      if (!here(frame.game) || !inSequence(frame)) break;
      game.draw_offer = frame.by;
      // An offer to us is heard, not only seen (on a phone it may be below the board).
      if (frame.by !== game.you && game.you != null) sound.play('offer');
      redraw();
      break;
    case 'draw_declined':
      if (!here(frame.game) || !inSequence(frame)) break;
      game.draw_offer = null;
      // The one who offered hears of it.
      if (frame.by !== game.you && game.you != null) {
        app.drawDeclined = true;
        sound.play('low');
      }
      redraw();
      break;
    case 'chat_line':
      if (!here(frame.game)) break;
      app.chat = [...(app.chat ?? []), frame].slice(-100);
      app.redrawChat?.();
      break;
    case 'takeback_offered':
      if (!here(frame.game) || !inSequence(frame)) break;
      game.takeback_offer = frame.by;
      if (frame.by !== game.you && game.you != null) sound.play('offer');
      redraw();
      break;
    case 'takeback_declined':
      if (!here(frame.game) || !inSequence(frame)) break;
      game.takeback_offer = null;
      if (frame.by !== game.you && game.you != null) app.takebackDeclined = true;
      redraw();
      break;
    case 'rematch_offered':
      if (!here(frame.game) || !inSequence(frame)) break;
      if (frame.by !== game.you) {
        app.rematchOffered = true;
        redraw();
      }
      break;
    case 'tournament_standings':
    case 'tournament_entry':
      app.onTournament?.(frame);
      break;
    case 'error':
      // The engine's refusal (fair play) goes where its answer would have gone; the analysis
      // board shows it in place, a game page on the status line too.
      if (frame.code === 'analysis_unavailable') {
        if (frame.game) app.onGameAnalysis?.(frame);
        else app.onAnalysis?.(frame);
      }
      if (frame.code === 'analysis_unavailable' && !frame.game && app.onAnalysis) {
        break;
      }
      if (app.onTournamentError && TOURNAMENT_ERRORS.has(frame.code)) {
        app.onTournamentError(frame);
      } else if (frame.code === 'room_not_found' || frame.code === 'unknown_game') {
        show(null);
        root.innerHTML = `<p class="card" role="alert">${escape(errorText(frame.code, frame.message))}</p>`;
      } else if (frame.code === 'banned') {
        show(null);
        root.innerHTML = `<p class="card" role="alert">${escape(frame.message)}</p>`;
      } else if (frame.code === 'bad_token') {
        api.forgetPlayer();
        app.player = null;
        app.socket?.close();
        app.socket = null;
        route();
      } else {
        showStatus(errorText(frame.code, frame.message));
        setTimeout(() => showStatus(''), 4000);
        redraw();
      }
      break;
    case 'analysis':
      app.onAnalysis?.(frame);
      break;
    case 'game_analysis':
      app.onGameAnalysis?.(frame);
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
