// Bots in the browser (issue 26): a bot account, played by a program over the Bot API, is
// challenged from its profile by a person; the game page and the profile show its title BOT
// beside its name, at 390 and 1366 px; the leaderboard ranks bots apart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();
const PASSWORD = 'correct horse battery';

/** A bot made over the HTTP API as its author would: an account, a token, the upgrade. */
async function makeBot(url, username) {
  const post = (path, body, token) => fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const guest = await (await post('/api/players', { name: username })).json();
  assert.equal((await post('/api/account', { username, password: PASSWORD }, guest.token)).status, 201);
  const session = await (await post('/api/session', { username, password: PASSWORD })).json();
  const made = await (await post('/api/tokens', { description: 'e2e bot', scopes: ['bot:play'] }, session.token)).json();
  assert.equal((await post('/api/bot/account/upgrade', null, made.token)).status, 200);
  return { id: guest.id, token: made.token, post: (path) => post(path, null, made.token) };
}

/** The bot's event stream, read line by line in the background. */
function listen(url, token) {
  const events = [];
  const controller = new AbortController();
  (async () => {
    const response = await fetch(`${url}/api/stream/event`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = response.body.getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (line) events.push(JSON.parse(line));
      }
    }
  })().catch(() => {});
  const next = async (type) => {
    for (let i = 0; i < 100; i++) {
      const found = events.find((e) => e.type === type);
      if (found) {
        events.splice(events.indexOf(found), 1);
        return found;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${type} on the event stream`);
  };
  return { next, close: () => controller.abort() };
}

for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
  test(`a person challenges a bot from its profile and sees its title (${viewport.width}px)`, async () => {
    const bot = await makeBot(env.server.url, `EngineBot${viewport.width}`);
    const stream = listen(env.server.url, bot.token);
    const person = await newPlayer(env.browser, env.server.url, 'Curious Person', viewport);
    // Bots are ranked apart: the leaderboard has a tab for them.
    await person.goto(`${env.server.url}/leaderboard/classic?bots=1`);
    await person.waitForSelector('.tabs a[aria-current="page"][href="/leaderboard/classic?bots=1"]');
    await person.goto(`${env.server.url}/p/${bot.id}`);
    await person.waitForSelector('#profile-name .title-badge');
    assert.equal(await person.locator('#profile-name .title-badge').innerText(), 'BOT');
    await person.waitForSelector('#challenge-panel');
    await person.click('#challenge-panel summary');
    await person.selectOption('#ch-colour', 'red');
    await person.click('#challenge-form button[type=submit]');
    const challenge = await stream.next('challenge');
    assert.equal((await bot.post(`/api/challenge/${challenge.challenge.id}/accept`)).status, 200);
    await person.waitForURL(/\/g\//);
    const start = await stream.next('gameStart');
    assert.equal(start.game.color, 'blue');
    const bar = person.locator('.player-bar').filter({ has: person.locator('.title-badge') });
    await bar.waitFor();
    assert.match(await bar.innerText(), /BOT\s*EngineBot/);
    await person.screenshot({ path: join(artifacts, `bot-game-${viewport.width}.png`) });
    // The bot answers a move with its own, over HTTP.
    await person.click('[data-square="g3"]');
    await person.click('[data-square="g4"]');
    await person.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 1);
    assert.equal((await bot.post(`/api/bot/game/${start.game.id}/move/a7a6`)).status, 200);
    await person.waitForFunction(() => window.jungleApp.store.state.game?.moves.length === 2);
    // Anyone's lobby lists the game in progress with the bot's title.
    const onlooker = await newPlayer(env.browser, env.server.url, 'Onlooker', viewport);
    await onlooker.waitForSelector('#live .title-badge');
    assert.match(await onlooker.locator('#live').innerText(), /BOT\s*EngineBot/);
    await onlooker.locator('#live').scrollIntoViewIfNeeded();
    await onlooker.screenshot({ path: join(artifacts, `bot-in-lobby-${viewport.width}.png`) });
    await onlooker.context().close();
    stream.close();
    await person.context().close();
  });
}

for (const [lang, viewport] of [['en', { width: 1366, height: 900 }], ['zh', { width: 390, height: 844 }]]) {
  test(`an account makes an API token on its settings page, sees it once, and deletes it (${lang}, ${viewport.width}px)`, async () => {
    const username = `${lang === 'en' ? 'T' : 'Z'}okenmaker_Longname`.slice(0, 20);
    const page = await newPlayer(env.browser, env.server.url, 'A_Guest_With_Longest_Nm', viewport);
    await useLanguage(page, lang);
    await page.reload();
    await page.waitForSelector('#claim-form');
    await page.fill('#claim-user', username);
    await page.fill('#claim-pass', PASSWORD);
    await page.click('#claim-form button[type=submit]');
    await page.waitForFunction(() => window.jungleApp.session.player?.username);
    await page.goto(`${env.server.url}/settings`);
    await page.waitForSelector('#token-form');
    await page.waitForSelector('#tokens li.muted');
    // No scope chosen: refused, with the reason.
    await page.fill('#token-description', 'My engine, for the Saturday arena of bots');
    await page.click('#token-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#token-note')?.textContent !== '');
    await page.check('#token-form input[value="bot:play"]');
    await page.check('#token-form input[value="challenge:write"]');
    await page.click('#token-form button[type=submit]');
    const secret = page.locator('#token-note input.token-secret');
    await secret.waitFor();
    const token = await secret.inputValue();
    assert.ok(token.length >= 32, token);
    await page.waitForSelector('#tokens button[data-token]');
    assert.match(await page.locator('#tokens').innerText(), /Saturday arena/);
    await page.locator('#token-form').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `api-tokens-${lang}-${viewport.width}.png`), fullPage: false });
    // The token works on the API, and never as a session.
    const upgrade = await fetch(`${env.server.url}/api/tokens`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(upgrade.status, 401);
    const stream = await fetch(`${env.server.url}/api/bot/game/stream/00000000-0000-0000-0000-000000000000`, { headers: { authorization: `Bearer ${token}` } });
    assert.notEqual(stream.status, 401);
    // Deleted: gone from the list, and refused by the API.
    await page.click('#tokens button[data-token]');
    await page.waitForSelector('#tokens li.muted');
    const after = await fetch(`${env.server.url}/api/bot/game/stream/00000000-0000-0000-0000-000000000000`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(after.status, 401);
    await page.context().close();
  });
}

test('a bot declines a person\'s challenge and the person reads why (zh, 390px)', async () => {
  const bot = await makeBot(env.server.url, 'PickyBot');
  const stream = listen(env.server.url, bot.token);
  const person = await newPlayer(env.browser, env.server.url, 'Impatient_Player_Longest', { width: 390, height: 844 });
  await useLanguage(person, 'zh');
  await person.goto(`${env.server.url}/p/${bot.id}`);
  await person.waitForSelector('#challenge-panel');
  await person.click('#challenge-panel summary');
  await person.click('#challenge-form button[type=submit]');
  const challenge = await stream.next('challenge');
  const declined = await fetch(`${env.server.url}/api/challenge/${challenge.challenge.id}/decline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bot.token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'reason=tooFast',
  });
  assert.equal(declined.status, 200);
  const notice = person.locator('.challenge-notice');
  await notice.waitFor();
  await person.waitForFunction(() => /太快/.test(document.querySelector('.challenge-notice')?.textContent ?? ''));
  await person.screenshot({ path: join(artifacts, 'bot-declines-zh-390.png') });
  stream.close();
  await person.context().close();
});
