/*
 * float_adm: a model of the host's powf (glibc on x86-64), for devices.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libvmaf raises every term of the ADM sums to adm_p_norm with the host's powf.
 * glibc's powf (since 2.28) evaluates log2(x) from a 16-entry table and a degree-5
 * polynomial in double, multiplies by y, and evaluates exp2 from a 32-entry table
 * and a cubic, with one final rounding to float.  On x86-64 the same C is built
 * twice and picked at load time: plain SSE2 double arithmetic, or with -mfma
 * -mavx2, where gcc fuses each `a * b + c` whose product has no other use.  Both
 * are written out here operation by operation, so that a CUDA device (or any
 * host) reproduces them bit for bit.  Which one this host runs is probed and
 * checked (adm_powf_model.cpp) before a device relies on it.
 *
 * Translation units that include this header must be built without contraction
 * (-ffp-contract=off, nvcc --fmad=false); the fused steps call fma() explicitly.
 */
#ifndef ADM_POWF_MODEL_H
#define ADM_POWF_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adm_arith.h"

namespace adm {

/* How a device computes powf(x, p). */
enum PowfMode {
    kPowfGlibcFma = 0,  /* glibc's FMA build (CPUs with FMA and AVX2), checked */
    kPowfGlibcSse2 = 1, /* glibc's baseline build, checked */
    kPowfDevice = 2,    /* neither model holds: glibc's baseline powf all the same, NOT exact */
};

/*
 * The tables, as numbers.  log2: {1/c, log2(c)} for the 16 subintervals of the
 * reduced argument z in [0x1.66p-1, 0x1.66p0), picked by the top 4 mantissa bits of
 * x's bits minus 0x3f330000.  exp2: the bits of 2^(i/32) minus i << 47, so that adding
 * k << 47 scales by 2^(k/32).  A CUDA translation unit instantiates them in device
 * memory, the host in its own (adm_powf_model.cpp).
 */
// clang-format off
#define ADM_POWF_LOG2_TABLE { \
    0x1.661ec79f8f3bep+0,  -0x1.efec65b963019p-2,  \
    0x1.571ed4aaf883dp+0,  -0x1.b0b6832d4fca4p-2,  \
    0x1.49539f0f010bp+0,   -0x1.7418b0a1fb77bp-2,  \
    0x1.3c995b0b80385p+0,  -0x1.39de91a6dcf7bp-2,  \
    0x1.30d190c8864a5p+0,  -0x1.01d9bf3f2b631p-2,  \
    0x1.25e227b0b8eap+0,   -0x1.97c1d1b3b7afp-3,   \
    0x1.1bb4a4a1a343fp+0,  -0x1.2f9e393af3c9fp-3,  \
    0x1.12358f08ae5bap+0,  -0x1.960cbbf788d5cp-4,  \
    0x1.0953f419900a7p+0,  -0x1.a6f9db6475fcep-5,  \
    0x1p+0,                0x0p+0,                 \
    0x1.e608cfd9a47acp-1,  0x1.338ca9f24f53dp-4,   \
    0x1.ca4b31f026aap-1,   0x1.476a9543891bap-3,   \
    0x1.b2036576afce6p-1,  0x1.e840b4ac4e4d2p-3,   \
    0x1.9c2d163a1aa2dp-1,  0x1.40645f0c6651cp-2,   \
    0x1.886e6037841edp-1,  0x1.88e9c2c1b9ff8p-2,   \
    0x1.767dcf5534862p-1,  0x1.ce0a44eb17bccp-2    \
}

#define ADM_POWF_EXP2_TABLE { \
    0x3ff0000000000000ull, 0x3fefd9b0d3158574ull, 0x3fefb5586cf9890full, 0x3fef9301d0125b51ull, \
    0x3fef72b83c7d517bull, 0x3fef54873168b9aaull, 0x3fef387a6e756238ull, 0x3fef1e9df51fdee1ull, \
    0x3fef06fe0a31b715ull, 0x3feef1a7373aa9cbull, 0x3feedea64c123422ull, 0x3feece086061892dull, \
    0x3feebfdad5362a27ull, 0x3feeb42b569d4f82ull, 0x3feeab07dd485429ull, 0x3feea47eb03a5585ull, \
    0x3feea09e667f3bcdull, 0x3fee9f75e8ec5f74ull, 0x3feea11473eb0187ull, 0x3feea589994cce13ull, \
    0x3feeace5422aa0dbull, 0x3feeb737b0cdc5e5ull, 0x3feec49182a3f090ull, 0x3feed503b23e255dull, \
    0x3feee89f995ad3adull, 0x3feeff76f2fb5e47ull, 0x3fef199bdd85529cull, 0x3fef3720dcef9069ull, \
    0x3fef5818dcfba487ull, 0x3fef7c97337b9b5full, 0x3fefa4afa2a490daull, 0x3fefd0765b6e4540ull \
}
// clang-format on

