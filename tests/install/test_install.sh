#!/bin/sh
# make install, make uninstall and make deb as a user of the library meets them:
#   - install into a temporary PREFIX: the files, SONAME and links; the shared
#     libraries export their C API alone (nm -D); the README's C example
#     (examples/score_frame.c) built with pkg-config and run, shared and static
#     (the CUDA library likewise, where built); the man page against --help;
#     uninstall leaves the prefix empty
#   - the same with DESTDIR and PREFIX=/usr/local
#   - make deb: its contents and dependencies; installed into a throwaway root with
#     dpkg --root (never the system's), used there, and purged
#
# Usage: sh tests/install/test_install.sh MAKE BUILD_DIR CC
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

if [ $# -ne 3 ]; then
    echo "usage: $0 MAKE BUILD_DIR CC" >&2
    exit 2
fi
make_cmd=$1
build=$2
cc=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/support/shell_harness.sh"
case $build in /*) build_abs=$build ;; *) build_abs=$root/$build ;; esac
harness_begin test_install

# run_make TARGET VAR=VALUE...: make in the source tree, its output in make.log.
run_make() {
    (cd "$root" && $make_cmd --no-print-directory BUILD="$build" "$@") >make.log 2>&1
}

# check NAME COMMAND...: COMMAND succeeds.
check() {
    name=$1; shift
    tests=$((tests + 1))
    "$@" || fail "$name"
}

# exports_only LIB PATTERN: LIB's dynamic symbols all match ^PATTERN, and there are some.
# The version script's nodes (FLOATADM_1.2, ...) are absolute symbols that name versions,
# not exports; each symbol is listed without its @@node suffix.
exports_only() {
    nm -D --defined-only "$1" |
        awk '!($2 == "A" && $3 ~ /^FLOATADM_(CUDA_)?[0-9]+\.[0-9]+$/) { sub(/@.*/, "", $NF); print $NF }' |
        sort > exports.txt
    tests=$((tests + 1))
    if [ ! -s exports.txt ]; then
        fail "${1##*/} exports nothing"
    elif grep -v "^$2" exports.txt > stray.txt; then
        fail "${1##*/} exports more than $2*: $(tr '\n' ' ' < stray.txt)"
    fi
}

