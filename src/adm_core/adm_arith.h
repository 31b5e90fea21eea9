/*
 * float_adm: the per-sample arithmetic, shared by the C++ core and the CUDA kernels.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every expression here is libvmaf's, operation for operation: fp32 where it is
 * fp32, fp64 where a double literal or option promotes it (see
 * docs/arithmetic.md).  Translation units that include this header must be built
 * without FMA contraction (-ffp-contract=off, nvcc --fmad=false); the scheduling
 * of these functions over a frame is the caller's, the values are fixed here.
 */
#ifndef ADM_ARITH_H
#define ADM_ARITH_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define ADM_HD __host__ __device__ __forceinline__
#else
#define ADM_HD inline
#endif

namespace adm {

/* ---- Input: luma to float, offset -128 (libvmaf picture_copy) ---- */

ADM_HD float input_u8(uint8_t v) { return (float)v + -128.0f; }

/* 10/12/16 bits divide by 4, 16, 256 as libvmaf; 9 and 14 bits by 2 and 64 (ours). */
ADM_HD float input_u16(uint16_t v, float scaler) { return (float)v / scaler + -128.0f; }

/* input_u16's scaler for a bit depth above 8: 2^(depth-8). */
ADM_HD constexpr float input_scaler(int depth)
{
    return depth > 8 ? (float)(1 << (depth - 8)) : 1.0f;
}

/* ---- DWT: db2 taps, fp32 accumulator starting at 0 ---- */

/* Double literals rounded to fp32, as upstream declares them. */
constexpr float kDwtLo0 = (float)0.482962913144690, kDwtLo1 = (float)0.836516303737469;
constexpr float kDwtLo2 = (float)0.224143868041857, kDwtLo3 = (float)-0.129409522550921;
constexpr float kDwtHi0 = (float)-0.129409522550921, kDwtHi1 = (float)-0.224143868041857;
constexpr float kDwtHi2 = (float)0.836516303737469, kDwtHi3 = (float)-0.482962913144690;

ADM_HD float dwt_lo(float s0, float s1, float s2, float s3)
{
    float acc = (float)0.0;
    acc += kDwtLo0 * s0;
    acc += kDwtLo1 * s1;
    acc += kDwtLo2 * s2;
    acc += kDwtLo3 * s3;
    return acc;
}

ADM_HD float dwt_hi(float s0, float s1, float s2, float s3)
{
    float acc = (float)0.0;
    acc += kDwtHi0 * s0;
    acc += kDwtHi1 * s1;
    acc += kDwtHi2 * s2;
    acc += kDwtHi3 * s3;
    return acc;
}

/* A source position n of a DWT: -n below 0, 2*size-n-1 from size on. */
ADM_HD int dwt_mirror(int n, int size)
{
    if (n < 0)
        return -n;
    return n >= size ? 2 * size - n - 1 : n;
}

/* Source index of tap t (0..3) for output i: 2i-1+t, -1 mirrored to 1, n >= size to 2*size-n-1. */
ADM_HD int dwt_source_index(int i, int tap, int size) { return dwt_mirror(2 * i - 1 + tap, size); }

/*
 * Masking reads the 3x3 neighbourhood of a sample: index k (i-1 or i+1 of a row or
 * column) of a band of n, where -1 mirrors to 1 and n reads n-1.
 */
ADM_HD int mask_neighbour(int k, int n) { return k < 0 ? 1 : (k >= n ? n - 1 : k); }

/* ---- Regions of a band (w x h at one scale) ---- */

struct Region {
    int left, top, right, bottom;
};

/* Decouple and CSF: one tap wider than the sums; right/bottom use the unclamped left/top. */
ADM_HD Region decouple_region(int w, int h)
{
    int left = (int)(w * 0.1 - 0.5 - 1);
    int top = (int)(h * 0.1 - 0.5 - 1);
    Region r;
    r.right = w - left + 2;
    r.bottom = h - top + 2;
    r.left = left < 0 ? 0 : left;
    r.top = top < 0 ? 0 : top;
    if (r.right > w)
        r.right = w;
    if (r.bottom > h)
        r.bottom = h;
    return r;
}

/* Denominator and masking sums. */
ADM_HD Region sum_region(int w, int h)
{
    Region r;
    r.left = (int)(w * 0.1 - 0.5);
    r.top = (int)(h * 0.1 - 0.5);
    r.right = w - r.left;
    r.bottom = h - r.top;
    return r;
}

/* ---- Reciprocal: the estimate (RCPSS or a model of it) plus one Newton step ---- */

ADM_HD float rcp_refine(float x, float xi) { return xi + xi * (1.0f - x * xi); }

/* ---- Decouple one sample of the h, v, d bands ---- */

struct Decoupled {
    float restored[3];  /* h, v, d */
    float additive[3];
};

ADM_HD float clamp01(float k) { return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k); }

/* The enhancement gain limit: egl is a double, so product and comparison are fp64. */
ADM_HD float limit_gain(float rst, float t, double egl, bool angle)
{
    if (angle && rst > 0.0f) {
        double g = (double)rst * egl;
        rst = (float)(g < (double)t ? g : (double)t);
    }
    if (angle && rst < 0.0f) {
        double g = (double)rst * egl;
        rst = (float)(g > (double)t ? g : (double)t);
    }
    return rst;
}

