"""The single environment: Gymnasium's checker, reset/step semantics, dtypes, spaces,
parameters, rendering, registration."""

from __future__ import annotations

import json
import os
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import rlrs
from conftest import every_id, mujoco_opengl, needs_mujoco_opengl
from rlrs import _core

IDS = rlrs.ids()
# Gymnasium's MuJoCo v5 ids (rl-mujoco): their frames need OpenGL (rlrs.mujoco).
MUJOCO_IDS = [
    "Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Humanoid-v5", "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5", "InvertedPendulum-v5", "Pusher-v5", "Reacher-v5",
    "Swimmer-v5", "Walker2d-v5",
]


def test_every_builtin_family_is_registered():
    assert "CartPole-v1" in IDS
    assert "MountainCar-v0" in IDS
    assert "MountainCarContinuous-v0" in IDS
    assert "GridWorld-4x5" in IDS
    for rust_id in IDS:
        assert f"rlrs/{rust_id}" in gym.registry
    assert rlrs.register_envs() == [f"rlrs/{i}" for i in IDS]  # idempotent


# The one warning check_env gives that is explained: Pendulum-v1's torque lies in [-2, 2], as
# in Gymnasium's own Pendulum-v1, which gets the same advice to normalise its Box actions.
# The warnings Gymnasium's check_env gives its own environment of the id too.
INFINITE_BOUNDS = ["minimum value is -infinity", "maximum value is infinity"]
EXPLAINED_WARNINGS = {
    "Pendulum-v1": ["we recommend using a symmetric and normalized space"],
    # Gymnasium 1.4.0's CartPole velocity bounds are np.inf, and so are ours.
    "CartPole-v1": INFINITE_BOUNDS,
    "FastCartPole-v1": INFINITE_BOUNDS,
    # Gymnasium's own MuJoCo environments get the same warnings: their observations are
    # unbounded, and InvertedPendulum's and Pusher's action bounds are not [-1, 1].
    **{
        env_id: [
            "observation space minimum value is -infinity",
            "observation space maximum value is infinity",
        ]
        + (
            ["we recommend using a symmetric and normalized space"]
            if env_id in ("InvertedPendulum-v5", "Pusher-v5")
            else []
        )
        for env_id in MUJOCO_IDS
    },
}


def skip_render_check(rust_id: str) -> bool:
    """Whether check_env must leave out its render check for ``rust_id``: it makes an
    environment of every render mode and renders it, and a MuJoCo id's "human" opens a glfw
    window, which needs a display, as Gymnasium's own MuJoCo environments' does (and its other
    modes need OpenGL). tests/test_mujoco_frames.py checks those modes beside Gymnasium's."""
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return rust_id in MUJOCO_IDS and (headless or mujoco_opengl()[0] is None)


@pytest.mark.parametrize("rust_id", every_id(IDS))
def test_check_env_passes_without_warnings(rust_id):
    env = gym.make(f"rlrs/{rust_id}", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=skip_render_check(rust_id))
    explained = EXPLAINED_WARNINGS.get(rust_id, [])
    unexplained = [
        str(w.message)
        for w in caught
        if not any(reason in str(w.message) for reason in explained)
    ]
    assert unexplained == []
    env.close()


@pytest.mark.parametrize("env_id", ["Pendulum-v1", "CartPole-v1"])
def test_gymnasiums_own_environments_get_the_explained_warnings(env_id):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make(env_id).unwrapped, skip_render_check=True)
    for reason in EXPLAINED_WARNINGS[env_id]:
        assert any(reason in str(w.message) for w in caught), reason


@pytest.mark.parametrize("rust_id", every_id(IDS))
def test_observations_have_the_declared_dtype_and_lie_in_the_space(rust_id):
    env = gym.make(f"rlrs/{rust_id}")
    observation, info = env.reset(seed=5)
    # A reset's info is Gymnasium's where the id is one of its environments ({"prob": 1} for
    # the toy text), else empty.
    if rust_id in gym.registry:
        assert sorted(info) == sorted(gym.make(rust_id).reset(seed=5)[1])
    else:
        assert info == {}
    space = env.observation_space
    assert observation in space
    if isinstance(space, spaces.Discrete):
        assert type(observation) is int  # as Gymnasium's toy text (int(s))
    elif isinstance(space, spaces.Tuple):  # Blackjack's, a tuple as Gymnasium's
        assert isinstance(observation, tuple) and len(observation) == len(space.spaces)
    elif isinstance(space, spaces.Dict):  # MiniGrid's image, direction and mission
        assert isinstance(observation, dict) and set(observation) == set(space.spaces)
        assert observation["image"].dtype == space["image"].dtype
    else:
        assert isinstance(observation, np.ndarray)
        assert observation.dtype == space.dtype
        assert observation.shape == space.shape
    env.action_space.seed(3)
    for _ in range(20):
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert observation in space
        # A float, or an int where the reference gives one (test_dropin.py checks which).
        assert isinstance(reward, (float, int)) and not isinstance(reward, bool)
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        if terminated or truncated:
            observation, _ = env.reset()


