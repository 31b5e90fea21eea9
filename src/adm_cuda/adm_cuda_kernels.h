/*
 * float_adm CUDA backend: the kernels' launch interface (host side).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per scale: dwt_decouple (DWT of both images fused with decouple and CSF, the
 * luma conversion fused into scale 0) into that scale's own bands, and row_sums
 * (masking from the weighted bands and the nine terms of each sample, each row's
 * inner sums added in column order), whose last block to finish folds the scale's
 * rows in order into 9 fp32 accumulators in the host's memory.  A scale's row sums
 * need only its own DWT, so they run beside the DWT of the scales after it.  The
 * host does powf and the pooling from the accumulators, as the CPU engine does.
 */
#ifndef ADM_CUDA_KERNELS_H
#define ADM_CUDA_KERNELS_H

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "adm_arith.h"
#include "adm_frame.h"
#include "adm_rcp_model.h"

namespace adm_cuda {

using adm::kNumBands;
using adm::kNumRowSums; /* in adm::RowSum order */
using adm::kNumScales;

/* The luma planes of one frame pair, as the caller gave them (a kernel argument). */
struct InputPlanes {
    const uint8_t *data[2]; /* reference, distorted */
    ptrdiff_t pitch[2];
    int shift[2];
};

/*
 * The detail bands of one scale lie in one allocation, band k at k * band_floats:
 * reference h, v, d (0..2), weighted restored and additive (3..8).  Kernels derive
 * the bands from the base, which keeps the pointers out of registers.  The masking
 * input (1/30 of the weighted magnitudes) is not stored: the row sums recompute it.
 */
constexpr int kRefDetail = 0, kWeighted = 3, kDetailBands = 9;

/* The bands of one scale as row_sums reads them (a kernel argument). */
struct SumScale {
    const float *bands;
    ptrdiff_t band_floats, stride;
    int w, h;
    adm::Region sums;
    float factor[kNumBands];
};

/* Everything a frame's kernels read and write, fixed at context creation. */
struct Pipeline {
    /* Sizes, regions, strides and CSF weights per scale, the arithmetic's constants. */
    adm::FrameSetup frame;

    /* Bands per scale, all with the scale's stride: every scale's survive until the sums. */
    float *approx[2][kNumScales]; /* band a per image */
    float *bands[kNumScales];     /* kDetailBands each: reference details, CSF of restored
                                     and additive */
    ptrdiff_t band_floats[kNumScales];
    float *row_sums; /* [scale][sum][row], rows_max rows each */
    int rows_max;
    unsigned *blocks_done; /* per scale, finished row_sums blocks; 0 between frames */

    adm::ModelDivide divide; /* table in device memory */
    int powf_mode;           /* adm::PowfMode: the terms' powf (adm_cuda_powf.cuh) */

    /* Launch shapes per scale, from plan_launches. */
    int dwt_rows_per_warp[kNumScales];
    int sum_rows_per_block[kNumScales];
    int sum_compute_warps[kNumScales];
};

/*
 * The launch shapes of every scale for this device (its SM count and shared memory),
 * and the row-sums kernel's shared-memory limit; once per context, before any launch.
 */
cudaError_t plan_launches(Pipeline &pl);

/* planes: only scale 0 reads them. */
cudaError_t launch_dwt_decouple(const Pipeline &pl, int scale, const InputPlanes &planes,
                                cudaStream_t stream);
/* Rows the sums of a scale have (0 for a skipped scale 0). */
int sum_rows(const Pipeline &pl, int scale);
/*
 * The row sums of one scale, a block per few rows; the last block to finish folds them
 * into accum[scale * kNumRowSums ...] (kNumScales * kNumRowSums floats, device-visible
 * host memory).  Launches of different scales may run at the same time.
 */
cudaError_t launch_row_sums(const Pipeline &pl, int scale, float *accum, cudaStream_t stream);

} // namespace adm_cuda

#endif /* ADM_CUDA_KERNELS_H */
