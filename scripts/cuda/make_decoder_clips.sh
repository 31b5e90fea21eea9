#!/bin/sh
# Makes the H.264 and HEVC pairs gpu_decoder_pace.sh times: 48 frames of testsrc2
# at 1920x1080 and 3840x2160, 30 fps, a reference at a high rate and a distorted
# one at a quarter of it, encoded by the x264 and x265 programs (FFmpeg's own
# build here has no H.264 or HEVC encoder, and data-centre GPUs have no NVENC).
#
# Usage: sh scripts/cuda/make_decoder_clips.sh FFMPEG CLIP_DIR
#   FFMPEG: any ffmpeg with testsrc2 and the Matroska muxer (this project's build/bin/ffmpeg)
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
ffmpeg=$1
out=$2
mkdir -p "$out"
frames=48
for size in 1920x1080 3840x2160; do
    case $size in 1920x1080) name=1080p rate=8000 ;; *) name=2160p rate=30000 ;; esac
    y4m="$out/src.y4m"
    "$ffmpeg" -hide_banner -v error -y -f lavfi -i "testsrc2=s=$size:r=30" -frames:v $frames -pix_fmt yuv420p "$y4m"
    for kind in ref dist; do
        if [ $kind = ref ]; then kbps=$rate; else kbps=$((rate / 4)); fi
        x264 --quiet --no-progress --preset veryfast --bitrate $kbps -o "$out/es.h264" "$y4m"
        x265 --log-level error --no-progress --preset veryfast --bitrate $kbps --output "$out/es.hevc" "$y4m"
        for codec in h264 hevc; do
            "$ffmpeg" -hide_banner -v error -y -framerate 30 -i "$out/es.$codec" -c copy "$out/${codec}_${name}_$kind.mp4"
            rm -f "$out/es.$codec"
        done
    done
    rm -f "$y4m"
done
ls -l "$out"
