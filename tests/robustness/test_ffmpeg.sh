#!/bin/sh
# Bad input through ffmpeg's float_adm filter: each case either fails with a
# clear message and a non-zero exit, or recovers as docs/robustness.md says.
# Inputs come from lavfi's testsrc2 (tiny frames), so no files are needed.
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

# --- Inputs that do not match -------------------------------------------------

expect_error "sizes differ" "must have the same size and bit depth" \
    -f lavfi -i "$(src 64x48)" -f lavfi -i "$(src 80x48)" -lavfi float_adm -f null -
expect_error "depths differ" "main (first input) is 64x48 8-bit" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src),format=yuv420p10le" -lavfi float_adm -f null -
expect_error "below 17x17" "too small" \
    -f lavfi -i "$(src 16x48)" -f lavfi -i "$(src 16x48)" -lavfi float_adm -f null -

# --- Resolution change mid-stream ---------------------------------------------

# Inside one graph (no reinit): the frame no longer matches the context.
grow='scale=w=if(lt(n\,3)\,64\,80):h=48:eval=frame'
expect_error "main grows mid-stream" "changed resolution from 64x48 to 80x48" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "[0]$grow[m];[m][1]float_adm" -f null -
expect_error "reference grows mid-stream" "reference (second) input changed resolution" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "[1]$grow[r];[0][r]float_adm" -f null -
# Decoded input changing size: ffmpeg rebuilds the graph, which then sees
# inputs of two sizes.
expect_error "decoded input grows" "must have the same size and bit depth" \
    -f lavfi -i "$(src),$grow" -f lavfi -i "$(src)" -lavfi float_adm -f null -

# --- One input ends early -----------------------------------------------------

# Default (eof_action=repeat): the shorter input's last frame is reused, and
# the filter warns that scores now compare against a stale picture.
for longer in 0 1; do
    if [ $longer = 0 ]; then main=0.4 ref=0.2; else main=0.2 ref=0.4; fi
    if expect_ok "input $longer longer" -f lavfi -i "$(src 64x48 $main)" \
            -f lavfi -i "$(src 64x48 $ref)" -lavfi "float_adm,metadata=print:file=meta.txt" \
            -f null -; then
        expect_count "input $longer longer: scored to the end of the longer" 10 meta.txt "adm2="
        expect_stderr "input $longer longer: warned" "shortest=1"
    fi
done
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

# Flipped bytes inside an MPEG-2 stream: the decoder conceals, flags the
# frame corrupt, and the filter refuses to score it.
ff -f lavfi -i "$(src 176x144 1)" -c:v mpeg2video -q:v 4 -g 5 clean.mkv 2>/dev/null
python3 - clean.mkv corrupt.mkv <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(data) // 3, len(data) // 3 + 4000, 7):
    data[i] ^= 0x55
open(sys.argv[2], "wb").write(data)
EOF
expect_error "corrupt main stream" "corrupt" -i corrupt.mkv -i clean.mkv -lavfi float_adm -f null -
expect_error "corrupt reference stream" "corrupt" -i clean.mkv -i corrupt.mkv -lavfi float_adm -f null -

# --- Options ------------------------------------------------------------------

for option in egl=0.5 adm_norm_view_dist=30 csf=10 adm_p_norm=0 f1s0=11 sasc=4 n_subsample=0 \
              rdf=0 nw=-1; do
    expect_error "out of range: $option" "${option%%=*}" \
        -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=$option" -f null -
done
expect_error "unknown option" "no_such_option" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=no_such_option=1" -f null -
expect_error "unknown log_fmt" "yaml" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=log_fmt=yaml" -f null -

# An unwritable log fails at init: a 10-hour input must not run first.
expect_error "log_path in a missing directory" "Could not open log file" \
    -f lavfi -i "$(src 64x48 36000)" -f lavfi -i "$(src 64x48 36000)" \
    -lavfi "float_adm=log_path=no/such/dir/log.json" -f null -
mkdir -p adir
expect_error "log_path is a directory" "Could not open log file" \
    -f lavfi -i "$(src 64x48 36000)" -f lavfi -i "$(src 64x48 36000)" \
    -lavfi "float_adm=log_path=adir" -f null -

# No GPU here (CI has none): asking for CUDA fails, and says so.
expect_error "backend=cuda without a device" "cuda" \
    -f lavfi -i "$(src)" -f lavfi -i "$(src)" -lavfi "float_adm=backend=cuda" -f null -

# --- Several instances in one process -----------------------------------------

# split + two float_adm with different options: each log equals a run alone.
expect_ok "alone: egl=1.2" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
    -lavfi "[1]scale=64x48,format=gray[r];[0][r]float_adm=egl=1.2:log_path=alone_a.json" -f null -
expect_ok "alone: debug" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
    -lavfi "[1]scale=64x48,format=gray[r];[0][r]float_adm=debug=1:log_path=alone_b.json" -f null -
if expect_ok "two instances" -f lavfi -i "$(src 64x48 0.4),format=gray" -i clean.mkv \
        -filter_complex "[1]scale=64x48,format=gray,split[r1][r2];[0]split[d1][d2];
            [d1][r1]float_adm=egl=1.2:log_path=both_a.json[a];
            [d2][r2]float_adm=debug=1:log_path=both_b.json[b]" \
        -map "[a]" -f null - -map "[b]" -f null -; then
    tests=$((tests + 2))
    cmp -s alone_a.json both_a.json || fail "two instances: egl=1.2 log differs from its run alone"
    cmp -s alone_b.json both_b.json || fail "two instances: debug log differs from its run alone"
fi

# Chained instances: each writes its own keys under its metadata_prefix.
if expect_ok "chained instances" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "[1]split[r1][r2];[0][r1]float_adm=egl=1.2:metadata_prefix=lavfi.adm_a[m];
                [m][r2]float_adm=metadata_prefix=lavfi.adm_b,metadata=print:file=meta.txt" \
        -f null -; then
    expect_count "chained instances: first's keys" 10 meta.txt "^lavfi.adm_a.adm2="
    expect_count "chained instances: second's keys" 10 meta.txt "^lavfi.adm_b.adm2="
fi
# The same prefix twice would overwrite: said once.
if expect_ok "chained instances, one prefix" -f lavfi -i "$(src)" -f lavfi -i "$(src)" \
        -lavfi "[1]split[r1][r2];[0][r1]float_adm=egl=1.2[m];[m][r2]float_adm" -f null -; then
    expect_stderr "chained instances, one prefix: warned" "metadata_prefix"
fi

echo "robustness (ffmpeg): $((tests - failures))/$tests passed"
[ $failures -eq 0 ]
