#!/usr/bin/env bash
# The edit-compile-test loop (issue 48): how long `cargo test --workspace --no-run` (debug)
# takes after a one-line change in the puzzles code, once everything else is built.
#
#   scripts/bench/edit_loop.sh [FILE] [ROUNDS]
#
# FILE is the puzzles source to touch (default: the puzzles API); ROUNDS how many times
# (default 3). Each round appends a comment line, builds, and takes the line out again, so
# the tree is left as it was; the build after taking it out is not timed.
set -euo pipefail
cd "$(dirname "$0")/../.."

file="${1:-}"
if [ -z "$file" ]; then
    for candidate in crates/jungle-puzzles/src/api.rs crates/jungle-server/src/puzzles/api.rs; do
        [ -f "$candidate" ] && file="$candidate" && break
    done
fi
rounds="${2:-3}"
[ -f "$file" ] || { echo "no such file: $file" >&2; exit 1; }

cargo test --workspace --all-features --no-run -q >/dev/null 2>&1
cp "$file" "$file.edit-loop"
trap 'mv "$file.edit-loop" "$file"' EXIT
for round in $(seq 1 "$rounds"); do
    cp "$file.edit-loop" "$file"
    echo "// edit loop round $round" >>"$file"
    start=$(date +%s.%N)
    cargo test --workspace --all-features --no-run -q >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "round $round: $(echo "$end - $start" | bc) s after editing $file"
    cp "$file.edit-loop" "$file"
    cargo test --workspace --all-features --no-run -q >/dev/null 2>&1
done
