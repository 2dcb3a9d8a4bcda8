// Accessibility of every page of the client, as axe-core judges it: each page is opened in a
// real state (a first visit, the lobby, a game in progress and one finished, a puzzle, the
// lessons, the rules, the analysis board, the editor, the leaderboard, an account's settings,
// profiles, a tournament, a private room and its invitation, the password-reset link and a
// wrong address), on a phone (390×844) and a desktop (1366×900), in English, Simplified and
// Traditional Chinese, with the longest names allowed. axe runs the WCAG 2.0/2.1 A and AA
// rules, its best practices, and the experimental label-content-name-mismatch (a control's
// accessible name must contain its visible words, which speech-input users say to click it).
//
// A page fails on any violation of impact "serious" or "critical": those keep a screen-reader,
// keyboard or low-vision user from reading or using the page. Minor and moderate ones are not
// counted here. Each page in each language is its own subtest, so one failure does not hide
// the others; test-artifacts/accessibility.json keeps every serious or critical violation
// found, by page.
//
// axe is put into the page with page.evaluate of its source: the server's
// Content-Security-Policy (script-src 'self') blocks the inline <script> that
// page.addScriptTag would add, and the test must not weaken the policy it runs under.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  DEN_WIN_AT_PLY_13, PASSWORD, artifacts, matchPages, newPlayer, playMoves, serverAndBrowser, useLanguage,
  waitForPlies, watchPage,
} from './harness.mjs';

const env = serverAndBrowser();

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  rules: { 'label-content-name-mismatch': { enabled: true } },
};
/** The impacts that fail a page. */
const FAILING = new Set(['serious', 'critical']);
/** Nodes of a violation shown in an assertion's message. */
const NODES_SHOWN = 3;

const SIZES = [{ width: 390, height: 844 }, { width: 1366, height: 900 }];
const LANGUAGES = ['en', 'zh', 'zh-Hant'];
/** The page's lang attribute in each language (i18n.js), to see the language took. */
const HTML_LANG = { en: 'en', zh: 'zh-CN', 'zh-Hant': 'zh-Hant' };
// The longest names allowed: 24 characters for a player's name, 20 for an account's username.
const NAME = 'Maximilian_Longername_24';
const OTHER_NAME = 'Bartholomew_Longname_24c';
/** A 20-character username, one per screen size (usernames are unique on the server). */
const username = (viewport) => `Bartholomew_Long${String(viewport.width).padStart(4, '0')}`;
/** The longest tournament name allowed (40 characters). */
const TOURNAMENT = 'Friday Night Jungle Arena Open Champions';

/** Every serious or critical violation found, by page, for test-artifacts/accessibility.json. */
const found = [];
after(() => {
  writeFileSync(join(artifacts, 'accessibility.json'), `${JSON.stringify(found, null, 2)}\n`);
});

/** Waits for what the page is still doing: requests, web fonts, and finite animations. */
async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => {})));
  });
}

/** The serious and critical violations axe finds on the page as it is now. */
async function audit(page) {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((options) => window.axe.run(document, options), AXE_OPTIONS);
  return results.violations.filter((v) => FAILING.has(v.impact)).map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, summary: n.failureSummary })),
  }));
}

