"""``RustVectorEnv``: ``num_envs`` environments of a registered id as a
``gymnasium.vector.VectorEnv``, stepped in Rust."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, iterate

from .env import (
    PYTHON_TYPES,
    UnknownIdError,
    _is_minigrid,
    _is_mujoco,
    checked_seed,
    core,
    id_metadata,
    info_converters,
    mask_info,
    params_json,
    seed_words,
    typed_info,
)
from .mujoco import OFFSCREEN_MODES, Frames, match_numpys_arithmetic, split_render_params
from .spaces import observation_converter, space_from_definition

__all__ = ["RustVectorEnv"]

_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


class _InfoLayout:
    """How a vector's infos reach Python in Gymnasium's vector layout (``info[key]`` over the
    batch, ``info["_key"]`` its mask), with the reference's types of the info entries where the
    registration (its ``settings``) names them (Gymnasium's MuJoCo ids): each environment's
    entry converted, and the batch of a key in the dtype SyncVectorEnv's ``_add_info`` gives it
    (float32 for a float32 entry). Shared by ``RustVectorEnv`` and ``EnvPool``."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.converters = info_converters(settings)
        types = settings.get("info_types", {})
        self.dtypes = {key: PYTHON_TYPES[kind][1] for key, kind in types.items()}
        # The keys whose entries are NumPy arrays (``float64[]``): a batch of them is a 2-D
        # array, as ``_add_info`` makes of arrays of one shape. An undeclared list stays a
        # Python list, which ``_add_info`` puts in an object array.
        self.array_keys = {key for key, kind in types.items() if kind.endswith("[]")}

    def add(self, info: dict[str, Any], columns: Any, pairs: Any, add_info: Any) -> dict[str, Any]:
        """``info`` with a call's infos added: its ``columns`` (``{key: (values, mask)}``, the
        core's columns when every value is a boolean, a number, or a list of floats of one
        length for a key declared ``float64[]``), else each ``(row, env_info)`` of ``pairs()``
        through ``add_info`` (Gymnasium's ``_add_info``)."""
        if columns is not None and all(
            values.ndim == 1 or key in self.array_keys for key, (values, _) in columns.items()
        ):
            for key, (values, mask) in columns.items():
                dtype = self.dtypes.get(key)
                if dtype is not None and values.dtype != dtype:
                    values = values.astype(dtype)
                info[key] = values
                info[f"_{key}"] = mask
            return info
        for row, env_info in pairs():
            if self.converters:
                env_info = typed_info(env_info, self.converters)
            info = add_info(info, env_info, row)
        return info


def _unflattener(space: spaces.Space):
    """A function from the vector's flat rows (``(n, flatdim)``, float32, laid out as
    ``gymnasium.spaces.flatten`` lays out one element) to the batch Gymnasium's
    ``batch_space(space, n)`` describes: integers for Discrete and MultiDiscrete (the one-hot
    parts read back), int8 for MultiBinary, the Box's dtype and shape, a tuple of ``n``
    strings for Text (MiniGrid's mission), tuples and dicts of batches for Tuple and Dict.
    Vectorised over the rows; every call makes new arrays."""
    if isinstance(space, spaces.Discrete):
        start = int(space.start)
        return lambda rows: np.argmax(rows, axis=1).astype(space.dtype) + start
    if isinstance(space, spaces.MultiDiscrete):
        widths = space.nvec.ravel().tolist()
        starts = space.start.ravel().tolist()
        offsets = np.concatenate([[0], np.cumsum(widths)]).tolist()

        def multi_discrete(rows):
            columns = [
                np.argmax(rows[:, offsets[j] : offsets[j + 1]], axis=1) + starts[j]
                for j in range(len(widths))
            ]
            batch = np.stack(columns, axis=1) if columns else np.zeros((len(rows), 0))
            return batch.reshape((len(rows), *space.shape)).astype(space.dtype)

        return multi_discrete
    if isinstance(space, spaces.MultiBinary):
        return lambda rows: rows.reshape((len(rows), *space.shape)).astype(space.dtype)
    if isinstance(space, spaces.Box):
        return lambda rows: rows.reshape((len(rows), *space.shape)).astype(space.dtype)
    if isinstance(space, spaces.Text):
        # Each row holds the characters' indices in the charset, padded with its length (the
        # flat layout of a Text): one lookup into a table of one-character strings, whose
        # rows numpy reads as strings of max_length characters (the padding, NULs, dropped),
        # so no Python loop runs per character.
        width = space.max_length
        table = np.array(list(space.character_list) + ["\0"], dtype="<U1")

        def text(rows):
            if width == 0:
                return ("",) * len(rows)
            indices = np.clip(rows, 0, len(table) - 1).astype(np.intp)
            strings = np.ascontiguousarray(table[indices]).view(f"<U{width}")[:, 0]
            return tuple(strings.tolist())

        return text
    if isinstance(space, (spaces.Tuple, spaces.Dict)):
        parts = list(space.spaces.items()) if isinstance(space, spaces.Dict) else list(
            enumerate(space.spaces)
        )
        readers, offset = [], 0
        for key, part in parts:
            width = spaces.flatdim(part)
            readers.append((key, offset, offset + width, _unflattener(part)))
            offset += width
        if isinstance(space, spaces.Dict):
            return lambda rows: {key: read(rows[:, a:b]) for key, a, b, read in readers}
        return lambda rows: tuple(read(rows[:, a:b]) for _, a, b, read in readers)
    raise NotImplementedError(f"the Rust vector cannot batch observations of {space}")


class _TextColumn:
    """A Text column's strings from its character indices (``(n, max_length)`` integers, the
    charset's length past the end of a string) to Gymnasium's batch of a Text: a tuple of
    ``n`` strings. One lookup into a table of one-character strings, whose rows numpy reads
    as strings of ``max_length`` characters (the padding, NULs, dropped), so no Python loop
    runs per character.

    ``latest`` keeps the last batch it gave: a mission changes only when its environment
    resets, so a step rebuilds the strings of the rows whose indices changed, and gives the
    same tuple again when none did (BabyAI-BossLevel's 1024 missions of up to 321 characters
    took about a third of a vector step when rebuilt every step)."""

    def __init__(self, charset: str, width: int) -> None:
        self._table = np.array(list(charset) + ["\0"], dtype="<U1")
        self._width = width
        self._indices = None
        self._strings = ()

    def strings(self, indices: np.ndarray) -> tuple:
        """The strings of ``indices``, all rebuilt."""
        if self._width == 0:
            return ("",) * len(indices)
        indices = np.clip(indices, 0, len(self._table) - 1).astype(np.intp)
        strings = np.ascontiguousarray(self._table[indices]).view(f"<U{self._width}")[:, 0]
        return tuple(strings.tolist())

    def latest(self, indices: np.ndarray) -> tuple:
        """The strings of ``indices``, the column the vector writes on every call: only the
        rows that changed since the last call are rebuilt."""
        if self._indices is None or self._indices.shape != indices.shape:
            self._strings = self.strings(indices)
            self._indices = indices.copy()
            return self._strings
        changed = np.flatnonzero((indices != self._indices).any(axis=1))
        if len(changed) == 0:
            return self._strings
        strings = list(self._strings)
        for row, string in zip(changed.tolist(), self.strings(indices[changed])):
            strings[row] = string
        self._indices[changed] = indices[changed]
        self._strings = tuple(strings)
        return self._strings


def _assemble(space: spaces.Space, leaves: dict, path: tuple = ()) -> Any:
    """The batch of ``space`` whose leaf at each path (Dict keys and Tuple indices from the
    root) is ``leaves[path]``: dicts and tuples of the leaves' batches, as Gymnasium batches
    them."""
    if isinstance(space, spaces.Dict):
        return {key: _assemble(part, leaves, path + (key,)) for key, part in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_assemble(part, leaves, path + (i,)) for i, part in enumerate(space.spaces))
    return leaves[path]


class _Columns:
    """The observations of a vector whose rows are in the batched layout (``Vector.columns``):
    each leaf a typed array the Rust vector writes on every call (integers for Discrete and
    MultiDiscrete, int8 for MultiBinary, the Box's dtype, so that nothing is converted per
    step but a Text's strings), assembled into Gymnasium's batch of ``space``."""

    def __init__(self, space: spaces.Space, columns: list, rows: np.ndarray) -> None:
        self._space = space
        self._columns = columns
        self._texts = {}
        # Each leaf's array: its typed array, or for a Box of the rows' dtype (``array`` is
        # None: MuJoCo's float64 rows, MiniGrid's image in uint8 rows) the view of its part of
        # the rows, made once (the rows are rewritten in place by every call).
        self._arrays = {}
        for column in columns:
            path = tuple(column["path"])
            if column["charset"] is not None:
                self._texts[path] = _TextColumn(column["charset"], column["width"])
            array = column["array"]
            if array is None:
                start = column["offset"]
                array = rows[:, start : start + column["width"]].reshape(
                    (len(rows), *column["shape"])
                )
            self._arrays[path] = array

    def batch(self, copy: bool) -> Any:
        """The observations of the last call: the typed arrays themselves (copies if
        ``copy``)."""
        leaves = {}
        for column in self._columns:
            path = tuple(column["path"])
            array = self._arrays[path]
            if path in self._texts:
                leaves[path] = self._texts[path].latest(array)
            else:
                leaves[path] = array.copy() if copy else array
        return _assemble(self._space, leaves)

    def from_rows(self, rows: np.ndarray) -> Any:
        """The batch of the batched ``rows`` (``(n, width)``), in new arrays."""
        leaves = {}
        for column in self._columns:
            path = tuple(column["path"])
            entries = rows[:, column["offset"] : column["offset"] + column["width"]]
            if path in self._texts:
                leaves[path] = self._texts[path].strings(entries)
                continue
            offsets = column["offsets"]
            if offsets:
                values = entries.astype(np.int64) + np.asarray(offsets, dtype=np.int64)
            else:
                values = entries
            leaves[path] = values.astype(column["dtype"]).reshape((len(rows), *column["shape"]))
        return _assemble(self._space, leaves)


class RustVectorEnv(VectorEnv):
    """``num_envs`` copies of the environment registered under ``env_id`` (with the
    JSON-able ``params``), stepped in lockstep by the Rust vector on ``threads`` threads.

    - ``autoreset_mode``: a ``gymnasium.vector.AutoresetMode`` (or its value), in
      ``metadata["autoreset_mode"]``. With ``SAME_STEP``, a step that ends episodes reports
      them as ``SyncVectorEnv`` does: ``info["final_obs"]``, an object array holding the final
      observation where ``info["_final_obs"]`` is set and ``None`` elsewhere (as one
      environment returns it: a Discrete's as an ``int``, a MiniGrid or BabyAI id's dict with
      minigrid's key order, ``image``, ``direction``, ``mission``), and
      ``info["final_info"]`` (the ended steps' infos, batched) with its mask
      ``info["_final_info"]``.
    - Infos: a domain's step and reset infos (the Rust ``Info`` entries: MuJoCo's
      ``x_position``, ...; a reset's at ``reset`` and, for the environments an autoreset
      restarted, in the step's ``info``, the ended step's in ``final_info`` with
      ``SAME_STEP``) are laid out as
      ``SyncVectorEnv`` lays them out, ``info[key]`` an array over the batch and
      ``info["_key"]`` its mask (Gymnasium's own ``_add_info``); a domain that reports none
      costs nothing. The violations of a domain registered with its constraints are one such
      entry: ``info["violations"]``, an object array holding, for each environment whose step
      violated some, the list of their names (``None`` elsewhere), with its mask
      ``info["_violations"]``: what ``SyncVectorEnv`` makes of ``RustEnv``'s entry. Action
      masks, as ``RustEnv``'s ``info_action_mask`` says (Taxi's by default, any ``Discrete``
      action space's with ``info_action_mask=True``): ``info["action_mask"]``, one ``int8``
      row per environment, and in same-step mode the ended states' in ``final_info``.
    - Observations: as Gymnasium batches them, ``observation_space`` being
      ``batch_space(single_observation_space, num_envs)`` and ``single_observation_space`` the
      environment's: a float32 Box's rows as the vector writes them (views of its buffer with
      ``copy=False``), and a float64 Box's (MuJoCo's) likewise, from float64 rows the Rust
      vector chooses for such a space, so that they are exact; integers for Discrete (``(num_envs,)`` int64) and MultiDiscrete, int8
      for MultiBinary, the Box's dtype (a MiniGrid image stays uint8), tuples and dicts of
      batches for Tuple and Dict, a tuple of strings for Text: typed arrays the Rust vector
      writes from its rows in Gymnasium's batched layout (one entry per Discrete, not a
      one-hot block) on every call, views of its buffer with ``copy=False``, so that nothing
      is converted per step but a Text's strings (integers of a Box above 2^24 lose precision
      in the rows). Where every entry of a row is a byte (MiniGrid's and BabyAI's ids, their
      RGB images included) the rows are uint8, written by the domain as bytes, and a uint8
      Box leaf is a view of its part of the rows (with ``copy=False``, an array that is not
      C-contiguous: its rows are ``flat_dim`` bytes apart).
    - Episode statistics: none by default, as Gymnasium's vectors (wrap it in
      ``gymnasium.wrappers.vector.RecordEpisodeStatistics``, which works on it as on
      ``SyncVectorEnv``); with ``record_episode_statistics=True`` the Rust vector computes
      them itself: on a step that ends episodes, ``info["episode"] = {"r", "l", "t"}`` and
      ``info["_episode"]`` exactly as that wrapper reports them (so do not add the wrapper
      too).
    - ``copy=True`` (Gymnasium's default) returns fresh arrays from ``reset`` and ``step``;
      with ``copy=False`` they are the vector's own buffers, the arrays in ``info`` included,
      overwritten by the next call (no array allocated per step: only the returned tuple and
      the ``info`` dictionaries).
    - ``core_module`` names the Rust core that holds the id (as for ``RustEnv``).
    - Seeding, as ``gymnasium.vector.SyncVectorEnv``: ``reset(seed=s)`` seeds environment ``i``
      with ``s + i``, so that it starts as ``gym.make(env_id).reset(seed=s + i)``;
      ``reset(seed=[s0, None, s2, ...])`` (one entry per environment) reseeds the environments
      whose entry is an integer and continues the others' streams; ``reset()`` continues every
      stream (the first unseeded reset draws a seed from ``np_random``). Seeds are
      non-negative integers of any size, as numpy's ``SeedSequence`` takes them
      (``reset(seed=10**30)`` and ``s + i`` past ``2**64`` are Gymnasium's); anything else
      raises ``TypeError`` or ``ValueError``, with nothing reseeded.
    - ``render_mode="rgb_array"`` (for the ids that draw frames: ``metadata["render_modes"]``):
      ``render()`` returns every environment's current state drawn as an ``(height, width, 3)``
      ``uint8`` frame, in a tuple, as ``SyncVectorEnv``'s ``render`` does. A frame shows the
      state alone: Pendulum's torque arrow, which a single environment draws from its last
      action, is left out.
    - ``reset(seed=..., options={"reset_mask": m})``, as ``SyncVectorEnv``: only the
      environments where the bool array ``m`` (shape ``(num_envs,)``, at least one ``True``)
      is set are reset, reseeded first where ``seed`` gives them a seed; the others keep
      their observations and pending autoresets, and ``info`` holds the reset infos of the
      selected ones, masked by ``m``. Any other option is a ``ValueError``.
    """

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        *,
        threads: int = 1,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        record_episode_statistics: bool = False,
        render_mode: str | None = None,
        info_action_mask: bool | None = None,
        core_module: str = "rlrs._core",
        **params: Any,
    ) -> None:
        if not isinstance(env_id, str):
            raise TypeError(f"env_id must be a str, not {env_id!r}")
        autoreset_mode = AutoresetMode(autoreset_mode)
        self.env_id = env_id
        self.params = dict(params)
        self.num_envs = int(num_envs)
        self.threads = int(threads)
        self.copy = copy
        self.record_episode_statistics = record_episode_statistics
        self._core_module_name = core_module
        # Gymnasium's MuJoCo ids: their rendering keyword arguments are Python's (rlrs.mujoco).
        self._mujoco = _is_mujoco(env_id, core_module)
        if self._mujoco:
            match_numpys_arithmetic(core_module)
        physics, self._render_params = split_render_params(params) if self._mujoco else (params, {})
        self._physics_json = params_json(physics)
        try:
            self._core = core(core_module).Vector(
                env_id, self._physics_json, self.num_envs, 0, _MODES[autoreset_mode], self.threads
            )
        except KeyError as error:
            raise UnknownIdError(*error.args) from None
        if self._mujoco:
            modes = list(OFFSCREEN_MODES)
        else:
            modes = ["rgb_array"] if self._core.frame_size() is not None else []
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode is {render_mode!r}; the vector of {env_id} renders "
                f"{' or '.join(map(repr, modes)) or 'nothing'} (or None)"
            )
        self.render_mode = render_mode
        if self._mujoco:
            fps = int(np.round(1.0 / core(core_module).mujoco_model(env_id, self._physics_json)[2]))
        else:
            fps = id_metadata(core_module, env_id)["render_fps"]
        self.metadata = {
            "autoreset_mode": autoreset_mode,
            "render_modes": modes,
            "render_fps": fps,
        }
        # A MuJoCo id's renderers, one per environment, made on the first render().
        self._frames: list[Any] | None = None
        self._autoreset_mode = autoreset_mode
        # What the registration adds to Gymnasium's infos (Taxi's action mask), as for RustEnv.
        settings = json.loads(core(core_module).settings(env_id) or "{}")
        self._mask_info = mask_info(
            info_action_mask, settings, self._core.action_masks, env_id
        )
        self._info_layout = _InfoLayout(settings)
        observation_space = space_from_definition(self._core.observation_space_json())
        if core_module == "rlrs._core" and (
            _is_minigrid(env_id, core_module) or env_id.startswith("BabyAI-")
        ):
            # minigrid's own MissionSpace for the mission, where minigrid is installed.
            from .minigrid import with_mission_space

            observation_space = with_mission_space(observation_space, env_id, params)
            # A final observation is what one environment returns (SyncVectorEnv hands the
            # environment's own dict on): minigrid's key order, not the space's sorted one.
            from .minigrid import _in_minigrids_order

            self._single_order = _in_minigrids_order
        else:
            self._single_order = None
        self.single_action_space = space_from_definition(self._core.action_space_json())
        self.single_observation_space = observation_space
        # The final observations' types as one environment (RustEnv) returns them: Python ints
        # for Discrete, as Gymnasium's and minigrid's environments give them.
        self._single_convert = observation_converter(observation_space)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._columns = None
        # The rows' dtype: float32, float64 for an observation space with a float64 Box
        # (MuJoCo's), so that every observation is exact, or uint8 where every entry is a
        # byte (MiniGrid's, BabyAI's).
        rows_dtype = self._core.observations.dtype
        if self._core.batched and not (
            isinstance(observation_space, spaces.Box) and observation_space.dtype == rows_dtype
        ):
            # Typed columns written by the Rust vector: Gymnasium's batch with no conversion.
            shape = (self.num_envs, self._core.flat_dim)
            self._batched = None
            self._columns = _Columns(
                observation_space, self._core.columns(), self._core.observations
            )
        elif (
            isinstance(observation_space, spaces.Box)
            and observation_space.dtype == rows_dtype
            and int(np.prod(observation_space.shape)) == self._core.flat_dim
        ):
            # Boxes of the rows' dtype (float32, or float64: MuJoCo's): views of the
            # Rust-written buffers (reshaping a contiguous array makes a view), handed out as
            # they are with copy=False.
            shape = (self.num_envs, *observation_space.shape)
            self._batched = None
        else:
            # Any other space: the flat rows read back into Gymnasium's batch (new arrays).
            shape = (self.num_envs, self._core.flat_dim)
            self._batched = _unflattener(observation_space)
        self._observations = self._core.observations.reshape(shape)
        self._final_observations = self._core.final_observations.reshape(shape)
        self._rewards = self._core.rewards
        self._terminated = self._core.terminated
        self._truncated = self._core.truncated
        self._final_mask = self._core.final_mask
        self._episode_mask = self._core.episode_mask
        self._episode_returns = self._core.episode_returns
        self._episode_lengths = self._core.episode_lengths
        self._episode_times = self._core.episode_times
        action_space = self.single_action_space
        # Each stepping call returns flags: 1 when an episode ended, 2 when final
        # observations were kept. `_convert` turns actions the call refused (a TypeError: a
        # list, another integer dtype) into what it takes.
        self._convert = None
        if isinstance(action_space, spaces.Discrete):
            self._step_actions = self._core.step_discrete
            self._convert = self._discrete_actions
        elif isinstance(action_space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
            self._step_actions = self._core.step_array
        else:
            self._step_actions = lambda actions: self._core.step_elements(
                list(iterate(self.action_space, actions))
            )
        self._seeded = False

    def _discrete_actions(self, actions: Any) -> np.ndarray:
        """``actions`` as the int64 array ``step_discrete`` takes, or a ``ValueError`` naming
        the action space when they are not integers (floats are refused, never truncated)."""
        array = np.asarray(actions)
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"the actions {actions!r} are not integers of {self.single_action_space}, "
                f"one per environment ({self.action_space})"
            )
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"the actions have shape {array.shape}; expected ({self.num_envs},): one "
                f"integer of {self.single_action_space} per environment ({self.action_space})"
            )
        if array.dtype == np.uint64 and array.size and int(array.max()) > np.iinfo(np.int64).max:
            # A cast would wrap these to negative numbers, and the error would name those.
            index = int(np.argmax(array > np.iinfo(np.int64).max))
            raise ValueError(
                f"invalid action {int(array[index])} for environment {index}: not an element "
                f"of the action space {self.single_action_space}"
            )
        return array.astype(np.int64)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _observations_out(self) -> Any:
        """The observations of the last call, in Gymnasium's batch layout."""
        if self._columns is not None:
            return self._columns.batch(self.copy)
        if self._batched is not None:
            return self._batched(self._observations)
        return self._out(self._observations)

    def _final_observation(self, i: int) -> Any:
        """Environment ``i``'s final observation, as one environment returns it (what
        ``SyncVectorEnv`` puts in ``info["final_obs"]``): the element's types as ``RustEnv``
        gives them (an ``int`` for a Discrete) and, for MiniGrid's and BabyAI's ids, the keys
        in minigrid's order (``image``, ``direction``, ``mission``) and the direction's type
        minigrid's (an ``np.int64`` where the resets draw it)."""
        if self._columns is not None:
            final = _first(self._columns.from_rows(self._final_observations[i : i + 1]))
        elif self._batched is None:
            final = self._final_observations[i].copy()
        else:
            final = _first(self._batched(self._final_observations[i : i + 1]))
        if self._single_convert is not None:
            final = self._single_convert(final)
        if self._single_order is not None:
            # The direction an np.int64 where the environment's resets draw it, as minigrid's.
            drawn = core(self._core_module_name).minigrid_vector_direction_drawn(self._core, i)
            final = self._single_order(final, np.int64 if drawn else int)
        return final

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        reset_mask = None
        if options:
            options = dict(options)
            if "reset_mask" in options:
                reset_mask = self._checked_reset_mask(options.pop("reset_mask"))
            if options:
                raise ValueError(
                    "RustVectorEnv.reset takes no options but 'reset_mask', got "
                    f"{sorted(options)!r}"
                )
        if reset_mask is not None:
            return self._reset_selected(seed, reset_mask)
        seed = self._checked_seeds(seed)
        if seed is None:
            super().reset()
            if not self._seeded:
                self._seed_from_np_random()
        elif isinstance(seed, int):
            super().reset(seed=seed)
            if seed < 2**64:
                self._core.seed(seed)
            else:
                self._core.seed_words(seed_words(seed))
            self._seeded = True
        else:
            super().reset()
            if not self._seeded and None in seed:
                self._seed_from_np_random()
            self._seed_each(seed)
            self._seeded = True
        flags = self._core.reset()
        info: dict[str, Any] = {}
        if flags & 4:
            # The domain's reset infos (MuJoCo's x_position, ...), as SyncVectorEnv lays
            # them out.
            info = self._with_infos(info, final=False)
        if self._mask_info:
            masks = self._core.action_masks()
            if masks is not None:
                info["action_mask"] = masks
                info["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        return self._observations_out(), info

    def _seed_each(self, seeds: list[int | None]) -> None:
        """Reseeds environment ``i`` with ``seeds[i]`` where it is an integer (of any size)."""
        self._core.seed_each([None if s is None else seed_words(s) for s in seeds])

    def _checked_seeds(self, seed: Any) -> int | list[int | None] | None:
        """``reset``'s ``seed`` checked before anything is reseeded: ``None``, a non-negative
        integer, or one entry per environment (``None`` or such an integer); a ``TypeError``
        or ``ValueError`` naming the entry otherwise."""
        if seed is None:
            return None
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return checked_seed(seed, "seed")
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"seed has {len(seed)} entries; the vector has {self.num_envs} "
                    "environments (one seed or None each)"
                )
            return [
                None if entry is None else checked_seed(entry, f"seed[{i}]")
                for i, entry in enumerate(seed)
            ]
        raise TypeError(
            f"seed must be None, an integer or a list of integers or None, not {seed!r}"
        )

    def _checked_reset_mask(self, reset_mask: Any) -> np.ndarray:
        """``options["reset_mask"]`` checked as ``SyncVectorEnv`` checks it (the same
        exception types): a bool array of shape ``(num_envs,)`` with at least one ``True``."""
        if not isinstance(reset_mask, np.ndarray):
            raise TypeError(
                f"`options['reset_mask']` must be a numpy array, got {type(reset_mask)}"
            )
        if reset_mask.shape != (self.num_envs,):
            raise ValueError(
                f"`options['reset_mask']` must have shape `({self.num_envs},)`, "
                f"got {reset_mask.shape}"
            )
        if reset_mask.dtype != np.bool_:
            raise TypeError(
                f"`options['reset_mask']` must have `dtype=np.bool_`, got {reset_mask.dtype}"
            )
        if not reset_mask.any():
            raise ValueError(
                "`options['reset_mask']` must contain a boolean array with at least one True "
                f"value, got reset_mask={reset_mask}"
            )
        return reset_mask.copy()

    def _reset_selected(
        self, seed: int | list[int | None] | None, reset_mask: np.ndarray
    ) -> tuple[Any, dict[str, Any]]:
        """``reset(seed=seed, options={"reset_mask": reset_mask})`` as ``SyncVectorEnv`` does
        it: only the selected environments are reset (reseeded first where ``seed`` gives
        them a seed: ``seed + i`` for an integer, entry ``i`` of a list), the others keep
        their observations and pending autoresets; ``info`` holds the selected
        environments' reset infos, masked by ``reset_mask``."""
        seed = self._checked_seeds(seed)
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = seed
        selected_seeds = [s if m else None for s, m in zip(seeds, reset_mask)]
        if any(s is not None for s in selected_seeds):
            self._seed_each(selected_seeds)
        flags = self._core.reset_selected(reset_mask.tolist())
        info: dict[str, Any] = {}
        if flags & 4:
            # The selected environments' reset infos (the others' are their last step's).
            info = self._with_infos(info, final=False, selected=reset_mask.tolist())
        if self._mask_info:
            masks = self._core.action_masks()
            if masks is not None:
                masks = masks.copy()
                masks[~reset_mask] = 0
                info["action_mask"] = masks
                info["_action_mask"] = reset_mask.copy()
        return self._observations_out(), info

    def _with_action_masks(self, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` with every environment's action mask of its current state, where the infos
        carry it (Taxi's, as Gymnasium's). The reset infos (the toy text's ``{"prob": 1}``)
        come from the Rust vector with the step's infos, merged as ``SyncVectorEnv`` merges
        them."""
        masks = self._core.action_masks()
        if masks is not None:
            info["action_mask"] = masks
            info["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        return info

    def _with_infos(
        self, info: dict[str, Any], final: bool, selected: list[bool] | None = None
    ) -> dict[str, Any]:
        """``info`` with the last call's infos (or final infos) added in Gymnasium's layout
        (with ``selected``, the infos of the selected environments only)."""
        return self._info_layout.add(
            info,
            self._core.info_columns(final, selected),
            lambda: self._core.final_infos() if final else self._core.infos(selected),
            self._add_info,
        )

    def _seed_from_np_random(self) -> None:
        """Seeds the environments from a seed drawn from ``np_random`` (seeded from entropy
        unless a seed was given), as Gymnasium's environments start from entropy."""
        self._core.seed(int(self.np_random.integers(0, 2**63 - 1)))
        self._seeded = True

    def reset_ended(self) -> np.ndarray:
        """Resets the environments whose episode ended (``AutoresetMode.DISABLED``) and
        returns the observations."""
        self._core.reset_ended()
        return self._observations_out()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if type(actions) is np.ndarray and not actions.flags.aligned:
            # Reading an unaligned array in Rust panics: an aligned copy first.
            actions = np.require(actions, requirements="A")
        try:
            flags = self._step_actions(actions)
        except TypeError:
            if self._convert is None:
                raise
            flags = self._step_actions(self._convert(actions))
        info: dict[str, Any] = {}
        if flags:
            # The buffers themselves, copied at the end if copy=True (with copy=False, no call
            # per array).
            if flags & 1 and self.record_episode_statistics:
                # The Rust buffers already hold 0 where no episode ended, and the times
                # rounded to microseconds, as RecordEpisodeStatistics reports them.
                info["episode"] = {
                    "r": self._episode_returns,
                    "l": self._episode_lengths,
                    "t": self._episode_times,
                }
                info["_episode"] = self._episode_mask
            if self.copy:
                info = _copied(info)
            if flags & 4:
                # The domain's infos, laid out as SyncVectorEnv lays them out (info[key] an
                # array over the batch, info["_key"] its mask): as columns built in Rust when
                # they are booleans and numbers, else by Gymnasium's own _add_info.
                info = self._with_infos(info, final=False)
            if flags & 2:
                # SyncVectorEnv's layout: an object array of the final observations (a new
                # array each, None where no episode ended) and the final infos with their mask.
                mask = self._final_mask.copy()
                finals = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(mask):
                    finals[i] = self._final_observation(i)
                info["final_obs"] = finals
                info["_final_obs"] = mask
                final_info: dict[str, Any] = {}
                if flags & 4:
                    final_info = self._with_infos(final_info, final=True)
                if self._mask_info:
                    # The masks of the states the episodes ended in, kept by the Rust vector
                    # before its autoreset replaced them (Taxi's final_info["action_mask"]).
                    masks = self._core.final_action_masks()
                    if masks is not None:
                        final_info["action_mask"] = masks
                        final_info["_action_mask"] = mask.copy()
                info["final_info"] = final_info
                info["_final_info"] = mask.copy()
        if self._mask_info:
            info = self._with_action_masks(info)
        if self.copy:
            return (
                self._observations_out(),
                self._rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                info,
            )
        return self._observations_out(), self._rewards, self._terminated, self._truncated, info

    def action_masks(self) -> np.ndarray | None:
        """The actions applicable in each environment's current state, for a ``Discrete``
        action space: an ``int8`` array of shape ``(num_envs, n)``, row ``i`` what
        ``RustEnv.action_mask()`` gives for environment ``i`` (1 where the domain declares the
        action applicable); ``None`` for another action space. A new array on every call."""
        return self._core.action_masks()

    def render(self) -> tuple[np.ndarray, ...] | None:
        """With ``render_mode="rgb_array"``, every environment's current state as an
        ``(height, width, 3)`` ``uint8`` frame, in a tuple (``SyncVectorEnv``'s ``render``);
        ``None`` with no render mode."""
        if self.render_mode is None:
            return None
        if self._mujoco:
            return self._mujoco_frames()
        return tuple(self._core.render_rgb())

    def _mujoco_frames(self) -> tuple[Any, ...]:
        """Each environment's frame of a MuJoCo id, drawn as ``rlrs.mujoco.MujocoEnv`` draws
        it (Gymnasium's renderer, one per environment); a ``RuntimeError`` before the first
        reset."""
        module = core(self._core_module_name)
        if self._frames is None:
            self._frames = [
                Frames(self.env_id, self._physics_json, self._render_params, self._core_module_name)
                for _ in range(self.num_envs)
            ]
        frames = []
        for i, drawer in enumerate(self._frames):
            frame = drawer.render(
                self.render_mode, lambda data, i=i: module.mujoco_copy_vector_state(self._core, i, data)
            )
            if frame is None:
                raise RuntimeError(f"environment {i} has no state yet: call reset() first")
            frames.append(frame)
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        for drawer in self.__dict__.get("_frames") or []:
            drawer.close()
        # Drops the Rust environments and stops their threads at once, whatever still refers
        # to the core (the bound stepping method does); later calls raise RuntimeError.
        self._core.close()

    def __reduce_ex__(self, protocol: Any) -> Any:
        # copy.deepcopy and pickle: refused plainly (single environments copy, RustEnv).
        raise TypeError(
            f"a RustVectorEnv ({self.env_id}) cannot be copied or pickled; single environments "
            "(rlrs.RustEnv, gym.make) can: copy those, or make a new vector"
        )


def _first(batch: Any) -> Any:
    """The first element of a batch in Gymnasium's layout (arrays, tuples and dicts of them)."""
    if isinstance(batch, dict):
        return {key: _first(value) for key, value in batch.items()}
    if isinstance(batch, tuple) and not (batch and isinstance(batch[0], str)):
        return tuple(_first(value) for value in batch)
    # An array, or a Text's batch: a tuple of strings.
    return batch[0]


def _copied(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with every array copied (nested dicts too)."""
    return {
        key: _copied(value) if isinstance(value, dict) else value.copy()
        for key, value in info.items()
    }
