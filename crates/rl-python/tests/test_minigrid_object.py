"""The MiniGrid environment object beside live minigrid 3.2.0: all 15 of minigrid's own wrappers
(``minigrid.wrappers``) give on ``rlrs/MiniGrid-*`` exactly the arrays they give on minigrid's
(and refuse where minigrid refuses); the attributes they read; minigrid's keyword arguments
taken flat; the observation and action spaces equal to minigrid's; the image options of the
environment and its vector equal to minigrid's wrappers at several tile sizes.
"""

from __future__ import annotations

import functools
import math
import os
import warnings

import gymnasium as gym
import minigrid  # noqa: F401  (registers minigrid's ids with Gymnasium)
import numpy as np
import pytest
from minigrid.core.world_object import Lava, Wall
from minigrid.wrappers import (
    ActionBonus,
    DictObservationSpaceWrapper,
    DirectionObsWrapper,
    FlatObsWrapper,
    FullyObsWrapper,
    ImgObsWrapper,
    NoDeath,
    OneHotPartialObsWrapper,
    PositionBonus,
    ReseedWrapper,
    RGBImgObsWrapper,
    RGBImgPartialObsWrapper,
    StochasticActionWrapper,
    SymbolicObsWrapper,
    ViewSizeWrapper,
)

import rlrs

# Ids with doors, keys, lava, moving balls, boxes and carried objects among them.
IDS = [
    "MiniGrid-DoorKey-5x5-v0",
    "MiniGrid-LavaGapS5-v0",
    "MiniGrid-Dynamic-Obstacles-5x5-v0",
    "MiniGrid-KeyCorridorS3R1-v0",
    "MiniGrid-Fetch-5x5-N2-v0",
]
SEEDS = [0, 7]
# Steps per seed and id (minigrid's own Python is most of the time).
STEPS = 40

# Every wrapper of minigrid.wrappers, with arguments (15 classes).
WRAPPERS = {
    "ReseedWrapper": functools.partial(ReseedWrapper, seeds=(3, 11)),
    "ActionBonus": ActionBonus,
    "PositionBonus": functools.partial(PositionBonus, scale=0.5),
    "ImgObsWrapper": ImgObsWrapper,
    "OneHotPartialObsWrapper": OneHotPartialObsWrapper,
    "RGBImgObsWrapper": RGBImgObsWrapper,
    "RGBImgObsWrapper-5": functools.partial(RGBImgObsWrapper, tile_size=5),
    "RGBImgPartialObsWrapper": RGBImgPartialObsWrapper,
    "RGBImgPartialObsWrapper-3": functools.partial(RGBImgPartialObsWrapper, tile_size=3),
    "FullyObsWrapper": FullyObsWrapper,
    "DictObservationSpaceWrapper": DictObservationSpaceWrapper,
    "FlatObsWrapper": FlatObsWrapper,
    "ViewSizeWrapper": functools.partial(ViewSizeWrapper, agent_view_size=5),
    "ViewSizeWrapper-9": functools.partial(ViewSizeWrapper, agent_view_size=9),
    "DirectionObsWrapper": DirectionObsWrapper,
    "DirectionObsWrapper-atan2": functools.partial(DirectionObsWrapper, type="angle_atan2"),
    "SymbolicObsWrapper": SymbolicObsWrapper,
    "StochasticActionWrapper": functools.partial(StochasticActionWrapper, prob=0.6),
    "NoDeath": functools.partial(NoDeath, no_death_types=("lava", "ball"), death_cost=-0.5),
}


