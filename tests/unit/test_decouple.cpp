/*
 * Unit tests: decoupling a sample of the h, v, d bands into restored and additive
 * signals, with libvmaf's division (adm::HostDivide) and with a plain division.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "adm_arith.h"
#include "adm_rcp.h"
#include "content.h"

#if ADM_HAVE_RCPSS
#include <immintrin.h>
#endif

namespace {

struct PlainDivide {
    float operator()(float n, float d) const { return n / d; }
};

/* (float)(cos(1 deg)^2), the product in fp64 as upstream. */
const float kCos1DegSq = []() {
    const double pi = 3.14159265358979323846;
    return (float)(cos(pi / 180.0) * cos(pi / 180.0));
}();

template <class Divide> class Decouple : public ::testing::Test {
protected:
    adm::Decoupled run(const float o[3], const float t[3], double egl = 100.0)
    {
        return adm::decouple(o, t, egl, kCos1DegSq, Divide());
    }
};

using Divisions = ::testing::Types<PlainDivide, adm::HostDivide>;
TYPED_TEST_SUITE(Decouple, Divisions);

TYPED_TEST(Decouple, NegativeRatioClampsToZero)
{
    /* Opposite signs: k < 0 clamps to 0, everything is additive. */
    const float o[3] = {2.0f, 0.0f, 1.0f}, t[3] = {-1.0f, 0.0f, -3.0f};
    adm::Decoupled dc = this->run(o, t);
    for (int b = 0; b < 3; b++) {
        EXPECT_EQ(dc.restored[b], 0.0f) << b;
        EXPECT_EQ(dc.additive[b], t[b]) << b;
    }
}

TYPED_TEST(Decouple, RatioAboveOneClampsToOneWithoutAngle)
{
    /* h, v far from parallel: no gain, restored = o where |t| > |o|. */
    const float o[3] = {1.0f, 0.0f, 2.0f}, t[3] = {2.0f, 5.0f, 6.0f};
    adm::Decoupled dc = this->run(o, t);
    EXPECT_EQ(dc.restored[0], 1.0f);
    EXPECT_EQ(dc.additive[0], 1.0f);
    /* o = 0: k = t / 1e-30 clamps to 1, restored 1 * 0. */
    EXPECT_EQ(dc.restored[1], 0.0f);
    EXPECT_EQ(dc.additive[1], 5.0f);
    EXPECT_EQ(dc.restored[2], 2.0f);
    EXPECT_EQ(dc.additive[2], 4.0f);
}

TYPED_TEST(Decouple, ZeroOverZeroRestoresNothing)
{
    const float o[3] = {0.0f, 0.0f, 0.0f}, t[3] = {0.0f, 0.0f, 0.0f};
    adm::Decoupled dc = this->run(o, t);
    for (int b = 0; b < 3; b++) {
        EXPECT_EQ(dc.restored[b], 0.0f);
        EXPECT_EQ(dc.additive[b], 0.0f);
    }
}

TYPED_TEST(Decouple, ParallelPositiveEnhancementIsLimitedByGain)
{
    /* t = 2 o: within the angle, k clamps to 1, rst = MIN(o * egl, t) in fp64. */
    const float o[3] = {3.0f, 4.0f, 1.0f}, t[3] = {6.0f, 8.0f, 5.0f};
    adm::Decoupled dc = this->run(o, t, 1.0);
    EXPECT_EQ(dc.restored[0], 3.0f);
    EXPECT_EQ(dc.restored[1], 4.0f);
    EXPECT_EQ(dc.restored[2], 1.0f);
    dc = this->run(o, t, 1.2);
    EXPECT_EQ(dc.restored[0], (float)(3.0 * 1.2));
    EXPECT_EQ(dc.restored[1], (float)(4.0 * 1.2));
    EXPECT_EQ(dc.restored[2], (float)(1.0 * 1.2));
    dc = this->run(o, t, 100.0);
    for (int b = 0; b < 3; b++) {
        EXPECT_EQ(dc.restored[b], t[b]) << b;
        EXPECT_EQ(dc.additive[b], 0.0f) << b;
    }
}

TYPED_TEST(Decouple, ParallelNegativeEnhancementIsLimitedByGain)
{
    /* rst < 0: rst = MAX(rst * egl, t). */
    const float o[3] = {-3.0f, -4.0f, -1.0f}, t[3] = {-6.0f, -8.0f, -5.0f};
    adm::Decoupled dc = this->run(o, t, 1.0);
    EXPECT_EQ(dc.restored[0], -3.0f);
    EXPECT_EQ(dc.restored[2], -1.0f);
    dc = this->run(o, t, 1.2);
    EXPECT_EQ(dc.restored[0], (float)(-3.0 * 1.2));
    EXPECT_EQ(dc.restored[1], (float)(-4.0 * 1.2));
    EXPECT_EQ(dc.restored[2], (float)(-1.0 * 1.2));
    dc = this->run(o, t, 100.0);
    for (int b = 0; b < 3; b++)
        EXPECT_EQ(dc.restored[b], t[b]) << b;
}

