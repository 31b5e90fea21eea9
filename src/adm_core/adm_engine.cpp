/*
 * float_adm: the CPU engine (see adm_engine.h for the pipeline).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>
#include <cstring>

#include "adm_engine.h"
#include "adm_rcp.h"

namespace adm {
namespace {

/* Luma sample j of row i converted as libvmaf's picture_copy does. */
struct LumaReader {
    const uint8_t *base;
    ptrdiff_t stride;
    int wide;  /* 2 bytes per sample */
    int shift; /* samples stored in the upper bits (P010) */
    float scaler;

    float operator()(int i, int j) const
    {
        const uint8_t *row = base + i * stride;
        if (!wide)
            return input_u8(row[j]);
        uint16_t v;
        memcpy(&v, row + 2 * (ptrdiff_t)j, sizeof(v));
        return input_u16((uint16_t)(v >> shift), scaler);
    }
};

} // namespace

Engine::Engine(int width, int height, int bit_depth, const FloatAdmOptions &opts)
    : opts_(opts), frame_(frame_setup(width, height, bit_depth, opts))
{
    for (int s = 0; s < kNumScales; s++) {
        ScaleSetup &sc = scales_[s];
        static_cast<ScaleGeometry &>(sc) = frame_.scale[s];
        for (int t = 0; t < 4; t++) {
            sc.column_taps[t].resize(sc.w);
            for (int j = 0; j < sc.w; j++)
                sc.column_taps[t][j] = dwt_source_index(j, t, sc.in_w);
        }
    }

    kernels_ = simd_kernels(simd_level_from_environment());
    allocate();
}

/* Band a per image and scale; the scalar schedule's stage buffers; each job's rows. */
void Engine::allocate()
{
    const ScaleSetup &s0 = scales_[0];
    const ptrdiff_t stride0 = s0.stride;
    const bool fused = kernels_ != nullptr;
    size_t total = 0;
    for (int s = 0; s < kNumScales; s++)
        total += 2 * (size_t)scales_[s].stride * scales_[s].h;
    if (!fused)
        total += 2 * 3 * kNumBands * (size_t)stride0 * s0.h;
    storage_.assign(total, 0.0f);

    float *next = storage_.data();
    auto take = [&](int w, int h, ptrdiff_t stride) {
        Band b;
        b.data = next;
        b.w = w;
        b.h = h;
        b.stride = stride;
        next += stride * h;
        return b;
    };
    for (int img = 0; img < 2; img++) {
        for (int s = 0; s < kNumScales; s++)
            approx_[img][s] = take(scales_[s].w, scales_[s].h, scales_[s].stride);
        for (int b = 0; b < kNumBands; b++) {
            detail_[img][b] = fused ? Band{} : take(s0.w, s0.h, stride0);
            weighted_[img][b] = fused ? Band{} : take(s0.w, s0.h, stride0);
            filtered_[img][b] = fused ? Band{} : take(s0.w, s0.h, stride0);
        }
    }
    for (auto &sums : row_sums_)
        sums.assign(s0.h, 0.0f);

    if (fused) {
        job_row_stride_ = band_stride(frame_.width) + kRowPadding;
        const int rows = kRingRow + kRingSlots * kRingSlotRows;
        scratch_.assign(nb_jobs_, std::vector<float>(rows * (size_t)job_row_stride_));
    } else {
        scratch_.assign(nb_jobs_, std::vector<float>(2 * (size_t)frame_.width));
    }
}

int Engine::set_executor(FloatAdmExecuteFn execute, void *opaque, int nb_jobs)
{
    execute_ = execute;
    execute_opaque_ = opaque;
    nb_jobs_ = execute && nb_jobs > 1 ? nb_jobs : 1;
    allocate();
    return 0;
}

/* Split rows [first, last) into at most nb_jobs_ contiguous ranges run by the executor. */
template <class F> int Engine::parallel_rows(int first, int last, F &&work)
{
    int rows = last - first;
    if (rows <= 0)
        return 0;
    struct Task {
        F *work;
        int first, rows;
    } task = {&work, first, rows};
    FloatAdmJobFn run = [](void *arg, int job, int nb_jobs) -> int {
        Task *t = static_cast<Task *>(arg);
        int begin = t->first + (int)((long long)t->rows * job / nb_jobs);
        int end = t->first + (int)((long long)t->rows * (job + 1) / nb_jobs);
        if (begin < end)
            (*t->work)(begin, end, job);
        return 0;
    };
    int jobs = nb_jobs_ < rows ? nb_jobs_ : rows;
    return jobs > 1 ? execute_(execute_opaque_, run, &task, jobs) : run(&task, 0, 1);
}

