/*
 * float_adm CUDA backend: the kernels' module, their launch shapes and their launches,
 * through the driver API.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CUDA_LAUNCH_H
#define ADM_CUDA_LAUNCH_H

#include "adm_cuda_driver.h"
#include "adm_cuda_kernels.h"
#include "adm_context_setup.h"

namespace adm_cuda {

/* The kernels, loaded into the current context from the image built into the library. */
struct Kernels {
    CUmodule module = nullptr;
    CUfunction dwt_u8 = nullptr;
    CUfunction dwt_u16[17] = {}; /* by bit depth: 9, 10, 12, 14, 16 */
    CUfunction dwt_approx = nullptr;
    CUfunction row_sums_cube = nullptr; /* adm_p_norm 3 */
    CUfunction row_sums_powf = nullptr; /* any other */
    CUfunction row_sums_cube_map = nullptr; /* the same, storing a map's coefficients */
    CUfunction row_sums_powf_map = nullptr;
    CUfunction map_blocks = nullptr;
};

/*
 * Loads the module into the current context.  On failure *error gets what the driver
 * said, with the JIT compiler's log where it has one.
 */
CUresult load_kernels(const CudaDriver &cu, Kernels *k, char *error, size_t error_size);
void unload_kernels(const CudaDriver &cu, Kernels *k);

/* What the kernels' image is: "PTX (clang)" or "nvcc fatbin", for messages. */
const char *kernel_image_kind();

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

    /* Maps (float_adm_cuda_context_enable_map): the grid, and per scale the map
     * coefficients of its sums region (SumArgs::map_coefficients); null without a map. */
    int map_columns, map_rows;
    double *map_coefficients[kNumScales];

    /* Launch shapes per scale, from plan_launches. */
    int dwt_rows_per_warp[kNumScales];
    int sum_rows_per_block[kNumScales];
    int sum_compute_warps[kNumScales];
};

/*
 * The launch shapes of every scale for this device (its SM count and shared memory),
 * and the row-sums kernel's shared-memory limit; once per context, before any launch.
 */
CUresult plan_launches(const CudaDriver &cu, const Kernels &k, Pipeline &pl);

/* planes: only scale 0 reads them. */
CUresult launch_dwt_decouple(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int scale,
                             const InputPlanes &planes, CUstream stream);
/* A graph's node of scale 0's DWT, captured from launch_dwt_decouple, set to read planes. */
CUresult set_dwt_planes(const CudaDriver &cu, const Kernels &k, const Pipeline &pl,
                        const InputPlanes &planes, CUgraphExec exec, CUgraphNode node);
/* Rows the sums of a scale have (0 for a skipped scale 0). */
int sum_rows(const Pipeline &pl, int scale);
/*
 * The row sums of one scale, a block per few rows; the last block to finish folds them
 * into accum[scale * kNumRowSums ...] (kNumScales * kNumRowSums floats, device-visible
 * host memory).  Launches of different scales may run at the same time.
 */
CUresult launch_row_sums(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int scale,
                         float *accum, CUstream stream);

/*
 * A map's sums of one scale into blocks (that scale's [block row][block column][MapSum]
 * in device memory), from the coefficients its row sums stored; nothing for a skipped
 * scale 0 or an empty sums region.
 */
CUresult launch_map(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int scale,
                    double *blocks, CUstream stream);

} // namespace adm_cuda

#endif /* ADM_CUDA_LAUNCH_H */
