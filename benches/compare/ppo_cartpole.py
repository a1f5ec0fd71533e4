"""Trains Stable-Baselines3 PPO on rlrs/CartPole-v1 and on Gymnasium's own CartPole-v1 with the
same settings, and reports the mean evaluation return and the wall time of each (issue 19's
real-client check).

Three set-ups, each trained once per seed:

- ``rlrs vector``: rlrs/CartPole-v1 as the Rust vector (``gymnasium.make_vec(...,
  vectorization_mode="vector_entry_point")``, same-step autoreset), behind a small adapter to
  SB3's ``VecEnv`` interface;
- ``rlrs DummyVecEnv``: rlrs/CartPole-v1 single environments in SB3's ``DummyVecEnv``
  (``make_vec_env`` with a callable making ``gymnasium.make("rlrs/CartPole-v1")``);
- ``Gymnasium DummyVecEnv``: Gymnasium's CartPole-v1 the same way (``make_vec_env``).

The hyperparameters are RL Zoo's tuned PPO for CartPole-v1 (n_envs 8, n_steps 32, batch_size
256, gae_lambda 0.8, gamma 0.98, n_epochs 20, ent_coef 0, learning rate and clip range decaying
linearly from 0.001 and 0.2, 100 000 steps). Each model is evaluated deterministically over 100
episodes on the environment it was trained on (seeds 1000..1099) and on the other
implementation; the target is a mean return of at least 475.

Not run in CI. The pinned environment is ``benches/compare/ppo-requirements.txt`` (PyTorch with
its CUDA libraries, about 5 GB, though it runs on the CPU); see docs/PERFORMANCE.md's "PPO on
CartPole from Python" for the commands and the results.

Usage: python benches/compare/ppo_cartpole.py [--timesteps 100000] [--seeds 0 1 2]
       [--torch-threads 1] [--setups rlrs-vector rlrs-dummy gymnasium]
"""

from __future__ import annotations

import argparse
import platform
import time

import gymnasium as gym
import numpy as np

ENVS = 8
EVALUATION_EPISODES = 100
EVALUATION_SEED = 1000
TARGET = 475.0


def linear(start: float):
    """RL Zoo's ``lin_<start>`` schedule: ``start`` times the remaining progress."""
    return lambda progress_remaining: progress_remaining * start


def make_setup(name: str, seed: int):
    """The SB3 ``VecEnv`` of the set-up ``name`` and the Gymnasium id it trains on."""
    from stable_baselines3.common.env_util import make_vec_env

    if name == "rlrs-vector":
        # The package's SB3 adapter over one Rust vector (rlrs.sb3; PPO seeds it).
        import rlrs.sb3

        return rlrs.sb3.make_vec_env("CartPole-v1", n_envs=ENVS), "rlrs/CartPole-v1"
    if name == "rlrs-dummy":
        return (
            make_vec_env(lambda: gym.make("rlrs/CartPole-v1"), n_envs=ENVS, seed=seed),
            "rlrs/CartPole-v1",
        )
    if name == "gymnasium":
        return make_vec_env("CartPole-v1", n_envs=ENVS, seed=seed), "CartPole-v1"
    raise ValueError(f"unknown set-up {name!r}")


