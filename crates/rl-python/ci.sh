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