def make_pair(env_id: str, **kwargs):
    """Ours and minigrid's environment of ``env_id``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return gym.make(f"rlrs/{env_id}", **kwargs), gym.make(env_id, **kwargs)


def assert_same(ours, theirs, where: str) -> None:
    """The same value: dicts key by key, arrays of the same dtype, shape and entries."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), where
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (tuple, list)):
        assert isinstance(ours, type(theirs)) and len(ours) == len(theirs), where
        for index, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), where
        assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape), where
        np.testing.assert_array_equal(ours, theirs, err_msg=where)
    elif isinstance(theirs, float) and math.isnan(theirs):
        assert math.isnan(ours), where
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def run_beside(wrap, env_id: str, seed: int, steps: int = STEPS) -> int:
    """Steps ``wrap(ours)`` and ``wrap(minigrid's)`` with the same seed and random actions,
    comparing everything they return; returns the steps compared."""
    ours, theirs = make_pair(env_id)
    ours, theirs = wrap(ours), wrap(theirs)
    assert ours.observation_space == theirs.observation_space, env_id
    assert ours.action_space == theirs.action_space, env_id
    where = f"{env_id} seed {seed}"
    assert_same(ours.reset(seed=seed), theirs.reset(seed=seed), f"{where} reset")
    actions = np.random.default_rng(seed + 100)
    compared = 0
    for step in range(steps):
        action = int(actions.integers(ours.action_space.n))
        got, expected = ours.step(action), theirs.step(action)
        assert_same(got, expected, f"{where} step {step} action {action}")
        compared += 1
        _, _, terminated, truncated, _ = expected
        if terminated or truncated:
            assert_same(ours.reset(), theirs.reset(), f"{where} reset after step {step}")
    ours.close()
    theirs.close()
    return compared


@pytest.mark.parametrize("name", list(WRAPPERS))
def test_every_minigrid_wrapper_gives_minigrids_arrays(name):
    wrap = WRAPPERS[name]
    compared = 0
    for env_id in IDS:
        for seed in SEEDS:
            try:
                theirs = wrap(make_pair(env_id)[1])
                theirs.reset(seed=seed)
            except (ValueError, AssertionError) as refusal:
                # minigrid refuses (DirectionObsWrapper without a goal): so do we, alike.
                with pytest.raises(type(refusal)):
                    wrap(make_pair(env_id)[0]).reset(seed=seed)
                continue
            compared += run_beside(wrap, env_id, seed)
    assert compared > 100


def test_the_wrappers_refuse_what_minigrid_refuses():
    for env in make_pair("MiniGrid-Empty-5x5-v0"):
        with pytest.raises(AssertionError):
            ViewSizeWrapper(env, agent_view_size=4)
        with pytest.raises(AssertionError):
            NoDeath(env, no_death_types=("goal",))
    ours, theirs = make_pair("MiniGrid-Fetch-5x5-N2-v0")
    with pytest.raises(ValueError, match="Goal"):
        DirectionObsWrapper(theirs).reset(seed=1)
    with pytest.raises(ValueError, match="Goal"):
        DirectionObsWrapper(ours).reset(seed=1)


def test_the_attributes_the_wrappers_read_are_minigrids():
    ours, theirs = make_pair("MiniGrid-KeyCorridorS3R1-v0")
    ours.reset(seed=5)
    theirs.reset(seed=5)
    actions = np.random.default_rng(3)
    for step in range(80):
        a, b = ours.unwrapped, theirs.unwrapped
        where = f"step {step}"
        assert tuple(a.agent_pos) == tuple(int(v) for v in b.agent_pos), where
        assert (a.agent_dir, a.step_count, a.mission) == (b.agent_dir, b.step_count, b.mission)
        assert (a.width, a.height, a.max_steps) == (b.width, b.height, b.max_steps)
        assert (a.agent_view_size, a.see_through_walls) == (b.agent_view_size, b.see_through_walls)
        assert (a.highlight, a.tile_size, a.agent_pov) == (b.highlight, b.tile_size, b.agent_pov)
        np.testing.assert_array_equal(a.dir_vec, b.dir_vec)
        np.testing.assert_array_equal(a.right_vec, b.right_vec)
        np.testing.assert_array_equal(a.front_pos, b.front_pos)
        assert a.actions is b.actions
        assert (a.carrying is None) == (b.carrying is None), where
        if b.carrying is not None:
            assert a.carrying.encode() == b.carrying.encode(), where
        np.testing.assert_array_equal(a.grid.encode(), b.grid.encode(), err_msg=where)
        assert (a.grid.width, a.grid.height) == (b.grid.width, b.grid.height)
        front_a, front_b = a.grid.get(*a.front_pos), b.grid.get(*b.front_pos)
        assert (front_a is None) == (front_b is None), where
        if front_b is not None:
            assert type(front_a) is type(front_b) and front_a.encode() == front_b.encode()
        for size in (3, 7, 11):
            grid_a, mask_a = a.gen_obs_grid(size)
            grid_b, mask_b = b.gen_obs_grid(size)
            np.testing.assert_array_equal(mask_a, mask_b, err_msg=where)
            np.testing.assert_array_equal(grid_a.encode(), grid_b.encode(), err_msg=where)
        assert_same(a.gen_obs(), b.gen_obs(), where)
        assert a.get_view_exts() == b.get_view_exts()
        assert a.pprint_grid() == b.pprint_grid()
        for tile in (1, 4, 8):
            for highlight in (True, False):
                np.testing.assert_array_equal(
                    a.get_frame(highlight, tile), b.get_frame(highlight, tile), err_msg=where
                )
            np.testing.assert_array_equal(
                a.get_frame(tile_size=tile, agent_pov=True),
                b.get_frame(tile_size=tile, agent_pov=True),
                err_msg=where,
            )
        action = int(actions.integers(7))
        _, _, terminated, truncated, _ = ours.step(action)
        theirs.step(action)
        if terminated or truncated:
            ours.reset(seed=step)
            theirs.reset(seed=step)