constexpr int kPowfLog2TableSize = 16; /* pairs {1/c, log2(c)} */
constexpr int kPowfExp2TableSize = 32;

/* Host copies of the tables (adm_powf_model.cpp). */
extern const double kPowfLog2Table[2 * kPowfLog2TableSize];
extern const uint64_t kPowfExp2Table[kPowfExp2TableSize];

/*
 * log1p(r)/ln2 ~ (A0 r + A1) r^4 + ((A2 r + A3) r^2 + (A4 r + y0)), y0 = log2(c) + k.
 * Scalars, not arrays: device code may read a host constexpr only as a scalar.
 */
constexpr double kPowfA0 = 0x1.27616c9496e0bp-2, kPowfA1 = -0x1.71969a075c67ap-2;
constexpr double kPowfA2 = 0x1.ec70a6ca7baddp-2, kPowfA3 = -0x1.7154748bef6c8p-1;
constexpr double kPowfA4 = 0x1.71547652ab82bp0;
/* 2^r ~ (C0 r + C1) r^2 + (C2 r + 1), |r| <= 1/64. */
constexpr double kPowfC0 = 0x1.c6af84b912394p-5, kPowfC1 = 0x1.ebfce50fac4f3p-3;
constexpr double kPowfC2 = 0x1.62e42ff0c52d6p-1;
constexpr double kPowfExp2Shift = 0x1.8p+52 / 32; /* rounds to a multiple of 1/32 */
constexpr uint32_t kPowfLog2Off = 0x3f330000u;
constexpr uint32_t kPowfSignBias = 1u << 16; /* lands on the double's sign bit */

/* Bit casts and the three rounded double operations, spelled out for the device. */
ADM_HD uint32_t powf_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

ADM_HD float powf_from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

ADM_HD uint64_t powf_dbits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

ADM_HD double powf_from_dbits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

#ifdef __CUDA_ARCH__
ADM_HD double powf_mul(double a, double b) { return __dmul_rn(a, b); }
ADM_HD double powf_add(double a, double b) { return __dadd_rn(a, b); }
ADM_HD double powf_fma(double a, double b, double c) { return __fma_rn(a, b, c); }
#else
ADM_HD double powf_mul(double a, double b) { return a * b; }
ADM_HD double powf_add(double a, double b) { return a + b; }
ADM_HD double powf_fma(double a, double b, double c) { return fma(a, b, c); }
#endif

/* a * b + c as the build computes it: one rounding with FMA, two without. */
template <bool Fma> ADM_HD double powf_mul_add(double a, double b, double c)
{
    return Fma ? powf_fma(a, b, c) : powf_add(powf_mul(a, b), c);
}

/* x86's default NaN (the result of 0/0 in SSE) and a NaN operand's quieted copy. */
constexpr uint32_t kPowfX86DefaultNan = 0xffc00000u;
ADM_HD float powf_quiet(float x) { return powf_from_bits(powf_bits(x) | 0x400000u); }

