"""BabyAI through rlrs: minigrid 3.2.0's 96 ``BabyAI-*`` levels by id, exact to minigrid.

A fast slice runs in CI: levels of every kind of instruction and time limit stepped beside
live minigrid (``gym.make(id)`` from the minigrid package) with the same seeds and actions
mixing minigrid's own ``BabyAIBot`` (so that the verifier's successes happen) with random ones
(failures, truncations), comparing observations (image, direction, mission), rewards, flags,
the text picture and RGB frames; and the vector beside Gymnasium's ``SyncVectorEnv`` in both
autoreset modes. The longer check steps every one of the 96 ids with more seeds:

    RL_BABYAI_ALL=1 python -m pytest crates/rl-python/tests/test_babyai.py
"""

from __future__ import annotations

import os
import signal
import warnings

import gymnasium as gym
import minigrid  # noqa: F401  (registers minigrid's ids with Gymnasium)
import numpy as np
import pytest
from minigrid.utils.baby_ai_bot import BabyAIBot

import rlrs

IDS = [env_id for env_id in rlrs.ids() if env_id.startswith("BabyAI-")]

#: The CI slice: every kind of instruction (go to, open, pick up, put next, sequences, the
#: random grammar), strict levels, a start carrying an object, fixed and per-instruction limits.
#: The last episode of each id takes random actions only (so that truncations happen).
FAST = [
    "BabyAI-GoToObjS4-v0",
    "BabyAI-GoToLocal-v0",
    "BabyAI-OpenDoorsOrderN4Debug-v0",
    "BabyAI-PickupDistDebug-v0",
    "BabyAI-PutNextS6N3Carrying-v0",
    "BabyAI-KeyInBox-v0",
    "BabyAI-BossLevel-v0",
]


def make_pair(env_id: str, **kwargs):
    return gym.make(f"rlrs/{env_id}", **kwargs), gym.make(env_id, **kwargs)


def assert_same_observation(ours, theirs, where: str) -> None:
    assert set(ours) == {"image", "direction", "mission"}, where
    assert ours["image"].dtype == np.uint8 and ours["image"].shape == theirs["image"].shape, where
    np.testing.assert_array_equal(ours["image"], theirs["image"], err_msg=where)
    assert ours["direction"] == theirs["direction"], where
    assert isinstance(ours["mission"], str) and ours["mission"] == theirs["mission"], where


class _Stuck(Exception):
    pass


def _alarm(signum, frame):
    raise _Stuck()


