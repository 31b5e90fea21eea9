/*
 * float_adm CUDA backend: the kernels, device code alone.  Built without contraction
 * (clang -ffp-contract=off, nvcc --fmad=false): every product and sum below rounds
 * exactly as the CPU engine's (see adm_arith.h).  The host launches them by name
 * (adm_cuda_kernels.h, adm_cuda_launch.cpp).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_device.h"

#include "adm_cuda_kernels.h"
#include "adm_cuda_powf.cuh"

namespace adm_cuda {
namespace {

/*
 * Readers of a scale's input: row(img, y) once per source row, at(row, x) per sample,
 * each converted as the CPU does.  Selects, not run-time indices: they keep the
 * parameter arrays out of local memory.
 */
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
    __device__ float at(Row row, int, int x) const { return adm::input_u8(__ldg(row + x)); }
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

__device__ void ApproxReader::bind(const InputPlanes &, const DwtOutputs &out)
{
    data[0] = out.previous[0];
    data[1] = out.previous[1];
    stride = out.previous_stride;
}

constexpr unsigned kFullWarp = 0xffffffffu;

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
__device__ __forceinline__ void dwt_decouple(const InputPlanes &planes, const DwtOutputs &out)
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
 * adds so their latency overlaps, four batches an iteration (as nvcc unrolls it by
 * itself); the order of the fp32 additions is unchanged.
 */
