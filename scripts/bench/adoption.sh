#!/usr/bin/env bash
# A benchmark of issue 16 on this machine (loopback only, bounded): see docs/benchmarks.md.
# Needs the release build (cargo build --release -p jungle-server -p jungle-load), PostgreSQL
# at 127.0.0.1:5432 (role postgres) and Redis at 127.0.0.1:6379. Uses the database jbench.
set -u
B="$(cd "$(dirname "$0")/../.." && pwd)/target/release"
psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS jbench" -c "CREATE DATABASE jbench" test >/dev/null 2>&1
DB=postgres://postgres@127.0.0.1:5432/jbench
R=(--redis-url redis://127.0.0.1:6379)
$B/jungle-server --addr 127.0.0.1:8101 --database-url $DB --max-connections-per-ip 100000 --no-rate-limits "${R[@]}" --node-id n1 > /tmp/node1.log 2>&1 &
N1=$!
sleep 2
$B/jungle-server --addr 127.0.0.1:8102 --database-url $DB --max-connections-per-ip 100000 --no-rate-limits "${R[@]}" --node-id n2 > /tmp/node2.log 2>&1 &
N2=$!
sleep 2
$B/jungle-load --url ws://127.0.0.1:8101 --games 1000 --moves-per-s 1 --warmup 5 --duration 60 > /dev/null 2>/tmp/load.err &
LOAD=$!
sleep 15
active=$(psql -h 127.0.0.1 -U postgres -d jbench -tAc "SELECT COUNT(*) FROM games WHERE status='active'")
owned=$(curl -s http://127.0.0.1:8101/metrics | awk '/^jungle_games_owned/ {print $2}')
echo "games in progress: $active (node 1 owns $owned)"
kill -9 $N1
t0=$(date +%s.%N)
while true; do
  n=$(curl -s http://127.0.0.1:8102/metrics | awk '/^jungle_games_adopted_total/ {print $2}')
  n=${n:-0}
  if [ "${n%.*}" -ge "$active" ]; then break; fi
  now=$(date +%s.%N)
  if (( $(echo "$now - $t0 > 60" | bc) )); then echo "timeout: $n adopted"; break; fi
  sleep 0.1
done
t1=$(date +%s.%N)
echo "adopted $n games in $(echo "$t1 - $t0" | bc) s after kill -9"
kill $LOAD 2>/dev/null; kill $N2; wait 2>/dev/null
