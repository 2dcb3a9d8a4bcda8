// Types of the wire protocol as the client sees it (docs/protocol.md), for JSDoc checking by
// `tsc --checkJs`. Nothing runs here.

/**
 * @typedef {'red' | 'blue'} Side
 * @typedef {'waiting' | 'active' | 'finished' | 'aborted'} GameStatus
 * @typedef {{ kind: 'fischer', base_s: number, inc_s: number } | { kind: 'per_move', move_s: number, max_timeouts: number, consecutive: boolean }
 *   | { kind: 'days', days: number }} ClockSpec
 * @typedef {{ red_ms: number, blue_ms: number, running: Side | null, red_timeouts: number, blue_timeouts: number }} Clocks
 * @typedef {{ id: string, name: string, rating: number, provisional: boolean, online: boolean, computer?: number, disconnects?: number, title?: string }} Seat
 * @typedef {{ red: number, blue: number }} RatingChange
 * @typedef {{ winner: Side | null, reason: string, rated: boolean, rating_change: RatingChange | null }} GameResult
 * @typedef {{ red: string[], blue: string[] }} Captured
 * @typedef {{
 *   game: string, seq: number, rules: string, clock: ClockSpec, rated: boolean, code: string | null,
 *   red: Seat | null, blue: Seat | null, you: Side | null, start: string, moves: string[],
 *   position: string, turn: Side, clocks: Clocks, captured: Captured, draw_offer: Side | null,
 *   status: GameStatus, result: GameResult | null, takeback_offer?: Side | null, red_away_ms: number | null,
 *   blue_away_ms: number | null, legal: string[], abort_in_ms?: number | null, tournament?: string | null,
 *   host_colour?: 'red' | 'blue' | 'random', day_given?: boolean,
 * }} GameState the whole state of a game (`game` frame); `day_given` (correspondence): the side
 *   to move was given a day this turn, absent otherwise
 * @typedef {{ id: string, rules: string, clock: ClockSpec, rated: boolean, side: Side,
 *   opponent: { id: string, name: string }, plies: number, deadline_ms: number, left_ms: number }} WaitingGame
 *   a correspondence game waiting for the reader's move (`GET /api/account/games/waiting`)
 * @typedef {{ games: WaitingGame[], opponents_turn?: WaitingGame[], in_progress: number, at: number }} Waiting
 *   the reader's correspondence games (`games` on their move, `opponents_turn` on the
 *   opponent's, with the opponent's deadline), and when the answer came (`Date.now()`)
 * @typedef {{ t: string, [field: string]: any }} Frame
 * @typedef {{ destroy: () => void }} View
 * @typedef {{ id: string, name: string, token: string, username?: string }} StoredPlayer
 * @typedef {{
 *   game: GameState | null,
 *   clockReceivedAt: number,
 *   awayDeadline: { red?: number | null, blue?: number | null },
 *   abortDeadline: number | null,
 *   seek: { since: number, pool: number, days?: boolean } | null,
 *   rematchAsked: boolean,
 *   rematchOffered: boolean,
 *   confirmResign: boolean,
 *   drawOfferedAt: number | null,
 *   drawDeclined: boolean,
 *   takebackDeclined: boolean,
 *   premove: string | null,
 *   chat: any[],
 *   dayGivenAt: number | null,
 *   waiting: Waiting | null,
 * }} ClientState the state the store (store.js) owns
 * @typedef {{
 *   store: import('./store.js').Store,
 *   session: import('./session.js').Session,
 *   router: import('./router.js').Router,
 *   ticker: import('./ticker.js').Ticker,
 * }} App the page's services, each the one place its state changes: the store (what the
 *   server said), the session (who this browser plays as, and the socket that speaks for
 *   them), the router (where the page is) and the ticker (what redraws ten times a second).
 *   Views read them and act through them; none holds another's state.
 */

/**
 * The lessons (issue 29; docs/protocol.md, "Learn"): every text in each language of the client.
 * @typedef {{ en: string, zh: string, 'zh-Hant': string }} LearnText
 * @typedef {{ rules: string, legal: string[], text: LearnText }} Contrast the same position under
 *   another ruleset
 * @typedef {{ rules: string, position: string, history: string[], legal: string[], steps: number,
 *   contrast: Contrast | null }} ExerciseBoard
 * @typedef {{ id: string, intro: LearnText, goal: LearnText, why: LearnText, board: ExerciseBoard | null }} Exercise
 *   `board` null: a reading card
 * @typedef {{ id: string, title: LearnText, exercises: Exercise[] }} Lesson
 * @typedef {{ kind: 'den', within: number } | { kind: 'capture', animal: string, within: number }} PracticeGoal
 * @typedef {{ id: string, rules: string, position: string, side: Side, goal: PracticeGoal, text: LearnText, why: LearnText }} Practice
 * @typedef {{ id: string, title: LearnText, summary: LearnText, lessons: Lesson[], practice: Practice[] }} Chapter
 * @typedef {{ chapters: Chapter[] }} Catalogue
 * @typedef {{ verdict: 'continue' | 'done' | 'wrong' | 'illegal', reply: string | null, position: string,
 *   legal: string[], hint: LearnText | null, recorded: boolean }} TryAnswer
 */

export {};

/** The page's companions (companions.js), once started.
 * @typedef {ReturnType<typeof import('./companions.js').startCompanions>} Companions */
