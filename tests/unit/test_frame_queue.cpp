/*
 * Unit tests of frames in flight (float_adm_submit / float_adm_collect): the scores of
 * float_adm_score_frame bit for bit, in submission order, for every depth and thread
 * count; a full and an empty queue; settings that wait for an empty queue.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "content.h"
#include "float_adm.h"
#include "scores.h"

namespace {

struct Context {
    FloatAdmContext *ctx = nullptr;
    Context(int w, int h, int depth)
    {
        FloatAdmOptions opts;
        float_adm_options_default(&opts);
        char err[256] = "";
        EXPECT_EQ(float_adm_context_create(&ctx, w, h, depth, &opts, err, sizeof(err)), 0) << err;
    }
    ~Context() { float_adm_context_free(&ctx); }
};

/* Distinct frames, so that a frame returned out of order shows. */
std::vector<testsupport::FramePair> make_frames(const testsupport::FrameGeometry &geometry,
                                                int count)
{
    std::vector<testsupport::FramePair> frames;
    for (int i = 0; i < count; i++)
        frames.push_back(testsupport::make_frame_pair(geometry, 100 + i));
    return frames;
}

std::vector<FloatAdmScores> score_each(const testsupport::FrameGeometry &geometry,
                                       const std::vector<testsupport::FramePair> &frames,
                                       const char *level)
{
    Context c(geometry.width, geometry.height, geometry.depth);
    EXPECT_EQ(float_adm_context_set_simd_level(c.ctx, level), 0);
    std::vector<FloatAdmScores> scores(frames.size());
    for (size_t i = 0; i < frames.size(); i++) {
        const FloatAdmPlane ref = frames[i].ref.view(), dist = frames[i].dist.view();
        EXPECT_EQ(float_adm_score_frame(c.ctx, &ref, &dist, &scores[i]), 0);
    }
    return scores;
}

/* Submits every frame, collecting the oldest whenever the queue is full. */
std::vector<FloatAdmScores> score_in_flight(FloatAdmContext *ctx,
                                            const std::vector<testsupport::FramePair> &frames)
{
    std::vector<FloatAdmScores> scores;
    FloatAdmScores s;
    for (const testsupport::FramePair &frame : frames) {
        const FloatAdmPlane ref = frame.ref.view(), dist = frame.dist.view();
        int ret;
        while ((ret = float_adm_submit(ctx, &ref, &dist)) == FLOAT_ADM_ERROR_AGAIN) {
            EXPECT_EQ(float_adm_collect(ctx, &s, 1), 0);
            scores.push_back(s);
        }
        EXPECT_EQ(ret, 0);
    }
    while (float_adm_in_flight(ctx) > 0) {
        EXPECT_EQ(float_adm_collect(ctx, &s, 1), 0);
        scores.push_back(s);
    }
    return scores;
}

void expect_same_bits(const std::vector<FloatAdmScores> &got,
                      const std::vector<FloatAdmScores> &want, const std::string &what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < want.size(); i++) {
        std::string which;
        EXPECT_EQ(testsupport::differing_outputs(got[i], want[i], &which), 0)
            << what << ", frame " << i << ": " << which;
    }
}

TEST(FramesInFlight, BitIdenticalForEveryDepthAndThreadCount)
{
    for (const testsupport::FrameGeometry geometry :
         {testsupport::FrameGeometry{160, 120, 8}, testsupport::FrameGeometry{97, 71, 10}}) {
        const std::vector<testsupport::FramePair> frames = make_frames(geometry, 11);
        const std::vector<FloatAdmScores> want = score_each(geometry, frames, "auto");
        for (int threads = 1; threads <= 8; threads++) {
            Context c(geometry.width, geometry.height, geometry.depth);
            ASSERT_EQ(float_adm_context_set_threads(c.ctx, threads), 0);
            for (int depth = 1; depth <= 8; depth++) {
                ASSERT_EQ(float_adm_context_set_frames_in_flight(c.ctx, depth), 0);
                expect_same_bits(score_in_flight(c.ctx, frames), want,
                                 std::to_string(geometry.width) + "x" +
                                     std::to_string(geometry.height) + ", " +
                                     std::to_string(threads) + " threads, " +
                                     std::to_string(depth) + " in flight");
            }
        }
    }
}

