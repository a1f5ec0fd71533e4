"""Gymnasium's MuJoCo v5 ids through rlrs, beside live Gymnasium 1.4.0 with the same mujoco.

Every one of the 11 ids steps beside ``gym.make(id)`` with the same seeds and the same random
actions (the action space's own samples), with resets after each episode end: observations,
rewards, terminated, truncated and every reset's and step's info must be equal bit for bit. rlrs opens the
libmujoco of the installed ``mujoco`` package, the file Gymnasium's environments load.
"""

from __future__ import annotations

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



def run_vectors(env_id, threads, autoreset_mode, steps, check_observations):
    """Steps a vector by id (environment ``i`` seeded ``seed + i``, on ``threads`` threads with
    the GIL released) beside Gymnasium's ``SyncVectorEnv`` of the same id with the same
    actions; ``check_observations(ours, theirs, where)`` compares the observations, and the
    rewards, flags and the step infos both report (the reset infos of autoreset environments
    are not reported by ours yet) must be equal bit for bit."""
    from gymnasium.vector import AutoresetMode

    mode = AutoresetMode.NEXT_STEP if autoreset_mode == "NextStep" else AutoresetMode.SAME_STEP
    ours = rlrs.RustVectorEnv(env_id, num_envs=4, threads=threads, autoreset_mode=mode)
    theirs = gym.make_vec(
        env_id, num_envs=4, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )
    observations, _ = ours.reset(seed=11)
    expected, _ = theirs.reset(seed=11)
    check_observations(observations, expected, f"{env_id} reset")
    theirs.action_space.seed(11)
    for step in range(steps):
        where = f"{env_id} step {step}"
        actions = theirs.action_space.sample()
        observations, rewards, terminated, truncated, info = ours.step(actions)
        expected, expected_rewards, expected_terminated, expected_truncated, expected_info = (
            theirs.step(actions)
        )
        check_observations(observations, expected, where)
        assert rewards.tobytes() == np.asarray(expected_rewards, dtype=np.float64).tobytes(), where
        assert (terminated == expected_terminated).all(), where
        assert (truncated == expected_truncated).all(), where
        for key, value in expected_info.items():
            if key.startswith("_") or key not in info or key == "final_info":
                continue
            if key == "final_obs":
                for index in np.flatnonzero(info["_final_obs"] & expected_info["_final_obs"]):
                    check_observations(info[key][index], value[index], f"{where}: final_obs")
                continue
            both = info[f"_{key}"] & expected_info[f"_{key}"]
            mine = np.asarray(info[key], dtype=np.float64)[both]
            assert mine.tobytes() == np.asarray(value, dtype=np.float64)[both].tobytes(), (
                f"{where}: info[{key!r}]"
            )
    ours.close()
    theirs.close()


def float32_rows(ours, theirs, where):
    """The vectors by id carry float32 observation rows (rl-wrappers' ``RegisteredVector``):
    ours are Gymnasium's float64 observations rounded to float32 and back."""
    assert ours.dtype == np.float64, where
    assert ours.tobytes() == theirs.astype(np.float32).astype(np.float64).tobytes(), where


def float64_rows(ours, theirs, where):
    assert ours.tobytes() == theirs.tobytes(), where


@pytest.mark.parametrize(
    ("env_id", "threads", "autoreset_mode"),
    [
        ("Hopper-v5", 1, "NextStep"),
        ("Hopper-v5", 2, "SameStep"),
        ("Ant-v5", 2, "NextStep"),
        ("InvertedPendulum-v5", 2, "SameStep"),
    ],
)
def test_vectors_step_as_sync_vector_env(env_id, threads, autoreset_mode):
    run_vectors(env_id, threads, autoreset_mode, 120, float32_rows)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="vectors by id round float64 observations to float32 rows (issue 42)",
)
def test_vector_observations_are_float64_bit_for_bit():
    run_vectors("Hopper-v5", 1, "NextStep", 5, float64_rows)


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
