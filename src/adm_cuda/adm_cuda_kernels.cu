/*
 * float_adm CUDA backend: the kernels.  Built with --fmad=false: every product and
 * sum below rounds exactly as the CPU engine's (see adm_arith.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_kernels.h"
#include "adm_cuda_powf.cuh"

namespace adm_cuda {
namespace {

enum InputKind { kFromApprox, kFromU8 };

/* Sample (y, x) of image img at this scale's input, converted as the CPU does. */
template <int Kind> struct InputReader;

template <> struct InputReader<kFromApprox> {
    const float *data[2];
    ptrdiff_t stride;
    __device__ void bind(const InputPlanes &) {}
    __device__ float operator()(int img, int y, int x) const
    {
        /* Selects, not a run-time index: keeps the parameter arrays out of local memory. */
        return __ldg((img ? data[1] : data[0]) + y * stride + x);
    }
};

template <> struct InputReader<kFromU8> {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    __device__ void bind(const InputPlanes &p)
    {
        data[0] = p.data[0];
        data[1] = p.data[1];
        pitch[0] = p.pitch[0];
        pitch[1] = p.pitch[1];
    }
    __device__ float operator()(int img, int y, int x) const
    {
        const uint8_t *row = img ? data[1] + y * pitch[1] : data[0] + y * pitch[0];
        return adm::input_u8(__ldg(row + x));
    }
};

/* Depth a template constant: the division by 2^(depth-8) is then an exact multiply. */
template <int Depth> struct WideReader {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    int shift[2];
    __device__ void bind(const InputPlanes &p)
    {
        data[0] = p.data[0];
        data[1] = p.data[1];
        pitch[0] = p.pitch[0];
        pitch[1] = p.pitch[1];
        shift[0] = p.shift[0];
        shift[1] = p.shift[1];
    }
    __device__ float operator()(int img, int y, int x) const
    {
        const uint16_t *row = reinterpret_cast<const uint16_t *>(
            img ? data[1] + y * pitch[1] : data[0] + y * pitch[0]);
        const int sh = img ? shift[1] : shift[0];
        return adm::input_u16((uint16_t)(__ldg(row + x) >> sh), adm::input_scaler(Depth));
    }
};

struct DwtOutputs;
template <class Reader> __device__ void bind_previous_scale(Reader &, const DwtOutputs &) {}

struct DwtOutputs {
    float *approx[2];
    float *ref_detail[kNumBands];
    float *weighted[2][kNumBands];
    float *filtered[2][kNumBands];
    ptrdiff_t stride; /* of this scale's bands */
    int in_w, in_h, w, h;
    adm::Region decouple;
    float factor[kNumBands];
    adm::ModelDivide divide;
    double enhn_gain_limit;
    float cos_1deg_sq;
    bool lo_only;
    const float *previous[2]; /* band a of the previous scale, for scales 1..3 */
    ptrdiff_t previous_stride;
};

template <>
__device__ void bind_previous_scale(InputReader<kFromApprox> &r, const DwtOutputs &out)
{
    r.data[0] = out.previous[0];
    r.data[1] = out.previous[1];
    r.stride = out.previous_stride;
}

constexpr int kTileW = 32, kTileH = 8;                       /* outputs per block */
constexpr int kTileThreads = kTileW * kTileH;
constexpr int kInRows = 2 * kTileH + 2, kInCols = 2 * kTileW + 2; /* their source samples */
constexpr int kInSamples = 2 * kInRows * kInCols;                 /* of both images */
constexpr int kInPerThread = (kInSamples + kTileThreads - 1) / kTileThreads;
/* Resident blocks the registers are budgeted for (Turing holds 1024 threads per SM). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kTilesPerSm = 4;
#else
constexpr int kTilesPerSm = 5;
#endif

/*
 * A kTileW x kTileH tile of the four bands of both images, then decouple and CSF of
 * each sample.  The tile's source samples (mirrored as dwt_source_index says) are
 * converted once into shared memory, the vertical pass runs over the tile's
 * columns, the horizontal one per output: the CPU's values, computed once each.
 */
