/*
 * Benchmark: what a map (float_adm_context_enable_map) costs per frame: the same
 * frames scored with and without one, at the best level and at scalar, 1 thread.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <cstdio>
#include <stdlib.h>
#include <unistd.h>
#include <string>
#include <vector>

#include "adm_engine.h"
#include "bench_support.h"

namespace {

/* args: width, height, map (0 or 1), level (0: scalar, 1: the best here). */
void BM_Map(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1);
    const bool map = state.range(2) != 0;
    const testsupport::FramePair frames = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, 1);
    if (!ctx.ok() || (map && float_adm_context_enable_map(ctx.get()) < 0)) {
        state.SkipWithError("no context");
        return;
    }
    float_adm_context_set_simd_level(ctx.get(), state.range(3) ? "auto" : "scalar");
    int columns = 0, rows = 0;
    float_adm_map_size(ctx.get(), &columns, &rows, nullptr);
    std::vector<float> loss((size_t)columns * rows);
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    for (auto _ : state) {
        if (float_adm_score_frame(ctx.get(), &ref, &dist, &scores) < 0 ||
            (map && float_adm_map_loss(ctx.get(), loss.data(), loss.size()) < 0)) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
        benchmark::DoNotOptimize(loss.data());
    }
    char label[64];
    snprintf(label, sizeof(label), "%dx%d, %s, map %s", w, h,
             float_adm_context_simd_level(ctx.get()), map ? "on" : "off");
    state.SetLabel(label);
}

BENCHMARK(BM_Map)
    ->ArgNames({"w", "h", "map", "best"})
    ->Args({1920, 1080, 0, 1})
    ->Args({1920, 1080, 1, 1})
    ->Args({1920, 1080, 0, 0})
    ->Args({1920, 1080, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/* A w x h frame pair scored by ctx with its map: false where it cannot be. */
bool score_with_map(const bench::ScoringContext &ctx, int w, int h)
{
    const testsupport::FramePair frames = bench::frames(w, h);
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    return ctx.ok() && float_adm_context_enable_map(ctx.get()) >= 0 &&
           float_adm_score_frame(ctx.get(), &ref, &dist, &scores) >= 0;
}

/* args: width, height.  A frame's map loss from its block sums (FrameMap::loss_rows,
 * a pow per block, scale and sum), the work the filter's map picture spreads over
 * its threads. */
void BM_MapLoss(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1);
    const bench::ScoringContext ctx(w, h, 1);
    if (!score_with_map(ctx, w, h)) {
        state.SkipWithError("no map");
        return;
    }
    const adm::FrameMap *map = adm::context_engine(*ctx.get()).map();
    std::vector<float> loss((size_t)map->columns() * map->rows());
    for (auto _ : state) {
        map->loss_rows(0, map->rows(), loss.data());
        benchmark::DoNotOptimize(loss.data());
    }
    char label[64];
    snprintf(label, sizeof(label), "%dx%d, %dx%d blocks", w, h, map->columns(), map->rows());
    state.SetLabel(label);
}

BENCHMARK(BM_MapLoss)
    ->ArgNames({"w", "h"})
    ->Args({1920, 1080})
    ->Args({3840, 2160})
    ->Unit(benchmark::kMillisecond);

/* args: width, height.  A frame's map written as a PFM file (float_adm_map_write_pfm:
 * the output policy's checks, the bytes, the file; the loss was computed when the
 * frame was scored), on a RAM file system where there is one (/dev/shm, else TMPDIR),
 * so that the disk's time stays out: what writing the files costs the filter's thread
 * beyond the sums and the loss.  The names go round 64 files, each replaced. */
void BM_MapWritePfm(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1);
    const bench::ScoringContext ctx(w, h, 1);
    const char *tmp = getenv("TMPDIR");
    std::string dir = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                                  : tmp && *tmp                 ? tmp
                                                                : "/tmp") +
                      "/float_adm_bench_maps.XXXXXX";
    if (!score_with_map(ctx, w, h)) {
        state.SkipWithError("no map");
        return;
    }
    if (!mkdtemp(&dir[0])) {
        state.SkipWithError(("cannot make " + dir).c_str());
        return;
    }
    const std::string pattern = dir + "/%d.pfm";
    char err[256];
    uint64_t frame = 0;
    for (auto _ : state) {
        if (float_adm_map_write_pfm(ctx.get(), pattern.c_str(), frame++ % 64, err, sizeof(err)) <
            0) {
            state.SkipWithError(err);
            break;
        }
    }
    for (uint64_t i = 0; i < 64; i++)
        std::remove((dir + "/" + std::to_string(i) + ".pfm").c_str());
    std::remove(dir.c_str());
}

BENCHMARK(BM_MapWritePfm)
    ->ArgNames({"w", "h"})
    ->Args({1920, 1080})
    ->Args({3840, 2160})
    ->Unit(benchmark::kMillisecond);

} // namespace
