"""``EnvPool``: EnvPool's asynchronous API (``send``/``recv``) on rlrs's environments.

``rlrs.make_pool(id, num_envs=N, batch_size=B, num_threads=T, seed=S)`` takes EnvPool's
arguments (``envpool.make(id, env_type="gymnasium", num_envs=N, batch_size=B,
num_threads=T, seed=S)``) and gives an object with EnvPool 1.2.5's methods: ``async_reset()``,
``send(action, env_id=None)``, ``recv()``, ``step(action, env_id=None)`` (``send`` then
``recv``) and ``reset()``. Each environment is stepped on its own by whichever of the
``num_threads`` worker threads is free, so that an environment whose step is slow holds up no
other: ``recv`` returns the first ``batch_size`` environments to finish, with their ids in
``info["env_id"]``. With ``batch_size == num_envs`` (the default) it is a synchronous vector:
``step(action)`` steps every environment and returns them in the order sent.

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

Where it differs from EnvPool: rewards are ``float64`` (EnvPool's ``float32``), as
Gymnasium's vectors give them; ``info`` holds ``env_id`` and the environments' own infos laid out as Gymnasium's
vectors lay them out (``info[key]`` over the batch, ``info["_key"]`` its mask; Humanoid's
arrays as ``(batch_size, *shape)`` arrays), not EnvPool's ``players`` and ``elapsed_step``;
there is no ``render``; ``reset`` resets every environment (``env_id`` other than ``None`` is
refused); sending an environment whose last result was not received yet is a
``ValueError`` (EnvPool leaves it undefined), and ``recv`` with fewer than ``batch_size``
environments in flight a ``RuntimeError`` (it would wait forever).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv

from .env import (
    PYTHON_TYPES,
    UnknownIdError,
    _is_mujoco,
    core,
    info_converters,
    params_json,
    typed_info,
)
from .mujoco import match_numpys_arithmetic
from .spaces import space_from_definition
from .vector import _unflattener

__all__ = ["EnvPool", "make_pool"]


class _InfoBatch:
    """Gymnasium's ``VectorEnv._add_info`` over a batch of ``num_envs`` rows (a ``recv``'s),
    so that infos Rust cannot lay out as columns get Gymnasium's vector layout."""

    _add_info = VectorEnv._add_info

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


class EnvPool:
    """``num_envs`` environments of the id ``env_id`` (with the keyword ``params``), stepped
    asynchronously on ``num_threads`` worker threads, ``batch_size`` results per ``recv``,
    environment ``i`` seeded with ``seed + i`` (see the module's documentation; made by
    :func:`make_pool`).

    - ``observation_space`` and ``action_space`` are one environment's (as EnvPool's);
      ``num_envs``, ``batch_size``, ``num_threads``, ``config``, ``all_env_ids``,
      ``is_async`` and ``len()`` are EnvPool's.
    - ``send(action, env_id=None)``: one action per id of ``env_id`` (an int or an integer
      array; ``None``: every environment, in order); returns at once.
    - ``recv()``: waits, the interpreter released, for ``batch_size`` results and returns
      ``(obs, rew, terminated, truncated, info)``, new arrays of ``batch_size`` rows in the
      order the environments finished (in the order sent when ``batch_size == num_envs``),
      ``info["env_id"]`` their ids (``int32``).
    - ``async_reset()``: resets every environment (after the steps running end; results not
      received are discarded): their first observations are the next results of ``recv``.
    - ``step(action, env_id=None)``: ``send`` then ``recv``; ``reset()``: ``async_reset`` then
      ``recv``, returning ``(obs, info)``.
    """

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
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
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
                env_id, params_json(params), num_envs, batch_size, self.seed, self.num_threads
            )
        except KeyError as error:
            raise UnknownIdError(*error.args) from None
        self.observation_space = space_from_definition(self._core.observation_space_json())
        self.action_space = space_from_definition(self._core.action_space_json())
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
        settings = json.loads(core(core_module).settings(env_id) or "{}")
        self._info_converters = info_converters(settings)
        self._info_dtypes = {
            key: PYTHON_TYPES[kind][1] for key, kind in settings.get("info_types", {}).items()
        }

    @property
    def is_async(self) -> bool:
        """Whether ``recv`` returns fewer environments than there are (EnvPool's)."""
        return self.batch_size != self.num_envs

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

    def recv(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for ``batch_size`` environments to finish and returns ``(obs, rew,
        terminated, truncated, info)`` for them (see the class's documentation)."""
        rows, rewards, terminated, truncated, ids, has_infos = self._core.recv()
        info: dict[str, Any] = {"env_id": ids}
        if has_infos:
            info = self._with_infos(info, len(ids))
        return self._observations(rows), rewards, terminated, truncated, info

    def _with_infos(self, info: dict[str, Any], count: int) -> dict[str, Any]:
        """``info`` with the last ``recv``'s infos, ``info[key]`` over the batch and
        ``info["_key"]`` its mask (Gymnasium's vector layout)."""
        columns = self._core.info_columns()
        if columns is not None:
            for key, (values, mask) in columns.items():
                dtype = self._info_dtypes.get(key)
                if dtype is not None and values.dtype != dtype:
                    values = values.astype(dtype)
                info[key] = values
                info[f"_{key}"] = mask
            return info
        # Values that are not all booleans and numbers (Humanoid's arrays): Gymnasium's own
        # _add_info, over a batch of `count` rows.
        batch = _InfoBatch(count)
        for row, env_info in self._core.infos():
            if self._info_converters:
                env_info = typed_info(env_info, self._info_converters)
            info = batch._add_info(info, env_info, row)
        return info

    def async_reset(self) -> None:
        """Resets every environment: their first observations are the next results of
        ``recv`` (results not received yet are discarded)."""
        self._core.async_reset()

    def step(
        self, action: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``send(action, env_id)`` then ``recv()``."""
        self.send(action, env_id)
        return self.recv()

    def reset(self, env_id: Any = None) -> tuple[Any, dict[str, Any]]:
        """Resets every environment and returns the first ``batch_size`` first observations
        and their ``info`` (``env_id`` must be ``None``: environments reset one by one through
        autoreset)."""
        if env_id is not None:
            raise ValueError(
                "rlrs.EnvPool.reset resets every environment (env_id=None); an environment "
                "resets on its own on the step after its episode ends"
            )
        self.async_reset()
        observations, _, _, _, info = self.recv()
        return observations, info

    def close(self) -> None:
        """Stops the worker threads and drops the environments; later calls raise
        ``RuntimeError``."""
        self._core.close()

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
