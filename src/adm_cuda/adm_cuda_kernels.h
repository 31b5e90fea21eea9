/*
 * float_adm CUDA backend: what the kernels and the host code that launches them share.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per scale: dwt_decouple (DWT of both images fused with decouple and CSF, the
 * luma conversion fused into scale 0) into that scale's own bands, and row_sums
 * (masking from the weighted bands and the nine terms of each sample, each row's
 * inner sums added in column order), whose last block to finish folds the scale's
 * rows in order into 9 fp32 accumulators in the host's memory.  A scale's row sums
 * need only its own DWT, so they run beside the DWT of the scales after it.  The
 * host does powf and the pooling from the accumulators, as the CPU engine does.
 *
 * The kernels are compiled apart from the host code (to PTX by clang, or by nvcc) and
 * launched through the driver by their names below; their arguments are the structures
 * below, passed by value, laid out alike by the host compiler and the device's.
 */
#ifndef ADM_CUDA_KERNELS_H
#define ADM_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "adm_arith.h"
#include "adm_context_setup.h"
#include "adm_rcp_model.h"

namespace adm_cuda {

using adm::kNumBands;
using adm::kNumRowSums; /* in adm::RowSum order */
using adm::kNumScales;

/* The luma planes of one frame pair in device memory (a kernel argument). */
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

/* What the DWT/decouple kernel of one scale writes, and with what (a kernel argument). */
struct DwtOutputs {
    float *approx[2];
    float *ref_detail[kNumBands];
    float *weighted[2][kNumBands];
    ptrdiff_t stride; /* of this scale's bands */
    int in_w, in_h, w, h;
    int rows_per_warp;
    adm::Region decouple;
    float factor[kNumBands];
    adm::ModelDivide divide;
    double enhn_gain_limit;
    float cos_1deg_sq;
    bool lo_only;
    const float *previous[2]; /* band a of the previous scale, for scales 1..3 */
    ptrdiff_t previous_stride;
};

/* The bands of one scale as row_sums reads them. */
struct SumScale {
    const float *bands;
    ptrdiff_t band_floats, stride;
    int w, h;
    adm::Region sums;
    float factor[kNumBands];
};

/* The row sums of one scale; its last block folds them (a kernel argument). */
struct SumArgs {
    SumScale sc;
    bool masking;
    float p;
    int powf_mode;   /* adm::PowfMode */
    float *row_sums; /* this scale's: [sum][row], rows_max rows each */
    int rows_max;
    unsigned *blocks_done; /* this scale's count of finished blocks, 0 between frames */
    float *accum;          /* this scale's kNumRowSums accumulators, device-visible host memory */
    int rows_per_block;
    int compute_warps;
    /* With a map (the _map kernels): each coefficient's two map terms (docs/maps.md,
     * step 1), [row - sums.top][column - sums.left][MapSum]. */
    double *map_coefficients;
};

/*
 * A map's blocks of one scale (a kernel argument, docs/maps.md, steps 2 and 3): from
 * the row sums' map coefficients, [block row][block column][MapSum] as adm::FrameMap
 * keeps them.
 */
constexpr int kMapDen = 0, kMapNum = 1, kNumMapSums = 2; /* adm::MapSum */
struct MapArgs {
    const double *coefficients; /* SumArgs::map_coefficients */
    adm::Region sums;
    int block_rows; /* coefficients of this scale per block, down and across */
    double *blocks; /* this scale's */
    int map_columns;
};

/* DWT: warps of 31 output columns, kDwtWarps above each other per block. */
constexpr int kDwtColumns = 31; /* output columns per warp: lane 31 only lends its sources */
constexpr int kDwtWarps = 4;
constexpr int kDwtThreads = 32 * kDwtWarps;
constexpr int kDwtMaxRowsPerWarp = 16;

/* Row sums: computing warps of 30 columns, and adding warps. */
constexpr int kSumColumnsPerWarp = 30; /* lanes 1..30; 0 and 31 lend neighbours */
constexpr int kMaxSumRows = 7;         /* rows per block: 63 chains, two adding warps */
constexpr int kMaxSumWarps = 14;       /* computing warps per block */
constexpr int kMaxSumThreads = 32 * (kMaxSumWarps + 2);
static_assert(kMaxSumRows * kNumRowSums <= 64, "two adding warps");

/* Maps: coefficient columns per block of the map kernel, whole map blocks of every scale;
 * a map block's coefficient rows at scale 0, the most of any scale. */
constexpr int kMapThreads = 128;
constexpr int kMapMaxBlockRows = 16;

/* The kernels' names in the module: scale 0 by bit depth, scales 1..3, the row sums
 * (with a map's coefficients or without), a map's blocks. */
#define ADM_CUDA_KERNEL_DWT_U8 "adm_dwt_decouple_u8"
#define ADM_CUDA_KERNEL_DWT_U16(depth) "adm_dwt_decouple_u16_" #depth
#define ADM_CUDA_KERNEL_DWT_APPROX "adm_dwt_decouple_approx"
#define ADM_CUDA_KERNEL_ROW_SUMS_CUBE "adm_row_sums_cube"
#define ADM_CUDA_KERNEL_ROW_SUMS_POWF "adm_row_sums_powf"
#define ADM_CUDA_KERNEL_ROW_SUMS_CUBE_MAP "adm_row_sums_cube_map"
#define ADM_CUDA_KERNEL_ROW_SUMS_POWF_MAP "adm_row_sums_powf_map"
#define ADM_CUDA_KERNEL_MAP_BLOCKS "adm_map_blocks"

} // namespace adm_cuda

#endif /* ADM_CUDA_KERNELS_H */
