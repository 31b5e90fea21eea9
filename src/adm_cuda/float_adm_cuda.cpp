/*
 * float_adm CUDA backend: contexts, buffers, the frame queue and the host's part of
 * the arithmetic (powf of the device's accumulators, pooling over scales).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "adm_cuda_kernels.h"
#include "adm_frame.h"
#include "adm_internal.h"
#include "adm_pooling.h"
#include "adm_powf_model.h"
#include "adm_rcp_model.h"
#include "float_adm_cuda.h"

using adm::kNumRowSums;
using adm::kNumScales;

namespace {

constexpr int kAccumFloats = kNumScales * kNumRowSums;
constexpr int kMaxInFlight = 16;
constexpr int kNumEvents = FLOAT_ADM_CUDA_NUM_STAGES + 1;

/*
 * One frame in the queue: its planes, its accumulators (pinned host memory the last
 * kernel writes), the graph of its work after scale 0, and the events that mark it.
 */
struct Slot {
    adm_cuda::InputPlanes planes = {};
    float *host_accum = nullptr;   /* pinned, mapped */
    float *device_accum = nullptr; /* the same memory, as the device sees it */
    cudaGraphExec_t graph = nullptr;
    cudaEvent_t stage[kNumEvents] = {};
    bool profiled = false;
};

/* Codes of the CUDA errors that mean "no usable device" rather than a failure. */
bool means_no_device(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
           e == cudaErrorInitializationError || e == cudaErrorSystemDriverMismatch ||
           e == cudaErrorCompatNotSupportedOnDevice || e == cudaErrorDevicesUnavailable ||
           e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion;
}

int error_code(cudaError_t e)
{
    if (e == cudaErrorMemoryAllocation)
        return FLOAT_ADM_ERROR_NOMEM;
    return means_no_device(e) ? FLOAT_ADM_ERROR_NO_DEVICE : FLOAT_ADM_ERROR_DEVICE;
}

#ifdef FLOAT_ADM_TEST_HOOKS
/*
 * Test hook, in test builds only (tests/cuda/module.mk defines FLOAT_ADM_TEST_HOOKS):
 * FLOAT_ADM_CUDA_MEMORY_LIMIT=<bytes>, read when a context is created, caps that
 * context's device allocations; one that would pass the cap fails as CUDA's own
 * cudaErrorMemoryAllocation does, so tests can reach the out-of-memory path.  Unset,
 * empty or not a number: no cap.
 */
size_t memory_limit_from_env()
{
    const char *text = getenv("FLOAT_ADM_CUDA_MEMORY_LIMIT");
    if (!text || !*text)
        return SIZE_MAX;
    char *end = nullptr;
    errno = 0;
    const unsigned long long limit = strtoull(text, &end, 10);
    if (errno || *end || *text == '-')
        return SIZE_MAX;
    return limit < SIZE_MAX ? (size_t)limit : SIZE_MAX;
}
#else
size_t memory_limit_from_env() { return SIZE_MAX; }
#endif

} // namespace

struct FloatAdmCudaContext {
    FloatAdmOptions opts = {};
    cudaStream_t stream = nullptr;
    bool own_stream = false;
    adm_cuda::Pipeline pipeline = {};
    std::vector<void *> allocations;
    size_t device_bytes = 0;
    size_t device_bytes_limit = memory_limit_from_env();
    adm::RcpMode rcp_mode = adm::kRcpModelExact;
    std::string rcp_description;
    adm::PowfChoice powf = {}; /* the terms' powf on the device */
    std::vector<Slot> slots;
    int queue_head = 0, queue_count = 0;
    bool profiling = false;
    float stage_ms[FLOAT_ADM_CUDA_NUM_STAGES] = {};
    std::string last_error;

    /* Record a failed CUDA call; returns the library's code for it. */
    int fail(cudaError_t e, const char *what)
    {
        char msg[512];
        snprintf(msg, sizeof(msg), "%s failed: %s (%s)%s", what, cudaGetErrorString(e),
                 cudaGetErrorName(e),
                 e == cudaErrorMemoryAllocation ? ": not enough device memory" : "");
        last_error = msg;
        return error_code(e);
    }

