#!/bin/sh
# The float_adm filter in one ffmpeg, software decoding, against decoding alone: pairs
# per second at each filter thread count, for one or more ffmpeg builds side by side
# (the runs interleaved, the best of RUNS kept), on encoded clips it makes itself.
#
#   bench/ffmpeg_threads.sh [-r RUNS] [-t "1 2 8 16"] [-l LOOPS] [-k "NAMES"] [-c CLIPS] LABEL=FFMPEG...
#   bench/ffmpeg_threads.sh -m [-c CLIPS] ENCODING_FFMPEG     (only make the clips)
#
# CLIPS: a folder for the clips (made there once, kept): 1920x1080 H.264 (120 frames),
# 3840x2160 H.264 (48) and 1920x1080 HEVC 10-bit (120), each a reference (high rate)
# and a distorted (low rate) encode of one turning testsrc2, encoded by the first ffmpeg
# (or ENCODING_FFMPEG) with libx264/libx265 where it has them, else h264_nvenc/hevc_nvenc
# (H264_ENCODER and HEVC_ENCODER name others; an H100 has no NVENC).  Thread counts
# above the machine's cores are left out.  Each run is
#   ffmpeg -filter_complex_threads N -i DIST -i REF -lavfi float_adm -f null -
# (LABEL=FFMPEG@OPTIONS: float_adm=OPTIONS, the last @ splitting them off, so that a
# path holding @ ends with one; THREADS in them replaced by N, e.g.
# every2=ffmpeg@n_subsample=2) and decoding alone the same
# without the filter (both inputs decoded, to null); the time is ffmpeg's own (-benchmark's rtime).  -l LOOPS plays each clip LOOPS more
# times (-stream_loop on both inputs) for runs long enough to time; -k times only
# the clips named (of h264_1080p h264_2160p hevc10_1080p).  Prints one
# Markdown table per clip: pairs per second, and the CPU time each pair took (user +
# system, all threads), which bounds what the cores can give: decoding and scoring
# together cannot beat cores / (decoding's CPU time + scoring's).
# SPDX-License-Identifier: LGPL-2.1-or-later

set -eu

runs=2
loops=0
thread_list="1 2 8 16"
clip_list="h264_1080p h264_2160p hevc10_1080p"
make_only=
clips=${TMPDIR:-/tmp}/float_adm_ffmpeg_threads
usage="usage: $0 [-r RUNS] [-t \"THREADS...\"] [-l LOOPS] [-k \"NAMES\"] [-c CLIPS] LABEL=FFMPEG..."
while getopts r:t:l:k:c:m opt; do
    case $opt in
    k) clip_list=$OPTARG ;;
    m) make_only=yes ;;
    l) loops=$OPTARG ;;
    r) runs=$OPTARG ;;
    t) thread_list=$OPTARG ;;
    c) clips=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
for clip in $clip_list; do
    case $clip in
    h264_1080p | h264_2160p | hevc10_1080p) ;;
    *) echo "$0: -k $clip: the clips are h264_1080p, h264_2160p and hevc10_1080p" >&2; exit 2 ;;
    esac
