"""Reliability from Python (issue 33): inputs that aborted the interpreter or raised Rust
panics (``PanicException``) are ordinary exceptions, and a closed environment is closed.

``PanicException`` derives from ``BaseException``, so a ``pytest.raises(ValueError)`` that met
one would fail the test rather than pass it.
"""

from __future__ import annotations

import os
import sys

import gymnasium as gym
import numpy as np
import pytest

import rlrs


@pytest.mark.parametrize(
    "env_id, num_envs",
    [("CartPole-v1", 2**40), ("GridWorld-4x5", 2**36), ("CartPole-v1", 2**24 + 1)],
)
def test_vector_sizes_beyond_the_maximum_are_value_errors(env_id, num_envs):
    # Used to abort the process: "memory allocation of ... bytes failed".
    with pytest.raises(ValueError, match=f"{num_envs} environments"):
        rlrs.RustVectorEnv(env_id, num_envs)


def test_actions_that_are_views_of_the_output_buffer_step():
    # With copy=False the arrays in info are views of the vector's one output buffer; stepping
    # with one of them as the actions raised PanicException (AlreadyBorrowed).
    envs = rlrs.RustVectorEnv("CartPole-v1", 4, copy=False)
    envs.reset(seed=0)
    lengths = envs._core.episode_lengths
    assert lengths.base is envs._core.observations.base
    for _ in range(3):
        observations, _, _, _, _ = envs.step(lengths)
    assert observations.shape == (4, 4)
    envs.close()


def test_a_read_only_output_buffer_is_a_value_error():
    envs = rlrs.RustVectorEnv("CartPole-v1", 2, copy=False)
    envs.reset(seed=0)
    envs._core.observations.base.flags.writeable = False
    # Used to raise PanicException (NotWriteable).
    with pytest.raises(ValueError, match="cannot be written"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="cannot be written"):
        envs.reset()
    envs._core.observations.base.flags.writeable = True
    observations, _, _, _, _ = envs.step(np.zeros(2, dtype=np.int64))
    # Refused before anything ran: neither the step nor the reset happened.
    fresh = rlrs.RustVectorEnv("CartPole-v1", 2, copy=False)
    fresh.reset(seed=0)
    expected, _, _, _, _ = fresh.step(np.zeros(2, dtype=np.int64))
    np.testing.assert_array_equal(observations, expected)
    fresh.close()
    envs.close()


def threads_of_this_process() -> int:
    return len(os.listdir("/proc/self/task"))


def test_a_closed_vector_is_closed_and_its_threads_stop():
    envs = rlrs.RustVectorEnv("CartPole-v1", 64, threads=2)
    envs.reset(seed=0)
    step = envs.step  # a reference that used to keep the Rust vector alive and stepping
    with_vector = threads_of_this_process() if os.path.isdir("/proc/self/task") else None
    envs.close()
    if with_vector is not None:
        assert threads_of_this_process() == with_vector - 1, "the worker thread was not stopped"
    with pytest.raises(RuntimeError, match="closed"):
        step(np.zeros(64, dtype=np.int64))
    with pytest.raises(RuntimeError, match="closed"):
        envs.reset(seed=1)
    envs.close()  # idempotent


def test_a_closed_environment_is_closed():
    env = gym.make("rlrs/CartPole-v1")
    env.reset(seed=0)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(0)
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(seed=0)
    env.close()  # idempotent


@pytest.mark.parametrize(
    "env_id, state, reason",
    [
        ("GridWorld-4x5", {"row": 100, "col": 100}, "outside the 4 by 5 map"),
        ("GridWorld-4x5", {"row": 2**63, "col": 0}, "not a state"),
        ("CartPole-v1", [1e308, 0.0, 0.0, 0.0], "outside the observation space"),
        ("MountainCar-v0", {"position": 1e308, "velocity": 0.0}, "outside the observation space"),
        ("Taxi-v4", {"index": 500, "fickle_step": False}, "not a state"),
        # Found by the fuzz target: float32 velocities that overflow the next step to inf.
        ("CartPole-v1", {"x": 0.0, "x_dot": 2.0**64, "theta": 0.0, "theta_dot": 0.0}, "x_dot"),
        ("CartPole-v1", {"x": 0.0, "x_dot": 0.0, "theta": 0.0, "theta_dot": 1e38}, "theta_dot"),
        ("FastCartPole-v1", [0.0, 0.0, 0.0, 1e38], "theta_dot"),
    ],
)
def test_states_set_from_python_are_validated(env_id, state, reason):
    # These were accepted (a cell off the map, an observation of inf) or saturated.
    env = gym.make(f"rlrs/{env_id}")
    env.reset(seed=0)
    before = env.unwrapped.state()
    with pytest.raises(ValueError, match=reason):
        env.reset(options={"state": state})
    assert env.unwrapped.state() == before


