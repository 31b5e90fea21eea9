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
