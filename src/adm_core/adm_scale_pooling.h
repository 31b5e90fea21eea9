/*
 * float_adm: from the per-band fp32 sums of each scale to the 18 outputs.
 * Shared by the CPU engine and the CUDA backend (which pools on the host from
 * the device's accumulators), so both report the same doubles.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_SCALE_POOLING_H
#define ADM_SCALE_POOLING_H

#include "adm_context_setup.h"
#include "float_adm.h"

namespace adm {

/* Per-scale values (fp32, as upstream). */
struct ScaleSums {
    float num = 0, den = 0, aim_num = 0;
};

/* Scale 0 under adm_skip_scale0: no numerators, upstream's guard of 1e-10 as denominator. */
ScaleSums skipped_scale_sums();

/* powf(accum, 1/p) plus the noise floor of the sum region per band (none for AIM), h + v + d. */
ScaleSums scale_sums(const float accum[kNumRowSums], const Region &sums,
                     const FloatAdmOptions &opts);

/* The fp64 pooling over scales, the floor, adm2, aim, adm3 and the debug outputs. */
void pool_scales(const ScaleSums sums[kNumScales], int width, int height,
                 const FloatAdmOptions &opts, FloatAdmScores *out);

} // namespace adm

#endif /* ADM_SCALE_POOLING_H */
