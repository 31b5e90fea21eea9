#!/bin/sh
# libvmaf from Netflix's source, built static into BUILD_DIR/vmaf, where the workbench's
# FFmpeg configure finds it (make workbench-libvmaf; docs/ladder.md, "VMAF").  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/workbench-libvmaf.sh [--source DIR] BUILD_DIR
#   DIR: the top of Netflix's vmaf tree (libvmaf/ and model/ in it), such as a git archive
#   of tag v3.2.0; it is only read.  Without it, tag v3.2.0 is cloned into
#   BUILD_DIR/vmaf-src (this needs git and the network).
#
# Writes BUILD_DIR/vmaf-build (meson's build) and BUILD_DIR/vmaf (libvmaf.a, its headers
# and libvmaf.pc), nothing outside BUILD_DIR.  Installs no package: each missing tool is
# named in one line and nothing is built.

set -eu

me=workbench-libvmaf
vmaf_url=https://github.com/Netflix/vmaf
vmaf_tag=v3.2.0
vmaf_commit=3f9e02af258a5c0e30124fc585a3c3af90126dee
checked_version=3.2.0

usage() {
    echo "usage: $0 [--source DIR] BUILD_DIR" >&2
    exit 2
}

source_dir=
case ${1:-} in
    --source) [ $# -ge 2 ] || usage; source_dir=$2; shift 2 ;;
    --source=*) source_dir=${1#--source=}; shift ;;
    -*) usage ;;
esac
[ $# -eq 1 ] || usage
build=$1

# need TOOL PACKAGE: TOOL is on PATH, else one line naming Debian's PACKAGE.
stop=
need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "$me: $1 not found (Debian: apt-get install $2)" >&2
        stop=yes
    fi
}
need meson meson
need ninja ninja-build
# libvmaf's x86 assembly.
need nasm nasm
# Without xxd, libvmaf's meson leaves the built-in models out, and says nothing.
need xxd xxd
[ -n "$source_dir" ] || need git git

# refuse WHY: DIR is no source to build from, in one line.
refuse() {
    echo "$me: --source $source_dir: $1" >&2
    stop=yes
}
if [ -n "$source_dir" ]; then
    if [ ! -d "$source_dir" ]; then
        refuse "no such directory"
    elif ! grep -qs "^project('libvmaf'" "$source_dir/libvmaf/meson.build"; then
        refuse "not Netflix's vmaf tree (no libvmaf/meson.build): give the directory holding libvmaf/ and model/"
    elif [ ! -f "$source_dir/model/vmaf_v0.6.1.json" ]; then
        refuse "no model/vmaf_v0.6.1.json: the built-in models are built from the tree's model/ directory"
    fi
fi
[ -z "$stop" ] || exit 1

mkdir -p "$build"
build=$(cd "$build" && pwd)

if [ -z "$source_dir" ]; then
    source_dir=$build/vmaf-src
    if [ "$(git -C "$source_dir" rev-parse -q --verify HEAD 2>/dev/null)" != "$vmaf_commit" ]; then
        rm -rf "$source_dir"
        git clone -q --depth 1 --branch "$vmaf_tag" "$vmaf_url" "$source_dir" || {
            echo "$me: could not clone $vmaf_url ($vmaf_tag): without the network, give its source with --source DIR (make workbench-libvmaf VMAF_SOURCE=DIR)" >&2
            exit 1
        }
    fi
    got=$(git -C "$source_dir" rev-parse HEAD)
    if [ "$got" != "$vmaf_commit" ]; then
        echo "$me: $vmaf_url's $vmaf_tag is commit $got, not $vmaf_commit" >&2
        exit 1
    fi
fi
source_dir=$(cd "$source_dir" && pwd)

version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$source_dir/libvmaf/meson.build" | head -n 1)
[ "$version" = "$checked_version" ] ||
    echo "$me: warning: $source_dir is libvmaf ${version:-of no stated version}; this build was checked with $checked_version" >&2

# Static alone: beside a libvmaf.so the linker takes the shared library, and the ffmpeg
# would need it at run time.  The float extractors too (float_adm, float_vif, ...), and
# the models inside the library (no model file to find at run time).
rm -rf "$build/vmaf-build" "$build/vmaf"
meson setup "$build/vmaf-build" "$source_dir/libvmaf" --prefix="$build/vmaf" --libdir=lib \
    --buildtype=release --default-library=static \
    -Denable_tests=false -Denable_docs=false -Denable_tools=false \
    -Dbuilt_in_models=true -Denable_float=true
for feature in VMAF_BUILT_IN_MODELS VMAF_FLOAT_FEATURES; do
    grep -q "^#define $feature 1" "$build/vmaf-build/src/config.h" || {
        echo "$me: libvmaf's configuration has no $feature ($build/vmaf-build/src/config.h)" >&2
        exit 1
    }
done
ninja -C "$build/vmaf-build" -j "$(getconf _NPROCESSORS_ONLN)" install

pc=$build/vmaf/lib/pkgconfig/libvmaf.pc
if [ ! -f "$build/vmaf/lib/libvmaf.a" ] || [ ! -f "$pc" ] || ls "$build/vmaf/lib"/libvmaf.so* >/dev/null 2>&1; then
    echo "$me: $build/vmaf/lib holds no libvmaf.a and libvmaf.pc alone: $(ls "$build/vmaf/lib")" >&2
    exit 1
fi
# libvmaf's SVM code is C++, and its libvmaf.pc names no C++ runtime.
sed '/^Libs:/s/$/ -lstdc++/' "$pc" > "$pc.tmp" && mv "$pc.tmp" "$pc"
echo "$me: libvmaf $version, static, in $build/vmaf (FFmpeg's configure finds it through $build/vmaf/lib/pkgconfig)" >&2
