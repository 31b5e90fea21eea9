/*
 * float_adm: the summary of one output over frames, libvmaf's pooling (see float_adm.h).
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

#ifndef ADM_SUMMARY_H
#define ADM_SUMMARY_H

#include <cstdint>

#include "float_adm.h"

namespace adm {

/* Running sums of one output, accumulated exactly as libvmaf pools: in frame order. */
struct FrameStats {
    uint64_t count = 0;
    double sum = 0.;
    double inv_sum = 0.; /* sum of 1 / (x + 1), for the harmonic mean */
    double min = 0., max = 0.;

    void add(double value);
    /* min, max, mean = sum / n, harmonic_mean = n / inv_sum - 1; count must be > 0. */
    FloatAdmPooled result() const;
};

} // namespace adm

#endif /* ADM_SUMMARY_H */
