"""What toy_text_bench.py and minigrid_bench.py share: the timing loop and the three ways of
stepping a 1024-environment vector of an id (rlrs from Python, the same vector driven from Rust
by `rlrs._core.RustDriver`, EnvPool), each cycling through rows of actions drawn once."""

from __future__ import annotations

import json
import time
from typing import Callable

import numpy as np

ENVS = 1024
# Rows of random actions cycled through (drawn once, so no generator runs in the timed loops).
ROWS = 64


def rate(step: Callable[[], int], seconds: float) -> float:
    """Environment steps per second of `step` (each call returns the environment steps it
    took), over `seconds` after a warm-up of a tenth of that."""
    warm_up = time.perf_counter()
    while time.perf_counter() - warm_up < seconds / 10:
        step()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += step()
    return steps / (time.perf_counter() - start)


def rlrs_python(env_id: str, actions: np.ndarray, threads: int) -> Callable[[], int]:
    from rlrs import RustVectorEnv

    vector = RustVectorEnv(env_id, ENVS, threads=threads, copy=False)
    vector.reset(seed=0)
    index = [0]

    def step() -> int:
        vector.step(actions[index[0] % ROWS])
        index[0] += 1
        return ENVS

    return step


def rlrs_rust(env_id: str, actions: np.ndarray, threads: int) -> Callable[[], int]:
    from rlrs import _core

    driver = _core.RustDriver(env_id, ENVS, 0, threads)
    driver.set_rows(actions.astype(np.int64))
    return lambda: driver.run(10)


def envpool_vector(env_id: str, actions: np.ndarray, threads: int) -> Callable[[], int]:
    import envpool

    pool = envpool.make(
        env_id, env_type="gymnasium", num_envs=ENVS, batch_size=ENVS, num_threads=threads
    )
    pool.reset()
    index = [0]

    def step() -> int:
        pool.step(actions[index[0] % ROWS])
        index[0] += 1
        return ENVS

    return step


def append_json(path: str | None, side: str, env_id: str, envs: int, threads: int, median: float) -> None:
    """Appends one measurement to `path` (when given) as a JSON line in run.sh's results
    format, so that report tools and speeds.py read it with the rest of the run."""
    if path is None:
        return
    name = f"{env_id}/vector/{envs}/{threads}" if envs > 1 else f"{env_id}/single"
    line = {"side": side, "name": name, "env": env_id, "envs": envs, "threads": threads,
            "median": median, "runs": [median]}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")
