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
