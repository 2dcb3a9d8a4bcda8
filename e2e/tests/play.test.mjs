import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, clickMove, DEN_WIN_AT_PLY_13, dragMove, newPlayer, playMoves, quickMatch, serverAndBrowser, waitForPlies, useLanguage, watchPage } from './harness.mjs';

const env = serverAndBrowser();

test('two players quick-match and play to a den win by clicking and dragging', async () => {
  const { red, blue } = await quickMatch(env.browser, env.server.url);
  assert.equal(await blue.evaluate(() => window.jungleApp.store.state.game.you), 'blue');
  // Blue sees the board turned round: its den d9 is at the bottom.
  const redDen = await blue.locator('[data-square="d1"]').boundingBox();
  const blueDen = await blue.locator('[data-square="d9"]').boundingBox();
  assert.ok(blueDen.y > redDen.y, 'blue plays from the bottom');
  // Selecting the leopard shows its legal destinations.
  await red.click('[data-square="e3"]');
  await red.waitForSelector('[data-square="d3"].target');
  assert.equal(await red.locator('.sq.target').count(), 3, 'e3: d3, f3 and e2 (e4 is water)');
  await red.click('[data-square="e3"]');
  assert.equal(await red.locator('.sq.target').count(), 0, 'a second tap cancels');
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(0, 4), 0, clickMove);
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(4, 6), 4, dragMove);
  await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(6, 12), 6, clickMove);
  await red.screenshot({ path: join(artifacts, 'board-midgame.png') });
  await clickMove(red, DEN_WIN_AT_PLY_13[12]);
  for (const page of [red, blue]) {
    await page.waitForSelector('#end');
    const text = await page.locator('#end').innerText();
    // Each reads the result as theirs.
    assert.match(text, page === red ? /You win/ : /You lose/);
    assert.match(text, /entered the den/);
    // Guests play casual games; rated ones are for accounts.
    assert.match(text, /Casual game/);
  }
  await red.screenshot({ path: join(artifacts, 'end-panel.png') });
  await red.context().close();
  await blue.context().close();
});

