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

/* libvmaf's pooled scores and its --json layout. */

#ifndef FLOAT_ADM_CLI_JSON_OUTPUT_H
#define FLOAT_ADM_CLI_JSON_OUTPUT_H

#include <cstdio>
#include <vector>

#include "float_adm.h"

struct PooledScore {
    double min;
    double max;
    double mean;
    double harmonic_mean;
};

/** Output output_index pooled over every frame exactly as libvmaf's
 *  vmaf_feature_score_pooled() does it; frames must not be empty. */
PooledScore pool_output(const std::vector<FloatAdmScores> &frames, int output_index);

/** Writes frames and their pooled scores in libvmaf's --json layout, outputs
 *  0..num_outputs-1 under their plain names. */
void write_json(FILE *out, const std::vector<FloatAdmScores> &frames, int num_outputs);

#endif /* FLOAT_ADM_CLI_JSON_OUTPUT_H */
