// Correspondence in the browser (issue 28): two accounts start a game over days from a private
// room, play; the clocks read in days and hours with the turn's deadline in local time, the
// player waiting gives the other a day, the header's badge and the lobby's list show the game
// to the player whose move it is. A seek over days waits in the lobby's list until someone
// takes it; a rated game over days gives a correspondence rating, on the profile apart. On a
// phone and a desktop, in every language, with the longest usernames allowed (20 characters).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, DEN_WIN_AT_PLY_21, clickMove, newAccount, newPlayer, PASSWORD, playMoves, serverAndBrowser,
  signIn as signInAt, useLanguage, waitForPlies,
} from './harness.mjs';
import { initialState, reduce } from '../../static/js/reducers.js';

const env = serverAndBrowser();

const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 900 };
const LANGUAGES = ['en', 'zh', 'zh-Hant'];

/**
 * A guest who keeps their player as an account named `username`, in the lobby.
 * @param {string} username
 * @param {{ width: number, height: number }} viewport
 */
const account = (username, viewport) => newAccount(env.browser, env.server.url, username, viewport);

/** A fresh browser profile signed in to `username`'s account, in the lobby. */
const signIn = (username, viewport) => signInAt(env.browser, env.server.url, username, viewport);

/** The text of the clock of `side` on `page`. */
const clockText = (page, side) => page.locator(`[data-clock="${side}"]`).innerText();

/** Whether anything on the page is wider than the window (a horizontal scroll). */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

const GAME = 'aaaaaaaa-0000-4000-8000-00000000000d';
const OTHER = 'aaaaaaaa-0000-4000-8000-00000000000e';
const DAY = 86400000;

/** The `game` frame of a game over three days that Red (us) plays, `moves` played. */
function daysFrame(extra = {}) {
  return {
    t: 'game', game: GAME, seq: 4, rules: 'classic', clock: { kind: 'days', days: 3 }, rated: true, code: null,
    red: { id: 'r', name: 'Ada', rating: 1500, provisional: true, online: true },
    blue: { id: 'b', name: 'Bo', rating: 1500, provisional: true, online: false }, you: 'red', start: 'x',
    moves: ['e3d3', 'a9b9', 'd3d4'], position: 'p', turn: 'blue',
    clocks: { red_ms: 3 * DAY, blue_ms: 4 * DAY, running: 'blue', red_timeouts: 0, blue_timeouts: 0 },
    captured: { red: [], blue: [] }, draw_offer: null, status: 'active', result: null, red_away_ms: null,
    blue_away_ms: null, legal: [], ...extra,
  };
}

