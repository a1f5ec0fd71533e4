"""Gymnasium's MuJoCo v5 ids through rlrs, beside live Gymnasium 1.4.0 with the same mujoco.

Every one of the 11 ids steps beside ``gym.make(id)`` with the same seeds and the same random
actions (the action space's own samples), with resets after each episode end: observations,
rewards, terminated, truncated and every reset's and step's info must be equal bit for bit. rlrs opens the
libmujoco of the installed ``mujoco`` package, the file Gymnasium's environments load.
"""

from __future__ import annotations

import gc
import os

import gymnasium as gym
import numpy as np
import pytest

import rlrs

mujoco = pytest.importorskip("mujoco")

IDS = [
    "Ant-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5",
    "InvertedPendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]
SEEDS = [0, 7]
STEPS = 200


def assert_same_info(ours: dict, theirs: dict, where: str) -> None:
    assert set(ours) == set(theirs), where
    for key, value in theirs.items():
        mine = np.asarray(ours[key], dtype=np.float64)
        expected = np.asarray(value, dtype=np.float64)
        assert mine.shape == expected.shape, f"{where}: info[{key!r}]"
        assert mine.tobytes() == expected.tobytes(), f"{where}: info[{key!r}] {ours[key]!r} != {value!r}"


def test_every_mujoco_id_is_registered():
    for env_id in IDS:
        assert env_id in rlrs.ids(), env_id


@pytest.mark.parametrize("env_id", IDS)
def test_steps_equal_gymnasium_bit_for_bit(env_id):
    ours, theirs = gym.make(f"rlrs/{env_id}"), gym.make(env_id)
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.spec.max_episode_steps == theirs.spec.max_episode_steps
    for seed in SEEDS:
        observation, reset_info = ours.reset(seed=seed)
        expected, expected_reset_info = theirs.reset(seed=seed)
        assert observation.dtype == expected.dtype == np.float64
        assert observation.tobytes() == expected.tobytes(), f"{env_id} seed {seed}: reset"
        assert_same_info(reset_info, expected_reset_info, f"{env_id} seed {seed}: reset info")
        theirs.action_space.seed(seed)
        for step in range(STEPS):
            where = f"{env_id} seed {seed} step {step}"
            action = theirs.action_space.sample()
            observation, reward, terminated, truncated, info = ours.step(action)
            expected, expected_reward, expected_terminated, expected_truncated, expected_info = (
                theirs.step(action)
            )
            assert observation.tobytes() == expected.tobytes(), where
            assert np.float64(reward).tobytes() == np.float64(expected_reward).tobytes(), where
            assert (terminated, truncated) == (expected_terminated, expected_truncated), where
            assert_same_info(info, expected_info, where)
            if terminated or truncated:
                observation, reset_info = ours.reset()
                expected, expected_reset_info = theirs.reset()
                assert observation.tobytes() == expected.tobytes(), f"{where}: reset"
                assert_same_info(reset_info, expected_reset_info, f"{where}: reset info")
    ours.close()
    theirs.close()


@pytest.mark.parametrize("env_id", IDS)
def test_pickles_continue_as_the_original_and_gymnasium(env_id):
    """``pickle`` round trip of a stepped environment (issue 41): the copy, the original and
    Gymnasium's environment from the same seed then give the same observations, rewards,
    flags and infos, bit for bit, over resets too (the generator travels with the state), the
    state's derived quantities included (Ant's and Reacher's rewards read ``xpos`` before
    stepping, Humanoid's ``xipos``, its observation ``cinert``, ``cvel``, ``cfrc_ext``)."""
    import pickle

    ours, theirs = gym.make(f"rlrs/{env_id}"), gym.make(env_id)
    # Before the first reset: the copy starts as a new environment.
    fresh = pickle.loads(pickle.dumps(ours))
    assert fresh.reset(seed=3)[0].tobytes() == ours.reset(seed=3)[0].tobytes()
    theirs.reset(seed=3)
    rng = np.random.default_rng(4)
    space = theirs.action_space
    actions = [
        rng.uniform(space.low, space.high).astype(space.dtype) for _ in range(100)
    ]
    copy = None
    for step, action in enumerate(actions):
        where = f"{env_id} step {step}"
        if step == 40:
            copy = pickle.loads(pickle.dumps(ours))
            assert type(copy.unwrapped) is type(ours.unwrapped)
        expected = theirs.step(action)
        for env in (ours, copy) if copy is not None else (ours,):
            observation, reward, terminated, truncated, info = env.step(action)
            assert observation.tobytes() == expected[0].tobytes(), where
            assert type(reward) is type(expected[1]) and reward == expected[1], where
            assert (terminated, truncated) == expected[2:4], where
            assert_same_info(info, expected[4], where)
        if expected[2] or expected[3]:
            reference, _ = theirs.reset()
            for env in (ours, copy) if copy is not None else (ours,):
                assert env.reset()[0].tobytes() == reference.tobytes(), f"{where} reset"
    # A step the original takes after the copy was made does not reach the copy.
    copy.step(actions[0])
    assert ours.unwrapped.state() != copy.unwrapped.state()


def test_keyword_arguments_reach_the_model():
    ours = gym.make(
        "rlrs/Hopper-v5",
        frame_skip=2,
        ctrl_cost_weight=0.01,
        exclude_current_positions_from_observation=False,
        healthy_z_range=[0.5, "inf"],
    )
    theirs = gym.make(
        "Hopper-v5",
        frame_skip=2,
        ctrl_cost_weight=0.01,
        exclude_current_positions_from_observation=False,
        healthy_z_range=(0.5, float("inf")),
    )
    assert ours.observation_space.shape == theirs.observation_space.shape == (12,)
    observation, _ = ours.reset(seed=3)
    expected, _ = theirs.reset(seed=3)
    assert observation.tobytes() == expected.tobytes()
    theirs.action_space.seed(3)
    for _ in range(50):
        action = theirs.action_space.sample()
        step, expected_step = ours.step(action), theirs.step(action)
        assert step[0].tobytes() == expected_step[0].tobytes()
        assert step[1] == expected_step[1]
        if step[2] or step[3]:
            break


def test_unknown_arguments_and_models_are_errors_naming_them():
    with pytest.raises(ValueError, match="frame_skipp"):
        gym.make("rlrs/Hopper-v5", frame_skipp=3)
    with pytest.raises(ValueError, match="hopper.xml"):
        gym.make("rlrs/Hopper-v5", xml_file="hoper.xml")



def assert_same_vector_info(ours: dict, theirs: dict, where: str) -> None:
    """Two vector infos in Gymnasium's layout are the same: the same keys, every mask equal,
    every value array equal bit for bit as float64 (the reset infos of the environments an
    autoreset restarted included), the final observations equal bit for bit in their dtype
    and the final infos likewise."""
    assert sorted(ours) == sorted(theirs), f"{where}: {sorted(ours)} != {sorted(theirs)}"
    for key, value in theirs.items():
        if key == "final_obs":
            mask = theirs["_final_obs"]
            for index in range(len(mask)):
                if mask[index]:
                    assert ours[key][index].dtype == value[index].dtype, f"{where}: final_obs"
                    assert ours[key][index].tobytes() == value[index].tobytes(), (
                        f"{where}: final_obs[{index}]"
                    )
                else:
                    assert ours[key][index] is None, f"{where}: final_obs[{index}]"
        elif isinstance(value, dict):
            assert_same_vector_info(ours[key], value, f"{where}: {key}")
        elif key.startswith("_"):
            assert ours[key].dtype == value.dtype == np.bool_, f"{where}: info[{key!r}]"
            assert (ours[key] == value).all(), f"{where}: info[{key!r}]"
        else:
            # Gymnasium's dtypes (float32 for the control costs, float64 otherwise; the
            # humanoids' tendons (num_envs, 2) arrays), then the values bit for bit.
            assert np.asarray(ours[key]).dtype == np.asarray(value).dtype, f"{where}: {key!r}"
            mine = np.asarray(ours[key], dtype=np.float64)
            expected = np.asarray(value, dtype=np.float64)
            assert mine.shape == expected.shape, f"{where}: info[{key!r}]"
            assert mine.tobytes() == expected.tobytes(), (
                f"{where}: info[{key!r}] {ours[key]!r} != {value!r}"
            )


def run_vectors(env_id, threads, autoreset_mode, steps):
    """Steps a vector by id (environment ``i`` seeded ``seed + i``, on ``threads`` threads with
    the GIL released) beside Gymnasium's ``SyncVectorEnv`` of the same id with the same
    actions: the float64 observations, rewards, flags and infos (the reset infos of the reset
    and of every autoreset, the final observations and infos of same-step autoreset) must be
    equal bit for bit."""
    from gymnasium.vector import AutoresetMode

    mode = AutoresetMode.NEXT_STEP if autoreset_mode == "NextStep" else AutoresetMode.SAME_STEP
    ours = rlrs.RustVectorEnv(env_id, num_envs=4, threads=threads, autoreset_mode=mode)
    theirs = gym.make_vec(
        env_id, num_envs=4, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )
    observations, info = ours.reset(seed=11)
    expected, expected_info = theirs.reset(seed=11)
    assert observations.dtype == expected.dtype == np.float64
    assert observations.tobytes() == expected.tobytes(), f"{env_id} reset"
    assert_same_vector_info(info, expected_info, f"{env_id} reset")
    theirs.action_space.seed(11)
    ended = 0
    for step in range(steps):
        where = f"{env_id} step {step}"
        actions = theirs.action_space.sample()
        observations, rewards, terminated, truncated, info = ours.step(actions)
        expected, expected_rewards, expected_terminated, expected_truncated, expected_info = (
            theirs.step(actions)
        )
        assert observations.dtype == np.float64, where
        assert observations.tobytes() == expected.tobytes(), where
        assert rewards.tobytes() == np.asarray(expected_rewards, dtype=np.float64).tobytes(), where
        assert (terminated == expected_terminated).all(), where
        assert (truncated == expected_truncated).all(), where
        assert_same_vector_info(info, expected_info, where)
        ended += int((terminated | truncated).sum())
    ours.close()
    theirs.close()
    return ended


@pytest.mark.parametrize(
    ("env_id", "threads", "autoreset_mode"),
    [
        ("Hopper-v5", 1, "NextStep"),
        ("Hopper-v5", 2, "NextStep"),
        ("Hopper-v5", 1, "SameStep"),
        ("Hopper-v5", 2, "SameStep"),
        ("Ant-v5", 2, "NextStep"),
        ("InvertedPendulum-v5", 2, "SameStep"),
        ("InvertedPendulum-v5", 1, "NextStep"),
        # Infos with arrays (the tendons): (num_envs, 2) float64 columns from the core.
        ("Humanoid-v5", 2, "SameStep"),
    ],
)
def test_vectors_step_as_sync_vector_env(env_id, threads, autoreset_mode):
    ended = run_vectors(env_id, threads, autoreset_mode, 120)
    if env_id != "Ant-v5":
        # Hopper's, InvertedPendulum's and Humanoid's random episodes end within 120 steps:
        # the autoresets' reset infos and final infos were compared.
        assert ended > 0


def test_tendon_infos_reach_python_as_columns():
    """Humanoid's tendon lengths and velocities (two floats per environment, declared
    ``float64[]``) come from the core as ``(num_envs, 2)`` float64 columns, not through
    Gymnasium's per-environment ``_add_info`` on the Python thread
    (``test_vectors_step_as_sync_vector_env`` checks the values beside SyncVectorEnv's)."""
    envs = rlrs.RustVectorEnv("Humanoid-v5", 3)
    envs.reset(seed=0)
    envs.action_space.seed(0)
    envs.step(envs.action_space.sample())
    columns = envs._core.info_columns(False, None)
    assert columns is not None
    for key in ("tendon_length", "tendon_velocity"):
        values, mask = columns[key]
        assert values.shape == (3, 2) and values.dtype == np.float64, key
        assert mask.all(), key
    envs.close()


@pytest.mark.parametrize("env_id", IDS)
def test_every_ids_vector_is_sync_vector_envs(env_id):
    """Every id's vector (same-step autoreset, 2 threads) beside SyncVectorEnv: observations,
    rewards, flags and infos with their dtypes, the autoresets' reset and final infos."""
    run_vectors(env_id, 2, "SameStep", 60)


def test_vector_reset_infos_are_sync_vector_envs_with_seeds_and_reset_masks():
    """A MuJoCo vector's reset infos (Hopper's ``x_position``, ``z_distance_from_origin``) at
    every kind of reset beside ``SyncVectorEnv``: the whole vector, then a ``reset_mask``
    with a seed for one of the selected environments (the others' entries 0 and masked off),
    values, dtypes and masks alike."""
    ours = rlrs.RustVectorEnv("Hopper-v5", 4)
    theirs = gym.make_vec("Hopper-v5", 4, vectorization_mode="sync")
    info, expected = ours.reset(seed=3)[1], theirs.reset(seed=3)[1]
    assert sorted(info) == sorted(expected) == [
        "_x_position", "_z_distance_from_origin", "x_position", "z_distance_from_origin"
    ]
    assert_same_vector_info(info, expected, "reset")
    theirs.action_space.seed(2)
    for step in range(3):
        actions = theirs.action_space.sample()
        ours.step(actions)
        theirs.step(actions)
    mask = np.array([True, False, True, False])
    seeds = [None, None, 8, None]
    info = ours.reset(seed=seeds, options={"reset_mask": mask})[1]
    expected = theirs.reset(seed=seeds, options={"reset_mask": mask})[1]
    assert (expected["_x_position"] == mask).all()
    assert_same_vector_info(info, expected, "reset_mask")
    ours.close()
    theirs.close()


def test_vector_observations_are_float64_bit_for_bit():
    """A vector by id of a float64 Box observation space writes float64 rows: Gymnasium's
    observations exactly, not rounded to float32 (and the other ids keep float32 rows)."""
    run_vectors("Hopper-v5", 1, "NextStep", 5)
    vector = rlrs.RustVectorEnv("Hopper-v5", num_envs=2, copy=False)
    observations, _ = vector.reset(seed=0)
    assert observations.dtype == np.float64
    single, _ = gym.make("Hopper-v5").reset(seed=1)
    assert observations[1].tobytes() == single.tobytes()
    vector.close()
    assert rlrs.RustVectorEnv("Pendulum-v1", num_envs=2).reset(seed=0)[0].dtype == np.float32


def test_a_vector_too_large_for_the_memory_is_an_error_not_an_exit():
    """MuJoCo's own allocation failure ends the process (its error handler prints "Could not
    allocate memory" and exits, found by the fuzz target under a 4 GiB address-space limit):
    a vector reserves every state's MuJoCo memory first, so too many environments are a
    ValueError naming the count, and the process lives on."""
    import subprocess
    import sys

    script = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (4096 << 20, 4096 << 20))