# soname_is LIB NAME
soname_is() {
    tests=$((tests + 1))
    soname=$(readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
    [ "$soname" = "$2" ] || fail "${1##*/}: SONAME '$soname', wanted $2"
}

# link_is LINK TARGET: LINK is a symbolic link to TARGET.
link_is() {
    tests=$((tests + 1))
    if [ ! -L "$1" ] || [ "$(readlink "$1")" != "$2" ]; then
        fail "$1 is not a link to $2"
    fi
}

# build_and_run NAME SOURCE PKG [--static] [ENV...]: compile SOURCE with pkg-config's
# flags for PKG (and -static with --static), run it with ENV, output in NAME.out.
build_and_run() {
    name=$1 source=$2 pkg=$3; shift 3
    static=
    if [ "${1:-}" = --static ]; then static=--static; shift; fi
    tests=$((tests + 1))
    # shellcheck disable=SC2046 # pkg-config's flags are words
    if ! $cc -std=c11 -Wall -Wextra -Werror ${static:+-static} -o "$name" "$source" \
            $(pkg-config --cflags $static --libs $pkg) >"$name.log" 2>&1; then
        fail "$name: does not link with$static pkg-config $pkg: $(cat "$name.log")"
        return 1
    fi
    env "$@" "./$name" >"$name.out" 2>"$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: exit $rc: $(cat "$name.err")"
        return 1
    fi
}

# with_pkg_config LIBDIR SYSROOT COMMAND...: COMMAND with pkg-config looking in LIBDIR
# alone, its paths under SYSROOT (a DESTDIR).
with_pkg_config() {
    saved_libdir=$PKG_CONFIG_LIBDIR
    PKG_CONFIG_LIBDIR=$1 PKG_CONFIG_SYSROOT_DIR=$2
    export PKG_CONFIG_SYSROOT_DIR
    shift 2
    "$@"
    rc=$?
    PKG_CONFIG_LIBDIR=$saved_libdir
    unset PKG_CONFIG_SYSROOT_DIR
    return $rc
}

# The example's one line: three scores, adm2 in (0, 1].
example_output_ok() {
    grep -Eq '^adm2 [0-9.]+  aim [0-9.]+  adm3 [0-9.]+$' "$1" &&
        awk '{ exit !($2 > 0 && $2 <= 1) }' "$1"
}

# The README's C API block is examples/score_frame.c from its first #include on.
tests=$((tests + 1))
awk '/^## The C API/ { section = 1 } section && /^```c$/ { block = 1; next }
     block && /^```$/ { exit } block { print }' "$root/README.md" > readme_example.c
sed -n '/^#include/,$p' "$root/examples/score_frame.c" > file_example.c
cmp -s readme_example.c file_example.c ||
    fail "README.md's C API example is not examples/score_frame.c:" \
        "$(diff readme_example.c file_example.c | head -5)"

cat > cuda_probe.c <<'EOF'
#include <stdio.h>
#include <float_adm_cuda.h>
int main(void)
{
    FloatAdmOptions opts;
    char why[256] = "";
    int count = -1;
    float_adm_options_default(&opts); /* libfloatadm, through floatadm_cuda.pc's Requires */
    if (float_adm_cuda_device_count(&count, why, sizeof(why)) < 0 || count < 0)
        return 1;
    printf("%d CUDA devices%s%s\n", count, why[0] ? ": " : "", why);
    return 0;
}
EOF

# ---- make install PREFIX=... ----
prefix=$tmp/prefix
if ! run_make install PREFIX="$prefix"; then
    cat make.log >&2
    fail "make install PREFIX=$prefix"
    exit 1
fi
lib=$prefix/lib
cli=$prefix/bin/float_adm_score
version=$("$cli" --version | sed -n '1s/^float_adm_score //p')
major=${version%%.*}
for f in "$lib/libfloatadm.so.$version" "$lib/libfloatadm.a" "$lib/pkgconfig/floatadm.pc" \
         "$cli" "$prefix/share/man/man1/float_adm_score.1"; do
    check "installed: $f" test -f "$f"
done
# The headers in include/floatadm/; through 1.x, include/float_adm.h (and the CUDA one)
# lead there, so that <float_adm.h> keeps working.
for h in "$root"/include/*.h; do
    [ "${h##*/}" != float_adm_cuda.h ] || [ -f "$build_abs/lib/libfloatadm_cuda.a" ] || continue
    check "installed: include/floatadm/${h##*/}" cmp -s "$h" "$prefix/include/floatadm/${h##*/}"
    check "installed: include/${h##*/} leads to floatadm/" \
        grep -qx "#include \"floatadm/${h##*/}\"" "$prefix/include/${h##*/}"
done
link_is "$lib/libfloatadm.so.$major" "libfloatadm.so.$version"
link_is "$lib/libfloatadm.so" "libfloatadm.so.$version"
soname_is "$lib/libfloatadm.so.$version" "libfloatadm.so.$major"
exports_only "$lib/libfloatadm.so.$version" float_adm_
# Every function float_adm.h declares is there; a name that is only a macro (a
# function's _sized form under its plain name) is the _sized one's.
header=$prefix/include/floatadm/float_adm.h
sed -n 's/^#define \(float_adm_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u > macros.txt
grep -o 'float_adm_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u |
    while read -r name; do
        grep -qx "$name" macros.txt && ! grep -q "^[a-z].* $name(" "$header" || echo "$name"
    done > declared.txt
tests=$((tests + 1))
missing=$(comm -23 declared.txt exports.txt | tr '\n' ' ')
[ -z "$missing" ] || fail "libfloatadm.so lacks $missing"
tests=$((tests + 1))
readelf -d "$lib/libfloatadm.so.$version" | grep -q 'NEEDED.*\[libstdc++\.so' ||
    fail "libfloatadm.so does not load the C++ runtime itself"

export PKG_CONFIG_LIBDIR="$lib/pkgconfig"
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
tests=$((tests + 1))
case " $(pkg-config --libs floatadm) " in
    *" -lstdc++ "*) fail "pkg-config --libs floatadm names the C++ runtime (the library's own)" ;;
esac
tests=$((tests + 1))
case " $(pkg-config --static --libs floatadm) " in
    *" -lstdc++ "*) ;;
    *) fail "pkg-config --static --libs floatadm lacks the C++ runtime" ;;
esac

# The README's example, shared: it loads the installed library.
if build_and_run score_shared "$root/examples/score_frame.c" floatadm LD_LIBRARY_PATH="$lib"; then
    check "score_shared: output $(cat score_shared.out)" example_output_ok score_shared.out
    tests=$((tests + 1))
    LD_LIBRARY_PATH=$lib ldd ./score_shared | grep -q "libfloatadm\.so\.$major => $lib/" ||
        fail "score_shared does not load $lib/libfloatadm.so.$major"
fi
# The header's own path, <floatadm/float_adm.h>, with the same flags.
sed 's|#include <float_adm.h>|#include <floatadm/float_adm.h>|' "$root/examples/score_frame.c" \
    > score_new_path.c
if build_and_run score_new_path score_new_path.c floatadm LD_LIBRARY_PATH="$lib"; then
    check "<floatadm/float_adm.h>: the same scores" cmp -s score_shared.out score_new_path.out
fi
# ... and static: no libfloatadm at run time, the same scores.
if build_and_run score_static "$root/examples/score_frame.c" floatadm --static; then
    tests=$((tests + 1))
    ! readelf -d score_static 2>/dev/null | grep -q 'NEEDED.*libfloatadm' ||
        fail "score_static loads libfloatadm"
    check "static and shared scores agree" cmp -s score_shared.out score_static.out
fi
# The build tree's floatadm.pc, as a program (or FFmpeg's configure) uses it before any
# install: its lib/ holds the static archive alone, and a plain link (no --static) works.
if with_pkg_config "$build_abs/lib/pkgconfig" "" \
        build_and_run score_tree "$root/examples/score_frame.c" floatadm; then
    check "the build tree's floatadm.pc: the same scores" cmp -s score_shared.out score_tree.out
fi
tests=$((tests + 1))
grep -qx 'Libs: -L${libdir} -lfloatadm' "$lib/pkgconfig/floatadm.pc" ||
    fail "installed floatadm.pc: Libs is not the shared library alone: $(grep '^Libs:' "$lib/pkgconfig/floatadm.pc")"

# The CUDA library, where built: the same checks, with a device count for the example.
if [ -f "$build_abs/lib/libfloatadm_cuda.a" ]; then
    check "installed: libfloatadm_cuda.a" test -f "$lib/libfloatadm_cuda.a"
    check "installed: floatadm_cuda.pc" test -f "$lib/pkgconfig/floatadm_cuda.pc"
    link_is "$lib/libfloatadm_cuda.so.$major" "libfloatadm_cuda.so.$version"
    link_is "$lib/libfloatadm_cuda.so" "libfloatadm_cuda.so.$version"
    soname_is "$lib/libfloatadm_cuda.so.$version" "libfloatadm_cuda.so.$major"
    exports_only "$lib/libfloatadm_cuda.so.$version" float_adm_cuda_
    build_and_run cuda_shared cuda_probe.c floatadm_cuda LD_LIBRARY_PATH="$lib"
    build_and_run cuda_static cuda_probe.c floatadm_cuda --static
fi

# The man page follows --help: every flag, every option, the version.
man=$prefix/share/man/man1/float_adm_score.1
"$cli" --help | grep -o -- '--[a-z][a-z-]*' | sort -u > flags.txt
while read -r flag; do
    check "man page: $flag" grep -Fq -- "$(printf '%s' "$flag" | sed 's/-/\\-/g')" "$man"
done < flags.txt
"$cli" --list-options | cut -f1 > options.txt
while read -r option; do
    check "man page: option $option" grep -Eq "^\.BR? $option( |$)" "$man"
done < options.txt
check "man page: version $version" grep -q "^\.TH .*\"float_adm $version\"" "$man"

# The programs: the tool runs, and the embedded ffmpeg has the filter where built.
# They hold libfloatadm: no search path is needed to start them.
check "installed float_adm_score --help" env -u LD_LIBRARY_PATH "$cli" --help >/dev/null
# The embedded ffmpeg sits beside the system's, never on PATH as ffmpeg: its own
# directory, entry points of their own names in bin.
for prog in ffmpeg ffprobe; do
    tests=$((tests + 1))
    [ ! -e "$prefix/bin/$prog" ] || fail "make install put $prog in $prefix/bin, over the system's"
done
if [ -f "$build_abs/bin/ffmpeg" ]; then
    check "installed: lib/floatadm/bin/ffmpeg" test -x "$prefix/lib/floatadm/bin/ffmpeg"
    check "installed: lib/floatadm/bin/ffprobe" test -x "$prefix/lib/floatadm/bin/ffprobe"
    tests=$((tests + 1))
    env -u LD_LIBRARY_PATH "$prefix/bin/floatadm-ffmpeg" -hide_banner -h filter=float_adm 2>&1 |
        grep -q '^Filter float_adm' || fail "installed floatadm-ffmpeg lacks the float_adm filter"
    check "installed floatadm-ffprobe -version" \
        env -u LD_LIBRARY_PATH "$prefix/bin/floatadm-ffprobe" -hide_banner -version >/dev/null
fi
# The Python package finds the embedded ffmpeg where it was installed.
pyconfig=$(find "$prefix" -path '*/floatadm/_config.py' | head -1)
if [ -n "$pyconfig" ] && [ -f "$build_abs/bin/ffmpeg" ]; then
    tests=$((tests + 1))
    grep -qx "BINDIR = \"$prefix/lib/floatadm/bin\"" "$pyconfig" ||
        fail "the Python package's config does not name $prefix/lib/floatadm/bin: $(cat "$pyconfig")"
fi
# The last line says what a program built against the library needs (this prefix is
# none of the dynamic linker's directories).
tests=$((tests + 1))
tail -n 1 make.log | grep -qF "LD_LIBRARY_PATH=$lib" ||
    fail "make install does not end with what programs need to find $lib: $(tail -n 1 make.log)"

(cd "$prefix" && find . | sort) > prefix_files.txt
if ! run_make uninstall PREFIX="$prefix"; then
    fail "make uninstall PREFIX=$prefix: $(cat make.log)"
fi
tests=$((tests + 1))
left=$(find "$prefix" -mindepth 1 | head -5)
[ -z "$left" ] || fail "make uninstall left $left"

# ---- make install DESTDIR=... PREFIX=/usr/local ----
dest=$tmp/dest
if run_make install DESTDIR="$dest" PREFIX=/usr/local; then
    (cd "$dest/usr/local" && find . | sort) > dest_files.txt
    check "DESTDIR install: the same files" cmp -s prefix_files.txt dest_files.txt
    check "DESTDIR install: floatadm.pc prefix" grep -qx 'prefix=/usr/local' \
        "$dest/usr/local/lib/pkgconfig/floatadm.pc"
    check "DESTDIR install: no staging path in floatadm.pc" \
        sh -c "! grep -q '$dest' '$dest/usr/local/lib/pkgconfig/floatadm.pc'"
    with_pkg_config "$dest/usr/local/lib/pkgconfig" "$dest" \
        build_and_run score_dest "$root/examples/score_frame.c" floatadm \
        LD_LIBRARY_PATH="$dest/usr/local/lib" &&
        check "DESTDIR install: the same scores" cmp -s score_shared.out score_dest.out
    run_make uninstall DESTDIR="$dest" PREFIX=/usr/local ||
        fail "make uninstall DESTDIR=$dest: $(cat make.log)"
    tests=$((tests + 1))
    left=$(find "$dest/usr/local" -mindepth 1 | head -5)
    [ -z "$left" ] || fail "make uninstall DESTDIR left $left"
else
    fail "make install DESTDIR=$dest PREFIX=/usr/local: $(cat make.log)"
fi

# Debian's ffmpeg and what it loads that this system lacks, from the package archive
# (cached in BUILD/cache/debian-ffmpeg); offline, a stand-in package named ffmpeg that
# owns /usr/bin/ffmpeg and ffprobe as Debian's does.
debian_debs=$build_abs/cache/debian-ffmpeg
fetch_debian_ffmpeg() {
    ls "$debian_debs"/ffmpeg_*.deb >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 || return 1
    mkdir -p "$debian_debs.tmp" &&
        wanted=$(apt-get install -s --no-install-recommends ffmpeg 2>/dev/null |
                 awk '$1 == "Inst" { print $2 }') &&
        (cd "$debian_debs.tmp" && apt-get download ffmpeg $wanted) >apt.log 2>&1 &&
        rm -rf "$debian_debs" && mv "$debian_debs.tmp" "$debian_debs"
}
stand_in_ffmpeg() {
    mkdir -p standin/DEBIAN standin/usr/bin
    printf '%s\n' 'Package: ffmpeg' 'Version: 7:5.1.0-0+standin' 'Architecture: all' \
        'Maintainer: none <none@localhost>' 'Description: stand-in for Debian'"'"'s ffmpeg' \
        > standin/DEBIAN/control
    for prog in ffmpeg ffprobe; do
        printf '#!/bin/sh\necho "%s version 5.1-Debian stand-in"\n' $prog > standin/usr/bin/$prog
        chmod 755 standin/usr/bin/$prog
    done
    dpkg-deb --root-owner-group --build standin ffmpeg_standin.deb >/dev/null
}
# Debian's ffmpeg installed with dpkg, the libraries it loads unpacked beside it.
install_debian_ffmpeg() {
    : > libfiles.txt
    if fetch_debian_ffmpeg; then
        for pkg in "$debian_debs"/*.deb; do
            case ${pkg##*/} in ffmpeg_*) continue ;; esac
            dpkg-deb -x "$pkg" "$droot"
            dpkg-deb --contents "$pkg" | awk '$1 !~ /^d/ { print substr($6, 2) }' >> libfiles.txt
        done
        debian_ffmpeg_deb=$(ls "$debian_debs"/ffmpeg_*.deb)
    else
        echo "test_install: Debian's ffmpeg cannot be downloaded: a stand-in package named ffmpeg takes its place"
        stand_in_ffmpeg
        debian_ffmpeg_deb=ffmpeg_standin.deb
    fi
    dpkg_root -i "$debian_ffmpeg_deb" >dpkg.log 2>&1 || fail "dpkg -i Debian's ffmpeg: $(cat dpkg.log)"
    debian_ffmpeg_ok "alone"
}
# debian_ffmpeg_ok WHEN: Debian's ffmpeg is installed in the root, its programs run
# there and are not float_adm's.
debian_ffmpeg_ok() {
    tests=$((tests + 1))
    status=$(dpkg-query --admindir="$droot/var/lib/dpkg" -W -f='${Status}' ffmpeg 2>/dev/null)
    [ "$status" = "install ok installed" ] || fail "Debian's ffmpeg, $1: '$status'"
    libpath=$(find "$droot/usr/lib" "$droot/lib" -name '*.so*' -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
    for prog in ffmpeg ffprobe; do
        tests=$((tests + 1))
        if ! LD_LIBRARY_PATH=$libpath "$droot/usr/bin/$prog" -version > version.txt 2>&1; then
            fail "Debian's $prog, $1: does not run: $(head -3 version.txt)"
        elif ! grep -q "^$prog version .*[Dd]ebian\|^$prog version .*deb[0-9]" version.txt; then
            fail "$droot/usr/bin/$prog, $1, is not Debian's: $(head -1 version.txt)"
        fi
    done
}

# ---- make deb ----
if ! command -v dpkg-deb >/dev/null 2>&1; then
    echo "test_install: no dpkg-deb, make deb not tested"
elif ! run_make deb; then
    fail "make deb: $(cat make.log)"
else
    deb=$(tail -n 1 make.log)
    case $deb in /*) ;; *) deb=$root/$deb ;; esac
    multiarch=$($cc -print-multiarch 2>/dev/null)
    deblib=./usr/lib${multiarch:+/$multiarch}
    dpkg-deb --contents "$deb" > contents.txt
    for f in "$deblib/libfloatadm.so.$version" \
             "$deblib/libfloatadm.so.$major -> libfloatadm.so.$version" \
             "$deblib/libfloatadm.so -> libfloatadm.so.$version" "$deblib/libfloatadm.a" \
             "$deblib/pkgconfig/floatadm.pc" ./usr/include/floatadm/float_adm.h \
             ./usr/include/float_adm.h ./usr/bin/float_adm_score \
             ./usr/share/man/man1/float_adm_score.1.gz ./usr/share/doc/floatadm/copyright; do
        tests=$((tests + 1))
        grep -q " $f\$" contents.txt || fail "the .deb lacks $f"
    done
    tests=$((tests + 1))
    depends=$(dpkg-deb -f "$deb" Depends)
    case $depends in
        *libc6*libstdc++6*|*libstdc++6*libc6*) ;;
        *) fail "the .deb's Depends lacks libc6 or libstdc++6: '$depends'" ;;
    esac
    # A float_adm_score built with --scale needs libswscale's package too.
    rm -rf debx && dpkg-deb -x "$deb" debx
    if readelf -d debx/usr/bin/float_adm_score | grep -q 'NEEDED.*\[libswscale\.so'; then
        tests=$((tests + 1))
        case $depends in
            *libswscale*) ;;
            *) fail "float_adm_score links libswscale, but the .deb's Depends lacks it: '$depends'" ;;
        esac
    fi
    if command -v lintian >/dev/null 2>&1; then
        # The default Maintainer is a placeholder (DEB_MAINTAINER sets one).
        lintian --tag-display-limit 0 --suppress-tags bogus-mail-host,bogus-mail-host-in-debian-changelog \
            "$deb" > lintian.txt 2>&1
        tests=$((tests + 1))
        ! grep -q '^E:' lintian.txt || fail "lintian: $(grep '^E:' lintian.txt)"
    fi

    tests=$((tests + 1))
    ! dpkg-deb -f "$deb" Conflicts Replaces Provides | grep -q . ||
        fail "the .deb conflicts with, replaces or provides a package: $(dpkg-deb -f "$deb" Conflicts Replaces Provides)"
    for f in ./usr/bin/ffmpeg ./usr/bin/ffprobe; do
        tests=$((tests + 1))
        ! grep -q " $f\( \|\$\)" contents.txt || fail "the .deb holds $f, the distribution's ffmpeg's"
    done
    if [ -f "$build_abs/bin/ffmpeg" ]; then
        for f in ./usr/lib/floatadm/bin/ffmpeg ./usr/lib/floatadm/bin/ffprobe \
                 "./usr/bin/floatadm-ffmpeg -> ../lib/floatadm/bin/ffmpeg" \
                 "./usr/bin/floatadm-ffprobe -> ../lib/floatadm/bin/ffprobe"; do
            tests=$((tests + 1))
            grep -q " $f\$" contents.txt || fail "the .deb lacks $f"
        done
    fi
    tests=$((tests + 1))
    grep -q ' ./usr/lib/python3/dist-packages/floatadm/__init__.py$' contents.txt ||
        fail "the .deb lacks the Python package"

    # Into a throwaway root of its own: dpkg keeps its database there too.
    droot=$tmp/dpkg-root
    mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates"
    touch "$droot/var/lib/dpkg/status" "$droot/var/lib/dpkg/available"
    # Maintainer scripts run as on a system, under DPKG_ROOT, not chrooted into a tree that has no shell.
    dpkg_root() {
        dpkg --root="$droot" --log=/dev/null --force-not-root --force-depends \
            --force-script-chrootless "$@"
    }
    # Debian's own ffmpeg there first: the package goes beside it.
    install_debian_ffmpeg
    if dpkg_root -i "$deb" >dpkg.log 2>&1; then
        droot_lib=$droot/usr/lib${multiarch:+/$multiarch}
        link_is "$droot_lib/libfloatadm.so.$major" "libfloatadm.so.$version"
        with_pkg_config "$droot_lib/pkgconfig" "$droot" \
            build_and_run score_deb "$root/examples/score_frame.c" floatadm \
            LD_LIBRARY_PATH="$droot_lib" &&
            check "dpkg-installed library: the same scores" cmp -s score_shared.out score_deb.out
        check "dpkg-installed float_adm_score" "$droot/usr/bin/float_adm_score" --version >/dev/null
        debian_ffmpeg_ok "with floatadm installed"
        if [ -f "$build_abs/bin/ffmpeg" ]; then
            tests=$((tests + 1))
            "$droot/usr/bin/floatadm-ffmpeg" -hide_banner -h filter=float_adm 2>&1 |
                grep -q '^Filter float_adm' || fail "dpkg-installed floatadm-ffmpeg lacks the filter"
        fi
        tests=$((tests + 1))
        PYTHONPATH=$droot/usr/lib/python3/dist-packages /usr/bin/python3 -c \
            'import floatadm._config as c, sys; sys.exit(c.BINDIR != "/usr/lib/floatadm/bin")' ||
            fail "the .deb's Python package is missing or does not name /usr/lib/floatadm/bin"
        dpkg_root --purge floatadm >dpkg.log 2>&1 || fail "dpkg --purge: $(cat dpkg.log)"
        debian_ffmpeg_ok "after floatadm was purged"
        dpkg_root --purge ffmpeg >dpkg.log 2>&1 || fail "dpkg --purge ffmpeg: $(cat dpkg.log)"
        tests=$((tests + 1))
        left=$(find "$droot" ! -type d ! -path "$droot/var/lib/dpkg/*" | grep -v -F -f libfiles.txt | head -5)
        [ -z "$left" ] || fail "dpkg --purge left $left"
    else
        fail "dpkg --root=$droot -i: $(cat dpkg.log)"
    fi
fi

echo "test_install: $tests checks, $failures failures"
[ "$failures" -eq 0 ]
