"""rlrs: exact, fast reinforcement-learning environments written in Rust, with Gymnasium's
API.

Every id registered in the Rust registry (``rlrs.ids()``) is registered in Gymnasium under the
namespace ``rlrs`` on import::

    import gymnasium as gym
    import rlrs

    env = gym.make("rlrs/CartPole-v1")
    envs = gym.make_vec("rlrs/CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point")

``gym.make("rlrs:rlrs/CartPole-v1")`` imports the package itself first.

The MuJoCo ids (``rlrs/Hopper-v5``, ...) run on the MuJoCo library of the installed ``mujoco``
package (``pip install mujoco``), the very file Gymnasium's MuJoCo environments load, so that
both give the same bits: on import, unless ``RL_MUJOCO_LIBRARY`` is set already, this package
sets it to that file (found without importing ``mujoco``).

A MiniGrid id's environment is a ``MiniGridEnv`` (``rlrs.minigrid``), with minigrid's
attributes, so that minigrid's own wrappers work on it. Importing rlrs puts
``rlrs.make_vec.make_vec`` in place of ``gymnasium.make_vec``, so that
``gym.make_vec(id, n, wrappers=[...])`` works on rlrs's ids (see ``rlrs.make_vec``).

``rlrs.make_pool(id, num_envs=N, batch_size=B, num_threads=T, seed=S)`` gives EnvPool's
asynchronous API (``async_reset``, ``send``, ``recv``, ``step``) on any id (``rlrs.pool``): each
environment stepped on its own by whichever worker thread is free.

``rlrs.BabyAIBot(env)`` is minigrid's BabyAI bot (``BabyAIBot``) for a ``BabyAI-*`` id's
environment, running in Rust (see ``rlrs.babyai``).
"""

from __future__ import annotations

import importlib.util
import json
import os

import gymnasium as gym

from . import _core
from . import make_vec as _make_vec
from .babyai import BabyAIBot, DisappearedBoxError
from .env import RustEnv, UnknownIdError, core
from .minigrid import MiniGridEnv
from .pool import EnvPool, make_pool
from .spaces import space_from_definition
from .vector import RustVectorEnv

__version__: str = _core.__version__

__all__ = [
    "NAMESPACE",
    "__version__",
    "BabyAIBot",
    "DisappearedBoxError",
    "EnvPool",
    "MiniGridEnv",
    "RustEnv",
    "RustVectorEnv",
    "UnknownIdError",
    "entries",
    "ids",
    "make_pool",
    "core",
    "register_envs",
    "space_from_definition",
]

NAMESPACE = "rlrs"


def _point_at_mujoco() -> None:
    """Sets ``RL_MUJOCO_LIBRARY`` to the libmujoco file of the ``mujoco`` package this Python
    would import, unless it is set or there is no such package; the Rust core opens it when
    a MuJoCo id is first made."""
    if os.environ.get("RL_MUJOCO_LIBRARY"):
        return
    try:
        spec = importlib.util.find_spec("mujoco")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    directory = list(spec.submodule_search_locations)[0]
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in reversed(names):
        if (
            name.startswith("libmujoco.so")
            or (name.startswith("libmujoco") and name.endswith(".dylib"))
            or name == "mujoco.dll"
        ):
            os.environ["RL_MUJOCO_LIBRARY"] = os.path.join(directory, name)
            return


_point_at_mujoco()


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
        if core_module == "rlrs._core":
            # Entry points by id (rlrs.entry): the spec's kwargs are the environment's alone,
            # the reference's registered ones, as the reference's spec has them: Gymnasium's
            # from its registry, minigrid's from the id's registration in Rust (the setting
            # gymnasium_kwargs, so that they do not depend on minigrid being installed or
            # imported first), which the id's parameters take as they are.
            entry_point = f"rlrs.entry:{rust_id}"
            vector_entry_point = f"rlrs.entry:vector/{rust_id}"
            if rust_id.startswith(("MiniGrid-", "BabyAI-")):
                settings = json.loads(module.settings(rust_id) or "{}")
                # minigrid registers its sequences as tuples (ObstructedMaze's agent_room).
                kwargs = {
                    key: tuple(value) if isinstance(value, list) else value
                    for key, value in (settings.get("gymnasium_kwargs") or {}).items()
                }
            else:
                kwargs = {} if mirrored is None else dict(mirrored.kwargs)
        else:
            entry_point = "rlrs.env:RustEnv"
            vector_entry_point = "rlrs.vector:RustVectorEnv"
            kwargs = {"env_id": rust_id, "core_module": core_module}
        gym.register(
            id=gym_id,
            entry_point=entry_point,
            vector_entry_point=vector_entry_point,
            kwargs=kwargs,
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
