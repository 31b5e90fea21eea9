/*
 * float_adm: which level's kernels run, chosen at run time.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "adm_rcp.h"
#include "adm_simd.h"

namespace adm {

/*
 * The vector levels, slowest first: the name (adm_simd_<name>.cpp defines
 * simd_kernels_<name>() and is built with SIMD_FLAGS_<name> of src/adm_core/module.mk)
 * and the processor feature __builtin_cpu_supports tests.  Adding a level is one entry.
 */
#define ADM_VECTOR_LEVELS(LEVEL)                                                                   \
    LEVEL(sse2, "sse2")                                                                            \
    LEVEL(avx2, "avx2")                                                                            \
    LEVEL(avx512, "avx512f")

/* Each in its own translation unit, built for its level. */
const SimdKernels *simd_kernels_scalar();
#if ADM_HAVE_RCPSS
#define DECLARE_KERNELS(name, feature) const SimdKernels *simd_kernels_##name();
ADM_VECTOR_LEVELS(DECLARE_KERNELS)
#undef DECLARE_KERNELS
#endif

namespace {

struct LevelEntry {
    const char *name;
#if ADM_HAVE_RCPSS
    bool (*cpu_runs)();
    const SimdKernels *(*kernels)();
#endif
};

#if ADM_HAVE_RCPSS
#define LEVEL_ENTRY(level, feature)                                                                \
    {#level, [] { return __builtin_cpu_supports(feature) != 0; }, simd_kernels_##level},
const LevelEntry kLevels[] = {{"scalar", [] { return true; }, simd_kernels_scalar},
                              ADM_VECTOR_LEVELS(LEVEL_ENTRY)};
#else
/* The vector levels keep their names: a context asked for one runs the scalar level. */
#define LEVEL_ENTRY(level, feature) {#level},
const LevelEntry kLevels[] = {{"scalar"}, ADM_VECTOR_LEVELS(LEVEL_ENTRY)};
#endif
#undef LEVEL_ENTRY

constexpr int kNumLevels = (int)(sizeof(kLevels) / sizeof(kLevels[0]));

#if ADM_HAVE_RCPSS
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
    bool usable[kNumLevels] = {true};
    Availability()
    {
        for (int l = 1; l < kNumLevels; l++)
            usable[l] = kLevels[l].cpu_runs() && reciprocal_matches_rcpss(*kLevels[l].kernels());
    }
};

const Availability &availability()
{
    static const Availability probed;
    return probed;
}
#endif

} // namespace

int simd_level_count() { return kNumLevels; }

const char *simd_level_name(SimdLevel level)
{
    int l = (int)level;
    return l >= 0 && l < kNumLevels ? kLevels[l].name : nullptr;
}

bool simd_level_parse(const char *name, SimdLevel *level)
{
    for (int l = 0; l < kNumLevels; l++) {
        if (name && strcmp(name, kLevels[l].name) == 0) {
            *level = (SimdLevel)l;
            return true;
        }
    }
    return false;
}

bool simd_level_supported(SimdLevel level)
{
    int l = (int)level;
    if (l < 0 || l >= kNumLevels)
        return false;
#if ADM_HAVE_RCPSS
    return availability().usable[l];
#else
    /* The vector kernels estimate the reciprocal; this build divides. */
    return level == SimdLevel::kScalar;
#endif
}

SimdLevel simd_level_best() { return simd_level_capped((SimdLevel)(kNumLevels - 1)); }

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
    return kLevels[(int)level].kernels();
#else
    return simd_kernels_scalar();
#endif
}

} // namespace adm
