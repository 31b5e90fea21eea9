/*
 * float_adm: which build of glibc's powf this host runs, and a check of its model.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <chrono>
#include <cstdio>
#include <mutex>

#include "adm_powf_model.h"

namespace adm {

const double kPowfLog2Table[2 * kPowfLog2TableSize] = ADM_POWF_LOG2_TABLE;
const uint64_t kPowfExp2Table[kPowfExp2TableSize] = ADM_POWF_EXP2_TABLE;

/*
 * Inputs where the FMA and SSE2 builds round differently, found by evaluating both
 * models on every float x for each y: the two builds differ rarely (for y 20 on 2 of
 * the 2^31 non-negative x, for 1.5, 2.5, 4 and 7.3 on none), more often where |y log2 x|
 * nears 128.  The unit tests assert that the two models differ on each.
 */
const PowfDistinguishingInput kPowfDistinguishing[] = {
    {0x4145f525u, 20.0f}, {0x3dc5f525u, 20.0f}, {0x3f4e4aa5u, -100.0f}, {0x3edf51f8u, 63.7f},
    {0x400a7032u, 63.7f}, {0x3f455138u, 90.1f}, {0x3f5791dfu, -77.7f},  {0x3ef82409u, 120.0f},
};
const int kPowfNumDistinguishing = (int)(sizeof(kPowfDistinguishing) /
                                         sizeof(kPowfDistinguishing[0]));

namespace {

/* The y of the process-wide check: the usual adm_p_norm values and a few others. */
const float kProbeYs[] = {0.5f, 1.0f, 1.5f, 2.5f, 4.0f, 7.3f, 20.0f, -1.5f};

/* The host's own powf, called through a pointer so that nothing folds it. */
float libm_powf(float x, float y) { return powf(x, y); }

/* 64 mantissas per exponent, each in its own 1/64 of the binade at a hashed offset. */
uint32_t sample_mantissa(uint32_t e, uint32_t k)
{
    const uint32_t offset = ((e * 64 + k) * 2654435761u) >> 15; /* 17 bits */
    return (k << 17 | offset) & 0x7fffffu;
}

struct Checker {
    int mode;
    float y;
    HostPowf host;
    long long checked = 0, mismatches = 0;
    uint32_t first_mismatch = 0;

    void check(uint32_t xbits)
    {
        const float x = powf_from_bits(xbits);
        checked++;
        if (powf_bits(host(x, y)) !=
            powf_bits(model_powf(x, y, mode, kPowfLog2Table, kPowfExp2Table))) {
            if (!mismatches)
                first_mismatch = xbits;
            mismatches++;
        }
    }
};

} // namespace

long long powf_check_model(int mode, float y, HostPowf host, long long *inputs_checked,
                           uint32_t *first_mismatch_x)
{
    Checker c{mode, y, host};
    for (uint32_t sign = 0; sign < 2; sign++) {
        for (uint32_t e = 0; e < 256; e++) {
            const uint32_t base = sign << 31 | e << 23;
            /* Negative x only matters for integer y: fewer of them. */
            for (uint32_t k = 0; k < 64; k += sign ? 8 : 1)
                c.check(base | sample_mantissa(e, k));
            c.check(base);             /* zero, 2^e, infinity */
            c.check(base | 1u);        /* smallest denormal; signalling NaN */
            c.check(base | 0x400000u); /* 1.5 * 2^e; quiet NaN */
            c.check(base | 0x7fffffu); /* largest mantissa */
        }
    }
    if (inputs_checked)
        *inputs_checked = c.checked;
    if (first_mismatch_x)
        *first_mismatch_x = c.first_mismatch;
    return c.mismatches;
}

