"""Trains Stable-Baselines3 PPO on rlrs/MiniGrid-DoorKey-5x5-v0 and on minigrid's own
MiniGrid-DoorKey-5x5-v0 with the same settings, and reports the mean evaluation return and the
wall time of each (issue 29's "Learning" row: a mean return of at least 0.9).

Three set-ups, each trained once per seed:

- ``rlrs-vector``: rlrs/MiniGrid-DoorKey-5x5-v0 as one Rust vector behind the package's SB3
  adapter (``rlrs.sb3.make_vec_env``), its ``Dict`` observations reduced to the ``image`` as
  minigrid's ``ImgObsWrapper`` does (``image_batch`` below, on the batch);
- ``rlrs-dummy``: ``ImgObsWrapper(gym.make("rlrs/MiniGrid-DoorKey-5x5-v0"))`` single
  environments in SB3's ``DummyVecEnv`` (``make_vec_env``);
- ``minigrid``: ``ImgObsWrapper(gym.make("MiniGrid-DoorKey-5x5-v0"))`` the same way.

The policy is minigrid's documented SB3 set-up (``CnnPolicy`` with its three-convolution
features extractor over the 7x7x3 view) fed the image's integer codes unscaled, and the PPO
settings are rl-starter-files' for MiniGrid (16 environments, 128 steps each per update,
4 epochs of minibatches of 256, learning rate 0.001, gamma 0.99, gae_lambda 0.95, clip range
0.2, entropy coefficient 0.01, value coefficient 0.5, gradient norm 0.5), 200 000 steps (at
100 000 the sampled policy already returns about 0.96 but the deterministic one still loops
in some episodes). RL Zoo's tuned DoorKey-5x5 entry (``FlatObsWrapper``, ``VecNormalize``,
``MlpPolicy``, entropy 0) did not learn here (see docs/PERFORMANCE.md). Each model is
evaluated deterministically over 100 episodes (reset seeds 1000..1099) on the environment it
was trained on and on the other implementation; the target is a mean return of at least 0.9.

rlrs's environment reproduces minigrid's seed for seed, and every set-up seeds environment
``i`` with ``seed + i`` and autoresets on the same step, so with one torch thread the three
set-ups of a seed see the same episodes and train the same network: the table's
``parameters`` column (a digest of the final weights) shows it. What differs is the time.

Not run in CI. The pinned environment is ``benches/compare/ppo-requirements.txt`` (PyTorch with
its CUDA libraries, about 5 GB, though it runs on the CPU; minigrid 3.2.0); see
docs/PERFORMANCE.md's "Learning with Stable-Baselines3 PPO: MiniGrid-DoorKey-5x5" for the
commands and the results.

The same check on any other MiniGrid or BabyAI id: ``--env-id ID`` (and ``--target`` for the
return to reach there); issue 43's BabyAI row is ``--env-id BabyAI-GoToRedBallGrey-v0``.

Usage: python benches/compare/ppo_minigrid.py [--timesteps 200000] [--seeds 0 1 2]
       [--torch-threads 1] [--ent-coef 0.01] [--progress STEPS]
       [--setups rlrs-vector rlrs-dummy minigrid] [--env-id MiniGrid-DoorKey-5x5-v0]
       [--target 0.9]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import time

import gymnasium as gym
import numpy as np

ENV_ID = "MiniGrid-DoorKey-5x5-v0"
ENVS = 16
EVALUATION_EPISODES = 100
EVALUATION_SEED = 1000
TARGET = 0.9
SETUPS = ["rlrs-vector", "rlrs-dummy", "minigrid"]


def image_batch(venv):
    """``venv`` (an SB3 ``VecEnv`` of minigrid ``Dict`` observations, batched) with each
    observation reduced to its ``image``, as minigrid's ``ImgObsWrapper`` does to one
    environment's (and to the final observations in the infos)."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class ImageBatch(VecEnvWrapper):
        def __init__(self, inner):
            super().__init__(inner, observation_space=inner.observation_space["image"])

        def reset(self):
            return self.venv.reset()["image"]

        def step_wait(self):
            observations, rewards, dones, infos = self.venv.step_wait()
            for info in infos:
                if "terminal_observation" in info:
                    info["terminal_observation"] = info["terminal_observation"]["image"]
            return observations["image"], rewards, dones, infos

    return ImageBatch(venv)


