/*
 * Unit tests: the db2 DWT (source indices, taps, band sizes), the band regions and
 * the per-scale setup of the engine.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>

#include "adm_arith.h"
#include "adm_csf.h"
#include "adm_engine.h"

namespace {

FloatAdmOptions default_options()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    return opts;
}

TEST(DwtSourceIndex, MirrorsMinusOneToOne)
{
    EXPECT_EQ(adm::dwt_source_index(0, 0, 8), 1);
    EXPECT_EQ(adm::dwt_source_index(0, 0, 7), 1);
    EXPECT_EQ(adm::dwt_source_index(0, 1, 8), 0);
    EXPECT_EQ(adm::dwt_source_index(0, 2, 8), 1);
    EXPECT_EQ(adm::dwt_source_index(0, 3, 8), 2);
}

TEST(DwtSourceIndex, MirrorsPastTheEndEvenSize)
{
    /* size 8: last output 3 reads 5, 6, 7, then 8 -> 2*8-8-1 = 7. */
    EXPECT_EQ(adm::dwt_source_index(3, 0, 8), 5);
    EXPECT_EQ(adm::dwt_source_index(3, 1, 8), 6);
    EXPECT_EQ(adm::dwt_source_index(3, 2, 8), 7);
    EXPECT_EQ(adm::dwt_source_index(3, 3, 8), 7);
}

TEST(DwtSourceIndex, MirrorsPastTheEndOddSize)
{
    /* size 7: last output 3 reads 5, 6, then 7 -> 6 and 8 -> 5. */
    EXPECT_EQ(adm::dwt_source_index(3, 0, 7), 5);
    EXPECT_EQ(adm::dwt_source_index(3, 1, 7), 6);
    EXPECT_EQ(adm::dwt_source_index(3, 2, 7), 6);
    EXPECT_EQ(adm::dwt_source_index(3, 3, 7), 5);
}

TEST(DwtSourceIndex, StaysInsideEverySizeAScaleCanHave)
{
    /* The smallest scale input of a 17-sample frame is 3 samples. */
    for (int size = 3; size <= 64; size++)
        for (int i = 0; i < (size + 1) / 2; i++)
            for (int tap = 0; tap < 4; tap++) {
                int n = adm::dwt_source_index(i, tap, size);
                EXPECT_GE(n, 0) << "size " << size << " i " << i << " tap " << tap;
                EXPECT_LT(n, size) << "size " << size << " i " << i << " tap " << tap;
                if (2 * i - 1 + tap >= 0 && 2 * i - 1 + tap < size) {
                    EXPECT_EQ(n, 2 * i - 1 + tap);
                }
            }
}

TEST(DwtTaps, LowPassOfAConstantIsTheTapSumInFp32Order)
{
    for (float c : {1.0f, -128.0f, 127.0f, 3.25f}) {
        float expected = 0.0f;
        expected += adm::kDwtLo0 * c;
        expected += adm::kDwtLo1 * c;
        expected += adm::kDwtLo2 * c;
        expected += adm::kDwtLo3 * c;
        EXPECT_EQ(adm::dwt_lo(c, c, c, c), expected) << c;
        /* The db2 low-pass taps sum to sqrt(2). */
        EXPECT_NEAR(adm::dwt_lo(c, c, c, c), c * std::sqrt(2.0), 1e-6 * std::fabs(c));
    }
    EXPECT_EQ(adm::dwt_lo(1, 1, 1, 1), 0x1.6a09e6p+0f);
}

TEST(DwtTaps, HighPassOfAConstantIsNearZero)
{
    for (float c : {1.0f, -128.0f, 127.0f, 3.25f})
        EXPECT_NEAR(adm::dwt_hi(c, c, c, c), 0.0f, 1e-6 * std::fabs(c)) << c;
}

TEST(DwtTaps, AccumulateTapZeroFirst)
{
    /* Catastrophic cancellation makes the order visible. */
    const float s[4] = {1e8f, 1.0f, -1e8f / adm::kDwtLo2 * adm::kDwtLo0, 3.0f};
    float forward = 0.0f;
    forward += adm::kDwtLo0 * s[0];
    forward += adm::kDwtLo1 * s[1];
    forward += adm::kDwtLo2 * s[2];
    forward += adm::kDwtLo3 * s[3];
    float backward = 0.0f;
    backward += adm::kDwtLo3 * s[3];
    backward += adm::kDwtLo2 * s[2];
    backward += adm::kDwtLo1 * s[1];
    backward += adm::kDwtLo0 * s[0];
    ASSERT_NE(forward, backward) << "the input no longer tells the orders apart";
    EXPECT_EQ(adm::dwt_lo(s[0], s[1], s[2], s[3]), forward);
}

TEST(DwtBands, OddSizesRoundUpAtEveryScale)
{
    adm::Engine engine(17, 33, 8, default_options());
    const int widths[4] = {9, 5, 3, 2}, heights[4] = {17, 9, 5, 3};
    const int in_widths[4] = {17, 9, 5, 3}, in_heights[4] = {33, 17, 9, 5};
    for (int s = 0; s < adm::kNumScales; s++) {
        EXPECT_EQ(engine.scale(s).w, widths[s]) << "scale " << s;
        EXPECT_EQ(engine.scale(s).h, heights[s]) << "scale " << s;
        EXPECT_EQ(engine.scale(s).in_w, in_widths[s]) << "scale " << s;
        EXPECT_EQ(engine.scale(s).in_h, in_heights[s]) << "scale " << s;
    }
}

