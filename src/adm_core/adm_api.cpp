/*
 * float_adm: the C API of the contexts (float_adm_context_*, the SIMD level, threads,
 * executors, scoring) and of the errors and version, over the C++ engine.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <system_error>

#include "adm_engine.h"
#include "adm_error_message.h"
#include "adm_frame_queue.h"
#include "adm_rcp.h"
#include "adm_thread_pool.h"
#include "float_adm.h"

struct FloatAdmContext {
    adm::Engine engine;
    /* The context's own threads (float_adm_context_set_threads); null: serial or a
     * caller's executor. */
    std::unique_ptr<adm::ThreadPool> threads;
    /* What a frame queue is made from. */
    int width, height, bit_depth;
    FloatAdmOptions opts;
    int frames_in_flight = 1;
    /* Made at the first float_adm_submit from the settings above; dropped when they
     * change. */
    std::unique_ptr<adm::FrameQueue> queue;
};

namespace adm {

Engine &context_engine(FloatAdmContext &ctx) { return ctx.engine; }

} // namespace adm

namespace {

/* Settings the frame queue was made from change only with no frame in flight. */
bool frames_in_flight(const FloatAdmContext &ctx)
{
    return ctx.queue && ctx.queue->in_flight() > 0;
}

/* Any stride goes (rows may run backwards); the layout is adm_context_setup.h's rule. */
int check_plane(const FloatAdmContext *ctx, const FloatAdmPlane *p, const char *which)
{
    if (!p || !p->data)
        return FLOAT_ADM_ERROR_INVALID;
    return adm::check_plane_layout(ctx->engine.frame(), which, p->bytes_per_sample, p->shift,
                                   nullptr, 0);
}

} // namespace

extern "C" {

#define ADM_STRINGIFY(x) #x
#define ADM_VERSION_STRING(a, b, c) ADM_STRINGIFY(a) "." ADM_STRINGIFY(b) "." ADM_STRINGIFY(c)

const char *float_adm_version(void)
{
    return ADM_VERSION_STRING(FLOAT_ADM_VERSION_MAJOR, FLOAT_ADM_VERSION_MINOR,
                              FLOAT_ADM_VERSION_PATCH);
}

const char *float_adm_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case FLOAT_ADM_ERROR_INVALID: return "invalid argument";
    case FLOAT_ADM_ERROR_NOMEM: return "out of memory";
    case FLOAT_ADM_ERROR_RANGE: return "option value out of range";
    case FLOAT_ADM_ERROR_NOT_FOUND: return "unknown option";
    case FLOAT_ADM_ERROR_UNSUPPORTED: return "unsupported frame size or bit depth";
    case FLOAT_ADM_ERROR_IO: return "a log could not be written";
    case FLOAT_ADM_ERROR_BUSY: return "another writer holds the file";
    case FLOAT_ADM_ERROR_AGAIN: return "try again: frame queue full or no frame ready";
    case FLOAT_ADM_ERROR_OUTPUT_INPUT: return "the output is an input of the run";
    case FLOAT_ADM_ERROR_OUTPUT_NOT_FILE: return "the output is not a regular file";
    case FLOAT_ADM_ERROR_OUTPUT_SYMLINK: return "the output is a symbolic link";
    case FLOAT_ADM_ERROR_OUTPUT_NOT_OURS: return "the output is a file of something else";
    case FLOAT_ADM_ERROR_OUTPUT_SHARED: return "another output of the run goes there";
    case FLOAT_ADM_ERROR_INPUT_SHARED: return "one stream is named as two inputs";
    default: return "unknown error";
    }
}

const char *float_adm_error_name(int err)
{
    switch (err) {
    case FLOAT_ADM_ERROR_INVALID: return "INVALID";
    case FLOAT_ADM_ERROR_NOMEM: return "NOMEM";
    case FLOAT_ADM_ERROR_RANGE: return "RANGE";
    case FLOAT_ADM_ERROR_NOT_FOUND: return "NOT_FOUND";
    case FLOAT_ADM_ERROR_UNSUPPORTED: return "UNSUPPORTED";
    case FLOAT_ADM_ERROR_IO: return "IO";
    case FLOAT_ADM_ERROR_BUSY: return "BUSY";
    case FLOAT_ADM_ERROR_AGAIN: return "AGAIN";
    case FLOAT_ADM_ERROR_OUTPUT_INPUT: return "OUTPUT_INPUT";
    case FLOAT_ADM_ERROR_OUTPUT_NOT_FILE: return "OUTPUT_NOT_FILE";
    case FLOAT_ADM_ERROR_OUTPUT_SYMLINK: return "OUTPUT_SYMLINK";
    case FLOAT_ADM_ERROR_OUTPUT_NOT_OURS: return "OUTPUT_NOT_OURS";
    case FLOAT_ADM_ERROR_OUTPUT_SHARED: return "OUTPUT_SHARED";
    case FLOAT_ADM_ERROR_INPUT_SHARED: return "INPUT_SHARED";
    default: return nullptr;
    }
}

