/*
 * float_adm_score: scores raw YUV and y4m files with the float ADM core.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "scaler.h"

#include <cstdint>
#include <cstring>
#include <memory>

extern "C" {
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

#include "cli_error.h"

namespace {

/* The luma alone, as a grey picture of the same depth and storage. */
AVPixelFormat grey_format(int bit_depth)
{
    switch (bit_depth) {
    case 8: return AV_PIX_FMT_GRAY8;
    case 9: return AV_PIX_FMT_GRAY9LE;
    case 10: return AV_PIX_FMT_GRAY10LE;
    case 12: return AV_PIX_FMT_GRAY12LE;
    case 14: return AV_PIX_FMT_GRAY14LE;
    case 16: return AV_PIX_FMT_GRAY16LE;
    default: return AV_PIX_FMT_NONE;
    }
}

/* Rows as ffmpeg's frames have them, 64-byte aligned: libswscale's vector code is
 * picked by the rows' alignment, and must be the one ffmpeg's scale filter runs. */
int aligned_stride(const InputGeometry &geometry)
{
    return (geometry.width * geometry.bytes_per_sample() + 63) & ~63;
}

/* A picture's bytes with the padding libavutil gives a frame (rows up to a multiple of
 * 32, 64 bytes more): libswscale's vector code reads past the last row's end. */
size_t padded_bytes(const InputGeometry &geometry)
{
    return static_cast<size_t>(aligned_stride(geometry)) * ((geometry.height + 31) & ~31) + 64;
}

struct ContextDeleter {
    void operator()(SwsContext *context) const { sws_freeContext(context); }
};

} // namespace

LumaScaler::LumaScaler(const InputGeometry &from, const InputGeometry &to,
                       const std::string &method)
    : from_(from), to_(to)
{
    const AVPixelFormat format = grey_format(from.format->bit_depth);
    if (format == AV_PIX_FMT_NONE)
        throw CliError(
            string_printf("--scale: %d-bit samples cannot be scaled", from.format->bit_depth));
    /* Each failure is said here, once, in this tool's words. */
    av_log_set_level(AV_LOG_QUIET);
    std::unique_ptr<SwsContext, ContextDeleter> context(sws_alloc_context());
    if (!context)
        throw CliError("--scale: out of memory");
    /* The options of ffmpeg's scale filter, whose default method is bicubic. */
    if (av_opt_set_int(context.get(), "srcw", from.width, 0) < 0 ||
        av_opt_set_int(context.get(), "srch", from.height, 0) < 0 ||
        av_opt_set_int(context.get(), "src_format", format, 0) < 0 ||
        av_opt_set_int(context.get(), "dstw", to.width, 0) < 0 ||
        av_opt_set_int(context.get(), "dsth", to.height, 0) < 0 ||
        av_opt_set_int(context.get(), "dst_format", format, 0) < 0)
        throw CliError("--scale: libswscale refused the frame sizes");
    if (av_opt_set(context.get(), "sws_flags", method.c_str(), 0) < 0)
        throw CliError("--scaler " + method +
                       ": not a libswscale method (bicubic, bilinear, lanczos, spline, "
                       "neighbor, area, ...)");
    const int err = sws_init_context(context.get(), nullptr, nullptr);
    if (err < 0) {
        char why[AV_ERROR_MAX_STRING_SIZE] = "";
        av_strerror(err, why, sizeof(why));
        throw CliError("--scale: libswscale cannot scale " + from.describe() + " to " +
                       to.describe() + " with --scaler " + method + ": " + why);
    }
    source_.assign(padded_bytes(from));
    scaled_.assign(padded_bytes(to));
    context_ = context.release();
}

LumaScaler::~LumaScaler() { sws_freeContext(context_); }

FloatAdmPlane LumaScaler::scale(const FloatAdmPlane &plane)
{
    const int source_stride = aligned_stride(from_);
    const size_t row_bytes = static_cast<size_t>(from_.width) * from_.bytes_per_sample();
    uint8_t *const source = static_cast<uint8_t *>(source_.data());
    for (int y = 0; y < from_.height; y++)
        std::memcpy(source + static_cast<size_t>(y) * source_stride,
                    static_cast<const uint8_t *>(plane.data) + y * plane.stride, row_bytes);
    const uint8_t *const sources[4] = {source, nullptr, nullptr, nullptr};
    const int source_strides[4] = {source_stride, 0, 0, 0};
    uint8_t *const dests[4] = {static_cast<uint8_t *>(scaled_.data()), nullptr, nullptr, nullptr};
    const int dest_strides[4] = {aligned_stride(to_), 0, 0, 0};
    if (sws_scale(context_, sources, source_strides, 0, from_.height, dests, dest_strides) !=
        to_.height)
        throw CliError("--scale: libswscale failed to scale a frame");
    FloatAdmPlane scaled;
    scaled.data = scaled_.data();
    scaled.stride = dest_strides[0];
    scaled.bytes_per_sample = to_.bytes_per_sample();
    scaled.shift = 0;
    return scaled;
}

std::string LumaScaler::library_version()
{
    const unsigned version = swscale_version();
    return string_printf("libswscale %u.%u.%u", version >> 16, (version >> 8) & 0xff,
                         version & 0xff);
}
