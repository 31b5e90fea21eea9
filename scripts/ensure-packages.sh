#!/bin/sh
# `make deps`: the Debian/Ubuntu packages that make demo and make check need, installed
# where missing, in one step (make demo and make check run it first).  As root it runs
# apt-get; otherwise it prints the exact apt-get line and fails.  The plain build
# (make, make install, make check-lib) never runs it.
# Usage: scripts/ensure-packages.sh [extra packages...]
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

# The plain build and its tests: compilers, pkg-config, xz (the corpus), GoogleTest.
# clang: the CUDA backend's kernels as PTX (the workbench configures --enable-cuda=auto).
# libbenchmark-dev: make bench.  nasm: FFmpeg's x86 assembly.
packages="make g++ clang pkg-config xz-utils libgtest-dev libbenchmark-dev nasm"
# float_adm_score --scale: FFmpeg's libswscale (configure finds it where installed; the
# plain build goes without it where not).
packages="$packages libswscale-dev"
# The embedded ffmpeg's codec and filter libraries (scripts/ffmpeg-configure.sh).
packages="$packages zlib1g-dev libdav1d-dev libsvtav1enc-dev libvpx-dev libaom-dev libzimg-dev"
# make check: the Python package and its tests (numpy for the package itself, which
# check-install imports from the .deb), the option docs check.
packages="$packages python3 python3-numpy python3-distributed python3-pytest chromium"
packages="$packages $*"
# Where the distribution has them: libvmaf-dev (FFmpeg's libvmaf filter; Debian 13 on).
optional="libvmaf-dev"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "float_adm: no dpkg here: make sure the equivalents of these are installed:" \
        "$packages $optional" >&2
    exit 0
fi
installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=
for p in $packages; do
    installed "$p" || missing="$missing $p"
done
missing_optional=
for p in $optional; do
    installed "$p" || missing_optional="$missing_optional $p"
done
# An optional package is not worth a run of apt-get by itself.
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root="sudo -n"
else
    echo "float_adm: missing packages. Run as root:" >&2
    echo "  apt-get install$missing" >&2
    [ -z "$missing_optional" ] ||
        echo "  and, where your distribution has them:$missing_optional" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
for p in $missing_optional; do
    if apt-cache show "$p" >/dev/null 2>&1; then missing="$missing $p"; fi
done
echo "float_adm: installing$missing${as_root:+ ($as_root)}" >&2
# shellcheck disable=SC2086 # the package names are words
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
