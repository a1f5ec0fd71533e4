#!/usr/bin/env bash
# Compares the rl-* crates with Gymnasium 1.4.0 and EnvPool 1.2.5 on this machine, in one go:
# creates (or reuses) a virtualenv in benches/compare/.venv with the pinned Python packages,
# builds the Rust `throughput` binary and the Python package rlrs in release mode, runs both sides in alternating rounds
# (each with warm-up and repeated runs), and prints one table of medians and the ratios of
# issue 7's targets. Each round also times CartPole's 600x400 RGB frame on both sides
# (frames_bench.py for Gymnasium's rgb_array, issue 18), and the CartPole vectors are timed
# again with one core busy with other work (SKIP_BUSY=1 leaves that out). Then the toy-text and MiniGrid
# vectors against EnvPool (and minigrid's own Python), each printing its ratios
# (toy_text_bench.py, issue 28; minigrid_bench.py, issue 29; pixels_bench.py, issue 41's RGB
# views; babyai_bench.py, issue 43's BabyAI levels; SKIP_GRIDS=1 leaves them out).
# See docs/PERFORMANCE.md.
#
# Never run in CI: `cargo xtask ci` only compiles the benchmarks. Nothing installed here is
# needed to build or test the project.
#
# Usage: benches/compare/run.sh [RESULTS_FILE]
# Environment: ROUNDS (3), RUNS per round (5), RUN_SECONDS (0.5), WARM_UP_SECONDS (0.5),
# PYTHON (python3).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
rounds="${ROUNDS:-3}"
runs="${RUNS:-5}"
run_seconds="${RUN_SECONDS:-0.5}"
warm_up_seconds="${WARM_UP_SECONDS:-0.5}"
results="${1:-$(mktemp "${TMPDIR:-/tmp}/rl-compare.XXXXXX")}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating the virtualenv $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --disable-pip-version-check --quiet -r "$here/requirements.txt"

echo "building the Rust side (cargo build --release -p rl-benches --bin throughput)" >&2
(cd "$root" && cargo build --quiet --release -p rl-benches --bin throughput)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
throughput="$target_dir/release/throughput"
echo "building and installing the Python package rlrs with its benchmark driver (install_rlrs.sh, release)" >&2
CARGO_TARGET_DIR="$target_dir" bash "$here/install_rlrs.sh" "$venv/bin/python"

{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) rounds=$rounds runs=$runs run_seconds=$run_seconds warm_up_seconds=$warm_up_seconds"
    echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores; $(uname -sr); $(rustc --version); $("$venv/bin/python" --version)"
} > "$results"
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds: Gymnasium and EnvPool" >&2
    "$venv/bin/python" "$here/python_bench.py" --runs "$runs" --run-seconds "$run_seconds" \
        --warm-up-seconds "$warm_up_seconds" >> "$results"
    echo "round $round of $rounds: Gymnasium's CartPole rgb_array frames" >&2
    SDL_VIDEODRIVER=dummy "$venv/bin/python" "$here/frames_bench.py" --runs "$runs" >> "$results"
    echo "round $round of $rounds: rlrs from Python, with Gymnasium in the same process" >&2
    "$venv/bin/python" "$here/rlrs_bench.py" --runs "$runs" --run-seconds "$run_seconds" \
        --warm-up-seconds "$warm_up_seconds" >> "$results"
    echo "round $round of $rounds: rl" >&2
    "$throughput" --runs "$runs" --run-seconds "$run_seconds" \
        --warm-up-seconds "$warm_up_seconds" >> "$results"
done

# One core busy with other work (issue 32: what the vector runtime buys a user whose machine
# also runs something else): the 1024-environment CartPole vectors of Gymnasium (numpy), EnvPool,
# rlrs from Python (issue 44) and rl while a shell loop spins at normal priority, their names
# marked "+busy".
if [[ "${SKIP_BUSY:-0}" != 1 ]]; then
    bash -c 'while :; do :; done' &
    busy_pid=$!
    trap 'kill "$busy_pid" 2>/dev/null || true' EXIT
    for round in $(seq 1 "$rounds"); do
        echo "round $round of $rounds: one core busy, EnvPool, rlrs from Python and rl" >&2
        "$venv/bin/python" "$here/python_bench.py" --runs "$runs" --run-seconds "$run_seconds" \
            --warm-up-seconds "$warm_up_seconds" --only cartpole/vector/1024/ \
            | sed 's/"name": "\([^"]*\)"/"name": "\1+busy"/' >> "$results"
        "$venv/bin/python" "$here/rlrs_bench.py" --runs "$runs" --run-seconds "$run_seconds" \
            --warm-up-seconds "$warm_up_seconds" --only cartpole/vector/1024/ \
            | sed 's/"name": "\([^"]*\)"/"name": "\1+busy"/' >> "$results"
        "$throughput" --runs "$runs" --run-seconds "$run_seconds" \
            --warm-up-seconds "$warm_up_seconds" --only cartpole/vector/1024/ \
            | sed 's/"name": "\([^"]*\)"/"name": "\1+busy"/' >> "$results"
    done
    kill "$busy_pid" 2>/dev/null || true
fi

echo "raw results: $results" >&2
head -n 2 "$results"
"$venv/bin/python" "$here/report.py" "$results"

if [[ "${SKIP_GRIDS:-0}" != 1 ]]; then
    echo "toy text (issue 28): rlrs and EnvPool" >&2
    "$venv/bin/python" "$here/toy_text_bench.py" --json "$results"
    echo "MiniGrid (issue 29): rlrs, EnvPool and minigrid" >&2
    SDL_VIDEODRIVER=dummy "$venv/bin/python" "$here/minigrid_bench.py" --json "$results"
    echo "Pixel MiniGrid (issue 41): rlrs's RGB partial views and minigrid's SyncVectorEnv" >&2
    SDL_VIDEODRIVER=dummy "$venv/bin/python" "$here/pixels_bench.py" --json "$results"
    echo "BabyAI (issue 43): rlrs, EnvPool and minigrid" >&2
    SDL_VIDEODRIVER=dummy "$venv/bin/python" "$here/babyai_bench.py" --json "$results"
fi

# The speeds the environment catalogue shows (docs/measured-speeds.json; the catalogue test
# reads it, so regenerate the catalogue after: RL_WRITE_CATALOGUE=1 cargo test -p
# rlrs-experiment --test suite catalogue).
"$venv/bin/python" "$here/speeds.py" "$results" > "$root/docs/measured-speeds.json"
echo "wrote $root/docs/measured-speeds.json" >&2
