// Every string the client shows, one table per language. t(key, vars) fills {placeholders}.
// English is here; the Chinese tables (strings_zh.js, and strings_zh_hant.js made from it by
// tools/make-traditional.py) are fetched only for a reader of them (loadLanguage), so an
// English reader's first visit downloads no Chinese.

/** The tables here now: English always, the others once loaded.
 * @type {Record<string, Record<string, string>>} */
export const STRINGS = {
  en: {
    brand: 'Jungle Arena', siteTitle: 'Jungle Arena', titleYourMove: 'Your move', notifyAsk: 'Tell me when it is my move', notifyAgainst: 'against {name}', notifyMoved: '{name} played {move}', offlineNotice: 'You are offline: the site reconnects by itself when the network is back.', rules: 'Rules', sound: 'Sound on/off', theme: 'Light or dark', themeDark: 'Dark colours', themeLight: 'Light colours',
    notFound: 'There is no page here.', notFoundBack: 'To the lobby', playNow: 'Play now, name later', changeName: 'Your display name',
    chooseName: 'Choose a display name', nameHint: '1–24 letters, digits, spaces, _ or -', start: 'Start playing',
    flipBoard: 'Flip board', people: 'People', bots: 'Bots', whoIsRanked: 'Who is ranked', botTitle: 'A bot: a program playing through the Bot API', closeRoom: 'Close this room', loading: 'Loading…', pageMissing: 'This page could not be loaded: the network may be down.', tryAgain: 'Try again',
    pushTitle: 'Notifications on your devices', pushHint: 'Your move in a game over days, a challenge, a tournament about to start: sent to your phone or computer even when the site is closed.', pushHereOn: 'This device receives them.', pushHereOff: 'This device does not receive them.', pushDevices: '({n} devices in all)', 'pushDevices.one': '({n} device in all)', pushStart: 'Send them to this device', pushStop: 'Stop on this device', pushWhat: 'What to send', pushTurns: 'My move in a game over days', pushChallenges: 'A challenge', pushTournaments: 'A tournament I joined is about to start', pushUnsupported: 'This browser cannot receive notifications from the site (on an iPhone or iPad: add the site to the home screen first).', pushBlocked: 'Notifications are blocked for this site: allow them in the browser’s site settings.', pushSaved: 'Saved.', pushFailed: 'This browser could not subscribe to notifications: try again later, or in another browser.', roomStartedWatch: 'This game has started: choose a name to watch it.', invitesYou: '{name} invites you to a game of {rules}, {clock}', takeSeat: 'Take the seat', youPlaySide: 'you play {side}',
    coloursDrawn: 'colours drawn when you sit down', fromSetUpPosition: 'from a set-up position', inviteNameHint: '1–24 letters, digits, spaces, _ or -; leave it empty and we pick one',
    playComputer: 'Play the computer', level: 'Level', levelN: 'Level {n}', computerAfter: 'If nobody comes, play the computer after',
    never: 'never', afterS: '{s} s', addComputer: 'Give the seat to the computer', computer: 'computer',
    quickMatch: 'Quick match', ruleset: 'Ruleset', clock: 'Clock', rated: 'Rated', casual: 'Casual', play: 'Play',
    waiting: 'Looking for an opponent… {s} s', pool: '{n} others waiting with these settings', 'pool.one': '1 other waiting with these settings', cancel: 'Cancel',
    privateRoom: 'Play a friend', colour: 'Your colour', red: 'Red', blue: 'Blue', random: 'Random',
    createRoom: 'Create a private room', roomReady: 'Send this link to your friend:', copy: 'Copy link', copied: 'Copied',
    codeAloud: 'Or read out the code:', joinByCode: 'Join by code', join: 'Join', code: 'Room code',
    liveGames: 'Live games', noLiveGames: 'No games in progress right now.', watch: 'Watch',
    leaderboard: 'Leaderboard', noRatings: 'Nobody is rated in this ruleset yet.', yourRatings: 'Your ratings',
    games: '{n} games', 'games.one': '{n} game', provisional: 'provisional',
    disconnects: '{n} left', disconnectsTitle: 'Games lost by leaving: {n}', leaveRecord: 'Games left: {d} · aborted: {a}',
    perMove: '{s} s per move', you: 'you', spectating: 'You are watching this game.',
    waitingForOpponent: 'Waiting for your opponent to open the link…',
    yourTurn: 'Your turn', theirTurn: "Opponent's turn",
    offerDraw: 'Offer draw', drawOffered: 'Draw offered', drawOfferedToYou: 'Your opponent offers a draw.',
    accept: 'Accept', decline: 'Decline', resign: 'Resign', confirmResign: 'Resign this game?', yes: 'Yes', no: 'No',
    rematch: 'Rematch', rematchAsked: 'Rematch requested', rematchOffered: 'Your opponent wants a rematch.',
    backToLobby: 'Back to the lobby', moves: 'Moves', captured: 'Captured', lostAnimals: '{side} lost: {animals}',
    opponentAway: '{name} left. They forfeit in {s} s unless they return.', connecting: 'Reconnecting…',
    timeouts: '{n}/{max}',
    wins: '{side} wins', draw: 'Draw', aborted: 'Game aborted', youWin: 'You win', youLose: 'You lose',
    drawDeclinedToYou: 'Your draw offer was declined.', yourFirstMove: 'Make your first move within {s} s, or the game is aborted.',
    firstMove: '{side} has {s} s for a first move.', timeoutsTitle: 'Timeouts: {n} of {max} allowed', drawAgainAt: 'Draw again from move {n}',
    'reason.den': '{side} entered the den', 'reason.all-captured': '{loser} has no animals left',
    'reason.no-moves': '{loser} has no legal move', 'reason.no-capture': 'No capture for too long',
    'reason.resign': '{loser} resigned', 'reason.draw-agreed': 'Draw agreed',
    'reason.timeout': '{loser} ran out of time', 'reason.abandoned': '{loser} left the game',
    'reason.aborted': 'A first move was not made in time',
    notRated: 'Not rated: the game ended within 10 moves.', casualGame: 'Casual game: ratings unchanged.',
    ratingChange: 'Rating: {red} (Red) {blue} (Blue)',
    yourRatingChange: 'Your rating: {before} → {after} ({change})',
    provisionalNote: '? — provisional: it moves fast until a few more games have settled it.',
    sayNo: 'Challenges and blocks', whoMayChallenge: 'Who may challenge me', 'challenges.everyone': 'Everyone', 'challenges.accounts': 'Players with an account', 'challenges.nobody': 'Nobody', blockedPlayers: 'Blocked players', blockHint: 'A blocked player cannot challenge you, their chat does not reach you, and you are never paired with them in quick play (tournaments still may).', noBlocks: 'You block nobody.', block: 'Block', unblock: 'Unblock', unblockName: 'Unblock {name}', blockedNote: 'You block {name}: no challenges, no chat, no quick-play games with them.', 'error.challenge_refused': 'That player does not take challenges from you.',
    'error.analysis_unavailable': 'Fair play: our engine says nothing while you are playing a game, nor about a position from a game in progress. It opens when the game ends.',
    'error.illegal_move': 'That move is not allowed.', 'error.room_not_found': 'No open room has that code.',
    'error.player_offline': 'That player is not online.', 'error.unknown_challenge': 'That challenge is no longer waiting.',
    'error.account_required': 'Rated games and games over days are between accounts: play casual in one sitting, or keep your player with a username.',
    'error.already_seeking': 'You are already looking for a game.',
    tournaments: 'Tournaments', officialTournament: 'Held by this site, on a schedule', officialShort: 'Official', publicNeedsAccount: 'Public tournaments are made by accounts; yours will be private, shared by its link.', previousPage: 'Previous page', nextPage: 'Next page', pageOf: 'Page {n} of {total}', newTournament: 'Make a tournament', tournamentName: 'Name', minutes: 'Minutes',
    privateTournament: 'Private (join by link)', botsTournament: 'For bots only (engines join with the Bot API)', botsArena: 'An arena for bots: engines join it with the Bot API; people watch.', createTournament: 'Create', noTournaments: 'No tournaments yet: make one.',
    playersN: '{n} players', 'playersN.one': '{n} player', points: 'Points', noEntries: 'Nobody has joined yet.', onStreak: 'On a streak: the next win scores double',
    'tournament.upcoming': 'Not started yet', 'tournament.running': 'In progress', 'tournament.finished': 'Finished',
    joinTournament: 'Join', rejoinTournament: 'Join again', withdraw: 'Withdraw (pause)', paused: 'paused',
    watchGame: 'Watch their game', gamesShort: 'Games', startsIn: 'Starts in', endsIn: 'Ends in',
    shareTournament: 'Share this link: only holders of it can join.', backToTournament: 'Back to the tournament',
    nextPairing: 'Your next game opens by itself while you are in the tournament.',
    'error.unknown_tournament': 'There is no such tournament.', 'error.tournament_over': 'This tournament is over.',
    'error.tournament_code': 'This tournament is private: join it through its link.',
    'error.already_joined': 'You are already in this tournament.',
    'error.in_tournament_game': 'You are playing a game of another tournament; finish it first.',
    'error.tournament_full': 'This tournament is full.',
    boardSection: 'Board and players', clockOf: "{side}'s clock", roomLink: 'Room link',
    boardTheme: 'Board colours', 'board.wood': 'Wood', 'board.meadow': 'Meadow',
    'error.seek_gone': 'That game was taken or cancelled.', openSeeks: 'Open challenges', noOpenSeeks: 'Nobody is waiting right now: press Play to be the first.',
    'error.takeback_unavailable': 'No move can be taken back here.', 'error.takeback_pending': 'A takeback is already asked for.',
    'error.abort_unavailable': 'A game is aborted only before your first move; resign instead.',
    'error.bots_only': 'This arena is for bots: you may watch it.',
    takeback: 'Take back', takebackAsked: 'Takeback asked', takebackOfferedToYou: 'Your opponent asks to take back their last move.',
    takebackDeclinedToYou: 'Your takeback was declined.',
    chatUnread: 'New message ({n})', chat: 'Chat', chatSpectators: 'Spectators\' chat', chatOff: 'Chat off', chatSay: 'Say something (140 characters)', chatSend: 'Send',
    chatMute: 'mute', chatMuteName: 'Mute {name}', chatMutedCount: '{n} muted:', 'chatMutedCount.one': '1 muted:', chatUnmuteName: 'unmute {name}', 'error.bad_chat': 'That line cannot be sent.',
    'chat.hello': 'Hello!', 'chat.good_luck': 'Good luck!', 'chat.well_played': 'Well played!', 'chat.thanks': 'Thanks!',
    'chat.good_game': 'Good game!', 'chat.oops': 'Oops!',
    'error.bad_frame': 'The server could not read that request.',
    'error.binary_frame': 'The server could not read that request.',
    'error.frame_too_large': 'That request is too large.',
    'error.not_authenticated': 'Not signed in yet; reconnecting…',
    'error.bad_token': 'This player is no longer known here.',
    'error.already_authenticated': 'Already signed in.',
    'error.bad_request': 'Those settings are not accepted.',
    'error.unknown_game': 'There is no such game.',
    'error.not_your_game': 'You do not play in this game.',
    'error.not_your_turn': 'It is not your turn.',
    'error.bad_move': 'That is not a move.',
    'error.game_over': 'The game is over.',
    'error.game_not_started': 'The game has not started yet.',
    'error.no_draw_offer': 'There is no draw offer to answer.',
    'error.draw_offer_limit': 'You may offer a draw once every 20 moves.',
    'error.rematch_unavailable': 'A rematch is not possible now.',
    'error.limit_reached': 'You already have as many of these as allowed; finish one first.',
    'error.bad_position': 'That position or move cannot be played.',
    'error.banned': 'This player is banned.', 'error.bot_account': 'A bot account plays through the Bot API, not in the browser.',
    'error.rate_limited': 'Too many requests; wait a moment and try again.',
    'error.puzzle_in_play': 'This puzzle stands in a game being played now: try another, or this one later.',
    'error.unavailable': 'Matchmaking is unavailable for a moment; games in progress go on. Try again shortly.',
    'error.internal': 'Something went wrong on our side; please try again.',
    'error.name_empty': 'Choose a name.',
    'error.name_too_long': 'A name has at most 24 characters.',
    'error.name_characters': 'A name may hold letters, digits, spaces, _ and -.',
    'error.name_blank': 'A name may not hold invisible characters.',
    'error.name_taken': 'That name belongs to an account, or looks like one; choose another.',
    'error.name_reserved': 'Names starting with “Computer” are the computer’s; choose another.',
    'error.not_found': 'Not found.',
    'error.bad_username': 'A username has 2–20 letters, digits, _ or -, and starts with a letter.',
    'error.bad_password': 'Choose a password of at least 8 characters that is not a common one.',
    'error.username_taken': 'That username is taken, reserved, or looks like a taken one.',
    'error.already_an_account': 'This player already has an account.',
    'error.bad_credentials': 'The username or the password is wrong.',
    'error.not_signed_in': 'Sign in first.',
    'error.no_such_session': 'There is no such device.',
    'error.foreign_origin': 'Requests from another site are not accepted.',
    'error.bad_reset_link': 'This link is unknown, used or expired; ask the operator for a new one.',
    'error.no_such_player': 'There is no such player.',
    'error.already_reported': 'You already reported this player; the operator will read it.',
    'error.bad_text': 'That text is not a game.',
    'error.too_large': 'That is too large.',
    errorGeneric: 'Something went wrong: {msg}',
    rulesTitle: 'Rules of Jungle ({name})',
    'ruleset.classic': 'Classic', 'ruleset.strict': 'Strict', 'ruleset.daitou': 'Daitou', 'ruleset.international': 'International',
    'animal.elephant': 'Elephant', 'animal.lion': 'Lion', 'animal.tiger': 'Tiger', 'animal.leopard': 'Leopard',
    'animal.wolf': 'Wolf', 'animal.dog': 'Dog', 'animal.cat': 'Cat', 'animal.rat': 'Rat',
    square: '{square}', pieceLabel: '{side} {animal}, rank {rank}, on {square}', emptyLabel: '{square}',
    sideAnimal: '{side} {animal}', moveSaid: '{animal} {from} to {to}', takesSaid: ', takes {animal}', passSaid: '{side} passes: out of time for the move',
    squareWithTerrain: '{square}, {terrain}', 'terrain.water': 'water', 'terrain.trap': '{side} trap', 'terrain.den': '{side} den',
    pieceStyle: 'Pieces', 'pieceStyle.pictures': 'Pictures', 'pieceStyle.glyphs': 'Chinese characters', 'pieceStyle.both': 'Pictures and characters', 'pieceStyle.auto': 'As the language: {style}',
    legendTitle: 'The animals', legendRank: 'rank {rank}', legendDen: 'Den', 'legendRing.red': 'solid ring', 'legendRing.blue': 'dashed ring', legendTrap: 'Trap', legendWater: 'Water',
    legendHint: 'Each animal captures animals of its rank or lower; the rat captures the elephant.',
    boardLabel: 'Board. Arrow keys move, Enter selects and moves.',
    username: 'Username', password: 'Password', keepPlayer: 'Keep this player',
    keepPlayerHint: 'Choose a username and a password to play rated games and sign in on any device. Your games and ratings stay.',
    claimRenames: 'Your name in games will change from {name} to your username, {username}.',
    signedInAs: 'Signed in as {name}', signOut: 'Sign out', haveAccount: 'Have an account? Sign in', signIn: 'Sign in',
    ratedNeedsAccount: 'Rated games need an account (below).', account: 'Account',
    ratingHistory: 'Rating history', noRatedGames: 'No rated games in this ruleset yet.', recentGames: 'Recent games', noGames: 'No games yet.',
    record: '{w} won · {l} lost · {d} drawn', win: 'won', loss: 'lost', drawShort: 'draw', myProfile: 'My profile',
    replayGame: 'Replay', versus: 'against', movesN: '{n} moves', 'movesN.one': '1 move',
    'status.finished': 'finished', 'status.aborted': 'aborted', 'status.active': 'in play', 'status.waiting': 'waiting',
    'reason.banned': '{loser} was banned',
    online: 'online', offline: 'offline', banned: 'This player is banned.',
    challenge: 'Challenge', challengeTitle: 'Challenge {name}', sendChallenge: 'Send challenge',
    challengeOffline: '{name} is offline; a challenge needs them online.',
    challengeWaiting: 'Waiting for {name} to answer… {s} s', challengedBy: '{name} challenges you',
    challengeTerms: '{rules} · {clock} · {kind} · you play {colour}',
    'challengeEnd.declined': '{name} declined your challenge.', 'challengeEnd.expired': 'Nobody answered the challenge in time.',
    'challengeEnd.cancelled': 'The challenge was withdrawn.',
    'declineReason.generic': 'Not now.', 'declineReason.later': 'Later, please: too many games at once.',
    'declineReason.tooFast': 'That clock is too fast: send a slower one.', 'declineReason.tooSlow': 'That clock is too slow: send a faster one.',
    'declineReason.timeControl': 'Not this kind of clock.', 'declineReason.rated': 'Please send a rated challenge.',
    'declineReason.casual': 'Please send a casual challenge.', 'declineReason.standard': 'Not this ruleset.',
    'declineReason.noBot': 'No games against bots.', 'declineReason.onlyBot': 'Games against bots only.',
    report: 'Report', reportTitle: 'Report {name}', reportReason: 'Reason', reportDetails: 'What happened (optional)',
    'reportReason.cheating': 'Cheating (help from an engine)', 'reportReason.abuse': 'Abusive behaviour',
    'reportReason.name': 'Offensive name', 'reportReason.stalling': 'Stalling, leaving games', 'reportReason.other': 'Other',
    sendReport: 'Send report', reportSent: 'Thank you. The operator will look at it.', reportGame: 'About the game {id}',
    fullLeaderboard: 'Full leaderboard', leaderboardTitle: 'Leaderboard · {rules}', rating: 'Rating', player: 'Player',
    leaderboardHint: 'Accounts with an established rating (deviation under 110).',
    provisionalTitle: 'Still settling', provisionalHint: 'Ratings marked ? are provisional: a few more games settle them, and then they join the ranking above.',
    allRulesets: 'All rulesets', olderGames: 'Older', newerGames: 'Newer', pageN: 'Page {n}',
    settings: 'Settings', language: 'Language', muteSounds: 'Sounds off', showCoordinates: 'Show square names on the board',
    puzzles: 'Puzzles', puzzleTheme: 'Theme', allThemes: 'All themes', hint: 'Hint', viewSolution: 'Show the solution', nextPuzzle: 'Next puzzle',
    puzzleOpponentMoves: 'Your opponent moves…', puzzleYourTurn: 'Your turn: find the best move for {side}.', puzzleRight: 'Right! Keep going.',
    puzzleWrong: 'Not this move. The puzzle counts as failed; try again, see the solution, or go on to the next one.', puzzleSolved: 'Solved!',
    streakTitle: 'Puzzle Streak', streakAbout: 'Puzzles that get harder and harder, until your first mistake. No hints. How far can you go?', streakStart: 'Start a streak', streakScore: 'Streak: {n}', streakBest: 'best: {n}', streakOver: 'Streak over: {n} solved (your best: {best}).', streakComplete: 'Every puzzle solved: a streak of {n}!', streakReady: 'Start a streak when you are ready.',
    puzzleRetry: 'Try again', puzzleTryAgain: 'Try again: find the best move for {side}.', puzzleSolvedHelped: 'Solved, with help: it counts as failed.',
    puzzleSolutionShown: 'The solution:', aboutPuzzle: 'About this puzzle', puzzleRatingN: 'Puzzle rating {n}', playedN: 'tried {n} times', playedOnce: 'tried once', puzzlesSolvedOf: '{w} of {n} solved',
    yourPuzzleRating: 'Your puzzle rating: {n}', puzzleNewcomer: 'Solve puzzles to get a puzzle rating.', puzzleNotRated: 'not rated (a guest, or tried before)',
    puzzleFromGame: 'From a game: see it', puzzleFromSelfPlay: 'From our engine\'s games against itself', puzzleLink: 'Link to this puzzle',
    puzzleOfTheDay: 'Puzzle of the day', solveIt: 'Solve it',
    'theme.den1': 'Den in 1', 'theme.den2': 'Den in 2', 'theme.den3': 'Den in 3', 'theme.denLong': 'Den, long', 'theme.material': 'Win material',
    'theme.trapCapture': 'Capture in a trap', 'theme.ratCapturesElephant': 'Rat takes elephant', 'theme.riverJump': 'River jump',
    'theme.riverBlock': 'Rat blocks a jump', 'theme.riverUnblocked': 'Jump, way open', 'theme.defence': 'Defence',
    'theme.higherCapture': 'Take a stronger animal', 'theme.endgame': 'Endgame', 'theme.long': 'Long line',
    apiTokens: 'API tokens', apiTokensHint: 'A token lets a program play for this account: your engine as a bot (Bot API), or your own client (Board API). It never signs in here.', tokenDescription: 'What it is for', newToken: 'Make a token', tokenShownOnce: 'Copy this token now: it is shown once, and only its fingerprint is kept.', noTokens: 'No tokens.', deleteToken: 'Delete', deleteTokenName: 'Delete the token {name}', neverUsed: 'never used', lastUsed: 'last used {when}', 'scope.bot:play': 'play as a bot', 'scope.board:play': 'play my games', 'scope.challenge:write': 'send challenges', chooseScope: 'Choose at least one scope.',
    save: 'Save', saved: 'Saved.', sessionsTitle: 'Signed-in devices', thisDevice: 'this device', lastSeen: 'last seen {when}',
    signOutDevice: 'Sign out', signOutOthers: 'Sign out all other devices',
    changePassword: 'Change password', currentPassword: 'Current password', newPassword: 'New password', passwordChanged: 'Password changed; other devices are signed out.',
    exportData: 'Download my data (JSON)', deleteAccount: 'Delete account',
    deleteHint: 'Your games stay, under an anonymous name; your username, password and sessions are erased. This cannot be undone.',
    replay: 'Replay', replayFirst: 'Start', replayPrev: 'Back one turn', replayNext: 'Forward one turn', replayLast: 'Latest',
    plyOf: '{n} / {total}', downloadGame: 'Download',
    analyse: 'Analyse', engineAfterGame: 'Analysis after the game', engineAfterGameWhy: 'Fair play: our engine says nothing about a game while it is being played, to its players or to anyone watching. Everything opens when it ends.', evalHidden: 'Positions that stand in a game being played now are left out until it ends.', analysisBoard: 'Analysis board', evaluation: 'Evaluation', engine: 'Engine',
    variation: 'A variation of your own.', backToGame: 'Back to the game', importTitle: 'Import',
    importHint: 'Paste a game (JGN text) or a position', load: 'Load', denIn: '{side} enters the den in {n}',
    gameOverHere: 'The game is over here.', depthN: 'depth {n}',
    editorTitle: 'Board editor', editorPalette: 'Animals', editorErase: 'Remove an animal',
    editorHint: 'Pick an animal (or ✕), then click squares. Each side has one of each animal.',
    editorToMove: 'To move', editorStart: 'Starting position', editorClear: 'Empty board', editorText: 'Position text',
    editorValid: 'A position to play: {n} legal moves.', editorOver: 'The game would be over before it began.',
    editorPlay: 'Play from here (casual)', copyText: 'Copy',
    editorBadRanks: 'The text has {n} ranks; a board has 9, separated by /.',
    editorBadWidth: 'Rank {rank} has {n} squares; a rank has 7.',
    editorBadLetter: 'Rank {rank}: “{ch}” is no animal (e l t p w d c r, capitals for Red, digits for empty squares).',
    editorBadTurn: '“{turn}” after the board should be r (Red to move) or b (Blue).',
    analyseWholeGame: 'Evaluate every turn', analysingGame: 'Evaluating every turn…',
    'mark.inaccuracy': 'Inaccuracy', 'mark.mistake': 'Mistake', 'mark.blunder': 'Blunder', 
    correspondence: 'Correspondence', correspondencePerMove: 'Correspondence: time per move', accountsOnly: 'accounts only',
    nDays: '{n} days', 'nDays.one': '1 day', daysPerMove: '{n} days per move', 'daysPerMove.one': '1 day per move',
    clockDays: '{d} d {h} h', clockHours: '{h} h {m} min', untilWhen: 'until {when}', timeLeft: '{left} left',
    correspondenceNeedsAccount: 'Games over days need an account (below).',
    correspondenceSeekListed: 'Your game over days is listed under Open challenges, for anyone to take while this page stays open.',
    yourTurnInN: 'Your turn in {n} games', 'yourTurnInN.one': 'Your turn in 1 game',
    turnBadge: 'Your turn in {n} correspondence games', 'turnBadge.one': 'Your turn in 1 correspondence game',
    correspondenceInProgress: '{n} correspondence games in progress.', 'correspondenceInProgress.one': '1 correspondence game in progress.',
    noGameWaiting: 'No game is waiting for your move.', makeMove: 'Play',
    opponentsTurnGames: 'Waiting for your opponent', opponentTimeLeft: '{left} left for them', openGame: 'Open',
    dayGivenToYou: '{name} gave you one more day.',
    yourFirstMoveBy: 'Make your first move by {when}, or the game is aborted.', firstMoveBy: '{side} has until {when} for a first move.',
    giveDay: '+1 day', giveDayTitle: 'Give your opponent one more day for this move', dayGiven: 'Day given',
    'error.give_day_unavailable': 'A day is given only in a game over days, on your opponent’s turn after the first move, once a turn.',
    'error.claim_unavailable': 'There is no victory to claim: your opponent is here, or still has time to come back.',
    vacation: 'Vacation', vacationHint: 'Your turns in games over days stand still; your opponents’ clocks run as usual. Up to 14 days a year; {n} left.',
    vacationTake: 'Take a vacation of {days}', vacationStart: 'Start the vacation', onVacationUntil: 'On vacation until {when}', comeBackNow: 'Come back now',
    vacationLobby: 'On vacation until {when}: your turns stand still.',
    mailTitle: 'E-mail when it is your turn', mailOff: 'This server sends no e-mail.',
    mailHint: 'When it is your move in a game over days and you are not at it, we write to you: once a turn, 20 mails a day at most, each with a link to stop them.',
    mailAddress: 'E-mail address', mailNone: 'No address: no mail.', mailWaiting: 'Waiting for you to follow the link we sent to {address}.',
    mailConfirmed: 'Confirmed: you get a mail when it is your move in a correspondence game and you are away.',
    mailUnsubscribed: 'You unsubscribed from these mails: save your address again to have them back.',
    mailRemove: 'Remove my address', mailSent: 'Saved: a mail is on its way.', mailRemoved: 'Your address is removed.',
    mailRefused: 'That address was not taken: check it, or try again later.',
    oneSitting: 'In one sitting', ratingSpeed: 'Games in one sitting or over days', noRatedGamesDays: 'No rated games over days in this ruleset yet.',
    resetTitle: 'Choose a new password', resetDone: 'Your password is changed. Sign in with it.',
    learn: 'Learn', learnTitle: 'Learn to play', learnInvite: 'New to Jungle?', learnInviteButton: 'Learn to play', learnInviteBack: 'Your lessons wait where you left them.',
    learnStartHere: 'Start here', learnContinue: 'Continue', learnAllDone: 'You have done every lesson and practice game. Well played!',
    learnDoneOf: '{done} of {total} done', learnPractice: 'Practice', learnChapterN: 'Chapter {n}', learnProgressRow: 'Your progress in this chapter',
    learnTickDone: 'done', learnTickLabel: 'Exercise {n} of {total} ({lesson})', learnPracticeTick: 'Practice game',
    learnExerciseOf: '{n} of {total}', learnNext: 'Next', learnToPractice: 'On to the practice', learnFinishChapter: 'Finish the chapter',
    learnNextChapter: 'Next chapter: {title}', learnAllChapters: 'All chapters', learnChapterDone: 'Chapter complete ✓',
    learnPracticeHow: 'A game against the computer at level 1: you play {side}, under {rules} rules, with 10 minutes and 5 seconds a move.',
    learnPlayPractice: 'Play the practice game', learnPracticeDone: 'done', learnUnreachable: 'The lesson could not be loaded: {msg}',
    learnGotIt: 'Got it', learnHistory: '{n} moves were played before this position: the anti-chase and cycle rules count them.',
    learnSteps: '{n} moves to make', learnRight: 'Right!', learnPassed: '{side} passed.', learnAnswered: '{side} answered {move}.',
    learnYourMove: 'Your move.', learnWrong: 'Not quite.', learnIllegal: 'That move is not allowed here.', learnDone: 'Well done!',
    learnMovesFrom: '{rules}: {square} may go to {targets}.', learnNoMoves: '{rules}: {square} cannot move.',
    learnContrastTitle: 'The same position: {a} and {b}',
    learnPracticeMoves: 'Your moves: {n} of {within}', learnPracticeComplete: 'Practice complete ✓',
    learnPracticeMissed: 'Not this time: the goal was not reached within {n} moves.',
    learnPracticeAborted: 'The game was called off: the first move was not made in time (30 seconds).', learnTryAgain: 'Try again',
    learnBackToChapter: 'Back to the chapter', learnTryIt: 'Try it: lesson', learnTryItTitled: 'Try it: “{title}”',
    learnRulesetsDiffer: 'The four rulesets differ in these few points.', learnRuleset: 'Ruleset: {rules}',
  },
};

