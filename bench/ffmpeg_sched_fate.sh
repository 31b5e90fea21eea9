#!/bin/sh
# A plain FFmpeg release tree, FFmpeg's default configuration, built as released and
# with the scheduler patch (patches/ffmpeg-sched/), then all of `make fate` that needs
# no fate-suite samples with the patch.  Leaves WORK/ffmpeg-base and
# WORK/ffmpeg-patched (the default build's ffmpeg, without and with the patch) for
# bench/ffmpeg_sched.py, and WORK/fate.log.
#
# Usage: sh bench/ffmpeg_sched_fate.sh FFMPEG_TARBALL PATCH WORK
# A default build of all of FFmpeg takes about two hours on two cores, minutes on 16.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
tarball=$(realpath "$1")
patch=$(realpath "$2")
mkdir -p "$3"
work=$(realpath "$3")
jobs=$(nproc)
cd "$work"
rm -rf tree && mkdir tree && tar --no-same-owner -xf "$tarball" -C tree --strip-components=1
cd tree
# its own git repository, as a release tree with a patch applied is: fate-source
# greps the enclosing repository's files
git_() { git -c user.name=fate -c user.email=fate@localhost "$@"; }
git_ init -q && git_ add -A && git_ commit -q -m release
asm=
command -v nasm > /dev/null || asm=--disable-x86asm
./configure --disable-doc $asm > "$work/configure.log" 2>&1 ||
    { tail -n 20 "$work/configure.log"; exit 1; }
make -j"$jobs" ffmpeg > "$work/build.log" 2>&1 || { tail -n 20 "$work/build.log"; exit 1; }
cp ffmpeg "$work/ffmpeg-base"
git_ am -q "$patch"
make -j"$jobs" ffmpeg >> "$work/build.log" 2>&1 || { tail -n 20 "$work/build.log"; exit 1; }
cp ffmpeg "$work/ffmpeg-patched"
cmp -s "$work/ffmpeg-base" "$work/ffmpeg-patched" && { echo "the patch changed nothing"; exit 1; }
status=0
make -k -j"$jobs" fate > "$work/fate.log" 2>&1 || status=$?
echo "FFmpeg $(cat VERSION 2>/dev/null || cat RELEASE), default configuration ${asm:-with x86 assembly}"
echo "tests run: $(grep -c '^TEST' "$work/fate.log"); make fate exit status: $status"
grep -E '^make: \*\*\*|Error [0-9]' "$work/fate.log" | head -n 20
exit $status
