"""``rlrs.make_pool``: EnvPool's asynchronous API (``send``/``recv``) beside live Gymnasium 1.4.0.

Each environment of the pool (``batch_size = num_envs / 2``, two worker threads, so that the
environments finish in whatever order the threads take them) must give, bit for bit, what
Gymnasium's single environment gives with the seed ``seed + i`` and the same actions, with
next-step autoreset (the step after an episode's end returns the reset): observations,
rewards, flags and every info entry. Then the synchronous form (``batch_size == num_envs``)
and the errors.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlrs

NUM_ENVS, BATCH_SIZE, THREADS, SEED = 4, 2, 2, 5

# (id, steps per environment, whether it needs the mujoco package)
# (Humanoid's infos hold arrays, which take the path of Gymnasium's own _add_info.)
CASES = [
    ("Hopper-v5", 150, True),
    ("HalfCheetah-v5", 40, True),
    ("Humanoid-v5", 30, True),
    ("CartPole-v1", 150, False),
]


class Actions:
    """Environment ``env``'s actions: its own generator's samples of the action space, drawn
    as far as they are asked for (an environment the workers favour may run far ahead)."""

    def __init__(self, space: gym.Space, env: int) -> None:
        self.space, self.rng, self.drawn = space, np.random.default_rng(1000 + env), []

    def __getitem__(self, t: int):
        while len(self.drawn) <= t:
            if isinstance(self.space, gym.spaces.Discrete):
                self.drawn.append(int(self.rng.integers(0, self.space.n)))
            else:
                low, high = self.space.low.astype(np.float64), self.space.high.astype(np.float64)
                self.drawn.append(self.rng.uniform(low, high).astype(self.space.dtype))
        return self.drawn[t]

    def first(self, count: int) -> list:
        return [self[t] for t in range(count)]


def gymnasium_trajectory(env_id: str, seed: int, actions: list) -> list:
    """Gymnasium's single environment with ``seed`` and ``actions``, reset (unseeded) in place
    of the step after each episode's end, as a vector with next-step autoreset does."""
    env = gym.make(env_id)
    observation, info = env.reset(seed=seed)
    records = [(observation, 0.0, False, False, info)]
    ended = False
    for action in actions:
        if ended:
            observation, info = env.reset()
            records.append((observation, 0.0, False, False, info))
            ended = False
        else:
            observation, reward, terminated, truncated, info = env.step(action)
            records.append((observation, reward, terminated, truncated, info))
            ended = terminated or truncated
    env.close()
    return records


def pool_trajectories(pool: rlrs.EnvPool, actions: list, steps: int) -> list[list]:
    """Each environment's results from ``pool`` until every one has ``steps`` results after its
    reset: reset, then each environment received is sent its next action at once (so that
    every environment stays in flight, however unevenly the workers take them), the ids of a
    batch in reverse order."""
    records: list[list] = [[] for _ in range(pool.num_envs)]
    sent = [0] * pool.num_envs
    pool.async_reset()
    while min(len(env) for env in records) <= steps:
        observations, rewards, terminated, truncated, info = pool.recv()
        ids = info["env_id"]
        assert ids.dtype == np.int32 and len(ids) == pool.batch_size
        for row, env in enumerate(ids.tolist()):
            env_info = {
                key: info[key][row]
                for key in info
                if not key.startswith("_") and key != "env_id" and info[f"_{key}"][row]
            }
            records[env].append(
                (observations[row], rewards[row], terminated[row], truncated[row], env_info)
            )
        again = ids.tolist()[::-1]
        batch = np.stack([np.asarray(actions[env][sent[env]]) for env in again])
        pool.send(batch, np.array(again))
        for env in again:
            sent[env] += 1
    return records


def assert_same(ours: tuple, theirs: tuple, where: str) -> None:
    observation, reward, terminated, truncated, info = ours
    expected, expected_reward, expected_terminated, expected_truncated, expected_info = theirs
    expected = np.asarray(expected)
    assert observation.dtype == expected.dtype, where
    assert observation.tobytes() == expected.tobytes(), f"{where}: {observation} != {expected}"
    assert np.float64(reward).tobytes() == np.float64(expected_reward).tobytes(), where
    assert (bool(terminated), bool(truncated)) == (expected_terminated, expected_truncated), where
    assert set(info) == set(expected_info), where
    for key, value in expected_info.items():
        mine = np.asarray(info[key], dtype=np.float64)
        assert mine.tobytes() == np.asarray(value, dtype=np.float64).tobytes(), f"{where}: {key}"


