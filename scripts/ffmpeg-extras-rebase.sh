#!/bin/sh
# Carry the extras' changes.diff (patches/src/<extra>/changes.diff) over an edit
# of the files they change: each diff is applied to those files as they were at
# REV, and its change merged (git merge-file) into the files as they are now;
# the diffs are then written again.  A conflict stops it, with the merged files
# left in the work folder it names.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-extras-rebase.sh REV   (e.g. HEAD, before committing the edit)

set -eu
rev=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
work=$(mktemp -d /tmp/ffmpeg-extras-rebase.XXXXXX)
files=$(sed -n 's/^+++ b\///p' $(sed 's|^\(.*\)$|patches/src/\1/changes.diff|' patches/src/extras) | sort -u)
mkdir -p "$work/old" "$work/new"
for f in $files; do
    mkdir -p "$work/old/$(dirname "$f")" "$work/new/$(dirname "$f")"
    git show "$rev:$f" > "$work/old/$f"
    cp "$f" "$work/new/$f"
done
prev_old=$work/old prev_new=$work/new
for extra in $(cat patches/src/extras); do
    diff=patches/src/$extra/changes.diff
    [ -f "$diff" ] || continue
    cp -r "$prev_old" "$work/old.$extra" && (cd "$work/old.$extra" && git apply -p1 "$top/$diff")
    cp -r "$prev_new" "$work/new.$extra"
    for f in $files; do
        git merge-file "$work/new.$extra/$f" "$prev_old/$f" "$work/old.$extra/$f" ||
            { echo "$extra: conflicts in $work/new.$extra/$f" >&2; exit 1; }
    done
    for f in $files; do
        diff -u --label "a/$f" --label "b/$f" "$prev_new/$f" "$work/new.$extra/$f" || true
    done > "$work/$extra.diff"
    prev_old=$work/old.$extra prev_new=$work/new.$extra
done
for extra in $(cat patches/src/extras); do
    [ -f "$work/$extra.diff" ] && cp "$work/$extra.diff" "patches/src/$extra/changes.diff"
done
rm -rf "$work"
