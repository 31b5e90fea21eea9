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

/* float_adm_score --scale: the distorted's luma brought to the reference's size by
 * FFmpeg's libswscale, as ffmpeg's scale filter brings it (the same samples: ADM reads
 * the luma alone, and a luma plane is scaled alike whatever the chroma beside it). */

#ifndef FLOAT_ADM_CLI_SCALER_H
#define FLOAT_ADM_CLI_SCALER_H

#include <string>

#include "float_adm.h"
#include "large_buffer.h"
#include "pixel_format.h"

struct SwsContext;

class LumaScaler {
public:
    /** From the distorted's geometry to the reference's, by method (a libswscale
     *  method: bicubic, bilinear, lanczos, ...).  Throws CliError. */
    LumaScaler(const InputGeometry &from, const InputGeometry &to, const std::string &method);
    ~LumaScaler();
    LumaScaler(const LumaScaler &) = delete;
    LumaScaler &operator=(const LumaScaler &) = delete;

    /** The plane scaled, in a buffer reused for every frame: valid until the next call. */
    FloatAdmPlane scale(const FloatAdmPlane &plane);

    /** "libswscale 6.7.100": what --version says. */
    static std::string library_version();

private:
    SwsContext *context_ = nullptr;
    InputGeometry from_;
    InputGeometry to_;
    LargeBuffer source_; /* the frame in rows as ffmpeg's, then scaled */
    LargeBuffer scaled_;
};

#endif /* FLOAT_ADM_CLI_SCALER_H */