def features_extractor():
    """minigrid's documented SB3 features extractor (its "Training Minigrid Environments"
    page): three 2x2 convolutions of 16, 32 and 64 channels over the 7x7 view, then a linear
    layer of 128 features, ReLUs between."""
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class MinigridFeaturesExtractor(BaseFeaturesExtractor):
        def __init__(self, observation_space, features_dim: int = 128):
            super().__init__(observation_space, features_dim)
            channels = observation_space.shape[0]
            self.cnn = nn.Sequential(
                nn.Conv2d(channels, 16, (2, 2)),
                nn.ReLU(),
                nn.Conv2d(16, 32, (2, 2)),
                nn.ReLU(),
                nn.Conv2d(32, 64, (2, 2)),
                nn.ReLU(),
                nn.Flatten(),
            )
            with torch.no_grad():
                sample = torch.as_tensor(observation_space.sample()[None]).float()
                flat = self.cnn(sample).shape[1]
            self.linear = nn.Sequential(nn.Linear(flat, features_dim), nn.ReLU())

        def forward(self, observations):
            return self.linear(self.cnn(observations))

    return MinigridFeaturesExtractor


def make_setup(name: str, seed: int, env_id: str):
    """The SB3 ``VecEnv`` of the set-up ``name`` on minigrid's id ``env_id`` (image
    observations) and the Gymnasium id it trains on."""
    from minigrid.wrappers import ImgObsWrapper
    from stable_baselines3.common.env_util import make_vec_env

    rlrs_id = f"rlrs/{env_id}"
    if name == "rlrs-vector":
        import rlrs.sb3

        return image_batch(rlrs.sb3.make_vec_env(env_id, n_envs=ENVS, seed=seed)), rlrs_id
    if name == "rlrs-dummy":
        return (
            make_vec_env(rlrs_id, n_envs=ENVS, seed=seed, wrapper_class=ImgObsWrapper),
            rlrs_id,
        )
    if name == "minigrid":
        return (
            make_vec_env(env_id, n_envs=ENVS, seed=seed, wrapper_class=ImgObsWrapper),
            env_id,
        )
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


def progress_callback(every: int):
    """An SB3 callback that prints, every ``every`` steps, the mean return and length of the
    last 100 training episodes (SB3's ``ep_info_buffer``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next = every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next and self.model.ep_info_buffer:
                self.next += every
                episodes = self.model.ep_info_buffer
                print(
                    f"#   {self.num_timesteps} steps: training return "
                    f"{np.mean([e['r'] for e in episodes]):.3f}, length "
                    f"{np.mean([e['l'] for e in episodes]):.1f} (last {len(episodes)} episodes)",
                    flush=True,
                )
            return True

    return Progress()


def train(venv, seed: int, timesteps: int, ent_coef: float, progress: int):
    """PPO with rl-starter-files' MiniGrid settings and minigrid's documented CNN trained on
    ``venv``: the model, the wall and processor seconds of ``learn`` (the processor time of
    this process, less sensitive to other work on a shared machine), and the wall seconds
    spent inside the environments."""
    from stable_baselines3 import PPO

    env = timed(venv)
    model = PPO(
        "CnnPolicy",
        env,
        n_steps=128,
        batch_size=256,
        n_epochs=4,
        learning_rate=1e-3,
        gamma=0.99,
        gae_lambda=0.95,
        clip_range=0.2,
        ent_coef=ent_coef,
        vf_coef=0.5,
        max_grad_norm=0.5,
        policy_kwargs=dict(
            features_extractor_class=features_extractor(),
            features_extractor_kwargs=dict(features_dim=128),
            # The image's integer codes (object, colour, state: 0 to 10) as they are, as
            # rl-starter-files feeds them; SB3's default would divide them by 255.
            normalize_images=False,
        ),
        seed=seed,
        device="cpu",
        verbose=0,
    )
    callback = progress_callback(progress) if progress else None
    start, start_cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=timesteps, callback=callback)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    env.close()
    return model, seconds, cpu_seconds, env.seconds


def digest(model) -> str:
    """The first 12 hex digits of the SHA-256 of the policy's parameters, in order."""
    sha = hashlib.sha256()
    for tensor in model.policy.state_dict().values():
        sha.update(tensor.detach().cpu().numpy().tobytes())
    return sha.hexdigest()[:12]


