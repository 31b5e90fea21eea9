#!/bin/sh
# Tests of the float_adm_score command-line tool: error paths, thread
# independence, y4m input, vmaf's command line, and (with python3) the scores of
# tests/corpus and the layouts of libvmaf's own logs (tests/data/libvmaf-logs).
#
# Usage: sh tests/cli/test_cli.sh path/to/float_adm_score path/to/corpus
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 FLOAT_ADM_SCORE CORPUS_DIR" >&2
    exit 2
fi
. "$(dirname "$0")/../support/shell_harness.sh"
bin=$(absolute "$1")
corpus=$(absolute "$2")
here=$(absolute "$(dirname "$0")")
harness_begin test_cli

# expect_ok NAME ARGS...: the tool exits 0.
expect_ok() {
    name=$1; shift
    tests=$((tests + 1))
    "$bin" "$@" >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat err.txt)"
}

# expect_error NAME SUBSTRING ARGS...: the tool exits 1 (not a crash) and says SUBSTRING.
expect_error() {
    name=$1; substring=$2; shift 2
    tests=$((tests + 1))
    "$bin" "$@" >out.txt 2>err.txt
    rc=$?
    if [ $rc -ne 1 ]; then
        fail "$name: exit $rc, wanted 1: $(cat err.txt)"
    elif ! grep -F -q -- "$substring" err.txt; then
        fail "$name: stderr lacks '$substring': $(cat err.txt)"
    fi
}

# without_fps FILE: the file with the JSON or XML header's fps value (timing) cut out.
without_fps() {
    sed -e 's/^\(  "fps": \).*,$/\1-,/' -e 's/^\(  <fyi fps="\)[^"]*" *\/>$/\1-" \/>/' "$1"
}

# same_file NAME A B: A and B are byte-identical, but for the fps of a JSON or XML log.
same_file() {
    tests=$((tests + 1))
    without_fps "$2" >same_a.txt && without_fps "$3" >same_b.txt &&
        cmp -s same_a.txt same_b.txt || fail "$1: $2 and $3 differ"
}

unpack() {
    xz -dc "$corpus/$1.ref.yuv.xz" >"$1.ref.yuv" &&
        xz -dc "$corpus/$1.dis.yuv.xz" >"$1.dis.yuv" || exit 2
}

# to_y4m RAW FRAME_BYTES HEADER_PARAMS OUT: wraps a raw file in y4m; frame 1's
# FRAME line carries a parameter, which readers must skip.
to_y4m() {
    raw=$1; frame_bytes=$2
    size=$(wc -c <"$raw")
    frames=$((size / frame_bytes))
    {
        printf 'YUV4MPEG2 %s\n' "$3"
        i=0
        while [ $i -lt $frames ]; do
            if [ $i -eq 1 ]; then printf 'FRAME Ip XTEST=1\n'; else printf 'FRAME\n'; fi
            dd if="$raw" bs="$frame_bytes" skip=$i count=1 2>/dev/null
            i=$((i + 1))
        done
    } >"$4"
}

astro=astronaut_576x324_yuv420p_x264
astro_frame=279936   # 576 * 324 * 3 / 2
coins=coins_384x304_yuv420p10le_x265
coins_frame=350208   # 384 * 304 * 2 * 3 / 2
unpack $astro
unpack $coins
astro_args="--width 576 --height 324 --pix-fmt yuv420p"
coins_args="--width 384 --height 304 --pix-fmt yuv420p10le"

# ---- help, version, basic scoring ----
expect_ok help --help
grep -q "Usage" out.txt || fail "--help prints no usage"
expect_ok version --version
# As vmaf: the pooled means on stdout; the per-frame table only when asked for.
expect_ok means --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args
[ "$(wc -l <out.txt)" -eq 7 ] || fail "means: wanted the 7 means alone: $(cat out.txt)"
tests=$((tests + 1))
grep -qx 'adm2: 0\.9225[0-9][0-9]' out.txt && grep -qx 'adm_scale3: 0\.9602[0-9][0-9]' out.txt ||
    fail "means: not as vmaf prints them (NAME: %f): $(cat out.txt)"
tests=$((tests + 1))
[ -s err.txt ] && fail "means: stderr is no terminal, yet it got: $(cat err.txt)"
expect_ok table --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args --per-frame
[ "$(wc -l <out.txt)" -eq 14 ] || fail "table: wanted a header, 6 rows, 7 means: $(cat out.txt)"
# On a terminal, a live counter on stderr as vmaf's ("\rN/M frames F FPS"), then the means.
tests=$((tests + 1))
script -qec "$bin --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args \
    >/dev/null" /dev/null >counter.txt 2>&1
grep -q '6/6 frames [0-9.]* FPS' counter.txt ||
    fail "counter on a terminal: $(od -c counter.txt | head -5)"
expect_ok quiet --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args --quiet \
    --json quiet.json
[ -s out.txt ] && fail "--quiet still printed: $(cat out.txt)"
expect_ok json-stdout --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args \
    --json -
same_file "--json - and --json FILE" out.txt quiet.json
expect_ok frames --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args \
    --frames 2 --quiet --json frames2.json
[ "$(grep -c frameNum frames2.json)" -eq 2 ] || fail "--frames 2 did not give 2 frames"

# ---- --threads N gives byte-identical JSON ----
for debug in false true; do
    for threads in 1 2 3 8; do
        expect_ok "threads $threads" --reference $astro.ref.yuv --distorted $astro.dis.yuv \
            $astro_args --option debug=$debug --threads $threads --quiet \
            --json threads$threads.json
    done
    for threads in 2 3 8; do
        same_file "--threads 1 vs $threads (debug=$debug)" threads1.json threads$threads.json
    done
done
[ "$(grep -c '"adm_den_scale3"' threads1.json)" -eq 7 ] ||
    fail "debug=true: wanted adm_den_scale3 in 6 frames and the pooled metrics"
expect_ok "threads 10-bit" --reference $coins.ref.yuv --distorted $coins.dis.yuv $coins_args \
    --threads 1 --quiet --json coins1.json
expect_ok "threads 10-bit" --reference $coins.ref.yuv --distorted $coins.dis.yuv $coins_args \
    --threads 4 --quiet --json coins4.json
same_file "10-bit --threads 1 vs 4" coins1.json coins4.json

# ---- FLOAT_ADM_SIMD: the same bytes at every level; an unknown level is an error ----
# The levels as the library names them (--version lists them).
simd_levels=$("$bin" --version | sed -n 's/^simd levels: \([^(]*\) (.*/\1/p')
case " $simd_levels " in
*" scalar "*) ;;
*) fail "--version names no SIMD levels: $("$bin" --version)" ;;
esac
for level in $simd_levels auto ""; do
    export FLOAT_ADM_SIMD=$level
    expect_ok "FLOAT_ADM_SIMD=$level" --reference $astro.ref.yuv --distorted $astro.dis.yuv \
        $astro_args --option debug=true --quiet --json simd.json
    same_file "FLOAT_ADM_SIMD=$level vs the default" threads1.json simd.json
done
export FLOAT_ADM_SIMD=avx3
expect_error "unknown FLOAT_ADM_SIMD" "FLOAT_ADM_SIMD=avx3: not a SIMD level (auto, scalar, sse2" \
    --reference $astro.ref.yuv --distorted $astro.dis.yuv $astro_args --quiet
unset FLOAT_ADM_SIMD

# ---- y4m input scores as the raw file does ----
to_y4m $astro.ref.yuv $astro_frame "W576 H324 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG" astro.ref.y4m
to_y4m $astro.dis.yuv $astro_frame "W576 H324 F25:1 Ip A1:1" astro.dis.y4m
to_y4m $coins.ref.yuv $coins_frame "W384 H304 F25:1 C420p10" coins.ref.y4m
to_y4m $coins.dis.yuv $coins_frame "W384 H304 F25:1 C420p10" coins.dis.y4m
expect_ok y4m --reference astro.ref.y4m --distorted astro.dis.y4m --quiet --json y4m.json
same_file "y4m vs raw" quiet.json y4m.json
expect_ok "y4m + agreeing args" --reference astro.ref.y4m --distorted astro.dis.y4m \
    $astro_args --quiet --json y4m_args.json
