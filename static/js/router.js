// Where the page is: the path read as a route, and moving to another without a reload. The
// shell draws the page for each route it is told of.

/**
 * @typedef {{ name: string, id?: string, code?: string, rules?: string, username?: string,
 *   bots?: boolean, chapter?: string, streak?: boolean }} Route
 * @typedef {{ readonly route: Route | null, navigate: (path: string, replace?: boolean) => void }} Router
 */

/** @returns {Route} the route of the page's address */
export function parseRoute() {
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
  if (path === '/puzzles/streak') return { name: 'puzzles', streak: true };
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

/**
 * @param {(left: Route | null, now: Route) => void} onRoute draws the page of `now` (`left`:
 *   the route left, if any)
 * @returns {Router & { reroute: () => void }}
 */
export function createRouter(onRoute) {
  /** @type {Route | null} */
  let route = null;
  const reroute = () => {
    const left = route;
    route = parseRoute();
    onRoute(left, route);
  };
  return {
    get route() {
      return route;
    },
    navigate(path, replace = false) {
      if (replace) history.replaceState({}, '', path);
      else history.pushState({}, '', path);
      reroute();
      // A new page starts at its top, not at the scroll of the one left (Back keeps the
      // browser's own restoring).
      window.scrollTo(0, 0);
    },
    reroute,
  };
}
