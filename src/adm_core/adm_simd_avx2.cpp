/*
 * float_adm: the AVX2 kernels (8 lanes); built with -mavx2, never FMA.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_simd.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "adm_simd_avx_transpose.h"
#include "adm_simd_kernels.h"

namespace adm {
namespace {

struct Avx2 {
    typedef __m256 F;
    typedef __m256 M;
    typedef __m256d D;
    static constexpr int N = 8;

    static F load(const float *p) { return _mm256_loadu_ps(p); }
    static void store(float *p, F v) { _mm256_storeu_ps(p, v); }
    static F set1(float x) { return _mm256_set1_ps(x); }
    static F zero() { return _mm256_setzero_ps(); }
    static F add(F a, F b) { return _mm256_add_ps(a, b); }
    static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
    static F div(F a, F b) { return _mm256_div_ps(a, b); }
    static F max(F a, F b) { return _mm256_max_ps(a, b); }
    static F min(F a, F b) { return _mm256_min_ps(a, b); }
    static F abs(F a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
    /* Ordered, non-signalling: false on NaN, as the scalar comparisons. */
    static M ge(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
    static M gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static M mask_and(M a, M b) { return _mm256_and_ps(a, b); }
    static bool any(M m) { return _mm256_movemask_ps(m) != 0; }
    static F select(M m, F yes, F no) { return _mm256_blendv_ps(no, yes, m); }
    static F rcp(F a) { return _mm256_rcp_ps(a); }

    static void widen(F v, D &lo, D &hi)
    {
        lo = _mm256_cvtps_pd(_mm256_castps256_ps128(v));
        hi = _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
    }
    static F narrow(D lo, D hi)
    {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)),
                                    _mm256_cvtpd_ps(hi), 1);
    }
    static D dset1(double x) { return _mm256_set1_pd(x); }
    static D dload(const double *p) { return _mm256_loadu_pd(p); }
    static void dstore(double *p, D v) { _mm256_storeu_pd(p, v); }
    static D dadd(D a, D b) { return _mm256_add_pd(a, b); }
    static D dmul(D a, D b) { return _mm256_mul_pd(a, b); }
    static D dmin(D a, D b) { return _mm256_min_pd(a, b); }
    static D dmax(D a, D b) { return _mm256_max_pd(a, b); }

    static F load_u8(const uint8_t *p)
    {
        return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
    }
    static F load_u16(const uint8_t *p, int shift)
    {
        __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
        return _mm256_cvtepi32_ps(_mm256_srl_epi32(v, _mm_cvtsi32_si128(shift)));
    }
    /* p[0], p[2], ..., p[14]: in-lane shuffle, then the 64-bit halves in order. */
    static F even(const float *p)
    {
        F s = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), _MM_SHUFFLE(2, 0, 2, 0));
        return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)));
    }
    static F odd(const float *p)
    {
        F s = _mm256_shuffle_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8), _MM_SHUFFLE(3, 1, 3, 1));
        return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)));
    }

    typedef __m256 Sums8;
    static Sums8 sums8_zero() { return _mm256_setzero_ps(); }
    static Sums8 sums8_load(const float *p) { return _mm256_loadu_ps(p); }
    static void sums8_store(const Sums8 &a, float *p) { _mm256_storeu_ps(p, a); }
    static Sums8 sums8_add_columns(Sums8 a, const F t[8])
    {
        __m256 columns[8] = {t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]};
        transpose8x8(columns);
#pragma GCC unroll 8
        for (int k = 0; k < N; k++)
            a = _mm256_add_ps(a, columns[k]);
        return a;
    }
};

} // namespace

const SimdKernels *simd_kernels_avx2()
{
    static const SimdKernels kernels = simd::make_kernels<Avx2>();
    return &kernels;
}

} // namespace adm
#endif
