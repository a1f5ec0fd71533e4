"""Gymnasium spaces built from the JSON space definitions of the Rust core (``rl-spaces``)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["space_from_definition", "observation_converter"]


def _bound(values: Any, dtype: np.dtype) -> np.ndarray:
    """A flat bound list, with the strings ``"inf"``/``"-inf"`` as infinities."""
    converted = [float(v) if isinstance(v, str) else v for v in values]
    return np.asarray(converted, dtype=dtype)


def space_from_definition(definition: dict | str) -> spaces.Space:
    """The ``gymnasium.spaces`` space of an ``rl-spaces`` definition (a dict or JSON text).

    Discrete, Box (dtype, shape, bounds), MultiDiscrete, MultiBinary, Text (lengths and the
    charset, in its order), Tuple and Dict map to the Gymnasium space of the same name;
    FiniteSet and Empty have no Gymnasium counterpart and raise ``NotImplementedError``.
    """
    if isinstance(definition, str):
        definition = json.loads(definition)
    kind = definition["type"]
    if kind == "Discrete":
        return spaces.Discrete(int(definition["n"]), start=int(definition.get("start", 0)))
    if kind == "Box":
        dtype = np.dtype(definition["dtype"])
        shape = tuple(int(n) for n in definition["shape"])
        low = _bound(definition["low"], dtype).reshape(shape)
        high = _bound(definition["high"], dtype).reshape(shape)
        return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)
    if kind == "MultiDiscrete":
        shape = tuple(int(n) for n in definition["shape"])
        nvec = np.asarray(definition["nvec"], dtype=np.int64).reshape(shape)
        start = np.asarray(definition["start"], dtype=np.int64).reshape(shape)
        return spaces.MultiDiscrete(nvec, dtype=np.int64, start=start)
    if kind == "MultiBinary":
        shape = [int(n) for n in definition["shape"]]
        return spaces.MultiBinary(shape[0] if len(shape) == 1 else shape)
    if kind == "Text":
        # A str keeps its order (a set would be sorted), so characters are numbered alike.
        return spaces.Text(
            int(definition["max_length"]),
            min_length=int(definition.get("min_length", 1)),
            charset=definition.get("charset", "".join(sorted(spaces.text.alphanumeric))),
        )
    if kind == "Tuple":
        return spaces.Tuple(tuple(space_from_definition(d) for d in definition["spaces"]))
    if kind == "Dict":
        return spaces.Dict({k: space_from_definition(d) for k, d in definition["spaces"].items()})
    raise NotImplementedError(
        f"the space type {kind!r} has no Gymnasium counterpart (definition: {definition})"
    )


def observation_converter(space: spaces.Space):
    """A function giving an element from the Rust core the exact type Gymnasium expects in
    ``space``: NumPy ``int64`` scalars for Discrete, arrays and strings as they come (already
    of the space's dtype), tuples and dicts converted entry by entry; ``None`` where nothing
    needs converting."""
    if isinstance(space, spaces.Discrete):
        return np.int64
    if isinstance(space, (spaces.Tuple, spaces.Dict)):
        children = (
            space.spaces.items() if isinstance(space, spaces.Dict) else enumerate(space.spaces)
        )
        converters = {key: observation_converter(child) for key, child in children}
        if all(convert is None for convert in converters.values()):
            return None
        converters = {
            key: (convert if convert is not None else _unchanged)
            for key, convert in converters.items()
        }
        if isinstance(space, spaces.Dict):
            return lambda value: {key: convert(value[key]) for key, convert in converters.items()}
        ordered = list(converters.values())
        return lambda value: tuple(convert(v) for convert, v in zip(ordered, value))
    return None


def _unchanged(value: Any) -> Any:
    return value
