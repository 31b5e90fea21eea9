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

#include "swap_warning.h"

#include <cstdio>
#include <utility>

#include "cli_error.h"
#include "command_line.h"

SwapWarning::SwapWarning(const InputGeometry &geometry, std::string reference,
                         std::string distorted, bool wanted)
    : reference_(std::move(reference)), distorted_(std::move(distorted)), done_(!wanted)
{
    if (done_)
        return;
    const int err = float_adm_swap_check_create(&check_, geometry.width, geometry.height,
                                                geometry.format->bit_depth);
    if (err < 0)
        throw CliError(std::string("the check of the inputs' order: ") + float_adm_strerror(err));
}

SwapWarning::~SwapWarning() { float_adm_swap_check_free(&check_); }

void SwapWarning::add(const FloatAdmPlane &reference, const FloatAdmPlane &distorted)
{
    if (done_)
        return;
    const int ret = float_adm_swap_check_add(check_, &reference, &distorted);
    if (ret < 0)
        throw CliError(std::string("the check of the inputs' order: ") + float_adm_strerror(ret));
    if (ret > 0)
        finish();
}

void SwapWarning::finish()
{
    if (done_)
        return;
    done_ = true;
    char message[512];
    if (float_adm_swap_check_result(check_, message, sizeof(message)) > 0)
        std::fprintf(stderr, "%s: warning: --distorted %s, --reference %s: %s\n", program_name,
                     distorted_.c_str(), reference_.c_str(), message);
}
