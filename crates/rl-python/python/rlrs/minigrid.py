"""``MiniGridEnv``: a MiniGrid id's environment with minigrid's attributes, so that minigrid's
own wrappers (``minigrid.wrappers``) and code that reaches into ``env.unwrapped`` work on
``rlrs/MiniGrid-*`` ids as on minigrid's.

Every attribute is read from the Rust state when asked for, and kept until the next
``reset`` or ``step``: stepping costs nothing more than ``RustEnv``'s step unless an attribute
is read. The attributes:

- fixed: ``width``, ``height``, ``agent_view_size``, ``see_through_walls``, ``max_steps``,
  ``actions`` (minigrid's ``Actions``), ``highlight``, ``tile_size``, ``agent_pov`` and
  ``screen_size`` (minigrid's rendering settings, which ``render()`` follows; assignable);
- the state: ``agent_pos`` (a tuple of two ints), ``agent_dir``, ``step_count``, ``mission``,
  ``carrying`` and ``grid`` (minigrid's own ``Grid`` holding minigrid's own objects, decoded
  from the Rust cells, so that its ``encode``, ``get``, ``slice``, ``render`` and the
  ``isinstance`` checks of the wrappers are minigrid's), ``dir_vec``, ``right_vec``,
  ``front_pos``;
- methods: ``get_frame``, ``get_full_render`` and ``get_pov_render`` (drawn by the Rust tile
  renderer, pixel for pixel minigrid's), ``gen_obs_grid`` (the view computed in Rust, as
  minigrid's ``Grid``), ``gen_obs``, ``get_view_exts``, ``get_view_coords``,
  ``relative_coords``, ``in_view``, ``agent_sees`` and ``pprint_grid``;
- ``np_random``: the Rust environment's own generator (what minigrid's ``np_random`` is: the
  generator its grids are drawn from), handed out as a numpy ``Generator`` whose draws the
  next ``step`` or ``reset`` hands back to Rust, so that ``StochasticActionWrapper`` draws as
  on minigrid.

The state and the grid need minigrid itself (its objects and ``Grid``): reading ``grid``,
``carrying``, ``gen_obs_grid`` or ``actions`` without minigrid installed raises
``ImportError``; everything else works without it.

minigrid's keyword arguments are taken flat, as its constructors take them
(``gym.make("rlrs/MiniGrid-DoorKey-8x8-v0", size=6)``, MultiRoom's ``minNumRooms``,
``max_steps``, ``agent_view_size``, ``see_through_walls``, ``highlight``, ``tile_size``,
``agent_pov``, ``screen_size``; ``obstacle_type`` as minigrid's ``Lava`` or ``Wall`` class).

Stepping after a termination continues the episode, as minigrid's does (minigrid has no end
state: the agent stands on the lava, or beside the ball, and walks on), which minigrid's own
``NoDeath`` wrapper relies on: the one place where rlrs follows the reference rather than its
rule that stepping a finished episode is an error. The episode continues from the state the
terminal step left, with its step count, time limit and generator; stepping after a
truncation (the time limit) is still an error, and every other id keeps the rule.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .env import RustEnv, core

__all__ = ["MiniGridEnv", "mission_space", "with_mission_space"]

# minigrid's DIR_TO_VEC.
_DIR_TO_VEC = (
    np.array((1, 0)),
    np.array((0, 1)),
    np.array((-1, 0)),
    np.array((0, -1)),
)


def _minigrid():
    """minigrid's modules the attributes are built from, or an ``ImportError`` saying why."""
    try:
        from minigrid.core import actions, grid, world_object
    except ImportError as error:  # pragma: no cover - the test venv has minigrid
        raise ImportError(
            "this attribute is minigrid's own object (its Grid and world objects): install "
            f"minigrid to read it ({error})"
        ) from error
    return actions, grid, world_object


