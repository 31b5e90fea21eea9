#!/bin/sh
# The CUDA backend on a machine with an NVIDIA GPU: that the libraries need no CUDA
# library (ldd, nm), that a missing driver is reported cleanly, CPU vs CUDA parity (every
# output's 64 bits, frames from device and from host memory: the corpus with all its
# option sets, generated sizes up to 3840x2160, and every corpus clip at adm_p_norm 1.5,
# 2.5, 4, 7.3 and 20), CPU vs CUDA maps (every block's sums and loss, 0 bits, over the
# same cases, and the scores with a map the same bits as without), the robustness
# checks (device out of memory, 2000 frames without memory growth), and the benchmark's
# medians at 1920x1080 and 3840x2160 (CUDA events), with a map's cost.
#
# Usage: [BUILD=build] [RESULTS=...] [BENCH_FRAMES=300] sh scripts/cuda/check_parity_and_timing.sh
# from the top of the source tree (the corpus is tests/corpus), after `make` (or with
# BUILD naming a build tree copied from another machine).  About 5 minutes on an H200.
# Where $BUILD/nvcc holds the same programs built with --cuda-kernels=nvcc, their
# benchmark runs too, for the comparison; where compute-sanitizer is installed, memcheck
# and racecheck on small cases.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
BENCH_FRAMES=${BENCH_FRAMES:-300}
need tests/cuda_parity tests/cuda_robust tests/cuda_no_driver tests/cuda_map bench/cuda_bench
so=$(ls "$BUILD"/lib/shared/libfloatadm_cuda.so.*.*.* 2>/dev/null | head -1)

environment

step "no CUDA library linked (ldd, nm)" no_cudart.log 30 \
    sh tests/cuda/test_no_cudart.sh "$so" "$BUILD/lib/libfloatadm_cuda.a"
step "no driver: a clean error" no_driver.log 30 \
    env FLOAT_ADM_CUDA_DRIVER=/nonexistent/libcuda.so.1 "$BUILD/tests/cuda_no_driver" \
    'could not be loaded (/nonexistent/libcuda.so.1)'

step "CPU vs CUDA parity (p_norm 3, 1)" parity.log 240 \
    "$BUILD/tests/cuda_parity" --corpus tests/corpus
step "CPU vs CUDA parity (p_norm 1.5 .. 20)" parity_p_norms.log 150 \
    "$BUILD/tests/cuda_parity" --corpus tests/corpus --no-random --p-norms 1.5,2.5,4,7.3,20 \
    --filter " p_norm "
step "CPU vs CUDA maps (p_norm 1 .. 20, every option set)" maps.log 240 \
    "$BUILD/tests/cuda_map" --corpus tests/corpus --p-norms 1.5,2.5,4,7.3,20
step "out of memory (cuda_robust)" robust.log 60 "$BUILD/tests/cuda_robust"

# Clocks and load once a second while the benchmarks run (the card as found).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw \
    --format=csv -l 1 > "$RESULTS/bench_clocks.csv" 2>&1 &
smi=$!
step "benchmark (clang PTX)" bench.log 240 "$BUILD/bench/cuda_bench" --frames "$BENCH_FRAMES" \
    --size 1920x1080:8 --size 3840x2160:8 --size 3840x2160:10
if [ -x "$BUILD/nvcc/bench/cuda_bench" ]; then
    step "benchmark (nvcc)" bench_nvcc.log 240 "$BUILD/nvcc/bench/cuda_bench" \
        --frames "$BENCH_FRAMES" --size 1920x1080:8 --size 3840x2160:8 --size 3840x2160:10
fi
kill "$smi" 2>/dev/null
step "2000 frames (cuda_robust --long-run)" robust_long.log 90 \
    "$BUILD/tests/cuda_robust" --long-run 2000

# Where the CUDA toolkit's compute-sanitizer is installed: memcheck and racecheck on
# small cases (a case whose rows span two column chunks of the row-sums kernel).
if command -v compute-sanitizer >/dev/null 2>&1; then
    step "compute-sanitizer memcheck" sanitizer_memcheck.log 60 \
        compute-sanitizer --tool memcheck --error-exitcode 3 \
        "$BUILD/tests/cuda_parity" --corpus tests/corpus --no-random --threads 4 --filter "brick_63x65"
    step "compute-sanitizer racecheck" sanitizer_racecheck.log 90 \
        compute-sanitizer --tool racecheck --error-exitcode 3 \
        "$BUILD/tests/cuda_parity" --corpus tests/corpus --threads 4 --filter "641x359 8-bit adm_p_norm"
fi

# Each GPU program skips where it finds no usable device: here that is a failure.
for log in parity.log parity_p_norms.log maps.log robust.log bench.log robust_long.log; do
    if grep -q 'no CUDA device' "$RESULTS/$log" 2>/dev/null; then
        note "FAIL $log: $(grep -m1 'no CUDA device' "$RESULTS/$log")"
        status=1
    fi
done

section results
{
    grep -h SUMMARY "$RESULTS/parity.log" "$RESULTS/parity_p_norms.log" "$RESULTS/maps.log" \
        2>/dev/null
    grep -h "^SUMMARY" "$RESULTS/robust_long.log" 2>/dev/null
    for b in bench bench_nvcc; do
        [ -f "$RESULTS/$b.log" ] && {
            echo "$b:"
            grep -hA4 '^size ' "$RESULTS/$b.log"
            grep -hA4 '^map size ' "$RESULTS/$b.log"
        }
    done
} | tee -a "$summary"
finish
