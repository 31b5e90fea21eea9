/*
 * float_adm: every vector level and job count gives the scalar path's bits.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "content.h"
#include "fixture.h"
#include "float_adm.h"
#include "../../src/adm_core/adm_rcp.h"
#include "../../src/adm_core/adm_simd.h"

namespace {

using adm::SimdLevel;

std::vector<SimdLevel> vector_levels()
{
    std::vector<SimdLevel> levels;
    for (int l = 1; l < adm::kNumSimdLevels; l++)
        if (adm::simd_level_supported((SimdLevel)l))
            levels.push_back((SimdLevel)l);
    return levels;
}

/* Runs the jobs on threads of their own, last job first. */
int thread_executor(void *, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    std::vector<std::thread> threads;
    for (int j = nb_jobs - 1; j >= 0; j--)
        threads.emplace_back([=] { job(arg, j, nb_jobs); });
    for (auto &t : threads)
        t.join();
    return 0;
}

using testsupport::FramePair;
using testsupport::OptionSet;

/* A pair of luma planes from the shared generator; rows 7 bytes longer than the
 * samples, so that no stride is a multiple of a vector. */
FramePair make_frame(int width, int height, int depth, int shift, uint32_t seed)
{
    return testsupport::make_frame_pair(testsupport::FrameGeometry{width, height, depth}, seed,
                                        shift, 7);
}

/* The option sets of tests/corpus/golden.json's cases, the defaults first. */
const std::vector<OptionSet> &option_sets()
{
    static const std::vector<OptionSet> sets = testsupport::option_sets(
        testsupport::read_json(testsupport::golden_path()));
    return sets;
}

/* golden.json's set with these options (they are not listed by index: golden.json may
 * grow); fails the test when it has none. */
OptionSet golden_set(const OptionSet &wanted)
{
    for (const OptionSet &set : option_sets())
        if (set == wanted)
            return set;
    ADD_FAILURE() << "tests/corpus/golden.json has no case with " << testsupport::describe(wanted);
    return wanted;
}

/* Scores of a frame at a level (through FLOAT_ADM_SIMD) and a job count. */
FloatAdmScores score(const FramePair &f, const OptionSet &set, SimdLevel level, int jobs,
                     bool bottom_up = false)
{
    FloatAdmOptions opts;
    std::string error;
    EXPECT_TRUE(testsupport::apply_options(set, &opts, &error)) << error;
    opts.debug = 1;
    setenv("FLOAT_ADM_SIMD", adm::simd_level_name(level), 1);
    FloatAdmContext *ctx = nullptr;
    char err[256] = "";
    const testsupport::FrameGeometry &g = f.ref.geometry;
    EXPECT_EQ(float_adm_context_create(&ctx, g.width, g.height, g.depth, &opts, err, sizeof(err)),
              0)
        << err;
    unsetenv("FLOAT_ADM_SIMD");
    FloatAdmScores scores{};
    if (!ctx)
        return scores;
    EXPECT_EQ(float_adm_set_executor(ctx, jobs > 1 ? thread_executor : nullptr, nullptr, jobs), 0);
    FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    if (bottom_up) { /* the same picture stored upside down, read with a negative stride */
        const ptrdiff_t last_row = f.ref.stride * (g.height - 1);
        ref.data = f.ref.bytes.data() + last_row;
        dist.data = f.dist.bytes.data() + last_row;
        ref.stride = dist.stride = -f.ref.stride;
    }
    EXPECT_EQ(float_adm_score_frame(ctx, &ref, &dist, &scores), 0);
    float_adm_context_free(&ctx);
    return scores;
}

void expect_same_bits(const FloatAdmScores &want, const FloatAdmScores &got, const std::string &what)
{
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        double a = float_adm_output_value(&want, k), b = float_adm_output_value(&got, k);
        EXPECT_EQ(memcmp(&a, &b, sizeof(a)), 0)
            << what << ": " << float_adm_output_name(k) << " scalar " << a << " vector " << b;
    }
}

/* Every level and job count against the scalar path with one job. */
void check_frame(const FramePair &f, const OptionSet &set, const std::string &what)
{
    const FloatAdmScores want = score(f, set, SimdLevel::kScalar, 1);
    for (int jobs = 2; jobs <= 3; jobs++)
        expect_same_bits(want, score(f, set, SimdLevel::kScalar, jobs),
                         what + " scalar jobs " + std::to_string(jobs));
    for (SimdLevel level : vector_levels())
        for (int jobs = 1; jobs <= 3; jobs++)
            expect_same_bits(want, score(f, set, level, jobs),
                             what + " " + adm::simd_level_name(level) + " jobs " + std::to_string(jobs));
}

std::string describe(const FramePair &f, const OptionSet &set)
{
    const testsupport::FrameGeometry &g = f.ref.geometry;
    return std::to_string(g.width) + "x" + std::to_string(g.height) + " depth " +
           std::to_string(g.depth) + " shift " + std::to_string(f.ref.shift) + ", " +
           testsupport::describe(set);
}

