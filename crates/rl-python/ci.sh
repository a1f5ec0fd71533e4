#!/usr/bin/env bash
# The Python package rlrs, tested as users install it (`cargo xtask python`, CI's `python` step):
#
# 1. wheel.sh: builds the abi3 manylinux2014 wheel and the sdist (maturin with its zig linker,
#    dev profile), installs the wheel into a fresh virtualenv and runs the package's pytest
#    suite against it with no cargo or rustc on PATH. That is the suite's one run: the tests
#    run against the wheel as shipped, not against a second, `maturin develop` build (but the
#    driver's tests, step 2: the wheel has no driver).
# 2. Builds the package into the developers' virtualenv (below) with `maturin develop` (dev
#    profile) and the cargo feature `bench-driver`, which adds the benchmarks' driver
#    (`rlrs._core.RustDriver`) that the wheel leaves out, and runs there what needs the
#    repository around it or the driver: the test that docs/python-api.md is current, the
#    driver's tests (tests/test_driver.py), and a 10^4-operation slice of the fuzz target
#    (fuzz/fuzz_rlrs.py, driver included; any finding fails).
# 3. examples/python-domain/test.sh: the example of a domain written in Rust outside the
#    workspace, built as a package of its own (maturin develop, debug, same target directory)
#    and tested with pytest.
#
# Idempotent: the developers' virtualenv lives under the cargo target directory
# ($CARGO_TARGET_DIR, else target/ at the workspace root) in rl-python-venv/, is created on the
# first run, and gets the pinned packages below whenever its stamp does not match them. Exits
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
python="${PYTHON:-python3}"

# The versions this suite was verified with (minigrid 3.2.0 and its pygame-ce for the side-by-side
# MiniGrid tests, tests/test_minigrid.py, and for Gymnasium's HumanRendering; moviepy for
# Gymnasium's RecordVideo; mujoco for the MuJoCo v5 ids beside Gymnasium's, tests/test_mujoco.py,
# and the Rust tests of rl-mujoco, which find its library through this venv; imageio for
# Gymnasium's MuJoCo renderer, which the MuJoCo frames use, tests/test_mujoco_frames.py).
# wheel.sh pins the same test packages.
pins=(gymnasium==1.4.0 numpy==2.4.6 pytest==9.2.0 pytest-xdist==3.8.0 maturin==1.16.0 minigrid==3.2.0 pygame-ce==2.5.8 moviepy==2.2.1 mujoco==4.0.0 imageio==2.38.1)

if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "ci.sh: $python is older than Python 3.10, which rlrs needs" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "ci.sh: creating the virtualenv $venv"
    "$python" -m venv "$venv"
fi
stamp="$venv/.rl-python-pins"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "${pins[*]}" ]; then
    echo "ci.sh: installing ${pins[*]}"
    # --no-compile: no bytecode for every module up front (half of pip's time here); Python
    # compiles the few modules the tests import when it first imports them.
    "$venv/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check "${pins[@]}"
    echo "${pins[*]}" > "$stamp"
fi

echo "ci.sh: the wheel, and the package's tests against it (wheel.sh)"
bash "$crate_dir/wheel.sh"

echo "ci.sh: building rlrs with the benchmarks' driver into $venv (maturin develop, feature bench-driver)"
(
    cd "$crate_dir"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet \
        --features extension-module,rlrs-module,bench-driver
)
if ! "$venv/bin/python" -c 'import rlrs; assert hasattr(rlrs._core, "RustDriver")'; then
    echo "ci.sh: the build with the feature bench-driver has no rlrs._core.RustDriver" >&2
    exit 1
fi

echo "ci.sh: docs/python-api.md is current, and the driver's tests"
(cd "$crate_dir" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/test_package.py::test_the_python_api_page_is_current tests/test_driver.py)

echo "ci.sh: the Python fuzz target, 10^4 operations (docs/fuzzing.md, 'The Python package')"
"$venv/bin/python" "$crate_dir/fuzz/fuzz_rlrs.py" --operations 10000 --seed 1 --jobs 2

echo "ci.sh: the example domain package (examples/python-domain/test.sh)"
bash "$workspace_dir/examples/python-domain/test.sh"
