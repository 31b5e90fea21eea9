/*
 * float_adm: the CPU engine.  Pipeline per scale:
 *   input -> DWT -> decouple + CSF -> masking + row sums -> pooling
 * One schedule, on the row kernels of a level (adm_simd.h; the scalar level is one
 * of them): per scale, one pass over each job's rows that runs DWT, decouple + CSF
 * and the row sums on a ring of three rows while they are in cache.  A job
 * recomputes the one detail row on each side of its rows that masking reads; only
 * band a goes through memory.  Every row's inner sum is kept and the rows fold in
 * order afterwards, so the scores depend neither on how the rows were shared out
 * nor on the level.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ENGINE_H
#define ADM_ENGINE_H

#include <memory>
#include <vector>

#include "adm_context_setup.h"
#include "adm_large_buffer.h"
#include "adm_map.h"
#include "adm_scale_pooling.h"
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

/* One scale's geometry and weights (adm_context_setup.h), with the CPU's column taps. */
struct ScaleSetup : ScaleGeometry {
    std::vector<int> column_taps[4]; /* horizontal source index of tap t for output j */
};

class Engine {
public:
    /* A context check_context accepts, at the best level this processor runs exactly. */
    Engine(int width, int height, int bit_depth, const FloatAdmOptions &opts);

    int set_executor(FloatAdmExecuteFn execute, void *opaque, int nb_jobs);
    /* Runs `wanted`, capped to the best supported level at or below it. */
    void set_level(SimdLevel wanted)
    {
        level_ = simd_level_capped(wanted);
        kernels_ = simd_kernels(level_);
    }
    SimdLevel level() const { return level_; }
    int jobs() const { return nb_jobs_; }
    int score(const FloatAdmPlane &ref, const FloatAdmPlane &dist, FloatAdmScores *out);

    /* A map of every frame from the first on (adm_map.h): 0, FLOAT_ADM_ERROR_INVALID once a
     * frame was scored, FLOAT_ADM_ERROR_NOMEM. */
    int enable_map();
    /* Null without a map. */
    const FrameMap *map() const { return map_.get(); }
    /* The last frame's fp32 band sums of scale s, in RowSum order. */
    const float *band_sums(int s) const { return band_sums_[s]; }

    const FrameSetup &frame() const { return frame_; }
    const ScaleSetup &scale(int s) const { return scales_[s]; }

private:
    enum Image { kRef = 0, kDist = 1 };

    /* Per-job rows: the vertical pass of each image, a discard row for halo band a,
     * the distorted detail, then a ring of three rows of reference detail, weighted
     * and filtered signals. */
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
    /* 0, or the executor's error.  Each job's rows start at a multiple of align. */
    template <class F> int parallel_rows(int first, int last, int align, F &&work);

    ScaleSums fold_scale(int s);

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

    SimdLevel level_;
    const SimdKernels *kernels_; /* level_'s; never null */

    LargeBuffer storage_;
    Band approx_[2][kNumScales];          /* band a of each image and scale */
    std::vector<float> row_sums_[kNumRowSums];
    std::vector<std::vector<float>> scratch_; /* per job: the JobRow rows */
    ptrdiff_t job_row_stride_ = 0;

    std::unique_ptr<FrameMap> map_;
    bool scored_ = false;
    float band_sums_[kNumScales][kNumRowSums] = {};

    /* The planes of the frame being scored (valid during score()). */
    FloatAdmPlane input_[2] = {};

    FloatAdmExecuteFn execute_ = nullptr;
    void *execute_opaque_ = nullptr;
    int nb_jobs_ = 1;
};

/* The engine of a context of the C API (adm_api.cpp's). */
Engine &context_engine(FloatAdmContext &ctx);

} // namespace adm

#endif /* ADM_ENGINE_H */
