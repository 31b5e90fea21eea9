/*
 * float_adm: the CPU engine.  Pipeline per scale:
 *   input -> DWT -> decouple + CSF -> masking + row sums -> pooling
 * One schedule, on the row kernels of a level (adm_simd.h; the scalar level is one
 * of them).  A frame is split into horizontal bands, one per job, and each job
 * carries its band through all four scales: one executor call per frame, so a
 * frame's threads meet once, not at every scale.  Per scale a job makes one pass over
 * its rows that runs DWT, decouple + CSF and the row sums on a ring of three rows
 * while they are in cache; only band a goes through memory.  The rows of band a
 * that the next scale's DWT reads beyond the job's own (its halo: a few rows above
 * and below, more the finer the scale) are the neighbours' where they have published
 * them already, else the job computes them itself into rows of its own; it
 * recomputes the one detail row on each side of its rows that masking reads.  The arithmetic is the
 * same whoever computes a row, so are the bits.  Every row's inner sum is kept and
 * the rows fold in order afterwards, so the scores depend neither on how the rows
 * were shared out nor on the level.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ENGINE_H
#define ADM_ENGINE_H

#include <stdint.h>

#include <atomic>
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

    /* Per-job rows: the vertical pass of each image, the distorted detail, then a ring
     * of three rows of reference detail, weighted and filtered signals. */
    enum JobRow {
        kLoRow = 0,         /* + image */
        kHiRow = 2,         /* + image */
        kDistDetailRow = 4, /* + band */
        kRingRow = 7,       /* + slot * kRingSlotRows + RingRow */
        kRingSlots = 3,
    };
    enum RingRow {
        kRefDetail = 0,   /* + band */
        kWeightedRow = 3, /* + signal * 3 + band */
        kFilteredRow = 9, /* + signal * 3 + band */
        kRingSlotRows = 15,
    };

    /* Rows [first, last) of a scale; none when first >= last. */
    struct Rows {
        int first = 0, last = 0;
        bool has(int i) const { return i >= first && i < last; }
    };
    /* What a job computes of a scale from its own rows: the rows whose sums it adds,
     * the detail rows those read, and all the rows it runs the DWT on, in order. */
    struct PassRows {
        Rows sums, details, dwt;
    };

    /* Band a of every scale, the row sums, the flags of published rows. */
    void allocate();
    /* The jobs' bands and each job's rows (nb_jobs_, and a map's blocks, set them). */
    void plan_jobs();
    PassRows pass_rows(int s, const Rows &own) const;
    int run_jobs();
    void run_job(int job);

    ScaleSums fold_scale(int s);

    float *job_rows(int job) { return static_cast<float *>(scratch_[job].data()); }
    float *job_row(int job, int index) { return job_rows(job) + index * job_row_stride_; }
    float *ring_row(int job, int row, int kind)
    {
        return job_row(job, kRingRow + (row % kRingSlots) * kRingSlotRows + kind);
    }
    /* Where among the job's halo rows of scale s row y (not its own) goes. */
    int halo_slot(int s, int job, int y) const;
    float *halo_row(int job, int img, int s, int slot)
    {
        return job_rows(job) + halo_offset_[s] + (2 * (ptrdiff_t)slot + img) * scales_[s].stride;
    }
    /* Row y of band a of scale s of an image, as the job may read it: its own, one
     * published by another job, or one it computes now. */
    const float *approx_row(int job, int img, int s, int y);
    void fused_rows(int s, int job);
    /* Row i of scale s: band a of each image into a[image], the details too if asked. */
    void dwt_row(int s, int i, float *const a[2], bool details, int job);
    void fused_decouple_row(int s, int i, int job);
    void fused_sum_row(int s, int i, int job);

    FloatAdmOptions opts_;
    FrameSetup frame_;
    ScaleSetup scales_[kNumScales];

    SimdLevel level_;
    const SimdKernels *kernels_; /* level_'s; never null */

    LargeBuffer storage_;
    Band approx_[2][kNumScales]; /* band a of each image and scale */
    /* Row i of band a of scale s is written, for the frame numbered frame_epoch_, when
     * published_[s][i] holds that number (release and acquire). */
    std::unique_ptr<std::atomic<uint32_t>[]> published_[kNumScales];
    uint32_t frame_epoch_ = 0;
    std::vector<float> row_sums_[kNumScales][kNumRowSums];

    std::vector<Rows> bands_[kNumScales]; /* per scale, each job's own rows */
    /* Each job's halo of a scale: up to halo_above_ rows above its own, halo_below_
     * below, both images, from halo_offset_ in its scratch. */
    int halo_above_[kNumScales] = {}, halo_below_[kNumScales] = {};
    ptrdiff_t halo_offset_[kNumScales] = {};
    int halo_slots_before_[kNumScales] = {}; /* slots of the finer scales */
    /* Per job: the JobRow rows, then the halo; rows on 64-byte boundaries (wide loads
     * that cross none). */
    std::vector<LargeBuffer> scratch_;
    /* Per job and halo slot: the frame number of the row computed there. */
    std::vector<std::vector<uint32_t>> halo_epoch_;
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
