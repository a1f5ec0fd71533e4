"""Gymnasium entry points by id: each id of ``rlrs._core`` registers as
``entry_point="rlrs.entry:<id>"`` and ``vector_entry_point="rlrs.entry:vector/<id>"``, so
that its spec's ``kwargs`` are the keyword arguments of the environment alone (those of the
Gymnasium or minigrid registration it mirrors, ``{"map_name": "4x4"}`` for FrozenLake-v1, and
the caller's), as the reference's spec has them, and ``gym.make(env.spec)`` makes it again.

``rlrs.entry.<id>`` (``getattr(rlrs.entry, "CartPole-v1")``) is a callable that makes a
``RustEnv`` of the id, with the id's ``metadata`` (its render modes and ``render_fps``) for
``gym.make`` to read; ``rlrs.entry.vector/<id>`` makes a ``RustVectorEnv``.
"""

from __future__ import annotations

from typing import Any

from .env import RustEnv, id_metadata
from .vector import RustVectorEnv

__all__ = ["EnvEntry", "VectorEntry"]

_VECTOR = "vector/"


class EnvEntry:
    """Makes a ``RustEnv`` of ``env_id`` (of ``rlrs._core``) from keyword arguments."""

    def __init__(self, env_id: str) -> None:
        self.env_id = env_id

    @property
    def metadata(self) -> dict[str, Any]:
        """The id's render modes and ``render_fps``, as its environments report them."""
        return id_metadata("rlrs._core", self.env_id)

    def __call__(self, **kwargs: Any) -> RustEnv:
        return RustEnv(self.env_id, **kwargs)

    def __repr__(self) -> str:
        return f"rlrs.entry:{self.env_id}"


class VectorEntry:
    """Makes a ``RustVectorEnv`` of ``env_id`` (of ``rlrs._core``) from ``num_envs`` and
    keyword arguments."""

    def __init__(self, env_id: str) -> None:
        self.env_id = env_id

    def __call__(self, num_envs: int = 1, **kwargs: Any) -> RustVectorEnv:
        return RustVectorEnv(self.env_id, num_envs, **kwargs)

    def __repr__(self) -> str:
        return f"rlrs.entry:{_VECTOR}{self.env_id}"


def __getattr__(name: str) -> EnvEntry | VectorEntry:
    from . import _core

    vector = name.startswith(_VECTOR)
    env_id = name[len(_VECTOR) :] if vector else name
    if env_id not in _core.ids():
        raise AttributeError(f"module 'rlrs.entry' has no attribute {name!r}: {env_id!r} is not an id of rlrs")
    return VectorEntry(env_id) if vector else EnvEntry(env_id)