test('a game over days takes the screen as it begins, never later: its news asks for the list again', () => {
  const lobby = { now: 5, route: { name: 'home' } };
  // Begun: opened, wherever the player is.
  const begun = reduce(initialState(), daysFrame({ moves: [], turn: 'red', clocks: { red_ms: 3 * DAY, blue_ms: 3 * DAY, running: null, red_timeouts: 0, blue_timeouts: 0 } }), lobby);
  assert.deepEqual(begun.effects.filter((e) => 'openGame' in e), [{ openGame: GAME, arriving: true }]);
  assert.ok(begun.topics.includes('correspondence'));
  // A later state (a day given) of a game not shown: nothing opens; the list is asked for.
  const elsewhere = { ...initialState(), game: { ...daysFrame(), game: OTHER } };
  const later = reduce(elsewhere, daysFrame(), lobby);
  assert.deepEqual(later.effects, []);
  assert.deepEqual(later.topics, ['correspondence']);
  assert.equal(later.state.game.game, OTHER, 'the game held stays');
  // The same game, held while the player reads the lobby: updated in place, not opened.
  const held = reduce({ ...initialState(), game: daysFrame({ seq: 3 }) }, daysFrame(), lobby);
  assert.deepEqual(held.effects, []);
  assert.equal(held.state.game.clocks.blue_ms, 4 * DAY);
  // On its own page it is the game page's, as any game's.
  const shown = reduce(initialState(), daysFrame(), { now: 5, route: { name: 'game', id: GAME } });
  assert.deepEqual(shown.effects, [{ openGame: GAME, arriving: true }]);
  assert.ok(shown.topics.includes('game') && shown.topics.includes('correspondence'));
  // A move in it, too, asks for the list; a real-time game's does not.
  const moved = { t: 'moved', game: GAME, seq: 5, mv: 'a7a6', position: 'q', turn: 'red', status: 'active', clocks: daysFrame().clocks, legal: [] };
  assert.deepEqual(reduce(shown.state, moved, lobby).topics, ['game', 'correspondence']);
  const blitz = reduce(initialState(), daysFrame({ clock: { kind: 'fischer', base_s: 300, inc_s: 3 } }), lobby);
  assert.ok(!blitz.topics.includes('correspondence'));
  assert.deepEqual(blitz.effects.filter((e) => 'openGame' in e), [{ openGame: GAME, arriving: true }], 'a real-time game of ours always opens');
  // The state says when a day was given this turn (from any device); a move begins a turn
  // without one.
  const given = reduce({ ...initialState(), game: daysFrame({ seq: 3 }) }, daysFrame({ day_given: true }), { now: 5, route: { name: 'game', id: GAME } });
  assert.equal(given.state.game.day_given, true);
  const next = reduce(given.state, { ...moved, seq: 5, clocks: { ...moved.clocks, running: 'red' } }, { now: 6, route: { name: 'game', id: GAME } });
  assert.equal(next.state.game.day_given, false);
  // What was given is forgotten with the game.
  assert.equal(reduce({ ...initialState(), dayGivenAt: 3, game: { ...daysFrame(), game: OTHER } }, daysFrame(), { now: 5, route: { name: 'game', id: GAME } }).state.dayGivenAt, null);
});

test('days clocks read in days and hours, a deadline in local time', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Clockmaker', phone);
  const read = await page.evaluate(async () => {
    const { formatDays, formatDeadline, describeClock } = await import('/js/clock.js');
    const { t } = await import('/js/i18n.js');
    const H = 3600000;
    const at = new Date(2026, 11, 5, 14, 5, 30).getTime(); // a Saturday
    return {
      days: formatDays(2 * 24 * H + 3 * H + 59 * 60000, t),
      hours: formatDays(5 * H + 12 * 60000 + 59000, t),
      minutes: formatDays(42 * 60000 + 5000, t),
      soon: formatDeadline(at, 'en', at - 2 * 24 * H),
      later: formatDeadline(at, 'en', at - 10 * 24 * H),
      zh: formatDeadline(at, 'zh-CN', at - 2 * 24 * H),
      one: describeClock({ kind: 'days', days: 1 }, t),
      three: describeClock({ kind: 'days', days: 3 }, t),
    };
  });
  assert.equal(read.days, '2 d 3 h');
  assert.equal(read.hours, '5 h 12 min');
  assert.equal(read.minutes, '42:05', 'seconds only under an hour');
  assert.equal(read.soon, 'Sat 14:05');
  assert.match(read.later, /Sat.*Dec.*5.*14:05|Sat.*5.*Dec.*14:05/, 'the date too, more than a few days ahead');
  assert.equal(read.zh, '周六 14:05');
  assert.equal(read.one, '1 day per move');
  assert.equal(read.three, '3 days per move');
  await page.context().close();
});

