/*
 * The tests' and benchmarks' generated content: one deterministic generator of
 * picture-like reference frames and their distorted versions, at any size, depth,
 * storage shift and row padding.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_SUPPORT_CONTENT_H
#define TESTS_SUPPORT_CONTENT_H

#include <cstdint>

#include "frames.h"

namespace testsupport {

/* A 32-bit linear congruential generator: the content must not depend on the C or
 * C++ library's random numbers. */
struct Lcg {
    uint32_t state;
    /* 24 random bits. */
    uint32_t next()
    {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    }
    /* Uniform in [0, 1). */
    double unit() { return next() / 16777216.0; }
    /* Uniform integer in [-amplitude, amplitude]. */
    int centred(int amplitude) { return (int)(next() % (2u * amplitude + 1)) - amplitude; }
};

/* A reference frame and its distorted version, of one geometry. */
struct FramePair {
    LumaPlane ref, dist;
    int width() const { return ref.width(); }
    int height() const { return ref.height(); }
};

/*
 * The reference: smooth shapes (value noise on a 16-pixel lattice), a ripple, block
 * edges, a fine check texture and grain.  The distorted frame has diagonal bands of
 * the usual distortions: contrast enhanced (reaches the gain limit), noise, a 3-tap
 * horizontal blur, 8x8 block means with a little noise (a coarse coder), and untouched
 * samples.  Every
 * stage has work, and frames of different seeds differ everywhere.  Samples span
 * geometry.depth bits, stored shifted left by shift, rows row_padding bytes longer
 * than the samples.
 */
FramePair make_frame_pair(const FrameGeometry &geometry, uint32_t seed, int shift = 0,
                          ptrdiff_t row_padding = 0);

} // namespace testsupport

#endif /* TESTS_SUPPORT_CONTENT_H */
