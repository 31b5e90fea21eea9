/*
 * Unit tests: the table model of the host's reciprocal estimate (adm_rcp_model.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "adm_rcp.h"
#include "adm_rcp_model.h"

namespace {

using adm::bits_float;
using adm::float_bits;

/* Why the tests of the instruction and its model skip where the build divides. */
[[maybe_unused]] const char *const kNoRcpss =
    "built without RCPSS (FLOAT_ADM_NO_RCPSS or no SSE2): nothing to model";

TEST(RcpModel, ProbeHoldsOnThisHost)
{
    const adm::RcpProbe &probe = adm::rcp_probe_host();
    char line[256];
    adm::rcp_probe_describe(probe, line, sizeof(line));
    printf("  %s\n", line);
#if ADM_HAVE_RCPSS
    EXPECT_EQ(probe.mode, adm::kRcpModelExact) << line;
    EXPECT_EQ(probe.mismatches, 0);
    EXPECT_GT(probe.inputs_checked, 9000000);
#else
    EXPECT_EQ(probe.mode, adm::kRcpDivision);
#endif
    /* A second call reuses the first probe. */
    EXPECT_EQ(&adm::rcp_probe_host(), &probe);
}

TEST(RcpModel, SpecialValues)
{
#if ADM_HAVE_RCPSS
    const uint32_t *table = adm::rcp_probe_host().table;
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(float_bits(adm::rcp_model(0.0f, table)), float_bits(inf));
    EXPECT_EQ(float_bits(adm::rcp_model(-0.0f, table)), float_bits(-inf));
    EXPECT_EQ(float_bits(adm::rcp_model(bits_float(1), table)), float_bits(inf));
    EXPECT_EQ(float_bits(adm::rcp_model(inf, table)), 0u);
    EXPECT_EQ(float_bits(adm::rcp_model(-inf, table)), 0x80000000u);
    EXPECT_TRUE(std::isnan(adm::rcp_model(std::nanf(""), table)));
    for (float x : {0.0f, -0.0f, 1e-40f, inf, -inf, 3e38f, -3e38f, 1.0f, 1.5f, -7.25f, 1e-30f})
        EXPECT_EQ(float_bits(adm::rcp_model(x, table)), float_bits(adm::rcpss(x))) << x;
#else
    GTEST_SKIP() << kNoRcpss;
#endif
}

TEST(RcpModel, RandomInputsMatchTheInstruction)
{
#if ADM_HAVE_RCPSS
    const uint32_t *table = adm::rcp_probe_host().table;
    std::mt19937 rng(42);
    for (int i = 0; i < 1000000; i++) {
        const uint32_t bits = (uint32_t)rng();
        const float x = bits_float(bits);
        ASSERT_EQ(float_bits(adm::rcp_model(x, table)), float_bits(adm::rcpss(x)))
            << std::hex << bits;
    }
#else
    GTEST_SKIP() << kNoRcpss;
#endif
}

TEST(RcpModel, DivideMatchesHostDivide)
{
#if ADM_HAVE_RCPSS
    const adm::RcpProbe &probe = adm::rcp_probe_host();
    const adm::ModelDivide model{probe.table, adm::kRcpModelExact};
    const adm::HostDivide host;
    std::mt19937 rng(7);
    std::normal_distribution<float> value(0.0f, 50.0f);
    for (int i = 0; i < 200000; i++) {
        const float n = value(rng), d = value(rng) + (float)1e-30;
        ASSERT_EQ(float_bits(model(n, d)), float_bits(host(n, d))) << n << " / " << d;
    }
#else
    GTEST_SKIP() << kNoRcpss;
#endif
}

TEST(RcpModel, CheckFindsAWrongTableEntry)
{
#if ADM_HAVE_RCPSS
    std::vector<uint32_t> table(adm::rcp_probe_host().table,
                                adm::rcp_probe_host().table + adm::kRcpTableSize);
    table[1234] ^= 1u << 12; /* one bit inside the 12 bits the estimate uses */
    long long checked = 0;
    uint32_t first = 0;
    const long long mismatches = adm::rcp_check_model(table.data(), &checked, &first);
    EXPECT_GE(mismatches, 2048); /* the whole bucket at exponent 127 */
    EXPECT_EQ((first & 0x7fffffu) >> 11, 1234u);
#else
    GTEST_SKIP() << kNoRcpss;
#endif
}

TEST(RcpModel, FallbacksDivide)
{
    const adm::ModelDivide newton{nullptr, adm::kRcpIeeeNewton};
    const adm::ModelDivide division{nullptr, adm::kRcpDivision};
    EXPECT_EQ(division(3.0f, 7.0f), 3.0f / 7.0f);
    const float r = 1.0f / 7.0f;
    EXPECT_EQ(newton(3.0f, 7.0f), 3.0f * (r + r * (1.0f - 7.0f * r)));
}

} // namespace