TYPED_TEST(Decouple, GainProductIsFp64)
{
    /* rst * 1.2 rounds differently in fp32 than the fp64 product stored to fp32. */
    const float rst = 0x1.68bae2p-2f;
    ASSERT_NE((float)((double)rst * 1.2), rst * (float)1.2);
    const float o[3] = {rst, rst, rst}, t[3] = {4 * rst, 4 * rst, 4 * rst};
    adm::Decoupled dc = this->run(o, t, 1.2);
    EXPECT_EQ(dc.restored[0], 0x1.b0e042p-2f);
    EXPECT_EQ(dc.restored[0], (float)((double)rst * 1.2));
}

TYPED_TEST(Decouple, AngleGateUsesOnlyHorizontalAndVertical)
{
    /* h, v parallel: the d band gets the gain even though d is unrelated. */
    const float o[3] = {1.0f, 1.0f, 1.0f}, t[3] = {2.0f, 2.0f, 5.0f};
    EXPECT_EQ(this->run(o, t).restored[2], 5.0f);
    /* h, v orthogonal (ot_dp = 0): no gain anywhere. */
    const float o2[3] = {1.0f, 0.0f, 1.0f}, t2[3] = {0.0f, 2.0f, 5.0f};
    adm::Decoupled dc = this->run(o2, t2);
    EXPECT_EQ(dc.restored[2], 1.0f);
    EXPECT_EQ(dc.additive[2], 4.0f);
}

TYPED_TEST(Decouple, AntiparallelIsOutsideTheAngle)
{
    /* ot_dp < 0 with ot_dp^2 = |o|^2 |t|^2: only the sign test keeps the gain off. */
    const float o[3] = {1.0f, 1.0f, 1.0f}, t[3] = {-2.0f, -2.0f, 5.0f};
    adm::Decoupled dc = this->run(o, t);
    EXPECT_EQ(dc.restored[0], 0.0f);
    EXPECT_EQ(dc.restored[2], 1.0f);
    EXPECT_EQ(dc.additive[2], 4.0f);
}

TYPED_TEST(Decouple, AngleThresholdIsOneDegree)
{
    const double pi = 3.14159265358979323846;
    for (double degrees : {0.0, 0.5, 0.9, 1.1, 2.0, 10.0}) {
        const double a = degrees * pi / 180.0;
        const float o[3] = {1.0f, 0.0f, 1.0f};
        const float t[3] = {(float)(2 * cos(a)), (float)(2 * sin(a)), 3.0f};
        const float expected = degrees < 1.0 ? 3.0f : 1.0f;
        EXPECT_EQ(this->run(o, t).restored[2], expected) << degrees << " degrees";
    }
}

TYPED_TEST(Decouple, AdditiveIsDistortedMinusRestored)
{
    testsupport::Lcg rng{12345};
    auto next = [&rng]() { return (float)((int)rng.next() - (1 << 23)) / (float)(1 << 16); };
    for (int n = 0; n < 20000; n++) {
        const float o[3] = {next(), next(), next()};
        const float t[3] = {next(), next(), next()};
        for (double egl : {1.0, 1.2, 100.0}) {
            adm::Decoupled dc = this->run(o, t, egl);
            for (int b = 0; b < 3; b++)
                ASSERT_EQ(dc.additive[b], t[b] - dc.restored[b]);
        }
    }
}

/*
 * What HostDivide promises on an x86 processor: n * (x + x * (1 - d * x)) with x the
 * processor's RCPSS estimate, each operation rounded to fp32 in that order.  Nothing
 * nearer 1/d is promised (on Intel 1/1.00439453125 comes out 2 ulp off); the estimate
 * itself is only documented to lie within 1.5 * 2^-12 relative of 1/d.
 */
TEST(HostDivide, IsOneNewtonStepOnTheRcpssEstimate)
{
#if ADM_HAVE_RCPSS
    std::vector<float> divisors;
    for (int k = 0; k < 4096; k++)
        divisors.push_back(1.0f + (float)k / 4096);
    for (float d : {3.0f, 0.7f, 1e-30f, 1e30f, -5.5f, -1.00439453125f, 255.0f, 0x1.fffffep-1f})
        divisors.push_back(d);
    for (float d : divisors) {
        const float x = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
        const double relative_error = std::fabs((double)x * (double)d - 1.0);
        ASSERT_LE(relative_error, 1.5 / 4096) << "RCPSS estimate of 1/" << d;
        const float residual = 1.0f - d * x;
        const float refined = x + x * residual;
        for (float n : {1.0f, 2.5f, -7.0f}) {
            const float quotient = adm::HostDivide()(n, d), expected = n * refined;
            uint32_t a, b;
            memcpy(&a, &quotient, sizeof(a));
            memcpy(&b, &expected, sizeof(b));
            ASSERT_EQ(a, b) << n << " / " << d;
        }
    }
#else
    GTEST_SKIP() << "built without RCPSS (FLOAT_ADM_NO_RCPSS or no SSE2): HostDivide divides";
#endif
}

#if !ADM_HAVE_RCPSS
/* Where libvmaf has no RCPSS (or FLOAT_ADM_NO_RCPSS) it divides. */
TEST(HostDivide, DividesWithoutRcpss)
{
    for (float d : {3.0f, 0.7f, 1e-30f, -5.5f, 1.00439453125f})
        EXPECT_EQ(adm::HostDivide()(2.5f, d), 2.5f / d) << d;
}
#endif

} // namespace