same_file "y4m with args vs raw" quiet.json y4m_args.json
expect_ok "y4m + raw" --reference astro.ref.y4m --distorted $astro.dis.yuv --quiet \
    --json y4m_raw.json
same_file "y4m reference, raw distorted vs raw" quiet.json y4m_raw.json
cp astro.ref.y4m astro_ref_by_magic.yuv
expect_ok "y4m by signature" --reference astro_ref_by_magic.yuv --distorted astro.dis.y4m \
    --quiet --json y4m_magic.json
same_file "y4m found by its signature vs raw" quiet.json y4m_magic.json

# ---- streams: stdin ("-", /dev/stdin) and FIFOs, read once in order ----
tests=$((tests + 1))
"$bin" --reference astro.ref.y4m --distorted - --quiet --json stdin.json <astro.dis.y4m 2>err.txt ||
    fail "y4m on stdin (a file): $(cat err.txt)"
same_file "y4m on stdin vs raw" quiet.json stdin.json
tests=$((tests + 1))
cat astro.dis.y4m | "$bin" --reference astro.ref.y4m --distorted - --quiet \
    --json pipe.json 2>err.txt || fail "y4m from a pipe: $(cat err.txt)"
same_file "y4m from a pipe vs raw" quiet.json pipe.json
tests=$((tests + 1))
cat $astro.ref.yuv | "$bin" --reference /dev/stdin --distorted $astro.dis.yuv $astro_args \
    --quiet --json raw_pipe.json 2>err.txt || fail "raw from a pipe: $(cat err.txt)"
same_file "raw reference from a pipe (/dev/stdin) vs raw" quiet.json raw_pipe.json
rm -f fifo.y4m && mkfifo fifo.y4m
tests=$((tests + 1))
(cat astro.dis.y4m >fifo.y4m &)
timeout 20 "$bin" --reference astro.ref.y4m --distorted fifo.y4m --quiet --json fifo.json \
    2>err.txt || fail "y4m from a FIFO: $(cat err.txt)"
same_file "y4m from a FIFO vs raw" quiet.json fifo.json
rm -f fifo.y4m

# ---- inputs the wrong way round: the encode as the reference warns, naming both ----
expect_ok "swapped y4m" --reference astro.dis.y4m --distorted astro.ref.y4m --quiet
grep -F -q "warning: --distorted astro.ref.y4m, --reference astro.dis.y4m: the distorted has 1.29 times the reference's fine detail" err.txt &&
    grep -F -q "are the two swapped?" err.txt || fail "swapped y4m: stderr says: $(cat err.txt)"
[ "$(wc -l <err.txt)" -eq 1 ] || fail "swapped y4m: more than one line: $(cat err.txt)"
expect_ok "swapped raw, frames in flight" --reference $astro.dis.yuv --distorted $astro.ref.yuv \
    $astro_args --threads 2 --quiet
grep -F -q "the distorted has 1.29 times" err.txt || fail "swapped raw, --threads 2: $(cat err.txt)"
tests=$((tests + 1))
cat astro.ref.y4m | "$bin" --reference astro.dis.y4m --distorted - --quiet >out.txt 2>err.txt &&
    grep -F -q "warning: --distorted -, --reference astro.dis.y4m: the distorted has 1.29" err.txt ||
    fail "swapped, from a pipe: $(cat err.txt)"
expect_ok "the right way round" --reference astro.ref.y4m --distorted astro.dis.y4m --quiet
[ -s err.txt ] && fail "the right way round: stderr says: $(cat err.txt)"
expect_ok "swapped, every other frame" --reference coins.dis.y4m --distorted coins.ref.y4m \
    --subsample 2 --quiet
grep -F -q "the distorted has 1.15 times the reference's fine detail (squared differences of neighbouring luma samples, 2 frames)" err.txt ||
    fail "swapped 10-bit, --subsample 2: $(cat err.txt)"

# ---- --scale: a distorted of another size, scaled to the reference's by libswscale ----
# small.y4m: 288x162 frames (the raw distorted's bytes cut into quarters: no picture,
# but samples to scale alike every time).
to_y4m $astro.dis.yuv $((288 * 162 * 3 / 2)) "W288 H162 F25:1" small.y4m
scale_lib=$("$bin" --version | sed -n 's/^--scale: //p')
case $scale_lib in
"")
    fail "--version does not say what --scale scales with: $("$bin" --version)" ;;
none*)
    expect_error "--scale without libswscale" "this build has no libswscale" \
        --reference astro.ref.y4m --distorted small.y4m --scale reference
    expect_error "sizes differ, no --scale here" "this build has no --scale" \
        --reference astro.ref.y4m --distorted small.y4m ;;
*)
    # small.y4m is no picture of the reference: the scaled frames are what the
    # order check reads, and their noise is more detail than the reference holds
    # in each of the first 3 (the 4th, cut from the chroma planes, holds less).
    expect_ok "--scale reference" --reference astro.ref.y4m --distorted small.y4m \
        --scale reference --frames 3 --quiet --json scale_file.json
    grep -v -F "warning: --distorted small.y4m, --reference astro.ref.y4m: the distorted has" \
        err.txt >other.txt
    grep -F -q "fine detail" err.txt && [ ! -s other.txt ] ||
        fail "--scale reference: stderr says: $(cat err.txt)"
    tests=$((tests + 1))
    cat small.y4m | "$bin" --reference astro.ref.y4m --distorted - --scale 576x324 \
        --frames 3 --quiet --json scale_pipe.json 2>err.txt ||
        fail "--scale from a pipe: $(cat err.txt)"
    same_file "--scale: a pipe vs the file" scale_file.json scale_pipe.json
    tests=$((tests + 1))
    without_fps quiet.json >same_a.txt && without_fps scale_file.json >same_b.txt &&
        cmp -s same_a.txt same_b.txt && fail "--scale scored the unscaled pair"
    expect_ok "--scale, the same size" --reference astro.ref.y4m --distorted astro.dis.y4m \
        --scale reference --quiet --json scale_same.json
    same_file "--scale to the same size vs none" quiet.json scale_same.json
    expect_ok "--scale, lanczos" --reference astro.ref.y4m --distorted small.y4m \
        --scale reference --scaler lanczos --frames 3 --quiet --json scale_lanczos.json
    tests=$((tests + 1))
    without_fps scale_lanczos.json >same_a.txt && without_fps scale_file.json >same_b.txt &&
        cmp -s same_a.txt same_b.txt && fail "--scaler lanczos scaled as bicubic"
    # A later --scale wins; rows of a multiple of 64 bytes, upscaled by fast_bilinear,
    # whose vector code reads past the last row (a buffer as padded as ffmpeg's frames).
    to_y4m $astro.dis.yuv $((256 * 144 * 3 / 2)) "W256 H144 F24:1" rows64.y4m
    expect_ok "--scale WxH then reference, fast_bilinear" --reference astro.ref.y4m \
        --distorted rows64.y4m --scale 100x100 --scale reference --scaler fast_bilinear \
        --frames 6 --quiet
    expect_error "--scaler bicubic without --scale" "without --scale: nothing to scale" \
        --reference astro.ref.y4m --distorted astro.dis.y4m --scaler bicubic
    expect_error "--scaler, flags libswscale refuses" "with --scaler bicubic+lanczos" \
        --reference astro.ref.y4m --distorted small.y4m --scale reference \
        --scaler bicubic+lanczos --frames 6
    expect_ok "--scale, swapped" --reference small.y4m --distorted astro.dis.y4m \
        --scale reference --frames 6 --quiet
    tests=$((tests + 1))
    grep -F -q "warning: the distorted astro.dis.y4m (576x324) is larger than the reference small.y4m (288x162)" err.txt &&
        grep -F -q "are the two swapped?" err.txt || fail "--scale, swapped: no warning: $(cat err.txt)"
    # big.y4m: one 1152x648 frame of the same bytes, scaled down, more detail than the
    # reference: the sizes ask whether the two are swapped, and the pictures say no more.
    to_y4m $astro.dis.yuv $((1152 * 648 * 3 / 2)) "W1152 H648 F24:1" big.y4m
    expect_ok "--scale, swapped, asked once" --reference astro.ref.y4m --distorted big.y4m \
        --scale reference --frames 1 --quiet
    tests=$((tests + 1))
    grep -F -q "is larger than the reference astro.ref.y4m" err.txt &&
        [ "$(grep -c swapped err.txt)" -eq 1 ] || fail "--scale, swapped, asked once: $(cat err.txt)"
    expect_error "sizes differ without --scale" "(--scale reference scales the distorted" \
        --reference astro.ref.y4m --distorted small.y4m
    expect_error "--scale to another size" "--scale 320x180: the distorted is scored at the reference's size, 576x324" \
        --reference astro.ref.y4m --distorted small.y4m --scale 320x180
    expect_error "--scale, raw distorted" "is raw YUV: a distorted of another size" \
        --reference astro.ref.y4m --distorted $astro.dis.yuv --scale reference
    expect_error "--scale, another depth" "scaling keeps the bit depth" \
        --reference coins.ref.y4m --distorted small.y4m --scale reference
    expect_error "--scaler unknown" "--scaler sharp: not a libswscale method" \
        --reference astro.ref.y4m --distorted small.y4m --scale reference --scaler sharp \
        --frames 6
    tests=$((tests + 1))
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "--scaler unknown: more than one line: $(cat err.txt)"
    expect_error "--scaler without --scale" "without --scale: nothing to scale" \
        --reference astro.ref.y4m --distorted astro.dis.y4m --scaler lanczos
    # A distorted smaller than float ADM scores is scored at the reference's size.
    head -c $((2 * 16 * 16 * 3 / 2)) $astro.dis.yuv >tiny.yuv
    to_y4m tiny.yuv $((16 * 16 * 3 / 2)) "W16 H16 F25:1" tiny.y4m
    expect_ok "--scale reference, 16x16 distorted" --reference astro.ref.y4m \
        --distorted tiny.y4m --scale reference --frames 2 --json tiny.json
    expect_error "--scale 12" "--scale takes WxH" \
        --reference astro.ref.y4m --distorted small.y4m --scale 12 ;;