    int device_alloc(void **ptr, size_t bytes, const char *what)
    {
        cudaError_t e = bytes > device_bytes_limit - device_bytes ? cudaErrorMemoryAllocation
                                                                  : cudaMalloc(ptr, bytes);
        if (e != cudaSuccess)
            return fail(e, what);
        allocations.push_back(*ptr);
        device_bytes += bytes;
        e = cudaMemset(*ptr, 0, bytes);
        return e == cudaSuccess ? 0 : fail(e, what);
    }

    int init(const adm::FrameSetup &frame, const FloatAdmOptions &o, void *user_stream,
             int in_flight);
    int launch_scale0(Slot &slot);
    int enqueue_profiled(Slot &slot);
    int enqueue_branches(Slot &slot, cudaStream_t main,
                         const cudaStream_t (&branch)[kNumScales - 1],
                         const cudaEvent_t (&ready)[kNumScales - 1],
                         const cudaEvent_t (&done)[kNumScales - 1]);
    int capture_graph(Slot &slot);
    int check_plane(const FloatAdmCudaPlane *p, const char *which);
    void pool(const float *accum, FloatAdmScores *out) const;
    void release();
};

#define CUDA_TRY(call, what)                                                                       \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return fail(e_, what);                                                                 \
    } while (0)

int FloatAdmCudaContext::init(const adm::FrameSetup &frame, const FloatAdmOptions &o,
                              void *user_stream, int in_flight)
{
    opts = o;
    adm_cuda::Pipeline &pl = pipeline;
    pl.frame = frame;

    /* The host's division, reproduced from the probed table. */
    const adm::RcpProbe &probe = adm::rcp_probe_host();
    char line[256];
    adm::rcp_probe_describe(probe, line, sizeof(line));
    rcp_description = line;
    rcp_mode = probe.mode;
    /* The host's powf, reproduced by a checked model of glibc's. */
    powf = adm::powf_choose(frame.cube, frame.p);
    pl.powf_mode = powf.mode;

    int dev = 0;
    CUDA_TRY(cudaGetDevice(&dev), "cudaGetDevice");
    if (user_stream) {
        stream = static_cast<cudaStream_t>(user_stream);
    } else {
        CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        own_stream = true;
    }

    void *p = nullptr;
    int ret = device_alloc(&p, sizeof(probe.table), "allocating the reciprocal table");
    if (ret < 0)
        return ret;
    CUDA_TRY(cudaMemcpy(p, probe.table, sizeof(probe.table), cudaMemcpyHostToDevice),
             "copying the reciprocal table");
    pl.divide.table = static_cast<const uint32_t *>(p);
    pl.divide.mode = probe.mode;

    /* Bands with the CPU engine's strides, zeroed; each scale its own (see Pipeline). */
    for (int s = 0; s < kNumScales; s++) {
        pl.band_floats[s] = pl.frame.scale[s].stride * pl.frame.scale[s].h;
        const size_t band = (size_t)pl.band_floats[s] * sizeof(float);
        for (int img = 0; img < 2; img++) {
            if ((ret = device_alloc(&p, band, "allocating the DWT bands")) < 0)
                return ret;
            pl.approx[img][s] = static_cast<float *>(p);
        }
        if ((ret = device_alloc(&p, adm_cuda::kDetailBands * band, "allocating the CSF bands")) < 0)
            return ret;
        pl.bands[s] = static_cast<float *>(p);
    }
    ret = device_alloc(&p, kNumScales * sizeof(unsigned), "allocating the block counters");
    if (ret < 0)
        return ret;
    pl.blocks_done = static_cast<unsigned *>(p);
    pl.rows_max = pl.frame.scale[0].h;
    ret = device_alloc(&p, (size_t)kAccumFloats * pl.rows_max * sizeof(float),
                       "allocating the row sums");
    if (ret < 0)
        return ret;
    pl.row_sums = static_cast<float *>(p);
    CUDA_TRY(adm_cuda::plan_launches(pl), "planning the kernels' launches");

    slots.resize(in_flight);
    for (Slot &slot : slots) {
        CUDA_TRY(cudaHostAlloc(&p, kAccumFloats * sizeof(float), cudaHostAllocMapped),
                 "allocating pinned memory");
        slot.host_accum = static_cast<float *>(p);
        /* A skipped scale 0 is never written; pool() does not read it either. */
        for (int k = 0; k < kAccumFloats; k++)
            slot.host_accum[k] = 0.0f;
        CUDA_TRY(cudaHostGetDevicePointer(&p, slot.host_accum, 0), "mapping pinned memory");
        slot.device_accum = static_cast<float *>(p);
        for (cudaEvent_t &ev : slot.stage)
            CUDA_TRY(cudaEventCreate(&ev), "cudaEventCreate");
        if ((ret = capture_graph(slot)) < 0)
            return ret;
    }
    return 0;
}