def timed(venv):
    """``venv`` wrapped so that the seconds spent in its reset and step are counted."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class Timed(VecEnvWrapper):
        def __init__(self, inner):
            super().__init__(inner)
            self.seconds = 0.0

        def reset(self):
            start = time.perf_counter()
            observations = self.venv.reset()
            self.seconds += time.perf_counter() - start
            return observations

        def step_async(self, actions):
            start = time.perf_counter()
            self.venv.step_async(actions)
            self.seconds += time.perf_counter() - start

        def step_wait(self):
            start = time.perf_counter()
            result = self.venv.step_wait()
            self.seconds += time.perf_counter() - start
            return result

    return Timed(venv)


def train(venv, seed: int, timesteps: int):
    """PPO with RL Zoo's CartPole-v1 hyperparameters trained on ``venv``: the model, the wall
    and processor seconds of ``learn`` (the processor time of this process, less sensitive to
    other work on a shared machine), and the wall seconds spent inside the environments."""
    from stable_baselines3 import PPO

    env = timed(venv)
    model = PPO(
        "MlpPolicy",
        env,
        n_steps=32,
        batch_size=256,
        gae_lambda=0.8,
        gamma=0.98,
        n_epochs=20,
        ent_coef=0.0,
        learning_rate=linear(0.001),
        clip_range=linear(0.2),
        seed=seed,
        device="cpu",
        verbose=0,
    )
    start, start_cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=timesteps)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    env.close()
    return model, seconds, cpu_seconds, env.seconds


def evaluate(model, env_id: str) -> np.ndarray:
    """The returns of ``EVALUATION_EPISODES`` deterministic episodes of ``model`` on
    ``env_id``, episode ``k`` reset with seed ``EVALUATION_SEED + k`` (all stepped together,
    one batched prediction per step)."""
    envs = [gym.make(env_id) for _ in range(EVALUATION_EPISODES)]
    observations = np.stack(
        [env.reset(seed=EVALUATION_SEED + k)[0] for k, env in enumerate(envs)]
    )
    returns = np.zeros(EVALUATION_EPISODES)
    active = np.ones(EVALUATION_EPISODES, dtype=bool)
    while active.any():
        actions, _ = model.predict(observations, deterministic=True)
        for k in np.flatnonzero(active):
            observation, reward, terminated, truncated, _ = envs[k].step(int(actions[k]))
            observations[k] = observation
            returns[k] += reward
            active[k] = not (terminated or truncated)
    for env in envs:
        env.close()
    return returns


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument(
        "--setups",
        nargs="+",
        default=["rlrs-vector", "rlrs-dummy", "gymnasium"],
        choices=["rlrs-vector", "rlrs-dummy", "gymnasium"],
    )
    args = parser.parse_args()

    import stable_baselines3
    import torch

    import rlrs  # noqa: F401  (registers rlrs/<id>)

    torch.set_num_threads(args.torch_threads)
    print(
        f"Python {platform.python_version()}, torch {torch.__version__} "
        f"({args.torch_threads} thread(s)), stable-baselines3 {stable_baselines3.__version__}, "
        f"gymnasium {gym.__version__}, numpy {np.__version__}; {args.timesteps} steps, "
        f"{ENVS} environments, evaluation over {EVALUATION_EPISODES} episodes"
    )
    other = {"rlrs/CartPole-v1": "CartPole-v1", "CartPole-v1": "rlrs/CartPole-v1"}
    print(
        "| set-up | seed | train wall (s) | train CPU (s) | in env (s) | eval mean (own) "
        "| eval min (own) | eval mean (other) | >= 475 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    summary = {}
    for seed in args.seeds:
        # Set-ups alternate within a seed so that a slow spell of the machine hits all of them.
        for name in args.setups:
            venv, env_id = make_setup(name, seed)
            model, seconds, cpu_seconds, env_seconds = train(venv, seed, args.timesteps)
            own = evaluate(model, env_id)
            cross = evaluate(model, other[env_id])
            reached = own.mean() >= TARGET
            summary.setdefault(name, []).append((seconds, cpu_seconds, own.mean(), reached))
            print(
                f"| {name} | {seed} | {seconds:.1f} | {cpu_seconds:.1f} | {env_seconds:.2f} "
                f"| {own.mean():.1f} "
                f"| {own.min():.0f} | {cross.mean():.1f} | {'yes' if reached else 'no'} |",
                flush=True,
            )
    print()
    for name, runs in summary.items():
        seconds = [run[0] for run in runs]
        cpu_seconds = [run[1] for run in runs]
        means = [run[2] for run in runs]
        print(
            f"{name}: train wall median {np.median(seconds):.1f} s, CPU median "
            f"{np.median(cpu_seconds):.1f} s, evaluation means "
            f"{', '.join(f'{m:.1f}' for m in means)}, "
            f"{sum(run[3] for run in runs)}/{len(runs)} seeds reached {TARGET:.0f}"
        )


if __name__ == "__main__":
    main()
