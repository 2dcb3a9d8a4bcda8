"""Jungle Arena's Bot, Board and Challenges APIs as lichess's own Python client sees them.

Driven by `tests/server/bot_api/berserk.rs`, which starts a server, makes the accounts and
tokens, and computes legal lines of play (this script knows no rules of Jungle). Everything
said to the server here goes through berserk's unchanged methods (pinned in requirements.txt);
the only thing of ours is a session that gives every request a read timeout, as lichess-bot's
does.

    python conformance.py <scenario> <config.json>

Scenarios: `whole` (every method, every ruleset), `ten` (ten games in a row on one event
stream read with a 15 s timeout), `leaver` (run as a child process by `whole`: a bot that
plays one move and is killed).
"""

import datetime
import json
import queue
import subprocess
import sys
import threading
import time

import berserk
import berserk.exceptions

WAIT = 20  # seconds any one expected line may take to come


class TimeoutSession(berserk.TokenSession):
    """berserk's session, with a read timeout on every request (streams included)."""

    def __init__(self, token, timeout):
        super().__init__(token)
        self.timeout = timeout

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", self.timeout)
        return super().request(*args, **kwargs)


def client(config, token, timeout=60):
    return berserk.Client(TimeoutSession(token, timeout), base_url=config["base_url"])


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what, flush=True)


def refused(call, status, what):
    """`call` must fail with `status`; berserk raises ResponseError for it."""
    try:
        call()
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == status, f"{what}: {e.status_code} (want {status}): {e.cause}")
        return e
    raise AssertionError(f"{what}: it was not refused")


class Lines:
    """A stream read on its own thread into a queue; errors end it and are kept."""

    def __init__(self, stream, name):
        self.queue = queue.Queue()
        self.error = None
        self.name = name
        self.ended = False
        thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        thread.start()

    def _read(self, stream):
        try:
            for line in stream:
                self.queue.put(line)
        except Exception as e:  # the read timeout, a dropped connection
            self.error = e
        self.ended = True
        self.queue.put(None)

    def until(self, accept, what, wait=WAIT):
        """The next line `accept` takes; lines before it are passed over."""
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no {what} within {wait} s")
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"{self.name}: the stream ended before {what}: {self.error!r}")
            if accept(line):
                return line


def of_type(kind, **fields):
    def accept(line):
        return line.get("type") == kind and all(
            _field(line, key) == value for key, value in fields.items()
        )

    return accept


def _field(line, dotted):
    for part in dotted.split("__"):
        line = line.get(part) if isinstance(line, dict) else None
    return line


def ended(line):
    """A state (or gameFull's) of a finished game."""
    state = line.get("state") if line.get("type") == "gameFull" else line
    return bool(state) and state.get("status") not in (None, "started")


def state_at(plies):
    """A gameState (or gameFull's) with `plies` moves."""

    def accept(line):
        state = line.get("state") if line.get("type") == "gameFull" else line
        if not state or state.get("type") != "gameState":
            return False
        moves = state["moves"].split()
        return len(moves) == plies

    return accept


class Player:
    """An account with its berserk client and its event stream."""

    def __init__(self, config, who, timeout=60):
        self.config = config
        self.token = config[who]["token"]
        self.api = client(config, self.token, timeout)
        self.account = self.api.account.get()
        self.id = self.account["id"]
        self.name = self.account["username"]
        self.events = Lines(self.api.board.stream_incoming_events(), f"{self.name}'s events")
        # The stream is opened on its own thread: online once the server has it.
        deadline = time.monotonic() + WAIT
        while not self.api.account.get()["online"]:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}'s event stream never opened")
            time.sleep(0.05)

    def game_stream(self, game):
        if self.account.get("title") == "BOT":
            stream = self.api.bots.stream_game_state(game)
        else:
            stream = self.api.board.stream_game_state(game)
        return Lines(stream, f"{self.name}'s game {game}")

    def move(self, game, move):
        if self.account.get("title") == "BOT":
            self.api.bots.make_move(game, move)
        else:
            self.api.board.make_move(game, move)


def challenge_accepted(challenger, opponent, **settings):
    """`challenger` challenges `opponent`, who accepts on seeing it; the game's id."""
    sent = challenger.api.challenges.create(opponent.name, **settings)
    check("id" in sent, f"{challenger.name} challenged {opponent.name} ({settings})")
    seen = opponent.events.until(
        of_type("challenge", challenge__id=sent["id"]), "the challenge"
    )
    if opponent.account.get("title") == "BOT":
        opponent.api.bots.accept_challenge(seen["challenge"]["id"])
    else:
        opponent.api.challenges.accept(seen["challenge"]["id"])
    start = challenger.events.until(of_type("gameStart"), "gameStart")
    opponent.events.until(of_type("gameStart", game__id=start["game"]["id"]), "gameStart")
    return start["game"]["id"]


