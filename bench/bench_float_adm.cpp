/*
 * Benchmark: time per frame of the float ADM core at 576x324, 1920x1080 and
 * 3840x2160, 8-bit, serial and with 2 threads through the CLI's thread pool.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "float_adm.h"
#include "thread_pool.h"

namespace {

struct Lcg {
    uint32_t state;
    uint32_t next()
    {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    }
};

uint8_t clip_u8(double v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : std::lround(v))); }

/*
 * Camera-like content: value noise on a 16-pixel lattice (smoothly interpolated) for
 * large shapes, a ripple for edges, and fine grain; the distorted frame is a 3-tap
 * horizontal blur of it plus coding-like noise, so every stage has real work.
 */
struct FramePair {
    std::vector<uint8_t> ref, dist;

    FramePair(int w, int h)
    {
        const int cell = 16, gw = w / cell + 2, gh = h / cell + 2;
        Lcg rng{0x5eed1234u};
        std::vector<double> lattice((size_t)gw * gh);
        for (double &v : lattice)
            v = (rng.next() % 1000) / 1000.0;
        std::vector<double> image((size_t)w * h);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const int gi = i / cell, gj = j / cell;
                double fy = (double)(i % cell) / cell, fx = (double)(j % cell) / cell;
                fy = fy * fy * (3 - 2 * fy); /* smoothstep */
                fx = fx * fx * (3 - 2 * fx);
                const double *r0 = &lattice[(size_t)gi * gw + gj], *r1 = r0 + gw;
                const double shape = (r0[0] * (1 - fx) + r0[1] * fx) * (1 - fy) +
                                     (r1[0] * (1 - fx) + r1[1] * fx) * fy;
                const double ripple = 0.08 * std::sin(0.05 * j + 0.03 * i);
                const double grain = ((int)(rng.next() % 11) - 5) / 255.0;
                image[(size_t)i * w + j] = 255.0 * (0.15 + 0.7 * shape + ripple + grain);
            }
        ref.resize(image.size());
        dist.resize(image.size());
        for (size_t k = 0; k < image.size(); k++)
            ref[k] = clip_u8(image[k]);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const int jl = j > 0 ? j - 1 : j, jr = j < w - 1 ? j + 1 : j;
                const uint8_t *row = &ref[(size_t)i * w];
                const double blurred = 0.25 * row[jl] + 0.5 * row[j] + 0.25 * row[jr];
                dist[(size_t)i * w + j] = clip_u8(blurred + (int)(rng.next() % 7) - 3);
            }
    }
};

/* args: width, height, threads (1: the core's serial path, no executor). */
void BM_ScoreFrame(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1), threads = (int)state.range(2);
    const FramePair frames(w, h);
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmContext *ctx = nullptr;
    char err[256];
    if (float_adm_context_create(&ctx, w, h, 8, &opts, err, sizeof(err)) < 0) {
        state.SkipWithError(err);
        return;
    }
    std::unique_ptr<ThreadPool> pool;
    if (threads > 1) {
        pool.reset(new ThreadPool(threads));
        float_adm_set_executor(ctx, ThreadPool::execute, pool.get(), threads);
    }
    const FloatAdmPlane ref = {frames.ref.data(), w, 1, 0};
    const FloatAdmPlane dist = {frames.dist.data(), w, 1, 0};
    FloatAdmScores scores;
    for (auto _ : state) {
        if (float_adm_score_frame(ctx, &ref, &dist, &scores) < 0) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
    }
    float_adm_context_free(&ctx);
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
