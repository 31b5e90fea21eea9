/*
 * Unit tests through the C API: pooling facts, executor independence, and sample
 * storage (depths, P010, strides).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "content.h"
#include "float_adm.h"

namespace {

FloatAdmOptions defaults()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    return opts;
}

/* A context that frees itself; fails the test when creation fails. */
struct Context {
    FloatAdmContext *ctx = nullptr;
    Context(int w, int h, int depth, const FloatAdmOptions &opts)
    {
        char err[256] = "";
        EXPECT_EQ(float_adm_context_create(&ctx, w, h, depth, &opts, err, sizeof(err)), 0) << err;
    }
    ~Context() { float_adm_context_free(&ctx); }
};

FloatAdmScores score(FloatAdmContext *ctx, const FloatAdmPlane &ref, const FloatAdmPlane &dist)
{
    FloatAdmScores scores;
    memset(&scores, 0xff, sizeof(scores));
    EXPECT_EQ(float_adm_score_frame(ctx, &ref, &dist, &scores), 0);
    return scores;
}

FloatAdmScores score_u8(int w, int h, const std::vector<uint8_t> &ref,
                        const std::vector<uint8_t> &dist, const FloatAdmOptions &opts)
{
    Context c(w, h, 8, opts);
    return score(c.ctx, FloatAdmPlane{ref.data(), w, 1, 0}, FloatAdmPlane{dist.data(), w, 1, 0});
}

/* All 18 outputs, bit for bit. */
void expect_identical(const FloatAdmScores &a, const FloatAdmScores &b, const std::string &what)
{
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        double x = float_adm_output_value(&a, k), y = float_adm_output_value(&b, k);
        EXPECT_EQ(memcmp(&x, &y, sizeof(x)), 0)
            << what << ": " << float_adm_output_name(k) << " " << x << " vs " << y;
    }
}

/* An 8-bit pair from the shared generator, rows packed. */
struct U8Pair {
    int w, h;
    std::vector<uint8_t> ref, dist;
    U8Pair(int width, int height, uint32_t seed) : w(width), h(height)
    {
        testsupport::FramePair p = testsupport::make_frame_pair(testsupport::FrameGeometry{w, h, 8},
                                                                seed);
        ref = std::move(p.ref.bytes);
        dist = std::move(p.dist.bytes);
    }
};

/* ---- Outputs ---- */

TEST(Outputs, NamesAndValuesLineUp)
{
    const char *names[FLOAT_ADM_NUM_DEBUG_OUTPUTS] = {
        "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3", "adm",
        "adm_num", "adm_den", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1",
        "adm_den_scale1", "adm_num_scale2", "adm_den_scale2", "adm_num_scale3",
        "adm_den_scale3"};
    FloatAdmScores s;
    double *fields[FLOAT_ADM_NUM_DEBUG_OUTPUTS] = {
        &s.adm2, &s.aim, &s.adm3, &s.adm_scale[0], &s.adm_scale[1], &s.adm_scale[2],
        &s.adm_scale[3], &s.adm, &s.adm_num, &s.adm_den, &s.adm_num_scale[0],
        &s.adm_den_scale[0], &s.adm_num_scale[1], &s.adm_den_scale[1], &s.adm_num_scale[2],
        &s.adm_den_scale[2], &s.adm_num_scale[3], &s.adm_den_scale[3]};
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        EXPECT_STREQ(float_adm_output_name(k), names[k]);
        *fields[k] = k + 0.5;
    }
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++)
        EXPECT_EQ(float_adm_output_value(&s, k), k + 0.5) << names[k];
    EXPECT_EQ(float_adm_output_name(-1), nullptr);
    EXPECT_EQ(float_adm_output_name(FLOAT_ADM_NUM_DEBUG_OUTPUTS), nullptr);
}

/* ---- Pooling ---- */

TEST(Pooling, IdenticalFramesScoreOne)
{
    for (const auto &size : {std::pair<int, int>{17, 17}, {67, 45}, {320, 180}}) {
        U8Pair p(size.first, size.second, 7);
        FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.ref, defaults());
        EXPECT_EQ(s.adm2, 1.0) << p.w << "x" << p.h;
        EXPECT_EQ(s.aim, 0.0) << p.w << "x" << p.h;
        EXPECT_EQ(s.adm3, 1.0) << p.w << "x" << p.h;
        for (int k = 0; k < 4; k++)
            EXPECT_EQ(s.adm_scale[k], 1.0) << "scale " << k;
    }
}

