// A short rules page per ruleset, in both languages; docs/rules.md has the full text.

import * as api from '../api.js';
import { createBoard, renderBoard } from '../board.js';
import { legendHtml } from '../components/legend.js';
import { parseBoard } from '../fen.js';
import { language, t } from '../i18n.js';
import { RULES_ZH_HANT } from '../rules_zh_hant.js';
import { say } from '../learn_progress.js';

/// Small boards for the cases where rulesets differ: a position and the move it shows.
const DIAGRAMS = [
  {
    fen: '7/7/7/7/7/7/7/7/1Rw4 r 0 1',
    move: { from: 'b1', to: 'c1' },
    en: 'Trap: the Blue wolf on Red’s trap c1 counts as rank 0 — even the rat takes it.',
    zh: '陷阱：蓝狼进入红方陷阱 c1，战斗力为0，连鼠都能吃它。',
  },
  {
    fen: '7/7/7/7/Lr5/7/7/7/7 r 0 1',
    move: { from: 'a5', to: 'd5' },
    en: 'Jump block: the Blue rat swimming on b5 stops the lion’s jump from a5 to d5.',
    zh: '阻挡：蓝鼠在 b5 水中，红狮不能从 a5 跳到 d5。',
  },
  {
    fen: '7/7/7/7/rR5/7/7/7/7 r 0 1',
    move: { from: 'b5', to: 'a5' },
    en: 'Rat against rat: the swimming Red rat may take the Blue rat on the bank only in classic.',
    zh: '鼠吃鼠：水中的红鼠吃岸上的蓝鼠，只有经典规则允许。',
  },
];

const COMMON = {
  en: [
    'Red moves first. Each turn one animal moves one square up, down, left or right, never into its own den.',
    'Enter the opponent’s den (穴) to win. Capturing every enemy animal, or leaving the opponent without a legal move, also wins.',
    'Animals capture enemy animals of equal or lower rank: Elephant 8, Lion 7, Tiger 6, Leopard 5, Wolf 4, Dog 3, Cat 2, Rat 1. The rat captures the elephant; the elephant never captures the rat.',
    'Only the rat swims. A swimming rat and an animal on land cannot capture each other.',
    'The lion and the tiger jump straight across a lake, and may capture where they land — unless a rat in the water is in the way.',
    'An enemy animal in one of your traps (阱) has rank 0: any of your animals may capture it.',
  ],
  zh: [
    '红方先走。每回合移动一只动物，上下左右走一格，不能进入自己的兽穴。',
    '走进对方兽穴即获胜；吃光对方动物或使对方无棋可走也获胜。',
    '大吃小、同级互吃：象8 狮7 虎6 豹5 狼4 狗3 猫2 鼠1。鼠可吃象，象不能吃鼠。',
    '只有鼠能下水。水中的鼠与岸上的动物不能互吃。',
    '狮、虎可以直线跳过小河，并可吃掉落点的动物；河中有鼠阻挡时不能跳。',
    '敌方动物进入我方陷阱后战斗力为0，我方任何动物都可以吃它。',
  ],
};

const SPECIFIC = {
  classic: {
    en: ['Only an enemy rat blocks a jump.', 'Rats capture each other across the water’s edge.', 'Draw after 200 plies without a capture.', 'Anti-chase: an animal may not enter the same square a fourth time within 7 of its side’s turns (7-3), nor roam 5 squares alone for 17 turns (17-5).'],
    zh: ['只有对方的鼠能阻挡跳河。', '水中与岸上的鼠可以互吃。', '200步无吃子判和。', '防长杀：7步内同一动物第4次进入同一格被禁止（7-3）；17步只走同一动物且活动不超过5格也受限（17-5）。'],
  },
  strict: {
    en: ['An animal in an enemy trap cannot capture anything.', 'Any rat, your own included, blocks a jump.', 'Rats capture each other only on the same terrain.', 'Draw after 100 plies without a capture.'],
    zh: ['进入敌方陷阱的动物不能吃子。', '任何鼠（包括己方）都会阻挡跳河。', '鼠只能与同一地形的鼠互吃。', '100步无吃子判和。'],
  },
  daitou: {
    en: ['The tiger jumps only across the lakes’ width (along the ranks); the lion jumps both ways.', 'Any rat blocks a jump.', 'Rats capture each other only on the same terrain.', 'Draw after 200 plies without a capture; anti-chase rules 7-3 and 17-5 apply.'],
    zh: ['虎只能横向跳河，狮可以横竖跳。', '任何鼠都会阻挡跳河。', '鼠只能与同一地形的鼠互吃。', '200步无吃子判和；适用7-3与17-5规则。'],
  },
  international: {
    en: ['Any rat blocks a jump.', 'Rats capture each other only on the same terrain.', 'Draw after 200 plies without a capture. No anti-chase rules.'],
    zh: ['任何鼠都会阻挡跳河。', '鼠只能与同一地形的鼠互吃。', '200步无吃子判和；无防长杀规则。'],
  },
};