int float_adm_error_code(int index)
{
    static const int codes[] = {
        FLOAT_ADM_ERROR_INVALID,        FLOAT_ADM_ERROR_NOMEM,
        FLOAT_ADM_ERROR_RANGE,          FLOAT_ADM_ERROR_NOT_FOUND,
        FLOAT_ADM_ERROR_UNSUPPORTED,    FLOAT_ADM_ERROR_IO,
        FLOAT_ADM_ERROR_BUSY,           FLOAT_ADM_ERROR_AGAIN,
        FLOAT_ADM_ERROR_OUTPUT_INPUT,   FLOAT_ADM_ERROR_OUTPUT_NOT_FILE,
        FLOAT_ADM_ERROR_OUTPUT_SYMLINK, FLOAT_ADM_ERROR_OUTPUT_NOT_OURS,
        FLOAT_ADM_ERROR_OUTPUT_SHARED,  FLOAT_ADM_ERROR_INPUT_SHARED,
    };
    return index >= 0 && index < static_cast<int>(sizeof(codes) / sizeof(codes[0])) ? codes[index]
                                                                                    : 0;
}

double float_adm_output_value(const FloatAdmScores *s, int index)
{
    switch (index) {
    case 0: return s->adm2;
    case 1: return s->aim;
    case 2: return s->adm3;
    case 3: case 4: case 5: case 6: return s->adm_scale[index - 3];
    case 7: return s->adm;
    case 8: return s->adm_num;
    case 9: return s->adm_den;
    default:
        if (index >= 10 && index < FLOAT_ADM_NUM_DEBUG_OUTPUTS) {
            int scale = (index - 10) / 2;
            return (index - 10) % 2 ? s->adm_den_scale[scale] : s->adm_num_scale[scale];
        }
        return 0.0;
    }
}

void float_adm_output_set_value(FloatAdmScores *s, int index, double value)
{
    switch (index) {
    case 0: s->adm2 = value; break;
    case 1: s->aim = value; break;
    case 2: s->adm3 = value; break;
    case 3:
    case 4:
    case 5:
    case 6: s->adm_scale[index - 3] = value; break;
    case 7: s->adm = value; break;
    case 8: s->adm_num = value; break;
    case 9: s->adm_den = value; break;
    default:
        if (index >= 10 && index < FLOAT_ADM_NUM_DEBUG_OUTPUTS) {
            const int scale = (index - 10) / 2;
            ((index - 10) % 2 ? s->adm_den_scale : s->adm_num_scale)[scale] = value;
        }
    }
}

