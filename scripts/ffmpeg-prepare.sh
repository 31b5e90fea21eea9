#!/bin/sh
# Lay out a patched FFmpeg source tree for the float_adm filter.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-prepare.sh VERSION SOURCE DEST CACHE_DIR
#   VERSION: 7.1, 8.1 or 9.0; SOURCE: an FFmpeg tree or tarball, or empty to
#   fetch the pinned release (scripts/ffmpeg-fetch.sh); DEST: the tree to
#   create (replaced); CACHE_DIR: where fetched tarballs are kept.
# The series and its extras carry the filters' files and the FATE files; mk/ffmpeg.mk then
# writes the sources generated from the working copies over them
# (ffmpeg-gen-patches.py --filter-sources), so that edits are built before the
# series is regenerated (make patches; make check-patches compares).

set -eu

version=$1
source=$2
dest=$3
cache=$4
top=$(cd "$(dirname "$0")/.." && pwd)
patches=$top/patches/ffmpeg-$version

[ -f "$patches/series" ] || { echo "ffmpeg-prepare: no patches for FFmpeg $version" >&2; exit 1; }

if [ -z "$source" ]; then
    source=$("$top/scripts/ffmpeg-fetch.sh" ffmpeg "$version" "$cache")
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
if [ -d "$source" ]; then
    echo "ffmpeg-prepare: copying FFmpeg from $source" >&2
    (cd "$source" && tar cf - --exclude=.git .) | (cd "$dest.tmp" && tar xf -)
elif [ -f "$source" ]; then
    echo "ffmpeg-prepare: extracting $source" >&2
    tar xf "$source" -C "$dest.tmp" --strip-components=1
else
    echo "ffmpeg-prepare: FFmpeg source '$source' is neither a directory nor a tarball" >&2
    exit 1
fi

# The series is applied as an FFmpeg maintainer would take it: git am on the
# release committed as is.  A patch that does not apply fails here.
git_() { git -C "$dest.tmp" -c user.name=float_adm -c user.email=float-adm@localhost "$@"; }
git_ init -q
git_ add -A
git_ commit -q --no-verify -m "FFmpeg $version release"
# Then the project's extras, which go on top of the series.
for dir in "$patches" "$patches/extras"; do
    [ -f "$dir/series" ] || continue
    while read -r patch; do
        echo "ffmpeg-prepare: git am $patch" >&2
        git_ am -q --whitespace=nowarn "$dir/$patch"
    done < "$dir/series"
done

# The scheduler change (patches/ffmpeg-sched/, made against 9.0.2: the inputs a
# filtergraph waits for are decoded side by side) goes on top in that release's
# tree only; docs/perf-cuda.md has its evidence.
if [ "$version" = 9.0 ]; then
    for patch in "$top"/patches/ffmpeg-sched/*.patch; do
        echo "ffmpeg-prepare: git am $patch" >&2
        git_ am -q "$patch"
    done
fi

rm -rf "$dest"
mv "$dest.tmp" "$dest"
