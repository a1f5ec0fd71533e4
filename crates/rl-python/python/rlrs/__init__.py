"""rlrs: exact, fast reinforcement-learning environments written in Rust, with Gymnasium's
API.

Every id registered in the Rust registry (``rlrs.ids()``) is registered in Gymnasium under the
namespace ``rlrs`` on import::

    import gymnasium as gym
    import rlrs

    env = gym.make("rlrs/CartPole-v1")
    envs = gym.make_vec("rlrs/CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point")

``gym.make("rlrs:rlrs/CartPole-v1")`` imports the package itself first.

A MiniGrid id's environment is a ``MiniGridEnv`` (``rlrs.minigrid``), with minigrid's
attributes, so that minigrid's own wrappers work on it. Importing rlrs puts
``rlrs.make_vec.make_vec`` in place of ``gymnasium.make_vec``, so that
``gym.make_vec(id, n, wrappers=[...])`` works on rlrs's ids (see ``rlrs.make_vec``).
"""

from __future__ import annotations

import gymnasium as gym

from . import _core
from . import make_vec as _make_vec
from .env import RustEnv, UnknownIdError, core
from .minigrid import MiniGridEnv
from .spaces import space_from_definition
from .vector import RustVectorEnv

__version__: str = _core.__version__

__all__ = [
    "NAMESPACE",
    "__version__",
    "MiniGridEnv",
    "RustEnv",
    "RustVectorEnv",
    "UnknownIdError",
    "entries",
    "ids",
    "core",
    "register_envs",
    "space_from_definition",
]

NAMESPACE = "rlrs"


def ids() -> list[str]:
    """Every id registered in the Rust registry, in registration order."""
    return list(_core.ids())


def entries() -> list[tuple[str, str]]:
    """Every registered id with its one-line description."""
    return list(_core.entries())


def register_envs(core_module: str = "rlrs._core", namespace: str = NAMESPACE) -> list[str]:
    """Registers every id of the Rust core ``core_module`` not yet known to Gymnasium as
    ``<namespace>/<id>``, with ``RustEnv`` as entry point and ``RustVectorEnv`` as vector
    entry point, and returns the Gymnasium ids. Idempotent; call it again after registering
    more domains in Rust.

    A domain author's own extension module (built with ``rl_python::add_to_module``) is
    registered with ``register_envs("their_package._core", "their_namespace")``."""
    registered = []
    module = core(core_module)
    for rust_id in module.ids():
        gym_id = f"{namespace}/{rust_id}"
        registered.append(gym_id)
        if gym_id in gym.registry:
            continue
        # An id that mirrors one of Gymnasium's carries its reward threshold and determinism.
        mirrored = gym.registry.get(rust_id) if core_module == "rlrs._core" else None
        gym.register(
            id=gym_id,
            entry_point="rlrs.env:RustEnv",
            vector_entry_point="rlrs.vector:RustVectorEnv",
            kwargs={"env_id": rust_id, "core_module": core_module},
            # The Rust domain truncates at its own episode cap: no TimeLimit on top (the
            # environment's spec reports that cap as max_episode_steps all the same).
            max_episode_steps=None,
            reward_threshold=None if mirrored is None else mirrored.reward_threshold,
            nondeterministic=False if mirrored is None else mirrored.nondeterministic,
        )
    return registered


register_envs()
# gym.make_vec(id, n, wrappers=[...]) on rlrs's ids (Gymnasium refuses wrappers in the
# vector_entry_point mode they get by default): rlrs.make_vec.
_make_vec.install()