PowfProbe powf_probe(HostPowf host)
{
    const auto start = std::chrono::steady_clock::now();
    PowfProbe probe = {};
    probe.distinguishing = kPowfNumDistinguishing;
    for (int i = 0; i < kPowfNumDistinguishing; i++) {
        const float x = powf_from_bits(kPowfDistinguishing[i].x), y = kPowfDistinguishing[i].y;
        const uint32_t got = powf_bits(host(x, y));
        probe.fma_agree += got == powf_bits(glibc_powf<true>(x, y, kPowfLog2Table, kPowfExp2Table));
        probe.sse2_agree += got ==
                            powf_bits(glibc_powf<false>(x, y, kPowfLog2Table, kPowfExp2Table));
    }
    if (probe.fma_agree == kPowfNumDistinguishing)
        probe.mode = kPowfGlibcFma;
    else if (probe.sse2_agree == kPowfNumDistinguishing)
        probe.mode = kPowfGlibcSse2;
    else
        probe.mode = kPowfDevice;
    if (probe.mode != kPowfDevice) {
        for (float y : kProbeYs) {
            long long checked = 0;
            uint32_t first = 0;
            const long long bad = powf_check_model(probe.mode, y, host, &checked, &first);
            if (bad && !probe.mismatches) {
                probe.first_mismatch_x = first;
                probe.first_mismatch_y = y;
            }
            probe.mismatches += bad;
            probe.inputs_checked += checked;
        }
        if (probe.mismatches)
            probe.mode = kPowfDevice;
    }
    probe.probe_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return probe;
}

const PowfProbe &powf_probe_host()
{
    static PowfProbe probe;
    static std::once_flag once;
    std::call_once(once, [] { probe = powf_probe(libm_powf); });
    return probe;
}

long long powf_check_host(int mode, float y, long long *inputs_checked, uint32_t *first_mismatch_x)
{
    return powf_check_model(mode, y, libm_powf, inputs_checked, first_mismatch_x);
}

void powf_probe_describe(const PowfProbe &probe, char *buf, size_t size)
{
    if (probe.mode != kPowfDevice) {
        snprintf(buf, size, "powf model exact: glibc's %s build (%lld inputs checked in %.1f ms)",
                 probe.mode == kPowfGlibcFma ? "FMA" : "SSE2", probe.inputs_checked,
                 probe.probe_ms);
    } else if (probe.mismatches) {
        snprintf(
            buf, size,
            "powf model does not hold on this host (%lld of %lld inputs differ, first x "
            "0x%08x y %g): the device uses glibc's baseline powf, NOT exact for p other than 1, 3",
            probe.mismatches, probe.inputs_checked, (unsigned)probe.first_mismatch_x,
            (double)probe.first_mismatch_y);
    } else {
        snprintf(
            buf, size,
            "powf: this host's libm is neither glibc build (FMA build agrees on %d of %d "
            "inputs, SSE2 build on %d): the device uses glibc's baseline powf, NOT exact for p "
            "other than 1, 3",
            probe.fma_agree, probe.distinguishing, probe.sse2_agree);
    }
}

PowfChoice powf_choose(bool cube, float p)
{
    PowfChoice choice = {};
    if (cube) {
        choice.mode = kPowfGlibcFma; /* unused: the cube needs no powf */
        choice.exact = true;
        snprintf(choice.description, sizeof(choice.description), "adm_p_norm 3: no powf");
        return choice;
    }
    const PowfProbe &probe = powf_probe_host();
    choice.mode = probe.mode;
    powf_probe_describe(probe, choice.description, sizeof(choice.description));
    if (choice.mode != kPowfDevice) {
        long long checked = 0;
        uint32_t first = 0;
        const long long bad = powf_check_host(choice.mode, p, &checked, &first);
        if (bad) {
            choice.mode = kPowfDevice;
            snprintf(choice.description, sizeof(choice.description),
                     "powf model does not hold for adm_p_norm %g (%lld of %lld inputs differ, "
                     "first x 0x%08x): the device uses glibc's baseline powf, NOT exact",
                     (double)p, bad, checked, (unsigned)first);
        }
    }
    choice.exact = choice.mode != kPowfDevice || p == 1.0f;
    return choice;
}

} // namespace adm
