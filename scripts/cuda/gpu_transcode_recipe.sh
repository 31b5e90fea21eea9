#!/bin/sh
# The GPU transcode recipe with in-loop scores, timed and checked on a machine
# with an NVIDIA GPU: NVDEC decodes the source, a CPU encoder (SVT-AV1)
# encodes it, a loopback decoder decodes the encode (NVDEC where FFmpeg takes
# -hwaccel for it, else software frames that float_adm uploads), and float_adm
# scores the CUDA frames against the NVDEC-decoded source.  Then the written
# file is scored again afterwards on the CPU: every output must be equal, bit
# for bit.  NVENC is tried once, to record what the GPU says.
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
    ff -f lavfi -i "testsrc2=s=$size:r=24,trim=end_frame=$frames" -c:v libsvtav1 -preset 10 -crf 30 \
        "$src" > "$work/src.log" 2>&1 || { note "FAIL $size: making the AV1 source: $(tail -n 2 "$work/src.log")"; continue; }
    encode="-map 0:v -vf hwdownload,format=nv12 -c:v libsvtav1 -preset 10 -crf 40 $enc"

    # Decode and encode alone: what the recipe costs without scoring.
    ff -benchmark -hwaccel cuda -hwaccel_output_format cuda -i "$src" $encode \
        > "$LOG_DIR/alone_$size.log" 2>&1 || note "FAIL $size: decode+encode alone"
    note "$size, $frames frames: NVDEC decode + SVT-AV1 encode alone: $(fps_of "$LOG_DIR/alone_$size.log") fps (rtime $(rtime_of "$LOG_DIR/alone_$size.log") s)"

    for loopback in nvdec software; do
        if [ $loopback = nvdec ]; then dec_opts="-hwaccel cuda -hwaccel_output_format cuda"; else dec_opts=; fi
        log=$LOG_DIR/recipe_${size}_$loopback.log
        ff -benchmark -hwaccel cuda -hwaccel_output_format cuda -i "$src" $encode \
            $dec_opts -dec 0:0 \
            -filter_complex "[dec:0][0:v]float_adm=debug=1:log_fmt=json:log_path=$work/inloop_$size.json[s]" \
            -map "[s]" -f null - > "$log" 2>&1 || { note "FAIL $size recipe, $loopback loopback: $(tail -n 2 "$log")"; continue; }
        note "$size recipe, $loopback loopback decoder: $(fps_of "$log") fps (rtime $(rtime_of "$log") s); $(grep -m1 -o 'CUDA backend[^:]*: .*' "$log" || true)"
        ff -v error -i "$enc" -i "$src" \
            -lavfi "[0:v][1:v]float_adm=debug=1:backend=cpu:log_fmt=json:log_path=$work/after_$size.json" \
            -f null - > "$work/after.log" 2>&1 || { note "FAIL $size: scoring afterwards on the CPU"; continue; }
        metrics "$work/inloop_$size.json" > "$work/a.txt"
        metrics "$work/after_$size.json" > "$work/b.txt"
        total=$(wc -l < "$work/a.txt")
        if [ "$total" -gt 0 ] && cmp -s "$work/a.txt" "$work/b.txt"; then
            note "  in-loop (GPU) vs afterwards (CPU): 0 of $total values differ"
        else
            note "  FAIL in-loop (GPU) vs afterwards (CPU): $(diff "$work/a.txt" "$work/b.txt" | grep -c '^<') of $total values differ"
        fi
        cp "$work/inloop_$size.json" "$LOG_DIR/inloop_${size}_$loopback.json" 2>/dev/null
        break
    done
done
rm -rf "$work"
cat "$summary"
