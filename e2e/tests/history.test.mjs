// What a game leaves behind, read as its players read it (issue 25), in each language on a
// phone with the longest usernames: the end panel tells each player their own rating change
// ("Your rating: 1500? → 1742? (+242)"), the profile's row names the opponent, the ruleset,
// the clock, the result, the length, the date and the change, with "Replay"; the leaderboard
// lists the provisional apart. Screenshots in test-artifacts/ (history-*.png).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, DEN_WIN_AT_PLY_21, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage,
} from './harness.mjs';

const env = serverAndBrowser();
const PASSWORD = 'correct horse battery';
const phone = { width: 390, height: 844 };

/** A guest made an account with `username` (20 characters, the most allowed), in `lang`. */
async function account(username, lang) {
  const page = await newPlayer(env.browser, env.server.url, username, phone);
  await useLanguage(page, lang);
  await page.reload();
  await page.waitForSelector('#claim-form');
  await page.fill('#claim-user', username);
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  return page;
}

const WORDS = {
  en: { yours: /Your rating: 1500\? → \d{4}\? \([+−]\d+\)/, replay: 'Replay', classic: 'Classic', moves: '21 moves' },
  zh: { yours: /你的等级分：1500\? → \d{4}\?（[+−]\d+）/, replay: '回放', classic: '经典', moves: '21' },
  'zh-Hant': { yours: /你的等級分：1500\? → \d{4}\?（[+−]\d+）/, replay: '回放', classic: '經典', moves: '21' },
};

for (const [lang, words] of Object.entries(WORDS)) {
  test(`the end panel, the profile's row and the leaderboard after a rated game (${lang}, 390px)`, async () => {
    const tag = lang.replace('-', '');
    const names = [`Alexandrina_${tag}`.padEnd(20, 'x'), `Bartholomew_${tag}`.padEnd(20, 'y')];
    const alice = await account(names[0], lang);
    const bob = await account(names[1], lang);
    const { red, blue } = await matchPages(alice, bob);
    await playMoves(red, blue, DEN_WIN_AT_PLY_21);
    for (const page of [red, blue]) {
      await page.waitForSelector('#end');
      assert.match(await page.locator('#end').innerText(), words.yours);
    }
    await red.locator('#end').scrollIntoViewIfNeeded();
    await red.screenshot({ path: join(artifacts, `history-end-${lang}-390.png`) });

    // The winner's own page: the game's row.
    const [winner, loser] = red === alice ? names : [names[1], names[0]];
    await red.goto(`${env.server.url}/@/${winner}`);
    await red.waitForSelector('#profile-games li.game-row');
    const row = await red.locator('#profile-games li.game-row').first().innerText();
    for (const part of [loser, words.classic, words.replay, words.moves]) assert.ok(row.includes(part), `${lang}: “${part}” in “${row}”`);
    assert.match(row, /\+\d+/, 'the rating change');
    assert.ok(row.includes('(1500?)'), `the opponent's rating as the game began, provisional: “${row}”`);
    assert.match(row, /20\d\d/, 'the date');
    assert.ok(await red.evaluate(() => document.documentElement.scrollWidth <= 390), `${lang}: no sideways scroll`);
    await red.locator('#profile-games').scrollIntoViewIfNeeded();
    await red.screenshot({ path: join(artifacts, `history-profile-${lang}-390.png`) });

    await red.goto(`${env.server.url}/leaderboard/classic`);
    await red.waitForSelector('#settling:not([hidden])');
    const settling = await red.locator('#provisional').innerText();
    for (const name of names) assert.ok(settling.includes(name), `${name} in “${settling}”`);
    await red.screenshot({ path: join(artifacts, `history-leaderboard-${lang}-390.png`), fullPage: true });
    for (const page of [red, blue]) await page.context().close();
  });
}