/** The lesson chapters (/learn/<id>) that let the reader try each line of COMMON. */
const COMMON_LESSONS = [['board'], ['den', 'winning'], ['captures'], ['river'], ['river'], ['traps']];
/** And each line of SPECIFIC, by ruleset. */
const SPECIFIC_LESSONS = {
  classic: [['river'], ['river'], ['online'], ['online']],
  strict: [['traps'], ['river'], ['river'], ['online']],
  daitou: [['river'], ['river'], ['river'], ['online']],
  international: [['river'], ['river'], ['online']],
};

/** Links to try a rule in its lessons; named by the chapters' titles once they are read. */
const tryIt = (chapters) => chapters.map((id) => ` <a href="/learn/${id}" data-link class="try-it" data-chapter="${id}">${t('learnTryIt')}</a>`).join(' ·');

/**
 * The rules page of a ruleset, with diagram boards.
 * @param {HTMLElement} root
 * @param {string} rules
 * @returns {import('../types.js').View}
 */
export function renderRules(root, rules) {
  const name = SPECIFIC[rules] ? rules : 'classic';
  // Traditional Chinese reads the Simplified lines converted (tools/make-traditional.py).
  const hant = language() === 'zh-Hant';
  const lang = hant ? 'zh' : language();
  const read = (line) => (hant ? RULES_ZH_HANT[line] ?? line : line);
  root.innerHTML = `<section class="card rules-text">
    <h1>${t('rulesTitle', { name: t(`ruleset.${name}`) })}</h1>
    <p class="row">${Object.keys(SPECIFIC).map((r) => `<a href="/rules/${r}" data-link ${r === name ? 'aria-current="page"' : ''}>${t(`ruleset.${r}`)}</a>`).join(' · ')}</p>
    ${legendHtml({ level: 2 })}
    <ul>${COMMON[lang].map((line, i) => `<li>${read(line)}${tryIt(COMMON_LESSONS[i])}</li>`).join('')}</ul>
    <h2>${t(`ruleset.${name}`)}</h2>
    <ul>${SPECIFIC[name][lang].map((line, i) => `<li>${read(line)}${tryIt(SPECIFIC_LESSONS[name][i])}</li>`).join('')}</ul>
    <p>${t('learnRulesetsDiffer')}${tryIt(['rulesets'])}</p>
    <div class="diagrams">${DIAGRAMS.map((d, i) => `<figure><div class="mini" id="diagram-${i}"></div><figcaption>${read(d[lang])}</figcaption></figure>`).join('')}</div>
  </section>`;
  const boards = DIAGRAMS.map((d, i) => {
    const board = createBoard(root.querySelector(`#diagram-${i}`), () => {});
    renderBoard(board, { pieces: parseBoard(d.fen), orientation: 'red', legal: [], lastMove: d.move });
    return board;
  });
  const links = /** @type {HTMLElement[]} */ ([...root.querySelectorAll('.try-it')]);
  api.learnCatalogue().then((catalogue) => {
    for (const link of links) {
      const chapter = catalogue.chapters.find((c) => c.id === link.dataset.chapter);
      if (chapter) link.textContent = t('learnTryItTitled', { title: say(chapter.title) });
    }
  }).catch(() => {});
  return {
    destroy() {
      for (const board of boards) board.destroy();
    },
  };
}
