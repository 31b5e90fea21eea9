#!/bin/sh
# Frames from host memory on a machine with an NVIDIA GPU, in one run (about 4 minutes,
# at most 7.5: each step's time limit is cut to what is left of the run's): parity, then
# the benchmark of this tree's build against the baseline's, then a short summary table.
# Run from the top of a copy of the source tree holding the folder that
# scripts/cuda/bundle_host_paths.sh made (DIR, default .gpu: DIR/new and DIR/base).
#   1. cuda_host: the host paths (arrays copied over threads or pinned in place, files
#      read into pinned buffers) at depth 1, 2, 3, the library's and 16 against the CPU,
#      bit for bit, on the corpus and generated frames up to 3840x2160; the API's
#      refusals; that waiting for frames sleeps
#   2. cuda_parity --quick: device, host and mixed frames, every option set of the corpus
#   3. cuda_host_bench: the C API's paths against the CPU at all threads and the copy
#      floor, 3840x2160 and 1920x1080 8-bit, arrays in memory and raw files in $SHM
#   4. host_faces.py: Scorer.score_frames, score_files and float_adm_score, new and base
#      builds, GPU and CPU at all threads, the same bits everywhere; the corpus through
#      the new build's faces, GPU against CPU
#   5. cuda_bench at 3840x2160 8-bit of both builds (the kernels' own time)
# Needs the NVIDIA driver and python3 with numpy.  Logs and summary.txt go to RESULTS
# (default DIR/results).
# Usage: [RESULTS=...] [SHM=/dev/shm] [RUNS=2] sh scripts/cuda/check_host_paths.sh [DIR]
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
gpu=${1:-.gpu}
BUILD=$gpu/new
RESULTS=${RESULTS:-$gpu/results}
. "$(dirname "$0")/lib.sh"
need bin/float_adm_score tests/cuda_host tests/cuda_parity bench/cuda_host_bench \
    lib/shared/libfloatadm.so.1 lib/shared/libfloatadm_cuda.so.1
[ -x "$gpu/base/bin/float_adm_score" ] || { echo "$gpu/base is missing: bundle again" >&2; exit 2; }
RUNS=${RUNS:-2}
PYTHON=${PYTHON:-python3}
# The files go to /dev/shm where it holds them (3 GB at 3840x2160), else to TMPDIR.
SHM=${SHM:-/dev/shm}
free_kb=$(df -Pk "$SHM" 2>/dev/null | awk 'NR == 2 { print $4 }')
if [ "${free_kb:-0}" -lt 4000000 ]; then
    note "NOTE $SHM has ${free_kb:-no} kB free: files in ${TMPDIR:-/tmp} instead"
    SHM=${TMPDIR:-/tmp}
fi
started=$(date +%s)
BUDGET=${BUDGET:-450}

# timed NAME LOG LIMIT COMMAND...: step, its limit cut to what is left of BUDGET seconds.
timed() {
    left=$((BUDGET - ($(date +%s) - started)))
    limit=$3
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 5 ]; then
        verdict "$1" 124 0 "$2 (not run: no time left)"
        return
    fi
    name=$1 log=$2
    shift 3
    step "$name" "$log" "$limit" "$@"
}

environment
for b in new base; do echo "$b: $(tr '\n' ' ' < "$gpu/$b/BUILD_INFO")"; done |
    tee -a "$RESULTS/environment.txt"

timed "host paths vs CPU, every depth (cuda_host)" cuda_host.log 100 \
    "$BUILD/tests/cuda_host" --corpus tests/corpus --tmp "$SHM"
timed "CPU vs CUDA parity --quick (cuda_parity)" parity.log 60 \
    "$BUILD/tests/cuda_parity" --corpus tests/corpus --quick
timed "C API host paths benchmark (cuda_host_bench)" bench_c.log 90 \
    "$BUILD/bench/cuda_host_bench" --frames 200 --dir "$SHM" \
    --size 3840x2160:8 --size 1920x1080:8
timed "faces: new vs base, GPU vs CPU (host_faces.py)" faces.log 200 \
    "$PYTHON" bench/cuda/host_faces.py --build "new=$gpu/new" --build "base=$gpu/base" \
    --dir "$SHM" --runs "$RUNS" --corpus tests/corpus --json "$RESULTS/faces.json"
for b in new base; do
    timed "kernels, 3840x2160 ($b cuda_bench)" "kernels_$b.log" 30 \
        "$gpu/$b/bench/cuda_bench" --frames 100 --cpu-frames 2 --size 3840x2160:8
done

# Each GPU program skips where it finds no usable device: here that is a failure.
for log in cuda_host.log parity.log bench_c.log; do
    if grep -q 'no CUDA device' "$RESULTS/$log" 2>/dev/null; then
        note "FAIL $log: $(grep -m1 'no CUDA device' "$RESULTS/$log")"
        status=1
    fi
done

# The short table, after the steps' verdicts in the summary finish prints.
{
    echo "$(grep -m1 '^device:' "$RESULTS/bench_c.log")"
    grep -h -e '^SUMMARY' "$RESULTS/cuda_host.log" "$RESULTS/parity.log"
    grep -h -e '^HOST BENCH' -e '^FACES' "$RESULTS/bench_c.log" "$RESULTS/faces.log"
    echo
    echo "C API (cuda_host_bench), new build:"
    grep -E '^[0-9]+x[0-9]+ [0-9]+-bit|^  (CPU|GPU|copy floor)' "$RESULTS/bench_c.log"
    echo
    echo "faces (host_faces.py), new and base builds:"
    sed -n '/CPU at [0-9]* threads/,/^$/p' "$RESULTS/faces.log"
    grep -h '^  target' "$RESULTS/faces.log"
    echo
    for b in new base; do
        ms=$(awk '$1 == "3840x2160" && $2 == "8-bit" { print $3; exit }' "$RESULTS/kernels_$b.log")
        echo "kernels alone ($b cuda_bench), 3840x2160 8-bit: ${ms:--} ms a frame (median)"
    done
    echo "whole run: $(( $(date +%s) - started )) s"
} >> "$summary" 2>/dev/null
finish
