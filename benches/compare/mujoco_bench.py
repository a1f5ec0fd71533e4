"""Gymnasium's MuJoCo v5 ids from Python, rlrs beside Gymnasium 1.4.0 on the same libmujoco
(issue 42, "Speed"): one environment each (`gym.make("rlrs/ID")` and `gym.make("ID")`, the same
table of sampled actions, resets at episode ends), then vectors of `--envs` environments:
rlrs's `RustVectorEnv` on 1 and 2 threads (copy=False) and Gymnasium's `SyncVectorEnv`, in
environment steps per second over `--seconds` after a short warm-up; Gymnasium's
`AsyncVectorEnv` of 8 environments (one process each; issue 42's anchor); and, where the
`envpool` package is importable (1.2.5, its own MuJoCo build), EnvPool's vector of `--envs`
environments on 1 and 2 threads, synchronous (`batch_size = num_envs`), and asynchronous on 2
threads (`send`/`recv` with `batch_size = num_envs / 2`, the mode issue 42 asks to add if it
pays: its gain over EnvPool's own synchronous mode on this machine is what the mode could buy);
and rlrs's own asynchronous mode (`rlrs.make_pool`, the same `send`/`recv` loop, 2 worker
threads, `batch_size = num_envs / 2`) beside rlrs's synchronous vector on 2 threads.
`--async-only` prints just the asynchronous comparison (rlrs sync and async on 2 threads, and
EnvPool's where it is importable). `--interleaved ROUNDS` prints just the thread comparison
(rlrs's vector and EnvPool's on 1 and 2 threads), measured in alternation: every round runs
each of the four vectors for `--seconds`, so that a change in the virtual machine's speed
meets all four alike; the table gives the medians over the rounds and each ratio's median and
range over the rounds (`--ids A,B` for other ids than the four). `--processes` adds, in the
same rounds, two processes with a one-thread vector each run at once, summed: what the two
cores give the physics with nothing shared, the ceiling a two-thread vector is judged against
on a machine whose second core is not always a whole one. Each vector first runs
`--warm-up` seconds (3 by default), past the timing a two-thread rlrs vector starts with.

Run it where rlrs is built in release mode beside gymnasium and mujoco, e.g.:

    cd crates/rl-python && maturin develop --release --features extension-module,rlrs-module
    target/rl-python-venv/bin/python benches/compare/mujoco_bench.py [--seconds S] [--envs N]
        [--no-envpool] [--no-async] [--async-only]
        [--interleaved ROUNDS [--ids IDS] [--processes] [--warm-up S]]
        [--profile ID]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import rlrs

IDS = ("Hopper-v5", "HalfCheetah-v5", "Ant-v5", "Humanoid-v5")


def rate(step, seconds: float) -> float:
    """Steps per second of `step()` (which returns the steps it took)."""
    deadline = time.perf_counter() + seconds / 10
    while time.perf_counter() < deadline:
        step()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += step()
    return steps / (time.perf_counter() - start)


def single(env_id: str, seconds: float) -> float:
    env = gym.make(env_id)
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(1024)]
    index = [0]

    def step() -> int:
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(actions[index[0] % 1024])
            index[0] += 1
            if terminated or truncated:
                env.reset()
        return 100

    return rate(step, seconds)


def vector(envs, seconds: float) -> float:
    envs.reset(seed=0)
    envs.action_space.seed(0)
    actions = [envs.action_space.sample() for _ in range(64)]
    index = [0]

    def step() -> int:
        for _ in range(10):
            envs.step(actions[index[0] % 64])
            index[0] += 1
        return 10 * envs.num_envs

    return rate(step, seconds)


def envpool_vector(env_id: str, envs: int, threads: int, seconds: float) -> float:
    """EnvPool's synchronous vector of `envs` environments on `threads` threads."""
    import envpool

    pool = envpool.make_gymnasium(env_id, num_envs=envs, batch_size=envs, num_threads=threads, seed=0)
    pool.reset()
    space = pool.action_space
    rng = np.random.default_rng(0)
    actions = [rng.uniform(space.low, space.high, size=(envs, *space.shape)).astype(space.dtype) for _ in range(64)]
    index = [0]

    def step() -> int:
        for _ in range(10):
            pool.step(actions[index[0] % 64])
            index[0] += 1
        return 10 * envs

    result = rate(step, seconds)
    pool.close()
    return result


