/*
 * float_adm CUDA backend: the kernels.  Built with --fmad=false: every product and
 * sum below rounds exactly as the CPU engine's (see adm_arith.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_kernels.h"
#include "adm_cuda_powf.cuh"

#include <algorithm>

namespace adm_cuda {
namespace {

/*
 * Readers of a scale's input: row(img, y) once per source row, at(row, x) per sample,
 * each converted as the CPU does.  Selects, not run-time indices: they keep the
 * parameter arrays out of local memory.
 */
struct DwtOutputs;

/* Scale 0, 8 bits: libvmaf's luma conversion. */
struct U8Reader {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    using Row = const uint8_t *;
    __device__ void bind(const InputPlanes &p, const DwtOutputs &)
    {
        data[0] = p.data[0];
        data[1] = p.data[1];
        pitch[0] = p.pitch[0];
        pitch[1] = p.pitch[1];
    }
    __device__ Row row(int img, int y) const
    {
        return img ? data[1] + y * pitch[1] : data[0] + y * pitch[0];
    }
    __device__ float at(Row row, int img, int x) const { return adm::input_u8(__ldg(row + x)); }
};

/* Scale 0 above 8 bits; the depth a template constant, so / 2^(depth-8) is an exact multiply. */
template <int Depth> struct WideReader {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    int shift[2];
    using Row = const uint16_t *;
    __device__ void bind(const InputPlanes &p, const DwtOutputs &)
    {
        data[0] = p.data[0];
        data[1] = p.data[1];
        pitch[0] = p.pitch[0];
        pitch[1] = p.pitch[1];
        shift[0] = p.shift[0];
        shift[1] = p.shift[1];
    }
    __device__ Row row(int img, int y) const
    {
        return reinterpret_cast<const uint16_t *>(img ? data[1] + y * pitch[1]
                                                      : data[0] + y * pitch[0]);
    }
    __device__ float at(Row row, int img, int x) const
    {
        const int sh = img ? shift[1] : shift[0];
        return adm::input_u16((uint16_t)(__ldg(row + x) >> sh), adm::input_scaler(Depth));
    }
};

/* Scales 1..3: band a of the scale before. */
struct ApproxReader {
    const float *data[2];
    ptrdiff_t stride;
    using Row = const float *;
    __device__ void bind(const InputPlanes &, const DwtOutputs &out);
    __device__ Row row(int img, int y) const { return (img ? data[1] : data[0]) + y * stride; }
    __device__ float at(Row row, int, int x) const { return __ldg(row + x); }
};

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

__device__ void ApproxReader::bind(const InputPlanes &, const DwtOutputs &out)
{
    data[0] = out.previous[0];
    data[1] = out.previous[1];
    stride = out.previous_stride;
}

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kDwtColumns = 31; /* output columns per warp: lane 31 only lends its sources */
constexpr int kDwtWarps = 4;    /* warps per block, one above the other */
constexpr int kDwtThreads = 32 * kDwtWarps;
constexpr int kDwtMaxRowsPerWarp = 8;

/*
 * One warp: columns j0..j0+30 of the four bands of both images over rows_per_warp
 * rows, then decouple and CSF of each sample.  Lane l holds the source columns
 * 2j-1 and 2j of output j = j0 + l (mirrored as dwt_source_index says), so output j's
 * four taps are its own pair and the pair of lane l + 1, passed by a shuffle after the
 * vertical pass.  Down the rows each lane keeps the four source rows of the current
 * output row in registers and loads the next two while it computes: every source
 * sample is loaded and converted once (the warp's two edge rows twice), with no shared
 * memory and no barrier.  The CPU's values, operation for operation.
 */
