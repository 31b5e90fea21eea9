/*
 * float_adm: the CPU engine (see adm_engine.h for the pipeline).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_engine.h"

#include <algorithm>

namespace adm {

namespace {

/* A job's band at scale 0 has at least this many rows: a thinner one would be little
 * but halo (the rows of scale 0 its coarser scales read beyond its own: up to about
 * 20 above it and 15 below). */
constexpr int kMinBandRows = 4;

/* The work of a row outside the sum region (the DWT of band a alone) against one
 * inside (every stage): about a quarter (bench/bench_simd.cpp's BM_Stage). */
constexpr double kBandAOnlyWork = 0.25;

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

    set_level(simd_level_best());
    allocate();
    plan_jobs();
}

/* Band a per image and scale, the flags of published rows, the row sums. */
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
    for (int s = 0; s < kNumScales; s++) {
        published_[s].reset(new std::atomic<uint32_t>[scales_[s].h]());
        for (auto &sums : row_sums_[s])
            sums.assign(scales_[s].h, 0.0f);
    }
}

/*
 * Scale 0's rows split into bands of about equal work, each coarser scale's at the
 * halved boundaries (at a map's block rows: a block's rows are one job's).  Then
 * every job's halo: the rows the DWT of its rows reads, scale by scale from the
 * coarsest, beyond its own.
 */
void Engine::plan_jobs()
{
    const int h0 = scales_[0].h;
    const int unit = map_ ? FrameMap::block_rows(0) : 1;
    int jobs = h0 / kMinBandRows < nb_jobs_ ? h0 / kMinBandRows : nb_jobs_;
    jobs = jobs > 1 ? jobs : 1;

    /* work[b]: of the rows before row b of scale 0 and theirs of the coarser scales. */
    std::vector<double> work(h0 + 1, 0.0);
    for (int s = 0; s < kNumScales; s++) {
        const Region &sums = scales_[s].sums;
        const bool summed = !(s == 0 && frame_.skip_scale0);
        double total = 0.0;
        for (int b = 1, row = 0; b <= h0; b++) {
            for (; row < b >> s; row++)
                total += (summed && row >= sums.top && row < sums.bottom ? 1.0 : kBandAOnlyWork) /
                         (1 << s);
            work[b] += total;
        }
    }
    std::vector<int> first(jobs + 1, 0);
    first[jobs] = h0;
    for (int job = 1; job < jobs; job++) {
        const double target = work[h0] * job / jobs;
        int b = first[job - 1];
        while (b + unit <= h0 && work[b + unit] <= target)
            b += unit;
        if (b + unit <= h0 && work[b + unit] - target < target - work[b])
            b += unit;
        first[job] = b;
    }
    for (int s = 0; s < kNumScales; s++) {
        bands_[s].resize(jobs);
        halo_above_[s] = halo_below_[s] = 0;
        for (int job = 0; job < jobs; job++)
            bands_[s][job] = Rows{first[job] >> s,
                                  job + 1 == jobs ? scales_[s].h : first[job + 1] >> s};
    }
    for (int job = 0; job < jobs; job++) {
        Rows read; /* rows of scale s + 1 whose DWT reads scale s */
        for (int s = kNumScales - 1; s >= 0; s--) {
            const Rows &own = bands_[s][job];
            Rows need = pass_rows(s, own).dwt;
            if (read.first < read.last) {
                /* Taps 2i - 1 .. 2i + 2 of each row i, mirrored inside the scale. */
                const int top = 2 * read.first - 1, bottom = 2 * read.last;
                const Rows taps = {top > 0 ? top : 0,
                                   bottom < scales_[s].h ? bottom + 1 : scales_[s].h};
                if (need.first >= need.last)
                    need = taps;
                need.first = need.first < taps.first ? need.first : taps.first;
                need.last = need.last > taps.last ? need.last : taps.last;
            }
            if (need.first < need.last) {
                const int above = own.first - need.first, below = need.last - own.last;
                halo_above_[s] = above > halo_above_[s] ? above : halo_above_[s];
                halo_below_[s] = below > halo_below_[s] ? below : halo_below_[s];
            }
            read = need;
        }
    }

    job_row_stride_ = band_stride(frame_.width) + kRowPadding;
    ptrdiff_t floats = (kRingRow + kRingSlots * kRingSlotRows) * job_row_stride_;
    int slots = 0;
    for (int s = 0; s < kNumScales; s++) {
        halo_offset_[s] = floats;
        halo_slots_before_[s] = slots;
        slots += halo_above_[s] + halo_below_[s];
        floats += 2 * (ptrdiff_t)(halo_above_[s] + halo_below_[s]) * scales_[s].stride;
    }
    scratch_ = std::vector<LargeBuffer>(jobs);
    for (LargeBuffer &rows : scratch_)
        rows.assign(floats * sizeof(float));
    halo_epoch_.assign(jobs, std::vector<uint32_t>(slots, 0));
    if (map_)
        map_->set_jobs(nb_jobs_);
}

