// After a deploy, an open page still runs the old client. The server names the client it
// serves in every `welcome` (each reconnect, and a deploy restarts the socket); a page of
// another version reloads itself at a safe moment: on the next move to another page, or at
// once while the tab is hidden, but never while the player is in a game of one sitting still
// being played or is looking for an opponent (a reload would leave them, or lose the seek).

/** This page's client version, written into the page at build time (none from a folder). */
const own = () => document.querySelector('meta[name="jungle-client"]')?.getAttribute('content') ?? null;

/**
 * @param {import('./types.js').App} app
 */
export function createNewVersionWatch(app) {
  let stale = false;

  /** Whether reloading now would take the player out of something under way. */
  function busy() {
    const { game, seek } = app.store.state;
    if (seek) return true;
    return Boolean(game && game.you != null && game.clock?.kind !== 'days'
      && game.status !== 'finished' && game.status !== 'aborted');
  }

  function reloadIfHidden() {
    if (stale && document.hidden && !busy()) location.reload();
  }
  document.addEventListener('visibilitychange', reloadIfHidden);

  return {
    /** The server's `welcome` named the client it serves. @param {string | undefined} served */
    served(served) {
      const mine = own();
      if (mine && served && served !== mine) stale = true;
      reloadIfHidden();
    },
    /** A move to another page is starting: true when it reloads the page instead (the
     * address is already the new page's). */
    reloadsOnNavigation() {
      if (!stale || busy()) return false;
      location.reload();
      return true;
    },
    /** A page's module could not be fetched (an old version's file is gone after a deploy):
     * true when the page reloads to get the new client. */
    reloadsForMissingFile() {
      if (busy() || !navigator.onLine) return false;
      // Once: a file still missing after a reload is no deploy, and a loop helps nobody.
      const last = Number(sessionStorage.getItem('jungle.reloadedForFile') ?? 0);
      if (Date.now() - last < 60_000) return false;
      sessionStorage.setItem('jungle.reloadedForFile', String(Date.now()));
      location.reload();
      return true;
    },
  };
}
