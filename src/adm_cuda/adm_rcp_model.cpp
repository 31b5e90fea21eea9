/*
 * float_adm: probing this host's reciprocal estimate into a table, and checking it.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <chrono>
#include <cstdio>
#include <mutex>

#include "adm_rcp.h"
#include "adm_rcp_model.h"

namespace adm {
namespace {

#if ADM_HAVE_RCPSS
/* Compares one input; counts it, and remembers the first that differs. */
struct ModelChecker {
    const uint32_t *table;
    long long checked = 0, mismatches = 0;
    uint32_t first_mismatch = 0;

    void check(uint32_t input)
    {
        const float x = bits_float(input);
        checked++;
        if (float_bits(rcpss(x)) != float_bits(rcp_model(x, table))) {
            if (!mismatches)
                first_mismatch = input;
            mismatches++;
        }
    }
};

/* 2048 mantissas spread over every other 12-bit bucket, each at a varying offset. */
uint32_t sample_mantissa(uint32_t k)
{
    const uint32_t offset = (k * 2654435761u) >> 21; /* 11 bits of a multiplicative hash */
    return (k << 12 | offset) & 0x7fffffu;
}
#endif

} // namespace

long long rcp_check_model(const uint32_t *table, long long *inputs_checked,
                          uint32_t *first_mismatch_input)
{
#if ADM_HAVE_RCPSS
    ModelChecker c{table};
    /* Every mantissa of one binade: the table's own. */
    for (uint32_t m = 0; m <= 0x7fffffu; m++)
        c.check(127u << 23 | m);
    /* Every sign and exponent (0: zeros and denormals, 255: infinities and NaNs). */
    for (uint32_t sign = 0; sign < 2; sign++) {
        for (uint32_t e = 0; e < 256; e++) {
            for (uint32_t k = 0; k < 2048; k++)
                c.check(sign << 31 | e << 23 | sample_mantissa(k));
            c.check(sign << 31 | e << 23);                /* zero, 2^e, infinity */
            c.check(sign << 31 | e << 23 | 1u);           /* smallest denormal; sNaN */
            c.check(sign << 31 | e << 23 | 0x400000u);    /* qNaN at 255 */
            c.check(sign << 31 | e << 23 | 0x7fffffu);    /* largest mantissa */
        }
    }
    if (inputs_checked)
        *inputs_checked = c.checked;
    if (first_mismatch_input)
        *first_mismatch_input = c.first_mismatch;
    return c.mismatches;
#else
    (void)table;
    if (inputs_checked)
        *inputs_checked = 0;
    if (first_mismatch_input)
        *first_mismatch_input = 0;
    return 0;
#endif
}

const RcpProbe &rcp_probe_host()
{
    static RcpProbe probe;
    static std::once_flag once;
    std::call_once(once, [] {
        const auto start = std::chrono::steady_clock::now();
        probe.inputs_checked = 0;
        probe.mismatches = 0;
        probe.first_mismatch_input = 0;
#if ADM_HAVE_RCPSS
        for (uint32_t k = 0; k < (uint32_t)kRcpTableSize; k++)
            probe.table[k] = float_bits(rcpss(bits_float(127u << 23 | k << (23 - kRcpTableBits))));
        probe.mismatches = rcp_check_model(probe.table, &probe.inputs_checked,
                                           &probe.first_mismatch_input);
        probe.mode = probe.mismatches ? kRcpIeeeNewton : kRcpModelExact;
#else
        for (uint32_t k = 0; k < (uint32_t)kRcpTableSize; k++)
            probe.table[k] = 0;
        probe.mode = kRcpDivision;
#endif
        probe.probe_ms = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start).count();
    });
    return probe;
}

void rcp_probe_describe(const RcpProbe &probe, char *buf, size_t size)
{
    switch (probe.mode) {
    case kRcpModelExact:
        snprintf(buf, size, "RCPSS model exact (%lld inputs checked in %.1f ms)",
                 probe.inputs_checked, probe.probe_ms);
        break;
    case kRcpIeeeNewton:
        snprintf(buf, size,
                 "RCPSS model does not hold on this host (%lld of %lld inputs differ, first "
                 "0x%08x): the device uses 1/x plus the Newton step, scores NOT exact",
                 probe.mismatches, probe.inputs_checked, (unsigned)probe.first_mismatch_input);
        break;
    default:
        snprintf(buf, size, "no RCPSS on this host: division, as the CPU path (exact)");
        break;
    }
}

} // namespace adm
