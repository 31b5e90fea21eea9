#!/bin/sh
# Two builds of the core's benchmark side by side: ms per frame at 1, 2, 8 and 16
# threads (capped at this machine's cores), 1920x1080 and 3840x2160, the two binaries
# run in turn (the first of each pair alternating), medians over the runs; then, for
# 16 jobs, the executor calls (meetings of a frame's threads) per frame and the jobs
# run one after another, each timed (BM_JobBalance: all the jobs' work, and the frame's
# time on 16 free cores, the slowest job of each call added up, in CPU time: what the
# split itself costs, whatever else the machine runs).
#
#   bench/engine_threads.sh [-r RUNS] [-t "1 2 8 16"] [-m MIN_TIME] OLD NEW
#
# OLD and NEW are build directories holding bench/float_adm_bench (`make
# build/bench/float_adm_bench`), or the binaries themselves.  MIN_TIME is passed to
# --benchmark_min_time as it is (Google Benchmark's default when not given).
# SPDX-License-Identifier: LGPL-2.1-or-later

set -eu

runs=5
thread_list="1 2 8 16"
min_time=
usage="usage: $0 [-r RUNS] [-t \"THREADS...\"] [-m MIN_TIME] OLD_BUILD NEW_BUILD"
while getopts r:t:m: opt; do
    case $opt in
    r) runs=$OPTARG ;;
    t) thread_list=$OPTARG ;;
    m) min_time=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
case $runs in
'' | *[!0-9]* | 0) echo "$0: RUNS must be a positive integer, not '$runs'" >&2; exit 2 ;;
esac

binary() {
    if [ -f "$1" ]; then
        printf '%s\n' "$1"
    else
        printf '%s\n' "$1/bench/float_adm_bench"
    fi
}
old=$(binary "$1")
new=$(binary "$2")
for bin in "$old" "$new"; do
    [ -x "$bin" ] || { echo "$0: no benchmark binary at $bin" >&2; exit 1; }
done

# The benchmark registers 1, 2, 4, 8, 16 threads and this machine's core count.
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
threads=
for t in $thread_list; do
    case $t in
    '' | *[!0-9]* | 0) echo "$0: thread count '$t' is not a positive integer" >&2; exit 2 ;;
    esac
    [ "$t" -gt "$cores" ] && t=$cores
    case " $threads " in
    *" $t "*) ;;
    *) threads="$threads $t" ;;
    esac
done

results=$(mktemp)
trap 'rm -f "$results"' EXIT INT TERM

# One benchmark case of one binary: appends "name which real_time adm2 counters...",
# the counters in the order of the CSV header (alphabetical).
run_case() {
    bin=$1 which=$2 filter=$3
    if [ -n "$min_time" ]; then
        out=$("$bin" --benchmark_filter="$filter" --benchmark_format=csv \
            --benchmark_min_time="$min_time" 2>/dev/null) || true
    else
        out=$("$bin" --benchmark_filter="$filter" --benchmark_format=csv 2>/dev/null) || true
    fi
    header=$(printf '%s\n' "$out" | grep '^name,' | head -n 1)
    line=$(printf '%s\n' "$out" | grep '^"BM_' | head -n 1)
    case $line in
    *adm2*) ;;
    *) echo "$0: $bin gave no result for $filter" >&2; exit 1 ;;
    esac
    # The label holds commas: the counters are the last fields, after error_message.
    counters=$(printf '%s\n' "$header" | awk -F, '{
        for (i = 1; i <= NF; i++) if ($i == "error_message") print NF - i }')
    printf '%s\n' "$line" | awk -F, -v which="$which" -v counters="$counters" '{
        name = $1; gsub(/"/, "", name)
        adm2 = $0; sub(/.*adm2 /, "", adm2); sub(/".*/, "", adm2)
        printf "%s %s %s %s", name, which, $3, adm2
        for (i = NF - counters + 1; i <= NF; i++) printf " %s", $i
        printf "\n"
    }' >>"$results"
}