/*
 * Scale 0's DWT, which takes the frame's planes as its argument: launched directly,
 * so that the graph after it is the same for every frame.
 */
int FloatAdmCudaContext::launch_scale0(Slot &slot)
{
    CUDA_TRY(adm_cuda::launch_dwt_decouple(pipeline, 0, slot.planes, stream),
             "launching the DWT/decouple kernel");
    return 0;
}

/*
 * The rest of a frame's work, profiled: in stream order, the DWT of scales 1 to 3,
 * then the row sums of each scale (each folding its rows into the slot's
 * accumulators), with events between the stages.
 */
int FloatAdmCudaContext::enqueue_profiled(Slot &slot)
{
    const adm_cuda::Pipeline &pl = pipeline;
    auto mark = [&](int event) -> int {
        cudaError_t e = cudaEventRecord(slot.stage[event], stream);
        return e == cudaSuccess ? 0 : fail(e, "cudaEventRecord");
    };
    /* Events (see float_adm_cuda_collect): 1 + s after scale s's DWT, 5 + s after its sums. */
    int ret = 0;
    for (int s = 1; s < kNumScales; s++) {
        CUDA_TRY(adm_cuda::launch_dwt_decouple(pl, s, slot.planes, stream),
                 "launching the DWT/decouple kernel");
        if ((ret = mark(1 + s)) < 0)
            return ret;
    }
    for (int s = 0; s < kNumScales; s++) {
        CUDA_TRY(adm_cuda::launch_row_sums(pl, s, slot.device_accum, stream),
                 "launching the row-sums kernel");
        if ((ret = mark(5 + s)) < 0)
            return ret;
    }
    return 0;
}

/*
 * The rest of a frame's work as captured from `main`: the DWT of scales 1 to 3 in
 * turn, and the row sums of scale s on a branch of its own as soon as scale s's DWT
 * is done, so that they fill the machine beside the small DWTs after it.  The
 * branches join main at the end.
 */
int FloatAdmCudaContext::enqueue_branches(Slot &slot, cudaStream_t main,
                                          const cudaStream_t (&branch)[kNumScales - 1],
                                          const cudaEvent_t (&ready)[kNumScales - 1],
                                          const cudaEvent_t (&done)[kNumScales - 1])
{
    const adm_cuda::Pipeline &pl = pipeline;
    for (int s = 0; s < kNumScales - 1; s++) {
        if (s > 0)
            CUDA_TRY(adm_cuda::launch_dwt_decouple(pl, s, slot.planes, main),
                     "launching the DWT/decouple kernel");
        CUDA_TRY(cudaEventRecord(ready[s], main), "cudaEventRecord");
        CUDA_TRY(cudaStreamWaitEvent(branch[s], ready[s], 0), "cudaStreamWaitEvent");
        CUDA_TRY(adm_cuda::launch_row_sums(pl, s, slot.device_accum, branch[s]),
                 "launching the row-sums kernel");
        CUDA_TRY(cudaEventRecord(done[s], branch[s]), "cudaEventRecord");
    }
    const int last = kNumScales - 1;
    CUDA_TRY(adm_cuda::launch_dwt_decouple(pl, last, slot.planes, main),
             "launching the DWT/decouple kernel");
    CUDA_TRY(adm_cuda::launch_row_sums(pl, last, slot.device_accum, main),
             "launching the row-sums kernel");
    for (int s = 0; s < kNumScales - 1; s++)
        CUDA_TRY(cudaStreamWaitEvent(main, done[s], 0), "cudaStreamWaitEvent");
    return 0;
}

