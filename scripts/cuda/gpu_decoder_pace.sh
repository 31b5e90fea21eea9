#!/bin/sh
# Does one ffmpeg scoring two NVDEC streams keep up with its decoders, and if not,
# whose is the difference: FFmpeg's or float_adm_cuda's?  Each H.264 and HEVC pair
# (make_decoder_clips.sh), looped, both inputs decoded by NVDEC into CUDA frames,
# timed with -benchmark (rtime, median of 3) in these graphs:
#   decode      -map 0:v -f null - -map 1:v -f null -            two decoders, no graph
#   one_graph   [0:v]null[a];[1:v]null[b], two null outputs      both inputs in one filtergraph, no scoring
#   skip        [0:v][1:v]float_adm_cuda=n_subsample=1000000     the filter's shape, no frame scored
#   float_adm   [0:v][1:v]float_adm_cuda                         scored
#   +queue      float_adm, -thread_queue_size 64 on both inputs
#   +surfaces   float_adm, -extra_hw_frames 24 on both inputs (instead of 8)
# then 1, 4, 8 and 16 such ffmpegs at once (decode and float_adm, 1080p), pairs/s.
#
# Usage: sh scripts/cuda/gpu_decoder_pace.sh FFMPEG_DIR CLIP_DIR LOG_DIR
#   FFMPEG_DIR: this project's ffmpeg and, in FFMPEG_DIR/lib, the libraries it links.
# Environment: PROGRAM (the ffmpeg in FFMPEG_DIR to time, default ffmpeg), LOOPS_1080P
# and LOOPS_2160P (times each 48-frame clip is played again, default 19 and 4), REPS
# (default 3, the median is reported), GRAPHS (default all six), CASES (default
# "h264_1080p h264_2160p hevc_1080p hevc_2160p"), STREAMS (default
# "1 4 8 16"; empty: no multi-stream runs).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=$(cd "$1" && pwd)
clips=$(cd "$2" && pwd)
LOG_DIR=$3
mkdir -p "$LOG_DIR"
summary=$LOG_DIR/summary.txt
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
note() { echo "$*" | tee -a "$summary"; }
rtime_of() { sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$1" | tail -n 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
PROGRAM=${PROGRAM:-ffmpeg}
LOOPS_1080P=${LOOPS_1080P:-19}
LOOPS_2160P=${LOOPS_2160P:-4}
REPS=${REPS:-3}
GRAPHS=${GRAPHS:-decode one_graph skip float_adm +queue +surfaces}
CASES=${CASES:-h264_1080p h264_2160p hevc_1080p hevc_2160p}
STREAMS=${STREAMS-1 4 8 16}
: > "$summary"
note "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
note "program: $PROGRAM"
note "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"

nvdec() { echo "-hwaccel cuda -hwaccel_output_format cuda -extra_hw_frames ${1:-8} ${2:-}"; }
# run NAME LOOPS DIST REF EXTRA_INPUT_OPTS GRAPH...: one ffmpeg, its rtime in s
run() {
    name=$1 loops=$2 dist=$3 ref=$4 opts=$5
    shift 5
    "$dir/$PROGRAM" -hide_banner -nostdin -y -benchmark \
        -stream_loop $loops $opts -i "$dist" -stream_loop $loops $opts -i "$ref" "$@" \
        > "$LOG_DIR/$name.log" 2>&1 || { echo "FAIL $name: $(tail -n 2 "$LOG_DIR/$name.log")" >&2; echo 0; return; }
    rtime_of "$LOG_DIR/$name.log"
}
fa="-lavfi [0:v][1:v]float_adm_cuda -f null -"
for case in $CASES; do
    codec=${case%_*} res=${case#*_}
    if [ $res = 1080p ]; then loops=$LOOPS_1080P; else loops=$LOOPS_2160P; fi
    frames=$((48 * (loops + 1)))
    d=$clips/${codec}_${res}_dist.mp4 r=$clips/${codec}_${res}_ref.mp4
    line="$codec $res, $frames pairs, pairs/s (median of $REPS):"
    for graph in $GRAPHS; do
        times=
        for rep in $(seq $REPS); do
            n=${codec}_${res}_${graph}_$rep
            case $graph in
            decode) t=$(run $n $loops $d $r "$(nvdec)" -map 0:v -f null - -map 1:v -f null -) ;;
            one_graph) t=$(run $n $loops $d $r "$(nvdec)" -filter_complex "[0:v]null[a];[1:v]null[b]" \
                               -map "[a]" -f null - -map "[b]" -f null -) ;;
            skip) t=$(run $n $loops $d $r "$(nvdec)" -lavfi "[0:v][1:v]float_adm_cuda=n_subsample=1000000" -f null -) ;;
            float_adm) t=$(run $n $loops $d $r "$(nvdec)" $fa) ;;
            +queue) t=$(run $n $loops $d $r "$(nvdec 8 '-thread_queue_size 64')" $fa) ;;
            +surfaces) t=$(run $n $loops $d $r "$(nvdec 24)" $fa) ;;
            esac
            times="$times $t"
        done
        t=$(median $times)
        line="$line $graph $(echo "$frames $t" | awk '{ printf "%.0f", ($2 > 0 ? $1 / $2 : 0) }') ($t s);"
    done
    note "$line"
done

# Many ffmpegs at once, 1080p: pairs/s over the wall time of all of them.
[ -n "$STREAMS" ] || exit 0
for codec in h264 hevc; do
    d=$clips/${codec}_1080p_dist.mp4 r=$clips/${codec}_1080p_ref.mp4
    frames=$((48 * (LOOPS_1080P + 1)))
    line="$codec 1080p, $frames pairs each, N ffmpegs at once, pairs/s:"
    for n in $STREAMS; do
        for graph in decode float_adm; do
            start=$(date +%s.%N)
            i=0
            while [ $i -lt $n ]; do
                if [ $graph = decode ]; then
                    run multi_${codec}_${graph}_${n}_$i $LOOPS_1080P $d $r "$(nvdec)" -map 0:v -f null - -map 1:v -f null - > /dev/null &
                else
                    run multi_${codec}_${graph}_${n}_$i $LOOPS_1080P $d $r "$(nvdec)" $fa > /dev/null &
                fi
                i=$((i + 1))
            done
            wait
            end=$(date +%s.%N)
            line="$line $n $graph $(echo "$n $start $end" | awk -v f=$frames '{ printf "%.0f", $1 * f / ($3 - $2) }');"
        done
    done
    note "$line"
done