template <class Reader>
__global__ void __launch_bounds__(kTileThreads, kTilesPerSm)
    dwt_decouple_kernel(InputPlanes planes, DwtOutputs out)
{
    Reader in = {};
    in.bind(planes);
    bind_previous_scale(in, out);
    __shared__ float src[2][kInRows][kInCols];
    __shared__ float lo[2][kTileH][kInCols], hi[2][kTileH][kInCols];
    const int i0 = blockIdx.y * kTileH, j0 = blockIdx.x * kTileW;
    const int tid = threadIdx.y * kTileW + threadIdx.x;
    const int rows = min(kTileH, out.h - i0), cols = min(kTileW, out.w - j0);
    const int in_rows = 2 * rows + 2, in_cols = 2 * cols + 2;

    /*
     * All of a thread's source loads are issued before the first is stored: one
     * memory latency per tile instead of one per sample a thread stages.
     */
    float staged[kInPerThread];
#pragma unroll
    for (int u = 0; u < kInPerThread; u++) {
        const int k = tid + u * kTileThreads;
        const int img = k / (kInRows * kInCols), r = k / kInCols % kInRows, c = k % kInCols;
        if (k < kInSamples && r < in_rows && c < in_cols)
            staged[u] = in(img, adm::dwt_source_index(i0, r, out.in_h),
                           adm::dwt_source_index(j0, c, out.in_w));
    }
#pragma unroll
    for (int u = 0; u < kInPerThread; u++) {
        const int k = tid + u * kTileThreads;
        const int img = k / (kInRows * kInCols), r = k / kInCols % kInRows, c = k % kInCols;
        if (k < kInSamples && r < in_rows && c < in_cols)
            src[img][r][c] = staged[u];
    }
    __syncthreads();
    for (int k = tid; k < 2 * kTileH * kInCols; k += kTileThreads) {
        const int img = k / (kTileH * kInCols), r = k / kInCols % kTileH, c = k % kInCols;
        if (r < rows && c < in_cols) {
            const float s0 = src[img][2 * r][c], s1 = src[img][2 * r + 1][c];
            const float s2 = src[img][2 * r + 2][c], s3 = src[img][2 * r + 3][c];
            lo[img][r][c] = adm::dwt_lo(s0, s1, s2, s3);
            hi[img][r][c] = adm::dwt_hi(s0, s1, s2, s3);
        }
    }
    __syncthreads();
    const int ti = threadIdx.y, tj = threadIdx.x;
    if (ti >= rows || tj >= cols)
        return;
    const int i = i0 + ti, j = j0 + tj;
    float detail[2][kNumBands]; /* h, v, d */
#pragma unroll
    for (int img = 0; img < 2; img++) {
        const float *l = &lo[img][ti][2 * tj], *h = &hi[img][ti][2 * tj];
        out.approx[img][i * out.stride + j] = adm::dwt_lo(l[0], l[1], l[2], l[3]);
        detail[img][1] = adm::dwt_hi(l[0], l[1], l[2], l[3]);
        detail[img][0] = adm::dwt_lo(h[0], h[1], h[2], h[3]);
        detail[img][2] = adm::dwt_hi(h[0], h[1], h[2], h[3]);
    }
    if (out.lo_only)
        return;
    const ptrdiff_t at = i * out.stride + j;
#pragma unroll
    for (int b = 0; b < kNumBands; b++)
        out.ref_detail[b][at] = detail[0][b];
    const adm::Region &r = out.decouple;
    if (i < r.top || i >= r.bottom || j < r.left || j >= r.right)
        return;
    const adm::Decoupled dc = adm::decouple(detail[0], detail[1], out.enhn_gain_limit,
                                            out.cos_1deg_sq, out.divide);
#pragma unroll
    for (int b = 0; b < kNumBands; b++) {
        const float wr = adm::csf_weight(out.factor[b], dc.restored[b]);
        const float wa = adm::csf_weight(out.factor[b], dc.additive[b]);
        out.weighted[0][b][at] = wr;
        out.weighted[1][b][at] = wa;
        out.filtered[0][b][at] = adm::csf_filtered(wr);
        out.filtered[1][b][at] = adm::csf_filtered(wa);
    }
}

