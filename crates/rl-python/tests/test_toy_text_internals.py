"""Gymnasium's toy-text internals on rlrs's ids (issue 41 point 4), beside Gymnasium 1.4.0
running live: ``env.unwrapped.P`` (structure, values and Python types), ``desc``, ``nrow``,
``ncol``, ``initial_state_distrib``, ``reward_range``, ``s`` and ``lastaction`` step by step,
Taxi's ``encode``/``decode``/``locs``/``action_mask(state)``, Blackjack's hands; FrozenLake's
``map_name=None`` and the map forms Gymnasium takes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlrs  # noqa: F401  (registers the rlrs/ ids)

CASES = [
    ("FrozenLake-v1", {}),
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake-v1", {"success_rate": 0.5, "reward_schedule": (2, -1, 0)}),
    ("FrozenLake-v1", {"reward_schedule": (1.0, 0, 0.5)}),
    ("FrozenLake8x8-v1", {}),
    ("CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("Taxi-v4", {}),
    ("Taxi-v4", {"is_rainy": True}),
    ("Taxi-v4", {"fickle_passenger": True}),
]


def same(ours, theirs, where):
    """Equal values of the same Python types, containers entry by entry."""
    assert type(ours) is type(theirs), f"{where}: {type(ours)} is not {type(theirs)}"
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs), where
        for key in theirs:
            same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, where
        assert np.array_equal(ours, theirs), where
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


@pytest.mark.parametrize(("env_id", "kwargs"), CASES)
def test_the_tables_and_attributes_are_gymnasiums(env_id, kwargs):
    ours = gym.make(f"rlrs/{env_id}", **kwargs).unwrapped
    theirs = gym.make(env_id, **kwargs).unwrapped
    same(ours.P, theirs.P, f"{env_id} P")
    same(ours.initial_state_distrib, theirs.initial_state_distrib, "initial_state_distrib")
    names = {
        "FrozenLake": ["desc", "nrow", "ncol", "reward_range"],
        "CliffWalking": ["shape", "start_state_index", "nS", "nA", "is_slippery"],
        "Taxi": ["desc", "locs", "locs_colors", "max_row", "max_col", "rainy_probability",
                 "fickle_probability", "fickle_passenger"],
    }[env_id.split("-")[0].replace("8x8", "").replace("Slippery", "")]
    for name in names:
        same(getattr(ours, name), getattr(theirs, name), f"{env_id} {name}")


@pytest.mark.parametrize(("env_id", "kwargs"), CASES)
def test_the_state_and_last_action_follow_gymnasiums_step_by_step(env_id, kwargs):
    ours = gym.make(f"rlrs/{env_id}", **kwargs)
    theirs = gym.make(env_id, **kwargs)
    actions = np.random.default_rng(5).integers(0, ours.action_space.n, 400)
    done = True
    for t, action in enumerate(actions):
        where = f"{env_id} {kwargs} step {t}"
        if done:
            a, _ = ours.reset(seed=t)
            b, _ = theirs.reset(seed=t)
            same(a, b, where)
            same(ours.unwrapped.lastaction, theirs.unwrapped.lastaction, where)
        a = ours.step(int(action))
        b = theirs.step(int(action))
        same(a[:4], b[:4], where)
        done = a[2] or a[3]
        same(ours.unwrapped.lastaction, theirs.unwrapped.lastaction, where)
        if env_id.startswith("Taxi"):
            same(ours.unwrapped.fickle_step, theirs.unwrapped.fickle_step, where)
        # The type too: Taxi's s is an np.int64 after a fickle passenger's change.
        same(ours.unwrapped.s, theirs.unwrapped.s, where)
    ours.reset(seed=1)
    theirs.reset(seed=1)
    same(ours.unwrapped.s, theirs.unwrapped.s, f"{env_id} s after a reset")


def test_taxi_encode_decode_locs_and_masks_are_gymnasiums():
    ours = gym.make("rlrs/Taxi-v4").unwrapped
    theirs = gym.make("Taxi-v4").unwrapped
    for state in range(500):
        same(ours.decode(state), theirs.decode(state), f"decode({state})")
        same(ours.encode(*theirs.decode(state)), state, f"encode of {state}")
        same(ours.action_mask(state), theirs.action_mask(state), f"action_mask({state})")
    same(ours.locs, theirs.locs, "locs")


def test_blackjack_hands_are_gymnasiums():
    for kwargs in [{}, {"natural": True, "sab": False}]:
        ours = gym.make("rlrs/Blackjack-v1", **kwargs)
        theirs = gym.make("Blackjack-v1", **kwargs)
        same(ours.unwrapped.natural, theirs.unwrapped.natural, "natural")
        same(ours.unwrapped.sab, theirs.unwrapped.sab, "sab")
        for seed in range(60):
            same(ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0], f"seed {seed}")
            for name in ["player", "dealer", "dealer_top_card_suit", "dealer_top_card_value_str"]:
                same(getattr(ours.unwrapped, name), getattr(theirs.unwrapped, name), f"{name} {seed}")
            done = False
            while not done:
                a = ours.step(1 if seed % 3 else 0)
                b = theirs.step(1 if seed % 3 else 0)
                same(a[:4], b[:4], f"seed {seed}")
                done = a[2]
                same(ours.unwrapped.player, theirs.unwrapped.player, f"player {seed}")
                same(ours.unwrapped.dealer, theirs.unwrapped.dealer, f"dealer {seed}")


def test_frozen_lake_takes_every_map_gymnasium_takes():
    rows = ["SFFF", "FHFH", "FFFH", "HFFG"]
    for desc in [rows, [list(row) for row in rows], np.asarray(rows, dtype="c")]:
        ours = gym.make("rlrs/FrozenLake-v1", desc=desc).unwrapped
        theirs = gym.make("FrozenLake-v1", desc=desc).unwrapped
        same(ours.desc, theirs.desc, f"desc from {desc!r}")
        same(ours.P, theirs.P, f"P from {desc!r}")
    # A desc wins over map_name, None included, as in Gymnasium.
    assert gym.make("rlrs/FrozenLake-v1", desc=rows, map_name=None).unwrapped.nrow == 4
    with pytest.raises(ValueError, match="desc"):
        gym.make("rlrs/FrozenLake-v1", desc=[["S", ["F"]]])
    # numpy reads a list of bytes as character codes (b"SFFF" as "8777"): Gymnasium builds a
    # lake with no start from it (its initial distribution NaN); rlrs refuses the map.
    with pytest.raises(ValueError, match="not a tile letter"):
        gym.make("rlrs/FrozenLake-v1", desc=[row.encode() for row in rows])


def test_frozen_lake_map_name_none_draws_a_valid_random_map():
    maps = set()
    for _ in range(4):
        env = gym.make("rlrs/FrozenLake-v1", map_name=None).unwrapped
        assert env.desc.shape == (8, 8)
        assert env.desc[0, 0] == b"S" and env.desc[-1, -1] == b"G"
        # Gymnasium's own check that the goal is reachable.
        from gymnasium.envs.toy_text.frozen_lake import is_valid

        assert is_valid([[c.decode() for c in row] for row in env.desc], 8)
        maps.add(env.desc.tobytes())
        # The same map as Gymnasium's FrozenLake built from it.
        same(env.P, gym.make("FrozenLake-v1", desc=env.desc).unwrapped.P, "P of a random map")
    assert len(maps) > 1, "four random maps all alike: the map is not drawn from entropy"


def test_toy_text_attributes_before_a_reset_are_refused_as_gymnasiums():
    for env_id in ["FrozenLake-v1", "Taxi-v4", "CliffWalking-v1"]:
        with pytest.raises(AttributeError):
            gym.make(f"rlrs/{env_id}").unwrapped.s  # noqa: B018
        with pytest.raises(AttributeError):
            gym.make(env_id).unwrapped.s  # noqa: B018


def test_taxis_s_after_a_fickle_passengers_change_is_gymnasiums():
    # Gymnasium's s is then encode(...) of the drawn destination, an np.int64; a random walk
    # hardly ever picks the passenger up, so the taxi drives there (a breadth-first search on
    # Gymnasium's P) and on, until the passenger has changed destination a few times.
    from collections import deque

    def path_to_pickup(table, start, decode):
        seen, queue = {start: []}, deque([start])
        while queue:
            state = queue.popleft()
            if decode(state)[2] == 4:
                return seen[state]
            for action in range(6):
                (_, nxt, _, _), = table[state][action]
                if nxt not in seen:
                    seen[nxt] = seen[state] + [action]
                    queue.append(nxt)
        return None

    changes = 0
    for seed in range(30):
        ours = gym.make("rlrs/Taxi-v4", fickle_passenger=True)
        theirs = gym.make("Taxi-v4", fickle_passenger=True)
        a, _ = ours.reset(seed=seed)
        b, _ = theirs.reset(seed=seed)
        same(a, b, f"seed {seed} reset")
        plan = path_to_pickup(theirs.unwrapped.P, b, theirs.unwrapped.decode) or []
        for t, action in enumerate(plan + [0, 1, 0, 1]):
            before = theirs.unwrapped.decode(theirs.unwrapped.s)[3]
            a = ours.step(action)
            b = theirs.step(action)
            where = f"seed {seed} step {t}"
            same(a[:4], b[:4], where)
            same(ours.unwrapped.s, theirs.unwrapped.s, where)
            changes += theirs.unwrapped.decode(theirs.unwrapped.s)[3] != before
            if a[2] or a[3]:
                break
    assert changes > 3, changes
