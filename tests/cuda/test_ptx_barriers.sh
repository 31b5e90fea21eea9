#!/bin/sh
# The row-sums kernels' "last block" flag, in the PTX that clang built: thread 0 stores
# it and the block reads it after a barrier.  Every load of a one-byte __shared__
# variable must come after the first bar.sync that follows its store: a compiler that
# takes the barrier for a call that cannot write the variable moves the load above it,
# and blocks then fold a scale early, twice or never (scores far off, run to run).
# Usage: sh tests/cuda/test_ptx_barriers.sh KERNELS.ptx
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
ptx=${1:?usage: sh tests/cuda/test_ptx_barriers.sh KERNELS.ptx}
awk '
function check() {
    if (name == "") return
    if (stored == 0) { printf "%s: no store of a shared flag found\n", name; bad = 1 }
    else if (loaded == 0) { printf "%s: no load of its shared flag found\n", name; bad = 1 }
    else if (early) { printf "%s: the flag is loaded before the barrier after its store (line %d)\n", name, early; bad = 1 }
    else { printf "ok   %s: flag stored line %d, barrier line %d, loaded line %d\n", name, stored, barrier, loaded; checked++ }
}
/^\.visible \.entry / {
    check()
    name = flag = ""; stored = barrier = loaded = early = 0
    if ($0 ~ /adm_row_sums/) { name = $3; sub(/\(.*/, "", name) }
    next
}
name == "" { next }
/^\t\.shared \.align 1 \.u8 / { flag = $NF; sub(/;$/, "", flag) }
flag != "" && $1 ~ /^st\.shared\.u8/ && index($0, "[" flag "]") && !stored { stored = NR }
stored && !barrier && $1 == "bar.sync" { barrier = NR }
flag != "" && $1 ~ /^ld\.shared\.u8/ && index($0, "[" flag "]") {
    if (!loaded) loaded = NR
    if (!barrier || !stored) early = NR
}
END {
    check()
    if (checked == 0 && !bad) { print "no row-sums kernel found"; bad = 1 }
    exit bad
}' "$ptx"
