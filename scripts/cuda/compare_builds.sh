#!/bin/sh
# Speed work on a machine with an NVIDIA GPU, in one run: a candidate build against a
# baseline build (each a build tree holding tests/cuda_parity and bench/cuda_bench: make
# BUILD=DIR ..., or scripts/cuda/bundle_build.sh from another machine), stage by stage.
#
#   [RESULTS=...] sh scripts/cuda/compare_builds.sh CANDIDATE_BUILD [BASELINE_BUILD]
#
# In order: the baseline's benchmark (CUDA events, per-stage medians); the candidate's
# parity (every output's 64 bits against the CPU: corpus, generated sizes, p_norm
# 1.5, 2.5, 4, 7.3, 20); the candidate's benchmark; Nsight Compute on one 4K frame of
# each build, where ncu is installed (speed of light, occupancy, launch statistics,
# warp stalls; clocks left as found); compute-sanitizer memcheck and racecheck on the
# candidate, the generated sizes up to 322x182 (every edge case of the tiling) and one
# case whose rows span several chunks.  Logs go to $RESULTS; a summary is printed last.
# Environment: BENCH_FRAMES (300), BENCH_SIZES ("1920x1080:8 3840x2160:8 3840x2160:10"),
# SKIP_NCU=1, SKIP_SANITIZER=1, SKIP_PARITY=1.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
cand=${1:?usage: compare_builds.sh CANDIDATE_BUILD [BASELINE_BUILD]}
base=${2:-}
BUILD=$cand
. "$(dirname "$0")/lib.sh"
BENCH_FRAMES=${BENCH_FRAMES:-300}
BENCH_SIZES=${BENCH_SIZES:-1920x1080:8 3840x2160:8 3840x2160:10}

bench() { # DIR LOGFILE
    sizes=
    for s in $BENCH_SIZES; do sizes="$sizes --size $s"; done
    # shellcheck disable=SC2086
    step "benchmark $1" "$2" 120 "$1/bench/cuda_bench" --frames "$BENCH_FRAMES" --cpu-frames 5 $sizes
}
profile() { # DIR LOGFILE: the 8 kernels of the first 4K frame
    command -v ncu >/dev/null || { echo "ncu: not installed" >> "$summary"; return; }
    step "ncu $1" "$2" 180 ncu --clock-control none --launch-count 8 \
        --section SpeedOfLight --section LaunchStats --section Occupancy \
        --section WarpStateStats --section ComputeWorkloadAnalysis \
        "$1/bench/cuda_bench" --frames 1 --cpu-frames 0 --size 3840x2160:8
}

section environment
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader
    echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
    for d in "$cand" $base; do [ -f "$d/BUILD_INFO" ] && { echo "$d:"; cat "$d/BUILD_INFO"; }; done
    command -v ncu >/dev/null && ncu --version | tail -1
} 2>&1 | tee "$RESULTS/perf_environment.txt"

nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw \
    --format=csv -l 1 > "$RESULTS/perf_clocks.csv" 2>&1 &
smi=$!
[ -n "$base" ] && bench "$base" bench_baseline.log
if [ "${SKIP_PARITY:-0}" != 1 ]; then
    step "parity (p 3, 1; p_norm list)" parity.log 300 \
        "$cand/tests/cuda_parity" --corpus tests/corpus --p-norms 1.5,2.5,4,7.3,20
fi
bench "$cand" bench_candidate.log
kill "$smi" 2>/dev/null
if [ "${SKIP_NCU:-0}" != 1 ]; then
    [ -n "$base" ] && profile "$base" ncu_baseline.log
    profile "$cand" ncu_candidate.log
fi
if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    step "compute-sanitizer memcheck" sanitizer_memcheck.log 120 \
        compute-sanitizer --tool memcheck --error-exitcode 3 \
        "$cand/tests/cuda_parity" --corpus tests/corpus --quick --threads 4 --filter "generated"
    step "compute-sanitizer racecheck" sanitizer_racecheck.log 120 \
        compute-sanitizer --tool racecheck --error-exitcode 3 \
        "$cand/tests/cuda_parity" --corpus tests/corpus --threads 4 --filter "1280x720 8-bit adm_p_norm"
fi

section summary
awk -F, 'NR > 1 { print $2 "," $3 }' "$RESULTS/perf_clocks.csv" | sort | uniq -c | sort -rn | head -3
grep -h SUMMARY "$RESULTS/parity.log" 2>/dev/null
for log in bench_baseline.log bench_candidate.log; do
    [ -f "$RESULTS/$log" ] || continue
    echo "-- $log"
    grep -hE '^  (dwt|row|frame)|stages' "$RESULTS/$log"
    grep -hA4 '^size ' "$RESULTS/$log"
done
cat "$summary"
exit $status
