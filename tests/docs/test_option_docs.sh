#!/bin/sh
# The option-docs check cannot go blind: on a copy of the files scripts/gen-options.py
# writes, a changed row of the table makes `gen-options.py --check` fail naming every
# file it makes stale (the man page included) and the command that fixes them; a block
# edited by hand fails naming its file; regenerating makes the copy pass again.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
gen="/usr/bin/python3 $top/scripts/gen-options.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The documents gen-options.py writes (its blocks but the two structs'), as it names
# them: README.md, docs/ffmpeg.md, the series' texinfo, the man page.
DOCS=$(/usr/bin/python3 - "$top/scripts/gen-options.py" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("gen_options", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
print(" ".join(path for path, *_ in gen.blocks([], [])
               if path not in (gen.HEADER, "python/floatadm/_lib.py")))
EOF
)
[ -n "$DOCS" ] || { echo "FAIL: no documents from scripts/gen-options.py"; exit 1; }

fresh_copy() {
    rm -rf "$work/tree"
    for f in include/float_adm.h python/floatadm/_lib.py $DOCS; do
        mkdir -p "$work/tree/$(dirname "$f")"
        cp "$top/$f" "$work/tree/$f"
    done
}

# check WHAT NAMES...: --check on the copy fails and names each of NAMES.
check_fails_naming() {
    what=$1
    shift
    if $gen --check --root "$work/tree" >"$work/out" 2>&1; then
        fail "$what: the check passes"
        return
    fi
    for name in "$@"; do
        grep -q "FAIL: $name: .*run \`make option-docs\`" "$work/out" ||
            fail "$what: the check does not name $name and make option-docs: $(cat "$work/out")"
    done
}

fresh_copy
$gen --check --root "$work/tree" >"$work/out" 2>&1 || fail "the committed files: $(cat "$work/out")"

# A default changed in the table: every document is stale, the structs are not.
sed -i 's/noise_weight, DOUBLE, 0.03125,/noise_weight, DOUBLE, 0.0625,/' "$work/tree/include/float_adm.h"
grep -q 'noise_weight, DOUBLE, 0.0625,' "$work/tree/include/float_adm.h" ||
    fail "the test could not change adm_noise_weight's default"
check_fails_naming "a default changed" $DOCS
grep -q "FAIL: include/float_adm.h\|FAIL: python/" "$work/out" && fail "a default changed: a struct is called stale"
$gen --root "$work/tree" >/dev/null
$gen --check --root "$work/tree" >/dev/null 2>&1 || fail "a default changed: stale after regenerating"
grep -q 'nw. | double | 0.0625 |' "$work/tree/README.md" || fail "README.md: the new default is not written"
grep -q 'default 0.0625' "$work/tree/docs/man/float_adm_score.1" ||
    fail "the man page: the new default is not written"

# A range changed: the man page alone (nothing else touched) is caught.
fresh_copy
sed -i 's/ref_display_height, INT, 1080, 1, 4320,/ref_display_height, INT, 1080, 1, 8640,/' \
    "$work/tree/include/float_adm.h"
check_fails_naming "a range changed" $DOCS

# A block edited by hand: that file alone.
fresh_copy
sed -i 's/\[0\.75, 24\], default 3\./[0.75, 24], default 4./' "$work/tree/docs/man/float_adm_score.1"
check_fails_naming "the man page edited by hand" docs/man/float_adm_score.1
[ "$(grep -c '^FAIL' "$work/out")" = 1 ] || fail "the man page edited by hand: other files named too"

# A field's type changed: the struct and its ctypes copy are stale, and the tables that
# show the type; regenerated, both structs give the field its new type in its place.
fresh_copy
sed -i 's/bypass_cm, INT, 0, 0, 1,/bypass_cm, DOUBLE, 0, 0, 1,/' "$work/tree/include/float_adm.h"
check_fails_naming "a type changed" include/float_adm.h python/floatadm/_lib.py README.md docs/ffmpeg.md
$gen --root "$work/tree" >/dev/null
grep -A1 "    double csf_diag_scale;" "$work/tree/include/float_adm.h" | grep -q "    double bypass_cm;" ||
    fail "a type changed: bypass_cm is not a double in its place"
grep -A1 '("csf_diag_scale", ctypes.c_double),' "$work/tree/python/floatadm/_lib.py" |
    grep -q '("bypass_cm", ctypes.c_double),' || fail "a type changed: the ctypes copy is not"

# A new row: its field goes at the end of both structs, the others stay in place.
fresh_copy
sed -i 's/^\(    OPT("adm_skip_scale0", "ssz", skip_scale0, BOOL, 0, 0, 1, "skip scale 0")\)$/\1 \\\
    OPT("adm_new", "new", new_option, DOUBLE, 1, 0, 2, "a new option")/' "$work/tree/include/float_adm.h"
grep -q '"adm_new"' "$work/tree/include/float_adm.h" || fail "the test could not add a row"
$gen --root "$work/tree" >/dev/null
grep -A1 "    int skip_scale0;" "$work/tree/include/float_adm.h" | grep -q "    double new_option;" ||
    fail "a new row: its field is not appended to FloatAdmOptions"
grep -A1 '("skip_scale0", ctypes.c_int),' "$work/tree/python/floatadm/_lib.py" |
    grep -q '("new_option", ctypes.c_double),' || fail "a new row: not appended to the ctypes copy"

# A member whose row is gone: an error that names it (the ABI), not a silent drop.
fresh_copy
# (the row before it keeps its backslash: the blank line after it ends the macro)
sed -i '/"adm_skip_scale0", "ssz"/d' "$work/tree/include/float_adm.h"
if $gen --check --root "$work/tree" >"$work/out" 2>&1 ||
    ! grep -q "member skip_scale0 has no row" "$work/out"; then
    fail "a removed row: not refused as an ABI break: $(cat "$work/out")"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok: stale option blocks are caught in every file, the man page included"
