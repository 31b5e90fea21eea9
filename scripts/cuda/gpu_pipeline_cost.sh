#!/bin/sh
# What float_adm_cuda costs beyond the decoders, on a machine with an NVIDIA GPU: two
# 4K inputs decoded by NVDEC into CUDA frames, timed alone (two null outputs)
# and into float_adm_cuda (the GPU scores them where they are).
#
# Usage: sh scripts/cuda/gpu_pipeline_cost.sh FFMPEG_DIR LOG_DIR [FRAMES]
#   FFMPEG_DIR: this project's ffmpeg and, in FFMPEG_DIR/lib, the codec libraries
#   it links (see scripts/cuda/gpu_transcode_recipe.sh).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=$(cd "$1" && pwd)
LOG_DIR=$2
frames=${3:-480}
mkdir -p "$LOG_DIR"
summary=$LOG_DIR/summary.txt
work=$(mktemp -d)
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ff() { "$dir/ffmpeg" -hide_banner -nostdin -y "$@"; }
note() { echo "$*" | tee -a "$summary"; }
fps_of() { tr '\r' '\n' < "$1" | sed -n 's/.*fps= *\([0-9.]*\).*/\1/p' | tail -n 1; }
rtime_of() { sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$1" | tail -n 1; }
: > "$summary"
note "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"

# Two 4K VP9 streams (NVDEC decodes VP9 on every recent GPU), the second a
# softened copy of the first.
src="testsrc2=s=3840x2160:r=30,trim=end_frame=$frames"
vp9="-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -row-mt 1 -b:v 20M"
ff -f lavfi -i "$src" $vp9 "$work/ref.webm" > "$work/enc.log" 2>&1 &&
    ff -f lavfi -i "$src,scale=1920:1080,scale=3840:2160" $vp9 "$work/dist.webm" >> "$work/enc.log" 2>&1 ||
    { note "FAIL making the inputs: $(tail -n 2 "$work/enc.log")"; exit 1; }

nvdec="-hwaccel cuda -hwaccel_output_format cuda -extra_hw_frames 8"
for run in 1 2; do
    ff -benchmark $nvdec -i "$work/dist.webm" $nvdec -i "$work/ref.webm" \
        -map 0:v -f null - -map 1:v -f null - > "$LOG_DIR/decode_alone_$run.log" 2>&1 ||
        note "FAIL decode alone: $(tail -n 2 "$LOG_DIR/decode_alone_$run.log")"
    ff -benchmark $nvdec -i "$work/dist.webm" $nvdec -i "$work/ref.webm" \
        -lavfi "[0:v][1:v]float_adm_cuda" -f null - > "$LOG_DIR/float_adm_$run.log" 2>&1 ||
        note "FAIL decode into float_adm_cuda: $(tail -n 2 "$LOG_DIR/float_adm_$run.log")"
    note "run $run, 3840x2160, $frames frames, two NVDEC inputs: decode alone $(fps_of "$LOG_DIR/decode_alone_$run.log") fps (rtime $(rtime_of "$LOG_DIR/decode_alone_$run.log") s); into float_adm_cuda $(fps_of "$LOG_DIR/float_adm_$run.log") fps (rtime $(rtime_of "$LOG_DIR/float_adm_$run.log") s)"
done
rm -rf "$work"
cat "$summary"
