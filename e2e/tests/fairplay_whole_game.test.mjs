// "Evaluate every turn" for a player whose only game in progress is over days (issue 49): it
// used to wait for ever ("Evaluating every turn…"), the engine being closed to anyone with a
// correspondence game in progress. Now only that game's own positions are closed: the finished
// game's graph comes. On a phone, in both scripts of Chinese and in English, with the longest
// usernames allowed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, matchPages, newAccount, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();
const phone = { width: 390, height: 844 };

for (const [i, lang] of ['zh', 'en'].entries()) {
  test(`a player over days evaluates a finished game (${lang}, 390px)`, async () => {
    const alice = await newAccount(env.browser, env.server.url, `Alexandrina_Victori${i}`, phone);
    const bob = await newAccount(env.browser, env.server.url, `Bartholomew_Robert${i}`, phone);
    for (const page of [alice, bob]) {
      await useLanguage(page, lang);
      await page.reload();
      await page.waitForSelector('#play');
      await page.uncheck('#qm-rated').catch(() => {});
    }
    // A game on the clock, over.
    const { red, blue } = await matchPages(alice, bob);
    await playMoves(red, blue, ['e3d3', 'a9b9']);
    const finished = new URL(red.url()).pathname;
    await red.click('#resign');
    await red.click('#resign-yes');
    await red.waitForSelector('#end');

    // A game over days, in progress: Alice's room, Bob takes the seat, two moves.
    await alice.goto(env.server.url);
    await alice.waitForSelector('#create-room');
    await alice.selectOption('#pr-clock', '3d');
    await alice.selectOption('#pr-colour', 'red');
    await alice.click('#create-room');
    await alice.waitForSelector('#room-link');
    await bob.goto(await alice.inputValue('#room-link'));
    await bob.click('#take-seat');
    await bob.waitForURL(/\/g\//);
    await alice.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
    await playMoves(alice, bob, ['g3g4', 'a7a6']);

    // Alice looks back at the finished game and asks for every turn's evaluation: it comes.
    await alice.goto(`${env.server.url}${finished}`);
    await alice.waitForFunction((id) => window.jungleApp.store.state.game?.game === id, finished.split('/').pop());
    await alice.click('#analyse-whole');
    await alice.waitForSelector('#eval-graph svg', { timeout: 60_000 });
    assert.equal(await alice.locator('#analyse-whole').count(), 0, 'the graph replaced the button');
    const wide = await alice.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(wide, false, 'nothing wider than the phone');
    await alice.locator('#eval-graph').scrollIntoViewIfNeeded();
    await alice.screenshot({ path: join(artifacts, `fairplay-over-days-graph-${lang}-390.png`) });
    await alice.context().close();
    await bob.context().close();
  });
}
