/*
 * float_adm CUDA backend: the kernels.  Built with --fmad=false: every product and
 * sum below rounds exactly as the CPU engine's (see adm_arith.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_kernels.h"

namespace adm_cuda {
namespace {

enum InputKind { kFromApprox, kFromU8, kFromU16 };

/* Sample (y, x) of image img at this scale's input, converted as the CPU does. */
template <int Kind> struct InputReader;

template <> struct InputReader<kFromApprox> {
    const float *data[2];
    ptrdiff_t stride;
    __device__ float operator()(int img, int y, int x) const
    {
        return __ldg(data[img] + y * stride + x);
    }
};

template <> struct InputReader<kFromU8> {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    __device__ float operator()(int img, int y, int x) const
    {
        return adm::input_u8(__ldg(data[img] + y * pitch[img] + x));
    }
};

template <> struct InputReader<kFromU16> {
    const uint8_t *data[2];
    ptrdiff_t pitch[2];
    int shift[2];
    float scaler;
    __device__ float operator()(int img, int y, int x) const
    {
        const uint16_t *row = reinterpret_cast<const uint16_t *>(data[img] + y * pitch[img]);
        return adm::input_u16((uint16_t)(__ldg(row + x) >> shift[img]), scaler);
    }
};

struct DwtOutputs {
    float *approx[2];
    ptrdiff_t approx_stride;
    float *ref_detail[kNumBands];
    float *weighted[2][kNumBands];
    ptrdiff_t stride0;
    int in_w, in_h, w, h;
    adm::Region decouple;
    float factor[kNumBands];
    adm::ModelDivide divide;
    double enhn_gain_limit;
    float cos_1deg_sq;
    bool lo_only;
};

/*
 * One output sample (i, j) of the four bands of both images, then its decouple and
 * CSF.  The vertical pass of the four source columns is computed here as the CPU
 * computes it for the whole row; the values are the same, only recomputed.
 */
template <int Kind>
__global__ void __launch_bounds__(256) dwt_decouple_kernel(InputReader<Kind> in, DwtOutputs out)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= out.h || j >= out.w)
        return;
    int y[4], x[4];
#pragma unroll
    for (int t = 0; t < 4; t++) {
        y[t] = adm::dwt_source_index(i, t, out.in_h);
        x[t] = adm::dwt_source_index(j, t, out.in_w);
    }
    float detail[2][kNumBands]; /* h, v, d */
#pragma unroll
    for (int img = 0; img < 2; img++) {
        float lo[4], hi[4];
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const float s0 = in(img, y[0], x[t]), s1 = in(img, y[1], x[t]);
            const float s2 = in(img, y[2], x[t]), s3 = in(img, y[3], x[t]);
            lo[t] = adm::dwt_lo(s0, s1, s2, s3);
            hi[t] = adm::dwt_hi(s0, s1, s2, s3);
        }
        out.approx[img][i * out.approx_stride + j] = adm::dwt_lo(lo[0], lo[1], lo[2], lo[3]);
        detail[img][1] = adm::dwt_hi(lo[0], lo[1], lo[2], lo[3]);
        detail[img][0] = adm::dwt_lo(hi[0], hi[1], hi[2], hi[3]);
        detail[img][2] = adm::dwt_hi(hi[0], hi[1], hi[2], hi[3]);
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
        out.weighted[0][b][at] = adm::csf_weight(out.factor[b], dc.restored[b]);
        out.weighted[1][b][at] = adm::csf_weight(out.factor[b], dc.additive[b]);
    }
}

struct SumArgs {
    const float *weighted[2][kNumBands];
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

/* The masking threshold that signal m (0 restored, 1 additive) casts at (i, j). */
__device__ float masking_threshold(const SumArgs &a, int m, int up, int i, int down, int jl, int j,
                                   int jr)
{
    float band_thr[kNumBands];
#pragma unroll
    for (int b = 0; b < kNumBands; b++) {
        const float *ru = a.weighted[m][b] + up * a.stride0;
        const float *ri = a.weighted[m][b] + i * a.stride0;
        const float *rd = a.weighted[m][b] + down * a.stride0;
        auto f = [](const float *p) { return adm::csf_filtered(__ldg(p)); };
        band_thr[b] = adm::threshold_band(f(ru + jl), f(ru + j), f(ru + jr), f(ri + jl),
                                          __ldg(ri + j), f(ri + jr), f(rd + jl), f(rd + j),
                                          f(rd + jr));
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
        if (adder) {
            const int n = min(kSumThreads, a.sums.right - first);
            for (int c = 0; c < n; c++)
                inner += terms[sum][c];
        }
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

/* Thread (scale, sum): the scale's rows folded in order from 0. */
__global__ void fold_kernel(FoldArgs a)
{
    const int t = threadIdx.x;
    if (t >= kNumScales * kNumRowSums)
        return;
    const int s = t / kNumRowSums;
    const float *rows = a.row_sums + (ptrdiff_t)t * a.rows_max;
    float accum = 0.0f;
    if (!(s == 0 && a.skip_scale0))
        for (int i = a.top[s]; i < a.bottom[s]; i++)
            accum += rows[i];
    a.accum[t] = accum;
}

DwtOutputs dwt_outputs(const Pipeline &pl, int s)
{
    DwtOutputs o;
    for (int img = 0; img < 2; img++) {
        o.approx[img] = pl.approx[img][s];
        for (int b = 0; b < kNumBands; b++)
            o.weighted[img][b] = pl.weighted[img][b];
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
    return o;
}

} // namespace

cudaError_t launch_dwt_decouple(const Pipeline &pl, int s, const InputPlanes &in,
                                cudaStream_t stream)
{
    const DwtOutputs out = dwt_outputs(pl, s);
    const dim3 block(32, 8);
    const dim3 grid((out.w + block.x - 1) / block.x, (out.h + block.y - 1) / block.y);
    if (s > 0) {
        InputReader<kFromApprox> r{{pl.approx[0][s - 1], pl.approx[1][s - 1]},
                                   pl.approx_stride[s - 1]};
        dwt_decouple_kernel<<<grid, block, 0, stream>>>(r, out);
    } else if (in.wide) {
        InputReader<kFromU16> r{{in.data[0], in.data[1]},
                                {in.pitch[0], in.pitch[1]},
                                {in.shift[0], in.shift[1]},
                                in.scaler};
        dwt_decouple_kernel<<<grid, block, 0, stream>>>(r, out);
    } else {
        InputReader<kFromU8> r{{in.data[0], in.data[1]}, {in.pitch[0], in.pitch[1]}};
        dwt_decouple_kernel<<<grid, block, 0, stream>>>(r, out);
    }
    return cudaGetLastError();
}

cudaError_t launch_row_sums(const Pipeline &pl, int s, cudaStream_t stream)
{
    SumArgs a;
    for (int m = 0; m < 2; m++)
        for (int b = 0; b < kNumBands; b++)
            a.weighted[m][b] = pl.weighted[m][b];
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
    fold_kernel<<<1, 64, 0, stream>>>(a);
    return cudaGetLastError();
}

} // namespace adm_cuda
