#!/usr/bin/env python3
"""fuzz_rlrs: random and hostile operations through the Python package ``rlrs``.

Each operation is a few lines of Python (making environments and vectors with good and bad
ids and parameters, seeds and options, actions of every dtype and shape, closing, threads,
re-entrant callbacks), generated deterministically from ``--seed`` and the batch's index.
Batches of operations run in child processes (this file with ``--worker``) under an
address-space limit and a timeout. An operation that returns or raises an ordinary
``Exception`` is fine; a finding is:

- ``panic``: a ``pyo3_runtime.PanicException`` (a ``BaseException``), or a Rust panic
  message on standard error during an operation that did not raise one;
- ``abort``, ``signal``, ``exit``: the child died (SIGABRT, another signal, an exit status
  without a result);
- ``memory``: the child aborted on a failed allocation under the limit
  ("memory allocation of N bytes failed");
- ``hang``: one operation ran longer than ``--op-timeout`` (20 s), a child longer than
  ``--timeout`` (120 s), or a thread an operation started did not finish in 10 s;
- ``wrong-state``: a value the package returned that it must not (an observation outside the
  observation space from a reset, a reset to a given state or a step; a NaN reward);
- ``unnamed-refusal``: a domain parameter refused by an error that does not name it;
- ``base-exception``: any other ``BaseException`` that is not an ``Exception``.

For each distinct finding the parent prints a reproduction: the batch's operations, shrunk by
re-running subsets in fresh child processes, as a Python snippet. It exits with status 1 when
there is a finding.

    python fuzz_rlrs.py --operations 1000000 --seed 1 --jobs 2

Standard library, numpy, gymnasium and rlrs only. See docs/fuzzing.md ("The Python package").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

# ---------------------------------------------------------------------------------------------
# Helpers that operations call. Each is Python source, executed once in every worker's
# namespace, and copied into a reproduction snippet when its operations use it.
# ---------------------------------------------------------------------------------------------

HELPERS: dict[str, tuple[str, list[str]]] = {}


def helper(name: str, source: str, needs: tuple[str, ...] = ()) -> None:
    HELPERS[name] = (source.strip("\n") + "\n", list(needs))


helper("WrongState", '''
class WrongState(BaseException):
    """rlrs returned a value it must not return (outside its space, a NaN reward)."""
''')
helper("Hang", '''
class Hang(BaseException):
    """A thread of the operation did not finish in time."""
''')
helper("UnnamedRefusal", '''
class UnnamedRefusal(BaseException):
    """A parameter was refused by an error that does not name it."""
''')
helper("TAINTED", '''
TAINTED = set()  # ids of environments whose episode started in a state the caller gave
''')
helper("check_obs", '''
def check_obs(space, observation, *what, ending=False):
    """The observation must lie in the space; on a step that ends an episode it need only be
    finite: a state given from outside (by any operation, in any thread) may carry the episode
    beyond the space's bounds as it ends, as Gymnasium's own environments do (CartPole's cart
    at 2e4 after a step at 10^6 m/s), but never to an infinity or a NaN."""
    if ending:
        leaves = [observation]
        while leaves:
            leaf = leaves.pop()
            if isinstance(leaf, dict):
                leaves.extend(leaf.values())
            elif isinstance(leaf, (tuple, list)):
                leaves.extend(leaf)
            elif isinstance(leaf, (np.ndarray, np.floating, float)) and np.issubdtype(np.asarray(leaf).dtype, np.floating):
                if not np.isfinite(leaf).all():
                    raise WrongState(f"{' '.join(map(str, what))}: the last observation {observation!r} is not finite")
        return
    if not space.contains(observation):
        raise WrongState(f"{' '.join(map(str, what))}: the observation {observation!r} lies outside {space}")
''', ("WrongState",))
helper("reset", '''
def reset(env, **kwargs):
    """env.reset(**kwargs); the observation (from a state given in options too) must lie in
    the observation space."""
    observation, info = env.reset(**kwargs)
    check_obs(env.observation_space, observation, "reset", kwargs)
    options = kwargs.get("options")
    given = isinstance(options, dict) and options.get("state") is not None
    (TAINTED.add if given else TAINTED.discard)(id(env.unwrapped))
    return observation, info
''', ("check_obs", "TAINTED"))
helper("step", '''
def step(env, action):
    """env.step(action); the observation must lie in the observation space and the reward not
    be NaN, except on the step that ends an episode started in a state the caller gave (the
    dynamics may carry such a state anywhere as the episode ends)."""
    observation, reward, terminated, truncated, info = env.step(action)
    if id(env.unwrapped) in TAINTED and (terminated or truncated):
        check_obs(env.observation_space, observation, "step", repr(action)[:200], ending=True)
        return observation, reward, terminated, truncated, info
    check_obs(env.observation_space, observation, "step", repr(action)[:200], ending=terminated or truncated)
    if reward != reward:
        raise WrongState(f"step({action!r}) returned a NaN reward")
    return observation, reward, terminated, truncated, info
''', ("check_obs", "TAINTED", "WrongState"))
helper("sample", '''
def sample(space, seed):
    """A sample of `space` drawn with `seed` (a valid action)."""
    space.seed(seed)
    return space.sample()
''')
helper("episode", '''
def episode(env, seed, steps):
    """A seeded reset and up to `steps` steps with sampled actions, every one checked. A
    window (render_mode "human") shows every step at the id's render_fps, as Gymnasium's and
    minigrid's do, in real time (600 steps at 10 fps take a minute): at most 20 of them."""
    reset(env, seed=seed)
    if getattr(env, "render_mode", None) == "human":
        steps = min(steps, 20)
    for i in range(steps):
        if step(env, sample(env.action_space, seed + i))[2:4] != (False, False):
            break
''', ("reset", "step", "sample"))
helper("core_space", '''
def core_space(env):
    """The observation space of an rlrs._core.Environment."""
    return rlrs.space_from_definition(env.observation_space_json())
''')
helper("core_reset", '''
def core_reset(env, state_json=None):
    """rlrs._core.Environment's reset (or reset_to_state), the observation checked."""
    if state_json is None:
        observation = env.reset()
        TAINTED.discard(id(env))
    else:
        observation = env.reset_to_state(state_json)
        TAINTED.add(id(env))
    check_obs(core_space(env), observation, "reset", state_json)
    return observation
''', ("check_obs", "core_space", "TAINTED"))
helper("core_step", '''
def core_step(env, action):
    """rlrs._core.Environment's step, checked as step() checks."""
    observation, reward, terminated, truncated, info = env.step(action)
    check_obs(core_space(env), observation, "step", repr(action)[:200], ending=terminated or truncated)
    if reward != reward:
        raise WrongState(f"step({action!r}) returned a NaN reward")
    return observation, reward, terminated, truncated, info
''', ("check_obs", "core_space", "TAINTED", "WrongState"))
helper("vreset", '''
def vreset(vector, **kwargs):
    """vector.reset(**kwargs); the observations must lie in the observation space."""
    observations, info = vector.reset(**kwargs)
    check_obs(vector.observation_space, observations, "vector reset", kwargs)
    return observations, info
''', ("check_obs",))
helper("vstep", '''
def vstep(vector, actions):
    """vector.step(actions); observations (final ones too) in the space, no NaN reward."""
    observations, rewards, terminated, truncated, info = vector.step(actions)
    check_obs(vector.observation_space, observations, "vector step", repr(actions)[:200])
    if np.isnan(rewards).any():
        raise WrongState(f"vector step returned NaN rewards {rewards!r}")
    if "final_obs" in info:
        for i in np.flatnonzero(info["_final_obs"]):
            check_obs(vector.single_observation_space, info["final_obs"][i], "final observation", i)
    return observations, rewards, terminated, truncated, info
''', ("check_obs", "WrongState"))
helper("expect_named", '''
def expect_named(name, make):
    """make(), whose refusal must be an ordinary exception that names the parameter `name`."""
    try:
        return make()
    except Exception as error:
        # A size the memory cannot hold is refused for that reason, whatever else is wrong.
        if name not in str(error) and "cannot be allocated" not in str(error):
            raise UnnamedRefusal(f"{type(error).__name__}: {error} (does not name {name!r})") from None
        raise
''', ("UnnamedRefusal",))
helper("readonly", '''
def readonly(array):
    array.setflags(write=False)
    return array
''')
helper("unaligned", '''
def unaligned(array):
    """A copy of `array` whose data is not aligned for its dtype."""
    array = np.asarray(array)
    copy = np.zeros(array.nbytes + 1, np.uint8)[1:].view(array.dtype).reshape(array.shape)
    copy[...] = array
    return copy
''')
helper("Index", '''
class Index:
    """An integer-like object (__index__ only)."""
    def __init__(self, value):
        self.value = value
    def __index__(self):
        return self.value
''')
helper("Reenter", '''
class Reenter:
    """An action whose conversion (__index__, __int__, __float__, __array__) first calls
    `call`, which uses the environment or vector being stepped."""
    def __init__(self, call, value):
        self.call, self.value = call, value
    def enter(self):
        try:
            self.call()
        except Exception:
            pass
    def __index__(self):
        self.enter()
        return int(np.asarray(self.value).reshape(-1)[0]) if np.ndim(self.value) else int(self.value)
    __int__ = __index__
    def __float__(self):
        self.enter()
        return float(np.asarray(self.value).reshape(-1)[0])
    def __array__(self, dtype=None, copy=None):
        self.enter()
        return np.asarray(self.value, dtype=dtype)
''')
helper("repeat", '''
def repeat(call, times):
    """call() `times` times; ordinary exceptions are expected and ignored."""
    for _ in range(times):
        try:
            call()
        except Exception:
            pass
''')
helper("run_threads", '''
def run_threads(calls, timeout=10.0):
    """Runs each call in its own thread at once; re-raises a BaseException (a panic) from
    any of them, and raises Hang if one has not finished after `timeout` seconds."""
    failures = []
    def body(call):
        try:
            call()
        except Exception:
            pass
        except BaseException as error:
            failures.append(error)
    threads = [threading.Thread(target=body, args=(call,), daemon=True) for call in calls]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    if any(thread.is_alive() for thread in threads):
        raise Hang(f"{sum(t.is_alive() for t in threads)} of {len(threads)} threads still running after {timeout} s")
    if failures:
        raise failures[0]
