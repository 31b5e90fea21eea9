/*
 * float_adm: the pooling over scales (see adm_scale_pooling.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_scale_pooling.h"

namespace adm {

ScaleSums skipped_scale_sums()
{
    ScaleSums out;
    out.den = (float)1e-10;
    return out;
}

ScaleSums scale_sums(const float accum[kNumRowSums], const Region &sums,
                     const FloatAdmOptions &opts)
{
    const float inv_p = (float)(1.0f / opts.p_norm);
    const int area = (sums.right - sums.left) * (sums.bottom - sums.top);
    const float noise = powf((float)(area * opts.noise_weight), inv_p);
    const float no_noise = powf((float)(area * 0.0), inv_p);

    float band[kNumRowSums];
    for (int k = 0; k < kNumRowSums; k++)
        band[k] = powf(accum[k], inv_p) + (k >= kAimSum ? no_noise : noise);
    ScaleSums out;
    out.den = band[kDenSum] + band[kDenSum + 1] + band[kDenSum + 2];
    out.num = band[kNumSum] + band[kNumSum + 1] + band[kNumSum + 2];
    out.aim_num = band[kAimSum] + band[kAimSum + 1] + band[kAimSum + 2];
    return out;
}

void pool_scales(const ScaleSums sums[kNumScales], int width, int height,
                 const FloatAdmOptions &opts, FloatAdmScores *out)
{
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    for (int s = 0; s < kNumScales; s++) {
        num += sums[s].num;
        den += sums[s].den;
        if (opts.skip_aim_scale != s) {
            aim_num += sums[s].aim_num;
            aim_den += sums[s].den;
        }
        out->adm_num_scale[s] = sums[s].num;
        out->adm_den_scale[s] = sums[s].den;
        out->adm_scale[s] = (double)sums[s].num / (double)sums[s].den;
    }
    /* Sums below a floor proportional to the frame area count as zero. */
    const double floor = 1e-10 * (double)((long long)width * height) / (1920.0 * 1080.0);
    num = num < floor ? 0 : num;
    den = den < floor ? 0 : den;

    double adm2, aim;
    if (den == 0.0) {
        adm2 = 1.0;
        aim = 0.0; /* libvmaf leaves it uninitialised here; we define it as 0 */
    } else {
        double ratio = aim_num / aim_den;
        aim = ratio < 1.0 ? ratio : 1.0;
        adm2 = num / den;
    }
    double adm3;
    if (opts.adm3_apply_hm)
        adm3 = 2 * adm2 * aim / (adm2 + aim);
    else
        adm3 = adm2 * opts.dlm_weight + (1 - aim) * (1 - opts.dlm_weight);
    adm3 = adm3 > opts.min_val ? adm3 : opts.min_val;

    out->adm2 = adm2;
    out->aim = aim;
    out->adm3 = adm3;
    out->adm = adm2;
    out->adm_num = num;
    out->adm_den = den;
}

} // namespace adm
