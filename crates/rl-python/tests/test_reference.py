"""Exactness from Python: the reference traces of testdata/reference/ (Gymnasium 1.4.0 and
RLPy 1.3.6) replayed through the Gymnasium API of rlrs, compared bit for bit.

Each trace is rolled out from its recorded initial state (set with
``reset(options={"state": ...})``, since the traces start where Gymnasium's own generator put
them) through its recorded actions; every observation, reward and flag must be identical.

MountainCarContinuous: the traces hold forces outside the declared ``Box(-1, 1)``, which
Gymnasium's ``step`` accepts and clips, and so does ours: every step is replayed.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rlrs

GYMNASIUM_FILES = {
    "cartpole_v1_euler.json": ("CartPole-v1", {}),
    "cartpole_v1_semi_implicit.json": ("CartPole-v1", {"integrator": "semi-implicit"}),
    "cartpole_v1_sutton_barto.json": ("CartPole-v1", {"sutton_barto_reward": True}),
    "mountaincar_v0.json": ("MountainCar-v0", {}),
    "mountaincar_continuous_v0.json": ("MountainCarContinuous-v0", {}),
    "acrobot_v1.json": ("Acrobot-v1", {}),
    "acrobot_v1_nips.json": ("Acrobot-v1", {"dynamics": "nips"}),
    "pendulum_v1.json": ("Pendulum-v1", {}),
    "pendulum_v1_g9_81.json": ("Pendulum-v1", {"g": 9.81}),
}


def initial_state(domain: str, trace: dict):
    values = trace["initial_state"]
    if domain == "MountainCarContinuous":
        return {
            "position": values[0],
            "velocity": values[1],
            "precision": trace["initial_state_dtype"],
        }
    if domain == "MountainCar":
        return {"position": values[0], "velocity": values[1]}
    if domain == "Acrobot":
        state = dict(zip(["theta1", "theta2", "dtheta1", "dtheta2"], values))
        return {**state, "precision": trace["initial_state_dtype"]}
    if domain == "Pendulum":
        return {"theta": values[0], "theta_dot": values[1]}
    return values


@pytest.mark.parametrize("file_name", sorted(GYMNASIUM_FILES))
def test_gymnasium_traces_replay_bit_for_bit(reference, file_name):
    data = reference(file_name)
    rust_id, params = GYMNASIUM_FILES[file_name]
    assert data["env_id"] == rust_id
    env = gym.make(f"rlrs/{rust_id}", **params)
    replayed = 0
    beyond = 0
    for trace in data["traces"]:
        observation, _ = env.reset(
            seed=0, options={"state": initial_state(data["domain"], trace)}
        )
        expected = np.asarray(trace["initial_obs"], dtype=np.float32)
        assert observation.tobytes() == expected.tobytes(), trace["id"]
        assert len(trace["steps"]) == trace["length"] == len(trace["actions"])
        for step in trace["steps"]:
            action = step["action"]
            if isinstance(action, list):
                action = np.asarray(action, dtype=np.float32)
                beyond += not env.action_space.contains(action)
            observation, reward, terminated, truncated, _ = env.step(action)
            where = f"{trace['id']} step {step['t']}"
            expected = np.asarray(step["obs"], dtype=np.float32)
            assert observation.dtype == np.float32, where
            assert observation.tobytes() == expected.tobytes(), where
            # Gymnasium's Pendulum returns np.float64 (-costs), the others float.
            reward_type = np.float64 if rust_id == "Pendulum-v1" else float
            assert reward == step["reward"] and type(reward) is reward_type, where
            assert terminated is step["terminated"], where
            assert truncated is step["truncated"], where
            replayed += 1
    assert replayed == sum(trace["length"] for trace in data["traces"]) > 0
    if rust_id == "MountainCarContinuous-v0":
        assert beyond > 0, "the traces were expected to hold forces beyond the bounds"


def test_gridworld_traces_replay_bit_for_bit(reference):
    data = reference("gridworld_deterministic.json")
    assert data["noise"] == 0.0
    replayed = 0
    for trace in data["traces"]:
        name = trace["map"].removesuffix(".txt")
        env = gym.make(f"rlrs/GridWorld-{name}", noise=0.0)
        # The start cell is the map's, so a plain reset starts where RLPy did.
        observation, _ = env.reset(seed=0)
        assert observation.tolist() == trace["initial_state"], trace["id"]
        for j, step in enumerate(trace["steps"]):
            observation, reward, terminated, truncated, _ = env.step(step["action"])
            where = f"{trace['id']} step {step['t']}"
            assert observation.dtype == np.int64, where
            assert observation.tolist() == step["next_state"], where
            assert reward == step["reward"], where
            assert terminated is step["terminal"], where
            last = j == len(trace["steps"]) - 1
            assert truncated is (last and trace["end"] == "episode_cap"), where
            replayed += 1
        if trace["end"] == "terminal":
            assert terminated
    assert replayed == sum(trace["length"] for trace in data["traces"]) > 0
