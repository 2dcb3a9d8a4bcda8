// The account's own page (/settings): display settings, who may challenge, a vacation from
// games over days, the address for mails about one's turns, API tokens, signed-in devices, the
// password, the data download and deleting the account. And the page of a one-time reset link
// (/reset/…).

import * as api from '../api.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { language, locale, t } from '../i18n.js';
import * as preferences from '../preferences.js';
import { PIECE_STYLES, defaultStyle, token } from '../pieces.js';
import { deviceName, escape } from '../format.js';
import { renderPushSettings } from '../components/push_settings.js';

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
  const account = Boolean(app.session.player?.username);
  const shown = preferences.current();
  root.innerHTML = `<div class="settings">
    <section class="card"><h1>${t('settings')}</h1>
      <form id="display-form">
        <label>${t('language')} <select id="set-language"><option value="en">English</option><option value="zh">简体中文</option><option value="zh-Hant">繁體中文</option></select></label>
        <label class="row"><input type="checkbox" id="set-muted" ${shown.muted ? 'checked' : ''}> ${t('muteSounds')}</label>
        <label class="row"><input type="checkbox" id="set-coordinates" ${shown.coordinates ? 'checked' : ''}> ${t('showCoordinates')}</label>
        <label>${t('boardTheme')} <select id="set-board"><option value="wood">${t('board.wood')}</option><option value="meadow">${t('board.meadow')}</option></select></label>
        <label>${t('pieceStyle')} <select id="set-pieces"><option value="">${t('pieceStyle.auto', { style: t(`pieceStyle.${defaultStyle()}`) })}</option>
          ${PIECE_STYLES.map((style) => `<option value="${style}">${t(`pieceStyle.${style}`)}</option>`).join('')}</select></label>
        <div class="piece-preview" id="piece-preview" aria-hidden="true"></div>
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
    <section class="card" id="vacation" aria-labelledby="vacation-title"><h2 id="vacation-title">${t('vacation')}</h2>
      <div id="vacation-body"><p class="muted">${t('loading')}</p></div><p id="vacation-note" role="status"></p></section>
    <section class="card" id="mail" aria-labelledby="mail-title"><h2 id="mail-title">${t('mailTitle')}</h2>
      <div id="mail-body"><p class="muted">${t('loading')}</p></div><p id="mail-note" role="status"></p></section>
    <section class="card" id="push" aria-labelledby="push-title"><h2 id="push-title">${t('pushTitle')}</h2>
      <div id="push-body"><p class="muted">${t('loading')}</p></div><p id="push-note" role="status"></p></section>
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
        <input type="text" autocomplete="username" value="${escape(app.session.player.username)}" hidden>
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
  const piecesSelect = /** @type {HTMLSelectElement} */ ($(root, '#set-pieces'));
  piecesSelect.value = shown.pieces ?? '';
  // The eight animals in the style picked, before it is saved.
  const preview = () => {
    const style = PIECE_STYLES.find((s) => s === piecesSelect.value) ?? defaultStyle();
    $(root, '#piece-preview').innerHTML = 'eltpwdcr'.split('').map((letter, i) => token(letter, i % 2 ? 'blue' : 'red', { style })).join('');
  };
  piecesSelect.onchange = preview;
  preview();
  if (!account) for (const card of [...root.querySelectorAll('.settings > .card')].slice(1)) card.remove();
  let alive = true;

  wire(root, 'display', async () => {
    const change = {
      language: valueOf(root, '#set-language'),
      muted: checkedOf(root, '#set-muted'),
      coordinates: checkedOf(root, '#set-coordinates'),
      board: valueOf(root, '#set-board') === 'meadow' ? 'meadow' : undefined,
      pieces: valueOf(root, '#set-pieces') || undefined,
    };
    const relabel = change.language !== language();
    await preferences.update(change, account);
    // A new language redraws everything in it, this page included.
    if (relabel) app.router.navigate('/settings', true);
    return t('saved');
  });

  if (!account) return { destroy() { alive = false; } };
  const list = $(root, '#sessions');
  const loadSessions = async () => {
    const sessions = await api.sessions().catch(() => []);
    if (!alive) return;
    list.innerHTML = sessions.map((s) => `<li><span><strong title="${escape(s.device)}">${escape(deviceName(s.device))}</strong>${s.current ? ` · ${t('thisDevice')}` : ''}<br>
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

  // Vacation and mail: read once as the page opens (the server allows few of these requests).
  renderVacation($(root, '#vacation-body'), $(root, '#vacation-note'), () => alive);
  renderMail($(root, '#mail-body'), $(root, '#mail-note'), () => alive, app.session.player.id);
  renderPushSettings($(root, '#push-body'), $(root, '#push-note'), () => alive);

  wire(root, 'password', async () => {
    await api.changePassword(valueOf(root, '#pw-current'), valueOf(root, '#pw-new'));
    loadSessions();
    return t('passwordChanged');
  });

  $(root, '#export').onclick = async () => {
    const data = await api.exportData();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    link.download = `jungle-${app.session.player.username}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  };

  wire(root, 'delete', async () => {
    await api.deleteAccount(valueOf(root, '#delete-password'));
    app.session.identityChanged();
  });

  return { destroy() { alive = false; } };
}

/**
 * Shows a refusal in `note`.
 * @param {HTMLElement} note
 * @param {unknown} err
 * @param {string} [text] our own words for it, in place of the server's code's
 */
function refused(note, err, text) {
  note.className = 'error';
  note.textContent = text ?? (err instanceof Error ? err.message : String(err));
}

/**
 * The vacation: taken now for some days (up to what is left of 14 in any 365), or ended early.
 * @param {HTMLElement} body
 * @param {HTMLElement} note
 * @param {() => boolean} alive
 */
function renderVacation(body, note, alive) {
  /** @param {{ until_ms: number | null, days_left: number }} view */
  const draw = (view) => {
    if (!alive()) return;
    const explain = `<p class="muted">${t('vacationHint', { n: view.days_left })}</p>`;
    if (view.until_ms != null) {
      body.innerHTML = `<p><strong id="vacation-until">${t('onVacationUntil', { when: when(view.until_ms) })}</strong></p>${explain}
        <button type="button" class="secondary" id="vacation-end">${t('comeBackNow')}</button>`;
      $(body, '#vacation-end').onclick = () => act(api.endVacation);
      return;
    }
    if (view.days_left < 1) {
      body.innerHTML = explain;
      return;
    }
    const days = Array.from({ length: view.days_left }, (_, i) => i + 1);
    const select = `<select id="vacation-days">${days.map((n) => `<option value="${n}">${t('nDays', { n })}</option>`).join('')}</select>`;
    body.innerHTML = `${explain}<form id="vacation-form" class="inline-form">
        <label for="vacation-days">${t('vacationTake', { days: select })}</label>
        <button type="submit" class="primary">${t('vacationStart')}</button></form>`;
    $(body, '#vacation-form').onsubmit = (e) => {
      e.preventDefault();
      const n = Number(/** @type {HTMLSelectElement} */ ($(body, '#vacation-days')).value);
      act(() => api.startVacation(n));
    };
  };
  /** @param {() => Promise<{ until_ms: number | null, days_left: number }>} request */
  const act = async (request) => {
    note.textContent = '';
    note.className = '';
    for (const button of body.querySelectorAll('button')) button.disabled = true;
    try {
      draw(await request());
    } catch (err) {
      refused(note, err);
      // Perhaps changed from another device meanwhile: as it stands now.
      api.vacation().then(draw).catch(() => {
        for (const button of body.querySelectorAll('button')) button.disabled = false;
      });
    }
  };
  api.vacation().then(draw).catch((err) => {
    if (!alive()) return;
    body.innerHTML = '';
    refused(note, err);
  });
}

/** The last mail settings read, by player: shown when a later reading is refused (its limit is
 * a few a quarter hour). @type {Map<string, any>} */
const lastMail = new Map();

/**
 * The address mails about one's turns go to: given (a confirmation mail goes to it), its
 * state, removed. Nothing but a line when the server sends no mail.
 * @param {HTMLElement} body
 * @param {HTMLElement} note
 * @param {() => boolean} alive
 * @param {string} player
 */
function renderMail(body, note, alive, player) {
  /** @param {{ address: string | null, confirmed: boolean, turn_mails: boolean, mail_on: boolean }} view */
  const draw = (view) => {
    if (!alive()) return;
    lastMail.set(player, view);
    if (!view.mail_on) {
      body.innerHTML = `<p class="muted" id="mail-off">${t('mailOff')}</p>`;
      return;
    }
    const address = view.address ? escape(view.address) : '';
    const state = !view.address ? t('mailNone')
      : !view.confirmed ? t('mailWaiting', { address: `<strong>${address}</strong>` })
        : view.turn_mails ? t('mailConfirmed') : t('mailUnsubscribed');
    body.innerHTML = `<p class="muted">${t('mailHint')}</p>
      <form id="mail-form" class="account-form">
        <label for="mail-address">${t('mailAddress')}</label>
        <input type="email" id="mail-address" maxlength="254" autocomplete="email" spellcheck="false" required value="${address}">
        <p id="mail-state" class="${view.address && view.confirmed && view.turn_mails ? 'mail-ok' : ''}">${state}</p>
        <div class="row"><button type="submit" class="primary">${t('save')}</button>
          ${view.address ? `<button type="button" class="danger" id="mail-remove">${t('mailRemove')}</button>` : ''}</div></form>`;
    $(body, '#mail-form').onsubmit = (e) => {
      e.preventDefault();
      const typed = /** @type {HTMLInputElement} */ ($(body, '#mail-address')).value.trim();
      act(async () => draw(await api.setMailAddress(typed)), t('mailSent'));
    };
    body.querySelector('#mail-remove')?.addEventListener('click', () => act(async () => {
      await api.removeMailAddress();
      draw({ address: null, confirmed: false, turn_mails: false, mail_on: true });
    }, t('mailRemoved')));
  };
  /** @param {() => Promise<void>} request @param {string} done */
  const act = async (request, done) => {
    note.textContent = '';
    note.className = '';
    const buttons = [...body.querySelectorAll('button')];
    buttons.forEach((b) => { b.disabled = true; });
    try {
      await request();
      if (alive()) note.textContent = done;
    } catch (err) {
      buttons.forEach((b) => { b.disabled = false; });
      // A 400: an address that is none, or a mail that could not go.
      refused(note, err, /** @type {any} */ (err).code === 'bad_request' ? t('mailRefused') : undefined);
    }
  };
  api.mailSettings().then(draw).catch((err) => {
    if (!alive()) return;
    const known = lastMail.get(player);
    if (known) draw(known);
    else body.innerHTML = '';
    refused(note, err);
  });
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
    if (app.session.player?.username) {
      app.session.forgetPlayer();
    }
    $(root, '#reset-form').innerHTML = `<p class="notice" role="status">${t('resetDone')}</p><a href="/" data-link>${t('signIn')}</a>`;
    return '';
  });
  return { destroy() {} };
}
