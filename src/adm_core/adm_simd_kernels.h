/*
 * float_adm: the row kernels, written once over a vector type V.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included only by the per-level translation units (adm_simd_sse2.cpp, ...), each
 * with V in its own anonymous namespace: every function here is a template on V,
 * so no symbol built with one level's -m flags can stand in for another's.
 *
 * Each expression mirrors its scalar twin in adm_arith.h operation for operation
 * (named in the comments); lanes are columns.  Where the scalar code selects,
 * MAXPS/MINPS keep its NaN and signed-zero behaviour: max(a, b) = a > b ? a : b,
 * min(a, b) = a < b ? a : b.  Tails and edge columns go through small zero-padded
 * buffers, so the same vector code computes every column.  `#pragma GCC unroll`
 * on the loops over bands and signals keeps their vectors in registers (-O2 leaves
 * them rolled, over arrays in memory); where it is missing it measured slower.
 *
 * V provides: F (float vector), M (its mask), D (double vector of N/2 lanes), N,
 * load, store, set1, zero, add, sub, mul, div, max, min, abs, ge, gt, lt, mask_and,
 * any(m), select(m, yes, no), rcp, widen(F, D &lo, D &hi), narrow(D lo, D hi), dset1, dadd,
 * dmul, dmin, dmax, load_u8, load_u16(p, shift), even(p), odd(p), and Sums8: eight
 * fp32 sums in lanes, with sums8_zero, sums8_load/store(float[8]) and
 * sums8_add_columns(acc, t): for k = 0..N-1 in order, lane s of acc adds t[s] lane k.
 */
#ifndef ADM_SIMD_KERNELS_H
#define ADM_SIMD_KERNELS_H

#include <math.h>
#include <string.h>

#include "adm_arith.h"
#include "adm_simd.h"