int Engine::enable_map()
{
    if (scored_)
        return FLOAT_ADM_ERROR_INVALID;
    if (!map_) {
        map_ = std::make_unique<FrameMap>(frame_, opts_);
        plan_jobs();
    }
    return 0;
}

int Engine::set_executor(FloatAdmExecuteFn execute, void *opaque, int nb_jobs)
{
    execute_ = execute;
    execute_opaque_ = opaque;
    nb_jobs_ = execute && nb_jobs > 1 ? nb_jobs : 1;
    plan_jobs();
    return 0;
}

/* One executor call: each job carries its band through every scale. */
int Engine::run_jobs()
{
    FloatAdmJobFn run = [](void *arg, int job, int) -> int {
        static_cast<Engine *>(arg)->run_job(job);
        return 0;
    };
    const int jobs = (int)scratch_.size();
    return jobs > 1 ? execute_(execute_opaque_, run, this, jobs) : run(this, 0, 1);
}

void Engine::run_job(int job)
{
    for (int s = 0; s < kNumScales; s++)
        fused_rows(s, job);
}

/* The sums of the own rows inside the sum region, the detail rows they read (one
 * above, row 0's mirrors to 1, and one below), and the DWT of both and of every own
 * row (its band a). */
Engine::PassRows Engine::pass_rows(int s, const Rows &own) const
{
    const ScaleSetup &sc = scales_[s];
    const bool lo_only = s == 0 && frame_.skip_scale0;
    PassRows p;
    p.sums.first = own.first > sc.sums.top ? own.first : sc.sums.top;
    p.sums.last = lo_only ? p.sums.first : (own.last < sc.sums.bottom ? own.last : sc.sums.bottom);
    p.details = Rows{own.first, own.first};
    if (p.sums.first < p.sums.last) {
        p.details.first = p.sums.first == 0 ? 0 : p.sums.first - 1;
        p.details.last = mask_neighbour(p.sums.last, sc.h) + 1;
    }
    p.dwt.first = own.first < p.details.first ? own.first : p.details.first;
    p.dwt.last = own.last > p.details.last ? own.last : p.details.last;
    return p;
}

int Engine::halo_slot(int s, int job, int y) const
{
    const Rows &own = bands_[s][job];
    return y < own.first ? y - (own.first - halo_above_[s]) : halo_above_[s] + (y - own.last);
}

const float *Engine::approx_row(int job, int img, int s, int y)
{
    if (bands_[s][job].has(y))
        return approx_[img][s].row(y);
    const int slot = halo_slot(s, job, y);
    uint32_t &computed = halo_epoch_[job][halo_slots_before_[s] + slot];
    if (computed != frame_epoch_) {
        if (published_[s][y].load(std::memory_order_acquire) == frame_epoch_)
            return approx_[img][s].row(y);
        float *const a[2] = {halo_row(job, kRef, s, slot), halo_row(job, kDist, s, slot)};
        dwt_row(s, y, a, false, job);
        computed = frame_epoch_;
    }
    return halo_row(job, img, s, slot);
}

