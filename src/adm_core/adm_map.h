/*
 * float_adm: the map of a frame, where in the picture detail is lost
 * (docs/maps.md).  The frame's denominator and DLM numerator sums split over
 * blocks of FLOAT_ADM_MAP_BLOCK_SIZE pixels: the row kernels hand over each
 * column's terms (SumRowArgs::column_terms), the very fp32 values the frame's
 * sums add, and the map adds them in double in a fixed order, so that neither
 * the SIMD level nor the job count changes a bit.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_MAP_H
#define ADM_MAP_H

#include <vector>

#include "adm_frame.h"
#include "float_adm.h"

namespace adm {

/* The terms a map adds, in RowSum order: den h, v, d, then DLM num h, v, d. */
constexpr int kNumMapTerms = 2 * kNumBands;

class FrameMap {
public:
    FrameMap(const FrameSetup &frame, const FloatAdmOptions &opts);

    int columns() const { return columns_; }
    int rows() const { return rows_; }

    /* Term rows of each job (kNumMapTerms rows of the widest band each). */
    void set_jobs(int nb_jobs);
    float *const *job_terms(int job) { return job_rows_[job].data(); }

    /* A frame begins: no map is readable until finish. */
    void start() { ready_ = false; }
    /* Row i of scale s: the block columns' partial sums of the job's term rows. */
    void add_row(int s, int i, int job);
    /* Every row of every scale added: fold the rows of each block, then the loss. */
    void finish();
    bool ready() const { return ready_; }

    /* Block (r, c) of scale s, term k (kNumMapTerms order). */
    double block_sum(int s, int r, int c, int k) const
    {
        return blocks_[s][((size_t)r * columns_ + c) * kNumMapTerms + k];
    }
    const float *loss() const { return loss_.data(); }

private:
    FrameSetup frame_;
    double inv_p_, noise_weight_;
    int columns_, rows_;
    bool ready_ = false;
    /* Per scale: [row][block column][term], the row partials. */
    std::vector<double> row_partials_[kNumScales];
    /* Per scale: [block row][block column][term]. */
    std::vector<double> blocks_[kNumScales];
    std::vector<float> loss_;
    std::vector<std::vector<float>> job_storage_;
    std::vector<std::vector<float *>> job_rows_;
};

} // namespace adm

#endif /* ADM_MAP_H */
