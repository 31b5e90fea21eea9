#!/bin/sh
# scripts/workbench-libvmaf.sh (make workbench-libvmaf) refuses before it builds or writes
# anything: each missing tool in one line naming its Debian package, an unusable --source
# in one line.  It runs with a PATH holding every program of the caller's PATH, with the
# tools libvmaf's build needs replaced by stand-ins that record being run (none must be),
# less the tools a case takes away: no libvmaf, no network, nothing built.
#
# Usage: sh tests/build/test_workbench_libvmaf.sh
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
script=$root/scripts/workbench-libvmaf.sh
. "$root/tests/support/shell_harness.sh"
harness_begin test_workbench_libvmaf

tools="meson ninja nasm xxd git"

# The caller's programs, the first of each name as PATH finds it, and the stand-ins.
mkdir everything
for dir in $(echo "$PATH" | tr ':' ' '); do
    [ -d "$dir" ] && ln -s "$dir"/* everything/ 2>/dev/null
done
for tool in $tools; do
    rm -f "everything/$tool"
    printf '#!/bin/sh\necho "%s $*" >> "%s/ran.txt"\nexit 1\n' "$tool" "$tmp" > "everything/$tool"
    chmod +x "everything/$tool"
done

# A libvmaf source as the command needs it, and one without its models.
mkdir -p vmaf/libvmaf vmaf/model no-models/libvmaf
printf "project('libvmaf', ['c', 'cpp'],\n    version : '3.2.0',\n" > vmaf/libvmaf/meson.build
cp vmaf/libvmaf/meson.build no-models/libvmaf/
echo '{}' > vmaf/model/vmaf_v0.6.1.json

# refused NAME WANT_LINES PATTERN TOOLS_TAKEN [ARGUMENTS...]: the command, without
# TOOLS_TAKEN (' ' between them), fails with WANT_LINES lines on stderr, one of them
# matching PATTERN (grep -E), nothing on stdout, no tool run and no build directory made.
case_number=0
refused() {
    name=$1 want_lines=$2 pattern=$3 taken=$4
    shift 4
    case_number=$((case_number + 1))
    bin=$tmp/bin-$case_number
    cp -a everything "$bin"
    for tool in $taken; do rm -f "$bin/$tool"; done
    rm -f ran.txt
    tests=$((tests + 1))
    PATH=$bin /bin/sh "$script" "$@" > out.txt 2> err.txt
    status=$?
    lines=$(wc -l < err.txt)
    if [ $status -ne 1 ]; then
        fail "$name: exit status $status, want 1 (stderr: $(cat err.txt))"
    elif [ "$lines" -ne "$want_lines" ]; then
        fail "$name: $lines lines on stderr, want $want_lines: $(cat err.txt)"
    elif ! grep -Eq -- "$pattern" err.txt; then
        fail "$name: no line matching '$pattern': $(cat err.txt)"
    elif [ -s out.txt ]; then
        fail "$name: printed on stdout: $(cat out.txt)"
    elif [ -e ran.txt ]; then
        fail "$name: ran $(cat ran.txt)"
    elif [ -e build ]; then
        fail "$name: made the build directory"
    else
        echo "ok: $name"
    fi
    rm -rf build
}

source_args="--source $tmp/vmaf build"
# shellcheck disable=SC2086 # the arguments are words
refused "no meson" 1 '^workbench-libvmaf: meson not found \(Debian: apt-get install meson\)$' meson $source_args
# shellcheck disable=SC2086
refused "no ninja" 1 '^workbench-libvmaf: ninja not found \(Debian: apt-get install ninja-build\)$' ninja $source_args
# shellcheck disable=SC2086
refused "no nasm" 1 '^workbench-libvmaf: nasm not found \(Debian: apt-get install nasm\)$' nasm $source_args
# shellcheck disable=SC2086
refused "no xxd" 1 '^workbench-libvmaf: xxd not found \(Debian: apt-get install xxd\)$' xxd $source_args
# shellcheck disable=SC2086
refused "no meson, no xxd: a line each" 2 'xxd not found' "meson xxd" $source_args
refused "no git, nothing given to build" 1 '^workbench-libvmaf: git not found \(Debian: apt-get install git\)$' git build
# shellcheck disable=SC2086
refused "no git, a source given: git is not needed" 1 'meson not found' "meson git" $source_args

refused "--source of no directory" 1 "^workbench-libvmaf: --source $tmp/none: no such directory\$" "" \
    --source "$tmp/none" build
refused "--source of libvmaf/ rather than the tree" 1 \
    "^workbench-libvmaf: --source $tmp/vmaf/libvmaf: not Netflix's vmaf tree .*holding libvmaf/ and model/\$" "" \
    --source "$tmp/vmaf/libvmaf" build
refused "--source without model/" 1 "^workbench-libvmaf: --source $tmp/no-models: no model/vmaf_v0.6.1.json" "" \
    --source "$tmp/no-models" build
refused "--source unusable and nasm missing: a line each" 2 "nasm not found" nasm \
    --source "$tmp/none" build

[ "$failures" -eq 0 ] || { echo "test_workbench_libvmaf: $failures of $tests failed" >&2; exit 1; }
echo "test_workbench_libvmaf: $tests passed"
