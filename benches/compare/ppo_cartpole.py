"""Trains Stable-Baselines3 PPO on rlrs/CartPole-v1 (the Rust vector, through
gymnasium.make_vec) and on Gymnasium's own CartPole-v1 with the same settings, and reports the
mean evaluation return and the wall time of each (issue 19's real-client check).

Not run in CI. Needs `pip install crates/rl-python stable-baselines3` (which brings PyTorch).

Usage: python benches/compare/ppo_cartpole.py [--timesteps 200000] [--envs 8] [--seed 0]

The hyperparameters are RL Zoo's tuned PPO for CartPole-v1 (n_envs 8, n_steps 32,
batch_size 256, gae_lambda 0.8, gamma 0.98, n_epochs 20, ent_coef 0, linearly decaying
learning rate and clip range from 0.001 and 0.2), which reach a return of 500 within
100 000 steps; the target is a mean evaluation return of at least 475 over 20 episodes.
"""

import argparse
import time

import gymnasium as gym
import numpy as np


def linear(start):
    return lambda progress: progress * start


def make_sb3_vec_env(vector_env):
    """A Stable-Baselines3 VecEnv stepping `vector_env` (a same-step gymnasium VectorEnv)."""
    from stable_baselines3.common.vec_env import VecEnv

    class Adapter(VecEnv):
        def __init__(self, env):
            self.env = env
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
            self._actions = None

        def reset(self):
            seeds = getattr(self, "_seeds", None) or [None]
            observations, _ = self.env.reset(seed=seeds[0])
            if hasattr(self, "_reset_seeds"):
                self._reset_seeds()
            return observations

        def step_async(self, actions):
            self._actions = actions

        def step_wait(self):
            observations, rewards, terminated, truncated, info = self.env.step(self._actions)
            dones = terminated | truncated
            infos = [{} for _ in range(self.num_envs)]
            final = info.get("_final_obs")
            for i in np.flatnonzero(dones):
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if final is not None and final[i]:
                    infos[i]["terminal_observation"] = info["final_obs"][i]
                if "_episode" in info and info["_episode"][i]:
                    infos[i]["episode"] = {
                        "r": float(info["episode"]["r"][i]),
                        "l": int(info["episode"]["l"][i]),
                        "t": float(info["episode"]["t"][i]),
                    }
            return observations, rewards.astype(np.float32), dones, infos

        def close(self):
            self.env.close()

        def get_attr(self, attr_name, indices=None):
            return [getattr(self.env, attr_name)] * self.num_envs

        def set_attr(self, attr_name, value, indices=None):
            setattr(self.env, attr_name, value)

        def env_method(self, method_name, *args, indices=None, **kwargs):
            return [getattr(self.env, method_name)(*args, **kwargs)]

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * self.num_envs

    return Adapter(vector_env)


def train(env, seed, timesteps):
    from stable_baselines3 import PPO

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
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    return model, time.perf_counter() - start


def evaluate(model, env_id, episodes=20, seed=1000):
    env = gym.make(env_id)
    returns = []
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(observation, deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            total += reward
            done = terminated or truncated
        returns.append(total)
    return float(np.mean(returns))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import rlrs  # noqa: F401  (registers rlrs/<id>)
    from stable_baselines3.common.env_util import make_vec_env

    # SB3 expects same-step autoreset with the final observation in the info.
    ours = make_sb3_vec_env(
        gym.make_vec(
            "rlrs/CartPole-v1",
            num_envs=args.envs,
            vectorization_mode="vector_entry_point",
            autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
        )
    )
    theirs = make_vec_env("CartPole-v1", n_envs=args.envs, seed=args.seed)
    for name, env, eval_id in (
        ("rlrs/CartPole-v1 (Rust vector)", ours, "rlrs/CartPole-v1"),
        ("CartPole-v1 (Gymnasium, SB3 DummyVecEnv)", theirs, "CartPole-v1"),
    ):
        model, seconds = train(env, args.seed, args.timesteps)
        mean_return = evaluate(model, eval_id)
        status = "reached" if mean_return >= 475 else "missed"
        print(
            f"{name}: mean evaluation return {mean_return:.1f} ({status} 475) "
            f"after {args.timesteps} steps in {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
