"""Gymnasium's MuJoCo v5 ids from Python, rlrs beside Gymnasium 1.4.0 on the same libmujoco
(issue 42, "Speed"): one environment each (`gym.make("rlrs/ID")` and `gym.make("ID")`, the same
table of sampled actions, resets at episode ends), then vectors of `--envs` environments:
rlrs's `RustVectorEnv` on 1 and 2 threads (copy=False) and Gymnasium's `SyncVectorEnv`, in
environment steps per second over `--seconds` after a short warm-up.

Run it where rlrs is built in release mode beside gymnasium and mujoco, e.g.:

    cd crates/rl-python && maturin develop --release --features extension-module,rlrs-module
    target/rl-python-venv/bin/python benches/compare/mujoco_bench.py [--seconds S] [--envs N]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import rlrs

IDS = ("Hopper-v5", "HalfCheetah-v5", "Ant-v5", "Humanoid-v5")


def rate(step, seconds: float) -> float:
    """Steps per second of `step()` (which returns the steps it took)."""
    deadline = time.perf_counter() + seconds / 10
    while time.perf_counter() < deadline:
        step()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += step()
    return steps / (time.perf_counter() - start)


def single(env_id: str, seconds: float) -> float:
    env = gym.make(env_id)
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(1024)]
    index = [0]

    def step() -> int:
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(actions[index[0] % 1024])
            index[0] += 1
            if terminated or truncated:
                env.reset()
        return 100

    return rate(step, seconds)


def vector(envs, seconds: float) -> float:
    envs.reset(seed=0)
    envs.action_space.seed(0)
    actions = [envs.action_space.sample() for _ in range(64)]
    index = [0]

    def step() -> int:
        for _ in range(10):
            envs.step(actions[index[0] % 64])
            index[0] += 1
        return 10 * envs.num_envs

    return rate(step, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=64)
    args = parser.parse_args()
    print(f"| id | Gymnasium one env | rlrs one env | rlrs / Gymnasium | Gymnasium Sync x{args.envs} "
          f"| rlrs x{args.envs} 1 thread | rlrs x{args.envs} 2 threads | 2 threads / 1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for env_id in IDS:
        theirs = single(env_id, args.seconds)
        ours = single(f"rlrs/{env_id}", args.seconds)
        sync = vector(gym.make_vec(env_id, num_envs=args.envs, vectorization_mode="sync"), args.seconds)
        one = vector(rlrs.RustVectorEnv(env_id, num_envs=args.envs, threads=1, copy=False), args.seconds)
        two = vector(rlrs.RustVectorEnv(env_id, num_envs=args.envs, threads=2, copy=False), args.seconds)
        print(f"| {env_id} | {theirs:,.0f} | {ours:,.0f} | {ours / theirs:.2f}x | {sync:,.0f} "
              f"| {one:,.0f} | {two:,.0f} | {two / one:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
