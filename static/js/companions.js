// What the page keeps doing beside the page shown: the header's badge of games over days
// waiting for a move, the tab's title and icon, notifications while the tab is hidden, and the
// watch for a new version of the client. None is needed to draw the first screen, so they
// arrive just after it (main.js), off the first visit's critical path.

import { createTurnBadge } from './components/turn_badge.js';
import { createTabTitle } from './tab_title.js';
import { createNotifier } from './notify.js';
import { createNewVersionWatch } from './new_version.js';

/**
 * @param {import('./types.js').App} app
 * @param {HTMLAnchorElement} badge the header's link to the games waiting
 */
export function startCompanions(app, badge) {
  // The correspondence games waiting for the reader's move, on every page.
  const turnBadge = createTurnBadge(badge, app);
  // The tab's title and icon say when a move is the reader's.
  const tabTitle = createTabTitle(app);
  // And, once the player has allowed it, a notification while the tab is hidden.
  createNotifier(app);
  // A page left open across a deploy reloads itself between games.
  const newVersion = createNewVersionWatch(app);
  return { turnBadge, tabTitle, newVersion };
}
