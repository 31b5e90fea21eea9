/*
 * float_adm CUDA backend: the kernels.  Built with --fmad=false: every product and
 * sum below rounds exactly as the CPU engine's (see adm_arith.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_kernels.h"

namespace adm_cuda {
namespace {

enum InputKind { kFromApprox, kFromU8 };

/* Sample (y, x) of image img at this scale's input, converted as the CPU does. */
template <int Kind> struct InputReader;

template <> struct InputReader<kFromApprox> {
    const float *data[2];
    ptrdiff_t stride;
    __device__ void bind(const InputPlanes *) {}
    __device__ float operator()(int img, int y, int x) const
    {
        /* Selects, not a run-time index: keeps the parameter arrays out of local memory. */
        return __ldg((img ? data[1] : data[0]) + y * stride + x);
    }
};

template <> struct InputReader<kFromU8> {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    __device__ void bind(const InputPlanes *p)
    {
        data[0] = p->data[0];
        data[1] = p->data[1];
        pitch[0] = p->pitch[0];
        pitch[1] = p->pitch[1];
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
    __device__ void bind(const InputPlanes *p)
    {
        data[0] = p->data[0];
        data[1] = p->data[1];
        pitch[0] = p->pitch[0];
        pitch[1] = p->pitch[1];
        shift[0] = p->shift[0];
        shift[1] = p->shift[1];
    }
    __device__ float operator()(int img, int y, int x) const
    {
        const uint16_t *row = reinterpret_cast<const uint16_t *>(
            img ? data[1] + y * pitch[1] : data[0] + y * pitch[0]);
        const int sh = img ? shift[1] : shift[0];
        return adm::input_u16((uint16_t)(__ldg(row + x) >> sh), (float)(1 << (Depth - 8)));
    }
};

struct DwtOutputs;
template <class Reader> __device__ void bind_previous_scale(Reader &, const DwtOutputs &) {}

struct DwtOutputs {
    float *approx[2];
    ptrdiff_t approx_stride;
    float *ref_detail[kNumBands];
    float *weighted[2][kNumBands];
    float *filtered[2][kNumBands];
    ptrdiff_t stride0;
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
constexpr int kInRows = 2 * kTileH + 2, kInCols = 2 * kTileW + 2; /* their source samples */

/*
 * A kTileW x kTileH tile of the four bands of both images, then decouple and CSF of
 * each sample.  The tile's source samples (mirrored as dwt_source_index says) are
 * converted once into shared memory, the vertical pass runs over the tile's
 * columns, the horizontal one per output: the CPU's values, computed once each.
 */
template <class Reader>
__global__ void __launch_bounds__(kTileW *kTileH)
    dwt_decouple_kernel(const InputPlanes *planes, DwtOutputs out)
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

    for (int k = tid; k < 2 * kInRows * kInCols; k += kTileW * kTileH) {
        const int img = k / (kInRows * kInCols), r = k / kInCols % kInRows, c = k % kInCols;
        if (r < in_rows && c < in_cols)
            src[img][r][c] = in(img, adm::dwt_source_index(i0, r, out.in_h),
                                adm::dwt_source_index(j0, c, out.in_w));
    }
    __syncthreads();
    for (int k = tid; k < 2 * kTileH * kInCols; k += kTileW * kTileH) {
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
        out.approx[img][i * out.approx_stride + j] = adm::dwt_lo(l[0], l[1], l[2], l[3]);
        detail[img][1] = adm::dwt_hi(l[0], l[1], l[2], l[3]);
        detail[img][0] = adm::dwt_lo(h[0], h[1], h[2], h[3]);
        detail[img][2] = adm::dwt_hi(h[0], h[1], h[2], h[3]);
    }
    if (out.lo_only)
        return;
    const ptrdiff_t at = i * out.stride0 + j;
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

struct SumArgs {
    const float *weighted[2][kNumBands];
    const float *filtered[2][kNumBands];
    const float *ref_detail[kNumBands];
    ptrdiff_t stride0;
    int w, h;
    adm::Region sums;
    float factor[kNumBands];
    bool masking, cube;
    float p;
    float *row_sums; /* [sum][row] of this scale */
    int rows_max;
};

constexpr int kSumThreads = 32 * kNumRowSums; /* one warp per ordered sum */

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
__device__ float masking_threshold(const SumArgs &a, int m, int up, int i, int down, int jl, int j,
                                   int jr)
{
    float band_thr[kNumBands];
#pragma unroll
    for (int b = 0; b < kNumBands; b++) {
        const float *ru = a.filtered[m][b] + up * a.stride0;
        const float *ri = a.filtered[m][b] + i * a.stride0;
        const float *rd = a.filtered[m][b] + down * a.stride0;
        band_thr[b] = adm::threshold_band(__ldg(ru + jl), __ldg(ru + j), __ldg(ru + jr),
                                          __ldg(ri + jl), __ldg(a.weighted[m][b] + i * a.stride0 + j),
                                          __ldg(ri + jr), __ldg(rd + jl), __ldg(rd + j),
                                          __ldg(rd + jr));
    }
    return adm::threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
}

/*
 * One block per row of the sums region.  For each chunk of columns every thread
 * computes the nine terms of its column into shared memory; then lane 0 of warp k
 * adds sum k's terms in column order, continuing the row's inner sum from 0.
 */
__global__ void __launch_bounds__(kSumThreads) row_sums_kernel(SumArgs a)
{
    __shared__ float terms[kNumRowSums][kSumThreads];
    const int i = a.sums.top + blockIdx.x;
    const int up = i == 0 ? 1 : i - 1;
    const int down = i == a.h - 1 ? a.h - 1 : i + 1;
    const int tid = threadIdx.x;
    const int sum = tid / 32;
    const bool adder = (tid & 31) == 0;
    float inner = 0.0f;

    for (int first = a.sums.left; first < a.sums.right; first += kSumThreads) {
        const int j = first + tid;
        if (j < a.sums.right) {
            const int jl = j == 0 ? 1 : j - 1;
            const int jr = j == a.w - 1 ? a.w - 1 : j + 1;
            float thr[2] = {0.0f, 0.0f};
            if (a.masking) {
                thr[0] = masking_threshold(a, 0, up, i, down, jl, j, jr);
                thr[1] = masking_threshold(a, 1, up, i, down, jl, j, jr);
            }
            const ptrdiff_t at = i * a.stride0 + j;
#pragma unroll
            for (int b = 0; b < kNumBands; b++) {
                terms[b][tid] = adm::reference_term(a.factor[b], __ldg(a.ref_detail[b] + at),
                                                    a.cube, a.p);
                terms[3 + b][tid] =
                    adm::masked_term(__ldg(a.weighted[0][b] + at), thr[1], a.cube, a.p);
                terms[6 + b][tid] =
                    adm::masked_term(__ldg(a.weighted[1][b] + at), thr[0], a.cube, a.p);
            }
        }
        __syncthreads();
        if (adder)
            inner = add_in_order(inner, terms[sum], min(kSumThreads, a.sums.right - first));
        __syncthreads();
    }
    if (adder)
        a.row_sums[sum * a.rows_max + i] = inner;
}

struct FoldArgs {
    const float *row_sums;
    int rows_max;
    int top[kNumScales], bottom[kNumScales];
    bool skip_scale0;
    float *accum;
};

constexpr int kFoldThreads = 256, kFoldChunk = 2048;

/*
 * Block (scale, sum): the scale's row sums folded in order from 0.  Chunks of rows
 * are staged in shared memory by all threads first, so the one thread that adds
 * them waits on shared memory, not on a global load per batch.
 */
__global__ void __launch_bounds__(kFoldThreads) fold_kernel(FoldArgs a)
{
    __shared__ float rows[kFoldChunk];
    const int t = blockIdx.x, s = t / kNumRowSums;
    const float *sums = a.row_sums + (ptrdiff_t)t * a.rows_max;
    const int top = s == 0 ? a.top[0] : (s == 1 ? a.top[1] : (s == 2 ? a.top[2] : a.top[3]));
    const int bottom =
        s == 0 ? a.bottom[0] : (s == 1 ? a.bottom[1] : (s == 2 ? a.bottom[2] : a.bottom[3]));
    float accum = 0.0f;
    if (!(s == 0 && a.skip_scale0)) {
        for (int first = top; first < bottom; first += kFoldChunk) {
            const int n = min(kFoldChunk, bottom - first);
            for (int k = threadIdx.x; k < n; k += kFoldThreads)
                rows[k] = sums[first + k];
            __syncthreads();
            if (threadIdx.x == 0)
                accum = add_in_order(accum, rows, n);
            __syncthreads();
        }
    }
    if (threadIdx.x == 0)
        a.accum[t] = accum;
}

DwtOutputs dwt_outputs(const Pipeline &pl, int s)
{
    DwtOutputs o;
    for (int img = 0; img < 2; img++) {
        o.approx[img] = pl.approx[img][s];
        for (int b = 0; b < kNumBands; b++) {
            o.weighted[img][b] = pl.weighted[img][b];
            o.filtered[img][b] = pl.filtered[img][b];
        }
    }
    o.approx_stride = pl.approx_stride[s];
    for (int b = 0; b < kNumBands; b++) {
        o.ref_detail[b] = pl.ref_detail[b];
        o.factor[b] = pl.factor[s][b];
    }
    o.stride0 = pl.stride0;
    o.in_w = pl.in_w[s];
    o.in_h = pl.in_h[s];
    o.w = pl.w[s];
    o.h = pl.h[s];
    o.decouple = pl.decouple[s];
    o.divide = pl.divide;
    o.enhn_gain_limit = pl.enhn_gain_limit;
    o.cos_1deg_sq = pl.cos_1deg_sq;
    o.lo_only = s == 0 && pl.skip_scale0;
    o.previous[0] = s > 0 ? pl.approx[0][s - 1] : nullptr;
    o.previous[1] = s > 0 ? pl.approx[1][s - 1] : nullptr;
    o.previous_stride = s > 0 ? pl.approx_stride[s - 1] : 0;
    return o;
}

} // namespace

cudaError_t launch_dwt_decouple(const Pipeline &pl, int s, const InputPlanes *planes,
                                cudaStream_t stream)
{
    const DwtOutputs out = dwt_outputs(pl, s);
    const dim3 block(kTileW, kTileH);
    const dim3 grid((out.w + kTileW - 1) / kTileW, (out.h + kTileH - 1) / kTileH);
    if (s > 0) {
        dwt_decouple_kernel<InputReader<kFromApprox>><<<grid, block, 0, stream>>>(nullptr, out);
    } else if (pl.depth == 8) {
        dwt_decouple_kernel<InputReader<kFromU8>><<<grid, block, 0, stream>>>(planes, out);
    } else {
        switch (pl.depth) {
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

cudaError_t launch_row_sums(const Pipeline &pl, int s, cudaStream_t stream)
{
    SumArgs a;
    for (int m = 0; m < 2; m++) {
        for (int b = 0; b < kNumBands; b++) {
            a.weighted[m][b] = pl.weighted[m][b];
            a.filtered[m][b] = pl.filtered[m][b];
        }
    }
    for (int b = 0; b < kNumBands; b++) {
        a.ref_detail[b] = pl.ref_detail[b];
        a.factor[b] = pl.factor[s][b];
    }
    a.stride0 = pl.stride0;
    a.w = pl.w[s];
    a.h = pl.h[s];
    a.sums = pl.sums[s];
    a.masking = pl.masking;
    a.cube = pl.cube;
    a.p = pl.p;
    a.row_sums = pl.row_sums + (ptrdiff_t)s * kNumRowSums * pl.rows_max;
    a.rows_max = pl.rows_max;
    const int rows = a.sums.bottom - a.sums.top;
    if (rows <= 0)
        return cudaSuccess;
    row_sums_kernel<<<rows, kSumThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

cudaError_t launch_fold(const Pipeline &pl, float *accum, cudaStream_t stream)
{
    FoldArgs a;
    a.row_sums = pl.row_sums;
    a.rows_max = pl.rows_max;
    for (int s = 0; s < kNumScales; s++) {
        a.top[s] = pl.sums[s].top;
        a.bottom[s] = pl.sums[s].bottom;
    }
    a.skip_scale0 = pl.skip_scale0;
    a.accum = accum;
    fold_kernel<<<kNumScales * kNumRowSums, kFoldThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

} // namespace adm_cuda
