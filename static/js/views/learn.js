// Learn to play (issue 29): /learn lists the chapters with a tick per exercise done and the way
// to the first one not done; /learn/<chapter> walks a chapter's lessons one exercise at a time
// (the address's #hash names it), then offers its practice games against the computer.
// The lessons are the server's (GET /api/learn), and so is every verdict.

import * as api from '../api.js';
import { $ } from '../dom.js';
import { escape } from '../format.js';
import { t } from '../i18n.js';
import { doneIds, say, syncProgress } from '../learn_progress.js';
import { startPractice } from '../practice_games.js';
import { createExercise } from '../components/exercise.js';
import { legendHtml } from '../components/legend.js';

/** The lesson that introduces the animals shows them all, drawn as the board draws them. */
const ANIMALS_LESSON = 'board-animals';
/** The stage after a chapter's exercises: its practice games and the way on. */
const END = 'practice';

/**
 * A chapter's steps in order: each exercise (with its lesson and place there), then its
 * practice games.
 * @param {import('../types.js').Chapter} chapter
 */
function stepsOf(chapter) {
  const exercises = chapter.lessons.flatMap((lesson) => lesson.exercises.map((exercise, index) => ({ exercise, lesson, index })));
  return { exercises, practice: chapter.practice };
}

/**
 * Where the reader goes on: the first exercise (or practice stage) not done, in the first
 * chapter not finished; null once everything is done.
 * @param {import('../types.js').Catalogue} catalogue
 * @param {Set<string>} done
 */
function firstUndone(catalogue, done) {
  for (const chapter of catalogue.chapters) {
    const { exercises, practice } = stepsOf(chapter);
    const exercise = exercises.find((step) => !done.has(step.exercise.id));
    if (exercise) return { chapter, stage: exercise.exercise.id };
    if (practice.some((p) => !done.has(p.id))) return { chapter, stage: END };
  }
  return null;
}

/**
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {string | null} chapterId null for the list of chapters
 * @returns {import('../types.js').View}
 */
export function renderLearn(root, app, chapterId) {
  root.innerHTML = `<p class="card">${t('loading')}</p>`;
  let alive = true;
  /** @type {import('../types.js').View | null} */
  let shown = null;
  Promise.all([api.learnCatalogue(), syncProgress(app.session.player)]).then(([catalogue, done]) => {
    if (!alive) return;
    const chapter = catalogue.chapters.find((c) => c.id === chapterId);
    if (!chapterId) drawIndex(root, catalogue, done);
    else if (chapter) shown = drawChapter(root, app, catalogue, chapter);
    else root.innerHTML = `<section class="card narrow" role="alert"><p>${t('notFound')}</p><p><a href="/learn" data-link>${t('learnAllChapters')}</a></p></section>`;
  }).catch((err) => {
    if (alive) root.innerHTML = `<section class="card narrow" role="alert"><p>${escape(t('learnUnreachable', { msg: err.message }))}</p></section>`;
  });
  return {
    destroy() {
      alive = false;
      shown?.destroy();
    },
  };
}

/** Ticks for `ids`, ✓ for each done, ○ for each not; read out as a count. */
function tickLine(ids, done) {
  const n = ids.filter((id) => done.has(id)).length;
  return `<span class="ticks" aria-hidden="true">${ids.map((id) => (done.has(id) ? '<span class="tick-mark done">✓</span>' : '<span class="tick-mark">○</span>')).join('')}</span>
    <span class="sr-only">${t('learnDoneOf', { done: n, total: ids.length })}</span>`;
}

/**
 * /learn: every chapter, its lessons' ticks, and one button to go on.
 * @param {HTMLElement} root
 * @param {import('../types.js').Catalogue} catalogue
 * @param {Set<string>} done
 */
