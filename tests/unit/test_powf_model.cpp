/*
 * Unit tests: the model of glibc's powf (adm_powf_model.h) against this host's
 * powf, bit for bit.  Where the host's libm is neither glibc build the tests that
 * need it skip and say so.  On x86-64 glibc, GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA
 * makes a processor with FMA run the SSE2 build, so both models are tested on one
 * machine (make check-unit runs these tests both ways).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "adm_powf_model.h"

namespace {

using adm::powf_bits;
using adm::powf_from_bits;

float fma_model(float x, float y)
{
    return adm::glibc_powf<true>(x, y, adm::kPowfLog2Table, adm::kPowfExp2Table);
}

float sse2_model(float x, float y)
{
    return adm::glibc_powf<false>(x, y, adm::kPowfLog2Table, adm::kPowfExp2Table);
}

float host_powf(float x, float y) { return powf(x, y); }

const char *mode_name(int mode)
{
    return mode == adm::kPowfGlibcFma ? "FMA" : mode == adm::kPowfGlibcSse2 ? "SSE2" : "none";
}

/* The probe's build, or -1 (the caller skips) where no model holds here. */
int host_mode(std::string *why)
{
    const adm::PowfProbe &probe = adm::powf_probe_host();
    char line[256];
    adm::powf_probe_describe(probe, line, sizeof(line));
    *why = std::string("this host's libm powf matches neither glibc model: ") + line;
    return probe.mode == adm::kPowfDevice ? -1 : probe.mode;
}

/* The adm_p_norm values the tests cover (1 and 3 are the backend's usual ones). */
const float kTestPs[] = {1.5f, 2.5f, 4.0f, 7.3f, 20.0f, 1.0f};

/* Every float from `centre` - n ulps to + n ulps (finite, non-negative). */
void add_around(std::vector<uint32_t> *xs, float centre, int n)
{
    const int64_t c = powf_bits(centre);
    for (int64_t b = c - n; b <= c + n; b++)
        if (b >= 0 && b < 0x7f800000)
            xs->push_back((uint32_t)b);
}

/* About 1.3 million inputs for one p: random bits, the ADM range, edges, specials. */
std::vector<uint32_t> inputs_for(float p, uint32_t seed)
{
    std::vector<uint32_t> xs;
    std::mt19937 rng(seed);
    /* Random finite floats of both signs. */
    while (xs.size() < 400000) {
        const uint32_t b = (uint32_t)rng();
        if ((b & 0x7f800000u) != 0x7f800000u)
            xs.push_back(b);
    }
    /* The terms' range: |CSF-weighted coefficient| - threshold, 0 to about 2^11, linear
     * and logarithmic. */
    std::uniform_real_distribution<float> lin(0.0f, 2048.0f), expo(-40.0f, 12.0f);
    for (int i = 0; i < 300000; i++) {
        xs.push_back(powf_bits(lin(rng)));
        xs.push_back(powf_bits(std::exp2(expo(rng))));
    }
    /* Every 64th float of [1, 2) and of [2^-20, 2^-19): the log2 table's subintervals. */
    for (uint32_t m = 0; m < 0x800000u; m += 64) {
        xs.push_back(127u << 23 | m);
        xs.push_back(107u << 23 | m);
    }
    /* Where x^p leaves the normal range, overflows, underflows, and x near 1. */
    for (double e : {128.0, -126.0, -149.0, -150.0, 0.0})
        add_around(&xs, (float)std::exp2(e / p), 4096);
    /* Subnormal x and special values, both signs. */
    for (uint32_t b = 1; b < 0x800000u; b = b * 3 + 1)
        xs.push_back(b);
    for (uint32_t b :
         {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0x7f7fffffu, 0x7f800000u,
          0x7fc00000u, 0x7f800001u, 0x7fc12345u, 0x7fa00000u, 0x40000000u, 0x3f000000u})
        xs.push_back(b);
    const size_t n = xs.size();
    for (size_t i = n - 64; i < n; i++)
        xs.push_back(xs[i] | 0x80000000u);
    return xs;
}

