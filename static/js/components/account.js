// The account box: a guest keeps their player by choosing a username and a password; an
// account holder sees who they are signed in as and can sign out. And the sign-in form a new
// device shows beside the name prompt.

import * as api from '../api.js';
import { $, valueOf } from '../dom.js';
import { t } from '../i18n.js';
import { escape } from '../format.js';

/**
 * Username and password fields, with an error line and a submit button.
 * @param {string} prefix id prefix
 * @param {string} submit the button's label
 * @param {boolean} newPassword whether the browser should offer to generate and save one
 */
function credentialsForm(prefix, submit, newPassword) {
  return `<form id="${prefix}-form" class="account-form">
    <label for="${prefix}-user">${t('username')}</label>
    <input type="text" id="${prefix}-user" maxlength="20" autocomplete="username" autocapitalize="off" spellcheck="false" required>
    <label for="${prefix}-pass">${t('password')}</label>
    <input type="password" id="${prefix}-pass" maxlength="128" autocomplete="${newPassword ? 'new-password' : 'current-password'}" required>
    <p class="error" id="${prefix}-error" role="alert"></p>
    <button type="submit" class="secondary">${submit}</button></form>`;
}

/**
 * Wires a credentials form: `action(username, password)` on submit; its error is shown.
 * @param {HTMLElement} root
 * @param {string} prefix
 * @param {(username: string, password: string) => Promise<void>} action
 */
function wire(root, prefix, action) {
  const error = $(root, `#${prefix}-error`);
  $(root, `#${prefix}-form`).onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      await action(valueOf(root, `#${prefix}-user`).trim(), valueOf(root, `#${prefix}-pass`));
    } catch (err) {
      error.textContent = err.message;
    }
  };
}

/**
 * A username made from a display name, as the server accepts them: 2–20 letters, digits, _ or
 * -, starting with a letter (spaces become _, the rest is dropped); empty when nothing is left.
 * @param {string} name
 */
export function usernameFrom(name) {
  // Letters with accents keep their letter (Zoë: Zoe).
  const kept = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().replace(/\s+/g, '_').replace(/[^A-Za-z0-9_-]/g, '').replace(/^[^A-Za-z]+/, '').slice(0, 20);
  return kept.length >= 2 ? kept : '';
}

/**
 * The account box of the lobby.
 * @param {HTMLElement} root where to draw it
 * @param {import('../types.js').App} app
 * @param {() => void} changed called after the player's identity changed
 * @returns {import('../types.js').View}
 */
export function renderAccountBox(root, app, changed) {
  const player = app.session.player;
  if (player?.username) {
    root.innerHTML = `<p>${t('signedInAs', { name: `<strong>${escape(player.username)}</strong>` })}</p>
      <p><a href="/@/${encodeURIComponent(player.username)}" data-link id="my-profile">${t('myProfile')}</a> ·
        <a href="/settings" data-link id="my-settings">${t('settings')}</a></p>
      <button type="button" class="secondary" id="sign-out">${t('signOut')}</button>`;
    $(root, '#sign-out').onclick = () => app.session.signOut();
  } else {
    root.innerHTML = `<p class="muted">${t('keepPlayerHint')}</p>${credentialsForm('claim', t('keepPlayer'), true)}
      <p><a href="/settings" data-link id="my-settings">${t('settings')}</a></p>`;
    // An account is known by its username, in games too: said before, not found out after;
    // a username made from the chosen name is offered.
    const user = /** @type {HTMLInputElement} */ ($(root, '#claim-user'));
    user.value = usernameFrom(player?.name ?? '');
    user.setAttribute('aria-describedby', 'claim-rename');
    user.insertAdjacentHTML('afterend', '<p class="muted" id="claim-rename"></p>');
    const rename = () => {
      const next = user.value.trim();
      $(root, '#claim-rename').textContent = next && next !== player?.name
        ? t('claimRenames', { name: player?.name ?? '', username: next })
        : '';
    };
    user.oninput = rename;
    rename();
    wire(root, 'claim', async (username, password) => {
      await api.claimAccount(username, password);
      changed();
    });
  }
  return { destroy() { root.innerHTML = ''; } };
}

/**
 * Signing in to an existing account on this device.
 * @param {HTMLElement} root
 * @param {() => void} signedIn
 * @returns {import('../types.js').View}
 */
export function renderSignIn(root, signedIn) {
  root.innerHTML = `<h2>${t('haveAccount')}</h2>${credentialsForm('signin', t('signIn'), false)}`;
  wire(root, 'signin', async (username, password) => {
    await api.signIn(username, password);
    signedIn();
  });
  return { destroy() { root.innerHTML = ''; } };
}
