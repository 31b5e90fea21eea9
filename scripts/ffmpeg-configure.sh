#!/bin/sh
# Configure the lean FFmpeg with the float_adm filter.  POSIX sh.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-configure.sh [--gpl] SRC_DIR BUILD_DIR PKG_CONFIG_DIRS [EXTRA...]
#   PKG_CONFIG_DIRS: colon-separated, holding floatadm.pc and, when the CUDA
#   hwcontext is wanted, ffnvcodec.pc.  Run from anywhere; builds out of tree.
#
# A quality workbench: every native decoder and demuxer a test clip comes in
# (H.264, HEVC, AV1, VP9, MPEG-2, ProRes, DNxHD, FFV1, image sequences; mp4, mov,
# mkv, webm, ts, y4m), and the filters that line two videos up and compare them
# (psnr, ssim, libvmaf where installed, scale, zscale, fps, crop, pad, ...).
#
# Licence: by default everything enabled here is LGPL or LGPL-compatible
# (dav1d, SVT-AV1, libvpx, libaom, libvmaf: BSD; zimg: WTFPL); CUDA, NVDEC and NVENC
# only load the driver at run time through nv-codec-headers (MIT), so the
# binary stays redistributable.  --gpl adds libx264 and libx265 and makes the
# binary GPL.  Never --enable-nonfree, --enable-cuda-nvcc/-llvm or libnpp.

set -eu

gpl=
if [ "${1:-}" = --gpl ]; then
    gpl=yes
    shift
fi
src=$(cd "$1" && pwd)
build=$2
pc_dirs=$3
shift 3

# nasm and the codec libraries come from make deps (scripts/ensure-packages.sh).
asm=
if ! command -v nasm >/dev/null 2>&1; then
    echo "ffmpeg-configure: nasm not found: building FFmpeg WITHOUT x86 assembly (slower decoding)" >&2
    asm=--disable-x86asm
fi

list() { echo "$*" | tr ' ' ','; }

# The float_adm filters the tree has: the series' (float_adm, float_adm_cuda with
# CUDA), and float_adm_map where the project's extras are applied too.
adm_filters=float_adm
grep -q ff_vf_float_adm_map "$src/libavfilter/allfilters.c" && adm_filters="$adm_filters float_adm_map"

cuda=
if PKG_CONFIG_PATH=$pc_dirs pkg-config --exists ffnvcodec; then
    # NVDEC: decoded frames stay on the GPU for float_adm's CUDA path.
    # NVENC: built always; it needs the driver and a GPU with NVENC at run time.
    cuda="--enable-ffnvcodec --enable-cuda --enable-nvdec --enable-nvenc --enable-filter=hwupload_cuda
          --enable-hwaccel=$(list h264_nvdec hevc_nvdec vp9_nvdec av1_nvdec mpeg2_nvdec)
          --enable-encoder=$(list h264_nvenc hevc_nvenc av1_nvenc)"
    adm_filters="$adm_filters float_adm_cuda"
else
    echo "ffmpeg-configure: nv-codec-headers not found: building without the CUDA hwcontext" >&2
fi

# Codec and filter libraries from the distribution's packages (make deps installs them),
# each enabled where pkg-config finds a version every supported FFmpeg accepts, and
# otherwise left out with one line.  zlib is for PNG, TIFF and EXR.
libs=
encoders=
decoders=
filters=
# codec NAME "PKG >= MIN" CONFIGURE_FLAG "ENCODERS" "DECODERS" "FILTERS" DEBIAN_PACKAGE
codec() {
    if PKG_CONFIG_PATH=$pc_dirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} pkg-config --exists "$2"; then
        libs="$libs $3"
        encoders="$encoders $4"
        decoders="$decoders $5"
        filters="$filters $6"
    elif command -v apt-cache >/dev/null 2>&1 && ! apt-cache show "$7" >/dev/null 2>&1; then
        echo "ffmpeg-configure: $1 not found at $2: building without it ($7, which adds it, is not in this system's package lists)" >&2
    else
        echo "ffmpeg-configure: $1 not found at $2: building without it (apt-get install $7)" >&2
    fi
}
codec dav1d "dav1d >= 1.0.0" --enable-libdav1d "" libdav1d "" libdav1d-dev
codec SVT-AV1 "SvtAv1Enc >= 0.9.0" --enable-libsvtav1 libsvtav1 "" "" libsvtav1enc-dev
codec libvpx "vpx >= 1.4.0" --enable-libvpx "libvpx_vp8 libvpx_vp9" "libvpx_vp8 libvpx_vp9" "" libvpx-dev
codec libaom "aom >= 2.0.0" --enable-libaom libaom_av1 "" "" libaom-dev
codec zimg "zimg >= 2.7.0" --enable-libzimg "" "" zscale libzimg-dev
codec libvmaf "libvmaf >= 2.0.0" --enable-libvmaf "" "" libvmaf libvmaf-dev
codec zlib "zlib" --enable-zlib png "png tiff exr" "" zlib1g-dev
if [ -n "$gpl" ]; then
    libs="$libs --enable-gpl"
    codec x264 "x264" --enable-libx264 libx264 "" "" libx264-dev
    codec x265 "x265" --enable-libx265 libx265 "" "" libx265-dev
fi

mkdir -p "$build"
cd "$build"
PKG_CONFIG_PATH=$pc_dirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} "$src/configure" \
    --pkg-config-flags=--static \
    --disable-autodetect --disable-everything --disable-doc \
    --enable-static --disable-shared \
    --enable-libfloatadm \
    --enable-decoder="$(list h264 hevc vp8 vp9 av1 mpeg2video mpeg1video mpeg4 prores dnxhd ffv1 \
        rawvideo wrapped_avframe mjpeg bmp dpx pam pgm pgmyuv ppm qoi \
        aac ac3 eac3 mp3float flac opus vorbis pcm_s16le pcm_s16be pcm_s24le pcm_s32le pcm_f32le \
        $decoders)" \
    --enable-encoder="$(list mpeg2video ffv1 rawvideo wrapped_avframe pgm pcm_s16le $encoders)" \
    --enable-demuxer="$(list mov matroska mpegts mpegps mpegvideo m4v obu ivf yuv4mpegpipe \
        rawvideo image2 image2pipe h264 hevc dnxhd wav)" \
    --enable-muxer="$(list null framecrc framemd5 rawvideo yuv4mpegpipe matroska webm mp4 mov ivf \
        image2)" \
    --enable-parser="$(list h264 hevc vp8 vp9 av1 mpegvideo mpeg4video dnxhd mjpeg png bmp \
        aac ac3 mpegaudio flac opus vorbis)" \
    --enable-protocol="$(list file pipe)" \
    --enable-indev=lavfi \
    --enable-filter="$(list $adm_filters overlay avgblur psnr ssim scale format metadata setpts settb trim select \
        testsrc2 color split null nullsink buffer buffersink hwdownload hwupload extractplanes \
        crop pad fps setsar showinfo movie transpose hflip vflip \
        abuffer abuffersink anull aformat aresample atrim asetpts $filters)" \
    $libs $cuda $asm "$@"