def evaluate(model, env_id: str) -> np.ndarray:
    """The returns of ``EVALUATION_EPISODES`` deterministic episodes of ``model`` on
    ``ImgObsWrapper(gym.make(env_id))``, episode ``k`` reset with seed ``EVALUATION_SEED + k``
    (all stepped together, one batched prediction per step)."""
    from minigrid.wrappers import ImgObsWrapper

    envs = [ImgObsWrapper(gym.make(env_id)) for _ in range(EVALUATION_EPISODES)]
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
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument(
        "--progress", type=int, default=0, help="print the training return every N steps"
    )
    parser.add_argument("--setups", nargs="+", default=SETUPS, choices=SETUPS)
    parser.add_argument(
        "--env-id",
        default=ENV_ID,
        help="minigrid's id to train on, beside rlrs/ID (a MiniGrid-* or BabyAI-* id)",
    )
    parser.add_argument(
        "--target", type=float, default=TARGET, help="the mean evaluation return to reach"
    )
    args = parser.parse_args()

    import minigrid
    import stable_baselines3
    import torch

    import rlrs

    torch.set_num_threads(args.torch_threads)
    print(
        f"Python {platform.python_version()}, torch {torch.__version__} "
        f"({args.torch_threads} thread(s)), stable-baselines3 {stable_baselines3.__version__}, "
        f"gymnasium {gym.__version__}, minigrid {minigrid.__version__}, rlrs {rlrs.__version__}, "
        f"numpy {np.__version__}; {args.env_id}, {args.timesteps} steps, {ENVS} environments, "
        f"ent_coef {args.ent_coef}, evaluation over {EVALUATION_EPISODES} episodes"
    )
    rlrs_id = f"rlrs/{args.env_id}"
    other = {rlrs_id: args.env_id, args.env_id: rlrs_id}
    print(
        "| set-up | seed | train wall (s) | train CPU (s) | in env (s) | eval mean ± std (own) "
        f"| eval min (own) | eval mean (other) | parameters | >= {args.target} |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    summary = {}
    for seed in args.seeds:
        # Set-ups alternate within a seed so that a slow spell of the machine hits all of them.
        for name in args.setups:
            venv, env_id = make_setup(name, seed, args.env_id)
            if args.progress:
                print(f"# {name}, seed {seed}", flush=True)
            model, seconds, cpu_seconds, env_seconds = train(
                venv, seed, args.timesteps, args.ent_coef, args.progress
            )
            own = evaluate(model, env_id)
            cross = evaluate(model, other[env_id])
            reached = own.mean() >= args.target
            summary.setdefault(name, []).append((seconds, cpu_seconds, own.mean(), reached))
            print(
                f"| {name} | {seed} | {seconds:.1f} | {cpu_seconds:.1f} | {env_seconds:.2f} "
                f"| {own.mean():.3f} ± {own.std():.3f} | {own.min():.3f} | {cross.mean():.3f} "
                f"| {digest(model)} | {'yes' if reached else 'no'} |",
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
            f"{', '.join(f'{m:.3f}' for m in means)}, "
            f"{sum(run[3] for run in runs)}/{len(runs)} seeds reached {args.target}"
        )


if __name__ == "__main__":
    main()
