/*
 * Benchmark: time per frame of the float ADM core at 576x324, 1920x1080 and
 * 3840x2160, 8-bit, serial and with 2 threads through the shared thread pool.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <cstdio>

#include "bench_support.h"

namespace {

/* args: width, height, threads (1: the core's serial path, no executor). */
void BM_ScoreFrame(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1), threads = (int)state.range(2);
    const testsupport::FramePair frames = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, threads);
    if (!ctx.ok()) {
        state.SkipWithError(ctx.error());
        return;
    }
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    for (auto _ : state) {
        if (float_adm_score_frame(ctx.get(), &ref, &dist, &scores) < 0) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
    }
    state.counters["fps"] = benchmark::Counter((double)state.iterations(),
                                               benchmark::Counter::kIsRate);
    char label[64];
    snprintf(label, sizeof(label), "%dx%d 8-bit, %d thread%s, adm2 %.6f", w, h, threads,
             threads > 1 ? "s" : "", scores.adm2);
    state.SetLabel(label);
}

BENCHMARK(BM_ScoreFrame)
    ->ArgNames({"w", "h", "threads"})
    ->Args({576, 324, 1})
    ->Args({576, 324, 2})
    ->Args({1920, 1080, 1})
    ->Args({1920, 1080, 2})
    ->Args({3840, 2160, 1})
    ->Args({3840, 2160, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
