// Accounts in the browser: a guest keeps their player with a username and a password, signs
// out, and signs in again in a fresh browser profile as the same player, on a phone and a
// desktop, in English and Chinese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts, clickMove, DEN_WIN_AT_PLY_21, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage } from './harness.mjs';

const env = serverAndBrowser();

const PASSWORD = 'correct horse battery';

for (const [lang, viewport] of [['en', { width: 390, height: 844 }], ['zh', { width: 1366, height: 900 }]]) {
  test(`a guest keeps their player and signs in elsewhere (${lang}, ${viewport.width}px)`, async () => {
    // The longest names allowed: 24 characters for a guest, 20 for a username.
    const username = `${lang === 'en' ? 'L' : 'Z'}ovelace_Countess_18`.slice(0, 20);
    const page = await newPlayer(env.browser, env.server.url, 'Augusta Ada King Byron', viewport);
    await useLanguage(page, lang);
    await page.reload();
    await page.waitForSelector('#claim-form');
    // A guest cannot tick "rated", and is told why.
    assert.equal(await page.locator('#qm-rated').isDisabled(), true);
    const id = await page.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')).id);

    // A common password is refused with the server's reason.
    await page.fill('#claim-user', username);
    await page.fill('#claim-pass', 'password1');
    await page.click('#claim-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#claim-error')?.textContent !== '');
    assert.match(await page.locator('#claim-error').innerText(), /common|常见/);
    await page.locator('#account-box').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `keep-player-${lang}-${viewport.width}.png`) });
    await page.fill('#claim-pass', PASSWORD);
    await page.click('#claim-form button[type=submit]');
    await page.waitForSelector('#sign-out');
    assert.match(await page.locator('#account-box').innerText(), new RegExp(username));
    assert.equal(await page.locator('#qm-rated').isDisabled(), false, 'an account may play rated');
    await page.locator('#account-box').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `account-${lang}-${viewport.width}.png`), fullPage: true });

    await page.click('#sign-out');
    await page.waitForSelector('#name-form');
    await page.waitForSelector('#signin-form');
    await page.screenshot({ path: join(artifacts, `sign-in-${lang}-${viewport.width}.png`), fullPage: true });
    await page.context().close();

    // A fresh browser profile: sign in, and it is the same player.
    const context = await env.browser.newContext({ viewport });
    const other = await context.newPage();
    other.on('pageerror', (error) => { throw error; });
    await other.goto(env.server.url);
    await useLanguage(other, lang);
    await other.reload();
    await other.fill('#signin-user', username.toLowerCase());
    await other.fill('#signin-pass', 'wrong password!');
    await other.click('#signin-form button[type=submit]');
    await other.waitForFunction(() => document.querySelector('#signin-error')?.textContent !== '');
    await other.fill('#signin-pass', PASSWORD);
    await other.click('#signin-form button[type=submit]');
    await other.waitForSelector('#sign-out');
    const again = await other.evaluate(() => JSON.parse(localStorage.getItem('jungle.player')));
    assert.equal(again.id, id, 'the same player');
    assert.equal(again.username, username);
    assert.match(await other.locator('#yr').innerText(), new RegExp(username));
    await context.close();
  });
}

/** A new browser profile whose guest has become the account `username`, in the lobby. */
async function newAccount(username, viewport) {
  const page = await newPlayer(env.browser, env.server.url, username, viewport);
  await page.fill('#claim-user', username);
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  return page;
}

test('a rated game between accounts shows on the winner\'s profile, with its rating chart', async () => {
  const phone = { width: 390, height: 844 };
  const alice = await newAccount('Alice_Rated', phone);
  const bob = await newAccount('Bob_Rated', phone);
  assert.equal(await alice.locator('#qm-rated').isChecked(), true);
  const { red, blue } = await matchPages(alice, bob);
  const winner = red === alice ? 'Alice_Rated' : 'Bob_Rated';
  await playMoves(red, blue, DEN_WIN_AT_PLY_21, 0, clickMove);
  await red.waitForSelector('#end');
  // Each reads their own change, from a provisional 1500.
  assert.match(await red.locator('#end').innerText(), /Your rating: 1500\? → \d{4}\? \(\+\d+\)/);
  assert.match(await blue.locator('#end').innerText(), /Your rating: 1500\? → \d{4}\? \(−\d+\)/);
  assert.match(await red.locator('#end').innerText(), /provisional/);
  // Each player's name links to their profile.
  assert.match(await red.locator('.seat-name a').first().getAttribute('href'), /^\/p\/[0-9a-f-]{36}$/);
  await blue.context().close();
  await red.context().close();

  // The winner, signed in afresh elsewhere, finds the game and the chart on their profile.
  const context = await env.browser.newContext({ viewport: phone });
  const page = await context.newPage();
  page.on('pageerror', (error) => { throw error; });
  await page.goto(env.server.url);
  await page.fill('#signin-user', winner);
  await page.fill('#signin-pass', PASSWORD);
  await page.click('#signin-form button[type=submit]');
  await page.waitForSelector('#my-profile');
  await page.click('#my-profile');
  await page.waitForSelector('.rating-chart');
  // The line starts at the start rating, before the first game.
  assert.match(await page.locator('.rating-chart').getAttribute('aria-label'), /: 1500 → \d{4}, \S.*\d{4}$/);
  await page.waitForSelector('#profile-games a[href^="/g/"]');
  const row = await page.locator('#profile-games li').first().innerText();
  const loser = winner === 'Alice_Rated' ? 'Bob_Rated' : 'Alice_Rated';
  for (const part of [loser, 'Classic', 'Rated', 'won', '21 moves', 'Replay']) assert.ok(row.includes(part), `“${part}” in “${row}”`);
  assert.match(row, /\+\d+/, 'the rating change');
  assert.match(await page.locator('#profile-games li a').first().getAttribute('href'), /^\/p\//, 'the opponent is linked');
  await page.screenshot({ path: join(artifacts, 'profile-390.png'), fullPage: true });
  // A new site's leaderboard is not empty: both players stand apart, marked provisional.
  await page.evaluate(() => window.jungleApp.router.navigate('/leaderboard/classic'));
  await page.waitForSelector('#settling:not([hidden])');
  const settling = await page.locator('#provisional').innerText();
  for (const name of ['Alice_Rated', 'Bob_Rated']) assert.ok(settling.includes(name), `${name} in “${settling}”`);
  assert.match(settling, /\d{4}\?/);
  assert.match(await page.locator('#ranking').innerText(), /Nobody is rated/);
  await page.screenshot({ path: join(artifacts, 'leaderboard-provisional-390.png'), fullPage: true });
  await context.close();
});
