#!/usr/bin/env bash
# Builds rlrs as Python users install it, a wheel, and tests that wheel where no Rust is.
#
#     bash crates/rl-python/wheel.sh [--build-only] [--target TRIPLE]
#
# 1. In a tools virtualenv (target/rl-wheel-tools: maturin, and ziglang for the manylinux2014
#    builds, pinned below; for a dev wheel of this machine, the maturin of RL_WHEEL_TEST_VENV's
#    virtualenv when it is the pinned one), builds an abi3 wheel and a source distribution into
#    target/wheels/PROFILE/ (dev or release, below: the two profiles' wheels may have the same
#    file name, so each has its own directory and a CI run never replaces a release wheel with
#    an unoptimised one). A release wheel, and any wheel for another machine, is a manylinux2014
#    wheel (glibc 2.17 and later, so any Linux of the last decade), linked by maturin's zig
#    linker. A dev wheel for this machine is linked by the host's own linker and tagged
#    `linux_ARCH` (for this machine's glibc): that build is the one CI makes, because it reuses
#    what `cargo test` already compiled for the host (zig builds for an explicit target, in a
#    target directory of its own, so every dependency is compiled again: 55 s of a cold CI).
# 2. Installs the wheel and the pinned test packages into a fresh virtualenv
#    (target/rl-wheel-test-venv, removed and made again on every run), or into the existing
#    virtualenv RL_WHEEL_TEST_VENV names (CI passes the developers' virtualenv of venv.sh, which
#    has the same pins, rather than downloading and unpacking them a second time: 26 s of a cold
#    CI; the wheel is reinstalled over whatever rlrs was there, then pip checks its
#    requirements), and runs the package's pytest suite against the installed wheel with a PATH
#    that has no cargo or rustc on it (the script checks that neither is found, and that `rlrs`
#    is imported from the virtualenv, not from the source tree), the tests of the benchmarks'
#    driver (`rlrs._core.RustDriver`, in every build) included.
# 3. Checks that the source distribution holds the Rust crates the package builds from.
#
# --build-only stops after step 1 (no virtualenv, no PyPI but for the tools on the first run).
# --target TRIPLE builds for aarch64-unknown-linux-gnu or x86_64-unknown-linux-gnu (the default
# is this machine's); for the other machine it cross-builds, with the Rust standard library of
# `rustup target add TRIPLE` and zig as the linker. This script cannot test a wheel for another
# machine, so that needs --build-only: wheel-aarch64.sh builds the aarch64 wheel this way and
# runs the package's tests on it under qemu-user.
#
# CI (`cargo xtask ci`) builds the wheel in the dev profile (`--profile dev`, unoptimised: it
# tests the packaging, not the speed) to stay within its time, into target/wheels/dev/. A
# release wheel, as published (manylinux2014, zig), tested in a fresh virtualenv, into
# target/wheels/release/:
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
out="$target_dir/wheels/$profile"
venv="${RL_WHEEL_TEST_VENV:-$target_dir/rl-wheel-test-venv}"

build_only=0
host_triple="$(uname -m)-unknown-linux-gnu"
triple="$host_triple"
while [ "$#" -gt 0 ]; do
    case "$1" in
        --build-only) build_only=1 ;;
        --target)
            if [ "$#" -lt 2 ]; then
                echo "wheel.sh: --target needs a target triple" >&2
                exit 2
            fi
            triple="$2"
            shift
            ;;
        *)
            echo "wheel.sh: unknown argument '$1' (usage: wheel.sh [--build-only] [--target TRIPLE])" >&2
            exit 2
            ;;
    esac
    shift
done
case "$triple" in
    x86_64-unknown-linux-gnu) arch=x86_64 ;;
    aarch64-unknown-linux-gnu) arch=aarch64 ;;
    *)
        echo "wheel.sh: --target $triple is not one this script builds (x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu)" >&2
        exit 2
        ;;
esac
case "$profile" in
    dev | release) ;;
    *)
        echo "wheel.sh: RLRS_WHEEL_PROFILE=$profile is neither dev nor release" >&2
        exit 2
        ;;
esac
target_args=()
if [ "$triple" != "$host_triple" ]; then
    target_args=(--target "$triple")
fi
# manylinux2014 through zig for the wheels users get and for other machines; the host's linker
# for CI's dev wheel (see the header).
if [ "$profile" = release ] || [ "$triple" != "$host_triple" ]; then
    linking=(--zig --compatibility manylinux2014)
    tag=manylinux2014
    tag_glob=manylinux
else
    linking=(--compatibility linux)
    tag=linux
    tag_glob=linux
    # The features the test step's build (`cargo test --workspace --all-features`) gives the
    # crates below rl-python, besides pyproject.toml's own two (maturin's --features replaces
    # those): with the same features, the wheel's build reuses every rl-* crate the tests
    # compiled and builds pyo3 and rl-python alone (13 s in a cold CI, against 26 s when it
    # built the rl-* crates again). `testing` adds rl-spaces' proptest strategies, which nothing in the
    # extension module calls, and `grid-image` GridWorld's image representation for Rust users;
    # neither changes what the package does. A feature that a future dev-dependency turns on
    # only makes this build slower, never different in behaviour.
    if ! grep -qx 'features = \["extension-module", "rlrs-module"\]' "$crate_dir/pyproject.toml"; then
        echo "wheel.sh: pyproject.toml's features are no longer extension-module and rlrs-module: give the dev build's --features below the new ones" >&2
        exit 1
    fi
    linking+=(--features extension-module,rlrs-module,rl-spaces/testing,rl-domains/grid-image)
