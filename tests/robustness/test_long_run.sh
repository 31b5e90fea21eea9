#!/bin/sh
# Long run: 1920x1080 frames through the float_adm filter, peak resident memory
# after each frame count (GNU time).  A leak per frame shows as growth from the
# short run to the long one.  Not part of `make check`: minutes of CPU.
#
# Usage: sh tests/robustness/test_long_run.sh path/to/ffmpeg FRAMES...
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 FFMPEG FRAMES..." >&2
    exit 2
fi
ffmpeg=$1
shift
if ! [ -x /usr/bin/time ]; then
    echo "long_run: GNU time (/usr/bin/time, package 'time') is needed" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/long_run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The distorted picture is the reference mirrored: real scores, no files.
graph="[0]split[r][d];[d]hflip[m];[m][r]float_adm=log_fmt=json:log_path=$tmp/scores.json"
echo "frames  peak_rss_kib  wall_s  scored"
for frames in "$@"; do
    /usr/bin/time -v -o "$tmp/time.txt" "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error \
        -f lavfi -i "testsrc2=s=1920x1080:r=25" -lavfi "$graph" -frames:v "$frames" -f null -
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
    scored=$(grep -c '"frameNum"' "$tmp/scores.json")
    echo "$frames  $rss  $wall  $scored"
done
