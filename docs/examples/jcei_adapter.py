#!/usr/bin/env python3
"""Speaks our engine protocol (docs/cli.md) to `jungle bot`, and the JCEI protocol of a
JCEI-style Jungle engine (such as jungine's) to that engine.

    jungle bot --url URL --engine "python3 jcei_adapter.py /path/to/engine"

The two protocols are close kin (both follow UCI); what differs is translated here:
- the handshake: our `uci` is their `jcei`; their `jceiok` is our `uciok`;
- the rules: we say `setoption name Rules value classic`; an engine that plays one ruleset
  refuses the others, and the bridge then gives up that game at once (keep your filter's
  "rules" to what your engine plays, so that such a game never starts);
- the squares: ours are files a-g from Red's left and ranks 1-9 from Red's side, Red moving
  first. If your engine numbers them otherwise, change to_theirs/to_ours below (an engine
  whose first player is at the top flips ranks: rank r becomes 10 - r).

Everything else (position, go with wtime/btime, isready, stop, quit, info lines, bestmove)
passes through unchanged.
"""
import subprocess
import sys
import threading

FLIP_RANKS = False  # True for an engine whose first player starts at rank 9


def square(sq):
    """One square between the notations (the same both ways)."""
    if not FLIP_RANKS or len(sq) < 2:
        return sq
    return sq[0] + str(10 - int(sq[1:]))


def move(text):
    """a3a4 → a3a4 (or flipped); pass and (none) unchanged."""
    if len(text) < 4 or not text[0].isalpha():
        return text
    split = 2 if not text[2].isdigit() else 3
    return square(text[:split]) + square(text[split:])


def to_theirs(line):
    words = line.split()
    if not words:
        return None
    if words[0] == "uci":
        return "jcei"
    if words[0] == "setoption" and "Rules" in words:
        rules = words[-1]
        if rules != "classic":
            # Refused here: the bridge waits for readyok, which never comes; it gives up.
            sys.stdout.write(f"info string this engine plays classic only, not {rules}\n")
            sys.stdout.flush()
            sys.exit(1)
        return None
    if words[0] == "position" and "moves" in words:
        at = words.index("moves")
        return " ".join(words[: at + 1] + [move(m) for m in words[at + 1 :]])
    return line


def to_ours(line):
    words = line.split()
    if words and words[0] == "jceiok":
        return "uciok"
    if words and words[0] == "bestmove" and len(words) > 1:
        return "bestmove " + move(words[1])
    return line


def main():
    engine = subprocess.Popen(
        sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def answers():
        for line in engine.stdout:
            sys.stdout.write(to_ours(line.rstrip("\n")) + "\n")
            sys.stdout.flush()

    threading.Thread(target=answers, daemon=True).start()
    for line in sys.stdin:
        theirs = to_theirs(line.strip())
        if theirs is not None:
            engine.stdin.write(theirs + "\n")
            engine.stdin.flush()
    engine.stdin.close()
    engine.wait()


if __name__ == "__main__":
    main()