/* The frame's work after scale 0 as one graph: one launch instead of several calls. */
int FloatAdmCudaContext::capture_graph(Slot &slot)
{
    cudaStream_t capture = nullptr, branch[kNumScales - 1] = {};
    cudaEvent_t ready[kNumScales - 1] = {}, done[kNumScales - 1] = {};
    cudaGraph_t graph = nullptr;
    int ret = 0;
    cudaError_t e = cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking);
    for (cudaStream_t &st : branch)
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    for (cudaEvent_t &ev : ready)
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    for (cudaEvent_t &ev : done)
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (e != cudaSuccess)
        ret = fail(e, "creating the capture's streams and events");
    if (ret == 0) {
        e = cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal);
        ret = e == cudaSuccess ? enqueue_branches(slot, capture, branch, ready, done)
                               : fail(e, "beginning a capture");
        e = cudaStreamEndCapture(capture, &graph);
        if (ret == 0 && e != cudaSuccess)
            ret = fail(e, "capturing the frame graph");
    }
    if (ret == 0) {
        e = cudaGraphInstantiate(&slot.graph, graph, 0);
        if (e != cudaSuccess)
            ret = fail(e, "instantiating the frame graph");
    }
    if (graph)
        cudaGraphDestroy(graph);
    for (cudaEvent_t ev : ready)
        if (ev)
            cudaEventDestroy(ev);
    for (cudaEvent_t ev : done)
        if (ev)
            cudaEventDestroy(ev);
    for (cudaStream_t st : branch)
        if (st)
            cudaStreamDestroy(st);
    if (capture)
        cudaStreamDestroy(capture);
    return ret;
}

void FloatAdmCudaContext::release()
{
    if (stream)
        cudaStreamSynchronize(stream);
    for (Slot &slot : slots) {
        for (cudaEvent_t ev : slot.stage)
            if (ev)
                cudaEventDestroy(ev);
        if (slot.graph)
            cudaGraphExecDestroy(slot.graph);
        if (slot.host_accum)
            cudaFreeHost(slot.host_accum);
    }
    for (void *p : allocations)
        cudaFree(p);
    allocations.clear();
    slots.clear();
    if (own_stream && stream)
        cudaStreamDestroy(stream);
    stream = nullptr;
}

/* The layout is adm_frame.h's; device rows must run forwards, a whole row apart. */
int FloatAdmCudaContext::check_plane(const FloatAdmCudaPlane *p, const char *which)
{
    const adm::FrameSetup &frame = pipeline.frame;
    char msg[256];
    int ret = FLOAT_ADM_ERROR_INVALID;
    if (!p || !p->data) {
        snprintf(msg, sizeof(msg), "no %s plane given", which);
    } else {
        ret = adm::check_plane_layout(frame, which, p->bytes_per_sample, p->shift, msg,
                                      sizeof(msg));
        if (ret == 0 && p->pitch < (ptrdiff_t)frame.width * frame.bytes_per_sample) {
            snprintf(msg, sizeof(msg), "%s plane: pitch %td is less than a row (%d bytes)", which,
                     p->pitch, frame.width * frame.bytes_per_sample);
            ret = FLOAT_ADM_ERROR_INVALID;
        }
        if (ret == 0)
            return 0;
    }
    last_error = msg;
    return ret;
}

/* The device's per-scale band sums, pooled exactly as the CPU engine pools its own. */
void FloatAdmCudaContext::pool(const float *accum, FloatAdmScores *out) const
{
    adm::ScaleSums sums[kNumScales];
    for (int s = 0; s < kNumScales; s++)
        sums[s] = s == 0 && opts.skip_scale0 ? adm::skipped_scale_sums()
                                             : adm::scale_sums(accum + s * kNumRowSums,
                                                               pipeline.frame.scale[s].sums, opts);
    adm::pool_scales(sums, pipeline.frame.width, pipeline.frame.height, opts, out);
}

