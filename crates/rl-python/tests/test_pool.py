"""``rlrs.make_pool``: EnvPool's asynchronous API (``send``/``recv``) beside live Gymnasium 1.4.0.

Each environment of the pool (``batch_size = num_envs / 2``, two worker threads, so that the
environments finish in whatever order the threads take them; and ``batch_size = num_envs``)
must give, bit for bit, what Gymnasium's single environment gives with the seed ``seed + i``
and the same actions, with next-step autoreset (the step after an episode's end returns the
reset) and resets of that environment alone now and then (``async_reset(env_id)``):
observations, rewards, flags, every info entry, and ``info["elapsed_step"]`` equal to
Gymnasium's ``TimeLimit`` count. Then the synchronous form (``batch_size == num_envs``), the
shape of EnvPool 1.2.5's own answers beside envpool itself (skipped where envpool is not
installed, as in CI), and the errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from functools import partial
from itertools import islice

import gymnasium as gym
import numpy as np
import pytest

import rlrs

NUM_ENVS, BATCH_SIZE, THREADS, SEED = 4, 2, 2, 5

# (id, steps per environment, whether it needs the mujoco package, batch size)
# (Humanoid's infos hold arrays, declared float64[]: (batch, 2) float64 columns from the core.)
CASES = [
    ("Hopper-v5", 150, True, BATCH_SIZE),
    ("HalfCheetah-v5", 40, True, BATCH_SIZE),
    ("Humanoid-v5", 30, True, BATCH_SIZE),
    ("CartPole-v1", 150, False, BATCH_SIZE),
    ("CartPole-v1", 150, False, NUM_ENVS),
]

# The keys of EnvPool's own info, beside the environments' infos.
ENVPOOL_KEYS = {"env_id", "players", "elapsed_step"}


def operations(env: int) -> Iterator[int | None]:
    """Environment ``env``'s operations after its first reset: its steps ``0, 1, 2, ...``,
    with a reset of it alone (``None``) before some of them, unevenly, mid-episode or just
    after an episode's end."""
    t = 0
    while True:
        if t > 0 and (env * 5 + t * 11) % 29 == 0:
            yield None
        yield t
        t += 1


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


def gymnasium_trajectory(env_id: str, env: int, actions: Actions, count: int) -> list:
    """The first ``count`` results of Gymnasium's single environment with the seed ``SEED +
    env`` going through ``operations(env)`` with ``actions``: a step, or a reset (unseeded) in
    place of the step after each episode's end, as a vector with next-step autoreset does,
    or a reset; each result with ``TimeLimit``'s step count after it."""
    reference = gym.make(env_id)
    observation, info = reference.reset(seed=SEED + env)
    records = [(observation, 0.0, False, False, info, 0)]
    ended = False
    for t in operations(env):
        if len(records) == count:
            break
        if ended or t is None:
            observation, info = reference.reset()
            reward, terminated, truncated = 0.0, False, False
        else:
            observation, reward, terminated, truncated, info = reference.step(actions[t])
        ended = terminated or truncated
        elapsed = reference.get_wrapper_attr("_elapsed_steps")
        records.append((observation, reward, terminated, truncated, info, elapsed))
    reference.close()
    return records


