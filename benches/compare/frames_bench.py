"""Frames per second of Gymnasium 1.4.0's CartPole-v1 `render_mode="rgb_array"` at its
600 by 400, to compare with the Rust `throughput` binary's `cartpole/frame/600x400` (and
`cargo bench -p rl-criterion --bench frames`, group `frames`, `CartPole-v1 600x400`).

Needs gymnasium==1.4.0 and pygame (both pinned in requirements.txt); run.sh calls it once per
round. Prints one JSON line in the format of python_bench.py: {"side", "name", "env",
"envs", "threads", "median", "runs"}, with rates in frames per second.
"""

import argparse
import json
import statistics
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--frames", type=int, default=500)
    args = parser.parse_args()

    import gymnasium as gym
    import numpy as np

    env = gym.make("CartPole-v1", render_mode="rgb_array")
    env.reset(seed=0)
    cart = env.unwrapped
    states = [
        np.array([2.0 * s - 1.0, 0.0, 0.2 * s - 0.1, 0.0])
        for s in (i / 16 for i in range(16))
    ]
    for state in states:  # warm-up, and pygame's surface creation
        cart.state = state
        frame = env.render()
    assert frame.shape == (400, 600, 3)
    rates = []
    for _ in range(args.runs):
        start = time.perf_counter()
        for index in range(args.frames):
            cart.state = states[index % len(states)]
            env.render()
        rates.append(args.frames / (time.perf_counter() - start))
    print(json.dumps({
        "side": "gymnasium",
        "name": "cartpole/frame/600x400",
        "env": "CartPole-v1",
        "envs": 1,
        "threads": 1,
        "median": round(statistics.median(rates), 1),
        "runs": [round(rate, 1) for rate in rates],
    }), flush=True)


if __name__ == "__main__":
    main()
