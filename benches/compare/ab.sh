#!/usr/bin/env bash
# A/B (or A/B/C...) of builds of the `throughput` binary (say, before and after a change), run
# in alternating rounds so that the machine's slow and fast phases fall on all of them: for
# each build and configuration, the medians over rounds of the speeds on one and two threads,
# the spread of the one-thread speeds (lowest and highest round) and the median of their ratio
# (each round's ratio taken within one invocation). By default the 1024-environment vectors of
# CartPole and MountainCar. See docs/PERFORMANCE.md.
#
# Never run in CI. Needs python3 (only to read the JSON lines).
#
# Usage: benches/compare/ab.sh BINARY_A BINARY_B [BINARY_C ...]
# Environment: ROUNDS (10), RUNS (5), RUN_SECONDS (0.2), BUSY (0; 1: one core busy with
# other work, a shell loop spinning at normal priority for the whole of every measurement,
# as a user's training loop or a second job would be), ONLY (the configurations, texts
# separated by spaces, each passed to `throughput --only`; default
# "cartpole/vector/1024/ mountain_car/vector/1024/"), for example
# ONLY="acrobot/vector/1024/ pendulum/vector/1024/".
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
only=()
for text in ${ONLY:-cartpole/vector/1024/ mountain_car/vector/1024/}; do
    only+=(--only "$text")
done
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
        "$binary" --runs "$runs" --run-seconds "$run_seconds" --warm-up-seconds 0.2 "${only[@]}" \
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
# A configuration's rows are named PREFIX/THREADS (cartpole/vector/1024/1 and .../2).
prefixes = sorted({name.rsplit("/", 1)[0] for r in rows.values() for name in r})
print(f"{'build':<6}{'configuration':<28}{'1 thread':>10}{'1-thread range':>17}{'2 threads':>11}{'ratio':>7}")
for prefix in prefixes:
    for side in labels:
        runs_of = lambda threads: [r[f"{prefix}/{threads}"] for (s, _), r in rows.items()
                                   if s == side and f"{prefix}/{threads}" in r]
        one, two = runs_of(1), runs_of(2)
        if not one:
            continue
        spread = f"{min(one) / 1e6:.2f}-{max(one) / 1e6:.2f}M"
        line = f"{side:<6}{prefix:<28}{statistics.median(one) / 1e6:>9.2f}M{spread:>17}"
        if two:
            ratios = [b / a for a, b in zip(one, two)]
            line += f"{statistics.median(two) / 1e6:>10.2f}M{statistics.median(ratios):>7.2f}"
        print(line)
for side, binary in zip(labels, binaries):
    print(f"{side} = {binary}")
print("(medians over rounds; ratio = 2 threads / 1 thread within a round)")
if os.environ.get("BUSY") == "1":
    print("(one core busy with a spinning loop throughout)")
PYTHON