/* Output rows [first, last) of the four bands: vertical pass into lo/hi rows, then horizontal. */
void Engine::dwt_rows(int s, int first, int last, int job)
{
    const ScaleSetup &sc = scales_[s];
    const bool lo_only = s == 0 && frame_.skip_scale0;
    float *lo = scratch_[job].data();
    float *hi = lo + frame_.width;
    const int *x0 = sc.column_taps[0].data(), *x1 = sc.column_taps[1].data();
    const int *x2 = sc.column_taps[2].data(), *x3 = sc.column_taps[3].data();

    for (int img = 0; img < 2; img++) {
        const FloatAdmPlane &in = input_[img];
        LumaReader luma = {static_cast<const uint8_t *>(in.data), in.stride,
                           in.bytes_per_sample == 2, in.shift, frame_.input_scaler};
        const Band *prev = s > 0 ? &approx_[img][s - 1] : nullptr;
        for (int i = first; i < last; i++) {
            int y0 = dwt_source_index(i, 0, sc.in_h), y1 = dwt_source_index(i, 1, sc.in_h);
            int y2 = dwt_source_index(i, 2, sc.in_h), y3 = dwt_source_index(i, 3, sc.in_h);
            if (prev) {
                const float *r0 = prev->row(y0), *r1 = prev->row(y1);
                const float *r2 = prev->row(y2), *r3 = prev->row(y3);
                for (int j = 0; j < sc.in_w; j++) {
                    lo[j] = dwt_lo(r0[j], r1[j], r2[j], r3[j]);
                    hi[j] = dwt_hi(r0[j], r1[j], r2[j], r3[j]);
                }
            } else {
                for (int j = 0; j < sc.in_w; j++) {
                    float s0 = luma(y0, j), s1 = luma(y1, j), s2 = luma(y2, j), s3 = luma(y3, j);
                    lo[j] = dwt_lo(s0, s1, s2, s3);
                    hi[j] = dwt_hi(s0, s1, s2, s3);
                }
            }
            float *a = approx_[img][s].row(i);
            if (lo_only) {
                for (int j = 0; j < sc.w; j++)
                    a[j] = dwt_lo(lo[x0[j]], lo[x1[j]], lo[x2[j]], lo[x3[j]]);
                continue;
            }
            float *h = detail_[img][0].row(i), *v = detail_[img][1].row(i);
            float *d = detail_[img][2].row(i);
            for (int j = 0; j < sc.w; j++) {
                float l0 = lo[x0[j]], l1 = lo[x1[j]], l2 = lo[x2[j]], l3 = lo[x3[j]];
                float h0 = hi[x0[j]], h1 = hi[x1[j]], h2 = hi[x2[j]], h3 = hi[x3[j]];
                a[j] = dwt_lo(l0, l1, l2, l3);
                v[j] = dwt_hi(l0, l1, l2, l3);
                h[j] = dwt_lo(h0, h1, h2, h3);
                d[j] = dwt_hi(h0, h1, h2, h3);
            }
        }
    }
}

void Engine::decouple_csf_rows(int s, int first, int last)
{
    const ScaleSetup &sc = scales_[s];
    const HostDivide divide;
    for (int i = first; i < last; i++) {
        for (int j = sc.decouple.left; j < sc.decouple.right; j++) {
            float o[kNumBands], t[kNumBands];
            for (int b = 0; b < kNumBands; b++) {
                o[b] = detail_[kRef][b].row(i)[j];
                t[b] = detail_[kDist][b].row(i)[j];
            }
            Decoupled dc = decouple(o, t, frame_.enhn_gain_limit, frame_.cos_1deg_sq, divide);
            for (int b = 0; b < kNumBands; b++) {
                float wr = csf_weight(sc.factor[b], dc.restored[b]);
                float wa = csf_weight(sc.factor[b], dc.additive[b]);
                weighted_[kRestored][b].row(i)[j] = wr;
                filtered_[kRestored][b].row(i)[j] = csf_filtered(wr);
                weighted_[kAdditive][b].row(i)[j] = wa;
                filtered_[kAdditive][b].row(i)[j] = csf_filtered(wa);
            }
        }
    }
}

