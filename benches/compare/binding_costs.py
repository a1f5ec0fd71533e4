"""What the Python package adds to one step of a 1024-environment CartPole-v1 vector, layer by
layer: the time per step through `rlrs.RustVectorEnv.step` (the Gymnasium API, copy=False),
through the binding's `_core.Vector.step_discrete` alone, through one call into Rust that steps
once (`_core.RustDriver.run(1)`), and per step of a Rust loop of 64 steps
(`_core.RustDriver.run(64)`). The differences are the Python layer, the binding's own work, and
the cost of any call into Rust. Each figure is the minimum over seven runs (each of 40 x 64
calls, or of 40 calls of the 64-step loop).

Needs an environment with rlrs installed with its benchmark driver
(`benches/compare/install_rlrs.sh PYTHON`, a release build), such
as the one benches/compare/run.sh makes; not run in CI.

Usage: python benches/compare/binding_costs.py [--threads N] [--repeats K]
"""

import argparse
import time

import numpy as np


def per_step(call, rows, repeats):
    """The least time per call of `call(row)` over seven runs of `repeats` passes over `rows`,
    in microseconds."""
    best = float("inf")
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(repeats):
            for row in rows:
                call(row)
        best = min(best, (time.perf_counter() - start) / (repeats * len(rows)))
    return best * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()

    import rlrs
    from rlrs import _core

    envs = 1024
    rows = np.random.default_rng(0).integers(0, 2, size=(64, envs)).astype(np.int64)
    env = rlrs.RustVectorEnv(
        "CartPole-v1", envs, threads=args.threads, copy=False, record_episode_statistics=True
    )
    env.reset(seed=1)
    core = env._core
    driver = _core.RustDriver("CartPole-v1", envs, 1, args.threads)
    driver.set_rows(rows)
    chunk = np.zeros((1, envs), dtype=np.int64)

    for _ in range(args.rounds):
        gym_api = per_step(env.step, rows, args.repeats)
        binding = per_step(core.step_discrete, rows, args.repeats)
        one_call = per_step(lambda _row: driver.run(1), rows, args.repeats)
        loop = per_step(lambda _row: driver.run(64), chunk, args.repeats) / 64
        print(
            f"{args.threads} thread(s), µs per 1024-env step: RustVectorEnv.step {gym_api:.2f}, "
            f"step_discrete {binding:.2f}, RustDriver.run(1) {one_call:.2f}, "
            f"RustDriver.run(64)/64 {loop:.2f}; Python {gym_api - binding:.2f}, "
            f"binding {binding - one_call:.2f}, a call into Rust {one_call - loop:.2f}"
        )


if __name__ == "__main__":
    main()
