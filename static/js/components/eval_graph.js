// The whole-game evaluation as a graph: Red's winning chances after each turn (the server's
// `game_analysis`), with the turns it marked, and the turn on the board. Clicking goes there.

import { t } from '../i18n.js';

/** Red's chances (0–100) from a score from Red's point of view, as the server counts them. */
export function redChances(score) {
  if (score.den_in != null) return score.den_in > 0 ? 100 : 0;
  return 100 / (1 + Math.exp(-score.cp / 400));
}

const WIDTH = 600;
const HEIGHT = 120;

/**
 * @param {{ evals: any[], marks: (string | null)[] }} analysis
 * @param {number} shown the turn on the board
 * @returns {string} SVG
 */
export function evalGraph(analysis, shown) {
  const n = Math.max(1, analysis.evals.length - 1);
  const x = (i) => (i * WIDTH) / n;
  const y = (score) => HEIGHT - (redChances(score) * HEIGHT) / 100;
  // A `null` eval is a position of a game in progress (fair play): the curve breaks there.
  /** @type {string[][]} */
  const runs = [[]];
  analysis.evals.forEach((s, i) => {
    if (s) runs[runs.length - 1].push(`${x(i).toFixed(1)},${y(s).toFixed(1)}`);
    else if (runs[runs.length - 1].length) runs.push([]);
  });
  const areas = runs.filter((run) => run.length).map((run) => {
    const first = run[0].split(',')[0];
    const last = run[run.length - 1].split(',')[0];
    return `<polygon points="${first},${HEIGHT} ${run.join(' ')} ${last},${HEIGHT}" class="red-side"/>`;
  }).join('');
  const hidden = analysis.evals.some((s) => !s);
  const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
  const dots = analysis.marks.map((mark, i) => {
    const at = analysis.evals[i + 1];
    if (!mark || !at) return '';
    counts[mark] += 1;
    return `<circle class="mark ${mark}" cx="${x(i + 1).toFixed(1)}" cy="${y(at).toFixed(1)}" r="6"><title>${i + 1}: ${t(`mark.${mark}`)}</title></circle>`;
  }).join('');
  const summary = ['inaccuracy', 'mistake', 'blunder'].map((m) => `${t(`mark.${m}`)} ${counts[m]}`).join(' · ');
  return `<svg class="eval-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${t('evaluation')}: ${summary}">
    <rect width="${WIDTH}" height="${HEIGHT}" class="blue-side"/>
    ${areas}
    <line x1="0" x2="${WIDTH}" y1="${HEIGHT / 2}" y2="${HEIGHT / 2}" class="middle"/>
    <line x1="${x(shown)}" x2="${x(shown)}" y1="0" y2="${HEIGHT}" class="now"/>
    ${dots}</svg><p class="muted">${summary}</p>${hidden ? `<p class="muted">${t('evalHidden')}</p>` : ''}`;
}

/**
 * The turn a click on the graph points at.
 * @param {MouseEvent} e
 * @param {SVGElement} svg
 * @param {number} turns
 */
export function plyAt(e, svg, turns) {
  const box = svg.getBoundingClientRect();
  return Math.round(((e.clientX - box.left) / box.width) * turns);
}