/* Each row's inner sums of the denominator, DLM and AIM terms, columns in order. */
void Engine::sum_rows(int s, int first, int last)
{
    const ScaleSetup &sc = scales_[s];
    const bool cube = frame_.cube;
    const float p = frame_.p;
    for (int i = first; i < last; i++) {
        const int up = mask_neighbour(i - 1, sc.h), down = mask_neighbour(i + 1, sc.h);
        float inner[kNumRowSums] = {};
        for (int j = sc.sums.left; j < sc.sums.right; j++) {
            const int jl = mask_neighbour(j - 1, sc.w), jr = mask_neighbour(j + 1, sc.w);
            /* thr[m]: the masking threshold that signal m casts on the other one. */
            float thr[2] = {0.0f, 0.0f};
            if (frame_.masking) {
                for (int m = 0; m < 2; m++) {
                    float band_thr[kNumBands];
                    for (int b = 0; b < kNumBands; b++) {
                        const Band &f = filtered_[m][b];
                        const float *ru = f.row(up), *ri = f.row(i), *rd = f.row(down);
                        band_thr[b] = threshold_band(ru[jl], ru[j], ru[jr], ri[jl],
                                                     weighted_[m][b].row(i)[j], ri[jr], rd[jl],
                                                     rd[j], rd[jr]);
                    }
                    thr[m] = threshold_sum(band_thr[0], band_thr[1], band_thr[2]);
                }
            }
            for (int b = 0; b < kNumBands; b++) {
                inner[kDenSum + b] += reference_term(sc.factor[b], detail_[kRef][b].row(i)[j], cube,
                                                     p);
                inner[kNumSum + b] += masked_term(weighted_[kRestored][b].row(i)[j], thr[kAdditive],
                                                  cube, p);
                inner[kAimSum + b] += masked_term(weighted_[kAdditive][b].row(i)[j], thr[kRestored],
                                                  cube, p);
            }
        }
        for (int k = 0; k < kNumRowSums; k++)
            row_sums_[k][i] = inner[k];
    }
}

/*
 * The fused schedule of scale s for the rows [first, last) this job owns: each row's
 * DWT (band a stored), then for the rows whose sums are this job's, and their
 * neighbours, decouple + CSF into the ring and the row sums one row behind.
 */
void Engine::fused_rows(int s, int first, int last, int job)
{
    const ScaleSetup &sc = scales_[s];
    const bool lo_only = s == 0 && frame_.skip_scale0;
    const int sum_first = first > sc.sums.top ? first : sc.sums.top;
    const int sum_last = lo_only ? sum_first : (last < sc.sums.bottom ? last : sc.sums.bottom);
    const bool sums = sum_first < sum_last;
    /* Detail rows the sums read: one above (row 0's mirrors to 1) and one below. */
    int detail_first = first, detail_last = first - 1;
    if (sums) {
        detail_first = sum_first == 0 ? 0 : sum_first - 1;
        detail_last = mask_neighbour(sum_last, sc.h);
    }
    const int begin = first < detail_first ? first : detail_first;
    const int end = last - 1 > detail_last ? last - 1 : detail_last;
    for (int i = begin; i <= end; i++) {
        const bool details = i >= detail_first && i <= detail_last;
        fused_dwt_row(s, i, i >= first && i < last, details, job);
        if (!details)
            continue;
        fused_decouple_row(s, i, job);
        if (i - 1 >= sum_first && i - 1 < sum_last)
            fused_sum_row(s, i - 1, job);
        if (i == sc.h - 1 && i >= sum_first && i < sum_last) /* the last row is its own neighbour */
            fused_sum_row(s, i, job);
    }
}

void Engine::fused_dwt_row(int s, int i, bool own, bool details, int job)
{
    const ScaleSetup &sc = scales_[s];
    for (int img = 0; img < 2; img++) {
        float *lo = job_row(job, kLoRow + img), *hi = job_row(job, kHiRow + img);
        int y[4];
        for (int t = 0; t < 4; t++)
            y[t] = dwt_source_index(i, t, sc.in_h);
        if (s > 0) {
            const Band &prev = approx_[img][s - 1];
            const float *rows[4] = {prev.row(y[0]), prev.row(y[1]), prev.row(y[2]), prev.row(y[3])};
            kernels_->dwt_vertical_float(rows, sc.in_w, lo, hi);
        } else {
            const FloatAdmPlane &in = input_[img];
            const uint8_t *base = static_cast<const uint8_t *>(in.data);
            const uint8_t *rows[4];
            for (int t = 0; t < 4; t++)
                rows[t] = base + y[t] * in.stride;
            if (in.bytes_per_sample == 2)
                kernels_->dwt_vertical_u16(rows, sc.in_w, in.shift, frame_.input_scaler, lo, hi);
            else
                kernels_->dwt_vertical_u8(rows, sc.in_w, lo, hi);
        }
        DwtRowArgs args;
        args.lo = lo;
        args.hi = hi;
        args.in_w = sc.in_w;
        args.w = sc.w;
        for (int t = 0; t < 4; t++)
            args.taps[t] = sc.column_taps[t].data();
        args.a = own ? approx_[img][s].row(i) : job_row(job, kHaloApproxRow);
        args.h = args.v = args.d = nullptr;
        if (details) {
            float *bands[kNumBands];
            for (int b = 0; b < kNumBands; b++)
                bands[b] = img == kRef ? ring_row(job, i, kRefDetail + b) : job_row(job, kDistDetailRow + b);
            args.h = bands[0];
            args.v = bands[1];
            args.d = bands[2];
        }
        kernels_->dwt_horizontal(args);
    }
}

