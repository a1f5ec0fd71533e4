"""Gymnasium's toy text from Python (issue 28): the recorded seeded trajectories of
``seeded_toy_text.json`` replayed through ``gym.make("rlrs/<id>")`` (observations, rewards,
flags, ``info["prob"]`` bit for bit, Taxi's action mask), and every toy-text id stepped beside
Gymnasium 1.4.0 running live, with the same seeds and actions."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import rlrs  # noqa: F401  (registers the rlrs/ ids)

TOY_TEXT = {
    "FrozenLake-v1": [{}, {"is_slippery": False}, {"success_rate": 0.5, "reward_schedule": [2, -1, 0]}],
    "FrozenLake8x8-v1": [{}],
    "CliffWalking-v1": [{}],
    "CliffWalkingSlippery-v1": [{}],
    "Taxi-v4": [{}, {"is_rainy": True}, {"fickle_passenger": True}],
    "Blackjack-v1": [{}, {"natural": True, "sab": False}, {"sab": False}],
}


def same_info(ours, theirs, where):
    """The infos are Gymnasium's: the same keys, equal numbers (with Python's types), equal
    int8 masks."""
    assert sorted(ours) == sorted(theirs), f"{where}: {ours} != {theirs}"
    for key, value in theirs.items():
        if isinstance(value, np.ndarray):
            assert ours[key].dtype == value.dtype and np.array_equal(ours[key], value), where
        else:
            assert ours[key] == value and type(ours[key]) is type(value), f"{where}: {key}"


def flat(observation):
    """An observation as the reference records it: an integer, or Blackjack's three."""
    if isinstance(observation, tuple):
        return [int(part) for part in observation]
    return int(observation)


def kwargs_of(trace):
    kwargs = trace["make_kwargs"]
    return kwargs if isinstance(kwargs, dict) else json.loads(kwargs or "{}")


def test_seeded_toy_text_traces_replay(reference):
    data = reference("seeded_toy_text.json")
    steps = 0
    for trace in data["traces"]:
        env = gym.make(f"rlrs/{trace['env_id']}", **kwargs_of(trace))
        for s, segment in enumerate(trace["segments"]):
            where = f"{trace['id']} segment {s}"
            observation, _ = env.reset(seed=segment["reset_seed"])
            expected = segment["initial_obs"]
            assert flat(observation) == (expected if isinstance(expected, int) else list(expected)), where
            for t, (action, step) in enumerate(zip(segment["actions"], segment["steps"])):
                observation, reward, terminated, truncated, info = env.step(action)
                at = f"{where} step {t}"
                recorded = step["obs"]
                assert flat(observation) == (recorded if isinstance(recorded, int) else list(recorded)), at
                assert reward == step["reward"], f"{at}: {reward} != {step['reward']}"
                assert (terminated, truncated) == (step["terminated"], step["truncated"]), at
                if "prob" in step:
                    assert info["prob"] == step["prob"], f"{at}: prob {info.get('prob')}"
                if "action_mask" in step:
                    assert env.unwrapped.action_mask().tolist() == step["action_mask"], at
                steps += 1
    assert steps > 1000


@pytest.mark.parametrize("env_id", sorted(TOY_TEXT))
def test_toy_text_steps_as_gymnasium(env_id):
    for kwargs in TOY_TEXT[env_id]:
        ours, theirs = gym.make(f"rlrs/{env_id}", **kwargs), gym.make(env_id, **kwargs)
        rng = np.random.default_rng(3)
        ended = 0
        for seed in [0, 7, 2**33 + 1]:
            (a, info_a), (b, info_b) = ours.reset(seed=seed), theirs.reset(seed=seed)
            assert flat(a) == flat(b), f"{env_id} {kwargs} reset({seed})"
            same_info(info_a, info_b, f"{env_id} {kwargs} reset({seed})")
            for t in range(300):
                action = int(rng.integers(0, theirs.action_space.n))
                x, y = ours.step(action), theirs.step(action)
                where = f"{env_id} {kwargs} seed {seed} step {t}"
                assert flat(x[0]) == flat(y[0]), where
                assert float(x[1]) == float(y[1]), where
                assert (x[2], x[3]) == (y[2], y[3]), where
                same_info(x[4], y[4], where)
                if x[2] or x[3]:
                    ended += 1
                    assert flat(ours.reset()[0]) == flat(theirs.reset()[0]), f"{where}: reset()"
        # CliffWalking has no time limit and random walks rarely reach its goal.
        assert ended > 0 or theirs.spec.max_episode_steps is None, f"{env_id} {kwargs}"


def same_batch_info(ours, theirs, where):
    """Vector infos equal to SyncVectorEnv's: the same keys, dtypes and values, recursively;
    object arrays (final observations) element by element."""
    assert sorted(ours) == sorted(theirs), f"{where}: {sorted(ours)} != {sorted(theirs)}"
    for key, value in theirs.items():
        mine = ours[key]
        if isinstance(value, dict):
            same_batch_info(mine, value, f"{where} {key}")
        elif value.dtype == object:
            assert mine.dtype == object and len(mine) == len(value), f"{where} {key}"
            for a, b in zip(mine, value):
                assert (a is None) == (b is None), f"{where} {key}"
                if b is not None:
                    assert flat(a) == flat(b), f"{where} {key}"
        else:
            assert mine.dtype == value.dtype, f"{where} {key}: {mine.dtype} != {value.dtype}"
            assert np.array_equal(mine, value), f"{where} {key}: {mine} != {value}"


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "Taxi-v4", "CliffWalking-v1", "Blackjack-v1"])
@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_toy_text_vectors_step_as_sync_vector_env(env_id, mode):
    mode = gym.vector.AutoresetMode(mode)
    n = 4
    ours = gym.make_vec(
        f"rlrs/{env_id}", num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode
    )
    theirs = gym.make_vec(
        env_id, num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )
    (a, info_a), (b, info_b) = ours.reset(seed=5), theirs.reset(seed=5)
    assert np.array_equal(np.asarray(a), np.asarray(b)) if not isinstance(b, tuple) else all(
        np.array_equal(x, y) for x, y in zip(a, b)
    )
    same_batch_info(info_a, info_b, f"{env_id} reset")
    rng = np.random.default_rng(9)
    ended = final_masks = 0
    for t in range(300):
        actions = rng.integers(0, theirs.single_action_space.n, n)
        x, y = ours.step(actions), theirs.step(actions)
        where = f"{env_id} {mode} step {t}"
        if isinstance(y[0], tuple):
            assert all(np.array_equal(p, q) for p, q in zip(x[0], y[0])), where
        else:
            assert x[0].dtype == y[0].dtype and np.array_equal(x[0], y[0]), where
        for k in (1, 2, 3):
            assert np.array_equal(x[k], y[k]), f"{where} output {k}"
        # Taxi's same-step final_info holds the action mask of the state each episode ended
        # in (kept by the Rust vector before its autoreset replaced it), compared here with
        # Gymnasium's as every other entry is.
        final_masks += int("action_mask" in y[4].get("final_info", {}))
        same_batch_info(x[4], y[4], where)
        ended += int(np.sum(x[2] | x[3]))
    assert ended > 0 or env_id == "CliffWalking-v1"
    if env_id == "Taxi-v4" and mode == gym.vector.AutoresetMode.SAME_STEP:
        assert final_masks > 0, "no Taxi episode ended: the final masks were not compared"
