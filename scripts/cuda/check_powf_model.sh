#!/bin/sh
# The device powf model on a machine with an NVIDIA GPU, in one run: the host's powf
# build (probe and unit tests, both glibc builds through GLIBC_TUNABLES), the
# exhaustive check of every non-negative float for each p (both builds), CPU vs
# CUDA parity over the corpus at p 1.5, 2.5, 4, 7.3, 20 (both builds), and
# compute-sanitizer on one small powf case.  A summary is printed last.
#
# Usage, from the top of the source tree after make (a build with the CUDA backend,
# and the CUDA toolkit for build/tests/cuda_powf_check, a test program nvcc builds):
#   [BUILD=build] [RESULTS=...] sh scripts/cuda/check_powf_model.sh
# Environment: POWF_P (1,1.5,2.5,4,7.3,20), PARITY_P (1.5,2.5,4,7.3,20), SKIP_SSE2=1 (only
# the build the processor runs), SKIP_SANITIZER=1.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
BIN=$BUILD/tests
POWF_P=${POWF_P:-1,1.5,2.5,4,7.3,20}
PARITY_P=${PARITY_P:-1.5,2.5,4,7.3,20}
# glibc on x86-64 runs its SSE2 powf where these CPU features are masked.
SSE2_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA


printf '==== environment ====\n'
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
    echo "CPU fma: $(grep -qw fma /proc/cpuinfo && echo yes || echo no), avx2: $(grep -qw avx2 /proc/cpuinfo && echo yes || echo no)"
    echo "kernel: $(uname -r); $(ldd --version | head -1)"
    cat "$BUILD/BUILD_INFO" 2>/dev/null
} 2>&1 | tee "$RESULTS/environment.txt"

step "unit tests PowfModel (default build)" unit_powf.log 60 \
    "$BIN/unit_tests" --gtest_filter='PowfModel.*'
step "exhaustive powf, default build" exhaustive_default.log 240 \
    "$BIN/cuda_powf_check" --p "$POWF_P"
step "parity, corpus at p $PARITY_P" parity_powf.log 180 \
    "$BIN/cuda_parity" --corpus tests/corpus --no-random --p-norms "$PARITY_P" --filter " p_norm "
if [ "${SKIP_SSE2:-0}" != 1 ]; then
    step "unit tests PowfModel (SSE2 build)" unit_powf_sse2.log 60 \
        env GLIBC_TUNABLES=$SSE2_TUNABLES "$BIN/unit_tests" \
        --gtest_filter='PowfModel.ProbeOnThisHost:PowfModel.MatchesHostPowfBitForBit'
    step "exhaustive powf, SSE2 build" exhaustive_sse2.log 240 \
        env GLIBC_TUNABLES=$SSE2_TUNABLES "$BIN/cuda_powf_check" --p "$POWF_P"
    step "parity at p $PARITY_P, SSE2 build" parity_powf_sse2.log 180 \
        env GLIBC_TUNABLES=$SSE2_TUNABLES "$BIN/cuda_parity" --corpus tests/corpus --no-random \
        --p-norms "$PARITY_P" --filter " p_norm "
fi
if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    step "compute-sanitizer memcheck, p 2.5" sanitizer_powf.log 90 \
        compute-sanitizer --tool memcheck --error-exitcode 3 "$BIN/cuda_parity" \
        --corpus tests/corpus --no-random --threads 4 --p-norms 2.5 --filter "brick_63x65_yuv444p10le_scale p_norm"
fi

printf '\n==== summary ====\n'
grep -h '^host probe\|^device' "$RESULTS/exhaustive_default.log" 2>/dev/null
for f in exhaustive_default exhaustive_sse2; do
    [ -f "$RESULTS/$f.log" ] && { echo "$f:"; sed -n '/^p /,/^$/p' "$RESULTS/$f.log"; }
done
grep -h '^device arithmetic\|^SUMMARY' "$RESULTS"/parity_powf*.log 2>/dev/null
cat "$summary"
exit $status
