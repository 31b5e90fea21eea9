/*
 * float_adm: which level's kernels run, chosen at run time.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "adm_rcp.h"
#include "adm_simd.h"

namespace adm {

/* Each in its own translation unit, built for its level. */
const SimdKernels *simd_kernels_scalar();
#if ADM_HAVE_RCPSS
const SimdKernels *simd_kernels_sse2();
const SimdKernels *simd_kernels_avx2();
const SimdKernels *simd_kernels_avx512();
#endif

namespace {

const char *const kLevelNames[kNumSimdLevels] = {"scalar", "sse2", "avx2", "avx512"};

#if ADM_HAVE_RCPSS
bool cpu_runs(SimdLevel level)
{
    switch (level) {
    case SimdLevel::kSse2: return __builtin_cpu_supports("sse2");
    case SimdLevel::kAvx2: return __builtin_cpu_supports("avx2");
    case SimdLevel::kAvx512: return __builtin_cpu_supports("avx512f");
    default: return true;
    }
}

const SimdKernels *kernels_of(SimdLevel level)
{
    switch (level) {
    case SimdLevel::kSse2: return simd_kernels_sse2();
    case SimdLevel::kAvx2: return simd_kernels_avx2();
    case SimdLevel::kAvx512: return simd_kernels_avx512();
    default: return simd_kernels_scalar();
    }
}

/*
 * The scores follow RCPSS, so a level is used only where its vector estimate gives
 * the same bits: probed here on every mantissa with its top 16 bits set freely, at
 * three exponents (the unit test checks all 2^23 mantissas).
 */
bool reciprocal_matches_rcpss(const SimdKernels &kernels)
{
    const int kMantissas = 1 << 16;
    const uint32_t exponents[] = {0x3f800000u, 0x00800000u, 0x7e800000u};
    static float in[1 << 16], out[1 << 16];
    for (uint32_t exponent : exponents) {
        for (int m = 0; m < kMantissas; m++) {
            uint32_t bits = exponent | ((uint32_t)m << 7) | (uint32_t)(m & 0x7f);
            memcpy(&in[m], &bits, sizeof(bits));
        }
        kernels.reciprocal(in, out, kMantissas);
        for (int m = 0; m < kMantissas; m++) {
            float expected = rcpss(in[m]);
            if (memcmp(&expected, &out[m], sizeof(float)) != 0)
                return false;
        }
    }
    return true;
}

/* The scalar level computes RCPSS itself and is always usable. */
struct Availability {
    bool usable[kNumSimdLevels] = {true, false, false, false};
    Availability()
    {
        for (int l = 1; l < kNumSimdLevels; l++) {
            SimdLevel level = (SimdLevel)l;
            usable[l] = cpu_runs(level) && reciprocal_matches_rcpss(*kernels_of(level));
        }
    }
};

const Availability &availability()
{
    static const Availability probed;
    return probed;
}
#endif

} // namespace

const char *simd_level_name(SimdLevel level)
{
    int l = (int)level;
    return l >= 0 && l < kNumSimdLevels ? kLevelNames[l] : "unknown";
}

bool simd_level_parse(const char *name, SimdLevel *level)
{
    for (int l = 0; l < kNumSimdLevels; l++) {
        if (name && strcmp(name, kLevelNames[l]) == 0) {
            *level = (SimdLevel)l;
            return true;
        }
    }
    return false;
}

bool simd_level_supported(SimdLevel level)
{
    int l = (int)level;
    if (l < 0 || l >= kNumSimdLevels)
        return false;
#if ADM_HAVE_RCPSS
    return availability().usable[l];
#else
    /* The vector kernels estimate the reciprocal; this build divides. */
    return level == SimdLevel::kScalar;
#endif
}

SimdLevel simd_level_best() { return simd_level_capped((SimdLevel)(kNumSimdLevels - 1)); }

SimdLevel simd_level_capped(SimdLevel wanted)
{
    for (int l = (int)wanted; l > 0; l--)
        if (simd_level_supported((SimdLevel)l))
            return (SimdLevel)l;
    return SimdLevel::kScalar;
}

const SimdKernels *simd_kernels(SimdLevel level)
{
    if (!simd_level_supported(level))
        return nullptr;
#if ADM_HAVE_RCPSS
    return kernels_of(level);
#else
    return simd_kernels_scalar();
#endif
}

} // namespace adm