TEST(Pooling, DistortionLowersAdm2AndRaisesAim)
{
    U8Pair p(320, 180, 11);
    FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    EXPECT_GT(s.adm2, 0.0);
    EXPECT_LT(s.adm2, 1.0);
    EXPECT_GT(s.aim, 0.0);
    EXPECT_LE(s.aim, 1.0);
}

TEST(Pooling, OutputsFollowFromTheSums)
{
    U8Pair p(320, 180, 12);
    FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    double num = 0, den = 0;
    for (int k = 0; k < 4; k++) {
        num += s.adm_num_scale[k];
        den += s.adm_den_scale[k];
        EXPECT_EQ(s.adm_scale[k], s.adm_num_scale[k] / s.adm_den_scale[k]) << "scale " << k;
        /* Per-scale sums are fp32 values. */
        EXPECT_EQ(s.adm_num_scale[k], (double)(float)s.adm_num_scale[k]);
        EXPECT_EQ(s.adm_den_scale[k], (double)(float)s.adm_den_scale[k]);
    }
    EXPECT_EQ(s.adm_num, num);
    EXPECT_EQ(s.adm_den, den);
    EXPECT_EQ(s.adm2, num / den);
    EXPECT_EQ(s.adm, s.adm2);
    EXPECT_EQ(s.adm3, s.adm2 * 0.5 + (1 - s.aim) * (1 - 0.5));
}

TEST(Pooling, Adm3Combinations)
{
    U8Pair p(320, 180, 13);
    const FloatAdmScores base = score_u8(p.w, p.h, p.ref, p.dist, defaults());

    FloatAdmOptions harmonic = defaults();
    harmonic.adm3_apply_hm = 1;
    FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, harmonic);
    EXPECT_EQ(s.adm2, base.adm2);
    EXPECT_EQ(s.aim, base.aim);
    EXPECT_EQ(s.adm3, 2 * base.adm2 * base.aim / (base.adm2 + base.aim));

    FloatAdmOptions weighted = defaults();
    weighted.dlm_weight = 0.8;
    s = score_u8(p.w, p.h, p.ref, p.dist, weighted);
    EXPECT_EQ(s.adm3, base.adm2 * 0.8 + (1 - base.aim) * (1 - 0.8));

    FloatAdmOptions clipped = defaults();
    clipped.min_val = 1.0;
    s = score_u8(p.w, p.h, p.ref, p.dist, clipped);
    EXPECT_EQ(s.adm3, 1.0);
    EXPECT_EQ(s.adm2, base.adm2);
}

/* Mid-grey (128) is 0 after libvmaf's -128 offset: a frame with no energy at all. */
constexpr uint8_t kMidGrey = 128;

TEST(Pooling, ReferenceWithoutDetailScoresOne)
{
    /* Nothing to restore: num and den are both the noise floor; the detail is all additive. */
    std::vector<uint8_t> grey(64 * 48, kMidGrey);
    U8Pair p(64, 48, 13);
    FloatAdmScores s = score_u8(64, 48, grey, p.dist, defaults());
    EXPECT_EQ(s.adm2, 1.0);
    EXPECT_GT(s.aim, 0.0);
    EXPECT_LE(s.aim, 1.0);
    EXPECT_GT(s.adm_den, 0.0);
    for (int k = 0; k < 4; k++)
        EXPECT_EQ(s.adm_num_scale[k], s.adm_den_scale[k]) << "scale " << k;
}

TEST(Pooling, FlatFramesAreNotExactlyDetailFree)
{
    /* The high-pass taps do not cancel exactly in fp32: a flat frame other than mid-grey
     * has a tiny detail energy, as upstream (the corpus's flat case relies on it). */
    FloatAdmOptions opts = defaults();
    opts.noise_weight = 0.0;
    std::vector<uint8_t> flat(64 * 48, 90);
    FloatAdmScores s = score_u8(64, 48, flat, flat, opts);
    EXPECT_GT(s.adm_den, 0.0);
    EXPECT_LT(s.adm_den, 1e-4);
}