def pool_trajectories(pool: rlrs.EnvPool, actions: list[Actions], steps: int) -> list[list]:
    """Each environment's results from ``pool`` until every one has ``steps`` results after its
    reset: reset, then each environment received is sent its next operation at once (so that
    every environment stays in flight, however unevenly the workers take them), a reset of
    some (``async_reset(env_id)``) or a step of the others, the ids of a batch in reverse
    order; each result with its ``info["elapsed_step"]``."""
    records: list[list] = [[] for _ in range(pool.num_envs)]
    plans = [operations(env) for env in range(pool.num_envs)]
    pool.async_reset()
    while min(len(env) for env in records) <= steps:
        observations, rewards, terminated, truncated, info = pool.recv()
        ids = info["env_id"]
        assert ids.dtype == np.int32 and len(ids) == pool.batch_size
        assert info["players"]["env_id"].tolist() == ids.tolist()
        assert info["elapsed_step"].dtype == np.int32
        for row, env in enumerate(ids.tolist()):
            env_info = {
                key: info[key][row]
                for key in info
                if not key.startswith("_") and key not in ENVPOOL_KEYS and info[f"_{key}"][row]
            }
            records[env].append(
                (
                    observations[row],
                    rewards[row],
                    terminated[row],
                    truncated[row],
                    env_info,
                    info["elapsed_step"][row],
                )
            )
        stepping, resetting = [], []
        for env in ids.tolist()[::-1]:
            t = next(plans[env])
            (resetting if t is None else stepping).append((env, t))
        if resetting:
            pool.async_reset(np.array([env for env, _ in resetting]))
        if stepping:
            batch = np.stack([np.asarray(actions[env][t]) for env, t in stepping])
            pool.send(batch, np.array([env for env, _ in stepping]))
    return records


def assert_same(ours: tuple, theirs: tuple, where: str) -> None:
    observation, reward, terminated, truncated, info, elapsed = ours
    expected, expected_reward, expected_terminated, expected_truncated, expected_info, steps = (
        theirs
    )
    expected = np.asarray(expected)
    assert observation.dtype == expected.dtype, where
    assert observation.tobytes() == expected.tobytes(), f"{where}: {observation} != {expected}"
    assert np.float64(reward).tobytes() == np.float64(expected_reward).tobytes(), where
    assert (bool(terminated), bool(truncated)) == (expected_terminated, expected_truncated), where
    assert elapsed == steps, f"{where}: elapsed_step"
    assert set(info) == set(expected_info), where
    for key, value in expected_info.items():
        mine = np.asarray(info[key], dtype=np.float64)
        assert mine.tobytes() == np.asarray(value, dtype=np.float64).tobytes(), f"{where}: {key}"


@pytest.mark.parametrize(("env_id", "steps", "needs_mujoco", "batch_size"), CASES)
def test_each_environment_equals_gymnasiums_single_environment(
    env_id, steps, needs_mujoco, batch_size
):
    if needs_mujoco:
        pytest.importorskip("mujoco")
    pool = rlrs.make_pool(
        env_id, num_envs=NUM_ENVS, batch_size=batch_size, num_threads=THREADS, seed=SEED
    )
    reference = gym.make(env_id)
    assert pool.observation_space == reference.observation_space
    assert pool.action_space == reference.action_space
    reference.close()
    actions = [Actions(pool.action_space, env) for env in range(NUM_ENVS)]
    ours = pool_trajectories(pool, actions, steps)
    pool.close()
    ends = resets = 0
    for env in range(NUM_ENVS):
        theirs = gymnasium_trajectory(env_id, env, actions[env], len(ours[env]))
        assert len(ours[env]) == len(theirs) > steps, f"environment {env}"
        for t, (mine, expected) in enumerate(zip(ours[env], theirs)):
            assert_same(mine, expected, f"{env_id}, environment {env}, result {t}")
            ends += bool(expected[2] or expected[3])
        resets += sum(op is None for op in islice(operations(env), len(ours[env]) - 1))
    if env_id != "HalfCheetah-v5":  # HalfCheetah never terminates
        assert ends > 0, "the trajectories cross an episode's end"
    assert resets >= 3, "environments are reset on their own"


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
    # Some environments reset (Gymnasium's reset_mask), then some stepped: their rows only,
    # in the order named.
    mask = np.array([True, False, True, False])
    observations, info = pool.reset(options={"reset_mask": mask})
    expected, _ = vector.reset(options={"reset_mask": mask})
    assert info["env_id"].tolist() == [0, 2]
    assert info["elapsed_step"].tolist() == [0, 0]
    assert observations.tobytes() == expected[mask].tobytes()
    actions = rng.integers(0, 2, 4)
    theirs = vector.step(actions)
    ours = pool.step(actions[[3, 1]], [3, 1])
    assert ours[4]["env_id"].tolist() == [3, 1]
    assert ours[0].tobytes() == theirs[0][[3, 1]].tobytes()
    ours = pool.step(actions[[0, 2]], [0, 2])
    assert ours[4]["env_id"].tolist() == [0, 2]
    assert ours[4]["elapsed_step"].tolist() == [1, 1]
    assert ours[0].tobytes() == theirs[0][[0, 2]].tobytes()
    # A seed reseeds every environment, as Gymnasium's reset(seed=) does, of any size.
    for seed in [SEED + 10, 2**64 - 2, 2**70 + 3]:
        observations, info = pool.reset(seed=seed)
        expected, _ = vector.reset(seed=seed)
        assert observations.tobytes() == expected.tobytes(), seed
        assert info["elapsed_step"].tolist() == [0, 0, 0, 0]
        for t in range(3):
            actions = rng.integers(0, 2, 4)
            assert pool.step(actions)[0].tobytes() == vector.step(actions)[0].tobytes(), seed
    pool.close()
    big = rlrs.make_pool("CartPole-v1", num_envs=4, seed=2**70 + 3)
    assert big.reset()[0].tobytes() == vector.reset(seed=2**70 + 3)[0].tobytes()
    big.close()
    vector.close()