TEST(Simd, ReportsLevels)
{
    std::string levels = "scalar";
    for (SimdLevel level : vector_levels())
        levels += std::string(" ") + adm::simd_level_name(level);
    printf("vector levels on this host: %s\n", levels.c_str());
#if ADM_HAVE_RCPSS
    /* A level the processor runs but leaves out means its RCPPS differs from RCPSS. */
    EXPECT_TRUE(adm::simd_level_supported(SimdLevel::kSse2));
    EXPECT_EQ(adm::simd_level_supported(SimdLevel::kAvx2), (bool)__builtin_cpu_supports("avx2"));
    EXPECT_EQ(adm::simd_level_supported(SimdLevel::kAvx512), (bool)__builtin_cpu_supports("avx512f"));
#else
    /* The vector kernels estimate; a build that divides runs the scalar code only. */
    EXPECT_EQ(adm::simd_level_best(), SimdLevel::kScalar);
#endif
    EXPECT_TRUE(adm::simd_level_supported(SimdLevel::kScalar));
}

TEST(Simd, EnvironmentPicksLevel)
{
    for (int l = 0; l < adm::kNumSimdLevels; l++) {
        SimdLevel level = (SimdLevel)l;
        setenv("FLOAT_ADM_SIMD", adm::simd_level_name(level), 1);
        SimdLevel got = adm::simd_level_from_environment();
        if (adm::simd_level_supported(level))
            EXPECT_EQ(got, level);
        else
            EXPECT_LT((int)got, l);
    }
    setenv("FLOAT_ADM_SIMD", "auto", 1);
    EXPECT_EQ(adm::simd_level_from_environment(), adm::simd_level_best());
    unsetenv("FLOAT_ADM_SIMD");
    EXPECT_EQ(adm::simd_level_from_environment(), adm::simd_level_best());
}

/* The vector estimate equals RCPSS on all 2^23 mantissas, both signs, five exponents. */
TEST(Simd, ReciprocalEqualsRcpssExhaustively)
{
#if !ADM_HAVE_RCPSS
    GTEST_SKIP() << "built without RCPSS (FLOAT_ADM_NO_RCPSS or no SSE2): no vector levels";
#else
    const uint32_t kMantissas = 1u << 23;
    const uint32_t exponents[] = {0x3f800000u, 0x00800000u, 0x1f800000u, 0x5f000000u, 0x7e800000u};
    std::vector<float> in(kMantissas), want(kMantissas), got(kMantissas);
    for (SimdLevel level : vector_levels()) {
        const adm::SimdKernels *kernels = adm::simd_kernels(level);
        ASSERT_NE(kernels, nullptr);
        for (uint32_t sign : {0u, 0x80000000u}) {
            for (uint32_t exponent : exponents) {
                for (uint32_t m = 0; m < kMantissas; m++) {
                    uint32_t bits = sign | exponent | m;
                    memcpy(&in[m], &bits, sizeof(bits));
                    want[m] = adm::rcpss(in[m]);
                }
                kernels->reciprocal(in.data(), got.data(), kMantissas);
                size_t differing = 0;
                for (uint32_t m = 0; m < kMantissas; m++)
                    differing += memcmp(&want[m], &got[m], sizeof(float)) != 0;
                EXPECT_EQ(differing, 0u) << adm::simd_level_name(level) << " exponent bits "
                                         << std::hex << exponent << " sign " << sign;
            }
        }
    }
#endif
}

TEST(Simd, EveryOptionSetSmallAndOddSizes)
{
    const std::pair<int, int> sizes[] = {{17, 17}, {18, 17}, {17, 18}, {33, 17}, {63, 65},
                                         {64, 64}, {100, 37}, {127, 129}, {322, 182}};
    uint32_t seed = 1;
    for (auto size : sizes)
        for (const OptionSet &set : option_sets()) {
            FramePair f = make_frame(size.first, size.second, 8, 0, seed++);
            check_frame(f, set, describe(f, set));
        }
}

TEST(Simd, EveryDepth)
{
    const int depths[][2] = {{8, 0}, {9, 0}, {10, 0}, {10, 6}, {12, 0}, {14, 0}, {16, 0}};
    const OptionSet sets[] = {golden_set({}), golden_set({{"adm_enhn_gain_limit", "1.2"}}),
                              golden_set({{"adm_p_norm", "2.5"}})};
    uint32_t seed = 100;
    for (auto depth : depths)
        for (auto size : {std::make_pair(19, 23), std::make_pair(161, 97)})
            for (const OptionSet &set : sets) {
                FramePair f = make_frame(size.first, size.second, depth[0], depth[1], seed++);
                check_frame(f, set, describe(f, set));
            }
}

TEST(Simd, NegativeStride)
{
    FramePair f = make_frame(97, 61, 8, 0, 7);
    const FloatAdmScores want = score(f, {}, SimdLevel::kScalar, 1, true);
    for (SimdLevel level : vector_levels())
        for (int jobs = 1; jobs <= 3; jobs++)
            expect_same_bits(want, score(f, {}, level, jobs, true),
                             std::string("bottom-up ") + adm::simd_level_name(level));
}

TEST(Simd, LargeFrames)
{
    const std::pair<int, int> sizes[] = {{641, 359}, {1280, 720}, {1920, 1080}};
    const OptionSet sets[] = {golden_set({}), golden_set({{"adm_enhn_gain_limit", "1.0"}}),
                              golden_set({{"adm_csf_mode", "2"}}),
                              golden_set({{"adm_p_norm", "2.5"}})};
    uint32_t seed = 200;
    for (auto size : sizes)
        for (const OptionSet &set : sets) {
            FramePair f = make_frame(size.first, size.second, 8, 0, seed++);
            check_frame(f, set, describe(f, set));
        }
    FramePair f10 = make_frame(1920, 1080, 10, 0, seed++);
    check_frame(f10, sets[0], describe(f10, sets[0]));
}

} // namespace
