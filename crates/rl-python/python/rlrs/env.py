"""``RustEnv``: one environment of a registered id as a ``gymnasium.Env``."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import types
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import EnvSpec

from .spaces import observation_converter, space_from_definition

__all__ = [
    "RustEnv",
    "UnknownIdError",
    "checked_seed",
    "core",
    "gymnasium_render_fps",
    "id_metadata",
    "params_json",
    "seed_words",
]


def core(module: str = "rlrs._core"):
    """The Rust core module named ``module``: ``rlrs._core``, or a domain author's own
    extension module built with ``rl_python::add_to_module`` (whose registry holds their
    domains)."""
    return importlib.import_module(module)


class UnknownIdError(KeyError):
    """An id the Rust core does not know: a ``KeyError`` whose message (the closest id and the
    registered ids by prefix, one per line) prints as written rather than as a ``repr``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# The Python types a registration names for its reference's rewards and info entries
# (rl-core's ``RunSettings::reward_type`` and ``info_types``), as conversions of the JSON
# values' Python forms, with the dtype ``SyncVectorEnv``'s ``_add_info`` gives a batch of them.
PYTHON_TYPES: dict[str, tuple[Any, Any]] = {
    "float64": (np.float64, np.float64),
    "float32": (np.float32, np.float32),
    "float": (float, np.float64),
    "int": (int, np.int64),
    "float64[]": (functools.partial(np.asarray, dtype=np.float64), np.float64),
}


def info_converters(settings: dict[str, Any]) -> dict[str, Any]:
    """The conversion of each info entry whose type the registration names (``info_types``:
    Gymnasium's MuJoCo infos are NumPy scalars and arrays), by key."""
    return {key: PYTHON_TYPES[kind][0] for key, kind in settings.get("info_types", {}).items()}


def typed_info(info: dict[str, Any], converters: dict[str, Any]) -> dict[str, Any]:
    """``info`` with each entry that has a conversion in ``converters`` converted in place."""
    for key, convert in converters.items():
        if key in info:
            info[key] = convert(info[key])
    return info


def mask_info(asked: bool | None, settings: dict[str, Any], masks: Any, env_id: str) -> bool:
    """Whether the infos hold the action mask: as asked (``info_action_mask``), else as the
    id's registration says (Gymnasium's Taxi's). A ``ValueError`` when asked for an id whose
    action space is not ``Discrete`` (``masks()`` gives ``None`` for those)."""
    if asked is None:
        return bool(settings.get("info_action_mask", False))
    if not isinstance(asked, bool):
        raise TypeError(f"info_action_mask must be True, False or None, not {asked!r}")
    if asked and masks() is None:
        raise ValueError(
            f"info_action_mask=True needs a Discrete action space; {env_id}'s is not one"
        )
    return asked


