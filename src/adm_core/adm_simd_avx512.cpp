/*
 * float_adm: the AVX-512 kernels (16 lanes); built with -mavx512f, never FMA.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reciprocal is RCPPS on the two 256-bit halves: RCP14PS is a different,
 * more precise estimate, and libvmaf's scores follow RCPSS.
 */
#include "adm_simd.h"

#if defined(__x86_64__) || defined(__i386__)
/* GCC 12's AVX-512 intrinsics pass _mm512_undefined_*() and trip this warning (GCC bug 105593). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "adm_simd_avx_transpose.h"
#include "adm_simd_kernels.h"

namespace adm {
namespace {

struct Avx512 {
    typedef __m512 F;
    typedef __mmask16 M;
    typedef __m512d D;
    static constexpr int N = 16;

    static F load(const float *p) { return _mm512_loadu_ps(p); }
    static void store(float *p, F v) { _mm512_storeu_ps(p, v); }
    static F set1(float x) { return _mm512_set1_ps(x); }
    static F zero() { return _mm512_setzero_ps(); }
    static F add(F a, F b) { return _mm512_add_ps(a, b); }
    static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
    static F div(F a, F b) { return _mm512_div_ps(a, b); }
    static F max(F a, F b) { return _mm512_max_ps(a, b); }
    static F min(F a, F b) { return _mm512_min_ps(a, b); }
    static F abs(F a)
    {
        return _mm512_castsi512_ps(
            _mm512_and_epi32(_mm512_castps_si512(a), _mm512_set1_epi32(0x7fffffff)));
    }
    static M ge(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
    static M gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static M mask_and(M a, M b) { return _mm512_kand(a, b); }
    static bool any(M m) { return m != 0; }
    static F select(M m, F yes, F no) { return _mm512_mask_blend_ps(m, no, yes); }
    static F rcp(F a)
    {
        return join(_mm256_rcp_ps(_mm512_castps512_ps256(a)), _mm256_rcp_ps(upper(a)));
    }

    static void widen(F v, D &lo, D &hi)
    {
        lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
        hi = _mm512_cvtps_pd(upper(v));
    }
    static F narrow(D lo, D hi) { return join(_mm512_cvtpd_ps(lo), _mm512_cvtpd_ps(hi)); }
    static D dset1(double x) { return _mm512_set1_pd(x); }
    static D dload(const double *p) { return _mm512_loadu_pd(p); }
    static void dstore(double *p, D v) { _mm512_storeu_pd(p, v); }
    static D dadd(D a, D b) { return _mm512_add_pd(a, b); }
    static D dmul(D a, D b) { return _mm512_mul_pd(a, b); }
    static D dmin(D a, D b) { return _mm512_min_pd(a, b); }
    static D dmax(D a, D b) { return _mm512_max_pd(a, b); }

    static F load_u8(const uint8_t *p)
    {
        return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)));
    }
    static F load_u16(const uint8_t *p, int shift)
    {
        __m512i v = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
        return _mm512_cvtepi32_ps(_mm512_srl_epi32(v, _mm_cvtsi32_si128(shift)));
    }
    static F even(const float *p) { return pick(p, 0); }
    static F odd(const float *p) { return pick(p, 1); }

    typedef __m256 Sums8;
    static Sums8 sums8_zero() { return _mm256_setzero_ps(); }
    static Sums8 sums8_load(const float *p) { return _mm256_loadu_ps(p); }
    static void sums8_store(const Sums8 &a, float *p) { _mm256_storeu_ps(p, a); }
    /* Columns 0..7 from the low halves, then 8..15 from the high halves. */
    static Sums8 sums8_add_columns(Sums8 a, const F t[8])
    {
#pragma GCC unroll 2
        for (int half = 0; half < 2; half++) {
            __m256 columns[8];
#pragma GCC unroll 8
            for (int s = 0; s < 8; s++)
                columns[s] = half ? upper(t[s]) : _mm512_castps512_ps256(t[s]);
            transpose8x8(columns);
#pragma GCC unroll 8
            for (int k = 0; k < 8; k++)
                a = _mm256_add_ps(a, columns[k]);
        }
        return a;
    }

private:
    static __m256 upper(F v) { return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)); }
    static F join(__m256 lo, __m256 hi)
    {
        return _mm512_castpd_ps(
            _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
    }
    /* p[first], p[first + 2], ..., p[first + 30] */
    static F pick(const float *p, int first)
    {
        const __m512i index = _mm512_add_epi32(
            _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0),
            _mm512_set1_epi32(first));
        return _mm512_permutex2var_ps(_mm512_loadu_ps(p), index, _mm512_loadu_ps(p + 16));
    }
};

} // namespace

const SimdKernels *simd_kernels_avx512()
{
    static const SimdKernels kernels = simd::make_kernels<Avx512>();
    return &kernels;
}

} // namespace adm
#endif