function drawIndex(root, catalogue, done) {
  const next = firstUndone(catalogue, done);
  const total = catalogue.chapters.reduce((sum, c) => sum + stepsOf(c).exercises.length + c.practice.length, 0);
  const count = catalogue.chapters.reduce((sum, c) => sum + [...stepsOf(c).exercises.map((s) => s.exercise.id), ...c.practice.map((p) => p.id)].filter((id) => done.has(id)).length, 0);
  const go = next
    ? `<a href="/learn/${next.chapter.id}#${next.stage}" data-link class="button primary link-button" id="learn-go">${count ? t('learnContinue') : t('learnStartHere')}</a>`
    : `<p class="notice">${t('learnAllDone')}</p>`;
  root.innerHTML = `<div class="learn">
    <section class="card learn-head"><h1>${t('learnTitle')}</h1>
      <p class="muted">${t('learnDoneOf', { done: count, total })}</p>${go}</section>
    <ol class="learn-chapters">${catalogue.chapters.map((chapter, i) => `<li class="card learn-chapter" data-chapter="${chapter.id}">
      <h2><a href="/learn/${chapter.id}" data-link>${i + 1}. ${escape(say(chapter.title))}</a></h2>
      <p class="muted">${escape(say(chapter.summary))}</p>
      <ul class="list lesson-list">${chapter.lessons.map((lesson) => `<li><span>${escape(say(lesson.title))}</span>${tickLine(lesson.exercises.map((e) => e.id), done)}</li>`).join('')}
        ${chapter.practice.length ? `<li><span>${t('learnPractice')}</span>${tickLine(chapter.practice.map((p) => p.id), done)}</li>` : ''}</ul>
    </li>`).join('')}</ol></div>`;
}

/**
 * /learn/<chapter>: the row of ticks, then one exercise at a time, or the practice stage.
 * @param {HTMLElement} root
 * @param {import('../types.js').App} app
 * @param {import('../types.js').Catalogue} catalogue
 * @param {import('../types.js').Chapter} chapter
 * @returns {import('../types.js').View}
 */
