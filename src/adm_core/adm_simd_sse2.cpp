/*
 * float_adm: the SSE2 kernels (4 lanes).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_simd.h"

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>

#include "adm_simd_kernels.h"

namespace adm {
namespace {

struct Sse2 {
    typedef __m128 F;
    typedef __m128 M;
    typedef __m128d D;
    static constexpr int N = 4;

    static F load(const float *p) { return _mm_loadu_ps(p); }
    static void store(float *p, F v) { _mm_storeu_ps(p, v); }
    static F set1(float x) { return _mm_set1_ps(x); }
    static F zero() { return _mm_setzero_ps(); }
    static F add(F a, F b) { return _mm_add_ps(a, b); }
    static F sub(F a, F b) { return _mm_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm_mul_ps(a, b); }
    static F div(F a, F b) { return _mm_div_ps(a, b); }
    static F max(F a, F b) { return _mm_max_ps(a, b); }
    static F min(F a, F b) { return _mm_min_ps(a, b); }
    static F abs(F a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
    static M ge(F a, F b) { return _mm_cmpge_ps(a, b); }
    static M gt(F a, F b) { return _mm_cmpgt_ps(a, b); }
    static M lt(F a, F b) { return _mm_cmplt_ps(a, b); }
    static M mask_and(M a, M b) { return _mm_and_ps(a, b); }
    static bool any(M m) { return _mm_movemask_ps(m) != 0; }
    static F select(M m, F yes, F no) { return _mm_or_ps(_mm_and_ps(m, yes), _mm_andnot_ps(m, no)); }
    static F rcp(F a) { return _mm_rcp_ps(a); }

    static void widen(F v, D &lo, D &hi)
    {
        lo = _mm_cvtps_pd(v);
        hi = _mm_cvtps_pd(_mm_movehl_ps(v, v));
    }
    static F narrow(D lo, D hi) { return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)); }
    static D dset1(double x) { return _mm_set1_pd(x); }
    static D dload(const double *p) { return _mm_loadu_pd(p); }
    static void dstore(double *p, D v) { _mm_storeu_pd(p, v); }
    static D dadd(D a, D b) { return _mm_add_pd(a, b); }
    static D dmul(D a, D b) { return _mm_mul_pd(a, b); }
    static D dmin(D a, D b) { return _mm_min_pd(a, b); }
    static D dmax(D a, D b) { return _mm_max_pd(a, b); }

    static F load_u8(const uint8_t *p)
    {
        int32_t four;
        memcpy(&four, p, sizeof(four));
        const __m128i z = _mm_setzero_si128();
        __m128i v = _mm_unpacklo_epi8(_mm_cvtsi32_si128(four), z);
        return _mm_cvtepi32_ps(_mm_unpacklo_epi16(v, z));
    }
    static F load_u16(const uint8_t *p, int shift)
    {
        __m128i v = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128());
        return _mm_cvtepi32_ps(_mm_srl_epi32(v, _mm_cvtsi32_si128(shift)));
    }
    /* p[0], p[2], p[4], p[6] and p[1], p[3], ... */
    static F even(const float *p)
    {
        return _mm_shuffle_ps(_mm_loadu_ps(p), _mm_loadu_ps(p + 4), _MM_SHUFFLE(2, 0, 2, 0));
    }
    static F odd(const float *p)
    {
        return _mm_shuffle_ps(_mm_loadu_ps(p), _mm_loadu_ps(p + 4), _MM_SHUFFLE(3, 1, 3, 1));
    }

    struct Sums8 {
        __m128 lo, hi;
    };
    static Sums8 sums8_zero() { return {_mm_setzero_ps(), _mm_setzero_ps()}; }
    static Sums8 sums8_load(const float *p) { return {_mm_loadu_ps(p), _mm_loadu_ps(p + 4)}; }
    static void sums8_store(const Sums8 &a, float *p)
    {
        _mm_storeu_ps(p, a.lo);
        _mm_storeu_ps(p + 4, a.hi);
    }
    static Sums8 sums8_add_columns(Sums8 a, const F t[8])
    {
        __m128 lo[4] = {t[0], t[1], t[2], t[3]}, hi[4] = {t[4], t[5], t[6], t[7]};
        _MM_TRANSPOSE4_PS(lo[0], lo[1], lo[2], lo[3]);
        _MM_TRANSPOSE4_PS(hi[0], hi[1], hi[2], hi[3]);
#pragma GCC unroll 4
        for (int k = 0; k < N; k++) {
            a.lo = _mm_add_ps(a.lo, lo[k]);
            a.hi = _mm_add_ps(a.hi, hi[k]);
        }
        return a;
    }
};

} // namespace

const SimdKernels *simd_kernels_sse2()
{
    static const SimdKernels kernels = simd::make_kernels<Sse2>();
    return &kernels;
}

} // namespace adm
#endif
