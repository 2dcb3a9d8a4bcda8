// Starts the real server on a loopback port with a fresh SQLite file, and Debian's Chromium.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const repo = resolve(import.meta.dirname, '../..');
export const artifacts = join(repo, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The server on a loopback port. `dir` (a former server's `dir`) starts it again on the same
 * database, as a restart would. The client is read from `static/` as it stands, unless
 * `embedded`: then the binary's own, as a release serves it (compressed, content-named
 * addresses, the import map; the binary must be built after the client's last change).
 * @param {string[]} [extraArgs]
 * @param {string} [dir]
 * @param {{ embedded?: boolean }} [options]
 */
export async function startServer(extraArgs = [], dir = mkdtempSync(join(tmpdir(), 'jungle-e2e-')), options = {}) {
  const binary = join(repo, 'target/debug/jungle-server');
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run cargo build -p jungle-server first`);
  const child = spawn(binary, [
    '--addr', '127.0.0.1:0',
    '--database-url', `sqlite://${join(dir, 'e2e.db')}`,
    ...(options.embedded ? [] : ['--static-dir', join(repo, 'static')]),
    '--log-json',
    ...extraArgs,
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RUST_LOG: 'info' } });
  const addr = await new Promise((resolveAddr, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30000);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        try {
          const entry = JSON.parse(line);
          if (entry.fields?.message === 'jungle arena listening') {
            clearTimeout(timer);
            resolveAddr(entry.fields.addr);
          }
        } catch {
          // Not a whole JSON line yet.
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const exited = new Promise((done) => child.once('exit', done));
  return {
    url: `http://${addr}`,
    dir,
    stop: () => child.kill('SIGTERM'),
    /** Stops the server and waits for it to be gone. */
    stopped: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/// Fails the test on a page error, or on anything the Content-Security-Policy blocked: the
/// client must work under the policy the server sends, inline nothing.
export function watchPage(page, name) {
  page.on('pageerror', (error) => {
    throw new Error(`${name}: page error: ${error.message}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      throw new Error(`${name}: blocked by the Content-Security-Policy: ${message.text()}`);
    }
  });
}

/// The interface's language for `page`'s browser from now on (as the header's button would
/// leave it); the page shown keeps its words until it is drawn again.
export async function useLanguage(page, lang) {
  await page.evaluate((l) => localStorage.setItem('jungle.lang', l), lang);
}

/// The password of the accounts tests make.
export const PASSWORD = 'correct horse battery';

/**
 * A fresh browser profile whose guest has become the account `username`, in the lobby.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} username
 * @param {{ width: number, height: number }} viewport
 */
export async function newAccount(browser, url, username, viewport) {
  const page = await newPlayer(browser, url, username, viewport);
  await page.fill('#claim-user', username);
  await page.fill('#claim-pass', PASSWORD);
  await page.click('#claim-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  return page;
}

/**
 * A fresh browser profile signed in to `username`'s account, in the lobby.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} username
 * @param {{ width: number, height: number }} viewport
 */
export async function signIn(browser, url, username, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  watchPage(page, username);
  await page.goto(url);
  await page.fill('#signin-user', username);
  await page.fill('#signin-pass', PASSWORD);
  await page.click('#signin-form button[type=submit]');
  await page.waitForSelector('#sign-out');
  return page;
}

/// A fresh browser profile that has picked a name and sits in the lobby.
export async function newPlayer(browser, url, name, viewport = { width: 1100, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  watchPage(page, name);
  await page.goto(url);
  await page.fill('#name', name);
  await page.click('#name-form button[type=submit]');
  await page.waitForSelector('#play');
  return page;
}

export const appState = (page, expression) => page.evaluate(expression);

export async function mySide(page) {
  await page.waitForFunction(() => window.jungleApp.store.state.game?.you);
  return page.evaluate(() => window.jungleApp.store.state.game.you);
}

export async function waitForPlies(page, plies) {
  await page.waitForFunction((n) => window.jungleApp.store.state.game?.moves.length >= n, plies);
}

/// Plays a move by clicking the from-square, then the to-square.
export async function clickMove(page, move) {
  await page.click(`[data-square="${move.slice(0, 2)}"]`);
  await page.waitForSelector(`[data-square="${move.slice(2, 4)}"].target, [data-square="${move.slice(2, 4)}"].capture`);
  await page.click(`[data-square="${move.slice(2, 4)}"]`);
}

/// Plays a move by dragging the animal onto its destination.
export async function dragMove(page, move) {
  const from = await page.locator(`[data-square="${move.slice(0, 2)}"]`).boundingBox();
  const to = await page.locator(`[data-square="${move.slice(2, 4)}"]`).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

/// Alternates moves between the red and blue pages, waiting for each to arrive on both.
export async function playMoves(red, blue, moves, startPly = 0, how = clickMove) {
  for (const [i, move] of moves.entries()) {
    const ply = startPly + i;
    const page = ply % 2 === 0 ? red : blue;
    await how(page, move);
    await waitForPlies(red, ply + 1);
    await waitForPlies(blue, ply + 1);
  }
}

export async function quickMatch(browser, url) {
  return matchPages(await newPlayer(browser, url, 'Alice'), await newPlayer(browser, url, 'Bob'));
}

/// Two lobby pages seek with their quick-match settings and meet: returns them by side.
export async function matchPages(alice, bob) {
  await alice.click('#play');
  await alice.waitForSelector('#cancel-seek');
  await bob.click('#play');
  await alice.waitForURL(/\/g\//);
  await bob.waitForURL(/\/g\//);
  const red = (await mySide(alice)) === 'red' ? alice : bob;
  const blue = red === alice ? bob : alice;
  return { red, blue };
}

/// The same walk with shuffles first: the den is entered at ply 21, late enough to be rated.
export const DEN_WIN_AT_PLY_21 = ['g1f1', 'a9b9', 'a1b1', 'g9f9', 'f1g1', 'b8b7', 'b1a1', 'f8e8', 'e3d3', 'b9a9', 'd3d4', 'f9g9',
  'd4d5', 'b7b8', 'd5d6', 'e8f8', 'd6d7', 'a9b9', 'd7d8', 'g9f9', 'd8d9'];

export const DEN_WIN_AT_PLY_13 = ['e3d3', 'a9b9', 'd3d4', 'g9f9', 'd4d5', 'b8b7', 'd5d6', 'f8e8', 'd6d7', 'b9a9', 'd7d8', 'f9g9', 'd8d9'];

/**
 * A server and a browser for a test file: started before its tests and stopped after them.
 * The object's `server` and `browser` are set once the tests run.
 */
/** @param {{ embedded?: boolean }} [options] as for startServer */
export function serverAndBrowser(options = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer([], undefined, options);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}
