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

#include "json_output.h"

#include <cmath>

PooledScore pool_output(const std::vector<FloatAdmScores> &frames, int output_index)
{
    /* Same sums in the same order as libvmaf, so the doubles are the same bits;
     * harmonic_mean is libvmaf's n / sum(1 / (x + 1)) - 1. */
    double min = 0., max = 0., sum = 0., inverse_sum = 0.;
    for (size_t i = 0; i < frames.size(); ++i) {
        const double score = float_adm_output_value(&frames[i], output_index);
        sum += score;
        inverse_sum += 1. / (score + 1.);
        if (i == 0 || score < min)
            min = score;
        if (i == 0 || score > max)
            max = score;
    }
    const double count = static_cast<double>(frames.size());
    return PooledScore{min, max, sum / count, count / inverse_sum - 1.0};
}

namespace {

/* %.17g reads back as the same double.  JSON has no NaN or infinity: like
 * libvmaf's own --json output, those are written as null. */
void write_number(FILE *out, double value)
{
    if (std::isfinite(value))
        std::fprintf(out, "%.17g", value);
    else
        std::fputs("null", out);
}

} // namespace

void write_json(FILE *out, const std::vector<FloatAdmScores> &frames, int num_outputs)
{
    std::fprintf(out, "{\n  \"version\": \"%s\",\n  \"frames\": [", float_adm_version());
    for (size_t frame = 0; frame < frames.size(); ++frame) {
        std::fprintf(out, "%s\n    {\n      \"frameNum\": %zu,\n      \"metrics\": {",
                     frame ? "," : "", frame);
        for (int output = 0; output < num_outputs; ++output) {
            std::fprintf(out, "%s\n        \"%s\": ", output ? "," : "",
                         float_adm_output_name(output));
            write_number(out, float_adm_output_value(&frames[frame], output));
        }
        std::fputs("\n      }\n    }", out);
    }
    std::fputs("\n  ],\n  \"pooled_metrics\": {", out);
    for (int output = 0; output < num_outputs; ++output) {
        const PooledScore pooled = pool_output(frames, output);
        std::fprintf(out, "%s\n    \"%s\": {\n      \"min\": ", output ? "," : "",
                     float_adm_output_name(output));
        write_number(out, pooled.min);
        std::fputs(",\n      \"max\": ", out);
        write_number(out, pooled.max);
        std::fputs(",\n      \"mean\": ", out);
        write_number(out, pooled.mean);
        std::fputs(",\n      \"harmonic_mean\": ", out);
        write_number(out, pooled.harmonic_mean);
        std::fputs("\n    }", out);
    }
    std::fputs("\n  }\n}\n", out);
}
