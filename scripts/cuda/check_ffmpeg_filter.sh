#!/bin/sh
# The float_adm_cuda filter on a machine with an NVIDIA GPU, in one run:
#   (a) parity: CUDA frames (hwupload_cuda on each input, hwupload with one device,
#       NVDEC) scored by float_adm_cuda against float_adm (the CPU) on the same
#       pictures, all 18 outputs of every frame compared as text (%.17g), the count of
#       differing values printed; the maps (map_path) where float_adm_cuda has that
#       option; the clear errors (software frames into float_adm_cuda, CUDA frames
#       into float_adm, frames of two GPUs, frames whose cropping is left undone);
#   (b) speed: ffmpeg -benchmark, 4K testsrc2 -> hwupload_cuda -> float_adm_cuda ->
#       null, and float_adm at 4K with -filter_threads 16, for the ratio.
#
# Usage, from the top of the source tree after make (the embedded ffmpeg with the
# CUDA backend): [BUILD=build] [RESULTS=...] sh scripts/cuda/check_ffmpeg_filter.sh
# Logs go to $RESULTS (scripts/cuda/lib.sh); FFMPEG names another ffmpeg.
# The corpus clips come with the tree (tests/corpus/*.yuv.xz).
# Environment: BENCH_FRAMES (300).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/lib.sh"
FFMPEG=${FFMPEG:-$BUILD/bin/ffmpeg}
BENCH_FRAMES=${BENCH_FRAMES:-300}
WORK=$(mktemp -d /tmp/float_adm_ffmpeg.XXXXXX)
ff() { "$FFMPEG" -hide_banner -nostdin -y "$@"; }

note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
note "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"
note "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"

