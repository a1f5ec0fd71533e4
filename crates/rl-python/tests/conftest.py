"""Shared fixtures of the rlrs test suite."""

from __future__ import annotations

import json
import pathlib

import pytest

REFERENCE = pathlib.Path(__file__).resolve().parents[3] / "testdata" / "reference"


@pytest.fixture(scope="session")
def reference():
    """A loader of the reference files in testdata/reference/ by file name."""

    def load(name: str) -> dict:
        path = REFERENCE / name
        assert path.is_file(), f"missing reference file {path}"
        return json.loads(path.read_text())

    return load


# The BabyAI levels the tests over "every id" take in a normal run: one or two per level family
# (all 96 share minigrid's RoomGridLevel, observations, frames and checks; test_babyai.py steps
# levels of every family beside minigrid). RLRS_TEST_EVERY_ID=1 takes all 96, as the full run
# before a release does (crates/rl-python/README.md, "Tests").
BABYAI_SLICE = [
    f"BabyAI-{name}-v0"
    for name in (
        "GoToRedBallGrey GoToLocal GoToImpUnlock Open Pickup PutNextLocal UnlockPickup KeyInBox "
        "ActionObjDoor FindObjS5 KeyCorridorS3R1 OneRoomS8 MoveTwoAcrossS5N2 SynthLoc "
        "MiniBossLevel BossLevelNoUnlock"
    ).split()
]


def family(rust_id: str) -> str:
    """The class of environments ``rust_id`` belongs to: the entry point Gymnasium's registry
    gives the reference id (Gymnasium's and minigrid's classes; the ids of one class differ
    only in keyword arguments), else the id's first word (``GridWorld``, ``FastCartPole``)."""
    import gymnasium as gym

    try:
        import minigrid  # noqa: F401  (registers minigrid's ids)
    except ImportError:
        pass
    try:
        entry = gym.spec(rust_id).entry_point
    except gym.error.Error:
        return rust_id.split("-")[0]
    return entry if isinstance(entry, str) else f"{entry.__module__}:{entry.__qualname__}"


def every_id(ids):
    """``ids`` (id strings) for a test over every id: all of them with
    ``RLRS_TEST_EVERY_ID=1``; else the BabyAI levels of :data:`BABYAI_SLICE` and, of the other
    ids, the first of each :func:`family` (every Gymnasium and minigrid class once: 45 ids of
    113), which halves the suite's time in CI."""
    import os

    ids = list(ids)
    if os.environ.get("RLRS_TEST_EVERY_ID") == "1":
        return ids
    missing = [i for i in BABYAI_SLICE if i not in ids]
    assert not missing or not any(i.startswith("BabyAI-") for i in ids), (
        f"BABYAI_SLICE names ids that are not registered: {missing}"
    )
    seen = set()
    chosen = []
    for i in ids:
        if i.startswith("BabyAI-"):
            if i in BABYAI_SLICE:
                chosen.append(i)
            continue
        key = family(i)
        if key not in seen:
            seen.add(key)
            chosen.append(i)
    return chosen


_MUJOCO_OPENGL: list[tuple[str | None, str]] = []


def mujoco_opengl() -> tuple[str | None, str]:
    """The OpenGL backend the MuJoCo frames are drawn with here, and why there is none:
    ``(backend, "")`` with ``MUJOCO_GL`` set to it in this process, or ``(None, reason)``.
    Found as mujoco finds one, by trying: ``MUJOCO_GL``'s backend if set, else ``egl`` then
    ``osmesa`` (the headless ones), each in a fresh interpreter (a backend once imported fixes
    PyOpenGL's platform for the process) that makes a context with ``rlrs.mujoco.opengl_problem``.
    Needs the ``mujoco`` package (else ``None`` and why)."""
    if _MUJOCO_OPENGL:
        return _MUJOCO_OPENGL[0]
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("mujoco") is None:
        _MUJOCO_OPENGL.append((None, "the mujoco package is not installed"))
        return _MUJOCO_OPENGL[0]
    chosen = os.environ.get("MUJOCO_GL")
    problems = []
    for backend in [chosen] if chosen else ["egl", "osmesa"]:
        probe = (
            "import os, sys\n"
            f"os.environ['MUJOCO_GL'] = {backend!r}\n"
            "from rlrs.mujoco import opengl_problem\n"
            "problem = opengl_problem()\n"
            "print(problem or '')\n"
            "sys.exit(1 if problem else 0)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
        )
        if done.returncode == 0:
            os.environ["MUJOCO_GL"] = backend
            _MUJOCO_OPENGL.append((backend, ""))
            return _MUJOCO_OPENGL[0]
        problems.append(done.stdout.strip() or done.stderr.strip()[-300:])
    _MUJOCO_OPENGL.append(
        (None, "no OpenGL backend for MuJoCo's renderer here (" + "; ".join(problems) + ")")
    )
    return _MUJOCO_OPENGL[0]


def needs_mujoco_opengl():
    """A mark that skips a test, with the reason, where MuJoCo's renderer has no OpenGL
    (:func:`mujoco_opengl`): CI machines without libEGL or OSMesa."""
    backend, reason = mujoco_opengl()
    return pytest.mark.skipif(backend is None, reason=reason)
