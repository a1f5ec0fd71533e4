#!/usr/bin/env bash
# Builds the example package rlrs_nchain (maturin develop, debug profile) into the virtualenv of
# crates/rl-python/ci.sh and runs its pytest suite.
#
# The virtualenv is $CARGO_TARGET_DIR/rl-python-venv (else target/rl-python-venv at the
# workspace root), with rlrs installed: when rlrs cannot be imported there, this script runs
# crates/rl-python/ci.sh first, which creates it. The package is a member of the workspace and
# the build shares its target directory, so most crates compiled for the tests and for rlrs are
# reused: rl-spaces, rl-core, rl-wrappers, rl-object-grid, rl-mujoco and the third-party ones.
# rl-domains is compiled again (the tests' build turns on its `grid-image` feature, which this
# package cannot name: it does not depend on rl-domains), and so are rl-python (without rlrs's
# module), PyO3 (maturin's develop and build give it different interpreter settings) and this
# crate. (Outside the workspace, the package compiled every rl-* crate again: this script took
# 29 s of a cold CI then, 21 s as a member.)
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
# rl-python (without rlrs's module) and the other builds' (`cargo test`'s with every feature,
# rlrs's wheel) write the same target/debug/deps/librl_python.{rlib,so}, and cargo may take
# the file another build left for its own fresh output. Removing them before and after this
# build makes each build compile its own (a few seconds).
shared_outputs() {
    rm -f "$target_dir"/debug/deps/librl_python.rlib "$target_dir"/debug/deps/librl_python.so \
        "$target_dir"/debug/librl_python.rlib "$target_dir"/debug/librl_python.so
}
echo "test.sh: building rlrs_nchain (maturin develop, debug profile)"
shared_outputs
(
    cd "$example_dir"
    # `rlrs-spaces/testing`, besides pyproject.toml's feature: `cargo test --workspace
    # --all-features` compiles rl-spaces with it, and without it here every rl-* crate would
    # be compiled again. It adds proptest strategies nothing here calls (wheel.sh, for rlrs).
    VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet \
        --features extension-module,rlrs-spaces/testing
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
