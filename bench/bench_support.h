/*
 * What the benchmarks share: the test content and a context with its executor.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "float_adm.h"
#include "thread_pool.h"

namespace bench {

struct Lcg {
    uint32_t state;
    uint32_t next()
    {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    }
};

inline uint8_t clip_u8(double v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : std::lround(v))); }

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

/* A context scoring w x h 8-bit frames with default options; threads > 1 runs its
 * jobs on the CLI's thread pool.  ok() is false (and error() says why) if creation failed. */
class ScoringContext {
public:
    ScoringContext(int w, int h, int threads)
    {
        FloatAdmOptions opts;
        float_adm_options_default(&opts);
        if (float_adm_context_create(&ctx_, w, h, 8, &opts, err_, sizeof(err_)) < 0)
            return;
        if (threads > 1) {
            pool_.reset(new ThreadPool(threads));
            float_adm_set_executor(ctx_, ThreadPool::execute, pool_.get(), threads);
        }
    }
    ~ScoringContext() { float_adm_context_free(&ctx_); }
    ScoringContext(const ScoringContext &) = delete;
    ScoringContext &operator=(const ScoringContext &) = delete;

    bool ok() const { return ctx_ != nullptr; }
    const char *error() const { return err_; }
    FloatAdmContext *get() const { return ctx_; }

private:
    std::unique_ptr<ThreadPool> pool_; /* outlives the context's last call */
    FloatAdmContext *ctx_ = nullptr;
    char err_[256] = "";
};

} // namespace bench

#endif /* BENCH_SUPPORT_H */