@pytest.mark.parametrize(("env_id", "steps", "needs_mujoco"), CASES)
def test_each_environment_equals_gymnasiums_single_environment(env_id, steps, needs_mujoco):
    if needs_mujoco:
        pytest.importorskip("mujoco")
    pool = rlrs.make_pool(
        env_id, num_envs=NUM_ENVS, batch_size=BATCH_SIZE, num_threads=THREADS, seed=SEED
    )
    reference = gym.make(env_id)
    assert pool.observation_space == reference.observation_space
    assert pool.action_space == reference.action_space
    reference.close()
    actions = [Actions(pool.action_space, env) for env in range(NUM_ENVS)]
    ours = pool_trajectories(pool, actions, steps)
    pool.close()
    ends = 0
    for env in range(NUM_ENVS):
        theirs = gymnasium_trajectory(env_id, SEED + env, actions[env].first(len(ours[env]) - 1))
        assert len(ours[env]) == len(theirs) > steps, f"environment {env}"
        for t, (mine, expected) in enumerate(zip(ours[env], theirs)):
            assert_same(mine, expected, f"{env_id}, environment {env}, result {t}")
            ends += bool(expected[2] or expected[3])
    if env_id != "HalfCheetah-v5":  # HalfCheetah never terminates
        assert ends > 0, "the trajectories cross an episode's end"


def test_with_every_environment_per_batch_it_is_the_synchronous_vector():
    pool = rlrs.make_pool("CartPole-v1", num_envs=4, seed=SEED)
    assert not pool.is_async and pool.batch_size == 4
    vector = gym.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync")
    observations, info = pool.reset()
    expected, _ = vector.reset(seed=SEED)
    assert observations.tobytes() == expected.tobytes()
    assert info["env_id"].tolist() == [0, 1, 2, 3]
    rng = np.random.default_rng(3)
    for t in range(60):
        actions = rng.integers(0, 2, 4)
        ours = pool.step(actions)
        theirs = vector.step(actions)
        assert ours[4]["env_id"].tolist() == [0, 1, 2, 3]
        for mine, expected in zip(ours[:4], theirs[:4]):
            assert np.asarray(mine).tobytes() == np.asarray(expected).tobytes(), f"step {t}"
    # Sent in another order, the rows come in that order.
    order = np.array([2, 0, 3, 1])
    actions = rng.integers(0, 2, 4)
    ours = pool.step(actions[order], order)
    theirs = vector.step(actions)
    assert ours[4]["env_id"].tolist() == order.tolist()
    assert ours[0].tobytes() == theirs[0][order].tobytes()
    pool.close()
    vector.close()


def test_bad_input_is_an_error_and_sends_nothing():
    pool = rlrs.make_pool("CartPole-v1", num_envs=4, batch_size=2, num_threads=2, seed=0)
    with pytest.raises(RuntimeError, match="never reset"):
        pool.send(np.array([1]), 0)
    with pytest.raises(RuntimeError, match="in flight"):
        pool.recv()
    pool.async_reset()
    with pytest.raises(ValueError, match="environment 1 is in flight"):
        pool.send(np.array([1]), 1)
    pool.recv()
    pool.recv()
    with pytest.raises(ValueError, match="out of range"):
        pool.send(np.array([1, 0]), np.array([0, 4]))
    with pytest.raises(ValueError, match="out of range"):
        pool.send(np.array([1]), np.array([-1]))
    with pytest.raises(ValueError, match="18446744073709551615 is out of range"):
        pool.send(np.array([1]), np.array([2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match="integer"):
        pool.send(np.array([1]), np.array([0.5]))
    with pytest.raises(ValueError, match="environment 2 is in flight"):
        pool.send(np.array([1, 0]), np.array([2, 2]))
    with pytest.raises(ValueError, match="actions given to 2"):
        pool.send(np.array([1, 0, 1]), np.array([0, 1]))
    with pytest.raises(ValueError, match="invalid action 2 for environment 3"):
        pool.send(np.array([1, 2]), np.array([0, 3]))
    with pytest.raises(ValueError, match="not integers"):
        pool.send(np.array([0.5]), np.array([0]))
    # Nothing was sent: every environment goes now, two per recv.
    pool.send(np.array([1, 1, 0, 0]))
    received = pool.recv()[4]["env_id"].tolist() + pool.recv()[4]["env_id"].tolist()
    assert sorted(received) == [0, 1, 2, 3]
    with pytest.raises(RuntimeError, match="in flight"):
        pool.recv()
    with pytest.raises(ValueError, match="env_id=None"):
        pool.reset(env_id=[0])
    with pytest.raises(ValueError, match="batch_size"):
        rlrs.make_pool("CartPole-v1", num_envs=2, batch_size=3)
    with pytest.raises(ValueError, match="seed"):
        rlrs.make_pool("CartPole-v1", num_envs=2, seed=-1)
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        pool.async_reset()


def test_closing_with_steps_in_flight_returns():
    pool = rlrs.make_pool("CartPole-v1", num_envs=64, batch_size=8, num_threads=2, seed=0)
    pool.async_reset()
    pool.close()
    pool.close()


def test_the_readmes_example_runs():
    import pathlib
    import re

    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    if not readme.is_file():
        pytest.skip("run from a copy of the tests without the README (wheel.sh)")
    section = readme.read_text().split("### EnvPool's asynchronous mode", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "pool.recv()" in code and "pool.send(" in code
    exec(compile(code, str(readme), "exec"), {})
