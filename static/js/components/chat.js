// The game's chat: players talk to each other, spectators among themselves (the server keeps
// the channels apart). Preset phrases in the reader's language, or free text, always shown as
// text; a mute per person and a switch to turn chat off, kept in this browser.

import { $ } from '../dom.js';
import { t } from '../i18n.js';

const PRESETS = ['hello', 'good_luck', 'well_played', 'thanks', 'good_game', 'oops'];
const MUTED_KEY = 'jungle.chat-muted';
const OFF_KEY = 'jungle.chat-off';

/** @returns {Set<string>} the players this browser does not want to read */
function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || '[]'));
  } catch {
    return new Set();
  }
}

/**
 * @typedef {{ channel: string, from: { id: string, name: string }, preset?: string, text?: string }} ChatLine
 */

/**
 * Draws the chat card into `el` for `game`; `lines` are what was said so far.
 * @param {HTMLElement} el
 * @param {import('../types.js').App} app
 * @param {ChatLine[]} lines
 */
export function drawChat(el, app, lines) {
  const { game } = app.store.state;
  // Nobody to talk to in a game against the computer (spectators still have their channel).
  if (game.you != null && (game.red?.computer || game.blue?.computer)) {
    el.innerHTML = '';
    return;
  }
  const off = localStorage.getItem(OFF_KEY) === '1';
  const spectator = game.you == null;
  const title = spectator ? t('chatSpectators') : t('chat');
  if (off) {
    el.innerHTML = `<div class="card chat"><h3>${title}</h3><label class="row"><input type="checkbox" id="chat-off" checked> ${t('chatOff')}</label></div>`;
  } else {
    const hidden = muted();
    el.innerHTML = `<div class="card chat"><h3>${title}</h3>
      <ol class="chat-lines" id="chat-lines" aria-live="polite"></ol>
      <div class="chat-presets">${PRESETS.map((p) => `<button type="button" class="secondary" data-preset="${p}">${t(`chat.${p}`)}</button>`).join('')}</div>
      <form class="row" id="chat-form"><input type="text" id="chat-text" maxlength="140" aria-label="${t('chatSay')}" placeholder="${t('chatSay')}" class="grow" autocomplete="off">
        <button type="submit" class="secondary">${t('chatSend')}</button></form>
      <label class="row"><input type="checkbox" id="chat-off"> ${t('chatOff')}</label></div>`;
    const list = $(el, '#chat-lines');
    for (const line of lines) {
      if (hidden.has(line.from.id)) continue;
      const item = document.createElement('li');
      const who = document.createElement('strong');
      who.textContent = line.from.name;
      const said = document.createElement('span');
      // Text, never markup: whatever anyone typed is shown as typed.
      said.textContent = line.preset ? t(`chat.${line.preset}`) : line.text ?? '';
      item.append(who, ': ', said);
      if (line.from.id !== app.session.player?.id) {
        const mute = document.createElement('button');
        mute.type = 'button';
        mute.className = 'chat-mute';
        mute.dataset.mute = line.from.id;
        mute.textContent = t('chatMute');
        mute.setAttribute('aria-label', t('chatMuteName', { name: line.from.name }));
        item.append(' ', mute);
      }
      list.append(item);
    }
    list.scrollTop = list.scrollHeight;
    // Who is muted among those who spoke here, each with a way back.
    const silenced = new Map(lines.filter((l) => hidden.has(l.from.id)).map((l) => [l.from.id, l.from.name]));
    if (silenced.size) {
      const note = document.createElement('p');
      note.className = 'muted chat-muted-note';
      note.textContent = `${t('chatMutedCount', { n: silenced.size })} `;
      for (const [id, name] of silenced) {
        const undo = document.createElement('button');
        undo.type = 'button';
        undo.className = 'chat-mute';
        undo.dataset.unmute = id;
        undo.textContent = t('chatUnmuteName', { name });
        note.append(undo, ' ');
      }
      list.after(note);
      note.addEventListener('click', (e) => {
        const id = /** @type {HTMLElement} */ (e.target).closest?.('[data-unmute]')?.getAttribute('data-unmute');
        if (!id) return;
        const set = muted();
        set.delete(id);
        localStorage.setItem(MUTED_KEY, JSON.stringify([...set]));
        drawChat(el, app, lines);
      });
    }
    el.querySelector('.chat-presets')?.addEventListener('click', (e) => {
      const key = /** @type {HTMLElement} */ (e.target).closest?.('[data-preset]')?.getAttribute('data-preset');
      if (key) app.session.send({ t: 'chat', game: game.game, preset: key });
    });
    list.addEventListener('click', (e) => {
      const id = /** @type {HTMLElement} */ (e.target).closest?.('[data-mute]')?.getAttribute('data-mute');
      if (!id) return;
      const set = muted();
      set.add(id);
      localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-500)));
      drawChat(el, app, lines);
    });
    $(el, '#chat-form').onsubmit = (e) => {
      e.preventDefault();
      const input = /** @type {HTMLInputElement} */ ($(el, '#chat-text'));
      const text = input.value.trim();
      if (!text) return;
      app.session.send({ t: 'chat', game: game.game, text });
      input.value = '';
    };
  }
  $(el, '#chat-off').onchange = (e) => {
    localStorage.setItem(OFF_KEY, /** @type {HTMLInputElement} */ (e.target).checked ? '1' : '0');
    drawChat(el, app, lines);
  };
}
