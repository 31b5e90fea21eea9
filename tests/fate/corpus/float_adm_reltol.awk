# FATE: the float_adm scores on stdin against the ref file `ref`, for a processor
# whose RCPSS estimate has no recorded scores (float_adm.mak, FLOAT_ADM_RELTOL).
# Every number must lie within the relative distance `tol` of the ref's (0 stays
# 0), every other character must be the ref's, and the line count too.  Prints
# the ref when all agree, so that FATE's diff passes, and the input unchanged
# otherwise, so that the diff fails and shows where.  POSIX awk (mawk, gawk).
# SPDX-License-Identifier: LGPL-2.1-or-later

function numeric(s) {
    return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/
}

function close_enough(got, want,    d, m) {
    d = got - want
    m = want + 0
    return (d < 0 ? -d : d) <= tol * (m < 0 ? -m : m)
}

# Tokens lie between the separators of the metadata, JSON, CSV and XML layouts;
# the separators themselves must be the same.
function same(got, want,    a, b, n, i, g, w) {
    if (got == want)
        return 1
    g = got
    w = want
    gsub(/[^ \t,:="<>{}]+/, "x", g)
    gsub(/[^ \t,:="<>{}]+/, "x", w)
    if (g != w)
        return 0
    n = split(got, a, /[ \t,:="<>{}]+/)
    if (n != split(want, b, /[ \t,:="<>{}]+/))
        return 0
    for (i = 1; i <= n; i++)
        if (a[i] "" != b[i] "" && !(numeric(a[i]) && numeric(b[i]) && close_enough(a[i], b[i])))
            return 0
    return 1
}

BEGIN {
    if (ref == "" || tol == "") {
        print "float_adm_reltol.awk: needs -v ref=FILE -v tol=RELATIVE" > "/dev/stderr"
        usage_error = 1
        exit
    }
    n_ref = 0
    while ((getline line < ref) > 0)
        ref_lines[++n_ref] = line
    close(ref)
    agree = 1
}

{
    lines[NR] = $0
    if (NR > n_ref || !same($0, ref_lines[NR]))
        agree = 0
}

END {
    if (usage_error)
        exit 2
    if (NR != n_ref)
        agree = 0
    if (agree)
        for (i = 1; i <= n_ref; i++)
            print ref_lines[i]
    else
        for (i = 1; i <= NR; i++)
            print lines[i]
}
