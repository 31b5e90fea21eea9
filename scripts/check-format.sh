#!/bin/sh
# Checks the C, C++ and CUDA lines changed since a base commit against .clang-format:
# clang-format --dry-run -Werror on each changed file, limited to its changed lines
# (--lines), so that code nobody touched is not held to it.  libavfilter/ keeps
# FFmpeg's own style and is left out.
#
# Usage: scripts/check-format.sh [BASE]
#   BASE: a commit; else $FORMAT_BASE; else the merge base with the upstream branch
#   (origin/HEAD, origin/main, origin/master); else HEAD~1.  Where none exists (a
#   shallow or one-commit clone) it says so and checks nothing.  Uncommitted changes
#   to tracked files count as changed.
#   FORMAT_WHOLE_FILES=1 checks every line of each changed file.
#   CLANG_FORMAT: the program [clang-format].
# Fix what it reports with: clang-format -i --lines=FIRST:LAST FILE (or the whole file).
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
cd "$(git rev-parse --show-toplevel)"
clang_format=${CLANG_FORMAT:-clang-format}

resolve() { git rev-parse -q --verify "$1^{commit}" 2>/dev/null; }

base=
if [ $# -gt 0 ]; then
    base=$(resolve "$1") || { echo "check-format: base '$1' is not a commit here: nothing checked" >&2; exit 0; }
elif [ -n "${FORMAT_BASE:-}" ]; then
    base=$(resolve "$FORMAT_BASE") || { echo "check-format: FORMAT_BASE '$FORMAT_BASE' is not a commit here: nothing checked" >&2; exit 0; }
else
    for upstream in origin/HEAD origin/main origin/master; do
        if resolve "$upstream" >/dev/null && mb=$(git merge-base HEAD "$upstream" 2>/dev/null) &&
           [ "$mb" != "$(git rev-parse HEAD)" ]; then
            base=$mb
            break
        fi
    done
    [ -n "$base" ] || base=$(resolve HEAD~1) || true
    [ -n "$base" ] || { echo "check-format: no base commit (one-commit or shallow clone): nothing checked" >&2; exit 0; }
fi
command -v "$clang_format" >/dev/null 2>&1 || {
    echo "check-format: $clang_format not found (apt-get install clang-format)" >&2
    exit 1
}

echo "check-format: $("$clang_format" --version | head -1); changes since $(git rev-parse --short "$base")"
failed=0
checked=0
# "status<TAB>path" or "Rnnn<TAB>old<TAB>new": a renamed file is checked where it changed.
# tests/abi/float_adm-1.2.h is release 1.2's header byte for byte, as that release wrote it.
changes=$(git diff --name-status -M --diff-filter=ACMR "$base" -- \
              '*.c' '*.h' '*.cpp' '*.hpp' '*.cu' '*.cuh' ':!libavfilter/' ':!patches/' \
              ':!tests/abi/float_adm-1.2.h')
tab=$(printf '\t')
while IFS=$tab read -r status path new_path; do
    [ -n "$status" ] || continue
    file=${new_path:-$path}
    [ -f "$file" ] || continue
    if [ "${FORMAT_WHOLE_FILES:-0}" = 1 ]; then
        ranges=
    else
        # New-side hunks of a zero-context diff: "@@ -a,b +c,d @@", d lines from c (d = 0: a deletion).
        ranges=$(git diff -U0 -M "$base" -- $path $new_path |
                 sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 \3/p' |
                 awk '{ n = ($2 == "") ? 1 : $2; if (n > 0) printf "--lines=%d:%d ", $1, $1 + n - 1 }')
        [ -n "$ranges" ] || continue
    fi
    checked=$((checked + 1))
    # shellcheck disable=SC2086 # one word per range
    if ! "$clang_format" --dry-run -Werror $ranges "$file"; then
        failed=$((failed + 1))
        echo "check-format: $file: run $clang_format -i $ranges$file" >&2
    fi
done <<CHANGES
$changes
CHANGES
echo "check-format: $checked file(s) checked, $failed not formatted"
[ "$failed" -eq 0 ]
