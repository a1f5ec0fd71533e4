"""The vector: make_vec, spaces, autoreset modes against single environments, episode
statistics as Gymnasium's RecordEpisodeStatistics reports them, threads, copies."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import rlrs
from conftest import every_id


def make(rust_id="CartPole-v1", num_envs=4, **kwargs):
    return gym.make_vec(
        f"rlrs/{rust_id}",
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        **kwargs,
    )


@pytest.mark.parametrize("rust_id", every_id(rlrs.ids()))
def test_make_vec_works_for_every_id(rust_id):
    envs = make(rust_id, num_envs=3)
    assert isinstance(envs, rlrs.RustVectorEnv)
    assert envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    observations, info = envs.reset(seed=0)
    # Gymnasium's reset infos for its ids (the toy text's prob), else none.
    if rust_id in gym.registry:
        sync = gym.make_vec(rust_id, num_envs=3, vectorization_mode="sync")
        assert sorted(info) == sorted(sync.reset(seed=0)[1])
    else:
        assert info == {}
    assert observations in envs.observation_space
    # Gymnasium's batch of the environment's own observation space.
    single = gym.make(f"rlrs/{rust_id}")
    assert envs.single_observation_space == single.observation_space
    assert envs.observation_space == batch_space(single.observation_space, 3)
    envs.action_space.seed(0)
    for _ in range(5):
        observations, rewards, terminated, truncated, _ = envs.step(envs.action_space.sample())
        assert observations in envs.observation_space
        assert rewards.dtype == np.float64 and rewards.shape == (3,)
        assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    envs.close()


def test_spaces_are_the_environments_batched_as_gymnasium_batches_them():
    envs = make("CartPole-v1", num_envs=2)
    single = gym.make("rlrs/CartPole-v1")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.action_space == spaces.MultiDiscrete([2, 2])
    grid = make("GridWorld-4x5", num_envs=2)
    assert grid.single_observation_space == spaces.MultiDiscrete([4, 5])
    # Gymnasium batches a MultiDiscrete space into an int64 Box of its bounds.
    assert grid.observation_space == batch_space(spaces.MultiDiscrete([4, 5]), 2)


class Singles:
    """Single environments doing what the vector's environments do: environment i of a vector
    reset with seed s is seeded with s + i (Gymnasium's rule)."""

    def __init__(self, rust_id, num_envs, seed, **params):
        self.envs = [rlrs.RustEnv(rust_id, **params) for _ in range(num_envs)]
        self.observations = np.stack(
            [
                env.reset(seed=seed + i)[0]
                for i, env in enumerate(self.envs)
            ]
        ).astype(np.float32)
        self.ended = np.zeros(num_envs, dtype=bool)

    def step(self, actions, mode):
        n = len(self.envs)
        observations = np.zeros_like(self.observations)
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        finals = {}
        for i, env in enumerate(self.envs):
            if mode == AutoresetMode.NEXT_STEP and self.ended[i]:
                observations[i] = env.reset()[0]
                self.ended[i] = False
                continue
            obs, rewards[i], terminated[i], truncated[i], _ = env.step(actions[i])
            observations[i] = obs
            if terminated[i] or truncated[i]:
                if mode == AutoresetMode.SAME_STEP:
                    finals[i] = obs
                    observations[i] = env.reset()[0]
                else:
                    self.ended[i] = True
        return observations, rewards, terminated, truncated, finals


@pytest.mark.parametrize(
    "mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
)
@pytest.mark.parametrize("threads", [1, 2])
def test_vector_matches_single_environments_bit_for_bit(mode, threads):
    num_envs, seed = 6, 11
    envs = make("CartPole-v1", num_envs=num_envs, autoreset_mode=mode, threads=threads)
    assert envs.metadata["autoreset_mode"] == mode
    singles = Singles("CartPole-v1", num_envs, seed)
    observations, _ = envs.reset(seed=seed)
    assert observations.tobytes() == singles.observations.tobytes()
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        actions = rng.integers(0, 2, num_envs)
        observations, rewards, terminated, truncated, info = envs.step(actions)
        expected, expected_rewards, expected_terminated, expected_truncated, finals = (
            singles.step(actions, mode)
        )
        assert observations.tobytes() == expected.tobytes()
        assert rewards.tobytes() == expected_rewards.tobytes()
        assert np.array_equal(terminated, expected_terminated)
        assert np.array_equal(truncated, expected_truncated)
        if mode == AutoresetMode.SAME_STEP:
            mask = np.zeros(num_envs, dtype=bool)
            mask[list(finals)] = True
            if finals:
                assert np.array_equal(info["_final_obs"], mask)
                for i, final in finals.items():
                    assert info["final_obs"][i].tobytes() == final.tobytes()
            else:
                assert "final_obs" not in info
        if mode == AutoresetMode.DISABLED and np.any(terminated | truncated):
            ended = terminated | truncated
            with pytest.raises(RuntimeError):
                envs.step(actions)
            reset = envs.reset_ended()
            for i in np.flatnonzero(ended):
                singles.observations[i] = singles.envs[i].reset()[0]
                singles.ended[i] = False
            assert reset[ended].tobytes() == singles.observations[ended].tobytes()
        episodes += int(np.sum(terminated | truncated))
    assert episodes > 10


def test_episode_statistics_match_gymnasium_record_episode_statistics():
    """The same vector with its statistics off, wrapped in Gymnasium's own
    RecordEpisodeStatistics, reports the same returns, lengths and masks."""
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        ours = make("CartPole-v1", num_envs=4, autoreset_mode=mode, record_episode_statistics=True)
        # The default: no statistics of its own, so Gymnasium's wrapper works on it (CleanRL).
        theirs = gym.wrappers.vector.RecordEpisodeStatistics(
            make("CartPole-v1", num_envs=4, autoreset_mode=mode)
        )
        ours.reset(seed=3)
        theirs.reset(seed=3)
        rng = np.random.default_rng(1)
        reported = 0
        for _ in range(200):
            actions = rng.integers(0, 2, 4)
            info = ours.step(actions)[4]
            expected = theirs.step(actions)[4]
            assert ("episode" in info) == ("episode" in expected)
            if "episode" in info:
                reported += 1
                assert np.array_equal(info["_episode"], expected["_episode"])
                assert np.array_equal(info["episode"]["r"], expected["episode"]["r"])
                assert np.array_equal(info["episode"]["l"], expected["episode"]["l"])
                assert info["episode"]["r"].dtype == np.float64
                assert np.all(info["episode"]["t"][info["_episode"]] >= 0.0)
                assert np.all(info["episode"]["t"][~info["_episode"]] == 0.0)
        assert reported > 5


def test_gridworld_vector_observations_are_integers_as_sync_vector_envs():
    envs = make("GridWorld-4x5", num_envs=3, noise=0.2)
    sync = gym.make_vec("rlrs/GridWorld-4x5", num_envs=3, vectorization_mode="sync", noise=0.2)
    a, b = envs.reset(seed=2)[0], sync.reset(seed=2)[0]
    assert a.dtype == b.dtype == np.int64 and np.array_equal(a, b)
    rng = np.random.default_rng(4)
    for t in range(200):
        actions = rng.integers(0, 4, 3)
        a, b = envs.step(actions)[0], sync.step(actions)[0]
        assert a.dtype == b.dtype and a.shape == b.shape == (3, 2), t
        assert np.array_equal(a, b), t


def test_continuous_actions_and_parameters():
    envs = make("MountainCarContinuous-v0", num_envs=3)
    singles = Singles("MountainCarContinuous-v0", 3, 5)
    envs.reset(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(50):
        actions = rng.uniform(-1.0, 1.0, (3, 1)).astype(np.float32)
        observations, rewards, *_ = envs.step(actions)
        expected, expected_rewards, *_ = singles.step(actions, AutoresetMode.NEXT_STEP)
        assert observations.tobytes() == expected.tobytes()
        assert rewards.tobytes() == expected_rewards.tobytes()
    with pytest.raises(ValueError):
        envs.step(np.zeros((2, 1), dtype=np.float32))
    sutton = make("CartPole-v1", num_envs=2, sutton_barto_reward=True)
    sutton.reset(seed=0)
    assert np.array_equal(sutton.step(np.array([0, 1]))[1], [0.0, 0.0])
    with pytest.raises(ValueError, match="no_such_parameter"):
        make("CartPole-v1", no_such_parameter=True)


def test_array_actions_in_any_layout_step_alike():
    """Box actions read from a float32 array, a float64 one, a strided view, a Fortran-order
    array and flat rows give the same steps as single environments given the same numbers
    (the vector copies each row into its environment's action in place); a wrong count is a
    ValueError naming the shapes."""
    envs = make("MountainCarContinuous-v0", num_envs=3)
    singles = Singles("MountainCarContinuous-v0", 3, 9)
    envs.reset(seed=9)
    rng = np.random.default_rng(3)
    for step in range(60):
        actions = rng.uniform(-1.5, 1.5, (3, 1)).astype(np.float32)
        given = [
            actions,
            actions.astype(np.float64),
            np.repeat(actions, 2, axis=1)[:, ::2],
            np.asfortranarray(np.repeat(actions, 2, axis=1))[:, :1],
            actions.reshape(3),
        ][step % 5]
        assert step % 5 != 2 or not given.flags["C_CONTIGUOUS"]
        observations, rewards, *_ = envs.step(given)
        expected, expected_rewards, *_ = singles.step(actions, AutoresetMode.NEXT_STEP)
        assert observations.tobytes() == expected.tobytes()
        assert rewards.tobytes() == expected_rewards.tobytes()
    with pytest.raises(ValueError, match=r"shape \[4, 1\]; expected 3 rows of shape \[1\]"):
        envs.step(np.zeros((4, 1), dtype=np.float32))


def test_copy_false_returns_the_buffers_and_copy_true_fresh_arrays():
    shared = make("CartPole-v1", num_envs=2, copy=False)
    first, _ = shared.reset(seed=0)
    kept = first.copy()
    second = shared.step(np.array([0, 1]))[0]
    assert second is first and not np.array_equal(first, kept)
    fresh = make("CartPole-v1", num_envs=2)
    first, _ = fresh.reset(seed=0)
    kept = first.copy()
    second = fresh.step(np.array([0, 1]))[0]
    assert second is not first and np.array_equal(first, kept)


def test_invalid_constructions_are_errors():
    with pytest.raises(ValueError, match="num_envs"):
        rlrs.RustVectorEnv("CartPole-v1", num_envs=0)
    with pytest.raises(ValueError, match="threads"):
        rlrs.RustVectorEnv("CartPole-v1", num_envs=2, threads=0)
    with pytest.raises(KeyError):
        rlrs.RustVectorEnv("NoSuchEnv-v0", num_envs=2)
    envs = rlrs.RustVectorEnv("CartPole-v1", num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(ValueError):
        envs.step(np.array([0, 7]))
    with pytest.raises(ValueError):
        envs.step(np.array([0, 1, 1]))


def test_discrete_actions_in_any_integer_form_step_alike():
    """int64 arrays (contiguous or strided), other integer dtypes, lists and tuples give the
    same steps; a wrong count or an action outside the space is a ValueError."""
    rng = np.random.default_rng(4)
    tape = rng.integers(0, 2, (40, 4))
    forms = [
        lambda row: row,
        lambda row: np.repeat(row, 2)[::2],  # a strided int64 view
        lambda row: row.astype(np.int32),
        lambda row: row.astype(np.uint8),
        lambda row: [int(a) for a in row],
        lambda row: tuple(int(a) for a in row),
    ]
    results = []
    for form in forms:
        envs = make("CartPole-v1", num_envs=4)
        envs.reset(seed=11)
        steps = [envs.step(form(row))[:4] for row in tape]
        results.append(steps)
    for other in results[1:]:
        for ours, theirs in zip(results[0], other):
            for a, b in zip(ours, theirs):
                assert a.tobytes() == b.tobytes()
    envs = make("CartPole-v1", num_envs=4)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="3 actions for 4|shape \\(3,\\)"):
        envs.step([0, 1, 0])
    with pytest.raises(ValueError):
        envs.step(np.array([0, 1, 0, -1]))


def test_copy_false_info_arrays_are_the_buffers():
    """With copy=False the episode statistics in info are the vector's own buffers too
    (overwritten by the next step); with copy=True they are fresh arrays. The final
    observations are SyncVectorEnv's object array, new on every step that has one."""
    for copy in (False, True):
        envs = make(
            "CartPole-v1",
            num_envs=8,
            copy=copy,
            autoreset_mode=AutoresetMode.SAME_STEP,
            record_episode_statistics=True,
        )
        envs.reset(seed=1)
        infos = []
        for _ in range(200):
            info = envs.step(np.zeros(8, dtype=np.int64))[4]
            if "episode" in info:
                infos.append(info)
        assert len(infos) >= 2
        first, second = infos[0], infos[1]
        assert "final_obs" in first and first["_final_obs"].any()
        shared = first["episode"]["r"] is second["episode"]["r"]
        assert shared == (not copy)
        assert first["final_obs"] is not second["final_obs"]
        assert first["final_obs"].dtype == object


def test_float_actions_of_a_discrete_space_are_refused_not_truncated():
    envs = make("CartPole-v1", num_envs=4)
    envs.reset(seed=0)
    for actions in ([0.5] * 4, np.full(4, 1.7), np.ones(4, dtype=bool)):
        with pytest.raises(ValueError, match="not integers of Discrete\\(2\\)"):
            envs.step(actions)
    envs.step([1, 0, 1, 0])
    envs.step(np.ones(4, dtype=np.int32))
    # Wrong shapes and types are one clear error naming the space, not a conversion message.
    for actions, match in [
        (1, "shape \\(\\); expected \\(4,\\)"),
        (np.zeros((4, 2), dtype=np.int64), "shape \\(4, 2\\)"),
        (None, "not integers of Discrete\\(2\\)"),
        ([0, 1], "2 actions for 4 environments|shape \\(2,\\)"),
    ]:
        with pytest.raises(ValueError, match=match):
            envs.step(actions)


def structure(value):
    """The shape of an info value: types, dtypes, shapes and where the Nones are."""
    if isinstance(value, dict):
        return {key: structure(item) for key, item in sorted(value.items()) if key != "t"}
    if isinstance(value, np.ndarray) and value.dtype == object:
        return ("object", [None if item is None else structure(item) for item in value])
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape)
    return type(value).__name__


@pytest.mark.parametrize("statistics", [False, True])
def test_same_step_infos_are_laid_out_as_sync_vector_envs(statistics):
    """Keys, dtypes, shapes, object arrays with None: the info of every step equals
    SyncVectorEnv's in structure (and in values), with and without RecordEpisodeStatistics."""
    mode = AutoresetMode.SAME_STEP
    ours = make("CartPole-v1", num_envs=3, autoreset_mode=mode)
    theirs = gym.make_vec(
        "CartPole-v1", num_envs=3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )
    if statistics:
        ours = gym.wrappers.vector.RecordEpisodeStatistics(ours)
        theirs = gym.wrappers.vector.RecordEpisodeStatistics(theirs)
    ours.reset(seed=8)
    theirs.reset(seed=8)
    ended = 0
    for t in range(150):
        actions = np.array([t % 2, 1, (t // 3) % 2])
        a, b = ours.step(actions)[4], theirs.step(actions)[4]
        assert structure(a) == structure(b), t
        if "final_obs" in b:
            ended += 1
            for i in np.flatnonzero(b["_final_obs"]):
                assert a["final_obs"][i].tobytes() == b["final_obs"][i].tobytes()
    assert ended > 3


@pytest.mark.parametrize(
    "rust_id, mode",
    [
        ("CartPole-v1", AutoresetMode.NEXT_STEP),
        ("CartPole-v1", AutoresetMode.SAME_STEP),
        ("FrozenLake-v1", AutoresetMode.NEXT_STEP),
        ("FrozenLake-v1", AutoresetMode.SAME_STEP),
        ("Taxi-v4", AutoresetMode.NEXT_STEP),
    ],
)
def test_reset_masks_reset_as_sync_vector_env(rust_id, mode):
    # reset(seed=..., options={"reset_mask": m}) between steps, with seeds None, an integer and
    # lists: observations, rewards, flags and infos (the toy text's prob, Taxi's action mask)
    # equal SyncVectorEnv's, step after step.
    def same_batch_info(ours, theirs, where):
        assert sorted(ours) == sorted(theirs), f"{where}: {sorted(ours)} != {sorted(theirs)}"
        for key, value in theirs.items():
            mine = ours[key]
            if isinstance(value, dict):
                same_batch_info(mine, value, f"{where} {key}")
            elif value.dtype == object:
                assert mine.dtype == object and len(mine) == len(value), f"{where} {key}"
                for p, q in zip(mine, value):
                    assert (p is None) == (q is None), f"{where} {key}"
                    assert q is None or np.array_equal(p, q), f"{where} {key}: {p} != {q}"
            else:
                assert mine.dtype == value.dtype, f"{where} {key}: {mine.dtype} != {value.dtype}"
                assert np.array_equal(mine, value), f"{where} {key}: {mine} != {value}"

    n = 5
    ours = make(rust_id, num_envs=n, autoreset_mode=mode)
    theirs = gym.make_vec(
        rust_id, num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )

    def same_observations(a, b, where):
        assert a.dtype == b.dtype and np.array_equal(a, b), f"{where}: {a} != {b}"

    (a, info_a), (b, info_b) = ours.reset(seed=3), theirs.reset(seed=3)
    same_observations(a, b, "reset")
    same_batch_info(info_a, info_b, "reset")
    rng = np.random.default_rng(17)
    seeds = [None, 40, [None, 7, 8, None, 9], None]
    masked_resets = 0
    for t in range(400):
        if t % 9 == 4:
            mask = rng.random(n) < 0.5
            mask[t % n] = True
            seed = seeds[(t // 9) % len(seeds)]
            (a, info_a), (b, info_b) = (
                ours.reset(seed=seed, options={"reset_mask": mask}),
                theirs.reset(seed=seed, options={"reset_mask": mask.copy()}),
            )
            where = f"{rust_id} {mode} masked reset at {t} ({mask}, seed {seed})"
            same_observations(a, b, where)
            same_batch_info(info_a, info_b, where)
            masked_resets += 1
        actions = rng.integers(0, theirs.single_action_space.n, n)
        x, y = ours.step(actions), theirs.step(actions)
        where = f"{rust_id} {mode} step {t}"
        same_observations(x[0], y[0], where)
        for k in (1, 2, 3):
            assert np.array_equal(x[k], y[k]), f"{where} output {k}"
        same_batch_info(x[4], y[4], where)
    assert masked_resets > 40


def test_reset_masks_are_checked_as_sync_vector_env_checks_them():
    envs = make("CartPole-v1", num_envs=3)
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="must be a numpy array"):
        envs.reset(options={"reset_mask": [True, False, True]})
    with pytest.raises(ValueError, match="must have shape"):
        envs.reset(options={"reset_mask": np.ones(2, dtype=bool)})
    with pytest.raises(TypeError, match="dtype=np.bool_"):
        envs.reset(options={"reset_mask": np.ones(3, dtype=np.int8)})
    with pytest.raises(ValueError, match="at least one True"):
        envs.reset(options={"reset_mask": np.zeros(3, dtype=bool)})
    with pytest.raises(ValueError, match="no options but 'reset_mask'"):
        envs.reset(options={"reset_mask": np.ones(3, dtype=bool), "other": 1})
    # Before the first reset there is nothing to keep: an error naming it.
    fresh = make("CartPole-v1", num_envs=3)
    with pytest.raises(RuntimeError):
        fresh.reset(options={"reset_mask": np.ones(3, dtype=bool)})


@pytest.mark.parametrize("rust_id", ["CartPole-v1", "Taxi-v4", "Acrobot-v1", "MiniGrid-Empty-5x5-v0"])
def test_the_vector_renders_each_environment_as_its_single_environment(rust_id):
    n = 3
    envs = make(rust_id, num_envs=n, render_mode="rgb_array")
    assert envs.metadata["render_modes"] == ["rgb_array"]
    assert envs.metadata["render_fps"] == gym.make(f"rlrs/{rust_id}").metadata["render_fps"]
    singles = [gym.make(f"rlrs/{rust_id}", render_mode="rgb_array") for _ in range(n)]
    envs.reset(seed=11)
    # Seeded actions: MiniGrid's empty room starts every environment alike, so only the
    # actions make the last frames differ; unseeded, they are the same now and then.
    envs.action_space.seed(2)
    for i, single in enumerate(singles):
        single.reset(seed=11 + i)
    for t in range(4):
        frames = envs.render()
        assert isinstance(frames, tuple) and len(frames) == n
        for i, single in enumerate(singles):
            expected = single.render()
            assert frames[i].dtype == np.uint8 and frames[i].shape == expected.shape
            assert np.array_equal(frames[i], expected), f"{rust_id} env {i} step {t}"
        actions = envs.action_space.sample() if t else np.asarray(envs.action_space.sample())
        envs.step(actions)
        for i, single in enumerate(singles):
            single.step(actions[i])
    # The frames differ between environments (different seeds, different states).
    assert any(not np.array_equal(frames[0], frame) for frame in frames[1:])
    assert make(rust_id, num_envs=2).render() is None


def test_a_render_mode_the_id_lacks_is_refused():
    with pytest.raises(ValueError, match="renders 'rgb_array'"):
        make("CartPole-v1", num_envs=2, render_mode="human")


def test_the_vectors_action_masks_are_each_environments():
    n = 4
    envs = make("Taxi-v4", num_envs=n)
    singles = [gym.make("rlrs/Taxi-v4") for _ in range(n)]
    envs.reset(seed=21)
    for i, single in enumerate(singles):
        single.reset(seed=21 + i)
    rng = np.random.default_rng(4)
    differing = 0
    for t in range(30):
        masks = envs.action_masks()
        assert masks.dtype == np.int8 and masks.shape == (n, 6)
        for i, single in enumerate(singles):
            assert masks[i].tolist() == single.unwrapped.action_mask().tolist(), f"step {t} env {i}"
        differing += int(any(not np.array_equal(masks[0], row) for row in masks[1:]))
        actions = rng.integers(0, 6, n)
        _, _, terminated, truncated, _ = envs.step(actions)
        for i, single in enumerate(singles):
            single.step(int(actions[i]))
        assert not (terminated | truncated).any(), "30 random steps end no Taxi episode here"
    assert differing > 0
    assert make("Pendulum-v1", num_envs=2).action_masks() is None


VECTOR_WRAPPERS = {
    "NormalizeObservation": ("CartPole-v1", lambda v: gym.wrappers.vector.NormalizeObservation(v)),
    "NormalizeReward": ("CartPole-v1", lambda v: gym.wrappers.vector.NormalizeReward(v)),
    "ClipReward": ("Pendulum-v1", lambda v: gym.wrappers.vector.ClipReward(v, -5.0, -1.0)),
    "TransformReward": (
        "MountainCar-v0",
        lambda v: gym.wrappers.vector.TransformReward(v, lambda r: 2 * r + 1),
    ),
    "DtypeObservation": (
        "Acrobot-v1",
        lambda v: gym.wrappers.vector.DtypeObservation(v, np.float64),
    ),
    "ClipAction": ("Pendulum-v1", lambda v: gym.wrappers.vector.ClipAction(v)),
    "RescaleAction": (
        "MountainCarContinuous-v0",
        lambda v: gym.wrappers.vector.RescaleAction(v, 0.0, 1.0),
    ),
    "RecordEpisodeStatistics": (
        "CartPole-v1",
        lambda v: gym.wrappers.vector.RecordEpisodeStatistics(v),
    ),
}


@pytest.mark.parametrize("name", sorted(VECTOR_WRAPPERS))
def test_gymnasiums_vector_wrappers_work_on_the_vector_as_on_sync_vector_env(name):
    rust_id, wrap = VECTOR_WRAPPERS[name]
    n = 3
    ours = wrap(make(rust_id, num_envs=n))
    theirs = wrap(gym.make_vec(rust_id, num_envs=n, vectorization_mode="sync"))
    a, _ = ours.reset(seed=5)
    b, _ = theirs.reset(seed=5)
    assert a.dtype == b.dtype and np.array_equal(a, b), name
    rng = np.random.default_rng(8)
    for t in range(300):
        if isinstance(theirs.single_action_space, spaces.Discrete):
            actions = rng.integers(0, theirs.single_action_space.n, n)
        else:
            # Beyond the bounds too: ClipAction clips them, the domains clip the rest.
            actions = rng.uniform(-3, 3, (n, *theirs.single_action_space.shape)).astype(np.float32)
        x, y = ours.step(actions), theirs.step(actions)
        for k in range(4):
            assert np.array_equal(x[k], y[k]), f"{name} step {t} output {k}: {x[k]} != {y[k]}"
        if "episode" in y[4]:
            for key in ("r", "l"):
                assert np.array_equal(x[4]["episode"][key], y[4]["episode"][key]), f"{name} {t}"
            assert np.array_equal(x[4]["_episode"], y[4]["_episode"])


def test_gymnasiums_vector_record_video_works_on_the_vector(tmp_path):
    # (Gymnasium's vector HumanRendering tiles the frames with opencv, which the test
    # environment does not install; it calls the same render().)
    import moviepy  # noqa: F401  (pinned in the test environment)

    envs = gym.wrappers.vector.RecordVideo(
        make("CartPole-v1", num_envs=2, render_mode="rgb_array"),
        str(tmp_path),
        step_trigger=lambda step: step == 0,
        video_length=20,
    )
    envs.reset(seed=0)
    for t in range(25):
        envs.step(np.array([t % 2, (t + 1) % 2]))
    envs.close()
    videos = sorted(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000, list(tmp_path.iterdir())


def test_lists_of_floats_are_rows_only_for_keys_declared_arrays():
    """A column of float lists from the core (a ``(num_envs, width)`` float64 array) is taken
    for a key the registration declares ``float64[]`` (Gymnasium's MuJoCo arrays, which
    ``_add_info`` batches so), and left to Gymnasium's ``_add_info`` otherwise, which puts a
    list in an object array, as SyncVectorEnv does with a list an environment reports."""
    from rlrs.pool import _InfoBatch
    from rlrs.vector import _InfoLayout

    rows = np.array([[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]])
    mask = np.array([True, False, True])
    lists = [(0, {"t": [1.0, 2.0]}), (2, {"t": [3.0, 4.0]})]
    add_info = _InfoBatch(3)._add_info

    declared = _InfoLayout({"info_types": {"t": "float64[]"}}).add(
        {}, {"t": (rows, mask)}, lambda: lists, add_info
    )
    expected = {}
    for row, info in lists:
        expected = add_info(expected, {"t": np.asarray(info["t"], dtype=np.float64)}, row)
    assert declared["t"].dtype == expected["t"].dtype == np.float64
    assert declared["t"].tobytes() == expected["t"].tobytes()
    assert (declared["_t"] == expected["_t"]).all()

    undeclared = _InfoLayout({}).add({}, {"t": (rows, mask)}, lambda: lists, add_info)
    assert undeclared["t"].dtype == object
    assert list(undeclared["t"]) == [[1.0, 2.0], None, [3.0, 4.0]]
    assert (undeclared["_t"] == mask).all()