TEST(Pooling, ZeroDenominatorIsDefinedAsAdm2OneAimZero)
{
    FloatAdmOptions opts = defaults();
    opts.noise_weight = 0.0;
    std::vector<uint8_t> grey(64 * 48, kMidGrey);
    U8Pair p(64, 48, 14);
    /* A reference without energy; the distorted frame's detail does not matter. */
    for (const std::vector<uint8_t> *dist : {&grey, &p.dist}) {
        FloatAdmScores s = score_u8(64, 48, grey, *dist, opts);
        EXPECT_EQ(s.adm_den, 0.0);
        EXPECT_EQ(s.adm_num, 0.0);
        EXPECT_EQ(s.adm2, 1.0);
        EXPECT_EQ(s.aim, 0.0);
        EXPECT_EQ(s.adm3, 1.0);
    }
}

TEST(Pooling, SkipScale0)
{
    U8Pair p(320, 180, 15);
    FloatAdmOptions opts = defaults();
    opts.skip_scale0 = 1;
    const FloatAdmScores base = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    const FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, opts);
    EXPECT_EQ(s.adm_num_scale[0], 0.0);
    EXPECT_EQ(s.adm_den_scale[0], (double)(float)1e-10);
    EXPECT_EQ(s.adm_scale[0], 0.0);
    /* The coarser scales are unaffected: scale 0's band a is still computed. */
    for (int k = 1; k < 4; k++) {
        EXPECT_EQ(s.adm_num_scale[k], base.adm_num_scale[k]) << "scale " << k;
        EXPECT_EQ(s.adm_den_scale[k], base.adm_den_scale[k]) << "scale " << k;
    }
    EXPECT_NE(s.adm2, base.adm2);
}

TEST(Pooling, SkipAimScaleChangesAimOnly)
{
    U8Pair p(320, 180, 16);
    const FloatAdmScores base = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    for (int skipped = 0; skipped < 4; skipped++) {
        FloatAdmOptions opts = defaults();
        opts.skip_aim_scale = skipped;
        const FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, opts);
        EXPECT_EQ(s.adm2, base.adm2) << skipped;
        EXPECT_EQ(s.adm_num, base.adm_num) << skipped;
        EXPECT_EQ(s.adm_den, base.adm_den) << skipped;
        EXPECT_NE(s.aim, base.aim) << skipped;
        EXPECT_NE(s.adm3, base.adm3) << skipped;
    }
}

TEST(Pooling, OptionsReachTheScores)
{
    U8Pair p(320, 180, 17);
    const FloatAdmScores base = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    FloatAdmOptions variants[6];
    for (FloatAdmOptions &v : variants)
        v = defaults();
    variants[0].enhn_gain_limit = 1.0;
    variants[1].norm_view_dist = 6.0;
    variants[2].csf_mode = 1;
    variants[3].bypass_cm = 1;
    variants[4].p_norm = 2.5;
    variants[5].noise_weight = 1.0;
    for (int k = 0; k < 6; k++) {
        const FloatAdmScores s = score_u8(p.w, p.h, p.ref, p.dist, variants[k]);
        EXPECT_NE(s.adm2, base.adm2) << "variant " << k;
        EXPECT_TRUE(std::isfinite(s.adm2)) << "variant " << k;
    }
}

TEST(Pooling, ContextScoresManyFramesIndependently)
{
    U8Pair a(67, 45, 18), b(67, 45, 19);
    Context c(67, 45, 8, defaults());
    const FloatAdmPlane ra{a.ref.data(), 67, 1, 0}, da{a.dist.data(), 67, 1, 0};
    const FloatAdmPlane rb{b.ref.data(), 67, 1, 0}, db{b.dist.data(), 67, 1, 0};
    const FloatAdmScores first = score(c.ctx, ra, da);
    score(c.ctx, rb, db);
    expect_identical(score(c.ctx, ra, da), first, "rescored frame");
}

/* ---- Executors ---- */

/* Every job on its own thread. */
int threaded_execute(void *, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    std::vector<std::thread> threads;
    for (int k = 0; k < nb_jobs; k++)
        threads.emplace_back([=]() { job(arg, k, nb_jobs); });
    for (std::thread &t : threads)
        t.join();
    return 0;
}

/* Jobs serially, last first. */
int reverse_execute(void *, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    for (int k = nb_jobs - 1; k >= 0; k--)
        job(arg, k, nb_jobs);
    return 0;
}

/* Counts the calls, to show the executor is used. */
int counting_execute(void *calls, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    ++*static_cast<int *>(calls);
    return reverse_execute(nullptr, job, arg, nb_jobs);
}

