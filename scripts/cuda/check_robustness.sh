#!/bin/sh
# The CUDA path's robustness on a machine with one or two NVIDIA GPUs, in one run:
#   (1) device out of memory, injected with FLOAT_ADM_CUDA_MEMORY_LIMIT: the C API
#       (cuda_robust) and ffmpeg's float_adm_cuda on frames of hwupload_cuda and
#       hwupload -- a clear message, a non-zero exit, no score;
#   (2) CUDA frames from two devices (needs 2 GPUs, else skipped): hwupload_cuda with
#       device=0 and device=1, hwupload on -filter_hw_device against hwupload_cuda,
#       NVDEC on -hwaccel_device 0 and 1 -- the clear error and a non-zero exit; and
#       both inputs on device 1, which must work;
#   (3) long runs: LONG_FRAMES (20000) frames of 1920x1080 through the C API, device
#       free memory and RSS at frame 1000 and at the end; FFMPEG_FRAMES (5000) frames of
#       testsrc2 1080p -> hwupload_cuda -> float_adm_cuda, nvidia-smi's used memory (the
#       process's, where the container shows it, and GPU 0's) and ffmpeg's RSS sampled
#       every second.
#
# Usage, from the top of the source tree, after make and a test build of ffmpeg with
# the memory-limit hook (compiled only into test builds; (1) needs it in ffmpeg):
#   make BUILD=build/hooks EXTRA_CXXFLAGS=-DFLOAT_ADM_TEST_HOOKS build/hooks/bin/ffmpeg
#   [BUILD=build] [RESULTS=...] FFMPEG=build/hooks/bin/ffmpeg sh scripts/cuda/check_robustness.sh
# Writes 7 files to $RESULTS (scripts/cuda/lib.sh); the summary is printed last.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
BIN=$BUILD/tests
FFMPEG=${FFMPEG:-$BUILD/hooks/bin/ffmpeg}
LONG_FRAMES=${LONG_FRAMES:-20000}
FFMPEG_FRAMES=${FFMPEG_FRAMES:-5000}
WORK=$(mktemp -d /tmp/float_adm_robust.XXXXXX)
ff() { "$FFMPEG" -hide_banner -nostdin -y "$@"; }
fail() { note "FAIL $*"; status=1; }

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
    echo "host CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
    echo "kernel: $(uname -r)"
} > "$RESULTS/environment.txt" 2>&1
cat "$RESULTS/environment.txt" | tee -a "$summary"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

echo "==== (1) device out of memory, injected ===="
if timeout 60 "$BIN/cuda_robust" > "$RESULTS/robust_oom.log" 2>&1; then
    note "PASS C API: $(grep -m1 -E "limit 1048576|SKIP" "$RESULTS/robust_oom.log")"
else
    fail "C API out-of-memory checks: $(grep FAIL "$RESULTS/robust_oom.log" | head -n 3)"
fi

# expect_error NAME TEXT ARGS...: ffmpeg fails, says TEXT, and its log file got no frame.
expect_error() {
    name=$1 text=$2
    shift 2
    rm -f "$WORK/scores.json"
    echo "---- $name" >> "$RESULTS/ffmpeg_errors.log"
    if timeout 60 "$FFMPEG" -hide_banner -nostdin -y -v error "$@" -f null - > "$WORK/err.log" 2>&1; then
        fail "$name: ffmpeg exited 0"
    elif grep -q "frameNum" "$WORK/scores.json" 2>/dev/null; then
        fail "$name: a score was written"
    elif grep -q "$text" "$WORK/err.log"; then
        note "PASS $name: exit non-zero; $(grep -m1 "$text" "$WORK/err.log" | sed 's/^\[[^]]*\] //')"
    else
        fail "$name: $(head -n 2 "$WORK/err.log")"
    fi
    cat "$WORK/err.log" >> "$RESULTS/ffmpeg_errors.log"
}
src="testsrc2=s=1920x1080:d=0.2"
adm="float_adm_cuda=log_fmt=json:log_path=$WORK/scores.json"
(
    export FLOAT_ADM_CUDA_MEMORY_LIMIT=1048576
    expect_error "out of memory, hwupload_cuda frames" "not enough device memory" \
        -lavfi "$src,format=nv12,hwupload_cuda[a];$src,format=nv12,hwupload_cuda[b];[a][b]$adm"
    expect_error "out of memory, hwupload (one context)" "not enough device memory" \
        -init_hw_device cuda=gpu -filter_hw_device gpu \
        -lavfi "$src,format=nv12,hwupload[a];$src,format=nv12,hwupload[b];[a][b]$adm"
)
[ -s "$summary" ] && grep -q '^FAIL' "$summary" && status=1

echo "==== (2) CUDA frames from two devices ===="
if [ "$gpus" -lt 2 ]; then
    note "SKIP two devices: $gpus GPU(s) here"
