// The tab says what waits in it, for a player looking at another tab or app: "● Your move"
// while it is their move in a game on the clock, the result once it ends, and how many games
// over days wait for their move; the icon gets a red dot while a move is theirs. The page's own
// name follows (the site's, or a tournament's).

import { t } from './i18n.js';

/** The page's own name, set by the page shown; the site's when none is. */
let pageName = '';
/** @type {(() => void) | null} */
let redrawNow = null;

/**
 * Names the page shown in the tab (a tournament's name); '' for the site's.
 * @param {string} name
 */
export function setPageTitle(name) {
  pageName = name;
  redrawNow?.();
}

/**
 * What the tab's title says before the page's name, from the state.
 * @param {import('./types.js').ClientState} state
 * @param {{ name: string, id?: string } | null} route
 * @param {boolean} account
 * @returns {{ prefix: string, yourMove: boolean }}
 */
export function titleNews(state, route, account) {
  const game = state.game;
  const onItsPage = route?.name === 'game' && route.id === game?.game;
  if (game && game.you != null) {
    if (game.status === 'active' && game.turn === game.you && game.clock?.kind !== 'days') {
      return { prefix: `● ${t('titleYourMove')} · `, yourMove: true };
    }
    if (onItsPage && game.result && (game.status === 'finished' || game.status === 'aborted')) {
      const r = game.result;
      const result = r.reason === 'aborted' ? t('aborted') : !r.winner ? t('draw') : r.winner === game.you ? t('youWin') : t('youLose');
      return { prefix: `${result} · `, yourMove: false };
    }
  }
  const waiting = account && state.waiting ? state.waiting.games.length : 0;
  return waiting ? { prefix: `(${waiting}) `, yourMove: true } : { prefix: '', yourMove: false };
}

/**
 * Keeps the tab's title and icon up to date.
 * @param {import('./types.js').App} app
 */
export function createTabTitle(app) {
  const icon = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  const plainIcon = icon?.href ?? '/favicon.ico';
  let dotted = '';
  let shownDot = false;
  const redraw = () => {
    const news = titleNews(app.store.state, app.router.route, Boolean(app.session.player?.username));
    const title = `${news.prefix}${pageName || t('siteTitle')}`;
    if (document.title !== title) document.title = title;
    if (icon && news.yourMove !== shownDot) {
      shownDot = news.yourMove;
      icon.href = news.yourMove ? (dotted ||= dottedIcon()) || plainIcon : plainIcon;
    }
  };
  redrawNow = redraw;
  const stops = [app.store.subscribe('game', redraw), app.store.subscribe('waiting', redraw)];
  redraw();
  return {
    redraw,
    destroy() {
      stops.forEach((stop) => stop());
      redrawNow = null;
    },
  };
}

/** The site's icon with a red dot in its corner, drawn once; '' where a canvas cannot. */
function dottedIcon() {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const g = canvas.getContext('2d');
  if (!g) return '';
  g.fillStyle = '#1d2327';
  g.beginPath();
  g.arc(16, 16, 15, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = '#ffffff';
  g.font = '20px "Jungle Glyphs", serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText('象', 16, 17);
  g.fillStyle = '#e53935';
  g.beginPath();
  g.arc(25, 7, 7, 0, Math.PI * 2);
  g.fill();
  return canvas.toDataURL('image/png');
}