def test_np_random_is_the_generator_of_the_grids():
    ours, theirs = make_pair("MiniGrid-Empty-5x5-v0")
    ours.reset(seed=123)
    theirs.reset(seed=123)
    assert [ours.np_random.integers(10).item() for _ in range(10)] == [
        theirs.np_random.integers(10).item() for _ in range(10)
    ]
    # What was drawn is handed back to the Rust generator: the next grids agree.
    ours.reset()
    theirs.reset()
    assert [ours.np_random.integers(10).item() for _ in range(10)] == [
        theirs.np_random.integers(10).item() for _ in range(10)
    ]


def test_the_spaces_are_minigrids():
    for env_id in IDS + ["MiniGrid-DoorKey-8x8-v0", "MiniGrid-GoToDoor-5x5-v0", "MiniGrid-MultiRoom-N2-S4-v0"]:
        ours, theirs = make_pair(env_id)
        assert ours.observation_space == theirs.observation_space, env_id
        assert type(ours.observation_space["mission"]) is type(theirs.observation_space["mission"])
        assert ours.action_space == theirs.action_space, env_id


# minigrid's keyword arguments, flat, as its constructors take them.
KWARGS = [
    ("MiniGrid-DoorKey-8x8-v0", {"size": 6}),
    ("MiniGrid-DoorKey-8x8-v0", {"max_steps": 20, "agent_view_size": 5}),
    ("MiniGrid-DoorKey-8x8-v0", {"see_through_walls": True}),
    ("MiniGrid-MultiRoom-N6-v0", {"minNumRooms": 2, "maxNumRooms": 3, "maxRoomSize": 5}),
    ("MiniGrid-Fetch-8x8-N3-v0", {"numObjs": 2, "size": 6}),
    ("MiniGrid-LavaGapS7-v0", {"size": 6, "obstacle_type": Wall}),
    ("MiniGrid-LavaCrossingS9N1-v0", {"num_crossings": 2, "obstacle_type": Lava}),
    ("MiniGrid-Empty-8x8-v0", {"size": 6, "agent_start_pos": None}),
    ("MiniGrid-KeyCorridorS3R1-v0", {"num_rows": 2, "obj_type": "key"}),
    ("MiniGrid-Dynamic-Obstacles-8x8-v0", {"n_obstacles": 2, "agent_start_dir": 1}),
    ("MiniGrid-FourRooms-v0", {"agent_pos": (3, 3), "goal_pos": (10, 10)}),
    ("MiniGrid-DoorKey-5x5-v0", {"highlight": False, "tile_size": 12}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), KWARGS, ids=[f"{i}-{k}" for i, k in KWARGS])
