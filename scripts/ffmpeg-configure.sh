#!/bin/sh
# Configure the lean FFmpeg with the float_adm filter.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-configure.sh SRC_DIR BUILD_DIR PKG_CONFIG_DIRS [EXTRA...]
#   PKG_CONFIG_DIRS: colon-separated, holding floatadm.pc and, when the CUDA
#   hwcontext is wanted, ffnvcodec.pc.  Run from anywhere; builds out of tree.
#
# Licence: everything enabled here is LGPL; --enable-cuda only loads the
# driver at run time through nv-codec-headers (MIT), so the binary stays
# redistributable.  Never --enable-nonfree, --enable-cuda-nvcc/-llvm or GPL parts.

set -eu

src=$(cd "$1" && pwd)
build=$2
pc_dirs=$3
shift 3

asm=
if ! command -v nasm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ffmpeg-configure: installing nasm for FFmpeg's x86 assembly" >&2
    apt-get install -y -qq nasm >&2 || (apt-get update -qq && apt-get install -y -qq nasm) >&2 || true
fi
if ! command -v nasm >/dev/null 2>&1; then
    echo "ffmpeg-configure: nasm not found: building FFmpeg WITHOUT x86 assembly (slower decoding)" >&2
    asm=--disable-x86asm
fi

list() { echo "$*" | tr ' ' ','; }

cuda=
if PKG_CONFIG_PATH=$pc_dirs pkg-config --exists ffnvcodec; then
    # NVDEC: decoded frames stay on the GPU for float_adm's CUDA path.
    cuda="--enable-ffnvcodec --enable-cuda --enable-nvdec --enable-filter=hwupload_cuda
          --enable-hwaccel=$(list h264_nvdec hevc_nvdec vp9_nvdec av1_nvdec mpeg2_nvdec)"
else
    echo "ffmpeg-configure: nv-codec-headers not found: building without the CUDA hwcontext" >&2
fi

mkdir -p "$build"
cd "$build"
PKG_CONFIG_PATH=$pc_dirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} "$src/configure" \
    --pkg-config-flags=--static \
    --disable-autodetect --disable-everything --disable-doc \
    --enable-static --disable-shared \
    --enable-libfloatadm \
    --enable-decoder="$(list h264 hevc vp9 av1 mpeg2video prores ffv1 rawvideo wrapped_avframe aac pcm_s16le)" \
    --enable-encoder="$(list mpeg2video ffv1 rawvideo wrapped_avframe pcm_s16le)" \
    --enable-demuxer="$(list mov matroska yuv4mpegpipe rawvideo image2)" \
    --enable-muxer="$(list null framecrc framemd5 rawvideo yuv4mpegpipe matroska)" \
    --enable-parser="$(list h264 hevc vp9 av1 mpegvideo aac)" \
    --enable-protocol="$(list file pipe)" \
    --enable-indev=lavfi \
    --enable-filter="$(list float_adm scale format metadata setpts trim select testsrc2 color \
        split null nullsink buffer buffersink hwdownload hwupload extractplanes crop fps \
        transpose hflip vflip abuffer abuffersink anull aformat aresample atrim asetpts)" \
    $cuda $asm "$@"
