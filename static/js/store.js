// The one owner of the client's state (issue 25): the current game as the server last told it,
// what this client remembers about it (a queued move, an offer made, the chat) and the seek in
// progress. Server frames change it only through `dispatch`, which runs the frame's reducer
// (reducers.js) and hands its effects to the page; views change it through `set` and redraw
// when a topic they subscribed to is told. Frames that carry no state (an analysis's answer, a
// tournament's standings) are passed on to whoever subscribed to their topic.

import { initialState, reduce } from './reducers.js';

/**
 * @typedef {import('./types.js').ClientState} ClientState
 * @typedef {import('./types.js').Frame} Frame
 * @typedef {import('./reducers.js').Effect} Effect
 * @typedef {import('./reducers.js').Moment} Moment
 * @typedef {'game' | 'chat' | 'seek' | 'analysis' | 'game_analysis' | 'tournament' | 'tournament_error'
 *   | 'waiting' | 'correspondence'} Topic
 * @typedef {{
 *   readonly state: ClientState,
 *   dispatch: (frame: Frame, at: Moment) => boolean,
 *   set: (patch: Partial<ClientState>, topic?: Topic) => void,
 *   subscribe: (topic: Topic, listener: (payload?: any) => void) => () => void,
 *   listened: (topic: Topic) => boolean,
 *   tell: (topic: Topic, payload?: any) => void,
 *   reset: () => void,
 * }} Store
 */

/**
 * @param {(effect: Effect) => void} carryOut what the page does for an effect
 * @returns {Store}
 */
export function createStore(carryOut) {
  let state = initialState();
  /** @type {Map<Topic, Set<(payload?: any) => void>>} */
  const listeners = new Map();

  /** @param {Topic} topic @param {any} [payload] */
  const tell = (topic, payload) => {
    for (const listener of [...(listeners.get(topic) ?? [])]) listener(payload);
  };

  /** Frames that carry no state, by the topic they are passed on to. */
  const PASSED_ON = { analysis: 'analysis', game_analysis: 'game_analysis', tournament_standings: 'tournament', tournament_entry: 'tournament' };

  return {
    get state() {
      return state;
    },
    /** Applies a server frame; whether some reducer took it. */
    dispatch(frame, at) {
      const topic = PASSED_ON[frame.t];
      if (topic) {
        tell(topic, frame);
        return true;
      }
      const outcome = reduce(state, frame, at);
      if (!outcome) return false;
      state = outcome.state;
      // The views shown redraw first; then the effects (a game's page opened, or the result
      // focused, finds what is drawn now).
      for (const name of outcome.topics) tell(/** @type {Topic} */ (name));
      for (const effect of outcome.effects) carryOut(effect);
      return true;
    },
    set(patch, topic = 'game') {
      state = { ...state, ...patch };
      tell(topic);
    },
    subscribe(topic, listener) {
      if (!listeners.has(topic)) listeners.set(topic, new Set());
      listeners.get(topic).add(listener);
      return () => listeners.get(topic)?.delete(listener);
    },
    listened: (topic) => (listeners.get(topic)?.size ?? 0) > 0,
    tell,
    /** Someone else now uses this browser: nothing of the last one's games is kept. */
    reset() {
      state = initialState();
    },
  };
}
