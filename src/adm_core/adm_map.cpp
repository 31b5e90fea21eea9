/*
 * float_adm: the map of a frame (see adm_map.h; the arithmetic is docs/maps.md's).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_map.h"

#include <math.h>

#include "adm_simd.h"

namespace adm {
namespace {

/* Coefficients of scale s per block side: a coefficient of scale s covers 2^(s+1) pixels. */
int block_coefficients(int s) { return FLOAT_ADM_MAP_BLOCK_SIZE >> (s + 1); }

static_assert(FLOAT_ADM_MAP_BLOCK_SIZE % (2 << (kNumScales - 1)) == 0,
              "a block holds whole coefficients of every scale");

/* Losses below this are the rounding of decouple's fp32 division (a ratio k one ulp
 * short of 1 between identical pictures), not detail: they read 0. */
constexpr double kLossFloor = 1e-6;

int clamp_to(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

} // namespace

FrameMap::FrameMap(const FrameSetup &frame, const FloatAdmOptions &opts)
    : frame_(frame), inv_p_(1.0 / opts.p_norm), noise_weight_(opts.noise_weight),
      columns_((frame.width + FLOAT_ADM_MAP_BLOCK_SIZE - 1) / FLOAT_ADM_MAP_BLOCK_SIZE),
      rows_((frame.height + FLOAT_ADM_MAP_BLOCK_SIZE - 1) / FLOAT_ADM_MAP_BLOCK_SIZE)
{
    for (int s = 0; s < kNumScales; s++) {
        row_partials_[s].assign((size_t)frame_.scale[s].h * columns_ * kNumMapTerms, 0.0);
        blocks_[s].assign((size_t)rows_ * columns_ * kNumMapTerms, 0.0);
    }
    loss_.assign((size_t)rows_ * columns_, 0.0f);
    set_jobs(1);
}

void FrameMap::set_jobs(int nb_jobs)
{
    const ptrdiff_t stride = band_stride(frame_.scale[0].w) + kRowPadding;
    job_storage_.assign(nb_jobs, std::vector<float>(kNumMapTerms * (size_t)stride));
    job_rows_.assign(nb_jobs, std::vector<float *>(kNumMapTerms));
    for (int job = 0; job < nb_jobs; job++)
        for (int k = 0; k < kNumMapTerms; k++)
            job_rows_[job][k] = job_storage_[job].data() + k * stride;
}

/* Per block column, each term's columns added left to right from 0. */
void FrameMap::add_row(int s, int i, int job)
{
    const Region &r = frame_.scale[s].sums;
    const int bc = block_coefficients(s);
    float *const *terms = job_rows_[job].data();
    double *out = &row_partials_[s][(size_t)i * columns_ * kNumMapTerms];
    for (int c = r.left / bc; c < columns_ && c * bc < r.right; c++) {
        const int first = clamp_to(c * bc, r.left, r.right);
        const int last = clamp_to((c + 1) * bc, r.left, r.right);
        for (int k = 0; k < kNumMapTerms; k++) {
            double sum = 0.0;
            for (int j = first; j < last; j++)
                sum += (double)terms[k][j];
            out[c * kNumMapTerms + k] = sum;
        }
    }
}

void FrameMap::finish()
{
    /* Each block's rows added top to bottom from 0. */
    for (int s = 0; s < kNumScales; s++) {
        const Region &reg = frame_.scale[s].sums;
        const int bc = block_coefficients(s);
        for (int r = 0; r < rows_; r++) {
            const int first = clamp_to(r * bc, reg.top, reg.bottom);
            const int last = clamp_to((r + 1) * bc, reg.top, reg.bottom);
            for (int c = 0; c < columns_; c++) {
                for (int k = 0; k < kNumMapTerms; k++) {
                    double sum = 0.0;
                    for (int i = first; i < last; i++)
                        sum += row_partials_[s][((size_t)i * columns_ + c) * kNumMapTerms + k];
                    blocks_[s][((size_t)r * columns_ + c) * kNumMapTerms + k] = sum;
                }
            }
        }
    }

    /* The block's adm2 as the frame's: per band sum^(1/p) plus the noise floor of the
     * block's coefficients, scales added in order; the loss is what it falls short of 1. */
    for (int r = 0; r < rows_; r++) {
        for (int c = 0; c < columns_; c++) {
            double num = 0.0, den = 0.0;
            for (int s = frame_.skip_scale0 ? 1 : 0; s < kNumScales; s++) {
                const Region &reg = frame_.scale[s].sums;
                const int bc = block_coefficients(s);
                const int w = clamp_to((c + 1) * bc, reg.left, reg.right) -
                              clamp_to(c * bc, reg.left, reg.right);
                const int h = clamp_to((r + 1) * bc, reg.top, reg.bottom) -
                              clamp_to(r * bc, reg.top, reg.bottom);
                const double noise = pow((double)w * h * noise_weight_, inv_p_);
                for (int b = 0; b < kNumBands; b++) {
                    den += pow(block_sum(s, r, c, kDenSum + b), inv_p_) + noise;
                    num += pow(block_sum(s, r, c, kNumSum + b), inv_p_) + noise;
                }
            }
            const double loss = den > 0.0 ? 1.0 - num / den : 0.0;
            loss_[(size_t)r * columns_ + c] = loss >= kLossFloor ? (float)loss : 0.0f;
        }
    }
    ready_ = true;
}

} // namespace adm
