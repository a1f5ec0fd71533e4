"""The package around the environments: the README's example runs, ids of another Rust core
register under another namespace, and the Rust conformance checker runs by id."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import gymnasium as gym
import numpy as np
import pytest

import rlrs

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_example_runs():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, str(README), "exec"), {})
    assert "float32 1.0" in output.getvalue()


def test_ids_of_another_core_register_under_another_namespace():
    registered = rlrs.register_envs(core_module="rlrs._core", namespace="rlrs-other")
    assert registered == [f"rlrs-other/{i}" for i in rlrs.ids()]
    env = gym.make("rlrs-other/CartPole-v1")
    assert env.unwrapped._core.__class__.__module__ == "rlrs._core"
    first = env.reset(seed=3)[0]
    assert np.array_equal(first, gym.make("rlrs/CartPole-v1").reset(seed=3)[0])
    envs = gym.make_vec("rlrs-other/MountainCar-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert envs.reset(seed=1)[0].shape == (2, 2)


def test_entries_describe_every_id():
    entries = dict(rlrs.entries())
    assert list(entries) == rlrs.ids()
    assert "CartPole" in entries["CartPole-v1"]


def test_module_prefix_imports_the_package():
    env = gym.make("rlrs:rlrs/MountainCar-v0")
    observation, _ = env.reset(seed=0)
    assert observation.dtype == np.float32 and observation.shape == (2,)


def test_the_rust_checker_runs_by_id():
    ok, report = rlrs._core.check("GridWorld-4x5", seed=3)
    assert ok, report
    assert "0 failed" in report and "  ok    " in report
    with pytest.raises(KeyError, match="NoSuchId-v0"):
        rlrs._core.check("NoSuchId-v0")
    with pytest.raises(ValueError, match="not valid JSON"):
        rlrs._core.check("CartPole-v1", "{")


def test_the_python_api_page_is_current():
    # docs/python-api.md is generated from the package's source (crates/rl-python/api_page.py).
    import subprocess
    import sys

    script = pathlib.Path(__file__).resolve().parents[1] / "api_page.py"
    page = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python-api.md"
    if not page.is_file():
        pytest.skip("run from a copy of the tests without the repository's docs (wheel.sh)")
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