TEST(Executor, ScoresDoNotDependOnJobsOrOrder)
{
    for (const auto &size : {std::pair<int, int>{67, 45}, {320, 180}}) {
        U8Pair p(size.first, size.second, 21);
        const FloatAdmPlane ref{p.ref.data(), p.w, 1, 0}, dist{p.dist.data(), p.w, 1, 0};
        Context c(p.w, p.h, 8, defaults());
        const FloatAdmScores serial = score(c.ctx, ref, dist);
        for (FloatAdmExecuteFn execute : {threaded_execute, reverse_execute}) {
            for (int jobs = 1; jobs <= 8; jobs++) {
                ASSERT_EQ(float_adm_set_executor(c.ctx, execute, nullptr, jobs), 0);
                expect_identical(score(c.ctx, ref, dist), serial,
                                 std::to_string(p.w) + "x" + std::to_string(p.h) + ", " +
                                     std::to_string(jobs) + " jobs" +
                                     (execute == reverse_execute ? " reversed" : " threaded"));
            }
        }
        ASSERT_EQ(float_adm_set_executor(c.ctx, nullptr, nullptr, 4), 0);
        expect_identical(score(c.ctx, ref, dist), serial, "serial again");
    }
}

TEST(Executor, IsCalledOnlyForMoreThanOneJob)
{
    U8Pair p(67, 45, 22);
    const FloatAdmPlane ref{p.ref.data(), p.w, 1, 0}, dist{p.dist.data(), p.w, 1, 0};
    Context c(p.w, p.h, 8, defaults());
    int calls = 0;
    ASSERT_EQ(float_adm_set_executor(c.ctx, counting_execute, &calls, 1), 0);
    score(c.ctx, ref, dist);
    EXPECT_EQ(calls, 0);
    ASSERT_EQ(float_adm_set_executor(c.ctx, counting_execute, &calls, 3), 0);
    score(c.ctx, ref, dist);
    EXPECT_GT(calls, 0);
}

/* Jobs serially, first first, counting the calls. */
int forward_counting_execute(void *calls, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    ++*static_cast<int *>(calls);
    for (int k = 0; k < nb_jobs; k++)
        job(arg, k, nb_jobs);
    return 0;
}

/* A frame meets its jobs once (FFmpeg's slice threads wait for each other once per
 * frame, not at every scale), with or without a map, in either order of the jobs. */
TEST(Executor, OneCallPerFrame)
{
    U8Pair p(320, 180, 24);
    const FloatAdmPlane ref{p.ref.data(), p.w, 1, 0}, dist{p.dist.data(), p.w, 1, 0};
    for (const bool map : {false, true}) {
        Context c(p.w, p.h, 8, defaults());
        if (map) {
            ASSERT_EQ(float_adm_context_enable_map(c.ctx), 0);
        }
        const FloatAdmScores serial = score(c.ctx, ref, dist);
        for (FloatAdmExecuteFn execute : {forward_counting_execute, counting_execute}) {
            int calls = 0;
            ASSERT_EQ(float_adm_set_executor(c.ctx, execute, &calls, 4), 0);
            for (int frame = 0; frame < 3; frame++)
                expect_identical(score(c.ctx, ref, dist), serial,
                                 std::string(map ? "with a map, " : "") + "frame " +
                                     std::to_string(frame));
            EXPECT_EQ(calls, 3) << (map ? "with a map" : "without a map");
        }
    }
}

TEST(Threads, ContextThreadsGiveTheSerialBits)
{
    U8Pair p(320, 180, 23);
    const FloatAdmPlane ref{p.ref.data(), p.w, 1, 0}, dist{p.dist.data(), p.w, 1, 0};
    Context c(p.w, p.h, 8, defaults());
    const FloatAdmScores serial = score(c.ctx, ref, dist);
    for (int threads : {2, 3, 8, 1, 5}) {
        ASSERT_EQ(float_adm_context_set_threads(c.ctx, threads), 0);
        expect_identical(score(c.ctx, ref, dist), serial,
                         std::to_string(threads) + " threads of the context");
    }
    /* A caller's executor replaces the context's threads, and back again. */
    int calls = 0;
    ASSERT_EQ(float_adm_set_executor(c.ctx, counting_execute, &calls, 3), 0);
    expect_identical(score(c.ctx, ref, dist), serial, "an executor after threads");
    EXPECT_GT(calls, 0);
    ASSERT_EQ(float_adm_context_set_threads(c.ctx, 4), 0);
    calls = 0;
    expect_identical(score(c.ctx, ref, dist), serial, "threads after an executor");
    EXPECT_EQ(calls, 0);
}

