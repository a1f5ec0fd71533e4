"""MiniGrid's speed targets (issue 29, "Speed"): 1024 environments of
MiniGrid-DoorKey-8x8-v0 and MiniGrid-FourRooms-v0 stepped with random actions by rlrs from
Python (`RustVectorEnv`, copy=False), by the same vector from Rust in this process
(`rlrs._core.RustDriver`), each on one and two threads, by EnvPool 1.2.5 in its best configuration
(`envpool.make(id, env_type="gymnasium", num_envs=1024, batch_size=1024)` on one and two
threads; its MiniGrid port does not reproduce minigrid's seeds) and one environment of
minigrid 3.2.0 itself through `gym.make` (its Python code, Gymnasium's wrappers), each in
environment steps per second over `--seconds` of stepping after a short warm-up. Then the
ratios the issue asks for, best configuration against best configuration: Rust at least 10x EnvPool's best and 300x minigrid's Python, Python
at least 5x EnvPool's best.

Run it in run.sh's virtualenv (requirements.txt pins minigrid 3.2.0) after
`benches/compare/run.sh` has installed rlrs there (or
`benches/compare/.venv/bin/python -m pip install --force-reinstall --no-deps crates/rl-python`):

    benches/compare/.venv/bin/python benches/compare/minigrid_bench.py [--seconds S] [--only TEXT]
"""

from __future__ import annotations

import argparse
from typing import Callable

import numpy as np

from vector_timing import ENVS, ROWS, append_json, envpool_vector, rate, rlrs_python, rlrs_rust

IDS = ("MiniGrid-DoorKey-8x8-v0", "MiniGrid-FourRooms-v0")


def minigrid_python(env_id: str, actions: np.ndarray) -> Callable[[], int]:
    import gymnasium as gym
    import minigrid  # noqa: F401  (registers the MiniGrid-* ids)

    env = gym.make(env_id)
    env.reset(seed=0)
    flat = actions.ravel()
    index = [0]

    def step() -> int:
        # A hundred steps a call, so the loop's clock reads weigh little.
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(int(flat[index[0] % len(flat)]))
            index[0] += 1
            if terminated or truncated:
                env.reset()
        return 100

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of stepping per measurement"
    )
    parser.add_argument("--only", default="", help="only the ids containing this text")
    parser.add_argument("--json", default=None, help="also append each measurement to this run.sh results file")
    args = parser.parse_args()
    for env_id in IDS:
        if args.only not in env_id:
            continue
        # minigrid's seven actions for both ids (EnvPool's action space is the same).
        actions = np.random.default_rng(0).integers(0, 7, (ROWS, ENVS))
        rates = {}
        for threads in (1, 2):
            rates[f"rlrs from Python, {threads} thread(s)"] = rate(
                rlrs_python(env_id, actions, threads), args.seconds
            )
            rates[f"same vector from Rust, {threads} thread(s)"] = rate(
                rlrs_rust(env_id, actions, threads), args.seconds
            )
            rates[f"EnvPool, {threads} thread(s)"] = rate(
                envpool_vector(env_id, actions, threads), args.seconds
            )
        rates["minigrid 3.2.0 (Python, one env, gym.make)"] = rate(
            minigrid_python(env_id, actions), args.seconds
        )
        for name, steps_per_second in rates.items():
            envs = 1 if name.startswith("minigrid") else ENVS
            print(f"{env_id}, {envs} env(s), {name}: {steps_per_second:,.0f} steps/s")
        for threads in (1, 2):
            for side, prefix in [
                ("rlrs-python", "rlrs from Python"),
                ("rl-in-python", "same vector from Rust"),
                ("envpool", "EnvPool"),
            ]:
                median = rates[f"{prefix}, {threads} thread(s)"]
                append_json(args.json, side, env_id, ENVS, threads, median)
        append_json(
            args.json, "minigrid", env_id, 1, 1, rates["minigrid 3.2.0 (Python, one env, gym.make)"]
        )
        def best(prefix: str) -> float:
            return max(value for name, value in rates.items() if name.startswith(prefix))

        envpool_best = best("EnvPool")
        rust = best("same vector from Rust")
        python = best("rlrs from Python")
        reference = rates["minigrid 3.2.0 (Python, one env, gym.make)"]
        for what, ratio, target in [
            ("Rust / EnvPool's best", rust / envpool_best, 10),
            ("Rust / minigrid's Python", rust / reference, 300),
            ("Python / EnvPool's best", python / envpool_best, 5),
        ]:
            verdict = "met" if ratio >= target else "NOT met"
            print(f"{env_id}: {what}: {ratio:,.1f}x (target {target}x: {verdict})")


if __name__ == "__main__":
    main()