def bot_action(bot, taken):
    """The bot's action, or ``None`` once it raised or looped (minigrid's bot can loop
    forever in ``replan`` after random actions misled it)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        return int(bot.replan(taken))
    except Exception:  # noqa: BLE001
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def step_beside(env_ids, episodes: int, steps: int, seed: int) -> dict:
    """Steps each id beside minigrid; returns how the episodes ended."""
    rng = np.random.default_rng(seed)
    ends = {"success": 0, "failure": 0, "truncated": 0, "steps": 0}
    for env_id in env_ids:
        ours, theirs = make_pair(env_id, render_mode="rgb_array")
        for episode in range(episodes):
            reset_seed = int(rng.integers(0, 2**31))
            mine, _ = ours.reset(seed=reset_seed)
            reference, _ = theirs.reset(seed=reset_seed)
            assert_same_observation(mine, reference, f"{env_id} seed {reset_seed} reset")
            if episode == 0:
                np.testing.assert_array_equal(ours.render(), theirs.render(), err_msg=env_id)
            bot = BabyAIBot(theirs) if episode < episodes - 1 else None
            taken = None
            for step in range(steps):
                suggested = bot_action(bot, taken) if bot is not None else None
                if suggested is None:
                    bot = None
                action = int(rng.integers(0, 7)) if suggested is None or rng.random() < 0.2 else suggested
                mine, reward, terminated, truncated, _ = ours.step(action)
                reference, reward_ref, terminated_ref, truncated_ref, _ = theirs.step(action)
                taken = action
                where = f"{env_id} seed {reset_seed} step {step} action {action}"
                assert_same_observation(mine, reference, where)
                assert (reward, terminated, truncated) == (reward_ref, terminated_ref, truncated_ref), where
                ends["steps"] += 1
                if terminated or truncated:
                    ends["success" if reward > 0 else "failure" if terminated else "truncated"] += 1
                    break
            assert ours.unwrapped._core.render_text() == theirs.unwrapped.pprint_grid(), env_id
        ours.close()
        theirs.close()
    return ends


def test_all_96_ids_are_registered():
    minigrid_ids = [env_id for env_id in gym.registry if env_id.startswith("BabyAI-")]
    assert IDS == minigrid_ids and len(IDS) == 96


def test_spaces_and_time_limits_are_minigrids():
    for env_id in IDS:
        ours, theirs = make_pair(env_id)
        assert ours.action_space == theirs.action_space, env_id
        assert ours.observation_space["image"] == theirs.observation_space["image"], env_id
        # minigrid's own BabyAIMissionSpace (issue 41 point 5: minigrid is installed here).
        assert ours.observation_space["mission"] == theirs.observation_space["mission"], env_id
        assert ours.spec.max_episode_steps is theirs.spec.max_episode_steps is None, env_id
        observation, _ = ours.reset(seed=1)
        assert ours.observation_space.contains(observation), env_id
        ours.close()
        theirs.close()


def test_the_fast_slice_steps_beside_minigrid():
    ends = step_beside(FAST, episodes=3, steps=200, seed=43)
    assert ends["steps"] > 500
    assert ends["success"] > 0 and ends["failure"] > 0 and ends["truncated"] > 0, ends


@pytest.mark.skipif(not os.environ.get("RL_BABYAI_ALL"), reason="the longer check: RL_BABYAI_ALL=1")
def test_every_id_steps_beside_minigrid():
    ends = step_beside(IDS, episodes=10, steps=500, seed=44)
    assert ends["success"] > 0 and ends["failure"] > 0 and ends["truncated"] > 0, ends


@pytest.mark.parametrize("autoreset", ["NEXT_STEP", "SAME_STEP"])
def test_the_vector_batches_as_sync_vector_env(autoreset):
    mode = gym.vector.AutoresetMode[autoreset]
    for env_id in ["BabyAI-GoToObjS4-v0", "BabyAI-PutNextS5N2Carrying-v0"]:
        n = 4
        ours = gym.make_vec(
            f"rlrs/{env_id}", num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = gym.make_vec(
                env_id, num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
            )
        mine, _ = ours.reset(seed=7)
        reference, _ = theirs.reset(seed=7)
        rng = np.random.default_rng(5)
        ended = 0
        for step in range(210):
            where = f"{env_id} {autoreset} step {step}"
            np.testing.assert_array_equal(mine["image"], reference["image"], err_msg=where)
            np.testing.assert_array_equal(mine["direction"], reference["direction"], err_msg=where)
            assert tuple(mine["mission"]) == tuple(reference["mission"]), where
            actions = rng.integers(0, 7, n)
            mine, rewards, terminated, truncated, info = ours.step(actions)
            reference, rewards_ref, terminated_ref, truncated_ref, info_ref = theirs.step(actions)
            np.testing.assert_array_equal(rewards, rewards_ref, err_msg=where)
            np.testing.assert_array_equal(terminated, terminated_ref, err_msg=where)
            np.testing.assert_array_equal(truncated, truncated_ref, err_msg=where)
            ended += int(np.sum(terminated | truncated))
        assert ended > 0, env_id
        ours.close()
        theirs.close()


# ---------------------------------------------------------------------------------------------
# The bot: rlrs.BabyAIBot on gym.make("rlrs/<id>") beside minigrid's BabyAIBot on minigrid's
# env, from the same seeds and actions.

#: The bot's CI slice: go to, pick up, put next, unlocking (keys fetched and dropped), a
#: corridor to explore, sequences, the random grammar, and KeyInBox (where both bots raise).
BOT_FAST = [
    "BabyAI-GoToLocal-v0",
    "BabyAI-PickupLoc-v0",
    "BabyAI-PutNextLocal-v0",
    "BabyAI-UnlockPickup-v0",
    "BabyAI-KeyCorridorS3R3-v0",
    "BabyAI-SynthSeq-v0",
    "BabyAI-BossLevel-v0",
    "BabyAI-KeyInBox-v0",
]


def bot_outcome(bot, taken):
    """The bot's action, or the kind of exception it raised (``"loop"`` for a replan that
    does not return, which minigrid's bot can; ours raises ``RuntimeError`` there)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        return int(bot.replan(taken))
    except _Stuck:
        return "loop"
    except RuntimeError:
        return "loop"
    except Exception as error:  # noqa: BLE001
        return type(error).__name__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def bots_beside(env_ids, episodes: int, steps: int, random_share: float, seed: int) -> dict:
    """Both bots on each id, told the same actions taken (theirs, or random ones with
    probability ``random_share``): their suggestions (or exceptions) must be equal at every
    step. Returns counts of how the episodes ended."""
    rng = np.random.default_rng(seed)
    ends = {"success": 0, "other": 0, "raised": 0, "bot_steps": 0}
    for env_id in env_ids:
        ours, theirs = make_pair(env_id)
        for _ in range(episodes):
            reset_seed = int(rng.integers(0, 2**31))
            ours.reset(seed=reset_seed)
            theirs.reset(seed=reset_seed)
            our_bot = rlrs.BabyAIBot(ours)
            their_bot = BabyAIBot(theirs)
            taken = None
            for step in range(steps):
                mine = bot_outcome(our_bot, taken)
                reference = bot_outcome(their_bot, taken)
                assert mine == reference, f"{env_id} seed {reset_seed} step {step} after {taken}"
                if isinstance(reference, str):
                    ends["raised"] += 1
                    break
                ends["bot_steps"] += 1
                action = int(rng.integers(0, 7)) if rng.random() < random_share else reference
                _, reward, terminated, truncated, _ = ours.step(action)
                _, reward_ref, terminated_ref, truncated_ref, _ = theirs.step(action)
                assert (reward, terminated, truncated) == (reward_ref, terminated_ref, truncated_ref)
                taken = action
                if terminated or truncated:
                    ends["success" if reward > 0 else "other"] += 1
                    break
        ours.close()
        theirs.close()
    return ends


