// The HTTP API and the player's identity, kept in localStorage so a reload is the same player.
// A guest's token and an account's session token are kept alike; `username` marks an account.

import { errorText } from './i18n.js';

const KEY = 'jungle.player';
/** The player's vacation as last heard of (see `knownVacationEnd`). */
const VACATION = 'jungle.vacation';

/** @returns {import('./types.js').StoredPlayer | null} */
export function storedPlayer() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    return null;
  }
}

/** @param {import('./types.js').StoredPlayer} player */
function keep(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
  return player;
}

export function forgetPlayer() {
  localStorage.removeItem(KEY);
  localStorage.removeItem(VACATION);
  // The lessons done in this browser (learn_progress.js) were this player's: an account keeps
  // them on the server, and whoever comes next starts afresh.
  localStorage.removeItem('jungle.learn.done');
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [token] sent as a bearer token
 */
async function request(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = body ? { 'content-type': 'application/json' } : {};
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  // Refusals carry a stable code (`error` for account requests, `code` for the others) and the
  // server's sentence; the player reads our own words for the code, in their language.
  if (!response.ok) {
    const code = data.code ?? (data.message ? data.error : undefined);
    const sentence = data.message || data.error || `HTTP ${response.status}`;
    // Refusals about pasted text or moves keep the server's detail: where, and what.
    const detailed = ['bad_text', 'bad_move', 'bad_position'].includes(code);
    const error = new Error(detailed ? `${errorText(code, sentence)} ${sentence}` : errorText(code, sentence));
    // What the refusal was, for a page that words some of them its own way.
    Object.assign(error, { code, status: response.status });
    throw error;
  }
  return data;
}

/**
 * @typedef {{ code: string, host_id: string, host: string, host_rating: number, host_provisional: boolean,
 *   rules: string, clock: any, rated: boolean, host_colour: 'red' | 'blue' | 'random', start: string | null }} RoomInvite
 */

/**
 * What a room link invites to: the room waiting for its guest, a game under way (watchable),
 * or nothing (a code that names no room now).
 * @param {string} code
 * @returns {Promise<{ status: 'waiting', invite: RoomInvite } | { status: 'started' } | { status: 'unknown' }>}
 */
export async function roomInvite(code) {
  const response = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
  if (response.status === 404) return { status: 'unknown' };
  if (response.status === 409) return { status: 'started' };
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data.code ?? data.error, data.message || data.error || `HTTP ${response.status}`));
  return { status: 'waiting', invite: data };
}

/** A new guest; without a name the server gives one (`Guest-4821`), to change later. */
export async function createPlayer(name) {
  return keep(await request('POST', '/api/players', name === undefined ? {} : { name }));
}

/** The stored guest takes a new display name. */
export async function renameGuest(name) {
  const player = storedPlayer();
  const profile = await request('POST', '/api/players/me/name', { name }, player?.token);
  return keep({ ...player, name: profile.name });
}

/** Makes the stored guest an account: same player, games and ratings; same token. */
export async function claimAccount(username, password) {
  const guest = storedPlayer();
  const account = await request('POST', '/api/account', { username, password }, guest?.token);
  return keep({ id: account.id, name: account.username, username: account.username, token: guest.token });
}

/** Signs in to an account on this device. */
export async function signIn(username, password) {
  const session = await request('POST', '/api/session', { username, password });
  return keep({ id: session.id, name: session.name, username: session.name, token: session.token });
}

/** Signs this device out (the session ends on the server too). */
export async function signOut() {
  const player = storedPlayer();
  forgetPlayer();
  if (player?.username) await request('DELETE', '/api/session', undefined, player.token);
}

export const profile = (id) => request('GET', `/api/players/${id}`);
export const accountProfile = (username) => request('GET', `/api/users/${encodeURIComponent(username)}`);
/** The rating after each rated game of one ruleset, oldest first: of games in one sitting, or
 * over days (`speed` 'correspondence'). */