function drawChapter(root, app, catalogue, chapter) {
  const { exercises, practice } = stepsOf(chapter);
  const number = catalogue.chapters.indexOf(chapter) + 1;
  const following = catalogue.chapters[number];
  root.innerHTML = `<div class="learn learn-page">
    <p class="crumbs"><a href="/learn" data-link>${t('learnTitle')}</a> › ${t('learnChapterN', { n: number })}</p>
    <h1>${escape(say(chapter.title))}</h1>
    <ol class="tick-row" id="tick-row" aria-label="${t('learnProgressRow')}"></ol>
    <div id="learn-stage"></div>${legendHtml({ open: false })}</div>`;
  const stageEl = $(root, '#learn-stage');
  /** @type {import('../types.js').View | null} */
  let exerciseView = null;
  /** The exercise's id shown, or END. */
  let stage = '';

  function drawTicks() {
    const done = doneIds();
    const tick = (id, label, isDone, current) => `<li><button type="button" class="tick${isDone ? ' done' : ''}" data-stage="${id}"
      aria-label="${escape(label)}${isDone ? ` · ${t('learnTickDone')}` : ''}" ${current ? 'aria-current="step"' : ''}>${isDone ? '✓' : ''}</button></li>`;
    $(root, '#tick-row').innerHTML = exercises.map((step, i) => tick(step.exercise.id,
      t('learnTickLabel', { n: i + 1, total: exercises.length, lesson: say(step.lesson.title) }), done.has(step.exercise.id), stage === step.exercise.id)).join('')
      + practice.map((p) => tick(END, t('learnPracticeTick'), done.has(p.id), stage === END)).join('');
  }
  $(root, '#tick-row').onclick = (e) => {
    const target = /** @type {HTMLElement} */ (e.target).closest?.('[data-stage]')?.getAttribute('data-stage');
    if (target) open(target, true);
  };

  /**
   * Shows a stage: an exercise by its id, or END.
   * @param {string} next
   * @param {boolean} [focus] move the focus there (a tick or Next was pressed)
   */
  function open(next, focus = false) {
    exerciseView?.destroy();
    exerciseView = null;
    const at = exercises.findIndex((step) => step.exercise.id === next);
    stage = at >= 0 ? next : END;
    if (location.hash !== `#${stage}`) history.replaceState(history.state, '', `${location.pathname}#${stage}`);
    drawTicks();
    if (at < 0) drawEnd();
    else drawExercise(at);
    if (focus) {
      const heading = /** @type {HTMLElement | null} */ (stageEl.querySelector('h2'));
      heading?.focus({ preventScroll: true });
      // The new exercise starts at the top of the screen on a phone.
      if (stageEl.getBoundingClientRect().top < 0) stageEl.scrollIntoView({ block: 'start' });
    }
  }

  function drawExercise(at) {
    const { exercise, lesson, index } = exercises[at];
    const after = exercises[at + 1];
    stageEl.innerHTML = `<h2 class="lesson-title" tabindex="-1">${escape(say(lesson.title))}
      <span class="muted">· ${t('learnExerciseOf', { n: index + 1, total: lesson.exercises.length })}</span></h2>${lesson.id === ANIMALS_LESSON ? legendHtml({ level: 3 }) : ''}<div id="exercise"></div>`;
    const nextLabel = after ? t('learnNext') : practice.length ? t('learnToPractice') : t('learnFinishChapter');
    exerciseView = createExercise($(stageEl, '#exercise'), exercise, {
      nextLabel,
      onDone: drawTicks,
      onNext: () => open(after ? after.exercise.id : END, true),
    });
  }

  function drawEnd() {
    const done = doneIds();
    const allDone = exercises.every((step) => done.has(step.exercise.id));
    const onward = following
      ? `<a href="/learn/${following.id}" data-link class="button ${practice.length ? 'secondary' : 'primary'} link-button" id="next-chapter">${t('learnNextChapter', { title: escape(say(following.title)) })}</a>`
      : '';
    stageEl.innerHTML = `<section class="card learn-end">
      <h2 tabindex="-1">${allDone ? t('learnChapterDone') : t('learnPractice')}</h2>
      ${practice.map((p) => `<div class="practice-item">
        <p><strong>${escape(say(p.text))}</strong></p>
        <p class="muted">${t('learnPracticeHow', { side: t(p.side), rules: t(`ruleset.${p.rules}`) })}</p>
        <p class="row"><button type="button" class="primary" data-practice="${p.id}">${t('learnPlayPractice')}</button>
          ${done.has(p.id) ? `<span class="done-mark">✓ ${t('learnPracticeDone')}</span>` : ''}</p></div>`).join('')}
      <p class="row">${onward} <a href="/learn" data-link>${t('learnAllChapters')}</a></p></section>`;
    stageEl.querySelectorAll('[data-practice]').forEach((button) => {
      button.addEventListener('click', () => play(practice.find((p) => p.id === button.getAttribute('data-practice'))));
    });
  }

  /** @param {import('../types.js').Practice} p */
  async function play(p) {
    if (!app.session.player) {
      // A practice is a game: a visitor without a player gets one, named by the server (they
      // may rename it later, as with "Play now, name later").
      try {
        await api.createPlayer(undefined);
      } catch (err) {
        stageEl.querySelector('.learn-end')?.insertAdjacentHTML('beforeend', `<p class="error" role="alert">${escape(err.message)}</p>`);
        return;
      }
      app.session.identityChanged();
    }
    startPractice(app, chapter.id, p);
  }

  const asked = decodeURIComponent(location.hash.slice(1));
  const firstOpen = exercises.find((step) => !doneIds().has(step.exercise.id))?.exercise.id ?? END;
  open(asked === END || exercises.some((step) => step.exercise.id === asked) ? asked : firstOpen);
  return {
    destroy() {
      exerciseView?.destroy();
    },
  };
}
