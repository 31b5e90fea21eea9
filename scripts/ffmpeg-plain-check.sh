#!/bin/sh
# What FFmpeg's own checks say of the series, as a packager or a reviewer runs
# them: a fresh release tree, `git am` of the series (and, with --extras, of the
# project's extras on top), configured against libfloatadm, built, then `make
# fate` (all that needs no fate-suite samples), `make checkheaders` and
# tools/patcheck on the patches.  Nothing of the project is written into the
# tree.  POSIX sh.  Slow (a whole FFmpeg build): run by hand, results recorded
# in docs/fate-ffmpeg.md.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-plain-check.sh [--full] [--extras] VERSION PKG_CONFIG_DIRS OUT_DIR CACHE_DIR
#   --full: FFmpeg's default configuration (every native component, the
#   autodetected system libraries) plus --enable-libfloatadm, as a distribution
#   builds it; without it, the embedded build's lean one (scripts/ffmpeg-configure.sh).
#   Where ccache is installed it compiles (paths relative to each tree, so that
#   the second tree finds the first's objects), so a second tree costs less.

set -eu

extras=
full=
while :; do
    case ${1:-} in
    --extras) extras=yes ;;
    --full) full=yes ;;
    *) break ;;
    esac
    shift
done
version=$1
pc_dirs=$2
out=$3
cache=$4
# Absolute: configure runs in $out/build, by its path.
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
patches=$top/patches/ffmpeg-$version

rm -rf "$out"
mkdir -p "$out/src"
tarball=$("$top/scripts/ffmpeg-fetch.sh" ffmpeg "$version" "$cache")
tar xf "$tarball" -C "$out/src" --strip-components=1
git_() { git -C "$out/src" -c user.name=float_adm -c user.email=float-adm@localhost "$@"; }
git_ init -q
git_ add -A
git_ commit -q --no-verify -m "FFmpeg $version release"
list=$(sed "s|^|$patches/|" "$patches/series")
[ -z "$extras" ] || list="$list $(sed "s|^|$patches/extras/|" "$patches/extras/series")"
summary=$out/summary.txt
{
    echo "FFmpeg $version, base commit $(git_ rev-parse HEAD) (the release's files as one commit)"
    for p in $list; do
        if git_ am -q "$p"; then
            echo "git am $(basename "$p"): applied"
        else
            echo "git am $(basename "$p"): FAILED"
            git_ am --abort
            break
        fi
    done
    echo "tools/patcheck:"
    (cd "$out/src" && GREP_COLORS='mt=' sh tools/patcheck $list 2>&1) |
        sed -e 's/\x1b\[[0-9;]*[mK]//g' -e 's/^/    /'
} > "$summary"

grep -q '^git am .*: FAILED$' "$summary" && { cat "$summary"; exit 1; }
if [ -n "$full" ]; then
    cc=${CC:-gcc}
    if command -v ccache >/dev/null 2>&1; then
        cc="ccache $cc"
        CCACHE_BASEDIR=$out CCACHE_NOHASHDIR=1
        export CCACHE_BASEDIR CCACHE_NOHASHDIR
    fi
    mkdir -p "$out/build"
    (cd "$out/build" && PKG_CONFIG_PATH=$pc_dirs "$out/src/configure" --cc="$cc" \
        --enable-libfloatadm) >"$out/configure.log" 2>&1
    echo "configure: FFmpeg's defaults and --enable-libfloatadm; filters built: $(sed -n 's/^#define CONFIG_\(FLOAT_ADM[A-Z_]*\)_FILTER 1$/\1/p' "$out/build/config_components.h" | tr 'A-Z\n' 'a-z ')" >> "$summary"
else
    "$top/scripts/ffmpeg-configure.sh" "$out/src" "$out/build" "$pc_dirs" >"$out/configure.log" 2>&1
fi
make -C "$out/build" -j"$(nproc)" >"$out/make.log" 2>&1
echo "make: built; warnings in the filters' files: $(grep -c 'float_adm.*warning' "$out/make.log" || true)" >> "$summary"
make -C "$out/build" -k -j"$(nproc)" fate >"$out/fate.log" 2>&1 && fate=passed || fate=FAILED
echo "make fate (no SAMPLES): $fate; $(grep -c '^TEST ' "$out/fate.log") tests, $(grep -c '^TEST .*float.adm' "$out/fate.log") of them float_adm's" >> "$summary"
make -C "$out/build" -k -j"$(nproc)" checkheaders >"$out/checkheaders.log" 2>&1 && ch=passed || ch=FAILED
echo "make checkheaders: $ch; $(grep -c '^CC.*\.h\.o' "$out/checkheaders.log") headers, $(grep -c 'float_adm' "$out/checkheaders.log") lines naming the filters' headers" >> "$summary"
make -C "$out/build" -n -B checkheaders CONFIG_LIBFLOATADM= 2>/dev/null | grep -q 'float_adm' &&
    echo "checkheaders without libfloatadm: a filter header is checked (FAILED)" >> "$summary" ||
    echo "checkheaders without libfloatadm: no header that needs it" >> "$summary"
cat "$summary"
grep -q FAILED "$summary" && exit 1 || exit 0
