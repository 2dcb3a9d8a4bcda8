#!/usr/bin/env bash
# Issue 27's measure (loopback only, bounded): the 9,900-game load's move latency with the
# background puzzle miner working through a backlog of finished games, beside the same run
# without it. See docs/benchmarks.md. Needs the release build
# (cargo build --release -p jungle-server -p jungle-load).
# usage: mining.sh prepare        # a database with thousands of finished games (SQLite)
#        mining.sh run on|off     # one measured run on a copy of it
set -u
B="$(cd "$(dirname "$0")/../.." && pwd)/target/release"
SEED=/tmp/mining-seed.db
RUN=/tmp/mining-run.db
PORT=18100
serve() {
  $B/jungle-server --addr 127.0.0.1:$PORT --database-url sqlite://$1 \
    --max-connections-per-ip 100000 --no-rate-limits "${@:2}" > /tmp/mining-server.log 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$PORT/ && return; sleep 0.1; done
  echo "the server did not start" >&2; exit 1
}
finished() { sqlite3 "$1" "SELECT count(*) FROM games WHERE status = 'finished' AND plies >= 12"; }
case "$1" in
prepare)
  rm -f $SEED $SEED-wal $SEED-shm
  serve $SEED --no-puzzle-mining
  # Games end by resignation after 20 to 40 plies; players seek again.
  $B/jungle-load --url ws://127.0.0.1:$PORT --games 1000 --moves-per-s 4 --resign-at 20 \
    --duration 40 --warmup 5 > /dev/null 2>&1
  kill $SERVER; wait $SERVER 2>/dev/null
  echo "finished games of 12 plies or more: $(finished $SEED)"
  ;;
run)
  rm -f $RUN $RUN-wal $RUN-shm
  cp $SEED $RUN
  mining=(); [ "$2" = off ] && mining=(--no-puzzle-mining)
  serve $RUN "${mining[@]}"
  $B/jungle-load --url ws://127.0.0.1:$PORT --games 9900 --moves-per-s 1 --duration 30 \
    --warmup 45 2>/tmp/mining-load.err
  echo "mining $2: games mined during the run: $(curl -s http://127.0.0.1:$PORT/metrics \
    | awk '/^jungle_puzzles_mined_total/ {s+=$2} END {print s+0}')"
  kill $SERVER; wait $SERVER 2>/dev/null
  ;;
esac