esac

expect_error "stdin twice" "are one stream" --reference - --distorted /dev/stdin $astro_args
# One pipe under two names, and one FIFO for both inputs: refused, never scored.
tests=$((tests + 1))
cat $astro.ref.yuv | "$bin" --reference - --distorted /dev/fd/0 $astro_args --frames 2 \
    >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q -- "--reference - and --distorted /dev/fd/0 are one stream" err.txt &&
    [ ! -s out.txt ] || fail "one pipe as two inputs: $(cat out.txt err.txt)"
tests=$((tests + 1))
cat $astro.ref.yuv | "$bin" --reference /proc/self/fd/0 --distorted - $astro_args --frames 2 \
    >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "are one stream" err.txt || fail "/proc/self/fd/0 and -: $(cat err.txt)"
mkfifo both.fifo
tests=$((tests + 1))
"$bin" --reference both.fifo --distorted ./both.fifo $astro_args >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "are one stream" err.txt || fail "one FIFO as two inputs: $(cat err.txt)"
# A stream whose header announces a huge frame over a few bytes fails at once, before
# anything of the frame's size is allocated (1 GB of address space is plenty).
printf 'YUV4MPEG2 W20000 H20000 C420jpeg\nFRAME\nxx' >huge.y4m
mkfifo huge.fifo
tests=$((tests + 1))
(cat huge.y4m >huge.fifo &
 ulimit -v 1000000
 cat huge.y4m | "$bin" --reference huge.fifo --distorted - >out.txt 2>err.txt)
[ $? -eq 1 ] && grep -q "huge.fifo: the stream holds no whole frame" err.txt ||
    fail "huge frame through a pipe: $(cat err.txt)"
# y4m inputs of two frame rates are paired frame by frame: said once.
to_y4m $astro.dis.yuv $astro_frame "W576 H324 F50:1" astro50.dis.y4m
expect_ok "frame rates differ" --reference astro.ref.y4m --distorted astro50.dis.y4m --quiet
tests=$((tests + 1))
grep -q "astro.ref.y4m is 25 fps and the distorted astro50.dis.y4m 50 fps" err.txt &&
    [ "$(grep -c 'fps' err.txt)" -eq 1 ] || fail "frame rates differ: $(cat err.txt)"
expect_ok "same frame rates" --reference astro.ref.y4m --distorted astro.dis.y4m --quiet
tests=$((tests + 1))
grep -q "fps" err.txt && fail "same frame rates warned: $(cat err.txt)"
# Frames that are not the size the y4m header says: the header is named, not a long line.
to_y4m $astro.dis.yuv $astro_frame "W560 H324" wrong-size.y4m
expect_error "frames of another size than the header's" \
    "frame 1 does not start with a FRAME header: the frames are not 560x324 yuv420p" \
    --reference wrong-size.y4m --distorted wrong-size.y4m
# Unpaired frames at a stream's end: an error, as for files; with vmaf's flags a warning.
head -c $((3 * astro_frame)) $astro.dis.yuv >astro3.dis.yuv
to_y4m astro3.dis.yuv $astro_frame "W576 H324 F25:1" astro3.dis.y4m
tests=$((tests + 1))
cat astro3.dis.y4m | "$bin" --reference astro.ref.y4m --distorted - --quiet >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -F -q "reference and distorted differ: - ended after 3 frames" err.txt ||
    fail "short stream: exit $rc: $(cat err.txt)"
tests=$((tests + 1))
cat astro3.dis.y4m | "$bin" -r astro.ref.y4m -d - -q -o vmaf3.json >out.txt 2>err.txt ||
    fail "short stream, vmaf's flags: $(cat err.txt)"
grep -F -q "scoring the first 3, as vmaf does" err.txt || fail "short stream: no warning"
tests=$((tests + 1))
cat astro3.dis.y4m | "$bin" --reference astro.ref.y4m --distorted - --frames 3 --quiet \
    --json first3.json 2>err.txt || fail "short stream, --frames 3: $(cat err.txt)"
expect_ok "first 3 frames of the files" --reference astro.ref.y4m --distorted astro.dis.y4m \
    --frames 3 --quiet --json first3_files.json
same_file "3 frames from a stream vs from files" first3_files.json first3.json
expect_ok "y4m 10-bit" --reference coins.ref.y4m --distorted coins.dis.y4m --quiet \
    --json coins_y4m.json
same_file "10-bit y4m vs raw" coins1.json coins_y4m.json

# ---- chroma is skipped: the luma alone, as gray, scores the same ----
luma_only() {
    i=0
    while [ $i -lt 6 ]; do
        dd if="$1" bs=$astro_frame skip=$i count=1 2>/dev/null | head -c $((576 * 324))
        i=$((i + 1))
    done >"$2"
}
luma_only $astro.ref.yuv astro.ref.gray
luma_only $astro.dis.yuv astro.dis.gray
expect_ok gray --reference astro.ref.gray --distorted astro.dis.gray --width 576 --height 324 \
    --pix-fmt gray --quiet --json gray.json
same_file "gray vs yuv420p" quiet.json gray.json
to_y4m astro.ref.gray $((576 * 324)) "W576 H324 Cmono" astro.ref.mono.y4m
expect_ok "y4m mono" --reference astro.ref.mono.y4m --distorted astro.dis.gray --quiet \
    --json mono.json
same_file "y4m Cmono vs yuv420p" quiet.json mono.json

# ---- errors: exit 1 and a message that says what is wrong ----
ref="--reference $astro.ref.yuv"
dis="--distorted $astro.dis.yuv"
head -c $((astro_frame * 3 + astro_frame / 2)) $astro.dis.yuv >short.yuv
head -c $((astro_frame * 5)) $astro.dis.yuv >five.yuv
head -c $((astro_frame * 3 + 100)) astro.dis.y4m >short.y4m
sed '1s/C420jpeg/C411/' astro.ref.y4m >c411.y4m
sed '1s/W576/W578/' astro.ref.y4m >w578.y4m
sed '1s/ H324//' astro.ref.y4m >noheight.y4m
printf 'not a y4m file\n' >fake.y4m
: >empty.yuv
mkdir directory.yuv

expect_error "truncated file" \
    "short.yuv: 3.5 frames of 576x324 yuv420p: the file ends inside frame 3" \
    $ref --distorted short.yuv $astro_args
