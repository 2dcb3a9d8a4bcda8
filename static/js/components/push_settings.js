// The settings' "Notifications on your devices": this device subscribes to Web Push or stops,
// and the account chooses what is pushed (to all its devices).

import * as api from '../api.js';
import { t } from '../i18n.js';
import { currentSubscription, pushSupported, subscribeThisDevice, unsubscribeThisDevice } from '../push.js';

/** @typedef {{ public_key: string, subscriptions: number, turns: boolean, challenges: boolean, tournaments: boolean }} PushView */

const KINDS = /** @type {const} */ (['turns', 'challenges', 'tournaments']);
const LABELS = { turns: 'pushTurns', challenges: 'pushChallenges', tournaments: 'pushTournaments' };

/**
 * @param {HTMLElement} body
 * @param {HTMLElement} note
 * @param {() => boolean} alive
 */
export function renderPushSettings(body, note, alive) {
  if (!pushSupported()) {
    body.innerHTML = `<p class="muted" id="push-unsupported">${t('pushUnsupported')}</p>`;
    return;
  }
  /** @param {PushView} view @param {boolean} here this device is subscribed */
  const draw = (view, here) => {
    if (!alive()) return;
    const blocked = Notification.permission === 'denied';
    body.innerHTML = `<p class="muted">${t('pushHint')}</p>
      <p id="push-here" class="${here ? 'mail-ok' : ''}">${t(here ? 'pushHereOn' : 'pushHereOff')}
        ${view.subscriptions ? t('pushDevices', { n: view.subscriptions }) : ''}</p>
      ${blocked ? `<p class="error" id="push-blocked">${t('pushBlocked')}</p>` : ''}
      <p class="row"><button type="button" id="push-toggle" class="${here ? 'secondary' : 'primary'}" ${blocked && !here ? 'disabled' : ''}>${t(here ? 'pushStop' : 'pushStart')}</button></p>
      <fieldset class="push-kinds"><legend>${t('pushWhat')}</legend>
        ${KINDS.map((kind) => `<label class="check"><input type="checkbox" data-kind="${kind}" ${view[kind] ? 'checked' : ''}> ${t(LABELS[kind])}</label>`).join('')}
      </fieldset>`;
    /** @type {HTMLButtonElement} */ (body.querySelector('#push-toggle')).onclick = () => act(async () => {
      const next = here ? await unsubscribeThisDevice() : await subscribeThisDevice();
      draw(next, !here);
    });
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (body.querySelectorAll('input[data-kind]'))) {
      box.onchange = () => act(async () => {
        draw(await api.changePushSettings({ [box.dataset.kind ?? '']: box.checked }), here);
      });
    }
  };
  /** @param {() => Promise<void>} request */
  const act = async (request) => {
    note.textContent = '';
    note.className = '';
    body.querySelectorAll('button, input').forEach((el) => { /** @type {HTMLButtonElement} */ (el).disabled = true; });
    try {
      await request();
      if (alive()) note.textContent = t('pushSaved');
    } catch (err) {
      if (!alive()) return;
      body.querySelectorAll('button, input').forEach((el) => { /** @type {HTMLButtonElement} */ (el).disabled = false; });
      note.className = 'error';
      // The server's refusals come in the reader's language; the browser's own failures
      // (no push service, a refused registration) in its words, which are English: ours instead.
      const { code, status } = /** @type {any} */ (err);
      note.textContent = code === 'notifications_refused' ? t('pushBlocked')
        : status ? (err instanceof Error ? err.message : String(err)) : t('pushFailed');
    }
  };
  Promise.all([api.pushSettings(), currentSubscription()]).then(([view, subscription]) => draw(view, Boolean(subscription)))
    .catch((err) => {
      if (!alive()) return;
      note.className = 'error';
      note.textContent = err instanceof Error ? err.message : String(err);
    });
}
