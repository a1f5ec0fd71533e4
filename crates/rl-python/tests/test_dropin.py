"""The env object beside the live references (issue 41, points 5 to 9): spaces and specs equal
to Gymnasium 1.4.0's and minigrid 3.2.0's for every shared id, Python scalar types step by
step, seeds of any size, copies and pickles that continue as the original, and the native
``render_mode="human"`` window (SDL's dummy driver: no display needed)."""

from __future__ import annotations

import copy
import json
import pickle
import warnings

import gymnasium as gym
import minigrid
import numpy as np
import pytest

import rlrs
from conftest import every_id

assert minigrid.__version__ == "3.2.0"

# Every id both register (classic control, toy text, MuJoCo, minigrid's MiniGrid and BabyAI).
SHARED = [rust_id for rust_id in rlrs.ids() if rust_id in gym.registry]
NOT_MINIGRID = [rust_id for rust_id in SHARED if not rust_id.startswith(("MiniGrid-", "BabyAI-"))]
# A few MiniGrid ids whose rewards take both types (0 and the success reward; DynamicObstacles'
# -1), stepped beside minigrid.
MINIGRID = ["MiniGrid-Empty-5x5-v0", "MiniGrid-Dynamic-Obstacles-5x5-v0", "MiniGrid-LavaGapS5-v0"]
SPEC_FIELDS = [
    "max_episode_steps", "reward_threshold", "nondeterministic", "order_enforce",
    "disable_env_checker", "additional_wrappers",
]


