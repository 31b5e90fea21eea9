#!/bin/sh
# Bad input through float_adm_score beyond tests/cli: what the fuzzer taught.
#
# Usage: sh tests/robustness/test_cli.sh path/to/float_adm_score
# MEMORY_LIMIT_KIB (default 1048576) bounds the tool's address space;
# "unlimited" for ASan builds, whose shadow memory alone is terabytes.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 FLOAT_ADM_SCORE" >&2
    exit 2
fi
. "$(dirname "$0")/../support/shell_harness.sh"
bin=$(absolute "$1")
harness_begin test_robustness_cli

memory_limit=${MEMORY_LIMIT_KIB:-1048576}

# expect_error NAME SUBSTRING ARGS...: exit 1 within 10 s in memory_limit of
# address space, saying SUBSTRING.
expect_error() {
    name=$1; substring=$2; shift 2
    tests=$((tests + 1))
    (ulimit -v "$memory_limit"; timeout 10 "$bin" "$@") >out.txt 2>err.txt
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL: $name: exit $rc, wanted 1: $(cat err.txt)" >&2
        failures=$((failures + 1))
    elif ! grep -F -q -- "$substring" err.txt; then
        echo "FAIL: $name: stderr lacks '$substring': $(cat err.txt)" >&2
        failures=$((failures + 1))
    fi
}

# A header announcing a huge frame over a few bytes: the file is too short,
# and that must be said before the tens of GiB such a frame's context takes.
printf 'YUV4MPEG2 W60000 H60000 Cmono\nFRAME\nabc' > huge.y4m
expect_error "huge y4m header, tiny file" "the file ends inside frame 0" \
    --reference huge.y4m --distorted huge.y4m
printf 'abc' > tiny.yuv
expect_error "huge raw geometry, tiny file" "the file ends inside frame 0" \
    --reference tiny.yuv --distorted tiny.yuv --width 65536 --height 65536 --pix-fmt gray16le

# y4m headers with bad fields.
for header in 'W17 H0' 'W-17 H17' 'W17 H17 C420p11' 'W1e3 H17' 'W17 H9999999999' 'H17'; do
    printf 'YUV4MPEG2 %s\nFRAME\n' "$header" > bad.y4m
    expect_error "y4m header '$header'" "bad.y4m" --reference bad.y4m --distorted bad.y4m
done
printf 'YUV4MPEG2 W17 H17 Cmono' > noeol.y4m
expect_error "y4m header without end of line" "no end of line" \
    --reference noeol.y4m --distorted noeol.y4m
printf 'YUV4MPEG2 W17 H17 Cmono\nFRAMEX\n' > badframe.y4m
expect_error "y4m FRAME marker wrong" "FRAME header" \
    --reference badframe.y4m --distorted badframe.y4m

# --- Logs whole, one run's ----------------------------------------------------

# Each log goes to .NAME.tmp beside its path, locked for the run, and every log of
# the run is renamed into place at its end, or none.
head -c $((64 * 64 * 4)) /dev/urandom >ref.yuv
head -c $((64 * 64 * 4)) /dev/urandom >dis.yuv
args="--width 64 --height 64 --pix-fmt gray --quiet"
pair="--reference ref.yuv --distorted dis.yuv $args"

# expect_ok NAME ARGS...: exit 0 within 10 s.
expect_ok() {
    name=$1; shift
    tests=$((tests + 1))
    timeout 10 "$bin" "$@" >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat err.txt)"
    return $rc
}

# unchanged NAME FILE...: each FILE is as its copy FILE.before, and has no temporary.
unchanged() {
    name=$1; shift
    for file in "$@"; do
        tests=$((tests + 1))
        cmp -s "$file" "$file.before" || fail "$name: $file changed"
        [ ! -e ".$file.tmp" ] || fail "$name: .$file.tmp is left"
    done
}

for fmt in json csv xml sub; do
    expect_ok "an earlier $fmt log" $pair --$fmt old.$fmt && cp old.$fmt old.$fmt.before
done

