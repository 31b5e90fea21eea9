/*
 * float_adm: the scalar level, one lane: the row kernels of the fused schedule, each
 * column computed by adm_arith.h's expressions themselves.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built without any -m flag, this table runs everywhere (and is the only one where
 * the division is not RCPSS).  It fills the same SimdKernels as the vector levels, so
 * the engine has one schedule; the tests hold every level to a full-frame reference
 * of the same expressions (tests/support/reference_schedule.h).
 */
#include <string.h>

#include "adm_rcp.h"
#include "adm_simd.h"

namespace adm {
namespace {

/* The host's estimate that HostDivide refines, for the tests' comparison. */
void reciprocal(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
#if ADM_HAVE_RCPSS
        out[i] = rcpss(in[i]);
#else
        out[i] = 1.0f / in[i];
#endif
    }
}

void dwt_vertical_float(const float *const rows[4], int n, float *lo, float *hi)
{
    for (int j = 0; j < n; j++) {
        const float s0 = rows[0][j], s1 = rows[1][j], s2 = rows[2][j], s3 = rows[3][j];
        lo[j] = dwt_lo(s0, s1, s2, s3);
        hi[j] = dwt_hi(s0, s1, s2, s3);
    }
}

void dwt_vertical_u8(const uint8_t *const rows[4], int n, float *lo, float *hi)
{
    for (int j = 0; j < n; j++) {
        const float s0 = input_u8(rows[0][j]), s1 = input_u8(rows[1][j]);
        const float s2 = input_u8(rows[2][j]), s3 = input_u8(rows[3][j]);
        lo[j] = dwt_lo(s0, s1, s2, s3);
        hi[j] = dwt_hi(s0, s1, s2, s3);
    }
}

/* Little-endian uint16 sample j of a row (rows need not be aligned). */
float sample_u16(const uint8_t *row, int j, int shift, float scaler)
{
    uint16_t v;
    memcpy(&v, row + 2 * (ptrdiff_t)j, sizeof(v));
    return input_u16((uint16_t)(v >> shift), scaler);
}

void dwt_vertical_u16(const uint8_t *const rows[4], int n, int shift, float scaler, float *lo,
                      float *hi)
{
    for (int j = 0; j < n; j++) {
        const float s0 = sample_u16(rows[0], j, shift, scaler);
        const float s1 = sample_u16(rows[1], j, shift, scaler);
        const float s2 = sample_u16(rows[2], j, shift, scaler);
        const float s3 = sample_u16(rows[3], j, shift, scaler);
        lo[j] = dwt_lo(s0, s1, s2, s3);
        hi[j] = dwt_hi(s0, s1, s2, s3);
    }
}

void dwt_horizontal(const DwtRowArgs &args)
{
    const int *x0 = args.taps[0], *x1 = args.taps[1], *x2 = args.taps[2], *x3 = args.taps[3];
    const float *lo = args.lo, *hi = args.hi;
    for (int j = 0; j < args.w; j++) {
        const float l0 = lo[x0[j]], l1 = lo[x1[j]], l2 = lo[x2[j]], l3 = lo[x3[j]];
        args.a[j] = dwt_lo(l0, l1, l2, l3);
        if (!args.h)
            continue;
        const float h0 = hi[x0[j]], h1 = hi[x1[j]], h2 = hi[x2[j]], h3 = hi[x3[j]];
        args.v[j] = dwt_hi(l0, l1, l2, l3);
        args.h[j] = dwt_lo(h0, h1, h2, h3);
        args.d[j] = dwt_hi(h0, h1, h2, h3);
    }
}

void decouple_csf(const DecoupleRowArgs &args)
{
    const HostDivide divide;
    for (int j = args.left; j < args.right; j++) {
        float o[kNumBands], t[kNumBands];
        for (int b = 0; b < kNumBands; b++) {
            o[b] = args.ref[b][j];
            t[b] = args.dist[b][j];
        }
        const Decoupled dc = decouple(o, t, args.egl, args.cos_1deg_sq, divide);
        for (int b = 0; b < kNumBands; b++) {
            const float signal[2] = {dc.restored[b], dc.additive[b]};
            for (int m = 0; m < 2; m++) {
                const float weighted = csf_weight(args.factor[b], signal[m]);
                args.weighted[m][b][j] = weighted;
                args.filtered[m][b][j] = csf_filtered(weighted);
            }
        }
    }
}

/* A map's column sum k (SumRowArgs::column_sums) of the terms of h, v and d. */
void add_to_column(const SumRowArgs &args, int k, int j, const float terms[kNumBands])
{
    double *sum = &args.column_sums[k][j];
    *sum = map_column_add(*sum, map_coefficient(terms[0], terms[1], terms[2]),
                          args.column_sums_start);
}

void row_sums(const SumRowArgs &args, float sums[kNumRowSums])
{
    float inner[kNumRowSums] = {};
    for (int j = args.left; j < args.right; j++) {
        const int jl = mask_neighbour(j - 1, args.w), jr = mask_neighbour(j + 1, args.w);
        /* thr[m]: the masking threshold that signal m casts on the other one. */
        float thr[2] = {0.0f, 0.0f};
        if (args.masking) {
            for (int m = 0; m < 2; m++) {
                float band_thr[kNumBands];
                for (int b = 0; b < kNumBands; b++) {
                    const float *const *f = args.filtered[m][b];
                    band_thr[b] = threshold_band(f[0][jl], f[0][j], f[0][jr], f[1][jl],
                                                 args.weighted[m][b][j], f[1][jr], f[2][jl],
                                                 f[2][j], f[2][jr]);
                }
                thr[m] = threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
            }
        }
        float terms[2][kNumBands]; /* den, num of h, v, d: a map's */
        for (int b = 0; b < kNumBands; b++) {
            const float den = reference_term(args.factor[b], args.ref[b][j], args.cube, args.p);
            const float num = masked_term(args.weighted[0][b][j], thr[1], args.cube, args.p);
            inner[kDenSum + b] += den;
            inner[kNumSum + b] += num;
            inner[kAimSum + b] += masked_term(args.weighted[1][b][j], thr[0], args.cube, args.p);
            terms[0][b] = den;
            terms[1][b] = num;
        }
        for (int k = 0; args.column_sums[0] && k < 2; k++)
            add_to_column(args, k, j, terms[k]);
    }
    for (int k = 0; k < kNumRowSums; k++)
        sums[k] = inner[k];
}

} // namespace

const SimdKernels *simd_kernels_scalar()
{
    static const SimdKernels kernels = [] {
        SimdKernels k;
        k.reciprocal = reciprocal;
        k.dwt_vertical_float = dwt_vertical_float;
        k.dwt_vertical_u8 = dwt_vertical_u8;
        k.dwt_vertical_u16 = dwt_vertical_u16;
        k.dwt_horizontal = dwt_horizontal;
        k.decouple_csf = decouple_csf;
        k.row_sums = row_sums;
        return k;
    }();
    return &kernels;
}

} // namespace adm
