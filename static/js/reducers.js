// How each server frame changes the client's state: one reducer per frame type, each a pure
// function of the state before, the frame and the moment (no DOM, no socket, no clock of its
// own), so that they run under Node in e2e/tests/reducers.test.mjs. What a frame asks the page
// to do besides (a sound, a frame back, opening the game's page) is returned as effects, which
// the store hands to main.js to carry out.

/**
 * @typedef {import('./types.js').GameState} GameState
 * @typedef {import('./types.js').Frame} Frame
 * @typedef {import('./types.js').ClientState} ClientState
 * @typedef {{ sound: 'start' | 'move' | 'capture' | 'den' | 'offer' | 'low' } | { send: Frame }
 *   | { openGame: string, arriving: boolean } | { focusEnd: true }} Effect
 * @typedef {{ now: number, route: { name: string, id?: string } | null }} Moment
 * @typedef {{ state: ClientState, effects: Effect[], topics: string[] }} Outcome
 */

/** @returns {ClientState} */
export function initialState() {
  return {
    game: null,
    clockReceivedAt: 0,
    awayDeadline: {},
    abortDeadline: null,
    seek: null,
    rematchAsked: false,
    rematchOffered: false,
    confirmResign: false,
    drawOfferedAt: null,
    drawDeclined: false,
    takebackDeclined: false,
    premove: null,
    chat: [],
    dayGivenAt: null,
    waiting: null,
  };
}

/** What this client remembers of one game, forgotten when another game is shown. */
const FRESH_GAME = {
  rematchAsked: false,
  rematchOffered: false,
  confirmResign: false,
  drawOfferedAt: null,
  drawDeclined: false,
  takebackDeclined: false,
  premove: null,
  chat: [],
  awayDeadline: {},
  dayGivenAt: null,
};

/** A deadline `ms` from `now`, or none. */
const deadline = (ms, now) => (ms != null ? now + ms : null);

/**
 * Whether an event about the shown game follows on from the state held: `applied` for the
 * next one, `stale` for one already applied, `gap` after a missed one (the whole state is
 * asked for again).
 * @param {GameState | null} game
 * @param {Frame} frame
 * @returns {'applied' | 'stale' | 'gap' | 'elsewhere'}
 */
export function sequence(game, frame) {
  if (!game || game.game !== frame.game) return 'elsewhere';
  const seq = Number(frame.seq);
  if (seq <= game.seq) return 'stale';
  return seq === game.seq + 1 ? 'applied' : 'gap';
}

/** @type {Record<string, (state: ClientState, frame: Frame, at: Moment) => Outcome | null>} */
const GAME_EVENTS = {
  moved(state, frame, at) {
    const game = state.game;
    const captured = frame.captured
      ? // The side now to move is the one whose animal was taken.
        { ...game.captured, [frame.turn]: [...game.captured[frame.turn], frame.captured] }
      : game.captured;
    const next = {
      ...game,
      moves: [...game.moves, frame.mv],
      position: frame.position,
      turn: frame.turn,
      status: frame.status,
      draw_offer: frame.draw_offer ?? null,
      takeback_offer: null,
      // A new turn: no day given in it yet.
      day_given: false,
      clocks: frame.clocks,
      legal: frame.legal,
      captured,
    };
    /** @type {Effect[]} */
    const effects = [{ sound: frame.captured ? 'capture' : 'move' }];
    let premove = state.premove;
    // Our turn now: a queued move goes at once if it is legal; otherwise it is dropped.
    if (frame.turn === game.you && premove) {
      if (frame.legal.includes(premove)) effects.unshift({ send: { t: 'move', game: game.game, mv: premove } });
      premove = null;
    }
    return {
      state: {
        ...state,
        game: next,
        premove,
        drawDeclined: false,
        takebackDeclined: false,
        abortDeadline: deadline(frame.abort_in_ms, at.now),
        clockReceivedAt: at.now,
      },
      effects,
      topics: ['game'],
    };
  },

  game_over(state, frame, at) {
    const game = state.game;
    const next = {
      ...game,
      status: frame.status,
      result: { winner: frame.winner, reason: frame.reason, rated: frame.rated, rating_change: frame.rating_change },
      legal: [],
      draw_offer: null,
      // As they stood at the end, not as at the last move.
      clocks: frame.clocks ?? { ...game.clocks, running: null },
    };
    return {
      state: { ...state, game: next, clockReceivedAt: at.now },
      effects: [{ sound: frame.reason === 'den' ? 'den' : 'start' }, { focusEnd: true }],
      topics: ['game'],
    };
  },

  presence(state, frame, at) {
    const game = state.game;
    const seat = game[frame.side] ? { ...game[frame.side], online: frame.online } : game[frame.side];
    const away = frame.online || frame.abandon_in_ms == null ? null : at.now + frame.abandon_in_ms;
    return {
      state: { ...state, game: { ...game, [frame.side]: seat }, awayDeadline: { ...state.awayDeadline, [frame.side]: away } },
      effects: [],
      topics: ['game'],
    };
  },

  draw_offered(state, frame) {
    const game = state.game;
    const toUs = frame.by !== game.you && game.you != null;
    return {
      state: { ...state, game: { ...game, draw_offer: frame.by } },
      // An offer to us is heard as well as seen.
      effects: toUs ? [{ sound: 'offer' }] : [],
      topics: ['game'],
    };
  },

  draw_declined(state, frame) {
    const game = state.game;
    // The one who offered hears of it.
    const ours = frame.by !== game.you && game.you != null;
    return {
      state: { ...state, game: { ...game, draw_offer: null }, drawDeclined: ours || state.drawDeclined },
      effects: ours ? [{ sound: 'low' }] : [],
      topics: ['game'],
    };
  },

  takeback_offered(state, frame) {
    const game = state.game;
    const toUs = frame.by !== game.you && game.you != null;
    return {
      state: { ...state, game: { ...game, takeback_offer: frame.by } },
      effects: toUs ? [{ sound: 'offer' }] : [],
      topics: ['game'],
    };
  },

  takeback_declined(state, frame) {
    const game = state.game;
    const ours = frame.by !== game.you && game.you != null;
    return {
      state: { ...state, game: { ...game, takeback_offer: null }, takebackDeclined: ours || state.takebackDeclined },
      effects: [],
      topics: ['game'],
    };
  },

  rematch_offered(state, frame) {
    const game = state.game;
    if (frame.by === game.you) return { state, effects: [], topics: [] };
    return { state: { ...state, rematchOffered: true }, effects: [], topics: ['game'] };
  },
};

