#!/bin/sh
# The GPU transcode recipe with in-loop scores, timed and checked on a machine
# with an NVIDIA GPU: NVDEC decodes the source (VP9, whose decoding is exact
# by its specification, so NVDEC and the CPU decode the same pictures; MPEG-2's
# IDCT is not, and its scores would differ), a CPU encoder (SVT-AV1) encodes it, a loopback decoder decodes the
# encode (in software: FFmpeg takes no -hwaccel for loopback decoders, so hwupload
# puts those frames on the GPU, on the one device the graph and NVDEC share), and
# float_adm_cuda scores them against the NVDEC-decoded CUDA frames of the source,
# each paired with the source frame nearest in time (ts_sync_mode=nearest: the
# loopback decoder's timestamps are Matroska's milliseconds).  Then the written
# file is scored again afterwards on the CPU (float_adm): every output must be
# equal, bit for bit.  NVENC is tried once, to record what the GPU says.
#
# Usage: sh scripts/cuda/gpu_transcode_recipe.sh FFMPEG_DIR LOG_DIR [FRAMES_1080P FRAMES_4K]
#   FFMPEG_DIR: this project's build/bin/ffmpeg in it, the codec libraries it
#   links in FFMPEG_DIR/lib (copied from the build machine: `ldd build/bin/ffmpeg`).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=$(cd "$1" && pwd)
LOG_DIR=$2
frames_1080=${3:-240}
frames_2160=${4:-120}
mkdir -p "$LOG_DIR"
summary=$LOG_DIR/summary.txt
work=$(mktemp -d)
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ff() { "$dir/ffmpeg" -hide_banner -nostdin -y "$@"; }
note() { echo "$*" | tee -a "$summary"; }
: > "$summary"

note "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
note "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"

# NVENC: present on most NVIDIA GPUs, absent on data-centre Hopper (H100/H200).
if ff -f lavfi -i testsrc2=s=256x256:d=0.1 -c:v hevc_nvenc -f null - > "$work/nvenc.log" 2>&1; then
    note "hevc_nvenc: encodes on this GPU"
else
    note "hevc_nvenc: fails here: $(grep -m1 -iE 'nvenc|error' "$work/nvenc.log")"
fi

# fps: the last "fps=" ffmpeg printed; rtime: -benchmark's wall time.
fps_of() { tr '\r' '\n' < "$1" | sed -n 's/.*fps= *\([0-9.]*\).*/\1/p' | tail -n 1; }
rtime_of() { sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$1" | tail -n 1; }
metrics() { tr ',' '\n' < "$1" | grep -E '"(adm|aim)[a-z0-9_]*": ' | sed 's/^ *//'; }

for size in 1920x1080 3840x2160; do
    if [ $size = 1920x1080 ]; then frames=$frames_1080; else frames=$frames_2160; fi
    src=$work/src_$size.mkv enc=$work/enc_$size.mkv
    ff -f lavfi -i "testsrc2=s=$size:r=24,trim=end_frame=$frames" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 30M -row-mt 1 \
        "$src" > "$work/src.log" 2>&1 || { note "FAIL $size: making the source: $(tail -n 2 "$work/src.log")"; continue; }
    encode="-map 0:v -vf hwdownload,format=nv12 -c:v libsvtav1 -preset 10 -crf 40 $enc"

    # Decode and encode alone: what the recipe costs without scoring.
    ff -benchmark -hwaccel cuda -hwaccel_output_format cuda -i "$src" $encode \
        > "$work/alone_$size.log" 2>&1 || note "FAIL $size: decode+encode alone"
    note "$size, $frames frames: NVDEC decode + SVT-AV1 encode alone: $(fps_of "$work/alone_$size.log") fps (rtime $(rtime_of "$work/alone_$size.log") s)"

    for loopback in software; do
        log=$LOG_DIR/recipe_${size}_$loopback.log
        ff -benchmark -v verbose -init_hw_device cuda=gpu -filter_hw_device gpu \
            -hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda -i "$src" $encode \
            -dec 0:0 \
            -filter_complex "[dec:0]hwupload[d];[d][0:v]float_adm_cuda=debug=1:ts_sync_mode=nearest:log_fmt=json:log_path=$work/inloop_$size.json[s]" \
            -map "[s]" -f null - > "$log" 2>&1 || { note "FAIL $size recipe, $loopback loopback: $(tail -n 2 "$log")"; continue; }
        note "$size recipe, $loopback loopback decoder: $(fps_of "$log") fps (rtime $(rtime_of "$log") s)"
        note "  $(grep -m1 -o 'CUDA backend[^:]*: .*' "$log" || echo 'no CUDA backend line')"
        # Afterwards on the CPU: paired by timestamp as in the loop, and frame by
        # frame (setpts=N/TB on both), which is what the scores must be.
        ff -v warning -i "$enc" -i "$src" \
            -lavfi "[0:v][1:v]float_adm=debug=1:ts_sync_mode=nearest:log_fmt=json:log_path=$work/after_$size.json" \
            -f null - > "$LOG_DIR/after_$size.log" 2>&1 || { note "FAIL $size: scoring afterwards on the CPU"; continue; }
        ff -v warning -i "$enc" -i "$src" \
            -lavfi "[0:v]setpts=N/TB[d];[1:v]setpts=N/TB[r];[d][r]float_adm=debug=1:log_fmt=json:log_path=$work/index_$size.json" \
            -f null - > "$work/index.log" 2>&1 || { note "FAIL $size: scoring frame by frame on the CPU"; continue; }
        metrics "$work/index_$size.json" > "$work/c.txt"
        for run in inloop after; do
            metrics "$work/${run}_$size.json" > "$work/a.txt"
            total=$(wc -l < "$work/c.txt")
            if [ "$total" -gt 0 ] && cmp -s "$work/a.txt" "$work/c.txt"; then
                note "  $run vs frame by frame on the CPU: 0 of $total values differ"
            else
                note "  FAIL $run vs frame by frame on the CPU: $(diff "$work/a.txt" "$work/c.txt" | grep -c '^<') of $(wc -l < "$work/a.txt") values differ (frame by frame: $total)"
            fi
        done
        grep -h "float_adm" "$log" "$LOG_DIR/after_$size.log" | grep -iE "warn|half a frame|no reference|differ" | head -n 4 >> "$summary"
        [ $size = 1920x1080 ] && cp "$work/inloop_$size.json" "$work/after_$size.json" "$LOG_DIR/"
        break
    done
done
rm -rf "$work"
cat "$summary"
