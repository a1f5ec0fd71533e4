"""rlrs_nchain: the NChain domain, written in Rust, as Gymnasium environments.

An example of a domain author's package (``examples/python-domain`` in the rl-rs repository):
the Rust core ``rlrs_nchain._core`` registers the domain and carries rlrs's classes; importing
this package registers its ids with Gymnasium under the namespace ``nchain``::

    import gymnasium as gym
    import rlrs_nchain  # noqa: F401

    env = gym.make("nchain/NChain-v0", slip=0.1)
    envs = gym.make_vec("nchain/NChain-v0", num_envs=16, vectorization_mode="vector_entry_point")
"""

from __future__ import annotations

import rlrs

from . import _core

__all__ = ["CORE_MODULE", "NAMESPACE", "check", "ids"]

NAMESPACE = "nchain"
CORE_MODULE = "rlrs_nchain._core"


def ids() -> list[str]:
    """The ids registered in this package's Rust core."""
    return list(_core.ids())


def check(env_id: str, seed: int = 0, **params) -> tuple[bool, str]:
    """The Rust conformance checker's verdict and report for ``env_id`` built with
    ``params``."""
    return _core.check(env_id, rlrs.env.params_json(params), seed)


rlrs.register_envs(core_module=CORE_MODULE, namespace=NAMESPACE)
