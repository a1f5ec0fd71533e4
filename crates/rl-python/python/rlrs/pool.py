"""``EnvPool``: EnvPool's asynchronous API (``send``/``recv``) on rlrs's environments.

``rlrs.make_pool(id, num_envs=N, batch_size=B, num_threads=T, seed=S)`` takes EnvPool's
arguments (``envpool.make(id, env_type="gymnasium", num_envs=N, batch_size=B,
num_threads=T, seed=S)``) and gives an object with EnvPool 1.2.5's Gymnasium-style methods:
``async_reset()``, ``send(action, env_id=None)``, ``recv()``, ``step(action, env_id=None)``
(``send`` then ``recv``) and ``reset(env_id=None, *, seed=None, options=None)``. Each
environment is stepped on its own by whichever of the ``num_threads`` worker threads is free,
so that an environment whose step is slow holds up no other: ``recv`` returns the first
``batch_size`` environments to finish, with their ids in ``info["env_id"]``, the steps of their
episodes in ``info["elapsed_step"]`` and ``info["players"]["env_id"]`` as EnvPool gives it for
one player. With ``batch_size == num_envs`` (the default) it is EnvPool's synchronous mode:
``step(action)`` steps every environment and returns them in the order sent, and
``step(action, env_id)`` or ``reset(env_id)`` of some environments returns those only, in the
order named (``options={"reset_mask": mask}`` names them as Gymnasium does).

What each environment returns is, bit for bit, what Gymnasium's single environment returns with
the seed ``seed + i`` and the same actions, with next-step autoreset (the step after an
episode's end returns the next episode's first observation, reward 0, both flags false):
``tests/test_pool.py`` checks it beside Gymnasium 1.4.0 on Hopper-v5, HalfCheetah-v5,
Humanoid-v5 and CartPole-v1.

    import numpy as np
    import rlrs

    pool = rlrs.make_pool("Hopper-v5", num_envs=8, batch_size=4, num_threads=2, seed=0)
    pool.async_reset()
    for _ in range(100):
        obs, rew, terminated, truncated, info = pool.recv()
        env_id = info["env_id"]
        action = np.zeros((len(env_id), 3), dtype=np.float32)
        pool.send(action, env_id)
    pool.close()

Where it differs from EnvPool: rewards are ``float64`` (EnvPool's ``float32``), as Gymnasium's
vectors give them; ``info`` also holds the environments' own infos laid out as Gymnasium's
vectors lay them out (``info[key]`` over the batch, ``info["_key"]`` its mask; Humanoid's
arrays as ``(batch_size, *shape)`` arrays); a step that both terminates and truncates reports
both flags, as Gymnasium does (EnvPool derives ``terminated`` as done and not truncated, so it
reports truncation only); there is no ``render`` and no ``xla``; ``async_reset(env_id)`` resets
some environments without receiving (EnvPool has it only inside ``reset(env_id)``);
``reset(seed=s)`` reseeds environment ``i`` with ``s + i`` before it resets them all, as
Gymnasium's vectors do (EnvPool ignores it with a warning; ``seed`` with ``env_id`` or a
``reset_mask`` is a ``ValueError``); seeds are non-negative integers of any size, as
Gymnasium's (EnvPool's from ``-2**31`` to ``2**31 - 1``); sending or resetting an environment
whose last result was not received yet is a ``ValueError`` (EnvPool leaves it undefined),
sending one never reset a ``RuntimeError`` (EnvPool resets it), and a ``recv`` (or ``step``,
``reset``) that could never end, with fewer environments in flight than it waits for, a
``RuntimeError`` (EnvPool waits forever).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .env import (
    UnknownIdError,
    _is_mujoco,
    checked_seed,
    core,
    params_json,
    seed_words,
)
from .mujoco import match_numpys_arithmetic
from .spaces import space_from_definition
from .vector import _InfoLayout, _unflattener

__all__ = ["EnvPool", "make_pool"]


class _InfoBatch:
    """Gymnasium's ``VectorEnv._add_info`` over a batch of ``num_envs`` rows (a ``recv``'s),
    so that infos Rust cannot lay out as columns get Gymnasium's vector layout."""

    _add_info = VectorEnv._add_info

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