def test_seeding_follows_gymnasium():
    env = rlrs.RustEnv("CartPole-v1")
    first, _ = env.reset(seed=42)
    second, _ = env.reset()
    assert not np.array_equal(first, second), "reset() continues the stream"
    again, _ = env.reset(seed=42)
    assert np.array_equal(first, again), "reset(seed=s) reseeds"
    assert np.array_equal(env.reset()[0], second)
    # Unseeded environments draw their seed from entropy (through np_random).
    a = rlrs.RustEnv("CartPole-v1").reset()[0]
    b = rlrs.RustEnv("CartPole-v1").reset()[0]
    assert not np.array_equal(a, b)


def test_same_seed_and_actions_give_the_same_trajectory():
    def rollout():
        env = gym.make("rlrs/MountainCarContinuous-v0")
        env.reset(seed=7)
        env.action_space.seed(7)
        out = []
        for _ in range(50):
            out.append(env.step(env.action_space.sample())[:4])
        return out

    for (o1, r1, t1, u1), (o2, r2, t2, u2) in zip(rollout(), rollout()):
        assert o1.tobytes() == o2.tobytes() and r1 == r2 and t1 == t2 and u1 == u2


def test_episode_ends_with_the_domain_cap_and_then_needs_reset():
    env = rlrs.RustEnv("CartPole-v1")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(5)
    env.reset(seed=0, options={"state": [0.0, 0.0, 0.2, 2.0]})
    _, reward, terminated, truncated, _ = env.step(1)
    assert terminated and not truncated and reward == 1.0
    with pytest.raises(RuntimeError):
        env.step(0)
    # Truncation at 200 steps on MountainCar, from the domain (no TimeLimit wrapper).
    env = gym.make("rlrs/MountainCar-v0")
    assert env.spec.max_episode_steps == 200  # the domain's cap, with no TimeLimit wrapper
    assert not any(isinstance(w, gym.wrappers.TimeLimit) for w in _wrappers(env))
    env.reset(seed=0)
    steps = 0
    while True:
        _, _, terminated, truncated, _ = env.step(1)
        steps += 1
        if terminated or truncated:
            break
    assert (steps, terminated, truncated) == (200, False, True)


def _wrappers(env):
    while isinstance(env, gym.Wrapper):
        yield env
        env = env.env


def test_specs_carry_gymnasiums_limits_and_thresholds():
    for rust_id in ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Acrobot-v1", "Pendulum-v1"]:
        ours, theirs = gym.make(f"rlrs/{rust_id}").spec, gym.spec(rust_id)
        assert ours.max_episode_steps == theirs.max_episode_steps, rust_id
        assert ours.reward_threshold == theirs.reward_threshold, rust_id
        assert ours.nondeterministic == theirs.nondeterministic, rust_id
    # Parameters that change the domain's cap change the spec's limit.
    assert rlrs.RustEnv("CartPole-v1", max_episode_steps=1000).spec is None  # not made by id
    assert gym.make("rlrs/GridWorld-4x5", episode_cap=7).spec.max_episode_steps == 7
    assert gym.make("rlrs/GridWorld-4x5").spec.reward_threshold is None
    # A spec made again from the environment's spec builds the same environment.
    again = gym.make(gym.make("rlrs/Acrobot-v1").spec)
    assert again.spec.max_episode_steps == 500
    assert isinstance(rlrs.__version__, str) and rlrs.__version__.count(".") == 2


def test_step_before_reset_is_an_error():
    with pytest.raises(RuntimeError):
        rlrs.RustEnv("CartPole-v1").step(0)
    with pytest.raises(gym.error.ResetNeeded):
        gym.make("rlrs/CartPole-v1").step(0)


