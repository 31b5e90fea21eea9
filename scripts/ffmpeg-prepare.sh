#!/bin/sh
# Lay out a patched FFmpeg source tree for the float_adm filter.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-prepare.sh VERSION SOURCE DEST CACHE_DIR
#   VERSION: 7.1, 8.1 or 9.0; SOURCE: an FFmpeg tree or tarball, or empty to
#   fetch the pinned release (scripts/ffmpeg-fetch.sh); DEST: the tree to
#   create (replaced); CACHE_DIR: where fetched tarballs are kept.
# vf_float_adm.c and the FATE files are copied in by mk/ffmpeg.mk, not here.

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

while read -r patch; do
    echo "ffmpeg-prepare: applying $patch" >&2
    patch -d "$dest.tmp" -p1 -s --forward --no-backup-if-mismatch < "$patches/$patch"
done < "$patches/series"

rm -rf "$dest"
mv "$dest.tmp" "$dest"
