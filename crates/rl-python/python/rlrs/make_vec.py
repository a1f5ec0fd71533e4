"""``gym.make_vec(id, n, wrappers=[...])`` on rlrs's ids.

Gymnasium refuses ``wrappers`` in ``vector_entry_point`` mode, the mode rlrs's ids get by
default (their vector is ``RustVectorEnv``). On import, rlrs puts ``make_vec`` (below) in
place of ``gymnasium.make_vec`` (and ``gymnasium.envs.registration.make_vec``); it calls
Gymnasium's own for everything but rlrs's ids with ``wrappers`` in the default mode, where it:

1. recognises minigrid's observation wrappers on a MiniGrid id and asks the Rust vector for the
   same observations (the vector's ``image`` option, written in Rust): ``[W]``,
   ``[W, ImgObsWrapper]`` or ``[ImgObsWrapper]``, ``W`` one of ``RGBImgPartialObsWrapper``,
   ``RGBImgObsWrapper``, ``FullyObsWrapper`` and ``OneHotPartialObsWrapper``, as the class or a
   ``functools.partial`` of it with ``tile_size``; ``ImgObsWrapper`` keeps the image only (a
   vector wrapper over the Rust vector's batch, no copy);
2. otherwise builds what Gymnasium's ``sync`` mode builds, a ``SyncVectorEnv`` of wrapped single
   environments (each an ``rlrs.RustEnv``): correct for any wrapper, at Python speed.

With ``vectorization_mode="vector_entry_point"`` given explicitly, only case 1 is taken; other
wrappers are refused as Gymnasium refuses them.

``vector_kwargs`` on rlrs's ids (default or ``vector_entry_point`` mode) holding only
``SyncVectorEnv``'s ``autoreset_mode`` and ``copy`` go to the Rust vector, which takes them with
the same meaning (Gymnasium refuses ``vector_kwargs`` in ``vector_entry_point`` mode); any other
``vector_kwargs`` are left to Gymnasium. ``from gymnasium import make_vec`` run before
``import rlrs`` keeps Gymnasium's own function.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import EnvSpec, VectorizeMode
from gymnasium.vector import VectorWrapper

__all__ = ["make_vec", "install"]

# The Rust vector's `image` option of each minigrid wrapper it recognises.
_IMAGE_OPTIONS = {
    "RGBImgPartialObsWrapper": "rgb_partial",
    "RGBImgObsWrapper": "rgb_full",
    "FullyObsWrapper": "full",
    "OneHotPartialObsWrapper": "one_hot",
}


def _minigrid_wrapper(wrapper: Any) -> tuple[str, dict[str, Any]] | None:
    """The name of the ``minigrid.wrappers`` class ``wrapper`` is (itself, or a
    ``functools.partial`` of it with keywords only) and those keywords, else ``None``."""
    keywords: dict[str, Any] = {}
    if isinstance(wrapper, functools.partial):
        if wrapper.args:
            return None
        keywords = dict(wrapper.keywords)
        wrapper = wrapper.func
    if not isinstance(wrapper, type) or wrapper.__module__ != "minigrid.wrappers":
        return None
    return wrapper.__name__, keywords


def image_option(wrappers: list[Any]) -> tuple[dict[str, Any], bool] | None:
    """The Rust vector's parameters giving what ``wrappers`` give (``image`` and
    ``image_tile_size``) and whether ``ImgObsWrapper`` ends them, or ``None`` when the Rust
    vector cannot give it (see the module's documentation)."""
    read = [_minigrid_wrapper(wrapper) for wrapper in wrappers]
    if not read or any(entry is None for entry in read):
        return None
    image_only = read[-1] == ("ImgObsWrapper", {})
    if image_only:
        read = read[:-1]
    if not read:
        return {}, True
    if len(read) != 1:
        return None
    name, keywords = read[0]
    if name not in _IMAGE_OPTIONS:
        return None
    params: dict[str, Any] = {"image": _IMAGE_OPTIONS[name]}
    # FullyObsWrapper takes no tile_size (minigrid would refuse it): left to Gymnasium.
    tile_size = keywords.pop("tile_size", 8) if name != "FullyObsWrapper" else 8
    if keywords or isinstance(tile_size, bool) or not isinstance(tile_size, int):
        return None
    if name in ("RGBImgPartialObsWrapper", "RGBImgObsWrapper"):
        params["image_tile_size"] = tile_size
    return params, image_only


class ImageOnly(VectorWrapper):
    """minigrid's ``ImgObsWrapper`` over a vector: the batch's ``image`` alone (the array
    itself, no copy), in the final observations of a same-step autoreset too."""

    def __init__(self, env: gym.vector.VectorEnv) -> None:
        super().__init__(env)
        self.single_observation_space = env.single_observation_space["image"]
        self.observation_space = env.observation_space["image"]

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None):
        observations, info = self.env.reset(seed=seed, options=options)
        return observations["image"], info

    def step(self, actions: Any):
        observations, rewards, terminated, truncated, info = self.env.step(actions)
        if "final_obs" in info:
            finals = np.full(len(info["final_obs"]), None, dtype=object)
            for i, final in enumerate(info["final_obs"]):
                finals[i] = None if final is None else final["image"]
            info = {**info, "final_obs": finals}
        return observations["image"], rewards, terminated, truncated, info