def test_parameters_are_keyword_arguments():
    env = gym.make("rlrs/CartPole-v1", sutton_barto_reward=True)
    env.reset(seed=1)
    assert env.step(0)[1] == 0.0
    env = gym.make("rlrs/GridWorld-4x5", noise=0.0, episode_cap=3)
    env.reset(seed=1)
    results = [env.step(1)[3] for _ in range(3)]
    assert results == [False, False, True]
    with pytest.raises(ValueError, match="no_such_parameter"):
        gym.make("rlrs/CartPole-v1", no_such_parameter=1)
    with pytest.raises(ValueError, match="gravity"):
        gym.make("rlrs/CartPole-v1", gravity="strong")
    with pytest.raises(KeyError, match="CartPole-v1"):
        rlrs.RustEnv("NoSuchEnv-v0")
    # The message prints as written: the closest id, then the ids one per line.
    with pytest.raises(rlrs.UnknownIdError) as caught:
        rlrs.RustEnv("cartpole-v1")
    text = str(caught.value)
    assert text.startswith("unknown id `cartpole-v1`; did you mean `CartPole-v1`?"), text
    assert "\n" in text and "\\n" not in text


def test_render_ansi_draws_the_current_state():
    env = gym.make("rlrs/GridWorld-4x5", render_mode="ansi")
    env.reset(seed=0)
    before = env.render()
    assert isinstance(before, str) and before
    env.unwrapped.reset(seed=0, options={"state": {"row": 0, "col": 0}})
    assert env.render() != before
    cart = gym.make("rlrs/CartPole-v1", render_mode="ansi")
    cart.reset(seed=0)
    assert "x =" in cart.render()
    with pytest.raises(ValueError):
        rlrs.RustEnv("CartPole-v1", render_mode="rgb_array_list")


# The frame shapes of Gymnasium 1.4.0's rgb_array (screen_height, screen_width, 3) for the ids
# that mirror its environments (its classes' screen sizes; drawing them needs pygame).
GYMNASIUM_FRAME_SHAPES = {
    "CartPole-v1": (400, 600, 3),
    "MountainCar-v0": (400, 600, 3),
    "MountainCarContinuous-v0": (400, 600, 3),
    "Acrobot-v1": (500, 500, 3),
    "Pendulum-v1": (500, 500, 3),
}


def with_opengl_for_mujoco(rust_id: str):
    """``rust_id``, skipped (with the reason) for the MuJoCo ids where MuJoCo's renderer has
    no OpenGL backend (``conftest.mujoco_opengl``: CI machines without libEGL or OSMesa)."""
    if rust_id in MUJOCO_IDS:
        return pytest.param(rust_id, marks=needs_mujoco_opengl())
    return rust_id


# The MuJoCo ids this test draws in a normal run: a 2-D and a 3-D model. Drawing a MuJoCo frame
# in software OpenGL takes seconds (the 11 ids took 25 s of CI's pytest time), and
# test_mujoco_frames.py checks the frames of six ids pixel for pixel beside Gymnasium's;
# RLRS_TEST_EVERY_ID=1 or RLRS_TEST_MUJOCO_FRAMES=1 draws all 11 here.
MUJOCO_FRAME_SLICE = ["Hopper-v5", "Ant-v5"]


def frame_ids():
    """The ids of :func:`test_rgb_array_frames_on_every_id`: ``every_id``'s, with the MuJoCo ids
    cut to :data:`MUJOCO_FRAME_SLICE` unless every id or every MuJoCo frame is asked for."""
    ids = every_id(IDS)
    if "1" in (os.environ.get("RLRS_TEST_EVERY_ID"), os.environ.get("RLRS_TEST_MUJOCO_FRAMES")):
        return ids
    return [i for i in ids if i not in MUJOCO_IDS or i in MUJOCO_FRAME_SLICE]


@pytest.mark.parametrize("rust_id", [with_opengl_for_mujoco(rust_id) for rust_id in frame_ids()])
def test_rgb_array_frames_on_every_id(rust_id):
    # check_env's render check of this id, rgb_array included (it makes and renders an
    # environment of every declared mode), is test_check_env_passes_without_warnings's, on
    # these ids and more.
    env = gym.make(f"rlrs/{rust_id}", render_mode="rgb_array")
    assert env.unwrapped.render() is None  # before the first reset, as Gymnasium's
    env.reset(seed=3)
    env.action_space.seed(3)
    frames = [env.render()]
    # Random actions until a frame differs from the first; an episode that ends first (an
    # early "done" of a MiniGrid task) is reset without a seed and stepping goes on.
    for _ in range(40):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        frames.append(env.render())
        if frames[-1].tobytes() != frames[0].tobytes():
            break
        if terminated or truncated:
            env.reset()
            frames.append(env.render())
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.flags.writeable
        assert frame.shape == frames[0].shape
    if rust_id in GYMNASIUM_FRAME_SHAPES:
        assert frames[0].shape == GYMNASIUM_FRAME_SHAPES[rust_id]
    assert len({frame.tobytes() for frame in frames}) > 1, "the frames do not follow the state"
    # Each call returns a new array.
    assert env.render() is not env.render()
    env.close()


