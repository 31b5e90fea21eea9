/*
 * float_adm: the setup of a context, shared by the CPU engine and the CUDA backend.
 * What a context accepts (size, bit depth, options, the planes' layout), each
 * refusal with a message that says why, and what follows from it once per
 * context: every scale's band sizes, regions, strides and CSF weights, and the
 * per-context constants of the arithmetic.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CONTEXT_SETUP_H
#define ADM_CONTEXT_SETUP_H

#include <stddef.h>

#include "adm_arith.h"
#include "float_adm.h"

namespace adm {

/* Four scales, each of three detail bands. */
constexpr int kNumScales = 4;
constexpr int kNumBands = 3; /* h, v, d */

/* The nine sums of a scale, in this order: denominator, DLM numerator, AIM numerator,
 * each over h, v, d. */
constexpr int kNumRowSums = 9;
enum RowSum { kDenSum = 0, kNumSum = 3, kAimSum = 6 };
static_assert(kAimSum + kNumBands == kNumRowSums, "three sums of three bands");

/* The stride of a band w samples wide, in floats: rows start on 64-byte boundaries. */
inline ptrdiff_t band_stride(int w) { return ((ptrdiff_t)w + 15) & ~(ptrdiff_t)15; }

/* One scale: its input is the frame (scale 0) or band a of the scale before. */
struct ScaleGeometry {
    int in_w, in_h;          /* the input */
    int w, h;                /* the bands: (in_w + 1) / 2 x (in_h + 1) / 2 */
    ptrdiff_t stride;        /* of the bands, band_stride(w) */
    Region decouple;         /* decouple and CSF */
    Region sums;             /* denominator and masking sums */
    float factor[kNumBands]; /* CSF weight of h, v, d */
};

struct FrameSetup {
    int width, height, bit_depth;
    int bytes_per_sample; /* of the input planes: 1 at 8 bits, else 2 */
    float input_scaler;   /* input_u16's, above 8 bits */
    float cos_1deg_sq;    /* the decouple angle test's cos^2(1 degree), fp32 */
    double enhn_gain_limit;
    bool cube;    /* p_norm is exactly 3: (x*x)*x instead of powf */
    float p;      /* (float)p_norm */
    bool masking; /* not adm_bypass_cm */
    bool skip_scale0;
    ScaleGeometry scale[kNumScales];
};

/*
 * Whether a context can be made for width x height at bit_depth with opts: 0, or
 * FLOAT_ADM_ERROR_UNSUPPORTED (size, depth) or the options' error, with a message.
 */
/* The size and depth checks of check_context, for any integer a caller holds. */
int check_frame(long long width, long long height, long long bit_depth, char *errbuf,
                size_t errbuf_size);

int check_context(int width, int height, int bit_depth, const FloatAdmOptions *opts, char *errbuf,
                  size_t errbuf_size);

/* The setup of a context that check_context accepts. */
FrameSetup frame_setup(int width, int height, int bit_depth, const FloatAdmOptions &opts);

/*
 * A plane's sample size and shift against the context's depth: 0 or
 * FLOAT_ADM_ERROR_INVALID, with a message naming the plane ("reference", "distorted").
 */
int check_plane_layout(const FrameSetup &frame, const char *which, int bytes_per_sample, int shift,
                       char *errbuf, size_t errbuf_size);

} // namespace adm

#endif /* ADM_CONTEXT_SETUP_H */