/** The languages, in the order the header's button steps through them. */
export const LANGUAGES = ['en', 'zh', 'zh-Hant'];

/**
 * The language a browser asks for: Traditional Chinese for Taiwan, Hong Kong and Macau (and
 * any `zh-Hant`), Simplified for other Chinese, English otherwise.
 * @param {string} tag a BCP 47 tag such as `zh-TW`
 */
export function languageOf(tag) {
  const lower = (tag || 'en').toLowerCase();
  if (!lower.startsWith('zh')) return 'en';
  return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-Hant' : 'zh';
}

let lang = localStorage.getItem('jungle.lang') || languageOf(navigator.language);

export function language() { return lang; }

/** The locale for dates and numbers in the current language. */
export function locale() {
  return { en: 'en', zh: 'zh-CN', 'zh-Hant': 'zh-TW' }[lang] ?? 'en';
}

/** The other languages' tables, each a module of its own. */
const TABLES = {
  zh: () => import('./strings_zh.js').then((m) => m.ZH),
  'zh-Hant': () => import('./strings_zh_hant.js').then((m) => m.ZH_HANT),
};

/** Whether the words of `lang` are here (English always is). @param {string} lang */
export function hasLanguage(lang) {
  return Boolean(STRINGS[lang]) || !(lang in TABLES);
}

