// The lobby's ways to start a game: quick match (and its seek while it waits), the computer,
// a private room, and joining one by its code.

import { $, checkedOf, valueOf } from '../../dom.js';
import { t } from '../../i18n.js';
import { isDaysPreset, presetClock } from '../../format.js';
import { remembered, rememberRoomClock } from './common.js';

/**
 * Wires the lobby's play cards (drawn by the lobby's page).
 * @param {HTMLElement} root
 * @param {import('../../types.js').App} app
 * @param {{ last: any, account: boolean }} choices the last seek remembered; whether the
 *   player has an account (rated games and games over days are an account's)
 * @returns {import('../../types.js').View}
 */
export function wirePlayCards(root, app, { last, account }) {
  let preset = last.preset;
  // A seek over days waits in the open list: the computer never steps in.
  const computerChoice = /** @type {HTMLSelectElement} */ ($(root, '#qm-computer'));
  const showPreset = () => {
    computerChoice.disabled = isDaysPreset(preset);
    $(root, '#qm-computer-label').classList.toggle('muted', isDaysPreset(preset));
  };
  showPreset();
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-preset]'))) {
    button.addEventListener('click', () => {
      preset = button.dataset.preset;
      for (const b of root.querySelectorAll('[data-preset]')) b.setAttribute('aria-pressed', String(b === button));
      showPreset();
    });
  }
  const seekArea = $(root, '#seek-area');
  const drawSeek = () => {
    const { seek } = app.store.state;
    if (seek) {
      const seconds = Math.floor((performance.now() - seek.since) / 1000);
      const waiting = seek.days ? t('correspondenceSeekListed') : t('waiting', { s: seconds });
      seekArea.innerHTML = `<p class="notice" role="status">${waiting}${seek.pool > 1 ? ` · ${t('pool', { n: seek.pool - 1 })}` : ''}</p>
        <button type="button" class="danger" id="cancel-seek">${t('cancel')}</button>`;
      $(seekArea, '#cancel-seek').onclick = () => app.session.send({ t: 'cancel_seek' });
    } else {
      seekArea.innerHTML = `<button type="button" class="primary" id="play">${t('play')}</button>`;
      $(seekArea, '#play').onclick = () => {
        const rules = valueOf(root, '#qm-rules');
        const rated = account && checkedOf(root, '#qm-rated');
        const computerAfter = valueOf(root, '#qm-computer');
        localStorage.setItem('jungle.lastSeek', JSON.stringify({ ...remembered(), rules, preset, rated: account ? rated : last.rated, computerAfter }));
        const days = isDaysPreset(preset);
        const frame = { t: 'seek', rules, clock: presetClock(preset, rules), rated };
        if (computerAfter && !days) frame.computer_after_s = Number(computerAfter);
        app.session.send(frame);
        app.store.set({ seek: { since: performance.now(), pool: 0, days } }, 'seek');
      };
    }
  };
  drawSeek();
  // A seek over days says the same thing all along: only the seconds of others are redrawn.
  const stopTicking = app.ticker.add(() => app.store.state.seek && !app.store.state.seek.days && drawSeek());
  const stopSeekNews = app.store.subscribe('seek', drawSeek);

  $(root, '#play-computer').onclick = () => {
    const rules = valueOf(root, '#pc-rules');
    const level = valueOf(root, '#pc-level');
    localStorage.setItem('jungle.lastSeek', JSON.stringify({ ...remembered(), level }));
    app.session.send({
      t: 'play_computer',
      rules,
      clock: presetClock(valueOf(root, '#pc-clock'), rules),
      level: Number(level),
      color: valueOf(root, '#pc-colour'),
    });
  };
  $(root, '#create-room').onclick = () => {
    const rules = valueOf(root, '#pr-rules');
    rememberRoomClock(valueOf(root, '#pr-clock'));
    app.session.send({
      t: 'create_room',
      rules,
      clock: presetClock(valueOf(root, '#pr-clock'), rules),
      rated: account && checkedOf(root, '#pr-rated'),
      color: valueOf(root, '#pr-colour'),
    });
  };
  $(root, '#join-form').onsubmit = (e) => {
    e.preventDefault();
    const code = valueOf(root, '#join-code').trim().toUpperCase();
    if (code) app.router.navigate(`/r/${code}`);
  };

  return {
    destroy() {
      stopTicking();
      stopSeekNews();
    },
  };
}