expect_error "truncated y4m" "short.y4m: " --reference astro.ref.y4m --distorted short.y4m
tests=$((tests + 1)); grep -q "ends inside frame 3" err.txt || fail "truncated y4m: $(cat err.txt)"
expect_error "--frames beyond the end" "--frames 7" $ref $dis $astro_args --frames 7
expect_error "different lengths" "differ" $ref --distorted five.yuv $astro_args
# -q is --quiet: it switches no dialect, so the lengths still must match.
expect_error "different lengths, -q" "differ" $ref --distorted five.yuv $astro_args -q
expect_error "different y4m headers" "differ" --reference astro.ref.y4m --distorted w578.y4m
expect_error "y4m header vs --width" "--width" --reference astro.ref.y4m \
    --distorted astro.dis.y4m --width 320
expect_error "y4m header vs --pix-fmt" "--pix-fmt" --reference astro.ref.y4m \
    --distorted astro.dis.y4m --pix-fmt yuv444p
expect_error "unsupported y4m colorspace" "unsupported y4m colorspace C411" \
    --reference c411.y4m --distorted astro.dis.y4m
expect_error "y4m without H" "no H (height)" --reference noheight.y4m --distorted astro.dis.y4m
expect_error "y4m name, no y4m header" "fake.y4m: not a y4m file" \
    --reference fake.y4m --distorted astro.dis.y4m
expect_error "unknown pixel format" "unknown pixel format 'yuv420p10be'" \
    $ref $dis --width 576 --height 324 --pix-fmt yuv420p10be
tests=$((tests + 1)); grep -q "yuv444p12le" err.txt || fail "pixel formats not listed: $(cat err.txt)"
expect_error "unknown option" "unknown option 'no_such_option'" $ref $dis $astro_args --option no_such_option=1
expect_error "option out of range" "out of range" $ref $dis $astro_args --option egl=0.5
expect_error "option without value" "NAME=VALUE" $ref $dis $astro_args --option egl
expect_error "missing reference" "missing --reference" $dis $astro_args
expect_error "missing distorted" "missing --distorted" $ref $astro_args
expect_error "missing size" "missing --width --height" $ref $dis --pix-fmt yuv420p
expect_error "missing value" "--json needs a value" $ref $dis $astro_args --json
expect_error "unknown argument" "unknown argument '--bogus'" $ref $dis $astro_args --bogus 1
expect_error "bad width" "--width: 'abc'" $ref $dis --width abc --height 324 --pix-fmt yuv420p
expect_error "bad threads" "--threads: '-1'" $ref $dis $astro_args --threads -1
expect_error "bad frames" "--frames: '0'" $ref $dis $astro_args --frames 0
expect_error "missing file" "nonexistent.yuv: cannot open" --reference nonexistent.yuv $dis \
    $astro_args
expect_error "directory" "directory.yuv: neither a regular file nor a pipe" \
    --reference directory.yuv $dis $astro_args
# A device is refused at once, never waited on.
tests=$((tests + 1))
timeout 10 "$bin" --reference /dev/zero $dis $astro_args >out.txt 2>err.txt
rc=$?
if [ $rc -ne 1 ] || ! grep -F -q "/dev/zero: neither a regular file nor a pipe" err.txt; then
    fail "device input: exit $rc (124: it blocked), wanted 1 naming the device: $(cat err.txt)"
fi
expect_error "empty file" "empty.yuv: the file holds no frames" --reference empty.yuv $dis \
    $astro_args
expect_error "too small" "cannot score 16x16 yuv420p" $ref $dis --width 16 --height 16 \
    --pix-fmt yuv420p
tests=$((tests + 1)); grep -q "17x17" err.txt || fail "too small: no core message: $(cat err.txt)"
expect_error "unwritable JSON" "nonexistent_dir/out.json: cannot write" $ref $dis $astro_args \
    --json nonexistent_dir/out.json

# ---- logs: --json, --csv, --xml, alone or together ----
expect_ok "three logs" $ref $dis $astro_args --quiet --json all.json --csv all.csv --xml all.xml
same_file "--json beside --csv and --xml vs --json alone" quiet.json all.json
tests=$((tests + 1))
grep -q '"version": "float_adm ' all.json && grep -q '"aggregate_metrics": {' all.json ||
    fail "JSON lacks the version or aggregate_metrics: $(head -3 all.json)"
tests=$((tests + 1))
[ "$(head -1 all.csv)" = "Frame,adm2,aim,adm3,adm_scale0,adm_scale1,adm_scale2,adm_scale3," ] &&
    [ "$(wc -l <all.csv)" -eq 7 ] || fail "CSV layout: $(head -2 all.csv)"
tests=$((tests + 1))
[ "$(grep -c '<frame frameNum=' all.xml)" = 6 ] && [ "$(tail -1 all.xml)" = "</VMAF>" ] ||
    fail "XML layout: $(head -3 all.xml)"
expect_ok "xml to stdout" $ref $dis $astro_args --xml -
same_file "--xml - and --xml FILE" out.txt all.xml
expect_error "two logs to stdout" "one log at most" $ref $dis $astro_args --json - --csv -
expect_error "two logs in one file" "--json same.log and --xml ./same.log both write to the same" \
    $ref $dis $astro_args --json same.log --xml ./same.log
tests=$((tests + 1))
[ -e same.log ] && fail "two logs in one file: same.log was written"
expect_error "two logs to stdout's names" "--json /dev/stdout and --csv - both write to stdout" \
    $ref $dis $astro_args --json /dev/stdout --csv -
# A log on stdout under any name has stdout to itself: no summary after the JSON.
tests=$((tests + 1))
"$bin" $ref $dis $astro_args --json /dev/stdout >stdout.json 2>err.txt &&
    [ "$(tail -1 stdout.json)" = "}" ] && ! grep -q "^adm2:" stdout.json ||
    fail "--json /dev/stdout: the summary follows the log: $(tail -3 stdout.json)"
tests=$((tests + 1))
"$bin" $ref $dis $astro_args --json redirected.json >redirected.json 2>err.txt &&
    [ "$(tail -1 redirected.json)" = "}" ] && ! grep -q "^adm2:" redirected.json ||
    fail "--json FILE >FILE: the summary follows the log: $(tail -3 redirected.json)"
# A map pattern that gives a log's name: refused before anything is written.
expect_error "--map-path over a log" "--map-path mm%d gives the name of --json mm1" \
    $ref $dis $astro_args --map-path 'mm%d' --csv mm0.csv --json mm1
tests=$((tests + 1))
ls mm* >/dev/null 2>&1 && fail "--map-path over a log: wrote $(ls mm*)"
# The kernel's files are never written, however empty and regular they look.
expect_error "a log in /proc" "refusing to write the log there: it is on the kernel's proc" \
    $ref $dis $astro_args --json /proc/self/comm

# ---- a path that is really the next option is refused ----
for flag in --json --csv --xml; do
    expect_error "$flag --quiet" "$flag needs a path, not the option --quiet" $ref $dis \
        $astro_args $flag --quiet
    tests=$((tests + 1)); [ -e ./--quiet ] && fail "$flag --quiet wrote a file --quiet"
done
expect_error "--reference --quiet" "--reference needs a path, not the option --quiet" \
    --reference --quiet $dis $astro_args
expect_error "--distorted --json" "--distorted needs a path, not the option --json" $ref \
    --distorted --json out.json $astro_args
expect_ok "log named ./--name" $ref $dis $astro_args --quiet --csv ./--name.csv
tests=$((tests + 1)); [ -s ./--name.csv ] || fail "./--name.csv not written"

# ---- a log never overwrites an input ----
cp $astro.ref.yuv victim.ref.yuv
cp $astro.dis.yuv victim.dis.yuv
ref_sum=$(cksum <victim.ref.yuv)
dis_sum=$(cksum <victim.dis.yuv)
expect_error "--json at the reference" "it is an input of the run" \
    --reference victim.ref.yuv --distorted victim.dis.yuv $astro_args --json victim.ref.yuv
tests=$((tests + 1))
[ "$(cksum <victim.ref.yuv)" = "$ref_sum" ] || fail "--json at the reference destroyed it"
ln victim.dis.yuv victim.link
expect_error "--csv at the distorted (a link)" "an input of the run (--distorted victim.dis.yuv)" \
    --reference victim.ref.yuv --distorted victim.dis.yuv $astro_args --csv victim.link
tests=$((tests + 1))
[ "$(cksum <victim.dis.yuv)" = "$dis_sum" ] || fail "--csv at the distorted destroyed it"

