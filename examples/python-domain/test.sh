#!/usr/bin/env bash
# Builds the example package rlrs_nchain (maturin develop, debug profile) into the virtualenv of
# crates/rl-python/ci.sh and runs its pytest suite.
#
# The virtualenv is $CARGO_TARGET_DIR/rl-python-venv (else target/rl-python-venv at the
# workspace root), with rlrs installed: when rlrs cannot be imported there, this script runs
# crates/rl-python/ci.sh first, which creates it. The build shares that target directory, so the
# dependencies compiled for rlrs are reused (Cargo.lock here pins the workspace's versions).
# Exits non-zero when anything fails, including a pytest run that collected no test.
set -euo pipefail

example_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_dir="$(cd "$example_dir/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$workspace_dir/target}"
export CARGO_TARGET_DIR="$target_dir"
venv="$target_dir/rl-python-venv"

if ! "$venv/bin/python" -c 'import rlrs' 2>/dev/null; then
    echo "test.sh: rlrs is not installed in $venv; running crates/rl-python/ci.sh first"
    bash "$workspace_dir/crates/rl-python/ci.sh"
fi

echo "test.sh: building rlrs_nchain (maturin develop, debug profile)"
(
    cd "$example_dir"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet
)

echo "test.sh: running pytest"
set +e
(cd "$example_dir" && "$venv/bin/python" -m pytest tests -q -p no:cacheprovider)
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "test.sh: pytest collected no test, which counts as a failure here" >&2
    exit 1
fi
exit "$status"