__device__ float add_in_order(float sum, const float *v, int n)
{
    constexpr int kBatch = 8;
    int c = 0;
#pragma unroll 4
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

constexpr int kMaskSignals = 2 * kNumBands; /* weighted restored h, v, d, then additive h, v, d */

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

/*
 * A computing lane's part of one chunk: the nine terms of rows i0 .. i0+rows-1 at
 * column vj (sums region, or a neighbour of it for lanes 0 and 31, which only lend
 * their 1/30 magnitudes) into terms[(r * 9 + k) * term_stride] (has_terms lanes).
 * The lane walks down its column a row at a time.  As a row arrives, each of the six
 * weighted signals gives its 1/30 magnitude and, by shuffles, those of the lanes
 * beside (columns left and right); these finish the threshold of the row above
 * (its lower row) and begin the arriving row's (its centre row, continued from the
 * upper row's part kept from the row before).  So a lane keeps, per signal, only the
 * centre row's value, its partial threshold and its upper row part: the row after
 * next is loaded while a row is worked.  Rows and columns outside the band mirror as
 * mask_neighbour says: lane l's neighbours are lanes l - 1 and l + 1.  With a map
 * the lane also stores each coefficient's two map terms from the same fp32 terms, at
 * coefficients + r * coefficient_row (has_terms lanes).
 */
template <bool Cube, bool Map>
__device__ __forceinline__ void sum_terms(const SumArgs &a, int i0, int rows, int vj,
                                          bool has_terms, float *terms, int term_stride,
                                          double *coefficients, ptrdiff_t coefficient_row)
{
    const SumScale &sc = a.sc;
    const int col = adm::mask_neighbour(vj, sc.w);
    /* Per signal: the centre row's weighted value, its threshold so far, and the part
     * its own row adds as the upper row of the next. */
    float centre[kMaskSignals], partial[kMaskSignals], upper[kMaskSignals];
    float raw[kMaskSignals];
    {
        float above[kMaskSignals];
        load_weighted(sc, adm::mask_neighbour(i0 - 1, sc.h), col, above);
        load_weighted(sc, i0, col, centre);
        load_weighted(sc, adm::mask_neighbour(i0 + 1, sc.h), col, raw);
        if (a.masking) {
#pragma unroll
            for (int k = 0; k < kMaskSignals; k++) {
                const float f = adm::csf_filtered(above[k]);
                const float above_row = adm::threshold_upper_row(__shfl_up_sync(kFullWarp, f, 1), f,
                                                                 __shfl_down_sync(kFullWarp, f, 1));
                const float g = adm::csf_filtered(centre[k]);
                const float left = __shfl_up_sync(kFullWarp, g, 1);
                const float right = __shfl_down_sync(kFullWarp, g, 1);
                partial[k] = adm::threshold_centre_row(above_row, left,
                                                       adm::csf_magnitude(centre[k]), right);
                upper[k] = adm::threshold_upper_row(left, g, right);
            }
        }
    }
    const DevicePow pow{a.powf_mode}; /* the host's powf */
    for (int r = 0; r < rows; r++) {
        /* raw is row i0 + r + 1 (mirrored): the lower row of the centre row i0 + r. */
        const bool more = r + 1 < rows;
        float raw_next[kMaskSignals], ref[kNumBands];
        load_reference(sc, i0 + r, col, ref);
        if (more)
            load_weighted(sc, adm::mask_neighbour(i0 + r + 2, sc.h), col, raw_next);
        float thr[2] = {0.0f, 0.0f};
        if (a.masking) {
#pragma unroll
            for (int m = 0; m < 2; m++) {
                float band_thr[kNumBands];
#pragma unroll
                for (int b = 0; b < kNumBands; b++) {
                    const int k = 3 * m + b;
                    const float f = adm::csf_filtered(raw[k]);
                    const float left = __shfl_up_sync(kFullWarp, f, 1);
                    const float right = __shfl_down_sync(kFullWarp, f, 1);
                    band_thr[b] = adm::threshold_lower_row(partial[k], left, f, right);
                    partial[k] = adm::threshold_centre_row(upper[k], left,
                                                           adm::csf_magnitude(raw[k]), right);
                    upper[k] = adm::threshold_upper_row(left, f, right);
                }
                thr[m] = adm::threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
            }
        }
        if (has_terms) {
            float *t = terms + r * kNumRowSums * term_stride;
            float den[kNumBands], num[kNumBands];
#pragma unroll
            for (int b = 0; b < kNumBands; b++) {
                den[b] = adm::reference_term(sc.factor[b], ref[b], Cube, a.p, pow);
                num[b] = adm::masked_term(centre[b], thr[1], Cube, a.p, pow);
                t[b * term_stride] = den[b];
                t[(3 + b) * term_stride] = num[b];
                t[(6 + b) * term_stride] = adm::masked_term(centre[3 + b], thr[0], Cube, a.p, pow);
            }
            if (Map) {
                double *c = coefficients + r * coefficient_row;
                c[kMapDen] = adm::map_coefficient(den[0], den[1], den[2]);
                c[kMapNum] = adm::map_coefficient(num[0], num[1], num[2]);
            }
        }
        if (more) {
#pragma unroll
            for (int k = 0; k < kMaskSignals; k++) {
                centre[k] = raw[k];
                raw[k] = raw_next[k];
            }
        }
    }
}

/*
 * The last block of a scale: the scale's row sums, staged through shared memory
 * (loads from L2, all in flight at once), are added in row order from 0 by lane k of
 * the first warp for sum k, into the host's accumulator; then the scale's counter is
 * reset for the next frame.  shared_floats: the block's shared memory, in floats.
 */
__device__ __forceinline__ void fold(const SumArgs &a, float *shared, int shared_floats)
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
template <bool Cube, bool Map> __device__ __forceinline__ void row_sums(const SumArgs &a)
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
                const ptrdiff_t coefficient_row = (ptrdiff_t)width * kNumMapSums;
                double *coefficients = Map && has_terms ? a.map_coefficients +
                                                              (i0 - sc.sums.top) * coefficient_row +
                                                              (ptrdiff_t)col * kNumMapSums
                                                        : nullptr;
                sum_terms<Cube, Map>(a, i0, rows, sc.sums.left + col, has_terms,
                                     terms + (c & 1) * buffer_floats + (has_terms ? tc : 0),
                                     term_stride, coefficients, coefficient_row);
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

/*
 * A map's blocks of one scale from the row sums' map coefficients (docs/maps.md,
 * steps 2 and 3).  A block of threads per block row and kMapThreads coefficient
 * columns (whole map blocks): thread t adds column j's coefficients down the block
 * row's rows of the sums region, top to bottom; then the thread of each map block adds
 * its columns left to right from 0.0, as FrameMap::add_row does.  Blocks the region
 * misses are never written: they stay 0.
 */
__device__ __forceinline__ void map_blocks(const MapArgs &a)
{
    __shared__ double columns[kMapThreads][kNumMapSums];
    const adm::Region &reg = a.sums;
    const int bc = a.block_rows;
    const int t = threadIdx.x;
    const int c0 = reg.left / bc + (int)blockIdx.x * (kMapThreads / bc); /* first map column */
    const int j = c0 * bc + t;
    const int r = reg.top / bc + (int)blockIdx.y;
    const int first = max(r * bc, reg.top), last = min((r + 1) * bc, reg.bottom);
    if (j >= reg.left && j < reg.right) {
        const ptrdiff_t row = (ptrdiff_t)(reg.right - reg.left) * kNumMapSums;
        const double *c = a.coefficients + (first - reg.top) * row + (j - reg.left) * kNumMapSums;
        /* All the column's loads in flight at once, then the adds in row order. */
        double v[kMapMaxBlockRows][kNumMapSums];
#pragma unroll
        for (int i = 0; i < kMapMaxBlockRows; i++) {
#pragma unroll
            for (int k = 0; k < kNumMapSums; k++)
                v[i][k] = first + i < last ? c[i * row + k] : 0.0;
        }
        double sums[kNumMapSums] = {0.0, 0.0};
#pragma unroll
        for (int i = 0; i < kMapMaxBlockRows; i++) {
#pragma unroll
            for (int k = 0; k < kNumMapSums; k++)
                if (first + i < last)
                    sums[k] = adm::map_column_add(sums[k], v[i][k], i == 0);
        }
#pragma unroll
        for (int k = 0; k < kNumMapSums; k++)
            columns[t][k] = sums[k];
    }
    __syncthreads();
    const int c = c0 + t;
    if (t >= kMapThreads / bc || c >= a.map_columns || c * bc >= reg.right)
        return;
    const int j0 = max(c * bc, reg.left), j1 = min((c + 1) * bc, reg.right);
    double *block = a.blocks + ((ptrdiff_t)r * a.map_columns + c) * kNumMapSums;
#pragma unroll
    for (int k = 0; k < kNumMapSums; k++) {
        double total = 0.0;
        for (int jj = j0; jj < j1; jj++)
            total += columns[jj - c0 * bc][k];
        block[k] = total;
    }
}

} // namespace
} // namespace adm_cuda

