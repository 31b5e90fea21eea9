#!/bin/sh
# The CUDA backend's libraries link no CUDA library and carry no CUDA runtime: the shared
# library needs nothing of CUDA to load (the driver, libcuda.so.1, is opened at run
# time), and neither library defines or calls the runtime's functions (cudaMalloc, ...)
# or holds its code (__cudart*).
# Usage: sh tests/cuda/test_no_cudart.sh LIBFLOATADM_CUDA.so LIBFLOATADM_CUDA.a
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
so=$1
archive=$2
fail=0

needed=$(objdump -p "$so" | awk '/NEEDED/ { print $2 }')
case "$needed" in
    *cuda*|*nvrtc*|*nvJit*)
        echo "FAIL $so links a CUDA library: $(echo $needed)"; fail=1 ;;
    *) echo "ok   $so needs only: $(echo $needed)" ;;
esac
if command -v ldd >/dev/null 2>&1 && ldd "$so" | grep -i 'cuda'; then
    echo "FAIL ldd $so lists a CUDA library"; fail=1
fi
for lib in "$so" "$archive"; do
    symbols=$(nm -A "$lib" 2>/dev/null | grep -E ' [TtUuWwDdBbRr] (cuda[A-Z]|__cudart|__cudaRegister|__cudaPush)' || true)
    if [ -n "$symbols" ]; then
        echo "FAIL $lib holds CUDA runtime symbols:"; echo "$symbols" | head -5; fail=1
    else
        echo "ok   $lib: no CUDA runtime symbol"
    fi
done
[ "$fail" = 0 ] && echo "PASS no CUDA runtime in the CUDA backend"
exit "$fail"
