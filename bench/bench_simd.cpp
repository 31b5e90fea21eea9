/*
 * Benchmark: the SIMD levels side by side, per frame and per stage.
 *   BM_Level/w/h/level/threads  a whole 8-bit frame at a level (its index among
 *                               float_adm_simd_level_name's, 0 scalar; the label names
 *                               it); counter x_scalar = scalar time / this time
 *                               (same size and threads, measured earlier in the run)
 *   BM_Stage/stage/level        one scale-0 pass of a 1920x1080 frame (960x540 bands)
 *                               through one kernel of a level (as above): 0 DWT,
 *                               1 decouple + CSF, 2 row sums
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bench_support.h"
#include "../src/adm_core/adm_simd.h"

namespace {

using adm::SimdLevel;

/* Seconds per frame of the scalar level, by (w, h, threads). */
std::map<std::tuple<int, int, int>, double> &scalar_seconds()
{
    static std::map<std::tuple<int, int, int>, double> seconds;
    return seconds;
}

void BM_Level(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1);
    const SimdLevel level = (SimdLevel)state.range(2);
    const int threads = (int)state.range(3);
    if (!adm::simd_level_supported(level)) {
        state.SkipWithError("level not run by this processor");
        return;
    }
    const testsupport::FramePair pictures = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, threads);
    if (!ctx.ok()) {
        state.SkipWithError(ctx.error());
        return;
    }
    float_adm_context_set_simd_level(ctx.get(), adm::simd_level_name(level));
    const FloatAdmPlane ref = pictures.ref.view(), dist = pictures.dist.view();
    FloatAdmScores scores;
    const auto begin = std::chrono::steady_clock::now();
    for (auto _ : state) {
        float_adm_score_frame(ctx.get(), &ref, &dist, &scores);
        benchmark::DoNotOptimize(scores);
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - begin;

    const double per_frame = elapsed.count() / (double)state.iterations();
    const auto key = std::make_tuple(w, h, threads);
    if (level == SimdLevel::kScalar)
        scalar_seconds()[key] = per_frame;
    else if (scalar_seconds().count(key))
        state.counters["x_scalar"] = scalar_seconds()[key] / per_frame;
    state.SetLabel(adm::simd_level_name(level));
}

/* A 1920x1080 frame's scale-0 bands, and each kernel's inputs and outputs. */
struct StageData {
    static constexpr int kInW = 1920, kInH = 1080, kW = 960, kH = 540;
    static constexpr ptrdiff_t kStride = kInW + adm::kRowPadding;
    testsupport::FramePair pictures = bench::frames(kInW, kInH);
    std::vector<float> rows = std::vector<float>(40 * kStride);
    std::vector<int> taps[4];

    StageData()
    {
        for (int t = 0; t < 4; t++)
            for (int j = 0; j < kW; j++) {
                int n = 2 * j - 1 + t;
                taps[t].push_back(n < 0 ? -n : (n >= kInW ? 2 * kInW - n - 1 : n));
            }
        testsupport::Lcg rng{99};
        for (float &v : rows)
            v = (float)((int)(rng.next() >> 12) - 2048) / 64.0f;
    }
    float *row(int k) { return rows.data() + k * kStride; }
};

void BM_Stage(benchmark::State &state)
{
    const int stage = (int)state.range(0);
    const SimdLevel level = (SimdLevel)state.range(1);
    const adm::SimdKernels *kernels = adm::simd_kernels(level);
    if (!kernels) {
        state.SkipWithError("level not run by this processor");
        return;
    }
    static StageData data;
    const int W = StageData::kW, H = StageData::kH;
    adm::DecoupleRowArgs decouple;
    adm::SumRowArgs sums;
    for (int b = 0; b < 3; b++) {
        decouple.ref[b] = sums.ref[b] = data.row(b);
        decouple.dist[b] = data.row(3 + b);
        for (int m = 0; m < 2; m++) {
            decouple.weighted[m][b] = data.row(6 + m * 3 + b);
            decouple.filtered[m][b] = data.row(12 + m * 3 + b);
            sums.weighted[m][b] = data.row(18 + m * 3 + b);
            for (int r = 0; r < 3; r++)
                sums.filtered[m][b][r] = data.row(24 + m * 3 + b) + r;
            decouple.factor[b] = sums.factor[b] = 0.5f;
        }
    }
    decouple.left = sums.left = 96;
    decouple.right = sums.right = W - 96;
    decouple.egl = 100.0;
    decouple.cos_1deg_sq = 0.99969541f;
    sums.w = W;
    sums.masking = sums.cube = true;
    sums.p = 3.0f;
    for (auto _ : state) {
        for (int img = 0; img < 2; img++) {
            for (int i = 0; i < H; i++) {
                if (stage == 0) {
                    const uint8_t *base = data.pictures.ref.bytes.data() +
                                          (size_t)(2 * i) * StageData::kInW;
                    const uint8_t *in[4] = {base, base, base, base};
                    kernels->dwt_vertical_u8(in, StageData::kInW, data.row(30), data.row(31));
                    adm::DwtRowArgs dwt = {data.row(30), data.row(31), StageData::kInW, W,
                                           {data.taps[0].data(), data.taps[1].data(),
                                            data.taps[2].data(), data.taps[3].data()},
                                           data.row(32), data.row(33), data.row(34), data.row(35)};
                    kernels->dwt_horizontal(dwt);
                } else if (stage == 1 && img == 0) {
                    kernels->decouple_csf(decouple);
                } else if (stage == 2 && img == 0) {
                    float inner[adm::kNumRowSums];
                    kernels->row_sums(sums, inner);
                    benchmark::DoNotOptimize(inner);
                }
            }
        }
        benchmark::ClobberMemory();
    }
    static const char *const kStages[] = {"DWT (both images)", "decouple + CSF", "row sums"};
    state.SetLabel(std::string(kStages[stage]) + ", " + adm::simd_level_name(level));
}

/* Every level the library names, scalar first. */
std::vector<int64_t> simd_levels()
{
    std::vector<int64_t> levels;
    for (int l = 0; float_adm_simd_level_name(l); l++)
        levels.push_back(l);
    return levels;
}

BENCHMARK(BM_Level)
    ->ArgNames({"w", "h", "level", "threads"})
    ->ArgsProduct({{1920}, {1080}, simd_levels(), {1, 2}})
    ->ArgsProduct({{3840}, {2160}, simd_levels(), {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(BM_Stage)
    ->ArgNames({"stage", "level"})
    ->ArgsProduct({{0, 1, 2}, simd_levels()})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