# ---- frame sizes above the core's limit are refused when parsed ----
expect_error "--width above the limit" "--width: 65537 is above the largest frame side" \
    $ref $dis --width 65537 --height 324 --pix-fmt yuv420p
tests=$((tests + 1)); grep -q "(65536)" err.txt || fail "limit not named: $(cat err.txt)"
expect_error "--height far above the limit" "--height: 4294967297 is above" \
    $ref $dis --width 576 --height 4294967297 --pix-fmt yuv420p

# ---- --frames N needs N frames in each file, whatever their totals ----
expect_ok "--frames, files of 6 and 5 frames" $ref --distorted five.yuv $astro_args --quiet \
    --frames 4 --json five4.json
expect_ok "--frames 4" $ref $dis $astro_args --quiet --frames 4 --json six4.json
same_file "--frames 4 over 6+5 frames vs 6+6" six4.json five4.json
expect_error "--frames beyond the shorter file" "five.yuv: --frames 6, but the file holds 5" \
    $ref --distorted five.yuv $astro_args --frames 6
# Whole frames are what --frames needs: a partial one after them does not matter.
expect_ok "--frames 3 over a file of 3.5 frames" $ref --distorted short.yuv $astro_args \
    --quiet --frames 3 --json short3.json
expect_ok "--frames 3" $ref $dis $astro_args --quiet --frames 3 --json six3.json
same_file "--frames 3 over 6+3.5 frames vs 6+6" six3.json short3.json
expect_error "--frames 4 over a file of 3.5 frames" "short.yuv: --frames 4, but the file holds 3" \
    $ref --distorted short.yuv $astro_args --frames 4

# ---- vmaf's dialect reads the frames both files hold, as vmaf; ours stays strict ----
vmaf_form="-r $astro.ref.yuv -d five.yuv -w 576 -h 324 -p 420 -b 8 -q"
expect_ok "vmaf: files of 6 and 5 frames" $vmaf_form -o vmaf_five.json --json
tests=$((tests + 1))
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "^float_adm_score: warning: .*five.yuv holds 5: scoring the first 5, as vmaf does$" err.txt ||
    fail "vmaf: files of 6 and 5 frames: wanted one warning: $(cat err.txt)"
expect_ok "--frames 5" $ref --distorted five.yuv $astro_args --quiet --frames 5 --json five5.json
same_file "vmaf: 6+5 frames vs --frames 5" vmaf_five.json five5.json
expect_ok "vmaf: equal files warn of nothing" -r $astro.ref.yuv -d $astro.dis.yuv -w 576 \
    -h 324 -p 420 -b 8 -q
tests=$((tests + 1)); [ -s err.txt ] && fail "vmaf: equal files: $(cat err.txt)"

# ---- containers: the tool says what it reads and what scores them ----
printf '\000\000\000\040ftypisom\000\000\002\000isomiso2avc1mp41' >clip.mp4
printf '\032\105\337\243\237\102\206\201\001matroska' >clip.mkv
for container in clip.mp4 clip.mkv; do
    expect_error "container $container" "reads raw YUV and y4m" --reference $container \
        --distorted $container $astro_args
    tests=$((tests + 1))
    grep -q "float_adm filter" err.txt && grep -q "python3 -m floatadm score" err.txt ||
        fail "container $container: names no tool for containers: $(cat err.txt)"
done

# ---- an interlaced y4m is scored frame by frame, and said so once per file ----
sed '1s/ Ip / It /' astro.ref.y4m >astro_it.ref.y4m
sed '1s/ Ip / Ib /' astro.dis.y4m >astro_ib.dis.y4m
expect_ok "interlaced y4m" --reference astro_it.ref.y4m --distorted astro_ib.dis.y4m --quiet \
    --json interlaced.json
tests=$((tests + 1))
[ "$(grep -c "warning: .*interlaced" err.txt)" -eq 2 ] && grep -q "It (interlaced, top field first)" err.txt ||
    fail "interlaced y4m: wanted a warning per file: $(cat err.txt)"
same_file "interlaced y4m scores the woven frames" interlaced.json y4m.json

# ---- write errors: exit 1, naming what could not be written ----
if [ -w /dev/full ]; then
    # A device other than /dev/null is no place for a log (the output policy).
    expect_error "--json /dev/full" "/dev/full: refusing to write the log there: it is a device" \
        $ref $dis $astro_args --quiet --json /dev/full
    # expect_full_stdout NAME ARGS...: with stdout on /dev/full, exit 1 naming stdout.
    expect_full_stdout() {
        name=$1; shift
        tests=$((tests + 1))
        "$bin" "$@" >/dev/full 2>err.txt
        rc=$?
        if [ $rc -ne 1 ] || ! grep -q "stdout" err.txt; then
            fail "$name >/dev/full: exit $rc: $(cat err.txt)"
        fi
    }
    expect_full_stdout "--help" --help
    expect_full_stdout "--version" --version
    expect_full_stdout "table" $ref $dis $astro_args
    expect_full_stdout "--json -" $ref $dis $astro_args --option debug=true --json -
fi

# ---- vmaf's command line (libvmaf/tools/cli_parse.c): the same logs as the long options ----
raw_ref="$astro.ref.yuv"
raw_dis="$astro.dis.yuv"
vmaf_geometry="-w 576 -h 324 -p 420 -b 8"
long_form="--reference $raw_ref --distorted $raw_dis $astro_args"
expect_ok "vmaf command line" -r $raw_ref -d $raw_dis $vmaf_geometry -n -q \
    --feature float_adm=adm_enhn_gain_limit=1.2:adm_p_norm=2 --json -o vmaf.json
[ -s out.txt ] && fail "vmaf command line with -q printed: $(cat out.txt)"
expect_ok "long options" $long_form --option adm_enhn_gain_limit=1.2 \
    --option adm_p_norm=2 --quiet --json long.json
same_file "vmaf command line vs long options (JSON)" vmaf.json long.json
tests=$((tests + 1))
grep -q '^        "adm2_egl_1.2_apn_2": 0\.8' vmaf.json &&
    grep -q '^    "adm_scale3_egl_1.2_apn_2": {' vmaf.json ||
    fail "vmaf.json: no libvmaf names: $(head -8 vmaf.json)"
tests=$((tests + 1))
grep -Eq '^  "fps": [0-9]+\.[0-9]{2} *,$' vmaf.json || fail "vmaf.json: no fps: $(head -3 vmaf.json)"
for format in xml csv sub; do
    expect_ok "vmaf command line --$format" -r $raw_ref -d $raw_dis $vmaf_geometry -n -q \
        --feature float_adm=egl=1.2 --$format -o vmaf.$format
    expect_ok "long options --$format" $long_form --option egl=1.2 --quiet --$format long.$format
    same_file "vmaf command line vs long options ($format)" vmaf.$format long.$format
done
tests=$((tests + 1))
head -1 vmaf.csv | grep -q '^Frame,adm2_egl_1.2,aim_egl_1.2,' || fail "CSV names: $(head -1 vmaf.csv)"
tests=$((tests + 1))
grep -q '^{5}{6}frame: 5|adm2_egl_1.2: 0\.9[0-9]*|aim_egl_1.2: ' vmaf.sub ||
    fail "sub layout: $(tail -1 vmaf.sub)"
tests=$((tests + 1))
grep -Eq '^  <fyi fps="[0-9]+\.[0-9]{2}" *\/>$' vmaf.xml || fail "XML fps: $(sed -n 3p vmaf.xml)"

# -o without a format flag writes vmaf's default, XML; the last format flag wins, as in vmaf.
expect_ok "-o alone" -r $raw_ref -d $raw_dis $vmaf_geometry -q -o default.xml
same_file "-o alone is XML" default.xml all.xml
expect_ok "last format flag" -r $raw_ref -d $raw_dis $vmaf_geometry -q --json --csv -o last.csv
same_file "--json --csv -o: CSV" last.csv all.csv
expect_ok "--json=PATH beside -o" -r $raw_ref -d $raw_dis $vmaf_geometry -q --json=both.json \
    --csv -o both.csv
same_file "--json=PATH beside -o (JSON)" both.json quiet.json
same_file "--json=PATH beside -o (CSV)" both.csv all.csv
expect_ok "--output" --reference $raw_ref --distorted $raw_dis $vmaf_geometry --quiet \
    --output=output.json --json
