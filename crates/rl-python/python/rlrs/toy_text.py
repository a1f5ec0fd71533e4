"""Gymnasium's toy-text internals on rlrs's toy-text ids: what courses read from
``env.unwrapped`` (the transition table ``P`` for value iteration, ``desc``, ``nrow``, ``ncol``,
``s``, ``lastaction``, ``initial_state_distrib``, Taxi's ``encode``/``decode``/``locs``,
Blackjack's ``player``/``dealer``), with Gymnasium 1.4.0's values and Python types.

``RustEnv(id)`` gives an instance of the class below that matches the id's domain (FrozenLake,
CliffWalking, Taxi, Blackjack); each is a ``RustEnv``. The attributes are computed from the
Rust domain when read (``P`` once, then kept), so stepping costs what it did, but for
``lastaction`` and the type of the reward.

Types, as Gymnasium's: ``P[s][a]`` is a list of tuples ``(float probability, next state,
reward, bool terminated)`` with next states Python ``int`` (``np.int64`` for CliffWalking, as
its ``np.ravel_multi_index`` gives) and rewards ``int`` (FrozenLake's as its
``reward_schedule`` gives them, ``int`` by default); steps return those rewards. ``s`` is
``np.int64`` after a reset (Gymnasium's ``categorical_sample``) and the table's type after a
step. One difference left: after a fickle Taxi passenger changes destination, Gymnasium's
``s`` is an ``np.int64``, ours an ``int`` of the same value.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from .env import RustEnv, core

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "TaxiEnv", "env_class"]

# The class of each id seen, by (core module, id): None for ids of no toy-text domain.
_CLASS_OF_ID: dict[tuple[str, str], type | None] = {}


def env_class(core_module: str, env_id: str) -> type | None:
    """The toy-text class for ``env_id`` of the Rust core ``core_module``, or ``None`` when
    its domain is none of Gymnasium's toy text (or the id does not build: ``RustEnv`` then
    reports the error)."""
    key = (core_module, env_id)
    if key not in _CLASS_OF_ID:
        kind_of = getattr(core(core_module), "toy_text_kind", None)
        try:
            kind = None if kind_of is None else kind_of(env_id)
        except (KeyError, ValueError, RuntimeError):
            return None
        _CLASS_OF_ID[key] = _CLASSES.get(kind)
    return _CLASS_OF_ID[key]


class _Tabular(RustEnv):
    """What FrozenLake, CliffWalking and Taxi share: ``P``, ``initial_state_distrib``, ``s``,
    ``lastaction``, integer rewards."""

    # The type of a next state in P (np.int64 for CliffWalking).
    _state_type: Any = int

    def __init__(self, env_id: str, render_mode: str | None = None, **kwargs: Any) -> None:
        super().__init__(env_id, render_mode, **kwargs)
        table, initial, desc = self._core_module.toy_text_tables(env_id, self._params_json)
        self._table = table
        self._initial = initial
        self._rows = desc
        self._p: dict | None = None
        self._after_reset = True
        self.lastaction: Any = None

    def _reward(self, entry: tuple) -> Any:
        """The reward of a table entry with Gymnasium's type."""
        return int(entry[2])

    @property
    def P(self) -> dict[int, dict[int, list[tuple]]]:  # noqa: N802 (Gymnasium's name)
        """Gymnasium's transition table: ``P[state][action]``, a list of ``(probability,
        next_state, reward, terminated)`` in Gymnasium's order, duplicates kept."""
        if self._p is None:
            state_type = self._state_type
            self._p = {
                s: {
                    a: [(p, state_type(n), self._reward((p, n, r, t)), t) for p, n, r, t in outcomes]
                    for a, outcomes in enumerate(actions)
                }
                for s, actions in enumerate(self._table)
            }
        return self._p

    @property
    def initial_state_distrib(self) -> np.ndarray:
        """The initial-state distribution, one ``float64`` per state."""
        return np.asarray(self._initial, dtype=np.float64)

    @property
    def s(self) -> Any:
        """The current state (Gymnasium's ``s``); an ``AttributeError`` before the first
        reset, as Gymnasium's."""
        state = self.state()
        if state is None:
            raise AttributeError(f"{type(self).__name__} has no attribute 's' before a reset")
        index = state["index"] if isinstance(state, dict) else state
        return np.int64(index) if self._after_reset else self._state_type(index)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = super().reset(seed=seed, options=options)
        self.lastaction = None
        self._after_reset = True
        return observation, info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = super().step(action)
        self.lastaction = action
        self._after_reset = False
        return observation, int(reward), terminated, truncated, info


def _desc_rows(desc: Any) -> list[str]:
    """A FrozenLake map as Gymnasium reads one (``np.asarray(desc, dtype="c")``: a list of
    strings, of lists of letters, of bytes, or a character array) as a list of strings; a
    ``ValueError`` for a map that is not a grid of letters."""
    try:
        grid = np.asarray(desc, dtype="c")
    except (TypeError, ValueError) as error:
        raise ValueError(f"desc {desc!r} is not a map of tile letters: {error}") from None
    if grid.ndim != 2:
        raise ValueError(
            f"desc {desc!r} is not a map of tile letters (it reads as {grid.ndim} dimensions, "
            "Gymnasium's maps have 2: rows of letters)"
        )
    try:
        return [row.tobytes().decode("ascii") for row in grid]
    except UnicodeDecodeError as error:
        raise ValueError(f"desc {desc!r} holds a character that is not a tile letter: {error}") from None


