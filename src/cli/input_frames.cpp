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

#include "input_frames.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "cli_error.h"

namespace {

/* A y4m header and the command line must not disagree about the frames. */
void check_header_agrees(const CommandLine &command_line, const VideoReader &reader)
{
    const InputGeometry &header = reader.header_geometry();
    const char *disagreement = nullptr;
    std::string given;
    if (command_line.width && command_line.width != header.width) {
        disagreement = "--width";
        given = std::to_string(command_line.width);
    } else if (command_line.height && command_line.height != header.height) {
        disagreement = "--height";
        given = std::to_string(command_line.height);
    } else if (command_line.pixel_format &&
               !same_layout(*command_line.pixel_format, *header.format)) {
        disagreement = command_line.pixel_format_flag.c_str();
        given = command_line.pixel_format->name;
    }
    if (disagreement)
        throw CliError(reader.path() + ": the y4m header says " + header.describe() + ", but " +
                       disagreement + " says " + given);
}

/* Frames of two sizes: what would score them. */
std::string scale_hint(const InputGeometry &reference, const InputGeometry &distorted)
{
    if (reference.width == distorted.width && reference.height == distorted.height)
        return std::string();
#ifdef FLOAT_ADM_CLI_SWSCALE
    return " (--scale reference scales the distorted to the reference's size)";
#else
    return " (this build has no --scale: configure --enable-swscale)";
#endif
}

} // namespace

/* The frame geometry: from the y4m headers, else from the command line. */
InputGeometry resolve_geometry(const CommandLine &command_line, const VideoReader &reference,
                               const VideoReader &distorted)
{
    const VideoReader *y4m = nullptr;
    for (const VideoReader *reader : {&reference, &distorted}) {
        /* Scaled, the distorted has a size of its own (resolve_scaled_geometry). */
        if (!reader->is_y4m() || (command_line.scale && reader == &distorted))
            continue;
        check_header_agrees(command_line, *reader);
        const InputGeometry &header = reader->header_geometry();
        if (y4m) {
            const InputGeometry &first = y4m->header_geometry();
            if (header.width != first.width || header.height != first.height ||
                !same_layout(*header.format, *first.format))
                throw CliError("reference and distorted differ: " + y4m->path() + " is " +
                               first.describe() + " but " + reader->path() + " is " +
                               header.describe() + scale_hint(first, header));
        }
        y4m = reader;
    }
    if (y4m)
        return y4m->header_geometry();

    std::string missing;
    if (!command_line.width)
        missing += " --width";
    if (!command_line.height)
        missing += " --height";
    if (!command_line.pixel_format)
        missing += " --pix-fmt (or -p and -b)";
    if (!missing.empty())
        throw CliError("missing" + missing + ": raw YUV input (" + reference.path() +
                       ") has no header to say the frame size and pixel format");
    InputGeometry geometry;
    geometry.width = command_line.width;
    geometry.height = command_line.height;
    geometry.format = command_line.pixel_format;
    return geometry;
}

/* --scale: the distorted's size is its y4m header's, its samples the reference's depth. */
InputGeometry resolve_scaled_geometry(const CommandLine &command_line, const VideoReader &distorted,
                                      const InputGeometry &reference)
{
    if (!distorted.is_y4m())
        throw CliError("--scale: " + distorted.path() +
                       " is raw YUV: a distorted of another size than the reference must be "
                       "y4m, whose header says its size");
    const InputGeometry &header = distorted.header_geometry();
    if (header.format->bit_depth != reference.format->bit_depth)
        throw CliError("--scale: " + distorted.path() + " is " + header.describe() +
                       " but the reference is " + reference.describe() +
                       ": scaling keeps the bit depth, which must be the same");
    if (command_line.scale_width && (command_line.scale_width != reference.width ||
                                     command_line.scale_height != reference.height))
        throw CliError(string_printf("--scale %dx%d: the distorted is scored at the "
                                     "reference's size, %dx%d (--scale reference)",
                                     command_line.scale_width, command_line.scale_height,
                                     reference.width, reference.height));
    return header;
}

/* --frames N: exactly N, which both files must hold whole (a partial frame after
 * them is none of the tool's business); vmaf's dialect: as vmaf, the frames both
 * hold, up to --frame_cnt, with one warning where one file holds more; else every
 * frame, which both must hold alike. */
unsigned long long frames_to_score(const CommandLine &command_line,
                                   const std::array<const VideoReader *, 2> &inputs,
                                   const std::array<const InputGeometry *, 2> &geometries)
{
    const char *const skip_flags[2] = {"--frame_skip_ref", "--frame_skip_dist"};
    unsigned long long available[2];
    std::string holds[2]; /* "N frames of 576x324 yuv420p", for messages */
    for (int k = 0; k < 2; ++k) {
        const unsigned long long count = inputs[k]->frame_count();
        const unsigned long long skip = command_line.skip[k];
        if (skip >= count)
            throw CliError(string_printf("%s: %s %llu, but the file holds %llu frames of %s",
                                         inputs[k]->path().c_str(), skip_flags[k], skip, count,
                                         geometries[k]->describe().c_str()));
        available[k] = count - skip;
        holds[k] = string_printf("%llu frames of %s", available[k],
                                 geometries[k]->describe().c_str());
        if (skip)
            holds[k] += string_printf(" after %s %llu", skip_flags[k], skip);
    }
    if (command_line.max_frames) {
        for (int k = 0; k < 2; ++k)
            if (command_line.max_frames > available[k])
                throw CliError(string_printf("%s: --frames %llu, but the file holds %s",
                                             inputs[k]->path().c_str(), command_line.max_frames,
                                             holds[k].c_str()));
        return command_line.max_frames;
    }
    const unsigned long long common = std::min(available[0], available[1]);
    const unsigned long long limit = command_line.frame_cnt;
    if (limit && common >= limit)
        return limit;
    if (command_line.vmaf_dialect) {
        /* vmaf reads both files until one ends. */
        for (int k = 0; k < 2; ++k)
            if (!inputs[k]->incomplete().empty() && available[k] == common)
                std::fprintf(stderr, "%s: warning: %s: %s; scoring its %llu whole frames\n",
                             program_name, inputs[k]->path().c_str(),
                             inputs[k]->incomplete().c_str(), common);
        if (available[0] != available[1])
            std::fprintf(stderr,
                         "%s: warning: %s holds %s but %s holds %llu: scoring the first "
                         "%llu, as vmaf does\n",
                         program_name, inputs[0]->path().c_str(), holds[0].c_str(),
                         inputs[1]->path().c_str(), available[1], common);
        return common;
    }
    for (int k = 0; k < 2; ++k)
        if (!inputs[k]->incomplete().empty())
            throw CliError(inputs[k]->path() + ": " + inputs[k]->incomplete() +
                           " (--frames N scores the first N)");
    if (available[0] != available[1])
        throw CliError(string_printf(
            "reference and distorted differ: %s holds %s but %s holds %llu "
            "(--frames N scores the first N)",
            inputs[0]->path().c_str(), holds[0].c_str(), inputs[1]->path().c_str(), available[1]));
    return available[0];
}