def test_gymnasiums_vector_wrappers_take_the_pool():
    """A ``VectorEnv`` as EnvPool's pools are: Gymnasium's ``RecordEpisodeStatistics`` over it
    records the episodes ``SyncVectorEnv`` gives (``reset(seed=...)`` passed through)."""
    wrapper = gym.wrappers.vector.RecordEpisodeStatistics
    ours = wrapper(rlrs.make_pool("CartPole-v1", num_envs=4, seed=0))
    theirs = wrapper(gym.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync"))
    ours.reset(seed=3)
    theirs.reset(seed=3)
    episodes = 0
    for _ in range(120):
        actions = np.ones(4, dtype=np.int64)
        mine, expected = ours.step(actions)[4], theirs.step(actions)[4]
        assert ("episode" in mine) == ("episode" in expected)
        if "episode" in expected:
            for key in ("r", "l"):
                assert mine["episode"][key].tolist() == expected["episode"][key].tolist()
            assert mine["_episode"].tolist() == expected["_episode"].tolist()
            episodes += int(expected["_episode"].sum())
    assert episodes > 10
    ours.close()
    theirs.close()


def envpool_and_rlrs_answers(make) -> list:
    """What a pool of CartPole-v1 made by ``make(num_envs=, batch_size=, num_threads=)`` answers
    to EnvPool's calls, in the form both can give (the trajectories differ: EnvPool draws
    from its own generator): the shape of each result, its info's keys and the ids and
    elapsed steps, with their dtypes."""

    def shape(result: tuple) -> tuple:
        info = result[-1]
        return (
            len(result),
            result[0].shape,
            sorted(info),
            sorted(info["players"]),
            info["env_id"].dtype.name,
            info["env_id"].tolist(),
            info["players"]["env_id"].tolist(),
            info["elapsed_step"].dtype.name,
            info["elapsed_step"].tolist(),
        )

    answers = []
    pool = make(num_envs=4, batch_size=4, num_threads=2)
    answers.append(shape(pool.reset()))
    answers.append(shape(pool.step(np.zeros(4, dtype=np.int32))))
    answers.append(shape(pool.reset(np.array([2, 0]))))
    answers.append(shape(pool.step(np.ones(4, dtype=np.int32))))
    answers.append(shape(pool.step(np.ones(2, dtype=np.int32), np.array([3, 1]))))
    answers.append(shape(pool.reset(options={"reset_mask": np.array([False, True, False, True])})))
    answers.append((pool.is_async, len(pool), pool.metadata["autoreset_mode"]))
    answers.append((isinstance(pool, gym.vector.VectorEnv), pool.single_action_space))
    pool.close()
    # The asynchronous mode, one thread (so that the order is the queue's): a reset of one
    # environment receives the next batch_size results, the first resets still in flight.
    pool = make(num_envs=4, batch_size=2, num_threads=1)
    pool.async_reset()
    answers.append(shape(pool.recv()))
    answers.append(shape(pool.reset(np.array([0]))))
    answers.append(pool.is_async)
    pool.close()
    return answers


def test_the_api_answers_as_envpools_does():
    envpool = pytest.importorskip("envpool", reason="envpool is not installed (CI's venv)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # envpool's own space warnings
        theirs = envpool_and_rlrs_answers(
            partial(envpool.make, "CartPole-v1", env_type="gymnasium", seed=0)
        )
    assert envpool_and_rlrs_answers(partial(rlrs.make_pool, "CartPole-v1", seed=0)) == theirs


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
    # Resets of some environments: refused with nothing reset.
    with pytest.raises(RuntimeError, match="only 1 environments are in flight"):
        pool.reset(env_id=[0])  # a recv of two would wait forever
    pool.async_reset(np.array([3]))
    with pytest.raises(ValueError, match="environment 3 is in flight"):
        pool.reset(env_id=[0, 3])
    with pytest.raises(ValueError, match="environment 3 is in flight"):
        pool.async_reset(3)
    with pytest.raises(ValueError, match="out of range"):
        pool.async_reset([4])
    with pytest.raises(ValueError, match="not both"):
        pool.reset(0, options={"reset_mask": np.array([True, False, False, False])})
    with pytest.raises(ValueError, match="4 booleans"):
        pool.reset(options={"reset_mask": np.array([1, 0, 0, 0])})
    with pytest.raises(ValueError, match="at least one"):
        pool.reset(options={"reset_mask": np.zeros(4, dtype=bool)})
    with pytest.raises(ValueError, match="unsupported reset options"):
        pool.reset(options={"mode": "evaluation"})
    with pytest.raises(ValueError, match="reseeds every environment"):
        pool.reset(0, seed=3)
    with pytest.raises(ValueError, match="non-negative"):
        pool.reset(seed=-1)
    with pytest.raises(TypeError, match="seed must be an integer"):
        pool.reset(seed=1.5)
    observations, info = pool.reset(env_id=0)  # with environment 3's reset: two results
    assert sorted(info["env_id"].tolist()) == [0, 3]
    assert observations.shape == (2, 4)
    with pytest.raises(ValueError, match="batch_size"):
        rlrs.make_pool("CartPole-v1", num_envs=2, batch_size=3)
    with pytest.raises(ValueError, match="seed"):
        rlrs.make_pool("CartPole-v1", num_envs=2, seed=-1)
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        pool.async_reset()


def test_array_actions_of_the_wrong_shape_are_refused_and_send_nothing():
    pool = rlrs.make_pool("MountainCarContinuous-v0", num_envs=2, batch_size=2, seed=0)
    pool.async_reset()
    pool.recv()
    with pytest.raises(ValueError, match=r"shape \[2, 2\]; expected \[2, 1\]"):
        pool.send(np.zeros((2, 2), dtype=np.float32), np.array([0, 1]))
    with pytest.raises(ValueError, match=r"shape \[1, 1\]; expected \[2, 1\]"):
        pool.send(np.zeros((1, 1), dtype=np.float32), np.array([0, 1]))
    # Nothing was sent: both environments step now, from float64 and strided actions alike.
    pool.send(np.array([[0.5, 9.0], [-0.5, 9.0]])[:, :1], np.array([0, 1]))
    assert sorted(pool.recv()[4]["env_id"].tolist()) == [0, 1]
    pool.close()


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
