#!/bin/sh
# Bad input through ffmpeg's float_adm filter: each case either fails with a
# clear message and a non-zero exit, or recovers as docs/robustness.md says; and
# the filter's option set (docs/ffmpeg.md, "What changed in the filter"): libvmaf's
# options under their full names only, framesync's options as psnr's, the log's
# layout, the options that are gone refused.  Inputs come from lavfi's testsrc2
# (tiny frames), so no files are needed.
#
# Usage: sh tests/robustness/test_ffmpeg.sh path/to/ffmpeg
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 FFMPEG" >&2
    exit 2
fi
. "$(dirname "$0")/../support/shell_harness.sh"
ffmpeg=$(absolute "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
harness_begin test_robustness

# Ten 64x48 frames; SIZE and DURATION vary per case.
src() {
    echo "testsrc2=s=${1:-64x48}:d=${2:-0.4}"
}

ff() {
    "$ffmpeg" -hide_banner -nostdin -nostats -y "$@"
}

# expect_error NAME SUBSTRING ARGS...: ffmpeg exits with an error (its exit
# status is AVERROR & 255; 124 is timeout's, 134-139 a signal's) within 20 s
# and its stderr says SUBSTRING (in any case).
expect_error() {
    name=$1; substring=$2; shift 2
    tests=$((tests + 1))
    timeout 20 "$ffmpeg" -hide_banner -nostdin -nostats -y "$@" >out.txt 2>err.txt
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || { [ $rc -ge 134 ] && [ $rc -le 139 ]; }; then
        fail "$name: exit $rc, wanted an error: $(tail -n 5 err.txt)"
    elif ! grep -F -i -q -- "$substring" err.txt; then
        fail "$name: stderr lacks '$substring': $(tail -n 5 err.txt)"
    fi
}

# expect_ok NAME ARGS...: ffmpeg exits 0; stderr stays in err.txt.
expect_ok() {
    name=$1; shift
    tests=$((tests + 1))
    ff "$@" >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(tail -n 5 err.txt)"
    return $rc
}

# expect_count NAME WANT FILE PATTERN: FILE has WANT lines matching PATTERN.
expect_count() {
    tests=$((tests + 1))
    got=$(grep -c -- "$4" "$3" 2>/dev/null)
    [ "$got" = "$2" ] || fail "$1: $got lines with '$4' in $3, wanted $2"
}

# expect_stderr NAME SUBSTRING: the last run's stderr says SUBSTRING.
expect_stderr() {
    tests=$((tests + 1))
    grep -F -q -- "$2" err.txt || fail "$1: stderr lacks '$2': $(tail -n 5 err.txt)"
}

# expect_pairing NAME LOG COUNTS: the JSON log's "pairing" member holds COUNTS:
# "PAIRS APART REFERENCE_REPEATED MAIN_REPEATED NO_REFERENCE REFERENCE_AFTER_MAIN".
expect_pairing() {
    tests=$((tests + 1))
    got=$(/usr/bin/python3 -c '
import json, sys
pairing = json.load(open(sys.argv[1])).get("pairing", {})
print(" ".join(str(pairing.get(k)) for k in ("pairs", "apart", "reference_repeated",
                                             "main_repeated", "no_reference",
                                             "reference_after_main")))
' "$2" 2>&1)
    [ "$got" = "$3" ] || fail "$1: the log's pairing is '$got', wanted '$3'"
}

# --- Inputs that do not match -------------------------------------------------

expect_error "sizes differ" "must have the same size and bit depth" \
    -f lavfi -i "$(src 64x48)" -f lavfi -i "$(src 80x48)" -lavfi float_adm -f null -
# Two formats (an 8-bit main, a 10-bit reference): FFmpeg converts one input to
# the other's format as it does for psnr, here the reference to the main's.
for flt in float_adm psnr; do
    expect_ok "depths differ: $flt" -v verbose -f lavfi -i "$(src)" \
        -f lavfi -i "$(src),format=yuv420p10le" -lavfi "$flt" -f null -
    grep -o 'fmt:yuv420p10le .*-> .*fmt:[a-z0-9]*' err.txt | sed 's/.*fmt:/fmt:/' > "conversion.$flt"
done
tests=$((tests + 1))
[ -s conversion.psnr ] && cmp -s conversion.psnr conversion.float_adm ||
    fail "depths differ: float_adm converts to $(cat conversion.float_adm), psnr to $(cat conversion.psnr)"
expect_ok "depths differ: scores" -f lavfi -i "$(src)" -f lavfi -i "$(src),format=yuv420p10le" \
    -lavfi "float_adm,metadata=print:file=mixed.txt" -f null -
expect_ok "depths differ: converted by hand" -f lavfi -i "$(src)" \
    -f lavfi -i "$(src),format=yuv420p10le,scale,format=yuv420p" \
    -lavfi "float_adm,metadata=print:file=by_hand.txt" -f null -
tests=$((tests + 1))
grep -q adm2= mixed.txt && cmp -s mixed.txt by_hand.txt ||
    fail "depths differ: the scores differ from the reference converted by hand"
expect_error "below 17x17" "too small" \
    -f lavfi -i "$(src 16x48)" -f lavfi -i "$(src 16x48)" -lavfi float_adm -f null -

# --- Resolution change mid-stream ---------------------------------------------

# Inside one graph (no reinit): the frame no longer matches the context.
grow='scale=w=if(lt(n\,3)\,64\,80):h=48:eval=frame'
expect_error "main grows mid-stream" "main (first) input changed size mid-stream from 64x48 to 80x48" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "[0]$grow[m];[m][1]float_adm" -f null -
expect_error "reference grows mid-stream" "reference (second) input changed size mid-stream" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "[1]$grow[r];[0][r]float_adm" -f null -
# Decoded input changing size: ffmpeg rebuilds the graph, which then sees
# inputs of two sizes (below, with both scaled to one size, scoring goes on).
expect_error "decoded input grows" "must have the same size and bit depth" \
    -f lavfi -i "$(src),$grow" -f lavfi -i "$(src)" -lavfi float_adm -f null -

# --- One input ends early -----------------------------------------------------

# Default (eof_action=repeat): a reference that ends first has its last frame
# reused, and the filter warns that scores now compare against a stale picture;
# each such frame is counted (at the end, and in the log) and says so in its
# metadata, as the pairs more than half a frame apart do.
if expect_ok "reference ends early" -f lavfi -i "$(src 64x48 0.4)" \
        -f lavfi -i "$(src 64x48 0.2)" \
        -lavfi "float_adm=log_fmt=json:log_path=early.json,metadata=print:file=meta.txt" \
        -f null -; then
    expect_count "reference ends early: every main frame scored" 10 meta.txt "adm2="
    expect_stderr "reference ends early: warned" "shortest=1"
    expect_stderr "reference ends early: counted" \
        "5 frames, the first at frame 5, were scored with a reference (second) frame already scored"
    expect_count "reference ends early: the frames in doubt say why" 5 meta.txt \
        "^lavfi\.float_adm\.pair_doubt=apart+reference_repeated$"
    expect_count "reference ends early: no other frame in doubt" 5 meta.txt "pair_doubt="
    expect_pairing "reference ends early" early.json "10 5 5 0 0 0"
fi
# A main input that ends first: each main frame is scored once, and the reference
# frames after it are said to be left out, and counted in the log (XML here).
if expect_ok "main ends early" -f lavfi -i "$(src 64x48 0.2)" \
        -f lavfi -i "$(src 64x48 0.4)" \
        -lavfi "float_adm=log_fmt=xml:log_path=late.xml,metadata=print:file=meta.txt" \
        -f framecrc -; then
    expect_count "main ends early: each main frame scored once" 5 meta.txt "adm2="
    expect_count "main ends early: each main frame passed once" 5 out.txt "^0,"
    expect_stderr "main ends early: warned" "its last 5 frames have no main frame"
    expect_count "main ends early: no main frame in doubt" 0 meta.txt "pair_doubt="
    expect_count "main ends early: counted in the log" 1 late.xml \
        '^  <pairing pairs="5" apart="0" reference_repeated="0" main_repeated="0" no_reference="0" reference_after_main="5" />$'
fi
# A reference that starts two frames later: the main's first two frames have no
# reference frame (passed on unscored, each saying so), and the reference's last
# two have no main frame.
if expect_ok "reference starts later" -f lavfi -i "$(src 64x48 0.4)" -f lavfi -i "$(src 64x48 0.4)" \
        -lavfi "[1]setpts=PTS+2[r];[0][r]float_adm=log_fmt=json:log_path=later.json,metadata=print:file=meta.txt" \
        -f null -; then
    expect_count "reference starts later: 8 frames scored" 8 meta.txt "adm2="
    expect_count "reference starts later: the first two say why" 2 meta.txt \
        "^lavfi\.float_adm\.pair_doubt=no_reference$"
    expect_pairing "reference starts later" later.json "8 0 0 0 2 2"
fi
# A main frame whose timestamp repeats the one before: scored with the main
# frame (and the reference frame) already scored.
if expect_ok "main timestamps repeat" -f lavfi -i "$(src 64x48 0.4)" -f lavfi -i "$(src 64x48 0.4)" \
        -lavfi "[0]setpts='if(eq(N\,5)\,4\,N)'[d];[d][1]float_adm=log_fmt=json:log_path=repeat.json,metadata=print:file=meta.txt" \
        -f null -; then
    expect_count "main timestamps repeat: the frame says why" 1 meta.txt \
        "^lavfi\.float_adm\.pair_doubt=reference_repeated+main_repeated$"
    expect_stderr "main timestamps repeat: counted" \
        "1 frames, the first at frame 5, were scored with a main (first) frame already scored"
    expect_pairing "main timestamps repeat" repeat.json "10 0 1 1 0 0"
fi
for stop in shortest=1 eof_action=endall; do
    if expect_ok "reference ends early, $stop" -f lavfi -i "$(src 64x48 0.4)" \
            -f lavfi -i "$(src 64x48 0.2)" -lavfi "float_adm=$stop,metadata=print:file=meta.txt" \
            -f null -; then
        expect_count "reference ends early, $stop: stops with it" 5 meta.txt "adm2="
    fi
done
if expect_ok "reference ends early, eof_action=pass" -f lavfi -i "$(src 64x48 0.4)" \
        -f lavfi -i "$(src 64x48 0.2)" \
        -lavfi "float_adm=eof_action=pass,metadata=print:file=meta.txt" -f framecrc -; then
    expect_count "eof_action=pass: frames after the end unscored" 5 meta.txt "adm2="
    expect_count "eof_action=pass: every main frame passes" 10 out.txt "^0,"
fi
if expect_ok "main ends early, shortest=1" -f lavfi -i "$(src 64x48 0.2)" \
        -f lavfi -i "$(src 64x48 0.4)" -lavfi "float_adm=shortest=1,metadata=print:file=meta.txt" \
        -f null -; then
    expect_count "main ends early, shortest=1: stops with it" 5 meta.txt "adm2="
fi

# --- Truncated and corrupt streams --------------------------------------------

# A raw file cut inside its 4th frame: the partial packet is a decoder error
# and no score; the three whole frames are scored.
ff -f lavfi -i "$(src 64x48 0.12)" -f rawvideo ref.yuv 2>/dev/null
head -c $((64 * 48 * 3 / 2 * 3 + 1000)) ref.yuv > cut.yuv
ff -f lavfi -i "$(src 64x48 0.16)" -f rawvideo ref4.yuv 2>/dev/null
if expect_ok "truncated raw input" -f rawvideo -pix_fmt yuv420p -s 64x48 -i cut.yuv \
        -f rawvideo -pix_fmt yuv420p -s 64x48 -i ref4.yuv \
        -lavfi "float_adm=shortest=1,metadata=print:file=meta.txt" -f null -; then
    expect_count "truncated raw input: whole frames only" 3 meta.txt "adm2="
fi
ff -f lavfi -i "$(src 64x48 0.16)" cut.y4m 2>/dev/null
size=$(wc -c < cut.y4m)
head -c $((size - 500)) cut.y4m > cut2.y4m
if expect_ok "truncated y4m input" -i cut2.y4m -f lavfi -i "$(src 64x48 0.16)" \
        -lavfi "float_adm=shortest=1,metadata=print:file=meta.txt" -f null -; then
    expect_count "truncated y4m input: whole frames only" 3 meta.txt "adm2="
fi

# Flipped bytes inside an MPEG-2 stream: the decoder conceals and flags the
# frames corrupt.  By default they are scored (measuring the damage is the
# point), with a warning per run of frames; skip and fail on request.
ff -f lavfi -i "$(src 176x144 1)" -c:v mpeg2video -q:v 4 -g 5 clean.mkv 2>/dev/null
/usr/bin/python3 - clean.mkv corrupt.mkv <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(data) // 3, len(data) // 3 + 4000, 7):
    data[i] ^= 0x55
open(sys.argv[2], "wb").write(data)
EOF
for input in main reference; do
    if [ $input = main ]; then pair="-i corrupt.mkv -i clean.mkv"; main=corrupt.mkv
    else pair="-i clean.mkv -i corrupt.mkv"; main=clean.mkv; fi
    decoded=$(ff -i $main -f framecrc - 2>/dev/null | grep -c '^0,')
    if expect_ok "corrupt $input stream" $pair \
            -lavfi "float_adm=log_path=corrupt.csv:log_fmt=csv,metadata=print:file=meta.txt" -f null -; then
        expect_count "corrupt $input stream: every decoded frame scored" "$decoded" meta.txt "adm2="
        expect_stderr "corrupt $input stream: warned with the frame range" "flagged corrupt by the decoder: scored as decoded"
    fi
    expect_error "corrupt $input stream, on_corrupt=fail" "on_corrupt=fail" $pair \
        -lavfi "float_adm=on_corrupt=fail" -f null -
    if expect_ok "corrupt $input stream, on_corrupt=skip" $pair \
            -lavfi "float_adm=on_corrupt=skip:log_fmt=json:log_path=skip.json,metadata=print:file=meta.txt" -f null -; then
        skipped=$(grep -c '"skipped": "corrupt"' skip.json)
        tests=$((tests + 1))
        [ "$skipped" -gt 0 ] || fail "on_corrupt=skip: no skipped entry in the log"
        expect_count "on_corrupt=skip: the others scored" $((decoded - skipped)) meta.txt "adm2="
        expect_count "on_corrupt=skip: one log entry per frame" "$decoded" skip.json '"frameNum"'
    fi
done

# --- Pairing ------------------------------------------------------------------

# Clean inputs of one rate: nothing to warn about, no frame in doubt, nought of
# each kind in the log.
if expect_ok "clean inputs" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_fmt=json:log_path=clean.json,metadata=print:file=meta.txt" -f null -; then
    tests=$((tests + 1))
    ! grep -iE "float_adm.*(corrupt|half a frame|no reference|already scored|differ)" err.txt ||
        fail "clean inputs: a warning: $(grep -iE 'corrupt|half a frame|no reference|already scored|differ' err.txt)"
    expect_count "clean inputs: no frame in doubt" 0 meta.txt "pair_doubt="
    expect_pairing "clean inputs" clean.json "10 0 0 0 0 0"
fi

# Equal inputs scored every n-th frame: no false "already scored" warning
# (frames are told apart by timestamp, not by address).
for n in 2 3 5; do
    for run in 1 2 3 4 5; do
        if expect_ok "n_subsample=$n, run $run" -f lavfi -i "$(src 64x48 1)" -f lavfi -i "$(src 64x48 1)" \
                -lavfi "float_adm=n_subsample=$n" -f null -; then
            tests=$((tests + 1))
            ! grep -q "already scored" err.txt || fail "n_subsample=$n: false repeated-frame warning"
        fi
    done
done
# A reference that misses a frame: the pairs after it are further apart than
# half a frame, which is said, with the count at the end.
if expect_ok "reference misses a frame" -f lavfi -i "$(src 64x48 0.4)" \
        -f lavfi -i "$(src 64x48 0.4),select=not(eq(n\,4))" -lavfi float_adm -f null -; then
    expect_stderr "reference misses a frame: warned" "more than half a frame away"
    expect_stderr "reference misses a frame: counted" "frame pairs, the first at frame 4"
fi
# Inputs of other time bases whose frames pair exactly (an mp4 against its y4m
# source): nothing in doubt, nothing said but at -v verbose.
ff -f lavfi -i "$(src 64x48 0.4)" -c:v mpeg2video -q:v 10 tb.mp4 2>/dev/null
ff -f lavfi -i "$(src 64x48 0.4)" tb.y4m 2>/dev/null
if expect_ok "time bases differ, exact pairs" -i tb.mp4 -i tb.y4m -lavfi float_adm -f null -; then
    tests=$((tests + 1))
    ! grep -i "Parsed_float_adm" err.txt | grep -v "mean:" ||
        fail "time bases differ, exact pairs: a warning: $(grep -i Parsed_float_adm err.txt | grep -v mean: | head -2)"
fi
# Timestamps rounded apart (23.976 fps in Matroska's milliseconds, some before the
# frame's time, against the y4m source's 1001/24000 s), as the loopback decoder's
# are in the in-loop recipe: ts_sync_mode=nearest pairs each frame with its own
# source frame (the scores of the pairs taken frame by frame); framesync's default,
# the last reference frame not after the main one, takes the frame before.
ff -f lavfi -i "testsrc2=s=64x48:r=24000/1001:d=1,format=yuv420p" rounded.y4m 2>/dev/null
ff -i rounded.y4m -c:v ffv1 rounded.mkv 2>/dev/null
expect_ok "rounded timestamps, frame by frame" -i rounded.mkv -i rounded.y4m \
    -lavfi "[0]setpts=N/TB[d];[1]setpts=N/TB[r];[d][r]float_adm,metadata=print:file=index.txt" -f null -
for mode in nearest default; do
    expect_ok "rounded timestamps, ts_sync_mode=$mode" -i rounded.mkv -i rounded.y4m \
        -lavfi "float_adm=ts_sync_mode=$mode,metadata=print:file=$mode.txt" -f null -
done
# The scores alone: the frames' timestamps rewritten by number lie apart in time,
# which the filter says (pair_doubt); those of nearest must be in no doubt.
grep '^lavfi\.float_adm\.' index.txt | grep -v '^lavfi\.float_adm\.pair_doubt=' > index.scores
tests=$((tests + 2))
grep '^lavfi\.float_adm\.' nearest.txt | cmp -s - index.scores ||
    fail "rounded timestamps, ts_sync_mode=nearest: not the frame-by-frame scores"
if grep '^lavfi\.float_adm\.' default.txt | cmp -s - index.scores; then
    fail "rounded timestamps, ts_sync_mode=default: the frame-by-frame scores (the case is not there)"
fi
# A 25 fps main against a 50 fps reference of the same two seconds: every main
# frame paired with the reference frame of its time, each scored once.
if expect_ok "25 fps against 50 fps" -f lavfi -i "testsrc2=s=64x48:r=25:d=2" \
        -f lavfi -i "testsrc2=s=64x48:r=50:d=2" \
        -lavfi "float_adm=log_fmt=json:log_path=rates.json,metadata=print:file=meta.txt" -f null -; then
    expect_count "25 fps against 50 fps: 50 frames scored" 50 meta.txt "adm2="
    expect_count "25 fps against 50 fps: 50 log entries" 50 rates.json '"frameNum"'
    expect_count "25 fps against 50 fps: no frame in doubt" 0 meta.txt "pair_doubt="
    expect_pairing "25 fps against 50 fps" rates.json "50 0 0 0 0 0"
    tests=$((tests + 1))
    ! grep -i "Parsed_float_adm" err.txt | grep -v "mean:" ||
        fail "25 fps against 50 fps: a warning: $(grep -i Parsed_float_adm err.txt | grep -v mean: | head -2)"
fi
# Full range against limited in one pixel format: each input keeps its range, the
# samples are compared as they are, and the scores drop without a word unless
# warned.
expect_ok "colour ranges differ" -f lavfi -i "$(src 64x48 0.2),scale=out_range=pc,format=yuv420p" \
    -f lavfi -i "$(src 64x48 0.2),format=yuv420p" -lavfi float_adm -f null - &&
    expect_stderr "colour ranges differ: warned" "colour ranges differ"
# A yuvj (full range) main against a yuv reference: two pixel formats, so FFmpeg
# converts the reference, its range with it, as for psnr: the same picture
# scores 1, with no warning.
if expect_ok "yuvj against yuv" -f lavfi -i "$(src 64x48 0.2),scale=out_range=pc,format=yuvj420p" \
        -f lavfi -i "$(src 64x48 0.2),format=yuv420p" \
        -lavfi "float_adm,metadata=print:file=yuvj.txt" -f null -; then
    expect_count "yuvj against yuv: the same picture scores 1" 5 yuvj.txt "adm2=1$"
    tests=$((tests + 1))
    ! grep -q "colour ranges differ" err.txt || fail "yuvj against yuv: warned of ranges"
fi

# --- Logs ---------------------------------------------------------------------

# ffmpeg rebuilds the graph when a decoded input changes size; with both
# scaled to one size the scores go on, and the log keeps every frame.
grow_dec='scale=w=if(lt(n\,12)\,320\,352):h=240:eval=frame'
if expect_ok "log across a graph rebuild" -filter_complex_threads 1 \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -lavfi "[0]scale=320:240[d];[1]scale=320:240[r];[d][r]float_adm=log_fmt=json:log_path=rebuilt.json" -f null -; then
    expect_stderr "log across a graph rebuild: said" "goes on from frame"
    tests=$((tests + 1))
    # ffmpeg drops the frames queued in the old graph: the log holds every frame
    # the filter passed on, numbered in order, from both graphs.
    # The pairing counts of both graphs' instances add up.
    /usr/bin/python3 -c '
import json, sys
log = json.load(open(sys.argv[1]))
numbers = [f["frameNum"] for f in log["frames"]]
assert numbers == sorted(set(numbers)) and len(numbers) >= 20 and numbers[-1] >= 20, numbers
scored = sum(1 for f in log["frames"] if "skipped" not in f)
unpaired = sum(1 for f in log["frames"] if f.get("skipped") == "no reference frame")
pairing = log["pairing"]
assert (pairing["pairs"], pairing["no_reference"]) == (scored, unpaired), (pairing, scored)
' rebuilt.json || fail "log across a graph rebuild: not one log of every frame in order, counted"
fi
# Four filter threads (each frame in slices): the same, each frame once, in order.
if expect_ok "log across a graph rebuild, 4 threads" -filter_complex_threads 4 \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -lavfi "[0]scale=320:240[d];[1]scale=320:240[r];[d][r]float_adm=log_fmt=json:log_path=rebuilt4.json" -f null -; then
    tests=$((tests + 1))
    /usr/bin/python3 -c '
import json, sys
numbers = [f["frameNum"] for f in json.load(open(sys.argv[1]))["frames"]]
assert numbers == sorted(set(numbers)) and numbers[-1] >= 20, numbers
' rebuilt4.json || fail "log across a graph rebuild, 4 threads: not one log of the frames in order"
fi
# A rebuilt graph whose new instance cannot go on (the main input alone changed
# size): ffmpeg fails, saying why, before the new instance opens anything; the log
# the first instance handed on lands with its frames, saying it is incomplete.
shrink='scale=w=if(gt(n\,10)\,160\,320):h=240:eval=frame'
if expect_error "rebuilt instance fails" "must have the same size" \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$shrink" -f lavfi -i "testsrc2=s=320x240:r=25:d=1" \
        -lavfi "float_adm=log_fmt=json:log_path=failed_rebuild.json" -f null -; then
    tests=$((tests + 1))
    /usr/bin/python3 -c '
import json, sys
log = json.load(open(sys.argv[1]))
numbers = [f["frameNum"] for f in log["frames"]]
assert numbers == list(range(len(numbers))) and numbers, numbers
assert "pooled_metrics" not in log and "rebuilt" in log.get("incomplete", ""), sorted(log)
' failed_rebuild.json || fail "rebuilt instance fails: the log is not the first instance's frames, marked incomplete"
fi
# A log on stdout, where a pipe carries it, goes on across the rebuild too.
tests=$((tests + 1))
ff -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
    -lavfi "[0]scale=320:240[d];[1]scale=320:240[r];[d][r]float_adm=log_fmt=json:log_path=-" -f null - \
    2>err.txt | cat > piped.json
rc=$?
if [ $rc -ne 0 ] || ! grep -q "goes on from frame" err.txt; then
    fail "log on a pipe across a graph rebuild: exit $rc: $(tail -n 3 err.txt)"
else
    /usr/bin/python3 -c '
import json, sys
numbers = [f["frameNum"] for f in json.load(open(sys.argv[1]))["frames"]]
assert numbers == sorted(set(numbers)) and numbers[-1] >= 20, numbers
' piped.json || fail "log on a pipe across a graph rebuild: not one log of every frame in order"
fi
# stdout carrying an output: the log would be mixed into the video.
tests=$((tests + 1))
"$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -lavfi "float_adm=log_fmt=json:log_path=-" -f yuv4mpegpipe - 2>err.txt | cat > mixed.y4m
if ! grep -q "refusing to write the log to stdout" err.txt; then
    fail "log on stdout beside an output there: not refused: $(tail -n 2 err.txt)"
elif grep -q '"frameNum"' mixed.y4m; then
    fail "log on stdout beside an output there: the log went into the video"
fi
# /dev/stdout is stdout (here a file), and devices are no data files: two
# instances may both log to /dev/null.
expect_ok "log_path=/dev/stdout" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -lavfi "float_adm=log_path=/dev/stdout:log_fmt=csv" -f null - &&
    expect_count "log_path=/dev/stdout: the log" 11 out.txt ","
expect_ok "two instances log to /dev/null" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -filter_complex "[0]split[d1][d2];[1]split[r1][r2];[d1][r1]float_adm=log_path=/dev/null[a];[d2][r2]float_adm=log_path=/dev/null[b]" \
    -map "[a]" -f null - -map "[b]" -f null -
# A picture of an image sequence is read later than the log is opened: a file
# that is not a log is never replaced.
mkdir -p seq
ff -f lavfi -i "$(src 64x48 0.4)" -c:v pgm seq/f%d.pgm 2>/dev/null
sum_before=$(cksum < seq/f7.pgm)
expect_error "log_path is a picture of an input sequence" "not a float_adm log" \
    -i seq/f%d.pgm -f lavfi -i "$(src 64x48 0.4),format=gray" -lavfi "float_adm=log_path=seq/f7.pgm" -f null -
tests=$((tests + 1))
[ "$(cksum < seq/f7.pgm)" = "$sum_before" ] || fail "log_path is a picture of an input sequence: it was changed"
# An earlier log is replaced.
expect_ok "log_path is an earlier log" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -lavfi "float_adm=log_path=rebuilt.json" -f null -
expect_error "log on a full disk" "/dev/full" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -lavfi "float_adm=log_path=/dev/full" -f null -
# libfloatadm's error codes are negative errno values, passed on as ffmpeg's: a
# log that cannot be made (its directory is missing) fails with EIO, not EINVAL.
tests=$((tests + 1))
ff -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_path=nodir/adm.json" \
    -f null - >out.txt 2>err.txt
rc=$?
[ $rc -eq $((256 - 5)) ] && grep -q "(Input/output error)" err.txt ||
    fail "log in a missing directory: exit $rc, wanted EIO's $((256 - 5)): $(tail -n 2 err.txt)"
# A run that fails partway (here a map it cannot write: its directory, named by the
# frame number, is missing from frame 5 on) leaves a log that says it is incomplete,
# never one that reads as finished.
for n in 0 1 2 3 4; do mkdir -p partmaps$n; done
if expect_error "a map fails partway" "partmaps5/m.pfm" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_fmt=json:log_path=part.json:map_path=partmaps%d/m.pfm" -f null -; then
    tests=$((tests + 1))
    /usr/bin/python3 -c '
import json, sys
log = json.load(open(sys.argv[1]))
assert "incomplete" in log and "pooled_metrics" not in log, sorted(log)
' part.json || fail "a map fails partway: the log does not say it is incomplete"
fi
# A map_path that gives the log's name, or the name of a file the process reads (an
# input), is refused before any map is written, not at that frame.
expect_error "map_path gives the log's name" "gives the name of log_path" -f lavfi -i "$(src)" \
    -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=json:log_path=collide3.pfm:map_path=collide%d.pfm" \
    -f null -
tests=$((tests + 1))
! ls collide* >/dev/null 2>&1 || fail "map_path gives the log's name: files were written: $(ls collide*)"
ff -f lavfi -i "$(src)" -f rawvideo inmap3.yuv 2>/dev/null
cp inmap3.yuv inmap3.copy
expect_error "map_path gives an input's name" "inmap3.yuv: refusing to write the map there" \
    -f rawvideo -pix_fmt yuv420p -s 64x48 -i inmap3.yuv -f lavfi -i "$(src)" \
    -lavfi "float_adm=map_path=inmap%d.yuv" -f null -
tests=$((tests + 1))
cmp -s inmap3.yuv inmap3.copy && ! ls inmap0.yuv >/dev/null 2>&1 ||
    fail "map_path gives an input's name: maps were written or the input changed"
# Maps are PFM: a picture format's name is refused before anything is written.
expect_error "map_path named .png" "the maps are PFM files, not png" -f lavfi -i "$(src)" \
    -f lavfi -i "$(src)" -lavfi "float_adm=map_path=pngmaps_%d.png" -f null -
tests=$((tests + 1))
! ls pngmaps_* >/dev/null 2>&1 || fail "map_path named .png: files were written"
# Maps without a log keep their frame numbers across a graph rebuild: the second
# graph's maps go on after the first's instead of overwriting them.
mkdir -p rebuiltmaps
if expect_ok "maps across a graph rebuild" -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -f lavfi -i "testsrc2=s=320x240:r=25:d=1,$grow_dec" \
        -lavfi "[0]scale=320:240[d];[1]scale=320:240[r];[d][r]float_adm=map_path=rebuiltmaps/%d.pfm" \
        -f null -; then
    tests=$((tests + 1))
    last=$(ls rebuiltmaps | sed 's/\.pfm$//' | sort -n | tail -n 1)
    [ "${last:-0}" -ge 20 ] ||
        fail "maps across a graph rebuild: the last map is number ${last:-none}, wanted 20 or more"
fi
ff -f lavfi -i "$(src 64x48 0.4)" -c:v ffv1 input.mkv 2>/dev/null
sum_before=$(cksum < input.mkv)
expect_error "log_path is an input" "open in this process" -i input.mkv -f lavfi -i "$(src 64x48 0.4)" \
    -lavfi "float_adm=log_path=input.mkv" -f null -
tests=$((tests + 1))
[ "$(cksum < input.mkv)" = "$sum_before" ] || fail "log_path is an input: the input was changed"
expect_error "two instances, one log_path" "another writer in this process" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
    -filter_complex "[0]split[d1][d2];[1]split[r1][r2];[d1][r1]float_adm=log_path=same.json[a];[d2][r2]float_adm=log_path=same.json[b]" \
    -map "[a]" -f null - -map "[b]" -f null -
# Nothing scored: the run succeeds, with no summary (nothing pooled).
if expect_ok "nothing scored" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "[0]trim=end_frame=0[d];[d][1]float_adm" -f null -; then
    tests=$((tests + 1))
    ! grep -q "adm2 mean:" err.txt || fail "nothing scored: a summary: $(grep 'adm2 mean:' err.txt)"
fi
# The log holds the frames the filter passed on: with -frames:v N, N frames or N + 1
# (the frame on its way when the output stopped), as psnr's stats_file.
if expect_ok "-frames:v 4" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_fmt=json:log_path=frames4.json" -frames:v 4 -f null -; then
    tests=$((tests + 1))
    logged=$(grep -c '"frameNum"' frames4.json)
    [ "$logged" = 4 ] || [ "$logged" = 5 ] || fail "-frames:v 4: $logged frames logged, wanted 4 or 5"
fi

# --- Logs whole, one run's ---------------------------------------------------

# A log is written to .NAME.tmp beside its path, locked, and renamed into place at
# the end (wait_lock, hold_lock: tests/support/shell_harness.sh).
# Two ffmpeg writing one log at once: the second is refused at its start, naming
# the first's process, and the log is the first's whole.
"$ffmpeg" -hide_banner -nostdin -nostats -re -f lavfi -i "$(src 64x48 1.2)" -f lavfi -i "$(src 64x48 1.2)" \
    -lavfi "float_adm=log_fmt=json:log_path=race.json" -f null - 2>race_err.txt &
first=$!
tests=$((tests + 1))
if ! wait_lock $first .race.json.tmp; then
    fail "two writers at once: the first ffmpeg holds no lock on .race.json.tmp"
elif expect_error "two writers at once: the second is refused" "process $first is writing it" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=json:log_path=race.json" -f null -; then
    wait $first || fail "two writers at once: the first failed: $(tail -n 3 race_err.txt)"
    tests=$((tests + 1))
    /usr/bin/python3 -c '
import json, sys
assert len(json.load(open(sys.argv[1]))["frames"]) == 30
' race.json || fail "two writers at once: the log is not the first run's 30 frames"
fi
wait $first 2>/dev/null
# Each layout: another run holding the path (its lock) refuses this one, which
# leaves the earlier log as it was.
for fmt in json csv xml sub; do
    ff -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=$fmt:log_path=held.$fmt" \
        -f null - 2>/dev/null
    cp held.$fmt held_before.$fmt
    tests=$((tests + 1))
    if hold_lock .held.$fmt.tmp; then
        expect_error "another run holds the $fmt log" "process $holder is writing it" \
            -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=$fmt:log_path=held.$fmt" -f null -
        tests=$((tests + 1))
        cmp -s held.$fmt held_before.$fmt || fail "another run holds the $fmt log: the log changed"
    else
        fail "another run holds the $fmt log: flock took no lock"
    fi
    kill $holder 2>/dev/null; wait $holder 2>/dev/null
done
# A log replaced by a rename: a hard-linked copy of the earlier one keeps it.
ln -f held.json held_copy.json
expect_ok "a hard-linked earlier log" -f lavfi -i "$(src 64x48 0.2)" -f lavfi -i "$(src 64x48 0.2)" \
    -lavfi "float_adm=log_fmt=json:log_path=held.json" -f null -
tests=$((tests + 1))
cmp -s held_copy.json held_before.json || fail "a hard-linked earlier log: the copy changed"
# stdout redirected onto the log (appended to, or overwritten in place) is refused,
# under the log's name and as -.
cp held.json held_now.json
for name in held -; do
    json=$name csv=$name
    [ $name = - ] || { json=held.json; csv=held.csv; }
    tests=$((tests + 1))
    ff -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=json:log_path=$json" \
        -f null - >>held.json 2>err.txt && fail "log_path=$json >> the log: exit 0"
    expect_stderr "log_path=$json >> the log: refused" "stdout is redirected onto a float_adm log already"
    tests=$((tests + 1))
    ff -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=csv:log_path=$csv" \
        -f null - 1<>held.csv 2>err.txt && fail "log_path=$csv 1<> the log: exit 0"
    expect_stderr "log_path=$csv 1<> the log: refused" "without truncating it (1<>)"
done
tests=$((tests + 1))
cmp -s held.json held_now.json && cmp -s held.csv held_before.csv ||
    fail "stdout redirected onto a log: the log changed"
# An output of the same run on the log's name (an image muxer): the output stays,
# the log is not written, and the run fails, saying so.
if expect_error "an image output on the log's name" "another program made it" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=csv:log_path=x.csv" \
        -c:v pgm -f image2 -update 1 x.csv; then
    tests=$((tests + 1))
    [ "$(head -c 2 x.csv)" = P5 ] && [ ! -e .x.csv.tmp ] || fail "an image output on the log's name: x.csv is not the picture"
fi
# -frames:v: ffmpeg frees the graph without an end; the log lands, whole, as the
# process exits.
if expect_ok "-frames:v 3, the log" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_fmt=json:log_path=limit.json" -frames:v 3 -f null -; then
    tests=$((tests + 1))
    /usr/bin/python3 -c '
import json, sys
log = json.load(open(sys.argv[1]))
assert "pooled_metrics" in log and "incomplete" not in log and len(log["frames"]) in (3, 4), log
' limit.json || fail "-frames:v 3: the log is not whole"
fi

# --- Options ------------------------------------------------------------------

for option in adm_enhn_gain_limit=0.5 adm_norm_view_dist=30 adm_csf_mode=10 adm_p_norm=0 \
              adm_f1s0=11 adm_skip_aim_scale=4 n_subsample=0 adm_ref_display_height=0 \
              adm_noise_weight=-1; do
    expect_error "out of range: $option" "${option%%=*}" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=$option" -f null -
done
expect_error "unknown option" "no_such_option" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=no_such_option=1" -f null -
# libvmaf's options under their full names only: every alias of the option table
# (include/float_adm.h; float_adm_score and Python take them) is refused, as are the
# options the filter no longer has (backend: float_adm_cuda; metadata_prefix: one
# log_path per instance).
aliases=$(sed -n 's/^ *OPT("adm_[a-z0-9_]*", "\([a-z0-9]*\)",.*/\1/p' "$top/include/float_adm.h")
tests=$((tests + 1))
[ "$(echo $aliases | wc -w)" -ge 20 ] || fail "the option table's aliases not found: $aliases"
for alias in $aliases; do
    expect_error "alias $alias refused" "$alias" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=$alias=1" -f null -
done
for gone in backend=cpu backend=cuda metadata_prefix=lavfi.adm_a; do
    expect_error "$gone refused" "${gone%%=*}" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=$gone" -f null -
done
# libvmaf's four formats, sub among them; XML (libvmaf's default) without log_fmt.
if expect_ok "log_fmt=sub" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_fmt=sub:log_path=log.sub" -f null -; then
    expect_count "log_fmt=sub: a line per frame" 10 log.sub '^{[0-9]*}{[0-9]*}frame: [0-9]*|adm2: '
fi
if expect_ok "log_fmt's default" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=log_path=default.log" -f null -; then
    tests=$((tests + 1))
    head -n 1 default.log | grep -q '^<VMAF version=' ||
        fail "log_fmt's default: not libvmaf's XML: $(head -n 1 default.log)"
    expect_count "log_fmt's default: a frame element per frame" 10 default.log '<frame frameNum='
fi
# Help: framesync's options as psnr's (ts_sync_mode's default is framesync's own),
# log_fmt's default xml, the filter's timeline.
tests=$((tests + 3))
"$ffmpeg" -hide_banner -h filter=float_adm > help.txt 2>&1
"$ffmpeg" -hide_banner -h filter=psnr > psnr_help.txt 2>&1
sed -n '/^framesync AVOptions:/,/^$/p' help.txt > framesync.txt
sed -n '/^framesync AVOptions:/,/^$/p' psnr_help.txt > psnr_framesync.txt
[ -s framesync.txt ] && grep -q '^ *ts_sync_mode .*(default default)' framesync.txt ||
    fail "-h filter=float_adm: ts_sync_mode is not framesync's: $(grep '^ *ts_sync_mode ' help.txt)"
[ ! -s psnr_framesync.txt ] || cmp -s framesync.txt psnr_framesync.txt ||
    fail "-h filter=float_adm: framesync's options differ from psnr's"
grep -q '^ *log_fmt .*(default xml)' help.txt && grep -q "support for timeline" help.txt ||
    fail "-h filter=float_adm: log_fmt's default is not xml, or no timeline: $(grep '^ *log_fmt ' help.txt)"
expect_error "unknown log_fmt" "yaml" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=yaml" -f null -
# The timeline: frames outside enable pass on unscored.
if expect_ok "enable" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "float_adm=enable='lt(n,4)',metadata=print:file=meta.txt" -f framecrc -; then
    expect_count "enable: the frames inside scored" 4 meta.txt "adm2="
    expect_count "enable: every frame passed" 10 out.txt "^0,"
fi

# An unwritable log fails before the first score: a 10-hour input must not run first.
expect_error "log_path in a missing directory" "cannot write" \
    -f lavfi -i "$(src 64x48 36000)" -f lavfi -i "$(src 64x48 36000)" \
    -lavfi "float_adm=log_path=no/such/dir/log.json" -f null -
mkdir -p adir
expect_error "log_path is a directory" "it is a directory" \
    -f lavfi -i "$(src 64x48 36000)" -f lavfi -i "$(src 64x48 36000)" \
    -lavfi "float_adm=log_path=adir" -f null -

# float_adm_cuda (where this ffmpeg has it) takes CUDA frames only; with no GPU here
# (CI has none), uploading fails, and says so.
if ff -filters 2>/dev/null | grep -q ' float_adm_cuda '; then
    expect_error "float_adm_cuda on software frames" "float_adm_cuda" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm_cuda" -f null -
    # It writes float_adm's maps: map_path is checked at init as float_adm's is.
    expect_error "float_adm_cuda's map_path named .png" "the maps are PFM files, not png" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm_cuda=map_path=pngmaps_%d.png" \
        -f null -
    visible=${CUDA_VISIBLE_DEVICES-none}
    CUDA_VISIBLE_DEVICES=-1
    export CUDA_VISIBLE_DEVICES
    expect_error "float_adm_cuda without a device" "cuda" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "[0]hwupload_cuda[d];[1]hwupload_cuda[r];[d][r]float_adm_cuda" -f null -
    if [ "$visible" = none ]; then unset CUDA_VISIBLE_DEVICES; else CUDA_VISIBLE_DEVICES=$visible; fi
fi

# --- Threads and -cpuflags -------------------------------------------------------

# With more than one filter thread, each frame is split in slices on the filter's
# threads: the same frames, in the same order, with the same bits as one thread.
for threads in 1 3 8; do
    expect_ok "filter threads $threads" -filter_complex_threads $threads \
        -f lavfi -i "testsrc2=s=96x64:d=1,scale=48:32,scale=96:64" -f lavfi -i "testsrc2=s=96x64:d=1" \
        -filter_complex "[0][1]float_adm=debug=1:n_subsample=3,metadata=print:file=threads$threads.txt" \
        -f null -
done
tests=$((tests + 2))
cmp -s threads1.txt threads3.txt || fail "filter threads 3: metadata differs from one thread's"
cmp -s threads1.txt threads8.txt || fail "filter threads 8: metadata differs from one thread's"
expect_count "filter threads: every third frame scored" 9 threads8.txt "adm2="

# A reference that ends the stream (shortest=1, eof_action=endall): framesync ends
# the output, every frame scored before passed on, the same at any thread count.
for opts in shortest=1 eof_action=endall; do
    for threads in 1 8; do
        expect_ok "reference ends the stream, $opts, threads $threads" \
            -filter_complex_threads $threads \
            -f lavfi -i "testsrc2=s=96x64:d=1" -f lavfi -i "testsrc2=s=96x64:d=0.6" \
            -filter_complex "[0][1]float_adm=$opts,metadata=print:file=ends$threads.txt" -f null -
    done
    tests=$((tests + 1))
    cmp -s ends1.txt ends8.txt || fail "reference ends the stream, $opts: threads 8 differ from 1"
    expect_count "reference ends the stream, $opts: its frames scored" 15 ends8.txt "adm2="
done

# Long runs of unscored frames (n_subsample=25): the same at any thread count.
for threads in 1 8; do
    expect_ok "long runs of unscored frames, threads $threads" \
        -filter_complex_threads $threads -filter_complex \
        "color=c=gray:s=640x360:d=4:r=25,format=yuv420p[a];color=c=white:s=640x360:d=4:r=25,format=yuv420p[b];[a][b]float_adm=n_subsample=25,metadata=print:file=sparse$threads.txt" \
        -f null -
done
tests=$((tests + 1))
cmp -s sparse1.txt sparse8.txt || fail "long runs of unscored frames: threads 8 differ from 1"
expect_count "long runs of unscored frames: every 25th frame scored" 4 sparse8.txt "adm2="

# -cpuflags caps the instructions the filter uses (-cpuflags 0: scalar code), the
# scores the same bits as with every level this processor has (docs/perf-simd.md).
# The pictures are made first: -cpuflags changes what swscale makes of them.
ff -f lavfi -i "testsrc2=s=96x64:d=1,scale=48:32,scale=96:64" cpu_d.y4m 2>/dev/null
ff -f lavfi -i "testsrc2=s=96x64:d=1" cpu_r.y4m 2>/dev/null
for flags in default 0; do
    if [ $flags = default ]; then cpuflags=; else cpuflags="-cpuflags $flags"; fi
    # shellcheck disable=SC2086
    expect_ok "-cpuflags $flags" -v verbose $cpuflags -i cpu_d.y4m -i cpu_r.y4m \
        -filter_complex "[0][1]float_adm=debug=1,metadata=print:file=cpuflags_$flags.txt" -f null - &&
        [ $flags = 0 ] && expect_stderr "-cpuflags 0: scalar" "simd scalar"
done
tests=$((tests + 1))
cmp -s cpuflags_default.txt cpuflags_0.txt || fail "-cpuflags 0: metadata differs from the default run's"

# float_adm_map: one RGB24 picture per main frame with the frame's scores, the
# same at any thread count.
for threads in 1 8; do
    expect_ok "float_adm_map, threads $threads" -filter_complex_threads $threads \
        -f lavfi -i "testsrc2=s=96x64:d=1,avgblur=2" -f lavfi -i "testsrc2=s=96x64:d=1" \
        -filter_complex "[0][1]float_adm_map=n_subsample=2,metadata=print:file=mapmeta$threads.txt" \
        -f framemd5 map$threads.md5
done
tests=$((tests + 2))
cmp -s mapmeta1.txt mapmeta8.txt || fail "float_adm_map, threads 8: metadata differs from one thread's"
cmp -s map1.md5 map8.md5 || fail "float_adm_map, threads 8: pictures differ from one thread's"
expect_count "float_adm_map: every other frame scored" 13 mapmeta8.txt "adm2="
expect_count "float_adm_map: a picture per main frame" 25 map8.md5 "^0,"
grep -q "^#dimensions 0: 96x64" map8.md5 || fail "float_adm_map: not at the main input's size"
# Before the first scored frame nothing is measured: grey (128), not black.
expect_ok "float_adm_map before the first scored frame" -f lavfi -i "testsrc2=s=96x64:d=0.2" \
    -f lavfi -i "testsrc2=s=96x64:d=0.2" \
    -lavfi "[0][1]float_adm_map=enable='gte(n,2)'" -frames:v 1 -f rawvideo grey.rgb
tests=$((tests + 1))
[ "$(od -An -v -tu1 grey.rgb | tr -s ' ' '\n' | sed '/^$/d' | sort -u)" = 128 ] ||
    fail "float_adm_map before the first scored frame: not all grey"

# Pictures of the maps as PNG files, one per frame (where this ffmpeg has PNG).
if ff -encoders 2>/dev/null | grep -q ' png '; then
    mkdir -p pngmaps
    expect_ok "float_adm_map to PNG files" -f lavfi -i "testsrc2=s=96x64:d=0.2,avgblur=2" \
        -f lavfi -i "testsrc2=s=96x64:d=0.2" -lavfi "[0][1]float_adm_map" pngmaps/%03d.png
    expect_ok "float_adm_map's PNG files read back" -i pngmaps/%03d.png -f framemd5 png.md5
    expect_count "float_adm_map to PNG files: one per frame" 5 png.md5 "^0,"
fi

# --- Several instances in one process -----------------------------------------

# split + two float_adm with different options: each log equals a run alone.
expect_ok "alone: adm_enhn_gain_limit=1.2" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
    -lavfi "[1]scale=64x48,format=gray[r];[0][r]float_adm=adm_enhn_gain_limit=1.2:log_fmt=json:log_path=alone_a.json" -f null -
expect_ok "alone: debug" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
    -lavfi "[1]scale=64x48,format=gray[r];[0][r]float_adm=debug=1:log_fmt=json:log_path=alone_b.json" -f null -
if expect_ok "two instances" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
        -filter_complex "[1]scale=64x48,format=gray,split[r1][r2];[0]split[d1][d2];
            [d1][r1]float_adm=adm_enhn_gain_limit=1.2:log_fmt=json:log_path=both_a.json[a];
            [d2][r2]float_adm=debug=1:log_fmt=json:log_path=both_b.json[b]" \
        -map "[a]" -f null - -map "[b]" -f null -; then
    tests=$((tests + 2))
    # The header's fps is timing: every other byte must be the same.
    for log in alone_a both_a alone_b both_b; do
        sed 's/^  "fps": .*,$/  "fps": -,/' $log.json >$log.nofps
    done
    cmp -s alone_a.nofps both_a.nofps ||
        fail "two instances: adm_enhn_gain_limit=1.2 log differs from its run alone"
    cmp -s alone_b.nofps both_b.nofps || fail "two instances: debug log differs from its run alone"
fi

# Chained instances: the second's keys overwrite the first's (one set of keys, the
# second's values, each key once); each instance's own log_path keeps its scores.
if expect_ok "chained instances" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
        -filter_complex "[1]scale=64x48,format=gray,split[r1][r2];
            [0][r1]float_adm=adm_enhn_gain_limit=1.2:log_fmt=json:log_path=chain_a.json[m];
            [m][r2]float_adm=debug=1:log_fmt=json:log_path=chain_b.json,metadata=print:file=chain.txt" \
        -f null -; then
    tests=$((tests + 3))
    for log in chain_a chain_b; do
        sed 's/^  "fps": .*,$/  "fps": -,/' $log.json >$log.nofps
    done
    cmp -s alone_a.nofps chain_a.nofps || fail "chained instances: the first's log differs from its run alone"
    cmp -s alone_b.nofps chain_b.nofps || fail "chained instances: the second's log differs from its run alone"
    expect_ok "alone: debug, metadata" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
        -lavfi "[1]scale=64x48,format=gray[r];[0][r]float_adm=debug=1,metadata=print:file=alone_b.txt" -f null -
    grep '^lavfi\.float_adm\.' chain.txt | sort > chain.keys
    grep '^lavfi\.float_adm\.' alone_b.txt | sort | cmp -s - chain.keys ||
        fail "chained instances: the keys are not the second instance's, each once"
fi

echo "robustness (ffmpeg): $((tests - failures))/$tests passed"
[ $failures -eq 0 ]
