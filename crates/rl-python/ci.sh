#!/usr/bin/env bash
# The Python package rlrs, tested as users install it (`cargo xtask python`, CI's `python` step):
#
# 1. wheel.sh: builds the abi3 wheel and the sdist (dev profile, the host's linker: it reuses
#    what `cargo test` compiled), installs the wheel into the developers' virtualenv (below;
#    RL_WHEEL_TEST_VENV), over whatever rlrs was there, and runs the package's pytest suite
#    against it with no cargo or rustc on PATH. That is the suite's one run: the tests run
#    against the wheel as built, the benchmarks' driver (`rlrs._core.RustDriver`, in every
#    build) included, not against a second, `maturin develop` build. (The manylinux2014 wheel
#    users get, linked by zig and tested in a fresh virtualenv, is
#    `RLRS_WHEEL_PROFILE=release bash crates/rl-python/wheel.sh`.)
# 2. Runs, in that virtualenv with that wheel, what needs the repository around it: the test
#    that docs/python-api.md is current, and a slice of FUZZ_OPERATIONS operations (3,000
#    unless set) of the fuzz target (fuzz/fuzz_rlrs.py, driver included; any finding fails;
#    docs/fuzzing.md gives the longer runs).
# 3. examples/python-domain/test.sh: the example of a domain written in Rust outside the
#    workspace, built as a package of its own (maturin develop, debug, same target directory)
#    and tested with pytest.
#
# Idempotent: the developers' virtualenv lives under the cargo target directory
# ($CARGO_TARGET_DIR, else target/ at the workspace root) in rl-python-venv/, is created on the
# first run, and gets the pinned packages whenever its stamp does not match them (venv.sh). Exits
# non-zero when anything fails, including a pytest run that collected no test (pytest's exit
# code 5).
#
# Needs: python3 (3.10 or later) with the venv module, cargo, and access to PyPI on first run.
set -euo pipefail

crate_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_dir="$(cd "$crate_dir/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$workspace_dir/target}"
export CARGO_TARGET_DIR="$target_dir"
venv="$target_dir/rl-python-venv"
# The developers' virtualenv with the pinned packages (venv.sh; CI's step `venv` made it already).
bash "$crate_dir/venv.sh"

echo "ci.sh: the wheel, and the package's tests against it in $venv (wheel.sh)"
RL_WHEEL_TEST_VENV="$venv" bash "$crate_dir/wheel.sh"

echo "ci.sh: docs/python-api.md is current"
"$venv/bin/python" "$crate_dir/api_page.py" --check

operations="${FUZZ_OPERATIONS:-3000}"
echo "ci.sh: the Python fuzz target, $operations operations (docs/fuzzing.md, 'The Python package')"
"$venv/bin/python" "$crate_dir/fuzz/fuzz_rlrs.py" --operations "$operations" --seed 1 --jobs 2

echo "ci.sh: the example domain package (examples/python-domain/test.sh)"
bash "$workspace_dir/examples/python-domain/test.sh"
