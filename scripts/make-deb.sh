#!/bin/sh
# Make a Debian binary package of a `make install DESTDIR=STAGE PREFIX=/usr` tree.
# POSIX sh; needs dpkg-deb.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/make-deb.sh STAGE VERSION OUT_DIR
#
# In STAGE: strips the ELF files (the build keeps its debug information), compresses
# the man pages, adds the copyright file and DEBIAN/ (control, md5sums, shlibs, the
# ldconfig trigger); writes OUT_DIR/floatadm_VERSION_ARCH.deb and prints its path.
# The runtime dependencies come from dpkg-shlibdeps (dpkg-dev), else from ldd and
# dpkg -S, without versions.  The Maintainer field: DEB_MAINTAINER, else DEBFULLNAME
# and DEBEMAIL (as dch takes them), else a placeholder.

set -eu
umask 022

if [ $# -ne 3 ]; then
    echo "usage: $0 STAGE VERSION OUT_DIR" >&2
    exit 2
fi
stage=$(cd "$1" && pwd)
version=$2
out=$3
package=floatadm
maintainer=${DEB_MAINTAINER:-}
if [ -z "$maintainer" ] && [ -n "${DEBEMAIL:-}" ]; then
    maintainer="${DEBFULLNAME:-float_adm authors} <$DEBEMAIL>"
fi
maintainer=${maintainer:-"float_adm authors <float-adm@localhost>"}
arch=$(dpkg --print-architecture)
work=$(mktemp -d "${TMPDIR:-/tmp}/make-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

cd "$stage"
# The embedded ffmpeg and ffprobe (mk/install.mk): beside the distribution's, never over it.
ffmpeg_dir=usr/lib/floatadm/bin
programs=$(find usr/bin $ffmpeg_dir -type f 2>/dev/null | sort)
shlibs=$(find usr/lib -type f -name 'lib*.so.*' | sort)
archives=$(find usr/lib -type f -name '*.a' | sort)

# Debian ships binaries stripped; the debug information stays in the build tree.
if command -v strip >/dev/null 2>&1; then
    for f in $programs; do strip --remove-section=.comment --remove-section=.note "$f"; done
    for f in $shlibs; do
        strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
    done
    for f in $archives; do strip --strip-debug --enable-deterministic-archives "$f"; done
fi
find usr/share/man -type f -name '*.[0-9]' -exec gzip -9n {} +
mkdir -p usr/share/doc/$package
# A native package's changelog: this build.
date=$(date -R ${SOURCE_DATE_EPOCH:+-d @$SOURCE_DATE_EPOCH})
printf '%s\n' "$package ($version) unstable; urgency=medium" '' \
    '  * Built from the float_adm source tree by make deb.' '' " -- $maintainer  $date" |
    gzip -9n > usr/share/doc/$package/changelog.gz

ffmpeg_licence=
if [ -x $ffmpeg_dir/ffmpeg ]; then
    if $ffmpeg_dir/ffmpeg -hide_banner -L 2>/dev/null | grep -q 'Lesser General Public'; then
        ffmpeg_licence=LGPL-2.1+
    else
        ffmpeg_licence=GPL-2+
    fi
fi
{
    printf '%s\n' 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
        'Upstream-Name: float_adm' '' 'Files: *' 'Copyright: 2026 the float_adm authors' \
        'License: LGPL-2.1+'
    if [ -n "$ffmpeg_licence" ]; then
        printf '%s\n' '' "Files: $ffmpeg_dir/ffmpeg $ffmpeg_dir/ffprobe" \
            'Copyright: the FFmpeg developers; the float_adm filter: the float_adm authors' \
            "License: $ffmpeg_licence"
    fi
    printf '%s\n' '' 'License: LGPL-2.1+' \
        ' On Debian systems the GNU Lesser General Public License version 2.1 is in' \
        ' /usr/share/common-licenses/LGPL-2.1.'
    if [ "$ffmpeg_licence" = GPL-2+ ]; then
        printf '%s\n' '' 'License: GPL-2+' \
            ' On Debian systems the GNU General Public License version 2 is in' \
            ' /usr/share/common-licenses/GPL-2.'
    fi
} > usr/share/doc/$package/copyright

# What the programs and libraries load.
elves=
for f in $programs $shlibs; do elves="$elves $stage/$f"; done
depends=
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
    # It reads the source package's control file from the directory it runs in.
    mkdir "$work/debian"
    printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' $package $package \
        > "$work/debian/control"
    libdirs=
    for d in $(printf '%s\n' $shlibs | sed 's|/[^/]*$||' | sort -u); do
        libdirs="$libdirs -l$stage/$d"
    done
    if ! depends=$(cd "$work" && dpkg-shlibdeps -O $libdirs $elves 2>"$work/shlibdeps.err"); then
        cat "$work/shlibdeps.err" >&2
        exit 1
    fi
    depends=$(printf '%s\n' "$depends" | sed -n 's/^shlibs:Depends=//p')
else
    depends=$(for f in $elves; do ldd "$f"; done |
        awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
        while read -r lib; do
            dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true
        done | sed 's/:.*//' | sort -u | paste -sd, - | sed 's/,/, /g')
fi
[ -n "$depends" ] || depends="libc6, libgcc-s1, libstdc++6"
# The Python package (python/module.mk), where make install put one.
[ ! -d usr/lib/python3 ] || depends="$depends, python3, python3-numpy"

mkdir -p DEBIAN
{
    printf '%s\n' "Package: $package" "Version: $version" "Architecture: $arch" \
        "Maintainer: $maintainer" "Installed-Size: $(du -sk --exclude=DEBIAN . | cut -f1)" \
        "Depends: $depends"
    printf '%s\n' 'Section: video' 'Priority: optional' \
        "Description: Netflix VMAF's float ADM features, bit-exact with libvmaf" \
        " adm2, aim, adm3, adm_scale0..3 and the debug sums of libvmaf's float_adm" \
        " feature, for every frame of a distorted video against its reference:" \
        " libfloatadm (shared and static, the C API, pkg-config file floatadm;" \
        " libfloatadm_cuda where built with CUDA) and the float_adm_score tool."
    [ -z "$ffmpeg_licence" ] || printf '%s\n' \
        " Also an ffmpeg and ffprobe with the float_adm filter, as floatadm-ffmpeg and" \
        " floatadm-ffprobe (in /$ffmpeg_dir), beside the distribution's ffmpeg."
    [ ! -d usr/lib/python3 ] || echo " Also the floatadm Python package."
} > DEBIAN/control
for f in $shlibs; do
    name=${f##*/}
    soname=$(objdump -p "$f" | awk '$1 == "SONAME" { print $2 }')
    echo "${name%%.so.*} ${soname##*.so.} $package (>= $version)"
done > DEBIAN/shlibs
echo "activate-noawait ldconfig" > DEBIAN/triggers
# Python writes __pycache__ beside the package's modules when root imports them: removed
# before the package, as Debian's py3clean does, so that a purge leaves nothing behind.
if [ -d usr/lib/python3/dist-packages/floatadm ]; then
    printf '%s\n' '#!/bin/sh' 'set -e' \
        'find "${DPKG_ROOT:-}/usr/lib/python3/dist-packages/floatadm" -depth -type d \' \
        '    -name __pycache__ -exec rm -rf {} + 2>/dev/null || true' > DEBIAN/prerm
    chmod 755 DEBIAN/prerm
fi
find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs md5sum \
    > DEBIAN/md5sums

cd - >/dev/null
mkdir -p "$out"
deb=$out/${package}_${version}_$arch.deb
dpkg-deb --root-owner-group --build "$stage" "$deb" >/dev/null
echo "$deb"