TEST(FramesInFlight, EveryLevelScoresAsTheContextsFrames)
{
    const testsupport::FrameGeometry geometry{67, 45, 8};
    const std::vector<testsupport::FramePair> frames = make_frames(geometry, 5);
    for (int i = 0; const char *level = float_adm_simd_level_name(i); i++) {
        Context c(geometry.width, geometry.height, geometry.depth);
        ASSERT_EQ(float_adm_context_set_simd_level(c.ctx, level), 0);
        ASSERT_EQ(float_adm_context_set_threads(c.ctx, 3), 0);
        ASSERT_EQ(float_adm_context_set_frames_in_flight(c.ctx, 2), 0);
        expect_same_bits(score_in_flight(c.ctx, frames), score_each(geometry, frames, level),
                         level);
    }
}

TEST(FramesInFlight, AgainWhenFullOrEmpty)
{
    const testsupport::FrameGeometry geometry{64, 64, 8};
    const std::vector<testsupport::FramePair> frames = make_frames(geometry, 3);
    Context c(geometry.width, geometry.height, geometry.depth);
    FloatAdmScores s;
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 0), FLOAT_ADM_ERROR_AGAIN);
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 1), FLOAT_ADM_ERROR_AGAIN);
    ASSERT_EQ(float_adm_context_set_frames_in_flight(c.ctx, 2), 0);
    const FloatAdmPlane ref = frames[0].ref.view(), dist = frames[0].dist.view();
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, &dist), 0);
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, &dist), 0);
    EXPECT_EQ(float_adm_in_flight(c.ctx), 2);
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, &dist), FLOAT_ADM_ERROR_AGAIN);
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 1), 0);
    EXPECT_EQ(float_adm_in_flight(c.ctx), 1);
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 1), 0);
    EXPECT_EQ(float_adm_in_flight(c.ctx), 0);
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 1), FLOAT_ADM_ERROR_AGAIN);
    EXPECT_STREQ(float_adm_error_name(FLOAT_ADM_ERROR_AGAIN), "AGAIN");
}

TEST(FramesInFlight, SettingsWaitForAnEmptyQueue)
{
    const testsupport::FrameGeometry geometry{64, 64, 8};
    const std::vector<testsupport::FramePair> frames = make_frames(geometry, 1);
    Context c(geometry.width, geometry.height, geometry.depth);
    const FloatAdmPlane ref = frames[0].ref.view(), dist = frames[0].dist.view();
    ASSERT_EQ(float_adm_submit(c.ctx, &ref, &dist), 0);
    EXPECT_EQ(float_adm_context_set_threads(c.ctx, 2), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_frames_in_flight(c.ctx, 2), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_simd_level(c.ctx, "scalar"), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_set_executor(c.ctx, nullptr, nullptr, 1), FLOAT_ADM_ERROR_INVALID);
    FloatAdmScores s;
    EXPECT_EQ(float_adm_collect(c.ctx, &s, 1), 0);
    EXPECT_EQ(float_adm_context_set_threads(c.ctx, 2), 0);
    EXPECT_EQ(float_adm_context_set_frames_in_flight(c.ctx, 0), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_context_set_frames_in_flight(c.ctx, FLOAT_ADM_MAX_FRAMES_IN_FLIGHT + 1),
              FLOAT_ADM_ERROR_INVALID);
}

TEST(FramesInFlight, BadPlanesAndMapsAreRefused)
{
    const testsupport::FrameGeometry geometry{64, 64, 8};
    const std::vector<testsupport::FramePair> frames = make_frames(geometry, 1);
    Context c(geometry.width, geometry.height, geometry.depth);
    const FloatAdmPlane ref = frames[0].ref.view(), dist = frames[0].dist.view();
    FloatAdmPlane bad = dist;
    bad.bytes_per_sample = 2;
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, nullptr), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, &bad), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_in_flight(c.ctx), 0);
    ASSERT_EQ(float_adm_context_enable_map(c.ctx), 0);
    EXPECT_EQ(float_adm_submit(c.ctx, &ref, &dist), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_submit(nullptr, &ref, &dist), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_in_flight(nullptr), 0);
}

} // namespace