def play_line(game, red, blue, streams, moves):
    """Plays `moves` in turn, each seen by every stream before the next."""
    for ply, move in enumerate(moves):
        (red if ply % 2 == 0 else blue).move(game, move)
        for stream in streams:
            seen = stream.until(state_at(ply + 1), f"the state after ply {ply + 1}")
    return seen


def start_up(config, bot, ada, bea):
    check(bot.account.get("title") == "BOT", "account.get names a bot BOT")
    check(ada.account.get("title") is None, "and a person untitled")
    public = ada.api.users.get_public_data(bot.name)
    check(public["id"] == bot.id, "users.get_public_data finds the bot")
    check(isinstance(public.get("createdAt"), datetime.datetime), "with createdAt as a date")
    online = list(ada.api.bots.get_online_bots())
    check(any(b["id"] == bot.id for b in online), "bots.get_online_bots lists it")
    tested = ada.api.oauth.test_tokens(bot.token, "no-such-token")
    check(tested[bot.token]["userId"] == bot.id, "oauth.test_tokens names the holder")
    check(tested["no-such-token"] is None, "and nobody for a token that is none")


def decline_and_cancel(config, bot, ada, bea):
    sent = bea.api.challenges.create(bot.name, rated=False, clock_limit=60, clock_increment=0)
    seen = bot.events.until(of_type("challenge", challenge__id=sent["id"]), "the challenge")
    mine = bot.api.challenges.get_mine()
    check(any(c["id"] == sent["id"] for c in mine["in"]), "challenges.get_mine lists it in")
    check(
        any(c["id"] == sent["id"] for c in bea.api.challenges.get_mine()["out"]),
        "and out for its sender",
    )
    bot.api.bots.decline_challenge(seen["challenge"]["id"], reason="tooFast")
    declined = bea.events.until(of_type("challengeDeclined"), "challengeDeclined")
    check(declined["challenge"]["declineReason"] == "tooFast", "declined with its reason")
    again = refused(
        lambda: bea.api.challenges.create(bot.name, rated=False, clock_limit=60, clock_increment=0),
        429,
        "asking again at once waits",
    )
    check(again.response.headers.get("Retry-After"), "and says how long")
    sent = ada.api.challenges.create(bea.name, rated=False, clock_limit=300, clock_increment=3)
    bea.events.until(of_type("challenge", challenge__id=sent["id"]), "the challenge")
    ada.api.challenges.cancel(sent["id"])
    bea.events.until(of_type("challengeCanceled", challenge__id=sent["id"]), "challengeCanceled")
    check(True, "challenges.cancel withdrew it")


def every_ruleset(config, bot, ada, bea):
    for rules, line in config["lines"].items():
        game = challenge_accepted(
            ada, bot, rated=True, clock_limit=300, clock_increment=2, variant=rules, color="white"
        )
        mine, its = ada.game_stream(game), bot.game_stream(game)
        full = its.until(of_type("gameFull"), "gameFull")
        check(full["rules"] == rules, f"{rules}: gameFull says its ruleset")
        check(full["white"]["id"] == ada.id and full["black"]["id"] == bot.id, "white is Red")
        last = play_line(game, ada, bot, [mine, its], line["moves"])
        check(last["status"] == line["status"], f"{rules}: the last move ends it: {last['status']}")
        check(last["winner"] == line["winner"], f"{rules}: won by {last['winner']}")
        for name in ("wtime", "btime", "winc", "binc"):
            check(isinstance(last[name], datetime.timedelta), f"{name} is a timedelta")
        finish = bot.events.until(of_type("gameFinish", game__id=game), "gameFinish")
        check(finish["game"]["status"] == line["status"], "gameFinish on the event stream")


def draw_and_takeback(config, bot, ada, bea):
    moves = config["lines"]["classic"]["moves"]
    game = challenge_accepted(
        ada, bea, rated=False, clock_limit=600, clock_increment=0, color="white"
    )
    red, blue = ada.game_stream(game), bea.game_stream(game)
    play_line(game, ada, bea, [red, blue], moves[:4])
    # takeback/yes with nothing standing asks; the opponent's yes accepts.
    bea.api.board.offer_takeback(game)
    asked = red.until(lambda l: l.get("takebackOffer"), "the takeback request")
    check(asked.get("btakeback") is True, "the request stands, named as lichess names it")
    ada.api.board.accept_takeback(game)
    back = red.until(state_at(3), "the state taken back")
    check(back["moves"].split() == moves[:3], "Bea's last move was taken back")
    # And declined.
    play_line_from(game, ada, bea, [red, blue], moves, 3, 4)
    ada.api.board.offer_takeback(game)
    blue.until(lambda l: l.get("takebackOffer"), "the takeback request")
    bea.api.board.decline_takeback(game)
    blue.until(lambda l: l.get("type") == "gameState" and not l.get("takebackOffer"), "declined")
    # draw/yes with nothing standing offers; the opponent's yes agrees.
    bea.api.board.offer_draw(game)
    offered = red.until(lambda l: l.get("drawOffer"), "the draw offer")
    check(offered.get("bdraw") is True, "the offer stands, bdraw")
    ada.api.board.decline_draw(game)
    red.until(lambda l: l.get("type") == "gameState" and not l.get("drawOffer"), "declined")
    ada.api.board.offer_draw(game)
    blue.until(lambda l: l.get("drawOffer"), "the draw offer")
    bea.api.board.accept_draw(game)
    over = red.until(ended, "the end")
    check(over["status"] == "draw-agreed" and over["winner"] is None, "a draw by agreement")


