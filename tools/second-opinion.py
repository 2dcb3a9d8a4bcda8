#!/usr/bin/env python3
"""A second engine's opinion of shipped puzzles (issue 53): how often another Jungle engine
finds a puzzle's first move, and how it scores the line's end, where the solver should be
clearly better.

    python3 tools/second-opinion.py ENGINE crates/jungle-puzzles/puzzles/international.jsonl [MS]

ENGINE is any engine speaking JCEI or UCI on standard input (jungine's family: `jcei` or `uci`,
`position fen F moves …`, `go movetime MS`, `info … score cp N|mate N …`, `bestmove M`),
whose position text is ours with `w` for Red and `b` for Blue, and whose squares are ours
(docs/notation.md). Such engines play one ruleset: give it the file of the ruleset it plays.
MS is the thought per position (1000 by default).

Printed: per puzzle, one line; then the counts for docs/benchmarks.md.
"""
import json
import statistics
import subprocess
import sys


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("jcei")
        self.until(lambda line: line in ("jceiok", "uciok"))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def think(self, fen, moves, ms):
        """The engine's best move and its last score for the side to move: ('cp', n),
        ('mate', n) or None."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {ms}")
        lines = self.until(lambda line: line.startswith("bestmove"))
        score = None
        self.depth = 0
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                at = words.index("score")
                score = (words[at + 1], int(words[at + 2]))
                self.depth = int(words[words.index("depth") + 1])
        return lines[-1].split()[1], score

    def close(self):
        self.send("quit")
        self.process.wait(timeout=10)


def fen(position):
    """Our position text as the engine's: the board, then w (Red) or b (Blue)."""
    board, side = position.split()[:2]
    return f"{board} {'w' if side == 'r' else 'b'}"


def main():
    command, path = sys.argv[1], sys.argv[2]
    ms = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    engine = Engine(command)
    found = 0
    den_scores, material_scores = [], []
    mates = 0
    # Missed, but the engine's own first move wins by force too (a den entry it can count).
    other_wins = 0
    puzzles = [json.loads(line) for line in open(path) if line.strip()]
    for n, puzzle in enumerate(puzzles, 1):
        start = fen(puzzle["position"])
        line = puzzle["solution"]
        best, its_score = engine.think(start, [puzzle["blunder"]], ms)
        first = best == line[0]
        found += first
        if not first and its_score and its_score[0] == "mate" and its_score[1] > 0:
            other_wins += 1
        den = puzzle["judged"]["den"] if puzzle.get("judged") else False
        end = "den"
        if not den:
            # The line's end, the opponent to move: their score, turned to the solver's.
            _, score = engine.think(start, [puzzle["blunder"], *line], ms)
            if score is None:
                end = "no score"
            elif score[0] == "mate":
                mates += score[1] < 0
                end = f"mate {-score[1]}"
            else:
                material_scores.append(-score[1])
                end = f"{-score[1]:+d} cp"
        else:
            den_scores.append(1)
        print(f"{n:3} {puzzle['themes']} first move {'found' if first else f'MISSED: {best} ({its_score}, depth {engine.depth})'}; end {end}")
        sys.stdout.flush()
    engine.close()
    print(f"\n{len(puzzles)} puzzles, {ms} ms a position")
    print(f"first move found: {found} of {len(puzzles)}; of the others, the engine's own move "
          f"forces a den entry by its count in {other_wins}")
    if material_scores or mates:
        s = sorted(material_scores)
        print(f"material ends: {len(s) + mates}; the solver mates in {mates}")
        if s:
            print(f"  scored (cp, the solver's side): median {statistics.median(s):+.0f}, "
                  f"lowest {s[0]:+d}, highest {s[-1]:+d}")
            for bound in (0, 250, 400, 1000):
                print(f"  at least {bound:+d}: {sum(1 for v in s if v >= bound)}")


if __name__ == "__main__":
    main()
