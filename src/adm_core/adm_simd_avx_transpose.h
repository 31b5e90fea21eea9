/*
 * float_adm: an 8x8 fp32 transpose for the AVX2 and AVX-512 kernels.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * In an anonymous namespace on purpose: each including translation unit keeps its
 * own copy, built with its own -m flags.
 */
#ifndef ADM_SIMD_AVX_TRANSPOSE_H
#define ADM_SIMD_AVX_TRANSPOSE_H

#include <immintrin.h>

namespace adm {
namespace {

/* r[s] lane k becomes r[k] lane s (loops unrolled: the rows stay in registers). */
inline void transpose8x8(__m256 r[8])
{
    __m256 t[8], s[8];
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++) {
        s[4 * i + 0] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        s[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        s[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        s[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2f128_ps(s[k], s[4 + k], 0x20);
        r[4 + k] = _mm256_permute2f128_ps(s[k], s[4 + k], 0x31);
    }
}

} // namespace
} // namespace adm

#endif /* ADM_SIMD_AVX_TRANSPOSE_H */