same_file "--output=PATH --json" output.json quiet.json
expect_ok "-o - with --json" -r $raw_ref -d $raw_dis $vmaf_geometry --json -o -
same_file "-o - (stdout)" out.txt quiet.json
tests=$((tests + 1))
grep -q '^  "fps": null,$' out.txt || fail "JSON on stdout: fps is not null: $(head -3 out.txt)"
expect_ok "--sub OUT" $long_form --quiet --sub long_default.sub
tests=$((tests + 1))
[ "$(wc -l <long_default.sub)" -eq 6 ] && grep -q '^{0}{1}frame: 0|adm2: ' long_default.sub ||
    fail "--sub OUT: $(head -1 long_default.sub)"

# Short flags as getopt reads them: values attached, flags grouped.
expect_ok "attached values, grouped flags" -r$raw_ref -d$raw_dis -w576 -h324 -p420 -b8 -nq \
    -oattached.xml
same_file "-w576 ... -nq -oFILE" attached.xml all.xml

# -p and -b give the raw format of every layout and depth.
camera=camera_512x384_yuv444p12le_noise
rocket=rocket_426x240_yuv422p16le_blur
unpack $camera
unpack $rocket
expect_ok "-p 420 -b 10" -r $coins.ref.yuv -d $coins.dis.yuv -w 384 -h 304 -p 420 -b 10 -q \
    --json -o coins_pb.json
same_file "-p 420 -b 10 vs --pix-fmt yuv420p10le" coins_pb.json coins1.json
expect_ok "-p 444 -b 12" -r $camera.ref.yuv -d $camera.dis.yuv -w 512 -h 384 -p 444 -b 12 -q \
    --json -o camera_pb.json
expect_ok "--pix-fmt yuv444p12le" --reference $camera.ref.yuv --distorted $camera.dis.yuv \
    --width 512 --height 384 --pix-fmt yuv444p12le --quiet --json camera.json
same_file "-p 444 -b 12 vs --pix-fmt yuv444p12le" camera_pb.json camera.json
expect_ok "-p 422 -b 16" -r $rocket.ref.yuv -d $rocket.dis.yuv -w 426 -h 240 -p 422 -b 16 -q \
    --json -o rocket_pb.json
expect_ok "--pix-fmt yuv422p16le" --reference $rocket.ref.yuv --distorted $rocket.dis.yuv \
    --width 426 --height 240 --pix-fmt yuv422p16le --quiet --json rocket.json
same_file "-p 422 -b 16 vs --pix-fmt yuv422p16le" rocket_pb.json rocket.json
expect_ok "-p 400 -b 8" -r astro.ref.gray -d astro.dis.gray $vmaf_geometry -p 400 -q \
    --json -o gray_pb.json
same_file "-p 400 -b 8 vs gray" gray_pb.json quiet.json

# --threads, --subsample, --frame_cnt, --frame_skip_ref, --frame_skip_dist.
expect_ok "--threads 0" $long_form --threads 0 --quiet --json threads0.json
same_file "--threads 0 (vmaf's default) vs none" threads0.json quiet.json
expect_ok "--subsample 2" $long_form --subsample 2 --quiet --csv sub2.csv
tests=$((tests + 1))
grep -E '^(Frame|0|2|4),' all.csv | cmp -s - sub2.csv ||
    fail "--subsample 2: not frames 0, 2, 4 of the full log: $(cat sub2.csv)"
expect_ok "--subsample 2 JSON" $long_form --subsample 2 --quiet --json sub2.json
tests=$((tests + 1))
[ "$(grep -c '"frameNum"' sub2.json)" -eq 3 ] && grep -q '"frameNum": 4,' sub2.json ||
    fail "--subsample 2: frames $(grep '"frameNum"' sub2.json)"
expect_ok "--subsample 1" $long_form --subsample 1 --quiet --json sub1.json
same_file "--subsample 1 vs none" sub1.json quiet.json
# Frames in flight: each frame read from its own place and numbered, in order.
expect_ok "--subsample 2 --threads 5" $long_form --subsample 2 --threads 5 --quiet \
    --csv sub2_threads5.csv
same_file "--subsample 2: 5 threads vs 1" sub2_threads5.csv sub2.csv

# ---- --backend: the CUDA device's scores are the CPU's; without one, cuda is an
# error naming why; auto says in one line which it took and why ----
expect_error "bad --backend" "--backend: 'gpu' is not cpu, cuda or auto" $long_form --backend gpu
expect_ok "--backend cpu" $long_form --backend cpu --quiet --json backend_cpu.json
same_file "--backend cpu vs none" backend_cpu.json quiet.json
tests=$((tests + 1))
if "$bin" $long_form --backend cuda --quiet --json backend_cuda.json >out.txt 2>err.txt; then
    same_file "--backend cuda vs cpu" backend_cuda.json quiet.json
    expect_ok "--backend cuda --subsample 2" $long_form --backend cuda --subsample 2 --quiet \
        --json backend_sub2.json
    same_file "--backend cuda --subsample 2 vs cpu" backend_sub2.json sub2.json
    expect_ok "--backend auto" $long_form --backend auto --quiet --json backend_auto.json
    same_file "--backend auto vs cpu" backend_auto.json quiet.json
    tests=$((tests + 1))
    [ "$(wc -l <err.txt)" -eq 1 ] &&
        grep -q -- "--backend auto: .* estimated faster .*; scoring on the \(CPU\|CUDA device\)$" err.txt ||
        fail "--backend auto with a device: wanted a one-line note of which it took: $(cat err.txt)"
