#!/bin/sh
# The CUDA backend's run on a machine with an NVIDIA GPU, in one run: environment, build
# checks, the RCPSS model on this host, CPU vs golden, CPU vs CUDA parity,
# compute-sanitizer (memcheck, racecheck) on small cases, and the benchmark.
# Logs go to $LOG_DIR; a summary is printed last.
#
# Here:   scripts/cuda/build_cuda_bin.sh     (binaries of HEAD into .cuda_bin/)
# There (the tree with .cuda_bin/ copied over): sh scripts/cuda/device_run.sh
# Environment: BENCH_FRAMES (300), SKIP_BENCH=1, SKIP_SANITIZER=1, SKIP_CPU_CHECKS=1 (the
# RCPSS model and CPU vs golden, which need no GPU: for runs that change only CUDA code).
# It writes 8 files to $LOG_DIR when everything runs.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
BIN=${BIN:-.cuda_bin}
LOG_DIR=${LOG_DIR:-/tmp/float_adm_cuda_out}
BENCH_FRAMES=${BENCH_FRAMES:-300}
mkdir -p "$LOG_DIR"
summary="$LOG_DIR/summary.txt"
: > "$summary"
status=0

section() { printf '\n==== %s ====\n' "$1"; }
# step NAME LOGFILE TIMEOUT COMMAND...: runs it, logs it, notes PASS/FAIL in the summary.
step() {
    name=$1 log=$2 limit=$3
    shift 3
    section "$name"
    start=$(date +%s)
    timeout "$limit" "$@" > "$LOG_DIR/$log" 2>&1
    rc=$?
    tail -n 40 "$LOG_DIR/$log"
    secs=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then verdict=PASS; else verdict="FAIL (exit $rc)"; status=1; fi
    printf '%-34s %-14s %4ss  %s\n' "$name" "$verdict" "$secs" "$log" >> "$summary"
}

section environment
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
    echo "kernel: $(uname -r); $(ldd --version | head -1)"
    command -v nvcc >/dev/null && nvcc --version | tail -2 | head -1
    cat "$BIN/BUILD_INFO"
} 2>&1 | tee "$LOG_DIR/environment.txt"

section "build checks"
{
    for arch in sm_75 sm_80 sm_86 sm_89 sm_90; do
        if cuobjdump --list-elf "$BIN/cuda_parity" | grep -q "$arch"; then echo "SASS $arch: yes"
        else echo "SASS $arch: MISSING"; fi
    done
    cuobjdump --list-ptx "$BIN/cuda_parity" | grep -qE "compute_90|sm_90.ptx" && echo "PTX compute_90: yes" || echo "PTX compute_90: MISSING"
    ldd "$BIN/cuda_parity" | grep -iE 'cuda|not found' || echo "no CUDA library needed at load time"
} 2>&1 | tee "$LOG_DIR/build_checks.txt"
grep -qE 'MISSING|not found' "$LOG_DIR/build_checks.txt" && status=1
printf '%-34s %-14s\n' "build checks" "$(grep -qE 'MISSING|not found' "$LOG_DIR/build_checks.txt" && echo FAIL || echo PASS)" >> "$summary"

if [ "${SKIP_CPU_CHECKS:-0}" != 1 ]; then
    step "RCPSS model on this host" rcp_model.log 120 "$BIN/unit_tests" --gtest_filter='RcpModel*'

    # The golden corpus, decompressed for corpus_test.
    corpus=/tmp/float_adm_corpus
    mkdir -p "$corpus/hosts"
    for f in tests/corpus/*.yuv.xz; do
        y="$corpus/$(basename "$f" .xz)"
        xz -dc "$f" > "$y" 2>/dev/null || python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$f" > "$y"
    done
    cp tests/corpus/golden.json "$corpus/"
    cp tests/corpus/hosts/*.json "$corpus/hosts/" 2>/dev/null
    step "CPU vs golden (corpus_test)" corpus_test.log 300 \
        env FLOAT_ADM_CORPUS_DIR="$corpus" FLOAT_ADM_SCORE="$BIN/float_adm_score" "$BIN/corpus_test"
fi

step "CPU vs CUDA parity" parity.log 180 "$BIN/cuda_parity" --corpus tests/corpus

if [ "${SKIP_BENCH:-0}" != 1 ]; then
    # Clocks and load once a second while the benchmark runs (the card as found).
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw \
        --format=csv -l 1 > "$LOG_DIR/bench_clocks.csv" 2>&1 &
    smi=$!
    step "benchmark" bench.log 100 "$BIN/cuda_bench" --frames "$BENCH_FRAMES"
    kill "$smi" 2>/dev/null
    section "clocks during the benchmark (csv)"
    awk -F, 'NR > 1 { print $2 "," $3 "," $4 }' "$LOG_DIR/bench_clocks.csv" | sort | uniq -c | sort -rn | head -5
fi

# After the benchmark, so that a slow sanitizer cannot cost the figures.  Racecheck on
# a case whose rows span two column chunks of the row-sums kernel.
if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    step "compute-sanitizer memcheck" sanitizer_memcheck.log 45 \
        compute-sanitizer --tool memcheck --error-exitcode 3 \
        "$BIN/cuda_parity" --corpus tests/corpus --no-random --threads 4 --filter "brick_63x65"
    step "compute-sanitizer racecheck" sanitizer_racecheck.log 75 \
        compute-sanitizer --tool racecheck --error-exitcode 3 \
        "$BIN/cuda_parity" --corpus tests/corpus --threads 4 --filter "641x359 8-bit adm_p_norm"
fi

section summary
grep -h SUMMARY "$LOG_DIR/parity.log" 2>/dev/null
grep -hA8 '^size ' "$LOG_DIR/bench.log" 2>/dev/null
cat "$summary"
exit $status