def checked_seed(seed: Any, name: str) -> int:
    """``seed`` as the Rust core takes it: a non-negative integer of any size (numpy's
    ``SeedSequence`` takes any), else ``TypeError`` (not an integer) or ``ValueError``
    (negative), naming ``name``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an integer or None, not {seed!r}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"{name} is {seed}; seeds are non-negative integers (numpy's rule)")
    return seed


def seed_words(seed: int) -> list[int]:
    """The 32-bit words of the non-negative integer ``seed``, least significant first (``[0]``
    for 0): what numpy's ``SeedSequence`` reads from an integer of any size. Linear in the
    integer's size (its bytes read as little-endian 32-bit words)."""
    count = max(1, (seed.bit_length() + 31) // 32)
    return np.frombuffer(seed.to_bytes(4 * count, "little"), dtype="<u4").tolist()


@dataclasses.dataclass(frozen=True)
class _ModuleName:
    """A module in a pickled or copied ``RustEnv``, by name."""

    name: str


# id_metadata's answers, by (core module, id).
_METADATA: dict[tuple[str, str], dict[str, Any]] = {}


def id_metadata(core_module: str, env_id: str) -> dict[str, Any]:
    """The ``metadata`` of ``env_id``'s environments (a new dict each call):
    ``render_modes``, ``"ansi"`` always, ``"human"`` and ``"rgb_array"`` where the core draws
    frames for the id (Gymnasium's MuJoCo modes and ``round(1 / dt)`` for its MuJoCo ids,
    ``rlrs.mujoco``); ``render_fps``, the registration's (its reference's: Gymnasium's or
    minigrid's), else Gymnasium's for an id it registers (``gymnasium_render_fps``), else 50."""
    key = (core_module, env_id)
    if key not in _METADATA and _is_mujoco(env_id, core_module):
        # Gymnasium's MujocoEnv's modes (rlrs.mujoco), and its render_fps, round(1 / dt), of
        # the default parameters.
        from .mujoco import RENDER_MODES

        dt = core(core_module).mujoco_model(env_id, None)[2]
        _METADATA[key] = {"render_modes": [*RENDER_MODES, "ansi"], "render_fps": int(np.round(1.0 / dt))}
    if key not in _METADATA:
        module = core(core_module)
        try:
            frames = module.Environment(env_id, None, 0).frame_size() is not None
        except KeyError as error:
            raise UnknownIdError(*error.args) from None
        fps = json.loads(module.settings(env_id) or "{}").get("render_fps")
        if fps is None:
            fps = gymnasium_render_fps(env_id) if core_module == "rlrs._core" else 50
        _METADATA[key] = {
            "render_modes": ["human", "ansi", "rgb_array"] if frames else ["ansi"],
            "render_fps": int(fps),
        }
    metadata = _METADATA[key]
    return {"render_modes": list(metadata["render_modes"]), "render_fps": metadata["render_fps"]}


def gymnasium_render_fps(env_id: str) -> int:
    """Gymnasium's ``metadata["render_fps"]`` for ``env_id`` if Gymnasium registers an
    environment of that id, else 50."""
    spec = gym.registry.get(env_id)
    if spec is None or not isinstance(spec.entry_point, str):
        return 50
    try:
        creator = gym.envs.registration.load_env_creator(spec.entry_point)
    except Exception:  # an entry point whose module does not import here
        return 50
    return int(getattr(creator, "metadata", {}).get("render_fps", 50))


def params_json(params: dict[str, Any]) -> str | None:
    """The JSON text of keyword parameters (``None`` when there are none); a parameter that
    JSON cannot carry (NaN, an infinity, a value nested too deep, an object) is a
    ``ValueError`` naming it."""
    if not params:
        return None
    for name, value in params.items():
        try:
            json.dumps(value, allow_nan=False)
            if _depth(value) > _MAX_PARAMETER_DEPTH:
                raise ValueError(f"nested deeper than {_MAX_PARAMETER_DEPTH} levels")
        except (ValueError, TypeError, RecursionError) as error:
            raise ValueError(
                f"parameter {name!r} is {repr(value)[:80]}: it cannot be written as JSON ({error})"
            ) from None
    return json.dumps(params, allow_nan=False)


# The Rust JSON reader's nesting limit is 128; parameters are far shallower.
_MAX_PARAMETER_DEPTH = 100


def _depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, (list, tuple)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in item)
    return deepest


@functools.lru_cache(maxsize=256)
def _is_minigrid(env_id: str, core_module: str) -> bool:
    """Whether ``env_id`` is a MiniGrid id of the core ``core_module`` (``False`` for an id it
    does not know: the constructor then says so)."""
    module = core(core_module)
    if not hasattr(module, "is_minigrid"):
        return False
    try:
        return bool(module.is_minigrid(env_id))
    except (KeyError, ValueError):
        return False


@functools.lru_cache(maxsize=256)
def _is_mujoco(env_id: str, core_module: str) -> bool:
    """Whether ``env_id`` is one of Gymnasium's MuJoCo v5 ids in the core ``core_module``,
    whose environments get Gymnasium's MuJoCo rendering (``rlrs.mujoco.MujocoEnv``)."""
    ids = getattr(core(core_module), "mujoco_ids", None)
    return ids is not None and env_id in ids()