def test_render_fps_is_gymnasiums():
    for rust_id, fps in [
        ("CartPole-v1", 50),
        ("MountainCar-v0", 30),
        ("MountainCarContinuous-v0", 30),
        ("Acrobot-v1", 15),
        ("Pendulum-v1", 30),
    ]:
        assert gym.make(f"rlrs/{rust_id}").metadata["render_fps"] == fps
        assert gym.make(rust_id).metadata["render_fps"] == fps
    assert gym.make("rlrs/GridWorld-4x5").metadata["render_fps"] == 50
    assert "rgb_array" in gym.make("rlrs/GridWorld-4x5").metadata["render_modes"]


def test_the_state_of_every_builtin_domain_can_be_set():
    for rust_id, state in [
        (
            "Acrobot-v1",
            {"theta1": 0.1, "theta2": -0.2, "dtheta1": 0.5, "dtheta2": 0.0, "precision": "float64"},
        ),
        ("Pendulum-v1", {"theta": 1.0, "theta_dot": -0.5}),
    ]:
        env = rlrs.RustEnv(rust_id)
        env.reset(seed=0, options={"state": state})
        assert env.state() == state, rust_id


def test_state_round_trips():
    env = rlrs.RustEnv("MountainCar-v0")
    env.reset(seed=0, options={"state": {"position": -0.5, "velocity": 0.01}})
    assert env.state() == {"position": -0.5, "velocity": 0.01}
    with pytest.raises(ValueError, match="not a state of this domain"):
        env.reset(options={"state": "elsewhere"})


def test_spaces_of_the_builtin_ids():
    cart = gym.make("rlrs/CartPole-v1")
    reference = gym.make("CartPole-v1")
    assert cart.action_space == reference.action_space
    assert cart.observation_space.dtype == np.float32
    assert cart.observation_space.shape == (4,)
    grid = gym.make("rlrs/GridWorld-4x5")
    assert grid.observation_space == spaces.MultiDiscrete([4, 5])
    car = gym.make("rlrs/MountainCarContinuous-v0")
    assert car.action_space == gym.make("MountainCarContinuous-v0").action_space


def definition(text: dict) -> spaces.Space:
    """The Gymnasium space of a definition as the Rust core writes it."""
    return rlrs.space_from_definition(_core.space_definition(json.dumps(text)))


def test_space_definitions_become_gymnasium_spaces():
    box = definition(
        {"type": "Box", "dtype": "float64", "shape": [2], "low": [-1.0, "-inf"], "high": "inf"}
    )
    assert box == spaces.Box(np.array([-1.0, -np.inf]), np.inf, (2,), np.float64)
    assert definition({"type": "Box", "dtype": "uint8", "shape": [2, 3], "low": 0, "high": 255}) == (
        spaces.Box(0, 255, (2, 3), np.uint8)
    )
    assert definition({"type": "Discrete", "n": 4, "start": -3}) == spaces.Discrete(4, start=-3)
    assert definition({"type": "MultiDiscrete", "nvec": [2, 3, 4, 2], "shape": [2, 2]}) == (
        spaces.MultiDiscrete([[2, 3], [4, 2]])
    )
    assert definition({"type": "MultiBinary", "shape": [2, 3]}) == spaces.MultiBinary([2, 3])
    nested = definition(
        {
            "type": "Dict",
            "spaces": {
                "velocity": {"type": "Box", "dtype": "float32", "shape": [1], "low": -1, "high": 1},
                "flags": {"type": "MultiBinary", "shape": [3]},
                "pair": {
                    "type": "Tuple",
                    "spaces": [{"type": "Discrete", "n": 2}, {"type": "Discrete", "n": 3}],
                },
            },
        }
    )
    assert nested == spaces.Dict(
        {
            "flags": spaces.MultiBinary(3),
            "pair": spaces.Tuple((spaces.Discrete(2), spaces.Discrete(3))),
            "velocity": spaces.Box(-1.0, 1.0, (1,), np.float32),
        }
    )
    assert list(nested.spaces) == ["flags", "pair", "velocity"]
    with pytest.raises(NotImplementedError, match="FiniteSet"):
        definition({"type": "FiniteSet", "elements": ["a", "b"]})
    with pytest.raises(ValueError):
        _core.space_definition('{"type": "Discrete", "n": 0}')


