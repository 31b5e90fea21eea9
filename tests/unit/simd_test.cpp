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

/* A pair of luma planes: structure, an enhanced band (the gain limit), noise, blur. */
struct Frame {
    int width, height, depth, shift;
    std::vector<uint8_t> ref, dist;
    ptrdiff_t stride;
};

Frame make_frame(int width, int height, int depth, int shift, uint32_t seed)
{
    Frame f{width, height, depth, shift, {}, {}, 0};
    const int bytes = depth > 8 ? 2 : 1;
    const int max = (1 << depth) - 1;
    f.stride = (ptrdiff_t)width * bytes + 7; /* not a multiple of any vector */
    f.ref.assign(f.stride * height, 0);
    f.dist.assign(f.stride * height, 0);
    uint32_t state = seed * 2654435761u + 1;
    auto noise = [&state]() {
        state = state * 1664525u + 1013904223u;
        return (int)(state >> 24) - 128;
    };
    std::vector<int> plain(width * height);
    for (int i = 0; i < height; i++)
        for (int j = 0; j < width; j++)
            plain[i * width + j] = (((i / 5) ^ (j / 3)) & 1) * 90 + (i * 7 + j * 3) % 61 + noise() / 4 + 64;
    for (int i = 0; i < height; i++) {
        for (int j = 0; j < width; j++) {
            const int v = plain[i * width + j];
            int d;
            switch ((i * 4 / height + j * 3 / width) % 4) {
            case 0: d = 128 + (v - 128) * 13 / 10; break;       /* enhanced */
            case 1: d = v + noise() / 8; break;                  /* noisy */
            case 2: d = (v + plain[i * width + (j + 1) % width]) / 2; break; /* blurred */
            default: d = v; break;                               /* untouched */
            }
            auto scale = [&](int x) {
                long long s = (long long)(x < 0 ? 0 : x > 255 ? 255 : x) * max / 255;
                s = (s + (noise() & 3)) & max;
                return (uint16_t)(s << shift);
            };
            if (bytes == 1) {
                f.ref[i * f.stride + j] = (uint8_t)scale(v);
                f.dist[i * f.stride + j] = (uint8_t)scale(d);
            } else {
                uint16_t r = scale(v), t = scale(d);
                memcpy(&f.ref[i * f.stride + 2 * j], &r, 2);
                memcpy(&f.dist[i * f.stride + 2 * j], &t, 2);
            }
        }
    }
    return f;
}

typedef std::vector<std::pair<const char *, const char *>> OptionSet;

/* The option sets of tests/corpus/golden.json. */
const std::vector<OptionSet> &option_sets()
{
    static const std::vector<OptionSet> sets = {
        {},
        {{"adm_enhn_gain_limit", "1.0"}},
        {{"adm_enhn_gain_limit", "1.2"}},
        {{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}},
        {{"adm_norm_view_dist", "5"}, {"adm_ref_display_height", "720"}},
        {{"adm_csf_mode", "1"}},
        {{"adm_csf_mode", "1"}, {"adm_csf_scale", "2"}, {"adm_csf_diag_scale", "0.5"}},
        {{"adm_csf_mode", "2"}},
        {{"adm_noise_weight", "0"}},
        {{"adm_p_norm", "1"}},
        {{"adm_p_norm", "2.5"}},
        {{"adm_bypass_cm", "1"}},
        {{"adm_skip_aim_scale", "2"}},
        {{"adm_skip_scale0", "true"}},
        {{"adm_adm3_apply_hm", "true"}, {"adm_dlm_weight", "0.3"}, {"adm_min_val", "0.2"}},
        {{"adm_f1s0", "0.02"}, {"adm_f2s1", "0.03"}, {"adm_f1s3", "0.5"}},
    };
    return sets;
}

/* Scores of a frame at a level (through FLOAT_ADM_SIMD) and a job count. */
FloatAdmScores score(const Frame &f, const OptionSet &set, SimdLevel level, int jobs,
                     bool bottom_up = false)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    char err[256];
    EXPECT_EQ(float_adm_option_set(&opts, "debug", "1", err, sizeof(err)), 0);
    for (const auto &option : set)
        EXPECT_EQ(float_adm_option_set(&opts, option.first, option.second, err, sizeof(err)), 0) << err;
    setenv("FLOAT_ADM_SIMD", adm::simd_level_name(level), 1);
    FloatAdmContext *ctx = nullptr;
    EXPECT_EQ(float_adm_context_create(&ctx, f.width, f.height, f.depth, &opts, err, sizeof(err)), 0)
        << err;
    unsetenv("FLOAT_ADM_SIMD");
    FloatAdmScores scores{};
    if (!ctx)
        return scores;
    EXPECT_EQ(float_adm_set_executor(ctx, jobs > 1 ? thread_executor : nullptr, nullptr, jobs), 0);
    const int bytes = f.depth > 8 ? 2 : 1;
    const ptrdiff_t last_row = f.stride * (f.height - 1);
    FloatAdmPlane ref = {f.ref.data(), f.stride, bytes, f.shift};
    FloatAdmPlane dist = {f.dist.data(), f.stride, bytes, f.shift};
    if (bottom_up) { /* the same picture stored upside down, read with a negative stride */
        ref = {f.ref.data() + last_row, -f.stride, bytes, f.shift};
        dist = {f.dist.data() + last_row, -f.stride, bytes, f.shift};
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
void check_frame(const Frame &f, const OptionSet &set, const std::string &what)
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

std::string describe(const Frame &f, int set)
{
    return std::to_string(f.width) + "x" + std::to_string(f.height) + " depth " +
           std::to_string(f.depth) + " shift " + std::to_string(f.shift) + " option set " +
           std::to_string(set);
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
        for (size_t set = 0; set < option_sets().size(); set++) {
            Frame f = make_frame(size.first, size.second, 8, 0, seed++);
            check_frame(f, option_sets()[set], describe(f, (int)set));
        }
}

TEST(Simd, EveryDepth)
{
    const int depths[][2] = {{8, 0}, {9, 0}, {10, 0}, {10, 6}, {12, 0}, {14, 0}, {16, 0}};
    uint32_t seed = 100;
    for (auto depth : depths)
        for (auto size : {std::make_pair(19, 23), std::make_pair(161, 97)})
            for (size_t set : {0, 2, 10}) {
                Frame f = make_frame(size.first, size.second, depth[0], depth[1], seed++);
                check_frame(f, option_sets()[set], describe(f, (int)set));
            }
}

TEST(Simd, NegativeStride)
{
    Frame f = make_frame(97, 61, 8, 0, 7);
    const FloatAdmScores want = score(f, {}, SimdLevel::kScalar, 1, true);
    for (SimdLevel level : vector_levels())
        for (int jobs = 1; jobs <= 3; jobs++)
            expect_same_bits(want, score(f, {}, level, jobs, true),
                             std::string("bottom-up ") + adm::simd_level_name(level));
}

TEST(Simd, LargeFrames)
{
    const std::pair<int, int> sizes[] = {{641, 359}, {1280, 720}, {1920, 1080}};
    uint32_t seed = 200;
    for (auto size : sizes)
        for (size_t set : {0, 1, 7, 10}) {
            Frame f = make_frame(size.first, size.second, 8, 0, seed++);
            check_frame(f, option_sets()[set], describe(f, (int)set));
        }
    Frame f10 = make_frame(1920, 1080, 10, 0, seed++);
    check_frame(f10, option_sets()[0], describe(f10, 0));
}

} // namespace