TEST(DwtBands, ScaleSetupMatchesTheArithmetic)
{
    FloatAdmOptions opts = default_options();
    adm::Engine engine(1920, 1080, 8, opts);
    const int widths[4] = {960, 480, 240, 120}, heights[4] = {540, 270, 135, 68};
    for (int s = 0; s < adm::kNumScales; s++) {
        const adm::ScaleSetup &sc = engine.scale(s);
        EXPECT_EQ(sc.w, widths[s]);
        EXPECT_EQ(sc.h, heights[s]);
        adm::Region dec = adm::decouple_region(sc.w, sc.h), sum = adm::sum_region(sc.w, sc.h);
        EXPECT_EQ(sc.decouple.left, dec.left);
        EXPECT_EQ(sc.decouple.top, dec.top);
        EXPECT_EQ(sc.decouple.right, dec.right);
        EXPECT_EQ(sc.decouple.bottom, dec.bottom);
        EXPECT_EQ(sc.sums.left, sum.left);
        EXPECT_EQ(sc.sums.top, sum.top);
        EXPECT_EQ(sc.sums.right, sum.right);
        EXPECT_EQ(sc.sums.bottom, sum.bottom);
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_EQ(sc.factor[0], w.hv);
        EXPECT_EQ(sc.factor[1], w.hv);
        EXPECT_EQ(sc.factor[2], w.d);
        EXPECT_EQ(sc.stride, adm::band_stride(sc.w));
        for (int t = 0; t < 4; t++) {
            ASSERT_EQ((int)sc.column_taps[t].size(), sc.w);
            for (int j = 0; j < sc.w; j++)
                ASSERT_EQ(sc.column_taps[t][j], adm::dwt_source_index(j, t, sc.in_w));
        }
    }
}

/* ---- Regions ---- */

void expect_region(const adm::Region &r, int left, int top, int right, int bottom)
{
    EXPECT_EQ(r.left, left);
    EXPECT_EQ(r.top, top);
    EXPECT_EQ(r.right, right);
    EXPECT_EQ(r.bottom, bottom);
}

TEST(Regions, DecoupleAtFullHdScale0)
{
    /* left = (int)(96 - 1.5) = 94, right = 960 - 94 + 2; top = (int)(54 - 1.5) = 52. */
    expect_region(adm::decouple_region(960, 540), 94, 52, 868, 490);
}

TEST(Regions, DecoupleClampsAtSmallSizes)
{
    /* w = 2: left = (int)(-1.3) = -1 clamps to 0, right = 2 + 1 + 2 clamps to 2. */
    expect_region(adm::decouple_region(2, 3), 0, 0, 2, 3);
    /* (int) truncates toward zero: (int)(-0.5) is 0, not -1. */
    expect_region(adm::decouple_region(10, 9), 0, 0, 10, 9);
    /* left 1: right = 25 - 1 + 2 = 26 clamps to 25. */
    expect_region(adm::decouple_region(25, 25), 1, 1, 25, 25);
}

TEST(Regions, DecoupleIsOneTapWiderThanTheSums)
{
    /* w = 50: left = (int)(3.5) = 3, right = 50 - 3 + 2 = 49 (no clamp needed). */
    expect_region(adm::decouple_region(50, 60), 3, 4, 49, 58);
    expect_region(adm::sum_region(50, 60), 4, 5, 46, 55);
}

/*
 * right/bottom are computed from the unclamped left/top.  left is never below -1, so
 * both readings clamp to w; this pins the formula for every width a band can have.
 */
TEST(Regions, RightAndBottomUseTheUnclampedLeftAndTop)
{
    adm::Region r = adm::decouple_region(4, 5);
    EXPECT_EQ(r.left, 0);
    EXPECT_EQ(r.top, 0);
    EXPECT_EQ(r.right, 4);
    EXPECT_EQ(r.bottom, 5);
    for (int w = 2; w <= 2000; w++) {
        adm::Region d = adm::decouple_region(w, w);
        int left = (int)(w * 0.1 - 0.5 - 1);
        int right = w - left + 2;
        EXPECT_EQ(d.right, right > w ? w : right) << w;
        EXPECT_EQ(d.left, left < 0 ? 0 : left) << w;
        EXPECT_EQ(d.bottom, d.right) << w;
        EXPECT_EQ(d.top, d.left) << w;
    }
}

TEST(Regions, SumsAtFullHdScale0)
{
    /* left = (int)(96 - 0.5) = 95, top = (int)(54 - 0.5) = 53. */
    expect_region(adm::sum_region(960, 540), 95, 53, 865, 487);
}

TEST(Regions, SumsAtSmallSizesTruncateTowardZero)
{
    /* (int)(0.2 - 0.5) is 0: the whole band is summed. */
    expect_region(adm::sum_region(2, 3), 0, 0, 2, 3);
    expect_region(adm::sum_region(9, 5), 0, 0, 9, 5);
    /* 20 * 0.1 - 0.5 = 1.5 -> 1. */
    expect_region(adm::sum_region(20, 20), 1, 1, 19, 19);
}

} // namespace
