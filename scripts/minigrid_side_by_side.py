#!/usr/bin/env python3
"""Steps rl-object-grid's MiniGrid and live minigrid 3.2.0 side by side (not part of CI).

For every `MiniGrid-*` id (all but WFC), plays episodes of random actions in minigrid from
seeded and unseeded resets, replays the same seeds and actions through the
`replay_json` example of rl-object-grid, and compares, after every reset, the grid encoding
and the agent, and after every step the observation (image, direction, mission), the reward
(exactly), both flags, the agent's position, direction and carried object.

    cargo build --release -p rlrs-object-grid --example replay_json
    /work/refvenv/bin/python scripts/minigrid_side_by_side.py [--episodes 30] [--seed 1]

Needs minigrid 3.2.0, gymnasium 1.4.0 and numpy in the Python running it.
"""

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import minigrid  # noqa: F401  (registers the ids)

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "examples" / "replay_json"

# Action weights: left, right, forward, pickup, drop, toggle, done.
WEIGHTS = [15, 15, 40, 10, 8, 10, 2]

# Steps of minigrid's episodes with a non-zero reward, termination, truncation.
COUNTS = {"rewarded": 0, "terminated": 0, "truncated": 0}


def encode_obs(obs):
    return {
        "image": obs["image"].tobytes().hex(),
        "direction": int(obs["direction"]),
        "mission": obs["mission"],
    }


def agent(env):
    u = env.unwrapped
    carrying = None if u.carrying is None else [int(v) for v in u.carrying.encode()]
    return [int(u.agent_pos[0]), int(u.agent_pos[1])], int(u.agent_dir), carrying


def interacting_action(env, rng):
    """An action that interacts with what is in front more often than a random one: toggles
    doors and boxes, picks up keys, balls and boxes, drops next to things, says done next to
    a GoTo target, walks into goals; random otherwise. It reads minigrid's state, which is
    fine: only the actions reach our side."""
    u = env.unwrapped
    front = u.grid.get(*u.front_pos)
    target = getattr(u, "target_pos", None)
    if hasattr(u, "move_type") and rng.random() < 0.8:
        # PutNear: pick up the object to move, drop it next to the target.
        fx, fy = u.front_pos
        tx, ty = u.target_pos
        if front is not None and u.carrying is None:
            if front.type == u.move_type and front.color == u.moveColor:
                return 3
        if front is None and u.carrying is not None and abs(fx - tx) <= 1 and abs(fy - ty) <= 1:
            return 4
        return rng.choices(range(3), weights=[1, 1, 2])[0]
    if target is not None and rng.random() < 0.5:
        ax, ay = u.agent_pos
        tx, ty = target
        if (ax == tx and abs(ay - ty) == 1) or (ay == ty and abs(ax - tx) == 1):
            return 6
    if front is not None and rng.random() < 0.7:
        if front.type in ("door", "box") and rng.random() < 0.6:
            return 5
        if front.type in ("key", "ball", "box") and u.carrying is None:
            return 3
        if front.type in ("goal",):
            return 2
    if front is None and u.carrying is not None and rng.random() < 0.15:
        return 4
    return rng.choices(range(7), weights=WEIGHTS)[0]


# Variants beyond the registered parameters: (id, minigrid's make kwargs, our overrides).
VARIANTS = [
    ("MiniGrid-DoorKey-8x8-v0", {"agent_view_size": 5}, {"agent_view_size": 5}),
    ("MiniGrid-FourRooms-v0", {"agent_view_size": 9}, {"agent_view_size": 9}),
    ("MiniGrid-LavaCrossingS9N2-v0", {"agent_view_size": 3}, {"agent_view_size": 3}),
    ("MiniGrid-FourRooms-v0", {"agent_pos": (3, 3), "goal_pos": (15, 15)},
     {"env": {"four_rooms": {"agent_pos": [3, 3], "goal_pos": [15, 15]}}}),
    ("MiniGrid-KeyCorridorS3R3-v0", {"obj_type": "key"},
     {"env": {"key_corridor": {"obj_type": "key"}}}),
    ("MiniGrid-KeyCorridorS4R3-v0", {"obj_type": "box"},
     {"env": {"key_corridor": {"obj_type": "box"}}}),
    ("MiniGrid-LavaGapS7-v0", {"obstacle_type": "WALL"},
     {"env": {"lava_gap": {"obstacle_type": "wall"}}}),
    ("MiniGrid-DistShift1-v0", {"agent_start_pos": None},
     {"env": {"dist_shift": {"agent_start_pos": None}}}),
    ("MiniGrid-Empty-8x8-v0", {"size": 10, "max_steps": 50},
     {"env": {"empty": {"size": 10}}, "max_steps": 50}),
    ("MiniGrid-MultiRoom-N6-v0", {"minNumRooms": 2, "maxNumRooms": 4, "maxRoomSize": 6},
     {"env": {"multi_room": {"min_num_rooms": 2, "max_num_rooms": 4, "max_room_size": 6}}}),
    ("MiniGrid-Dynamic-Obstacles-8x8-v0", {"n_obstacles": 9},
     {"env": {"dynamic_obstacles": {"n_obstacles": 9}}}),
    ("MiniGrid-Fetch-8x8-N3-v0", {"numObjs": 6}, {"env": {"fetch": {"num_objs": 6}}}),
    ("MiniGrid-PutNear-8x8-N3-v0", {"numObjs": 5}, {"env": {"put_near": {"num_objs": 5}}}),
]