import rlrs
try:
    rlrs.RustVectorEnv('Humanoid-v5', 400, threads=2)
except ValueError as error:
    assert 'count' in str(error), error
    print('refused')
vector = rlrs.RustVectorEnv('Humanoid-v5', 8, threads=2)
vector.reset(seed=0)
print('still alive')
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["refused", "still", "alive"], done.stdout


def test_weights_and_noise_beyond_a_million_are_refused_by_name():
    """Gymnasium takes any float, but ``reset_noise_scale=1.5e58`` gives InvertedDoublePendulum
    NaN observations at its reset (found by the fuzz target): weights and noise scales are at
    most 10^6 in magnitude, as the classic domains' physical quantities, and a refusal names
    the parameter."""
    for env_id, name in [("InvertedDoublePendulum-v5", "reset_noise_scale"),
                         ("HalfCheetah-v5", "forward_reward_weight"), ("Pusher-v5", "reward_control_weight")]:
        for value in [1.54e58, -2e6, float("inf")]:
            with pytest.raises(ValueError, match=name):
                rlrs.RustEnv(env_id, **{name: value})
        env = rlrs.RustEnv(env_id, **{name: 1e6})
        observation, _ = env.reset(seed=0)
        assert np.all(np.isfinite(observation))


def test_default_camera_configs_are_the_v5_classes_defaults():
    """rlrs.mujoco's table of each id's default ``default_camera_config`` is Gymnasium's: the
    default of its v5 class's keyword argument (None for InvertedDoublePendulum and Swimmer)."""
    import inspect

    from rlrs.mujoco import DEFAULT_CAMERA_CONFIGS

    assert sorted(DEFAULT_CAMERA_CONFIGS) == sorted(IDS)
    for env_id in IDS:
        creator = gym.envs.registration.load_env_creator(gym.spec(env_id).entry_point)
        expected = inspect.signature(creator.__init__).parameters["default_camera_config"].default
        ours = DEFAULT_CAMERA_CONFIGS[env_id]
        if expected is None:
            assert ours is None, env_id
            continue
        assert sorted(ours) == sorted(expected), env_id
        for key, value in expected.items():
            assert type(ours[key]) is type(value), f"{env_id} {key}"
            assert np.array_equal(ours[key], value), f"{env_id} {key}"


