#!/bin/sh
# configure says what the target has: RCPSS (libvmaf's reciprocal estimate) on x86 with
# SSE2 alone, the division elsewhere, as src/adm_core/adm_rcp.h decides it.
# Usage: tests/aarch64/test_configure_rcpss.sh CROSS_HOST (e.g. aarch64-linux-gnu)
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
host=${1:?usage: $0 CROSS_HOST}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/float_adm-configure-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME RCPSS [configure arguments]: configure succeeds, config.mak records RCPSS
# and the summary says it.
expect() {
    name=$1 want=$2
    shift 2
    if ! (cd "$work" && "$src/configure" --disable-cuda "$@" >out.txt 2>&1); then
        echo "FAIL: $name: configure failed: $(cat "$work/out.txt")"
        failures=$((failures + 1))
    elif ! grep -qx "RCPSS := $want" "$work/config.mak" || ! grep -q "rcpss: $want" "$work/out.txt"; then
        echo "FAIL: $name: want rcpss $want, configure said: $(cat "$work/out.txt")"
        failures=$((failures + 1))
    else
        echo "ok: $name: rcpss $want"
    fi
    rm -f "$work/config.mak"
}

cross="--cc=$host-gcc --cxx=$host-g++"
# shellcheck disable=SC2086
expect "$host" no $cross
# shellcheck disable=SC2086
expect "$host --disable-rcpss" no $cross --disable-rcpss
# shellcheck disable=SC2086
if (cd "$work" && "$src/configure" --disable-cuda $cross --enable-rcpss >out.txt 2>&1); then
    echo "FAIL: $host --enable-rcpss: configure accepted it"
    failures=$((failures + 1))
elif ! grep -q "has no SSE2" "$work/out.txt"; then
    echo "FAIL: $host --enable-rcpss: the refusal does not say why: $(cat "$work/out.txt")"
    failures=$((failures + 1))
else
    echo "ok: $host --enable-rcpss refused"
fi
case $(${CXX:-c++} -dumpmachine) in
    x86_64-*|i?86-*)
        expect "x86 (this machine)" yes
        expect "x86 --disable-rcpss" no --disable-rcpss ;;
esac
[ $failures -eq 0 ] || { echo "test_configure_rcpss: $failures failure(s)"; exit 1; }
