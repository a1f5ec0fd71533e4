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


def every_id(ids):
    """``ids`` (id strings) for a test over every id: all of them with
    ``RLRS_TEST_EVERY_ID=1``, else every id but the BabyAI levels outside
    :data:`BABYAI_SLICE`."""
    import os

    ids = list(ids)
    if os.environ.get("RLRS_TEST_EVERY_ID") == "1":
        return ids
    missing = [i for i in BABYAI_SLICE if i not in ids]
    assert not missing or not any(i.startswith("BabyAI-") for i in ids), (
        f"BABYAI_SLICE names ids that are not registered: {missing}"
    )
    return [i for i in ids if not i.startswith("BabyAI-") or i in BABYAI_SLICE]
