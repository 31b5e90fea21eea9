/*
 * float_adm: the pixel formats of raw and y4m files (see float_adm.h).
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

#ifndef ADM_PIXEL_FORMAT_H
#define ADM_PIXEL_FORMAT_H

#include <string>

#include "float_adm.h"

namespace adm {

struct PixelFormat {
    const char *name;   /* FFmpeg's name, e.g. "yuv420p10le" */
    int bit_depth;      /* 8..16; above 8, samples take 2 little-endian bytes */
    bool has_chroma;    /* false for gray */
    int chroma_shift_x; /* log2 of the horizontal chroma subsampling */
    int chroma_shift_y; /* log2 of the vertical chroma subsampling */
};

/* The format called name, or nullptr. */
const PixelFormat *find_pixel_format(const char *name);
/* Whether two formats store frames identically (yuvj420p and yuv420p do). */
bool same_layout(const PixelFormat &a, const PixelFormat &b);
/* The y4m colorspace of a format, without the 'C': "420", "444p10", "mono12". */
std::string y4m_colorspace(const PixelFormat &format);
/* The format of a y4m colorspace tag ("420p10", "mono", "420jpeg"), or nullptr. */
const PixelFormat *find_y4m_pixel_format(const std::string &colorspace);
/* "C420jpeg, C420mpeg2, ...": every supported y4m colorspace, for messages. */
std::string supported_y4m_colorspaces();
/* The sizes of a frame of this format on disk. */
FloatAdmFrameFormat frame_format(int width, int height, const PixelFormat &format);

} // namespace adm

#endif /* ADM_PIXEL_FORMAT_H */
