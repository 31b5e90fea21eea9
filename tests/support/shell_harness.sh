# Shared by the shell tests: a private work directory, absolute paths, the
# failure count.  Sourced with  . "$(dirname "$0")/../support/shell_harness.sh"
# SPDX-License-Identifier: LGPL-2.1-or-later

# absolute PATH: the path as seen from anywhere (the tests cd into their work dir).
absolute() {
    case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac
}

# harness_begin NAME: cd into a fresh directory removed on exit; zero the counts.
harness_begin() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 2
    trap 'rm -rf "$tmp"' EXIT INT TERM
    cd "$tmp" || exit 2
    failures=0
    tests=0
}

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# wait_lock PID FILE: PID holds a flock on FILE, as a log's writer holds its
# temporary (within 5 s; 1 where it does not).
wait_lock() {
    n=0
    while [ $n -lt 100 ]; do
        inode=$(stat -c %i "$2" 2>/dev/null)
        [ -n "$inode" ] && grep -q "FLOCK .* $1 [0-9a-f]*:[0-9a-f]*:$inode " /proc/locks && return 0
        sleep 0.05
        n=$((n + 1))
    done
    return 1
}

# hold_lock FILE: a process that holds a flock on FILE (made where missing) as another
# writer would, for 10 s or until killed; its pid in $holder.
hold_lock() {
    /usr/bin/python3 -c 'import fcntl, os, sys, time
fcntl.flock(os.open(sys.argv[1], os.O_RDWR | os.O_CREAT), fcntl.LOCK_EX)
time.sleep(10)' "$1" &
    holder=$!
    wait_lock $holder "$1"
}