class FrozenLakeEnv(_Tabular):
    """FrozenLake with Gymnasium's attributes: ``P``, ``desc`` (a ``(nrow, ncol)`` array of
    bytes), ``nrow``, ``ncol``, ``reward_range``, ``initial_state_distrib``, ``s``,
    ``lastaction``. Takes Gymnasium's ``map_name=None`` (a random 8 by 8 map, drawn from fresh
    entropy as Gymnasium's ``generate_random_map()``) and any ``desc`` Gymnasium takes (a list
    of strings, of lists of letters, a character array)."""

    def __init__(self, env_id: str, render_mode: str | None = None, **kwargs: Any) -> None:
        module = core(kwargs.get("core_module", "rlrs._core"))
        if kwargs.get("desc") is not None:
            kwargs["desc"] = _desc_rows(kwargs["desc"])
            if kwargs.get("map_name", "") is None:
                del kwargs["map_name"]  # ignored with a desc, as Gymnasium ignores it
        elif "map_name" in kwargs and kwargs["map_name"] is None:
            # Gymnasium: generate_random_map() with no seed, from fresh entropy.
            del kwargs["map_name"]
            kwargs["desc"] = module.frozen_lake_random_map(8, 0.8, secrets.randbits(64))
        schedule = kwargs.get("reward_schedule", (1, 0, 0))
        self._schedule = tuple(schedule) if isinstance(schedule, (list, tuple)) else (1, 0, 0)
        super().__init__(env_id, render_mode, **kwargs)
        # The reward of entering each state, typed as the schedule gives it.
        index = {"G": 0, "H": 1}
        self._reward_of = [
            self._schedule[index.get(letter, 2)] if len(self._schedule) == 3 else None
            for row in self._rows
            for letter in row
        ]

    def _reward(self, entry: tuple) -> Any:
        probability, next_state, reward, terminated = entry
        typed = self._reward_of[next_state]
        # A goal or a hole loops on itself with reward 0 (Gymnasium's literal 0).
        if typed is None or typed != reward:
            return int(reward) if float(reward).is_integer() else reward
        return typed

    @property
    def P(self) -> dict[int, dict[int, list[tuple]]]:  # noqa: N802 (Gymnasium's name)
        """Gymnasium's transition table (see ``_Tabular.P``); the goal's and holes' entries are
        ``(1.0, s, 0, True)``."""
        if self._p is None:
            p = super().P
            for s, letter in enumerate(letter for row in self._rows for letter in row):
                if letter in "GH":
                    for a in p[s]:
                        p[s][a] = [(1.0, s, 0, True)]
        return self._p

    @property
    def desc(self) -> np.ndarray:
        """The map: a ``(nrow, ncol)`` array of single bytes (``b"S"``, ``b"F"``, ``b"H"``,
        ``b"G"``), as Gymnasium's."""
        return np.asarray(self._rows, dtype="c")

    @property
    def nrow(self) -> int:
        return len(self._rows)

    @property
    def ncol(self) -> int:
        return len(self._rows[0])

    @property
    def reward_range(self) -> tuple[Any, Any]:
        return (min(self._schedule), max(self._schedule))

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = RustEnv.step(self, action)
        self.lastaction = action
        self._after_reset = False
        typed = self._reward_of[observation]
        return observation, (typed if typed is not None and typed == reward else reward), terminated, truncated, info


class CliffWalkingEnv(_Tabular):
    """CliffWalking with Gymnasium's attributes: ``P`` (next states ``np.int64``),
    ``shape``, ``start_state_index``, ``nS``, ``nA``, ``is_slippery``,
    ``initial_state_distrib``, ``s``, ``lastaction``."""

    _state_type = np.int64
    shape = (4, 12)
    nA = 4

    @property
    def start_state_index(self) -> np.int64:
        return np.int64(36)

    @property
    def nS(self) -> np.int64:  # noqa: N802 (Gymnasium's name)
        return np.int64(48)

    @property
    def is_slippery(self) -> bool:
        return bool(self.params.get("is_slippery", self.env_id == "CliffWalkingSlippery-v1"))

    @property
    def s(self) -> Any:
        """The current state, an ``np.int64`` as Gymnasium's."""
        state = self.state()
        if state is None:
            raise AttributeError("CliffWalkingEnv has no attribute 's' before a reset")
        return np.int64(state)