/**
 * Fetches the table of `next` if it is not here yet; call it before `setLanguage(next)`.
 * A table that cannot be fetched (offline) leaves English in its place.
 * @param {string} next
 */
export async function loadLanguage(next) {
  const load = TABLES[/** @type {keyof typeof TABLES} */ (next)];
  if (STRINGS[next] || !load) return;
  try {
    STRINGS[next] = await load();
  } catch {
    // English words stand in.
  }
}

/** Shows `next` from now on (its table loaded by `loadLanguage`, else English words).
 * @param {string} next */
export function setLanguage(next) {
  lang = LANGUAGES.includes(next) ? next : 'en';
  localStorage.setItem('jungle.lang', lang);
  document.documentElement.lang = { en: 'en', zh: 'zh-CN', 'zh-Hant': 'zh-Hant' }[lang];
  // The tab's name, in the page's language and script; and the installed app's.
  document.title = t('siteTitle');
  const manifest = document.querySelector('link[rel="manifest"]');
  manifest?.setAttribute('href', lang === 'en' ? '/manifest.webmanifest' : `/manifest.${lang}.webmanifest`);
}

/**
 * A refusal in the player's language, by its code; the server's own sentence when we have
 * none for it.
 * @param {string | undefined} code
 * @param {string} fallback
 */
export function errorText(code, fallback) {
  const key = `error.${code}`;
  return code && (STRINGS[lang]?.[key] ?? STRINGS.en[key]) ? t(key) : fallback;
}

export function t(key, vars = {}) {
  // A count of one takes the `.one` form where there is one ("1 game").
  const one = vars.n === 1 || vars.n === '1' ? `${key}.one` : null;
  const table = STRINGS[lang] ?? STRINGS.en;
  const text = (one && (table[one] ?? STRINGS.en[one])) ?? table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/// Fills every [data-i18n] element's text and [data-i18n-label] element's aria-label.
export function translatePage(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n-label]'))) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
