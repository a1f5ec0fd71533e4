#!/usr/bin/env bash
# How much of a second core this machine gives: runs the one-thread 1024-environment vector
# configurations of the `throughput` binary alone, then two copies of them at once as separate
# processes (pinned to cores 0 and 1 with `taskset`, no synchronisation between them), then
# the two-thread configurations, in alternating rounds. The sum of the pair over the solo run
# is the ceiling for any two-thread speed-up here (perfectly parallel work); the two-thread
# vector environment over the solo run is what the library reaches. See docs/performance-journal.md,
# "Two threads: the machine's ceiling".
#
# Never run in CI. Needs `taskset` (util-linux) and python3 (only to read the JSON lines).
#
# Usage: benches/compare/two_cores.sh        Environment: ROUNDS (5), RUNS per round (5),
# RUN_SECONDS (0.3).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds="${ROUNDS:-5}"
runs="${RUNS:-5}"
run_seconds="${RUN_SECONDS:-0.3}"

echo "building the Rust side (cargo build --release -p rl-benches --bin throughput)" >&2
(cd "$root" && cargo build --quiet --release -p rl-benches --bin throughput)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
throughput="$target_dir/release/throughput"

# Prints "NAME MEDIAN" lines for the configurations whose name contains $1.
measure() {
    "$throughput" --runs "$runs" --run-seconds "$run_seconds" --warm-up-seconds 0.2 --only "$1" \
        | python3 -c 'import json, sys
for line in sys.stdin:
    row = json.loads(line)
    print(row["name"], row["median"])'
}

results="$(mktemp "${TMPDIR:-/tmp}/rl-two-cores.XXXXXX")"
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds" >&2
    measure /vector/1024/1 | sed 's/^/solo /' >> "$results"
    export -f measure
    export throughput runs run_seconds
    taskset -c 0 bash -c 'measure /vector/1024/1' | sed 's/^/pair_a /' > "$results.a" &
    taskset -c 1 bash -c 'measure /vector/1024/1' | sed 's/^/pair_b /' > "$results.b" &
    wait
    cat "$results.a" "$results.b" >> "$results"
    measure /vector/1024/2 | sed 's/^/threads /' >> "$results"
done
rm -f "$results.a" "$results.b"

python3 - "$results" <<'EOF'
import collections, statistics, sys
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    kind, name, median = line.split()
    env = name.split("/")[0]
    rows[env][kind].append(float(median))
print(f"{'environment':<14}{'solo':>10}{'pair (sum)':>12}{'2 threads':>11}{'ceiling':>9}{'reached':>9}")
for env, kinds in rows.items():
    solo = statistics.median(kinds["solo"])
    pair = statistics.median(a + b for a, b in zip(kinds["pair_a"], kinds["pair_b"]))
    threads = statistics.median(kinds["threads"])
    print(f"{env:<14}{solo / 1e6:>9.1f}M{pair / 1e6:>11.1f}M{threads / 1e6:>10.1f}M"
          f"{pair / solo:>9.2f}{threads / solo:>9.2f}")
print("(medians over rounds, steps per second; ceiling = pair / solo, reached = 2 threads / solo)")
EOF
rm -f "$results"