def test_the_bot_gives_minigrids_actions():
    ends = bots_beside(BOT_FAST, episodes=2, steps=300, random_share=0.0, seed=45)
    assert ends["success"] >= 12 and ends["raised"] >= 1, ends


def test_the_bot_adjusts_to_other_actions_as_minigrids_does():
    ends = bots_beside(BOT_FAST, episodes=1, steps=150, random_share=0.25, seed=46)
    assert ends["bot_steps"] > 300, ends


def test_the_bot_refuses_what_is_not_a_babyai_environment():
    with pytest.raises(TypeError):
        rlrs.BabyAIBot(gym.make("rlrs/MiniGrid-Empty-5x5-v0"))
    env = gym.make("rlrs/BabyAI-GoToLocal-v0")
    with pytest.raises(RuntimeError):
        rlrs.BabyAIBot(env)
    env.reset(seed=1)
    bot = rlrs.BabyAIBot(env)
    assert bot.replan() in range(7)
    assert bot.vis_mask.shape == (8, 8) and bot.vis_mask.any()
    assert bot.bfs_counter > 0 and bot.bfs_step_counter > 0


@pytest.mark.skipif(not os.environ.get("RL_BABYAI_ALL"), reason="the longer check: RL_BABYAI_ALL=1")
def test_the_bot_gives_minigrids_actions_on_every_id():
    ends = bots_beside(IDS, episodes=5, steps=400, random_share=0.0, seed=47)
    assert ends["success"] > 0, ends
    ends = bots_beside(IDS, episodes=3, steps=200, random_share=0.2, seed=48)
    assert ends["bot_steps"] > 0, ends