/*
 * sum + v[0] + v[1] + ... in this order.  The loads of a batch are issued before its
 * adds so their latency overlaps; the order of the fp32 additions is unchanged.
 */
__device__ float add_in_order(float sum, const float *v, int n)
{
    constexpr int kBatch = 8;
    int c = 0;
    for (; c + kBatch <= n; c += kBatch) {
        float x[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; u++)
            x[u] = v[c + u];
#pragma unroll
        for (int u = 0; u < kBatch; u++)
            sum += x[u];
    }
    for (; c < n; c++)
        sum += v[c];
    return sum;
}

/* The masking threshold that signal m (0 restored, 1 additive) casts at (i, j). */
__device__ float masking_threshold(const SumScale &sc, int m, int up, int i, int down, int jl,
                                   int j, int jr)
{
    float band_thr[kNumBands];
#pragma unroll
    for (int b = 0; b < kNumBands; b++) {
        const float *f = sc.bands + (kFiltered + 3 * m + b) * sc.band_floats;
        const float *ru = f + up * sc.stride, *ri = f + i * sc.stride, *rd = f + down * sc.stride;
        const float *weighted = sc.bands + (kWeighted + 3 * m + b) * sc.band_floats;
        band_thr[b] = adm::threshold_band(__ldg(ru + jl), __ldg(ru + j), __ldg(ru + jr),
                                          __ldg(ri + jl), __ldg(weighted + i * sc.stride + j),
                                          __ldg(ri + jr), __ldg(rd + jl), __ldg(rd + j),
                                          __ldg(rd + jr));
    }
    return adm::threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
}

constexpr int kSumColumns = 256;              /* columns per chunk, one computing thread each */
constexpr int kSumThreads = kSumColumns + 32; /* and one warp that adds */
constexpr int kTermStride = kSumColumns + 1;  /* padded: the nine adding lanes hit nine banks */
constexpr int kTermFloats = 2 * kNumRowSums * kTermStride; /* two chunks' terms */
constexpr int kFoldBatch = 8; /* 32-row pieces of a chain each lane loads before they are added */
static_assert(kSumThreads / 32 == kNumRowSums, "the fold gives each sum's chain one warp");

/* The row sums of one scale; its last block to finish folds them. */
struct SumArgs {
    SumScale sc;
    bool masking, cube;
    float p;
    int powf_mode;   /* adm::PowfMode */
    float *row_sums; /* this scale's: [sum][row], rows_max rows each */
    int rows_max;
    unsigned *blocks_done; /* this scale's count of finished blocks, 0 between frames */
    float *accum; /* this scale's kNumRowSums accumulators, device-visible host memory */
};

/*
 * Row i: per chunk of kSumColumns columns every computing thread puts the nine
 * terms of its column into shared memory; lane k of the adding warp adds term k's
 * chunk in column order, continuing the row's inner sum from 0.  Chunk c is
 * computed into buffer c % 2 while chunk c - 1 is added from the other.
 */