export const ratingHistory = (id, rules, speed = '') =>
  request('GET', `/api/players/${id}/ratings?rules=${encodeURIComponent(rules)}${speed ? `&speed=${encodeURIComponent(speed)}` : ''}`);
/** A page of a player's games (20 a page, newest first), of one ruleset or all (''). */
export const playerGames = (id, rules = '', page = 1) =>
  request('GET', `/api/players/${id}/games?page=${page}${rules ? `&rules=${encodeURIComponent(rules)}` : ''}`);
/** Any line of play from a position (the initial one without `start`), laid out turn by turn. */
export const line = (rules, start, moves) => request('POST', '/api/lines', { rules, start: start || null, moves });
export const importGame = (text) => request('POST', '/api/games/import', { text });
export const game = (id) => request('GET', `/api/games/${id}`);
export const openSeeks = () => request('GET', '/api/seeks');
export const liveGames = () => request('GET', '/api/games/live');
export const leaderboard = (rules, bots = false) => request('GET', `/api/leaderboard?rules=${encodeURIComponent(rules)}${bots ? '&bots=true' : ''}`);

/** A request on behalf of the stored player (their token as the bearer). */
const mine = (method, path, body) => request(method, path, body, storedPlayer()?.token);

export const settings = () => mine('GET', '/api/account/settings');
/** The reader's correspondence games waiting for their move, most urgent first, and how many
 * they have in progress: `{ games, in_progress }`. */
