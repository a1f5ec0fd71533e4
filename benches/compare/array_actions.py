"""Steps per second of 1024-environment rlrs vectors whose actions are arrays (Box action
spaces: Pendulum-v1 and MountainCarContinuous-v0 by default), stepped from Python through
`rlrs.RustVectorEnv` (the Gymnasium API, copy=False, one thread) with a float32 array of
shape (1024, 1) per step, cycled from 16 drawn from the action space: what the binding's
reading of array actions costs beside the domains' own step. Prints one line per id: the
median over RUNS runs of SECONDS each, in millions of environment steps per second.

Needs an environment with rlrs installed from a release build (`maturin develop --release`,
or `benches/compare/install_rlrs.sh PYTHON`); not run in CI.

Usage: python benches/compare/array_actions.py [--ids ID,ID] [--envs N] [--runs R] [--seconds S]
"""

import argparse
import statistics
import time

import numpy as np

import rlrs


def rate(env, actions, seconds):
    """Environment steps per second of `env` stepped for `seconds` with the rows of
    `actions` in turn."""
    start, steps = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        env.step(actions[steps % len(actions)])
        steps += 1
    return steps * env.num_envs / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="Pendulum-v1,MountainCarContinuous-v0")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.4)
    args = parser.parse_args()
    for env_id in args.ids.split(","):
        env = rlrs.RustVectorEnv(env_id, args.envs, threads=1, copy=False)
        env.reset(seed=0)
        env.action_space.seed(0)
        actions = np.stack([env.action_space.sample() for _ in range(16)])
        rate(env, actions, 0.3)
        rates = [rate(env, actions, args.seconds) for _ in range(args.runs)]
        print(f"{env_id} {statistics.median(rates) / 1e6:.3f}")
        env.close()


if __name__ == "__main__":
    main()
