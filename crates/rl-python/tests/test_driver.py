"""The benchmarks' driver, ``rlrs._core.RustDriver``: the vector ``rlrs.RustVectorEnv`` steps,
driven from Rust in a loop. Every build has it (not part of the Gymnasium API: the private
module ``rlrs._core`` holds it), so these tests run against the wheel as shipped (wheel.sh).
"""

from __future__ import annotations

import numpy as np
import pytest

import rlrs
from rlrs import _core

from test_reliability import _hammer, unaligned


@pytest.mark.parametrize("env_id", ["CartPole-v1", "MountainCar-v0"])
@pytest.mark.parametrize("threads", [1, 2])
def test_rust_driver_steps_the_same_vector_as_the_python_vector(env_id, threads):
    """The benchmarks' RustDriver (the Python vector's vector, stepped from Rust) gives the
    Python vector's observations bit for bit, step after step, episode ends included."""
    num_envs, seed = 16, 9
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 2 if env_id == "CartPole-v1" else 3, size=(5, num_envs))
    driver = _core.RustDriver(env_id, num_envs, seed, threads)
    driver.set_rows(rows)
    env = rlrs.RustVectorEnv(env_id, num_envs, threads=threads)
    env.reset(seed=seed)
    for step in range(300):
        observations, *_ = env.step(rows[step % len(rows)])
        assert driver.run(1) == num_envs
        assert np.array_equal(
            driver.observations().view(np.uint32), observations.reshape(-1).view(np.uint32)
        ), f"step {step}"
    with pytest.raises(ValueError, match="expected at least one row of 16 actions"):
        driver.set_rows(np.zeros((2, 3), dtype=np.int64))


def test_unaligned_rows_are_read():
    # Found by crates/rl-python/fuzz/fuzz_rlrs.py: reading an unaligned array panicked
    # ("The pointer must be aligned").
    driver = _core.RustDriver("CartPole-v1", 4, 0, 1)
    driver.set_rows(unaligned(np.zeros((2, 4), dtype=np.int64)))
    assert driver.run(3) == 12


def test_threads_sharing_a_driver_do_not_deadlock():
    # The fuzz target's seed-1 hang: `run` held the driver's lock with the interpreter
    # released, and `set_rows` waited for that lock holding the interpreter.
    driver = _core.RustDriver("GridWorld-1x2", 100, 2423529099, 1)
    driver.set_rows(np.zeros((2, 100), np.int64))
    errors, alive = _hammer([
        lambda: driver.set_rows(np.zeros((2, 100), np.int64)),
        lambda: driver.run(50),
        driver.observations,
    ])
    assert not alive, "a thread sharing the driver deadlocked"
    assert all("another thread" in str(error) for error in errors), errors