export const waitingGames = () => mine('GET', '/api/account/games/waiting');
export const saveSettings = (value) => mine('PUT', '/api/account/settings', value);
export const sessions = () => mine('GET', '/api/sessions');
export const apiTokens = () => mine('GET', '/api/tokens');
/** @param {string} description @param {string[]} scopes */
export const newApiToken = (description, scopes) => mine('POST', '/api/tokens', { description, scopes });
export const deleteApiToken = (id) => mine('DELETE', `/api/tokens/${id}`);
/** @param {string} rules @param {string} theme */
export const nextPuzzle = (rules, theme) => mine('GET', `/api/puzzles/next?rules=${encodeURIComponent(rules)}${theme ? `&theme=${encodeURIComponent(theme)}` : ''}`);
export const puzzle = (id) => mine('GET', `/api/puzzles/${encodeURIComponent(id)}`);
export const dailyPuzzle = () => mine('GET', '/api/puzzles/daily');
/** @param {string} rules @returns {Promise<{ rules: string, total: number, themes: { theme: string, count: number }[] }>} */
export const puzzleThemes = (rules) => mine('GET', `/api/puzzles/themes?rules=${encodeURIComponent(rules)}`);
/** @param {string} id @param {string[]} moves @param {boolean} win */
export const puzzleAttempt = (id, moves, win) => mine('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, { moves, win });
export const streak = (rules) => mine('GET', `/api/puzzles/streak?rules=${encodeURIComponent(rules)}`);
export const startStreak = (rules) => mine('POST', `/api/puzzles/streak?rules=${encodeURIComponent(rules)}`);
export const streakAnswer = (puzzle, moves) => mine('POST', '/api/puzzles/streak/answer', { puzzle, moves });
export const puzzleHistory = (id) => mine('GET', `/api/players/${id}/puzzles`);
export const signOutSession = (id) => mine('DELETE', `/api/sessions/${id}`);
export const signOutOthers = () => mine('DELETE', '/api/sessions');
export const changePassword = (current, next) => mine('POST', '/api/account/password', { current, new: next });
export const exportData = () => mine('GET', '/api/account/export');
export const blocks = () => mine('GET', '/api/account/blocks');
export const block = (id) => mine('PUT', `/api/account/blocks/${id}`);
export const unblock = (id) => mine('DELETE', `/api/account/blocks/${id}`);
export const report = (player, reason, details, game) => mine('POST', '/api/reports', { player, reason, details, game: game || null });

/**
 * A vacation answer (`{ until_ms, days_left }`), remembered for the player so that the lobby
 * can say "On vacation until …" without asking (the server allows few of these requests).
 * @param {{ until_ms: number | null, days_left: number }} view
 */
function keepVacation(view) {
  const player = storedPlayer();
  if (player) localStorage.setItem(VACATION, JSON.stringify({ player: player.id, until_ms: view.until_ms ?? null }));
  return view;
}

/** The end of the stored player's vacation as this browser last heard of it (Unix ms), while it
 * runs; null otherwise. Another device may have ended it since. */
export function knownVacationEnd() {
  try {
    const known = JSON.parse(localStorage.getItem(VACATION) || 'null');
    const until = known?.player === storedPlayer()?.id ? known.until_ms : null;
    return typeof until === 'number' && until > Date.now() ? until : null;
  } catch {
    return null;
  }
}

/** The vacation running now (`until_ms`, null when none) and the days still to take. */
export const vacation = async () => keepVacation(await mine('GET', '/api/account/vacation'));
/** @param {number} days a vacation from now */
export const startVacation = async (days) => keepVacation(await mine('POST', '/api/account/vacation', { days }));
export const endVacation = async () => keepVacation(await mine('DELETE', '/api/account/vacation'));
/** The address for mails about one's turns: `{ address, confirmed, turn_mails, mail_on }`. */
export const mailSettings = () => mine('GET', '/api/account/email');
/** @param {string} address a confirmation mail goes to it */
export const setMailAddress = (address) => mine('PUT', '/api/account/email', { address });
export const removeMailAddress = () => mine('DELETE', '/api/account/email');
/** Web Push for this account: `{ public_key, subscriptions, turns, challenges, tournaments }`. */
export const pushSettings = () => mine('GET', '/api/push');
/** @param {any} subscription a browser's `PushSubscription.toJSON()` */
export const addPushSubscription = (subscription) => mine('POST', '/api/push/subscriptions', subscription);
/** @param {string} endpoint */
export const removePushSubscription = (endpoint) => mine('DELETE', '/api/push/subscriptions', { endpoint });
/** @param {{ turns?: boolean, challenges?: boolean, tournaments?: boolean }} change */
export const changePushSettings = (change) => mine('PUT', '/api/push/settings', change);
export const resetPassword = (token, password) => request('POST', '/api/account/reset', { token, password });

/** Deletes the account (the password confirms it) and forgets it on this device. */
export async function deleteAccount(password) {
  await mine('DELETE', '/api/account', { password });
  forgetPlayer();
}

export const tournaments = (page = 1) => request('GET', `/api/tournaments?page=${page}`);
export const tournament = (id) => request('GET', `/api/tournaments/${id}`);
export const createTournament = (settings) => mine('POST', '/api/tournaments', settings);

// The lessons (issue 29). The catalogue never changes while the server runs: read once a page.
/** @type {Promise<import('./types.js').Catalogue> | null} */
let catalogue = null;
/** Every chapter, lesson, exercise and practice game, with texts in every language. */
export function learnCatalogue() {
  catalogue ??= mine('GET', '/api/learn').catch((err) => {
    catalogue = null;
    throw err;
  });
  return catalogue;
}
/**
 * The player's moves in an exercise so far (none for a reading card), judged by the server.
 * @param {string} exercise @param {string[]} moves
 * @returns {Promise<import('./types.js').TryAnswer>}
 */
export const learnTry = (exercise, moves) => mine('POST', '/api/learn/try', { exercise, moves });
/**
 * Whether the reader's game `game` reached practice `id`'s goal in time.
 * @param {string} id @param {string} game
 * @returns {Promise<{ reached: boolean, moves: number | null, recorded: boolean }>}
 */
export const judgePractice = (id, game) => mine('POST', `/api/learn/practice/${encodeURIComponent(id)}/judge`, { game });
/** An account's lessons done: `{ done: [ids] }` (a guest is refused). */
export const accountLearn = () => mine('GET', '/api/account/learn');
/** @param {string[]} done ids done in this browser, brought into the account; answers the whole */
export const bringLearn = (done) => mine('POST', '/api/account/learn', { done });
