/*
 * float_adm: the planar YUV and gray pixel formats the file reader takes, by FFmpeg
 * name, their y4m colorspace tags and the size of a frame on disk.
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

#include <cstdio>
#include <cstring>
#include <string>

#include "adm_context_setup.h"
#include "adm_error_message.h"
#include "adm_pixel_format.h"
#include "float_adm.h"

namespace adm {
namespace {

/* Canonical names come before the yuvj (full-range) aliases of the same layout,
 * so that a layout lookup, as for a y4m header, finds the canonical name. */
const PixelFormat kPixelFormats[] = {
    {"yuv420p", 8, true, 1, 1},      {"yuv422p", 8, true, 1, 0},
    {"yuv444p", 8, true, 0, 0},      {"yuv440p", 8, true, 0, 1},
    {"gray", 8, false, 0, 0},        {"yuv420p9le", 9, true, 1, 1},
    {"yuv422p9le", 9, true, 1, 0},   {"yuv444p9le", 9, true, 0, 0},
    {"gray9le", 9, false, 0, 0},     {"yuv420p10le", 10, true, 1, 1},
    {"yuv422p10le", 10, true, 1, 0}, {"yuv444p10le", 10, true, 0, 0},
    {"yuv440p10le", 10, true, 0, 1}, {"gray10le", 10, false, 0, 0},
    {"yuv420p12le", 12, true, 1, 1}, {"yuv422p12le", 12, true, 1, 0},
    {"yuv444p12le", 12, true, 0, 0}, {"yuv440p12le", 12, true, 0, 1},
    {"gray12le", 12, false, 0, 0},   {"yuv420p14le", 14, true, 1, 1},
    {"yuv422p14le", 14, true, 1, 0}, {"yuv444p14le", 14, true, 0, 0},
    {"gray14le", 14, false, 0, 0},   {"yuv420p16le", 16, true, 1, 1},
    {"yuv422p16le", 16, true, 1, 0}, {"yuv444p16le", 16, true, 0, 0},
    {"gray16le", 16, false, 0, 0},   {"yuvj420p", 8, true, 1, 1},
    {"yuvj422p", 8, true, 1, 0},     {"yuvj444p", 8, true, 0, 0},
    {"yuvj440p", 8, true, 0, 1},
};
const int kNumPixelFormats = static_cast<int>(sizeof(kPixelFormats) / sizeof(kPixelFormats[0]));

/* The 8-bit 4:2:0 tags that differ only in chroma siting, which luma ignores. */
const char *const kY4m420Sitings[] = {"420jpeg", "420mpeg2", "420paldv"};

/* Chroma planes round up, as FFmpeg's AV_CEIL_RSHIFT does for odd sizes. */
uint64_t chroma_size(int luma_size, int shift)
{
    return (static_cast<uint64_t>(luma_size) + (1u << shift) - 1) >> shift;
}

} // namespace

const PixelFormat *find_pixel_format(const char *name)
{
    for (const PixelFormat &format : kPixelFormats)
        if (name && !std::strcmp(name, format.name))
            return &format;
    return nullptr;
}

bool same_layout(const PixelFormat &a, const PixelFormat &b)
{
    if (a.bit_depth != b.bit_depth || a.has_chroma != b.has_chroma)
        return false;
    return !a.has_chroma ||
           (a.chroma_shift_x == b.chroma_shift_x && a.chroma_shift_y == b.chroma_shift_y);
}

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

const PixelFormat *find_y4m_pixel_format(const std::string &colorspace)
{
    for (const char *siting : kY4m420Sitings)
        if (colorspace == siting)
            return find_pixel_format("yuv420p");
    for (const PixelFormat &format : kPixelFormats)
        if (colorspace == y4m_colorspace(format))
            return &format;
    return nullptr;
}

std::string supported_y4m_colorspaces()
{
    std::string tags;
    for (const char *siting : kY4m420Sitings)
        tags += std::string(tags.empty() ? "C" : ", C") + siting;
    for (const PixelFormat &format : kPixelFormats)
        if (find_y4m_pixel_format(y4m_colorspace(format)) == &format)
            tags += ", C" + y4m_colorspace(format);
    return tags;
}

FloatAdmFrameFormat frame_format(int width, int height, const PixelFormat &format)
{
    FloatAdmFrameFormat f{};
    f.width = width;
    f.height = height;
    f.bit_depth = format.bit_depth;
    f.pixel_format = format.name;
    const uint64_t sample = format.bit_depth > 8 ? 2 : 1;
    f.luma_bytes = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) * sample;
    f.frame_bytes = f.luma_bytes;
    if (format.has_chroma)
        f.frame_bytes += 2 * chroma_size(width, format.chroma_shift_x) *
                         chroma_size(height, format.chroma_shift_y) * sample;
    return f;
}

} // namespace adm

extern "C" {

const char *float_adm_pixel_format_name(int index)
{
    return index >= 0 && index < adm::kNumPixelFormats ? adm::kPixelFormats[index].name : nullptr;
}

int float_adm_frame_format(FloatAdmFrameFormat *format, int width, int height,
                           const char *pixel_format, char *errbuf, size_t errbuf_size)
{
    if (!format || !pixel_format) {
        adm::format_error(errbuf, errbuf_size, "no frame format or pixel format given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    const adm::PixelFormat *found = adm::find_pixel_format(pixel_format);
    if (!found) {
        std::string names;
        for (const adm::PixelFormat &f : adm::kPixelFormats)
            names += std::string(names.empty() ? "" : ", ") + f.name;
        adm::format_error(errbuf, errbuf_size, "unknown pixel format '%s'; supported: %s",
                          pixel_format, names.c_str());
        return FLOAT_ADM_ERROR_NOT_FOUND;
    }
    const int ret = adm::check_frame(width, height, found->bit_depth, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    *format = adm::frame_format(width, height, *found);
    return 0;
}

int float_adm_pixel_format_same_layout(const char *a, const char *b)
{
    const adm::PixelFormat *fa = adm::find_pixel_format(a), *fb = adm::find_pixel_format(b);
    return fa && fb && adm::same_layout(*fa, *fb);
}

int float_adm_pixel_format_y4m_tag(const char *pixel_format, char *buf, size_t size)
{
    const adm::PixelFormat *format = adm::find_pixel_format(pixel_format);
    if (!format || !buf || !size)
        return FLOAT_ADM_ERROR_NOT_FOUND;
    std::snprintf(buf, size, "%s", adm::y4m_colorspace(*format).c_str());
    return 0;
}

} // extern "C"