def make_pair(rust_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make(f"rlrs/{rust_id}", **kwargs), gym.make(rust_id, **kwargs)


def test_every_shared_id_is_tested():
    # 87 before issue 42's 11 MuJoCo v5 ids and issue 43's 96 BabyAI levels.
    assert len(SHARED) == 194 and len(NOT_MINIGRID) == 22


@pytest.mark.parametrize("rust_id", every_id(SHARED))
def test_spaces_and_specs_are_the_references(rust_id):
    ours, theirs = make_pair(rust_id)
    assert ours.action_space == theirs.action_space
    # minigrid is imported here: the mission is minigrid's own MissionSpace.
    assert ours.observation_space == theirs.observation_space
    for field in SPEC_FIELDS:
        assert getattr(ours.spec, field) == getattr(theirs.spec, field), field
    assert ours.spec.kwargs == theirs.spec.kwargs
    # The spec makes the environment again, as Gymnasium's does.
    again = gym.make(ours.spec)
    assert again.spec.kwargs == ours.spec.kwargs
    assert again.unwrapped.env_id == rust_id


def test_cartpoles_velocity_bounds_are_infinite_as_gymnasiums():
    space = gym.make("rlrs/CartPole-v1").observation_space
    assert np.isinf(space.high[[1, 3]]).all() and np.isinf(space.low[[1, 3]]).all()


def scalar_types(value):
    """The Python types of a step's parts, nested."""
    if isinstance(value, dict):
        return {key: scalar_types(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [scalar_types(item) for item in value]
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape)
    return type(value).__name__


@pytest.mark.parametrize("rust_id", NOT_MINIGRID + MINIGRID)
def test_scalar_types_are_the_references_step_by_step(rust_id):
    ours, theirs = make_pair(rust_id)
    rng = np.random.default_rng(11)
    for seed in [0, 1]:
        a, info_a = ours.reset(seed=seed)
        b, info_b = theirs.reset(seed=seed)
        assert scalar_types(a) == scalar_types(b) and scalar_types(info_a) == scalar_types(info_b)
        for t in range(300):
            if isinstance(ours.action_space, gym.spaces.Discrete):
                action = int(rng.integers(ours.action_space.n))
            else:
                action = rng.uniform(ours.action_space.low, ours.action_space.high).astype(np.float32)
            a = ours.step(action)
            b = theirs.step(action)
            assert scalar_types(a) == scalar_types(b), f"{rust_id} seed {seed} step {t}"
            assert a[1] == b[1] and a[2] == b[2] and a[3] == b[3]
            if a[2] or a[3]:
                break
    if isinstance(ours.observation_space, gym.spaces.Discrete):
        json.dumps(ours.reset(seed=0)[0])  # a Python int, as Gymnasium's


BIG_SEEDS = [2**64, 2**64 + 5, 10**30, 2**200 + 12345]


@pytest.mark.parametrize("rust_id", ["CartPole-v1", "Pendulum-v1", "FrozenLake-v1", "Taxi-v4",
                                     "Blackjack-v1", "MiniGrid-DoorKey-5x5-v0"])
def test_seeds_of_any_size_are_numpys(rust_id):
    ours, theirs = make_pair(rust_id)
    for seed in BIG_SEEDS:
        a, _ = ours.reset(seed=seed)
        b, _ = theirs.reset(seed=seed)
        assert text(a) == text(b), seed
        np.testing.assert_array_equal(a["image"] if isinstance(a, dict) else a,
                                      b["image"] if isinstance(b, dict) else b)
        ours.action_space.seed(seed)
        theirs.action_space.seed(seed)
        for _ in range(50):
            action = theirs.action_space.sample()
            assert np.array_equal(ours.action_space.sample(), action)
            x, y = ours.step(action), theirs.step(action)
            assert x[1:4] == y[1:4]
            np.testing.assert_array_equal(x[0]["image"] if isinstance(x[0], dict) else x[0],
                                          y[0]["image"] if isinstance(y[0], dict) else y[0])
            if x[2] or x[3]:
                break
        # The stream continues as Gymnasium's after an unseeded reset.
        a, _ = ours.reset()
        b, _ = theirs.reset()
        np.testing.assert_array_equal(a["image"] if isinstance(a, dict) else a,
                                      b["image"] if isinstance(b, dict) else b)



def assert_same_batch(ours, theirs, where):
    """Two batches (arrays, tuples of strings, dicts of batches) equal, entry for entry."""
    if isinstance(theirs, dict):
        assert set(ours) == set(theirs), where
        for key in theirs:
            assert_same_batch(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, tuple):
        assert tuple(ours) == theirs, where
    else:
        np.testing.assert_array_equal(ours, theirs, err_msg=where)


VECTOR_SEED_IDS = ["CartPole-v1", "Acrobot-v1", "FrozenLake-v1", "MiniGrid-DoorKey-5x5-v0"]


@pytest.mark.parametrize("mode", [gym.vector.AutoresetMode.NEXT_STEP,
                                  gym.vector.AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("rust_id", VECTOR_SEED_IDS)
def test_vectors_take_seeds_of_any_size_as_sync_vector_env(rust_id, mode):
    """Issue 41 item 7: ``reset(seed=s)`` seeds environment ``i`` with ``s + i`` for any
    non-negative ``s`` (past 2**64 too), a list of big integers and ``None`` reseeds some and
    continues the others, with ``reset_mask`` too, and the batched action space takes a big
    seed: all as Gymnasium's ``SyncVectorEnv`` of the reference's id, step by step."""
    n = 3
    ours = rlrs.RustVectorEnv(rust_id, n, autoreset_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = gym.vector.SyncVectorEnv([lambda: gym.make(rust_id)] * n, autoreset_mode=mode)
    calls = [
        {"seed": 2**64 + 5},
        {"seed": 10**30},
        {"seed": 2**64 - 2},  # environment 0 below 2**64, 1 and 2 above
        {"seed": [2**70, None, 10**30 + 1]},
        {"seed": [None, 2**64, None], "options": {"reset_mask": np.array([True, True, False])}},
        {},  # every stream continues
    ]
    for k, call in enumerate(calls):
        a, _ = ours.reset(**call)
        b, _ = theirs.reset(**call)
        assert_same_batch(a, b, f"{rust_id} reset {call}")
        ours.action_space.seed(2**70 + k)
        theirs.action_space.seed(2**70 + k)
        for t in range(150):
            actions = theirs.action_space.sample()
            np.testing.assert_array_equal(ours.action_space.sample(), actions)
            x, y = ours.step(actions), theirs.step(actions)
            where = f"{rust_id} {mode} after reset {call}, step {t}"
            assert_same_batch(x[0], y[0], where)
            for ours_part, theirs_part in zip(x[1:4], y[1:4]):
                np.testing.assert_array_equal(ours_part, theirs_part, err_msg=where)
    # Single spaces take big seeds as Gymnasium's: the same samples.
    for seed in BIG_SEEDS:
        ours.single_observation_space.seed(seed)
        theirs.single_observation_space.seed(seed)
        ours.single_action_space.seed(seed)
        theirs.single_action_space.seed(seed)
        assert_same_batch(ours.single_action_space.sample(), theirs.single_action_space.sample(),
                          f"{rust_id} action space seeded with {seed}")
        if not rust_id.startswith("MiniGrid-"):
            assert_same_batch(ours.single_observation_space.sample(),
                              theirs.single_observation_space.sample(),
                              f"{rust_id} observation space seeded with {seed}")


def text(observation):
    """An observation as JSON text, dict keys sorted (minigrid's come in its order, ours in the
    space's), values as lists (minigrid's drawn directions are np.int64, ours int)."""
    return json.dumps(observation, default=lambda x: np.asarray(x).tolist(), sort_keys=True)


def rollout(env, actions):
    """The steps of ``env`` under ``actions``, resetting (unseeded) after an episode ends."""
    steps = []
    for action in actions:
        observation, reward, terminated, truncated, _ = env.step(action)
        steps.append((text(observation), reward, terminated, truncated))
        if terminated or truncated:
            steps.append(text(env.reset()[0]))
    return steps


@pytest.mark.parametrize("rust_id", ["CartPole-v1", "Acrobot-v1", "MountainCarContinuous-v0",
                                     "FrozenLake-v1", "Taxi-v4", "Blackjack-v1",
                                     "MiniGrid-DoorKey-8x8-v0", "MiniGrid-Dynamic-Obstacles-5x5-v0"])
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_copies_continue_as_the_original_and_the_reference(rust_id, how):
    ours, theirs = make_pair(rust_id)
    ours.reset(seed=7)
    theirs.reset(seed=7)
    ours.action_space.seed(3)
    theirs.action_space.seed(3)
    # Into an episode (Blackjack's are short: a stick would end it).
    for _ in range(2):
        action = ours.action_space.sample()
        if rust_id == "Blackjack-v1":
            action = 1
        if ours.step(action)[2:4] != (False, False):
            ours.reset()
        if theirs.step(action)[2:4] != (False, False):
            theirs.reset()
    clone = copy.deepcopy(ours) if how == "deepcopy" else pickle.loads(pickle.dumps(ours))
    actions = [ours.action_space.sample() for _ in range(300)]
    original = rollout(ours, actions)
    assert rollout(clone, actions) == original
    assert rollout(theirs, actions) == original


def test_a_copy_is_independent_and_keeps_the_toy_text_attributes():
    env = gym.make("rlrs/FrozenLake-v1")
    env.reset(seed=2)
    env.step(1)
    clone = copy.deepcopy(env)
    assert clone.unwrapped.s == env.unwrapped.s and clone.unwrapped.lastaction == 1
    assert clone.unwrapped.P == env.unwrapped.P
    clone.reset(seed=5)
    clone.step(2)
    assert env.unwrapped.lastaction == 1  # the original is untouched
    restored = pickle.loads(pickle.dumps(env))
    assert restored.unwrapped.s == env.unwrapped.s


def test_an_id_without_state_access_refuses_to_pickle_clearly():
    from rlrs import _core

    env = _core.Environment("CartPole-v1")
    env.reset()
    copied = pickle.loads(pickle.dumps(env))
    assert copied.state_json() == env.state_json()
    broken = _core.Environment("CartPole-v1")
    with pytest.raises(ValueError, match="snapshot"):
        broken.__setstate__(json.dumps({"generator": {"state": "x", "inc": "1"}}))


@pytest.mark.parametrize("rust_id", ["CartPole-v1", "FrozenLake-v1", "MiniGrid-Empty-5x5-v0"])
def test_human_mode_shows_the_frames_in_a_window(rust_id, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no HumanRendering wrapper warning: the mode is native
        env = gym.make(f"rlrs/{rust_id}", render_mode="human")
    assert "human" in env.metadata["render_modes"]
    assert not isinstance(env, gym.wrappers.HumanRendering)
    reference = gym.make(rust_id, render_mode="rgb_array")
    assert env.metadata["render_fps"] == reference.metadata["render_fps"]
    env.reset(seed=1)
    window = env.unwrapped._window
    assert window.surface is not None
    frame = rlrs.RustEnv(rust_id, render_mode="rgb_array")
    frame.reset(seed=1)
    picture = frame.render()
    assert window.surface.get_size() == (picture.shape[1], picture.shape[0])
    import pygame

    shown = pygame.surfarray.array3d(window.surface).transpose(1, 0, 2)
    np.testing.assert_array_equal(shown, picture)
    env.step(env.action_space.sample())
    assert env.render() is None
    env.close()
    assert window.surface is None


def test_a_vector_refuses_copies_plainly():
    envs = rlrs.RustVectorEnv("CartPole-v1", 2)
    for copier in (copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="single environments"):
            copier(envs)


def test_every_minigrid_ids_rewards_and_flags_have_minigrids_types():
    # The reward is int where minigrid's is (0, DynamicObstacles' -1), float on success; the
    # observation's image and mission alike; the direction (and agent_dir) np.int64 in the
    # episodes whose reset drew it, else int.
    rng = np.random.default_rng(41)
    for rust_id in [rust_id for rust_id in SHARED if rust_id.startswith("MiniGrid-")]:
        ours, theirs = make_pair(rust_id)
        a, _ = ours.reset(seed=3)
        b, _ = theirs.reset(seed=3)
        assert type(a["direction"]) is type(b["direction"]), f"{rust_id} reset"
        assert type(ours.unwrapped.agent_dir) is type(theirs.unwrapped.agent_dir), rust_id
        for t in range(120):
            action = int(rng.integers(ours.action_space.n))
            a = ours.step(action)
            b = theirs.step(action)
            where = f"{rust_id} step {t}"
            assert type(a[1]) is type(b[1]) and a[1] == b[1], where
            assert scalar_types(a[2:4]) == scalar_types(b[2:4]), where
            assert scalar_types(a[0]["image"]) == scalar_types(b[0]["image"]), where
            assert type(a[0]["mission"]) is type(b[0]["mission"]), where
            assert type(a[0]["direction"]) is type(b[0]["direction"]), where
            if a[2] or a[3]:
                break


@pytest.mark.parametrize(
    "rust_id", ["BabyAI-GoToRedBallGrey-v0", "BabyAI-GoToLocal-v0", "BabyAI-BossLevel-v0"]
)
def test_babyai_observations_and_rewards_have_minigrids_types_step_by_step(rust_id):
    # BabyAI's levels draw the direction (RoomGrid.place_agent): np.int64 throughout; the
    # observation's keys in minigrid's order; the reward an int 0, a float on success.
    ours, theirs = gym.make(f"rlrs/{rust_id}"), gym.make(rust_id)
    rng = np.random.default_rng(5)
    a, _ = ours.reset(seed=8)
    b, _ = theirs.reset(seed=8)
    assert type(a["direction"]) is type(b["direction"]) is np.int64, rust_id
    for t in range(60):
        action = int(rng.integers(3))
        a = ours.step(action)
        b = theirs.step(action)
        assert type(a[0]["direction"]) is type(b[0]["direction"]), f"{rust_id} step {t}"
        assert a[0]["direction"] == b[0]["direction"], f"{rust_id} step {t}"
        assert list(a[0]) == list(b[0]), f"{rust_id} step {t}: the keys in minigrid's order"
        assert type(a[1]) is type(b[1]) and a[1] == b[1], f"{rust_id} step {t}: reward"
        if a[2] or a[3]:
            break
