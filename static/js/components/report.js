// Reporting a player to the operator: a reason, the player's own words, and the game it is
// about when it came from a game page.

import * as api from '../api.js';
import { $, valueOf } from '../dom.js';
import { t } from '../i18n.js';

const REASONS = ['cheating', 'abuse', 'name', 'stalling', 'other'];
/** The server's bound on the details, in characters. */
const MAX_DETAILS = 500;

/**
 * @param {HTMLElement} root
 * @param {{ id: string, name: string }} target
 * @param {string | null} game the game the report is about, if any
 * @returns {import('../types.js').View}
 */
export function renderReportForm(root, target, game) {
  root.innerHTML = `<form id="report-form" class="report-form">
    ${game ? `<p class="muted">${t('reportGame', { id: `<a href="/g/${game}" data-link>${game.slice(0, 8)}</a>` })}</p>` : ''}
    <label>${t('reportReason')} <select id="report-reason">${REASONS.map((r) => `<option value="${r}">${t(`reportReason.${r}`)}</option>`).join('')}</select></label>
    <label for="report-details">${t('reportDetails')}</label>
    <textarea id="report-details" maxlength="${MAX_DETAILS}" rows="3"></textarea>
    <p class="error" id="report-error" role="alert"></p>
    <button type="submit" class="danger">${t('sendReport')}</button></form>`;
  const form = $(root, '#report-form');
  const error = $(root, '#report-error');
  form.onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      await api.report(target.id, valueOf(root, '#report-reason'), valueOf(root, '#report-details'), game);
      form.innerHTML = `<p class="notice" role="status">${t('reportSent')}</p>`;
    } catch (err) {
      error.textContent = err.message;
    }
  };
  return { destroy() { root.innerHTML = ''; } };
}
