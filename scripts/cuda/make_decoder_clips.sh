#!/bin/sh
# Makes the H.264, HEVC and HEVC Main 10 pairs that gpu_decoder_pace.sh and
# bench/ffmpeg_sched.py time: 48 frames of testsrc2 at 1920x1080 and 3840x2160,
# 30 fps, a reference at a high rate and a distorted one at a quarter of it,
# encoded by the x264 and x265 programs (FFmpeg's own build here has no H.264 or
# HEVC encoder, and data-centre GPUs have no NVENC).
# x264 writes Matroska, whose timestamps carry its B-frames' order into the mp4;
# x265 writes a bare stream, whose frames get timestamps in decoding order when
# remuxed, so its clips have no B-frames (with them the timestamps of the mp4 would
# run backwards and the filter would pair the wrong frames).
#
# Usage: sh scripts/cuda/make_decoder_clips.sh FFMPEG CLIP_DIR
#   FFMPEG: any ffmpeg with testsrc2, the Matroska demuxer and the mp4 muxer (this
#   project's build/bin/ffmpeg), with ffprobe beside it
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
ffmpeg=$1
ffprobe=$(dirname "$ffmpeg")/ffprobe
out=$2
mkdir -p "$out"
frames=48
for size in 1920x1080 3840x2160; do
    case $size in 1920x1080) name=1080p rate=8000 ;; *) name=2160p rate=30000 ;; esac
    y4m="$out/src.y4m"
    "$ffmpeg" -hide_banner -v error -y -f lavfi -i "testsrc2=s=$size:r=30" -frames:v $frames -pix_fmt yuv420p "$y4m"
    for kind in ref dist; do
        if [ $kind = ref ]; then kbps=$rate; else kbps=$((rate / 4)); fi
        x264 --quiet --no-progress --preset veryfast --bitrate $kbps -o "$out/es.mkv" "$y4m"
        x265 --log-level error --no-progress --preset veryfast --bframes 0 --bitrate $kbps \
            --output "$out/es.hevc" "$y4m"
        "$ffmpeg" -hide_banner -v error -y -i "$out/es.mkv" -c copy "$out/h264_${name}_$kind.mp4"
        "$ffmpeg" -hide_banner -v error -y -framerate 30 -i "$out/es.hevc" -c copy "$out/hevc_${name}_$kind.mp4"
        rm -f "$out/es.mkv" "$out/es.hevc"
    done
    # HEVC Main 10 from the same pictures at 10 bits.
    "$ffmpeg" -hide_banner -v error -y -i "$y4m" -pix_fmt yuv420p10le -strict -1 "$out/src10.y4m"
    for kind in ref dist; do
        if [ $kind = ref ]; then kbps=$rate; else kbps=$((rate / 4)); fi
        x265 --log-level error --no-progress --preset veryfast --bframes 0 --bitrate $kbps \
            --output-depth 10 --profile main10 --output "$out/es.hevc" "$out/src10.y4m"
        "$ffmpeg" -hide_banner -v error -y -framerate 30 -i "$out/es.hevc" -c copy "$out/hevc10_${name}_$kind.mp4"
        rm -f "$out/es.hevc"
    done
    rm -f "$y4m" "$out/src10.y4m"
done
# Each clip's frames, as decoded, must come with timestamps that only go forward.
for clip in "$out"/*.mp4; do
    "$ffprobe" -v error -select_streams v -show_entries frame=pts -of csv=p=0 "$clip" |
        awk -v clip="$clip" 'NR > 1 && $1 <= last { print clip ": timestamps run backwards at frame " NR - 1 > "/dev/stderr"; bad = 1; exit }
                             { last = $1 } END { exit bad }'
done
ls -l "$out"
