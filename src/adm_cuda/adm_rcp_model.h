/*
 * float_adm: a model of this host's reciprocal estimate (RCPSS), for devices.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libvmaf divides with the processor's RCPSS estimate plus a Newton step, so a
 * device that must return the CPU's bits has to reproduce the host's estimate.
 * On the processors measured, the estimate of a normal x depends only on its
 * sign, exponent and top 12 mantissa bits, and scaling by the exponent is exact;
 * so 4096 estimates of [1, 2), probed on the host, plus integer exponent
 * arithmetic give the instruction on the whole fp32 range.  The probe checks that
 * model against the instruction before anyone relies on it.
 */
#ifndef ADM_RCP_MODEL_H
#define ADM_RCP_MODEL_H

#include <stdint.h>
#include <string.h>

#include "adm_arith.h"

namespace adm {

constexpr int kRcpTableBits = 12;
constexpr int kRcpTableSize = 1 << kRcpTableBits;

/* How a device reproduces the host's DIVS. */
enum RcpMode {
    kRcpModelExact = 0, /* the probed table: the host's RCPSS, checked */
    kRcpIeeeNewton = 1, /* the model failed its check: 1/x plus the Newton step, NOT exact */
    kRcpDivision = 2,   /* the host has no RCPSS: libvmaf divides, and so does the device */
};

ADM_HD uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

ADM_HD float bits_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/*
 * The modelled estimate of 1/x.  table[k] holds the bits of the estimate of
 * 1 + k/4096 (exponent 127, top mantissa bits k).
 */
ADM_HD float rcp_model(float x, const uint32_t *table)
{
    const uint32_t bits = float_bits(x);
    const uint32_t sign = bits & 0x80000000u;
    const int exponent = (int)((bits >> 23) & 0xff);
    const uint32_t mantissa = bits & 0x7fffffu;
    if (exponent == 0) /* zeros and denormals: infinity */
        return bits_float(sign | 0x7f800000u);
    if (exponent == 255) /* infinity: zero; NaN: quieted */
        return bits_float(mantissa ? bits | 0x400000u : sign);
    const uint32_t estimate = table[mantissa >> (23 - kRcpTableBits)];
    /* rcp(m * 2^e) = rcp(m) * 2^-e; results below the normal range are zero. */
    const int result_exponent = (int)(estimate >> 23) - (exponent - 127);
    if (result_exponent <= 0)
        return bits_float(sign);
    return bits_float(sign | (uint32_t)result_exponent << 23 | (estimate & 0x7fffffu));
}

/* libvmaf's DIVS with the host's division reproduced by `mode`. */
struct ModelDivide {
    const uint32_t *table;
    int mode;

    ADM_HD float operator()(float n, float d) const
    {
        if (mode == kRcpModelExact)
            return n * rcp_refine(d, rcp_model(d, table));
        if (mode == kRcpIeeeNewton)
            return n * rcp_refine(d, 1.0f / d);
        return n / d;
    }
};

/* The probe's result: the table, whether the model held, and what it cost. */
struct RcpProbe {
    RcpMode mode;
    uint32_t table[kRcpTableSize]; /* meaningful for kRcpModelExact */
    long long inputs_checked;
    long long mismatches;          /* inputs where model and instruction differ */
    uint32_t first_mismatch_input; /* bits of the first, when mismatches > 0 */
    double probe_ms;               /* wall time of table and check */
};

/*
 * Probe this host once per process (later calls return the same result): build the
 * table, then compare the model with RCPSS on every mantissa of [1, 2), on 2048
 * mantissas of every sign and exponent (zeros, denormals, infinities, NaNs included)
 * and on the special values.
 */
const RcpProbe &rcp_probe_host();

/* The check alone, against any table: returns the number of inputs that differ. */
long long rcp_check_model(const uint32_t *table, long long *inputs_checked,
                          uint32_t *first_mismatch_input);

/* A readable line: "RCPSS model exact (9437184 inputs checked, 9.4 ms)" and the like. */
void rcp_probe_describe(const RcpProbe &probe, char *buf, size_t size);

} // namespace adm

#endif /* ADM_RCP_MODEL_H */
