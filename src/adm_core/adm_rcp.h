/*
 * float_adm: libvmaf's division on this host.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * With SSE2 libvmaf divides by multiplying with the processor's reciprocal
 * estimate (RCPSS) refined by one Newton step; the estimate is specified only by
 * its error bound, so the scores belong to the processor.  Without SSE2 (aarch64 and
 * every other target) it divides.  RCPSS is thus a property of the target, decided
 * here alone: ./configure preprocesses this header with the target's compiler to say
 * what it decided.  FLOAT_ADM_NO_RCPSS (./configure --disable-rcpss) selects the
 * division on x86 too, so that the path of other targets is built and tested there.
 */
#ifndef ADM_RCP_H
#define ADM_RCP_H

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(FLOAT_ADM_NO_RCPSS)
#include <immintrin.h>
#define ADM_HAVE_RCPSS 1
#else
#define ADM_HAVE_RCPSS 0
#endif

#include "adm_arith.h"

namespace adm {

/* The processor's RCPSS estimate of 1/x. */
#if ADM_HAVE_RCPSS
inline float rcpss(float x) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))); }
#endif

/* DIVS(n, d) as libvmaf computes it on this host. */
struct HostDivide {
    float operator()(float n, float d) const
    {
#if ADM_HAVE_RCPSS
        return n * rcp_refine(d, rcpss(d));
#else
        return n / d;
#endif
    }
};

} // namespace adm

#endif /* ADM_RCP_H */