extern "C" {

const char *float_adm_cuda_strerror(int err)
{
    switch (err) {
    case FLOAT_ADM_ERROR_NO_DEVICE: return "no usable CUDA device or driver";
    case FLOAT_ADM_ERROR_DEVICE: return "CUDA call or kernel failed";
    case FLOAT_ADM_ERROR_AGAIN: return "try again: frame queue full or no frame ready";
    default: return float_adm_strerror(err);
    }
}

int float_adm_cuda_device_count(int *count, char *why, size_t why_size)
{
    if (!count)
        return FLOAT_ADM_ERROR_INVALID;
    *count = 0;
    cudaError_t e = cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        *count = 0;
        adm::format_error(why, why_size, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        return means_no_device(e) ? 0 : error_code(e);
    }
    adm::format_error(why, why_size, "%d CUDA device(s)", *count);
    return 0;
}

int float_adm_cuda_context_create(FloatAdmCudaContext **out, int width, int height,
                                  int bit_depth, const FloatAdmOptions *opts, void *stream,
                                  int max_in_flight, char *errbuf, size_t errbuf_size)
{
    if (!out || !opts) {
        adm::format_error(errbuf, errbuf_size, "no context pointer or options given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    int ret = adm::check_context(width, height, bit_depth, opts, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    if (max_in_flight < 1 || max_in_flight > kMaxInFlight) {
        adm::format_error(errbuf, errbuf_size, "max_in_flight %d is out of range (1 to %d)",
                          max_in_flight, kMaxInFlight);
        return FLOAT_ADM_ERROR_RANGE;
    }
    int devices = 0;
    char why[256];
    ret = float_adm_cuda_device_count(&devices, why, sizeof(why));
    if (ret < 0 || devices == 0) {
        adm::format_error(errbuf, errbuf_size, "no CUDA device: %s", why);
        return ret < 0 ? ret : FLOAT_ADM_ERROR_NO_DEVICE;
    }

    FloatAdmCudaContext *ctx = new (std::nothrow) FloatAdmCudaContext;
    if (!ctx) {
        adm::format_error(errbuf, errbuf_size, "out of host memory");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    try {
        ret = ctx->init(adm::frame_setup(width, height, bit_depth, *opts), *opts, stream,
                        max_in_flight);
    } catch (const std::bad_alloc &) {
        ctx->last_error = "out of host memory";
        ret = FLOAT_ADM_ERROR_NOMEM;
    }
    if (ret < 0) {
        adm::format_error(errbuf, errbuf_size, "CUDA context for %dx%d: %s", width, height,
                          ctx->last_error.c_str());
        ctx->release();
        delete ctx;
        return ret;
    }
    *out = ctx;
    return 0;
}

int float_adm_cuda_submit(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                          const FloatAdmCudaPlane *dist)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    int ret = ctx->check_plane(ref, "reference");
    if (ret < 0 || (ret = ctx->check_plane(dist, "distorted")) < 0)
        return ret;
    if (ctx->queue_count == (int)ctx->slots.size()) {
        ctx->last_error = "all frames in flight: collect one first";
        return FLOAT_ADM_ERROR_AGAIN;
    }
    Slot &slot = ctx->slots[(ctx->queue_head + ctx->queue_count) % ctx->slots.size()];
    const FloatAdmCudaPlane *planes[2] = {ref, dist};
    for (int img = 0; img < 2; img++) {
        slot.planes.data[img] = static_cast<const uint8_t *>(planes[img]->data);
        slot.planes.pitch[img] = planes[img]->pitch;
        slot.planes.shift[img] = planes[img]->shift;
    }
    slot.profiled = ctx->profiling;
    cudaError_t e;
    if (slot.profiled && (e = cudaEventRecord(slot.stage[0], ctx->stream)) != cudaSuccess)
        return ctx->fail(e, "cudaEventRecord");
    if ((ret = ctx->launch_scale0(slot)) < 0)
        return ret;
    if (slot.profiled) {
        if ((e = cudaEventRecord(slot.stage[1], ctx->stream)) != cudaSuccess)
            return ctx->fail(e, "cudaEventRecord");
        if ((ret = ctx->enqueue_profiled(slot)) < 0)
            return ret;
    } else {
        if ((e = cudaGraphLaunch(slot.graph, ctx->stream)) != cudaSuccess)
            return ctx->fail(e, "launching the frame graph");
    }
    e = cudaEventRecord(slot.stage[kNumEvents - 1], ctx->stream);
    if (e != cudaSuccess)
        return ctx->fail(e, "cudaEventRecord");
    ctx->queue_count++;
    return 0;
}

int float_adm_cuda_collect(FloatAdmCudaContext *ctx, FloatAdmScores *scores, int wait)
{
    if (!ctx || !scores)
        return FLOAT_ADM_ERROR_INVALID;
    if (!ctx->queue_count) {
        ctx->last_error = "no frame submitted";
        return FLOAT_ADM_ERROR_AGAIN;
    }
    Slot &slot = ctx->slots[ctx->queue_head];
    cudaEvent_t done = slot.stage[kNumEvents - 1];
    cudaError_t e = wait ? cudaEventSynchronize(done) : cudaEventQuery(done);
    if (e == cudaErrorNotReady)
        return FLOAT_ADM_ERROR_AGAIN;
    /* A frame whose work failed is dropped: its scores would be wrong. */
    ctx->queue_head = (ctx->queue_head + 1) % (int)ctx->slots.size();
    ctx->queue_count--;
    if (e != cudaSuccess)
        return ctx->fail(e, "the frame's kernels");
    if (slot.profiled) {
        for (int k = 0; k < FLOAT_ADM_CUDA_NUM_STAGES; k++) {
            /* Events 0..8 bound stages 0..7 in turn; stage 8 is the whole frame. */
            const int from = k < 8 ? k : 0, to = k < 8 ? k + 1 : kNumEvents - 1;
            e = cudaEventElapsedTime(&ctx->stage_ms[k], slot.stage[from], slot.stage[to]);
            if (e != cudaSuccess)
                return ctx->fail(e, "cudaEventElapsedTime");
        }
    }
    *scores = FloatAdmScores{};
    ctx->pool(slot.host_accum, scores);
    return 0;
}

int float_adm_cuda_in_flight(const FloatAdmCudaContext *ctx) { return ctx ? ctx->queue_count : 0; }

int float_adm_cuda_score_frame(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                               const FloatAdmCudaPlane *dist, FloatAdmScores *scores)
{
    if (!ctx || !scores)
        return FLOAT_ADM_ERROR_INVALID;
    if (ctx->queue_count) {
        ctx->last_error = "frames are in flight: collect them before score_frame";
        return FLOAT_ADM_ERROR_INVALID;
    }
    int ret = float_adm_cuda_submit(ctx, ref, dist);
    return ret < 0 ? ret : float_adm_cuda_collect(ctx, scores, 1);
}

int float_adm_cuda_is_exact(const FloatAdmCudaContext *ctx, char *description,
                            size_t description_size)
{
    if (!ctx)
        return 0;
    adm::format_error(description, description_size, "%s; %s", ctx->rcp_description.c_str(),
                      ctx->powf.description);
    return ctx->rcp_mode != adm::kRcpIeeeNewton && ctx->powf.exact;
}

const char *float_adm_cuda_last_error(const FloatAdmCudaContext *ctx)
{
    return ctx ? ctx->last_error.c_str() : "";
}

int float_adm_cuda_set_profiling(FloatAdmCudaContext *ctx, int enable)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    ctx->profiling = enable != 0;
    return 0;
}

int float_adm_cuda_stage_times(const FloatAdmCudaContext *ctx,
                               float ms[FLOAT_ADM_CUDA_NUM_STAGES])
{
    if (!ctx || !ms)
        return FLOAT_ADM_ERROR_INVALID;
    for (int k = 0; k < FLOAT_ADM_CUDA_NUM_STAGES; k++)
        ms[k] = ctx->stage_ms[k];
    return 0;
}

const char *float_adm_cuda_stage_name(int stage)
{
    static const char *const names[FLOAT_ADM_CUDA_NUM_STAGES] = {
        "dwt+decouple s0", "dwt+decouple s1", "dwt+decouple s2", "dwt+decouple s3",
        "row sums s0",     "row sums s1",     "row sums s2",     "row sums s3",
        "frame, profiled"};
    return stage >= 0 && stage < FLOAT_ADM_CUDA_NUM_STAGES ? names[stage] : nullptr;
}

void float_adm_cuda_context_free(FloatAdmCudaContext **ctx)
{
    if (!ctx || !*ctx)
        return;
    (*ctx)->release();
    delete *ctx;
    *ctx = nullptr;
}

} // extern "C"
