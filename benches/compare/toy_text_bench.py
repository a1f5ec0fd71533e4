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
`benches/compare/install_rlrs.sh`, which builds it with its benchmark driver):

    benches/compare/.venv/bin/python benches/compare/toy_text_bench.py [--seconds S] [--only TEXT]
"""

from __future__ import annotations

import numpy as np

from vector_timing import ENVS, ROWS, arguments, measure_vectors, print_ratios

# (rlrs id, EnvPool id, number of actions)
IDS = (("FrozenLake-v1", "FrozenLake-v1", 4), ("Taxi-v4", "Taxi-v3", 6))


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0])
    for ours, theirs, count in IDS:
        if args.only not in ours:
            continue
        actions = np.random.default_rng(0).integers(0, count, (ROWS, ENVS))
        best = measure_vectors(ours, theirs, actions, args.seconds, args.json)
        print_ratios(
            ours,
            [
                ("Rust / EnvPool's best", best["rust"] / best["envpool"], 40),
                ("Python / EnvPool's best", best["python"] / best["envpool"], 20),
            ],
        )


if __name__ == "__main__":
    main()
