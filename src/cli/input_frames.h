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

/* The frames of the two inputs: their geometry (y4m headers or the command line)
 * and how many of them are scored. */

#ifndef FLOAT_ADM_CLI_INPUT_FRAMES_H
#define FLOAT_ADM_CLI_INPUT_FRAMES_H

#include <array>

#include "command_line.h"
#include "pixel_format.h"
#include "video_reader.h"

/** The frame geometry: from the y4m headers, which must agree with each other and
 *  with the command line, else from the command line; with --scale, the reference's
 *  alone.  Throws CliError. */
InputGeometry resolve_geometry(const CommandLine &command_line, const VideoReader &reference,
                               const VideoReader &distorted);

/** With --scale: the distorted's own geometry, from its y4m header (a raw distorted
 *  is refused), with the reference's bit depth.  Throws CliError. */
InputGeometry resolve_scaled_geometry(const CommandLine &command_line, const VideoReader &distorted,
                                      const InputGeometry &reference);

/** How many frames to go through, after the skipped ones (the readers started):
 *  --frames N exactly, --frame_cnt N at most, else every frame; throws CliError
 *  where the files do not hold them. */
unsigned long long frames_to_score(const CommandLine &command_line,
                                   const std::array<const VideoReader *, 2> &inputs,
                                   const std::array<const InputGeometry *, 2> &geometries);

#endif /* FLOAT_ADM_CLI_INPUT_FRAMES_H */