# Two runs writing one log at once: the second is refused at its start, naming the
# first's process; the log is the first run's, whole.  The first reads its reference
# from a FIFO the test feeds a frame at a time.
mkfifo ref.fifo
"$bin" --reference ref.fifo --distorted dis.yuv $args --json race.json 2>race_err.txt &
first=$!
exec 3<>ref.fifo
head -c 4096 ref.yuv >&3
tests=$((tests + 1))
if wait_lock $first .race.json.tmp; then
    expect_error "two writers at once: the second is refused" "process $first is writing it" \
        $pair --json race.json
    tail -c +4097 ref.yuv >&3
    exec 3>&-
    wait $first || fail "two writers at once: the first failed: $(cat race_err.txt)"
    tests=$((tests + 1))
    [ "$(grep -c '"frameNum"' race.json)" = 4 ] || fail "two writers at once: not the first run's 4 frames"
else
    exec 3>&-
    fail "two writers at once: the first holds no lock on .race.json.tmp: $(cat race_err.txt)"
fi
wait $first 2>/dev/null
# Each layout: another writer holding the path refuses this run, which leaves the
# earlier log as it was.
for fmt in json csv xml sub; do
    tests=$((tests + 1))
    if hold_lock .old.$fmt.tmp; then
        expect_error "another run holds the $fmt log" "process $holder is writing it" $pair --$fmt old.$fmt
        rm -f .old.$fmt.tmp
        unchanged "another run holds the $fmt log" old.$fmt
    else
        fail "another run holds the $fmt log: no lock taken"
    fi
    kill $holder 2>/dev/null
    wait $holder 2>/dev/null
done

# stdout redirected onto a log, appended to (>>) or overwritten in place (1<>), under
# the log's name or as -: refused, the log unchanged.
for path in old.json -; do
    tests=$((tests + 1))
    "$bin" $pair --json $path >>old.json 2>err.txt && fail "--json $path >> old.json: exit 0"
    grep -q "stdout is redirected onto a float_adm log already" err.txt ||
        fail "--json $path >> old.json: $(cat err.txt)"
done
for path in old.csv -; do
    tests=$((tests + 1))
    "$bin" $pair --csv $path 1<>old.csv 2>err.txt && fail "--csv $path 1<> old.csv: exit 0"
    grep -q "without truncating it (1<>)" err.txt || fail "--csv $path 1<> old.csv: $(cat err.txt)"
done
unchanged "stdout redirected onto a log" old.json old.csv

# A run that fails writes no log: a log it cannot begin (a missing directory), or a
# disk that fills (here the file size limit), leaves every earlier log as it was.
expect_error "one log of two cannot be written" "missing/new.csv" $pair --json old.json \
    --csv missing/new.csv
unchanged "one log of two cannot be written" old.json
tests=$((tests + 1))
(ulimit -f 2; trap '' XFSZ; exec "$bin" $pair --json old.json --xml old.xml) >out.txt 2>err.txt &&
    fail "a full disk: exit 0"
grep -q "File too large" err.txt || fail "a full disk: $(cat err.txt)"
unchanged "a full disk" old.json old.xml
# Interrupted (SIGINT while it reads): the earlier log stays; the temporary the dead
# run left is taken over by the next run, which lands its log.  (A command put in the
# background by sh ignores SIGINT: python restores the default before it runs.)
/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$bin" --reference ref.fifo --distorted dis.yuv $args \
    --json old.json 2>/dev/null &
first=$!
exec 3<>ref.fifo
head -c 4096 ref.yuv >&3
tests=$((tests + 1))
if wait_lock $first .old.json.tmp; then
    kill -INT $first
    wait $first
    tests=$((tests + 1))
    cmp -s old.json old.json.before || fail "interrupted: the earlier log changed"
    expect_ok "after an interrupted run" $pair --json old.json
    tests=$((tests + 1))
    [ "$(grep -c '"frameNum"' old.json)" = 4 ] && [ ! -e .old.json.tmp ] ||
        fail "after an interrupted run: not its log, or the temporary is left"
else
    fail "interrupted: no lock on .old.json.tmp"
fi
exec 3>&-
wait $first 2>/dev/null
cp old.json old.json.before

# A log replaced by a rename: a hard link to the earlier one keeps it.
ln old.json linked.json
expect_ok "a log with another name" $pair --json old.json
tests=$((tests + 1))
cmp -s linked.json old.json.before || fail "a log with another name: the other name changed"

echo "robustness (float_adm_score): $((tests - failures))/$tests passed"
[ $failures -eq 0 ]
