/*
 * float_adm: the CPU engine (see adm_engine.h for the pipeline).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_engine.h"

namespace adm {

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

    set_level(simd_level_best());
    allocate();
}

/* Band a per image and scale, the row sums, each job's rows. */
void Engine::allocate()
{
    size_t total = 0;
    for (int s = 0; s < kNumScales; s++)
        total += 2 * (size_t)scales_[s].stride * scales_[s].h;
    storage_.assign(total * sizeof(float));

    float *next = static_cast<float *>(storage_.data());
    for (int img = 0; img < 2; img++) {
        for (int s = 0; s < kNumScales; s++) {
            Band &b = approx_[img][s];
            b.data = next;
            b.w = scales_[s].w;
            b.h = scales_[s].h;
            b.stride = scales_[s].stride;
            next += b.stride * b.h;
        }
    }
    for (auto &sums : row_sums_)
        sums.assign(scales_[0].h, 0.0f);

    job_row_stride_ = band_stride(frame_.width) + kRowPadding;
    const int rows = kRingRow + kRingSlots * kRingSlotRows;
    scratch_.assign(nb_jobs_, std::vector<float>(rows * (size_t)job_row_stride_));
    if (map_)
        map_->set_jobs(nb_jobs_);
}

int Engine::enable_map()
{
    if (scored_)
        return FLOAT_ADM_ERROR_INVALID;
    if (!map_) {
        map_ = std::make_unique<FrameMap>(frame_, opts_);
        map_->set_jobs(nb_jobs_);
    }
    return 0;
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
template <class F> int Engine::parallel_rows(int first, int last, int align, F &&work)
{
    int rows = last - first;
    if (rows <= 0)
        return 0;
    struct Task {
        F *work;
        int first, rows, align;
        int bound(int job, int nb_jobs) const
        {
            const int at = (int)((long long)rows * job / nb_jobs);
            return first + (job == nb_jobs ? rows : at - at % align);
        }
    } task = {&work, first, rows, align};
    FloatAdmJobFn run = [](void *arg, int job, int nb_jobs) -> int {
        Task *t = static_cast<Task *>(arg);
        int begin = t->bound(job, nb_jobs);
        int end = t->bound(job + 1, nb_jobs);
        if (begin < end)
            (*t->work)(begin, end, job);
        return 0;
    };
    int jobs = nb_jobs_ < rows ? nb_jobs_ : rows;
    return jobs > 1 ? execute_(execute_opaque_, run, &task, jobs) : run(&task, 0, 1);
}

/*
 * Scale s for the rows [first, last) this job owns: each row's DWT (band a stored),
 * then for the rows whose sums are this job's, and their neighbours, decouple + CSF
 * into the ring and the row sums one row behind.
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
    if (map_)
        map_->column_sums(s, i, job, args.column_sums, &args.column_sums_start);
    float inner[kNumRowSums];
    kernels_->row_sums(args, inner);
    for (int k = 0; k < kNumRowSums; k++)
        row_sums_[k][i] = inner[k];
    if (map_)
        map_->add_row(s, i, job);
}

/* Fold the rows in order; the band sums then pool as adm_scale_pooling.h says. */
ScaleSums Engine::fold_scale(int s)
{
    const Region &r = scales_[s].sums;
    float *accum = band_sums_[s];
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
    scored_ = true;
    if (map_)
        map_->start();
    ScaleSums sums[kNumScales];
    int err = 0; /* an executor's error is the frame's */
    for (int s = 0; s < kNumScales; s++) {
        const ScaleSetup &sc = scales_[s];
        /* A map's blocks are whole in one job: it adds their rows in order. */
        const int align = map_ ? map_->block_rows(s) : 1;
        err = parallel_rows(0, sc.h, align, [this, s](int first, int last, int job) {
            fused_rows(s, first, last, job);
        });
        if (err < 0)
            break;
        sums[s] = s == 0 && frame_.skip_scale0 ? skipped_scale_sums() : fold_scale(s);
    }
    input_[kRef] = input_[kDist] = FloatAdmPlane{};
    if (err < 0)
        return err;
    if (map_)
        map_->finish();
    pool_scales(sums, frame_.width, frame_.height, opts_, out);
    return 0;
}

} // namespace adm
