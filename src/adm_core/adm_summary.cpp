/*
 * float_adm: the summary of one output over frames, libvmaf's pooling: min, max,
 * mean and harmonic mean, the sums in frame order.
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

#include <new>
#include <vector>

#include "adm_summary.h"

namespace adm {

void FrameStats::add(double value)
{
    sum += value;
    inv_sum += 1.0 / (value + 1.0);
    if (!count || value < min)
        min = value;
    if (!count || value > max)
        max = value;
    count++;
}

FloatAdmPooled FrameStats::result() const
{
    return FloatAdmPooled{min, max, sum / count, count / inv_sum - 1.0};
}

} // namespace adm

/* The values are kept so that a merge adds them in frame order, as one run would. */
struct FloatAdmSummary {
    adm::FrameStats stats;
    std::vector<double> values;
};

extern "C" {

int float_adm_summary_create(FloatAdmSummary **out)
{
    if (!out)
        return FLOAT_ADM_ERROR_INVALID;
    *out = new (std::nothrow) FloatAdmSummary;
    return *out ? 0 : FLOAT_ADM_ERROR_NOMEM;
}

int float_adm_summary_add(FloatAdmSummary *summary, const double *values, size_t count)
{
    if (!summary || (!values && count))
        return FLOAT_ADM_ERROR_INVALID;
    try {
        summary->values.insert(summary->values.end(), values, values + count);
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    }
    for (size_t i = 0; i < count; i++)
        summary->stats.add(values[i]);
    return 0;
}

int float_adm_summary_merge(FloatAdmSummary *summary, const FloatAdmSummary *later)
{
    if (!summary || !later || summary == later)
        return FLOAT_ADM_ERROR_INVALID;
    return float_adm_summary_add(summary, later->values.data(), later->values.size());
}

uint64_t float_adm_summary_count(const FloatAdmSummary *summary)
{
    return summary ? summary->stats.count : 0;
}

int float_adm_summary_result(const FloatAdmSummary *summary, FloatAdmPooled *result)
{
    if (!summary || !result || !summary->stats.count)
        return FLOAT_ADM_ERROR_INVALID;
    *result = summary->stats.result();
    return 0;
}

void float_adm_summary_free(FloatAdmSummary **summary)
{
    if (!summary)
        return;
    delete *summary;
    *summary = nullptr;
}

} // extern "C"