# The keyword arguments of SyncVectorEnv that RustVectorEnv takes with the same meaning.
_VECTOR_KEYWORDS = frozenset({"autoreset_mode", "copy"})


def _rust_spec(env_id: Any) -> EnvSpec | None:
    """The spec of ``env_id`` if it is one of rlrs's ids (its vector is ``RustVectorEnv``)."""
    if isinstance(env_id, EnvSpec):
        spec = env_id
    elif isinstance(env_id, str):
        try:
            spec = gym.spec(env_id)
        except gym.error.Error:
            return None
    else:
        return None
    return spec if _rust_id(spec) is not None else None


def _rust_id(spec: EnvSpec) -> tuple[str, str] | None:
    """The Rust id and core module ``spec`` makes, if it is one of rlrs's: an id of
    ``rlrs._core`` registered by id (``rlrs.entry:vector/<id>``), or a domain author's
    (``RustVectorEnv`` with ``env_id`` and ``core_module`` in its kwargs)."""
    entry = spec.vector_entry_point
    if isinstance(entry, str) and entry.startswith("rlrs.entry:vector/"):
        return entry[len("rlrs.entry:vector/") :], "rlrs._core"
    env_id = spec.kwargs.get("env_id")
    if entry == "rlrs.vector:RustVectorEnv" and isinstance(env_id, str):
        return env_id, spec.kwargs.get("core_module", "rlrs._core")
    return None


def make_vec(
    id: str | EnvSpec,  # noqa: A002  (Gymnasium's name)
    num_envs: int = 1,
    vectorization_mode: VectorizeMode | str | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Any = None,
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """Gymnasium's ``make_vec``, taking ``wrappers`` on rlrs's ids too (see the module's
    documentation)."""
    original = make_vec._gymnasium_make_vec
    mode = None if vectorization_mode is None else VectorizeMode(vectorization_mode)
    if (
        vector_kwargs
        and mode in (None, VectorizeMode.VECTOR_ENTRY_POINT)
        and set(vector_kwargs) <= _VECTOR_KEYWORDS
        and not set(vector_kwargs) & set(kwargs)
        and _rust_spec(id) is not None
    ):
        # SyncVectorEnv's keyword arguments that RustVectorEnv takes alike (the idiom
        # `vector_kwargs={"autoreset_mode": ...}`, which Gymnasium refuses in
        # vector_entry_point mode): handed to the Rust vector.
        kwargs = {**kwargs, **vector_kwargs}
        vector_kwargs = None
    spec = _rust_spec(id) if wrappers else None
    if spec is None or mode not in (None, VectorizeMode.VECTOR_ENTRY_POINT):
        return original(id, num_envs, vectorization_mode, vector_kwargs, wrappers, **kwargs)
    wrappers = list(wrappers)
    option = None
    image_given = bool({"image", "image_tile_size"} & set(kwargs))
    if not image_given and not vector_kwargs and _is_minigrid_spec(spec):
        option = image_option(wrappers)
    if option is not None:
        params, image_only = option
        env = original(id, num_envs, vectorization_mode, vector_kwargs, None, **kwargs, **params)
        return ImageOnly(env) if image_only else env
    if mode is None:
        return original(id, num_envs, VectorizeMode.SYNC, vector_kwargs, wrappers, **kwargs)
    return original(id, num_envs, vectorization_mode, vector_kwargs, wrappers, **kwargs)


def _is_minigrid_spec(spec: EnvSpec) -> bool:
    """Whether ``spec`` makes a MiniGrid id of rlrs."""
    from .env import _is_minigrid

    found = _rust_id(spec)
    return found is not None and _is_minigrid(*found)


make_vec._gymnasium_make_vec = None  # type: ignore[attr-defined]


def install() -> None:
    """Puts ``make_vec`` in place of ``gymnasium.make_vec`` and
    ``gymnasium.envs.registration.make_vec`` (idempotent)."""
    import gymnasium.envs.registration as registration

    if registration.make_vec is not make_vec:
        make_vec._gymnasium_make_vec = registration.make_vec  # type: ignore[attr-defined]
        registration.make_vec = make_vec
    gym.make_vec = make_vec