echo "old: $old"
echo "new: $new"
echo "cores: $cores, threads:$threads, runs: $runs"
run=1
while [ "$run" -le "$runs" ]; do
    for size in 1920/h:1080 3840/h:2160; do
        for t in $threads; do
            filter="^BM_ScoreFrame/w:$size/threads:$t/"
            if [ $((run % 2)) -eq 1 ]; then
                run_case "$old" old "$filter"
                run_case "$new" new "$filter"
            else
                run_case "$new" new "$filter"
                run_case "$old" old "$filter"
            fi
        done
        filter="^BM_JobBalance/w:$size/jobs:16/"
        run_case "$old" old "$filter"
        run_case "$new" new "$filter"
    done
    echo "run $run of $runs done" >&2
    run=$((run + 1))
done
for size in 1920/h:1080 3840/h:2160; do
    filter="^BM_ExecutorCalls/w:$size/jobs:16/"
    run_case "$old" old "$filter"
    run_case "$new" new "$filter"
done

sort "$results" | awk '
function median(list,   n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
            t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
        }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
# Sorts keys "WxH N" by pixels, then N.
function sort_keys(keys, order,   n, key, i, j, a, b, t) {
    n = 0
    for (key in keys)
        order[++n] = key
    for (i = 2; i <= n; i++)
        for (j = i; j > 1; j--) {
            split(order[j - 1], a, "[x ]"); split(order[j], b, "[x ]")
            if (a[1] * a[2] < b[1] * b[2] || (a[1] * a[2] == b[1] * b[2] && a[3] + 0 <= b[3] + 0))
                break
            t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
        }
    return n
}
{
    split($1, part, "/")
    sub(/^w:/, "", part[2]); sub(/^h:/, "", part[3]); sub(/^[a-z]+:/, "", part[4])
    key = part[2] "x" part[3] " " part[4]
    if ((key, part[1]) in adm2 && adm2[key, part[1]] != $4)
        differ[key] = 1
    adm2[key, part[1]] = $4
    if (part[1] == "BM_ExecutorCalls") {
        calls[key, $2] = $5
        call_keys[key] = 1
    } else if (part[1] == "BM_JobBalance") {
        critical[key, $2] = critical[key, $2] " " $5
        speedup[key, $2] = speedup[key, $2] " " $7
        work[key, $2] = work[key, $2] " " $8
        balance_keys[key] = 1
    } else {
        times[key, $2] = times[key, $2] " " $3
        keys[key] = 1
    }
}
END {
    printf "\nms per frame (BM_ScoreFrame, the thread pool as executor)\n"
    printf "%-10s %7s %10s %10s %8s\n", "size", "threads", "old", "new", "new/old"
    n = sort_keys(keys, order)
    for (i = 1; i <= n; i++) {
        split(order[i], k, " ")
        o = median(times[order[i], "old"]); w = median(times[order[i], "new"])
        printf "%-10s %7s %10.3f %10.3f %8.3f\n", k[1], k[2], o, w, w / o
    }
    printf "\n16 jobs one after another on one thread (BM_JobBalance, CPU time): ms of work\n"
    printf "per frame, ms on 16 free cores (the slowest job of each executor call, added\n"
    printf "up), speed-up over the frame without executor, executor calls per frame\n"
    printf "%-10s %17s %17s %17s %9s\n", "size", "work old/new", "16 cores old/new",
           "speed-up old/new", "calls"
    n = sort_keys(balance_keys, order)
    for (i = 1; i <= n; i++) {
        split(order[i], k, " ")
        printf "%-10s %8.3f %8.3f %8.3f %8.3f %8.2f %8.2f %4s %4s\n", k[1],
               median(work[order[i], "old"]), median(work[order[i], "new"]),
               median(critical[order[i], "old"]), median(critical[order[i], "new"]),
               median(speedup[order[i], "old"]), median(speedup[order[i], "new"]),
               calls[order[i], "old"], calls[order[i], "new"]
    }
    for (key in differ)
        printf "adm2 differs between the builds or runs at %s!\n", key
    printf "(medians of the runs, wall time; new/old < 1: new is faster)\n"
}'
