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

#include "pixel_format.h"

#include "cli_error.h"

namespace {

/* Canonical names come before the yuvj (full-range) aliases of the same layout,
 * so that a layout lookup, as for a y4m header, finds the canonical name. */
const PixelFormat pixel_formats[] = {
    {"yuv420p", 8, true, 1, 1},
    {"yuv422p", 8, true, 1, 0},
    {"yuv444p", 8, true, 0, 0},
    {"yuv440p", 8, true, 0, 1},
    {"gray", 8, false, 0, 0},
    {"yuv420p9le", 9, true, 1, 1},
    {"yuv422p9le", 9, true, 1, 0},
    {"yuv444p9le", 9, true, 0, 0},
    {"gray9le", 9, false, 0, 0},
    {"yuv420p10le", 10, true, 1, 1},
    {"yuv422p10le", 10, true, 1, 0},
    {"yuv444p10le", 10, true, 0, 0},
    {"yuv440p10le", 10, true, 0, 1},
    {"gray10le", 10, false, 0, 0},
    {"yuv420p12le", 12, true, 1, 1},
    {"yuv422p12le", 12, true, 1, 0},
    {"yuv444p12le", 12, true, 0, 0},
    {"yuv440p12le", 12, true, 0, 1},
    {"gray12le", 12, false, 0, 0},
    {"yuv420p14le", 14, true, 1, 1},
    {"yuv422p14le", 14, true, 1, 0},
    {"yuv444p14le", 14, true, 0, 0},
    {"gray14le", 14, false, 0, 0},
    {"yuv420p16le", 16, true, 1, 1},
    {"yuv422p16le", 16, true, 1, 0},
    {"yuv444p16le", 16, true, 0, 0},
    {"gray16le", 16, false, 0, 0},
    {"yuvj420p", 8, true, 1, 1},
    {"yuvj422p", 8, true, 1, 0},
    {"yuvj444p", 8, true, 0, 0},
    {"yuvj440p", 8, true, 0, 1},
};

/* Chroma planes round up, as FFmpeg's AV_CEIL_RSHIFT does for odd sizes. */
uint64_t chroma_size(int luma_size, int shift)
{
    return (static_cast<uint64_t>(luma_size) + (1u << shift) - 1) >> shift;
}

/* The y4m colorspace of a format: "420", "444p10", "mono12". */
std::string y4m_colorspace(const PixelFormat &format)
{
    std::string family;
    if (!format.has_chroma)
        family = "mono";
    else if (format.chroma_shift_x && format.chroma_shift_y)
        family = "420";
    else if (format.chroma_shift_x)
        family = "422";
    else if (format.chroma_shift_y)
        family = "440";
    else
        family = "444";
    if (format.bit_depth == 8)
        return family;
    return family + (format.has_chroma ? "p" : "") + std::to_string(format.bit_depth);
}

/* The 8-bit 4:2:0 tags that differ only in chroma siting, which luma ignores. */
const char *const y4m_420_sitings[] = {"420jpeg", "420mpeg2", "420paldv"};

} // namespace

const PixelFormat *find_pixel_format(const std::string &name)
{
    for (const PixelFormat &format : pixel_formats)
        if (name == format.name)
            return &format;
    return nullptr;
}

const PixelFormat *find_pixel_format(bool has_chroma, int chroma_shift_x, int chroma_shift_y,
                                     int bit_depth)
{
    const PixelFormat wanted = {"", bit_depth, has_chroma, chroma_shift_x, chroma_shift_y};
    for (const PixelFormat &format : pixel_formats)
        if (same_layout(format, wanted))
            return &format;
    return nullptr;
}

std::string supported_pixel_formats()
{
    std::string names;
    for (const PixelFormat &format : pixel_formats) {
        if (!names.empty())
            names += ", ";
        names += format.name;
    }
    return names;
}

const PixelFormat *find_y4m_pixel_format(const std::string &colorspace)
{
    for (const char *siting : y4m_420_sitings)
        if (colorspace == siting)
            return find_pixel_format(true, 1, 1, 8);
    for (const PixelFormat &format : pixel_formats)
        if (colorspace == y4m_colorspace(format))
            return &format;
    return nullptr;
}

std::string supported_y4m_colorspaces()
{
    std::string tags;
    for (const char *siting : y4m_420_sitings)
        tags += std::string(tags.empty() ? "C" : ", C") + siting;
    for (const PixelFormat &format : pixel_formats)
        if (find_y4m_pixel_format(y4m_colorspace(format)) == &format)
            tags += ", C" + y4m_colorspace(format);
    return tags;
}

bool same_layout(const PixelFormat &a, const PixelFormat &b)
{
    if (a.bit_depth != b.bit_depth || a.has_chroma != b.has_chroma)
        return false;
    return !a.has_chroma ||
           (a.chroma_shift_x == b.chroma_shift_x && a.chroma_shift_y == b.chroma_shift_y);
}

uint64_t FrameGeometry::luma_bytes() const
{
    return static_cast<uint64_t>(width) * static_cast<uint64_t>(height) *
           static_cast<uint64_t>(bytes_per_sample());
}

uint64_t FrameGeometry::chroma_bytes() const
{
    if (!format->has_chroma)
        return 0;
    return 2 * chroma_size(width, format->chroma_shift_x) *
           chroma_size(height, format->chroma_shift_y) *
           static_cast<uint64_t>(bytes_per_sample());
}

std::string FrameGeometry::describe() const
{
    return string_printf("%dx%d %s", width, height, format->name);
}