def test_render_metadata_and_keyword_arguments_are_gymnasiums():
    """Gymnasium's render modes (and "ansi"), ``render_fps`` as ``round(1 / dt)`` (moved by
    ``frame_skip``), its refusal of ``camera_id`` with ``camera_name``; the rendering keyword
    arguments never reach the dynamics. Nothing is drawn: no OpenGL needed."""
    for kwargs in ({}, {"frame_skip": 2}):
        ours = gym.make("rlrs/Hopper-v5", **kwargs)
        theirs = gym.make("Hopper-v5", **kwargs)
        assert ours.metadata["render_fps"] == theirs.metadata["render_fps"]
        assert ours.metadata["render_modes"] == theirs.metadata["render_modes"] + ["ansi"]
        assert ours.unwrapped.dt == theirs.unwrapped.dt
    for env_id in IDS:
        assert gym.make(f"rlrs/{env_id}").metadata == {
            **gym.make(env_id).unwrapped.metadata,
            "render_modes": gym.make(env_id).metadata["render_modes"] + ["ansi"],
        }, env_id
    with pytest.raises(ValueError, match="camera_id"):
        gym.make("rlrs/Hopper-v5", camera_id=0, camera_name="track")
    with pytest.raises(ValueError, match="width"):
        gym.make("rlrs/Hopper-v5", width=0)
    with pytest.raises(ValueError, match="render_mode"):
        rlrs.RustEnv("Hopper-v5", render_mode="rgb")
    ours = gym.make("rlrs/Hopper-v5", width=64, height=48, camera_name="track", max_geom=10)
    plain = gym.make("rlrs/Hopper-v5")
    assert (ours.unwrapped.width, ours.unwrapped.height) == (64, 48)
    assert ours.reset(seed=4)[0].tobytes() == plain.reset(seed=4)[0].tobytes()