def test_minigrids_keyword_arguments_flat(env_id, kwargs):
    ours, theirs = make_pair(env_id, render_mode="rgb_array", **kwargs)
    assert ours.observation_space == theirs.observation_space
    actions = np.random.default_rng(9)
    for seed in (1, 2):
        assert_same(ours.reset(seed=seed), theirs.reset(seed=seed), f"{env_id} reset")
        np.testing.assert_array_equal(ours.render(), theirs.render())
        for step in range(40):
            action = int(actions.integers(ours.action_space.n))
            expected = theirs.step(action)
            assert_same(ours.step(action), expected, f"{env_id} step {step}")
            if expected[2] or expected[3]:
                break
        np.testing.assert_array_equal(ours.render(), theirs.render())
        assert ours.unwrapped.max_steps == theirs.unwrapped.max_steps


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("MiniGrid-Empty-5x5-v0", {"see_through_walls": True}),
        ("MiniGrid-Unlock-v0", {"size": 5}),
        ("MiniGrid-DoorKey-5x5-v0", {"sise": 5}),
    ],
)
def test_keyword_arguments_minigrid_refuses_are_refused(env_id, kwargs):
    with pytest.raises(TypeError):
        gym.make(env_id, **kwargs)
    with pytest.raises(ValueError) as error:
        gym.make(f"rlrs/{env_id}", **kwargs)
    # The id is named once.
    assert str(error.value).count(env_id) <= 2, str(error.value)
    assert str(error.value).count("invalid parameters for") == 1, str(error.value)


IMAGE_OPTIONS = [
    ({"image": "rgb_partial"}, RGBImgPartialObsWrapper),
    ({"image": "rgb_partial", "image_tile_size": 3}, functools.partial(RGBImgPartialObsWrapper, tile_size=3)),
    ({"image": "rgb_full"}, RGBImgObsWrapper),
    ({"image": "rgb_full", "image_tile_size": 5, "highlight": False}, functools.partial(RGBImgObsWrapper, tile_size=5)),
    ({"image": "full"}, FullyObsWrapper),
    ({"image": "one_hot"}, OneHotPartialObsWrapper),
]


@pytest.mark.parametrize(("option", "wrapper"), IMAGE_OPTIONS, ids=[str(o) for o, _ in IMAGE_OPTIONS])
def test_image_options_are_minigrids_wrappers(option, wrapper):
    render_kwargs = {"highlight": option["highlight"]} if "highlight" in option else {}
    for env_id in ["MiniGrid-DoorKey-5x5-v0", "MiniGrid-KeyCorridorS3R1-v0", "MiniGrid-LavaGapS5-v0"]:
        ours = gym.make(f"rlrs/{env_id}", **option)
        theirs = wrapper(gym.make(env_id, **render_kwargs))
        assert ours.observation_space == theirs.observation_space
        actions = np.random.default_rng(4)
        assert_same(ours.reset(seed=3), theirs.reset(seed=3), env_id)
        for step in range(50):
            action = int(actions.integers(7))
            expected = theirs.step(action)
            assert_same(ours.step(action), expected, f"{env_id} step {step}")
            if expected[2] or expected[3]:
                assert_same(ours.reset(), theirs.reset(), env_id)
        # The vector by id writes the same observations.
        vector = gym.make_vec(f"rlrs/{env_id}", num_envs=3, **option)
        reference = gym.vector.SyncVectorEnv(
            [lambda: wrapper(gym.make(env_id, **render_kwargs)) for _ in range(3)]
        )
        assert vector.single_observation_space == reference.single_observation_space
        assert_same(vector.reset(seed=8), reference.reset(seed=8), f"{env_id} vector reset")
        for step in range(30):
            batch = actions.integers(7, size=3)
            got, expected = vector.step(batch), reference.step(batch)
            assert_same(got[0], expected[0], f"{env_id} vector step {step}")
            for a, b in zip(got[1:4], expected[1:4]):
                np.testing.assert_array_equal(a, b)
        vector.close()
        reference.close()