/*
 * Scale s for the job's own rows: each row's DWT (band a stored and published), then
 * for the rows whose sums are this job's, and their neighbours, decouple + CSF into
 * the ring and the row sums one row behind.
 */
void Engine::fused_rows(int s, int job)
{
    const ScaleSetup &sc = scales_[s];
    const Rows &own = bands_[s][job];
    const PassRows p = pass_rows(s, own);
    for (int i = p.dwt.first; i < p.dwt.last; i++) {
        const bool details = p.details.has(i);
        if (own.has(i)) {
            float *const a[2] = {approx_[kRef][s].row(i), approx_[kDist][s].row(i)};
            dwt_row(s, i, a, details, job);
            published_[s][i].store(frame_epoch_, std::memory_order_release);
        } else {
            const int slot = halo_slot(s, job, i);
            float *const a[2] = {halo_row(job, kRef, s, slot), halo_row(job, kDist, s, slot)};
            dwt_row(s, i, a, details, job);
            halo_epoch_[job][halo_slots_before_[s] + slot] = frame_epoch_;
        }
        if (!details)
            continue;
        fused_decouple_row(s, i, job);
        if (p.sums.has(i - 1))
            fused_sum_row(s, i - 1, job);
        if (i == sc.h - 1 && p.sums.has(i)) /* the last row is its own neighbour */
            fused_sum_row(s, i, job);
    }
}

void Engine::dwt_row(int s, int i, float *const a[2], bool details, int job)
{
    const ScaleSetup &sc = scales_[s];
    int y[4];
    for (int t = 0; t < 4; t++)
        y[t] = dwt_source_index(i, t, sc.in_h);
    /* Band a of the scale before, each row found (or computed) before this row's
     * vertical pass takes the job's rows. */
    const float *rows[2][4] = {};
    if (s > 0)
        for (int img = 0; img < 2; img++)
            for (int t = 0; t < 4; t++)
                rows[img][t] = approx_row(job, img, s - 1, y[t]);
    for (int img = 0; img < 2; img++) {
        float *lo = job_row(job, kLoRow + img), *hi = job_row(job, kHiRow + img);
        if (s > 0) {
            kernels_->dwt_vertical_float(rows[img], sc.in_w, lo, hi);
        } else {
            const FloatAdmPlane &in = input_[img];
            const uint8_t *base = static_cast<const uint8_t *>(in.data);
            const uint8_t *samples[4];
            for (int t = 0; t < 4; t++)
                samples[t] = base + y[t] * in.stride;
            if (in.bytes_per_sample == 2)
                kernels_->dwt_vertical_u16(samples, sc.in_w, in.shift, frame_.input_scaler, lo, hi);
            else
                kernels_->dwt_vertical_u8(samples, sc.in_w, lo, hi);
        }
        DwtRowArgs args;
        args.lo = lo;
        args.hi = hi;
        args.in_w = sc.in_w;
        args.w = sc.w;
        for (int t = 0; t < 4; t++)
            args.taps[t] = sc.column_taps[t].data();
        args.a = a[img];
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
        row_sums_[s][k][i] = inner[k];
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
            accum[k] += row_sums_[s][k][i];
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
    /* A new number marks this frame's rows; after 2^32 frames the flags start again. */
    if (++frame_epoch_ == 0) {
        for (int s = 0; s < kNumScales; s++)
            for (int i = 0; i < scales_[s].h; i++)
                published_[s][i].store(0, std::memory_order_relaxed);
        for (auto &computed : halo_epoch_)
            std::fill(computed.begin(), computed.end(), 0);
        frame_epoch_ = 1;
    }
    const int err = run_jobs(); /* an executor's error is the frame's */
    input_[kRef] = input_[kDist] = FloatAdmPlane{};
    if (err < 0)
        return err;
    ScaleSums sums[kNumScales];
    for (int s = 0; s < kNumScales; s++)
        sums[s] = s == 0 && frame_.skip_scale0 ? skipped_scale_sums() : fold_scale(s);
    if (map_)
        map_->finish();
    pool_scales(sums, frame_.width, frame_.height, opts_, out);
    return 0;
}

} // namespace adm
