#!/bin/sh
# The plain build as a distribution runs it (`make check-build`):
#   - a distribution's flags, given to ./configure in the environment
#     (CFLAGS="-O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2" LDFLAGS="-Wl,-z,relro"),
#     are on every compile and link line of `make` (libraries and float_adm_score), before
#     the project's own -ffp-contract=off, which comes last so that it wins; the same
#     flags given to make on its command line or in its environment instead reach every
#     line too (make -n)
#   - the build is reproducible: the same tree copied to a second directory, at another
#     depth, gives a byte-identical libfloatadm.so
# It works on copies of the tree (its files as they are, tracked or new), each configured
# with defaults: the checkout's own config.mak and build are not touched.
#
# Usage: sh tests/build/test_build.sh MAKE [JOBS]
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 MAKE [JOBS]" >&2
    exit 2
fi
make_cmd=$1
jobs=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/support/shell_harness.sh"
harness_begin test_build

# The copies' makes see nothing of the calling make's (its variables, BUILD=, jobs) nor
# of the caller's flags.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES BUILD CFLAGS CXXFLAGS CPPFLAGS LDFLAGS CC CXX

dist_cflags="-O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2"
dist_ldflags="-Wl,-z,relro"

# copy_tree DIR: the checkout's files (tracked, and new ones git does not ignore) in DIR.
copy_tree() {
    mkdir -p "$1" &&
        (cd "$root" && git ls-files -z --cached --others --exclude-standard |
            xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
            tar -cf - --null -T - | tar -xf - -C "$1")
}

# compile_lines LOG: the compiler's commands of a make log, each on one line.
compile_lines() {
    sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' "$1" |
        grep -E '^(cc|c\+\+|gcc|g\+\+|clang|clang\+\+)(-[0-9]+)? '
}

# every_line NAME LOG KIND PATTERN...: each compiler line of LOG of KIND (all: compile and
# link lines; link: those without -c) holds every PATTERN (fixed strings), and there are
# some.
every_line() {
    name=$1 log=$2 kind=$3
    shift 3
    if [ "$kind" = link ]; then
        compile_lines "$log" | grep -v -- ' -c ' > lines.txt
    else
        compile_lines "$log" > lines.txt
    fi
    tests=$((tests + 1))
    if [ ! -s lines.txt ]; then
        fail "$name: no compile line in the log"
        return
    fi
    for pattern; do
        tests=$((tests + 1))
        missing=$(grep -cvF -- "$pattern" lines.txt)
        [ "$missing" -eq 0 ] ||
            fail "$name: $missing lines lack '$pattern', e.g. $(grep -vF -- "$pattern" lines.txt | head -1)"
    done
}

a=$tmp/a/src
b=$tmp/b/deeper/src
copy_tree "$a" && copy_tree "$b" || { fail "copying the tree"; exit 1; }

# ---- the distribution's flags through ./configure, a real build ----
(cd "$a" && CFLAGS="$dist_cflags" CXXFLAGS="$dist_cflags" LDFLAGS="$dist_ldflags" \
    ./configure >configure.log 2>&1 && $make_cmd -j"$jobs" all >make.log 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
    fail "configure && make with a distribution's flags: exit $rc: $(tail -5 "$a/make.log" "$a/configure.log")"
    exit 1
fi
every_line "configure's CFLAGS" "$a/make.log" all "$dist_cflags"
every_line "configure's LDFLAGS" "$a/make.log" link "$dist_ldflags"
# Objects and programs: a compile line for each object, a link line for the library,
# the archive's members and the program.
for f in lib/shared/libfloatadm.so lib/libfloatadm.a bin/float_adm_score; do
    check_name="built: $f"
    tests=$((tests + 1))
    ls "$a"/build/$f* >/dev/null 2>&1 || fail "$check_name"
done
tests=$((tests + 1))
objects=$(find "$a/build/obj" -name '*.o' | wc -l)
compiled=$(compile_lines "$a/make.log" | grep -c -- ' -c ')
[ "$objects" -eq "$compiled" ] ||
    fail "$objects objects but $compiled compile lines: some object was built by a line the log does not show"
# The caller's flags come before the project's, which win: -ffp-contract=off after -O2.
tests=$((tests + 1))
compile_lines "$a/make.log" | grep -v -- "$dist_cflags .*-ffp-contract=off" > misordered.txt
[ ! -s misordered.txt ] ||
    fail "-ffp-contract=off is not after the caller's flags: $(head -1 misordered.txt)"

# ---- the same flags on make's command line and in its environment (make -n, into an
# empty BUILD: every line is printed, nothing is made) ----
mark=-DFLOAT_ADM_CHECK_BUILD_MARK
(cd "$a" && $make_cmd -n BUILD=build-n all CFLAGS="$mark" CXXFLAGS="$mark" LDFLAGS="-Wl,-O1" \
    >cmdline.log 2>&1)
every_line "make's command line" "$a/cmdline.log" all "$mark"
every_line "make's command line" "$a/cmdline.log" link "-Wl,-O1"
tests=$((tests + 1))
! grep -qF -- "-fstack-protector-strong" "$a/cmdline.log" ||
    fail "make's command line does not override configure's CFLAGS"
(cd "$a" && CFLAGS="$mark" CXXFLAGS="$mark" LDFLAGS="-Wl,-O1" $make_cmd -n BUILD=build-n all >env.log 2>&1)
every_line "make's environment" "$a/env.log" all "$mark"
every_line "make's environment" "$a/env.log" link "-Wl,-O1"

# ---- the libraries' objects with their own flags alone, never a program's (make's
# target-specific variables pass to a target's prerequisites unless private): with the
# CUDA backend, where this host can build it, float_adm_score's objects come first ----
if (cd "$a" && ./configure --enable-cuda=auto >configure-cuda.log 2>&1 &&
    grep -q '^HAVE_CUDA := yes' config.mak); then
    (cd "$a" && $make_cmd -n BUILD=build-n all >cuda.log 2>&1)
    tests=$((tests + 1))
    compile_lines "$a/cuda.log" | grep -- '-DFLOAT_ADM_BUILDING_LIBRARY' > library.txt
    grep -- '-DFLOAT_ADM_CLI\|-Ibuild-n/include\|-Isrc/common\|-Itests/' library.txt > leaked.txt
    if ! grep -q 'src/adm_cuda/' library.txt; then
        fail "no compile line of the CUDA library in make -n's output"
    elif [ -s leaked.txt ]; then
        fail "a library object compiled with a program's flags: $(head -1 leaked.txt)"
    fi
fi

# ---- reproducible: the library built in a second directory ----
(cd "$b" && CFLAGS="$dist_cflags" CXXFLAGS="$dist_cflags" LDFLAGS="$dist_ldflags" \
    ./configure >configure.log 2>&1 && $make_cmd -j"$jobs" build/lib/shared/libfloatadm.so >make.log 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
    fail "the second build: exit $rc: $(tail -5 "$b/make.log")"
else
    so=$(cd "$a/build/lib/shared" && ls libfloatadm.so.*.*.*)
    check_name="reproducible: $so in $a and $b"
    tests=$((tests + 1))
    cmp "$a/build/lib/shared/$so" "$b/build/lib/shared/$so" || fail "$check_name"
fi

echo "test_build: $tests checks, $failures failures"
[ "$failures" -eq 0 ]
