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

/* The pixel formats and frame sizes of the tool's input, as the library's reader
 * knows them (float_adm_pixel_format_name, float_adm_frame_format). */

#ifndef FLOAT_ADM_CLI_PIXEL_FORMAT_H
#define FLOAT_ADM_CLI_PIXEL_FORMAT_H

#include <cstdint>
#include <string>

#include "float_adm.h"

struct InputPixelFormat {
    const char *name; /* FFmpeg's name, e.g. "yuv420p10le" */
    int bit_depth;
};

/** The format called name, or nullptr. */
const InputPixelFormat *find_pixel_format(const std::string &name);

/** "yuv420p, yuv422p, ...": every supported name, for the usage and messages. */
std::string supported_pixel_formats();

/** Whether two formats store frames identically (yuvj420p and yuv420p do). */
bool same_layout(const InputPixelFormat &a, const InputPixelFormat &b);

/** The size of one frame: its geometry and what it takes on disk. */
struct InputGeometry {
    int width = 0;
    int height = 0;
    const InputPixelFormat *format = nullptr;

    int bytes_per_sample() const { return format->bit_depth > 8 ? 2 : 1; }
    /** The library's description of these frames; throws CliError for a size it refuses. */
    FloatAdmFrameFormat frame_format() const;
    uint64_t luma_bytes() const { return frame_format().luma_bytes; }
    /** "576x324 yuv420p" */
    std::string describe() const;
};

#endif /* FLOAT_ADM_CLI_PIXEL_FORMAT_H */
