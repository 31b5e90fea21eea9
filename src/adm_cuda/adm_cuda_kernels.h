/*
 * float_adm CUDA backend: the kernels' launch interface (host side).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per scale: dwt_decouple (DWT of both images fused with decouple and CSF, the
 * luma conversion fused into scale 0) into that scale's own bands.  Then one
 * row_sums launch for all scales (masking and the nine terms of each sample, each
 * row's inner sums added in column order); its last block to finish folds each
 * scale's rows in order into 4 x 9 fp32 accumulators in the host's memory.  The
 * host does powf and the pooling from those, as the CPU engine does.
 */
#ifndef ADM_CUDA_KERNELS_H
#define ADM_CUDA_KERNELS_H

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "adm_arith.h"
#include "adm_rcp_model.h"

namespace adm_cuda {

constexpr int kNumScales = 4;
constexpr int kNumBands = 3;
constexpr int kNumRowSums = 9; /* den h, v, d; DLM num h, v, d; AIM num h, v, d */

/* The luma planes of one frame pair, as the caller gave them (a kernel argument). */
struct InputPlanes {
    const uint8_t *data[2]; /* reference, distorted */
    ptrdiff_t pitch[2];
    int shift[2];
};

/*
 * The detail bands of one scale lie in one allocation, band k at k * band_floats:
 * reference h, v, d (0..2), weighted restored and additive (3..8), filtered (9..14).
 * Kernels derive the bands from the base, which keeps the pointers out of registers.
 */
constexpr int kRefDetail = 0, kWeighted = 3, kFiltered = 9, kDetailBands = 15;

/* The bands of one scale as row_sums reads them; filled by the host at context creation. */
struct SumScale {
    const float *bands;
    ptrdiff_t band_floats, stride;
    int w, h;
    adm::Region sums;
    float factor[kNumBands];
};

/* Everything a frame's kernels read and write, fixed at context creation. */
struct Pipeline {
    int in_w[kNumScales], in_h[kNumScales], w[kNumScales], h[kNumScales];
    adm::Region decouple[kNumScales], sums[kNumScales];
    float factor[kNumScales][kNumBands]; /* CSF weight of h, v, d */

    /* Bands per scale, all with the scale's stride: every scale's survive until the sums. */
    float *approx[2][kNumScales]; /* band a per image */
    ptrdiff_t stride[kNumScales];
    float *bands[kNumScales]; /* kDetailBands each: reference details, CSF of restored and
                                 additive, their 1/30 magnitudes (the masking input) */
    ptrdiff_t band_floats[kNumScales];
    int depth; /* of the input: 8 is one byte per sample, more is two */
    float *row_sums; /* [scale][sum][row], rows_max rows each */
    int rows_max;
    SumScale *sum_scales; /* device memory: what row_sums reads of each scale */
    unsigned *blocks_done; /* device counter of finished row_sums blocks, 0 between frames */

    adm::ModelDivide divide; /* table in device memory */
    double enhn_gain_limit;
    float cos_1deg_sq;
    bool cube;
    float p;
    bool masking;
    bool skip_scale0;
};

SumScale sum_scale(const Pipeline &pl, int scale);

/* planes: only scale 0 reads them. */
cudaError_t launch_dwt_decouple(const Pipeline &pl, int scale, const InputPlanes &planes,
                                cudaStream_t stream);
/* Rows the sums of a scale have (0 for a skipped scale 0). */
int sum_rows(const Pipeline &pl, int scale);
/*
 * The row sums of scales [first, last), one block per row.  All launches of a frame
 * together cover every scale once; the last block of them to finish folds the rows
 * into accum (kNumScales * kNumRowSums floats, device-visible host memory).
 */
cudaError_t launch_row_sums(const Pipeline &pl, int first, int last, float *accum,
                            cudaStream_t stream);

} // namespace adm_cuda

#endif /* ADM_CUDA_KERNELS_H */
