#!/usr/bin/env bash
# Builds and installs the Python package rlrs (crates/rl-python, release) as the benchmarks use
# it, with `rlrs._core.RustDriver` (the vector `rlrs.RustVectorEnv` steps, driven from Rust in a
# loop; in every build). run.sh calls it; the benchmarks that time RustDriver (rlrs_bench.py,
# binding_costs.py, toy_text_bench.py, minigrid_bench.py) need an environment it installed into.
#
# Usage: benches/compare/install_rlrs.sh [PYTHON]   (default: benches/compare/.venv/bin/python)
# Environment: CARGO_TARGET_DIR (the workspace's target directory by default).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${1:-$here/.venv/bin/python}"
"$python" -m pip install --disable-pip-version-check --quiet --force-reinstall --no-deps \
    "$root/crates/rl-python"
"$python" -c 'import rlrs; assert hasattr(rlrs._core, "RustDriver"), "rlrs was built without RustDriver"'