def play_line_from(game, red, blue, streams, moves, start, end):
    for ply in range(start, end):
        (red if ply % 2 == 0 else blue).move(game, moves[ply])
        for stream in streams:
            stream.until(state_at(ply + 1), f"the state after ply {ply + 1}")


def resign_and_abort(config, bot, ada, bea):
    moves = config["lines"]["classic"]["moves"]
    game = challenge_accepted(ada, bot, rated=False, clock_limit=180, clock_increment=0, color="white")
    mine = ada.game_stream(game)
    mine.until(of_type("gameFull"), "gameFull")
    ada.api.board.abort_game(game)
    over = mine.until(ended, "the end")
    check(over["status"] == "aborted", "board.abort_game before the first move")
    game = challenge_accepted(ada, bot, rated=False, clock_limit=180, clock_increment=0, color="white")
    mine, its = ada.game_stream(game), bot.game_stream(game)
    play_line(game, ada, bot, [mine, its], moves[:2])
    refused(lambda: bot.api.bots.abort_game(game), 400, "no abort once both have moved")
    bot.api.bots.resign_game(game)
    over = mine.until(ended, "the end")
    check(over["status"] == "resign" and over["winner"] == "red", "bots.resign_game")


def by_days_with_chat(config, bot, ada, bea):
    moves = config["lines"]["strict"]["moves"]
    game = challenge_accepted(ada, bot, rated=False, days=3, variant="strict", color="white")
    mine, its = ada.game_stream(game), bot.game_stream(game)
    full = mine.until(of_type("gameFull"), "gameFull")
    check(full["clock"]["kind"] == "days", "a game over days")
    play_line(game, ada, bot, [mine, its], moves[:3])
    bot.api.bots.post_message(game, "good luck")
    ada.api.board.post_message(game, "have fun")
    mine.until(of_type("chatLine", text="good luck"), "the bot's line")
    its.until(of_type("chatLine", text="have fun", room="player"), "the person's line")
    chat = ada.api.board.get_game_chat(game)
    check(
        [line["text"] for line in chat][-2:] == ["good luck", "have fun"],
        f"board.get_game_chat reads them back: {chat}",
    )
    refused(
        lambda: bot.api.bots.post_message(game, "hello", spectator=True),
        400,
        "a player does not write in the spectators' room",
    )
    ada.api.board.resign_game(game)
    over = its.until(ended, "the end")
    check(over["status"] == "resign" and over["winner"] == "blue", "resigned over days")


def seeks_meet(config, bot, ada, bea):
    """Two people seek the same game with board.seek; the pool pairs them."""
    done = {}

    def seek(who):
        done[who.name] = who.api.board.seek(5, 3, rated=False, variant="strict")

    threads = [threading.Thread(target=seek, args=(who,), daemon=True) for who in (ada, bea)]
    for thread in threads:
        thread.start()
    first = ada.events.until(of_type("gameStart"), "gameStart from the seek", wait=30)
    game = first["game"]["id"]
    bea.events.until(of_type("gameStart", game__id=game), "the same game for the other")
    check(first["game"]["rules"] == "strict", "board.seek paired two people in the pool")
    for thread in threads:
        thread.join(timeout=WAIT)
    check(len(done) == 2, f"and each seek's answer ended with the match: {done}")
    stream = ada.game_stream(game)
    stream.until(of_type("gameFull"), "gameFull")
    ada.api.board.resign_game(game)
    stream.until(ended, "the end")


def against_the_computer(config, bot, ada, bea):
    moves = config["lines"]["international"]["moves"]
    made = ada.api.challenges.create_ai(
        level=2, clock_limit=300, clock_increment=2, variant="international", color="white"
    )
    game = made["id"]
    ada.events.until(of_type("gameStart", game__id=game), "gameStart against the computer")
    stream = ada.game_stream(game)
    full = stream.until(of_type("gameFull"), "gameFull")
    check(full["rules"] == "international", "challenges.create_ai started a game")
    ada.move(game, moves[0])
    stream.until(state_at(2), "the computer's answer")
    check(True, "the computer answered")
    refused(
        lambda: ada.api.challenges.create_ai(level=9, clock_limit=300, clock_increment=2),
        400,
        "levels are 1 to 8",
    )
    ada.api.board.resign_game(game)
    stream.until(ended, "the end")


