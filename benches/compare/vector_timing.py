"""What toy_text_bench.py and minigrid_bench.py share: the timing loop and the three ways of
stepping a 1024-environment vector of an id (rlrs from Python, the same vector driven from Rust
by `rlrs._core.RustDriver`, EnvPool), each cycling through rows of actions drawn once."""

from __future__ import annotations

import argparse
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


def arguments(description: str) -> argparse.Namespace:
    """The command line both benchmarks take: `--seconds`, `--only`, `--json`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of stepping per measurement"
    )
    parser.add_argument("--only", default="", help="only the ids containing this text")
    parser.add_argument(
        "--json", default=None, help="also append each measurement to this run.sh results file"
    )
    return parser.parse_args()


def measure_vectors(
    ours: str, theirs: str, actions: np.ndarray, seconds: float, json_path: str | None
) -> dict[str, float]:
    """The best steps per second over one and two threads of rlrs's vector of `ours` from
    Python and from Rust, and of EnvPool's vector of `theirs`, each configuration printed and
    appended to `json_path` (when given), as {"python", "rust", "envpool"}."""
    best = {"python": 0.0, "rust": 0.0, "envpool": 0.0}
    for threads in (1, 2):
        for key, side, env_id, label, make in [
            ("python", "rlrs-python", ours, "rlrs from Python", rlrs_python),
            ("rust", "rl-in-python", ours, "same vector from Rust", rlrs_rust),
            ("envpool", "envpool", theirs, f"EnvPool {theirs}", envpool_vector),
        ]:
            median = rate(make(env_id, actions, threads), seconds)
            print(f"{ours}, {ENVS} envs, {label}, {threads} thread(s): {median:,.0f} steps/s")
            append_json(json_path, side, env_id, ENVS, threads, median)
            best[key] = max(best[key], median)
    return best


def print_ratios(env_id: str, ratios: list[tuple[str, float, float]]) -> None:
    """Each (what, ratio, target) with its verdict."""
    for what, ratio, target in ratios:
        verdict = "met" if ratio >= target else "NOT met"
        print(f"{env_id}: {what}: {ratio:,.1f}x (target {target:g}x: {verdict})")
