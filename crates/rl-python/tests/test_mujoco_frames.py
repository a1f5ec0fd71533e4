"""The MuJoCo ids' frames (``rlrs.mujoco``) beside live Gymnasium 1.4.0 with the same mujoco:
``render()`` in every off-screen mode, with Gymnasium's rendering keyword arguments, equal to
``gym.make(id, render_mode=...)``'s pixel for pixel (and depth for depth) after every reset
and step, single environments and vectors.

Drawing needs OpenGL: where MuJoCo's renderer finds no backend (``conftest.mujoco_opengl``
tries ``MUJOCO_GL``'s, else egl and osmesa), every test here is skipped with the reason.
``RLRS_TEST_MUJOCO_FRAMES=1`` adds every id in both image modes at Gymnasium's default size and
steps each case 200 steps; the normal run takes a slice (six ids, 8 steps, smaller frames but
one case).
"""

from __future__ import annotations

import copy
import os

import gymnasium as gym
import numpy as np
import pytest

import rlrs
from conftest import needs_mujoco_opengl

mujoco = pytest.importorskip("mujoco")

pytestmark = needs_mujoco_opengl()

FULL = os.environ.get("RLRS_TEST_MUJOCO_FRAMES") == "1"
STEPS = 200 if FULL else 8
SMALL = {"width": 96, "height": 72}

# (id, render mode, keyword arguments): every off-screen mode, Gymnasium's default frames,
# other sizes, a fixed camera by id and by name, a free camera of one's own, visual options,
# max_geom, frame_skip (which moves render_fps). Making an OpenGL context and drawing are slow
# in software (mesa's llvmpipe: 1 to 8 s a case here, Gymnasium's half included), so the normal
# run takes the cases marked fast.
CASES = [
    ("Hopper-v5", "rgb_array", {}, "fast"),
    ("Pusher-v5", "rgbd_tuple", {"width": 120, "height": 80}, "fast"),
    ("Walker2d-v5", "rgb_array", {**SMALL, "camera_name": "track", "frame_skip": 3}, "fast"),
    (
        "Ant-v5",
        "rgb_array",
        {
            **SMALL,
            "camera_id": -1,
            "default_camera_config": {"distance": 7.0, "elevation": -45.0},
            "visual_options": {2: True},
            "max_geom": 500,
        },
        "fast",
    ),
    ("InvertedDoublePendulum-v5", "depth_array", SMALL, "fast"),
    ("Reacher-v5", "rgb_array", SMALL, "fast"),
    ("Humanoid-v5", "depth_array", SMALL, "full"),
    ("HalfCheetah-v5", "rgb_array", {**SMALL, "camera_id": 0}, "full"),
]
CASES += [
    (env_id, mode, {}, "full")
    for env_id in rlrs._core.mujoco_ids()
    for mode in ("rgb_array", "depth_array")
]
CASES = [case[:3] for case in CASES if FULL or case[3] == "fast"]
VECTOR_CASES = [("InvertedPendulum-v5", "depth_array"), ("Reacher-v5", "rgb_array")]
if FULL:
    VECTOR_CASES += [("Hopper-v5", "rgb_array"), ("Ant-v5", "rgbd_tuple")]


def assert_same_frame(ours, theirs, where: str) -> None:
    """Two frames (or ``rgbd_tuple`` pairs) are the same array: dtype, shape and bytes."""
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), where
        for mine, expected in zip(ours, theirs):
            assert_same_frame(mine, expected, where)
        return
    assert isinstance(ours, np.ndarray), f"{where}: {type(ours)}"
    assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape), where
    assert ours.tobytes() == theirs.tobytes(), f"{where}: the frames differ"


@pytest.mark.parametrize(("env_id", "render_mode", "kwargs"), CASES)
def test_frames_equal_gymnasiums(env_id, render_mode, kwargs):
    ours = gym.make(f"rlrs/{env_id}", render_mode=render_mode, **kwargs)
    theirs = gym.make(env_id, render_mode=render_mode, **kwargs)
    assert ours.metadata["render_fps"] == theirs.metadata["render_fps"]
    assert ours.unwrapped.render() is None  # before the first reset there is no state
    for name in ("width", "height", "camera_id", "camera_name", "frame_skip", "dt"):
        assert getattr(ours.unwrapped, name) == getattr(theirs.unwrapped, name), name
    ours.reset(seed=3)
    theirs.reset(seed=3)
    theirs.action_space.seed(3)
    distinct = set()
    for step in range(STEPS):
        where = f"{env_id} {render_mode} {kwargs} step {step}"
        frame = ours.render()
        assert_same_frame(frame, theirs.render(), where)
        distinct.add((frame[0] if isinstance(frame, tuple) else frame).tobytes())
        action = theirs.action_space.sample()
        *_, terminated, truncated, _ = ours.step(action)
        _, _, expected_terminated, expected_truncated, _ = theirs.step(action)
        assert (terminated, truncated) == (expected_terminated, expected_truncated), where
        if terminated or truncated:
            ours.reset()
            theirs.reset()
    assert len(distinct) > 1, "the frames do not follow the state"
    ours.close()
    theirs.close()


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_copies_draw_the_same_frames(how):
    """A deep copy or an unpickled copy of a stepped environment draws its frame (with a
    renderer of its own, made anew: an OpenGL context is never copied), then follows its own
    steps."""
    import pickle

    env = rlrs.RustEnv("Ant-v5", render_mode="rgb_array", **SMALL)
    env.reset(seed=1)
    for _ in range(5):
        env.step(env.action_space.sample())
    frame = env.render()
    other = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert other._frames is not env._frames
    assert_same_frame(other.render(), frame, how)
    action = env.action_space.sample()
    other.step(action)
    assert_same_frame(env.render(), frame, f"the original, after its {how} stepped")
    env.step(action)
    assert_same_frame(other.render(), env.render(), f"the {how}, a step on")
    other.close()
    env.close()


@pytest.mark.parametrize(("env_id", "render_mode"), VECTOR_CASES)
def test_vector_frames_equal_sync_vector_envs(env_id, render_mode):
    """``RustVectorEnv.render()`` beside Gymnasium's ``SyncVectorEnv`` of the id: a tuple of
    every environment's frame, autoresets included."""
    from gymnasium.vector import AutoresetMode

    mode = AutoresetMode.SAME_STEP
    ours = rlrs.RustVectorEnv(env_id, 3, render_mode=render_mode, autoreset_mode=mode, **SMALL)
    theirs = gym.make_vec(
        env_id, 3, vectorization_mode="sync", render_mode=render_mode,
        vector_kwargs={"autoreset_mode": mode}, **SMALL,
    )
    assert ours.metadata["render_modes"] == ["rgb_array", "depth_array", "rgbd_tuple"]
    assert ours.metadata["render_fps"] == theirs.metadata["render_fps"]
    ours.reset(seed=5)
    theirs.reset(seed=5)
    theirs.action_space.seed(5)
    for step in range(STEPS):
        frames, expected = ours.render(), theirs.render()
        assert isinstance(frames, tuple) and len(frames) == len(expected) == 3
        for i, (frame, theirs_frame) in enumerate(zip(frames, expected)):
            assert_same_frame(frame, theirs_frame, f"{env_id} env {i} step {step}")
        actions = theirs.action_space.sample()
        ours.step(actions)
        theirs.step(actions)
    ours.close()
    theirs.close()