__device__ void sum_row(const SumArgs &a, int i, float *shared)
{
    const SumScale &sc = a.sc;
    const int up = adm::mask_neighbour(i - 1, sc.h);
    const int down = adm::mask_neighbour(i + 1, sc.h);
    const int tid = threadIdx.x, lane = tid - kSumColumns;
    const int width = sc.sums.right - sc.sums.left;
    const int chunks = (width + kSumColumns - 1) / kSumColumns;
    float inner = 0.0f;
    for (int c = 0; c <= chunks; c++) {
        if (lane < 0) {
            const int j = sc.sums.left + c * kSumColumns + tid;
            if (c < chunks && j < sc.sums.right) {
                float *terms = shared + (c & 1) * kNumRowSums * kTermStride + tid;
                const int jl = adm::mask_neighbour(j - 1, sc.w);
                const int jr = adm::mask_neighbour(j + 1, sc.w);
                float thr[2] = {0.0f, 0.0f};
                if (a.masking) {
                    thr[0] = masking_threshold(sc, 0, up, i, down, jl, j, jr);
                    thr[1] = masking_threshold(sc, 1, up, i, down, jl, j, jr);
                }
                const float *at = sc.bands + i * sc.stride + j;
#pragma unroll
                for (int b = 0; b < kNumBands; b++) {
                    const float ref = __ldg(at + (kRefDetail + b) * sc.band_floats);
                    const float restored = __ldg(at + (kWeighted + b) * sc.band_floats);
                    const float additive = __ldg(at + (kWeighted + 3 + b) * sc.band_floats);
                    const DevicePow pow{a.powf_mode}; /* the host's powf */
                    terms[b * kTermStride] = adm::reference_term(sc.factor[b], ref, a.cube, a.p,
                                                                 pow);
                    terms[(3 + b) * kTermStride] = adm::masked_term(restored, thr[1], a.cube, a.p,
                                                                    pow);
                    terms[(6 + b) * kTermStride] = adm::masked_term(additive, thr[0], a.cube, a.p,
                                                                    pow);
                }
            }
        } else if (c > 0 && lane < kNumRowSums) {
            const float *terms = shared + ((c - 1) & 1) * kNumRowSums * kTermStride;
            inner = add_in_order(inner, terms + lane * kTermStride,
                                 min(kSumColumns, width - (c - 1) * kSumColumns));
        }
        __syncthreads();
    }
    if (lane >= 0 && lane < kNumRowSums)
        a.row_sums[(ptrdiff_t)lane * a.rows_max + i] = inner;
}

/* accum + v of lane 0 + v of lane 1 + ... + v of lane count - 1, in this order. */
__device__ __forceinline__ float add_lanes_in_order(float accum, float v, int count)
{
#pragma unroll
    for (int k = 0; k < 32; k++) {
        const float x = __shfl_sync(0xffffffffu, v, k);
        if (k < count)
            accum += x;
    }
    return accum;
}

/* Rows [r0, r0 + 32 * kFoldBatch) of a chain, row r0 + 32 * u + lane into v[u]. */
__device__ __forceinline__ void load_fold_batch(const float *chain, int r0, int rows,
                                                float (&v)[kFoldBatch])
{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int u = 0; u < kFoldBatch; u++) {
        const int r = r0 + 32 * u + lane;
        /* Through L2: other blocks of this launch wrote them. */
        v[u] = r < rows ? __ldcg(chain + r) : 0.0f;
    }
}

/*
 * The last block of a scale: warp k folds sum k's rows in order from 0 (every lane
 * keeps the same running sum; the rows come from the lanes by shuffles, the next
 * batch's loads in flight meanwhile) into the host's accumulator, then resets the
 * scale's counter for the next frame.
 */
__device__ void fold(const SumArgs &a)
{
    const int sum = threadIdx.x / 32;
    const int rows = a.sc.sums.bottom - a.sc.sums.top;
    const float *chain = a.row_sums + (ptrdiff_t)sum * a.rows_max + a.sc.sums.top;
    float next[kFoldBatch];
    load_fold_batch(chain, 0, rows, next);
    float accum = 0.0f;
    for (int r0 = 0; r0 < rows; r0 += 32 * kFoldBatch) {
        float v[kFoldBatch];
#pragma unroll
        for (int u = 0; u < kFoldBatch; u++)
            v[u] = next[u];
        if (r0 + 32 * kFoldBatch < rows)
            load_fold_batch(chain, r0 + 32 * kFoldBatch, rows, next);
        if (r0 + 32 * kFoldBatch <= rows) {
#pragma unroll
            for (int u = 0; u < kFoldBatch; u++)
                accum = add_lanes_in_order(accum, v[u], 32);
        } else {
#pragma unroll
            for (int u = 0; u < kFoldBatch; u++)
                accum = add_lanes_in_order(accum, v[u], rows - r0 - 32 * u);
        }
    }
    if (threadIdx.x % 32 == 0)
        a.accum[sum] = accum;
    __threadfence_system();
    if (threadIdx.x == 0)
        *a.blocks_done = 0;
}

