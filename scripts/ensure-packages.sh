#!/bin/sh
# Install the Debian/Ubuntu packages the build and the tests need, when missing.
# As root it runs apt-get; otherwise it says exactly what to install.
# Usage: scripts/ensure-packages.sh [extra packages...]
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

# clang: builds the CUDA backend's kernels as PTX (no CUDA toolkit needed; configure
# turns the backend on where it can).
packages="make g++ clang pkg-config xz-utils libgtest-dev libbenchmark-dev python3 $*"

missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "float_adm: missing packages:$missing (no apt-get here: install their equivalents)" >&2
    exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
    echo "float_adm: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends $missing >&2
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "float_adm: installing$missing (sudo)" >&2
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
else
    echo "float_adm: missing packages. Run as root:" >&2
    echo "  apt-get install$missing" >&2
    exit 1
fi