done
if [ -n "$make_only" ]; then set -- "encoder=$1"; fi
for build in "$@"; do
    case $build in
    *=*) path=${build#*=}; path=${path%@*}
         [ -x "$path" ] || { echo "$0: $path: not a program" >&2; exit 2; } ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
done
first=${1#*=}
first=${first%@*}
cores=$(nproc)
mkdir -p "$clips"

# encoder ENCODERS...: the first of ENCODERS that the first ffmpeg has.
encoder() {
    for e in "$@"; do
        "$first" -hide_banner -encoders 2>/dev/null | grep -q " $e " && { echo "$e"; return; }
    done
    echo "$0: $first has none of: $*" >&2
    exit 1
}
h264=${H264_ENCODER:-$(encoder libx264 h264_nvenc)}
hevc=${HEVC_ENCODER:-$(encoder libx265 hevc_nvenc)}

# make NAME SIZE FRAMES CODEC PIX_FMT RATE: NAME.ref.mkv (at 5 x RATE) and NAME.dis.mkv.
make_clip() {
    case " $clip_list " in *" $1 "*) ;; *) return ;; esac
    [ -s "$clips/$1.dis.mkv" ] && return
    src="testsrc2=s=$2:r=24:d=$(($3 / 24)),rotate=a=0.2*t,format=$5"
    for kind in ref dis; do
        [ $kind = ref ] && rate=$(($6 * 5))k || rate=${6}k
        [ "$4" = libx265 ] && opts="-x265-params log-level=error" || opts=
        # shellcheck disable=SC2086
        "$first" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src" -frames:v "$3" \
            -c:v "$4" -b:v $rate $opts "$clips/$1.$kind.mkv"
    done
}
make_clip h264_1080p 1920x1080 120 "$h264" yuv420p 1500
make_clip h264_2160p 3840x2160 48 "$h264" yuv420p 5000
make_clip hevc10_1080p 1920x1080 120 "$hevc" yuv420p10le 1500
[ -z "$make_only" ] || exit 0

# rtime ARGS...: ffmpeg's real time and CPU time (user + system), in s, for ARGS, or "fail".
rtime() {
    out=$("$@" -benchmark -f null - 2>&1) ||
        { echo fail; return; }
    echo "$out" | sed -n 's/.*utime=\([0-9.]*\)s stime=\([0-9.]*\)s rtime=\([0-9.]*\)s.*/\3 \1 \2/p' |
        tail -n 1 | awk '{ print $1, $2 + $3 }'
}

best() { # best of runs: the smallest real time, with its CPU time
    sort -n | head -n 1
}

for clip in $clip_list; do
    dis=$clips/$clip.dis.mkv ref=$clips/$clip.ref.mkv
    frames=$("$first" -hide_banner -nostdin -i "$dis" -map 0:v -c copy -f null - 2>&1 |
        sed -n 's/.*frame= *\([0-9]*\).*/\1/p' | tail -n 1)
    frames=$((frames * (loops + 1)))
    echo
    echo "### $clip ($frames frame pairs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') x $cores)"
    echo
    header="| threads | decoding alone"
    for build in "$@"; do header="$header | ${build%%=*}"; done
    echo "$header |"
    echo "$header |" | sed 's/[^|]*/---/g; s/^---//; s/---$//'
    for n in $thread_list; do
        [ "$n" -le "$cores" ] || continue
        times=$(mktemp)
        for r in $(seq "$runs"); do
            t=$(rtime "$first" -hide_banner -nostdin -filter_complex_threads "$n" \
                -stream_loop "$loops" -i "$dis" -stream_loop "$loops" -i "$ref" -map 0:v -map 1:v)
            echo "decode $t" >> "$times"
            for build in "$@"; do
                ff=${build#*=}
                options=
                case $ff in *@*) options="=$(echo "${ff##*@}" | sed "s/THREADS/$n/g")" ;; esac
                ff=${ff%@*}
                t=$(rtime "$ff" -hide_banner -nostdin -filter_complex_threads "$n" \
                    -stream_loop "$loops" -i "$dis" -stream_loop "$loops" -i "$ref" \
                    -lavfi "[0:v][1:v]float_adm$options")
                echo "${build%%=*} $t" >> "$times"
            done
        done
        dec=$(awk '$1 == "decode" && $2 != "fail" { print $2, $3 }' "$times" | best)
        row="| $n | $(echo "$dec" | awk -v f="$frames" '{ printf "%.0f/s, %.1f ms CPU", f / $1, 1000 * $2 / f }')"
        for build in "$@"; do
            t=$(awk -v l="${build%%=*}" '$1 == l && $2 != "fail" { print $2, $3 }' "$times" | best)
            if [ -z "$t" ]; then
                row="$row | failed"
            else
                row="$row | $(echo "$t $dec" | awk -v f="$frames" \
                    '{ printf "%.0f/s (%.0f %% of decoding), %.1f ms CPU", f / $1, 100 * $3 / $1, 1000 * $2 / f }')"
            fi
        done
        echo "$row |"
        rm -f "$times"
    done
done