TEST(Threads, CountsOutsideTheLimitsAreRefused)
{
    Context c(64, 64, 8, defaults());
    EXPECT_EQ(float_adm_context_set_threads(c.ctx, 0), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_threads(c.ctx, -3), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_threads(c.ctx, FLOAT_ADM_MAX_THREADS + 1),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_threads(nullptr, 2), FLOAT_ADM_ERROR_INVALID);
}

/* ---- Storage ---- */

TEST(Storage, P010EqualsPlanar10Bit)
{
    const int w = 67, h = 45;
    const testsupport::FramePair p = testsupport::make_frame_pair(
        testsupport::FrameGeometry{w, h, 10}, 31);
    Context c(w, h, 10, defaults());
    const FloatAdmScores planar = score(c.ctx, p.ref.view(), p.dist.view());
    const FloatAdmScores p010 = score(c.ctx, testsupport::with_shift(p.ref, 6).view(),
                                      testsupport::with_shift(p.dist, 6).view());
    expect_identical(planar, p010, "P010 vs planar");
    EXPECT_LT(planar.adm2, 1.0);
}

TEST(Storage, HigherDepthsOfAnEightBitFrameScoreTheSame)
{
    /* v << (depth - 8) divided by 2^(depth - 8) is v again: the same input exactly. */
    const int w = 67, h = 45;
    const testsupport::FramePair p = testsupport::make_frame_pair(
        testsupport::FrameGeometry{w, h, 8}, 41);
    const FloatAdmScores eight = score_u8(w, h, p.ref.bytes, p.dist.bytes, defaults());
    for (int depth : {9, 10, 12, 14, 16}) {
        const testsupport::LumaPlane rw = testsupport::widened(p.ref, depth);
        const testsupport::LumaPlane dw = testsupport::widened(p.dist, depth);
        Context c(w, h, depth, defaults());
        const FloatAdmScores wide = score(c.ctx, rw.view(), dw.view());
        expect_identical(wide, eight, std::to_string(depth) + "-bit");
    }
}

TEST(Storage, NineAndFourteenBitFramesScore)
{
    for (int depth : {9, 14}) {
        const int w = 40, h = 30;
        const testsupport::FramePair p = testsupport::make_frame_pair(
            testsupport::FrameGeometry{w, h, depth}, 51);
        Context c(w, h, depth, defaults());
        const FloatAdmScores s = score(c.ctx, p.ref.view(), p.dist.view());
        EXPECT_GT(s.adm2, 0.0) << depth;
        EXPECT_LT(s.adm2, 1.0) << depth;
        EXPECT_TRUE(std::isfinite(s.aim)) << depth;
    }
}

TEST(Storage, PaddedAndNegativeStridesReadTheSameFrame)
{
    U8Pair p(67, 45, 61);
    const FloatAdmScores packed = score_u8(p.w, p.h, p.ref, p.dist, defaults());
    const int padded = 80;
    std::vector<uint8_t> r_pad((size_t)padded * p.h, 0xaa), d_pad((size_t)padded * p.h, 0x55);
    std::vector<uint8_t> r_flip(p.ref.size()), d_flip(p.dist.size());
    for (int i = 0; i < p.h; i++) {
        memcpy(&r_pad[(size_t)i * padded], &p.ref[(size_t)i * p.w], p.w);
        memcpy(&d_pad[(size_t)i * padded], &p.dist[(size_t)i * p.w], p.w);
        memcpy(&r_flip[(size_t)(p.h - 1 - i) * p.w], &p.ref[(size_t)i * p.w], p.w);
        memcpy(&d_flip[(size_t)(p.h - 1 - i) * p.w], &p.dist[(size_t)i * p.w], p.w);
    }
    Context c(p.w, p.h, 8, defaults());
    expect_identical(score(c.ctx, FloatAdmPlane{r_pad.data(), padded, 1, 0},
                           FloatAdmPlane{d_pad.data(), padded, 1, 0}),
                     packed, "padded stride");
    /* Bottom-up storage: start at the last row and step backwards. */
    const size_t last = (size_t)(p.h - 1) * p.w;
    expect_identical(score(c.ctx, FloatAdmPlane{r_flip.data() + last, -p.w, 1, 0},
                           FloatAdmPlane{d_flip.data() + last, -p.w, 1, 0}),
                     packed, "negative stride");
}

} // namespace