def test_without_opengl_the_error_says_what_to_set(monkeypatch):
    """Where no OpenGL backend works (here: ``MUJOCO_GL`` names none), the first frame is a
    RuntimeError that says what to install and set."""
    monkeypatch.setenv("MUJOCO_GL", "none-such")
    env = gym.make("rlrs/InvertedPendulum-v5", render_mode="rgb_array", width=8, height=8)
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="MUJOCO_GL=egl") as raised:
        env.render()
    assert "apt install libegl1" in str(raised.value) and "none-such" in str(raised.value)
    # The failed first frame leaves Gymnasium's half-made OffScreenViewer alive in the error's
    # traceback, which `raised` holds in a reference cycle with this frame, and its __del__
    # raises (it has no context to free). Freed here, at a known point: left to a later
    # collection, it may be freed inside an import, where pytest's unraisable hook imports again
    # and Python 3.11's import lock fails with a KeyError (CPython gh-91351, fixed in 3.12),
    # which failed the next test's first frame in 5 of 9 full runs here.
    del raised
    env.close()
    gc.collect()
    # Finalized now: pytest's unraisable hook may keep the viewer (in its error's traceback)
    # until the test ends, but its __del__ never runs again.
    unfinalized = [
        thing
        for thing in gc.get_objects()
        if type(thing).__name__ == "OffScreenViewer"
        and not hasattr(thing, "opengl_context")
        and not gc.is_finalized(thing)
    ]
    assert not unfinalized, "a viewer without an OpenGL context is left for a later collection"


def test_human_without_a_display_is_an_error_not_a_crash():
    """``render_mode="human"`` opens a glfw window: without a display, Gymnasium's own
    environments end the process (glfw asks for the primary monitor); ours raise a
    RuntimeError saying to draw off screen instead."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        pytest.skip("a display is set: the window would open")
    env = gym.make("rlrs/InvertedPendulum-v5", render_mode="human")
    with pytest.raises(RuntimeError, match="needs a display"):
        env.reset(seed=0)