def test_action_masks_say_which_actions_apply():
    grid = rlrs.RustEnv("GridWorld-4x5", noise=0.0)
    grid.reset(seed=0, options={"state": {"row": 0, "col": 0}})
    mask = grid.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (4,)
    # RLPy's actions are up, down, left, right: from the top-left corner only down and right.
    assert mask.tolist() == [0, 1, 0, 1]
    cart = rlrs.RustEnv("CartPole-v1")
    assert cart.action_mask().tolist() == [0, 0]  # before the first reset
    cart.reset(seed=0)
    assert cart.action_mask().tolist() == [1, 1]
    assert rlrs.RustEnv("Pendulum-v1").action_mask() is None  # a Box action space


def test_text_definitions_become_gymnasium_texts():
    text = definition({"type": "Text", "min_length": 0, "max_length": 5, "charset": "cab"})
    assert text == spaces.Text(5, min_length=0, charset="cab")
    assert text.character_list == ("c", "a", "b")
    default = definition({"type": "Text", "max_length": 4})
    assert default == spaces.Text(4)
    assert default.character_list == spaces.Text(4).character_list


SIDE_BY_SIDE_SPACES = [
    {"type": "Text", "min_length": 0, "max_length": 6, "charset": "aé€ 𝄞"},
    {"type": "Text", "max_length": 8},
    {
        "type": "Dict",
        "spaces": {
            "mission": {"type": "Text", "min_length": 1, "max_length": 3, "charset": "xyz"},
            "pair": {"type": "Tuple", "spaces": [{"type": "Discrete", "n": 3}, {"type": "MultiBinary", "shape": [2]}]},
        },
    },
    {"type": "Sequence", "feature_space": {"type": "Discrete", "n": 4}, "stack": False},
    {
        "type": "Sequence",
        "feature_space": {"type": "Box", "dtype": "float32", "shape": [2], "low": -1, "high": 1},
        "stack": True,
    },
    {
        "type": "Sequence",
        "feature_space": {"type": "Tuple", "spaces": [{"type": "Discrete", "n": 3}, {"type": "MultiBinary", "shape": [2]}]},
        "stack": True,
    },
    {
        "type": "Sequence",
        "feature_space": {"type": "Dict", "spaces": {"a": {"type": "Discrete", "n": 3}, "b": {"type": "Text", "max_length": 2}}},
        "stack": False,
    },
    {
        "type": "Graph",
        "node_space": {"type": "Box", "dtype": "float32", "shape": [2], "low": -1, "high": 1},
        "edge_space": {"type": "Discrete", "n": 3},
    },
    {"type": "Graph", "node_space": {"type": "Discrete", "n": 4}, "edge_space": None},
    {
        "type": "OneOf",
        "spaces": [
            {"type": "Discrete", "n": 3},
            {"type": "Box", "dtype": "float32", "shape": [2], "low": -1, "high": 1},
            {"type": "Text", "min_length": 0, "max_length": 3, "charset": "xy"},
        ],
    },
]


@pytest.mark.parametrize(
    "description", SIDE_BY_SIDE_SPACES, ids=lambda d: f'{d["type"]}-{len(json.dumps(d))}'
)
def test_element_json_agrees_with_gymnasium_both_ways(description):
    text = json.dumps(description)
    space = rlrs.space_from_definition(_core.space_definition(text))
    # Our samples, read by Gymnasium's from_jsonable, are its elements and write back the same.
    ours = json.loads(_core.space_samples_jsonable(text, 3, 16))
    elements = space.from_jsonable(ours)
    assert len(elements) == 16
    assert all(space.contains(x) for x in elements)
    assert space.to_jsonable(elements) == ours
    # Gymnasium's samples, written by its to_jsonable, read and write back the same here.
    space.seed(5)
    theirs = space.to_jsonable([space.sample() for _ in range(16)])
    assert json.loads(_core.space_jsonable_round_trip(text, json.dumps(theirs))) == theirs
    with pytest.raises(ValueError):
        _core.space_jsonable_round_trip(text, json.dumps([17]))