MAKE_VEC_WRAPPERS = [
    [RGBImgPartialObsWrapper],
    [RGBImgPartialObsWrapper, ImgObsWrapper],
    [functools.partial(RGBImgPartialObsWrapper, tile_size=4), ImgObsWrapper],
    [functools.partial(RGBImgObsWrapper, tile_size=3)],
    [FullyObsWrapper, ImgObsWrapper],
    [OneHotPartialObsWrapper],
    [ImgObsWrapper],
]


@pytest.mark.parametrize("wrappers", MAKE_VEC_WRAPPERS, ids=lambda w: "+".join(map(repr, w)))
def test_make_vec_with_minigrid_wrappers_is_the_rust_vector(wrappers):
    env_id = "MiniGrid-DoorKey-5x5-v0"
    ours = gym.make_vec(f"rlrs/{env_id}", 4, wrappers=wrappers)
    assert isinstance(ours.unwrapped, rlrs.RustVectorEnv), "the Rust vector, not a SyncVectorEnv"
    theirs = gym.make_vec(env_id, 4, wrappers=wrappers)
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    actions = np.random.default_rng(5)
    assert_same(ours.reset(seed=2)[0], theirs.reset(seed=2)[0], "reset")
    for step in range(40):
        batch = actions.integers(7, size=4)
        got, expected = ours.step(batch), theirs.step(batch)
        assert_same(got[0], expected[0], f"step {step}")
        for a, b in zip(got[1:4], expected[1:4]):
            np.testing.assert_array_equal(a, b)


def test_make_vec_with_other_wrappers_is_a_sync_vector_of_wrapped_envs():
    wrappers = [functools.partial(ViewSizeWrapper, agent_view_size=5), ImgObsWrapper]
    ours = gym.make_vec("rlrs/MiniGrid-DoorKey-5x5-v0", 3, wrappers=wrappers)
    assert isinstance(ours, gym.vector.SyncVectorEnv)
    assert all(isinstance(env.unwrapped, rlrs.MiniGridEnv) for env in ours.envs)
    theirs = gym.make_vec("MiniGrid-DoorKey-5x5-v0", 3, wrappers=wrappers)
    assert_same(ours.reset(seed=4)[0], theirs.reset(seed=4)[0], "reset")
    for step in range(20):
        batch = np.full(3, step % 3)
        assert_same(ours.step(batch)[0], theirs.step(batch)[0], f"step {step}")
    # Any wrapper, on any id.
    cartpole = gym.make_vec("rlrs/CartPole-v1", 2, wrappers=[functools.partial(gym.wrappers.ClipReward, min_reward=0.0)])
    assert isinstance(cartpole, gym.vector.SyncVectorEnv)
    # Asked for the vector entry point explicitly, other wrappers are refused as Gymnasium does.
    with pytest.raises(gym.error.Error, match="wrappers"):
        gym.make_vec(
            "rlrs/MiniGrid-DoorKey-5x5-v0", 2, vectorization_mode="vector_entry_point",
            wrappers=wrappers,
        )
    # Without wrappers, the default is still the Rust vector.
    assert isinstance(gym.make_vec("rlrs/MiniGrid-DoorKey-5x5-v0", 2), rlrs.RustVectorEnv)


def test_stepping_after_a_termination_walks_on_as_minigrid():
    # LavaGapS5 seed 2: the agent walks into the lava; minigrid lets it walk on (NoDeath
    # relies on it); so does rlrs's MiniGrid environment, generator and step count kept.
    for env_id in ["MiniGrid-LavaGapS5-v0", "MiniGrid-Dynamic-Obstacles-5x5-v0"]:
        ours, theirs = make_pair(env_id)
        actions = np.random.default_rng(1)
        terminations = 0
        for seed in range(6):
            assert_same(ours.reset(seed=seed), theirs.reset(seed=seed), env_id)
            for step in range(40):
                action = int(actions.integers(3))
                expected = theirs.step(action)
                assert_same(ours.step(action), expected, f"{env_id} seed {seed} step {step}")
                terminations += bool(expected[2])
                if expected[3]:
                    break
        assert terminations > 2, env_id


