"""Steps per second of Gymnasium 1.4.0 and EnvPool 1.2.5 in the configurations that
benches/compare/run.sh compares with the rl-* crates (see docs/PERFORMANCE.md).

Prints one JSON line per configuration, in the format of the Rust `throughput` binary:
{"side", "name", "env", "envs", "threads", "median", "runs"}, rates in steps per second.

Each configuration is built, warmed up, then timed in repeated runs taken in turns (one run
of every configuration per round, so that a slow spell of the machine falls on all alike).
Actions are drawn in advance, as on the Rust side.
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np

SINGLE_CHUNK = 4096
BATCH_ROUNDS = 16
BATCH_ENVS = 1024
SEED = 42


def single_env(env_id, actions):
    """One Gymnasium environment (gym.make: TimeLimit, order enforcing, checker) stepped
    through its public API, reset whenever an episode ends. `actions` is a sequence of
    ints (discrete actions) or a float32 array of rows (Box actions)."""
    import gymnasium as gym

    env = gym.make(env_id)
    env.reset(seed=SEED)
    if actions.ndim == 1:
        tape = [int(a) for a in actions]
    else:
        tape = [np.array(row, dtype=np.float32) for row in actions]

    def chunk():
        for action in tape:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()
        return len(tape)

    return chunk


def vector_env(env, rows):
    """A vector environment stepped with rows of actions drawn in advance."""
    state = {"next": 0}

    def chunk():
        for _ in range(BATCH_ROUNDS):
            env.step(rows[state["next"]])
            state["next"] = (state["next"] + 1) % len(rows)
        return BATCH_ROUNDS * BATCH_ENVS

    return chunk


def numpy_cartpole():
    from gymnasium.envs.classic_control.cartpole import CartPoleVectorEnv

    env = CartPoleVectorEnv(num_envs=BATCH_ENVS)
    env.reset(seed=SEED)
    return env


def sync_vector(env_id):
    import gymnasium as gym

    env = gym.make_vec(env_id, num_envs=BATCH_ENVS, vectorization_mode="sync")
    env.reset(seed=SEED)
    return env


def envpool_env(env_id, threads):
    import envpool

    env = envpool.make(
        env_id,
        env_type="gymnasium",
        num_envs=BATCH_ENVS,
        batch_size=BATCH_ENVS,
        num_threads=threads,
        seed=SEED,
    )
    env.reset()
    return env


def rows_of(n, rng):
    return [rng.integers(0, n, size=BATCH_ENVS) for _ in range(64)]


def torque_rows(rng):
    """Pendulum torques, uniform in [-2, 2], one (1024, 1) float32 row per step."""
    return [
        rng.uniform(-2.0, 2.0, size=(BATCH_ENVS, 1)).astype(np.float32)
        for _ in range(64)
    ]


def configurations(rng):
    """(name, side, env id, envs, threads, builder of the timed chunk)."""
    cart_single = rng.integers(0, 2, size=SINGLE_CHUNK)
    car_single = rng.integers(0, 3, size=SINGLE_CHUNK)
    cart_rows = rows_of(2, rng)
    car_rows = rows_of(3, rng)
    acrobot_single = rng.integers(0, 3, size=SINGLE_CHUNK)
    pendulum_single = rng.uniform(-2.0, 2.0, size=(SINGLE_CHUNK, 1)).astype(np.float32)
    acrobot_rows = rows_of(3, rng)
    pendulum_rows = torque_rows(rng)
    return [
        ("cartpole/single/gymnasium", "gymnasium", "CartPole-v1", 1, 1,
         lambda: single_env("CartPole-v1", cart_single)),
        ("cartpole/vector/1024/numpy", "gymnasium", "CartPole-v1", BATCH_ENVS, 1,
         lambda: vector_env(numpy_cartpole(), cart_rows)),
        ("cartpole/vector/1024/1", "envpool", "CartPole-v1", BATCH_ENVS, 1,
         lambda: vector_env(envpool_env("CartPole-v1", 1), cart_rows)),
        ("cartpole/vector/1024/2", "envpool", "CartPole-v1", BATCH_ENVS, 2,
         lambda: vector_env(envpool_env("CartPole-v1", 2), cart_rows)),
        ("mountain_car/single/gymnasium", "gymnasium", "MountainCar-v0", 1, 1,
         lambda: single_env("MountainCar-v0", car_single)),
        ("mountain_car/vector/1024/sync", "gymnasium", "MountainCar-v0", BATCH_ENVS, 1,
         lambda: vector_env(sync_vector("MountainCar-v0"), car_rows)),
        ("mountain_car/vector/1024/1", "envpool", "MountainCar-v0", BATCH_ENVS, 1,
         lambda: vector_env(envpool_env("MountainCar-v0", 1), car_rows)),
        ("mountain_car/vector/1024/2", "envpool", "MountainCar-v0", BATCH_ENVS, 2,
         lambda: vector_env(envpool_env("MountainCar-v0", 2), car_rows)),
        # Gymnasium 1.4.0 has numpy vector environments for CartPole only: Acrobot and
        # Pendulum's 1024-env references are SyncVectorEnv (for reference, not a target).
        ("acrobot/single/gymnasium", "gymnasium", "Acrobot-v1", 1, 1,
         lambda: single_env("Acrobot-v1", acrobot_single)),
        ("acrobot/vector/1024/sync", "gymnasium", "Acrobot-v1", BATCH_ENVS, 1,
         lambda: vector_env(sync_vector("Acrobot-v1"), acrobot_rows)),
        ("acrobot/vector/1024/1", "envpool", "Acrobot-v1", BATCH_ENVS, 1,
         lambda: vector_env(envpool_env("Acrobot-v1", 1), acrobot_rows)),
        ("acrobot/vector/1024/2", "envpool", "Acrobot-v1", BATCH_ENVS, 2,
         lambda: vector_env(envpool_env("Acrobot-v1", 2), acrobot_rows)),
        ("pendulum/single/gymnasium", "gymnasium", "Pendulum-v1", 1, 1,
         lambda: single_env("Pendulum-v1", pendulum_single)),
        ("pendulum/vector/1024/sync", "gymnasium", "Pendulum-v1", BATCH_ENVS, 1,
         lambda: vector_env(sync_vector("Pendulum-v1"), pendulum_rows)),
        ("pendulum/vector/1024/1", "envpool", "Pendulum-v1", BATCH_ENVS, 1,
         lambda: vector_env(envpool_env("Pendulum-v1", 1), pendulum_rows)),
        ("pendulum/vector/1024/2", "envpool", "Pendulum-v1", BATCH_ENVS, 2,
         lambda: vector_env(envpool_env("Pendulum-v1", 2), pendulum_rows)),
    ]


def timed_run(chunk, seconds):
    start = time.perf_counter()
    steps = 0
    while True:
        steps += chunk()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--run-seconds", type=float, default=0.5)
    parser.add_argument("--warm-up-seconds", type=float, default=0.5)
    parser.add_argument("--only", default=None, help="only names containing this text")
    args = parser.parse_args()
    import warnings

    warnings.filterwarnings("ignore")
    rng = np.random.default_rng(7)
    selected = [c for c in configurations(rng) if args.only is None or args.only in c[0]]
    chunks = []
    for name, side, env_id, envs, threads, build in selected:
        chunk = build()
        start = time.perf_counter()
        while time.perf_counter() - start < args.warm_up_seconds:
            chunk()
        chunks.append(chunk)
    runs = [[] for _ in selected]
    for _ in range(args.runs):
        for chunk, rates in zip(chunks, runs):
            rates.append(timed_run(chunk, args.run_seconds))
    for (name, side, env_id, envs, threads, _), rates in zip(selected, runs):
        line = {
            "side": side,
            "name": name,
            "env": env_id,
            "envs": envs,
            "threads": threads,
            "median": round(statistics.median(rates), 1),
            "runs": [round(rate, 1) for rate in rates],
        }
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
