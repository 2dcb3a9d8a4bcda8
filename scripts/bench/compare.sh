#!/usr/bin/env bash
# Issue 30's standard set, two server builds side by side on this machine (loopback only,
# bounded): each scenario runs on a fresh server (SQLite in a temporary directory) of one build,
# then of the other, alternating, ROUNDS times; one load generator (this tree's) drives both,
# reading each server's CPU time and memory from /proc (--server-pid), so older builds measure
# the same way. Prints every run's JSON line, then the medians and the ratio new/old.
#
# usage: scripts/bench/compare.sh OLD_SERVER NEW_SERVER [ROUNDS] [SCENARIOS...]
#   OLD_SERVER, NEW_SERVER: jungle-server binaries (release builds; e.g. one built from
#   `git worktree add /tmp/old 30d4147` with `cargo build --release -p jungle-server`).
#   SCENARIOS: any of steady3000 steady9900 flat5000 flat3000 idle10000 spectators2000 (default:
#   all but flat3000, the issue's own wording of its CPU target, "flat out, 3,000 games").
#   STORE=postgres: each run gets a fresh database `jcompare` at 127.0.0.1:5432 (role postgres)
#   instead of SQLite.
# Needs target/release/jungle-load (cargo build --release -p jungle-load).
set -u
OLD=$1; NEW=$2; ROUNDS=${3:-2}; shift $(( $# < 3 ? $# : 3 ))
SCENARIOS=("$@"); [ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=(steady3000 steady9900 flat5000 idle10000 spectators2000)
LOAD="$(cd "$(dirname "$0")/../.." && pwd)/target/release/jungle-load"
# The warm-up must outlast every game's start (sign-ins and pairing are not per-move work):
# on this machine 5,000 games take about 15 s to start and 9,900 about 35 s. Each run's JSON
# says how many games had started when its window began (games_started_before_window).
DUR=${DUR:-30}
warmup_for() {
  if [ -n "${WARMUP:-}" ]; then echo "$WARMUP"; return; fi
  case $1 in flat5000) echo 25 ;; flat3000) echo 15 ;; steady9900) echo 45 ;; *) echo 10 ;; esac
}
OUT=$(mktemp -d /tmp/jungle-compare.XXXXXX)
ulimit -n 65536 2>/dev/null || true

load_args() {
  case $1 in
    steady3000) echo "--games 3000 --moves-per-s 1" ;;
    steady9900) echo "--games 9900 --moves-per-s 1" ;;
    flat5000) echo "--games 5000 --flat-out" ;;
    flat3000) echo "--games 3000 --flat-out" ;;
    idle10000) echo "--games 0 --idle-sockets 10000" ;;
    spectators2000) echo "--games 1 --moves-per-s 2 --spectators 2000 --watched-games 1" ;;
    *) echo "unknown scenario $1" >&2; exit 2 ;;
  esac
}

run_one() { # BUILD_NAME BINARY SCENARIO ROUND
  local dir; dir=$(mktemp -d /tmp/jungle-compare-db.XXXXXX)
  local port=$((8300 + RANDOM % 500))
  # Mining puzzles is off by its variable (builds older than the flag ignore it).
  local db="sqlite://$dir/jungle.sqlite"
  if [ "${STORE:-sqlite}" = postgres ]; then
    psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS jcompare" -c "CREATE DATABASE jcompare" test > /dev/null
    db=postgres://postgres@127.0.0.1:5432/jcompare
  fi
  JUNGLE_NO_PUZZLE_MINING=true "$2" --addr 127.0.0.1:$port --database-url "$db" \
    --no-rate-limits --max-connections-per-ip 100000 > "$dir/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.2; done
  # shellcheck disable=SC2046
  timeout $((DUR + $(warmup_for "$3") + 300)) "$LOAD" --url ws://127.0.0.1:$port --server-pid $pid \
    --duration "$DUR" --warmup "$(warmup_for "$3")" $(load_args "$3") 2> "$dir/load.err" \
    | sed "s/^{/{\"build\":\"$1\",\"scenario\":\"$3\",\"round\":$4,/" >> "$OUT/runs.jsonl"
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  rm -rf "$dir"
}

for scenario in "${SCENARIOS[@]}"; do
  for round in $(seq 1 "$ROUNDS"); do
    # Alternate which build goes first, so drift in the machine falls on both.
    if [ $((round % 2)) -eq 1 ]; then order=("old $OLD" "new $NEW"); else order=("new $NEW" "old $OLD"); fi
    for entry in "${order[@]}"; do
      set -- $entry
      echo "== $scenario round $round: $1" >&2
      run_one "$1" "$2" "$scenario" "$round"
    done
  done
done

cat "$OUT/runs.jsonl"
python3 - "$OUT/runs.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
figures = {
    "server_cpu_us_per_move": lambda r: r.get("server_cpu_us_per_move"),
    "server_kernel_us_per_move": lambda r: r.get("server_kernel_us_per_move"),
    "moves_per_s": lambda r: r.get("moves_per_s"),
    "p99_ms": lambda r: r["latency_ms"]["p99"],
    "rss_kib_per_game": lambda r: r.get("server_rss_kib_per_game"),
    "rss_kib_per_idle_socket": lambda r: r.get("server_rss_kib_per_idle_socket"),
    "spectator_last_p99_ms": lambda r: r["spectator_last_ms"]["p99"] if r.get("spectators") else None,
    "errors": lambda r: r.get("errors"),
}
print(f"{'scenario':<16}{'figure':<26}{'old':>12}{'new':>12}{'new/old':>10}")
for scenario in dict.fromkeys(r["scenario"] for r in runs):
    for name, get in figures.items():
        values = {}
        for build in ("old", "new"):
            got = [get(r) for r in runs if r["scenario"] == scenario and r["build"] == build]
            got = [g for g in got if g is not None]
            values[build] = statistics.median(got) if got else None
        if values["old"] is None and values["new"] is None:
            continue
        ratio = (f"{values['new'] / values['old']:.2f}" if values["old"] and values["new"] is not None else "")
        fmt = lambda v: "" if v is None else f"{v:.1f}"
        print(f"{scenario:<16}{name:<26}{fmt(values['old']):>12}{fmt(values['new']):>12}{ratio:>10}")
PY
echo "runs kept in $OUT/runs.jsonl" >&2
