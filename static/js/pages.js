// The pages' modules, each fetched the first time it is shown: a phone's first visit
// downloads only what it shows (the name card, which comes with main.js), and a returning
// player's lobby arrives from the browser's cache. The game page is fetched ahead once the
// first screen is up: a game is where a visit most often goes next.

const LOADERS = {
  home: () => import('./views/home.js'),
  game: () => import('./views/game.js'),
  rules: () => import('./views/rules.js'),
  profile: () => import('./views/profile.js'),
  leaderboard: () => import('./views/leaderboard.js'),
  settings: () => import('./views/settings.js'),
  analysis: () => import('./views/analysis.js'),
  puzzles: () => import('./views/puzzles.js'),
  learn: () => import('./views/learn.js'),
  editor: () => import('./views/editor.js'),
  tournament: () => import('./views/tournaments.js'),
  invite: () => import('./views/invite.js'),
};

/** @typedef {keyof typeof LOADERS} PageName */

/** @type {Map<PageName, Promise<any>>} */
const asked = new Map();
/** @type {Map<PageName, any>} */
const arrived = new Map();

/**
 * Page `name`'s module, fetched once (a failed fetch, offline or after a deploy, may be
 * asked again).
 * @template {PageName} K
 * @param {K} name
 * @returns {ReturnType<typeof LOADERS[K]>}
 */
export function loadPage(name) {
  let promise = asked.get(name);
  if (!promise) {
    promise = LOADERS[name]().then((module) => {
      arrived.set(name, module);
      return module;
    }, (err) => {
      asked.delete(name);
      throw err;
    });
    asked.set(name, promise);
  }
  return /** @type {any} */ (promise);
}

/**
 * Page `name`'s module if it has arrived, to show it at once.
 * @template {PageName} K
 * @param {K} name
 * @returns {Awaited<ReturnType<typeof LOADERS[K]>> | null}
 */
export function loadedPage(name) {
  return arrived.get(name) ?? null;
}

/** Fetches the game page while nothing else is happening. */
export function fetchGamePageAhead() {
  const idle = /** @type {any} */ (window).requestIdleCallback ?? ((/** @type {() => void} */ run) => setTimeout(run, 1000));
  const ahead = () => idle(() => { loadPage('game').catch(() => {}); });
  if (document.readyState === 'complete') ahead();
  else window.addEventListener('load', ahead, { once: true });
}
