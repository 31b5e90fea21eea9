/*
 * float_adm: the CPU engine.  Pipeline per scale:
 *   input -> DWT (adm_dwt.cpp) -> decouple + CSF -> masking + row sums -> pooling
 * Each stage is split into row ranges that run through the context's executor; every
 * row's inner sum is kept and the rows fold in order afterwards, so the scores do not
 * depend on how the rows were shared out.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ENGINE_H
#define ADM_ENGINE_H

#include <vector>

#include "adm_arith.h"
#include "adm_csf.h"
#include "float_adm.h"

namespace adm {

constexpr int kNumScales = 4;
constexpr int kNumBands = 3; /* h, v, d */

/* A w x h float image inside a buffer with a row stride in floats. */
struct Band {
    float *data = nullptr;
    int w = 0, h = 0;
    ptrdiff_t stride = 0;

    float *row(int i) const { return data + i * stride; }
};

/* The geometry and weights of one scale, fixed when the context is created. */
struct ScaleSetup {
    int in_w = 0, in_h = 0; /* the scale's input (frame or previous band a) */
    int w = 0, h = 0;       /* its bands */
    Region decouple;        /* decouple and CSF */
    Region sums;            /* denominator and masking */
    CsfWeights csf;
    std::vector<int> column_taps[4]; /* horizontal source index of tap t for output j */
};

/* Per-scale sums of one frame (fp32, as upstream). */
struct ScaleSums {
    float num = 0, den = 0, aim_num = 0;
};

class Engine {
public:
    Engine(int width, int height, int bit_depth, const FloatAdmOptions &opts);

    int set_executor(FloatAdmExecuteFn execute, void *opaque, int nb_jobs);
    int score(const FloatAdmPlane &ref, const FloatAdmPlane &dist, FloatAdmScores *out);

    const ScaleSetup &scale(int s) const { return scales_[s]; }

private:
    enum Image { kRef = 0, kDist = 1 };
    enum Signal { kRestored = 0, kAdditive = 1 };
    /* Row sums kept per row: denominator, DLM numerator, AIM numerator, each h, v, d. */
    enum RowSum { kDenSum = 0, kNumSum = 3, kAimSum = 6, kNumRowSums = 9 };

    template <class F> void parallel_rows(int first, int last, F &&work);

    void dwt_rows(int s, int first, int last, int job);
    void decouple_csf_rows(int s, int first, int last);
    void sum_rows(int s, int first, int last);
    ScaleSums fold_scale(int s) const;
    void pool(const ScaleSums sums[kNumScales], FloatAdmScores *out) const;

    FloatAdmOptions opts_;
    int width_, height_;
    float input_scaler_; /* 2^(depth-8) for depths above 8 */
    float cos_1deg_sq_;
    bool cube_;          /* p_norm == 3: (x*x)*x instead of powf */
    float p_;            /* (float)p_norm */
    float inv_p_;        /* (float)(1.0f / p_norm) */
    ScaleSetup scales_[kNumScales];

    std::vector<float> storage_;
    Band approx_[2][kNumScales];          /* band a of each image and scale */
    Band detail_[2][kNumBands];           /* h, v, d of the current scale */
    Band weighted_[2][kNumBands];         /* CSF of the restored / additive signal */
    Band filtered_[2][kNumBands];         /* their 1/30 magnitudes (masking input) */
    std::vector<float> row_sums_[kNumRowSums];
    std::vector<std::vector<float>> scratch_; /* per job: the vertical pass's lo and hi rows */

    /* The planes of the frame being scored (valid during score()). */
    FloatAdmPlane input_[2] = {};

    FloatAdmExecuteFn execute_ = nullptr;
    void *execute_opaque_ = nullptr;
    int nb_jobs_ = 1;
};

} // namespace adm

#endif /* ADM_ENGINE_H */