else
    small="testsrc2=s=320x240:d=0.2"
    expect_error "hwupload_cuda device=0 and device=1" "on two devices" \
        -lavfi "$small,format=nv12,hwupload_cuda=device=0[a];$small,format=nv12,hwupload_cuda=device=1[b];[a][b]$adm"
    expect_error "hwupload on -filter_hw_device g1 and hwupload_cuda device=0" "on two devices" \
        -init_hw_device cuda=g0:0 -init_hw_device cuda=g1:1 -filter_hw_device g1 \
        -lavfi "$small,format=nv12,hwupload[a];$small,format=nv12,hwupload_cuda=device=0[b];[a][b]$adm"
    ff -f lavfi -i "$small" -c:v mpeg2video "$WORK/clip.mkv" 2> /dev/null
    expect_error "NVDEC on -hwaccel_device 0 and 1" "on two devices" \
        -init_hw_device cuda=g0:0 -init_hw_device cuda=g1:1 \
        -hwaccel cuda -hwaccel_device g0 -hwaccel_output_format cuda -i "$WORK/clip.mkv" \
        -hwaccel cuda -hwaccel_device g1 -hwaccel_output_format cuda -i "$WORK/clip.mkv" \
        -lavfi "[0:v][1:v]$adm"
    if ff -v error -lavfi "$small,format=nv12,hwupload_cuda=device=1[a];$small,format=nv12,hwupload_cuda=device=1[b];[a][b]$adm" \
          -f null - > "$WORK/err.log" 2>&1 && grep -q frameNum "$WORK/scores.json"; then
        note "PASS both inputs on device 1: scored"
    else
        fail "both inputs on device 1: $(head -n 2 "$WORK/err.log")"
    fi
fi

echo "==== (3) long runs ===="
timeout 120 "$BIN/cuda_robust" --long-run "$LONG_FRAMES" > "$RESULTS/robust_long.log" 2>&1 ||
    status=1
note "$(grep -E 'SUMMARY|FAIL|PASSED' "$RESULTS/robust_long.log" | tr '\n' ' ')"
grep '^frame' "$RESULTS/robust_long.log" | tee -a "$summary"

# One testsrc2, the distorted copy mirrored; frames counted through -progress.  Run
# directly (not through ff) so that $! is ffmpeg's own pid, whose RSS is sampled.
"$FFMPEG" -hide_banner -nostdin -y -v error -progress "$WORK/progress.txt" -filter_threads 4 -lavfi \
    "testsrc2=s=1920x1080:r=60,format=nv12,split[a][b];[b]hflip[c];[a]hwupload_cuda[d];[c]hwupload_cuda[r];[d][r]float_adm_cuda" \
    -frames:v "$FFMPEG_FRAMES" -f null - > "$RESULTS/ffmpeg_long.log" 2>&1 &
ffpid=$!
echo "seconds,frame,pid_used_MiB,gpu0_used_MiB,rss_KiB" > "$RESULTS/ffmpeg_long.csv"
start=$(date +%s)
while kill -0 "$ffpid" 2>/dev/null && [ $(( $(date +%s) - start )) -lt 150 ]; do
    frame=$(grep '^frame=' "$WORK/progress.txt" 2>/dev/null | tail -n 1 | cut -d= -f2)
    pid_mem=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
              awk -F', ' -v p="$ffpid" '$1 == p { print $2 }')
    gpu_mem=$(nvidia-smi -i 0 --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null)
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$ffpid/status" 2>/dev/null)
    echo "$(( $(date +%s) - start )),${frame:-0},${pid_mem:-},${gpu_mem:-},${rss:-}" >> "$RESULTS/ffmpeg_long.csv"
    sleep 1
done
kill "$ffpid" 2>/dev/null
wait "$ffpid"
rc=$?
frames=$(grep '^frame=' "$WORK/progress.txt" | tail -n 1 | cut -d= -f2)
# The first sample past 500 frames (warmed up) against the last one.
first=$(awk -F, 'NR > 1 && $2 >= 500 && $5 != "" { print; exit }' "$RESULTS/ffmpeg_long.csv")
last=$(awk -F, 'NR > 1 && $5 != "" { l = $0 } END { print l }' "$RESULTS/ffmpeg_long.csv")
note "ffmpeg long run: exit $rc, $frames frames; first sample (s,frame,pid MiB,GPU0 MiB,RSS KiB) $first; last $last"
if [ "$rc" -ne 0 ] || [ "${frames:-0}" -ne "$FFMPEG_FRAMES" ] || [ -z "$first" ]; then
    fail "ffmpeg long run did not complete: $(tail -n 2 "$RESULTS/ffmpeg_long.log")"
else
    echo "$first $last" | awk -F'[ ,]' '{
        gpu = $9 - $4; rss = $10 - $5
        printf "%s ffmpeg long run: GPU0 used memory growth %d MiB, RSS growth %d KiB\n",
               (gpu <= 2 && rss <= 4096) ? "PASS" : "FAIL", gpu, rss }' | tee -a "$summary"
    grep -q '^FAIL ffmpeg long run' "$summary" && status=1
fi

rm -rf "$WORK"
finish
