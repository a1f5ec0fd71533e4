#!/usr/bin/env bash
# A/B (or A/B/C...) of builds of the `throughput` binary (say, before and after a change), run
# in alternating rounds so that the machine's slow and fast phases fall on all of them: for
# each build, the medians over rounds of the 1024-environment vector speeds on one and two
# threads and of their ratio (each round's ratio taken within one invocation). See
# docs/PERFORMANCE.md.
#
# Never run in CI. Needs python3 (only to read the JSON lines).
#
# Usage: benches/compare/ab.sh BINARY_A BINARY_B [BINARY_C ...]
# Environment: ROUNDS (10), RUNS (5), RUN_SECONDS (0.2), BUSY (0; 1: one core busy with
# other work, a shell loop spinning at normal priority for the whole of every measurement,
# as a user's training loop or a second job would be).
#
# To build the binary of an earlier commit beside the current one:
#   git archive COMMIT | (mkdir -p /tmp/rl-before && tar -x -C /tmp/rl-before)
#   (cd /tmp/rl-before && CARGO_TARGET_DIR=/tmp/target-before cargo build --release -p rl-benches --bin throughput)
#   cargo build --release -p rl-benches --bin throughput
#   benches/compare/ab.sh /tmp/target-before/release/throughput target/release/throughput
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 BINARY_A BINARY_B [BINARY_C ...]" >&2
    exit 2
fi
rounds="${ROUNDS:-10}"
runs="${RUNS:-5}"
run_seconds="${RUN_SECONDS:-0.2}"
labels=(A B C D E F G H)
if [[ $# -gt ${#labels[@]} ]]; then
    echo "$0: at most ${#labels[@]} builds" >&2
    exit 2
fi

results="$(mktemp "${TMPDIR:-/tmp}/rl-ab.XXXXXX")"
busy_pid=""
trap 'rm -f "$results"; [[ -z "$busy_pid" ]] || kill "$busy_pid" 2>/dev/null' EXIT
if [[ "${BUSY:-0}" == 1 ]]; then
    bash -c 'while :; do :; done' &
    busy_pid=$!
    echo "one core busy: a spinning shell loop (pid $busy_pid)" >&2
fi
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds" >&2
    index=0
    for binary in "$@"; do
        "$binary" --runs "$runs" --run-seconds "$run_seconds" --warm-up-seconds 0.2 --only /vector/1024/ \
            | sed "s/^/${labels[$index]} $round /" >> "$results"
        index=$((index + 1))
    done
done

python3 - "$results" "$@" <<'PYTHON'
import collections, json, os, statistics, sys
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    side, round_, payload = line.split(" ", 2)
    row = json.loads(payload)
    rows[(side, round_)][row["name"]] = row["median"]
binaries = sys.argv[2:]
labels = "ABCDEFGH"[: len(binaries)]
print(f"{'build':<6}{'environment':<14}{'1 thread':>10}{'2 threads':>11}{'ratio':>7}{'ratio range':>14}")
for side in labels:
    for env in ("cartpole", "mountain_car"):
        one = [r[f"{env}/vector/1024/1"] for (s, _), r in rows.items() if s == side]
        two = [r[f"{env}/vector/1024/2"] for (s, _), r in rows.items() if s == side]
        ratios = [b / a for a, b in zip(one, two)]
        print(f"{side:<6}{env:<14}{statistics.median(one) / 1e6:>9.1f}M{statistics.median(two) / 1e6:>10.1f}M"
              f"{statistics.median(ratios):>7.2f}{min(ratios):>8.2f}-{max(ratios):.2f}")
for side, binary in zip(labels, binaries):
    print(f"{side} = {binary}")
print("(medians over rounds; ratio = 2 threads / 1 thread within a round)")
if os.environ.get("BUSY") == "1":
    print("(one core busy with a spinning loop throughout)")
PYTHON
