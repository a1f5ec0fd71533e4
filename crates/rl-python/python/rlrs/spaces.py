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
    charset, in its order), Sequence (with ``stack``), Graph, OneOf, Tuple and Dict map to the
    Gymnasium space of the same name;
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
    if kind == "Sequence":
        return spaces.Sequence(
            space_from_definition(definition["feature_space"]),
            stack=bool(definition.get("stack", False)),
        )
    if kind == "Graph":
        edge = definition.get("edge_space")
        return spaces.Graph(
            space_from_definition(definition["node_space"]),
            None if edge is None else space_from_definition(edge),
        )
    if kind == "OneOf":
        return spaces.OneOf(tuple(space_from_definition(d) for d in definition["spaces"]))
    if kind == "Tuple":
        return spaces.Tuple(tuple(space_from_definition(d) for d in definition["spaces"]))
    if kind == "Dict":
        return spaces.Dict({k: space_from_definition(d) for k, d in definition["spaces"].items()})
    raise NotImplementedError(
        f"the space type {kind!r} has no Gymnasium counterpart (definition: {definition})"
    )


def _identity(value: Any) -> Any:
    return value


def observation_converter(space: spaces.Space):
    """A function giving an element from the Rust core the exact type Gymnasium expects in
    ``space``: Python ``int`` for Discrete (as Gymnasium's own Discrete environments return
    them), arrays as they come (already of the space's dtype), tuples and dicts converted entry by entry, a OneOf's index as ``int64``,
    a Sequence's items as a tuple or, for a stacked Sequence, stacked as Gymnasium stacks them
    (``None`` when the element needs no conversion)."""
    if isinstance(space, spaces.Discrete):
        # Python ints, as Gymnasium's toy text (int(s)), Blackjack and minigrid give them.
        return int
    if isinstance(space, spaces.Tuple):
        children = [observation_converter(child) or _identity for child in space.spaces]
        return lambda value: tuple(c(v) for c, v in zip(children, value))
    if isinstance(space, spaces.Dict):
        children = {
            key: observation_converter(child) or _identity for key, child in space.spaces.items()
        }
        return lambda value: {key: children[key](value[key]) for key in children}
    if isinstance(space, spaces.OneOf):
        children = [observation_converter(child) or _identity for child in space.spaces]
        return lambda value: (np.int64(value[0]), children[value[0]](value[1]))
    if isinstance(space, spaces.Sequence):
        feature = observation_converter(space.feature_space) or _identity
        if space.stack:
            from gymnasium.vector.utils import concatenate, create_empty_array

            def stacked(value):
                items = [feature(item) for item in value]
                out = create_empty_array(space.feature_space, len(items))
                return concatenate(space.feature_space, items, out)

            return stacked
        return lambda value: tuple(feature(item) for item in value)
    return None