/* One block per row of the scale's sums region; the last one to finish folds. */
__global__ void __launch_bounds__(kSumThreads) row_sums_kernel(SumArgs a)
{
    __shared__ float shared[kTermFloats];
    __shared__ bool last;
    sum_row(a, a.sc.sums.top + (int)blockIdx.x, shared);

    /* Row sums visible to all, then a ticket: the block that takes the last one folds. */
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(a.blocks_done, 1u) == gridDim.x - 1;
    __syncthreads();
    if (last) {
        __threadfence();
        fold(a);
    }
}

DwtOutputs dwt_outputs(const Pipeline &pl, int s)
{
    const adm::FrameSetup &f = pl.frame;
    const adm::ScaleGeometry &g = f.scale[s];
    DwtOutputs o;
    for (int img = 0; img < 2; img++) {
        o.approx[img] = pl.approx[img][s];
        for (int b = 0; b < kNumBands; b++) {
            o.weighted[img][b] = pl.bands[s] + (kWeighted + 3 * img + b) * pl.band_floats[s];
            o.filtered[img][b] = pl.bands[s] + (kFiltered + 3 * img + b) * pl.band_floats[s];
        }
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

} // namespace

cudaError_t launch_dwt_decouple(const Pipeline &pl, int s, const InputPlanes &planes,
                                cudaStream_t stream)
{
    const DwtOutputs out = dwt_outputs(pl, s);
    const dim3 block(kTileW, kTileH);
    const dim3 grid((out.w + kTileW - 1) / kTileW, (out.h + kTileH - 1) / kTileH);
    if (s > 0) {
        dwt_decouple_kernel<InputReader<kFromApprox>><<<grid, block, 0, stream>>>(planes, out);
    } else if (pl.frame.bit_depth == 8) {
        dwt_decouple_kernel<InputReader<kFromU8>><<<grid, block, 0, stream>>>(planes, out);
    } else {
        switch (pl.frame.bit_depth) {
        case 9: dwt_decouple_kernel<WideReader<9>><<<grid, block, 0, stream>>>(planes, out); break;
        case 10: dwt_decouple_kernel<WideReader<10>><<<grid, block, 0, stream>>>(planes, out); break;
        case 12: dwt_decouple_kernel<WideReader<12>><<<grid, block, 0, stream>>>(planes, out); break;
        case 14: dwt_decouple_kernel<WideReader<14>><<<grid, block, 0, stream>>>(planes, out); break;
        case 16: dwt_decouple_kernel<WideReader<16>><<<grid, block, 0, stream>>>(planes, out); break;
        default: return cudaErrorInvalidValue;
        }
    }
    return cudaGetLastError();
}

int sum_rows(const Pipeline &pl, int s)
{
    if (s == 0 && pl.frame.skip_scale0)
        return 0;
    const adm::Region &sums = pl.frame.scale[s].sums;
    const int rows = sums.bottom - sums.top;
    return rows > 0 ? rows : 0;
}

cudaError_t launch_row_sums(const Pipeline &pl, int s, float *accum, cudaStream_t stream)
{
    const int rows = sum_rows(pl, s);
    if (rows == 0)
        return cudaSuccess;
    SumArgs a;
    a.sc = sum_scale(pl, s);
    a.masking = pl.frame.masking;
    a.cube = pl.frame.cube;
    a.p = pl.frame.p;
    a.powf_mode = pl.powf_mode;
    a.row_sums = pl.row_sums + (ptrdiff_t)s * kNumRowSums * pl.rows_max;
    a.rows_max = pl.rows_max;
    a.blocks_done = pl.blocks_done + s;
    a.accum = accum + s * kNumRowSums;
    row_sums_kernel<<<rows, kSumThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

} // namespace adm_cuda