class RustEnv(gym.Env):
    """The environment registered in Rust under ``env_id``, with Gymnasium's API.

    ``core_module`` names the Rust core that holds the id (a domain author's own extension
    module, see the README). ``params`` are the domain's JSON-able parameters (``RustEnv("CartPole-v1",
    sutton_barto_reward=True)``); unknown or ill-typed ones raise ``ValueError`` naming them.

    Seeding is Gymnasium's, draw for draw: ``reset(seed=s)`` starts the Rust generator as
    ``np.random.default_rng(s)`` (numpy's ``Generator(PCG64(SeedSequence(s)))``, reimplemented
    bit for bit) and draws the initial state as the Gymnasium environment of the same id does,
    so the trajectory is Gymnasium's; ``reset()`` continues the stream (the first unseeded
    reset draws a seed from ``np_random``, itself seeded from entropy, as Gymnasium starts from
    entropy). Seeds are non-negative integers of any size, as numpy's (``reset(seed=10**30)``
    is Gymnasium's ``reset(seed=10**30)``): a negative or non-integer seed raises Gymnasium's
    own error. The dynamics never use ``np_random``
    (it is seeded with the same seed, for the caller's own draws).

    ``reset(options={"state": state})`` starts the episode in ``state`` (the domain's state as
    JSON-able data, for example ``[x, x_dot, theta, theta_dot]`` for CartPole or
    ``{"row": 0, "col": 1}`` for GridWorld); the built-in domain types support it.

    Render modes: ``"ansi"`` (the domain's text picture of the current state, or the
    observation where the domain draws none) and ``"rgb_array"`` (the current state drawn by
    the Rust core as an ``H x W x 3`` ``uint8`` array, at the size of Gymnasium's frames for
    its ids, e.g. 400 x 600 for CartPole; ``None`` before the first reset; every built-in id
    draws frames, a domain author's id where its registration declares them; the instance's
    ``metadata["render_modes"]`` lists the modes of its id), and, for the ids that draw
    frames, ``"human"``: a pygame window showing those frames after every reset and step at
    ``render_fps`` (``rlrs.human``; needs pygame or pygame-ce).
    ``metadata["render_fps"]`` is the reference's for the ids that mirror one (50 for CartPole,
    30 for MountainCar and Pendulum, 15 for Acrobot, 4 for the toy text, 10 for MiniGrid), 50
    otherwise.

    Infos are the domain's (its Rust ``Info`` entries as Python values). A domain registered
    with its constraints (``Registration::with_constraints``, scikit-decide's constrained
    domains) adds one documented entry on the steps that violate some:
    ``info["violations"]``, the list of the violated constraints' names in the domain's order
    (absent on steps that violate none).

    Action masks: ``action_mask()`` for every id with a ``Discrete`` action space; in every
    info as ``info["action_mask"]`` (``int8``, Gymnasium's Taxi's layout) where the id's
    Gymnasium counterpart puts it there (Taxi), or for any such id with
    ``info_action_mask=True`` (``False`` leaves it out even for Taxi; ``None``, the default,
    follows Gymnasium).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 50}

    def __new__(cls, env_id: Any = None, *args: Any, core_module: str = "rlrs._core", **kwargs: Any):
        # A MiniGrid id gets minigrid's attributes (rlrs.minigrid.MiniGridEnv); Gymnasium's toy
        # text theirs (rlrs.toy_text): RustEnv("FrozenLake-v1") is a FrozenLakeEnv, a RustEnv
        # with FrozenLake's attributes (P, desc, ...).
        if cls is RustEnv and isinstance(env_id, str):
            if _is_minigrid(env_id, core_module):
                from .minigrid import MiniGridEnv

                cls = MiniGridEnv
            elif _is_mujoco(env_id, core_module):
                from .mujoco import MujocoEnv

                cls = MujocoEnv
            else:
                from .toy_text import env_class

                special = env_class(core_module, env_id)
                if special is not None:
                    cls = special
        return super().__new__(cls)

    def __init__(
        self,
        env_id: str,
        render_mode: str | None = None,
        *,
        info_action_mask: bool | None = None,
        core_module: str = "rlrs._core",
        **params: Any,
    ) -> None:
        if not isinstance(env_id, str):
            raise TypeError(f"env_id must be a str, not {env_id!r}")
        self.env_id = env_id
        self.params = dict(params)
        module = core(core_module)
        self._core_module_name = core_module
        self._params_json = params_json(params)
        try:
            self._core = module.Environment(env_id, self._params_json, 0)
        except KeyError as error:
            raise UnknownIdError(*error.args) from None
        self._episode_cap = module.domain_info(env_id, params_json(params))[1]
        # What the registration says the infos hold beyond the step's own (Gymnasium's toy
        # text: a reset's {"prob": 1}, Taxi's action mask in every info).
        settings = json.loads(module.settings(env_id) or "{}")
        self._mask_info = mask_info(info_action_mask, settings, self._core.action_mask, env_id)
        # The reference's types of its info entries and reward, where the registration names
        # them (Gymnasium's MuJoCo ids: NumPy float64 and float32 scalars, float64 arrays).
        self._info_converters = info_converters(settings)
        reward_type = settings.get("reward_type")
        self._reward_converter = None if reward_type is None else PYTHON_TYPES[reward_type][0]
        self.metadata = id_metadata(core_module, env_id)
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode {render_mode!r} is not one of {env_id}'s {modes}")
        self.observation_space = space_from_definition(self._core.observation_space_json())
        self.action_space = space_from_definition(self._core.action_space_json())
        self.render_mode = render_mode
        self._convert = observation_converter(self.observation_space)
        if core_module == "rlrs._core" and env_id.startswith("BabyAI-"):
            # minigrid's BabyAIMissionSpace where minigrid is installed, as for MiniGrid ids.
            from rlrs.minigrid import with_mission_space

            self.observation_space = with_mission_space(self.observation_space, env_id, params)
        self._seeded = False
        self._observation: Any = None
        # minigrid's rewards are int where whole (its 0 and DynamicObstacles' -1; BabyAI's 0),
        # float otherwise (its success reward, between 0.1 and 1).
        self._int_rewards = core_module == "rlrs._core" and env_id.startswith(
            ("MiniGrid-", "BabyAI-")
        )
        # BabyAI's observations as minigrid gives them: keys in its order (image, direction,
        # mission) and the direction an np.int64 where the reset drew it (every level's
        # place_agent), as rlrs.minigrid.MiniGridEnv does for the MiniGrid ids.
        self._babyai = core_module == "rlrs._core" and env_id.startswith("BabyAI-")
        # Gymnasium's Pendulum returns its reward as np.float64 (-costs, computed with numpy).
        self._numpy_rewards = core_module == "rlrs._core" and env_id == "Pendulum-v1"
        # render_mode="human": a pygame window (rlrs.human), shown after every reset and step.
        self._window = None
        if render_mode == "human":
            from .human import Window

            self._window = Window(f"{env_id} (rlrs)", self.metadata["render_fps"])

    @property
    def _core_module(self):
        """The Rust core module of the id."""
        return core(self._core_module_name)

    def __getstate__(self) -> dict[str, Any]:
        # copy.deepcopy and pickle: the Rust environment copies itself (its state, step count
        # and generator: Environment.__deepcopy__, __getstate__); no window is copied.
        state = dict(self.__dict__)
        state["_window"] = None
        state.pop("_convert", None)
        # Modules (a subclass's core module) travel by name.
        for key, value in state.items():
            if isinstance(value, types.ModuleType):
                state[key] = _ModuleName(value.__name__)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            if isinstance(value, _ModuleName):
                state[key] = importlib.import_module(value.name)
        self.__dict__.update(state)
        self._convert = observation_converter(self.observation_space)
        if self.render_mode == "human":
            from .human import Window

            self._window = Window(f"{self.env_id} (rlrs)", self.metadata["render_fps"])

    @property
    def spec(self) -> EnvSpec | None:
        """The spec ``gym.make`` gave, with ``max_episode_steps`` the domain's own episode cap
        (the Rust domain truncates there, so no ``TimeLimit`` wrapper is needed: 500 for
        CartPole-v1, as Gymnasium's), but ``None`` for the MiniGrid ids, as minigrid's (its
        environments truncate at their ``max_steps`` themselves)."""
        spec = self.__dict__.get("_spec")
        # minigrid's ids (MiniGrid and BabyAI) truncate inside: their specs say None.
        if spec is None or self._episode_cap is None or self.env_id.startswith(("MiniGrid-", "BabyAI-")):
            return spec
        return dataclasses.replace(spec, max_episode_steps=self._episode_cap)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        self.__dict__["_spec"] = value

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            seed = checked_seed(seed, "seed")
            if seed < 2**64:
                self._core.seed(seed)
            else:
                self._core.seed_words(seed_words(seed))
            self._seeded = True
        elif not self._seeded:
            self._core.seed(int(self.np_random.integers(0, 2**63 - 1)))
            self._seeded = True
        state = None if options is None else options.get("state")
        if state is not None:
            observation = self._core.reset_to_state(json.dumps(state))
        else:
            observation = self._core.reset()
        if self._convert is not None:
            observation = self._convert(observation)
        if self._babyai:
            observation = self._as_minigrids(observation)
        self._observation = observation
        info = dict(self._core.reset_info())
        if self._info_converters:
            info = typed_info(info, self._info_converters)
        if self._mask_info:
            info["action_mask"] = self._core.action_mask()
        if self._window is not None:
            self._window.show(self._core.render_rgb())
        return observation, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        # The info is the domain's (its JSON entries as Python values; {} for most domains).
        observation, reward, terminated, truncated, info = self._core.step(action)
        if self._int_rewards and reward.is_integer():
            reward = int(reward)
        elif self._numpy_rewards:
            reward = np.float64(reward)
        elif self._reward_converter is not None:
            reward = self._reward_converter(reward)
        if self._info_converters:
            info = typed_info(info, self._info_converters)
        if self._convert is not None:
            observation = self._convert(observation)
        if self._babyai:
            observation = self._as_minigrids(observation)
        self._observation = observation
        if self._mask_info:
            info["action_mask"] = self._core.action_mask()
        if self._window is not None:
            self._window.show(self._core.render_rgb())
        return observation, reward, terminated, truncated, info

    def _as_minigrids(self, observation: dict[str, Any]) -> dict[str, Any]:
        """A BabyAI observation with minigrid's key order and direction type."""
        from .minigrid import _in_minigrids_order

        drawn = self._core_module.minigrid_direction_drawn(self._core)
        return _in_minigrids_order(observation, np.int64 if drawn else int)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                f'You can specify the render_mode at initialization, e.g. gym.make("rlrs/{self.env_id}", render_mode="ansi")'
            )
            return None
        if self.render_mode == "ansi":
            text = self._core.render_text()
            if text is None:
                text = f"{self.env_id}: observation {self._observation!r}"
            return text
        if self.render_mode == "rgb_array":
            return self._core.render_rgb()
        if self.render_mode == "human":
            self._window.show(self._core.render_rgb())
            return None
        raise ValueError(f"unknown render_mode {self.render_mode!r}")

    def action_mask(self) -> np.ndarray | None:
        """The actions applicable in the current state, for a ``Discrete`` action space: an
        ``int8`` array, 1 for each action that the domain declares applicable (Gymnasium's
        Taxi ``action_mask(state)``: the actions that change something), 0 elsewhere; ``None``
        for another action space."""
        return self._core.action_mask()

    def state(self) -> Any:
        """The current state as JSON-able data (built-in domain types), else ``None``."""
        text = self._core.state_json()
        return None if text is None else json.loads(text)

    def close(self) -> None:
        if self.__dict__.get("_window") is not None:
            self._window.close()
        self._core.close()
        super().close()
