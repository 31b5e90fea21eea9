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

#include <vector>

#include "cli_error.h"

namespace {

/* The library's formats, each with the depth its frame format gives. */
const std::vector<InputPixelFormat> &pixel_formats()
{
    static const std::vector<InputPixelFormat> formats = [] {
        std::vector<InputPixelFormat> list;
        for (int i = 0; const char *name = float_adm_pixel_format_name(i); i++) {
            FloatAdmFrameFormat format;
            if (float_adm_frame_format(&format, FLOAT_ADM_MIN_SIZE, FLOAT_ADM_MIN_SIZE, name,
                                       nullptr, 0) == 0)
                list.push_back({name, format.bit_depth});
        }
        return list;
    }();
    return formats;
}

} // namespace

const InputPixelFormat *find_pixel_format(const std::string &name)
{
    for (const InputPixelFormat &format : pixel_formats())
        if (name == format.name)
            return &format;
    return nullptr;
}

std::string supported_pixel_formats()
{
    std::string names;
    for (const InputPixelFormat &format : pixel_formats())
        names += std::string(names.empty() ? "" : ", ") + format.name;
    return names;
}

bool same_layout(const InputPixelFormat &a, const InputPixelFormat &b)
{
    return float_adm_pixel_format_same_layout(a.name, b.name) == 1;
}

FloatAdmFrameFormat InputGeometry::frame_format() const
{
    FloatAdmFrameFormat result;
    char message[512] = "";
    if (float_adm_frame_format(&result, width, height, format->name, message, sizeof(message)) < 0)
        throw CliError(string_printf("cannot score %s: %s", describe().c_str(), message));
    return result;
}

std::string InputGeometry::describe() const
{
    return string_printf("%dx%d %s", width, height, format->name);
}
