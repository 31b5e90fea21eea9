/*
 * float_adm_score's CUDA backend.
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

#ifndef FLOAT_ADM_CLI_CUDA_BACKEND_H
#define FLOAT_ADM_CLI_CUDA_BACKEND_H

#include <functional>
#include <string>

#include "float_adm.h"
#include "video_reader.h"

/* Built only with the CUDA library (HAVE_CUDA=yes, FLOAT_ADM_CLI_CUDA defined). */

/** Whether a CUDA device can be used; why it cannot otherwise. */
bool cuda_backend_available(std::string &why);

/** Called with each scored frame, in order. */
using FrameScoresSink = std::function<void(unsigned long long frame, const FloatAdmScores &)>;

/** Scores frame_count frames (every subsample-th; the others are skipped) from
 *  the readers on the device, reading the next frame while one is scored.
 *  Throws CliError. */
void cuda_backend_score(const FrameGeometry &geometry, const FloatAdmOptions &options,
                        VideoReader &reference, VideoReader &distorted,
                        unsigned long long frame_count, unsigned long long subsample,
                        const FrameScoresSink &sink);

#endif /* FLOAT_ADM_CLI_CUDA_BACKEND_H */
