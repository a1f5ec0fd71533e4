"""A first measurement of the toy-text vectors (issue 28), before they join run.sh's
comparison: 1024 environments of FrozenLake-v1 and Taxi-v4 stepped with random actions by
rlrs from Python (`RustVectorEnv`, copy=False, one thread), by the same vector from Rust in
this process (`rlrs._core.RustDriver`) and by EnvPool 1.2.5 (Taxi-v3: EnvPool has no
Taxi-v4) on one and two threads, in steps per second over one second each.

Run it in run.sh's virtualenv after `benches/compare/run.sh` has installed rlrs there (or
`benches/compare/.venv/bin/python -m pip install --force-reinstall --no-deps crates/rl-python`):

    benches/compare/.venv/bin/python benches/compare/toy_text_bench.py
"""

from __future__ import annotations

import time

import envpool
import numpy as np
from rlrs import RustVectorEnv, _core

ENVS = 1024


def rate(step, seconds: float = 1.0) -> float:
    """Environment steps per second of `step` (one call steps ENVS environments)."""
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        calls += 1
    return calls * ENVS / (time.perf_counter() - start)


def main() -> None:
    for ours, theirs in [("FrozenLake-v1", "FrozenLake-v1"), ("Taxi-v4", "Taxi-v3")]:
        vector = RustVectorEnv(ours, ENVS, copy=False)
        vector.reset(seed=0)
        actions = np.random.default_rng(0).integers(
            0, vector.single_action_space.n, (16, ENVS)
        )
        index = [0]

        def step_ours() -> None:
            vector.step(actions[index[0] % 16])
            index[0] += 1

        print(f"{ours}, {ENVS} envs, rlrs from Python, 1 thread: {rate(step_ours):,.0f}")
        driver = _core.RustDriver(ours, ENVS, 0, 1)
        driver.set_rows(actions.astype(np.int64))
        start = time.perf_counter()
        steps = driver.run(200)
        print(f"{ours}, {ENVS} envs, same vector from Rust, 1 thread: {steps / (time.perf_counter() - start):,.0f}")
        for threads in (1, 2):
            pool = envpool.make(
                theirs, env_type="gymnasium", num_envs=ENVS, batch_size=ENVS, num_threads=threads
            )
            pool.reset()

            def step_theirs() -> None:
                pool.step(actions[index[0] % 16])
                index[0] += 1

            print(f"{theirs}, {ENVS} envs, EnvPool, {threads} thread(s): {rate(step_theirs):,.0f}")


if __name__ == "__main__":
    main()