TEST(PowfModel, DistinguishingInputsTellTheBuildsApart)
{
    ASSERT_GT(adm::kPowfNumDistinguishing, 0);
    for (int i = 0; i < adm::kPowfNumDistinguishing; i++) {
        const float x = powf_from_bits(adm::kPowfDistinguishing[i].x);
        const float y = adm::kPowfDistinguishing[i].y;
        EXPECT_NE(powf_bits(fma_model(x, y)), powf_bits(sse2_model(x, y)))
            << std::hex << adm::kPowfDistinguishing[i].x << " " << y;
    }
}

TEST(PowfModel, ProbeOnThisHost)
{
    const adm::PowfProbe &probe = adm::powf_probe_host();
    char line[256];
    adm::powf_probe_describe(probe, line, sizeof(line));
    const char *tunables = getenv("GLIBC_TUNABLES");
    printf("  %s%s%s\n", line, tunables ? "  GLIBC_TUNABLES=" : "", tunables ? tunables : "");
    EXPECT_EQ(&adm::powf_probe_host(), &probe); /* once per process */
    std::string why;
    if (host_mode(&why) < 0)
        GTEST_SKIP() << why;
    EXPECT_EQ(probe.mismatches, 0);
    EXPECT_GT(probe.inputs_checked, 150000);
    EXPECT_EQ(probe.fma_agree + probe.sse2_agree, probe.distinguishing);
}

TEST(PowfModel, MatchesHostPowfBitForBit)
{
    std::string why;
    const int mode = host_mode(&why);
    if (mode < 0)
        GTEST_SKIP() << why;
    long long total = 0;
    for (float p : kTestPs) {
        const std::vector<uint32_t> xs = inputs_for(p, powf_bits(p));
        long long bad = 0;
        for (uint32_t b : xs) {
            const float x = powf_from_bits(b);
            const uint32_t want = powf_bits(host_powf(x, p));
            const uint32_t got = powf_bits(
                adm::model_powf(x, p, mode, adm::kPowfLog2Table, adm::kPowfExp2Table));
            if (got != want && bad++ < 5)
                ADD_FAILURE() << "p " << p << " x 0x" << std::hex << b << ": host 0x" << want
                              << ", " << mode_name(mode) << " model 0x" << got;
        }
        EXPECT_EQ(bad, 0) << "p " << p;
        total += (long long)xs.size();
    }
    printf("  %s model = host powf on %lld inputs (p 1.5, 2.5, 4, 7.3, 20, 1)\n", mode_name(mode),
           total);
}

TEST(PowfModel, SpecialValues)
{
    const float inf = INFINITY;
    struct Case {
        float x, y;
        uint32_t want;
    };
    const Case cases[] = {
        {0.0f, 2.5f, 0x00000000u},
        {-0.0f, 3.0f, 0x80000000u},
        {-0.0f, 2.5f, 0x00000000u},
        {0.0f, -1.5f, 0x7f800000u},
        {-0.0f, -3.0f, 0xff800000u},
        {inf, 2.5f, 0x7f800000u},
        {-inf, 3.0f, 0xff800000u},
        {inf, -2.5f, 0x00000000u},
        {2.0f, 20.0f, 0x49800000u},
        {-2.0f, 3.0f, 0xc1000000u},
        {4.0f, 1.5f, 0x41000000u},
        {2.0f, 128.0f, 0x7f800000u},
        {-2.0f, 129.0f, 0xff800000u},
        {2.0f, -150.0f, 0x00000000u},
        {2.0f, -149.5f, 0x00000001u},
        {2.0f, -149.0f, 0x00000001u},
        {0x1p-149f, 0.5f, 0x1a3504f3u},
        {-8.0f, 1.5f, adm::kPowfX86DefaultNan},
        {1.0f, NAN, 0x3f800000u},
        {powf_from_bits(0x7fa00000u), 0.0f, 0x7fe00000u},
        {powf_from_bits(0x7fa00000u), 2.5f, 0x7fe00000u},
        {powf_from_bits(0xffc12345u), 2.0f, 0xffc12345u},
        {2.5f, 1.0f, 0x40200000u},
        {0.5f, inf, 0x00000000u},
        {2.0f, -inf, 0x00000000u},
        {-1.0f, inf, 0x3f800000u},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(powf_bits(fma_model(c.x, c.y)), c.want) << c.x << " ^ " << c.y;
        EXPECT_EQ(powf_bits(sse2_model(c.x, c.y)), c.want) << c.x << " ^ " << c.y;
    }
}

