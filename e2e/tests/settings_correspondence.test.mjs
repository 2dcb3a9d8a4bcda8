// The settings page's part of games over days (issue 28): a vacation taken and ended (the
// vacationer's clock moves by itself on the opponent's page, the lobby says until when), and
// the address for mails about one's turns: a server without mail says so; with an SMTP sink of
// this test's own, an address is saved, confirmed by the link in the mail that comes, mailed
// about a turn while away, unsubscribed by that mail's link, and removed. The page in every
// language on a phone and a desktop, the longest usernames (20) and a long address.
//
// The server allows few of these requests (vacation: 10 then 1 a minute a player; mail: 5 then
// 1 per 10 minutes a player, 10 an address), so each test counts what it asks.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import {
  artifacts, clickMove, launchBrowser, newAccount as account, serverAndBrowser, signIn, startServer, useLanguage,
  waitForPlies,
} from './harness.mjs';

const env = serverAndBrowser();

const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 900 };
const LANGUAGES = ['en', 'zh', 'zh-Hant'];
const LONG_ADDRESS = 'bartholomew.roberts.the.pirate+jungle@correspondence-players.example.org';

/**
 * A game over `days` days in a private room: `host` (Red) and `guest` (Blue), both on its page.
 * @returns {Promise<string>} the game's id
 */
