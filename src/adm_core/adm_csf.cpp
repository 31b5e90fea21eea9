/*
 * float_adm: CSF weights.  Each expression keeps libvmaf's types: where upstream
 * stores an fp64 expression in a float variable the value is rounded there, and
 * where both operands are float the operation is fp32 (see docs/arithmetic.md).  Every libm call takes
 * doubles explicitly: C++'s float overloads (powf, expf, log10f) would round differently.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>

#include "adm_csf.h"

namespace adm {
namespace {

const double kPi = 3.14159265358979323846;
const double kLuminanceLevel = 100.0; /* cd/m2, libvmaf's fixed CSF luminance */

/* Display visual resolution in pixels per degree (~56.55 by default). */
float pixels_per_degree(double norm_view_dist, int display_height)
{
    return (float)(norm_view_dist * display_height * kPi / 180.0);
}

/* Nominal spatial frequency of a DWT level: half the resolution at level 0. */
float level_frequency(int scale, double norm_view_dist, int display_height)
{
    return (float)(pixels_per_degree(norm_view_dist, display_height) / pow(2, scale + 1));
}

/* ---- Watson et al. 1997, luma parameters and 7-9 basis amplitudes ---- */
const float kWatsonA = (float)0.495, kWatsonK = (float)0.466, kWatsonF0 = (float)0.401;
const float kWatsonG[4] = {(float)1.501, (float)1.0, (float)0.534, (float)1.0};
const float kBasisAmplitude[6][4] = {
    {(float)0.62171, (float)0.67234, (float)0.72709, (float)0.67234},
    {(float)0.34537, (float)0.41317, (float)0.49428, (float)0.41317},
    {(float)0.18004, (float)0.22727, (float)0.28688, (float)0.22727},
    {(float)0.091401, (float)0.11792, (float)0.15214, (float)0.11792},
    {(float)0.045943, (float)0.059758, (float)0.077727, (float)0.059758},
    {(float)0.023013, (float)0.030018, (float)0.039156, (float)0.030018},
};

/* ---- Barten (HDR-VDP 2.2.1) ---- */
const float kBartenAnchors[6] = {(float)0.002, (float)0.02, (float)0.2, (float)2, (float)20,
                                 (float)150};
const float kBartenParams[6][5] = {
    {(float)0.0160737, (float)0.991265, (float)3.74038, (float)0.50722, (float)4.46044},
    {(float)0.383873, (float)0.800889, (float)3.54104, (float)0.682505, (float)4.94958},
    {(float)0.929301, (float)0.476505, (float)4.37453, (float)0.750315, (float)5.28678},
    {(float)1.29776, (float)0.405782, (float)4.40602, (float)0.935314, (float)5.61425},
    {(float)1.49222, (float)0.334278, (float)3.79542, (float)1.07327, (float)6.4635},
    {(float)1.46213, (float)0.394533, (float)2.7755, (float)1.16577, (float)7.45665},
};
const float kBartenSa[4] = {(float)30.162, (float)4.0627, (float)1.6596, (float)0.2712};
const float kBartenMtfA[4] = {(float)0.424838596301290, (float)0.572435103936480,
                              (float)0.000167576239164937, (float)0.00255872352306433};
const float kBartenMtfB[4] = {(float)0.028, (float)0.37, (float)37, (float)360};

float lerp(float left_pos, float left_val, float right_pos, float right_val, float pos)
{
    return left_val + ((right_val - left_val) / (right_pos - left_pos)) * (pos - left_pos);
}

float barten_rod_cone_sensitivity(float luminance)
{
    return (float)(kBartenSa[0] * pow(pow((double)(kBartenSa[1] / luminance), (double)kBartenSa[2]) + 1,
                                      (double)-kBartenSa[3]));
}

float barten_mtf(float frequency)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = (float)(mtf + kBartenMtfA[i] * exp((double)(-kBartenMtfB[i] * frequency)));
    return mtf;
}

} // namespace

float watson_weight(int scale, int theta, double norm_view_dist, int display_height)
{
    float r = pixels_per_degree(norm_view_dist, display_height);
    float temp = (float)log10(pow(2.0, scale + 1) * kWatsonF0 * kWatsonG[theta] / r);
    /* k * temp * temp is fp32: all three are floats upstream. */
    float q = (float)(2.0 * kWatsonA * pow(10.0, (double)(kWatsonK * temp * temp)) /
                      kBasisAmplitude[scale][theta]);
    return 1.0f / q;
}

float barten_weight(int scale, double norm_view_dist, int display_height, double csf_scale)
{
    float frequency = level_frequency(scale, norm_view_dist, display_height);
    /* Interpolate the parameters between the anchors around the luminance, in log10. */
    double lum = kLuminanceLevel;
    int left = 0;
    for (int i = 0; i < 5; i++) {
        if (lum >= kBartenAnchors[i] && lum <= kBartenAnchors[i + 1]) {
            left = i;
            break;
        }
    }
    int right = left + 1;
    float left_pos = (float)log10((double)kBartenAnchors[left]);
    float right_pos = (float)log10((double)kBartenAnchors[right]);
    float pos = (float)log10(lum);
    float p[4];
    for (int k = 0; k < 4; k++)
        p[k] = lerp(left_pos, kBartenParams[left][k + 1], right_pos, kBartenParams[right][k + 1],
                    pos);

    float a = (float)(1.0f + pow((double)(p[0] * frequency), (double)p[1]));
    float b = (float)(1.0f / pow(1 - exp(-pow((double)(frequency / 7), 2.0)), (double)p[2]));
    float csf = (float)(p[3] / pow((double)(a * b), 0.5));
    return (float)(csf * barten_mtf(frequency) * barten_rod_cone_sensitivity((float)lum) *
                   csf_scale);
}

float dlm_paper_weight(int scale, double norm_view_dist, int display_height, bool diagonal)
{
    float frequency = level_frequency(scale, norm_view_dist, display_height);
    /* Oblique effect: the eye is less sensitive to diagonal detail. */
    if (diagonal)
        frequency = (float)(frequency / 0.7);
    return (float)((0.31 + 0.69 * frequency) * exp(-0.29 * frequency));
}

CsfWeights csf_weights(const FloatAdmOptions &opts, int scale)
{
    CsfWeights w;
    switch (opts.csf_mode) {
    case kCsfBarten:
        w.hv = barten_weight(scale, opts.norm_view_dist, opts.ref_display_height, opts.csf_scale);
        w.d = barten_weight(scale, opts.norm_view_dist, opts.ref_display_height,
                            opts.csf_diag_scale);
        break;
    case kCsfDlmPaper:
        w.hv = dlm_paper_weight(scale, opts.norm_view_dist, opts.ref_display_height, false);
        w.d = dlm_paper_weight(scale, opts.norm_view_dist, opts.ref_display_height, true);
        break;
    default:
        w.hv = watson_weight(scale, 1, opts.norm_view_dist, opts.ref_display_height);
        w.d = watson_weight(scale, 2, opts.norm_view_dist, opts.ref_display_height);
        break;
    }
    if (opts.f1s[scale] >= 0)
        w.hv = (float)opts.f1s[scale];
    if (opts.f2s[scale] >= 0)
        w.d = (float)opts.f2s[scale];
    return w;
}

} // namespace adm
