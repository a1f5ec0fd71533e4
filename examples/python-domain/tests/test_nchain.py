"""The example package: a domain written in Rust outside the workspace, registered under its own
namespace, passes Gymnasium's checker, steps as a vector, and follows its documented dynamics."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rlrs
import rlrs_nchain

ID = "nchain/NChain-v0"


def test_the_package_registers_its_own_ids_and_no_built_in():
    assert rlrs_nchain.ids() == ["NChain-v0"]
    assert ID in gym.registry
    assert "nchain/CartPole-v1" not in gym.registry
    # rlrs's own core is a separate registry that knows nothing of the chain.
    assert "NChain-v0" not in rlrs.ids()


def test_the_rust_checker_passes():
    ok, report = rlrs_nchain.check("NChain-v0")
    assert ok, report
    # The registration declared enumerable transitions, so they are checked too.
    ok, report = rlrs_nchain.check("NChain-v0", seed=5, length=3, slip=0.5)
    assert ok, report


def test_gymnasium_check_env_passes_without_warnings():
    env = gym.make(ID, render_mode="ansi")
    assert isinstance(env.unwrapped, rlrs.RustEnv)
    assert env.unwrapped._core.__class__.__module__ == "rlrs._core"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_spaces_rendering_and_dynamics():
    env = gym.make(ID, render_mode="ansi", slip=0.0, length=3)
    assert env.observation_space == gym.spaces.Discrete(3)
    assert env.action_space == gym.spaces.Discrete(2)
    observation, info = env.reset(seed=0)
    assert observation == 0 and info == {}
    assert env.render() == "A.."
    # Without slip, forward walks to the end of the chain, where staying pays the large reward.
    rewards = [env.step(0)[1] for _ in range(4)]
    assert rewards == [0.0, 0.0, 10.0, 10.0]
    assert env.render() == "..A"
    assert env.unwrapped.state() == 2
    observation, reward, terminated, truncated, _ = env.step(1)
    assert (observation, reward, terminated, truncated) == (0, 2.0, False, False)


def test_an_episode_starts_in_a_given_state():
    env = gym.make(ID, slip=0.0)
    observation, _ = env.reset(seed=0, options={"state": 4})
    assert observation == 4 and env.unwrapped.state() == 4
    assert env.step(0)[:2] == (4, 10.0)
    # As for the built-in domains (crates/rl-python/tests/test_env.py).
    with pytest.raises(ValueError, match="not a state of this domain"):
        env.reset(options={"state": "end"})


def test_the_episode_cap_truncates():
    env = gym.make(ID, episode_cap=3)
    env.reset(seed=1)
    flags = [env.step(1)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]
    with pytest.raises(RuntimeError):
        env.step(1)


def test_bad_parameters_and_actions_are_errors_that_name_them():
    with pytest.raises(ValueError, match="slip"):
        gym.make(ID, slip=1.5)
    with pytest.raises(ValueError, match="length"):
        gym.make(ID, length="long")
    env = gym.make(ID)
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(2)


def test_a_vector_steps_like_single_environments_seeded_the_same_way():
    num_envs, seed = 4, 7
    envs = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="vector_entry_point", slip=0.3)
    assert isinstance(envs, rlrs.RustVectorEnv)
    # Discrete observations are batched as Gymnasium batches them: integers.
    assert envs.single_observation_space == gym.spaces.Discrete(5)
    observations, _ = envs.reset(seed=seed)
    singles = [gym.make(ID, slip=0.3) for _ in range(num_envs)]
    states = [
        env.reset(seed=seed + i)[0] for i, env in enumerate(singles)
    ]
    assert observations.dtype == np.int64 and np.array_equal(observations, states)
    # Gymnasium's own SyncVectorEnv over the same single environments, for the info layout.
    sync = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="sync", slip=0.3)
    sync.reset(seed=seed)
    rng = np.random.default_rng(0)
    total = np.zeros(num_envs)
    slips = 0
    for _ in range(50):
        actions = rng.integers(0, 2, size=num_envs)
        observations, rewards, terminated, truncated, info = envs.step(actions)
        expected = [env.step(int(a)) for env, a in zip(singles, actions)]
        assert np.array_equal(observations, [e[0] for e in expected])
        assert np.array_equal(rewards, [e[1] for e in expected])
        assert not terminated.any() and not truncated.any()
        total += rewards
        # The domain's one info entry (nchain.rs: `outcome.info.insert("slipped", ...)`),
        # single and batched, as Gymnasium lays it out.
        assert all(isinstance(e[4]["slipped"], bool) for e in expected)
        assert np.array_equal(info["slipped"], [e[4]["slipped"] for e in expected])
        assert info["slipped"].dtype == np.bool_ and info["_slipped"].all()
        sync_info = sync.step(actions)[4]
        assert sorted(info) == sorted(sync_info)
        assert np.array_equal(info["slipped"], sync_info["slipped"])
        slips += int(info["slipped"].sum())
    # Random walkers go back about half the time: every environment earned something.
    assert (total > 0).all()
    assert 0 < slips < 50 * num_envs
    envs.close()


def test_constraint_violations_are_in_the_infos_single_and_batched():
    # The registration declared the chain's constraint ("keeps its progress", violated by a
    # move back from a state above 0): single environments list the violated constraints'
    # names in info["violations"] on the steps that violate one, and vectors lay that entry out
    # as Gymnasium's SyncVectorEnv does (an object array over the batch and its mask).
    env = gym.make(ID, slip=0.0)
    env.reset(seed=0)
    assert "violations" not in env.step(0)[4]  # forward: progress kept
    _, reward, _, _, info = env.step(1)  # back from state 1 to 0
    assert reward == 2.0 and info["violations"] == ["keeps its progress"]
    assert "violations" not in env.step(1)[4]  # back from 0 stays at 0

    num_envs, seed = 4, 3
    envs = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="vector_entry_point", slip=0.3)
    sync = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="sync", slip=0.3)
    envs.reset(seed=seed)
    sync.reset(seed=seed)
    rng = np.random.default_rng(1)
    violating = 0
    for _ in range(60):
        actions = rng.integers(0, 2, size=num_envs)
        info = envs.step(actions)[4]
        sync_info = sync.step(actions)[4]
        assert sorted(info) == sorted(sync_info)
        if "violations" in sync_info:
            assert np.array_equal(info["_violations"], sync_info["_violations"])
            assert info["violations"].dtype == object
            for i in range(num_envs):
                if info["_violations"][i]:
                    assert info["violations"][i] == ["keeps its progress"]
                    assert sync_info["violations"][i] == info["violations"][i]
                    violating += 1
                else:
                    assert info["violations"][i] is None
    assert violating > 10
    envs.close()
