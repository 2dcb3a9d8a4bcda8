// Bots in the browser (issue 26): a bot account, played by a program over the Bot API, is
// challenged from its profile by a person; the game page and the profile show its title BOT
// beside its name, at 390 and 1366 px; the leaderboard ranks bots apart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser } from './harness.mjs';

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
    stream.close();
    await person.context().close();
  });
}