ADM_HD bool powf_is_nan_bits(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

/* 0: not an integer, 1: odd, 2: even; iy is a non-zero finite float's bits. */
ADM_HD int powf_checkint(uint32_t iy)
{
    const int e = (int)(iy >> 23 & 0xff);
    if (e < 0x7f)
        return 0;
    if (e > 0x7f + 23)
        return 2;
    if (iy & ((1u << (0x7f + 23 - e)) - 1))
        return 0;
    if (iy & (1u << (0x7f + 23 - e)))
        return 1;
    return 2;
}

/* Zero, infinity or NaN. */
ADM_HD bool powf_zeroinfnan(uint32_t i) { return 2u * i - 1u >= 2u * 0x7f800000u - 1u; }

/* log2 of the (normalized, possibly negative-exponent) bits ix, in double. */
template <bool Fma> ADM_HD double powf_log2(uint32_t ix, const double *log2_table)
{
    const uint32_t tmp = ix - kPowfLog2Off;
    const int i = (int)((tmp >> (23 - 4)) % kPowfLog2TableSize);
    const uint32_t top = tmp & 0xff800000u;
    const uint32_t iz = ix - top;
    const int k = (int32_t)top >> 23; /* arithmetic shift */
    const double invc = log2_table[2 * i], logc = log2_table[2 * i + 1];
    const double z = (double)powf_from_bits(iz);

    /* log2(x) = log1p(z/c - 1)/ln2 + log2(c) + k; the products fused only where gcc can. */
    const double r = powf_mul_add<Fma>(z, invc, -1.0);
    const double y0 = powf_add(logc, (double)k);
    const double r2 = powf_mul(r, r);
    double y = powf_mul_add<Fma>(kPowfA0, r, kPowfA1);
    const double p = powf_mul_add<Fma>(kPowfA2, r, kPowfA3);
    const double r4 = powf_mul(r2, r2);
    double q = powf_mul_add<Fma>(kPowfA4, r, y0);
    q = powf_mul_add<Fma>(p, r2, q);
    y = powf_mul_add<Fma>(y, r4, q);
    return y;
}

/* 2^xd with the sign bias on the result, rounded once to float. */
template <bool Fma>
ADM_HD float powf_exp2(double xd, uint32_t sign_bias, const uint64_t *exp2_table)
{
    /* xd = k/32 + r, |r| <= 1/64: adding the shift rounds xd to a multiple of 1/32. */
    double kd = powf_add(xd, kPowfExp2Shift);
    const uint64_t ki = powf_dbits(kd);
    kd = powf_add(kd, -kPowfExp2Shift);
    const double r = powf_add(xd, -kd);

    uint64_t t = exp2_table[ki % kPowfExp2TableSize];
    const uint64_t ski = ki + sign_bias;
    t += ski << (52 - 5);
    const double s = powf_from_dbits(t);
    const double z = powf_mul_add<Fma>(kPowfC0, r, kPowfC1);
    const double r2 = powf_mul(r, r);
    double y = powf_mul_add<Fma>(kPowfC2, r, 1.0);
    y = powf_mul_add<Fma>(z, r2, y);
    y = powf_mul(y, s);
    return (float)y;
}

/* glibc's overflow and underflow results: (+-v) * v in float, v = 2^97, 2^-95, 1.25 * 2^-75. */
ADM_HD float powf_xflow(uint32_t sign, float v) { return (sign ? -v : v) * v; }

/* glibc's powf(x, y) on x86-64: the FMA build when Fma, the SSE2 build otherwise. */
template <bool Fma>
ADM_HD float glibc_powf(float x, float y, const double *log2_table, const uint64_t *exp2_table)
{
    uint32_t sign_bias = 0;
    uint32_t ix = powf_bits(x);
    const uint32_t iy = powf_bits(y);
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u || powf_zeroinfnan(iy)) {
        /* x below 2^-126, infinite or NaN, or y zero, infinite or NaN. */
        if (powf_zeroinfnan(iy)) {
            if (2u * iy == 0) /* y = +-0: 1, unless x is a signalling NaN */
                return powf_is_nan_bits(ix) && !(ix & 0x400000u) ? powf_quiet(x) : 1.0f;
            if (ix == 0x3f800000u)
                return powf_is_nan_bits(iy) && !(iy & 0x400000u) ? powf_quiet(y) : 1.0f;
            if (2u * ix > 2u * 0x7f800000u || 2u * iy > 2u * 0x7f800000u) /* x + y */
                return powf_quiet(powf_is_nan_bits(ix) ? x : y);
            if (2u * ix == 2u * 0x3f800000u)
                return 1.0f;
            if ((2u * ix < 2u * 0x3f800000u) == !(iy & 0x80000000u))
                return 0.0f; /* |x| < 1 and y = inf, or |x| > 1 and y = -inf */
            return y * y;
        }
        if (powf_zeroinfnan(ix)) {
            /* x * x, NaN quieted with its payload as x86 does; the sign flipped by bits. */
            uint32_t x2 = powf_is_nan_bits(ix) ? ix | 0x400000u : powf_bits(x * x);
            if ((ix & 0x80000000u) && powf_checkint(iy) == 1) {
                x2 ^= 0x80000000u;
                sign_bias = 1;
            }
            if (2u * ix == 0 && (iy & 0x80000000u)) /* 0^negative: a division by zero */
                return powf_from_bits(sign_bias ? 0xff800000u : 0x7f800000u);
            if ((iy & 0x80000000u) && !powf_is_nan_bits(ix))
                return 1.0f / powf_from_bits(x2);
            return powf_from_bits(x2);
        }
        /* x and y are non-zero and finite. */
        if (ix & 0x80000000u) {
            const int yint = powf_checkint(iy);
            if (yint == 0) /* negative x, non-integer y: (x - x) / (x - x) */
                return powf_from_bits(kPowfX86DefaultNan);
            if (yint == 1)
                sign_bias = kPowfSignBias;
            ix &= 0x7fffffffu;
        }
        if (ix < 0x00800000u) {
            /* Subnormal x: normalized, with a negative biased exponent. */
            ix = powf_bits(powf_from_bits(ix) * 0x1p23f);
            ix &= 0x7fffffffu;
            ix -= 23u << 23;
        }
    }
    const double logx = powf_log2<Fma>(ix, log2_table);
    /* Not fused: the product has uses other than sums (its bits, comparisons). */
    const double ylogx = powf_mul((double)y, logx);
    if ((powf_dbits(ylogx) >> 47 & 0xffff) >= powf_dbits(126.0) >> 47) {
        /* |y log2(x)| >= 126. */
        if (ylogx > 0x1.fffffffd1d571p+6)
            return powf_xflow(sign_bias, 0x1p97f); /* overflow: +-inf */
        /* (glibc rounds up here only in directed rounding modes.) */
        if (ylogx <= -150.0)
            return powf_xflow(sign_bias, 0x1p-95f); /* underflow: +-0 */
        if (ylogx < -149.0)
            return powf_xflow(sign_bias, 0x1.4p-75f); /* +-2^-149 */
    }
    return powf_exp2<Fma>(ylogx, sign_bias, exp2_table);
}

