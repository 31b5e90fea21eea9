/*
 * Unit tests: the CSF of a decoupled sample, the masking threshold and the terms
 * of the p-norm sums.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>

#include "adm_arith.h"

namespace {

TEST(CsfFiltered, OneBy30IsAnFp64ProductOfTheMagnitude)
{
    for (float w : {1.0f, -1.0f, 0.3f, -77.25f, 1e-3f}) {
        EXPECT_EQ(adm::csf_filtered(w), (float)(0.0333333351 * (double)std::fabs(w))) << w;
        EXPECT_GE(adm::csf_filtered(w), 0.0f);
    }
    EXPECT_EQ(adm::csf_weight(0.5f, -3.0f), -1.5f);
}

TEST(ThresholdBand, AddsTheNeighboursInRowOrderWithAnFp64Centre)
{
    const float f[9] = {0.1f, 0.2f, 0.3f, 0.4f, 0.0f, 0.6f, 0.7f, 0.8f, 0.9f};
    const float centre = -2.5f;
    float expected = 0.0f;
    for (int k = 0; k < 4; k++)
        expected += f[k];
    expected = (float)((double)expected + 0.0666666701 * (double)std::fabs(centre));
    for (int k = 5; k < 9; k++)
        expected += f[k];
    EXPECT_EQ(adm::threshold_band(f[0], f[1], f[2], f[3], centre, f[5], f[6], f[7], f[8]),
              expected);
}

TEST(ThresholdBand, CentreIsAddedInFp64AndRoundedOnce)
{
    /* These operands round differently when the 1/15 product is rounded to fp32 first. */
    const float partial = 0x1.00f9fp+0f, centre = 0x1.8bbe58p-1f;
    const float fp32_first = partial + (float)(adm::kOneBy15 * (double)centre);
    const float got = adm::threshold_band(partial, 0, 0, 0, centre, 0, 0, 0, 0);
    EXPECT_EQ(got, 0x1.0e2af2p+0f);
    EXPECT_NE(got, fp32_first);
    /* Only the magnitude of the centre counts. */
    EXPECT_EQ(adm::threshold_band(partial, 0, 0, 0, -centre, 0, 0, 0, 0), got);
}

TEST(ThresholdBand, CentreComesAfterTheFourthNeighbour)
{
    /* A huge first neighbour cancelled by the fourth: the order decides what survives. */
    const float big = 1e8f, small = 0.75f;
    const float got = adm::threshold_band(big, small, 0, -big, 0, 0, 0, 0, 0);
    float expected = 0.0f;
    expected += big;
    expected += small;
    expected += 0.0f;
    expected += -big;
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got, 0.0f); /* 0.75 is lost against 1e8 */
}

TEST(ThresholdSum, AddsHorizontalVerticalDiagonal)
{
    EXPECT_EQ(adm::threshold_sum(1e8f, 1.0f, -1e8f), 0.0f);
    EXPECT_EQ(adm::threshold_sum(1.0f, 2.0f, 3.5f), 6.5f);
}

TEST(MaskedTerm, FloorsAtZero)
{
    EXPECT_EQ(adm::masked_term(1.0f, 2.0f, true, 3.0f), 0.0f);
    EXPECT_EQ(adm::masked_term(-1.0f, 2.0f, true, 3.0f), 0.0f);
    EXPECT_EQ(adm::masked_term(1.0f, 2.0f, false, 2.5f), 0.0f);
    EXPECT_EQ(adm::masked_term(2.0f, 2.0f, true, 3.0f), 0.0f);
}

TEST(MaskedTerm, UsesTheMagnitudeOfTheWeightedSample)
{
    EXPECT_EQ(adm::masked_term(-3.0f, 1.0f, true, 3.0f), 8.0f);
    EXPECT_EQ(adm::masked_term(3.0f, 1.0f, true, 3.0f), 8.0f);
    EXPECT_EQ(adm::masked_term(-5.0f, 1.0f, false, 0.5f), 2.0f);
}

TEST(NormTerm, CubeIsTwoMultiplicationsNotPowf)
{
    /* x * x * x and powf(x, 3) differ in the last bit here. */
    const float x = 0x1.00093ep+0f;
    ASSERT_NE(x * x * x, powf(x, 3.0f));
    EXPECT_EQ(adm::norm_term(x, true, 3.0f), 0x1.001bbap+0f);
    EXPECT_EQ(adm::norm_term(x, false, 3.0f), powf(x, 3.0f));
    EXPECT_EQ(adm::masked_term(-x, 0.0f, true, 3.0f), (x * x) * x);
}

TEST(NormTerm, OtherPowersUsePowf)
{
    for (float x : {0.0f, 0.5f, 1.0f, 2.0f, 123.456f})
        EXPECT_EQ(adm::norm_term(x, false, 2.5f), powf(x, 2.5f)) << x;
}

TEST(ReferenceTerm, IsTheMagnitudeOfTheFp32ProductToThePower)
{
    const float factor = 0x1.1cc774p-6f;
    for (float ref : {1.0f, -1.0f, 37.5f, -200.125f}) {
        const float c = std::fabs(factor * ref);
        EXPECT_EQ(adm::reference_term(factor, ref, true, 3.0f), c * c * c) << ref;
        EXPECT_EQ(adm::reference_term(factor, ref, false, 2.0f), powf(c, 2.0f)) << ref;
    }
    EXPECT_EQ(adm::reference_term(factor, 0.0f, true, 3.0f), 0.0f);
}

} // namespace
