/*
 * float_adm CUDA backend: the kernels' module, their launch shapes and their launches.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_launch.h"

#include "adm_map.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>

/* The kernels' image, built into the library by adm_cuda_image.S; NUL-terminated. */
extern "C" const char adm_cuda_kernel_image[];

namespace adm_cuda {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

static_assert(kMapMaxBlockRows == FLOAT_ADM_MAP_BLOCK_SIZE / 2 &&
                  kMapThreads % kMapMaxBlockRows == 0,
              "the map kernel's threads hold whole map blocks of scale 0's coefficients");
static_assert(kMapDen == adm::kMapDen && kMapNum == adm::kMapNum && kNumMapSums == adm::kNumMapSums,
              "the map kernels' sums are laid out as adm::FrameMap's");

size_t sum_shared_bytes(int rows_per_block, int compute_warps)
{
    return 2 * sizeof(float) * kNumRowSums * rows_per_block *
           (compute_warps * kSumColumnsPerWarp + 1);
}

DwtOutputs dwt_outputs(const Pipeline &pl, int s)
{
    const adm::FrameSetup &f = pl.frame;
    const adm::ScaleGeometry &g = f.scale[s];
    DwtOutputs o;
    for (int img = 0; img < 2; img++) {
        o.approx[img] = pl.approx[img][s];
        for (int b = 0; b < kNumBands; b++)
            o.weighted[img][b] = pl.bands[s] + (kWeighted + 3 * img + b) * pl.band_floats[s];
    }
    for (int b = 0; b < kNumBands; b++) {
        o.ref_detail[b] = pl.bands[s] + (kRefDetail + b) * pl.band_floats[s];
        o.factor[b] = g.factor[b];
    }
    o.stride = g.stride;
    o.in_w = g.in_w;
    o.in_h = g.in_h;
    o.w = g.w;
    o.h = g.h;
    o.rows_per_warp = pl.dwt_rows_per_warp[s];
    o.decouple = g.decouple;
    o.divide = pl.divide;
    o.enhn_gain_limit = f.enhn_gain_limit;
    o.cos_1deg_sq = f.cos_1deg_sq;
    o.lo_only = s == 0 && f.skip_scale0;
    o.previous[0] = s > 0 ? pl.approx[0][s - 1] : nullptr;
    o.previous[1] = s > 0 ? pl.approx[1][s - 1] : nullptr;
    o.previous_stride = s > 0 ? f.scale[s - 1].stride : 0;
    return o;
}

SumScale sum_scale(const Pipeline &pl, int s)
{
    const adm::ScaleGeometry &g = pl.frame.scale[s];
    SumScale sc;
    sc.bands = pl.bands[s];
    sc.band_floats = pl.band_floats[s];
    for (int b = 0; b < kNumBands; b++)
        sc.factor[b] = g.factor[b];
    sc.stride = g.stride;
    sc.w = g.w;
    sc.h = g.h;
    sc.sums = g.sums;
    return sc;
}

/* A DWT launch: its kernel, grid (blocks of kDwtWarps warps) and outputs. */
struct DwtLaunch {
    CUfunction fn;
    unsigned grid_x, grid_y;
    DwtOutputs out;
};

DwtLaunch dwt_launch(const Kernels &k, const Pipeline &pl, int s)
{
    DwtLaunch l;
    l.out = dwt_outputs(pl, s);
    const int warps_down = ceil_div(l.out.h, l.out.rows_per_warp);
    l.fn = s > 0                     ? k.dwt_approx
           : pl.frame.bit_depth == 8 ? k.dwt_u8
                                     : k.dwt_u16[pl.frame.bit_depth];
    l.grid_x = ceil_div(l.out.w, kDwtColumns);
    l.grid_y = ceil_div(warps_down, kDwtWarps);
    return l;
}

} // namespace

const char *kernel_image_kind()
{
#ifdef FLOAT_ADM_CUDA_NONFREE
    return "kernels built by nvcc";
#else
    return "kernels built as PTX by clang";
#endif
}

