// Who this browser plays as, and the one socket that speaks for them: the only place either
// changes. A view reads `session.player` and sends through `session.send`; a new guest or a
// new name is taken in by `playerStored`, a refused token or a reset by `forgetPlayer`, a
// sign-in by `identityChanged` (which the shell answers by starting over), and `signOut` ends
// this browser's session.

import * as api from './api.js';
import { markMove } from './focus.js';
import { connect } from './socket.js';

/**
 * @typedef {import('./types.js').Frame} Frame
 * @typedef {import('./types.js').StoredPlayer} StoredPlayer
 * @typedef {{
 *   readonly player: StoredPlayer | null,
 *   send: (frame: Frame) => void,
 *   ensureSocket: () => void,
 *   closeSocket: () => void,
 *   playerStored: () => void,
 *   forgetPlayer: () => void,
 *   identityChanged: () => void,
 *   signOut: () => Promise<void>,
 * }} Session
 */

/**
 * @param {{ onFrame: (frame: Frame) => void, onStatus: (status: string) => void,
 *   onOpen: () => void, onIdentityChanged: () => void }} hooks what the shell does with the
 *   socket's frames and states, and when the player signs in or out
 * @returns {Session}
 */
export function createSession({ onFrame, onStatus, onOpen, onIdentityChanged }) {
  /** @type {StoredPlayer | null} */
  let player = api.storedPlayer();
  /** @type {{ send: (frame: Frame) => void, close: () => void } | null} */
  let socket = null;
  const closeSocket = () => {
    socket?.close();
    socket = null;
  };
  const identityChanged = () => {
    player = api.storedPlayer();
    closeSocket();
    onIdentityChanged();
  };
  return {
    get player() {
      return player;
    },
    send(frame) {
      socket?.send(markMove(frame));
    },
    ensureSocket() {
      if (socket || !player) return;
      socket = connect(player.token, { onFrame, onStatus, onOpen });
    },
    closeSocket,
    playerStored() {
      player = api.storedPlayer();
    },
    forgetPlayer() {
      api.forgetPlayer();
      player = null;
      closeSocket();
    },
    identityChanged,
    async signOut() {
      await api.signOut().catch(() => {});
      identityChanged();
    },
  };
}
