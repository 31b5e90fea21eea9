#!/bin/sh
# Obtain a pinned upstream tarball (FFmpeg or nv-codec-headers) into a cache
# directory, checked against its sha256.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-fetch.sh PACKAGE VERSION CACHE_DIR
#   PACKAGE: ffmpeg (VERSION 7.1, 8.1 or 9.0) or nv-codec-headers (VERSION 12.1)
# Prints the path of the verified tarball on stdout.
#
# Sources, in order: a verified copy already in CACHE_DIR; `apt-get source
# --download-only` of the pinned Debian version (as root, a deb-src entry is
# added when apt knows no source for it); the upstream release URL.  Debian's
# .orig.tar.xz is the upstream tarball itself, so one sha256 pins both.

set -eu

package=$1
version=$2
cache=$3

case "$package/$version" in
    ffmpeg/7.1) upstream=7.1.5; debian=7:7.1.5-0+deb13u1
        sha256=de668509caf9e35e3cd162473441fdb29538c6d96ed080292b3cf9e6fc5d558f ;;
    ffmpeg/8.1) upstream=8.1.2; debian=7:8.1.2-2
        sha256=464beb5e7bf0c311e68b45ae2f04e9cc2af88851abb4082231742a74d97b524c ;;
    ffmpeg/9.0) upstream=9.0.2; debian=7:9.0.2-4
        sha256=8c3850283eb25fa026482078a04051e0be17347b09ef81a0849bec15a96e002e ;;
    nv-codec-headers/12.1) upstream=12.1.14.0; debian=12.1.14.0-1
        sha256=0ca1a0c85b149646fa6ce4d600584507fdccf5a23d58e668d8701e89cee0c3fb ;;
    *) echo "ffmpeg-fetch: no pinned tarball for $package $version" >&2; exit 1 ;;
esac

orig=${package}_$upstream.orig.tar.xz
case "$package" in
    ffmpeg) url=https://ffmpeg.org/releases/ffmpeg-$upstream.tar.xz ;;
    # no upstream .tar.xz for the headers: the Debian archive's own copy
    *) url=http://deb.debian.org/debian/pool/main/n/nv-codec-headers/$orig ;;
esac

log() { echo "ffmpeg-fetch: $*" >&2; }

verified() {
    [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$sha256" ]
}

done_with() {
    if [ "$1" != "$cache/$orig" ]; then mv -f "$1" "$cache/$orig"; fi
    echo "$cache/$orig"
    exit 0
}

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

if verified "$cache/$orig"; then
    log "using cached $cache/$orig"
    done_with "$cache/$orig"
fi
rm -f "$cache/$orig"

apt_knows_source() {
    apt-cache showsrc "$package" 2>/dev/null | grep -qx "Version: $debian"
}

# Source indexes only: adding them changes nothing that binary installs see.
add_deb_src() {
    log "adding a deb-src entry for bookworm, trixie and sid (main)"
    cat > /etc/apt/sources.list.d/float-adm-deb-src.sources <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    apt-get update -qq >&2 || log "apt-get update failed"
}

if command -v apt-get >/dev/null 2>&1; then
    if ! apt_knows_source && [ "$(id -u)" = 0 ]; then
        if [ ! -f /etc/apt/sources.list.d/float-adm-deb-src.sources ] &&
           ! grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            add_deb_src
        else
            apt-get update -qq >&2 || log "apt-get update failed"
        fi
    fi
    if apt_knows_source; then
        apt_dir=$cache/apt-$package-$upstream
        rm -rf "$apt_dir" && mkdir -p "$apt_dir"
        log "apt-get source --download-only $package=$debian"
        # A missing .dsc (9.0.2-4's is gone from the archive) fails apt but
        # still leaves the .orig.tar.xz, which the sha256 vouches for.
        (cd "$apt_dir" && apt-get source -qq --download-only "$package=$debian" >&2) ||
            log "apt-get reported a failure; checking whether the orig tarball arrived"
        if verified "$apt_dir/$orig"; then
            mv -f "$apt_dir/$orig" "$cache/$orig"
            rm -rf "$apt_dir"
            done_with "$cache/$orig"
        fi
        rm -rf "$apt_dir"
        log "apt-get gave no verified $orig"
    else
        log "apt knows no source package $package=$debian"
    fi
fi

log "downloading $url"
if command -v curl >/dev/null 2>&1; then
    curl -fsSL -o "$cache/$orig.part" "$url" || true
else
    wget -q -O "$cache/$orig.part" "$url" || true
fi
if verified "$cache/$orig.part"; then
    done_with "$cache/$orig.part"
fi
rm -f "$cache/$orig.part"
log "could not obtain $orig with sha256 $sha256;"
log "pass an FFmpeg tree or tarball with ./configure --ffmpeg-source=PATH"
exit 1