/* A host whose powf is the FMA build but one bit off on one input of the check. */
float fma_model_one_bit_off(float x, float y)
{
    const float r = fma_model(x, y);
    return y == 2.5f && powf_bits(x) == 0x41400000u /* 12 */ ? powf_from_bits(powf_bits(r) ^ 1u)
                                                             : r;
}

/* A host that agrees with neither build where they differ. */
float neither_build(float x, float y)
{
    const float r = fma_model(x, y);
    return powf_bits(r) == powf_bits(sse2_model(x, y)) ? r : powf_from_bits(powf_bits(r) + 7u);
}

TEST(PowfModel, ProbeTellsTheBuildsApartAndCatchesErrors)
{
    EXPECT_EQ(adm::powf_probe(fma_model).mode, adm::kPowfGlibcFma);
    EXPECT_EQ(adm::powf_probe(sse2_model).mode, adm::kPowfGlibcSse2);

    const adm::PowfProbe off = adm::powf_probe(fma_model_one_bit_off);
    EXPECT_EQ(off.mode, adm::kPowfDevice);
    EXPECT_EQ(off.mismatches, 1);
    EXPECT_EQ(off.first_mismatch_x, 0x41400000u);
    EXPECT_EQ(off.first_mismatch_y, 2.5f);
    char line[256];
    adm::powf_probe_describe(off, line, sizeof(line));
    EXPECT_NE(std::string(line).find("NOT exact"), std::string::npos) << line;

    const adm::PowfProbe neither = adm::powf_probe(neither_build);
    EXPECT_EQ(neither.mode, adm::kPowfDevice);
    EXPECT_EQ(neither.fma_agree, 0);
    EXPECT_EQ(neither.sse2_agree, 0);
    adm::powf_probe_describe(neither, line, sizeof(line));
    EXPECT_NE(std::string(line).find("neither"), std::string::npos) << line;

    /* The per-p check sees the one-bit error only for its own p. */
    long long checked = 0;
    EXPECT_EQ(
        adm::powf_check_model(adm::kPowfGlibcFma, 2.5f, fma_model_one_bit_off, &checked, nullptr),
        1);
    EXPECT_EQ(
        adm::powf_check_model(adm::kPowfGlibcFma, 1.5f, fma_model_one_bit_off, &checked, nullptr),
        0);
}

TEST(PowfModel, ChoiceForAContext)
{
    const adm::PowfChoice cube = adm::powf_choose(true, 3.0f);
    EXPECT_TRUE(cube.exact);
    std::string why;
    const int mode = host_mode(&why);
    for (float p : {1.0f, 2.5f, 7.3f}) {
        const adm::PowfChoice c = adm::powf_choose(false, p);
        printf("  p %g: %s\n", (double)p, c.description);
        if (mode >= 0) {
            EXPECT_EQ(c.mode, mode);
            EXPECT_TRUE(c.exact);
        } else {
            EXPECT_EQ(c.mode, adm::kPowfDevice);
            EXPECT_EQ(c.exact, p == 1.0f);
        }
    }
}

} // namespace
