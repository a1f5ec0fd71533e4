"""Pixel MiniGrid in vectors (issue 41 item 2): 1024 environments of MiniGrid-DoorKey-8x8-v0
observing RGB images of the agent's view (minigrid's `RGBImgPartialObsWrapper`, 8 pixels a
cell: 56 x 56 x 3 bytes an observation), stepped with random actions by

- rlrs from Python: the Rust vector's `image="rgb_partial"` option (`RustVectorEnv`,
  copy=False), on one and two threads, and what `gym.make_vec(id, 1024,
  wrappers=[RGBImgPartialObsWrapper])` gives on rlrs's id (the same vector, copy=True);
- minigrid 3.2.0's own: `gymnasium.vector.SyncVectorEnv` of 1024
  `RGBImgPartialObsWrapper(gym.make(id))` (what `gym.make_vec(id, 1024,
  wrappers=[RGBImgPartialObsWrapper])` builds on minigrid's id),

each in environment steps per second over `--seconds` of stepping after a warm-up of a tenth of
that, then the ratio the issue asks for (rlrs's best at least 100x minigrid's SyncVectorEnv).
Every observation of both is the same array, pixel for pixel (the package's tests check it).

Run it in run.sh's virtualenv (or any with gymnasium 1.4.0, minigrid 3.2.0 and rlrs
installed):

    benches/compare/.venv/bin/python benches/compare/pixels_bench.py [--seconds S] [--json FILE]
"""

from __future__ import annotations

from typing import Callable

import gymnasium as gym
import minigrid  # noqa: F401  (registers the MiniGrid-* ids)
import numpy as np
from minigrid.wrappers import RGBImgPartialObsWrapper

import rlrs
from vector_timing import ENVS, ROWS, append_json, arguments, print_ratios, rate

ENV_ID = "MiniGrid-DoorKey-8x8-v0"


def cycling(vector, actions: np.ndarray) -> Callable[[], int]:
    """A step of `vector` with the next row of `actions`, returning the environment steps."""
    vector.reset(seed=0)
    index = [0]

    def step() -> int:
        vector.step(actions[index[0] % ROWS])
        index[0] += 1
        return ENVS

    return step


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0])
    actions = np.random.default_rng(0).integers(0, 7, (ROWS, ENVS))
    best = 0.0
    for threads in (1, 2):
        vector = rlrs.RustVectorEnv(
            ENV_ID, ENVS, threads=threads, copy=False, image="rgb_partial"
        )
        median = rate(cycling(vector, actions), args.seconds)
        vector.close()
        print(f"{ENV_ID} rgb_partial, {ENVS} envs, rlrs from Python, {threads} thread(s): "
              f"{median:,.0f} steps/s")
        append_json(args.json, "rlrs-pixels", f"{ENV_ID}+rgb_partial", ENVS, threads, median)
        best = max(best, median)
    vector = gym.make_vec(f"rlrs/{ENV_ID}", ENVS, wrappers=[RGBImgPartialObsWrapper])
    median = rate(cycling(vector, actions), args.seconds)
    vector.close()
    print(f"{ENV_ID} rgb_partial, {ENVS} envs, rlrs by gym.make_vec(wrappers=...), 1 thread: "
          f"{median:,.0f} steps/s")
    reference = gym.vector.SyncVectorEnv(
        [lambda: RGBImgPartialObsWrapper(gym.make(ENV_ID)) for _ in range(ENVS)]
    )
    minigrid_rate = rate(cycling(reference, actions), args.seconds)
    reference.close()
    print(f"{ENV_ID} rgb_partial, {ENVS} envs, minigrid 3.2.0 SyncVectorEnv: "
          f"{minigrid_rate:,.0f} steps/s")
    append_json(args.json, "minigrid-pixels", f"{ENV_ID}+rgb_partial", ENVS, 1, minigrid_rate)
    print_ratios(
        f"{ENV_ID} rgb_partial",
        [("rlrs from Python / minigrid's SyncVectorEnv", best / minigrid_rate, 100)],
    )


if __name__ == "__main__":
    main()
