#!/usr/bin/env bash
# Builds the aarch64 (arm64) Linux wheel of rlrs on an x86-64 Linux machine and runs the
# package's pytest suite on it under qemu-user, with Debian's arm64 Python: the wheel that
# Linux aarch64 users (AWS Graviton, Ampere, a Raspberry Pi 4/5 or Jetson with a 64-bit OS,
# Linux on Apple silicon) install, tested as they would run it.
#
#     bash crates/rl-python/wheel-aarch64.sh
#
# 1. `rustup target add aarch64-unknown-linux-gnu` when that target's Rust standard library is
#    missing (it comes from rustup's own server, not from a package registry).
# 2. `wheel.sh --build-only --target aarch64-unknown-linux-gnu`: the abi3 manylinux2014 aarch64
#    wheel (glibc 2.17 and later), cross-built by maturin with zig as the linker, into
#    target/wheels/PROFILE/ beside the x86-64 one (RLRS_WHEEL_PROFILE, dev by default as in CI;
#    release for the wheel to publish).
# 3. An aarch64 userland under target/rl-aarch64/ (the first run only, then kept):
#    - qemu-user-static (Debian's amd64 package, unpacked; not installed, no binfmt_misc);
#    - sysroot/: Debian's arm64 Python 3.11 and the libraries it loads, fetched with
#      `apt-get download PKG:arm64` and unpacked with `dpkg -x` (installing python3.11:arm64
#      with apt would replace the machine's amd64 Python, so nothing is installed); qemu's
#      `-L sysroot` (QEMU_LD_PREFIX) makes the guest see it as /;
#    - site-packages/: the pinned test packages (wheel.sh's pins: gymnasium, numpy, pytest,
#      minigrid, pygame-ce, moviepy and what they need) as PyPI's aarch64 wheels, chosen by the
#      host's pip with `--platform manylinux_2_X_aarch64 --only-binary=:all:` (no source build).
# 4. Installs the rlrs wheel fresh into target/rl-aarch64/rlrs/ (pip checks that its tags fit
#    an aarch64 CPython 3.11), checks under qemu that the interpreter is aarch64, that `rlrs` is
#    imported from there with an aarch64 extension module, then runs the package's tests as
#    wheel.sh does (the benchmarks' driver's included; from a copy of the tests outside the
#    source tree, with no cargo or rustc on PATH) under qemu-aarch64, but for one
#    test that needs an RLIMIT_AS, which qemu-user does not enforce (named below). Child
#    processes: `sys.executable` is a small script that starts the same Python under qemu, and
#    the aarch64 ffmpeg that imageio-ffmpeg ships (Gymnasium's RecordVideo) runs under qemu
#    through IMAGEIO_FFMPEG_EXE.
#
# Not in CI: emulation makes the suite take minutes (measured in crates/rl-python/README.md,
# "Install"), more than CI's whole cold budget has left; run it by hand before a release or
# after changing the build. Needs an x86-64 Debian 12 (bookworm) machine with apt, root for
# the first run's `dpkg --add-architecture arm64` and `apt-get update` (the script runs them
# when root and arm64 is not yet a foreign architecture; otherwise it says what to run),
# Debian's package archive, PyPI, and rustup's server once for the aarch64 standard library.
# Idempotent: the downloads are kept under target/rl-aarch64/ and fetched again only when
# their lists below change (delete that directory to refresh them); the rlrs install and the
# test run are fresh every time. Exits non-zero when anything fails, including a pytest run
# that collected no test.
# RL_AARCH64_TESTS="test_mujoco.py test_mujoco_norms.py" runs only those files of tests/.
set -euo pipefail

crate_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_dir="$(cd "$crate_dir/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$workspace_dir/target}"
export CARGO_TARGET_DIR="$target_dir"
profile="${RLRS_WHEEL_PROFILE:-dev}"
triple=aarch64-unknown-linux-gnu
root="$target_dir/rl-aarch64"
sysroot="$root/sysroot"
qemu_dir="$root/qemu"
site="$root/site-packages"
rlrs_dir="$root/rlrs"
bin="$root/bin"
tools="$target_dir/rl-wheel-tools"

# Debian 12's arm64 CPython 3.11 and the shared libraries it and the test packages' wheels load
# (the dependency closure of python3.11-minimal and libpython3.11-stdlib, without dpkg's own).
python_version=3.11
debian_packages=(
    libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libssl3 libbz2-1.0 libcrypt1 libdb5.3 libffi8
    liblzma5 libncursesw6 libtinfo6 libnsl2 libtirpc3 libgssapi-krb5-2 libk5crypto3 libkrb5-3
    libkrb5support0 libcom-err2 libkeyutils1 libreadline8 libsqlite3-0 libuuid1
    libpython3.11-minimal libpython3.11-stdlib python3.11-minimal
)
# wheel.sh's test pins, read from wheel.sh so that the two runs test with the same packages.
pins_line="$(grep -m 1 '^test_pins=(' "$crate_dir/wheel.sh")"
if [ -z "$pins_line" ]; then
    echo "wheel-aarch64.sh: no 'test_pins=(...)' line in wheel.sh to take the test packages from" >&2
    exit 1
