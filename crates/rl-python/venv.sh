#!/usr/bin/env bash
# The developers' virtualenv, $CARGO_TARGET_DIR/rl-python-venv (else target/rl-python-venv at the
# workspace root), with the pinned packages below: made on the first run, the pins installed
# whenever its stamp does not match them, nothing done otherwise (idempotent).
#
# `cargo xtask ci` runs it as the step `venv`, before the tests, so that the Rust tests that
# need the MuJoCo library (rl-mujoco's tests/batch.rs and tests/traces.rs, rl-experiment's
# MuJoCo catalogue and command-line tests) find it in this virtualenv's `mujoco` package and
# run in CI instead of skipping; crates/rl-python/ci.sh (the step `python`) runs it too, and
# builds the package into the virtualenv.
#
# Needs: python3 (3.10 or later) with the venv module ($PYTHON names another), and PyPI on the
# first run.
set -euo pipefail

crate_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_dir="$(cd "$crate_dir/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$workspace_dir/target}"
venv="$target_dir/rl-python-venv"
python="${PYTHON:-python3}"

# The versions the package's suite was verified with (minigrid 3.2.0 and its pygame-ce for the
# side-by-side MiniGrid tests, tests/test_minigrid.py, and for Gymnasium's HumanRendering;
# moviepy for Gymnasium's RecordVideo; mujoco for the MuJoCo v5 ids beside Gymnasium's,
# tests/test_mujoco.py, and the Rust tests of rl-mujoco, which find its library through this
# venv; imageio for Gymnasium's MuJoCo renderer, which the MuJoCo frames use,
# tests/test_mujoco_frames.py). wheel.sh pins the same test packages.
# The installer of the pins (below).
uv_pin=uv==0.13.9
pins=(gymnasium==1.4.0 numpy==2.4.6 pytest==9.2.0 pytest-xdist==3.8.0 maturin==1.16.0 minigrid==3.2.0 pygame-ce==2.5.8 moviepy==2.2.1 mujoco==4.0.0 imageio==2.38.1)

if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "venv.sh: $python is older than Python 3.10, which rlrs needs" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "venv.sh: creating the virtualenv $venv"
    "$python" -m venv "$venv"
fi
stamp="$venv/.rl-python-pins"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "${pins[*]}" ]; then
    echo "venv.sh: installing ${pins[*]} (with $uv_pin)"
    # uv (Astral's installer, itself from PyPI, pinned) installs the pins: it downloads them in
    # parallel and unpacks faster than pip. This script from nothing, caches off: 11.9 s against
    # 19.2 s when pip installed the pins (2026-11-28, back to back; `python -m venv` is 6 s of
    # each, uv's own install 2.3 s). Neither compiles bytecode up front: Python compiles the few
    # modules the tests import when it first imports them. The virtualenv keeps its pip, which
    # maturin develop and wheel.sh use.
    "$venv/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check "$uv_pin"
    "$venv/bin/uv" pip install --quiet --no-cache --python "$venv/bin/python" "${pins[@]}"
    echo "${pins[*]}" > "$stamp"
else
    echo "venv.sh: $venv has the pinned packages"
fi