/* The modelled powf for a mode with a model (kPowfGlibcFma or kPowfGlibcSse2). */
ADM_HD float model_powf(float x, float y, int mode, const double *log2_table,
                        const uint64_t *exp2_table)
{
    return mode == kPowfGlibcFma ? glibc_powf<true>(x, y, log2_table, exp2_table)
                                 : glibc_powf<false>(x, y, log2_table, exp2_table);
}

/* This host's powf, as the probe and the checks call it. */
using HostPowf = float (*)(float, float);

/* What the probe found. */
struct PowfProbe {
    PowfMode mode;
    int fma_agree, sse2_agree, distinguishing; /* of the inputs where the models differ */
    long long inputs_checked;
    long long mismatches;      /* inputs where the chosen model and the host differ */
    uint32_t first_mismatch_x; /* its bits, with y below, when mismatches > 0 */
    float first_mismatch_y;
    double probe_ms;
};

/*
 * Inputs (x bits, y) where the two builds return different floats: the probe
 * tells them apart by the host's answers there.
 */
struct PowfDistinguishingInput {
    uint32_t x;
    float y;
};
extern const PowfDistinguishingInput kPowfDistinguishing[];
extern const int kPowfNumDistinguishing;

/*
 * Probe this host's libm powf once per process (later calls return the same): the
 * distinguishing inputs pick a build, then the model of that build is checked
 * against powf on a sample (every exponent, 96 mantissas each, the special values)
 * for y in 0.5, 1, 1.5, 2.5, 4, 7.3, 20 and -1.5.
 */
const PowfProbe &powf_probe_host();

/* The same against any function (tests): a fresh probe, not remembered. */
PowfProbe powf_probe(HostPowf host);

/*
 * The check alone, for one y: the model of `mode` against `host` on the sample
 * above.  Returns the number of differing inputs (NaN results compare by bits too).
 */
long long powf_check_model(int mode, float y, HostPowf host, long long *inputs_checked,
                           uint32_t *first_mismatch_x);

/* powf_check_model against this host's powf (a context checks its own adm_p_norm). */
long long powf_check_host(int mode, float y, long long *inputs_checked, uint32_t *first_mismatch_x);

/* "powf: glibc FMA build, model exact (... inputs checked in ... ms)" and the like. */
void powf_probe_describe(const PowfProbe &probe, char *buf, size_t size);

/* How a context with this p computes its terms' powf, and whether that is exact. */
struct PowfChoice {
    PowfMode mode;
    bool exact;
    char description[200];
};

/*
 * For a context: with p exactly 3 (the cube) no powf is needed and nothing is
 * probed; otherwise the process's probe, then the chosen model checked against
 * powf for this p too.  Where no model holds, glibc's baseline algorithm is used all
 * the same, still exact for p 1 (it returns x for every non-negative float, NaNs
 * aside: checked on all 2^31; see docs/cuda.md).
 */
PowfChoice powf_choose(bool cube, float p);

} // namespace adm

#endif /* ADM_POWF_MODEL_H */