test('a private room link, a second player, and a third who watches', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Host');
  await host.selectOption('#pr-colour', 'red');
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  const link = await host.inputValue('#room-link');
  const code = await host.locator('#room-code').innerText();
  assert.match(link, new RegExp(`/r/${code}$`));
  const guest = await newPlayer(env.browser, env.server.url, 'Guest');
  await guest.goto(link);
  // The link says who invites to what; one button takes the seat.
  await guest.waitForSelector('#take-seat');
  assert.match(await guest.locator('.invite h1').innerText(), /^Host invites you to a game of Classic, \d+\+\d+$/);
  assert.match(await guest.locator('.invite').innerText(), /you play Blue/);
  await guest.click('#take-seat');
  await guest.waitForURL(/\/g\//);
  await host.waitForFunction(() => window.jungleApp.store.state.game.status === 'active');
  assert.equal(await host.evaluate(() => window.jungleApp.store.state.game.you), 'red');
  assert.equal(await guest.evaluate(() => window.jungleApp.store.state.game.you), 'blue');
  const fan = await newPlayer(env.browser, env.server.url, 'Fan', { width: 390, height: 844 });
  await fan.goto(link);
  await fan.waitForURL(/\/g\//);
  await fan.waitForSelector('text=You are watching this game.');
  await clickMove(host, 'g3g4');
  await waitForPlies(fan, 1);
  await clickMove(guest, 'a7a6');
  await waitForPlies(fan, 2);
  // The spectator's board is read-only: nothing is selectable.
  await fan.click('[data-square="a6"]');
  assert.equal(await fan.locator('.sq.target').count(), 0);
  await fan.screenshot({ path: join(artifacts, 'spectator-phone.png'), fullPage: true });
  for (const page of [host, guest, fan]) await page.context().close();
});

test('a draw offer accepted', async () => {
  const { red, blue } = await quickMatch(env.browser, env.server.url);
  await playMoves(red, blue, ['g3g4', 'a7a6']);
  await red.click('#offer-draw');
  await blue.waitForSelector('#accept-draw');
  await blue.click('#accept-draw');
  for (const page of [red, blue]) {
    await page.waitForSelector('#end');
    assert.match(await page.locator('#end').innerText(), /Draw/);
  }
  await red.context().close();
  await blue.context().close();
});

test('a capture shows in the captured panel, as the server reports it, on a phone in Chinese', async () => {
  const { red, blue } = await quickMatch(env.browser, env.server.url);
  await blue.setViewportSize({ width: 390, height: 844 });
  await blue.click('#lang');
  // Red's rat walks up the g-file and takes Blue's elephant (the rat takes the elephant).
  await playMoves(red, blue, ['g3g4', 'a9b9', 'g4g5', 'b9a9', 'g5g6', 'a9b9', 'g6g7']);
  for (const page of [red, blue]) {
    await page.waitForFunction(() => window.jungleApp.store.state.game.captured.blue.length === 1);
    // One token, and its words for screen readers in the page's language.
    assert.equal(await page.locator('#captured > .blue .token').count(), 1);
    assert.match(await page.locator('#captured > .blue').innerText(), page === blue ? /蓝方失去：象/ : /Blue lost: Elephant/);
    assert.equal(await page.locator('#captured > .red').innerText(), '');
  }
  await blue.locator('#captured').scrollIntoViewIfNeeded();
  await blue.screenshot({ path: join(artifacts, 'capture-phone-zh.png'), fullPage: true });
  await red.context().close();
  await blue.context().close();
});

test('a reload mid-game lands back in the game', async () => {
  const { red, blue } = await quickMatch(env.browser, env.server.url);
  await playMoves(red, blue, ['g3g4', 'a7a6', 'g4g5']);
  const url = red.url();
  await blue.reload();
  await blue.waitForSelector('.piece');
  await waitForPlies(blue, 3);
  assert.equal(blue.url(), url);
  assert.equal(await blue.evaluate(() => window.jungleApp.store.state.game.you), 'blue');
  await playMoves(red, blue, ['a6a5'], 3);
  // Keyboard play: focus a square, Enter to select, arrows to the target, Enter to move.
  await red.focus('[data-square="g5"]');
  await red.keyboard.press('Enter');
  await red.keyboard.press('ArrowUp');
  await red.keyboard.press('Enter');
  await waitForPlies(blue, 5);
  assert.equal(await blue.evaluate(() => window.jungleApp.store.state.game.moves[4]), 'g5g6');
  await red.context().close();
  await blue.context().close();
});

test('the interface switches to Chinese and remembers it', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Lang');
  await page.click('#lang');
  await page.waitForSelector('text=快速匹配');
  await page.reload();
  await page.waitForSelector('text=快速匹配');
  await page.screenshot({ path: join(artifacts, 'lobby-zh.png') });
  await page.context().close();
});

test('playing the computer from the lobby', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Solo');
  await page.selectOption('#pc-level', '2');
  await page.selectOption('#pc-colour', 'red');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\//);
  await page.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  assert.equal(await page.evaluate(() => window.jungleApp.store.state.game.blue.computer), 2);
  await clickMove(page, 'g3g4');
  await waitForPlies(page, 2);
  await clickMove(page, 'g4g5');
  await waitForPlies(page, 4);
  assert.match(await page.locator('#top-bar').innerText(), /Level 2/);
  await page.screenshot({ path: join(artifacts, 'computer-game.png') });
  await page.context().close();
});

test('each ruleset has a rules page with diagrams', async () => {
  const page = await newPlayer(env.browser, env.server.url, 'Reader');
  await page.click('a[href="/rules/classic"]');
  await page.waitForSelector('#diagram-2 .piece');
  assert.match(await page.locator('h1').innerText(), /Classic/);
  assert.equal(await page.locator('.mini').count(), 3);
  await page.click('a[href="/rules/daitou"]');
  await page.waitForSelector('text=The tiger jumps only across');
  await page.screenshot({ path: join(artifacts, 'rules-daitou.png'), fullPage: true });
  await page.context().close();
});

