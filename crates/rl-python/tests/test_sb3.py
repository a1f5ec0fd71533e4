"""Stable-Baselines3 (issue 27): ``make_vec_env`` from SB3 on rlrs ids, and the package's own
``rlrs.sb3.RustVecEnv`` over the fast vector.

SB3 pulls in PyTorch (gigabytes), so it is not in CI's virtualenv: without it, the tests that
need it are skipped, and ``test_the_calls_sb3s_make_vec_env_makes`` exercises, in CI, the calls
SB3's ``make_vec_env``, ``Monitor`` and ``DummyVecEnv`` make on an environment (read from
stable-baselines3 2.9.2). With SB3 installed (``crates/rl-python/sb3-requirements.txt``), run
them all by hand::

    python3 -m venv /tmp/sb3-venv
    /tmp/sb3-venv/bin/pip install -r crates/rl-python/sb3-requirements.txt
    /tmp/sb3-venv/bin/pip install target/wheels/dev/rlrs-*_x86_64.whl   # bash crates/rl-python/wheel.sh
    /tmp/sb3-venv/bin/python -m pytest crates/rl-python/tests/test_sb3.py
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlrs

IDS = ["CartPole-v1", "Pendulum-v1", "FrozenLake-v1", "GridWorld-4x5"]


@pytest.mark.parametrize("env_id", IDS)
def test_the_calls_sb3s_make_vec_env_makes(env_id):
    # make_vec_env: gym.make(id, render_mode="rgb_array") (TypeError is its only fallback),
    # then env.action_space.seed(seed + rank); DummyVecEnv.reset: env.reset(seed=seed + rank);
    # DummyVecEnv.step_wait: step, done = terminated or truncated, on done
    # info["terminal_observation"] = obs and env.reset() without a seed.
    seed = 3
    envs = [gym.make(f"rlrs/{env_id}", render_mode="rgb_array") for _ in range(2)]
    theirs = [gym.make(f"rlrs/{env_id}", render_mode="rgb_array") for _ in range(2)]
    for rank, (env, other) in enumerate(zip(envs, theirs)):
        env.action_space.seed(seed + rank)
        other.action_space.seed(seed + rank)
        obs, _ = env.reset(seed=seed + rank)
        expected, _ = other.reset(seed=seed + rank)
        np.testing.assert_array_equal(obs, expected)
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    ended = 0
    for _ in range(300):
        for env, other in zip(envs, theirs):
            action = env.action_space.sample()
            obs, reward, terminated, truncated, info = env.step(action)
            expected = other.step(action)
            np.testing.assert_array_equal(obs, expected[0])
            assert (reward, terminated, truncated) == expected[1:4]
            if terminated or truncated:
                ended += 1
                info["TimeLimit.truncated"] = truncated and not terminated
                info["terminal_observation"] = obs
                obs, _ = env.reset()
                np.testing.assert_array_equal(obs, other.reset()[0])
    assert ended > 0, "no episode ended in 300 steps: the reset path was not exercised"


def _sb3():
    return pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (see the module's docstring)")


def test_sb3s_make_vec_env_on_an_rlrs_id():
    sb3 = _sb3()
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("rlrs/CartPole-v1", n_envs=8, seed=0)
    obs = venv.reset()
    assert obs.shape == (8, 4)
    episodes = 0
    for _ in range(600):
        obs, rewards, dones, infos = venv.step(np.array([venv.action_space.sample() for _ in range(8)]))
        episodes += sum("episode" in info for info in infos)  # Monitor's, on each end
    assert obs.shape == (8, 4) and episodes > 0
    venv.close()
    assert sb3.__version__


def test_rust_vec_env_steps_as_sb3s_dummy_vec_env():
    _sb3()
    from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env

    import rlrs.sb3

    n = 4
    ours = rlrs.sb3.make_vec_env("CartPole-v1", n_envs=n, seed=5)
    theirs = sb3_make_vec_env("rlrs/CartPole-v1", n_envs=n, seed=5)
    np.testing.assert_array_equal(ours.reset(), theirs.reset())
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        actions = rng.integers(0, 2, size=n)
        o1, r1, d1, i1 = ours.step(actions)
        o2, r2, d2, i2 = theirs.step(actions)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        for a, b in zip(i1, i2):
            assert a.keys() == b.keys()
            assert a["TimeLimit.truncated"] == b["TimeLimit.truncated"]
            if "terminal_observation" in b:
                np.testing.assert_array_equal(a["terminal_observation"], b["terminal_observation"])
            if "episode" in b:
                episodes += 1
                assert a["episode"]["r"] == b["episode"]["r"] and a["episode"]["l"] == b["episode"]["l"]
    assert episodes > 0


def test_ppo_learns_a_little_on_the_rust_vector():
    _sb3()
    from stable_baselines3 import PPO

    import rlrs.sb3

    venv = rlrs.sb3.make_vec_env("CartPole-v1", n_envs=8, seed=0)
    model = PPO("MlpPolicy", venv, n_steps=64, seed=0, device="cpu").learn(4096)
    assert model.num_timesteps >= 4096
