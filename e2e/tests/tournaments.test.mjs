// Tournaments in the browser (issue 15, begun): one is made from the lobby, shows in another
// player's list, and has its page; on a phone in Chinese and on a desktop in English.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, newPlayer, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

test('a tournament made in the lobby is listed for others and has its page', async () => {
  const host = await newPlayer(env.browser, env.server.url, 'Tournament Director 24c', { width: 1366, height: 900 });
  await host.click('#tournaments summary');
  await host.fill('#tour-name', 'Friday Night Jungle Arena Open');
  await host.selectOption('#tour-minutes', '45');
  await host.click('#tour-form button[type=submit]');
  await host.waitForURL(/\/t\//);
  await host.waitForFunction(() => document.querySelector('#tour-title')?.textContent === 'Friday Night Jungle Arena Open');
  assert.match(await host.locator('#tour-facts').innerText(), /running/);
  await host.screenshot({ path: join(artifacts, 'tournament-1366.png'), fullPage: true });

  const guest = await newPlayer(env.browser, env.server.url, 'Curious Onlooker', { width: 390, height: 844 });
  await guest.evaluate(() => localStorage.setItem('jungle.lang', 'zh'));
  await guest.reload();
  await guest.waitForSelector('#tour-list a');
  assert.match(await guest.locator('#tour-list').innerText(), /Friday Night Jungle Arena Open/);
  assert.ok(await guest.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await guest.locator('#tournaments').scrollIntoViewIfNeeded();
  await guest.screenshot({ path: join(artifacts, 'tournaments-zh-390.png') });
  await guest.click('#tour-list a');
  await guest.waitForFunction(() => /进行中/.test(document.querySelector('#tour-facts')?.textContent ?? ''));
  await host.context().close();
  await guest.context().close();
});
