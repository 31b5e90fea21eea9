/*
 * What the benchmarks share: their frames and a context with its executor.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <memory>

#include "content.h"
#include "float_adm.h"
#include "thread_pool.h"

namespace bench {

/* The benchmarks' frames: an 8-bit pair of the tests' content generator, rows packed. */
inline testsupport::FramePair frames(int w, int h)
{
    return testsupport::make_frame_pair(testsupport::FrameGeometry{w, h, 8}, 0x5eed1234u);
}

/* A context scoring w x h 8-bit frames with default options; threads > 1 runs its
 * jobs on the shared thread pool.  ok() is false (and error() says why) if creation failed. */
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
