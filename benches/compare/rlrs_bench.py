"""Steps per second of the Python package rlrs (crates/rl-python) next to Gymnasium 1.4.0,
measured in the same process and run: 1024-env CartPole-v1 and MountainCar-v0 vectors
stepped from Python (rlrs.RustVectorEnv, 1 and 2 threads, copy=False), and the same vectors
driven from Rust in this process (rlrs._core.RustDriver, in alternating runs), against Gymnasium's
NumPy CartPoleVectorEnv, and one CartPole-v1 stepped through gymnasium.Env methods
(gym.make for both, so both carry Gymnasium's wrappers).

Prints one JSON line per configuration in the format of python_bench.py and the Rust
`throughput` binary ({"side", "name", "env", "envs", "threads", "median", "runs"}), then the
ratios. Needs an environment with rlrs installed with its benchmark driver
(`benches/compare/install_rlrs.sh PYTHON`, a release build) and
gymnasium; not run in CI.

Usage: python benches/compare/rlrs_bench.py [--runs N] [--run-seconds S] [--only TEXT]
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_bench import (  # noqa: E402
    BATCH_ENVS,
    BATCH_ROUNDS,
    SEED,
    SINGLE_CHUNK,
    numpy_cartpole,
    rows_of,
    single_env,
    timed_run,
    vector_env,
)


def rlrs_vector(env_id, threads):
    import rlrs

    env = rlrs.RustVectorEnv(
        env_id, BATCH_ENVS, threads=threads, copy=False, record_episode_statistics=True
    )
    env.reset(seed=SEED)
    return env


def rust_driver(env_id, threads, rows):
    """The vector rlrs_vector steps, driven from Rust in this process (rlrs._core.RustDriver):
    the ratio of the two is then timed in one process, in alternating runs."""
    from rlrs import _core

    driver = _core.RustDriver(env_id, BATCH_ENVS, SEED, threads)
    driver.set_rows(np.asarray(rows, dtype=np.int64))

    def chunk():
        return driver.run(BATCH_ROUNDS)

    return chunk


def configurations(rng):
    cart_rows = rows_of(2, rng)
    car_rows = rows_of(3, rng)
    tape = rng.integers(0, 2, SINGLE_CHUNK)
    import rlrs  # noqa: F401  (registers rlrs/<id> in Gymnasium)

    return [
        ("cartpole/single", "gymnasium", "CartPole-v1", 1, 1,
         lambda: single_env("CartPole-v1", tape)),
        ("cartpole/single", "rlrs-python", "CartPole-v1", 1, 1,
         lambda: single_env("rlrs/CartPole-v1", tape)),
        ("cartpole/vector/1024/1", "gymnasium-numpy", "CartPole-v1", BATCH_ENVS, 1,
         lambda: vector_env(numpy_cartpole(), cart_rows)),
        ("cartpole/vector/1024/1", "rlrs-python", "CartPole-v1", BATCH_ENVS, 1,
         lambda: vector_env(rlrs_vector("CartPole-v1", 1), cart_rows)),
        ("cartpole/by_id/1024/1", "rl-in-python", "CartPole-v1", BATCH_ENVS, 1,
         lambda: rust_driver("CartPole-v1", 1, cart_rows)),
        ("cartpole/vector/1024/2", "rlrs-python", "CartPole-v1", BATCH_ENVS, 2,
         lambda: vector_env(rlrs_vector("CartPole-v1", 2), cart_rows)),
        ("cartpole/by_id/1024/2", "rl-in-python", "CartPole-v1", BATCH_ENVS, 2,
         lambda: rust_driver("CartPole-v1", 2, cart_rows)),
        ("mountain_car/vector/1024/1", "rlrs-python", "MountainCar-v0", BATCH_ENVS, 1,
         lambda: vector_env(rlrs_vector("MountainCar-v0", 1), car_rows)),
        ("mountain_car/by_id/1024/1", "rl-in-python", "MountainCar-v0", BATCH_ENVS, 1,
         lambda: rust_driver("MountainCar-v0", 1, car_rows)),
        ("mountain_car/vector/1024/2", "rlrs-python", "MountainCar-v0", BATCH_ENVS, 2,
         lambda: vector_env(rlrs_vector("MountainCar-v0", 2), car_rows)),
        ("mountain_car/by_id/1024/2", "rl-in-python", "MountainCar-v0", BATCH_ENVS, 2,
         lambda: rust_driver("MountainCar-v0", 2, car_rows)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--run-seconds", type=float, default=0.5)
    parser.add_argument("--warm-up-seconds", type=float, default=0.5)
    parser.add_argument("--only", default=None, help="only names containing this text")
    args = parser.parse_args()
    import warnings

    warnings.filterwarnings("ignore")
    rng = np.random.default_rng(7)
    selected = [c for c in configurations(rng) if args.only is None or args.only in c[0]]
    chunks = []
    for _, _, _, _, _, build in selected:
        chunk = build()
        start = time.perf_counter()
        while time.perf_counter() - start < args.warm_up_seconds:
            chunk()
        chunks.append(chunk)
    runs = [[] for _ in selected]
    for _ in range(args.runs):
        for chunk, rates in zip(chunks, runs):
            rates.append(timed_run(chunk, args.run_seconds))
    medians = {}
    for (name, side, env_id, envs, threads, _), rates in zip(selected, runs):
        median = statistics.median(rates)
        medians[(side, name)] = median
        line = {
            "side": side,
            "name": name,
            "env": env_id,
            "envs": envs,
            "threads": threads,
            "median": round(median, 1),
            "runs": [round(rate, 1) for rate in rates],
        }
        print(json.dumps(line), flush=True)

    def ratio(ours, theirs):
        if ours in medians and theirs in medians:
            return f"{medians[ours] / medians[theirs]:.2f}x"
        return "n/a"

    print("# ratios (same run):", file=sys.stderr)
    print("#   single CartPole-v1, rlrs / gymnasium: "
          + ratio(("rlrs-python", "cartpole/single"), ("gymnasium", "cartpole/single")),
          file=sys.stderr)
    for threads in (1, 2):
        print(f"#   1024-env CartPole-v1, rlrs ({threads} thread(s)) / Gymnasium CartPoleVectorEnv: "
              + ratio(("rlrs-python", f"cartpole/vector/1024/{threads}"),
                      ("gymnasium-numpy", "cartpole/vector/1024/1")),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