/* The entry points, by the names in adm_cuda_kernels.h. */
using namespace adm_cuda;

#define DWT_KERNEL(name, Reader)                                                                   \
    extern "C" __global__ void __launch_bounds__(kDwtThreads)                                      \
        name(InputPlanes planes, DwtOutputs out)                                                   \
    {                                                                                              \
        dwt_decouple<Reader>(planes, out);                                                         \
    }
DWT_KERNEL(adm_dwt_decouple_u8, U8Reader)
DWT_KERNEL(adm_dwt_decouple_u16_9, WideReader<9>)
DWT_KERNEL(adm_dwt_decouple_u16_10, WideReader<10>)
DWT_KERNEL(adm_dwt_decouple_u16_12, WideReader<12>)
DWT_KERNEL(adm_dwt_decouple_u16_14, WideReader<14>)
DWT_KERNEL(adm_dwt_decouple_u16_16, WideReader<16>)
DWT_KERNEL(adm_dwt_decouple_approx, ApproxReader)
#undef DWT_KERNEL

/*
 * The row sums with the cube (adm_p_norm 3, the default) and with the host's powf,
 * each without a map and with one: four kernels, so that each holds no registers for
 * what it does not compute.  Without a map ptxas gives the cube kernel 64 registers,
 * so that the small scales' row sums share SMs.  Its bound, twice the threads a block
 * has, makes ptxas plan for 64 from the start: 4 bytes of spills instead of 12, and
 * frames 1-2 % faster.  The powf kernel keeps the block's own bound (98 registers;
 * at 64 it spills 52 bytes).  The map kernels are bounded to one block per SM, which
 * gives them the registers for the map's terms (at 64 they spill, and a 4K frame with
 * a map took 8 % longer).
 */
#define ROW_SUMS_KERNEL(name, Cube, Map, bounds)                                                   \
    extern "C" __global__ void __launch_bounds__ bounds name(SumArgs a) { row_sums<Cube, Map>(a); }
ROW_SUMS_KERNEL(adm_row_sums_cube, true, false, (2 * kMaxSumThreads))
ROW_SUMS_KERNEL(adm_row_sums_powf, false, false, (kMaxSumThreads))
ROW_SUMS_KERNEL(adm_row_sums_cube_map, true, true, (kMaxSumThreads, 1))
ROW_SUMS_KERNEL(adm_row_sums_powf_map, false, true, (kMaxSumThreads, 1))
#undef ROW_SUMS_KERNEL

/* A map's blocks, from the coefficients its row sums stored. */
extern "C" __global__ void __launch_bounds__(kMapThreads) adm_map_blocks(MapArgs a)
{
    map_blocks(a);
}