else
    rc=$?
    [ $rc -eq 1 ] && grep -q -- "^float_adm_score: --backend cuda: ." err.txt ||
        fail "--backend cuda without a device: exit $rc: $(cat err.txt)"
    expect_ok "--backend auto without a device" $long_form --backend auto --quiet \
        --json backend_auto.json
    tests=$((tests + 1))
    [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "--backend auto: .*; scoring on the CPU$" err.txt ||
        fail "--backend auto without a device: wanted a one-line note: $(cat err.txt)"
    same_file "--backend auto on the CPU vs cpu" backend_auto.json quiet.json
fi
expect_ok "--frame_cnt 4" $long_form --frame_cnt 4 --quiet --json cnt4.json
same_file "--frame_cnt 4 vs --frames 4" cnt4.json six4.json
expect_ok "--frame_cnt 4 over 6+5 frames" --reference $raw_ref --distorted five.yuv $astro_args \
    --frame_cnt 4 --quiet --json cnt4_five.json
same_file "--frame_cnt 4 over 6+5 frames" cnt4_five.json six4.json
expect_ok "--frame_cnt beyond the end" $long_form --frame_cnt 10 --quiet --json cnt10.json
same_file "--frame_cnt 10 over 6 frames: all 6" cnt10.json quiet.json
expect_ok "--frame_cnt 0" $long_form --frame_cnt 0 --quiet --json cnt0.json
same_file "--frame_cnt 0: every frame" cnt0.json quiet.json
# --frame_cnt is vmaf's: its files are read as vmaf reads them, until one ends.
expect_ok "--frame_cnt over files that differ" --reference $raw_ref \
    --distorted five.yuv $astro_args --frame_cnt 10 --quiet --json cnt10_five.json
tests=$((tests + 1))
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "holds 5: scoring the first 5, as vmaf does" err.txt ||
    fail "--frame_cnt over 6+5 frames: wanted one warning: $(cat err.txt)"
[ "$(grep -c frameNum cnt10_five.json)" -eq 5 ] || fail "--frame_cnt 10 over 6+5: not 5 frames"
expect_error "--frames and --frame_cnt" "give one" $long_form --frames 2 --frame_cnt 2
expect_ok "--frame_skip_ref 1 --frame_skip_dist 1" $long_form --frame_skip_ref 1 \
    --frame_skip_dist 1 --quiet --csv skip1.csv
tests=$((tests + 1))
[ "$(sed -n '3,7p' all.csv | cut -d, -f2-)" = "$(sed -n '2,6p' skip1.csv | cut -d, -f2-)" ] &&
    [ "$(cut -d, -f1 skip1.csv | tr '\n' ' ')" = "Frame 0 1 2 3 4 " ] ||
    fail "--frame_skip_*: not frames 1-5 numbered 0-4: $(cut -c1-30 skip1.csv)"
expect_ok "--frame_skip on y4m" --reference astro.ref.y4m --distorted astro.dis.y4m \
    --frame_skip_ref 1 --frame_skip_dist 1 --quiet --csv skip1_y4m.csv
same_file "--frame_skip_* on y4m vs raw" skip1_y4m.csv skip1.csv
# Skipping one file's first frame pairs reference frame n + 1 with distorted frame n.
expect_ok "--frame_skip_ref alone" $long_form --frame_skip_ref 1 --frame_cnt 5 --quiet \
    --csv skip_ref.csv
expect_ok "--frame_skip_ref alone, 3 threads" $long_form --frame_skip_ref 1 --frame_cnt 5 \
    --threads 3 --quiet --csv skip_ref_threads3.csv
same_file "--frame_skip_ref 1: 3 threads vs 1" skip_ref_threads3.csv skip_ref.csv
tests=$((tests + 1))
[ "$(wc -l <skip_ref.csv)" -eq 6 ] && ! cmp -s skip_ref.csv skip1.csv ||
    fail "--frame_skip_ref 1: $(cut -c1-30 skip_ref.csv)"
expect_ok "--frame_skip_ref alone, files then differ" $long_form --frame_skip_ref 1 --quiet \
    --csv skip_ref_all.csv
tests=$((tests + 1))
cmp -s skip_ref_all.csv skip_ref.csv && grep -q "scoring the first 5, as vmaf does" err.txt ||
    fail "--frame_skip_ref 1 over 6+6 frames: wanted 5 frames and a warning: $(cat err.txt)"
expect_error "--frame_skip_dist past the end" "--frame_skip_dist 6, but the file holds 6 frames" \
    $long_form --frame_skip_dist 6

# The summary: each output's mean as vmaf prints its scores, named as the log names them.
expect_ok "summary" -r $raw_ref -d $raw_dis $vmaf_geometry -n --feature float_adm=egl=1.2
tests=$((tests + 1))
grep -qx 'adm2_egl_1.2: 0\.9213[0-9][0-9]' out.txt && grep -q '^adm_scale3_egl_1.2: ' out.txt &&
    [ "$(tail -7 out.txt | head -1 | cut -d' ' -f1)" = "adm2_egl_1.2:" ] ||
    fail "summary: $(tail -7 out.txt)"

# --feature as vmaf takes it; refusals of what is not float ADM.
expect_ok "--feature float_adm" $long_form --feature float_adm --quiet --json feature.json
same_file "--feature float_adm: the defaults" feature.json quiet.json
expect_ok "-v" -v
tests=$((tests + 1)); grep -q "^float_adm_score " out.txt || fail "-v: $(cat out.txt)"
expect_ok "--help" --help
tests=$((tests + 1)); grep -q -- "--frame_skip_ref" out.txt || fail "--help lacks vmaf's flags"
expect_error "-h is the height" "-h needs a value" $long_form -h
expect_error "--feature psnr" "--feature psnr: float_adm_score computes float ADM only" \
    $long_form --feature psnr
expect_error "--feature float_ssim=..." "computes float ADM only" $long_form \
    --feature float_ssim=enable_db=true
expect_error "--model" "--model: float_adm_score computes float ADM only" $long_form \
    --model version=vmaf_v0.6.1
expect_error "-m" "-m: float_adm_score computes float ADM only" $long_form -m path=model.json
expect_error "--aom_ctc" "computes float ADM only" $long_form --aom_ctc v1.0
expect_error "--nflx_ctc" "computes float ADM only" $long_form --nflx_ctc v1.0
expect_error "--feature twice" "given twice" $long_form --feature float_adm \
    --feature float_adm=egl=1.2
expect_error "--feature bad option string" "'egl' is not NAME=VALUE" $long_form \
    --feature float_adm=egl
expect_error "--feature option out of range" "--feature float_adm egl=0.5: " $long_form \
    --feature float_adm=egl=0.5
expect_error "-p 411" "-p: '411' is not 420, 422, 444 or 400" -r $raw_ref -d $raw_dis \
    -w 576 -h 324 -p 411 -b 8
expect_error "-b 9" "-b: '9' is not 8, 10, 12 or 16" -r $raw_ref -d $raw_dis -w 576 -h 324 \
    -p 420 -b 9
expect_error "-p without -b" "go together" -r $raw_ref -d $raw_dis -w 576 -h 324 -p 420
expect_error "-p and --pix-fmt" "give one" $long_form -p 420 -b 8
expect_error "-o twice" "-o given twice" -r $raw_ref -d $raw_dis $vmaf_geometry -o a.xml \
    -o b.xml
expect_error "-o --json" "-o needs a path, not the option --json" -r $raw_ref -d $raw_dis \
    $vmaf_geometry -o --json
expect_error "unknown short flag" "unknown argument '-x'" $long_form -x
expect_error "--json PATH beside -o" "beside -o, --json takes no value" $long_form \
    --json extra.json -o main.xml

# ---- --map-path: one PFM of the loss per 32x32 block per scored frame ----
astro_args="-r $astro.ref.yuv -d $astro.dis.yuv -w 576 -h 324 -p 420 -b 8 -q"
pfm_bytes=$((14 + 18 * 11 * 4))   # "Pf\n18 11\n-1.0\n", 18 x 11 floats
mkdir -p maps
expect_ok "map: scores" $astro_args --json plain.json
expect_ok "map: scores and maps" $astro_args --json mapped.json --map-path maps/m_%03d.pfm
same_file "map: the log is the same with maps" plain.json mapped.json
tests=$((tests + 1))
[ "$(ls maps | tr '\n' ' ')" = "m_000.pfm m_001.pfm m_002.pfm m_003.pfm m_004.pfm m_005.pfm " ] ||
    fail "map: one file per frame, numbered as the log numbers them: $(ls maps)"
for f in maps/*.pfm; do
    tests=$((tests + 1))
    [ "$(head -n 3 "$f" | tr '\n' ' ')" = "Pf 18 11 -1.0 " ] && [ "$(wc -c <"$f")" -eq $pfm_bytes ] ||
        fail "map: $f is no 18x11 little-endian PFM"
    tests=$((tests + 1))
    # NaN: a block ADM's border leaves unmeasured (the first column at 576x324).
    tail -c $((18 * 11 * 4)) "$f" | od -An -v -tf4 | tr -s ' ' '\n' | sed '/^$/d' |
        awk '/nan/ { unmeasured = 1; next } $1 < 0 || $1 > 1 { bad = 1 } $1 > 0 { lost = 1 }
             END { exit bad || !lost || !unmeasured }' ||
        fail "map: $f's losses are not in 0..1 with some detail lost and the border not measured"
done
expect_ok "map: identical pictures" -r $astro.ref.yuv -d $astro.ref.yuv -w 576 -h 324 -p 420 \
    -b 8 -q --frames 1 --map-path same%d.pfm
tests=$((tests + 1))
tail -c $((18 * 11 * 4)) same0.pfm | od -An -v -tf4 | tr -s ' ' '\n' | sed '/^$/d' |
    awk '!/nan/ && $1 != 0 { lost = 1 } END { exit lost }' ||
    fail "map: identical pictures lose something"
expect_ok "map: an earlier map is replaced" $astro_args --frames 1 --map-path maps/m_%03d.pfm
for pattern in 'x.pfm' 'a%d%d.pfm' '%s.pfm' '%n%d.pfm' '%5d.pfm' '%-5d.pfm' '%021d.pfm' \
    '%ld.pfm' '%d%.pfm'; do
    expect_error "map: pattern $pattern refused" "map pattern '$pattern'" $astro_args \
        --map-path "$pattern"
done
tests=$((tests + 1))
[ ! -e x.pfm ] && [ ! -e a0.pfm ] || fail "map: a refused pattern wrote a file"
expect_error "map: a missing directory" "nonexistent/m0.pfm: cannot write" $astro_args \
    --map-path nonexistent/m%d.pfm
ln -sf /dev/full full0.pfm
expect_error "map: a link is refused, its target untouched" \
    "full0.pfm: refusing to write the map there: it is a symbolic link" $astro_args \
    --map-path full%d.pfm
# A run that fails after its log began (the map of frame 1 refused) writes no log: the
# earlier one stays as it was, and no temporary is left.
rm -f stop*.pfm && cp quiet.json failed.json && printf 'notes\n' >stop1.pfm
expect_error "map: a failure mid-run" "stop1.pfm: refusing to write the map there" $astro_args \
    --map-path stop%d.pfm --json failed.json
tests=$((tests + 1))
if ! cmp -s failed.json quiet.json || [ -e .failed.json.tmp ]; then
    fail "map: a failure mid-run: the earlier log was replaced: $(tail -3 failed.json)"
fi
printf 'notes\n' >keep0.pfm
expect_error "map: not over another file" "refusing to write the map there" $astro_args \
    --map-path keep%d.pfm
tests=$((tests + 1))
[ "$(cat keep0.pfm)" = notes ] || fail "map: another file was overwritten"
cp $astro.ref.yuv in0.yuv
expect_error "map: not over an input" \
    "--map-path in%d.yuv gives the name of --reference in0.yuv, an input of the run" \
    -r in0.yuv -d $astro.dis.yuv \
    -w 576 -h 324 -p 420 -b 8 -q --map-path in%d.yuv
tests=$((tests + 1))
cmp -s in0.yuv $astro.ref.yuv || fail "map: an input was overwritten"
# The CUDA device's maps are the CPU's files, byte for byte; without a device,
# --backend cuda with maps is the error --backend cuda is.
mkdir -p cuda_maps
tests=$((tests + 1))
if "$bin" $astro_args --backend cuda --json cuda_mapped.json --map-path cuda_maps/m_%03d.pfm \
    >out.txt 2>err.txt; then
    same_file "map: the CUDA log is the CPU's" cuda_mapped.json mapped.json
    for f in maps/*.pfm; do
        tests=$((tests + 1))
        cmp -s "$f" "cuda_maps/${f#maps/}" || fail "map: cuda_maps/${f#maps/} is not the CPU's $f"
    done
else
    rc=$?
    [ $rc -eq 1 ] && grep -q -- "^float_adm_score: --backend cuda: ." err.txt ||
        fail "map: --backend cuda without a device: exit $rc: $(cat err.txt)"
fi

# ---- the corpus scores (needs python3): bit for bit against golden.json, or
# tests/corpus/hosts/FINGERPRINT.json for a processor whose RCPSS differs; without
# either, against golden.json within a relative tolerance (docs/exactness.md).
# FLOAT_ADM_TEST_FINGERPRINT, if set, stands in for the host's fingerprint;
# FLOAT_ADM_REQUIRE_EXACT=1 fails instead of comparing within the tolerance ----
if command -v python3 >/dev/null 2>&1; then
    tests=$((tests + 1))
    python3 - "$bin" "$corpus" <<'PY' || fail "corpus check"
import json, os, subprocess, sys

binary, corpus = sys.argv[1], sys.argv[2]
golden = json.load(open(os.path.join(corpus, "golden.json")))
fixtures = {f["name"]: f for f in golden["fixtures"]}
version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
fingerprint = (os.environ.get("FLOAT_ADM_TEST_FINGERPRINT") or
               version.split("rcpss fingerprint: ")[-1].split()[0])
# The corpus test's bound for other hosts: 8x the largest difference seen between two.
OTHER_HOST_TOLERANCE = 1e-6

def case_key(case):
    return case["fixture"], json.dumps(case["options"], sort_keys=True)

# The scores this processor must give: golden.json's, or those of tests/corpus/hosts/,
# bit for bit; elsewhere golden.json's within the tolerance.
tolerance = 0.0
host_file = os.path.join(corpus, "hosts", fingerprint + ".json")
if fingerprint == golden["reference"]["rcpss_sha256"]:
    expected = {case_key(case): case["frames"] for case in golden["cases"]}
elif os.path.exists(host_file):
    expected = {case_key(case): case["frames"] for case in json.load(open(host_file))["cases"]}
elif os.environ.get("FLOAT_ADM_REQUIRE_EXACT") == "1":
    sys.exit(f"FLOAT_ADM_REQUIRE_EXACT=1, but RCPSS fingerprint {fingerprint} has no "
             f"recorded scores ({host_file})")
else:
    expected = {case_key(case): case["frames"] for case in golden["cases"]}
    tolerance = OTHER_HOST_TOLERANCE
    print(f"NOTE: this host's RCPSS fingerprint {fingerprint} differs from the golden host's "
          f"and has no recorded scores: comparing within a relative tolerance of {tolerance:g}",
          file=sys.stderr)
errors = 0
unpacked = set()
for case in golden["cases"]:
    fixture = fixtures[case["fixture"]]
    name = fixture["name"]
    if name not in unpacked:
        for kind in ("ref", "dis"):
            with open(f"{name}.{kind}.yuv", "wb") as out:
                subprocess.run(["xz", "-dc", os.path.join(corpus, fixture[kind])],
                               stdout=out, check=True)
        unpacked.add(name)
    command = [binary, "--reference", f"{name}.ref.yuv", "--distorted", f"{name}.dis.yuv",
               "--width", str(fixture["width"]), "--height", str(fixture["height"]),
               "--pix-fmt", fixture["pix_fmt"], "--option", "debug=true", "--quiet",
               "--json", "-"]
    for option, value in case["options"].items():
        command += ["--option", f"{option}={value}"]
    run = subprocess.run(command, capture_output=True, text=True)
    label = f"{name} [{case['option_set']}]"
    if run.returncode != 0:
        print(f"{label}: exit {run.returncode}: {run.stderr.strip()}", file=sys.stderr)
        errors += 1
        continue
    result = json.loads(run.stdout)
    frames = [frame["metrics"] for frame in result["frames"]]
    if len(frames) != len(case["frames"]):
        print(f"{label}: {len(frames)} frames, golden has {len(case['frames'])}",
              file=sys.stderr)
        errors += 1
        continue
    # Outputs come in float_adm's order, named as libvmaf names them for the options
    # (adm2_egl_1.2, ...): the plain name, then the options' suffix; debug's adm never
    # takes one.
    names = list(frames[0]) if frames else []
    suffix = names[0][len("adm2"):] if names else ""
    plain = {name: name if name == "adm" else name[:len(name) - len(suffix)]
             for name in names}
    if suffix and not suffix.startswith("_"):
        print(f"{label}: adm2 is named {names[0]}", file=sys.stderr)
        errors += 1
    if bool(suffix) != bool(case["options"]) or any(
            name != "adm" and not name.endswith(suffix) for name in names):
        print(f"{label}: names {names} for options {case['options']}", file=sys.stderr)
        errors += 1
    frames = [{plain[name]: value for name, value in frame.items()} for frame in frames]
    for index, (got, want) in enumerate(zip(frames, case["frames"])):
        if set(got) != set(want):
            print(f"{label} frame {index}: outputs {sorted(got)}", file=sys.stderr)
            errors += 1
            continue
        want = expected[case_key(case)][index]
        for metric, value in want.items():
            if got[metric] != value and not abs(got[metric] - value) <= tolerance * abs(value):
                print(f"{label} frame {index} {metric}: {got[metric]!r} != {value!r}",
                      file=sys.stderr)
                errors += 1
    # libvmaf's pooling, in its order of operations.
    for metric, pooled in result["pooled_metrics"].items():
        scores = [frame[plain[metric]] for frame in frames]
        total = inverse_sum = 0.0
        for score in scores:  # not sum(): Python 3.12's sum() compensates rounding
            total += score
            inverse_sum += 1.0 / (score + 1.0)
        want = {"min": min(scores), "max": max(scores), "mean": total / len(scores),
                "harmonic_mean": len(scores) / inverse_sum - 1.0}
        for method, value in want.items():
            if pooled[method] != value:
                print(f"{label} pooled {metric} {method}: {pooled[method]!r} != {value!r}",
                      file=sys.stderr)
                errors += 1
print(f"corpus: {len(golden['cases'])} cases, {errors} mismatches", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
    tests=$((tests + 1))
    python3 "$here/check_libvmaf_logs.py" "$bin" "$corpus" "$here/../data/libvmaf-logs" . ||
        fail "float_adm_score's logs vs libvmaf's (tests/data/libvmaf-logs)"
else
    echo "python3 not found: corpus scores not checked" >&2
fi

echo "test_cli: $tests tests, $failures failures" >&2
[ $failures -eq 0 ]
