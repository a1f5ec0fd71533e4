"""Stable-Baselines3 on the fast Rust vector: a ``stable_baselines3`` ``VecEnv`` that steps an
``rlrs.RustVectorEnv`` directly (no ``DummyVecEnv`` of single environments, no per-environment
Python step).

SB3's ``make_vec_env("rlrs/CartPole-v1", n_envs=8)`` works too (it makes eight single
environments); this adapter is the fast path::

    import rlrs.sb3
    from stable_baselines3 import PPO

    venv = rlrs.sb3.make_vec_env("CartPole-v1", n_envs=8, seed=0, threads=1)
    model = PPO("MlpPolicy", venv).learn(10_000)

SB3's conventions, which the adapter follows:

- the vector resets an ended environment on the same step (``AutoresetMode.SAME_STEP``): the
  observation returned on an episode's last step is the next episode's first, and the final
  one is ``infos[i]["terminal_observation"]``;
- ``infos[i]["TimeLimit.truncated"]``, in every step's infos, is true when a time limit cut
  the episode short (and the task did not end on that step); ``infos[i]["episode"]`` (``r``, ``l``, ``t``) is
  ``Monitor``'s, from the Rust vector's episode statistics;
- ``dones`` is ``terminated | truncated``, rewards are ``float32``;
- ``seed(s)`` takes effect at the next ``reset``, which seeds environment ``i`` with ``s + i``
  (``SyncVectorEnv``'s and SB3's ``make_vec_env``'s rule); without a seed, ``reset``
  continues each environment's stream.

Importing this module needs ``stable_baselines3`` (not a dependency of ``rlrs``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from .vector import RustVectorEnv

__all__ = ["RustVecEnv", "make_vec_env"]


class RustVecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` over an ``rlrs.RustVectorEnv`` made with
    ``autoreset_mode=SAME_STEP`` and ``record_episode_statistics=True`` (``make_vec_env``
    makes one so)."""

    def __init__(self, vector: RustVectorEnv):
        if vector.metadata.get("autoreset_mode") != gym.vector.AutoresetMode.SAME_STEP:
            raise ValueError(
                "RustVecEnv needs a vector with autoreset_mode=AutoresetMode.SAME_STEP "
                f"(SB3's convention), not {vector.metadata.get('autoreset_mode')}"
            )
        if not vector.record_episode_statistics:
            raise ValueError(
                "RustVecEnv needs a vector with record_episode_statistics=True (SB3's Monitor "
                "infos come from its episode statistics)"
            )
        self.vector = vector
        super().__init__(
            vector.num_envs, vector.single_observation_space, vector.single_action_space
        )
        self._actions: np.ndarray | None = None

    def reset(self) -> Any:
        seeds = self._seeds
        if any(seed is not None for seed in seeds):
            observations, _ = self.vector.reset(seed=list(seeds))
        else:
            observations, _ = self.vector.reset()
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait before step_async")
        observations, rewards, terminated, truncated, info = self.vector.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        # As DummyVecEnv: "TimeLimit.truncated" in every environment's info, every step.
        cut = (truncated & ~terminated).tolist()
        infos: list[dict[str, Any]] = [{"TimeLimit.truncated": flag} for flag in cut]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            if "_episode" in info and info["_episode"][i]:
                episode = info["episode"]
                infos[i]["episode"] = {
                    "r": float(episode["r"][i]),
                    "l": int(episode["l"][i]),
                    "t": float(episode["t"][i]),
                }
        return observations, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.vector.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        # One vector holds every environment: the attribute of the vector, once per index.
        return [getattr(self.vector, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.vector, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        raise NotImplementedError(
            "the Rust vector has no per-environment Python objects; call the vector's own "
            f"methods (RustVecEnv.vector.{method_name}) instead"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def get_images(self) -> list[np.ndarray]:
        if self.vector.render_mode != "rgb_array":
            return [None] * self.num_envs
        return list(self.vector.render())


def make_vec_env(
    env_id: str,
    n_envs: int = 1,
    seed: int | None = None,
    *,
    threads: int = 1,
    env_kwargs: dict[str, Any] | None = None,
    **vector_kwargs: Any,
) -> RustVecEnv:
    """SB3's ``make_vec_env`` for an rlrs id (``"CartPole-v1"`` or ``"rlrs/CartPole-v1"``),
    stepped by one Rust vector of ``n_envs`` environments on ``threads`` threads. ``seed``
    seeds environment ``i`` with ``seed + i`` at the first ``reset`` (as SB3's does);
    ``env_kwargs`` are the domain's parameters; other keyword arguments go to
    ``rlrs.RustVectorEnv``."""
    if env_id.startswith("rlrs/"):
        env_id = env_id[len("rlrs/"):]
    vector = RustVectorEnv(
        env_id,
        n_envs,
        threads=threads,
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
        record_episode_statistics=True,
        **vector_kwargs,
        **(env_kwargs or {}),
    )
    venv = RustVecEnv(vector)
    venv.seed(seed)
    return venv