/*
 * o = reference (h, v, d), t = distorted.  divide(n, d) is libvmaf's DIVS: n times the
 * refined reciprocal of d where the processor has RCPSS, n / d elsewhere.
 */
template <class Divide>
ADM_HD Decoupled decouple(const float o[3], const float t[3], double egl, float cos_1deg_sq,
                          Divide divide)
{
    const float eps = (float)1e-30; /* a double literal stored to fp32 */
    /* Left to right: (cos^2 * |o|^2) * |t|^2.  Only h and v enter the angle. */
    float ot_dp = o[0] * t[0] + o[1] * t[1];
    float o_mag_sq = o[0] * o[0] + o[1] * o[1];
    float t_mag_sq = t[0] * t[0] + t[1] * t[1];
    bool angle = ot_dp >= 0.0f && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;

    Decoupled out;
    for (int b = 0; b < 3; b++) {
        float k = clamp01(divide(t[b], o[b] + eps));
        float rst = limit_gain(k * o[b], t[b], egl, angle);
        out.restored[b] = rst;
        out.additive[b] = t[b] - rst;
    }
    return out;
}

/* ---- CSF: weighted sample and its filtered magnitude (1/30 is a double literal) ---- */

constexpr double kOneBy30 = 0.0333333351;
constexpr double kOneBy15 = 0.0666666701;

ADM_HD float csf_weight(float factor, float src) { return factor * src; }
/* |weighted| in fp64: the operand of both the 1/30 and the 1/15 product. */
ADM_HD double csf_magnitude(float weighted) { return (double)fabsf(weighted); }
ADM_HD float csf_filtered_of(double magnitude) { return (float)(kOneBy30 * magnitude); }
ADM_HD float csf_filtered(float weighted) { return csf_filtered_of(csf_magnitude(weighted)); }

/*
 * Masking threshold of one band at a sample: the 3x3 filtered neighbourhood in row
 * order with the centre replaced by 1/15 of the weighted magnitude (added in fp64).
 * In three steps, one per row, so that a caller walking down a column can add each
 * row's part as the row arrives: the sum from 0 of the upper row, the centre row
 * continued from it, then the lower row.
 */
ADM_HD float threshold_upper_row(float f00, float f01, float f02)
{
    float sum = (float)0.0;
    sum += f00;
    sum += f01;
    sum += f02;
    return sum;
}

ADM_HD float threshold_centre_row(float upper_rows, float f10, double centre_magnitude, float f12)
{
    float sum = upper_rows;
    sum += f10;
    sum = (float)((double)sum + kOneBy15 * centre_magnitude);
    sum += f12;
    return sum;
}

ADM_HD float threshold_lower_row(float upper_rows, float f20, float f21, float f22)
{
    float sum = upper_rows;
    sum += f20;
    sum += f21;
    sum += f22;
    return sum;
}

ADM_HD float threshold_band(float f00, float f01, float f02, float f10, float centre_weighted,
                            float f12, float f20, float f21, float f22)
{
    return threshold_lower_row(threshold_centre_row(threshold_upper_row(f00, f01, f02), f10,
                                                    csf_magnitude(centre_weighted), f12),
                               f20, f21, f22);
}

ADM_HD float threshold_sum(float band_h, float band_v, float band_d)
{
    float thr = (float)0.0;
    thr += band_h;
    thr += band_v;
    thr += band_d;
    return thr;
}

/* ---- Terms of the p-norm sums ---- */

/* The power of the terms: this processor's powf (a device passes its model of the host's). */
struct LibmPow {
    ADM_HD float operator()(float x, float p) const { return powf(x, p); }
};

/* |x|^p: the cube as (x*x)*x when p is exactly 3, pow otherwise (p_float = (float)p). */
template <class Pow = LibmPow>
ADM_HD float norm_term(float x, bool cube, float p_float, Pow pow = Pow())
{
    return cube ? x * x * x : pow(x, p_float);
}

/* Masked term: x = |weighted| - thr, floored at 0. */
template <class Pow = LibmPow>
ADM_HD float masked_term(float weighted, float thr, bool cube, float p_float, Pow pow = Pow())
{
    float x = fabsf(weighted) - thr;
    x = x < 0.0f ? 0.0f : x;
    return norm_term(x, cube, p_float, pow);
}

/* Denominator term: |factor * ref|^p. */
template <class Pow = LibmPow>
ADM_HD float reference_term(float factor, float ref, bool cube, float p_float, Pow pow = Pow())
{
    return norm_term(fabsf(factor * ref), cube, p_float, pow);
}

/* ---- Maps (docs/maps.md): a coefficient's terms in fp64 ---- */

/* The h, v and d terms of one coefficient (denominator or DLM numerator), widened. */
ADM_HD double map_coefficient(float h, float v, float d)
{
    return (double)h + (double)v + (double)d;
}

/* A block's column sum down its rows: the first row starts it. */
ADM_HD double map_column_add(double sum, double coefficient, bool first_row)
{
    return first_row ? coefficient : sum + coefficient;
}

} // namespace adm

#endif /* ADM_ARITH_H */
