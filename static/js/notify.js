// Notifications while the tab is hidden: "your move" in a game on the clock, its result, and
// more games over days waiting for the reader's move. Permission is asked only when the player
// presses the game page's button for it, never on its own (a first visit is never asked).

import { t } from './i18n.js';

/** Whether the browser has notifications and the player has not yet answered. */
export function mayAsk() {
  return 'Notification' in window && Notification.permission === 'default';
}

/** Asks the player (from a press of theirs: browsers allow it only then). */
export async function askPermission() {
  if (mayAsk()) await Notification.requestPermission();
}

/**
 * Tells the player, while the tab is hidden, what waits for them.
 * @param {import('./types.js').App} app
 */
export function createNotifier(app) {
  /** What each game last told (or was first seen at): a ply or its end. */
  const told = new Map();
  let waitingBefore = -1;

  const allowed = () => 'Notification' in window && Notification.permission === 'granted' && document.visibilityState === 'hidden';

  const show = (title, body, tag) => {
    const note = new Notification(title, { body, tag, icon: '/icons/icon-192.png' });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  };

  const onGame = () => {
    const game = app.store.state.game;
    if (!game || game.you == null) return;
    // Over once the result is known (the status may come a moment before it).
    const over = (game.status === 'finished' || game.status === 'aborted') && Boolean(game.result);
    const key = over ? 'end' : game.status === 'active' && game.turn === game.you ? `move ${game.moves.length}` : '';
    const before = told.get(game.game);
    told.set(game.game, key);
    // The state a game is first seen in is not news; nor is the same news twice.
    if (before === undefined || !key || key === before || !allowed()) return;
    const opponent = game[game.you === 'red' ? 'blue' : 'red']?.name ?? '';
    if (over) {
      const r = game.result;
      const result = r.reason === 'aborted' ? t('aborted') : !r.winner ? t('draw') : r.winner === game.you ? t('youWin') : t('youLose');
      show(result, t('notifyAgainst', { name: opponent }), game.game);
    } else if (game.clock?.kind !== 'days') {
      const last = game.moves[game.moves.length - 1] ?? '';
      show(t('titleYourMove'), t('notifyMoved', { name: opponent, move: last }), game.game);
    }
  };

  const onWaiting = () => {
    const n = app.session.player?.username ? app.store.state.waiting?.games.length ?? 0 : 0;
    if (waitingBefore >= 0 && n > waitingBefore && allowed()) show(t('turnBadge', { n }), '', 'waiting');
    waitingBefore = n;
  };

  const stops = [app.store.subscribe('game', onGame), app.store.subscribe('waiting', onWaiting)];
  return {
    destroy() {
      stops.forEach((stop) => stop());
    },
  };
}