/** The violations as an assertion's message: each rule, and its first few nodes. */
function describe(where, violations) {
  const lines = [`${violations.length} serious or critical accessibility violation(s) on ${where}:`];
  for (const v of violations) {
    lines.push(`- ${v.id} (${v.impact}): ${v.help} <${v.helpUrl}> on ${v.nodes.length} element(s)`);
    for (const n of v.nodes.slice(0, NODES_SHOWN)) {
      lines.push(`    ${n.target.join(' ')}: ${n.html.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
    if (v.nodes.length > NODES_SHOWN) lines.push(`    … and ${v.nodes.length - NODES_SHOWN} more`);
  }
  return lines.join('\n');
}

/**
 * Checks one page in each language, each a subtest of `t`: the language is chosen as the
 * header's button would leave it, the page is loaded afresh (`open`, by default reloading it)
 * and, once `ready`, audited.
 * @param {import('node:test').TestContext} t
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {{ open?: (page: import('playwright-core').Page) => Promise<unknown>,
 *   ready: (page: import('playwright-core').Page) => Promise<unknown> }} how
 */
async function check(t, page, name, { open = (p) => p.reload(), ready }) {
  const { width, height } = page.viewportSize();
  for (const lang of LANGUAGES) {
    await t.test(`${name} (${lang})`, async () => {
      await useLanguage(page, lang);
      await open(page);
      await page.waitForFunction((l) => document.documentElement.lang === l, HTML_LANG[lang]);
      await ready(page);
      const violations = await audit(page);
      if (violations.length) found.push({ page: name, lang, viewport: `${width}x${height}`, path: new URL(page.url()).pathname, violations });
      assert.equal(violations.length, 0, describe(`${name} (${lang}, ${width}×${height}, ${page.url()})`, violations));
    });
  }
}

/** Opens `path` of the server (a fresh load, as a link from elsewhere would). */
const go = (path) => (page) => page.goto(`${env.server.url}${path}`);
/** Waits for `selector` to be shown. */
const shown = (selector) => (page) => page.waitForSelector(selector);

for (const viewport of SIZES) {
  test(`every page passes axe at ${viewport.width}×${viewport.height}`, async (t) => {
    const { browser, server } = env;

    // A first visit: the name form and the sign-in form, before any name is chosen.
    const newcomerContext = await browser.newContext({ viewport });
    const newcomer = await newcomerContext.newPage();
    watchPage(newcomer, 'newcomer');
    await newcomer.goto(server.url);
    await check(t, newcomer, 'first visit (name form)', { ready: shown('#name-form') });

    // The lobby right after choosing a name.
    const guest = await newPlayer(browser, server.url, NAME, viewport);
    await check(t, guest, 'lobby', { open: go('/'), ready: shown('#play') });

    // An account (as the harness's newAccount makes one, but with a 24-character name and
    // the longest username): its settings.
    const member = await newPlayer(browser, server.url, OTHER_NAME, viewport);
    await member.fill('#claim-user', username(viewport));
    await member.fill('#claim-pass', PASSWORD);
    await member.click('#claim-form button[type=submit]');
    await member.waitForSelector('#sign-out');
    await check(t, member, 'settings (account)', { open: go('/settings'), ready: shown('#display-form') });

    // The pages one reaches from the header and the lobby.
    await check(t, guest, 'puzzles (a puzzle shown)', { open: go('/puzzles'), ready: shown('#puzzle-hint:not([hidden])') });
    await check(t, guest, 'learn (chapters)', { open: go('/learn'), ready: shown('.learn-chapters') });
    await check(t, guest, 'puzzles/streak (before a streak)', { open: go('/puzzles/streak'), ready: shown('#streak-start:not([hidden])') });
    await check(t, guest, 'learn/board (first lesson)', { open: go('/learn/board'), ready: shown('.exercise') });
    // (An address that differs only by its #hash is not loaded again: reloaded to take the language.)
    const legendLesson = async (page) => {
      await page.goto(`${server.url}/learn/board#animals-ranks`);
      await page.reload();
    };
    await check(t, guest, 'learn/board, the animals (legend)', { open: legendLesson, ready: shown('#learn-stage .legend') });
    await check(t, guest, 'rules/classic', { open: go('/rules/classic'), ready: shown('.rules-text li') });
    await check(t, guest, 'analysis', { open: go('/analysis'), ready: shown('#board .piece') });
    await check(t, guest, 'editor', { open: go('/editor'), ready: shown('#board .piece') });
    await check(t, guest, 'leaderboard', { open: go('/leaderboard'), ready: shown('table.ranking') });
    await check(t, guest, 'not found (a wrong address)', { open: go('/no-such-page'), ready: shown('#app [role=alert] h1') });
    await check(t, guest, 'password reset link', { open: go(`/reset/${'ab'.repeat(32)}`), ready: shown('#reset-form') });

    // A live game between the two, a few moves in (casual: a guest cannot play rated).
    for (const page of [guest, member]) {
      await page.goto(server.url);
      await page.waitForSelector('#play');
    }
    await member.uncheck('#qm-rated');
    const { red, blue } = await matchPages(guest, member);
    const opening = DEN_WIN_AT_PLY_13.slice(0, 4);
    await playMoves(red, blue, opening);
    const gameAt = (plies) => async (page) => {
      await waitForPlies(page, plies);
      await page.waitForSelector('#board .piece');
    };
    await check(t, red, 'live game (the player to move)', { ready: gameAt(opening.length) });
    await check(t, blue, 'live game (waiting for the opponent)', { ready: gameAt(opening.length) });

    // The same game, finished: red walks into the den.
    await playMoves(red, blue, DEN_WIN_AT_PLY_13.slice(opening.length), opening.length);
    const finished = async (page) => {
      await gameAt(DEN_WIN_AT_PLY_13.length)(page);
      await page.waitForSelector('#end');
    };
    await check(t, red, 'finished game (the winner)', { ready: finished });
    await check(t, blue, 'finished game (the loser)', { ready: finished });

    // Profiles: an account's, by its username, and a guest's, by id.
    const guestId = await guest.evaluate(() => window.jungleApp.session.player.id);
    const profile = async (page) => {
      await page.waitForSelector('#profile-name:not(:empty)');
      await page.waitForSelector('#profile-games li');
    };
    await check(t, guest, 'profile of an account (/@/username)', { open: go(`/@/${username(viewport)}`), ready: profile });
    await check(t, member, 'profile of a guest (/p/id)', { open: go(`/p/${guestId}`), ready: profile });

    // A tournament: the lobby's form to make one, and its page once made and joined. (There is
    // no /tournaments page: the lobby lists them and each has its page at /t/id.)
    const openForm = async (page) => {
      await page.waitForSelector('#tour-list li');
      await page.click('#tournaments summary');
      await page.waitForSelector('#tour-name');
    };
    await check(t, member, 'lobby (new-tournament form open)', { open: go('/'), ready: openForm });
    await member.fill('#tour-name', TOURNAMENT);
    await member.click('#tour-form button[type=submit]');
    await member.waitForURL(/\/t\//);
    await member.click('#tour-join');
    await member.waitForSelector('#tour-withdraw:not([hidden])');
    await check(t, member, 'tournament page (/t/id)', {
      ready: async (page) => {
        await page.waitForSelector('#tour-standings tr');
        await page.waitForSelector('#tour-withdraw:not([hidden])');
      },
    });
    await member.click('#tour-withdraw');
    await member.waitForSelector('#tour-join:not([hidden])');

    // A private room: the host's page waiting with its link, and the invitation the link
    // opens, for a named player and for a first visit.
    await member.goto(server.url);
    await member.waitForSelector('#create-room');
    await member.click('#create-room');
    await member.waitForSelector('#room-link');
    const link = new URL(await member.inputValue('#room-link'));
    await check(t, member, 'private room (host waiting)', { ready: shown('#room-link') });
    await check(t, guest, 'room invitation (/r/CODE, named)', { open: go(link.pathname), ready: shown('#take-seat') });
    await check(t, newcomer, 'room invitation (/r/CODE, first visit)', { open: go(link.pathname), ready: shown('#invite-name') });
    await member.click('#close-room');
    await member.waitForSelector('#play');

    await newcomerContext.close();
    await guest.context().close();
    await member.context().close();
  });
}