def test_new_space_definitions_become_gymnasium_spaces():
    box = {"type": "Box", "dtype": "float32", "shape": [2], "low": -1, "high": 1}
    assert definition({"type": "Sequence", "feature_space": {"type": "Discrete", "n": 4}, "stack": True}) == (
        spaces.Sequence(spaces.Discrete(4), stack=True)
    )
    assert definition({"type": "Graph", "node_space": box, "edge_space": None}) == spaces.Graph(
        spaces.Box(-1.0, 1.0, (2,), np.float32), None
    )
    assert definition({"type": "OneOf", "spaces": [{"type": "Discrete", "n": 2}, box]}) == spaces.OneOf(
        (spaces.Discrete(2), spaces.Box(-1.0, 1.0, (2,), np.float32))
    )


def test_converted_elements_are_gymnasium_elements():
    from rlrs.spaces import observation_converter

    for description in SIDE_BY_SIDE_SPACES:
        text = json.dumps(description)
        space = rlrs.space_from_definition(_core.space_definition(text))
        convert = observation_converter(space) or (lambda v: v)
        ours = _core.space_samples(text, 9, 4)
        assert len(ours) == 4
        for element in ours:
            assert space.contains(convert(element)), (description, element)
        # Gymnasium's own samples read back as elements here.
        space.seed(2)
        for _ in range(4):
            assert _core.space_contains(text, space.sample()), description


def test_record_video_writes_a_video_of_an_rlrs_episode(tmp_path):
    # Gymnasium's RecordVideo (moviepy is pinned in the test environment) over an rlrs id.
    import moviepy  # noqa: F401  (RecordVideo needs it; a missing pin fails here, not later)

    env = gym.wrappers.RecordVideo(
        gym.make("rlrs/CartPole-v1", render_mode="rgb_array"),
        str(tmp_path),
        episode_trigger=lambda episode: True,
        disable_logger=True,
    )
    env.reset(seed=0)
    steps, done = 0, False
    while not done:
        _, _, terminated, truncated, _ = env.step(steps % 2)
        steps, done = steps + 1, terminated or truncated
    env.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert len(videos) == 1, list(tmp_path.iterdir())
    assert videos[0].stat().st_size > 1000
    assert steps > 5


def test_human_rendering_shows_the_frames_through_gymnasiums_wrapper(monkeypatch):
    # "human" through Gymnasium's own HumanRendering (pygame, here pygame-ce, with SDL's
    # dummy video driver: no display needed).
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = gym.wrappers.HumanRendering(gym.make("rlrs/Acrobot-v1", render_mode="rgb_array"))
    assert env.render_mode == "human"
    env.reset(seed=1)
    for _ in range(3):
        env.step(env.action_space.sample())
    frame = env.env.render()
    assert env.window is not None
    assert env.window.get_size() == (frame.shape[1], frame.shape[0])
    env.close()


def test_any_discrete_id_can_put_its_action_mask_in_the_infos():
    # Gymnasium's CartPole has no action_mask in its infos, so neither has ours by default;
    # info_action_mask=True adds it (Taxi's layout), single and batched, and False removes
    # Taxi's.
    plain = gym.make("rlrs/CartPole-v1")
    assert "action_mask" not in plain.reset(seed=0)[1]
    env = gym.make("rlrs/GridWorld-4x5", info_action_mask=True)
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].tolist() == env.unwrapped.action_mask().tolist()
    for _ in range(20):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        assert info["action_mask"].tolist() == env.unwrapped.action_mask().tolist()
        if terminated or truncated:
            env.reset()
    taxi = gym.make("rlrs/Taxi-v4", info_action_mask=False)
    assert "action_mask" not in taxi.reset(seed=0)[1]
    envs = gym.make_vec(
        "rlrs/CartPole-v1", num_envs=3, vectorization_mode="vector_entry_point", info_action_mask=True
    )
    _, info = envs.reset(seed=0)
    assert info["action_mask"].shape == (3, 2) and info["_action_mask"].all()
    _, _, _, _, info = envs.step(np.array([0, 1, 0]))
    assert info["action_mask"].tolist() == [[1, 1]] * 3
    with pytest.raises(ValueError, match="needs a Discrete action space"):
        gym.make("rlrs/Pendulum-v1", info_action_mask=True)
    with pytest.raises(TypeError, match="info_action_mask"):
        gym.make("rlrs/CartPole-v1", info_action_mask="yes")