def _decode(cell: np.ndarray):
    """minigrid's object for the four bytes of a Rust cell (``None`` for an empty cell), a
    box with its contents."""
    world_object = _minigrid()[2]
    kind, color, state, extra = (int(b) for b in cell)
    obj = world_object.WorldObj.decode(kind, color, state)
    contents = extra & 0x7F
    if obj is not None and obj.type == "box" and contents:
        obj.contains = world_object.WorldObj.decode(contents // 8, contents % 8, 0)
    return obj


def _grid(cells: np.ndarray):
    """minigrid's ``Grid`` of the Rust cells ``cells`` (``(height, width, 4)``)."""
    grid_module = _minigrid()[1]
    height, width = cells.shape[:2]
    grid = grid_module.Grid(width, height)
    grid.grid = [_decode(cells[j, i]) for j in range(height) for i in range(width)]
    return grid


# The parameters rlrs takes beyond minigrid's constructors' (not passed to minigrid).
_RLRS_ONLY = frozenset({"image", "image_tile_size", "env"})


def mission_space(env_id: str, params: dict[str, Any] | None = None):
    """minigrid's own ``MissionSpace`` for ``env_id`` built with minigrid's keyword arguments
    among ``params`` (from minigrid's environment, built once per id and arguments), or
    ``None`` when minigrid is not installed, has no such id or refuses the arguments."""
    minigrid_kwargs = {k: v for k, v in (params or {}).items() if k not in _RLRS_ONLY}
    try:
        key = repr(sorted(minigrid_kwargs.items()))
    except TypeError:
        return None
    return _mission_space(env_id, key, minigrid_kwargs)


_MISSION_SPACES: dict[tuple[str, str], Any] = {}


def _mission_space(env_id: str, key: str, kwargs: dict[str, Any]):
    """``mission_space`` cached by id and the ``repr`` of the arguments."""
    if (env_id, key) in _MISSION_SPACES:
        return _MISSION_SPACES[env_id, key]
    space = None
    try:
        import gymnasium as gym
        import minigrid  # noqa: F401  (registers minigrid's ids)

        spec = gym.registry.get(env_id)
        if spec is not None and isinstance(spec.entry_point, str):
            creator = gym.envs.registration.load_env_creator(spec.entry_point)
            env = creator(**{**spec.kwargs, **kwargs})
            space = env.observation_space["mission"]
            env.close()
    except Exception:  # minigrid missing, or refusing arguments rlrs takes: rlrs's own Text
        space = None
    if len(_MISSION_SPACES) >= 256:
        _MISSION_SPACES.clear()
    _MISSION_SPACES[env_id, key] = space
    return space


def with_mission_space(space, env_id: str, params: dict[str, Any]):
    """``space`` (a MiniGrid id's observation ``Dict``) with minigrid's ``MissionSpace`` for
    its mission where minigrid gives one (see ``mission_space``), else as it is."""
    from gymnasium import spaces

    missions = mission_space(env_id, params)
    if missions is None or not isinstance(space, spaces.Dict) or "mission" not in space.spaces:
        return space
    return spaces.Dict({**space.spaces, "mission": missions})


def _in_minigrids_order(observation: dict[str, Any], direction_type: type = int) -> dict[str, Any]:
    """The observation with its keys in minigrid's order (``image``, ``direction``,
    ``mission``; the space's are sorted), the direction of ``direction_type`` (minigrid's
    ``agent_dir`` is a NumPy ``int64`` in the episodes whose reset drew it, else an ``int``)."""
    return {
        "image": observation["image"],
        "direction": direction_type(observation["direction"]),
        "mission": observation["mission"],
    }


def _minigrid_params(params: dict[str, Any]) -> dict[str, Any]:
    """minigrid's keyword arguments as the Rust parameters take them: ``obstacle_type`` as
    minigrid's ``Lava`` or ``Wall`` class becomes ``"lava"`` or ``"wall"``; tuples become
    lists (JSON)."""
    out = {}
    for key, value in params.items():
        if key == "obstacle_type" and isinstance(value, type):
            value = value.__name__.lower()
        if isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


class MiniGridEnv(RustEnv):
    """A MiniGrid id's environment (``RustEnv``) with minigrid's attributes: see the module's
    documentation. ``RustEnv(id)`` and ``gym.make("rlrs/" + id)`` give one for every MiniGrid
    id."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 10}

    def __init__(
        self,
        env_id: str,
        render_mode: str | None = None,
        *,
        info_action_mask: bool | None = None,
        core_module: str = "rlrs._core",
        screen_size: int | None = 640,
        **params: Any,
    ) -> None:
        super().__init__(
            env_id,
            render_mode,
            info_action_mask=info_action_mask,
            core_module=core_module,
            **_minigrid_params(params),
        )
        fixed = self._module.minigrid_domain(self._core)
        self.width: int = fixed["width"]
        self.height: int = fixed["height"]
        self.agent_view_size: int = fixed["agent_view_size"]
        self.see_through_walls: bool = fixed["see_through_walls"]
        self.max_steps: int = fixed["max_steps"]
        self.highlight: bool = fixed["highlight"]
        self.tile_size: int = fixed["tile_size"]
        self.agent_pov: bool = fixed["agent_pov"]
        self.screen_size = screen_size
        self.render_size = None
        self.window = None
        self.clock = None
        self._missions: list[str] = fixed["missions"]
        self._snapshot: tuple | None = None
        self._grid_cache = None
        self._generator: np.random.Generator | None = None
        # Whether the last step terminated the episode (the next one continues it).
        self._terminated = False
        if core_module == "rlrs._core":
            self.metadata = {**self.metadata, "render_fps": 10}
            self.observation_space = with_mission_space(self.observation_space, env_id, params)

    @property
    def _module(self):
        """The Rust core module (looked up, not kept, so that the object holds no module)."""
        return self._core_module

    # --- the state, read from Rust on demand -------------------------------------------------

    def _state(self) -> tuple:
        """The Rust state of this step (cells, x, y, direction, carrying, steps, mission,
        terminated), read once per step."""
        if self._snapshot is None:
            snapshot = self._module.minigrid_state(self._core)
            if snapshot is None:
                raise RuntimeError(
                    f"{self.env_id} has no state yet: call reset() before reading it"
                )
            self._snapshot = snapshot
        return self._snapshot

    def _changed(self) -> None:
        """Forgets what was read of the previous state."""
        self._snapshot = None
        self._grid_cache = None

    @property
    def agent_pos(self) -> tuple[int, int]:
        """The agent's position, ``(x, y)``."""
        state = self._state()
        return (state[1], state[2])

    @property
    def agent_dir(self) -> int:
        """The direction the agent faces (0 right, 1 down, 2 left, 3 up): a NumPy ``int64``
        in the episodes whose reset drew it, else an ``int``, as minigrid's."""
        return self._direction_type()(self._state()[3])

    def _direction_type(self) -> type:
        """``np.int64`` when this episode's reset drew the direction (minigrid's
        ``self._rand_int(0, 4)``), else ``int`` (minigrid's ``agent_dir = 0`` or
        ``agent_start_dir``); turning keeps the type, as minigrid's arithmetic does."""
        return np.int64 if self._module.minigrid_direction_drawn(self._core) else int

    @property
    def step_count(self) -> int:
        """The steps taken in the episode."""
        return self._state()[5]

    @property
    def mission(self) -> str:
        """The mission."""
        return self._missions[self._state()[6]]

    @property
    def carrying(self):
        """The object the agent carries (minigrid's object), or ``None``."""
        carried = self._state()[4]
        return None if carried is None else _decode(np.frombuffer(bytes(carried), dtype=np.uint8))

    @property
    def grid(self):
        """The grid as minigrid's ``Grid`` of minigrid's objects (a new one each step)."""
        if self._grid_cache is None:
            self._grid_cache = _grid(self._state()[0])
        return self._grid_cache

    @property
    def actions(self):
        """minigrid's ``Actions`` enum."""
        return _minigrid()[0].Actions

    @property
    def dir_vec(self) -> np.ndarray:
        """The step forward, minigrid's ``DIR_TO_VEC[agent_dir]``."""
        return _DIR_TO_VEC[self.agent_dir]

    @property
    def right_vec(self) -> np.ndarray:
        """The step to the agent's right."""
        dx, dy = self.dir_vec
        return np.array((-dy, dx))

    @property
    def front_pos(self) -> np.ndarray:
        """The cell in front of the agent (an array, as minigrid's)."""
        return self.agent_pos + self.dir_vec

    @property
    def steps_remaining(self) -> int:
        """The steps left before the time limit."""
        return self.max_steps - self.step_count

    # --- minigrid's methods ------------------------------------------------------------------

    def get_frame(self, highlight: bool = True, tile_size: int = 32, agent_pov: bool = False):
        """minigrid's ``get_frame``: the agent's view (``agent_pov``) or the whole grid drawn
        with ``tile_size`` pixels a cell, by the Rust tile renderer."""
        return self._module.minigrid_frame(
            self._core, int(tile_size), bool(highlight), bool(agent_pov)
        )

    def get_full_render(self, highlight: bool, tile_size: int):
        """minigrid's ``get_full_render``."""
        return self.get_frame(highlight, tile_size, agent_pov=False)

    def get_pov_render(self, tile_size: int):
        """minigrid's ``get_pov_render``."""
        return self.get_frame(True, tile_size, agent_pov=True)

    def gen_obs_grid(self, agent_view_size: int | None = None):
        """minigrid's ``gen_obs_grid``: the agent's view as minigrid's ``Grid`` (the carried
        object at the agent's cell) and the visibility mask, ``(size, size)`` indexed
        ``[column, row]``."""
        size = agent_view_size or self.agent_view_size
        cells, mask = self._module.minigrid_view(self._core, int(size))
        return _grid(cells), np.ascontiguousarray(mask.T)

    def gen_obs(self) -> dict[str, Any]:
        """minigrid's ``gen_obs``: the partial view's encoding, the direction and the
        mission."""
        grid, vis_mask = self.gen_obs_grid()
        return {
            "image": grid.encode(vis_mask),
            "direction": self.agent_dir,
            "mission": self.mission,
        }

    def _borrowed(name: str):  # noqa: N805 - a helper run in the class body
        """minigrid's own method ``name`` of ``MiniGridEnv``, run on this object."""

        def method(self, *args, **kwargs):
            from minigrid.minigrid_env import MiniGridEnv as Reference

            return getattr(Reference, name)(self, *args, **kwargs)

        method.__name__ = name
        method.__doc__ = f"minigrid's ``MiniGridEnv.{name}``, on the Rust state."
        return method

    get_view_exts = _borrowed("get_view_exts")
    get_view_coords = _borrowed("get_view_coords")
    relative_coords = _borrowed("relative_coords")
    in_view = _borrowed("in_view")
    agent_sees = _borrowed("agent_sees")
    pprint_grid = _borrowed("pprint_grid")
    del _borrowed

    # --- the generator -----------------------------------------------------------------------

    @property
    def np_random(self) -> np.random.Generator:
        """The Rust environment's generator as a numpy ``Generator`` (minigrid's
        ``np_random``, the generator of its grids); what is drawn from it is handed back to
        Rust at the next ``step`` or ``reset``."""
        if self._generator is None:
            state, inc, buffered = self._module.generator_state(self._core)
            bit_generator = np.random.PCG64()
            bit_generator.state = {
                "bit_generator": "PCG64",
                "state": {"state": state, "inc": inc},
                "has_uint32": int(buffered is not None),
                "uinteger": 0 if buffered is None else buffered,
            }
            self._generator = np.random.Generator(bit_generator)
        return self._generator

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._generator = value
        self._np_random = value

    def _hand_back_generator(self) -> None:
        """Sets the Rust generator to the numpy one handed out, if any."""
        if self._generator is None:
            return
        state = self._generator.bit_generator.state
        if state.get("bit_generator") != "PCG64":
            raise TypeError(
                f"{self.env_id}'s np_random must be a PCG64 Generator, not "
                f"{state.get('bit_generator')}"
            )
        buffered = state["uinteger"] if state["has_uint32"] else None
        self._module.set_generator_state(
            self._core, state["state"]["state"], state["state"]["inc"], buffered
        )
        self._generator = None

    # --- stepping ----------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            self._hand_back_generator()
            if not self._seeded:
                # RustEnv seeds a first unseeded reset from np_random, which here is the Rust
                # generator itself: seed from entropy instead, as Gymnasium does.
                self._core.seed(int(np.random.default_rng().integers(0, 2**63 - 1)))
                self._seeded = True
        else:
            self._generator = None
        self._changed()
        self._terminated = False
        observation, info = super().reset(seed=seed, options=options)
        return _in_minigrids_order(observation, self._direction_type()), info

    def step(self, action: Any):
        self._hand_back_generator()
        self._changed()
        if self._terminated:
            # minigrid walks on after a termination (NoDeath relies on it): the episode
            # restarts from the state the terminal step left, step count and generator kept.
            state = self.state()
            state["terminated"] = False
            self._core.reset_to_state(json.dumps(state))
            self._terminated = False
        observation, reward, terminated, truncated, info = super().step(action)
        self._terminated = bool(terminated and not truncated)
        return (
            _in_minigrids_order(observation, self._direction_type()),
            reward,
            terminated,
            truncated,
            info,
        )

    def render(self):
        if self.render_mode == "rgb_array":
            if self._module.minigrid_state(self._core) is None:
                return None
            return self.get_frame(self.highlight, self.tile_size, self.agent_pov)
        return super().render()