unxz_to() { xz -dc "$1" > "$2" 2>/dev/null ||
    python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1" > "$2"; }

# The frames[].metrics of a JSON log, one "frame name value" a line.
metrics() {
    python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["frames"]:
    for k, v in f["metrics"].items(): print(f["frameNum"], k, repr(v))' "$1"
}

# compare NAME A.json B.json: counts values and differing values.
compare() {
    metrics "$2" > "$WORK/a.txt" && metrics "$3" > "$WORK/b.txt" || { note "FAIL $1: no log"; status=1; return; }
    total=$(wc -l < "$WORK/a.txt")
    differ=$(paste -d '|' "$WORK/a.txt" "$WORK/b.txt" | awk -F'|' '$1 != $2' | wc -l)
    if [ "$total" -gt 0 ] && [ "$differ" -eq 0 ] && [ "$(wc -l < "$WORK/b.txt")" -eq "$total" ]; then
        note "PASS $1: 0 of $total values differ"
    else
        note "FAIL $1: $differ of $total values differ"; status=1
    fi
}

# parity NAME W H PIXFMT DIST REF FORMAT: float_adm_cuda on the pictures uploaded by
# hwupload_cuda (a CUDA context per input) and by hwupload (one device for the graph),
# against float_adm on the same software frames.
parity() {
    name=$1 size=${2}x$3 pix=$4 dist=$5 ref=$6 fmt=$7
    raw="-f rawvideo -pix_fmt $pix -s $size"
    ff $raw -i "$dist" $raw -i "$ref" -lavfi \
        "[0:v]format=$fmt[d];[1:v]format=$fmt[r];[d][r]float_adm=debug=1:log_fmt=json:log_path=$RESULTS/$name.cpu.json" \
        -f null - 2> "$WORK/$name.cpu.log" || { note "FAIL $name cpu: $(tail -n 3 "$WORK/$name.cpu.log")"; status=1; }
    ff $raw -i "$dist" $raw -i "$ref" -lavfi \
        "[0:v]format=$fmt,hwupload_cuda[d];[1:v]format=$fmt,hwupload_cuda[r];[d][r]float_adm_cuda=debug=1:log_fmt=json:log_path=$RESULTS/$name.cuda.json" \
        -f null - 2> "$WORK/$name.cuda.log" || { note "FAIL $name cuda: $(grep -m 3 -i 'error\|float_adm' "$WORK/$name.cuda.log")"; status=1; }
    ff -init_hw_device cuda=gpu -filter_hw_device gpu $raw -i "$dist" $raw -i "$ref" -lavfi \
        "[0:v]format=$fmt,hwupload[d];[1:v]format=$fmt,hwupload[r];[d][r]float_adm_cuda=debug=1:log_fmt=json:log_path=$WORK/$name.shared.json" \
        -f null - 2> "$WORK/$name.shared.log" || { note "FAIL $name hwupload: $(grep -m 3 -i 'error\|float_adm' "$WORK/$name.shared.log")"; status=1; }
    compare "$name hwupload_cuda (two contexts) vs cpu" "$RESULTS/$name.cuda.json" "$RESULTS/$name.cpu.json"
    compare "$name hwupload (one context) vs cpu" "$WORK/$name.shared.json" "$RESULTS/$name.cpu.json"
}

echo "==== (a) parity ===="
c=tests/corpus
for clip in astronaut_576x324_yuv420p_x264 coins_384x304_yuv420p10le_x265 \
            flat_576x324_yuv420p16le_onestep rocket_1920x1080_yuv420p_vp9; do
    unxz_to $c/$clip.dis.yuv.xz "$WORK/$clip.dis.yuv"
    unxz_to $c/$clip.ref.yuv.xz "$WORK/$clip.ref.yuv"
done
a="$WORK/astronaut_576x324_yuv420p_x264"
parity astronaut-nv12 576 324 yuv420p $a.dis.yuv $a.ref.yuv nv12
parity astronaut-yuv420p 576 324 yuv420p $a.dis.yuv $a.ref.yuv yuv420p
parity astronaut-yuv444p 576 324 yuv420p $a.dis.yuv $a.ref.yuv yuv444p
parity coins-p010 384 304 yuv420p10le "$WORK/coins_384x304_yuv420p10le_x265.dis.yuv" \
       "$WORK/coins_384x304_yuv420p10le_x265.ref.yuv" p010
parity flat-p016 576 324 yuv420p16le "$WORK/flat_576x324_yuv420p16le_onestep.dis.yuv" \
       "$WORK/flat_576x324_yuv420p16le_onestep.ref.yuv" p016
parity coins-yuv444p16 384 304 yuv420p10le "$WORK/coins_384x304_yuv420p10le_x265.dis.yuv" \
       "$WORK/coins_384x304_yuv420p10le_x265.ref.yuv" yuv444p16
parity rocket-1080p-nv12 1920 1080 yuv420p "$WORK/rocket_1920x1080_yuv420p_vp9.dis.yuv" \
       "$WORK/rocket_1920x1080_yuv420p_vp9.ref.yuv" nv12

# NVDEC: both inputs decoded on the GPU; the CPU scores the same decoded
# frames downloaded (NVDEC's output may differ from software decoding).
raw="-f rawvideo -pix_fmt yuv420p -s 576x324"
ff $raw -i $a.dis.yuv -c:v mpeg2video -q:v 4 "$WORK/dist.mkv" 2> /dev/null
ff $raw -i $a.ref.yuv -c:v mpeg2video -q:v 1 "$WORK/ref.mkv" 2> /dev/null
hw="-hwaccel cuda -hwaccel_output_format cuda"
ff $hw -i "$WORK/dist.mkv" $hw -i "$WORK/ref.mkv" -lavfi \
    "[0:v][1:v]float_adm_cuda=debug=1:log_fmt=json:log_path=$RESULTS/nvdec.cuda.json" -f null - \
    2> "$WORK/nvdec.cuda.log" || { note "FAIL nvdec cuda: $(tail -n 3 "$WORK/nvdec.cuda.log")"; status=1; }
ff $hw -i "$WORK/dist.mkv" $hw -i "$WORK/ref.mkv" -lavfi \
    "[0:v]hwdownload,format=nv12[d];[1:v]hwdownload,format=nv12[r];[d][r]float_adm=debug=1:log_fmt=json:log_path=$RESULTS/nvdec.cpu.json" \
    -f null - 2> "$WORK/nvdec.cpu.log" || { note "FAIL nvdec cpu: $(tail -n 3 "$WORK/nvdec.cpu.log")"; status=1; }
compare "nvdec (mpeg2) cuda vs cpu" "$RESULTS/nvdec.cuda.json" "$RESULTS/nvdec.cpu.json"
# Output frames stay CUDA frames and carry the metadata, in order.
ff $hw -i "$WORK/dist.mkv" $hw -i "$WORK/ref.mkv" -lavfi \
    "[0:v][1:v]float_adm_cuda,hwdownload,format=nv12,metadata=print:file=$WORK/meta.txt" -f null - 2> /dev/null
note "nvdec metadata through hwdownload: $(grep -c '^lavfi.float_adm.adm2=' "$WORK/meta.txt" 2>/dev/null) frames; pts in order: $(awk '/^frame:/ { sub("pts:", "", $2); if ($2 + 0 < last) bad = 1; last = $2 + 0 } END { print bad ? "no" : "yes" }' "$WORK/meta.txt" 2>/dev/null)"

# maps NAME INPUTS CUDA_CHAIN CPU_CHAIN: the PFM maps (map_path) of float_adm_cuda
# against float_adm's on the same pictures, every other frame scored: the same
# files, byte for byte.  Where float_adm_cuda has no map_path, said and skipped (the
# maps are float_adm's: the CPU's).
maps() {
    name=$1 inputs=$2 cuda=$3 cpu=$4
    if ! ff -h filter=float_adm_cuda 2>/dev/null | grep -q '^ *map_path '; then
        note "SKIP maps $name: float_adm_cuda has no map_path option"; return
    fi
    mkdir -p "$WORK/$name.cuda.maps" "$WORK/$name.cpu.maps"
    # shellcheck disable=SC2086
    ff $inputs -filter_complex "${cuda}float_adm_cuda=n_subsample=2:map_path=$WORK/$name.cuda.maps/%d.pfm" \
        -f null - 2> "$WORK/$name.map.log" ||
        { note "FAIL maps $name cuda: $(tail -n 3 "$WORK/$name.map.log")"; status=1; return; }
    # shellcheck disable=SC2086
    ff $inputs -filter_complex "${cpu}float_adm=n_subsample=2:map_path=$WORK/$name.cpu.maps/%d.pfm" \
        -f null - 2> "$WORK/$name.map.log" ||
        { note "FAIL maps $name cpu: $(tail -n 3 "$WORK/$name.map.log")"; status=1; return; }
    frames=$(ls "$WORK/$name.cpu.maps" | wc -l)
    if [ "$frames" -gt 0 ] && diff -r "$WORK/$name.cuda.maps" "$WORK/$name.cpu.maps" > /dev/null; then
        note "PASS maps $name: $frames maps, cuda = cpu"
    else
        note "FAIL maps $name: float_adm_cuda's maps differ from float_adm's"; status=1
    fi
}
m="$WORK/rocket_1920x1080_yuv420p_vp9"
raw="-f rawvideo -pix_fmt yuv420p -s 1920x1080"
maps rocket-1080p "$raw -i $m.dis.yuv $raw -i $m.ref.yuv" \
    "[0:v]format=nv12,hwupload_cuda[d];[1:v]format=nv12,hwupload_cuda[r];[d][r]" \
    "[0:v]format=nv12[d];[1:v]format=nv12[r];[d][r]"
maps nvdec "$hw -i $WORK/dist.mkv $hw -i $WORK/ref.mkv" "[0:v][1:v]" \
    "[0:v]hwdownload,format=nv12[d];[1:v]hwdownload,format=nv12[r];[d][r]"
# The loss in slices: 10 block rows over 3 filter threads (3, 3 and 4 rows), 10-bit.
m="$WORK/coins_384x304_yuv420p10le_x265"
raw10="-f rawvideo -pix_fmt yuv420p10le -s 384x304"
maps coins-p010-3threads "-filter_complex_threads 3 $raw10 -i $m.dis.yuv $raw10 -i $m.ref.yuv" \
    "[0:v]format=p010,hwupload_cuda[d];[1:v]format=p010,hwupload_cuda[r];[d][r]" \
    "[0:v]format=p010[d];[1:v]format=p010[r];[d][r]"

# expect_error NAME TEXT ARGS...: ffmpeg fails and says TEXT.
expect_error() {
    name=$1 text=$2
    shift 2
    if ff -v error "$@" -f null - > "$WORK/err.log" 2>&1; then note "FAIL $name: ffmpeg succeeded"; status=1; return 1
    elif grep -q "$text" "$WORK/err.log"; then note "PASS $name: $(grep -m1 "$text" "$WORK/err.log" | sed 's/^\[[^]]*\] //')"
    else note "FAIL $name: $(head -n 2 "$WORK/err.log")"; status=1; return 1; fi
}
src="testsrc2=s=64x64:d=0.2"
# Each filter takes its own frames: CUDA frames into float_adm, software frames (one
# input or both) into float_adm_cuda, are refused by FFmpeg's format negotiation.
expect_error "CUDA frames into float_adm" "Impossible to convert" \
    -lavfi "$src,format=nv12,hwupload_cuda[a];$src,format=nv12,hwupload_cuda[b];[a][b]float_adm"
expect_error "software frames into float_adm_cuda" "Impossible to convert" \
    -lavfi "$src[a];$src[b];[a][b]float_adm_cuda"
expect_error "one input software frames into float_adm_cuda" "Impossible to convert" \
    -lavfi "$src,format=nv12,hwupload_cuda[a];$src,format=nv12[b];[a][b]float_adm_cuda"
# Frames whose cropping is left undone (a crop on CUDA frames sets the frame's crop
# fields; NVDEC's frames keep a picture's top and left cropping): refused, not scored
# with the rows and columns outside the picture.
expect_error "CUDA frames cropped by crop" "is cropped" \
    -lavfi "$src,format=nv12,hwupload_cuda,crop=48:48:8:8[a];$src,format=nv12,hwupload_cuda,crop=48:48:8:8[b];[a][b]float_adm_cuda"
expect_error "NVDEC frames of a picture cropped at its top" "is cropped" \
    $hw -i tests/data/cropped_top.h264 $hw -i tests/data/cropped_top.h264 -lavfi "[0:v][1:v]float_adm_cuda"
( export CUDA_VISIBLE_DEVICES=-1
  expect_error "hwupload_cuda, CUDA_VISIBLE_DEVICES=-1" "CUDA" \
      -lavfi "$src,hwupload_cuda[a];$src,hwupload_cuda[b];[a][b]float_adm_cuda" ) || status=1
# Frames of two GPUs: refused (decode or upload both on one).
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
    expect_error "frames of two devices" "on two devices" \
        -lavfi "$src,format=nv12,hwupload_cuda=device=0[a];$src,format=nv12,hwupload_cuda=device=1[b];[a][b]float_adm_cuda"
else
    note "SKIP frames of two devices: one GPU here"
fi

echo "==== (b) speed ===="
# fps=: the last "fps=" of ffmpeg's progress line; bench: -benchmark's rtime.
bench() {
    name=$1
    shift
    ff -benchmark "$@" -f null - > "$WORK/bench.log" 2>&1 || { note "FAIL bench $name: $(tail -n 3 "$WORK/bench.log")"; status=1; return; }
    fps=$(tr '\r' '\n' < "$WORK/bench.log" | grep -o 'fps=[ 0-9.]*' | tail -n 1 | tr -d ' ')
    rtime=$(grep -o 'rtime=[0-9.]*s' "$WORK/bench.log" | tail -n 1)
    note "bench $name: $BENCH_FRAMES frames, $fps, $rtime"
}
# 4K nv12 frames made once and read in a loop, so that the source costs little.
for v in dist ref; do
    ff -f lavfi -i "testsrc2=s=3840x2160:r=60:d=0.1" -vf "$([ $v = dist ] && echo 'vflip,')format=nv12" \
        -f rawvideo "$WORK/$v.nv12" 2> /dev/null
done
in4k="-stream_loop -1 -f rawvideo -pix_fmt nv12 -s 3840x2160 -framerate 60"
bench "4K nv12 hwupload (one context) -> float_adm_cuda" -init_hw_device cuda=gpu -filter_hw_device gpu \
    $in4k -i "$WORK/dist.nv12" $in4k -i "$WORK/ref.nv12" \
    -lavfi "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]float_adm_cuda" -frames:v $BENCH_FRAMES
bench "4K nv12 hwupload_cuda (two contexts) -> float_adm_cuda" $in4k -i "$WORK/dist.nv12" $in4k -i "$WORK/ref.nv12" \
    -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda[r];[d][r]float_adm_cuda" -frames:v $BENCH_FRAMES
bench "4K nv12 hwupload_cuda only" $in4k -i "$WORK/dist.nv12" $in4k -i "$WORK/ref.nv12" \
    -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda,nullsink;[d]null" -frames:v $BENCH_FRAMES
bench "4K nv12 float_adm (CPU), -filter_threads 16" $in4k -i "$WORK/dist.nv12" $in4k -i "$WORK/ref.nv12" \
    -filter_threads 16 -lavfi "[0:v][1:v]float_adm" -frames:v $BENCH_FRAMES

rm -rf "$WORK"
finish
