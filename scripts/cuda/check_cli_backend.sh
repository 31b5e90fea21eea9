#!/bin/sh
# float_adm_score --backend cuda against --backend cpu on a machine with an NVIDIA GPU,
# in one run: the CLI tests (their --backend cuda branch), identical logs on corpus clips
# (default options and adm_p_norm=2.5; the fps field aside), then whole-process wall
# times of 1080p and 2160p raw pairs made from the 1080p corpus clip (repeated; 2x2
# tiled for 2160p), --backend cuda vs --backend cpu --threads 16, in the page cache.
#
# Usage, from the top of the source tree after make (a build with the CUDA backend):
#   [BUILD=build] [RESULTS=...] sh scripts/cuda/check_cli_backend.sh
# Logs go to $RESULTS (scripts/cuda/lib.sh).
# Environment: FRAMES_1080 (300), FRAMES_2160 (200), RUNS (3).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
need bin/float_adm_score
bin=$(cd "$BUILD/bin" && pwd)/float_adm_score
RESULTS=$(cd "$RESULTS" && pwd)
FRAMES_1080=${FRAMES_1080:-300}
FRAMES_2160=${FRAMES_2160:-200}
RUNS=${RUNS:-3}
root=$(pwd)
work=$(mktemp -d /tmp/float_adm_cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc

echo "==== tests/cli/test_cli.sh ===="
(cd "$work" && sh "$root/tests/cli/test_cli.sh" "$bin" "$root/tests/corpus") \
    > "$RESULTS/test_cli.log" 2>&1 || status=1
tail -n 3 "$RESULTS/test_cli.log"

echo "==== cuda vs cpu logs ===="
for clip in coins_384x304_yuv420p10le_x265 camera_512x384_yuv444p12le_noise \
    rocket_1920x1080_yuv420p_vp9 brick_63x65_yuv444p10le_scale; do
    size=$(echo "$clip" | cut -d_ -f2)
    fmt=$(echo "$clip" | cut -d_ -f3)
    for k in ref dis; do xz -dc "tests/corpus/$clip.$k.yuv.xz" > "$work/$k.yuv"; done
    for opt in "" "--option adm_p_norm=2.5"; do
        for backend in cpu cuda; do
            # shellcheck disable=SC2086
            "$bin" --reference "$work/ref.yuv" --distorted "$work/dis.yuv" \
                --width "${size%x*}" --height "${size#*x}" --pix-fmt "$fmt" $opt \
                --backend $backend --quiet --json "$work/$backend.json" 2> "$work/$backend.err" ||
                status=1
            sed -e 's/^\(  "fps": \).*,$/\1-,/' "$work/$backend.json" > "$work/$backend.txt"
        done
        if cmp -s "$work/cpu.txt" "$work/cuda.txt"; then verdict=identical; else
            verdict=DIFFERENT; status=1; fi
        echo "$clip ${opt:-default}: $verdict ($(grep -c frameNum "$work/cuda.json") frames)" \
            "$(cat "$work/cuda.err")"
    done
done

echo "==== whole-process wall time ===="
xz -dc tests/corpus/rocket_1920x1080_yuv420p_vp9.ref.yuv.xz > "$work/m.ref"
xz -dc tests/corpus/rocket_1920x1080_yuv420p_vp9.dis.yuv.xz > "$work/m.dis"
for k in ref dis; do
    i=0
    while [ $i -lt $((FRAMES_1080 / 2)) ]; do cat "$work/m.$k"; i=$((i + 1)); done \
        > "$work/1080.$k.yuv"
done
if command -v python3 >/dev/null; then
    for k in ref dis; do
        python3 - "$work/m.$k" "$work/2160.$k.yuv" "$FRAMES_2160" <<'PY'
import sys
w, h = 1920, 1080
data = open(sys.argv[1], "rb").read()
size = w * h * 3 // 2
frames = []
for f in range(len(data) // size):
    frame = data[f * size:(f + 1) * size]
    out = bytearray()
    for plane, pw, ph in ((frame[:w * h], w, h), (frame[w * h:w * h * 5 // 4], w // 2, h // 2),
                          (frame[w * h * 5 // 4:], w // 2, h // 2)):
        rows = b"".join(plane[y * pw:(y + 1) * pw] * 2 for y in range(ph))
        out += rows * 2
    frames.append(bytes(out))
with open(sys.argv[2], "wb") as o:
    for i in range(int(sys.argv[3])):
        o.write(frames[i % len(frames)])
PY
    done
else
    echo "python3 not found: no 2160p pair"
fi
for res in 1080 2160; do
    [ -f "$work/$res.ref.yuv" ] || continue
    if [ $res = 1080 ]; then geo="--width 1920 --height 1080"; else geo="--width 3840 --height 2160"; fi
    cat "$work/$res.ref.yuv" "$work/$res.dis.yuv" > /dev/null
    for backend in "cuda" "cpu --threads 16"; do
        times=""
        for run in $(seq "$RUNS"); do
            rm -f "$work/bench.json"
            start=$(date +%s%N)
            # shellcheck disable=SC2086
            "$bin" --reference "$work/$res.ref.yuv" --distorted "$work/$res.dis.yuv" $geo \
                --pix-fmt yuv420p --backend $backend --quiet --json "$work/bench.json" ||
                status=1
            end=$(date +%s%N)
            times="$times $(( (end - start) / 1000000 ))"
            cp "$work/bench.json" "$work/bench_${res}_${backend%% *}.json"
        done
        frames=$(grep -c frameNum "$work/bench.json")
        echo "${res}p $frames frames --backend $backend: wall ms$times"
    done
    for b in cpu cuda; do
        sed -e 's/^\(  "fps": \).*,$/\1-,/' "$work/bench_${res}_$b.json" > "$work/bench_$b.txt"
    done
    cmp -s "$work/bench_cpu.txt" "$work/bench_cuda.txt" && echo "${res}p logs: identical" ||
        { echo "${res}p logs: DIFFERENT"; status=1; }
done
if command -v /usr/bin/time >/dev/null && [ -f "$work/2160.ref.yuv" ]; then
    /usr/bin/time -v "$bin" --reference "$work/2160.ref.yuv" --distorted "$work/2160.dis.yuv" \
        --width 3840 --height 2160 --pix-fmt yuv420p --backend cuda --quiet 2>&1 |
        grep -E "Elapsed|Maximum resident|Percent of CPU"
fi
echo "status $status"
exit $status