int float_adm_context_create(FloatAdmContext **out, int width, int height, int bit_depth,
                             const FloatAdmOptions *opts, char *errbuf, size_t errbuf_size)
{
    if (!out) {
        adm::format_error(errbuf, errbuf_size, "no context pointer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    int ret = adm::check_context(width, height, bit_depth, opts, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    try {
        *out = new FloatAdmContext{adm::Engine(width, height, bit_depth, *opts), nullptr, width,
                                   height, bit_depth, *opts, 1, nullptr};
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a %dx%d context", width, height);
        return FLOAT_ADM_ERROR_NOMEM;
    }
    return 0;
}

int float_adm_check_frame(int64_t width, int64_t height, int64_t bit_depth, char *errbuf,
                          size_t errbuf_size)
{
    return adm::check_frame(width, height, bit_depth, errbuf, errbuf_size);
}

int float_adm_set_executor(FloatAdmContext *ctx, FloatAdmExecuteFn execute, void *opaque,
                           int nb_jobs)
{
    if (!ctx || nb_jobs < 0 || frames_in_flight(*ctx))
        return FLOAT_ADM_ERROR_INVALID;
    try {
        const int ret = ctx->engine.set_executor(execute, opaque, nb_jobs);
        if (ret >= 0) {
            ctx->threads.reset();
            ctx->queue.reset();
        }
        return ret;
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_context_set_threads(FloatAdmContext *ctx, int threads)
{
    if (!ctx || threads < 1 || threads > FLOAT_ADM_MAX_THREADS || frames_in_flight(*ctx))
        return FLOAT_ADM_ERROR_INVALID;
    try {
        /* The old thread pool stops only after the engine has let go of it. */
        std::unique_ptr<adm::ThreadPool> thread_pool;
        if (threads > 1)
            thread_pool = std::make_unique<adm::ThreadPool>(threads);
        const int ret = thread_pool ? ctx->engine.set_executor(adm::ThreadPool::execute,
                                                               thread_pool.get(), threads)
                                    : ctx->engine.set_executor(nullptr, nullptr, 1);
        if (ret < 0)
            return ret;
        ctx->threads.swap(thread_pool);
        ctx->queue.reset();
        return 0;
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    } catch (const std::system_error &) {
        return FLOAT_ADM_ERROR_NOMEM; /* the system refused another thread */
    }
}

int float_adm_score_frame(FloatAdmContext *ctx, const FloatAdmPlane *ref,
                          const FloatAdmPlane *dist, FloatAdmScores *scores)
{
    if (!ctx || !scores)
        return FLOAT_ADM_ERROR_INVALID;
    int ret = check_plane(ctx, ref, "reference");
    if (ret >= 0)
        ret = check_plane(ctx, dist, "distorted");
    if (ret < 0)
        return ret;
    *scores = FloatAdmScores{};
    return ctx->engine.score(*ref, *dist, scores);
}

int float_adm_context_set_frames_in_flight(FloatAdmContext *ctx, int frames)
{
    if (!ctx || frames < 1 || frames > FLOAT_ADM_MAX_FRAMES_IN_FLIGHT || frames_in_flight(*ctx))
        return FLOAT_ADM_ERROR_INVALID;
    ctx->frames_in_flight = frames;
    ctx->queue.reset();
    return 0;
}

int float_adm_submit(FloatAdmContext *ctx, const FloatAdmPlane *ref, const FloatAdmPlane *dist)
{
    if (!ctx || ctx->engine.map())
        return FLOAT_ADM_ERROR_INVALID;
    int ret = check_plane(ctx, ref, "reference");
    if (ret >= 0)
        ret = check_plane(ctx, dist, "distorted");
    if (ret < 0)
        return ret;
    if (!ctx->queue) {
        /* The context's own threads score the frames; with a caller's executor, or none,
         * one thread of the queue's own does. */
        const int threads = ctx->threads ? ctx->engine.jobs() : 1;
        try {
            ctx->queue = std::make_unique<adm::FrameQueue>(
                ctx->width, ctx->height, ctx->bit_depth, ctx->opts, ctx->engine.level(), threads,
                ctx->frames_in_flight);
        } catch (const std::bad_alloc &) {
            return FLOAT_ADM_ERROR_NOMEM;
        } catch (const std::system_error &) {
            return FLOAT_ADM_ERROR_NOMEM; /* the system refused another thread */
        }
    }
    return ctx->queue->submit(*ref, *dist);
}

int float_adm_collect(FloatAdmContext *ctx, FloatAdmScores *scores, int wait)
{
    if (!ctx || !scores)
        return FLOAT_ADM_ERROR_INVALID;
    if (!ctx->queue)
        return FLOAT_ADM_ERROR_AGAIN;
    return ctx->queue->collect(scores, wait != 0);
}

int float_adm_in_flight(const FloatAdmContext *ctx)
{
    return ctx && ctx->queue ? ctx->queue->in_flight() : 0;
}

const char *float_adm_simd_level_name(int index)
{
    return adm::simd_level_name((adm::SimdLevel)index);
}

int float_adm_context_set_simd_level(FloatAdmContext *ctx, const char *level)
{
    if (!ctx || frames_in_flight(*ctx))
        return FLOAT_ADM_ERROR_INVALID;
    adm::SimdLevel wanted = adm::simd_level_best();
    if (level && strcmp(level, "auto") != 0 && !adm::simd_level_parse(level, &wanted))
        return FLOAT_ADM_ERROR_NOT_FOUND;
    ctx->engine.set_level(wanted);
    ctx->queue.reset();
    return 0;
}

const char *float_adm_context_simd_level(const FloatAdmContext *ctx)
{
    return ctx ? adm::simd_level_name(ctx->engine.level()) : nullptr;
}

const char *float_adm_context_describe(const FloatAdmContext *ctx, char *buf, size_t size)
{
    if (!buf || !size)
        return buf;
    if (!ctx) {
        buf[0] = '\0';
        return buf;
    }
#if ADM_HAVE_RCPSS
    const char *division = "division exact: this processor's RCPSS and one Newton step, as libvmaf";
#elif defined(__SSE2__) || defined(_M_X64)
    const char *division = "division NOT exact: n / d (built with --disable-rcpss), where "
                           "libvmaf uses this processor's RCPSS";
#else
    const char *division = "division exact: n / d, as libvmaf without SSE2";
#endif
    const adm::Engine &engine = ctx->engine;
    adm::format_error(buf, size, "CPU backend: simd %s (best here: %s), threads %d; %s; %s",
                      adm::simd_level_name(engine.level()),
                      adm::simd_level_name(adm::simd_level_best()), engine.jobs(), division,
                      engine.frame().cube ? "powf not called (adm_p_norm 3 cubes)"
                                          : "powf exact: this host's libm, as libvmaf");
    return buf;
}

void float_adm_context_free(FloatAdmContext **ctx)
{
    if (!ctx)
        return;
    delete *ctx;
    *ctx = nullptr;
}

} // extern "C"
