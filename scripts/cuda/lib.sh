# Shared steps of the GPU scripts in scripts/cuda/ (sourced, not run).  Each script
# writes its logs and a summary.txt into $RESULTS and exits non-zero when a step failed.
#   BUILD  the build tree whose programs run [build]: `make` there first, or copy one
#          built elsewhere (the CUDA backend needs only the NVIDIA driver at run time)
#   RESULTS where the logs go [$BUILD/cuda-results]
# SPDX-License-Identifier: LGPL-2.1-or-later

BUILD=${BUILD:-build}
RESULTS=${RESULTS:-$BUILD/cuda-results}
mkdir -p "$RESULTS"
summary="$RESULTS/summary.txt"
: > "$summary"
status=0

section() { printf '\n==== %s ====\n' "$1"; }

# note TEXT: a line of the summary, printed too.
note() { echo "$*" | tee -a "$summary"; }

# verdict NAME RC SECONDS LOG: PASS or FAIL in the summary.
verdict() {
    if [ "$2" -eq 0 ]; then v=PASS; else v="FAIL (exit $2)"; status=1; fi
    [ "$2" -eq 124 ] && v="FAIL (timed out)"
    printf '%-40s %-18s %4ss  %s\n' "$1" "$v" "$3" "$4" >> "$summary"
}

# step NAME LOG TIMEOUT COMMAND...: runs it with its output in $RESULTS/LOG, shows the
# log's end, and notes the verdict.
step() {
    name=$1 log=$2 limit=$3
    shift 3
    section "$name"
    start=$(date +%s)
    timeout "$limit" "$@" > "$RESULTS/$log" 2>&1
    rc=$?
    tail -n 30 "$RESULTS/$log"
    verdict "$name" "$rc" "$(( $(date +%s) - start ))" "$log"
}

# need PROGRAM...: stops with a message when a program of $BUILD is missing.
need() {
    for p in "$@"; do
        [ -x "$BUILD/$p" ] || { echo "$BUILD/$p is missing: run make (or set BUILD)" >&2; exit 2; }
    done
}

# The machine, the driver, the GPU, into $RESULTS/environment.txt.
environment() {
    section environment
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
        echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
        echo "kernel: $(uname -r); $(ldd --version 2>&1 | head -1)"
        [ -f "$BUILD/BUILD_INFO" ] && cat "$BUILD/BUILD_INFO"
    } 2>&1 | tee "$RESULTS/environment.txt"
}

# The summary, last.
finish() {
    section summary
    cat "$summary"
    exit "$status"
}