test('a game over days in a private room: days clocks, deadlines, +1 day, the badge and the lobby\'s list', async () => {
  const alice = await newPlayer(env.browser, env.server.url, 'Alexandrina Victoria Wet', desktop);
  // A guest sees the days greyed, and why.
  assert.equal(await alice.locator('[data-preset="3d"]').isDisabled(), true);
  assert.equal(await alice.locator('#pr-clock option[value="3d"]').isDisabled(), true);
  assert.match(await alice.locator('#qm').locator('..').innerText(), /Games over days need an account/);
  await alice.fill('#claim-user', 'Alexandrina_Victoria');
  await alice.fill('#claim-pass', PASSWORD);
  await alice.click('#claim-form button[type=submit]');
  await alice.waitForSelector('#sign-out');
  assert.equal(await alice.locator('[data-preset="3d"]').isDisabled(), false, 'an account may play over days');
  const bob = await account('Bartholomew_Roberts2', phone);

  // Alice opens a room over three days; the computer is not offered for it.
  await alice.selectOption('#pr-clock', '3d');
  await alice.selectOption('#pr-colour', 'red');
  await alice.click('#create-room');
  await alice.waitForSelector('#room-link');
  assert.equal(await alice.locator('#add-computer').count(), 0, 'no computer over days');
  const link = await alice.inputValue('#room-link');
  await bob.goto(link);
  await bob.waitForSelector('#take-seat');
  assert.match(await bob.locator('.invite h1').innerText(), /Alexandrina_Victoria invites you to a game of Classic, 3 days per move/);
  await bob.click('#take-seat');
  await bob.waitForURL(/\/g\//);
  await alice.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  const game = await alice.evaluate(() => window.jungleApp.store.state.game.game);

  // Red's first move: its days, and the deadline, both in its clock and under the board.
  await alice.waitForFunction(() => /by .*, or the game is aborted/.test(document.querySelector('#first-move')?.textContent ?? ''));
  await alice.screenshot({ path: join(artifacts, 'corr-first-move-en-1366.png') });
  assert.match(await clockText(alice, 'red'), /^2 d 23 h\s*until \w{3} \d\d:\d\d$/);
  assert.match(await clockText(alice, 'blue'), /^3 d 0 h$/);
  assert.match(await alice.locator('#turn-info').innerText(), /Classic · 3 days per move · Casual/);
  assert.equal(await alice.locator('#give-day').count(), 0, 'no day to give on one\'s own turn');
  assert.equal(await alice.locator('#away').isHidden(), true);

  await playMoves(alice, bob, ['e3d3', 'a9b9', 'd3d4']);
  // Blue to move: Blue's clock runs in days; Red may give a day.
  await bob.waitForFunction(() => /^2 d 23 h\s*until/.test(document.querySelector('[data-clock="blue"]')?.textContent ?? ''));
  const deadline = (await clockText(bob, 'blue')).split(/\n/)[1];
  const expected = await bob.evaluate(() => new Date(Date.now() + 3 * 86400000 - 60000)
    .toLocaleString('en', { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));
  assert.ok(deadline.includes(expected.slice(0, 3)), `the deadline is three days on (${deadline}, ${expected})`);
  assert.equal(await bob.locator('#give-day').count(), 0);
  // The badge and the list find it for Bob, not for Alice.
  await bob.waitForSelector('#turn-badge:not([hidden])', { timeout: 20000 });
  assert.equal(await bob.locator('#turn-badge').innerText(), '1');
  assert.equal(await bob.locator('#turn-badge').getAttribute('aria-label'), 'Your turn in 1 correspondence game');
  assert.equal(await alice.locator('#turn-badge').isHidden(), true);

  await alice.waitForSelector('#give-day');
  assert.equal(await alice.locator('#give-day').innerText(), '+1 day');
  await alice.screenshot({ path: join(artifacts, 'corr-give-day-en-1366.png') });
  await alice.click('#give-day');
  await alice.waitForFunction(() => /^3 d 23 h/.test(document.querySelector('[data-clock="blue"]')?.textContent ?? ''));
  await bob.waitForFunction(() => /^3 d 23 h/.test(document.querySelector('[data-clock="blue"]')?.textContent ?? ''));
  // Bob hears of it on his game's page.
  await bob.waitForFunction(() => /Alexandrina_Victoria gave you one more day\./.test(document.querySelector('#turn-info')?.textContent ?? ''));
  assert.doesNotMatch(await alice.locator('#turn-info').innerText(), /gave you/);
  assert.equal(await alice.locator('#give-day').isDisabled(), true);
  assert.equal(await alice.locator('#give-day').innerText(), 'Day given');
  // Once a turn: the server says no to a second, in our words.
  await alice.evaluate((id) => window.jungleApp.session.send({ t: 'give_day', game: id }), game);
  await alice.waitForFunction(() => /once a turn/.test(document.querySelector('#status')?.textContent ?? ''));
  // After a reload the button still says the day was given; on another device too (the game's
  // state says so, not this browser).
  await alice.reload();
  await alice.waitForSelector('#give-day');
  assert.equal(await alice.locator('#give-day').isDisabled(), true);
  const elsewhere = await signIn('Alexandrina_Victoria', phone);
  await elsewhere.goto(`${env.server.url}/g/${game}`);
  await elsewhere.waitForSelector('#give-day:disabled');
  assert.equal(await elsewhere.locator('#give-day').innerText(), 'Day given');
  await elsewhere.screenshot({ path: join(artifacts, 'corr-day-given-elsewhere-en-390.png') });
  await elsewhere.context().close();

  // Bob follows the badge to the lobby's list, and back to the game from it.
  await bob.click('#turn-badge');
  await bob.waitForSelector('#your-turn:not([hidden]) #yt-list li');
  assert.equal(await bob.locator('#yt').innerText(), 'Your turn in 1 game');
  // The list is asked for again after the day given (a few seconds apart at most).
  await bob.waitForFunction(() => /3 d 23 h left/.test(document.querySelector('#yt-list li')?.textContent ?? ''), null, { timeout: 15000 });
  const row = await bob.locator('#yt-list li').innerText();
  assert.match(row, /Alexandrina_Victoria · Classic · 3 days per move/);
  assert.match(row, /3 d 23 h left · until \w{3} \d\d:\d\d/);
  await bob.click(`#yt-list a[href="/g/${game}"]`);
  await bob.waitForURL(new RegExp(`/g/${game}$`));
  await bob.waitForSelector('[data-clock="blue"].running');
  // Alice's lobby: nothing waits for her, one game in progress; her game page stayed hers.
  await alice.click('.brand');
  await alice.waitForSelector('#your-turn:not([hidden])');
  assert.equal(await alice.locator('#yt-note').innerText(), 'No game is waiting for your move. 1 correspondence game in progress.');
  assert.equal(await alice.locator('#yt-list li').count(), 0);
  // ...but her game on Bob's turn is listed under 'Waiting for your opponent', and opens.
  await alice.waitForSelector('#yt-theirs li');
  assert.equal(await alice.locator('#yt-theirs-h').innerText(), 'Waiting for your opponent');
  const theirs = await alice.locator('#yt-theirs li').innerText();
  assert.match(theirs, /Bartholomew_Roberts2 · Classic · 3 days per move/);
  assert.match(theirs, /3 d 23 h left for them · until \w{3} \d\d:\d\d/);
  assert.equal(await bob.evaluate(() => document.querySelectorAll('#yt-theirs li').length), 0);
  await alice.click(`#yt-theirs a[href="/g/${game}"]`);
  await alice.waitForURL(new RegExp(`/g/${game}$`));
  await alice.waitForSelector('#give-day:disabled');

  // Every language, on a phone and a desktop, each player on either.
  for (const lang of LANGUAGES) {
    for (const [bobView, aliceView] of [[phone, desktop], [desktop, phone]]) {
      await bob.setViewportSize(bobView);
      await alice.setViewportSize(aliceView);
      for (const page of [alice, bob]) {
        await useLanguage(page, lang);
        await page.goto(`${env.server.url}/g/${game}`);
        await page.waitForSelector('[data-clock="blue"].running small.deadline');
      }
      await bob.waitForSelector('#turn-badge:not([hidden])');
      await alice.waitForSelector('#give-day:disabled');
      for (const page of [alice, bob]) assert.equal(await overflows(page), false, `${lang}: no sideways scroll`);
      // Every name whole beside the days clocks, on a phone too.
      for (const page of [alice, bob]) {
        const cut = await page.evaluate(() => [...document.querySelectorAll('.seat-name')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
        assert.deepEqual(cut, [], `${lang}: no name cut`);
      }
      if (bobView === phone && lang !== 'zh-Hant') {
        // The longest names a guest may take (24 characters), drawn in Bob's page.
        await bob.evaluate(() => {
          const store = window.jungleApp.store;
          const g = store.state.game;
          store.set({ game: { ...g, red: { ...g.red, name: 'Alexandrina Victoria Wet' }, blue: { ...g.blue, name: 'Bartholomew Roberts 2345' } } });
        });
        const cut = await bob.evaluate(() => [...document.querySelectorAll('.seat-name')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth).map((el) => el.textContent));
        assert.deepEqual(cut, [], `${lang}: no long name cut`);
        assert.equal(await overflows(bob), false, `${lang}: no sideways scroll with long names`);
        await bob.screenshot({ path: join(artifacts, `corr-game-long-names-${lang}-390.png`) });
      }
      if (lang !== 'en') {
        assert.doesNotMatch(await bob.locator('.game').innerText(), /until|days per move| d \d+ h/, `${lang}: all translated`);
      }
      await bob.screenshot({ path: join(artifacts, `corr-game-blue-${lang}-${bobView.width}.png`) });
      await alice.screenshot({ path: join(artifacts, `corr-game-red-${lang}-${aliceView.width}.png`) });
      await bob.click('#turn-badge');
      await bob.waitForSelector('#your-turn:not([hidden]) #yt-list li');
      assert.equal(await overflows(bob), false, `${lang}: the lobby has no sideways scroll`);
      await bob.screenshot({ path: join(artifacts, `corr-lobby-${lang}-${bobView.width}.png`) });
      // Alice's lobby: her game on Bob's turn.
      await alice.click('.brand');
      await alice.waitForSelector('#your-turn:not([hidden]) #yt-theirs li');
      assert.equal(await overflows(alice), false, `${lang}: Alice's lobby has no sideways scroll`);
      await alice.locator('#your-turn').screenshot({ path: join(artifacts, `corr-lobby-theirs-${lang}-${aliceView.width}.png`) });
      if (lang === 'en' && bobView === phone) await bob.screenshot({ path: join(artifacts, 'corr-lobby-full-en-390.png'), fullPage: true });
    }
  }
  await alice.context().close();
  await bob.context().close();
});

test('a seek over days waits in the open list for someone to take it; a rated game gives a correspondence rating', async () => {
  const carol = await account('Carolina_Herschel_17', desktop);
  const dave = await account('Davidson_Livingstone', phone);
  const guest = await newPlayer(env.browser, env.server.url, 'Just Passing Through Now', phone);
  await carol.click('[data-preset="1d"]');
  assert.equal(await carol.locator('#qm-computer').isDisabled(), true, 'the computer never steps in over days');
  await carol.check('#qm-rated');
  await carol.click('#play');
  await carol.waitForSelector('#cancel-seek');
  assert.match(await carol.locator('#seek-area').innerText(), /listed under Open challenges/);
  await carol.screenshot({ path: join(artifacts, 'corr-seek-en-1366.png') });
  // Nobody is paired with it: it waits in the list, for accounts only.
  for (const page of [dave, guest]) await page.reload();
  const seekRow = (page) => page.locator('#open-seeks li', { hasText: 'Carolina_Herschel_17' });
  await seekRow(dave).waitFor();
  assert.match(await seekRow(dave).innerText(), /1 day per move · Rated/);
  await seekRow(guest).waitFor();
  assert.equal(await seekRow(guest).locator('button').isDisabled(), true, 'a guest may not take it');
  await guest.context().close();
  await seekRow(dave).locator('button').click();
  await carol.waitForURL(/\/g\//);
  await dave.waitForURL(/\/g\//);
  const red = (await carol.evaluate(() => window.jungleApp.store.state.game.you)) === 'red' ? carol : dave;
  const blue = red === carol ? dave : carol;
  assert.match(await red.locator('#turn-info').innerText(), /1 day per move · Rated/);
  await playMoves(red, blue, DEN_WIN_AT_PLY_21);
  await red.waitForSelector('#end');
  assert.match(await red.locator('#end').innerText(), /You win/);
  // The rating over days stands apart on the profile and in the lobby.
  await red.click('#end a[href="/"]');
  await red.waitForSelector('#mine li');
  await red.waitForFunction(() => /Classic · Correspondence/.test(document.querySelector('#mine')?.textContent ?? ''));
  const id = await red.evaluate(() => window.jungleApp.session.player.id);
  await red.goto(`${env.server.url}/p/${id}`);
  await red.waitForSelector('#profile-correspondence:not([hidden]) li');
  assert.match(await red.locator('#correspondence-ratings').innerText(), /Classic\s+\d+\? · 1 game/);
  assert.equal(await red.locator('#correspondence-ratings li').count(), 1, 'only rulesets played over days');
  await red.screenshot({ path: join(artifacts, 'corr-profile-en.png'), fullPage: true });
  // Its rating chart: games over days at first (none in one sitting), the other speed a click
  // away; in every language, on a phone and a desktop.
  await red.waitForSelector('#profile-speed:not([hidden]) [data-speed="correspondence"][aria-pressed="true"]');
  await red.waitForSelector('#profile-chart .rating-chart');
  assert.match(await red.locator('.rating-chart').getAttribute('aria-label'), /: 1500 → \d{4}, \S.*\d{4}$/);
  await red.click('#profile-speed [data-speed=""]');
  await red.waitForFunction(() => /No rated games in this ruleset yet/.test(document.querySelector('#profile-chart')?.textContent ?? ''));
  await red.selectOption('#profile-rules', 'strict');
  await red.click('#profile-speed [data-speed="correspondence"]');
  await red.waitForFunction(() => /No rated games over days in this ruleset yet/.test(document.querySelector('#profile-chart')?.textContent ?? ''));
  for (const lang of LANGUAGES) {
    for (const viewport of [phone, desktop]) {
      await red.setViewportSize(viewport);
      await useLanguage(red, lang);
      await red.goto(`${env.server.url}/p/${id}`);
      await red.waitForSelector('#profile-chart .rating-chart');
      assert.equal(await overflows(red), false, `${lang} ${viewport.width}: no sideways scroll`);
      if (lang !== 'en') assert.doesNotMatch(await red.locator('#profile-speed').innerText(), /[a-z]{3,}/i, `${lang}: translated`);
      await red.locator('h2', { hasText: /Rating history|等级分走势|等級分走勢/ }).scrollIntoViewIfNeeded();
      await red.screenshot({ path: join(artifacts, `corr-profile-chart-${lang}-${viewport.width}.png`) });
    }
  }
  // Both players' games ended: nothing waits.
  assert.equal(await blue.locator('#turn-badge').isHidden(), true);
  await carol.context().close();
  await dave.context().close();
});

test('a challenge over days is offered between accounts only', async () => {
  const erin = await account('Erinna_of_Telos_2026', desktop);
  const frank = await account('Franklin_Pierce_1804', phone);
  const frankId = await frank.evaluate(() => window.jungleApp.session.player.id);
  await erin.goto(`${env.server.url}/p/${frankId}`);
  await erin.click('#challenge-panel summary');
  assert.equal(await erin.locator('#ch-clock option[value="7d"]').isDisabled(), false);
  await erin.selectOption('#ch-clock', '7d');
  await erin.click('#challenge-form button[type=submit]');
  await frank.waitForSelector('.challenge-notice [data-accept]');
  assert.match(await frank.locator('.challenge-notice').innerText(), /7 days per move/);
  await frank.click('.challenge-notice [data-accept]');
  await erin.waitForURL(/\/g\//);
  await frank.waitForURL(/\/g\//);
  const red = (await erin.evaluate(() => window.jungleApp.store.state.game.you)) === 'red' ? erin : frank;
  await clickMove(red, 'e3d3');
  await waitForPlies(erin, 1);
  await waitForPlies(frank, 1);
  assert.match(await red.locator('[data-clock="blue"]').innerText(), /^6 d 23 h\s*until/);

  // A guest's challenge form greys the days.
  const guest = await newPlayer(env.browser, env.server.url, 'Guest Challenger', phone);
  await guest.goto(`${env.server.url}/p/${frankId}`);
  await guest.click('#challenge-panel summary');
  assert.equal(await guest.locator('#ch-clock option[value="7d"]').isDisabled(), true);
  for (const page of [erin, frank, guest]) await page.context().close();
});
