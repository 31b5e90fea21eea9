#!/bin/sh
# Fail when a program links a shared library outside the C/C++ runtime that
# every Linux has, and the codec libraries ffmpeg-configure.sh enables from
# the distribution's packages (named in the README).  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-check-libs.sh PROGRAM...

set -eu

command -v ldd >/dev/null 2>&1 || exit 0
status=0
for prog do
    extra=$(ldd "$prog" | awk '{ print $1 }' |
        grep -Ev '^(linux-vdso|linux-gate|/lib.*/ld-linux|ld-linux)|^lib(c|m|dl|rt|pthread|stdc\+\+|gcc_s)\.so' |
        grep -Ev '^lib(dav1d|SvtAv1Enc|vpx|aom|zimg|vmaf|z|x264|x265|numa|gomp)\.so' || true)
    if [ -n "$extra" ]; then
        echo "ffmpeg-check-libs: $prog links more than libc/libm/libstdc++:" $extra >&2
        status=1
    fi
done
exit $status
