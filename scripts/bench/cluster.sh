#!/usr/bin/env bash
# A benchmark of issue 16 on this machine (loopback only, bounded): see docs/benchmarks.md.
# Needs the release build (cargo build --release -p jungle-server -p jungle-load), PostgreSQL
# at 127.0.0.1:5432 (role postgres) and Redis at 127.0.0.1:6379. Uses the database jbench.
# usage: cluster.sh NODES GAMES DURATION
#   SERVER=path/to/jungle-server runs another build (default: this tree's release build);
#   PACE=moves per second per game (default 1); SPREAD=0 keeps every player on the first node.
set -u
NODES=$1; GAMES=$2; DUR=$3
B="$(cd "$(dirname "$0")/../.." && pwd)/target/release"
psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS jbench" -c "CREATE DATABASE jbench" test >/dev/null
DB=postgres://postgres@127.0.0.1:5432/jbench
PIDS=(); URLS=()
for n in $(seq 1 $NODES); do
  port=$((8100+n))
  extra=()
  [ "$NODES" -gt 1 ] && extra=(--redis-url redis://127.0.0.1:6379 --node-id n$n)
  ${SERVER:-$B/jungle-server} --addr 127.0.0.1:$port --database-url $DB --max-connections-per-ip 100000 --no-rate-limits "${extra[@]}" > /tmp/node$n.log 2>&1 &
  PIDS+=($!); URLS+=(ws://127.0.0.1:$port)
  sleep 1.5
done
sleep 2
cpu() { local t=0; for p in "${PIDS[@]}"; do read -r -a f < /proc/$p/stat; t=$((t + f[13] + f[14])); done; echo $t; }
# A counter summed over every node: `bus jungle_bus_messages_total`.
bus() { local t=0; for n in $(seq 1 $NODES); do v=$(curl -s http://127.0.0.1:$((8100+n))/metrics | awk "/^$1/ {s+=\$2} END {print s+0}"); t=$(echo "$t + $v" | bc); done; echo $t; }
# SPREAD=0 keeps every player on the first node (the cluster's fixed cost alone).
also=(); [ "${SPREAD:-1}" = 1 ] && for u in "${URLS[@]:1}"; do also+=(--also-url $u); done
$B/jungle-load --url ${URLS[0]} "${also[@]}" --games $GAMES --moves-per-s ${PACE:-1} --duration $DUR > /tmp/load.json 2>/tmp/load.err &
LOAD=$!
sleep 10   # the warm-up
c0=$(cpu); b0=$(bus jungle_bus_messages_total); p0=$(bus jungle_bus_publishes_total); t0=$(date +%s.%N)
wait $LOAD
c1=$(cpu); b1=$(bus jungle_bus_messages_total); p1=$(bus jungle_bus_publishes_total); t1=$(date +%s.%N)
cat /tmp/load.json
# Moves in the measured window: the load's steady rate times the window's length (the load's
# own count includes the warm-up, which the CPU and bus counters leave out).
moves=$(python3 -c "import json;print(round(json.load(open('/tmp/load.json'))['moves_per_s']*($t1-$t0)))")
echo "server cpu ticks: $((c1-c0)) over the measured window; cpu ms per move: $(echo "scale=3; ($c1-$c0)*10/$moves" | bc); bus messages per move: $(echo "scale=2; ($b1-$b0)/$moves" | bc); publishes per move: $(echo "scale=2; ($p1-$p0)/$moves" | bc)"
for p in "${PIDS[@]}"; do kill $p; done
wait 2>/dev/null