class EnvPool(VectorEnv):
    """``num_envs`` environments of the id ``env_id`` (with the keyword ``params``), stepped
    asynchronously on ``num_threads`` worker threads, ``batch_size`` results per ``recv``,
    environment ``i`` seeded with ``seed + i`` (see the module's documentation; made by
    :func:`make_pool`). A ``gymnasium.vector.VectorEnv``, as EnvPool's Gymnasium pools are.

    - ``observation_space`` and ``action_space`` are one environment's (as EnvPool's; so are
      ``single_observation_space`` and ``single_action_space``); ``num_envs``,
      ``batch_size``, ``num_threads``, ``config``, ``all_env_ids``, ``is_async``,
      ``is_vector_env``, ``metadata["autoreset_mode"]`` (next-step) and ``len()`` are
      EnvPool's.
    - ``send(action, env_id=None)``: one action per id of ``env_id`` (an int or an integer
      array; ``None``: every environment, in order); returns at once.
    - ``recv()``: waits, the interpreter released, for ``batch_size`` results (with
      ``batch_size == num_envs``, for every environment in flight) and returns ``(obs, rew,
      terminated, truncated, info)``, new arrays, one row per environment in the order they
      finished (in the order sent when ``batch_size == num_envs``), ``info["env_id"]`` their
      ids and ``info["elapsed_step"]`` the steps of their episodes (both ``int32``, 0 for a
      reset), ``info["players"]["env_id"]`` the ids again (EnvPool's, for one player).
    - ``async_reset(env_id=None)``: resets every environment (after the steps running end;
      results not received are discarded): their first observations are the next results of
      ``recv``; with ``env_id``, those environments only, the others left as they are.
    - ``step(action, env_id=None)``: ``send`` then ``recv``.
    - ``reset(env_id=None, *, seed=None, options=None)``: resets the environments ``env_id``
      (or those of ``options["reset_mask"]``; ``None``: every environment, as
      ``async_reset``) and receives, returning ``(obs, info)``: with ``batch_size ==
      num_envs`` and nothing else in flight, the environments named, in that order; else the
      first ``batch_size`` results to finish (EnvPool's). The other environments are left as
      they are.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    render_mode = None

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        batch_size: int | None = None,
        num_threads: int | None = None,
        seed: int = 42,
        core_module: str = "rlrs._core",
        **params: Any,
    ) -> None:
        if not isinstance(env_id, str):
            raise TypeError(f"env_id must be a str, not {env_id!r}")
        seed = checked_seed(seed, "seed")
        num_envs = int(num_envs)
        batch_size = num_envs if batch_size is None else int(batch_size)
        if num_threads is None:
            num_threads = max(1, min(batch_size, os.cpu_count() or 1))
        self.env_id = env_id
        self.num_envs = num_envs
        self.batch_size = batch_size
        self.num_threads = int(num_threads)
        self.seed = int(seed)
        if _is_mujoco(env_id, core_module):
            match_numpys_arithmetic(core_module)
        try:
            self._core = core(core_module).AsyncVector(
                env_id, params_json(params), num_envs, batch_size, 0, self.num_threads
            )
        except KeyError as error:
            raise UnknownIdError(*error.args) from None
        self._seed(self.seed)
        self.observation_space = space_from_definition(self._core.observation_space_json())
        self.action_space = space_from_definition(self._core.action_space_json())
        self.single_observation_space = self.observation_space
        self.single_action_space = self.action_space
        self.config = {
            "num_envs": num_envs,
            "batch_size": batch_size,
            "num_threads": self.num_threads,
            "seed": self.seed,
            "max_num_players": 1,
        }
        self.all_env_ids = np.arange(num_envs, dtype=np.int32)
        space = self.observation_space
        if isinstance(space, spaces.Box) and int(np.prod(space.shape)) == self._core.flat_dim:
            shape = space.shape

            def observations(rows: np.ndarray) -> np.ndarray:
                batch = rows.reshape((len(rows), *shape))
                return batch if batch.dtype == space.dtype else batch.astype(space.dtype)

            self._observations = observations
        else:
            # Any other space: the flat rows read back into Gymnasium's batch.
            self._observations = _unflattener(space)
        action_space = self.action_space
        if isinstance(action_space, spaces.Discrete):
            self._send = self._send_discrete
        elif isinstance(action_space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
            self._send = self._core.send_array
        else:
            self._send = lambda actions, ids: self._core.send_elements(list(actions), ids)
        self._info_layout = _InfoLayout(json.loads(core(core_module).settings(env_id) or "{}"))

    @property
    def is_async(self) -> bool:
        """Whether ``recv`` returns fewer environments than there are (EnvPool's)."""
        return self.batch_size != self.num_envs

    @property
    def is_vector_env(self) -> bool:
        """Always true (EnvPool's flag for wrappers written for older Gymnasium)."""
        return True

    def __len__(self) -> int:
        return self.num_envs

    def _send_discrete(self, actions: Any, ids: np.ndarray) -> None:
        array = np.asarray(actions)
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"the actions {actions!r} are not integers of {self.action_space}, one per "
                "environment id"
            )
        if array.ndim != 1:
            raise ValueError(
                f"the actions have shape {array.shape}; expected ({len(ids)},): one integer "
                "per environment id"
            )
        self._core.send_discrete(array.astype(np.int64), ids)

    def _ids(self, env_id: Any) -> np.ndarray:
        """``env_id`` as the int64 array the core takes (``None``: every environment)."""
        if env_id is None:
            return self.all_env_ids.astype(np.int64)
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim == 1 and ids.size == 0:
            return ids.astype(np.int64)  # nothing to send
        if ids.dtype == np.bool_ or not np.issubdtype(ids.dtype, np.integer) or ids.ndim != 1:
            raise ValueError(
                f"env_id must be an integer or a one-dimensional array of integers, not {env_id!r}"
            )
        if ids.dtype == np.uint64 and int(ids.max()) > np.iinfo(np.int64).max:
            # A cast would wrap it to a negative number, and the error would name that.
            raise ValueError(
                f"environment id {int(ids.max())} is out of range: the vector has "
                f"{self.num_envs} environments"
            )
        return ids.astype(np.int64)

    def send(self, action: Any, env_id: Any = None) -> None:
        """Hands one action per id of ``env_id`` (``None``: every environment) to the workers
        and returns at once. A ``ValueError`` for an id out of range, an environment whose
        last result was not received yet, a count or an action that does not fit; nothing
        is sent then."""
        ids = self._ids(env_id)
        if isinstance(action, np.ndarray) and not action.flags.aligned:
            action = np.require(action, requirements="A")
        self._send(action, ids)

    def recv(self, reset: bool = False, return_info: bool = True) -> tuple:
        """Waits for ``batch_size`` environments to finish and returns ``(obs, rew,
        terminated, truncated, info)`` for them (see the class's documentation); ``(obs,
        info)`` with ``reset=True`` (EnvPool's; ``return_info`` is taken and ignored, as
        EnvPool's Gymnasium pools do)."""
        del return_info
        return self._received(self._core.recv(), reset)

    def _received(self, received: tuple, reset: bool) -> tuple:
        """The results of a core ``recv`` or ``reset`` as EnvPool returns them."""
        rows, rewards, terminated, truncated, ids, elapsed, has_infos = received
        info: dict[str, Any] = {
            "env_id": ids,
            "players": {"env_id": ids.copy()},
            "elapsed_step": elapsed,
        }
        if has_infos:
            info = self._with_infos(info, len(ids))
        observations = self._observations(rows)
        if reset:
            return observations, info
        return observations, rewards, terminated, truncated, info

    def _with_infos(self, info: dict[str, Any], count: int) -> dict[str, Any]:
        """``info`` with the last ``recv``'s infos, ``info[key]`` over the batch and
        ``info["_key"]`` its mask (Gymnasium's vector layout)."""
        # Values that are not all booleans and numbers (Humanoid's arrays) take Gymnasium's own
        # _add_info, over a batch of `count` rows.
        return self._info_layout.add(
            info, self._core.info_columns(), self._core.infos, _InfoBatch(count)._add_info
        )

    def async_reset(self, env_id: Any = None) -> None:
        """Resets every environment: their first observations are the next results of
        ``recv`` (results not received yet are discarded, after the steps running end).
        With ``env_id`` (an int or an integer array; not in EnvPool, whose ``reset(env_id)``
        receives at once), resets those environments only and returns at once, leaving the
        others as they are; a ``ValueError``, with nothing reset, for an id out of range or an
        environment whose last result was not received yet."""
        if env_id is None:
            self._core.async_reset()
        else:
            self._core.send_reset(self._ids(env_id))

    def step(
        self, action: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``send(action, env_id)`` then ``recv()``."""
        self.send(action, env_id)
        return self.recv()

    def reset(
        self,
        env_id: Any = None,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Resets the environments ``env_id`` (an int or an integer array), or those whose
        entry of ``options["reset_mask"]`` is true, or every environment (both ``None``), and
        receives: ``(obs, info)`` (see the class's documentation). ``seed``: environment
        ``i`` is reseeded with ``seed + i`` first (every environment reset only). A
        ``ValueError``, with nothing reset, for both ``env_id`` and a mask, another option,
        a mask that is not ``num_envs`` booleans with one true, ``seed`` with some
        environments or negative (a ``TypeError`` if not an integer), and as ``send`` refuses
        ids."""
        mask_ids = self._ids_of_reset_mask(options)
        if env_id is not None and mask_ids is not None:
            raise ValueError("pass either env_id or options['reset_mask'], not both")
        ids = mask_ids if env_id is None else self._ids(env_id)
        if seed is not None:
            if ids is not None:
                raise ValueError(
                    "reset(seed=...) reseeds every environment: reset them all (env_id=None, "
                    "no reset_mask) or leave the seed out"
                )
            self._seed(checked_seed(seed, "seed"))
        if ids is None:
            self.async_reset()
            return self.recv(reset=True)
        return self._received(self._core.reset(ids), reset=True)

    def _seed(self, seed: int) -> None:
        """Reseeds environment ``i`` with ``seed + i`` (a non-negative integer of any size)."""
        if seed < 2**64:
            self._core.seed(seed)
        else:
            self._core.seed_words(seed_words(seed))

    def _ids_of_reset_mask(self, options: dict[str, Any] | None) -> np.ndarray | None:
        """The ids that ``options["reset_mask"]`` names (``None`` without one), as EnvPool and
        Gymnasium take it."""
        if options is None:
            return None
        unknown = set(options) - {"reset_mask"}
        if unknown:
            raise ValueError(f"unsupported reset options: {sorted(unknown)}; only reset_mask")
        mask = options.get("reset_mask")
        if mask is None:
            return None
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(
                f"reset_mask must be {self.num_envs} booleans, shape ({self.num_envs},), not "
                f"{mask.dtype} of shape {mask.shape}"
            )
        if not mask.any():
            raise ValueError("reset_mask must select at least one environment")
        return np.flatnonzero(mask).astype(np.int64)

    def close(self, **kwargs: Any) -> None:
        """Stops the worker threads and drops the environments; later calls raise
        ``RuntimeError``. Takes and ignores Gymnasium's ``close`` keywords."""
        del kwargs
        self._core.close()
        self.closed = True

    def __enter__(self) -> EnvPool:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        settings = ", ".join(f"{key}={value!r}" for key, value in self.config.items())
        return f"EnvPool({self.env_id!r}, {settings})"


def make_pool(
    env_id: str,
    num_envs: int = 1,
    batch_size: int | None = None,
    num_threads: int | None = None,
    seed: int = 42,
    **params: Any,
) -> EnvPool:
    """EnvPool's ``envpool.make(env_id, env_type="gymnasium", num_envs=..., batch_size=...,
    num_threads=..., seed=...)`` on rlrs's id ``env_id`` (``"Hopper-v5"`` or
    ``"rlrs/Hopper-v5"``), with the id's keyword parameters: an :class:`EnvPool`.
    ``batch_size`` defaults to ``num_envs`` (synchronous), ``num_threads`` to
    ``min(batch_size, os.cpu_count())``, ``seed`` to 42 (EnvPool's)."""
    if isinstance(env_id, str) and env_id.startswith("rlrs/"):
        env_id = env_id[len("rlrs/") :]
    return EnvPool(env_id, num_envs, batch_size, num_threads, seed, **params)