CUresult load_kernels(const CudaDriver &cu, Kernels *k, char *error, size_t error_size)
{
    char log[2048] = "";
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>((size_t)sizeof(log))};
    CUresult e = cu.cuModuleLoadDataEx(&k->module, adm_cuda_kernel_image, 2, options, values);
    if (e != CUDA_SUCCESS) {
        char what[256];
        cuda_describe(e, what, sizeof(what));
        snprintf(error, error_size, "loading the kernels (%s) failed: %s%s%s", kernel_image_kind(),
                 what, log[0] ? "; JIT log: " : "", log);
        k->module = nullptr;
        return e;
    }
    struct Entry {
        CUfunction *fn;
        const char *name;
    } entries[] = {
        {&k->dwt_u8, ADM_CUDA_KERNEL_DWT_U8},
        {&k->dwt_u16[9], ADM_CUDA_KERNEL_DWT_U16(9)},
        {&k->dwt_u16[10], ADM_CUDA_KERNEL_DWT_U16(10)},
        {&k->dwt_u16[12], ADM_CUDA_KERNEL_DWT_U16(12)},
        {&k->dwt_u16[14], ADM_CUDA_KERNEL_DWT_U16(14)},
        {&k->dwt_u16[16], ADM_CUDA_KERNEL_DWT_U16(16)},
        {&k->dwt_approx, ADM_CUDA_KERNEL_DWT_APPROX},
        {&k->row_sums_cube, ADM_CUDA_KERNEL_ROW_SUMS_CUBE},
        {&k->row_sums_powf, ADM_CUDA_KERNEL_ROW_SUMS_POWF},
        {&k->row_sums_cube_map, ADM_CUDA_KERNEL_ROW_SUMS_CUBE_MAP},
        {&k->row_sums_powf_map, ADM_CUDA_KERNEL_ROW_SUMS_POWF_MAP},
        {&k->map_blocks, ADM_CUDA_KERNEL_MAP_BLOCKS},
    };
    for (const Entry &entry : entries) {
        if ((e = cu.cuModuleGetFunction(entry.fn, k->module, entry.name)) != CUDA_SUCCESS) {
            char what[256];
            cuda_describe(e, what, sizeof(what));
            snprintf(error, error_size, "kernel %s: %s", entry.name, what);
            unload_kernels(cu, k);
            return e;
        }
    }
    return CUDA_SUCCESS;
}

void unload_kernels(const CudaDriver &cu, Kernels *k)
{
    if (k->module)
        cu.cuModuleUnload(k->module);
    *k = Kernels{};
}

int sum_rows(const Pipeline &pl, int s)
{
    if (s == 0 && pl.frame.skip_scale0)
        return 0;
    const adm::Region &sums = pl.frame.scale[s].sums;
    const int rows = sums.bottom - sums.top;
    return rows > 0 ? rows : 0;
}

CUresult plan_launches(const CudaDriver &cu, const Kernels &k, Pipeline &pl)
{
    CUdevice dev = 0;
    int sms = 0, shared_optin = 0;
    CUresult e = cu.cuCtxGetDevice(&dev);
    if (e == CUDA_SUCCESS)
        e = cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    if (e == CUDA_SUCCESS)
        e = cu.cuDeviceGetAttribute(&shared_optin,
                                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
    if (e != CUDA_SUCCESS)
        return e;
    sms = sms > 0 ? sms : 1;
    for (int s = 0; s < kNumScales; s++) {
        const adm::ScaleGeometry &g = pl.frame.scale[s];
        /*
         * DWT: about one wave of 32 warps per SM (as many as 59 registers a thread
         * leave resident), at most 16 rows per warp: a warp's first row loads two
         * source rows that the warp above loads too, and a last partial wave runs on
         * few SMs (3840x2160 took 3 % longer a frame with 8 rows a warp at scale 0).
         */
        const int warps_across = ceil_div(g.w, kDwtColumns);
        pl.dwt_rows_per_warp[s] = std::min(kDwtMaxRowsPerWarp,
                                           std::max(1, ceil_div(warps_across * g.h, 32 * sms)));
        /*
         * Row sums: about one block per SM, each as wide a chunk as the shared memory
         * allows.  Scale 0's always take the most rows per block: they run beside the
         * DWTs and sums of the smaller scales, which then keep SMs of their own (at
         * 1920x1080, 62 blocks instead of 109 on 132 SMs: 0.056 -> 0.0525 ms a frame).
         */
        const int rows = std::max(1, g.sums.bottom - g.sums.top);
        const int width = std::max(1, g.sums.right - g.sums.left);
        const int per_block = s == 0 ? kMaxSumRows : std::min(kMaxSumRows, ceil_div(rows, sms));
        int chunks = ceil_div(width, kMaxSumWarps * kSumColumnsPerWarp), warps = 0;
        for (;; chunks++) {
            warps = ceil_div(ceil_div(width, chunks), kSumColumnsPerWarp);
            if (warps == 1 || sum_shared_bytes(per_block, warps) + 64 <= (size_t)shared_optin)
                break;
        }
        pl.sum_rows_per_block[s] = per_block;
        pl.sum_compute_warps[s] = warps;
    }
    /* The device's limit less each row-sums kernel's static shared memory. */
    for (CUfunction f :
         {k.row_sums_cube, k.row_sums_powf, k.row_sums_cube_map, k.row_sums_powf_map}) {
        int static_shared = 0;
        if ((e = cu.cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) !=
                CUDA_SUCCESS ||
            (e = cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       shared_optin - static_shared)) != CUDA_SUCCESS)
            return e;
    }
    return CUDA_SUCCESS;
}

