"""Toy text's speed targets (issue 28): 1024 environments of FrozenLake-v1 and Taxi-v4 stepped
with random actions by rlrs from Python (`RustVectorEnv`, copy=False), by the same vector from
Rust in this process (`rlrs._core.RustDriver`), each on one and two threads, and by EnvPool
1.2.5 in its best configuration (`envpool.make(id, env_type="gymnasium", num_envs=1024,
batch_size=1024)` on one and two threads; EnvPool has no Taxi-v4, so its Taxi-v3, the same
environment but for the rain and fickle-passenger options, which are off by default), each in
environment steps per second over `--seconds` of stepping after a short warm-up. Then the
ratios the issue asks for, best configuration against best configuration: Rust at least 40x
EnvPool's best, Python at least 20x.

Run it in run.sh's virtualenv after `benches/compare/run.sh` has installed rlrs there (or
`benches/compare/.venv/bin/python -m pip install --force-reinstall --no-deps crates/rl-python`):

    benches/compare/.venv/bin/python benches/compare/toy_text_bench.py [--seconds S] [--only TEXT]
"""

from __future__ import annotations

import argparse

import numpy as np

from vector_timing import ENVS, ROWS, append_json, envpool_vector, rate, rlrs_python, rlrs_rust

# (rlrs id, EnvPool id, number of actions)
IDS = (("FrozenLake-v1", "FrozenLake-v1", 4), ("Taxi-v4", "Taxi-v3", 6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of stepping per measurement"
    )
    parser.add_argument("--only", default="", help="only the ids containing this text")
    parser.add_argument("--json", default=None, help="also append each measurement to this run.sh results file")
    args = parser.parse_args()
    for ours, theirs, count in IDS:
        if args.only not in ours:
            continue
        actions = np.random.default_rng(0).integers(0, count, (ROWS, ENVS))
        rates = {}
        for threads in (1, 2):
            rates[f"rlrs from Python, {threads} thread(s)"] = rate(
                rlrs_python(ours, actions, threads), args.seconds
            )
            rates[f"same vector from Rust, {threads} thread(s)"] = rate(
                rlrs_rust(ours, actions, threads), args.seconds
            )
            rates[f"EnvPool {theirs}, {threads} thread(s)"] = rate(
                envpool_vector(theirs, actions, threads), args.seconds
            )
        for name, steps_per_second in rates.items():
            print(f"{ours}, {ENVS} envs, {name}: {steps_per_second:,.0f} steps/s")
        for threads in (1, 2):
            for side, prefix, env_id in [
                ("rlrs-python", "rlrs from Python", ours),
                ("rl-in-python", "same vector from Rust", ours),
                ("envpool", f"EnvPool {theirs}", theirs),
            ]:
                median = rates[f"{prefix}, {threads} thread(s)"]
                append_json(args.json, side, env_id, ENVS, threads, median)

        def best(prefix: str) -> float:
            return max(value for name, value in rates.items() if name.startswith(prefix))

        envpool_best = best("EnvPool")
        for what, ratio, target in [
            ("Rust / EnvPool's best", best("same vector from Rust") / envpool_best, 40),
            ("Python / EnvPool's best", best("rlrs from Python") / envpool_best, 20),
        ]:
            verdict = "met" if ratio >= target else "NOT met"
            print(f"{ours}: {what}: {ratio:,.1f}x (target {target}x: {verdict})")


if __name__ == "__main__":
    main()
