"""BabyAI's speed targets (issue 43, "Speed"): 1024 environments of BabyAI-GoToLocal-v0 and
BabyAI-BossLevel-v0 stepped with random actions by rlrs from Python (`RustVectorEnv`,
copy=False), by the same vector from Rust in this process (`rlrs._core.RustDriver`), each on
one and two threads, by EnvPool in its best configuration (one and two threads; its BabyAI
port does not reproduce minigrid's seeds) and one environment of minigrid 3.2.0 itself
through `gym.make`, in environment steps per second over `--seconds` of stepping after a
short warm-up. Resets weigh more here than in MiniGrid: every reset runs the level's
rejection sampling. Then the ratios the issue asks for: Rust at least 300x minigrid's Python
and 10x EnvPool's best, Python at least 5x EnvPool's best.

Run it in run.sh's virtualenv after `benches/compare/install_rlrs.sh` (which builds rlrs with
its benchmark driver):

    benches/compare/.venv/bin/python benches/compare/babyai_bench.py [--seconds S] [--only TEXT]
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from vector_timing import ENVS, ROWS, append_json, arguments, measure_vectors, print_ratios, rate

IDS = ("BabyAI-GoToLocal-v0", "BabyAI-BossLevel-v0")


def minigrid_python(env_id: str, actions: np.ndarray) -> Callable[[], int]:
    import gymnasium as gym
    import minigrid  # noqa: F401  (registers the BabyAI-* ids)

    env = gym.make(env_id)
    env.reset(seed=0)
    flat = actions.ravel()
    index = [0]

    def step() -> int:
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(int(flat[index[0] % len(flat)]))
            index[0] += 1
            if terminated or truncated:
                env.reset()
        return 100

    return step


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0])
    for env_id in IDS:
        if args.only not in env_id:
            continue
        actions = np.random.default_rng(0).integers(0, 7, (ROWS, ENVS))
        best = measure_vectors(env_id, env_id, actions, args.seconds, args.json)
        reference = rate(minigrid_python(env_id, actions), args.seconds)
        print(f"{env_id}, 1 env, minigrid 3.2.0 (Python, one env, gym.make): {reference:,.0f} steps/s")
        append_json(args.json, "minigrid", env_id, 1, 1, reference)
        print_ratios(
            env_id,
            [
                ("Rust / EnvPool's best", best["rust"] / best["envpool"], 10),
                ("Rust / minigrid's Python", best["rust"] / reference, 300),
                ("Python / EnvPool's best", best["python"] / best["envpool"], 5),
            ],
        )


if __name__ == "__main__":
    main()
