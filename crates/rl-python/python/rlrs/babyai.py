"""``BabyAIBot``: minigrid 3.2.0's BabyAI bot (``minigrid.utils.baby_ai_bot.BabyAIBot``, the
expert that solves BabyAI's levels) for rlrs's ``BabyAI-*`` environments, running in Rust.

Made for an episode after ``reset`` and called once per step, it gives the action minigrid's
bot gives from the same state and history::

    import gymnasium as gym
    import rlrs

    env = gym.make("rlrs/BabyAI-GoToLocal-v0")
    env.reset(seed=1)
    bot = rlrs.BabyAIBot(env)
    action = bot.replan()
    while True:
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
        action = bot.replan(action)

``replan(action_taken=None)`` takes the action taken since the last call (``None`` at the
first; any other action than the one suggested makes the bot plan to undo it, as minigrid's
does) and returns the suggested action as an ``int`` (minigrid's returns its ``Actions``
members, which are equal ints). Where minigrid's bot raises, this one raises the same kind of
exception (``AssertionError`` for its assertions, ``DisappearedBoxError`` once a box was
opened, ``AttributeError``, ``TypeError``); where minigrid's would replan forever, this one
raises ``RuntimeError`` instead of hanging. After an exception the bot raises it again: make a
new one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core

__all__ = ["BabyAIBot", "DisappearedBoxError"]

#: Raised once a box has been opened (minigrid's ``DisappearedBoxError``).
DisappearedBoxError = _core.DisappearedBoxError


class BabyAIBot:
    """minigrid's ``BabyAIBot(mission)`` for ``mission``, an rlrs ``BabyAI-*`` environment
    (``gym.make("rlrs/BabyAI-...")``, wrapped or not) that has been reset."""

    def __init__(self, mission: Any):
        core_env = getattr(getattr(mission, "unwrapped", mission), "_core", None)
        if not isinstance(core_env, _core.Environment):
            raise TypeError(
                f"BabyAIBot needs an rlrs BabyAI environment (gym.make('rlrs/BabyAI-...')), got {mission!r}"
            )
        #: The environment, as minigrid's bot keeps it.
        self.mission = mission
        self._bot = _core.BabyAiBot(core_env)

    def replan(self, action_taken: int | None = None) -> int:
        """The suggested action from the environment's current state, the plan adjusted to
        ``action_taken`` (the action taken since the last call, ``None`` at the first)."""
        return self._bot.replan(None if action_taken is None else int(action_taken))

    @property
    def vis_mask(self) -> np.ndarray:
        """The cells seen so far: a ``(width, height)`` ``bool`` array indexed ``[x, y]``."""
        return self._bot.vis_mask

    @property
    def bfs_counter(self) -> int:
        """How many breadth-first searches the bot has made."""
        return self._bot.bfs_counter

    @property
    def bfs_step_counter(self) -> int:
        """How many cells those searches visited in all."""
        return self._bot.bfs_step_counter

    @property
    def plan(self) -> list[str]:
        """The plan, bottom first, one string per subgoal (for debugging; not minigrid's
        ``repr`` of its stack)."""
        return list(self._bot.plan)