def assert_same_info(ours: dict, theirs: dict, where: str) -> None:
    """The same vector info: keys, masks, and each final observation (an object array of
    dicts, ``None`` where unmasked) entry by entry. The final observations' keys are compared
    as sets: minigrid's come in its wrapper's order (``image`` first), ours in the space's
    sorted order (a difference of order only, which ``==`` on dicts ignores)."""
    assert sorted(ours) == sorted(theirs), where
    for key in theirs:
        if key == "final_obs":
            assert len(ours[key]) == len(theirs[key]), where
            for index, (a, b) in enumerate(zip(ours[key], theirs[key])):
                if b is None:
                    assert a is None, f"{where} {key}[{index}]"
                else:
                    assert isinstance(a, dict) and sorted(a) == sorted(b), where
                    assert_same({k: a[k] for k in b}, b, f"{where} {key}[{index}]")
        else:
            assert_same(ours[key], theirs[key], f"{where} info[{key!r}]")


# The autoreset modes, thread counts and copy settings of the pixel vectors' test: every pair
# of two options' values once (4 cases; minigrid's RGB wrappers draw slowly), the whole product
# (8) with RLRS_TEST_EVERY_ID=1, as the full run before a release does.
PIXEL_VECTOR_CASES = [
    (autoreset, threads, copy)
    for autoreset in ("NextStep", "SameStep")
    for threads in (1, 2)
    for copy in (True, False)
    if os.environ.get("RLRS_TEST_EVERY_ID") == "1"
    or (threads == 2) == (copy == (autoreset == "NextStep"))
]


@pytest.mark.parametrize(("autoreset", "threads", "copy"), PIXEL_VECTOR_CASES)
def test_pixel_vectors_write_uint8_rows_equal_to_minigrids_sync_vector(autoreset, threads, copy):
    """The pixel options' vector keeps its rows in uint8 (the image goes from the drawing to
    NumPy as bytes, its array a view of the rows) and gives SyncVectorEnv's arrays, in both
    autoreset modes, across episode ends (Empty-5x5 truncates at 100 steps), final
    observations included."""
    mode = getattr(gym.vector.AutoresetMode, autoreset.upper().replace("STEP", "_STEP"))
    for env_id, option, wrapper in [
        ("MiniGrid-Empty-5x5-v0", {"image": "rgb_partial"}, RGBImgPartialObsWrapper),
        (
            "MiniGrid-DoorKey-5x5-v0",
            {"image": "rgb_full", "image_tile_size": 3},
            functools.partial(RGBImgObsWrapper, tile_size=3),
        ),
    ]:
        ours = rlrs.RustVectorEnv(
            env_id, 3, threads=threads, autoreset_mode=mode, copy=copy, **option
        )
        assert ours._core.observations.dtype == np.uint8, "uint8 rows"
        image_column = next(c for c in ours._core.columns() if c["path"] == ["image"])
        assert image_column["array"] is None, "the image is a view of the rows"
        theirs = gym.vector.SyncVectorEnv(
            [lambda: wrapper(gym.make(env_id)) for _ in range(3)], autoreset_mode=mode
        )
        where = f"{env_id} {option} {autoreset} {threads} threads copy={copy}"
        got, expected = ours.reset(seed=5), theirs.reset(seed=5)
        assert_same(got[0], expected[0], f"{where} reset")
        if not copy:
            assert np.shares_memory(got[0]["image"], ours._core.observations), where
        actions = np.random.default_rng(6)
        ended = 0
        for step in range(110):
            batch = actions.integers(3, size=3)
            got, expected = ours.step(batch), theirs.step(batch)
            assert_same(got[0], expected[0], f"{where} step {step}")
            for a, b in zip(got[1:4], expected[1:4]):
                np.testing.assert_array_equal(a, b)
            assert_same_info(got[4], expected[4], f"{where} step {step}")
            ended += int(np.sum(expected[2] | expected[3]))
        assert env_id != "MiniGrid-Empty-5x5-v0" or ended >= 3, f"{where}: episodes ended"
        ours.close()
        theirs.close()
