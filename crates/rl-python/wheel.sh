#!/usr/bin/env bash
# Builds rlrs as Python users install it, a wheel, and tests that wheel where no Rust is.
#
# 1. In a tools virtualenv (target/rl-wheel-tools: maturin and ziglang, pinned below), builds an
#    abi3 wheel for manylinux2014 (glibc 2.17 and later, so any Linux of the last decade) with
#    maturin's zig linker, and a source distribution, into target/wheels/.
# 2. Makes a fresh virtualenv (target/rl-wheel-test-venv, removed and made again on every run),
#    installs the wheel and the pinned test packages into it, and runs the package's pytest
#    suite against the installed wheel with a PATH that has no cargo or rustc on it (the script
#    checks that neither is found, and that `rlrs` is imported from the virtualenv, not from
#    the source tree), and that the wheel has no benchmark driver (`rlrs._core.RustDriver`, the
#    cargo feature `bench-driver`, which only the benchmarks' build and ci.sh turn on; its tests,
#    tests/test_driver.py, are left out here and run by ci.sh).
# 3. Checks that the source distribution holds the Rust crates the package builds from.
#
# CI (`cargo xtask ci`) builds the wheel in the dev profile (`--profile dev`, unoptimised: it
# tests the packaging, not the speed) to stay within its time. A release wheel, as published:
#
#     RLRS_WHEEL_PROFILE=release bash crates/rl-python/wheel.sh
#
# (.github/workflows/wheels.yml builds release wheels for Linux, macOS and Windows.)
#
# Idempotent; needs python3 (3.10 or later) with venv, cargo, and PyPI on the first run.
set -euo pipefail

crate_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_dir="$(cd "$crate_dir/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$workspace_dir/target}"
export CARGO_TARGET_DIR="$target_dir"
python="${PYTHON:-python3}"
profile="${RLRS_WHEEL_PROFILE:-dev}"
tools="$target_dir/rl-wheel-tools"
out="$target_dir/wheels"
venv="$target_dir/rl-wheel-test-venv"

tool_pins=(maturin==1.16.0 ziglang==0.17.1)
test_pins=(gymnasium==1.4.0 numpy==2.4.6 pytest==9.2.0 minigrid==3.2.0 pygame-ce==2.5.8 moviepy==2.2.1 mujoco==4.0.0)

if [ ! -x "$tools/bin/python" ]; then
    echo "wheel.sh: creating the tools virtualenv $tools"
    "$python" -m venv "$tools"
fi
stamp="$tools/.rl-wheel-pins"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "${tool_pins[*]}" ]; then
    echo "wheel.sh: installing ${tool_pins[*]}"
    "$tools/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check "${tool_pins[@]}"
    echo "${tool_pins[*]}" > "$stamp"
fi

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$workspace_dir/Cargo.toml" | head -n 1)"
rm -f "$out"/rlrs-"$version"-*.whl "$out"/rlrs-"$version".tar.gz
echo "wheel.sh: building the abi3 manylinux2014 wheel ($profile profile) and the sdist into $out"
(
    cd "$crate_dir"
    PATH="$tools/bin:$PATH" "$tools/bin/maturin" build --quiet --zig --compatibility manylinux2014 \
        --profile "$profile" --out "$out"
    PATH="$tools/bin:$PATH" "$tools/bin/maturin" sdist --out "$out"
)
wheels=("$out"/rlrs-"$version"-cp310-abi3-manylinux2014_x86_64*.whl)
if [ ! -f "${wheels[0]}" ]; then
    echo "wheel.sh: no abi3 manylinux2014 wheel in $out:" >&2
    ls "$out" >&2
    exit 1
fi
wheel="${wheels[0]}"
sdist="$out/rlrs-$version.tar.gz"
echo "wheel.sh: built $(basename "$wheel") and $(basename "$sdist")"

echo "wheel.sh: a fresh virtualenv $venv with the wheel"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check "$wheel" "${test_pins[@]}"

# The package's tests against the installed wheel, with no Rust toolchain to be found: only the
# virtualenv's and the system's own directories on PATH, and from a directory outside the
# source tree so that `import rlrs` cannot find crates/rl-python/python/rlrs.
run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
cp -r "$crate_dir/tests" "$run_dir/tests"
# The tests find testdata/reference/ three levels above their own file.
mkdir -p "$run_dir/a/b"
mv "$run_dir/tests" "$run_dir/a/b/tests"
ln -s "$workspace_dir/testdata" "$run_dir/testdata"
# test_package.py reads the package's README beside its tests directory.
cp "$crate_dir/README.md" "$run_dir/a/b/README.md"
bare_path="$venv/bin:/usr/bin:/bin"
(
    cd "$run_dir"
    export PATH="$bare_path"
    unset CARGO CARGO_HOME RUSTUP_HOME RUSTC CARGO_TARGET_DIR
    for tool in cargo rustc; do
        if command -v "$tool" > /dev/null; then
            echo "wheel.sh: $tool is on the test PATH ($(command -v "$tool")); the test would not show that the wheel needs no Rust" >&2
            exit 1
        fi
    done
    "$venv/bin/python" - "$venv" <<'EOF'
import pathlib, sys
import rlrs
venv = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(rlrs.__file__).resolve()
assert venv in where.parents, f"rlrs was imported from {where}, not from the wheel in {venv}"
assert not hasattr(rlrs._core, "RustDriver"), "the wheel has the benchmarks' RustDriver (feature bench-driver)"
print(f"wheel.sh: rlrs {rlrs.__version__} imported from {where.parent}")
EOF
    echo "wheel.sh: running pytest against the wheel"
    set +e
    "$venv/bin/python" -m pytest a/b/tests -q -p no:cacheprovider --ignore=a/b/tests/test_driver.py
    status=$?
    set -e
    if [ "$status" -eq 5 ]; then
        echo "wheel.sh: pytest collected no test, which counts as a failure here" >&2
        exit 1
    fi
    exit "$status"
)

echo "wheel.sh: checking the sdist's contents"
listing="$(tar -tzf "$sdist")"
for crate in rl-spaces rl-core rl-wrappers rl-domains rl-python; do
    if ! grep -q "$crate/Cargo.toml$" <<< "$listing"; then
        echo "wheel.sh: the sdist has no $crate/Cargo.toml; it cannot be built from source" >&2
        exit 1
    fi
done
echo "wheel.sh: the wheel installs and passes the tests without Rust; the sdist holds the crates"