def make(env_id, kwargs):
    kwargs = dict(kwargs)
    if kwargs.get("obstacle_type") == "WALL":
        from minigrid.core.world_object import Wall
        kwargs["obstacle_type"] = Wall
    return gym.make(env_id, **kwargs)


def play(env_id, episodes, rng, policy, kwargs=None):
    env = make(env_id, kwargs or {})
    max_steps = env.unwrapped.max_steps
    segments = []
    for episode in range(episodes):
        seed = rng.randrange(2**63) if episode % 3 != 1 else None
        if episode == 0 and seed is None:
            seed = rng.randrange(2**32)
        obs, _ = env.reset(seed=seed)
        u = env.unwrapped
        pos, direction, _ = agent(env)
        segment = {
            "seed": seed,
            "grid": u.grid.encode().tobytes().hex(),
            "agent_pos": pos,
            "agent_dir": direction,
            "initial_obs": encode_obs(obs),
            "actions": [],
            "steps": [],
        }
        # Most episodes are cut short; every fourth runs to its end (the time limit included).
        limit = max_steps + 1 if episode % 4 == 3 else rng.randrange(1, 200)
        for _ in range(limit):
            if policy == "interact":
                action = interacting_action(env, rng)
            else:
                action = rng.choices(range(7), weights=WEIGHTS)[0]
            obs, reward, terminated, truncated, _ = env.step(action)
            pos, direction, carrying = agent(env)
            segment["actions"].append(action)
            segment["steps"].append({
                "obs": encode_obs(obs),
                "reward": float(reward),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
                "agent_pos": pos,
                "agent_dir": direction,
                "carrying": carrying,
            })
            if terminated or truncated:
                break
        segments.append(segment)
    return segments


def compare(env_id, theirs, ours, report):
    mismatches = 0
    steps = 0
    for segment in theirs:
        for step in segment["steps"]:
            COUNTS["rewarded"] += step["reward"] != 0.0
            COUNTS["terminated"] += step["terminated"]
            COUNTS["truncated"] += step["truncated"]
    for index, (a, b) in enumerate(zip(theirs, ours)):
        for field in ("grid", "agent_pos", "agent_dir", "initial_obs"):
            if a[field] != b[field]:
                mismatches += 1
                report.append(f"{env_id} segment {index}: {field}")
        if len(a["steps"]) != len(b["steps"]):
            mismatches += 1
            report.append(f"{env_id} segment {index}: {len(b['steps'])} steps, minigrid {len(a['steps'])}")
        for step, (x, y) in enumerate(zip(a["steps"], b["steps"])):
            steps += 1
            for field in x:
                if x[field] != y[field]:
                    mismatches += 1
                    report.append(f"{env_id} segment {index} step {step}: {field}: ours {y[field]}, minigrid {x[field]}")
    return mismatches, steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ids", nargs="*")
    parser.add_argument("--policy", choices=["random", "interact"], default="random",
                        help="random actions, or actions that interact with what is in front")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ids = args.ids or [k for k in gym.registry if k.startswith("MiniGrid-") and "WFC" not in k]
    cases = [(env_id, None, None) for env_id in ids]
    if not args.ids:
        cases += VARIANTS
    total_mismatches = total_steps = total_resets = 0
    report = []
    for env_id, kwargs, overrides in cases:
        theirs = play(env_id, args.episodes, rng, args.policy, kwargs)
        request = {"id": env_id, "segments": [{"seed": s["seed"], "actions": s["actions"]} for s in theirs]}
        if overrides is not None:
            request["params"] = overrides
            env_id = f"{env_id} {kwargs}"
        result = subprocess.run([str(BINARY)], input=json.dumps(request), capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{env_id}: replay failed: {result.stderr.strip()}")
            total_mismatches += 1
            continue
        ours = json.loads(result.stdout)["segments"]
        rewarded_before = COUNTS["rewarded"]
        mismatches, steps = compare(env_id, theirs, ours, report)
        rewarded = COUNTS["rewarded"] - rewarded_before
        total_mismatches += mismatches
        total_steps += steps
        total_resets += len(theirs)
        print(f"{env_id}: {len(theirs)} resets, {steps} steps ({rewarded} rewarded), "
              f"{mismatches} mismatches", flush=True)
    print(f"\n{len(ids)} ids and {len(cases) - len(ids)} variants, {total_resets} resets, {total_steps} steps: {total_mismatches} mismatches")
    print(f"minigrid's steps with a non-zero reward: {COUNTS['rewarded']}, terminated: "
          f"{COUNTS['terminated']}, truncated: {COUNTS['truncated']}")
    for line in report[:20]:
        print(line)
    sys.exit(1 if total_mismatches else 0)


if __name__ == "__main__":
    main()