CUresult launch_dwt_decouple(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int s,
                             const InputPlanes &planes, CUstream stream)
{
    DwtLaunch l = dwt_launch(k, pl, s);
    if (!l.fn)
        return CUDA_ERROR_NOT_INITIALIZED;
    InputPlanes in = planes;
    void *params[] = {&in, &l.out};
    return cu.cuLaunchKernel(l.fn, l.grid_x, l.grid_y, 1, 32, kDwtWarps, 1, 0, stream, params,
                             nullptr);
}

CUresult set_dwt_planes(const CudaDriver &cu, const Kernels &k, const Pipeline &pl,
                        const InputPlanes &planes, CUgraphExec exec, CUgraphNode node)
{
    DwtLaunch l = dwt_launch(k, pl, 0);
    InputPlanes in = planes;
    void *params[] = {&in, &l.out};
    CudaKernelNodeParams p = {};
    p.func = l.fn;
    p.gridDimX = l.grid_x;
    p.gridDimY = l.grid_y;
    p.gridDimZ = 1;
    p.blockDimX = 32;
    p.blockDimY = kDwtWarps;
    p.blockDimZ = 1;
    p.kernelParams = params;
    return cu.cuGraphExecKernelNodeSetParams(exec, node, &p);
}

CUresult launch_row_sums(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int s,
                         float *accum, CUstream stream)
{
    const int rows = sum_rows(pl, s);
    if (rows == 0)
        return CUDA_SUCCESS;
    SumArgs a;
    a.sc = sum_scale(pl, s);
    a.masking = pl.frame.masking;
    a.p = pl.frame.p;
    a.powf_mode = pl.powf_mode;
    a.row_sums = pl.row_sums + (ptrdiff_t)s * kNumRowSums * pl.rows_max;
    a.rows_max = pl.rows_max;
    a.blocks_done = pl.blocks_done + s;
    a.accum = accum + s * kNumRowSums;
    a.rows_per_block = pl.sum_rows_per_block[s];
    a.compute_warps = pl.sum_compute_warps[s];
    a.map_coefficients = pl.map_coefficients[s];
    const int adding_warps = ceil_div(kNumRowSums * a.rows_per_block, 32);
    CUfunction fn = a.map_coefficients ? (pl.frame.cube ? k.row_sums_cube_map : k.row_sums_powf_map)
                                       : (pl.frame.cube ? k.row_sums_cube : k.row_sums_powf);
    void *params[] = {&a};
    return cu.cuLaunchKernel(
        fn, ceil_div(rows, a.rows_per_block), 1, 1, 32 * (a.compute_warps + adding_warps), 1, 1,
        (unsigned)sum_shared_bytes(a.rows_per_block, a.compute_warps), stream, params, nullptr);
}

CUresult launch_map(const CudaDriver &cu, const Kernels &k, const Pipeline &pl, int s,
                    double *blocks, CUstream stream)
{
    const adm::Region &reg = pl.frame.scale[s].sums;
    if (sum_rows(pl, s) == 0 || reg.right <= reg.left)
        return CUDA_SUCCESS;
    MapArgs a;
    a.coefficients = pl.map_coefficients[s];
    a.sums = reg;
    a.block_rows = adm::FrameMap::block_rows(s);
    a.blocks = blocks;
    a.map_columns = pl.map_columns;
    const int bc = a.block_rows;
    const int block_rows = (reg.bottom - 1) / bc - reg.top / bc + 1;
    const int block_columns = (reg.right - 1) / bc - reg.left / bc + 1;
    void *params[] = {&a};
    return cu.cuLaunchKernel(k.map_blocks, ceil_div(block_columns, kMapThreads / bc), block_rows, 1,
                             kMapThreads, 1, 1, 0, stream, params, nullptr);
}

} // namespace adm_cuda
