#!/bin/sh
# The ABI test (docs/abi.md): the built libraries export exactly what their symbols
# files list, each symbol in its version node, FLOATADM_1.2 first; a program built
# against libfloatadm 1.2's header (float_adm-1.2.h) and linked against a 1.2-style
# library (no version nodes, 1.2's functions: what binaries of 1.2 were linked
# against) runs against today's library with the scores, bit for bit, of the same
# program built against today's header; and today's program, run against that 1.2-style
# library, is refused by the loader naming the version it lacks.
# Usage: test_abi.sh BUILD CC REF DIST WIDTH HEIGHT PIXFMT
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
build=$1 cc=$2
shift 2
root=$(pwd)
# The files the SONAME links name: an older version's file may linger in the tree.
lib="$build"/lib/shared/$(readlink "$build"/lib/shared/libfloatadm.so.1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tests=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# symbols_match LIB SYMBOLS: LIB's defined dynamic symbols (NAME@VERSION) are SYMBOLS'.
symbols_match() {
    tests=$((tests + 1))
    readelf --dyn-syms -W "$1" | awk '$7 != "UND" && $8 ~ /@/ { sub(/@@/, "@", $8); print $8 }' |
        sort -u > "$tmp/built.txt"
    awk '/^ / { print $1 }' "$2" | sort -u > "$tmp/listed.txt"
    extra=$(comm -23 "$tmp/built.txt" "$tmp/listed.txt" | tr '\n' ' ')
    missing=$(comm -13 "$tmp/built.txt" "$tmp/listed.txt" | tr '\n' ' ')
    [ -z "$extra" ] || fail "${1##*/} exports what $2 does not list: $extra"
    [ -z "$missing" ] || fail "${1##*/} lacks what $2 lists: $missing"
    # Unversioned references (programs linked against 1.2) bind to version index 2.
    tests=$((tests + 1))
    readelf -V -W "$1" | grep -q "Index: 2 .*Name: $3\$" ||
        fail "${1##*/}: the first version node (index 2) is not $3"
}
symbols_match "$lib" src/adm_core/libfloatadm.symbols FLOATADM_1.2
if [ "${HAVE_CUDA:-no}" = yes ]; then
    if cuda_lib=$(readlink "$build"/lib/shared/libfloatadm_cuda.so.1); then
        symbols_match "$build/lib/shared/$cuda_lib" src/adm_cuda/libfloatadm_cuda.symbols \
            FLOATADM_CUDA_1.2
    else
        tests=$((tests + 1))
        fail "a CUDA build without $build/lib/shared/libfloatadm_cuda.so.1"
    fi
fi

# The 1.2-style library: today's objects, 1.2's functions, no version nodes.
mkdir -p "$tmp/old" "$tmp/new" "$tmp/include-1.2"
{ echo '{ global:'; awk '/^ float_adm_.*@FLOATADM_1\.2 / { sub(/@.*/, "", $1); print $1 ";" }' \
      src/adm_core/libfloatadm.symbols; echo 'local: *; };'; } > "$tmp/old.map"
c++ -shared -Wl,-soname,libfloatadm.so.1 -Wl,--version-script="$tmp/old.map" \
    "$build"/obj/src/adm_core/*.o -pthread -o "$tmp/old/libfloatadm.so.1" || exit 1
ln -s libfloatadm.so.1 "$tmp/old/libfloatadm.so"
ln -s "$root/$lib" "$tmp/new/libfloatadm.so.1"
cp tests/abi/float_adm-1.2.h "$tmp/include-1.2/float_adm.h"

"$cc" -Werror -Wall -I"$tmp/include-1.2" tests/abi/abi_program.c -L"$tmp/old" -lfloatadm \
    -o "$tmp/program-1.2" || exit 1
"$cc" -Werror -Wall -I"$build/include" tests/abi/abi_program.c -L"$build/lib/shared" -lfloatadm \
    -o "$tmp/program" || exit 1
tests=$((tests + 1))
if readelf -V -W "$tmp/program-1.2" | grep -q 'FLOATADM'; then
    fail "the 1.2 program has versioned references: it is not what 1.2's binaries are"
fi
tests=$((tests + 1))
readelf -V -W "$tmp/program" | grep -q 'Name: FLOATADM_1.3' ||
    fail "today's program does not require FLOATADM_1.3"

tests=$((tests + 1))
if ! LD_LIBRARY_PATH="$tmp/new" "$tmp/program-1.2" "$@" > "$tmp/scores-1.2.txt"; then
    fail "the program built against float_adm.h 1.2 fails against today's library"
elif ! LD_LIBRARY_PATH="$tmp/new" "$tmp/program" "$@" > "$tmp/scores.txt"; then
    fail "the program built against today's float_adm.h fails"
elif [ "$(wc -l < "$tmp/scores.txt")" -lt 20 ] || ! cmp -s "$tmp/scores-1.2.txt" "$tmp/scores.txt"; then
    fail "1.2's program scores differently from today's: $(diff "$tmp/scores-1.2.txt" "$tmp/scores.txt" | head -n 3)"
fi

tests=$((tests + 1))
if LD_LIBRARY_PATH="$tmp/old" "$tmp/program" "$@" > /dev/null 2> "$tmp/loader.txt"; then
    fail "today's program runs against a 1.2 library"
elif ! grep -q "undefined symbol: float_adm_.*_sized, version FLOATADM_1.3" "$tmp/loader.txt"; then
    fail "today's program against a 1.2 library: not the loader's message: $(cat "$tmp/loader.txt")"
fi

echo "abi: $((tests - failures))/$tests passed"
[ "$failures" -eq 0 ]
