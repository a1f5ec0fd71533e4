#!/usr/bin/env python3
"""Records the MuJoCo reference traces of testdata/reference/ from Gymnasium 1.4.0 with the
installed mujoco.

Usage (in a venv with gymnasium==1.4.0, numpy==2.4.6, imageio and mujoco==4.0.0, or 3.17.0):
    python3 crates/rl-mujoco/scripts/record_traces.py > testdata/reference/mujoco_v5.json
    python3 crates/rl-mujoco/scripts/record_traces.py > testdata/reference/mujoco_v5_mujoco3.json

For each id and seed: `gym.make(id)`, `reset(seed=seed)`, then STEPS steps of the actions
`action(t)` below (a deterministic float32 sweep of the control ranges, which the Rust test
computes the same way), resetting without a seed after each episode end. Each run is kept as
the FNV-1a 64 digest of every reset (observation and info) and step (observation, reward,
terminated, truncated and the infos' float64 values in key order, all as little-endian
bytes), with the
reset and first step of the first seed written out in full to read a mismatch by.
"""

import json
import struct
import sys

import gymnasium as gym
import mujoco
import numpy as np

IDS = [
    "Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Humanoid-v5", "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5", "InvertedPendulum-v5", "Pusher-v5", "Reacher-v5",
    "Swimmer-v5", "Walker2d-v5",
]
SEEDS = [0, 1, 2]
STEPS = 300
FULL = 1


def action(space, t):
    frac = np.array([((t * 7 + j * 3) % 11) / 10.0 for j in range(space.shape[0])], dtype=np.float32)
    low = space.low.astype(np.float32)
    high = space.high.astype(np.float32)
    return (low + (high - low) * frac).astype(np.float32)


class Digest:
    def __init__(self):
        self.value = 0xCBF29CE484222325

    def add(self, data: bytes):
        for byte in data:
            self.value ^= byte
            self.value = (self.value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF

    def floats(self, values):
        self.add(struct.pack(f"<{len(values)}d", *[float(v) for v in values]))


def info_bytes(digest, info):
    for key in sorted(info):
        digest.add(key.encode())
        digest.floats(np.asarray(info[key], dtype=np.float64).ravel())


def step_bytes(digest, observation, reward, terminated, truncated, info):
    digest.floats(np.asarray(observation, dtype=np.float64).ravel())
    digest.floats([reward])
    digest.add(bytes([int(terminated), int(truncated)]))
    info_bytes(digest, info)


def record(env_id, seed, full):
    env = gym.make(env_id)
    digest = Digest()
    observation, info = env.reset(seed=seed)
    digest.floats(np.asarray(observation, dtype=np.float64).ravel())
    info_bytes(digest, info)
    first = [{"reset": [float(x) for x in observation]}] if full else []
    episodes = 1
    for t in range(STEPS):
        a = action(env.action_space, t)
        observation, reward, terminated, truncated, info = env.step(a)
        step_bytes(digest, observation, reward, terminated, truncated, info)
        if t < full:
            first.append({
                "observation": [float(x) for x in observation],
                "reward": float(reward),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
                "info": {key: np.asarray(value, dtype=np.float64).tolist() for key, value in sorted(info.items())},
            })
        if terminated or truncated:
            observation, info = env.reset()
            digest.floats(np.asarray(observation, dtype=np.float64).ravel())
            info_bytes(digest, info)
            episodes += 1
    env.close()
    return {"seed": seed, "episodes": episodes, "digest": f"{digest.value:016x}", "first": first}


def main():
    traces = {
        "gymnasium": gym.__version__,
        "numpy": np.__version__,
        "mujoco": mujoco.__version__,
        "steps": STEPS,
        "ids": {env_id: [record(env_id, seed, FULL if seed == SEEDS[0] else 0) for seed in SEEDS] for env_id in IDS},
    }
    json.dump(traces, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
