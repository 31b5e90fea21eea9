#!/bin/sh
# make demo: score a corpus pair (x264 at CRF 36 against its source) with the
# float_adm filter of the embedded ffmpeg.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-demo.sh FFMPEG [OUT_DIR]

set -eu

ffmpeg=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$(dirname "$(dirname "$ffmpeg")")/demo}
name=astronaut_576x324_yuv420p_x264
raw="-f rawvideo -pix_fmt yuv420p -video_size 576x324 -framerate 24"

mkdir -p "$out"
for kind in dis ref; do
    [ -f "$out/$name.$kind.yuv" ] || xz -dc "$top/tests/corpus/$name.$kind.yuv.xz" > "$out/$name.$kind.yuv"
done

echo "float_adm demo: $name (distorted: x264 CRF 36; reference: the source), 6 frames"
echo "$ffmpeg $raw -i $name.dis.yuv $raw -i $name.ref.yuv -lavfi \"[0:v][1:v]float_adm=log_fmt=json:log_path=$out/float_adm.json,metadata=print:file=-\" -f null -"
echo
# shellcheck disable=SC2086
"$ffmpeg" -hide_banner -nostdin -nostats $raw -i "$out/$name.dis.yuv" $raw -i "$out/$name.ref.yuv" \
    -lavfi "[0:v][1:v]float_adm=log_fmt=json:log_path=$out/float_adm.json,metadata=print:file=-" \
    -f null - 2> "$out/ffmpeg.log" > "$out/metadata.txt" ||
    { cat "$out/ffmpeg.log" >&2; exit 1; }

awk -F'[=: ]+' '
    BEGIN { printf "%-6s %-20s %-20s %-20s\n", "frame", "adm2", "aim", "adm3" }
    /^frame:/                 { frame = $2 }
    /^lavfi.float_adm.adm2=/ { adm2 = $2 }
    /^lavfi.float_adm.aim=/  { aim = $2 }
    /^lavfi.float_adm.adm3=/ { printf "%-6s %-20s %-20s %-20s\n", frame, adm2, aim, $2 }
' "$out/metadata.txt"
echo
echo "Summary (the filter's end-of-stream log):"
sed -n 's/^\[Parsed_float_adm[^]]*\] /  /p' "$out/ffmpeg.log"
echo
echo "Per-frame and pooled scores in libvmaf's JSON layout: $out/float_adm.json"
