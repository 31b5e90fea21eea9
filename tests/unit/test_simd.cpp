/*
 * float_adm: every SIMD level and job count gives the bits of the full-frame reference
 * schedule (tests/support/reference_schedule.h), and every level's row kernels give
 * the scalar level's, kernel by kernel.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "adm_rcp.h"
#include "adm_simd.h"
#include "content.h"
#include "fixture.h"
#include "float_adm.h"
#include "reference_schedule.h"

namespace {

using adm::SimdLevel;

/* The levels this processor runs exactly, scalar first. */
std::vector<SimdLevel> levels()
{
    std::vector<SimdLevel> supported;
    for (int l = 0; l < adm::simd_level_count(); l++)
        if (adm::simd_level_supported((SimdLevel)l))
            supported.push_back((SimdLevel)l);
    return supported;
}

std::vector<SimdLevel> vector_levels()
{
    std::vector<SimdLevel> supported = levels();
    supported.erase(supported.begin());
    return supported;
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

/* The planes of a frame pair; bottom_up: the same picture stored upside down, read
 * with a negative stride. */
std::pair<FloatAdmPlane, FloatAdmPlane> planes(const FramePair &f, bool bottom_up)
{
    FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    if (bottom_up) {
        const ptrdiff_t last_row = f.ref.stride * (f.height() - 1);
        ref.data = f.ref.bytes.data() + last_row;
        dist.data = f.dist.bytes.data() + last_row;
        ref.stride = dist.stride = -f.ref.stride;
    }
    return {ref, dist};
}

/* Scores of a frame at a level (through the C API) and a job count. */
FloatAdmScores score(const FramePair &f, const OptionSet &set, SimdLevel level, int jobs,
                     bool bottom_up = false)
{
    const FloatAdmOptions opts = testsupport::debug_options(set);
    FloatAdmContext *ctx = nullptr;
    char err[256] = "";
    const testsupport::FrameGeometry &g = f.ref.geometry;
    EXPECT_EQ(float_adm_context_create(&ctx, g.width, g.height, g.depth, &opts, err, sizeof(err)),
              0)
        << err;
    FloatAdmScores scores{};
    if (!ctx)
        return scores;
    EXPECT_EQ(float_adm_context_set_simd_level(ctx, adm::simd_level_name(level)), 0);
    EXPECT_STREQ(float_adm_context_simd_level(ctx), adm::simd_level_name(level));
    EXPECT_EQ(float_adm_set_executor(ctx, jobs > 1 ? thread_executor : nullptr, nullptr, jobs), 0);
    const auto in = planes(f, bottom_up);
    EXPECT_EQ(float_adm_score_frame(ctx, &in.first, &in.second, &scores), 0);
    float_adm_context_free(&ctx);
    return scores;
}

/* The oracle's scores of the same frame. */
FloatAdmScores reference(const FramePair &f, const OptionSet &set, bool bottom_up = false)
{
    const testsupport::FrameGeometry &g = f.ref.geometry;
    const auto in = planes(f, bottom_up);
    return testsupport::reference_scores(g.width, g.height, g.depth,
                                         testsupport::debug_options(set), in.first, in.second);
}

void expect_same_bits(const FloatAdmScores &want, const FloatAdmScores &got, const std::string &what)
{
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        double a = float_adm_output_value(&want, k), b = float_adm_output_value(&got, k);
        EXPECT_EQ(memcmp(&a, &b, sizeof(a)), 0)
            << what << ": " << float_adm_output_name(k) << " reference " << a << " level " << b;
    }
}

/* Every level and job count against the full-frame reference schedule. */
void check_frame(const FramePair &f, const OptionSet &set, const std::string &what)
{
    const FloatAdmScores want = reference(f, set);
    for (SimdLevel level : levels())
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
    std::string names;
    for (SimdLevel level : levels())
        names += std::string(" ") + adm::simd_level_name(level);
    printf("levels on this host:%s\n", names.c_str());
#if ADM_HAVE_RCPSS
    /* A level the processor runs but leaves out means its RCPPS differs from RCPSS. */
    SimdLevel sse2, avx2, avx512;
    ASSERT_TRUE(adm::simd_level_parse("sse2", &sse2) && adm::simd_level_parse("avx2", &avx2) &&
                adm::simd_level_parse("avx512", &avx512));
    EXPECT_TRUE(adm::simd_level_supported(sse2));
    EXPECT_EQ(adm::simd_level_supported(avx2), (bool)__builtin_cpu_supports("avx2"));
    EXPECT_EQ(adm::simd_level_supported(avx512), (bool)__builtin_cpu_supports("avx512f"));
#else
    /* The vector kernels estimate; a build that divides runs the scalar code only. */
    EXPECT_EQ(adm::simd_level_best(), SimdLevel::kScalar);
#endif
    EXPECT_TRUE(adm::simd_level_supported(SimdLevel::kScalar));
}