template <class Reader>
__global__ void __launch_bounds__(kDwtThreads)
    dwt_decouple_kernel(InputPlanes planes, DwtOutputs out)
{
    Reader in = {};
    in.bind(planes, out);
    const int lane = threadIdx.x;
    const int i0 = (blockIdx.y * kDwtWarps + threadIdx.y) * out.rows_per_warp;
    if (i0 >= out.h)
        return; /* the whole warp */
    const int i1 = min(i0 + out.rows_per_warp, out.h);
    const int j = blockIdx.x * kDwtColumns + lane;
    /* Lane l's pair serves outputs j (lanes 0..30) and j - 1: needed while j <= w. */
    const bool pair_used = j <= out.w;
    const int c0 = pair_used ? adm::dwt_mirror(2 * j - 1, out.in_w) : 0;
    const int c1 = pair_used ? adm::dwt_mirror(2 * j, out.in_w) : 0;
    const bool writes = lane < kDwtColumns && j < out.w;

    float src[2][2][4]; /* [image][column c0, c1][tap]: source rows 2i-1 .. 2i+2 */
#pragma unroll
    for (int t = 0; t < 4; t++) {
        const int y = adm::dwt_mirror(2 * i0 - 1 + t, out.in_h);
#pragma unroll
        for (int img = 0; img < 2; img++) {
            const typename Reader::Row row = in.row(img, y);
            src[img][0][t] = in.at(row, img, c0);
            src[img][1][t] = in.at(row, img, c1);
        }
    }
    const adm::Region &r = out.decouple;
    const bool in_columns = j >= r.left && j < r.right;
    for (int i = i0; i < i1; i++) {
        /* The next output row's two new source rows, loaded while this one is computed. */
        float next[2][2][2];
        const bool more = i + 1 < i1;
        if (more) {
#pragma unroll
            for (int t = 0; t < 2; t++) {
                const int y = adm::dwt_mirror(2 * i + 3 + t, out.in_h);
#pragma unroll
                for (int img = 0; img < 2; img++) {
                    const typename Reader::Row row = in.row(img, y);
                    next[img][0][t] = in.at(row, img, c0);
                    next[img][1][t] = in.at(row, img, c1);
                }
            }
        }
        const ptrdiff_t at = i * out.stride + j;
        float detail[2][kNumBands]; /* h, v, d */
#pragma unroll
        for (int img = 0; img < 2; img++) {
            const float *s0 = src[img][0], *s1 = src[img][1];
            const float lo0 = adm::dwt_lo(s0[0], s0[1], s0[2], s0[3]);
            const float hi0 = adm::dwt_hi(s0[0], s0[1], s0[2], s0[3]);
            const float lo1 = adm::dwt_lo(s1[0], s1[1], s1[2], s1[3]);
            const float hi1 = adm::dwt_hi(s1[0], s1[1], s1[2], s1[3]);
            /* Columns 2j+1 and 2j+2: lane l + 1's pair. */
            const float lo2 = __shfl_down_sync(kFullWarp, lo0, 1);
            const float hi2 = __shfl_down_sync(kFullWarp, hi0, 1);
            const float lo3 = __shfl_down_sync(kFullWarp, lo1, 1);
            const float hi3 = __shfl_down_sync(kFullWarp, hi1, 1);
            if (writes)
                out.approx[img][at] = adm::dwt_lo(lo0, lo1, lo2, lo3);
            detail[img][1] = adm::dwt_hi(lo0, lo1, lo2, lo3);
            detail[img][0] = adm::dwt_lo(hi0, hi1, hi2, hi3);
            detail[img][2] = adm::dwt_hi(hi0, hi1, hi2, hi3);
        }
        if (writes && !out.lo_only) {
#pragma unroll
            for (int b = 0; b < kNumBands; b++)
                out.ref_detail[b][at] = detail[0][b];
            if (in_columns && i >= r.top && i < r.bottom) {
                const adm::Decoupled dc = adm::decouple(detail[0], detail[1], out.enhn_gain_limit,
                                                        out.cos_1deg_sq, out.divide);
#pragma unroll
                for (int b = 0; b < kNumBands; b++) {
                    out.weighted[0][b][at] = adm::csf_weight(out.factor[b], dc.restored[b]);
                    out.weighted[1][b][at] = adm::csf_weight(out.factor[b], dc.additive[b]);
                }
            }
        }
        if (more) {
#pragma unroll
            for (int img = 0; img < 2; img++) {
#pragma unroll
                for (int c = 0; c < 2; c++) {
                    src[img][c][0] = src[img][c][2];
                    src[img][c][1] = src[img][c][3];
                    src[img][c][2] = next[img][c][0];
                    src[img][c][3] = next[img][c][1];
                }
            }
        }
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

constexpr int kSumColumnsPerWarp =
    30;                          /* lanes 1..30 of a computing warp; 0 and 31 lend neighbours */
constexpr int kMaxSumRows = 7;   /* rows per block: 63 chains, two adding warps */
constexpr int kMaxSumWarps = 14; /* computing warps per block */
constexpr int kMaxSumThreads = 32 * (kMaxSumWarps + 2);
constexpr int kMaskSignals = 2 * kNumBands; /* weighted restored h, v, d, then additive h, v, d */
static_assert(kMaxSumRows * kNumRowSums <= 64, "two adding warps");

/* The row sums of one scale; its last block folds them. */
struct SumArgs {
    SumScale sc;
    bool masking, cube;
    float p;
    int powf_mode;   /* adm::PowfMode */
    float *row_sums; /* this scale's: [sum][row], rows_max rows each */
    int rows_max;
    unsigned *blocks_done; /* this scale's count of finished blocks, 0 between frames */
    float *accum; /* this scale's kNumRowSums accumulators, device-visible host memory */
    int rows_per_block;
    int compute_warps;
};

/*
 * One row of the six weighted bands at a lane's column: the values, their magnitudes
 * in fp64 and 1/30 of them (the masking input, recomputed here instead of stored),
 * with the 1/30 magnitudes of the lanes beside (the columns left and right).
 */
struct MaskRow {
    float weighted[kMaskSignals];
    double magnitude[kMaskSignals];
    float left[kMaskSignals], filtered[kMaskSignals], right[kMaskSignals];
};

__device__ __forceinline__ void load_weighted(const SumScale &sc, int y, int col,
                                              float (&w)[kMaskSignals])
{
    const float *at = sc.bands + kWeighted * sc.band_floats + y * sc.stride + col;
#pragma unroll
    for (int k = 0; k < kMaskSignals; k++)
        w[k] = __ldg(at + k * sc.band_floats);
}

__device__ __forceinline__ void load_reference(const SumScale &sc, int y, int col,
                                               float (&ref)[kNumBands])
{
    const float *at = sc.bands + kRefDetail * sc.band_floats + y * sc.stride + col;
#pragma unroll
    for (int b = 0; b < kNumBands; b++)
        ref[b] = __ldg(at + b * sc.band_floats);
}

/* Every lane of the warp takes part (the shuffles). */
__device__ __forceinline__ void mask_row(const float (&w)[kMaskSignals], MaskRow &r)
{
#pragma unroll
    for (int k = 0; k < kMaskSignals; k++) {
        r.weighted[k] = w[k];
        r.magnitude[k] = adm::csf_magnitude(w[k]);
        r.filtered[k] = adm::csf_filtered_of(r.magnitude[k]);
        r.left[k] = __shfl_up_sync(kFullWarp, r.filtered[k], 1);
        r.right[k] = __shfl_down_sync(kFullWarp, r.filtered[k], 1);
    }
}

/*
 * A computing lane's part of one chunk: the nine terms of rows i0 .. i0+rows-1 at
 * column vj (sums region, or a neighbour of it for lanes 0 and 31, which only lend
 * their 1/30 magnitudes) into terms[(r * 9 + k) * term_stride] (has_terms lanes).
 * Down the rows the lane keeps the upper row's threshold part, the centre row and
 * the lower row; each weighted row is loaded once, a row ahead, with the reference
 * details of the next centre row.  Rows and columns outside the band mirror as
 * mask_neighbour says: lane l's neighbours are lanes l - 1 and l + 1.
 */
__device__ __forceinline__ void sum_terms(const SumArgs &a, int i0, int rows, int vj,
                                          bool has_terms, float *terms, int term_stride)
{
    const SumScale &sc = a.sc;
    const int col = adm::mask_neighbour(vj, sc.w);
    float raw[kMaskSignals], ref[kNumBands], upper[kMaskSignals];
    MaskRow row_a, row_b;
    {
        /* The first three rows' loads all in flight at once. */
        float raw_up[kMaskSignals], raw_mid[kMaskSignals];
        load_weighted(sc, adm::mask_neighbour(i0 - 1, sc.h), col, raw_up);
        load_weighted(sc, i0, col, raw_mid);
        load_weighted(sc, adm::mask_neighbour(i0 + 1, sc.h), col, raw);
        load_reference(sc, i0, col, ref);
        mask_row(raw_up, row_b);
#pragma unroll
        for (int k = 0; k < kMaskSignals; k++)
            upper[k] = adm::threshold_upper_row(row_b.left[k], row_b.filtered[k], row_b.right[k]);
        mask_row(raw_mid, row_a);
    }
    const DevicePow pow{a.powf_mode}; /* the host's powf */
    /* Row r with centre `mid`; the lower row goes into `low`, then becomes the centre. */
    auto step = [&](int r, MaskRow &mid, MaskRow &low) {
        const bool more = r + 1 < rows;
        float raw_next[kMaskSignals], ref_next[kNumBands];
        if (more) {
            load_weighted(sc, adm::mask_neighbour(i0 + r + 2, sc.h), col, raw_next);
            load_reference(sc, i0 + r + 1, col, ref_next);
        }
        mask_row(raw, low);
        if (has_terms) {
            float thr[2] = {0.0f, 0.0f};
            if (a.masking) {
#pragma unroll
                for (int m = 0; m < 2; m++) {
                    float band_thr[kNumBands];
#pragma unroll
                    for (int b = 0; b < kNumBands; b++) {
                        const int k = 3 * m + b;
                        band_thr[b] = adm::threshold_band_rest(
                            upper[k], mid.left[k], mid.magnitude[k], mid.right[k], low.left[k],
                            low.filtered[k], low.right[k]);
                    }
                    thr[m] = adm::threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
                }
            }
            float *t = terms + r * kNumRowSums * term_stride;
#pragma unroll
            for (int b = 0; b < kNumBands; b++) {
                t[b * term_stride] = adm::reference_term(sc.factor[b], ref[b], a.cube, a.p, pow);
                t[(3 + b) * term_stride] = adm::masked_term(mid.weighted[b], thr[1], a.cube, a.p,
                                                            pow);
                t[(6 + b) * term_stride] = adm::masked_term(mid.weighted[3 + b], thr[0], a.cube,
                                                            a.p, pow);
            }
        }
        if (more) {
#pragma unroll
            for (int k = 0; k < kMaskSignals; k++) {
                upper[k] = adm::threshold_upper_row(mid.left[k], mid.filtered[k], mid.right[k]);
                raw[k] = raw_next[k];
            }
#pragma unroll
            for (int b = 0; b < kNumBands; b++)
                ref[b] = ref_next[b];
        }
    };
    for (int r = 0; r < rows; r += 2) {
        step(r, row_a, row_b);
        if (r + 1 < rows)
            step(r + 1, row_b, row_a);
    }
}

/*
 * The last block of a scale: the scale's row sums, staged through shared memory
 * (loads from L2, all in flight at once), are added in row order from 0 by lane k of
 * the first warp for sum k, into the host's accumulator; then the scale's counter is
 * reset for the next frame.  shared_floats: the block's shared memory, in floats.
 */
__device__ void fold(const SumArgs &a, float *shared, int shared_floats)
{
    const int rows = a.sc.sums.bottom - a.sc.sums.top;
    const int stride = (shared_floats / kNumRowSums - 1) | 1; /* odd: nine distinct banks */
    const int piece = min(rows, stride);
    const float *chains = a.row_sums + a.sc.sums.top;
    float accum = 0.0f;
    for (int r0 = 0; r0 < rows; r0 += piece) {
        const int n = min(piece, rows - r0);
        __syncthreads(); /* the previous piece is added */
        for (int k = threadIdx.x; k < kNumRowSums * n; k += blockDim.x) {
            const int sum = k / n, r = k - sum * n;
            /* Through L2: other blocks of this launch wrote them. */
            shared[sum * stride + r] = __ldcg(chains + (ptrdiff_t)sum * a.rows_max + r0 + r);
        }
        __syncthreads();
        if (threadIdx.x < kNumRowSums)
            accum = add_in_order(accum, shared + threadIdx.x * stride, n);
    }
    /*
     * No system-scope fence: the host reads the accumulators only after the frame's
     * completion event, which orders them.
     */
    if (threadIdx.x < kNumRowSums)
        a.accum[threadIdx.x] = accum;
    if (threadIdx.x == 0)
        *a.blocks_done = 0;
}

/*
 * One block per rows_per_block rows of the scale's sums region, across the whole
 * width in chunks of compute_warps * 30 columns.  Per chunk each computing lane puts
 * the nine terms of its column, for every row of the block, into shared memory; lane
 * r * 9 + k of the adding warps adds term k of row r in column order, continuing that
 * row's inner sum from 0.  Chunk c is computed into buffer c % 2 while chunk c - 1 is
 * added from the other.  The last block to finish folds the scale.
 */
__global__ void __launch_bounds__(kMaxSumThreads) row_sums_kernel(SumArgs a)
{
    extern __shared__ float terms[]; /* [2][9 * rows_per_block][term_stride] */
    __shared__ bool last;
    const SumScale &sc = a.sc;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int chunk_cols = a.compute_warps * kSumColumnsPerWarp;
    const int term_stride = chunk_cols + 1; /* odd: the adding lanes hit distinct banks */
    const int buffer_floats = kNumRowSums * a.rows_per_block * term_stride;
    const int i0 = sc.sums.top + (int)blockIdx.x * a.rows_per_block;
    const int rows = min(a.rows_per_block, sc.sums.bottom - i0);
    const int width = sc.sums.right - sc.sums.left;
    const int chunks = (width + chunk_cols - 1) / chunk_cols;
    const int chain = (warp - a.compute_warps) * 32 + lane; /* adding lanes */
    float inner = 0.0f;
    for (int c = 0; c <= chunks; c++) {
        if (warp < a.compute_warps) {
            if (c < chunks) {
                /* Column of the chunk this lane's terms go to; lanes 0 and 31 are neighbours. */
                const int tc = warp * kSumColumnsPerWarp + lane - 1;
                const int col = c * chunk_cols + tc; /* from sums.left */
                const bool has_terms = lane >= 1 && lane <= kSumColumnsPerWarp && col < width;
                sum_terms(a, i0, rows, sc.sums.left + col, has_terms,
                          terms + (c & 1) * buffer_floats + (has_terms ? tc : 0), term_stride);
            }
        } else if (c > 0 && chain < kNumRowSums * rows) {
            inner = add_in_order(inner, terms + ((c - 1) & 1) * buffer_floats + chain * term_stride,
                                 min(chunk_cols, width - (c - 1) * chunk_cols));
        }
        __syncthreads();
    }
    if (warp >= a.compute_warps && chain < kNumRowSums * rows)
        a.row_sums[(ptrdiff_t)(chain % kNumRowSums) * a.rows_max + i0 + chain / kNumRowSums] =
            inner;

    /* Row sums visible to all, then a ticket: the block that takes the last one folds. */
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(a.blocks_done, 1u) == gridDim.x - 1;
    __syncthreads();
    if (last) {
        __threadfence();
        fold(a, terms, 2 * buffer_floats);
    }
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

} // namespace

int sum_rows(const Pipeline &pl, int s)
{
    if (s == 0 && pl.frame.skip_scale0)
        return 0;
    const adm::Region &sums = pl.frame.scale[s].sums;
    const int rows = sums.bottom - sums.top;
    return rows > 0 ? rows : 0;
}

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

size_t sum_shared_bytes(int rows_per_block, int compute_warps)
{
    return 2 * sizeof(float) * kNumRowSums * rows_per_block *
           (compute_warps * kSumColumnsPerWarp + 1);
}

} // namespace

cudaError_t plan_launches(Pipeline &pl)
{
    int dev = 0, sms = 0, shared_optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess)
        return e;
    sms = sms > 0 ? sms : 1;
    for (int s = 0; s < kNumScales; s++) {
        const adm::ScaleGeometry &g = pl.frame.scale[s];
        /* DWT: about two waves of 32 resident warps per SM, at most 8 rows per warp. */
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
    /*
     * The device's limit less the kernel's static shared memory, not this context's
     * need: contexts of other sizes share the kernel.
     */
    cudaFuncAttributes attr;
    if ((e = cudaFuncGetAttributes(&attr, row_sums_kernel)) != cudaSuccess)
        return e;
    return cudaFuncSetAttribute(row_sums_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                shared_optin - (int)attr.sharedSizeBytes);
}

cudaError_t launch_dwt_decouple(const Pipeline &pl, int s, const InputPlanes &planes,
                                cudaStream_t stream)
{
    const DwtOutputs out = dwt_outputs(pl, s);
    const dim3 block(32, kDwtWarps);
    const int warps_down = ceil_div(out.h, out.rows_per_warp);
    const dim3 grid(ceil_div(out.w, kDwtColumns), ceil_div(warps_down, kDwtWarps));
    if (s > 0) {
        dwt_decouple_kernel<ApproxReader><<<grid, block, 0, stream>>>(planes, out);
    } else if (pl.frame.bit_depth == 8) {
        dwt_decouple_kernel<U8Reader><<<grid, block, 0, stream>>>(planes, out);
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
    a.rows_per_block = pl.sum_rows_per_block[s];
    a.compute_warps = pl.sum_compute_warps[s];
    const int adding_warps = ceil_div(kNumRowSums * a.rows_per_block, 32);
    row_sums_kernel<<<ceil_div(rows, a.rows_per_block), 32 * (a.compute_warps + adding_warps),
                      sum_shared_bytes(a.rows_per_block, a.compute_warps), stream>>>(a);
    return cudaGetLastError();
}

} // namespace adm_cuda
