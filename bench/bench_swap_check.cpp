/*
 * Benchmark: the time the check of the inputs' order adds to one of the first frames
 * (float_adm_swap_check_add: a pass over both lumas), at 1920x1080 and 3840x2160,
 * 8-bit, beside BM_ScoreFrame's time for the same frame.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <string>

#include "bench_support.h"

namespace {

/* args: width, height. */
void BM_SwapCheckAdd(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1);
    const testsupport::FramePair frames = bench::frames(w, h);
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    for (auto _ : state) {
        /* A new check each time: one that has its 8 pairs leaves later ones out. */
        FloatAdmSwapCheck *check = nullptr;
        if (float_adm_swap_check_create(&check, w, h, 8) < 0 ||
            float_adm_swap_check_add(check, &ref, &dist) < 0) {
            float_adm_swap_check_free(&check);
            state.SkipWithError("the check failed");
            break;
        }
        float_adm_swap_check_free(&check);
    }
    state.SetLabel(std::to_string(w) + "x" + std::to_string(h) + " 8-bit");
}

BENCHMARK(BM_SwapCheckAdd)
    ->ArgNames({"w", "h"})
    ->Args({1920, 1080})
    ->Args({3840, 2160})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
