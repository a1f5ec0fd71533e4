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

# rl-python's library is a cdylib as well as an rlib, so its files carry no hash: this build's
# rl-python (compiled against this package's copy of rl-core) and the workspace's (`cargo
# test`, rlrs) write the same target/debug/deps/librl_python.{rlib,so}, and cargo takes the
# file another build left for its own fresh output ("multiple different versions of crate
# rl_core" on the next run). Removing them before and after this build makes each build
# compile its own (a few seconds).
shared_outputs() {
    rm -f "$target_dir"/debug/deps/librl_python.rlib "$target_dir"/debug/deps/librl_python.so \
        "$target_dir"/debug/librl_python.rlib "$target_dir"/debug/librl_python.so
}
echo "test.sh: building rlrs_nchain (maturin develop, debug profile)"
shared_outputs
(
    cd "$example_dir"
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet
)
shared_outputs

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