/** @type {Record<string, (state: ClientState, frame: Frame, at: Moment) => Outcome | null>} */
const OTHER_FRAMES = {
  seeking(state, frame) {
    return { state: { ...state, seek: state.seek ? { ...state.seek, pool: frame.pool } : null }, effects: [], topics: ['seek'] };
  },

  seek_cancelled(state) {
    return { state: { ...state, seek: null }, effects: [], topics: ['seek'] };
  },

  chat_line(state, frame) {
    if (state.game?.game !== frame.game) return null;
    return { state: { ...state, chat: [...state.chat, frame].slice(-100) }, effects: [], topics: ['chat'] };
  },

  game(state, frame, at) {
    const held = state.game;
    const arriving = held?.game !== frame.game;
    const route = at.route;
    // A game we play takes the screen as it arrives; one we merely watch only on its own page.
    const ours = frame.you != null && frame.status !== 'finished' && frame.status !== 'aborted';
    const wanted = route?.name === 'game' && route.id === frame.game;
    // A correspondence game takes the screen only as it begins: later states (a day given, a
    // takeback) reach a player who may be reading the lobby or another of their games. The
    // list of games waiting for their move hears of it.
    if (frame.clock?.kind === 'days' && ours && !wanted && frame.moves.length > 0) {
      if (held?.game !== frame.game) return { state, effects: [], topics: ['correspondence'] };
      const game = /** @type {GameState} */ (/** @type {unknown} */ ({ ...frame }));
      return {
        state: { ...state, game, clockReceivedAt: at.now, abortDeadline: deadline(frame.abort_in_ms, at.now) },
        effects: [],
        topics: ['game', 'correspondence'],
      };
    }
    // A spectator of a finished game follows its rematch: the same two players, a new game.
    const pair = (g) => [g.red?.id, g.blue?.id].sort().join();
    const rematch = held != null && arriving && held.status !== 'active' && route?.name === 'game'
      && frame.status === 'active' && pair(frame) === pair(held);
    if (!ours && !wanted && !rematch && route?.name !== 'room') return null;
    const game = /** @type {GameState} */ (/** @type {unknown} */ ({ ...frame }));
    /** @type {ClientState} */
    let next = { ...state, ...(arriving ? FRESH_GAME : {}), game };
    if (ours && arriving) next.seek = null;
    next = {
      ...next,
      clockReceivedAt: at.now,
      abortDeadline: deadline(frame.abort_in_ms, at.now),
      awayDeadline: { red: deadline(frame.red_away_ms, at.now), blue: deadline(frame.blue_away_ms, at.now) },
    };
    /** @type {Effect[]} */
    const effects = [];
    if (arriving && frame.status === 'active' && frame.moves.length === 0) effects.push({ sound: 'start' });
    // A game of ours takes the screen as it begins (a seek met, a room joined), on its own
    // page, or from the lobby; not later on another page: a player who went (or opened a new
    // tab) to read the rules or a profile mid-game stays there (the header says whose move).
    const begins = arriving && frame.moves.length === 0;
    if (begins || wanted || rematch || route?.name === 'room' || (arriving && route?.name === 'home')) {
      effects.push({ openGame: frame.game, arriving });
    }
    return { state: next, effects, topics: ours && arriving ? ['seek', 'game'] : ['game'] };
  },
};

/**
 * The state after `frame`, what it asks of the page, and which subscribers hear of it; null
 * for a frame that changes nothing here (another game's event, a frame of no state).
 * @param {ClientState} state
 * @param {Frame} frame
 * @param {Moment} at
 * @returns {Outcome | null}
 */
export function reduce(state, frame, at) {
  const outcome = reduceFrame(state, frame, at);
  // News of a correspondence game: the list of games waiting for the reader's move is asked
  // for again.
  if (outcome?.topics.includes('game') && !outcome.topics.includes('correspondence') && outcome.state.game?.clock?.kind === 'days') {
    return { ...outcome, topics: [...outcome.topics, 'correspondence'] };
  }
  return outcome;
}

/**
 * @param {ClientState} state
 * @param {Frame} frame
 * @param {Moment} at
 * @returns {Outcome | null}
 */
function reduceFrame(state, frame, at) {
  const event = GAME_EVENTS[frame.t];
  if (event) {
    switch (sequence(state.game, frame)) {
      case 'applied':
        return event({ ...state, game: { ...state.game, seq: Number(frame.seq) } }, frame, at);
      case 'gap':
        // A frame was missed: the whole state again.
        return { state, effects: [{ send: { t: 'watch', game: state.game.game } }], topics: [] };
      default:
        return null;
    }
  }
  return OTHER_FRAMES[frame.t]?.(state, frame, at) ?? null;
}

/** The frame types some reducer reads. */
export const REDUCED = new Set([...Object.keys(GAME_EVENTS), ...Object.keys(OTHER_FRAMES)]);