class TaxiEnv(_Tabular):
    """Taxi with Gymnasium's attributes: ``P``, ``desc``, ``locs``, ``locs_colors``,
    ``initial_state_distrib``, ``s``, ``lastaction``, ``fickle_step``, ``max_row``,
    ``max_col``, the parameters, and its methods ``encode``, ``decode`` and
    ``action_mask(state)``."""

    locs_colors = [(255, 0, 0), (0, 255, 0), (255, 255, 0), (0, 0, 255)]
    max_row = 4
    max_col = 4
    # Whether the last step's fickle passenger changed destination: Gymnasium's ``s`` is then
    # its ``encode(...)`` of the drawn destination, an ``np.int64``, until the next step.
    _fickle_changed = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._fickle_changed = False
        return super().reset(seed=seed, options=options)

    def step(self, action: Any):
        before = self._observation
        observation, reward, terminated, truncated, info = super().step(action)
        # Only the fickle passenger changes the destination (the state's last base-4 digit).
        self._fickle_changed = before is not None and int(before) % 4 != int(observation) % 4
        return observation, reward, terminated, truncated, info

    @property
    def s(self) -> Any:
        """The current state, with Gymnasium's type: an ``np.int64`` after a reset and after
        a step whose fickle passenger changed destination, else an ``int``."""
        value = _Tabular.s.fget(self)
        return np.int64(value) if self._fickle_changed else value

    @property
    def locs(self) -> list[tuple[int, int]]:
        return [tuple(loc) for loc in self._core_module.taxi_locations()]

    @property
    def desc(self) -> np.ndarray:
        return np.asarray(self._rows, dtype="c")

    @property
    def is_rainy(self) -> bool:
        return bool(self.params.get("is_rainy", False))

    @property
    def rainy_probability(self) -> float:
        return self.params.get("rainy_probability", 0.8)

    @property
    def fickle_probability(self) -> float:
        return self.params.get("fickle_probability", 0.3)

    @property
    def fickle_passenger(self) -> bool:
        return self.params.get("fickle_passenger", False)

    @property
    def fickle_step(self) -> bool:
        state = self.state()
        return False if state is None else bool(state.get("fickle_step", False))

    def encode(self, taxi_row, taxi_col, pass_loc, dest_idx):
        """The state index of the taxi at ``(taxi_row, taxi_col)``, the passenger at
        ``pass_loc`` (4: in the taxi) and the destination ``dest_idx``."""
        return ((taxi_row * 5 + taxi_col) * 5 + pass_loc) * 4 + dest_idx

    def decode(self, i) -> tuple[int, int, int, int]:
        """``(taxi_row, taxi_col, pass_loc, dest_idx)`` of the state index ``i``."""
        dest_idx, i = i % 4, i // 4
        pass_loc, i = i % 5, i // 5
        taxi_col, taxi_row = i % 5, i // 5
        assert 0 <= taxi_row < 5
        return (taxi_row, taxi_col, pass_loc, dest_idx)

    def action_mask(self, state: int | None = None) -> np.ndarray:
        """Gymnasium's ``action_mask(state)``: an ``int8`` array, 1 for each action that
        changes something in ``state``; without ``state``, the current state's (rlrs's
        ``RustEnv.action_mask()``)."""
        if state is None:
            return super().action_mask()
        desc = self.desc
        locs = self.locs
        mask = np.zeros(6, dtype=np.int8)
        taxi_row, taxi_col, pass_loc, dest_idx = self.decode(state)
        mask[0] = taxi_row < 4
        mask[1] = taxi_row > 0
        mask[2] = taxi_col < 4 and desc[taxi_row + 1, 2 * taxi_col + 2] == b":"
        mask[3] = taxi_col > 0 and desc[taxi_row + 1, 2 * taxi_col] == b":"
        mask[4] = pass_loc < 4 and (taxi_row, taxi_col) == locs[pass_loc]
        mask[5] = pass_loc == 4 and (taxi_row, taxi_col) in locs
        return mask


class BlackjackEnv(RustEnv):
    """Blackjack with Gymnasium's attributes: ``player`` and ``dealer`` (lists of card values,
    1 for an ace), ``dealer_top_card_suit``, ``dealer_top_card_value_str``, ``natural``,
    ``sab``."""

    def _hand_state(self) -> dict[str, Any]:
        state = self.state()
        if state is None:
            raise AttributeError("BlackjackEnv has no hands before a reset")
        return state

    @property
    def player(self) -> list[int]:
        return [int(card) for card in self._hand_state()["player"]]

    @property
    def dealer(self) -> list[int]:
        return [int(card) for card in self._hand_state()["dealer"]]

    @property
    def dealer_top_card_suit(self) -> np.str_:
        return np.str_(self._hand_state()["dealer_top_card_suit"])

    @property
    def dealer_top_card_value_str(self) -> str:
        state = self._hand_state()
        first = int(state["dealer"][0])
        if first == 1:
            return "A"
        if first == 10:
            return np.str_(state["dealer_top_card_face"])
        return str(first)

    @property
    def natural(self) -> bool:
        return bool(self.params.get("natural", False))

    @property
    def sab(self) -> bool:
        return bool(self.params.get("sab", True))


_CLASSES: dict[str | None, type] = {
    "frozen_lake": FrozenLakeEnv,
    "cliff_walking": CliffWalkingEnv,
    "taxi": TaxiEnv,
    "blackjack": BlackjackEnv,
}
