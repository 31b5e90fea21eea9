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

/* The planar YUV and gray pixel formats the tool reads, by FFmpeg name. */

#ifndef FLOAT_ADM_CLI_PIXEL_FORMAT_H
#define FLOAT_ADM_CLI_PIXEL_FORMAT_H

#include <cstdint>
#include <string>

struct PixelFormat {
    const char *name;    /* FFmpeg's name, e.g. "yuv420p10le" */
    int bit_depth;       /* 8..16; above 8, samples take 2 little-endian bytes */
    bool has_chroma;     /* false for gray */
    int chroma_shift_x;  /* log2 of the horizontal chroma subsampling */
    int chroma_shift_y;  /* log2 of the vertical chroma subsampling */
};

/** The format called name, or nullptr. */
const PixelFormat *find_pixel_format(const std::string &name);

/** The first format with this layout and depth (the canonical name), or nullptr. */
const PixelFormat *find_pixel_format(bool has_chroma, int chroma_shift_x, int chroma_shift_y,
                                     int bit_depth);

/** "yuv420p, yuv422p, ...": every supported name, for error messages. */
std::string supported_pixel_formats();

/** The format of a y4m colorspace tag without its 'C' ("420p10", "mono", "420jpeg"),
 *  or nullptr. */
const PixelFormat *find_y4m_pixel_format(const std::string &colorspace);

/** "C420jpeg, C420mpeg2, ...": every supported y4m colorspace, for error messages. */
std::string supported_y4m_colorspaces();

/** Whether two formats store frames identically (yuvj420p and yuv420p do). */
bool same_layout(const PixelFormat &a, const PixelFormat &b);

/** The size of one frame: its geometry and what it takes on disk. */
struct FrameGeometry {
    int width = 0;
    int height = 0;
    const PixelFormat *format = nullptr;

    int bytes_per_sample() const { return format->bit_depth > 8 ? 2 : 1; }
    uint64_t luma_bytes() const;
    uint64_t chroma_bytes() const; /* both chroma planes together */
    uint64_t frame_bytes() const { return luma_bytes() + chroma_bytes(); }
    /** "576x324 yuv420p" */
    std::string describe() const;
};

#endif /* FLOAT_ADM_CLI_PIXEL_FORMAT_H */
