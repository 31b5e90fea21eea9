/*
 * float_adm: the CPU engine.  Pipeline per scale:
 *   input -> DWT -> decouple + CSF -> masking + row sums -> pooling
 * Each stage is split into row ranges that run through the context's executor; every
 * row's inner sum is kept and the rows fold in order afterwards, so the scores do not
 * depend on how the rows were shared out.
 *
 * Two schedules of the same arithmetic:
 *  - scalar (the readable reference): stage by stage over full-frame buffers;
 *  - fused (the vector kernels of adm_simd.h): per scale, one pass over each job's
 *    rows that runs DWT, decouple + CSF and the row sums on a ring of three rows
 *    while they are in cache.  A job recomputes the one detail row on each side of
 *    its rows that masking reads; only band a goes through memory.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ENGINE_H
#define ADM_ENGINE_H

#include <vector>

#include "adm_frame.h"
#include "adm_pooling.h"
#include "adm_simd.h"
#include "float_adm.h"

namespace adm {

/* A w x h float image inside a buffer with a row stride in floats. */
struct Band {
    float *data = nullptr;
    int w = 0, h = 0;
    ptrdiff_t stride = 0;

    float *row(int i) const { return data + i * stride; }
};

/* One scale's geometry and weights (adm_frame.h), with the CPU's column taps. */
struct ScaleSetup : ScaleGeometry {
    std::vector<int> column_taps[4]; /* horizontal source index of tap t for output j */
};

class Engine {
public:
    /* A context check_context accepts; the schedule comes from FLOAT_ADM_SIMD (see adm_simd.h). */
    Engine(int width, int height, int bit_depth, const FloatAdmOptions &opts);

    int set_executor(FloatAdmExecuteFn execute, void *opaque, int nb_jobs);
    int score(const FloatAdmPlane &ref, const FloatAdmPlane &dist, FloatAdmScores *out);

    const FrameSetup &frame() const { return frame_; }
    const ScaleSetup &scale(int s) const { return scales_[s]; }

private:
    enum Image { kRef = 0, kDist = 1 };
    enum Signal { kRestored = 0, kAdditive = 1 };

    /* Per-job rows of the fused schedule: the vertical pass of each image, a discard
     * row for halo band a, the distorted detail, then a ring of three rows of
     * reference detail, weighted and filtered signals. */
    enum JobRow {
        kLoRow = 0,          /* + image */
        kHiRow = 2,          /* + image */
        kHaloApproxRow = 4,
        kDistDetailRow = 5,  /* + band */
        kRingRow = 8,        /* + slot * kRingSlotRows + RingRow */
        kRingSlots = 3,
    };
    enum RingRow {
        kRefDetail = 0,      /* + band */
        kWeightedRow = 3,    /* + signal * 3 + band */
        kFilteredRow = 9,    /* + signal * 3 + band */
        kRingSlotRows = 15,
    };

    void allocate();
    /* 0, or the executor's error. */
    template <class F> int parallel_rows(int first, int last, F &&work);

    void dwt_rows(int s, int first, int last, int job);
    void decouple_csf_rows(int s, int first, int last);
    void sum_rows(int s, int first, int last);
    ScaleSums fold_scale(int s) const;

    float *job_row(int job, int index) { return scratch_[job].data() + index * job_row_stride_; }
    float *ring_row(int job, int row, int kind)
    {
        return job_row(job, kRingRow + (row % kRingSlots) * kRingSlotRows + kind);
    }
    void fused_rows(int s, int first, int last, int job);
    void fused_dwt_row(int s, int i, bool own, bool details, int job);
    void fused_decouple_row(int s, int i, int job);
    void fused_sum_row(int s, int i, int job);

    FloatAdmOptions opts_;
    FrameSetup frame_;
    ScaleSetup scales_[kNumScales];

    const SimdKernels *kernels_; /* null: the scalar schedule */

    std::vector<float> storage_;
    Band approx_[2][kNumScales];          /* band a of each image and scale */
    /* The scalar schedule's full-frame stage buffers (empty in the fused one). */
    Band detail_[2][kNumBands];           /* h, v, d of the current scale */
    Band weighted_[2][kNumBands];         /* CSF of the restored / additive signal */
    Band filtered_[2][kNumBands];         /* their 1/30 magnitudes (masking input) */
    std::vector<float> row_sums_[kNumRowSums];
    /* Per job: scalar, the vertical pass's lo and hi rows; fused, the JobRow rows. */
    std::vector<std::vector<float>> scratch_;
    ptrdiff_t job_row_stride_ = 0;

    /* The planes of the frame being scored (valid during score()). */
    FloatAdmPlane input_[2] = {};

    FloatAdmExecuteFn execute_ = nullptr;
    void *execute_opaque_ = nullptr;
    int nb_jobs_ = 1;
};

} // namespace adm

#endif /* ADM_ENGINE_H */
