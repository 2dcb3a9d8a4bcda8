// Made by tools/make-traditional.py from the Simplified Chinese: edit those and run it again.

/** Each Chinese line of the rules page, in Traditional Chinese, by its Simplified text. */
export const RULES_ZH_HANT = {
  "陷阱：蓝狼进入红方陷阱 c1，战斗力为0，连鼠都能吃它。": "陷阱：藍狼進入紅方陷阱 c1，戰鬥力為0，連鼠都能吃它。",
  "阻挡：蓝鼠在 b5 水中，红狮不能从 a5 跳到 d5。": "阻擋：藍鼠在 b5 水中，紅獅不能從 a5 跳到 d5。",
  "鼠吃鼠：水中的红鼠吃岸上的蓝鼠，只有经典规则允许。": "鼠吃鼠：水中的紅鼠吃岸上的藍鼠，只有經典規則允許。",
  "Enter the opponent’s den (穴) to win. Capturing every enemy animal, or leaving the opponent without a legal move, also wins.": "Enter the opponent’s den (穴) to win. Capturing every enemy animal, or leaving the opponent without a legal move, also wins.",
  "An enemy animal in one of your traps (阱) has rank 0: any of your animals may capture it.": "An enemy animal in one of your traps (阱) has rank 0: any of your animals may capture it.",
  "红方先走。每回合移动一只动物，上下左右走一格，不能进入自己的兽穴。": "紅方先走。每回合移動一隻動物，上下左右走一格，不能進入自己的獸穴。",
  "走进对方兽穴即获胜；吃光对方动物或使对方无棋可走也获胜。": "走進對方獸穴即獲勝；吃光對方動物或使對方無棋可走也獲勝。",
  "大吃小、同级互吃：象8 狮7 虎6 豹5 狼4 狗3 猫2 鼠1。鼠可吃象，象不能吃鼠。": "大吃小、同級互吃：象8 獅7 虎6 豹5 狼4 狗3 貓2 鼠1。鼠可吃象，象不能吃鼠。",
  "只有鼠能下水。水中的鼠与岸上的动物不能互吃。": "只有鼠能下水。水中的鼠與岸上的動物不能互吃。",
  "狮、虎可以直线跳过小河，并可吃掉落点的动物；河中有鼠阻挡时不能跳。": "獅、虎可以直線跳過小河，並可吃掉落點的動物；河中有鼠阻擋時不能跳。",
  "敌方动物进入我方陷阱后战斗力为0，我方任何动物都可以吃它。": "敵方動物進入我方陷阱後戰鬥力為0，我方任何動物都可以吃它。",
  "只有对方的鼠能阻挡跳河。": "只有對方的鼠能阻擋跳河。",
  "水中与岸上的鼠可以互吃。": "水中與岸上的鼠可以互吃。",
  "200步无吃子判和。": "200步無吃子判和。",
  "防长杀：7步内同一动物第4次进入同一格被禁止（7-3）；17步只走同一动物且活动不超过5格也受限（17-5）。": "防長殺：7步內同一動物第4次進入同一格被禁止（7-3）；17步只走同一動物且活動不超過5格也受限（17-5）。",
  "进入敌方陷阱的动物不能吃子。": "進入敵方陷阱的動物不能吃子。",
  "任何鼠（包括己方）都会阻挡跳河。": "任何鼠（包括己方）都會阻擋跳河。",
  "鼠只能与同一地形的鼠互吃。": "鼠只能與同一地形的鼠互吃。",
  "100步无吃子判和。": "100步無吃子判和。",
  "虎只能横向跳河，狮可以横竖跳。": "虎只能橫向跳河，獅可以橫豎跳。",
  "任何鼠都会阻挡跳河。": "任何鼠都會阻擋跳河。",
  "200步无吃子判和；适用7-3与17-5规则。": "200步無吃子判和；適用7-3與17-5規則。",
  "200步无吃子判和；无防长杀规则。": "200步無吃子判和；無防長殺規則。",
};