def pool_rate(make, env_id: str, envs: int, threads: int, seconds: float) -> float:
    """Steps per second of EnvPool's asynchronous loop on the pool `make(env_id, num_envs=envs,
    batch_size=envs / 2, num_threads=threads, seed=0)` makes (EnvPool's or rlrs's): `recv` a
    batch, `send` its actions by their `env_id`."""
    batch = max(1, envs // 2)
    pool = make(env_id, num_envs=envs, batch_size=batch, num_threads=threads, seed=0)
    pool.async_reset()
    space = pool.action_space
    rng = np.random.default_rng(0)
    actions = [rng.uniform(space.low, space.high, size=(batch, *space.shape)).astype(space.dtype) for _ in range(64)]
    index = [0]

    def step() -> int:
        for _ in range(10):
            _, _, _, _, info = pool.recv()
            pool.send(actions[index[0] % 64], info["env_id"])
            index[0] += 1
        return 10 * batch

    result = rate(step, seconds)
    pool.close()
    return result


def envpool_async(env_id: str, envs: int, threads: int, seconds: float) -> float:
    """EnvPool's asynchronous mode: `envs` environments, batches of `envs / 2`."""
    import envpool

    return pool_rate(envpool.make_gymnasium, env_id, envs, threads, seconds)


def rlrs_async(env_id: str, envs: int, threads: int, seconds: float) -> float:
    """rlrs's asynchronous mode (`rlrs.make_pool`), driven as EnvPool's is."""
    return pool_rate(rlrs.make_pool, env_id, envs, threads, seconds)


def async_table(envs: int, seconds: float, with_envpool: bool) -> None:
    """The asynchronous comparison alone: rlrs's synchronous vector and asynchronous mode on 2
    threads, and EnvPool's, for each id."""
    header = f"| id | rlrs x{envs} 2 threads | rlrs async 2 threads | rlrs async / sync |"
    rule = "|---|---:|---:|---:|"
    if with_envpool:
        header += " EnvPool 2 threads | EnvPool async 2 threads | EnvPool async / sync | rlrs async / EnvPool async |"
        rule += "---:|---:|---:|---:|"
    print(header)
    print(rule)
    for env_id in IDS:
        two = vector(rlrs.RustVectorEnv(env_id, num_envs=envs, threads=2, copy=False), seconds)
        ours = rlrs_async(env_id, envs, 2, seconds)
        row = f"| {env_id} | {two:,.0f} | {ours:,.0f} | {ours / two:.2f}x |"
        if with_envpool:
            pool_two = envpool_vector(env_id, envs, 2, seconds)
            pool_async = envpool_async(env_id, envs, 2, seconds)
            row += f" {pool_two:,.0f} | {pool_async:,.0f} | {pool_async / pool_two:.2f}x | {ours / pool_async:.2f}x |"
        print(row, flush=True)


def stepper(envs, actions, num_envs: int):
    """A step function for `rate` over the vector `envs` (rlrs's or EnvPool's), cycling through
    `actions` (batches of `num_envs` rows)."""
    index = [0]

    def step() -> int:
        for _ in range(10):
            envs.step(actions[index[0] % len(actions)])
            index[0] += 1
        return 10 * num_envs

    return step


def _one_thread_worker(connection, env_id: str, envs: int) -> None:
    """A process holding rlrs's one-thread vector of `envs` environments of `env_id`, which
    runs it for the seconds each message gives and sends back the rate (`None` ends it)."""
    vec = rlrs.RustVectorEnv(env_id, num_envs=envs, threads=1, copy=False)
    vec.reset(seed=0)
    vec.action_space.seed(0)
    step = stepper(vec, [vec.action_space.sample() for _ in range(64)], envs)
    connection.send(0.0)
    while (seconds := connection.recv()) is not None:
        connection.send(rate(step, seconds))
    vec.close()


class TwoProcesses:
    """Two processes, each with rlrs's one-thread vector, run at once: what the machine's two
    cores give this physics at that moment with nothing shared (the ceiling of a two-thread
    vector), summed."""

    def __init__(self, env_id: str, envs: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.connections = []
        self.processes = []
        for _ in range(2):
            ours, theirs = context.Pipe()
            process = context.Process(target=_one_thread_worker, args=(theirs, env_id, envs))
            process.start()
            self.connections.append(ours)
            self.processes.append(process)
        for connection in self.connections:
            connection.recv()

    def rate(self, seconds: float) -> float:
        for connection in self.connections:
            connection.send(seconds)
        return sum(connection.recv() for connection in self.connections)

    def close(self) -> None:
        for connection in self.connections:
            connection.send(None)
        for process in self.processes:
            process.join()


def interleaved_table(
    envs: int,
    rounds: int,
    seconds: float,
    with_envpool: bool,
    ids: tuple[str, ...] = IDS,
    with_processes: bool = False,
    warm_up: float = 3.0,
) -> None:
    """rlrs's vector of `envs` environments on 1 and 2 threads, and EnvPool's synchronous one,
    all made first and run `warm_up` seconds each, then in turn for `seconds` each, `rounds`
    times, for each of `ids`;
    with `with_processes`, also two processes with a one-thread vector each, run at once
    ([`TwoProcesses`]), in the same rounds."""
    import statistics

    names = ["rlrs 1", "rlrs 2"] + (["EnvPool 1", "EnvPool 2"] if with_envpool else [])
    header = f"| id | rlrs x{envs} 1 thread | 2 threads | 2 threads / 1 (range) |"
    rule = "|---|---:|---:|---:|"
    if with_processes:
        names.append("2 processes")
        header += " 2 processes x 1 thread, summed | 2 threads / 2 processes (range) |"
        rule += "---:|---:|"
    if with_envpool:
        header += (" EnvPool 1 thread | 2 threads | EnvPool 2 / 1 (range) "
                   "| rlrs / EnvPool 1 thread (range) | 2 threads (range) |")
        rule += "---:|---:|---:|---:|---:|"
    print(header)
    print(rule)
    for env_id in ids:
        steppers = {}
        for threads in (1, 2):
            vec = rlrs.RustVectorEnv(env_id, num_envs=envs, threads=threads, copy=False)
            vec.reset(seed=0)
            vec.action_space.seed(0)
            actions = [vec.action_space.sample() for _ in range(64)]
            steppers[f"rlrs {threads}"] = (vec, stepper(vec, actions, envs))
        if with_envpool:
            import envpool

            for threads in (1, 2):
                pool = envpool.make_gymnasium(
                    env_id, num_envs=envs, batch_size=envs, num_threads=threads, seed=0
                )
                pool.reset()
                space = pool.action_space
                rng = np.random.default_rng(0)
                actions = [
                    rng.uniform(space.low, space.high, size=(envs, *space.shape)).astype(space.dtype)
                    for _ in range(64)
                ]
                steppers[f"EnvPool {threads}"] = (pool, stepper(pool, actions, envs))
        if with_processes:
            processes = TwoProcesses(env_id, envs)
            steppers["2 processes"] = (processes, None)
        # Each vector runs `warm_up` seconds first: a two-thread rlrs vector starts with a timing
        # of its steps with and without its worker (`Pace`, PERFORMANCE.md "The vector
        # runtime"), half of whose steps run on one thread; with MuJoCo's steps of milliseconds
        # it lasts about a second, and the next comes after 16 times as long.
        for name in names:
            if name == "2 processes":
                steppers[name][0].rate(warm_up)
            else:
                rate(steppers[name][1], warm_up)
        rates = {name: [] for name in names}
        for _ in range(rounds):
            for name in names:
                if name == "2 processes":
                    rates[name].append(steppers[name][0].rate(seconds))
                else:
                    rates[name].append(rate(steppers[name][1], seconds))
        for name in names:
            steppers[name][0].close()
        median = {name: statistics.median(values) for name, values in rates.items()}

        def ratio(top: str, bottom: str) -> str:
            per_round = [a / b for a, b in zip(rates[top], rates[bottom])]
            return (f"{statistics.median(per_round):.2f}x "
                    f"({min(per_round):.2f}-{max(per_round):.2f})")

        row = (f"| {env_id} | {median['rlrs 1']:,.0f} | {median['rlrs 2']:,.0f} "
               f"| {ratio('rlrs 2', 'rlrs 1')} |")
        if with_processes:
            row += f" {median['2 processes']:,.0f} | {ratio('rlrs 2', '2 processes')} |"
        if with_envpool:
            row += (f" {median['EnvPool 1']:,.0f} | {median['EnvPool 2']:,.0f} "
                    f"| {ratio('EnvPool 2', 'EnvPool 1')} | {ratio('rlrs 1', 'EnvPool 1')} "
                    f"| {ratio('rlrs 2', 'EnvPool 2')} |")
        print(row, flush=True)


def profile(env_id: str, envs: int, seconds: float) -> None:
    """The milliseconds per step of rlrs's vector of `envs` environments on 1 and 2 threads,
    then cProfile's six most expensive entries over 100 steps on 2 threads: what runs on the
    Python thread beside the Rust call."""
    import cProfile
    import pstats

    for threads in (1, 2):
        envs_ = rlrs.RustVectorEnv(env_id, num_envs=envs, threads=threads, copy=False)
        per_second = vector(envs_, seconds)
        print(f"{env_id}, {envs} envs, {threads} thread(s): {1e3 * envs / per_second:.2f} ms per step")
    actions = [envs_.action_space.sample() for _ in range(16)]
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(100):
        envs_.step(actions[i % 16])
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--no-envpool", action="store_true", help="leave EnvPool out")
    parser.add_argument("--no-async", action="store_true", help="leave Gymnasium's AsyncVectorEnv out")
    parser.add_argument(
        "--async-only", action="store_true", help="only the asynchronous modes beside rlrs's 2-thread vector"
    )
    parser.add_argument(
        "--interleaved",
        type=int,
        metavar="ROUNDS",
        help="only the thread comparison, the four vectors run in turn for --seconds, ROUNDS times",
    )
    parser.add_argument(
        "--processes",
        action="store_true",
        help="with --interleaved: also two processes with a one-thread vector each, run at once",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=3.0,
        help="with --interleaved: seconds each vector runs before the rounds (default 3)",
    )
    parser.add_argument(
        "--ids",
        help="with --interleaved: the ids, comma-separated (default: " + ",".join(IDS) + ")",
    )
    parser.add_argument(
        "--profile", metavar="ID", help="instead of the table: rlrs's vector of ID profiled (cProfile)"
    )
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.envs, args.seconds)
        return
    try:
        import envpool  # noqa: F401

        with_envpool = not args.no_envpool
    except ImportError:
        with_envpool = False
    if args.async_only:
        async_table(args.envs, args.seconds, with_envpool)
        return
    if args.interleaved:
        ids = tuple(args.ids.split(",")) if args.ids else IDS
        interleaved_table(
            args.envs, args.interleaved, args.seconds, with_envpool, ids, args.processes,
            args.warm_up,
        )
        return
    header = (f"| id | Gymnasium one env | rlrs one env | rlrs / Gymnasium | Gymnasium Sync x{args.envs} "
              f"| rlrs x{args.envs} 1 thread | rlrs x{args.envs} 2 threads | 2 threads / 1 |")
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|"
    if not args.no_async:
        header += " Gymnasium Async x8 | rlrs 2 threads / Async |"
        rule += "---:|---:|"
    if with_envpool:
        header += (f" EnvPool x{args.envs} 1 thread | 2 threads | rlrs / EnvPool 1 thread | 2 threads "
                   f"| EnvPool async 2 threads | async / sync |")
        rule += "---:|---:|---:|---:|---:|---:|"
    header += " rlrs async 2 threads | rlrs async / rlrs 2 threads |"
    rule += "---:|---:|"
    print(header)
    print(rule)
    for env_id in IDS:
        theirs = single(env_id, args.seconds)
        ours = single(f"rlrs/{env_id}", args.seconds)
        sync = vector(gym.make_vec(env_id, num_envs=args.envs, vectorization_mode="sync"), args.seconds)
        one = vector(rlrs.RustVectorEnv(env_id, num_envs=args.envs, threads=1, copy=False), args.seconds)
        two = vector(rlrs.RustVectorEnv(env_id, num_envs=args.envs, threads=2, copy=False), args.seconds)
        row = (f"| {env_id} | {theirs:,.0f} | {ours:,.0f} | {ours / theirs:.2f}x | {sync:,.0f} "
               f"| {one:,.0f} | {two:,.0f} | {two / one:.2f}x |")
        if not args.no_async:
            async_envs = gym.make_vec(env_id, num_envs=8, vectorization_mode="async")
            asynchronous = vector(async_envs, args.seconds)
            async_envs.close()
            row += f" {asynchronous:,.0f} | {two / asynchronous:.1f}x |"
        if with_envpool:
            pool_one = envpool_vector(env_id, args.envs, 1, args.seconds)
            pool_two = envpool_vector(env_id, args.envs, 2, args.seconds)
            pool_async = envpool_async(env_id, args.envs, 2, args.seconds)
            row += (f" {pool_one:,.0f} | {pool_two:,.0f} | {one / pool_one:.2f}x | {two / pool_two:.2f}x "
                    f"| {pool_async:,.0f} | {pool_async / pool_two:.2f}x |")
        ours_async = rlrs_async(env_id, args.envs, 2, args.seconds)
        row += f" {ours_async:,.0f} | {ours_async / two:.2f}x |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
