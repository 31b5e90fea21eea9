/*
 * float_adm CUDA backend: the kernels' launch interface (host side).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per scale: dwt_decouple (DWT of both images fused with decouple and CSF, the
 * luma conversion fused into scale 0), then row_sums (masking and the nine terms
 * of each sample, each row's inner sums added in column order).  After the last
 * scale, fold adds each scale's rows in order into 4 x 9 fp32 accumulators; the
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

/*
 * The luma planes of one frame pair, as the caller gave them.  The kernels read it
 * from device memory, so that one captured graph serves every frame.
 */
struct InputPlanes {
    const uint8_t *data[2]; /* reference, distorted */
    ptrdiff_t pitch[2];
    int shift[2];
};

/* Everything a frame's kernels read and write, fixed at context creation. */
struct Pipeline {
    int in_w[kNumScales], in_h[kNumScales], w[kNumScales], h[kNumScales];
    adm::Region decouple[kNumScales], sums[kNumScales];
    float factor[kNumScales][kNumBands]; /* CSF weight of h, v, d */

    float *approx[2][kNumScales]; /* band a per image and scale */
    ptrdiff_t approx_stride[kNumScales];
    float *ref_detail[kNumBands]; /* h, v, d of the reference (scale-0 size) */
    float *weighted[2][kNumBands]; /* CSF of restored / additive (scale-0 size) */
    float *filtered[2][kNumBands]; /* their 1/30 magnitudes, the masking input */
    ptrdiff_t stride0;
    int depth; /* of the input: 8 is one byte per sample, more is two */
    float *row_sums; /* [scale][sum][row], rows_max rows each */
    int rows_max;

    adm::ModelDivide divide; /* table in device memory */
    double enhn_gain_limit;
    float cos_1deg_sq;
    bool cube;
    float p;
    bool masking;
    bool skip_scale0;
};

/* planes: device memory holding the frame's InputPlanes. */
cudaError_t launch_dwt_decouple(const Pipeline &pl, int scale, const InputPlanes *planes,
                                cudaStream_t stream);
cudaError_t launch_row_sums(const Pipeline &pl, int scale, cudaStream_t stream);
/* accum: device memory for kNumScales * kNumRowSums floats. */
cudaError_t launch_fold(const Pipeline &pl, float *accum, cudaStream_t stream);

} // namespace adm_cuda

#endif /* ADM_CUDA_KERNELS_H */
