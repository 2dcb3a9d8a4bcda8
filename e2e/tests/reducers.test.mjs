// The client's reducers (static/js/reducers.js) under Node, without a browser (issue 25): each
// server frame's change to the state, its effects, and the frames that must change nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, reduce, sequence } from '../../static/js/reducers.js';
import { createStore } from '../../static/js/store.js';

const GAME = 'aaaaaaaa-0000-4000-8000-000000000001';
const clocks = (running) => ({ red_ms: 300000, blue_ms: 300000, running, red_timeouts: 0, blue_timeouts: 0 });

/** The `game` frame of a game in progress that Red (us) plays, `moves` played. */
function gameFrame(extra = {}) {
  return {
    t: 'game', game: GAME, seq: 3, rules: 'classic', clock: { kind: 'fischer', base_s: 300, inc_s: 3 }, rated: false,
    code: null, red: { id: 'r', name: 'Ada', rating: 1500, provisional: true, online: true },
    blue: { id: 'b', name: 'Bo', rating: 1500, provisional: true, online: true }, you: 'red', start: 'x', moves: ['a3a4'],
    position: 'p1', turn: 'blue', clocks: clocks('blue'), captured: { red: [], blue: [] }, draw_offer: null,
    status: 'active', result: null, red_away_ms: null, blue_away_ms: null, legal: [], ...extra,
  };
}

const at = (now = 1000, route = { name: 'game', id: GAME }) => ({ now, route });

/** The state once the game frame arrived. */
function playing(extra = {}) {
  return reduce(initialState(), gameFrame(extra), at()).state;
}

const moved = (seq, extra = {}) => ({
  t: 'moved', game: GAME, seq, mv: 'g7g6', position: 'p2', turn: 'red', status: 'active', clocks: clocks('red'),
  legal: ['a4a5', 'a4b4'], ...extra,
});

test('a game of ours opens its page and starts afresh', () => {
  const before = { ...initialState(), seek: { since: 0, pool: 2 }, premove: 'a1a2', rematchAsked: true };
  const outcome = reduce(before, gameFrame(), at(50, { name: 'home' }));
  assert.equal(outcome.state.game.game, GAME);
  assert.equal(outcome.state.seek, null, 'the seek ended: we are playing');
  assert.equal(outcome.state.premove, null);
  assert.equal(outcome.state.rematchAsked, false);
  assert.equal(outcome.state.clockReceivedAt, 50);
  assert.deepEqual(outcome.effects, [{ openGame: GAME, arriving: true }]);
  assert.ok(outcome.topics.includes('seek'));
});

test('a game of ours already held does not pull a player back from another page', () => {
  const state = playing();
  const again = reduce(state, gameFrame({ seq: 5 }), at(60, { name: 'learn' }));
  assert.equal(again.state.game.seq, 5, 'the state is kept up to date');
  assert.deepEqual(again.effects, [], 'and the page shown stays');
  const onItsPage = reduce(state, gameFrame({ seq: 5 }), at(60, { name: 'game', id: GAME }));
  assert.deepEqual(onItsPage.effects, [{ openGame: GAME, arriving: false }]);
});

test('a game of ours under way, heard on opening another page, leaves that page shown', () => {
  // A new tab on the rules mid-game: the state is held, the page stays.
  const onRules = reduce(initialState(), gameFrame(), at(70, { name: 'rules' }));
  assert.equal(onRules.state.game.game, GAME);
  assert.deepEqual(onRules.effects, []);
  // From the lobby, and as a game begins anywhere, it takes the screen.
  assert.deepEqual(reduce(initialState(), gameFrame(), at(70, { name: 'home' })).effects, [{ openGame: GAME, arriving: true }]);
  const begins = reduce(initialState(), gameFrame({ moves: [] }), at(70, { name: 'rules' }));
  assert.deepEqual(begins.effects, [{ sound: 'start' }, { openGame: GAME, arriving: true }]);
});

test('a game we only watch is taken on its own page only', () => {
  const frame = gameFrame({ you: null });
  assert.equal(reduce(initialState(), frame, at(0, { name: 'home' })), null);
  assert.ok(reduce(initialState(), frame, at(0, { name: 'game', id: GAME })));
});

test('a move in sequence is applied; one already seen changes nothing; a gap asks for the state', () => {
  const state = playing();
  const next = reduce(state, moved(4), at(2000));
  assert.deepEqual(next.state.game.moves, ['a3a4', 'g7g6']);
  assert.equal(next.state.game.seq, 4);
  assert.equal(next.state.game.turn, 'red');
  assert.equal(next.state.clockReceivedAt, 2000);
  assert.deepEqual(next.effects, [{ sound: 'move' }]);
  assert.deepEqual(state.game.moves, ['a3a4'], 'the state before is left as it was');
  assert.equal(reduce(next.state, moved(4), at()), null, 'a repeated frame');
  const gap = reduce(state, moved(6), at());
  assert.equal(gap.state, state);
  assert.deepEqual(gap.effects, [{ send: { t: 'watch', game: GAME } }]);
  assert.equal(reduce(state, { ...moved(4), game: 'another' }, at()), null, "another game's move");
});

