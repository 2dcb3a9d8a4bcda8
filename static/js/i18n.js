// Every string the client shows, one table per language. t(key, vars) fills {placeholders}.

const STRINGS = {
  en: {
    brand: 'Jungle Arena', rules: 'Rules', sound: 'Sound on/off',
    chooseName: 'Choose a display name', nameHint: '1–24 letters, digits, spaces, _ or -', start: 'Start playing',
    playComputer: 'Play the computer', level: 'Level', levelN: 'Level {n}', computerAfter: 'If nobody comes, play the computer after',
    never: 'never', afterS: '{s} s', addComputer: 'Give the seat to the computer', computer: 'computer',
    quickMatch: 'Quick match', ruleset: 'Ruleset', clock: 'Clock', rated: 'Rated', casual: 'Casual', play: 'Play',
    waiting: 'Looking for an opponent… {s} s', pool: '{n} waiting with these settings', cancel: 'Cancel',
    privateRoom: 'Play a friend', colour: 'Your colour', red: 'Red', blue: 'Blue', random: 'Random',
    createRoom: 'Create a private room', roomReady: 'Send this link to your friend:', copy: 'Copy link', copied: 'Copied',
    codeAloud: 'Or read out the code:', joinByCode: 'Join by code', join: 'Join', code: 'Room code',
    liveGames: 'Live games', noLiveGames: 'No games in progress right now.', watch: 'Watch',
    leaderboard: 'Leaderboard', noRatings: 'Nobody is rated in this ruleset yet.', yourRatings: 'Your ratings',
    games: '{n} games', provisional: 'provisional',
    disconnects: '{n} left', disconnectsTitle: 'Games lost by leaving: {n}', leaveRecord: 'Games left: {d} · aborted: {a}',
    perMove: '{s} s per move', you: 'you', spectating: 'You are watching this game.',
    waitingForOpponent: 'Waiting for your opponent to open the link…',
    yourTurn: 'Your turn', theirTurn: "Opponent's turn",
    offerDraw: 'Offer draw', drawOffered: 'Draw offered', drawOfferedToYou: 'Your opponent offers a draw.',
    accept: 'Accept', decline: 'Decline', resign: 'Resign', confirmResign: 'Resign this game?', yes: 'Yes', no: 'No',
    rematch: 'Rematch', rematchAsked: 'Rematch requested', rematchOffered: 'Your opponent wants a rematch.',
    backToLobby: 'Back to the lobby', moves: 'Moves', captured: 'Captured',
    opponentAway: '{name} left. They forfeit in {s} s unless they return.', connecting: 'Reconnecting…',
    timeouts: 'timeouts {n}/{max}',
    wins: '{side} wins', draw: 'Draw', aborted: 'Game aborted',
    'reason.den': '{side} entered the den', 'reason.all-captured': '{loser} has no animals left',
    'reason.no-moves': '{loser} has no legal move', 'reason.no-capture': 'No capture for too long',
    'reason.resign': '{loser} resigned', 'reason.draw-agreed': 'Draw agreed',
    'reason.timeout': '{loser} ran out of time', 'reason.abandoned': '{loser} left the game',
    'reason.aborted': 'A first move was not made in time',
    notRated: 'Not rated: the game ended within 10 moves.', casualGame: 'Casual game: ratings unchanged.',
    ratingChange: 'Rating: {red} (Red) {blue} (Blue)',
    'error.illegal_move': 'That move is not allowed.', 'error.room_not_found': 'No open room has that code.',
    errorGeneric: 'Something went wrong: {msg}',
    rulesTitle: 'Rules of Jungle ({name})',
    'ruleset.classic': 'Classic', 'ruleset.strict': 'Strict', 'ruleset.daitou': 'Daitou', 'ruleset.international': 'International',
    'animal.elephant': 'Elephant', 'animal.lion': 'Lion', 'animal.tiger': 'Tiger', 'animal.leopard': 'Leopard',
    'animal.wolf': 'Wolf', 'animal.dog': 'Dog', 'animal.cat': 'Cat', 'animal.rat': 'Rat',
    square: '{square}', pieceLabel: '{side} {animal} ({rank}) on {square}', emptyLabel: '{square}',
    boardLabel: 'Board. Arrow keys move, Enter selects and moves.',
    username: 'Username', password: 'Password', keepPlayer: 'Keep this player',
    keepPlayerHint: 'Choose a username and a password to play rated games and sign in on any device. Your games and ratings stay.',
    signedInAs: 'Signed in as {name}', signOut: 'Sign out', haveAccount: 'Have an account? Sign in', signIn: 'Sign in',
    ratedNeedsAccount: 'Rated games need an account (below).', account: 'Account',
    ratingHistory: 'Rating history', noRatedGames: 'No rated games in this ruleset yet.', recentGames: 'Recent games', noGames: 'No games yet.',
    record: '{w} won · {l} lost · {d} drawn', win: 'won', loss: 'lost', drawShort: 'draw', myProfile: 'My profile',
    'status.finished': 'finished', 'status.aborted': 'aborted', 'status.active': 'in play', 'status.waiting': 'waiting',
  },
  zh: {
    brand: '斗兽棋竞技场', rules: '规则', sound: '声音开关',
    chooseName: '请选择昵称', nameHint: '1–24个字，可用字母、数字、空格、_ 或 -', start: '开始',
    playComputer: '人机对战', level: '难度', levelN: '{n} 级', computerAfter: '无人应战时，多久后改与电脑对弈',
    never: '不', afterS: '{s} 秒', addComputer: '让电脑坐这个位置', computer: '电脑',
    quickMatch: '快速匹配', ruleset: '规则', clock: '计时', rated: '排位', casual: '休闲', play: '开始对局',
    waiting: '正在寻找对手… {s} 秒', pool: '同设置等待人数：{n}', cancel: '取消',
    privateRoom: '约战好友', colour: '执子', red: '红方', blue: '蓝方', random: '随机',
    createRoom: '创建私人房间', roomReady: '把链接发给好友：', copy: '复制链接', copied: '已复制',
    codeAloud: '或告诉对方房间码：', joinByCode: '输入房间码加入', join: '加入', code: '房间码',
    liveGames: '正在进行的对局', noLiveGames: '现在没有对局。', watch: '观战',
    leaderboard: '排行榜', noRatings: '此规则暂无排位。', yourRatings: '我的等级分',
    games: '{n} 局', provisional: '暂定',
    disconnects: '断线 {n}', disconnectsTitle: '断线次数：{n}', leaveRecord: '断线 {d} 次 · 未走第一步 {a} 次',
    perMove: '每步 {s} 秒', you: '你', spectating: '你正在观战。',
    waitingForOpponent: '等待对手打开链接…',
    yourTurn: '轮到你了', theirTurn: '对方走棋',
    offerDraw: '提和', drawOffered: '已提和', drawOfferedToYou: '对方提出和棋。',
    accept: '同意', decline: '拒绝', resign: '认输', confirmResign: '确定认输吗？', yes: '是', no: '否',
    rematch: '再来一局', rematchAsked: '已请求再来一局', rematchOffered: '对方想再来一局。',
    backToLobby: '返回大厅', moves: '着法', captured: '被吃',
    opponentAway: '{name} 已离开，{s} 秒内不回来即判负。', connecting: '正在重新连接…',
    timeouts: '超时 {n}/{max}',
    wins: '{side}胜', draw: '和棋', aborted: '对局取消',
    'reason.den': '{side}进入兽穴', 'reason.all-captured': '{loser}的动物被吃光',
    'reason.no-moves': '{loser}无棋可走', 'reason.no-capture': '长时间无吃子',
    'reason.resign': '{loser}认输', 'reason.draw-agreed': '双方同意和棋',
    'reason.timeout': '{loser}超时', 'reason.abandoned': '{loser}逃跑',
    'reason.aborted': '未按时走出第一步',
    notRated: '不计分：对局在10回合内结束。', casualGame: '休闲对局：不计分。',
    ratingChange: '等级分：红 {red}　蓝 {blue}',
    'error.illegal_move': '不能这样走。', 'error.room_not_found': '没有这个房间码。',
    errorGeneric: '出错了：{msg}',
    rulesTitle: '斗兽棋规则（{name}）',
    'ruleset.classic': '经典', 'ruleset.strict': '严格', 'ruleset.daitou': '大头', 'ruleset.international': '国际',
    'animal.elephant': '象', 'animal.lion': '狮', 'animal.tiger': '虎', 'animal.leopard': '豹',
    'animal.wolf': '狼', 'animal.dog': '狗', 'animal.cat': '猫', 'animal.rat': '鼠',
    square: '{square}', pieceLabel: '{side}{animal}（{rank}）在 {square}', emptyLabel: '{square}',
    boardLabel: '棋盘。方向键移动，回车选择和走子。',
    username: '用户名', password: '密码', keepPlayer: '保留此玩家',
    keepPlayerHint: '设置用户名和密码，即可下排位赛并在任何设备登录。你的对局和等级分都会保留。',
    signedInAs: '已登录：{name}', signOut: '退出登录', haveAccount: '已有账号？登录', signIn: '登录',
    ratedNeedsAccount: '排位赛需要账号（见下方）。', account: '账号',
    ratingHistory: '等级分走势', noRatedGames: '此规则暂无排位对局。', recentGames: '最近对局', noGames: '还没有对局。',
    record: '胜 {w} · 负 {l} · 和 {d}', win: '胜', loss: '负', drawShort: '和', myProfile: '我的主页',
    'status.finished': '已结束', 'status.aborted': '已取消', 'status.active': '进行中', 'status.waiting': '等待中',
  },
};

let lang = localStorage.getItem('jungle.lang') || ((navigator.language || 'en').startsWith('zh') ? 'zh' : 'en');

export function language() { return lang; }

export function setLanguage(next) {
  lang = next === 'zh' ? 'zh' : 'en';
  localStorage.setItem('jungle.lang', lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

export function t(key, vars = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/// Fills every [data-i18n] element's text and [data-i18n-label] element's aria-label.
export function translatePage(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n-label]'))) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