''', ("Hang",))

PRELUDE = (
    "import os; os.environ.setdefault('SDL_VIDEODRIVER', 'dummy')  # pygame (HumanRendering) headless\n"
    "import copy, gc, json, pickle, threading, time, warnings\n"
    "import numpy as np\n"
    "import gymnasium as gym\n"
    "import rlrs\n"
    "from gymnasium.vector import AutoresetMode\n"
)
SLOTS = "E, C, V, O, D = {}, {}, {}, {}, {}  # environments, core environments, vectors, vector outputs, drivers\n"


def helpers_for(codes: list[str]) -> list[str]:
    """The helper names the operations `codes` use, with their dependencies, in HELPERS order."""
    wanted: set[str] = set()
    stack = [name for name in HELPERS if any(re.search(rf"\b{name}\b", code) for code in codes)]
    while stack:
        name = stack.pop()
        if name not in wanted:
            wanted.add(name)
            stack.extend(HELPERS[name][1])
    return [name for name in HELPERS if name in wanted]


# ---------------------------------------------------------------------------------------------
# Python source of values.
# ---------------------------------------------------------------------------------------------


class Expr:
    """Python source written as it is (an expression)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return self.source


def lit(value) -> str:
    """Python source that evaluates to `value` (non-finite floats, Expr and containers too)."""
    if isinstance(value, Expr):
        return value.source
    if isinstance(value, float):
        if value != value:
            return 'float("nan")'
        if value in (float("inf"), float("-inf")):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(lit(item) for item in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(lit(item) + ", " for item in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{lit(key)}: {lit(item)}" for key, item in value.items()) + "}"
    return repr(value)


def json_safe(value) -> bool:
    """Whether json.dumps(value, allow_nan=False) succeeds (finite floats, no Expr)."""
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# What the package exposes: ids, parameter names, states, spaces.
# ---------------------------------------------------------------------------------------------


class Catalogue:
    """Everything the generator knows, derived from rlrs itself (nothing per id is written
    here): the registered ids, each id's parameter names (from the registry's error for an
    unknown parameter), its state as env.state() gives it after seeded resets, and the kinds
    of its spaces."""

    UNKNOWN = "fuzz_unknown_parameter"

    def __init__(self) -> None:
        import numpy as np
        import gymnasium as gym
        import rlrs

        self.ids: list[str] = list(rlrs.ids())
        # The benchmarks' driver (in every build; a domain author's own module has none).
        self.driver = hasattr(rlrs._core, "RustDriver")
        # The render modes of each id ("rgb_array" and "human" only where the core draws
        # frames). The MuJoCo ids' frames are drawn by Gymnasium's renderer through OpenGL
        # (rlrs.mujoco, tested beside Gymnasium by tests/test_mujoco_frames.py): the fuzz
        # target never asks them for frames ("ansi" only), since a machine may have no OpenGL
        # and a software one is slow and large under the children's memory limit.
        self.mujoco_ids = set(rlrs._core.mujoco_ids())
        self.render_modes: dict[str, list[str]] = {
            env_id: (
                ["ansi"]
                if env_id in self.mujoco_ids
                else rlrs.env.id_metadata("rlrs._core", env_id)["render_modes"]
            )
            for env_id in self.ids
        }
        self.params: dict[str, list[str]] = {}
        self.states: dict[str, list] = {}
        self.action: dict[str, tuple] = {}
        self.scale: dict[str, int] = {}
        for env_id in self.ids:
            try:
                rlrs._core.Environment(env_id, json.dumps({self.UNKNOWN: 0}), 0)
                names: list[str] = []
            except Exception as error:
                message = str(error)
                tail = message.split("expected", 1)[1] if "expected" in message else ""
                names = [name for name in re.findall(r"`([^`]*)`", tail) if name != self.UNKNOWN]
            self.params[env_id] = names
            env = rlrs.RustEnv(env_id)
            states = []
            for seed in (0, 1):
                env.reset(seed=seed)
                state = env.state()
                if state is not None:
                    states.append(state)
            self.states[env_id] = states
            # How far integer parts of a state range (to try values around the edges).
            sizes = [int(np.max(part.nvec)) if isinstance(part, gym.spaces.MultiDiscrete) else int(part.n)
                     for part in self.parts(env.observation_space)
                     if isinstance(part, (gym.spaces.Discrete, gym.spaces.MultiDiscrete))]
            self.scale[env_id] = max(sizes, default=10)
            space = env.action_space
            if isinstance(space, gym.spaces.Discrete):
                self.action[env_id] = ("discrete", int(space.n), int(space.start))
            elif isinstance(space, gym.spaces.Box):
                self.action[env_id] = (
                    "box",
                    tuple(space.shape),
                    np.dtype(space.dtype).name,
                    float(np.min(space.low)),
                    float(np.max(space.high)),
                )
            else:
                self.action[env_id] = ("other",)
            env.close()

    @staticmethod
    def parts(space) -> list:
        """`space` and the spaces inside it (Tuple and Dict)."""
        children = list(getattr(space, "spaces", None) or [])
        if isinstance(getattr(space, "spaces", None), dict):
            children = list(space.spaces.values())
        return [space] + [part for child in children for part in Catalogue.parts(child)]


# ---------------------------------------------------------------------------------------------
# The generator.
# ---------------------------------------------------------------------------------------------

EDGE_NUMBERS = [
    0, -0.0, 1, -1, 5e-324, -5e-324, 1e308, -1e308, 2**53, 2**53 + 1, 2**63 - 1, 2**63,
    2**64 - 1, 2**64, -(2**63), -(2**63) - 1, float("nan"), float("inf"), float("-inf"),
    1e-310, 0.5, 3, 10**30, 1e6, 1e-6, 1e38, 3.5e38,
]
EDGE_OTHERS = [
    True, False, None, "", "x", "1", "nan", [], [0], [0.5, 1.5], [[]], {}, {"a": 1},
    Expr('"x" * 100000'), Expr('json.loads("[" * 200 + "]" * 200)'), ["S", "F"], ["SF", "FG"], ["SFFF"] * 3,
    Expr('["F" * 300] * 300'), Expr('["S" + "F" * 7] * 8'), Expr("list(range(1000))"),
]
FLOAT_DTYPES = ["float16", "float32", "float64", "longdouble"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
ODD_DTYPES = ["bool", "complex64", "complex128", "object", ">f4", ">i8", "<U3", "S3",
              "datetime64[s]", "timedelta64[ms]", "[('a', 'f4')]"]


# Keyword arguments of rlrs.RustEnv, rlrs.RustVectorEnv, gym.make and gym.make_vec themselves:
# a hostile "domain parameter" of one of these names is an argument of the wrapper, whose
# refusal is not the domain's to word.
WRAPPER_ARGUMENTS = {"env_id", "render_mode", "core_module", "num_envs", "threads", "copy",
                     "autoreset_mode", "record_episode_statistics", "vectorization_mode",
                     "vector_kwargs", "wrappers", "max_episode_steps", "disable_env_checker",
                     "autoreset", "apply_api_compatibility", "id"}


def dropped_slots(code: str) -> list[str]:
    """The slots an operation may close, drop or leave with read-only outputs ("E1", "V2";
    "E*" for all of E's): "E[1].close()", "V.pop(2", "E.clear()",
    "V[0]._core.observations.base.setflags(write=False)"."""
    slots = [m[1] + m[2] for m in re.finditer(
        r"\b([ECVD])\[(\d+)\](?:\.unwrapped)?(?:\._core)?\."
        r"(?:close\(|(?:final_)?observations\.base\.setflags\(write=False)", code)]
    slots += [m[1] + m[2] for m in re.finditer(r"\b([ECVD])\.pop\((\d+)", code)]
    slots += [m[1] + "*" for m in re.finditer(r"\b([ECVD])\.clear\(\)", code)]
    return slots


class Generator:
    """Operations from a seeded random.Random. Which id each slot should hold is tracked as
    intended (the generator never looks at outcomes, so the same seed gives the same
    operations on any machine); an operation on a slot whose construction failed just
    raises an ordinary error."""

    ENV_SLOTS, CORE_SLOTS, VEC_SLOTS = 3, 2, 3

    def __init__(self, rng: random.Random, catalogue: Catalogue) -> None:
        self.rng = rng
        self.cat = catalogue
        self.env_ids: dict[int, str] = {}
        # Slots made by gym.make(..., render_mode="human"): Gymnasium wraps them in its
        # HumanRendering, whose pygame display is not thread-safe (SIGSEGV in SDL when several
        # threads render); threads operations use their rlrs environment (.unwrapped) instead.
        self.human: set[int] = set()
        self.core_ids: dict[int, str] = {}
        self.vec_ids: dict[int, str] = {}
        self.driver_envs = 4
        self.dropped: list[str] = []
        self.slot_counts = {"E": self.ENV_SLOTS, "C": self.CORE_SLOTS, "V": self.VEC_SLOTS, "D": 1 if catalogue.driver else 0}
        # Every slot starts with a good construction, so that most operations reach rlrs.
        slots = ([f"E{k}" for k in range(self.ENV_SLOTS)] + [f"C{k}" for k in range(self.CORE_SLOTS)]
                 + [f"V{k}" for k in range(self.VEC_SLOTS)] + (["D0"] if catalogue.driver else []))
        self.prologue = [self.clean_make(slot) for slot in slots]
        self.kinds = [
            ("make_env", 7), ("bad_id", 2), ("reset", 8), ("reset_state", 8), ("step", 20),
            ("episode", 3), ("env_misc", 7), ("core_env", 6), ("functions", 3),
            ("make_vec", 6), ("vec_reset", 6), ("vec_step", 16), ("vec_alias", 4),
            ("vec_misc", 5), ("threads", 2), ("reenter", 4), ("driver", 2 if catalogue.driver else 0),
            ("misc", 1), ("big", 0.03), ("pool", 4),
        ]
        self.kind_names = [kind for kind, _ in self.kinds]
        self.kind_weights = [weight for _, weight in self.kinds]

    # -- small choices ------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def seed_value(self):
        return self.rng.randrange(2**32)

    def good_id(self) -> str:
        return self.pick(self.cat.ids)

    def bad_id(self):
        rng = self.rng
        real = self.good_id()
        choice = rng.randrange(10)
        if choice == 0:
            return ""
        if choice == 1:
            return Expr(f'"{rng.choice("xA-")}" * {rng.choice([1000, 1000, 1000, 10**5])}')
        if choice == 2:
            return self.pick([None, 0, 1.5, b"CartPole-v1", ["CartPole-v1"], Expr("object()")])
        if choice == 3:
            return self.pick(["rlrs/" + real, real + " ", " " + real, real.lower(), real.upper(),
                              real + "\x00", "\ud800", real.replace("-v", "-v9"), "é" * 1000])
        # A misspelling: one character deleted, doubled, replaced or two swapped.
        chars = list(real)
        i = rng.randrange(len(chars))
        edit = rng.randrange(4)
        if edit == 0:
            del chars[i]
        elif edit == 1:
            chars.insert(i, chars[i])
        elif edit == 2:
            chars[i] = rng.choice("abcXYZ019-_ ")
        elif i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars.append("x")
        return "".join(chars)

    def edge_value(self):
        """A hostile parameter value: an edge number, another type, or a perturbed number."""
        roll = self.rng.random()
        if roll < 0.55:
            return self.pick(EDGE_NUMBERS)
        if roll < 0.85:
            return self.pick(EDGE_OTHERS)
        return float(f"{self.rng.uniform(-1, 1):.3f}e{self.rng.randrange(-320, 309)}")

    def params(self, env_id: str) -> tuple[dict, str | None]:
        """Keyword parameters for `env_id` and, when exactly one is hostile, its name."""
        names = self.cat.params.get(env_id, [])
        roll = self.rng.random()
        if roll < 0.45 or not names and roll < 0.8:
            return {}, None
        if roll < 0.85 or not names:
            if self.chance(0.7) and names:
                name = self.pick(names)
            else:
                name = self.pick([Catalogue.UNKNOWN, "", "a b", "x" * 300, "é", "env_id", "num_envs", "threads", "copy", "seed"]
                                 + [n[:-1] for n in names if len(n) > 1])
            return {name: self.edge_value()}, name
        # An id with one parameter (some BabyAI levels) gets that one.
        count = self.rng.randrange(min(2, len(names)), min(4, len(names)) + 1)
        chosen = self.rng.sample(names, count)
        return {name: self.edge_value() for name in chosen}, None

    @staticmethod
    def kwargs_source(kwargs: dict, taken: str = "") -> str:
        """`kwargs` as keyword arguments (`**{...}` for names that are not identifiers or
        that the call's source `taken` passes already, which Python refuses at run time)."""

        def plain_name(name: str) -> bool:
            return name.isidentifier() and name.isascii() and f"{name}=" not in taken

        plain = [f"{name}={lit(value)}" for name, value in kwargs.items() if plain_name(name)]
        odd = {name: value for name, value in kwargs.items() if not plain_name(name)}
        parts = plain + ([f"**{lit(odd)}"] if odd else [])
        return "".join(", " + part for part in parts)

    # -- operations ---------------------------------------------------------------------------

    def operation(self) -> tuple[str, str]:
        if self.prologue:
            return self.prologue.pop(0)
        if self.dropped and self.chance(0.3):
            slot = self.dropped.pop(0)
            return self.clean_make(slot)
        kind = self.rng.choices(self.kind_names, self.kind_weights)[0]
        code = getattr(self, "op_" + kind)()
        # Slots this operation may close, drop or leave unwritable get a clean construction
        # some time later.
        for dropped in dropped_slots(code):
            letter, number = dropped[0], dropped[1:]
            slots = [letter + str(k) for k in range(self.slot_counts[letter])] if number == "*" else [dropped]
            for slot in slots:
                if slot not in self.dropped:
                    self.dropped.append(slot)
        return kind, code

    def clean_make(self, slot: str) -> tuple[str, str]:
        """A construction with good arguments into `slot` ("E0", "V2", "C1", "D0")."""
        kind, k = slot[0], int(slot[1:])
        env_id = self.good_id()
        seed = self.seed_value()
        if kind == "E":
            self.env_ids[k] = env_id
            self.human.discard(k)
            mode = self.pick([m for m in ("ansi", "rgb_array") if m in self.cat.render_modes[env_id]] + [None])
            return "make_env", f"E[{k}] = rlrs.RustEnv({env_id!r}, render_mode={mode!r})\nreset(E[{k}], seed={seed})"
        if kind == "C":
            self.core_ids[k] = env_id
            return "core_env", f"C[{k}] = rlrs._core.Environment({env_id!r}, None, {seed})"
        if kind == "V":
            self.vec_ids[k] = env_id
            n = self.rng.randrange(1, 9)
            mode = self.pick(["NEXT_STEP", "SAME_STEP", "DISABLED"])
            return "make_vec", (f"V[{k}] = rlrs.RustVectorEnv({env_id!r}, {n}, threads={self.rng.randrange(1, min(n, 3) + 1)}, "
                                f"autoreset_mode=AutoresetMode.{mode}, copy={self.pick([True, False])}, "
                                f"record_episode_statistics={self.pick([True, False])})\nO[{k}] = vreset(V[{k}], seed={seed})")
        discrete = [i for i in self.cat.ids if self.cat.action[i][0] == "discrete"] or self.cat.ids
        self.driver_envs = self.rng.randrange(1, 9)
        return "driver", f"D[0] = rlrs._core.RustDriver({self.pick(discrete)!r}, {self.driver_envs}, {seed}, 1)\nD[0].set_rows(np.zeros((2, {self.driver_envs}), np.int64))"

    def env_slot(self) -> tuple[int, str]:
        k = self.rng.randrange(self.ENV_SLOTS)
        return k, self.env_ids.get(k) or self.good_id()

    def vec_slot(self) -> tuple[int, str]:
        k = self.rng.randrange(self.VEC_SLOTS)
        return k, self.vec_ids.get(k) or self.good_id()

    def render_mode(self, env_id):
        """A render_mode argument (source) and whether it is a valid one for `env_id`."""
        if not self.chance(0.3):
            return "", True
        if isinstance(env_id, str) and env_id in self.cat.mujoco_ids:
            # No frames of the MuJoCo ids (see Catalogue.render_modes).
            mode = self.pick(["ansi", "", 3, None, "rgb"])
        else:
            mode = self.pick(["ansi", "rgb_array", "ansi", "rgb_array", "human", "", 3, None])
        modes = self.cat.render_modes.get(env_id, []) if isinstance(env_id, str) else []
        return f", render_mode={lit(mode)}", mode is None or (mode in ("ansi", "rgb_array") and mode in modes)

    def op_make_env(self) -> str:
        k = self.rng.randrange(self.ENV_SLOTS)
        env_id = self.good_id() if self.chance(0.92) else self.bad_id()
        kwargs, hostile = self.params(env_id if isinstance(env_id, str) else "")
        render, render_ok = self.render_mode(env_id)
        if self.chance(0.85):
            call = f"rlrs.RustEnv({lit(env_id)}{render}{self.kwargs_source(kwargs, render)})"
        else:
            gym_id = Expr(f'"rlrs/" + {lit(env_id)}') if not isinstance(env_id, str) else "rlrs/" + env_id
            checker = ", disable_env_checker=True" if self.chance(0.5) else ""
            call = f"gym.make({lit(gym_id)}{render}{checker}{self.kwargs_source(kwargs, render + checker)})"
        if isinstance(env_id, str):
            self.env_ids[k] = env_id
        (self.human.add if call.startswith("gym.") and "'human'" in render else self.human.discard)(k)
        # A refusal must name the parameter when it is the only thing wrong in the call.
        wrapped = hostile in WRAPPER_ARGUMENTS and (hostile != "max_episode_steps" or call.startswith("gym."))
        if hostile is not None and render_ok and env_id in self.cat.ids and not wrapped:
            return f"E[{k}] = expect_named({lit(hostile)}, lambda: {call})"
        return f"E[{k}] = {call}"

    def op_bad_id(self) -> str:
        bad = self.bad_id()
        form = self.rng.randrange(6)
        if form == 0:
            return f"rlrs.RustEnv({lit(bad)})"
        if form == 1:
            return f"rlrs.RustVectorEnv({lit(bad)}, 2)"
        if form == 2:
            return f"rlrs._core.Environment({lit(bad)}, None, 0)"
        if form == 3:
            return f"rlrs._core.check({lit(bad)})"
        if form == 4:
            return f"rlrs._core.domain_info({lit(bad)})"
        return f"rlrs._core.settings({lit(bad)})"

    def seed_arg(self):
        roll = self.rng.random()
        if roll < 0.4:
            return None
        if roll < 0.75:
            return self.seed_value()
        return self.pick([-1, 2**64, 2**64 - 1, 2**63, 2**200, -(2**63), 1.5, float("nan"), "1",
                          [1, 2], True, Expr("np.int64(-1)"), Expr("np.uint64(2**64 - 1)"),
                          Expr("np.float64(3)"), Expr("Index(5)"), Expr("Index(-5)"), b"1"])

    def hostile_state(self, env_id: str):
        """A state for `env_id`: one seen after a seeded reset, damaged in one place (or not)."""
        states = self.cat.states.get(env_id) or [[0.0, 0.0, 0.0, 0.0]]
        state = json.loads(json.dumps(self.pick(states)))
        roll = self.rng.random()
        if roll < 0.15:
            return state
        if roll < 0.25:
            return self.edge_value()
        leaves = []

        def walk(value, path):
            if isinstance(value, dict):
                for key in value:
                    walk(value[key], path + [key])
            elif isinstance(value, list):
                for index in range(len(value)):
                    walk(value[index], path + [index])
            else:
                leaves.append(path)

        walk(state, [])
        scale = self.cat.scale.get(env_id, 10)
        if isinstance(state, int) and not isinstance(state, bool):
            # A state that is one integer (FrozenLake, CliffWalking): around the edges too.
            return self.pick([self.rng.randrange(-2, scale + 3), scale - 1, scale, -1]) if self.chance(0.6) else self.edge_value()
        if not leaves or not isinstance(state, (dict, list)):
            return self.edge_value()
        path = self.pick(leaves)
        parent = state
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        action = self.rng.randrange(10)
        if action < 6:
            old = parent[last]
            if isinstance(old, int) and not isinstance(old, bool) and self.chance(0.5):
                parent[last] = self.pick([self.rng.randrange(-2, scale + 3), scale - 1, scale, -1])
            elif isinstance(old, (int, float)) and not isinstance(old, bool) and self.chance(0.3):
                parent[last] = old * self.pick([2, 10, 1000, -1, 1e30, 1e300]) + self.pick([0, 1, 0.5])
            else:
                parent[last] = self.edge_value()
        elif action == 6:
            del parent[last]
        elif action == 7:
            if isinstance(parent, dict):
                parent[self.pick(["extra", "", "x" * 100])] = self.edge_value()
            else:
                parent.append(self.edge_value())
        elif action == 8:
            parent[last] = [parent[last]]
        else:
            return [state] if self.chance(0.5) else {"state": state}
        return state

    def op_reset(self) -> str:
        k, _ = self.env_slot()
        seed = self.seed_arg()
        parts = [] if seed is None and self.chance(0.5) else [f"seed={lit(seed)}"]
        if self.chance(0.1):
            parts.append("options=" + lit(self.pick([{}, {"state": None}, {"reset_mask": [True]},
                                                     {"x": 1}, [], "state", {1: 2}])))
        return f"R = reset(E[{k}]{''.join(', ' + p for p in parts)})"

    def op_reset_state(self) -> str:
        k, env_id = self.env_slot()
        state = self.hostile_state(env_id)
        seed = f"seed={self.seed_value()}, " if self.chance(0.2) else ""
        return f"R = reset(E[{k}], {seed}options={{'state': {lit(state)}}})"

    def op_step(self) -> str:
        k, env_id = self.env_slot()
        return f"R = step(E[{k}], {self.action(f'E[{k}].action_space', env_id)})"

    def op_episode(self) -> str:
        k, _ = self.env_slot()
        return f"episode(E[{k}], {self.seed_value()}, {self.pick([10, 50, 200, 600])})"

    def action(self, space: str, env_id: str) -> str:
        """Python source of an action for an environment whose action space is the Python
        expression `space` (believed to be `env_id`'s)."""
        spec = self.cat.action.get(env_id, ("other",))
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            return f"sample({space}, {self.seed_value()})"
        if spec[0] == "discrete":
            n, start = spec[1], spec[2]
            values = [start - 1, start + n, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30,
                      1.0, float("nan"), float("inf"), True, None, "1", b"1", [start], (start,),
                      Expr(f"np.array({start})"), Expr(f"np.array([{start}])"),
                      Expr(f"np.array([[{start}]])"), Expr("np.array(1.5)"), Expr("1+0j"), {},
                      Expr(f"np.int8({start})"), Expr("np.uint64(2**64 - 1)"),
                      Expr(f"np.float32({start})"), Expr(f"Index({start})"),
                      Expr("Index(2**70)"), Expr(f"np.array({start}, dtype='>i8')"),
                      Expr(f"readonly(np.array({start}))"), Expr(f"np.int64({start + n - 1})"),
                      Expr("np.bool_(True)"), Expr("np.array([], np.int64)")]
            return lit(self.pick(values))
        shape = spec[1] if spec[0] == "box" else (1,)
        low, high = (spec[3], spec[4]) if spec[0] == "box" else (-1.0, 1.0)
        return self.array_source(shape, low, high, batch=None)

    def array_source(self, shape: tuple, low: float, high: float, batch: str | None) -> str:
        """Python source of a float-ish array action of `shape` (with `batch` rows first when
        given), hostile in dtype, shape, values, strides or flags."""
        rng = self.rng
        full = f"({batch},) + {lit(tuple(shape))}" if batch else lit(tuple(shape))
        value = self.pick([float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 5e-324, -0.0,
                           high, low, high * 10, 0.5, 2**64, 1e39])
        dtype = self.pick(FLOAT_DTYPES + INT_DTYPES + ODD_DTYPES)
        roll = rng.randrange(20)
        if roll < 5:
            return f"np.full({full}, {lit(float(value))}, dtype=np.float32)"
        if roll < 8:
            source = f"np.full({full}, {lit(float(rng.choice([0.5, 1, -1, 0])))})"
            return f"np.asarray({source}).astype({dtype!r})"
        if roll == 8:
            bad = self.pick(["()", "(0,)", "(2,)", "(1, 1)", "(3, 2)", "(1,) * 32", "(0, 5)"])
            bad = f"({batch},) + {bad}" if batch and self.chance(0.6) else bad
            return f"np.zeros({bad}, dtype=np.float32)"
        if roll == 9:
            return f"np.broadcast_to(np.float32(0.5), {self.pick(['(2**40,)', '(1, 2**40)', '(2**31, 2**31)', '(2**40, 1)'])})"
        if roll == 10:
            return f"np.full({full}, 0.5, np.float32).repeat(2, axis=-1)[..., ::-2]" if shape else "np.float32(0.5)"
        if roll == 11:
            return f"np.ascontiguousarray(np.full({full}, 0.25, np.float32)[::-1])"  if not batch else f"np.full({full}, 0.25, np.float32)[::-1]"
        if roll == 12:
            return f"readonly(np.full({full}, 0.5, np.float32))"
        if roll == 13:
            return f"unaligned(np.full({full}, 0.5, np.{self.pick(['float32', 'float64', 'int64'])}))"
        if roll == 14:
            return f"np.asfortranarray(np.full({full}, 0.5, np.float32))"
        if roll == 15:
            return self.pick(["[0.5]", "[[0.5]]", "0.5", "None", '"0.5"', "[0.5, 'a']", "[]",
                              "(0.5,)", "{}", "b'0.5'", "memoryview(np.float32([0.5]))",
                              "np.ma.masked_array([0.5], mask=[True])", "[[0.5]] * 3",
                              "iter([0.5])", "range(1)", "float('nan')", "Index(1)"])
        if roll == 16:
            return f"np.full({full}, 0.5).tolist()"
        if roll == 17:
            return f"np.zeros({full}, dtype={self.pick(ODD_DTYPES)!r})"
        if roll == 18:
            return f"np.full({full}, {lit(float(value))}, dtype=np.float64)"
        return f"np.lib.stride_tricks.as_strided(np.float32([0.5]), shape={full}, strides={lit(tuple([0] * (len(shape) + (1 if batch else 0))))})"

    def op_env_misc(self) -> str:
        k, env_id = self.env_slot()
        e = f"E[{k}]"
        core = f"{e}.unwrapped._core"
        return self.pick([
            f"{e}.render()", f"{e}.render()", f"{e}.unwrapped.action_mask()",
            f"{e}.unwrapped.state()", f"{e}.close()", f"{e}.close()", f"{core}.render_rgb()",
            f"{core}.render_text()", f"{core}.frame_size()", f"{core}.state_json()",
            f"{core}.reset_to_state({lit(self.state_text(env_id))})",
            f"{core}.seed({lit(self.pick([-1, 0, 2**64 - 1, 2**64, 1.5, None, 'x']))})",
            f"gym.utils.env_checker.check_env({e}.unwrapped, skip_render_check=True)",
            f"copy.deepcopy({e})", f"pickle.dumps({e})", f"repr({e}); {e}.spec; {e}.np_random",
            f"E.pop({k}, None)", f"{e}.unwrapped.observation_space.contains({e}.unwrapped.observation_space.sample())",
        ])

    def state_text(self, env_id: str) -> str:
        """JSON text of a state, valid or damaged as text."""
        roll = self.rng.randrange(6)
        state = self.hostile_state(env_id)
        if roll < 3 and json_safe(state):
            return json.dumps(state)
        return self.pick([
            "", "[", "null", "1e999", "-0", "[1e400, 0, 0, 0]", '{"row": 1e400, "col": -0}',
            '{"row": 18446744073709551616, "col": 0}', Expr('"[" * 100000 + "]" * 100000'),
            '{"position": 1, "position": 2}', '"\\ud800"', "[NaN, 0, 0, 0]", "\x00",
            self.nan_json(state),
        ])

    @staticmethod
    def nan_json(value) -> str:
        """JSON text as Python writes it with NaN and Infinity (which JSON has not)."""
        try:
            return json.dumps(value, allow_nan=True)
        except (TypeError, ValueError):
            return "[NaN]"

    def core_action(self, c: str, env_id: str) -> str:
        return self.action(f"rlrs.space_from_definition({c}.action_space_json())", env_id)

    def op_core_env(self) -> str:
        k = self.rng.randrange(self.CORE_SLOTS)
        env_id = self.core_ids.get(k) or self.good_id()
        c = f"C[{k}]"
        roll = self.rng.randrange(10)
        if roll < 3:
            env_id = self.good_id() if self.chance(0.9) else self.bad_id()
            kwargs, hostile = self.params(env_id if isinstance(env_id, str) else "")
            text = self.params_text(kwargs)
            seed = self.pick([0, self.seed_value(), 2**64 - 1, -1, 2**64])
            if isinstance(env_id, str):
                self.core_ids[k] = env_id
            call = f"rlrs._core.Environment({lit(env_id)}, {lit(text)}, {seed})"
            if hostile is not None and json_safe(kwargs) and env_id in self.cat.ids and 0 <= seed < 2**64:
                return f"{c} = expect_named({lit(hostile)}, lambda: {call})"
            return f"{c} = {call}"
        if roll < 5:
            return f"core_reset({c})"
        if roll < 7:
            return f"R = core_step({c}, {self.core_action(c, env_id)})"
        if roll < 8:
            return f"core_reset({c}, {lit(self.state_text(env_id))})"
        return self.pick([f"{c}.close()", f"{c}.state_json()", f"{c}.render_text()",
                          f"{c}.render_rgb()", f"{c}.action_mask()", f"{c}.frame_size()",
                          f"{c}.seed({self.seed_value()})", f"{c}.id"])

    def params_text(self, kwargs: dict):
        """The JSON text rlrs would send for `kwargs`, or damaged text."""
        if not kwargs and self.chance(0.3):
            return self.pick([None, "", "null", "[]", "{", '{"a":', "1e999", "{}" * 2,
                              Expr('"[" * 1000 + "]" * 1000'), '{"x": 1, "x": 2}', "\ud800"])
        if json_safe(kwargs):
            return json.dumps(kwargs)
        return json.dumps({k: v for k, v in kwargs.items() if json_safe(v)} or None)

    def op_functions(self) -> str:
        env_id = self.good_id() if self.chance(0.9) else self.bad_id()
        kwargs, hostile = self.params(env_id if isinstance(env_id, str) else "")
        text = self.params_text(kwargs)
        roll = self.rng.randrange(10)
        valid = env_id in self.cat.ids
        if roll < 4:
            seed = self.pick([0, 7, 2**64 - 1, -1])
            valid = valid and seed >= 0
            # The checker's default run (5 episodes of up to 1,000 steps, each compared step by
            # step in several ways) of an id whose episodes never end early takes seconds in
            # a release build (HumanoidStandup-v5: 22 s): those ids get a short run.
            slow = isinstance(env_id, str) and env_id.endswith("-v5")
            size = self.pick(["", ", episodes=1, max_steps=50", ", episodes=0", ", max_steps=10**9"])
            if slow and size == "":
                size = ", episodes=1, max_steps=100"
            # A bad run size is refused naming itself, not the hostile parameter.
            valid = valid and "=0" not in size and "10**9" not in size
            call = f"rlrs._core.check({lit(env_id)}, {lit(text)}, {seed}{size})"
        elif roll < 6:
            call = f"rlrs._core.domain_info({lit(env_id)}, {lit(text)})"
        elif roll < 7:
            return self.pick(["rlrs.ids()", "rlrs.entries()", f"rlrs._core.settings({lit(env_id)})",
                              'rlrs.register_envs(core_module="rlrs._core", namespace="rlrs")',
                              f'rlrs.register_envs(core_module={lit(self.pick(["os", "json", "no_such_module_xyz", "", "rlrs._core"]))}, namespace={lit(self.pick(["", "x/y", "fuzz", "rlrs"]))})'])
        elif roll < 8:
            # Issue 40: counts that size an allocation, deep Sequences and foreign objects,
            # each a ValueError, MemoryError or False, never an abort.
            nested = '{"type": "Discrete", "n": 2}'
            for _ in range(self.pick([1, 6, 7, 50])):
                nested = '{"type": "Sequence", "feature_space": ' + nested + '}'
            definition = self.pick([nested, '{"type": "Discrete", "n": 3}',
                                    '{"type": "Discrete", "n": 9223372036854775808}',
                                    '{"type": "Box", "low": 0, "high": 1, "shape": [4096, 4096], "dtype": "float32"}'])
            count = self.pick([0, 1, 3, 2**20, 2**20 + 1, 10**9, 2**63, 2**64, -1])
            fn = self.pick(["rlrs._core.space_samples", "rlrs._core.space_samples_jsonable"])
            if self.chance(0.3):
                thing = self.pick(["'x'", "None", "2**64 - 1", "np.uint64(2**64 - 1)", "[1, 2]", "1.5"])
                return f"rlrs._core.space_contains({lit(definition)}, {thing})"
            return f"{fn}({lit(definition)}, {self.pick([0, 7])}, {count})"
        else:
            definition = self.pick([
                '{"type": "discrete", "n": 0}', '{"type": "discrete", "n": 18446744073709551615}',
                '{"type": "box", "low": 0, "high": 1, "shape": [16777217]}',
                '{"type": "box", "low": 1, "high": 0, "shape": [2]}',
                '{"type": "box", "low": "-inf", "high": "inf", "shape": [3], "dtype": "float16"}',
                '{"type": "multi_binary", "n": [4096, 4096]}', '{"type": "tuple", "spaces": []}',
                '{"type": "dict", "spaces": {"a": {"type": "discrete", "n": 3}}}',
                '{"type": "multi_discrete", "nvec": [0, 2]}', "[" * 500 + "]" * 500, "",
                '{"type": "box", "low": [0, 1], "high": [1], "shape": [2]}',
            ])
            fn = self.pick(["rlrs._core.space_definition", "rlrs.space_from_definition"])
            return f"{fn}({lit(definition)})"
        if hostile is not None and json_safe(kwargs) and valid:
            return f"expect_named({lit(hostile)}, lambda: {call})"
        return call

    def num_envs(self):
        roll = self.rng.random()
        if roll < 0.65:
            return self.rng.randrange(1, 9)
        if roll < 0.8:
            return self.pick([16, 33, 64, 100, 257])
        return self.pick([0, -1, 2**40, 2**24 + 1, 2**63, 2**64, 2**64 - 1, -(2**63), 1.5, "4",
                          None, True, Expr("np.int64(3)"), float("nan"), [2], Expr("Index(2)")])

    def threads(self, n):
        roll = self.rng.random()
        if roll < 0.65:
            return 1
        if roll < 0.85:
            return self.rng.randrange(2, 5)
        bigger = n + 1 if isinstance(n, int) and not isinstance(n, bool) else 3
        return self.pick([0, -1, bigger, 2**20, 2**64, 2**32 + 1, 1.5, "2", None])

    def op_make_vec(self) -> str:
        k = self.rng.randrange(self.VEC_SLOTS)
        env_id = self.good_id() if self.chance(0.95) else self.bad_id()
        n = self.num_envs()
        kwargs, hostile = self.params(env_id if isinstance(env_id, str) else "") if self.chance(0.5) else ({}, None)
        options = []
        threads = self.threads(n)
        # Whether everything but the domain parameters is valid (then a refusal must name the
        # hostile parameter).
        valid = isinstance(env_id, str) and env_id in self.cat.ids and type(n) is int and 0 < n < 300
        valid = valid and type(threads) is int and 1 <= threads <= n
        if threads != 1 or self.chance(0.2):
            options.append(f"threads={lit(threads)}")
        if self.chance(0.6):
            mode = self.pick([Expr("AutoresetMode.NEXT_STEP"), Expr("AutoresetMode.SAME_STEP"),
                              Expr("AutoresetMode.DISABLED"), "next_step", "same_step", "disabled",
                              "Same_Step", "", 3, None])
            valid = valid and isinstance(mode, Expr)
            options.append(f"autoreset_mode={lit(mode)}")
        if self.chance(0.5):
            options.append(f"copy={self.pick([True, False, False])}")
        if self.chance(0.4):
            options.append(f"record_episode_statistics={self.pick([True, False])}")
        if self.chance(0.05):
            # No frames of the MuJoCo ids (see Catalogue.render_modes).
            mode = self.pick(['ansi', None] if isinstance(env_id, str) and env_id in self.cat.mujoco_ids else ['ansi', 'rgb_array', None])
            valid = valid and mode is None
            options.append(f"render_mode={lit(mode)}")
        explicit = "".join(", " + o for o in options)
        extra = explicit + self.kwargs_source(kwargs, explicit + " num_envs= vectorization_mode=")
        if isinstance(env_id, str):
            self.vec_ids[k] = env_id
        if self.chance(0.85):
            call = f"rlrs.RustVectorEnv({lit(env_id)}, {lit(n)}{extra})"
        else:
            gym_id = "rlrs/" + env_id if isinstance(env_id, str) else Expr(f'"rlrs/" + {lit(env_id)}')
            call = f'gym.make_vec({lit(gym_id)}, num_envs={lit(n)}, vectorization_mode="vector_entry_point"{extra})'
        wrapped = hostile in WRAPPER_ARGUMENTS and (hostile != "max_episode_steps" or call.startswith("gym."))
        if hostile is not None and valid and not wrapped:
            return f"V[{k}] = expect_named({lit(hostile)}, lambda: {call})"
        return f"V[{k}] = {call}"

    def vec_seed(self, v: str):
        roll = self.rng.random()
        if roll < 0.35:
            return None
        if roll < 0.65:
            return self.seed_value()
        return self.pick([
            -1, 2**64 - 1, 2**64 - 2, 2**63, 1.5, "1", True, [], [1, 2, 3],
            Expr(f"list(range({v}.num_envs))"), Expr(f"[None] * {v}.num_envs"),
            Expr(f"[-1] + [0] * ({v}.num_envs - 1)"), Expr(f"[2**64 - 1] * {v}.num_envs"),
            Expr(f"np.arange({v}.num_envs)"), Expr(f"[1.5] * {v}.num_envs"),
            Expr(f"[None, 2**64] + [3] * ({v}.num_envs - 2)"), Expr("(s for s in [1])"),
            10**30, Expr(f"[10**30, None] * {v}.num_envs"), Expr(f"[2**70] * {v}.num_envs"),
            Expr(f"[Index(1)] * {v}.num_envs"), Expr(f"tuple(range({v}.num_envs))"),
        ])

    def op_vec_reset(self) -> str:
        k, _ = self.vec_slot()
        v = f"V[{k}]"
        seed = self.vec_seed(v)
        parts = [] if seed is None and self.chance(0.5) else [f"seed={lit(seed)}"]
        if self.chance(0.12):
            parts.append("options=" + lit(self.pick([
                {}, {"reset_mask": Expr(f"np.ones({v}.num_envs, bool)")}, {"state": [0, 0, 0, 0]},
                {"x": 1}, [], "x", None])))
        return f"O[{k}] = vreset({v}{''.join(', ' + p for p in parts)})"

    def batch_action(self, v: str, env_id: str) -> str:
        spec = self.cat.action.get(env_id, ("other",))
        roll = self.rng.random()
        if roll < 0.5:
            return f"sample({v}.action_space, {self.seed_value()})"
        if spec[0] == "discrete":
            n, start = spec[1], spec[2]
            return self.pick([
                f"np.full({v}.num_envs, {start + n})", f"np.full({v}.num_envs, -1)",
                f"np.full({v}.num_envs, 2**63 - 1)", f"np.zeros({v}.num_envs, np.uint64) - np.uint64(1)",
                f"np.zeros({v}.num_envs + 1, np.int64)", f"np.zeros(({v}.num_envs, 1), np.int64)",
                f"np.zeros({v}.num_envs, np.float64)", f"np.full({v}.num_envs, np.nan)",
                f"[{start}] * {v}.num_envs", f"[{start}.0] * {v}.num_envs", f"[None] * {v}.num_envs",
                f"np.zeros(2 * {v}.num_envs, np.int64)[::-2]", f"np.zeros(2 * {v}.num_envs, np.int32)[::2]",
                f"readonly(np.zeros({v}.num_envs, np.int64))", f"unaligned(np.zeros({v}.num_envs, np.int64))",
                f"np.zeros({v}.num_envs, '>i8')", f"np.zeros({v}.num_envs, bool)", f"np.zeros({v}.num_envs, object)",
                f"np.zeros({v}.num_envs, np.int8)", f"[Index({start})] * {v}.num_envs", f"{start}",
                "None", '"0"', f"np.broadcast_to(np.int64({start}), ({v}.num_envs,))",
                f"np.lib.stride_tricks.as_strided(np.int64([{start}]), shape=({v}.num_envs,), strides=(0,))",
                f"np.array([{start}] * {v}.num_envs, dtype=np.int64).reshape(-1, 1)[:, 0]",
                f"[2**64] * {v}.num_envs", f"np.full({v}.num_envs, {start}, dtype=np.uint64)",
            ])
        shape = spec[1] if spec[0] == "box" else (1,)
        low, high = (spec[3], spec[4]) if spec[0] == "box" else (-1.0, 1.0)
        return self.array_source(shape, low, high, batch=f"{v}.num_envs")

    def op_vec_step(self) -> str:
        k, env_id = self.vec_slot()
        v = f"V[{k}]"
        return f"O[{k}] = vstep({v}, {self.batch_action(v, env_id)})"

    def op_vec_alias(self) -> str:
        """Actions that are views of the vector's own output buffer, and read-only outputs."""
        k, env_id = self.vec_slot()
        v = f"V[{k}]"
        core = f"{v}._core"
        spec = self.cat.action.get(env_id, ("other",))
        views = [f"{core}.episode_lengths", f"{core}.rewards", f"{core}.observations[:, 0]",
                 f"{core}.observations[:, :1]", f"{core}.final_observations[:, :1]",
                 f"{core}.terminated", f"{core}.observations.base[:{v}.num_envs]",
                 f"{core}.observations.base.view(np.int64)[:{v}.num_envs]",
                 f"O[{k}][0]", f"O[{k}][1]", f"O[{k}][-1]['episode']['l']", f"{core}.episode_times[:, None]",
                 f"{core}.observations", f"{core}.rewards[::-1]", f"{core}.episode_lengths * 0"]
        view = self.pick(views)
        roll = self.rng.randrange(8)
        if roll < 3:
            return f"O[{k}] = vstep({v}, {view})"
        if roll == 3:
            method = "step_discrete" if spec[0] == "discrete" else "step_array"
            return f"{core}.{method}({view})"
        if roll == 4:
            return f"{core}.step_elements(list({view}))"
        if roll == 5:
            target = self.pick([f"{core}.observations.base", f"{core}.observations",
                                f"{core}.rewards", f"{core}.episode_mask", f"{core}.final_observations.base"])
            return f"{target}.setflags(write=False)\nO[{k}] = vstep({v}, {self.batch_action(v, env_id)})"
        if roll == 6:
            return f"{core}.observations.base.setflags(write=True)"
        return f"O[{k}] = vstep({v}, {self.batch_action(v, env_id)})"

    def op_vec_misc(self) -> str:
        k, _ = self.vec_slot()
        v = f"V[{k}]"
        core = f"{v}._core"
        return self.pick([
            f"{v}.close()", f"{v}.close()", f"O[{k}] = ({v}.reset_ended(), {{}})",
            f"{core}.seed({lit(self.pick([0, 2**64 - 1, 2**64 - 2, -1, 2**64, None]))})",
            f"{core}.seed_each({lit(self.vec_seed(v))})",
            # The core's seeds of any size: each a list of 32-bit words (or None), hostile too.
            f"{core}.seed_each([{lit(self.pick([None, [5, 0, 1], [], [0] * 9, [2**32], [-1], 'x']))}]"
            f" * {v}.num_envs)",
            f"{core}.seed_words({lit(self.pick([[5, 0, 1], [], [2**32 - 1] * 40, [2**32], [-1]]))})",
            f"{core}.infos()", f"{core}.final_infos()",
            f"{v}.render()", f"{v}.num_envs, {v}.observation_space, {v}.metadata, repr({v})",
            f"W = gym.wrappers.vector.RecordEpisodeStatistics({v})\nvreset(W, seed=1)\nfor i in range(30):\n    vstep(W, sample(W.action_space, i))",
            f"V.pop({k}, None)", f"{core}.close(); {core}.reset()", f"copy.deepcopy({v})",
            f"{core}.observations.base.setflags(write=True)",
            f"{v}.observation_space.contains({v}.observation_space.sample())",
        ])

    def op_threads(self) -> str:
        rng = self.rng
        if self.chance(0.5):
            k, env_id = self.env_slot()
            e = f"E[{k}].unwrapped" if k in self.human else f"E[{k}]"
            bodies = [
                f"lambda: repeat(lambda: {e}.step(sample({e}.action_space, {self.seed_value()})), 30)",
                f"lambda: repeat(lambda: {e}.reset(seed={self.seed_value()}), 30)",
                f"lambda: repeat({e}.unwrapped.state, 30)", f"lambda: repeat({e}.render, 5)",
                f"lambda: {e}.close()", f"lambda: repeat({e}.unwrapped.action_mask, 30)",
                f"lambda: repeat(lambda: {e}.reset(options={{'state': {lit(self.hostile_state(env_id))}}}), 20)",
                f"lambda: repeat(lambda: {e}.unwrapped._core.render_rgb(), 3)",
            ]
            chosen = [self.pick(bodies) for _ in range(rng.randrange(2, 5))]
            return f"run_threads([{', '.join(chosen)}])"
        if self.chance(0.8) or not self.cat.driver:
            k, env_id = self.vec_slot()
            v = f"V[{k}]"
            bodies = [
                f"lambda: repeat(lambda: {v}.step(a), 30)", f"lambda: repeat(lambda: {v}.step(a), 30)",
                f"lambda: repeat(lambda: {v}.reset(seed={self.seed_value()}), 20)",
                f"lambda: {v}.close()", f"lambda: repeat({v}._core.infos, 30)",
                f"lambda: repeat(lambda: {v}._core.observations.base.setflags(write=False), 3)",
                f"lambda: repeat(lambda: {v}._core.seed({self.seed_value()}), 30)",
                f"lambda: repeat({v}.reset_ended, 10)",
            ]
            chosen = [self.pick(bodies) for _ in range(rng.randrange(2, 5))]
            return f"a = sample({v}.action_space, {self.seed_value()})\nrun_threads([{', '.join(chosen)}])"
        bodies = ["lambda: repeat(lambda: D[0].run(50), 10)",
                  f"lambda: repeat(lambda: D[0].set_rows(np.zeros((2, {self.driver_envs}), np.int64)), 50)",
                  "lambda: repeat(D[0].observations, 50)", "lambda: repeat(lambda: D[0].run(50), 10)"]
        chosen = [self.pick(bodies) for _ in range(rng.randrange(2, 4))]
        return f"run_threads([{', '.join(chosen)}])"

    def op_reenter(self) -> str:
        if self.chance(0.5):
            k, env_id = self.env_slot()
            e = f"E[{k}]"
            call = self.pick([f"{e}.step(sample({e}.action_space, 1))", f"{e}.reset()",
                              f"{e}.close()", f"{e}.render()", f"{e}.unwrapped.state()",
                              f"E.pop({k})", f"{e}.unwrapped._core.reset_to_state('[0, 0, 0, 0]')",
                              f"{e}.reset(options={{'state': {lit(self.hostile_state(env_id))}}})"])
            value = f"sample({e}.action_space, {self.seed_value()})"
            if self.chance(0.5):
                return f"R = step({e}, Reenter(lambda: {call}, {value}))"
            return f"R = {e}.step([Reenter(lambda: {call}, {value})])"
        k, env_id = self.vec_slot()
        v = f"V[{k}]"
        call = self.pick([f"{v}.step(sample({v}.action_space, 1))", f"{v}.reset()", f"{v}.close()",
                          f"{v}._core.observations.base.setflags(write=False)", f"V.pop({k})",
                          f"{v}._core.seed(3)", f"{v}.reset_ended()",
                          f"{v}._core.step_elements([0] * {v}.num_envs)"])
        value = f"sample({v}.action_space, {self.seed_value()})"
        form = self.rng.randrange(3)
        if form == 0:
            return f"O[{k}] = vstep({v}, Reenter(lambda: {call}, {value}))"
        if form == 1:
            return f"{v}._core.step_elements([Reenter(lambda: {call}, x) for x in {value}])"
        method = "step_array" if self.cat.action.get(env_id, ("",))[0] != "discrete" else "step_discrete"
        return f"{v}._core.{method}(Reenter(lambda: {call}, {value}))"

    def op_driver(self) -> str:
        roll = self.rng.randrange(10)
        if roll < 3:
            env_id = self.good_id() if self.chance(0.9) else self.bad_id()
            n = self.num_envs() if self.chance(0.3) else self.rng.randrange(1, 9)
            self.driver_envs = n if isinstance(n, int) and not isinstance(n, bool) and 0 < n < 300 else 4
            threads = self.threads(n)
            seed = self.pick([0, self.seed_value(), 2**64 - 1, -1])
            return f"D[0] = rlrs._core.RustDriver({lit(env_id)}, {lit(n)}, {seed}, {lit(threads)})"
        if roll < 6:
            width = str(self.driver_envs)
            rows = self.pick([f"np.zeros((3, {width}), np.int64)", f"np.ones((2, {width}), np.int64)",
                              f"np.full((1, {width}), 7)", f"np.full((1, {width}), -1, np.int64)",
                              "np.zeros((0, 4), np.int64)", f"np.zeros((2, {width} + 1), np.int64)",
                              f"np.zeros((4, {width}), np.int64)[::-2]", f"np.zeros((2, {width}), np.float64)",
                              f"readonly(np.zeros((2, {width}), np.int64))", "np.zeros(4, np.int64)",
                              f"np.asfortranarray(np.zeros((2, {width}), np.int64))",
                              f"unaligned(np.zeros((2, {width}), np.int64))"])
            return f"D[0].set_rows({rows})"
        if roll < 9:
            return f"D[0].run({lit(self.pick([0, 1, 10, 100, 200, -1, 2**64, 1.5, None]))})"
        return "D[0].observations()"

    def op_pool(self) -> str:
        """EnvPool's asynchronous API (`rlrs.make_pool`): a pool made with good or hostile
        sizes, then a random run of `async_reset` (of all or of hostile ids), `send` (hostile ids
        and actions, environments in flight sent again), `recv` (with too few in flight),
        `step`, `reset` (of all, of hostile ids, of a hostile `reset_mask`, with a seed) and
        `close`, each
        call's ordinary exception ignored; sometimes from several threads at once. Kept in one
        operation (a pool left in flight is dropped at its end: its workers must stop)."""
        rng = self.rng
        env_id = self.good_id()
        n = self.pick([1, 2, 3, 4, 8])
        if self.chance(0.8):
            batch = self.pick([None, 1, n, max(1, n // 2)])
            threads = self.pick([None, 1, min(2, n)])
            seed = self.seed_value()
        else:
            batch = self.pick([None, 1, n, 0, n + 1, -1, 2**64])
            threads = self.pick([None, 1, 0, n + 1, -1])
            seed = self.pick([self.seed_value(), -1, 2**64, 1.5])
        lines = [f"P = rlrs.make_pool({env_id!r}, num_envs={n}, batch_size={batch!r}, "
                 f"num_threads={threads!r}, seed={seed!r})"]
        if self.chance(0.8):
            lines.append("repeat(P.async_reset, 1)")
        ids = [Expr("None"), 0, n - 1, n, -1, 2**63, [0, 0], list(range(n)), list(range(n))[::-1],
               Expr("np.array([], np.int64)"), Expr(f"np.arange({n}, dtype=np.uint8)"), 0.5, "0",
               Expr(f"P.recv()[4]['env_id'] if P.batch_size else None")]
        calls = []
        for _ in range(rng.randrange(3, 14)):
            roll = rng.random()
            if roll < 0.4:
                env = self.pick(ids)
                count = n if isinstance(env, Expr) and env.source == "None" else (
                    len(env) if isinstance(env, list) else 1)
                action = self.pick([
                    Expr(f"np.stack([sample(P.action_space, {self.seed_value()}) for _ in range({count})])"),
                    Expr(f"[sample(P.action_space, {self.seed_value()}) for _ in range({count})]"),
                    Expr(f"np.zeros(({count + self.pick([0, 0, 1])},) + P.action_space.shape)"),
                    Expr(f"np.full(({count},) + P.action_space.shape, np.nan)"),
                    Expr("None"), 3,
                ])
                calls.append(f"lambda: P.send({lit(action)}, {lit(env)})")
            elif roll < 0.7:
                calls.append("lambda: P.recv()")
            elif roll < 0.8:
                calls.append(self.pick(["P.async_reset", f"lambda: P.async_reset({lit(self.pick(ids))})"]))
            elif roll < 0.88:
                calls.append(f"lambda: P.step(np.stack([sample(P.action_space, {self.seed_value()}) for _ in range({n})]))")
            elif roll < 0.95:
                mask = self.pick([Expr(f"np.arange({n}) % 2 == 0"), Expr(f"np.zeros({n}, bool)"),
                                  Expr(f"np.ones({n + 1}, bool)"), [1] * n])
                calls.append(self.pick([
                    "lambda: P.reset()", f"lambda: P.reset({lit(self.pick(ids))})",
                    f"lambda: P.reset(options={{'reset_mask': {lit(mask)}}})",
                    f"lambda: P.reset(seed={lit(self.pick([self.seed_value(), -1, 2**64]))})",
                ]))
            else:
                calls.append("P.close")
        if self.chance(0.25):
            lines.append(f"run_threads([{', '.join(f'lambda: repeat({c}, 5)' for c in calls[:4])}])")
        else:
            lines.extend(f"repeat({call}, 1)" for call in calls)
        # The first recv after a reset waits for real results: a hang here is a finding.
        lines.append("del P")
        return "try:\n" + "\n".join("    " + line for line in lines[:1]) + (
            "\nexcept Exception:\n    P = None\nif P is not None:\n"
            + "\n".join("    " + line for line in lines[1:-1]) + "\n" + lines[-1] + "\n")

    def op_misc(self) -> str:
        return self.pick(["gc.collect()", "E.clear(); C.clear(); gc.collect()",
                          "V.clear(); O.clear(); gc.collect()", "D.clear()",
                          f"rlrs._core.Vector({lit(self.good_id())}, None, {lit(self.num_envs())}, {self.pick([0, 2**64 - 1, -1])}, {lit(self.pick(['next_step', 'same_step', 'disabled', '', 'NEXT_STEP', 'x' * 1000]))}, {lit(self.threads(2))})"])

    def op_big(self) -> str:
        """Sizes inside the documented maxima that need gigabytes, or thousands of threads: a
        vector made (up to 2^20 environments also reset and stepped once) and dropped in one
        operation (kept, every later operation on it would take seconds)."""
        env_id = self.good_id()
        if self.chance(0.7):
            n = self.pick([2**20, 2**21, 2**22, 2**23, 2**24])
            make = f"rlrs.RustVectorEnv({lit(env_id)}, {n})"
        else:
            n = self.pick([1024, 4096])
            make = f"rlrs.RustVectorEnv({lit(env_id)}, {n}, threads={n})"
        if n > 2**20:
            # (Resetting and stepping 2^21 environments takes 10 s and more in a debug build.)
            return f"big = {make}\nbig.close()\ndel big"
        return (f"big = {make}\ntry:\n    vreset(big, seed=1)\n    big.step(sample(big.action_space, 1))\n"
                f"finally:\n    big.close()\n    del big")


# The operations each batch starts with: a good construction for every slot.
PROLOGUE = Generator.ENV_SLOTS + Generator.CORE_SLOTS + Generator.VEC_SLOTS + 1


def batch_rng(seed: int, batch: int) -> random.Random:
    return random.Random(f"rlrs-fuzz:{seed}:{batch}")


def generate(catalogue: Catalogue, seed: int, batch: int, count: int) -> list[tuple[str, str]]:
    """The `count` operations of batch `batch` under master seed `seed`: (kind, code) pairs."""
    generator = Generator(batch_rng(seed, batch), catalogue)
    return [generator.operation() for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# The worker: runs operations in this process and reports what happened.
# ---------------------------------------------------------------------------------------------

PANIC_TEXT = re.compile(rb"panicked at|panicked while")


def worker(ops: list[tuple[str, str]], start: int, progress_path: str, result_path: str,
           deadline: float | None, prologue: int = 0) -> int:
    """Runs the operations `ops[start:]` ((kind, code) pairs), writing the index of each to
    `progress_path` before it runs. `result_path` gets JSON lines as it goes, so that a parent
    whose child died still reads them: each finding at once, the outcome counts (by
    operation kind) every 200 operations, and the outcome of each operation and an end mark
    at the end."""
    import warnings

    warnings.simplefilter("ignore")
    namespace: dict = {"__name__": "__fuzz__"}
    exec(PRELUDE, namespace)
    for name, (source, _) in HELPERS.items():
        exec(source, namespace)
    exec(SLOTS, namespace)
    progress = os.open(progress_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    result = open(result_path, "w")

    def record(entry: dict) -> None:
        result.write(json.dumps(entry) + "\n")
        result.flush()

    outcomes: Counter = Counter()  # "kind|outcome" -> count
    per_op: list[str] = []
    stderr_seen = os.fstat(2).st_size

    def stderr_panic() -> bytes | None:
        nonlocal stderr_seen
        size = os.fstat(2).st_size
        if size <= stderr_seen:
            return None
        text = os.pread(2, min(size - stderr_seen, 1 << 16), stderr_seen)
        stderr_seen = size
        return text if PANIC_TEXT.search(text) else None

    done = 0
    # The last "operation" drops everything the batch made (destructors run there).
    teardown = ("teardown", "E.clear(); C.clear(); V.clear(); O.clear(); D.clear(); gc.collect()")
    # A child that starts after one that died first runs the batch's prologue again (the
    # constructions that fill every slot), not counted.
    replayed = list(range(min(prologue, start))) if start > 0 else []
    for index in replayed + list(range(start, len(ops) + 1)):
        if deadline is not None and time.time() > deadline:
            break
        os.pwrite(progress, b"%12d\n" % index, 0)
        op_kind, code = ops[index] if index < len(ops) else teardown
        kind = message = None
        try:
            exec(code, namespace)
            outcome = "returned"
        except Exception as error:
            outcome = type(error).__name__
            if "panick" in str(error):
                kind, message = "panic", f"{type(error).__name__}: {error}"
        except BaseException as error:  # noqa: B036 - catching these is the point
            outcome = name = type(error).__name__
            message = f"{name}: {error}"
            kind = {"PanicException": "panic", "WrongState": "wrong-state", "Hang": "hang",
                    "UnnamedRefusal": "unnamed-refusal"}.get(name, "base-exception")
        printed = stderr_panic()
        if kind is None and printed is not None:
            kind = "panic"
            message = "a Rust panic was printed: " + printed.decode(errors="replace").strip().splitlines()[0][:300]
        if kind is not None:
            record({"finding": {"index": index, "kind": kind, "message": message[:2000]}})
        if index < len(ops) and (index >= start or not replayed):
            outcomes[f"{op_kind}|{outcome}"] += 1
            per_op.append(outcome)
            done += 1
            if done % 200 == 0:
                record({"outcomes": outcomes, "done": done})
    record({"outcomes": outcomes, "done": done, "per_op": per_op, "end": True})
    result.close()
    sys.stdout.flush()
    sys.stderr.flush()
    # No interpreter teardown: threads a hang left behind must not keep the child alive.
    os._exit(0)


# ---------------------------------------------------------------------------------------------
# The parent: batches in child processes, findings, shrinking.
# ---------------------------------------------------------------------------------------------


class ChildOutcome:
    """What one child process did."""

    def __init__(self) -> None:
        self.done = 0
        self.findings: list[dict] = []
        self.outcomes: Counter = Counter()
        self.per_op: list[str] = []
        self.died_at: int | None = None  # the operation running when the child died or hung


def child_env() -> dict:
    env = dict(os.environ)
    # Fewer helper threads (and their reserved address space) under the memory limit.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    env["RUST_BACKTRACE"] = "0"  # the first line of a panic or abort says enough
    env["PYTHONFAULTHANDLER"] = "1"
    return env


def read_progress(path: str, default: int) -> int:
    try:
        with open(path) as file:
            return int(file.read().strip() or default)
    except (OSError, ValueError):
        return default


def run_child(arguments: list[str], start: int, total: int, timeout: float, memory_mb: int,
              workdir: str, op_timeout: float | None = None) -> ChildOutcome:
    """Runs this file as a worker with `arguments`, from operation `start` of `total`; kills
    it when it runs longer than `timeout` seconds in all or `op_timeout` on one operation."""
    progress = os.path.join(workdir, "progress")
    result = os.path.join(workdir, "result.json")
    stderr_path = os.path.join(workdir, "stderr")
    for path in (progress, result):
        if os.path.exists(path):
            os.unlink(path)
    command = [sys.executable, os.path.abspath(__file__), "--worker", "--start", str(start),
               "--progress", progress, "--result", result, "--memory-mb", str(memory_mb)] + arguments
    outcome = ChildOutcome()
    with open(stderr_path, "w+b") as stderr:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=stderr, env=child_env(), start_new_session=True)
        began = time.monotonic()
        current, since = None, began
        timed_out = ""
        while True:
            try:
                status = process.wait(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            at = read_progress(progress, -1)
            if at != current:
                current, since = at, now
            if now - began > timeout:
                timed_out = f"the child ran past its {timeout:.0f} s timeout during this operation"
            elif op_timeout is not None and now - since > op_timeout:
                timed_out = f"this operation ran longer than {op_timeout:.0f} s"
            if timed_out:
                os.killpg(process.pid, signal.SIGKILL)
                status = process.wait()
                break
        stderr.seek(0, os.SEEK_END)
        size = stderr.tell()
        stderr.seek(max(0, size - 4000))
        tail = stderr.read().decode(errors="replace")
    ended = False
    if os.path.exists(result):
        with open(result) as file:
            for line in file:
                try:
                    entry = json.loads(line)
                except ValueError:  # a line the child was writing when it died
                    continue
                if "finding" in entry:
                    outcome.findings.append(entry["finding"])
                if "outcomes" in entry:
                    outcome.outcomes = Counter(entry["outcomes"])
                    outcome.done = entry["done"]
                if entry.get("end"):
                    outcome.per_op = entry["per_op"]
                    ended = True
    if not timed_out and status == 0 and ended:
        return outcome
    at = read_progress(progress, start)
    outcome.died_at = at
    outcome.done = max(0, min(at, total) - start)  # the operations before the one it died in
    if timed_out:
        kind, message = "hang", timed_out
    elif status < 0:
        name = signal.Signals(-status).name if -status in signal.Signals._value2member_map_ else str(-status)
        if "memory allocation of" in tail:
            kind = "memory"
        elif -status == signal.SIGABRT:
            kind = "abort"
        else:
            kind = "signal"
        message = f"the child died by {name}"
    else:
        kind, message = "exit", f"the child exited with status {status} without a result"
    lines = [line for line in tail.splitlines() if line.strip()]
    interesting = [line for line in lines if not line.startswith(("  ", "stack backtrace", "note:"))]
    if interesting and not timed_out:
        message += "; stderr: " + " | ".join(interesting[-4:])[:600]
    outcome.findings.append({"index": at, "kind": kind, "message": message})
    return outcome


class Batch:
    def __init__(self, number: int, count: int) -> None:
        self.number = number
        self.count = count
        self.done = 0
        self.findings: list[dict] = []
        self.outcomes: Counter = Counter()
        self.children = 0
        self.seconds = 0.0


def run_batch(args, number: int, count: int, deadline: float | None) -> Batch:
    """Runs batch `number` (its `count` operations) in child processes: a new child resumes
    after the operation a dead or hung child was running."""
    batch = Batch(number, count)
    base = ["--seed", str(args.seed), "--batch-index", str(number), "--batch", str(count)]
    if deadline is not None:
        base += ["--deadline", repr(deadline)]
    start = 0
    with tempfile.TemporaryDirectory(prefix="rlrs-fuzz-") as workdir:
        while start <= count:
            outcome = run_child(base, start, count, args.timeout, args.memory_mb, workdir, args.op_timeout)
            batch.children += 1
            batch.done += outcome.done
            batch.outcomes.update(outcome.outcomes)
            for finding in outcome.findings:
                finding["batch"] = number
                finding["start"] = start  # the child's first operation: its state began there
                batch.findings.append(finding)
            if outcome.died_at is None:
                break
            if start <= outcome.died_at < count:
                batch.outcomes["(died in)|(died)"] += 1
                batch.done += 1
            # (A child that died while it replayed the prologue still moves on.)
            start = max(outcome.died_at, start) + 1
            if deadline is not None and time.time() > deadline:
                break
    return batch


def replay(codes: list[str], timeout: float, memory_mb: int) -> ChildOutcome:
    """Runs the operations `codes` in a fresh child (for shrinking), `timeout` seconds at
    most for each."""
    with tempfile.TemporaryDirectory(prefix="rlrs-fuzz-replay-") as workdir:
        ops_path = os.path.join(workdir, "ops.json")
        with open(ops_path, "w") as file:
            json.dump(codes, file)
        return run_child(["--replay", ops_path], 0, len(codes), timeout * (len(codes) + 1),
                         memory_mb, workdir, timeout)


def reproduces(codes: list[str], kind: str, timeout: float, memory_mb: int) -> ChildOutcome | None:
    """The replay of `codes` if it has a finding of `kind` at their last operation (or at the
    teardown after it), else None."""
    outcome = replay(codes, timeout, memory_mb)
    for finding in outcome.findings:
        if finding["kind"] == kind and finding["index"] in (len(codes) - 1, len(codes)):
            return outcome
    return None


SLOT_PATTERN = re.compile(r"\b([ECVOD])\[(\d+)\]|\b([ECVOD])\.(?:clear|pop)\b")


def slots_of(code: str) -> set[str]:
    slots = set()
    for match in SLOT_PATTERN.finditer(code):
        if match.group(1):
            slots.add(match.group(1) + match.group(2))
        else:
            slots.add(match.group(3) + "*")
    # A vector's outputs O[k] belong with V[k].
    return slots | {"V" + s[1:] for s in slots if s[0] == "O"} | {"O" + s[1:] for s in slots if s[0] == "V"}


def touches(code_slots: set[str], wanted: set[str]) -> bool:
    for slot in code_slots:
        if slot in wanted or (slot.endswith("*") and any(w[0] == slot[0] for w in wanted)):
            return True
    return False


def shrink(codes: list[str], index: int, kind: str, args, budget_seconds: float) -> tuple[list[str], list[str] | None]:
    """The shortest list of operations found, ending with operation `index`, that still gives
    a finding of `kind` at its end in a fresh process, and the outcome of each of them (None
    when not even the whole prefix reproduced it)."""
    # A deadlock shows within seconds (run_threads gives up after 10), and every replay
    # that reproduces a hang waits this long.
    timeout = min(args.op_timeout, 12.0) if kind == "hang" else args.op_timeout
    started = time.monotonic()
    last = codes[index] if index < len(codes) else None
    prefix = codes[:index]
    # Threads make a finding depend on timing: a candidate gets a second chance.
    attempts = 2 if last is not None and "run_threads" in last else 1

    def check(candidate_prefix: list[str]) -> ChildOutcome | None:
        candidate = candidate_prefix + ([last] if last is not None else [])
        if not candidate:
            return None
        for _ in range(attempts):
            outcome = reproduces(candidate, kind, timeout, args.memory_mb)
            if outcome is not None:
                return outcome
        return None

    # 1. The operation alone; 2. the operations that share its slots; 3. the whole prefix.
    outcome = check([])
    if outcome is not None:
        return [last], outcome.per_op
    wanted = slots_of(last) if last is not None else set()
    related = []
    for code in reversed(prefix if last is not None else []):
        code_slots = slots_of(code)
        if touches(code_slots, wanted):
            related.append(code)
            wanted |= {s for s in code_slots if not s.endswith("*")}
    related.reverse()
    current = None
    if related and len(related) < len(prefix):
        outcome = check(related)
        if outcome is not None:
            current, best = related, outcome
    if current is None:
        outcome = check(prefix)
        if outcome is None:
            return codes[: index + 1], None
        current, best = prefix, outcome
    # 4. Remove chunks while it still reproduces (delta debugging, within the time budget).
    chunk = max(1, len(current) // 2)
    while chunk >= 1 and time.monotonic() - started < budget_seconds:
        position = 0
        removed_any = False
        while position < len(current) and time.monotonic() - started < budget_seconds:
            candidate = current[:position] + current[position + chunk:]
            outcome = check(candidate) if candidate or last is not None else None
            if outcome is not None:
                current, best = candidate, outcome
                removed_any = True
            else:
                position += chunk
        if not removed_any:
            chunk //= 2
    return current + ([last] if last is not None else []), best.per_op


def snippet(codes: list[str], per_op: list[str] | None, memory_mb: int = 4096) -> str:
    """A standalone Python snippet running `codes` under the fuzzer's address-space limit
    (ordinary exceptions of all but the last caught, as in the fuzzer)."""
    lines = ['"""rlrs fuzz reproduction: run with the Python that has rlrs installed."""',
             "import resource",
             f"resource.setrlimit(resource.RLIMIT_AS, ({memory_mb} << 20, {memory_mb} << 20))  # as the fuzzer's children",
             PRELUDE.rstrip()]
    lines.append('warnings.simplefilter("ignore")')
    for name in helpers_for(codes):
        lines.append(HELPERS[name][0].rstrip())
    lines.append(SLOTS.rstrip())
    for position, code in enumerate(codes):
        raised = per_op is not None and position < len(per_op) and per_op[position] != "returned"
        if position == len(codes) - 1 or not raised:
            lines.append(code)
        else:
            lines.append("try:\n" + "\n".join("    " + line for line in code.splitlines())
                         + f"\nexcept Exception as error:  # {per_op[position]}\n    pass")
    return "\n".join(lines) + "\n"


def signature(finding: dict, kinds: dict) -> tuple:
    """Findings that are the same bug: same kind, same operation kind, same message shape."""
    message = re.sub(r"'[^']*'|`[^`]*`|\"[^\"]*\"", "'…'", finding["message"])
    message = re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?(e[-+]?\d+)?", "#", message)
    message = re.sub(r"array\(.*", "array(...)", message)[:160]
    return finding["kind"], kinds.get((finding["batch"], finding["index"]), "teardown"), message


def parent(args) -> int:
    started = time.time()
    deadline = started + args.seconds if args.seconds else None
    sizes = []
    remaining = args.operations
    while remaining > 0:
        sizes.append(min(args.batch, remaining))
        remaining -= sizes[-1]
    print(f"rlrs fuzz: seed {args.seed}, {args.operations} operations in batches of {args.batch}, "
          f"{args.jobs} job(s), timeouts {args.timeout:.0f} s per batch and {args.op_timeout:.0f} s per operation, "
          f"{args.memory_mb} MB per process"
          + (f", at most {args.seconds:.0f} s" if args.seconds else ""), flush=True)
    batches: list[Batch] = []
    lock = threading.Lock()

    def one(number: int) -> Batch | None:
        if deadline is not None and time.time() > deadline:
            return None
        began = time.time()
        batch = run_batch(args, number, sizes[number], deadline)
        batch.seconds = time.time() - began
        with lock:
            batches.append(batch)
            if args.verbose or batch.findings:
                print(f"  batch {number}: {batch.done} operations, {len(batch.findings)} finding(s), "
                      f"{batch.children} child process(es), {batch.seconds:.1f} s", flush=True)
        return batch

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, range(len(sizes))))
    fuzz_seconds = time.time() - started

    operations = sum(batch.done for batch in batches)
    findings = [finding for batch in sorted(batches, key=lambda b: b.number) for finding in batch.findings]
    outcomes: Counter = Counter()
    for batch in batches:
        outcomes.update(batch.outcomes)

    exit_status = 0
    if findings:
        exit_status = 1
        catalogue = Catalogue()
        generated: dict[int, list[tuple[str, str]]] = {}

        def ops_of(number: int) -> list[tuple[str, str]]:
            if number not in generated:
                generated[number] = generate(catalogue, args.seed, number, sizes[number])
            return generated[number]

        kinds = {}
        for finding in findings:
            ops = ops_of(finding["batch"])
            if finding["index"] < len(ops):
                kinds[(finding["batch"], finding["index"])] = ops[finding["index"]][0]
        groups: dict[tuple, list[dict]] = {}
        for finding in findings:
            groups.setdefault(signature(finding, kinds), []).append(finding)
        print(f"\n{len(findings)} finding(s), {len(groups)} distinct:")
        shrink_started = time.time()
        for number, (key, members) in enumerate(groups.items(), 1):
            first = members[0]
            where = ", ".join(f"batch {f['batch']} op {f['index']}" for f in members[:6])
            more = f" and {len(members) - 6} more" if len(members) > 6 else ""
            print(f"\n[{number}] {first['kind']} in a {key[1]} operation ({len(members)} time(s): {where}{more})")
            print(f"    {first['message'][:1200]}")
            if args.no_shrink:
                continue
            # The operations the child that ran it ran: from its start (after a child that
            # died), the prologue first.
            codes = [code for _, code in ops_of(first["batch"])]
            start = first["start"]
            if start > 0:
                codes = codes[:min(PROLOGUE, start)] + codes[start:]
                position = (first["index"] if first["index"] < start
                            else first["index"] - start + min(PROLOGUE, start))
            else:
                position = first["index"]
            budget = args.shrink_seconds if time.time() - shrink_started < args.shrink_total else 0
            shrunk, per_op = shrink(codes, position, first["kind"], args, budget)
            span = f"operations {first['start']} to {first['index']} of batch {first['batch']}"
            if per_op is None:
                print(f"    not reproduced in a fresh process (timing-dependent); the {span} "
                      f"are the reproduction:")
            else:
                print(f"    reproduction ({len(shrunk)} operation(s) of the {span}; "
                      f"`--seed {args.seed} --show {first['batch']}:{first['index']}` prints the batch):")
            text = snippet(shrunk, per_op, args.memory_mb)
            if args.findings_dir:
                os.makedirs(args.findings_dir, exist_ok=True)
                path = os.path.join(args.findings_dir, f"finding-{args.seed}-{number}.py")
                with open(path, "w") as file:
                    file.write(text)
                print(f"    (written to {path})")
            print("    " + "\n    ".join(text.rstrip().splitlines()))
    by_outcome: Counter = Counter()
    by_kind: dict[str, Counter] = {}
    for key, count in outcomes.items():
        kind, _, outcome = key.partition("|")
        by_outcome[outcome] += count
        by_kind.setdefault(kind, Counter())[outcome] += count
    known = sum(by_outcome.values())
    if known:
        raised = known - by_outcome["returned"]
        common = ", ".join(f"{name} {count / known:.1%}" for name, count in by_outcome.most_common(8)
                           if name != "returned")
        print(f"\noutcomes of {known} operations: returned {by_outcome['returned'] / known:.1%}, "
              f"raised {raised / known:.1%} ({common})")
        if args.verbose:
            for kind, counts in sorted(by_kind.items(), key=lambda item: -sum(item[1].values())):
                total = sum(counts.values())
                top = ", ".join(f"{name} {count}" for name, count in counts.most_common(4) if name != "returned")
                print(f"  {kind:12s} {total:8d}  returned {counts['returned'] / total:6.1%}  ({top})")
    import resource

    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest resident memory of a child process: {peak:.0f} MB (limit {args.memory_mb} MB of address space)")
    print(f"rlrs fuzz: {operations} operations in {len(batches)} batches, {len(findings)} findings, "
          f"{fuzz_seconds:.1f} s ({operations / max(fuzz_seconds, 1e-9):.0f} operations/s; "
          f"seed {args.seed}, {args.jobs} job(s))", flush=True)
    return exit_status


def show(args) -> int:
    """Prints the operations of one batch (up to an index) as a snippet."""
    number, _, index = args.show.partition(":")
    catalogue = Catalogue()
    ops = generate(catalogue, args.seed, int(number), args.batch)
    stop = int(index) + 1 if index else len(ops)
    print(snippet([code for _, code in ops[:stop]], None, args.memory_mb), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--operations", type=int, default=10000, help="operations in all (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--batch", type=int, default=2000, help="operations per child process (default 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="child processes at once (default 1)")
    parser.add_argument("--seconds", type=float, default=None, help="stop starting operations after this many seconds")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a child process may run (a backstop; default 120)")
    parser.add_argument("--op-timeout", type=float, default=20.0, help="seconds one operation may run before it counts as a hang (default 20)")
    parser.add_argument("--memory-mb", type=int, default=4096, help="address-space limit of each child (default 4096)")
    parser.add_argument("--shrink-seconds", type=float, default=60.0, help="time to shrink each distinct finding (default 60)")
    parser.add_argument("--shrink-total", type=float, default=300.0, help="time for shrinking in all (default 300)")
    parser.add_argument("--no-shrink", action="store_true", help="report findings without reproductions")
    parser.add_argument("--findings-dir", default=None, help="also write each reproduction to this directory")
    parser.add_argument("--show", default=None, metavar="BATCH[:INDEX]", help="print a batch's operations as a snippet")
    parser.add_argument("--verbose", action="store_true", help="a line per batch")
    # The child's arguments.
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--replay", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--batch-index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--progress", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--result", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for name in ("operations", "batch", "jobs", "memory_mb"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.worker:
        import resource

        limit = args.memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if args.replay:
            with open(args.replay) as file:
                ops = [("replay", code) for code in json.load(file)]
            return worker(ops, args.start, args.progress, args.result, None)
        ops = generate(Catalogue(), args.seed, args.batch_index, args.batch)
        return worker(ops, args.start, args.progress, args.result, args.deadline, PROLOGUE)
    if args.show:
        return show(args)
    return parent(args)


if __name__ == "__main__":
    sys.exit(main())
