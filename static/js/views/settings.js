// The account's own page (/settings): display settings, signed-in devices, the password, the
// data download and deleting the account. And the page of a one-time reset link (/reset/…).

import * as api from '../api.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { language, locale, t } from '../i18n.js';
import * as preferences from '../preferences.js';
import { escape } from '../format.js';

/** What a token may do, as the server names it. */
const SCOPES = ['bot:play', 'board:play', 'challenge:write'];

/** @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Wires a form: `action()` on submit, its error or `done` text shown in `#<prefix>-note`.
 * @param {HTMLElement} root
 * @param {string} prefix
 * @param {() => Promise<string | void>} action resolves to the text to show, if any
 */
function wire(root, prefix, action) {
  const note = $(root, `#${prefix}-note`);
  $(root, `#${prefix}-form`).onsubmit = async (e) => {
    e.preventDefault();
    note.textContent = '';
    note.className = '';
    try {
      // Nothing returned: the action wrote the note itself (or left it empty).
      const text = await action();
      if (typeof text === 'string') note.textContent = text;
    } catch (err) {
      note.className = 'error';
      note.textContent = err.message;
    }
  };
}

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderSettings(root, app) {
  // Guests have display settings too, kept in this browser; the rest is an account's.
  const account = Boolean(app.player?.username);
  const shown = preferences.current();
  root.innerHTML = `<div class="settings">
    <section class="card"><h1>${t('settings')}</h1>
      <form id="display-form">
        <label>${t('language')} <select id="set-language"><option value="en">English</option><option value="zh">简体中文</option><option value="zh-Hant">繁體中文</option></select></label>
        <label class="row"><input type="checkbox" id="set-muted" ${shown.muted ? 'checked' : ''}> ${t('muteSounds')}</label>
        <label class="row"><input type="checkbox" id="set-coordinates" ${shown.coordinates ? 'checked' : ''}> ${t('showCoordinates')}</label>
        <label>${t('boardTheme')} <select id="set-board"><option value="wood">${t('board.wood')}</option><option value="meadow">${t('board.meadow')}</option></select></label>
        <p id="display-note" role="status"></p>
        <button type="submit" class="primary">${t('save')}</button></form></section>
    <section class="card"><h2>${t('sayNo')}</h2>
      <form id="privacy-form">
        <label>${t('whoMayChallenge')} <select id="set-challenges">
          <option value="everyone">${t('challenges.everyone')}</option>
          <option value="accounts">${t('challenges.accounts')}</option>
          <option value="nobody">${t('challenges.nobody')}</option></select></label>
        <p id="privacy-note" role="status"></p>
        <button type="submit" class="secondary">${t('save')}</button></form>
      <h3>${t('blockedPlayers')}</h3><p class="muted">${t('blockHint')}</p><ul class="list" id="blocked"></ul></section>
    <section class="card"><h2>${t('apiTokens')}</h2><p class="muted">${t('apiTokensHint')}</p>
      <ul class="list" id="tokens"></ul>
      <form id="token-form" class="account-form">
        <label for="token-description">${t('tokenDescription')}</label><input type="text" id="token-description" maxlength="100" required>
        <fieldset class="scopes">${SCOPES.map((scope) => `<label class="row"><input type="checkbox" name="scope" value="${scope}"> ${t(`scope.${scope}`)} <code>${scope}</code></label>`).join('')}</fieldset>
        <p id="token-note" role="status"></p>
        <button type="submit" class="secondary">${t('newToken')}</button></form></section>
    <section class="card"><h2>${t('sessionsTitle')}</h2><ul class="list" id="sessions"></ul>
      <button type="button" class="secondary" id="sign-out-others">${t('signOutOthers')}</button></section>
    <section class="card"><h2>${t('changePassword')}</h2>
      <form id="password-form" class="account-form">
        <input type="text" autocomplete="username" value="${escape(app.player.username)}" hidden>
        <label for="pw-current">${t('currentPassword')}</label><input type="password" id="pw-current" autocomplete="current-password" maxlength="128" required>
        <label for="pw-new">${t('newPassword')}</label><input type="password" id="pw-new" autocomplete="new-password" maxlength="128" required>
        <p id="password-note" role="status"></p>
        <button type="submit" class="secondary">${t('changePassword')}</button></form></section>
    <section class="card"><h2>${t('account')}</h2>
      <p><button type="button" class="secondary" id="export">${t('exportData')}</button></p>
      <form id="delete-form" class="account-form"><p class="muted">${t('deleteHint')}</p>
        <label for="delete-password">${t('password')}</label><input type="password" id="delete-password" autocomplete="current-password" maxlength="128" required>
        <p id="delete-note" role="status"></p>
        <button type="submit" class="danger">${t('deleteAccount')}</button></form></section></div>`;
  /** @type {HTMLSelectElement} */ ($(root, '#set-language')).value = shown.language ?? 'en';
  /** @type {HTMLSelectElement} */ ($(root, '#set-board')).value = shown.board ?? 'wood';
  if (!account) for (const card of [...root.querySelectorAll('.settings > .card')].slice(1)) card.remove();
  let alive = true;

  wire(root, 'display', async () => {
    const change = {
      language: valueOf(root, '#set-language'),
      muted: checkedOf(root, '#set-muted'),
      coordinates: checkedOf(root, '#set-coordinates'),
      board: valueOf(root, '#set-board') === 'meadow' ? 'meadow' : undefined,
    };
    const relabel = change.language !== language();
    await preferences.update(change, account);
    // A new language redraws everything in it, this page included.
    if (relabel) app.navigate('/settings', true);
    return t('saved');
  });

  if (!account) return { destroy() { alive = false; } };
  const list = $(root, '#sessions');
  const loadSessions = async () => {
    const sessions = await api.sessions().catch(() => []);
    if (!alive) return;
    list.innerHTML = sessions.map((s) => `<li><span><strong>${escape(s.device)}</strong>${s.current ? ` · ${t('thisDevice')}` : ''}<br>
      <span class="muted">${escape(s.address)} · ${t('lastSeen', { when: when(s.last_seen_at) })}</span></span>
      ${s.current ? '' : `<button type="button" class="danger" data-session="${s.id}">${t('signOutDevice')}</button>`}</li>`).join('');
  };
  list.onclick = async (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest?.('button')?.getAttribute('data-session');
    if (id) {
      await api.signOutSession(id).catch(() => {});
      loadSessions();
    }
  };
  $(root, '#sign-out-others').onclick = async () => {
    await api.signOutOthers().catch(() => {});
    loadSessions();
  };
  loadSessions();

  const tokens = $(root, '#tokens');
  const loadTokens = async () => {
    const list = await api.apiTokens().catch(() => []);
    if (!alive) return;
    tokens.innerHTML = list.length
      ? list.map((k) => `<li><span><strong>${escape(k.description)}</strong> <span class="muted">${k.scopes.map(escape).join(', ')}</span><br>
          <span class="muted">${when(k.created_at)} · ${k.last_used_at ? t('lastUsed', { when: when(k.last_used_at) }) : t('neverUsed')}</span></span>
          <button type="button" class="danger" data-token="${k.id}" aria-label="${t('deleteTokenName', { name: escape(k.description) })}">${t('deleteToken')}</button></li>`).join('')
      : `<li class="muted">${t('noTokens')}</li>`;
  };
  tokens.onclick = async (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest?.('button')?.getAttribute('data-token');
    if (id) {
      await api.deleteApiToken(id).catch(() => {});
      loadTokens();
    }
  };
  loadTokens();
  wire(root, 'token', async () => {
    const scopes = [...root.querySelectorAll('#token-form input[name="scope"]:checked')]
      .map((box) => /** @type {HTMLInputElement} */ (box).value);
    if (!scopes.length) throw new Error(t('chooseScope'));
    const made = await api.newApiToken(valueOf(root, '#token-description'), scopes);
    /** @type {HTMLFormElement} */ ($(root, '#token-form')).reset();
    loadTokens();
    const note = $(root, '#token-note');
    note.innerHTML = `${t('tokenShownOnce')} <input type="text" readonly class="token-secret" aria-label="${t('apiTokens')}" value="${escape(made.token)}">`;
    /** @type {HTMLInputElement} */ (note.querySelector('input')).select();
    return undefined;
  });

  api.settings().then((saved) => {
    if (alive) /** @type {HTMLSelectElement} */ ($(root, '#set-challenges')).value = saved.challenges ?? 'everyone';
  }).catch(() => {});
  wire(root, 'privacy', async () => {
    await api.saveSettings({ ...preferences.current(), challenges: valueOf(root, '#set-challenges') });
    return t('saved');
  });
  const blocked = $(root, '#blocked');
  const loadBlocks = async () => {
    const list = await api.blocks().catch(() => []);
    if (!alive) return;
    blocked.innerHTML = list.length
      ? list.map((b) => `<li><a href="/p/${b.id}" data-link title="${escape(b.name)}">${escape(b.name)}</a>
          <button type="button" class="secondary" data-unblock="${b.id}" aria-label="${t('unblockName', { name: escape(b.name) })}">${t('unblock')}</button></li>`).join('')
      : `<li class="muted">${t('noBlocks')}</li>`;
  };
  blocked.onclick = async (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest?.('button')?.getAttribute('data-unblock');
    if (id) {
      await api.unblock(id).catch(() => {});
      loadBlocks();
    }
  };
  loadBlocks();

  wire(root, 'password', async () => {
    await api.changePassword(valueOf(root, '#pw-current'), valueOf(root, '#pw-new'));
    loadSessions();
    return t('passwordChanged');
  });

  $(root, '#export').onclick = async () => {
    const data = await api.exportData();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    link.download = `jungle-${app.player.username}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  };

  wire(root, 'delete', async () => {
    await api.deleteAccount(valueOf(root, '#delete-password'));
    app.identityChanged();
  });

  return { destroy() { alive = false; } };
}

/**
 * The page of a reset link: choose a new password, then sign in with it.
 * @param {HTMLElement} root
 * @param {string} token
 * @param {import('../types.js').App} app
 * @returns {import('../types.js').View}
 */
export function renderReset(root, token, app) {
  root.innerHTML = `<section class="card narrow"><h1>${t('resetTitle')}</h1>
    <form id="reset-form" class="account-form">
      <label for="reset-pass">${t('newPassword')}</label><input type="password" id="reset-pass" autocomplete="new-password" maxlength="128" required>
      <p id="reset-note" role="status"></p>
      <button type="submit" class="primary">${t('save')}</button></form></section>`;
  wire(root, 'reset', async () => {
    await api.resetPassword(token, valueOf(root, '#reset-pass'));
    // Every session was signed out, this browser's too: it signs in afresh.
    if (app.player?.username) {
      api.forgetPlayer();
      app.player = null;
      app.socket?.close();
      app.socket = null;
    }
    $(root, '#reset-form').innerHTML = `<p class="notice" role="status">${t('resetDone')}</p><a href="/" data-link>${t('signIn')}</a>`;
    return '';
  });
  return { destroy() {} };
}