TEST(Simd, ApiPicksAndCapsLevel)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmContext *ctx = nullptr;
    ASSERT_EQ(float_adm_context_create(&ctx, 64, 48, 8, &opts, nullptr, 0), 0);
    const char *best = adm::simd_level_name(adm::simd_level_best());
    EXPECT_STREQ(float_adm_context_simd_level(ctx), best) << "a context starts at the best level";
    for (int l = 0; l < adm::simd_level_count(); l++) {
        const char *name = float_adm_simd_level_name(l);
        ASSERT_NE(name, nullptr);
        EXPECT_STREQ(name, adm::simd_level_name((SimdLevel)l));
        ASSERT_EQ(float_adm_context_set_simd_level(ctx, name), 0) << name;
        /* A level this processor lacks, or runs with another reciprocal, is capped below. */
        const SimdLevel capped = adm::simd_level_capped((SimdLevel)l);
        EXPECT_STREQ(float_adm_context_simd_level(ctx), adm::simd_level_name(capped)) << name;
        EXPECT_EQ(capped == (SimdLevel)l, adm::simd_level_supported((SimdLevel)l)) << name;
        EXPECT_LE((int)capped, l) << name;
    }
    EXPECT_EQ(float_adm_simd_level_name(adm::simd_level_count()), nullptr);
    EXPECT_EQ(float_adm_simd_level_name(-1), nullptr);

    ASSERT_EQ(float_adm_context_set_simd_level(ctx, "scalar"), 0);
    EXPECT_EQ(float_adm_context_set_simd_level(ctx, "avx3"), FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_EQ(float_adm_context_set_simd_level(ctx, ""), FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_STREQ(float_adm_context_simd_level(ctx), "scalar") << "an unknown name changes nothing";
    ASSERT_EQ(float_adm_context_set_simd_level(ctx, "auto"), 0);
    EXPECT_STREQ(float_adm_context_simd_level(ctx), best);
    ASSERT_EQ(float_adm_context_set_simd_level(ctx, "scalar"), 0);
    ASSERT_EQ(float_adm_context_set_simd_level(ctx, nullptr), 0);
    EXPECT_STREQ(float_adm_context_simd_level(ctx), best);
    EXPECT_EQ(float_adm_context_set_simd_level(nullptr, "scalar"), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_simd_level(nullptr), nullptr);
    float_adm_context_free(&ctx);
}

TEST(Simd, DescribeNamesLevelThreadsAndDivision)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmContext *ctx = nullptr;
    ASSERT_EQ(float_adm_context_create(&ctx, 64, 48, 8, &opts, nullptr, 0), 0);
    ASSERT_EQ(float_adm_context_set_simd_level(ctx, "scalar"), 0);
    ASSERT_EQ(float_adm_set_executor(ctx, thread_executor, nullptr, 3), 0);
    char line[512];
    const std::string text = float_adm_context_describe(ctx, line, sizeof(line));
    printf("%s\n", text.c_str());
    EXPECT_NE(text.find("CPU backend: simd scalar"), std::string::npos) << text;
    EXPECT_NE(text.find("threads 3"), std::string::npos) << text;
#if ADM_HAVE_RCPSS
    EXPECT_NE(text.find("division exact: this processor's RCPSS"), std::string::npos) << text;
#else
    EXPECT_NE(text.find("n / d"), std::string::npos) << text;
#endif
    EXPECT_NE(text.find("powf not called"), std::string::npos) << text;
    float_adm_context_free(&ctx);

    opts.p_norm = 2.5;
    ASSERT_EQ(float_adm_context_create(&ctx, 64, 48, 8, &opts, nullptr, 0), 0);
    char small[16];
    EXPECT_EQ(float_adm_context_describe(ctx, small, sizeof(small)), small);
    EXPECT_EQ(strlen(small), sizeof(small) - 1) << "truncated, terminated";
    EXPECT_NE(std::string(float_adm_context_describe(ctx, line, sizeof(line))).find("powf exact"),
              std::string::npos)
        << line;
    float_adm_context_free(&ctx);
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
    for (SimdLevel level : levels()) {
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
    const FloatAdmScores want = reference(f, {}, true);
    for (SimdLevel level : levels())
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

/* ---- Kernel by kernel: every level's table against the scalar level's ---- */

/* Rows of kRowPadding more floats than they hold, as the engine gives the kernels;
 * unwritten floats keep a sentinel, so that a write outside the row shows. */
struct Rows {
    int count;
    ptrdiff_t stride;
    std::vector<float> data;
    Rows(int rows, int width)
        : count(rows), stride(width + adm::kRowPadding),
          data((size_t)rows * stride, std::nanf("0x123"))
    {
    }
    float *row(int k) { return data.data() + k * stride; }
    bool operator==(const Rows &other) const
    {
        return memcmp(data.data(), other.data.data(), data.size() * sizeof(float)) == 0;
    }
};

/* Zeros of both signs, tiny, moderate and large values of either sign. */
float random_value(testsupport::Lcg &rng)
{
    switch (rng.next() % 8) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return std::ldexp((float)rng.centred(1 << 20), -40);
    case 3: return std::ldexp((float)rng.centred(1 << 20), -8);
    default: return (float)rng.centred(1 << 20) / 4096.0f;
    }
}

void fill(Rows &rows, int width, testsupport::Lcg &rng)
{
    for (int k = 0; k < rows.count; k++)
        for (int j = 0; j < width; j++)
            rows.row(k)[j] = random_value(rng);
}

const adm::SimdKernels &scalar_kernels() { return *adm::simd_kernels(SimdLevel::kScalar); }

TEST(SimdKernels, DwtVertical)
{
    testsupport::Lcg rng{11};
    for (SimdLevel level : vector_levels()) {
        const adm::SimdKernels &k = *adm::simd_kernels(level);
        for (int n = 1; n <= 70; n += n < 34 ? 1 : 9) {
            Rows in(4, n);
            fill(in, n, rng);
            const float *rows[4] = {in.row(0), in.row(1), in.row(2), in.row(3)};
            Rows want(2, n), got(2, n);
            scalar_kernels().dwt_vertical_float(rows, n, want.row(0), want.row(1));
            k.dwt_vertical_float(rows, n, got.row(0), got.row(1));
            EXPECT_TRUE(want == got) << adm::simd_level_name(level) << " float, n " << n;

            std::vector<uint8_t> bytes(4 * (2 * (size_t)n + 64));
            for (uint8_t &b : bytes)
                b = (uint8_t)rng.next();
            const uint8_t *samples[4];
            for (int r = 0; r < 4; r++)
                samples[r] = bytes.data() + r * (2 * (size_t)n + 64);
            Rows want8(2, n), got8(2, n);
            scalar_kernels().dwt_vertical_u8(samples, n, want8.row(0), want8.row(1));
            k.dwt_vertical_u8(samples, n, got8.row(0), got8.row(1));
            EXPECT_TRUE(want8 == got8) << adm::simd_level_name(level) << " u8, n " << n;
            /* 10 bits planar and P010, 16 bits: the scaler is 2^(depth - 8). */
            const std::pair<int, float> layouts[] = {{0, 4.0f}, {6, 4.0f}, {0, 256.0f}};
            for (auto layout : layouts) {
                Rows want16(2, n), got16(2, n);
                scalar_kernels().dwt_vertical_u16(samples, n, layout.first, layout.second,
                                                  want16.row(0), want16.row(1));
                k.dwt_vertical_u16(samples, n, layout.first, layout.second, got16.row(0),
                                   got16.row(1));
                EXPECT_TRUE(want16 == got16)
                    << adm::simd_level_name(level) << " u16 shift " << layout.first << ", n " << n;
            }
        }
    }
}

TEST(SimdKernels, DwtHorizontal)
{
    testsupport::Lcg rng{12};
    for (SimdLevel level : vector_levels()) {
        const adm::SimdKernels &k = *adm::simd_kernels(level);
        for (int in_w = 2; in_w <= 260; in_w += in_w < 80 ? 1 : 59) {
            const int w = (in_w + 1) / 2;
            Rows in(2, in_w);
            fill(in, in_w, rng);
            std::vector<int> taps[4];
            for (int t = 0; t < 4; t++)
                for (int j = 0; j < w; j++)
                    taps[t].push_back(adm::dwt_source_index(j, t, in_w));
            for (bool details : {true, false}) {
                Rows want(4, w), got(4, w);
                for (Rows *out : {&want, &got}) {
                    adm::DwtRowArgs args = {
                        in.row(0),
                        in.row(1),
                        in_w,
                        w,
                        {taps[0].data(), taps[1].data(), taps[2].data(), taps[3].data()},
                        out->row(0),
                        nullptr,
                        nullptr,
                        nullptr};
                    if (details) {
                        args.h = out->row(1);
                        args.v = out->row(2);
                        args.d = out->row(3);
                    }
                    (out == &want ? scalar_kernels() : k).dwt_horizontal(args);
                }
                EXPECT_TRUE(want == got) << adm::simd_level_name(level) << " in_w " << in_w
                                         << (details ? " with details" : " band a only");
            }
        }
    }
}

/* Column ranges of a row of w: whole, inset by one, and an odd inner span. */
std::vector<std::pair<int, int>> column_ranges(int w)
{
    std::vector<std::pair<int, int>> ranges = {{0, w}};
    if (w > 2)
        ranges.push_back({1, w - 1});
    if (w > 8)
        ranges.push_back({w / 10 + 1, w - w / 7});
    return ranges;
}

TEST(SimdKernels, DecoupleCsf)
{
    testsupport::Lcg rng{13};
    for (SimdLevel level : vector_levels()) {
        const adm::SimdKernels &k = *adm::simd_kernels(level);
        for (int w = 1; w <= 200; w += w < 40 ? 1 : 37) {
            /* The distorted detail: the reference enhanced, attenuated or flipped, or
             * unrelated, so that the angle test and the gain limit go both ways. */
            Rows detail(6, w);
            fill(detail, w, rng);
            for (int j = 0; j < w; j++) {
                const int kind = (int)(rng.next() % 4);
                const float gain = kind == 0 ? 1.5f : (kind == 1 ? 0.5f : -1.0f);
                for (int b = 0; b < 3 && kind < 3; b++)
                    detail.row(3 + b)[j] = detail.row(b)[j] * gain;
            }
            for (auto range : column_ranges(w)) {
                for (double egl : {100.0, 1.0, 1.2}) {
                    Rows want(12, w), got(12, w);
                    for (Rows *out : {&want, &got}) {
                        adm::DecoupleRowArgs args;
                        for (int b = 0; b < 3; b++) {
                            args.ref[b] = detail.row(b);
                            args.dist[b] = detail.row(3 + b);
                            args.factor[b] = b == 2 ? 0.0083f : 0.0178f;
                            for (int m = 0; m < 2; m++) {
                                args.weighted[m][b] = out->row(m * 3 + b);
                                args.filtered[m][b] = out->row(6 + m * 3 + b);
                            }
                        }
                        args.left = range.first;
                        args.right = range.second;
                        args.egl = egl;
                        args.cos_1deg_sq = 0.99969541f;
                        (out == &want ? scalar_kernels() : k).decouple_csf(args);
                    }
                    EXPECT_TRUE(want == got)
                        << adm::simd_level_name(level) << " w " << w << " columns " << range.first
                        << ".." << range.second << " egl " << egl;
                }
            }
        }
    }
}

TEST(SimdKernels, RowSums)
{
    testsupport::Lcg rng{14};
    for (SimdLevel level : vector_levels()) {
        const adm::SimdKernels &k = *adm::simd_kernels(level);
        for (int w = 2; w <= 200; w += w < 40 ? 1 : 37) {
            /* ref, weighted [signal][band], filtered [signal][band][row]. */
            Rows in(3 + 6 + 18, w);
            fill(in, w, rng);
            for (int r = 9; r < in.count; r++) /* the filtered rows are magnitudes */
                for (int j = 0; j < w; j++)
                    in.row(r)[j] = std::fabs(in.row(r)[j]) / 30.0f;
            adm::SumRowArgs args;
            for (int b = 0; b < 3; b++) {
                args.ref[b] = in.row(b);
                args.factor[b] = b == 2 ? 0.0083f : 0.0178f;
                for (int m = 0; m < 2; m++) {
                    args.weighted[m][b] = in.row(3 + m * 3 + b);
                    for (int r = 0; r < 3; r++)
                        args.filtered[m][b][r] = in.row(9 + (m * 3 + b) * 3 + r);
                }
            }
            args.w = w;
            for (auto range : column_ranges(w)) {
                for (int variant = 0; variant < 4; variant++) {
                    args.left = range.first;
                    args.right = range.second;
                    args.masking = variant % 2 == 0;
                    args.cube = variant < 2;
                    args.p = args.cube ? 3.0f : 2.5f;
                    float want[adm::kNumRowSums], got[adm::kNumRowSums];
                    scalar_kernels().row_sums(args, want);
                    k.row_sums(args, got);
                    EXPECT_EQ(memcmp(want, got, sizeof(want)), 0)
                        << adm::simd_level_name(level) << " w " << w << " columns " << range.first
                        << ".." << range.second << (args.masking ? " masking" : " no masking")
                        << " p " << args.p;
                }
            }
        }
    }
}

} // namespace
