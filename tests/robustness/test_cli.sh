#!/bin/sh
# Bad input through float_adm_score beyond tests/cli: what the fuzzer taught.
#
# Usage: sh tests/robustness/test_cli.sh path/to/float_adm_score
# MEMORY_LIMIT_KIB (default 1048576) bounds the tool's address space;
# "unlimited" for ASan builds, whose shadow memory alone is terabytes.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 FLOAT_ADM_SCORE" >&2
    exit 2
fi
. "$(dirname "$0")/../support/shell_harness.sh"
bin=$(absolute "$1")
harness_begin test_robustness_cli

memory_limit=${MEMORY_LIMIT_KIB:-1048576}

# expect_error NAME SUBSTRING ARGS...: exit 1 within 10 s in memory_limit of
# address space, saying SUBSTRING.
expect_error() {
    name=$1; substring=$2; shift 2
    tests=$((tests + 1))
    (ulimit -v "$memory_limit"; timeout 10 "$bin" "$@") >out.txt 2>err.txt
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL: $name: exit $rc, wanted 1: $(cat err.txt)" >&2
        failures=$((failures + 1))
    elif ! grep -F -q -- "$substring" err.txt; then
        echo "FAIL: $name: stderr lacks '$substring': $(cat err.txt)" >&2
        failures=$((failures + 1))
    fi
}

# A header announcing a huge frame over a few bytes: the file is too short,
# and that must be said before the tens of GiB such a frame's context takes.
printf 'YUV4MPEG2 W60000 H60000 Cmono\nFRAME\nabc' > huge.y4m
expect_error "huge y4m header, tiny file" "the file ends inside frame 0" \
    --reference huge.y4m --distorted huge.y4m
printf 'abc' > tiny.yuv
expect_error "huge raw geometry, tiny file" "the file ends inside frame 0" \
    --reference tiny.yuv --distorted tiny.yuv --width 65536 --height 65536 --pix-fmt gray16le

# y4m headers with bad fields.
for header in 'W17 H0' 'W-17 H17' 'W17 H17 C420p11' 'W1e3 H17' 'W17 H9999999999' 'H17'; do
    printf 'YUV4MPEG2 %s\nFRAME\n' "$header" > bad.y4m
    expect_error "y4m header '$header'" "bad.y4m" --reference bad.y4m --distorted bad.y4m
done
printf 'YUV4MPEG2 W17 H17 Cmono' > noeol.y4m
expect_error "y4m header without end of line" "no end of line" \
    --reference noeol.y4m --distorted noeol.y4m
printf 'YUV4MPEG2 W17 H17 Cmono\nFRAMEX\n' > badframe.y4m
expect_error "y4m FRAME marker wrong" "FRAME header" \
    --reference badframe.y4m --distorted badframe.y4m

echo "robustness (float_adm_score): $((tests - failures))/$tests passed"
[ $failures -eq 0 ]
