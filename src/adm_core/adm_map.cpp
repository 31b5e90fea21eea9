/*
 * float_adm: the map of a frame (see adm_map.h; the arithmetic is docs/maps.md's).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_map.h"

#include <math.h>

#include <algorithm>

#include "adm_simd.h"

namespace adm {
namespace {

static_assert(FLOAT_ADM_MAP_BLOCK_SIZE % (2 << (kNumScales - 1)) == 0,
              "a block holds whole coefficients of every scale");

/* Losses below this are the rounding of decouple's fp32 division (a ratio k one ulp
 * short of 1 between identical pictures), not detail: they read 0. */
constexpr double kLossFloor = 1e-6;

/* The loss of a block outside every scale's sum region. */
constexpr float kNotMeasured = NAN;

int clamp_to(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

} // namespace

FrameMap::FrameMap(const FrameSetup &frame, const FloatAdmOptions &opts)
    : frame_(frame), inv_p_(1.0 / opts.p_norm), columns_(blocks_across(frame.width)),
      rows_(blocks_across(frame.height)), stride_(band_stride(frame.scale[0].w) + kRowPadding)
{
    for (int s = 0; s < kNumScales; s++)
        blocks_[s].assign((size_t)rows_ * columns_ * kNumMapSums, 0.0);
    loss_.assign((size_t)rows_ * columns_, 0.0f);
    const int most = block_rows(0) * block_rows(0);
    for (int n = 0; n <= most; n++)
        noise_floor_.push_back(pow(3.0 * n * opts.noise_weight, inv_p_));
    set_jobs(1);
}

void FrameMap::set_jobs(int nb_jobs)
{
    job_sums_.assign(nb_jobs, std::vector<double>(kNumMapSums * (size_t)stride_, 0.0));
}

void FrameMap::column_sums(int s, int i, int job, double *sums[kNumMapSums], bool *start)
{
    for (int k = 0; k < kNumMapSums; k++)
        sums[k] = job_sums_[job].data() + k * stride_;
    *start = i == frame_.scale[s].sums.top || i % block_rows(s) == 0;
}

void FrameMap::add_row(int s, int i, int job)
{
    const Region &reg = frame_.scale[s].sums;
    const int bc = block_rows(s);
    if (i + 1 != reg.bottom && (i + 1) % bc != 0)
        return;
    /* The block row is complete: each block's columns left to right from 0. */
    const int r = i / bc;
    for (int c = reg.left / bc; c < columns_ && c * bc < reg.right; c++) {
        const int first = clamp_to(c * bc, reg.left, reg.right);
        const int last = clamp_to((c + 1) * bc, reg.left, reg.right);
        double *block = &blocks_[s][((size_t)r * columns_ + c) * kNumMapSums];
        for (int k = 0; k < kNumMapSums; k++) {
            const double *sum = job_sums_[job].data() + k * stride_;
            double total = 0.0;
            for (int j = first; j < last; j++)
                total += sum[j];
            block[k] = total;
        }
    }
}

void FrameMap::set_sums(int s, const double *blocks)
{
    std::copy(blocks, blocks + blocks_[s].size(), blocks_[s].begin());
}

void FrameMap::read_sums(int s, double *num, double *den) const
{
    for (int r = 0; r < rows_; r++) {
        for (int c = 0; c < columns_; c++) {
            const size_t at = (size_t)r * columns_ + c;
            if (num)
                num[at] = block_sum(s, r, c, kMapNum);
            if (den)
                den[at] = block_sum(s, r, c, kMapDen);
        }
    }
}

void FrameMap::finish()
{
    loss_rows(0, rows_, loss_.data());
    ready_ = true;
}

void FrameMap::loss_rows(int first, int n, float *loss) const
{
    /* The block's adm2, as the frame's from its sums: per scale sum^(1/p) plus the
     * noise floor of the block's coefficients of the three bands, scales added in
     * order; the loss is what it falls short of 1. */
    for (int r = first; r < first + n; r++) {
        for (int c = 0; c < columns_; c++) {
            double num = 0.0, den = 0.0;
            bool measured = false;
            for (int s = frame_.skip_scale0 ? 1 : 0; s < kNumScales; s++) {
                const Region &reg = frame_.scale[s].sums;
                const int bc = block_rows(s);
                const int w = clamp_to((c + 1) * bc, reg.left, reg.right) -
                              clamp_to(c * bc, reg.left, reg.right);
                const int h = clamp_to((r + 1) * bc, reg.top, reg.bottom) -
                              clamp_to(r * bc, reg.top, reg.bottom);
                const double noise = noise_floor_[w * h];
                measured |= w * h > 0;
                den += pow(block_sum(s, r, c, kMapDen), inv_p_) + noise;
                num += pow(block_sum(s, r, c, kMapNum), inv_p_) + noise;
            }
            /* A block with no coefficient in any scale's sum region (ADM's
             * border) was not measured, which is not "nothing lost": NaN. */
            const double block_loss = den > 0.0 ? 1.0 - num / den : 0.0;
            loss[(size_t)(r - first) * columns_ + c] = !measured ? kNotMeasured
                                                       : block_loss >= kLossFloor
                                                           ? (float)block_loss
                                                           : 0.0f;
        }
    }
}

} // namespace adm