void Engine::fused_decouple_row(int s, int i, int job)
{
    const ScaleSetup &sc = scales_[s];
    DecoupleRowArgs args;
    for (int b = 0; b < kNumBands; b++) {
        args.ref[b] = ring_row(job, i, kRefDetail + b);
        args.dist[b] = job_row(job, kDistDetailRow + b);
        for (int m = 0; m < 2; m++) {
            args.weighted[m][b] = ring_row(job, i, kWeightedRow + m * kNumBands + b);
            args.filtered[m][b] = ring_row(job, i, kFilteredRow + m * kNumBands + b);
        }
    }
    args.left = sc.decouple.left;
    args.right = sc.decouple.right;
    args.egl = frame_.enhn_gain_limit;
    args.cos_1deg_sq = frame_.cos_1deg_sq;
    for (int b = 0; b < kNumBands; b++)
        args.factor[b] = sc.factor[b];
    kernels_->decouple_csf(args);
}

void Engine::fused_sum_row(int s, int i, int job)
{
    const ScaleSetup &sc = scales_[s];
    const int neighbours[3] = {mask_neighbour(i - 1, sc.h), i, mask_neighbour(i + 1, sc.h)};
    SumRowArgs args;
    for (int b = 0; b < kNumBands; b++) {
        args.ref[b] = ring_row(job, i, kRefDetail + b);
        for (int m = 0; m < 2; m++) {
            args.weighted[m][b] = ring_row(job, i, kWeightedRow + m * kNumBands + b);
            for (int r = 0; r < 3; r++)
                args.filtered[m][b][r] = ring_row(job, neighbours[r], kFilteredRow + m * kNumBands + b);
        }
    }
    args.left = sc.sums.left;
    args.right = sc.sums.right;
    args.w = sc.w;
    for (int b = 0; b < kNumBands; b++)
        args.factor[b] = sc.factor[b];
    args.masking = frame_.masking;
    args.cube = frame_.cube;
    args.p = frame_.p;
    float inner[kNumRowSums];
    kernels_->row_sums(args, inner);
    for (int k = 0; k < kNumRowSums; k++)
        row_sums_[k][i] = inner[k];
}

/* Fold the rows in order; the band sums then pool as adm_pooling.h says. */
ScaleSums Engine::fold_scale(int s) const
{
    const Region &r = scales_[s].sums;
    float accum[kNumRowSums];
    for (int k = 0; k < kNumRowSums; k++) {
        accum[k] = 0.0f;
        for (int i = r.top; i < r.bottom; i++)
            accum[k] += row_sums_[k][i];
    }
    return scale_sums(accum, r, opts_);
}

int Engine::score(const FloatAdmPlane &ref, const FloatAdmPlane &dist, FloatAdmScores *out)
{
    input_[kRef] = ref;
    input_[kDist] = dist;
    ScaleSums sums[kNumScales];
    int err = 0; /* an executor's error is the frame's */
    for (int s = 0; s < kNumScales; s++) {
        const ScaleSetup &sc = scales_[s];
        if (kernels_) {
            err = parallel_rows(0, sc.h, [this, s](int first, int last, int job) {
                fused_rows(s, first, last, job);
            });
        } else {
            err = parallel_rows(0, sc.h, [this, s](int first, int last, int job) {
                dwt_rows(s, first, last, job);
            });
        }
        if (err < 0)
            break;
        if (s == 0 && frame_.skip_scale0) {
            sums[s] = skipped_scale_sums();
            continue;
        }
        if (!kernels_) {
            err = parallel_rows(sc.decouple.top, sc.decouple.bottom, [this, s](int first, int last, int) {
                decouple_csf_rows(s, first, last);
            });
            if (err >= 0)
                err = parallel_rows(sc.sums.top, sc.sums.bottom, [this, s](int first, int last, int) {
                    sum_rows(s, first, last);
                });
            if (err < 0)
                break;
        }
        sums[s] = fold_scale(s);
    }
    input_[kRef] = input_[kDist] = FloatAdmPlane{};
    if (err < 0)
        return err;
    pool_scales(sums, frame_.width, frame_.height, opts_, out);
    return 0;
}

} // namespace adm