async function roomOverDays(host, guest, days = '3d') {
  await host.selectOption('#pr-clock', days);
  await host.selectOption('#pr-colour', 'red');
  await host.click('#create-room');
  await host.waitForSelector('#room-link');
  await guest.goto(await host.inputValue('#room-link'));
  await guest.click('#take-seat');
  await guest.waitForURL(/\/g\//);
  await host.waitForFunction(() => window.jungleApp.store.state.game?.status === 'active');
  return host.evaluate(() => window.jungleApp.store.state.game.game);
}

/** Whether anything on the page is wider than the window (a horizontal scroll). */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/** The text of the clock of `side` on `page`. */
const clockText = (page, side) => page.locator(`[data-clock="${side}"]`).innerText();

/**
 * An SMTP server on 127.0.0.1 that accepts every mail and keeps its text (quoted-printable
 * undone): just enough of RFC 5321 for a client that sends a mail a connection.
 */
async function smtpSink() {
  /** @type {{ to: string[], text: string }[]} */
  const mails = [];
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let data = null;
    let to = [];
    socket.write('220 sink\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data != null) {
          if (line === '.') {
            const text = /quoted-printable/i.test(data) ? unquote(data) : /base64/i.test(data) ? unbase64(data) : data;
            mails.push({ to, text: Buffer.from(text, 'latin1').toString('utf8') });
            to = [];
            data = null;
            socket.write('250 kept\r\n');
          } else {
            // Dot-stuffing undone.
            data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'RCPT') to.push(line.slice(8).trim().replace(/^<|>$/g, ''));
        if (verb === 'DATA') {
          data = '';
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else {
          socket.write('250 ok\r\n');
        }
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits until `n` mails came; the `n`th. */
    async nth(n, timeout = 15000) {
      const until = Date.now() + timeout;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`mail ${n} did not come: ${JSON.stringify(mails)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return mails[n - 1];
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Quoted-printable undone: soft line breaks and `=XX` bytes (`=3D` is `=`). */
function unquote(text) {
  return text.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/** A base64 body decoded after its headers (kept). */
function unbase64(text) {
  const split = text.indexOf('\n\n');
  return `${text.slice(0, split)}\n\n${Buffer.from(text.slice(split + 2).replace(/\s/g, ''), 'base64').toString('latin1')}`;
}

/** The first link in `mail` to `path`, whole. */
function linkIn(mail, path) {
  const found = mail.text.match(new RegExp(`https?://[^\\s]+${path.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_-]+`));
  assert.ok(found, `a link to ${path} in ${mail.text}`);
  return found[0];
}

test('a vacation from the settings page: the turn stands still, the lobby says until when, and back early', async () => {
  const host = await account(env.browser, env.server.url, 'Ottoline_Vacationer2', phone);
  const guest = await account(env.browser, env.server.url, 'Gwendolyn_Stays_Home', desktop);
  await roomOverDays(host, guest);
  await clickMove(host, 'e3d3');
  await waitForPlies(guest, 1);
  await clickMove(guest, 'a9b9');
  await waitForPlies(host, 2);
  await guest.waitForFunction(() => /^2 d 23 h/.test(document.querySelector('[data-clock="red"]')?.textContent ?? ''));

  // Red's settings: no vacation yet, 14 days to take; a server without mail says so, only that.
  await host.goto(`${env.server.url}/settings`);
  await host.waitForSelector('#vacation-form');
  assert.match(await host.locator('#vacation').innerText(),
    /Your turns in games over days stand still; your opponents’ clocks run as usual\. Up to 14 days a year; 14 left\./);
  assert.equal(await host.locator('#vacation-days option').count(), 14);
  await host.waitForSelector('#mail-off');
  assert.match(await host.locator('#mail').innerText(), /^E-mail when it is your turn\s+This server sends no e-mail\.$/);
  assert.equal(await host.locator('#mail-form').count(), 0);
  assert.equal(await overflows(host), false);
  await host.locator('#vacation').scrollIntoViewIfNeeded();
  await host.screenshot({ path: join(artifacts, 'settings-vacation-form-en-390.png') });

  // Three days off: until then, in local time; Red's turn moves on by three days by itself.
  await host.selectOption('#vacation-days', '3');
  await host.click('#vacation-form button[type=submit]');
  await host.waitForSelector('#vacation-until');
  const day = await host.evaluate(() => new Date(Date.now() + 3 * 86400000).toLocaleDateString('en', { dateStyle: 'medium' }));
  assert.match(await host.locator('#vacation-until').innerText(), new RegExp(`^On vacation until ${day}, \\d+:\\d\\d [AP]M$`));
  assert.equal(await host.locator('#vacation-end').innerText(), 'Come back now');
  await guest.waitForFunction(() => /^5 d 23 h/.test(document.querySelector('[data-clock="red"]')?.textContent ?? ''), null, { timeout: 15000 });
  assert.match(await clockText(guest, 'red'), /^5 d 23 h\s*until /);
  await host.screenshot({ path: join(artifacts, 'settings-vacation-on-en-390.png') });

  // The lobby's card of games over days says so, without asking the server.
  await host.click('.brand');
  await host.waitForSelector('#your-turn:not([hidden]) #yt-vacation:not([hidden])');
  assert.match(await host.locator('#yt-vacation').innerText(), /^On vacation until \w{3},? .*\d\d:\d\d: your turns stand still\.$/);
  assert.equal(await overflows(host), false);
  await host.locator('#your-turn').scrollIntoViewIfNeeded();
  await host.screenshot({ path: join(artifacts, 'lobby-vacation-en-390.png') });

  // Back early: the day begun counts whole; the turn runs again from where it stood.
  await host.click('#yt-vacation a');
  await host.waitForSelector('#vacation-end');
  await host.click('#vacation-end');
  await host.waitForSelector('#vacation-form');
  assert.match(await host.locator('#vacation').innerText(), /Up to 14 days a year; 13 left\./);
  assert.equal(await host.locator('#vacation-days option').count(), 13);
  await guest.waitForFunction(() => /^2 d 23 h/.test(document.querySelector('[data-clock="red"]')?.textContent ?? ''), null, { timeout: 15000 });
  await host.click('.brand');
  await host.waitForSelector('#your-turn:not([hidden]) #yt-list li');
  assert.equal(await host.locator('#yt-vacation').isHidden(), true);
  await host.context().close();
  await guest.context().close();
});

test('the settings page in every language, on a phone and a desktop: a vacation running, an address confirmed or not', async () => {
  const page = await account(env.browser, env.server.url, 'Theodora_Longusernam', phone);
  // This server sends no mail: the states of a server that does are drawn from answers made
  // here (the mail test below reads them from a real one).
  let mail = { address: LONG_ADDRESS, confirmed: true, turn_mails: true, mail_on: true };
  await page.route('**/api/account/email', (route) => route.fulfill({ json: mail }));
  await page.goto(`${env.server.url}/settings`);
  await page.selectOption('#vacation-days', '14');
  await page.click('#vacation-form button[type=submit]');
  await page.waitForSelector('#vacation-until');
  for (const lang of LANGUAGES) {
    for (const viewport of [phone, desktop]) {
      await page.setViewportSize(viewport);
      await useLanguage(page, lang);
      await page.goto(`${env.server.url}/settings`);
      await page.waitForSelector('#vacation-until');
      await page.waitForSelector('#mail-state');
      assert.equal(await overflows(page), false, `${lang} ${viewport.width}: no sideways scroll`);
      const box = await page.locator('#mail-address').boundingBox();
      assert.ok(box.x + box.width <= viewport.width, 'the address field fits');
      if (lang !== 'en') {
        const text = `${await page.locator('#vacation').innerText()} ${await page.locator('#mail').innerText()}`;
        assert.doesNotMatch(text.replace(LONG_ADDRESS, ''), /[a-z]{3,}/i, `${lang}: all translated: ${text}`);
      }
      await page.screenshot({ path: join(artifacts, `settings-page-${lang}-${viewport.width}.png`), fullPage: true });
      // The two cards of games over days, as on the page.
      const [top, bottom] = await page.evaluate(() => [
        document.querySelector('#vacation').getBoundingClientRect().top + scrollY,
        document.querySelector('#mail').getBoundingClientRect().bottom + scrollY,
      ]);
      await page.screenshot({
        path: join(artifacts, `settings-corr-${lang}-${viewport.width}.png`),
        fullPage: true,
        clip: { x: 0, y: top - 8, width: viewport.width, height: bottom - top + 16 },
      });
    }
  }
  // The other states of an address, in Chinese on a phone (the vacation as it was: its requests
  // are few too).
  await page.route('**/api/account/vacation', (route) => route.fulfill({ json: { until_ms: null, days_left: 0 } }));
  await page.setViewportSize(phone);
  for (const [state, expected] of [
    [{ confirmed: false, turn_mails: true }, /请点击我们发到 .+ 的邮件中的链接以确认。/],
    [{ confirmed: true, turn_mails: false }, /你已退订这些邮件：再次保存地址即可恢复。/],
    [{ address: null, confirmed: false, turn_mails: false }, /尚未填写地址/],
  ]) {
    mail = { ...mail, ...state };
    await useLanguage(page, 'zh');
    await page.goto(`${env.server.url}/settings`);
    await page.waitForSelector('#mail-state');
    assert.match(await page.locator('#mail-state').innerText(), expected);
    assert.equal(await page.locator('#mail-remove').count(), mail.address ? 1 : 0);
    assert.equal(await overflows(page), false);
  }
  mail = { ...mail, address: LONG_ADDRESS, confirmed: false };
  await page.goto(`${env.server.url}/settings`);
  await page.waitForSelector('#mail-state');
  await page.locator('#mail').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, 'settings-mail-waiting-zh-390.png') });
  await page.context().close();
});

test('an address for mails about one\'s turns: saved, confirmed by its link, mailed while away, unsubscribed, removed', async () => {
  const sink = await smtpSink();
  const server = await startServer(['--smtp-url', sink.url, '--mail-from', 'Jungle Arena <arena@example.org>']);
  const browser = await launchBrowser();
  try {
    const name = 'Bartholomew_Roberts1';
    const page = await account(browser, server.url, name, phone);
    await page.goto(`${server.url}/settings`); // mail request 1
    await page.waitForSelector('#mail-form');
    assert.match(await page.locator('#mail-state').innerText(), /^No address: no mail\.$/);
    assert.equal(await page.locator('#mail-remove').count(), 0);
    // The browser's own check first: no request for what is no address.
    await page.fill('#mail-address', 'not an address');
    await page.click('#mail-form button[type=submit]');
    assert.equal(await page.locator('#mail-note').innerText(), '');
    await page.fill('#mail-address', LONG_ADDRESS);
    await page.click('#mail-form button[type=submit]'); // 2
    await page.waitForFunction(() => /Waiting for you to follow the link we sent to/.test(document.querySelector('#mail-state')?.textContent ?? ''));
    assert.equal(await page.locator('#mail-state strong').innerText(), LONG_ADDRESS);
    assert.equal(await page.locator('#mail-note').innerText(), 'Saved: a mail is on its way.');
    assert.equal(await overflows(page), false);
    await page.locator('#mail').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'settings-mail-sent-en-390.png') });

    // The mail comes; its link confirms the address; the page says so.
    const confirmation = await sink.nth(1);
    assert.deepEqual(confirmation.to, [LONG_ADDRESS]);
    const confirm = linkIn(confirmation, '/api/mail/confirm');
    const landing = await page.goto(confirm);
    assert.equal(landing.status(), 200);
    await page.goto(`${server.url}/settings`); // 3
    await page.waitForSelector('#mail-state.mail-ok');
    assert.equal(await page.locator('#mail-state').innerText(),
      'Confirmed: you get a mail when it is your move in a correspondence game and you are away.');
    assert.equal(await page.inputValue('#mail-address'), LONG_ADDRESS);
    await page.setViewportSize(desktop);
    await page.locator('#mail').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'settings-mail-confirmed-en-1366.png') });

    // A game over days; Bartholomew leaves it; the opponent's move makes it his turn: a mail.
    const opponent = await account(browser, server.url, 'Annemarie_Bonnyface', desktop);
    const game = await roomOverDays(opponent, page);
    await clickMove(opponent, 'e3d3');
    await waitForPlies(page, 1);
    await clickMove(page, 'a9b9');
    await waitForPlies(opponent, 2);
    await page.context().close();
    // Once the room has seen him go.
    await opponent.waitForFunction(() => window.jungleApp.store.state.game?.blue?.online === false);
    await clickMove(opponent, 'd3d4');
    const turn = await sink.nth(2);
    assert.deepEqual(turn.to, [LONG_ADDRESS]);
    assert.match(turn.text, /Your move against Annemarie_Bonnyface/);
    assert.ok(turn.text.includes(`${server.url}/g/${game}`), 'the mail links to the game');

    // Its link stops them; his settings, on another device, say so.
    const stop = await fetch(linkIn(turn, '/api/mail/unsubscribe'));
    assert.equal(stop.status, 200);
    const again = await signIn(browser, server.url, name, phone);
    await again.goto(`${server.url}/settings`); // 4
    await again.waitForSelector('#mail-state');
    assert.equal(await again.locator('#mail-state').innerText(),
      'You unsubscribed from these mails: save your address again to have them back.');
    // Removed: no address any more.
    await again.click('#mail-remove'); // 5
    await again.waitForFunction(() => /^No address/.test(document.querySelector('#mail-state')?.textContent ?? ''));
    assert.equal(await again.locator('#mail-note').innerText(), 'Your address is removed.');
    assert.equal(await again.inputValue('#mail-address'), '');
    assert.equal(await again.locator('#mail-remove').count(), 0);
    assert.equal(sink.mails.length, 2, 'no other mail');
  } finally {
    await browser.close();
    server.stop();
    sink.close();
  }
});