fi
if [ "$build_only" -eq 0 ] && [ "$triple" != "$host_triple" ]; then
    echo "wheel.sh: the $arch wheel cannot be tested on this $(uname -m) machine by wheel.sh: add --build-only (wheel-aarch64.sh builds and tests the aarch64 wheel under qemu-user)" >&2
    exit 2
fi
if command -v rustup > /dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    echo "wheel.sh: the Rust standard library for $triple is not installed: run 'rustup target add $triple'" >&2
    exit 1
fi

tool_pins=(maturin==1.16.0)
if [ "$tag" = manylinux2014 ]; then
    tool_pins+=(ziglang==0.17.1)
fi
test_pins=(gymnasium==1.4.0 numpy==2.4.6 pytest==9.2.0 pytest-xdist==3.8.0 minigrid==3.2.0 pygame-ce==2.5.8 moviepy==2.2.1 mujoco==4.0.0 imageio==2.38.1)

# A build for this machine needs maturin alone, and the virtualenv RL_WHEEL_TEST_VENV names
# (CI's: venv.sh's, which pins the same maturin) may have it: then that maturin builds the wheel
# and no tools virtualenv is made (9 s of a cold CI).
maturin_pin="${tool_pins[0]#maturin==}"
if [ "${#tool_pins[@]}" -eq 1 ] && [ -n "${RL_WHEEL_TEST_VENV:-}" ] \
    && [ "$("$venv/bin/maturin" --version 2> /dev/null || true)" = "maturin $maturin_pin" ]; then
    tools="$venv"
    echo "wheel.sh: maturin $maturin_pin of $venv (RL_WHEEL_TEST_VENV)"
else
    if [ ! -x "$tools/bin/python" ]; then
        echo "wheel.sh: creating the tools virtualenv $tools"
        "$python" -m venv "$tools"
    fi
    # The stamp lists the pins installed, one per line: a dev build after a release build
    # needs nothing more.
    stamp="$tools/.rl-wheel-pins"
    missing=()
    for pin in "${tool_pins[@]}"; do
        grep -qxF "$pin" "$stamp" 2> /dev/null || missing+=("$pin")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "wheel.sh: installing ${missing[*]}"
        "$tools/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check "${missing[@]}"
        printf '%s\n' "${missing[@]}" >> "$stamp"
    fi
fi

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$workspace_dir/Cargo.toml" | head -n 1)"
# Only this target's wheel is replaced: the other machine's wheel of the same profile stays.
rm -f "$out"/rlrs-"$version"-*_"$arch".whl "$out"/rlrs-"$version".tar.gz
echo "wheel.sh: building the abi3 $tag $arch wheel ($profile profile) and the sdist into $out"
(
    cd "$crate_dir"
    PATH="$tools/bin:$PATH" "$tools/bin/maturin" build --quiet "${linking[@]}" \
        ${target_args[@]+"${target_args[@]}"} --profile "$profile" --out "$out"
    PATH="$tools/bin:$PATH" "$tools/bin/maturin" sdist --out "$out"
)
wheels=("$out"/rlrs-"$version"-cp310-abi3-"$tag_glob"*_"$arch".whl)
if [ ! -f "${wheels[0]}" ]; then
    echo "wheel.sh: no abi3 $tag $arch wheel in $out:" >&2
    ls "$out" >&2
    exit 1
fi
wheel="${wheels[0]}"
sdist="$out/rlrs-$version.tar.gz"
echo "wheel.sh: built $wheel and $(basename "$sdist")"
if [ "$build_only" -eq 1 ]; then
    exit 0
fi

pip=("$venv/bin/python" -m pip --disable-pip-version-check)
if [ -n "${RL_WHEEL_TEST_VENV:-}" ]; then
    if [ ! -x "$venv/bin/python" ]; then
        echo "wheel.sh: RL_WHEEL_TEST_VENV=$venv is not a virtualenv (no bin/python)" >&2
        exit 1
    fi
    echo "wheel.sh: the wheel in the virtualenv $venv (RL_WHEEL_TEST_VENV)"
    # The wheel replaces whatever rlrs is there (a `maturin develop` build, an older wheel);
    # then its requirements and the test pins are resolved as in a fresh virtualenv, which
    # installs nothing where they are met, and pip checks the whole environment.
    "${pip[@]}" install --quiet --no-compile --no-deps --force-reinstall "$wheel"
    "${pip[@]}" install --quiet --no-compile "$wheel" "${test_pins[@]}"
    "${pip[@]}" check
else
    echo "wheel.sh: a fresh virtualenv $venv with the wheel"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "${pip[@]}" install --quiet --no-compile "$wheel" "${test_pins[@]}"
fi

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
print(f"wheel.sh: rlrs {rlrs.__version__} imported from {where.parent}")
EOF
    echo "wheel.sh: running pytest against the wheel"
    set +e
    # pytest-xdist: the ~1,000 tests (most of them side by side with the references) on every
    # core, about half the time on two (`-n 0` runs them in this process).
    "$venv/bin/python" -m pytest a/b/tests -q -p no:cacheprovider -n "${RL_PYTEST_WORKERS:-auto}"
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
