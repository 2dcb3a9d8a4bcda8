// Direct challenges: the form on a player's page, and the notices shown on every page — a
// challenge to accept or decline, and the challenger's own line while they wait for an answer.

import { describeClock } from '../clock.js';
import { $, checkedOf, valueOf } from '../dom.js';
import { t } from '../i18n.js';
import { clockOptions, presetClock, escape } from '../format.js';

const RULESETS = ['classic', 'strict', 'daitou', 'international'];

/**
 * @param {string[]} values
 * @param {(v: string) => string} label
 */
function options(values, label) {
  return values.map((v) => `<option value="${v}">${label(v)}</option>`).join('');
}

/**
 * The challenge form for `target`, who is online.
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {{ id: string, name: string, username: string | null }} target
 * @returns {import('../types.js').View}
 */
export function renderChallengeForm(root, app, target) {
  // Rated games and games over days are between accounts only; the server says so too.
  const canRate = Boolean(app.session.player?.username && target.username);
  root.innerHTML = `<form id="challenge-form" class="challenge-form">
    <label>${t('ruleset')} <select id="ch-rules">${options(RULESETS, (r) => t(`ruleset.${r}`))}</select></label>
    <label>${t('clock')} <select id="ch-clock">${clockOptions('5+3', canRate)}</select></label>
    <label>${t('colour')} <select id="ch-colour">${options(['random', 'red', 'blue'], (c) => t(c))}</select></label>
    <label class="row ${canRate ? '' : 'muted'}"><input type="checkbox" id="ch-rated" ${canRate ? '' : 'disabled'}> ${t('rated')}</label>
    <button type="submit" class="primary">${t('sendChallenge')}</button></form>`;
  $(root, '#challenge-form').onsubmit = (e) => {
    e.preventDefault();
    const rules = valueOf(root, '#ch-rules');
    app.session.send({
      t: 'challenge',
      to: target.id,
      rules,
      clock: presetClock(valueOf(root, '#ch-clock'), rules),
      rated: canRate && checkedOf(root, '#ch-rated'),
      color: valueOf(root, '#ch-colour'),
    });
  };
  return { destroy() { root.innerHTML = ''; } };
}

/**
 * @typedef {{ id: string, from: { id: string, name: string }, to: { id: string, name: string },
 *   rules: string, clock: import('../types.js').ClockSpec, rated: boolean, color: string,
 *   expires_in_ms: number }} Challenge
 * @typedef {{ challenge: Challenge, incoming: boolean, deadline: number, ended?: string, why?: string }} Notice
 */

/**
 * The notices of challenges sent and received, drawn into `host` (outside the routed views,
 * so they stay on screen whatever page the player is on).
 * @param {HTMLElement} host
 * @param {(frame: import('../types.js').Frame) => void} send
 * @returns {{ onFrame: (frame: import('../types.js').Frame) => boolean, clear: () => void, destroy: () => void }}
 */
export function createChallengeNotices(host, send) {
  /** @type {Map<string, Notice>} */
  const notices = new Map();
  let timer = 0;

  /** @param {Notice} notice */
  function terms(notice) {
    const c = notice.challenge;
    // The colour the viewer plays: the challenger chose theirs.
    const opposite = { red: 'blue', blue: 'red', random: 'random' };
    const colour = notice.incoming ? opposite[c.color] : c.color;
    return t('challengeTerms', {
      rules: t(`ruleset.${c.rules}`),
      clock: describeClock(c.clock, t),
      kind: c.rated ? t('rated') : t('casual'),
      colour: t(colour),
    });
  }

  function draw() {
    const now = performance.now();
    host.hidden = notices.size === 0;
    host.innerHTML = [...notices.values()].map((n) => {
      const c = n.challenge;
      const seconds = Math.max(0, Math.ceil((n.deadline - now) / 1000));
      if (n.ended) {
        const why = n.why ? `<p class="muted">${escape(t(`declineReason.${n.why}`))}</p>` : '';
        return `<div class="challenge-notice" role="status"><p>${escape(t(`challengeEnd.${n.ended}`, { name: c.to.name }))}</p>${why}
          <button type="button" class="secondary" data-dismiss="${c.id}">OK</button></div>`;
      }
      if (n.incoming) {
        return `<div class="challenge-notice incoming" role="alert">
          <p>${t('challengedBy', { name: `<strong><a href="/p/${c.from.id}" data-link>${escape(c.from.name)}</a></strong>` })}</p>
          <p class="muted">${escape(terms(n))} · ${seconds} s</p>
          <div class="actions"><button type="button" class="primary" data-accept="${c.id}">${t('accept')}</button>
          <button type="button" class="danger" data-decline="${c.id}">${t('decline')}</button></div></div>`;
      }
      return `<div class="challenge-notice" role="status"><p>${escape(t('challengeWaiting', { name: c.to.name, s: seconds }))}</p>
        <p class="muted">${escape(terms(n))}</p>
        <button type="button" class="danger" data-cancel="${c.id}">${t('cancel')}</button></div>`;
    }).join('');
    if (notices.size && !timer) timer = window.setInterval(draw, 1000);
    if (!notices.size && timer) {
      clearInterval(timer);
      timer = 0;
    }
  }

  host.addEventListener('click', (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest?.('button');
    if (!(button instanceof HTMLElement)) return;
    const { accept, decline, cancel, dismiss } = button.dataset;
    if (accept) send({ t: 'accept_challenge', id: accept });
    if (decline) send({ t: 'decline_challenge', id: decline });
    if (cancel) send({ t: 'cancel_challenge', id: cancel });
    const id = accept || decline || cancel || dismiss;
    if (id) {
      notices.delete(id);
      draw();
    }
  });

  /** @param {Challenge} challenge @param {boolean} incoming */
  function add(challenge, incoming) {
    notices.set(challenge.id, { challenge, incoming, deadline: performance.now() + challenge.expires_in_ms });
    draw();
  }

  return {
    /** Takes the challenge frames; false for any other. */
    onFrame(frame) {
      switch (frame.t) {
        case 'challenged':
          add(frame.challenge, true);
          return true;
        case 'challenge_sent':
          add(frame.challenge, false);
          return true;
        case 'challenge_ended': {
          const notice = notices.get(frame.id);
          if (notice && !notice.incoming && frame.reason !== 'accepted') {
            // The challenger reads why; an answered or expired notice to us just goes.
            notice.ended = frame.reason;
            notice.why = frame.decline_reason;
          } else {
            notices.delete(frame.id);
          }
          draw();
          return true;
        }
        default:
          return false;
      }
    },
    /** Forgets every notice (the player signed out). */
    clear() {
      notices.clear();
      draw();
    },
    destroy() {
      clearInterval(timer);
      host.innerHTML = '';
    },
  };
}