namespace adm {
namespace simd {

/* ---- Per-sample arithmetic (adm_arith.h, lane by lane) ---- */

/* dwt_lo / dwt_hi: an fp32 accumulator from 0, taps in order. */
template <class V>
typename V::F dwt_taps(float k0, float k1, float k2, float k3, typename V::F s0,
                       typename V::F s1, typename V::F s2, typename V::F s3)
{
    typename V::F acc = V::zero();
    acc = V::add(acc, V::mul(V::set1(k0), s0));
    acc = V::add(acc, V::mul(V::set1(k1), s1));
    acc = V::add(acc, V::mul(V::set1(k2), s2));
    acc = V::add(acc, V::mul(V::set1(k3), s3));
    return acc;
}

template <class V>
typename V::F dwt_lo(typename V::F s0, typename V::F s1, typename V::F s2, typename V::F s3)
{
    return dwt_taps<V>(kDwtLo0, kDwtLo1, kDwtLo2, kDwtLo3, s0, s1, s2, s3);
}

template <class V>
typename V::F dwt_hi(typename V::F s0, typename V::F s1, typename V::F s2, typename V::F s3)
{
    return dwt_taps<V>(kDwtHi0, kDwtHi1, kDwtHi2, kDwtHi3, s0, s1, s2, s3);
}

/* (float)op((double)x) for each lane: the fp64 steps stay fp64. */
template <class V, class Op> typename V::F in_double(typename V::F x, Op op)
{
    typename V::D lo, hi;
    V::widen(x, lo, hi);
    return V::narrow(op(lo), op(hi));
}

template <class V, class Op> typename V::F in_double(typename V::F x, typename V::F y, Op op)
{
    typename V::D xlo, xhi, ylo, yhi;
    V::widen(x, xlo, xhi);
    V::widen(y, ylo, yhi);
    return V::narrow(op(xlo, ylo), op(xhi, yhi));
}

/* limit_gain: g = rst * egl in fp64, then the smaller (or larger) of g and t. */
template <class V>
typename V::F limit_gain(typename V::F rst, typename V::F t, typename V::D egl, typename V::M angle)
{
    const typename V::F zero = V::zero();
    typename V::M raise = V::mask_and(angle, V::gt(rst, zero));
    if (V::any(raise)) /* lanes outside the mask keep rst whatever the fp64 step gives */
        rst = V::select(raise, in_double<V>(rst, t, [egl](typename V::D r, typename V::D td) {
                            return V::dmin(V::dmul(r, egl), td);
                        }), rst);
    typename V::M lower = V::mask_and(angle, V::lt(rst, zero));
    if (V::any(lower))
        rst = V::select(lower, in_double<V>(rst, t, [egl](typename V::D r, typename V::D td) {
                            return V::dmax(V::dmul(r, egl), td);
                        }), rst);
    return rst;
}

/* csf_filtered: kOneBy30 * |weighted| in fp64. */
template <class V> typename V::F csf_filtered(typename V::F weighted)
{
    return in_double<V>(V::abs(weighted), [](typename V::D x) {
        return V::dmul(V::dset1(kOneBy30), x);
    });
}

/* norm_term: (x*x)*x, or powf per lane. */
template <class V> typename V::F norm_term(typename V::F x, bool cube, float p)
{
    if (cube)
        return V::mul(V::mul(x, x), x);
    alignas(64) float lanes[V::N];
    V::store(lanes, x);
    for (int k = 0; k < V::N; k++)
        lanes[k] = powf(lanes[k], p);
    return V::load(lanes);
}

/* masked_term: |weighted| - thr, floored at 0, to the p. */
template <class V>
typename V::F masked_term(typename V::F weighted, typename V::F thr, bool cube, float p)
{
    typename V::F x = V::sub(V::abs(weighted), thr);
    return norm_term<V>(V::max(V::zero(), x), cube, p);
}

/* ---- Vertical DWT pass: columns [0, n) of four source rows ---- */

/* load(r, j, count) returns samples j.. of source row r; count < N at the tail. */
template <class V, class Load> void dwt_vertical(Load load, int n, float *lo, float *hi)
{
    for (int j = 0; j < n; j += V::N) {
        const int count = n - j < V::N ? n - j : V::N;
        typename V::F s0 = load(0, j, count), s1 = load(1, j, count);
        typename V::F s2 = load(2, j, count), s3 = load(3, j, count);
        typename V::F l = dwt_lo<V>(s0, s1, s2, s3), h = dwt_hi<V>(s0, s1, s2, s3);
        if (count == V::N) {
            V::store(lo + j, l);
            V::store(hi + j, h);
        } else {
            alignas(64) float lbuf[V::N], hbuf[V::N];
            V::store(lbuf, l);
            V::store(hbuf, h);
            memcpy(lo + j, lbuf, count * sizeof(float));
            memcpy(hi + j, hbuf, count * sizeof(float));
        }
    }
}

template <class V> void dwt_vertical_float(const float *const rows[4], int n, float *lo, float *hi)
{
    dwt_vertical<V>(
        [rows](int r, int j, int count) {
            if (count == V::N)
                return V::load(rows[r] + j);
            alignas(64) float buf[V::N] = {};
            memcpy(buf, rows[r] + j, count * sizeof(float));
            return V::load(buf);
        },
        n, lo, hi);
}

/* input_u8: (float)v + -128.0f. */
template <class V> void dwt_vertical_u8(const uint8_t *const rows[4], int n, float *lo, float *hi)
{
    const typename V::F offset = V::set1(-128.0f);
    dwt_vertical<V>(
        [rows, offset](int r, int j, int count) {
            if (count == V::N)
                return V::add(V::load_u8(rows[r] + j), offset);
            uint8_t buf[V::N] = {};
            memcpy(buf, rows[r] + j, count);
            return V::add(V::load_u8(buf), offset);
        },
        n, lo, hi);
}

/* input_u16: (float)(v >> shift) / scaler + -128.0f. */
template <class V>
void dwt_vertical_u16(const uint8_t *const rows[4], int n, int shift, float scaler, float *lo,
                      float *hi)
{
    const typename V::F offset = V::set1(-128.0f), divisor = V::set1(scaler);
    dwt_vertical<V>(
        [rows, offset, divisor, shift](int r, int j, int count) {
            typename V::F v;
            if (count == V::N) {
                v = V::load_u16(rows[r] + 2 * j, shift);
            } else {
                uint8_t buf[2 * V::N] = {};
                memcpy(buf, rows[r] + 2 * j, 2 * count);
                v = V::load_u16(buf, shift);
            }
            return V::add(V::div(v, divisor), offset);
        },
        n, lo, hi);
}

/* ---- Horizontal DWT pass ---- */

template <class V> void dwt_horizontal(const DwtRowArgs &args)
{
    constexpr int N = V::N;
    typedef typename V::F F;
    const bool details = args.h != nullptr;
    /* Inside, output j reads 2j-1 .. 2j+2: even and odd lanes of three loads. */
    const int fast_last = (args.in_w - 3) / 2; /* last j with 2j+2 <= in_w-1 */
    for (int j = 0; j < args.w; j += N) {
        const int count = args.w - j < N ? args.w - j : N;
        F l[4], h[4];
        if (j >= 1 && j + N - 1 <= fast_last) {
            const float *lo = args.lo + 2 * j, *hi = args.hi + 2 * j;
            l[0] = V::even(lo - 1), l[1] = V::even(lo), l[2] = V::odd(lo), l[3] = V::even(lo + 2);
            h[0] = V::even(hi - 1), h[1] = V::even(hi), h[2] = V::odd(hi), h[3] = V::even(hi + 2);
        } else {
            for (int t = 0; t < 4; t++) {
                alignas(64) float lbuf[N] = {}, hbuf[N] = {};
                for (int k = 0; k < count; k++) {
                    lbuf[k] = args.lo[args.taps[t][j + k]];
                    hbuf[k] = args.hi[args.taps[t][j + k]];
                }
                l[t] = V::load(lbuf);
                h[t] = V::load(hbuf);
            }
        }
        auto put = [j, count](float *band, F v) {
            if (count == N) {
                V::store(band + j, v);
            } else {
                alignas(64) float buf[N];
                V::store(buf, v);
                memcpy(band + j, buf, count * sizeof(float));
            }
        };
        put(args.a, dwt_lo<V>(l[0], l[1], l[2], l[3]));
        if (details) {
            put(args.v, dwt_hi<V>(l[0], l[1], l[2], l[3]));
            put(args.h, dwt_lo<V>(h[0], h[1], h[2], h[3]));
            put(args.d, dwt_hi<V>(h[0], h[1], h[2], h[3]));
        }
    }
}

/* ---- Decouple and CSF ---- */

template <class V> void decouple_csf(const DecoupleRowArgs &args)
{
    constexpr int N = V::N;
    typedef typename V::F F;
    const F zero = V::zero(), one = V::set1(1.0f), eps = V::set1((float)1e-30);
    const F cos_sq = V::set1(args.cos_1deg_sq);
    const typename V::D egl = V::dset1(args.egl);
    for (int j = args.left; j < args.right; j += N) {
        const int count = args.right - j < N ? args.right - j : N;
        F o[3], t[3];
#pragma GCC unroll 3
        for (int b = 0; b < 3; b++) {
            if (count == N) {
                o[b] = V::load(args.ref[b] + j);
                t[b] = V::load(args.dist[b] + j);
            } else {
                alignas(64) float obuf[N] = {}, tbuf[N] = {};
                memcpy(obuf, args.ref[b] + j, count * sizeof(float));
                memcpy(tbuf, args.dist[b] + j, count * sizeof(float));
                o[b] = V::load(obuf);
                t[b] = V::load(tbuf);
            }
        }
        /* decouple(): the angle test on h and v. */
        F ot_dp = V::add(V::mul(o[0], t[0]), V::mul(o[1], t[1]));
        F o_mag_sq = V::add(V::mul(o[0], o[0]), V::mul(o[1], o[1]));
        F t_mag_sq = V::add(V::mul(t[0], t[0]), V::mul(t[1], t[1]));
        typename V::M angle = V::mask_and(
            V::ge(ot_dp, zero),
            V::ge(V::mul(ot_dp, ot_dp), V::mul(V::mul(cos_sq, o_mag_sq), t_mag_sq)));

        F out[2][3][2]; /* [restored, additive][band][weighted, filtered] */
#pragma GCC unroll 3
        for (int b = 0; b < 3; b++) {
            /* HostDivide: t * rcp_refine(o + eps, rcp(o + eps)), then clamp01. */
            F den = V::add(o[b], eps);
            F xi = V::rcp(den);
            F inv = V::add(xi, V::mul(xi, V::sub(one, V::mul(den, xi))));
            F k = V::min(one, V::max(zero, V::mul(t[b], inv)));
            F rst = limit_gain<V>(V::mul(k, o[b]), t[b], egl, angle);
            F add = V::sub(t[b], rst);
            const F factor = V::set1(args.factor[b]);
            F wr = V::mul(factor, rst), wa = V::mul(factor, add);
            out[0][b][0] = wr;
            out[0][b][1] = csf_filtered<V>(wr);
            out[1][b][0] = wa;
            out[1][b][1] = csf_filtered<V>(wa);
        }
#pragma GCC unroll 2
        for (int m = 0; m < 2; m++) {
#pragma GCC unroll 3
            for (int b = 0; b < 3; b++) {
                float *dst[2] = {args.weighted[m][b] + j, args.filtered[m][b] + j};
#pragma GCC unroll 2
                for (int f = 0; f < 2; f++) {
                    if (count == N) {
                        V::store(dst[f], out[m][b][f]);
                    } else {
                        alignas(64) float buf[N];
                        V::store(buf, out[m][b][f]);
                        memcpy(dst[f], buf, count * sizeof(float));
                    }
                }
            }
        }
    }
}

/* ---- Masking thresholds, terms and the row's inner sums ---- */

template <class V> void row_sums(const SumRowArgs &args, float sums[kNumRowSums])
{
    constexpr int N = V::N;
    typedef typename V::F F;
    const F zero = V::zero();
    /* Sums 0..7 in the lanes of one accumulator (lane s adds term s column by column), sum 8
     * on its own; a last partial chunk continues them one by one. */
    typename V::Sums8 sums8 = V::sums8_zero();
    float acc[kNumRowSums] = {};
    alignas(64) float terms[kNumRowSums][N];
    for (int j = args.left; j < args.right; j += N) {
        const int count = args.right - j < N ? args.right - j : N;
        /* Inside, the neighbours j-1 and j+1 are plain loads; at the edges they mirror. */
        const bool inside = j >= 1 && j + N <= args.w - 1 && count == N;
        auto column = [&](const float *row, int offset) {
            if (inside)
                return V::load(row + j + offset);
            alignas(64) float buf[N] = {};
            for (int k = 0; k < count; k++)
                buf[k] = row[mask_neighbour(j + k + offset, args.w)];
            return V::load(buf);
        };
        /* thr[m]: the threshold that signal m casts on the other one (threshold_band, _sum). */
        F thr[2] = {zero, zero};
        if (args.masking) {
#pragma GCC unroll 2
            for (int m = 0; m < 2; m++) {
                F band[3];
#pragma GCC unroll 3
                for (int b = 0; b < 3; b++) {
                    const float *const *f = args.filtered[m][b];
                    F sum = zero;
                    sum = V::add(sum, column(f[0], -1));
                    sum = V::add(sum, column(f[0], 0));
                    sum = V::add(sum, column(f[0], 1));
                    sum = V::add(sum, column(f[1], -1));
                    F centre = V::abs(column(args.weighted[m][b], 0));
                    sum = in_double<V>(sum, centre, [](typename V::D s, typename V::D c) {
                        return V::dadd(s, V::dmul(V::dset1(kOneBy15), c));
                    });
                    sum = V::add(sum, column(f[1], 1));
                    sum = V::add(sum, column(f[2], -1));
                    sum = V::add(sum, column(f[2], 0));
                    sum = V::add(sum, column(f[2], 1));
                    band[b] = sum;
                }
                F total = zero;
                total = V::add(total, band[0]);
                total = V::add(total, band[1]);
                total = V::add(total, band[2]);
                thr[m] = total;
            }
        }
        F term[kNumRowSums];
        for (int b = 0; b < 3; b++) {
            /* reference_term, then masked_term of each signal under the other's threshold. */
            F ref = V::abs(V::mul(V::set1(args.factor[b]), column(args.ref[b], 0)));
            term[b] = norm_term<V>(ref, args.cube, args.p);
            term[3 + b] = masked_term<V>(column(args.weighted[0][b], 0), thr[1], args.cube, args.p);
            term[6 + b] = masked_term<V>(column(args.weighted[1][b], 0), thr[0], args.cube, args.p);
        }
        if (args.column_sums[0] && count == N) {
            /* A map's column sums: map_coefficient and map_column_add, lane by lane. */
            for (int k = 0; k < 2; k++) {
                typename V::D lo, hi, lo1, hi1, lo2, hi2;
                V::widen(term[k * 3], lo, hi);
                V::widen(term[k * 3 + 1], lo1, hi1);
                V::widen(term[k * 3 + 2], lo2, hi2);
                lo = V::dadd(V::dadd(lo, lo1), lo2);
                hi = V::dadd(V::dadd(hi, hi1), hi2);
                double *sum = args.column_sums[k] + j;
                if (!args.column_sums_start) {
                    lo = V::dadd(V::dload(sum), lo);
                    hi = V::dadd(V::dload(sum + N / 2), hi);
                }
                V::dstore(sum, lo);
                V::dstore(sum + N / 2, hi);
            }
        }
        /* Columns in order, each sum on its own. */
        if (count == N) {
            sums8 = V::sums8_add_columns(sums8, term);
            V::store(terms[8], term[8]);
            for (int k = 0; k < N; k++)
                acc[8] += terms[8][k];
            continue;
        }
        V::sums8_store(sums8, acc); /* the last chunk of the row */
        for (int s = 0; s < kNumRowSums; s++)
            V::store(terms[s], term[s]);
        for (int m = 0; args.column_sums[0] && m < 2; m++) {
            for (int k = 0; k < count; k++) {
                double *sum = &args.column_sums[m][j + k];
                *sum = map_column_add(
                    *sum,
                    map_coefficient(terms[m * 3][k], terms[m * 3 + 1][k], terms[m * 3 + 2][k]),
                    args.column_sums_start);
            }
        }
        for (int k = 0; k < count; k++)
            for (int s = 0; s < kNumRowSums; s++)
                acc[s] += terms[s][k];
        sums8 = V::sums8_load(acc);
    }
    V::sums8_store(sums8, acc);
    for (int k = 0; k < kNumRowSums; k++)
        sums[k] = acc[k];
}

/* The estimate itself, for the tests. */
template <class V> void reciprocal(const float *in, float *out, size_t n)
{
    size_t i = 0;
    for (; i + V::N <= n; i += V::N)
        V::store(out + i, V::rcp(V::load(in + i)));
    if (i < n) {
        alignas(64) float buf[V::N] = {};
        memcpy(buf, in + i, (n - i) * sizeof(float));
        V::store(buf, V::rcp(V::load(buf)));
        memcpy(out + i, buf, (n - i) * sizeof(float));
    }
}

template <class V> SimdKernels make_kernels()
{
    SimdKernels k;
    k.reciprocal = reciprocal<V>;
    k.dwt_vertical_float = dwt_vertical_float<V>;
    k.dwt_vertical_u8 = dwt_vertical_u8<V>;
    k.dwt_vertical_u16 = dwt_vertical_u16<V>;
    k.dwt_horizontal = dwt_horizontal<V>;
    k.decouple_csf = decouple_csf<V>;
    k.row_sums = row_sums<V>;
    return k;
}

} // namespace simd
} // namespace adm

#endif /* ADM_SIMD_KERNELS_H */