test('a waiting room shows the host the colour they chose; a long name gives way before the rating; clocks stop where they stood', async () => {
  // Random stays random until the guest arrives.
  const host = await newPlayer(env.browser, env.server.url, 'Maximiliana Longname_24x', { width: 390, height: 844 });
  await host.selectOption('#pr-colour', 'random');
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  const bottomChip = () => host.locator('#bottom-bar .piece-chip').innerText();
  assert.equal(await bottomChip(), 'Random');
  assert.equal(await host.locator('#top-bar .piece-chip').innerText(), 'Random');
  await host.evaluate(() => window.scrollTo(0, 0));
  await host.screenshot({ path: join(artifacts, 'waiting-random-390.png') });
  // The rating stays whole beside the longest name on a phone.
  const rating = await host.locator('#bottom-bar .seat-rating').boundingBox();
  const bar = await host.locator('#bottom-bar').boundingBox();
  assert.ok(rating && rating.width > 20 && rating.x + rating.width <= bar.x + bar.width, 'the rating is on the bar');
  assert.match(await host.locator('#bottom-bar .seat-rating').innerText(), /^\(\d+\??\)$/);
  const link = await host.inputValue('#room-link');
  const guest = await newPlayer(env.browser, env.server.url, 'Guest');
  await guest.goto(link);
  await guest.click('#take-seat');
  await guest.waitForURL(/\/g\//);
  await host.waitForFunction(() => window.jungleApp.store.state.game.status === 'active');
  const side = await host.evaluate(() => window.jungleApp.store.state.game.you);
  assert.equal(await bottomChip(), side === 'red' ? 'Red' : 'Blue', 'drawn once the guest came');

  // A host who chose Blue sees Blue at the bottom while waiting.
  const blueHost = await newPlayer(env.browser, env.server.url, 'Blue Host');
  await blueHost.selectOption('#pr-colour', 'blue');
  await blueHost.click('#create-room');
  await blueHost.waitForSelector('#room-link');
  assert.equal(await blueHost.locator('#bottom-bar .piece-chip').innerText(), 'Blue');
  const d9 = await blueHost.locator('[data-square="d9"]').boundingBox();
  const d1 = await blueHost.locator('[data-square="d1"]').boundingBox();
  assert.ok(d9.y > d1.y, 'Blue at the bottom before the game starts');

  // The game between host and guest: Red moves, Blue thinks, then resigns. The clocks read
  // as they stood at the resignation, not as at the last move.
  const [red, blue] = side === 'red' ? [host, guest] : [guest, host];
  await playMoves(red, blue, ['g3g4', 'a7a6']);
  await red.waitForTimeout(2500);
  await blue.click('#resign');
  await blue.click('#resign-yes');
  await red.waitForSelector('#end');
  const final = await red.evaluate(() => window.jungleApp.store.state.game.clocks);
  assert.equal(final.running, null);
  const limit = await red.evaluate(() => window.jungleApp.store.state.game.clock.base_s * 1000);
  assert.ok(final.red_ms <= limit - 2000, `Red's 2.5 s are counted: ${final.red_ms} of ${limit}`);
  const shown = await red.locator('[data-clock="red"]').innerText();
  await red.waitForTimeout(1200);
  assert.equal(await red.locator('[data-clock="red"]').innerText(), shown, 'stopped');
  for (const page of [host, guest, blueHost]) await page.context().close();
});

test('a room link invites a first-time visitor by name, on a phone, in every language', async () => {
  const words = {
    en: { invites: /invites you to a game of Classic/, seat: 'Take the seat' },
    zh: { invites: /邀请你下一盘经典/, seat: '入座' },
    'zh-Hant': { invites: /邀請你下一盤經典/, seat: '入座' },
  };
  for (const [lang, expected] of Object.entries(words)) {
    // The longest name allowed, to see that the card holds it on a phone.
    const hostName = `Ada Lovelace ${lang}`.padEnd(24, 'x');
    const host = await newPlayer(env.browser, env.server.url, hostName);
    await host.selectOption('#pr-colour', 'random');
    await host.click('#create-room');
    await host.waitForSelector('#room-link');
    const link = await host.inputValue('#room-link');
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const visitor = await context.newPage();
    watchPage(visitor, `visitor ${lang}`);
    await visitor.goto(env.server.url + '/rules/classic');
    await useLanguage(visitor, lang);
    await visitor.goto(link);
    await visitor.waitForSelector('#take-seat');
    const title = await visitor.locator('.invite h1').innerText();
    assert.match(title, expected.invites, lang);
    assert.ok(title.includes(hostName), `${lang}: the host's whole name: ${title}`);
    assert.equal((await visitor.locator('#take-seat').innerText()).trim(), expected.seat);
    // Nothing wider than the phone.
    assert.ok(await visitor.evaluate(() => document.documentElement.scrollWidth <= 390), `${lang}: no sideways scroll`);
    await visitor.screenshot({ path: join(artifacts, `invite-${lang}-390.png`) });
    await visitor.fill('#invite-name', `Visitor ${lang}`);
    await visitor.click('#take-seat');
    await visitor.waitForURL(/\/g\//);
    await host.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
    const seats = await visitor.evaluate(() => {
      const g = window.jungleApp.store.state.game;
      return [g.you, g[g.you]?.name];
    });
    assert.equal(seats[1], `Visitor ${lang}`, 'seated under the name typed on the way');
    // The pieces as the reader's language draws them: pictures in English, the characters in
    // Chinese, in the reader's script (獅 and 貓 in Traditional Chinese).
    const glyphs = (await visitor.locator('.board .glyph').evaluateAll((els) => els.map((el) => el.getAttribute('data-glyph')))).join('');
    const pictures = await visitor.locator('.board .piece svg.animal').count();
    if (lang === 'en') assert.ok(pictures === 16 && glyphs === '', `${lang}: ${pictures} pictures, ${glyphs}`);
    else assert.ok(lang === 'zh-Hant' ? glyphs.includes('獅') && !glyphs.includes('狮') : glyphs.includes('狮'), `${lang}: ${glyphs}`);
    await host.context().close();
    await context.close();
  }
});

test('a room link that invites to nothing says so; one whose game started lets a newcomer watch', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const stranger = await context.newPage();
  watchPage(stranger, 'stranger');
  await stranger.goto(`${env.server.url}/r/NOSUCHRM`);
  // No name asked for nothing: the reason, and the way back.
  await stranger.waitForSelector('[role="alert"]');
  assert.match(await stranger.locator('[role="alert"]').innerText(), /No open room has that code/);
  assert.equal(await stranger.locator('#name').count(), 0);
  await stranger.click('[role="alert"] a[href="/"]');
  await stranger.waitForSelector('#name');

  const host = await newPlayer(env.browser, env.server.url, 'Started Host');
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  const link = await host.inputValue('#room-link');
  const guest = await newPlayer(env.browser, env.server.url, 'Started Guest');
  await guest.goto(link);
  await guest.click('#take-seat');
  await guest.waitForURL(/\/g\//);
  const late = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const newcomer = await late.newPage();
  watchPage(newcomer, 'newcomer');
  await newcomer.goto(link);
  await newcomer.waitForSelector('#name');
  assert.match(await newcomer.locator('.notice').innerText(), /has started: choose a name to watch it/);
  await newcomer.fill('#name', 'Late Fan');
  await newcomer.click('#name-form button[type=submit]');
  await newcomer.waitForURL(/\/g\//);
  await newcomer.waitForSelector('text=You are watching this game.');
  for (const page of [host, guest]) await page.context().close();
  await context.close();
  await late.close();
});

test('a host closes a room nobody joined, and its link then names no room', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Closing Host', { width: 390, height: 844 });
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  const link = await host.inputValue('#room-link');
  await host.click('#close-room');
  await host.waitForSelector('#play');
  const visitor = await newPlayer(env.browser, env.server.url, 'Late Friend');
  await visitor.goto(link);
  await visitor.waitForSelector('[role="alert"]');
  assert.match(await visitor.locator('[role="alert"]').innerText(), /No open room has that code/);
  for (const page of [host, visitor]) await page.context().close();
});
