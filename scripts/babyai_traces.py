"""Records minigrid 3.2.0's BabyAI levels as seeded traces for rl-object-grid's tests.

Every `BabyAI-*` id (or those given with --ids) is reset with seeds drawn from a master seed
and stepped with actions mixing minigrid's own `BabyAIBot` (goal-directed, so that the
verifier's successes happen) and uniformly random actions (so that failures, deviations and
truncations happen): with probability `--random` an action is random, and once the bot raises
(random actions can leave it in a state it asserts against) the rest of the episode is
random; so is the rest of an episode whose bot searched more than `BFS_BUDGET` steps or
looped in a replan (minigrid's bot can, in UnlockToUnlock). Each
step records the action, the reward, both flags and a digest (FNV-1a, 64 bits)
of the observation's image bytes followed by its direction byte; each reset records the
mission, `max_steps`, the full grid encoding, the agent's pose and the first image.

    /work/refvenv/bin/python scripts/babyai_traces.py --out testdata/reference/seeded_babyai.json
    # the longer check (documented in crates/rl-object-grid/src/babyai/mod.rs):
    /work/refvenv/bin/python scripts/babyai_traces.py --episodes 40 --steps 400 --out /tmp/babyai_long.json
    RL_BABYAI_TRACES=/tmp/babyai_long.json cargo test -p rlrs-object-grid --test suite babyai
"""

from __future__ import annotations

import argparse
import json
import platform
import signal
import sys

import gymnasium as gym
import minigrid  # noqa: F401  (registers the ids)
import numpy as np
from minigrid.utils.baby_ai_bot import BabyAIBot

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1
# The most breadth-first-search steps the bot may take in one episode.
BFS_BUDGET = 200_000
# minigrid's bot can loop forever in `replan` (UnlockToUnlock, once its plan and the world
# disagree); a replan taking longer than this (they take milliseconds) is abandoned.
REPLAN_SECONDS = 5.0


class BotStuck(Exception):
    """Raised by the alarm in a replan that does not return."""


def _stuck(signum, frame):
    raise BotStuck()


signal.signal(signal.SIGALRM, _stuck)


def digest(observation) -> str:
    """FNV-1a over the image's bytes (C order) then the direction byte."""
    value = FNV_OFFSET
    for byte in observation["image"].astype(np.uint8).tobytes() + bytes([int(observation["direction"])]):
        value = ((value ^ byte) * FNV_PRIME) & MASK
    return f"{value:016x}"


def record(env_id: str, seed: int, steps: int, random_share: float, rng) -> dict:
    env = gym.make(env_id)
    observation, _ = env.reset(seed=seed)
    unwrapped = env.unwrapped
    episode = {
        "env_id": env_id,
        "seed": seed,
        "mission": observation["mission"],
        "max_steps": int(unwrapped.max_steps),
        "grid": unwrapped.grid.encode().tobytes().hex(),
        "agent": [int(unwrapped.agent_pos[0]), int(unwrapped.agent_pos[1]), int(unwrapped.agent_dir)],
        "image": observation["image"].tobytes().hex(),
        "direction": int(observation["direction"]),
        "actions": [],
        "digests": [],
        "rewards": [],
        "terminated": [],
        "truncated": [],
    }
    try:
        bot = BabyAIBot(env)
    except Exception:  # noqa: BLE001  (the bot refuses some instructions)
        bot = None
    taken = None
    for _ in range(steps):
        suggested = None
        if bot is not None:
            try:
                signal.setitimer(signal.ITIMER_REAL, REPLAN_SECONDS)
                suggested = int(bot.replan(taken))
            except Exception:  # noqa: BLE001  (BotStuck included)
                bot = None
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            # The bot's searches can grow without bound once random actions have misled it
            # (UnlockToUnlock): past a budget of search steps it is dropped.
            if bot is not None and bot.bfs_step_counter > BFS_BUDGET:
                bot = None
        if suggested is None or rng.random() < random_share:
            action = int(rng.integers(0, 7))
        else:
            action = suggested
        observation, reward, terminated, truncated, _ = env.step(action)
        taken = action
        episode["actions"].append(action)
        episode["digests"].append(digest(observation))
        episode["rewards"].append(float(reward))
        episode["terminated"].append(bool(terminated))
        episode["truncated"].append(bool(truncated))
        assert observation["mission"] == episode["mission"]
        if terminated or truncated:
            break
    env.close()
    return episode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--random", type=float, default=0.2)
    parser.add_argument(
        "--random-episodes",
        type=int,
        default=1,
        help="the last episodes of each id that take random actions only (truncations happen)",
    )
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--ids", nargs="*")
    args = parser.parse_args()
    ids = args.ids or [env_id for env_id in gym.registry if env_id.startswith("BabyAI-")]
    rng = np.random.default_rng(args.seed)
    episodes = []
    for env_id in ids:
        for number in range(args.episodes):
            seed = int(rng.integers(0, 2**31))
            share = 1.0 if number >= args.episodes - args.random_episodes else args.random
            episodes.append(record(env_id, seed, args.steps, share, rng))
    data = {
        "schema_version": 1,
        "kind": "seeded_babyai",
        "generator": {
            "gymnasium": gym.__version__,
            "numpy": np.__version__,
            "minigrid": minigrid.__version__,
            "python": platform.python_version(),
            "script": "scripts/babyai_traces.py",
            "argv": sys.argv[1:],
        },
        "episodes": episodes,
    }
    with open(args.out, "w") as out:
        json.dump(data, out, separators=(",", ":"))
    steps = sum(len(e["actions"]) for e in episodes)
    successes = sum(1 for e in episodes if e["rewards"] and e["rewards"][-1] > 0)
    failures = sum(1 for e in episodes if e["terminated"] and e["terminated"][-1] and e["rewards"][-1] == 0)
    truncations = sum(1 for e in episodes if e["truncated"] and e["truncated"][-1])
    print(f"{len(episodes)} episodes, {steps} steps, {successes} successes, {failures} failures, {truncations} truncations")


if __name__ == "__main__":
    main()