def claim_victory(config, ada, script):
    """A bot of its own process (its event and game streams are its presence) plays its first
    move and dies; the person claims the game."""
    moves = config["lines"]["daitou"]["moves"]
    leaver = subprocess.Popen(
        [sys.executable, script, "leaver", sys.argv[2]], stdout=subprocess.PIPE, text=True
    )
    try:
        name = leaver.stdout.readline().strip()
        check(name != "", f"the leaver {name} is online")
        ada.api.challenges.create(
            name, rated=False, clock_limit=300, clock_increment=0, variant="daitou", color="white"
        )
        game = ada.events.until(of_type("gameStart"), "gameStart")["game"]["id"]
        mine = ada.game_stream(game)
        mine.until(of_type("gameFull"), "gameFull")
        refused(lambda: ada.api.board.claim_victory(game), 400, "no claim while the opponent is here")
        ada.move(game, moves[0])
        mine.until(state_at(2), "the leaver's move", wait=30)
        check(leaver.stdout.readline().strip() == "moved", "the leaver moved")
    finally:
        leaver.kill()
        leaver.wait()
    gone = mine.until(lambda l: l.get("type") == "opponentGone" and l.get("gone"), "opponentGone")
    left = gone["claimWinInSeconds"]
    check(isinstance(left, int) and left > 0, f"opponentGone counts down: {gone}")
    if left >= 2:
        refused(
            lambda: ada.api.board.claim_victory(game), 400, "no claim while they may come back"
        )
    # The server rules the game when the time runs out; a claim then is granted.
    over = mine.until(ended, "the end", wait=60)
    ada.api.board.claim_victory(game)
    check(over["status"] == "abandoned" and over["winner"] == "red", "board.claim_victory")


def leaver(config):
    """A bot that accepts a challenge, plays its first move and waits to be killed."""
    bot = client(config, config["quitter"]["token"])
    me = bot.account.get()
    events = Lines(bot.bots.stream_incoming_events(), "the leaver's events")
    while not any(b["id"] == me["id"] for b in bot.bots.get_online_bots()):
        time.sleep(0.05)
    print(me["username"], flush=True)
    challenge = events.until(of_type("challenge"), "a challenge")
    bot.bots.accept_challenge(challenge["challenge"]["id"])
    game = events.until(of_type("gameStart"), "gameStart")["game"]["id"]
    stream = Lines(bot.bots.stream_game_state(game), "the leaver's game")
    stream.until(state_at(1), "Red's first move", wait=30)
    bot.bots.make_move(game, config["lines"]["daitou"]["moves"][1])
    print("moved", flush=True)
    time.sleep(120)


def ten_games(config, bot, ada):
    """Ten games in a row, each longer than the read timeout, on one event stream."""
    moves = config["lines"]["classic"]["moves"]
    plies = config["ten_plies"]
    for n in range(10):
        game = challenge_accepted(
            ada, bot, rated=False, clock_limit=600, clock_increment=0, color="white"
        )
        mine, its = ada.game_stream(game), bot.game_stream(game)
        for ply in range(plies):
            time.sleep(1)
            (ada if ply % 2 == 0 else bot).move(game, moves[ply])
            for stream in (mine, its):
                stream.until(state_at(ply + 1), f"the state after ply {ply + 1}")
        bot.api.bots.resign_game(game)
        bot.events.until(of_type("gameFinish", game__id=game), "gameFinish")
        check(not bot.events.ended, f"game {n + 1} played on the same event stream")
    check(bot.events.error is None and not bot.events.ended, "no read timed out, none reconnected")


def main():
    scenario, config_path = sys.argv[1], sys.argv[2]
    with open(config_path) as f:
        config = json.load(f)
    if scenario == "leaver":
        leaver(config)
        return
    if scenario == "ten":
        bot = Player(config, "bot", timeout=15)
        ada = Player(config, "ada", timeout=15)
        ten_games(config, bot, ada)
        return
    bot, ada, bea = Player(config, "bot"), Player(config, "ada"), Player(config, "bea")
    start_up(config, bot, ada, bea)
    decline_and_cancel(config, bot, ada, bea)
    every_ruleset(config, bot, ada, bea)
    draw_and_takeback(config, bot, ada, bea)
    resign_and_abort(config, bot, ada, bea)
    by_days_with_chat(config, bot, ada, bea)
    seeks_meet(config, bot, ada, bea)
    against_the_computer(config, bot, ada, bea)
    claim_victory(config, ada, __file__)
    print("berserk conformance: every scenario passed", flush=True)


if __name__ == "__main__":
    main()
