"""The MuJoCo ids' sums of products accumulate as NumPy's own operations do in this process.

Gymnasium's Ant, Humanoid, Pusher, Reacher and Swimmer call ``np.linalg.norm``, which is
``sqrt(x.dot(x))``, where the BLAS kernel NumPy picks for the processor adds each product with
one rounding (fused multiply-adds: OpenBLAS's kernels for x86-64 with AVX2 and FMA) or with
two (its AArch64 kernel under qemu); Humanoid's centre of mass is ``np.einsum("b,bj->j",
...)``, which NumPy's own build fuses on AArch64 and not on x86-64. The package asks NumPy
when it makes its first MuJoCo environment or vector (``rlrs.mujoco.match_numpys_arithmetic``).
Here: the probe sets the ways NumPy's ``dot`` and ``einsum`` agree with on random cases, from
either way set before, and the other way shows beside Gymnasium's (Ant's
``distance_from_origin``, Humanoid's ``x_velocity``), so the choice is what keeps those ids bit
for bit.
"""

from __future__ import annotations

from fractions import Fraction

import gymnasium as gym
import numpy as np
import pytest

import rlrs

pytest.importorskip("mujoco")


def accumulate(xs, ys, fused: bool) -> float:
    """``x0*y0 + x1*y1 + ...`` from 0, each product added with one rounding (computed exactly
    and rounded once) or rounded and then added."""
    total = 0.0
    for x, y in zip(xs, ys):
        x, y = float(x), float(y)
        total = float(Fraction(x) * Fraction(y) + Fraction(total)) if fused else total + x * y
    return total


def numpys_way(operation: str) -> str:
    """The way NumPy's ``operation`` agrees with on every one of a few hundred random cases
    where the two ways differ: ``x.dot(x)`` of 2 and 3 entries, or Humanoid's
    ``einsum("b,bj->j")`` of 14 masses and 14 x 3 positions, column by column."""
    rng = np.random.default_rng(3)
    agree = {"fused": 0, "separate": 0}
    differing = 0
    for _ in range(300):
        if operation == "dot":
            x = rng.normal(size=int(rng.integers(2, 4))) * rng.uniform(0.1, 10.0)
            cases = [(float(x.dot(x)), x, x)]
        else:
            masses, positions = rng.uniform(0.1, 10.0, size=14), rng.normal(size=(14, 3))
            result = np.einsum("b,bj->j", masses, positions)
            cases = [(float(result[j]), masses, positions[:, j]) for j in range(3)]
        for numpys, xs, ys in cases:
            fused, separate = accumulate(xs, ys, True), accumulate(xs, ys, False)
            if fused == separate:
                continue
            differing += 1
            agree["fused"] += numpys == fused
            agree["separate"] += numpys == separate
    assert differing > 50, differing
    ways = [way for way, count in agree.items() if count == differing]
    assert len(ways) == 1, f"NumPy's {operation} agrees with {agree} of {differing}"
    return ways[0]


@pytest.mark.parametrize("operation", ["dot", "einsum"])
def test_the_package_accumulates_as_numpy(operation):
    import rlrs.mujoco

    gym.make("rlrs/Hopper-v5")  # the first MuJoCo environment: the probe has run
    expected = numpys_way(operation)
    assert rlrs._core.mujoco_accumulation(operation) == expected
    # From either way set before, the probe finds NumPy's.
    for before in ["fused", "separate"]:
        rlrs._core.set_mujoco_accumulation(operation, before)
        rlrs.mujoco._MATCHED.discard("rlrs._core")
        rlrs.mujoco.match_numpys_arithmetic()
        assert rlrs._core.mujoco_accumulation(operation) == expected, before


@pytest.mark.parametrize(
    "operation, env_id, key",
    [("dot", "Ant-v5", "distance_from_origin"), ("einsum", "Humanoid-v5", "x_velocity")],
)
def test_the_other_way_differs_from_gymnasium(operation, env_id, key):
    ours, theirs = gym.make(f"rlrs/{env_id}"), gym.make(env_id)
    chosen = rlrs._core.mujoco_accumulation(operation)
    other = "separate" if chosen == "fused" else "fused"
    rlrs._core.set_mujoco_accumulation(operation, other)
    try:
        ours.reset(seed=11)
        theirs.reset(seed=11)
        theirs.action_space.seed(11)
        differing = 0
        for step in range(300):
            action = theirs.action_space.sample()
            mine = ours.step(action)
            expected = theirs.step(action)
            # The observations do not read these sums: they stay equal.
            assert mine[0].tobytes() == expected[0].tobytes(), step
            differing += mine[4][key] != expected[4][key]
            if mine[2] or mine[3]:
                break
        assert differing > 0, f"the other way never showed in {step + 1} steps"
    finally:
        rlrs._core.set_mujoco_accumulation(operation, chosen)


def test_bad_words_are_value_errors_naming_the_choices():
    with pytest.raises(ValueError, match="fused"):
        rlrs._core.set_mujoco_accumulation("dot", "fast")
    with pytest.raises(ValueError, match="einsum"):
        rlrs._core.set_mujoco_accumulation("matmul", "fused")
    with pytest.raises(ValueError, match="einsum"):
        rlrs._core.mujoco_accumulation("matmul")
