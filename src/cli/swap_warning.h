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

/* Inputs the wrong way round: the library's swap check over the first pairs, said
 * once, naming both files. */

#ifndef FLOAT_ADM_CLI_SWAP_WARNING_H
#define FLOAT_ADM_CLI_SWAP_WARNING_H

#include <string>

#include "float_adm.h"
#include "pixel_format.h"

class SwapWarning {
public:
    /** wanted false: the order was questioned already, nothing more is said.  Throws
     *  CliError where the check cannot be made (no memory). */
    SwapWarning(const InputGeometry &geometry, std::string reference, std::string distorted,
                bool wanted);
    ~SwapWarning();
    SwapWarning(const SwapWarning &) = delete;
    SwapWarning &operator=(const SwapWarning &) = delete;

    /** Whether the check still wants pairs: until then, each scored pair is added. */
    bool wants_pairs() const { return !done_; }
    /** Adds a scored pair; the warning is printed as soon as the check has seen enough. */
    void add(const FloatAdmPlane &reference, const FloatAdmPlane &distorted);
    /** The end of the input: the warning, where the pairs added say so. */
    void finish();

private:
    FloatAdmSwapCheck *check_ = nullptr;
    std::string reference_, distorted_;
    bool done_ = false;
};

#endif /* FLOAT_ADM_CLI_SWAP_WARNING_H */
