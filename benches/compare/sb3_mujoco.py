"""Trains Stable-Baselines3 SAC (or PPO) briefly on rlrs/Hopper-v5 and on Gymnasium's own
Hopper-v5 with the same seeds, and checks that both end with bit-identical weights (issue 42's
"Learning" item: rlrs's MuJoCo environments are Gymnasium's seed for seed, so a learner that
sees the same observations, rewards and flags trains the same network).

Set-ups, each trained once per seed:

- ``rlrs-vector``: the Rust vector behind the package's SB3 adapter
  (``rlrs.sb3.make_vec_env(ID, n_envs=ENVS, seed=seed)``);
- ``rlrs-dummy``: ``gym.make("rlrs/ID")`` single environments in SB3's ``DummyVecEnv``
  (``make_vec_env``);
- ``gymnasium``: ``gym.make("ID")``, Gymnasium's MuJoCo environment, the same way.

SAC uses RL Zoo's Hopper settings scaled down to a brief run (one environment, learning
starts after 1,000 random steps, batch 256, buffer 10^6, learning rate 3e-4, tau 0.005,
gamma 0.99, one gradient step per environment step); PPO (``--algo ppo``) SB3's defaults with
``n_steps=512`` over ``--envs`` environments. With one torch thread, each set-up of a seed sees
the same episodes and so trains the same network: the ``parameters`` column (a digest of the
final weights) shows it, and the script exits with status 1 when the digests of a seed differ.
Each model is then evaluated deterministically on both implementations (``--eval-episodes``
episodes, reset seeds 1000 and up); those returns say nothing about learning quality at this
budget, only that the two environments answer the same policy with the same returns.

Not run in CI. The environment is ``benches/compare/ppo-requirements.txt`` plus ``mujoco``
4.0.0 (the version crates/rl-python/ci.sh pins), with rlrs built in release; see
docs/PERFORMANCE.md, "Learning with Stable-Baselines3 SAC: Hopper-v5".

Usage: python benches/compare/sb3_mujoco.py [--env-id Hopper-v5] [--algo sac|ppo]
       [--timesteps 5000] [--seeds 0 1 2] [--envs 1] [--torch-threads 1]
       [--setups rlrs-vector rlrs-dummy gymnasium] [--eval-episodes 5]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time

import gymnasium as gym
import numpy as np

SETUPS = ["rlrs-vector", "rlrs-dummy", "gymnasium"]
EVALUATION_SEED = 1000


def make_setup(name: str, env_id: str, envs: int, seed: int):
    """The SB3 ``VecEnv`` of the set-up ``name`` on ``env_id`` and the Gymnasium id it
    trains on."""
    from stable_baselines3.common.env_util import make_vec_env

    rlrs_id = f"rlrs/{env_id}"
    if name == "rlrs-vector":
        import rlrs.sb3

        return rlrs.sb3.make_vec_env(env_id, n_envs=envs, seed=seed), rlrs_id
    if name == "rlrs-dummy":
        return make_vec_env(rlrs_id, n_envs=envs, seed=seed), rlrs_id
    if name == "gymnasium":
        return make_vec_env(env_id, n_envs=envs, seed=seed), env_id
    raise ValueError(f"unknown set-up {name!r}")


def make_model(algo: str, venv, seed: int):
    """SAC with RL Zoo's Hopper settings (one gradient step per environment step), or PPO
    with SB3's defaults and 512 steps per environment per update."""
    if algo == "sac":
        from stable_baselines3 import SAC

        return SAC(
            "MlpPolicy",
            venv,
            learning_starts=1000,
            batch_size=256,
            buffer_size=1_000_000,
            learning_rate=3e-4,
            tau=0.005,
            gamma=0.99,
            train_freq=1,
            gradient_steps=1,
            seed=seed,
            device="cpu",
            verbose=0,
        )
    from stable_baselines3 import PPO

    return PPO("MlpPolicy", venv, n_steps=512, batch_size=64, seed=seed, device="cpu", verbose=0)


def digest(model) -> str:
    """The first 12 hex digits of the SHA-256 of the policy's parameters, in order."""
    sha = hashlib.sha256()
    for tensor in model.policy.state_dict().values():
        sha.update(tensor.detach().cpu().numpy().tobytes())
    return sha.hexdigest()[:12]


def evaluate(model, env_id: str, episodes: int) -> np.ndarray:
    """The returns of ``episodes`` deterministic episodes of ``model`` on ``gym.make(env_id)``,
    episode ``k`` reset with seed ``EVALUATION_SEED + k``."""
    env = gym.make(env_id)
    returns = np.zeros(episodes)
    for k in range(episodes):
        observation, _ = env.reset(seed=EVALUATION_SEED + k)
        done = False
        while not done:
            action, _ = model.predict(observation, deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(action)
            returns[k] += reward
            done = terminated or truncated
    env.close()
    return returns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="Hopper-v5")
    parser.add_argument("--algo", choices=["sac", "ppo"], default="sac")
    parser.add_argument("--timesteps", type=int, default=5000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--envs", type=int, default=1)
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--setups", nargs="+", default=SETUPS, choices=SETUPS)
    parser.add_argument("--eval-episodes", type=int, default=5)
    args = parser.parse_args()

    import mujoco
    import stable_baselines3
    import torch

    import rlrs

    torch.set_num_threads(args.torch_threads)
    print(
        f"Python {platform.python_version()}, torch {torch.__version__} "
        f"({args.torch_threads} thread(s)), stable-baselines3 {stable_baselines3.__version__}, "
        f"gymnasium {gym.__version__}, mujoco {mujoco.__version__}, rlrs {rlrs.__version__}, "
        f"numpy {np.__version__}; {args.algo.upper()} on {args.env_id}, {args.timesteps} steps, "
        f"{args.envs} environment(s)"
    )
    rlrs_id = f"rlrs/{args.env_id}"
    other = {rlrs_id: args.env_id, args.env_id: rlrs_id}
    print(
        "| set-up | seed | train wall (s) | eval mean (own) | eval mean (other) | parameters |"
    )
    print("|---|---|---|---|---|---|")
    differing = []
    for seed in args.seeds:
        digests = {}
        for name in args.setups:
            venv, env_id = make_setup(name, args.env_id, args.envs, seed)
            model = make_model(args.algo, venv, seed)
            start = time.perf_counter()
            model.learn(total_timesteps=args.timesteps)
            seconds = time.perf_counter() - start
            venv.close()
            own = evaluate(model, env_id, args.eval_episodes)
            cross = evaluate(model, other[env_id], args.eval_episodes)
            digests[name] = digest(model)
            print(
                f"| {name} | {seed} | {seconds:.1f} | {own.mean():.3f} | {cross.mean():.3f} "
                f"| {digests[name]} |",
                flush=True,
            )
            if own.tobytes() != cross.tobytes():
                differing.append(f"seed {seed}, {name}: evaluation returns differ between ids")
        if len(set(digests.values())) != 1:
            differing.append(f"seed {seed}: parameters differ {digests}")
    print()
    if differing:
        print("DIFFERENT:\n" + "\n".join(differing))
        return 1
    print("every set-up of each seed trained the same weights and the same evaluation returns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
