#!/usr/bin/env python3
"""Writes minigrid 3.2.0's registered keyword arguments of every id rl-object-grid implements
(the `kwargs` of each `gymnasium.register` call in minigrid's `__init__.py`), as the JSON
object crates/rl-object-grid/src/minigrid_kwargs.json: `{id: kwargs}` in minigrid's order of
registration. The rlrs package registers its `rlrs/<id>` ids with these kwargs, so that their
specs equal minigrid's (issue 41) whether or not minigrid is installed.

    /work/refvenv/bin/python scripts/minigrid_kwargs.py > crates/rl-object-grid/src/minigrid_kwargs.json

Needs minigrid 3.2.0 and gymnasium 1.4.0; the Rust test
`registry::registered_kwargs_cover_every_id` checks the file covers every id.
"""

import json
import sys

import gymnasium as gym
import minigrid

assert minigrid.__version__ == "3.2.0", minigrid.__version__

table = {}
for env_id, spec in gym.registry.items():
    if env_id.startswith(("MiniGrid-", "BabyAI-")) and "WFC" not in env_id:
        json.dumps(spec.kwargs)  # every one is plain JSON (no classes)
        table[env_id] = spec.kwargs
json.dump(table, sys.stdout, indent=1)
sys.stdout.write("\n")