test('a capture goes to the side now to move, with its sound', () => {
  const next = reduce(playing(), moved(4, { captured: 'rat' }), at()).state;
  assert.deepEqual(next.game.captured, { red: ['rat'], blue: [] });
  assert.deepEqual(reduce(playing(), moved(4, { captured: 'rat' }), at()).effects, [{ sound: 'capture' }]);
});

test('a queued move goes when our turn comes if it is legal, and is dropped if not', () => {
  const queued = { ...playing(), premove: 'a4a5' };
  const sent = reduce(queued, moved(4), at());
  assert.deepEqual(sent.effects[0], { send: { t: 'move', game: GAME, mv: 'a4a5' } });
  assert.equal(sent.state.premove, null);
  const illegal = reduce({ ...playing(), premove: 'a4a3' }, moved(4), at());
  assert.ok(!illegal.effects.some((e) => 'send' in e));
  assert.equal(illegal.state.premove, null);
});

test('the game ends with the clocks as they stood', () => {
  const end = { t: 'game_over', game: GAME, seq: 4, status: 'finished', winner: 'red', reason: 'resign', rated: false,
    rating_change: null, clocks: { ...clocks(null), blue_ms: 1234 } };
  const next = reduce(playing(), end, at());
  assert.equal(next.state.game.status, 'finished');
  assert.equal(next.state.game.clocks.blue_ms, 1234);
  assert.deepEqual(next.state.game.legal, []);
  assert.deepEqual(next.state.game.result, { winner: 'red', reason: 'resign', rated: false, rating_change: null });
  assert.deepEqual(next.effects, [{ sound: 'start' }, { focusEnd: true }]);
});

test('an opponent away counts down from the frame; back online, no countdown', () => {
  const away = reduce(playing(), { t: 'presence', game: GAME, seq: 4, side: 'blue', online: false, abandon_in_ms: 30000 }, at(500)).state;
  assert.equal(away.awayDeadline.blue, 30500);
  assert.equal(away.game.blue.online, false);
  const back = reduce(away, { t: 'presence', game: GAME, seq: 5, side: 'blue', online: true, abandon_in_ms: null }, at(900)).state;
  assert.equal(back.awayDeadline.blue, null);
});

test('offers: heard by the one offered to, a refusal noted for the one who offered', () => {
  const offered = reduce(playing(), { t: 'draw_offered', game: GAME, seq: 4, by: 'blue' }, at());
  assert.equal(offered.state.game.draw_offer, 'blue');
  assert.deepEqual(offered.effects, [{ sound: 'offer' }]);
  const ours = reduce(playing(), { t: 'draw_offered', game: GAME, seq: 4, by: 'red' }, at());
  assert.deepEqual(ours.effects, []);
  const declined = reduce(ours.state, { t: 'draw_declined', game: GAME, seq: 5, by: 'blue' }, at());
  assert.equal(declined.state.drawDeclined, true);
  assert.equal(declined.state.game.draw_offer, null);
  const takeback = reduce(playing(), { t: 'takeback_offered', game: GAME, seq: 4, by: 'blue' }, at());
  assert.equal(takeback.state.game.takeback_offer, 'blue');
  const rematch = reduce(playing(), { t: 'rematch_offered', game: GAME, seq: 4, by: 'blue' }, at());
  assert.equal(rematch.state.rematchOffered, true);
});

test('chat lines of the game shown are kept, the last hundred; others are not', () => {
  let state = playing();
  for (let i = 0; i < 105; i++) state = reduce(state, { t: 'chat_line', game: GAME, text: `l${i}` }, at()).state;
  assert.equal(state.chat.length, 100);
  assert.equal(state.chat[99].text, 'l104');
  assert.equal(reduce(state, { t: 'chat_line', game: 'other', text: 'x' }, at()), null);
});

test('sequence reads where an event stands', () => {
  const game = playing().game;
  assert.equal(sequence(game, { game: GAME, seq: 4 }), 'applied');
  assert.equal(sequence(game, { game: GAME, seq: 3 }), 'stale');
  assert.equal(sequence(game, { game: GAME, seq: 9 }), 'gap');
  assert.equal(sequence(null, { game: GAME, seq: 1 }), 'elsewhere');
});

test('the store tells subscribers, then carries out effects; frames of no state are passed on', () => {
  const done = [];
  const store = createStore((effect) => done.push(['effect', effect]));
  const stop = store.subscribe('game', () => done.push(['game', store.state.game.moves.length]));
  store.dispatch(gameFrame(), at());
  store.dispatch(moved(4), at());
  assert.deepEqual(done, [['game', 1], ['effect', { openGame: GAME, arriving: true }], ['game', 2], ['effect', { sound: 'move' }]]);
  let answer = null;
  store.subscribe('analysis', (frame) => { answer = frame; });
  assert.ok(store.dispatch({ t: 'analysis', best: 'a3a4' }, at()));
  assert.equal(answer.best, 'a3a4');
  assert.equal(store.dispatch({ t: 'welcome' }, at()), false, 'not a store frame');
  stop();
  store.set({ premove: 'a4a5' });
  assert.equal(done.length, 4, 'an unsubscribed view hears nothing');
  assert.equal(store.state.premove, 'a4a5');
});