fi
eval "$pins_line"

if [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then
    echo "wheel-aarch64.sh: runs on x86-64 Linux (this is $(uname -s) $(uname -m)); on an aarch64 Linux, wheel.sh builds and tests the wheel natively" >&2
    exit 2
fi
for tool in apt-get apt-cache dpkg; do
    if ! command -v "$tool" > /dev/null; then
        echo "wheel-aarch64.sh: $tool not found: this script fetches Debian's arm64 packages with apt" >&2
        exit 1
    fi
done

# arm64 as a foreign architecture of apt, so that `apt-get download PKG:arm64` finds packages.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "wheel-aarch64.sh: apt does not know arm64 packages; run as root once: dpkg --add-architecture arm64 && apt-get update" >&2
        exit 1
    fi
    echo "wheel-aarch64.sh: dpkg --add-architecture arm64; apt-get update"
    dpkg --add-architecture arm64
    apt-get update -qq
fi
if ! apt-cache show "python$python_version-minimal:arm64" > /dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq
    fi
    if ! apt-cache show "python$python_version-minimal:arm64" > /dev/null 2>&1; then
        echo "wheel-aarch64.sh: apt has no python$python_version-minimal:arm64 (Debian 12's): run 'apt-get update' as root, on a Debian 12 machine" >&2
        exit 1
    fi
fi

if ! command -v rustup > /dev/null; then
    echo "wheel-aarch64.sh: rustup not found: the Rust standard library for $triple comes from 'rustup target add $triple'" >&2
    exit 1
fi
if ! rustup target list --installed | grep -qx "$triple"; then
    echo "wheel-aarch64.sh: rustup target add $triple"
    if ! rustup target add "$triple"; then
        echo "wheel-aarch64.sh: rustup could not fetch the Rust standard library for $triple; without it there is no aarch64 build" >&2
        exit 1
    fi
fi

bash "$crate_dir/wheel.sh" --build-only --target "$triple"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$workspace_dir/Cargo.toml" | head -n 1)"
wheels=("$target_dir/wheels/$profile"/rlrs-"$version"-cp310-abi3-manylinux*_aarch64.whl)
wheel="${wheels[0]}"

# The aarch64 userland: qemu-user-static and Debian's arm64 Python, unpacked, not installed.
stamp="$root/.rl-aarch64-debian"
wanted="qemu-user-static ${debian_packages[*]}"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$wanted" ] \
    || [ ! -x "$qemu_dir/usr/bin/qemu-aarch64-static" ] \
    || [ ! -x "$sysroot/usr/bin/python$python_version" ]; then
    echo "wheel-aarch64.sh: fetching qemu-user-static and Debian's arm64 Python $python_version into $root"
    rm -rf "$root/debs" "$sysroot" "$qemu_dir"
    mkdir -p "$root/debs" "$sysroot" "$qemu_dir"
    arm64=()
    for package in "${debian_packages[@]}"; do
        arm64+=("$package:arm64")
    done
    # apt downloads as the _apt user where it can; into a directory _apt cannot write, it warns
    # and downloads as the caller.
    (cd "$root/debs" && apt-get download -qq qemu-user-static "${arm64[@]}" 2>&1 \
        | { grep -v 'Download is performed unsandboxed' || true; })
    for deb in "$root/debs"/*.deb; do
        case "$(basename "$deb")" in
            qemu-user-static_*) dpkg -x "$deb" "$qemu_dir" ;;
            *) dpkg -x "$deb" "$sysroot" ;;
        esac
    done
    (cd "$root/debs" && ls) > "$root/debian-packages.txt"
    echo "$wanted" > "$stamp"
fi
qemu="$qemu_dir/usr/bin/qemu-aarch64-static"

if [ ! -x "$tools/bin/python" ]; then
    echo "wheel-aarch64.sh: no tools virtualenv $tools (wheel.sh makes it)" >&2
    exit 1
fi
# pip 23 matches a --platform only exactly: every manylinux tag that Debian 12's glibc (2.36)
# runs, and the legacy manylinux2014 alias.
platforms=()
for minor in $(seq 17 36); do
    platforms+=(--platform "manylinux_2_${minor}_aarch64")
done
platforms+=(--platform manylinux2014_aarch64)
pip_aarch64=("$tools/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check
    --only-binary=:all: "${platforms[@]}" --python-version "$python_version" --implementation cp
    --abi "cp${python_version/./}")

stamp="$site/.rl-aarch64-pins"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "${test_pins[*]}" ]; then
    echo "wheel-aarch64.sh: the aarch64 wheels of ${test_pins[*]} into $site"
    rm -rf "$site"
    "${pip_aarch64[@]}" --target "$site" "${test_pins[@]}"
    echo "${test_pins[*]}" > "$stamp"
fi

echo "wheel-aarch64.sh: installing $(basename "$wheel") into $rlrs_dir"
rm -rf "$rlrs_dir"
"${pip_aarch64[@]}" --no-deps --target "$rlrs_dir" "$wheel"

# The guest's programs, each a host script that starts an aarch64 binary under qemu, so that a
# child process started from the guest (sys.executable, ffmpeg) runs under qemu too. The Python
# script sits beside the real interpreter, which finds its standard library from there, and
# -S leaves out the site directories (Debian's /usr/lib/python3/dist-packages would otherwise
# be looked for on the host): the packages come from PYTHONPATH only.
guest_python="$sysroot/usr/bin/python$python_version-qemu"
cat > "$guest_python" <<EOF
#!/bin/sh
exec "$qemu" -L "$sysroot" -0 "\$0" "$sysroot/usr/bin/python$python_version" -S "\$@"
EOF
chmod +x "$guest_python"
ffmpegs=("$site"/imageio_ffmpeg/binaries/ffmpeg-linux-aarch64-*)
mkdir -p "$bin"
cat > "$bin/ffmpeg" <<EOF
#!/bin/sh
exec "$qemu" -L "$sysroot" "${ffmpegs[0]}" "\$@"
EOF
chmod +x "$bin/ffmpeg"

# The tests from a copy outside the source tree, laid out as wheel.sh lays them out.
run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
mkdir -p "$run_dir/a/b"
cp -r "$crate_dir/tests" "$run_dir/a/b/tests"
ln -s "$workspace_dir/testdata" "$run_dir/testdata"
cp "$crate_dir/README.md" "$run_dir/a/b/README.md"
(
    cd "$run_dir"
    export PATH="$bin:/usr/bin:/bin"
    unset CARGO CARGO_HOME RUSTUP_HOME RUSTC CARGO_TARGET_DIR PYTHONHOME
    export PYTHONPATH="$rlrs_dir:$site"
    export IMAGEIO_FFMPEG_EXE="$bin/ffmpeg"
    for tool in cargo rustc; do
        if command -v "$tool" > /dev/null; then
            echo "wheel-aarch64.sh: $tool is on the test PATH ($(command -v "$tool")); the test would not show that the wheel needs no Rust" >&2
            exit 1
        fi
    done
    "$guest_python" - "$rlrs_dir" "$site" <<'EOF'
import pathlib, platform, sys
assert platform.machine() == "aarch64", f"the interpreter runs as {platform.machine()}, not aarch64"
import numpy, rlrs
rlrs_dir, site = (pathlib.Path(p).resolve() for p in sys.argv[1:3])
where = pathlib.Path(rlrs.__file__).resolve()
assert rlrs_dir in where.parents, f"rlrs was imported from {where}, not from the wheel in {rlrs_dir}"
assert site in pathlib.Path(numpy.__file__).resolve().parents, f"numpy came from {numpy.__file__}"
core = pathlib.Path(rlrs._core.__file__)
header = core.read_bytes()[:20]
# ELF, 64-bit, little-endian, e_machine 183 (EM_AARCH64).
assert header[:5] == b"\x7fELF\x02" and int.from_bytes(header[18:20], "little") == 183, f"{core} is not an aarch64 ELF"
print(f"wheel-aarch64.sh: rlrs {rlrs.__version__} imported on {platform.machine()} "
      f"(Python {platform.python_version()}, numpy {numpy.__version__}) from {where.parent}")
EOF
    # Two tests cannot mean anything under qemu-user: each sets RLIMIT_AS in a child Python and
    # expects a vector too big for that limit refused, but qemu-user does not pass RLIMIT_AS
    # to the host (it would limit qemu's own reservations), so the limit is not enforced (the
    # guest even reads it back as unlimited) and the child makes the vector for real (2^24
    # environments, until the test's timeout kills it; 400 Humanoids, which fit). Left out
    # here, by name; they run natively in wheel.sh and CI.
    unlimited=a/b/tests/test_reliability.py::test_a_vector_too_big_for_the_memory_available_is_a_value_error
    unlimited_mujoco=a/b/tests/test_mujoco.py::test_a_vector_too_large_for_the_memory_is_an_error_not_an_exit
    echo "wheel-aarch64.sh: running pytest against the aarch64 wheel under qemu-aarch64 (without $unlimited and $unlimited_mujoco: qemu-user does not enforce RLIMIT_AS)"
    set +e
    # RL_AARCH64_TESTS: test files of tests/ to run instead of all (space-separated, for
    # instance "test_mujoco.py test_mujoco_norms.py": the emulated suite takes most of an hour).
    selected=(a/b/tests)
    if [ -n "${RL_AARCH64_TESTS:-}" ]; then
        selected=()
        for file in $RL_AARCH64_TESTS; do
            selected+=("a/b/tests/$file")
        done
    fi
    "$guest_python" -m pytest "${selected[@]}" -q -rs -p no:cacheprovider --durations=5 \
        --deselect "$unlimited" --deselect "$unlimited_mujoco"
    status=$?
    set -e
    if [ "$status" -eq 5 ]; then
        echo "wheel-aarch64.sh: pytest collected no test, which counts as a failure here" >&2
        exit 1
    fi
    exit "$status"
)
echo "wheel-aarch64.sh: the aarch64 wheel $(basename "$wheel") passes the package's tests under qemu-aarch64"
