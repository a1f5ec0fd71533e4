#!/usr/bin/env bash
# Builds the Python package rlrs into its own virtualenv and runs its pytest suite and a
# 10^4-operation slice of its fuzz target (fuzz/fuzz_rlrs.py; any finding fails).
#
# Idempotent: the virtualenv lives under the cargo target directory
# ($CARGO_TARGET_DIR, else target/ at the workspace root) in rl-python-venv/, is created on the
# first run, and gets the pinned packages below whenever its stamp does not match them; the
# package is rebuilt by `maturin develop` (debug profile, same target directory, so cargo's
# incremental build is reused). Exits non-zero when anything fails, including a pytest run that
# collected no test (pytest's exit code 5).
#
# Then it runs examples/python-domain/test.sh: the example of a domain written in Rust outside
# the workspace, built as a package of its own (maturin develop, debug, same target directory,
# about 45 s the first time: the rl-* crates are compiled again for it) and tested with pytest.
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
# MiniGrid tests, tests/test_minigrid.py).
pins=(gymnasium==1.4.0 numpy==2.4.6 pytest==9.2.0 maturin==1.16.0 minigrid==3.2.0 pygame-ce==2.5.8)

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

echo "ci.sh: building rlrs (maturin develop, debug profile)"
# A cdylib's file name carries no hash: the domain-author example built below (its own
# workspace, sharing this target directory) links rl-python without the `rlrs-module` feature
# and overwrites librl_python.so, which cargo would then take for this build's fresh output.
# Removing it makes cargo link rlrs's own again (a link, not a rebuild).
rm -f "$target_dir/debug/librl_python.so" "$target_dir/debug/deps/librl_python.so"
(
    cd "$crate_dir"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet
)

echo "ci.sh: running pytest"
set +e
(cd "$crate_dir" && "$venv/bin/python" -m pytest tests -q -p no:cacheprovider)
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "ci.sh: pytest collected no test, which counts as a failure here" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi

echo "ci.sh: the Python fuzz target, 10^4 operations (docs/fuzzing.md, 'The Python package')"
"$venv/bin/python" "$crate_dir/fuzz/fuzz_rlrs.py" --operations 10000 --seed 1 --jobs 2

echo "ci.sh: the example domain package (examples/python-domain/test.sh)"
bash "$workspace_dir/examples/python-domain/test.sh"