def unaligned(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` at an odd byte offset (NumPy marks it unaligned)."""
    raw = np.zeros(array.nbytes + 1, dtype=np.uint8)
    view = raw[1:].view(array.dtype).reshape(array.shape)
    view[...] = array
    assert not view.flags.aligned
    return view


def test_unaligned_actions_step():
    # Found by crates/rl-python/fuzz/fuzz_rlrs.py: reading an unaligned array panicked
    # ("The pointer must be aligned") in the vector, the single environment and RustDriver
    # (test_driver.py).
    envs = rlrs.RustVectorEnv("CartPole-v1", 4)
    envs.reset(seed=0)
    envs.step(unaligned(np.array([0, 1, 0, 1], dtype=np.int64)))
    pendulum = rlrs.RustVectorEnv("Pendulum-v1", 2)
    pendulum.reset(seed=0)
    pendulum.step(unaligned(np.full((2, 1), 0.5, dtype=np.float32)))
    single = gym.make("rlrs/Pendulum-v1")
    single.reset(seed=0)
    single.step(unaligned(np.full((1,), 0.5, dtype=np.float32)))


def test_parameters_json_cannot_carry_are_refused_by_name():
    # Found by the fuzz target: NaN and deeply nested values were refused as "not valid JSON"
    # without naming the parameter; a non-str id gave a raw conversion error.
    with pytest.raises(ValueError, match="parameter 'g' is nan"):
        gym.make("rlrs/Pendulum-v1", g=float("nan"))
    nested: list = []
    inner = nested
    for _ in range(200):
        inner.append([])
        inner = inner[0]
    with pytest.raises(ValueError, match="parameter 'g'"):
        rlrs.RustEnv("Pendulum-v1", g=nested)
    with pytest.raises(TypeError, match="env_id must be a str"):
        rlrs.RustVectorEnv(1.5, 2)


def _hammer(calls, seconds=3.0):
    """Runs each call in a loop on its own thread for up to `seconds`; returns the exceptions
    raised and the threads still alive after a generous join (a deadlock leaves them alive)."""
    import threading
    import time

    errors, stop = [], time.monotonic() + seconds

    def loop(call):
        while time.monotonic() < stop:
            try:
                call()
            except RuntimeError as error:
                errors.append(error)

    threads = [threading.Thread(target=loop, args=(call,), daemon=True) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30.0)
    return errors, [thread for thread in threads if thread.is_alive()]


def test_threads_sharing_a_vector_or_an_environment_do_not_deadlock():
    vector = rlrs.RustVectorEnv("CartPole-v1", 64, threads=2)
    vector.reset(seed=0)
    env = rlrs.RustEnv("CartPole-v1")
    env.reset(seed=0)
    errors, alive = _hammer([
        lambda: vector.step(np.zeros(64, np.int64)),
        lambda: vector.reset(seed=1),
        lambda: (env.reset(seed=2), env.step(0)),  # at most one step after any reset
        lambda: env.reset(seed=3),
    ])
    assert not alive, "a thread sharing a vector or an environment deadlocked"
    assert all("another thread" in str(error) for error in errors), errors


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
def test_a_vector_too_big_for_the_memory_available_is_a_value_error():
    # The fuzz target's seed-1 abort: under a 4 GiB address-space limit, 2^22 GridWorld
    # environments (within MAX_ENVS) passed the buffers' probe, then the interpreter aborted on
    # a 992-byte allocation while making the copies of the environment (about 1.4 KB each).
    # Its states batched (a few hundred bytes each with the buffers), 2^22 of them now fit;
    # 2^24 (MAX_ENVS) do not, and the probe says so before anything is made.
    import subprocess

    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (4096 << 20, 4096 << 20))\n"
        "import rlrs\n"
        "for make in (lambda: rlrs.RustVectorEnv('GridWorld-3x3', 16777216),\n"
        "             lambda: rlrs.RustVectorEnv('CliffWalkingSlippery-v1', 4096, threads=4096),\n"
        "             lambda: rlrs.RustVectorEnv('MiniGrid-MultiRoom-N4-S5-v1', 1048576)):\n"
        "    try:\n"
        "        make()\n"
        "    except ValueError as error:\n"
        "        print('ValueError:', error)\n"
    )
    # The second, also from the fuzz target: 4096 threads' stacks took the address space and
    # a small allocation then aborted.
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    # The third, too: 2^20 MiniGrid states, each with its grid on the heap, passed a probe
    # that counted only the states' own bytes (Domain::state_heap_bytes now tells).
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and "cannot be allocated" in lines[0], result.stdout
    assert "threads are too many" in lines[1], result.stdout
    assert "cannot be allocated" in lines[2], result.stdout


def test_actions_of_more_than_32_dimensions_are_value_errors():
    # The fuzz target's PanicException ("NumPy is expected to limit arrays to 32 or fewer
    # dimensions"): NumPy 2 makes arrays of up to 64.
    vector = rlrs.RustVectorEnv("Pendulum-v1", 4, threads=1)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="33 dimensions"):
        vector.step(np.zeros((4,) + (1,) * 32, dtype=np.float32))
    env = rlrs.RustEnv("Pendulum-v1")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="33 dimensions"):
        env.step(np.zeros((1,) * 33, dtype=np.float32))


def test_a_huge_torque_noise_is_refused_by_name():
    # The fuzz target's wrong state: Acrobot with torque_noise_max=3.06e131 stepped to NaN.
    with pytest.raises(ValueError, match="torque_noise_max"):
        gym.make("rlrs/Acrobot-v1", torque_noise_max=3.06e131)


@pytest.mark.parametrize(
    "env_id, name, value",
    [
        ("MountainCar-v0", "min_position", -0.0),
        ("MountainCar-v0", "max_position", -1.0),
        ("MountainCarContinuous-v0", "min_position", 3.22e-84),
        ("MountainCarContinuous-v0", "max_position", -1.0),
        ("FastCartPole-v1", "theta_threshold_radians", 1e-6),
        ("CartPole-v1", "x_threshold", 1e-6),
    ],
)
def test_a_track_that_excludes_the_reset_range_is_refused_naming_the_track(env_id, name, value):
    # Found by the fuzz target: the refusal named only `reset_low`, which the caller had not
    # set, not the track's end that excluded it.
    with pytest.raises(ValueError, match=name):
        rlrs.RustEnv(env_id, **{name: value})


@pytest.mark.parametrize("count", [2**20 + 1, 10**9, 2**63])
def test_sample_counts_that_would_exhaust_memory_are_value_errors(count):
    # Issue 40 item 2: these aborted the interpreter (SIGABRT) on a failed allocation.
    definition = '{"type": "Discrete", "n": 3}'
    for function in (rlrs._core.space_samples, rlrs._core.space_samples_jsonable):
        with pytest.raises(ValueError, match="at most"):
            function(definition, 0, count)
    assert len(rlrs._core.space_samples(definition, 0, 5)) == 5


def test_samples_of_too_many_numbers_are_value_errors():
    # Few samples, but each of 2^24 numbers: refused by the numbers they hold. (Once per run:
    # making the space's bounds takes seconds in CI's debug build.)
    box = '{"type": "Box", "low": 0, "high": 1, "shape": [4096, 4096], "dtype": "float32"}'
    with pytest.raises(ValueError, match="numbers"):
        rlrs._core.space_samples(box, 0, 8)


def test_sequences_nested_50_deep_are_refused_before_sampling():
    nested = '{"type": "Discrete", "n": 2}'
    for _ in range(50):
        nested = '{"type": "Sequence", "feature_space": ' + nested + '}'
    with pytest.raises(ValueError, match="nested"):
        rlrs._core.space_samples(nested, 0, 1)
    # Six deep is allowed, but elements without a fixed size come at most 64 a call.
    six = '{"type": "Discrete", "n": 2}'
    for _ in range(6):
        six = '{"type": "Sequence", "feature_space": ' + six + '}'
    assert len(rlrs._core.space_samples(six, 0, 64)) == 64
    with pytest.raises(ValueError, match="no fixed size"):
        rlrs._core.space_samples_jsonable(six, 0, 2**20)


def test_space_contains_is_false_for_what_is_no_element_as_gymnasiums():
    # Issue 40 item 7: this raised where Gymnasium's `contains` returns False.
    definition = '{"type": "Discrete", "n": 3}'
    space = gym.spaces.Discrete(3)
    for thing in ["x", None, [1, 2], 2**64 - 1, 7]:
        assert rlrs._core.space_contains(definition, thing) is False
        assert space.contains(thing) is False
    assert rlrs._core.space_contains(definition, 2) is True


def test_a_discrete_gymnasium_cannot_hold_is_refused():
    # Issue 40 item 7: the core accepted Discrete(n=2**63), which Gymnasium (np.int64(n)) and
    # so the Python layer cannot build.
    with pytest.raises(ValueError, match="does not fit in i64"):
        rlrs._core.space_samples('{"type": "Discrete", "n": 9223372036854775808}', 0, 1)


def test_an_action_beyond_int64_is_named_as_given():
    # Issue 40 item 7: a uint64 action of 2**64 - 1 was reported as -1.
    env = gym.make("rlrs/CartPole-v1")
    env.reset(seed=0)
    for action in (2**64 - 1, np.uint64(2**64 - 1)):
        with pytest.raises(ValueError, match="18446744073709551615"):
            env.step(action)
    vector = rlrs.RustVectorEnv("CartPole-v1", 2)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="invalid action 18446744073709551615 for environment 0"):
        vector.step(np.array([2**64 - 1, 0], dtype=np.uint64))


def test_close_from_another_thread_while_stepping_never_fails():
    # Issue 40 item 7: close() from a second thread failed while another thread stepped.
    import threading

    env = rlrs.RustEnv("CartPole-v1")
    env.reset(seed=0)
    errors, stop = [], threading.Event()

    def stepping():
        while not stop.is_set():
            try:
                _, _, terminated, truncated, _ = env.step(0)
                if terminated or truncated:
                    env.reset()
            except RuntimeError as error:
                errors.append(str(error))
                if "closed" in str(error):
                    return

    thread = threading.Thread(target=stepping, daemon=True)
    thread.start()
    env.close()  # must not raise, whatever the other thread is doing
    stop.set()
    thread.join(10.0)
    assert not thread.is_alive()
    assert all("closed" in error or "another thread" in error for error in errors), errors
    with pytest.raises(RuntimeError, match="closed"):
        env.step(0)


def test_a_stuck_blackjack_state_is_refused():
    # Issue 40 item 7: Blackjack's `stuck` was accepted and ignored.
    env = gym.make("rlrs/Blackjack-v1")
    env.reset(seed=0)
    state = {"player": [2, 3], "dealer": [4, 4], "dealer_top_card_suit": "H", "stuck": True}
    with pytest.raises(ValueError, match="stuck"):
        env.reset(options={"state": state})


def test_the_checker_run_size_is_bounded_and_named():
    """``_core.check`` takes the run's size (a quick check of an expensive id: the default run
    of HumanoidStandup-v5, whose episodes never end early, took 22 s and read as a hang to
    the fuzz target); sizes outside 1..1000 episodes and 1..10^4 steps are refused by name."""
    ok, report = rlrs._core.check("CartPole-v1", "{}", 0, episodes=1, max_steps=20)
    assert ok, report
    for keywords, name in [({"episodes": 0}, "episodes"), ({"episodes": 1001}, "episodes"),
                           ({"max_steps": 0}, "max_steps"), ({"max_steps": 10**9}, "max_steps")]:
        with pytest.raises(ValueError, match=name):
            rlrs._core.check("CartPole-v1", "{}", 0, **keywords)
    with pytest.raises(OverflowError):
        rlrs._core.check("CartPole-v1", "{}", 0, episodes=-1)
