/*
 * float_adm CUDA backend: contexts, buffers, the frame queue and the host's part of
 * the arithmetic (powf of the device's accumulators, pooling over scales), through
 * the CUDA driver API loaded at run time (adm_cuda_driver.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "adm_cuda_driver.h"
#include "adm_cuda_launch.h"
#include "adm_frame.h"
#include "adm_internal.h"
#include "adm_pooling.h"
#include "adm_powf_model.h"
#include "adm_rcp_model.h"
#include "float_adm_cuda.h"

using adm::kNumRowSums;
using adm::kNumScales;
using namespace adm_cuda;

namespace {

constexpr int kAccumFloats = kNumScales * kNumRowSums;
constexpr int kMaxInFlight = 16;
constexpr int kNumEvents = FLOAT_ADM_CUDA_NUM_STAGES + 1;
/* Rows of the device copies of host frames start on this boundary. */
constexpr size_t kUploadAlign = 256;

/*
 * One frame in the queue: its planes, its accumulators (pinned host memory the last
 * kernel writes), the graph of its work after scale 0, the events that mark it, and
 * for frames from host memory, where their luma is staged and uploaded to.
 */
struct Slot {
    InputPlanes planes = {};
    float *host_accum = nullptr;  /* pinned, mapped */
    CUdeviceptr device_accum = 0; /* the same memory, as the device sees it */
    CUgraphExec graph = nullptr;
    CUevent stage[kNumEvents] = {};
    bool profiled = false;
    uint8_t *staging[2] = {}; /* pinned: reference, distorted */
    CUdeviceptr upload[2] = {};
};

/* Codes of the driver's errors that mean "no usable device" rather than a failure. */
bool means_no_device(CUresult e)
{
    return e == CUDA_ERROR_NO_DEVICE || e == CUDA_ERROR_NOT_INITIALIZED ||
           e == CUDA_ERROR_STUB_LIBRARY || e == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
           e == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE || e == CUDA_ERROR_DEVICE_UNAVAILABLE ||
           e == CUDA_ERROR_INVALID_DEVICE || e == CUDA_ERROR_NO_BINARY_FOR_GPU ||
           e == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || e == CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
}

int error_code(CUresult e)
{
    if (e == CUDA_ERROR_OUT_OF_MEMORY)
        return FLOAT_ADM_ERROR_NOMEM;
    return means_no_device(e) ? FLOAT_ADM_ERROR_NO_DEVICE : FLOAT_ADM_ERROR_DEVICE;
}

#ifdef FLOAT_ADM_TEST_HOOKS
/*
 * Test hook, in test builds only (tests/cuda/module.mk defines FLOAT_ADM_TEST_HOOKS):
 * FLOAT_ADM_CUDA_MEMORY_LIMIT=<bytes>, read when a context is created, caps that
 * context's device allocations; one that would pass the cap fails as the driver's own
 * CUDA_ERROR_OUT_OF_MEMORY does, so tests can reach the out-of-memory path.  Unset,
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

template <class T> T *device_pointer(CUdeviceptr p) { return reinterpret_cast<T *>((uintptr_t)p); }

/*
 * A device's primary context, for contexts made where none is current (device 0) or
 * on a device by number: retained once and kept for the life of the process, as the
 * CUDA runtime keeps it, with the kernels loaded into it once (the driver compiles the
 * PTX when it is loaded: once per process, not once per context).
 */
struct PrimaryContext {
    std::mutex lock;
    CUcontext ctx = nullptr;
    Kernels kernels;
};

constexpr int kMaxDevices = 64;

PrimaryContext &primary_context(int device)
{
    static PrimaryContext primary[kMaxDevices];
    return primary[device];
}

} // namespace

struct FloatAdmCudaContext {
    const CudaDriver *cu = nullptr;
    CUcontext cuda_ctx = nullptr;
    int primary_device = -1; /* >= 0: cuda_ctx is that device's primary_context() */
    Kernels own_kernels;     /* loaded into a context the caller made current */
    const Kernels *kernels = &own_kernels;
    FloatAdmOptions opts = {};
    CUstream stream = nullptr;
    bool own_stream = false;
    Pipeline pipeline = {};
    std::vector<CUdeviceptr> allocations;
    size_t device_bytes = 0;
    size_t device_bytes_limit = memory_limit_from_env();
    adm::RcpMode rcp_mode = adm::kRcpModelExact;
    std::string rcp_description;
    adm::PowfChoice powf = {}; /* the terms' powf on the device */
    std::vector<Slot> slots;
    int queue_head = 0, queue_count = 0;
    size_t upload_pitch = 0; /* of the device copies of host frames; 0 until the first */
    bool profiling = false;
    float stage_ms[FLOAT_ADM_CUDA_NUM_STAGES] = {};
    std::string last_error;

    /* Record a failed driver call; returns the library's code for it. */
    int fail(CUresult e, const char *what)
    {
        char text[256], msg[512];
        cuda_describe(e, text, sizeof(text));
        snprintf(msg, sizeof(msg), "%s failed: %s%s", what, text,
                 e == CUDA_ERROR_OUT_OF_MEMORY ? ": not enough device memory" : "");
        last_error = msg;
        return error_code(e);
    }

    int device_alloc(CUdeviceptr *ptr, size_t bytes, const char *what)
    {
        CUresult e = bytes > device_bytes_limit - device_bytes ? CUDA_ERROR_OUT_OF_MEMORY
                                                               : cu->cuMemAlloc(ptr, bytes);
        if (e != CUDA_SUCCESS)
            return fail(e, what);
        allocations.push_back(*ptr);
        device_bytes += bytes;
        e = cu->cuMemsetD8(*ptr, 0, bytes);
        return e == CUDA_SUCCESS ? 0 : fail(e, what);
    }

    int attach(int device, char *errbuf, size_t errbuf_size);
    int load(char *error, size_t error_size);
    int init(const adm::FrameSetup &frame, const FloatAdmOptions &o, void *user_stream,
             int in_flight);
    int enqueue_profiled(Slot &slot);
    int enqueue_branches(Slot &slot, CUstream main, const CUstream (&branch)[kNumScales - 1],
                         const CUevent (&ready)[kNumScales - 1],
                         const CUevent (&done)[kNumScales - 1]);
    int capture_graph(Slot &slot);
    int check_plane(const void *data, ptrdiff_t pitch, int bytes_per_sample, int shift,
                    const char *which, bool device);
    int stage_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane);
    int launch_frame(Slot &slot);
    void pool(const float *accum, FloatAdmScores *out) const;
    void release();
};

/* Every call of the API runs in the context's CUDA context, and leaves the caller's current. */
class ContextScope {
public:
    explicit ContextScope(const FloatAdmCudaContext *ctx) : cu_(ctx->cu)
    {
        pushed_ = cu_->cuCtxPushCurrent(ctx->cuda_ctx) == CUDA_SUCCESS;
    }
    ~ContextScope()
    {
        CUcontext popped;
        if (pushed_)
            cu_->cuCtxPopCurrent(&popped);
    }
    bool ok() const { return pushed_; }

private:
    const CudaDriver *cu_;
    bool pushed_ = false;
};

#define CU_TRY(call, what)                                                                         \
    do {                                                                                           \
        CUresult e_ = (call);                                                                      \
        if (e_ != CUDA_SUCCESS)                                                                    \
            return fail(e_, what);                                                                 \
    } while (0)

/*
 * The CUDA context to work in: device's primary context where device >= 0; else the
 * one current to this thread (an FFmpeg hwcontext pushes its own), or device 0's
 * primary context where none is.
 */
int FloatAdmCudaContext::attach(int device, char *errbuf, size_t errbuf_size)
{
    CUresult e = CUDA_SUCCESS;
    cuda_ctx = nullptr;
    if (device < 0) {
        e = cu->cuCtxGetCurrent(&cuda_ctx);
        device = 0;
    }
    if (e == CUDA_SUCCESS && !cuda_ctx) {
        PrimaryContext &primary = primary_context(device);
        std::lock_guard<std::mutex> guard(primary.lock);
        if (!primary.ctx) {
            CUdevice dev = 0;
            e = cu->cuDeviceGet(&dev, device);
            if (e == CUDA_SUCCESS)
                e = cu->cuDevicePrimaryCtxRetain(&primary.ctx, dev);
            if (e != CUDA_SUCCESS)
                primary.ctx = nullptr;
        }
        cuda_ctx = primary.ctx;
        primary_device = cuda_ctx ? device : -1;
    }
    if (e != CUDA_SUCCESS) {
        char text[256];
        cuda_describe(e, text, sizeof(text));
        adm::format_error(errbuf, errbuf_size, "no CUDA context on device %d: %s", device, text);
        cuda_ctx = nullptr;
        return error_code(e);
    }
    return 0;
}

/* The kernels, in the primary context once per process, else into the caller's context. */
int FloatAdmCudaContext::load(char *error, size_t error_size)
{
    CUresult e = CUDA_SUCCESS;
    if (primary_device >= 0) {
        PrimaryContext &primary = primary_context(primary_device);
        std::lock_guard<std::mutex> guard(primary.lock);
        if (!primary.kernels.module)
            e = load_kernels(*cu, &primary.kernels, error, error_size);
        kernels = &primary.kernels;
    } else {
        e = load_kernels(*cu, &own_kernels, error, error_size);
    }
    return e == CUDA_SUCCESS ? 0 : error_code(e);
}

int FloatAdmCudaContext::init(const adm::FrameSetup &frame, const FloatAdmOptions &o,
                              void *user_stream, int in_flight)
{
    opts = o;
    Pipeline &pl = pipeline;
    pl.frame = frame;

    /* The host's division, reproduced from the probed table. */
    const adm::RcpProbe &probe = adm::rcp_probe_host();
    char line[2600];
    adm::rcp_probe_describe(probe, line, sizeof(line));
    rcp_description = line;
    rcp_mode = probe.mode;
    /* The host's powf, reproduced by a checked model of glibc's. */
    powf = adm::powf_choose(frame.cube, frame.p);
    pl.powf_mode = powf.mode;

    int ret = load(line, sizeof(line));
    if (ret < 0) {
        last_error = line;
        return ret;
    }
    if (user_stream) {
        stream = static_cast<CUstream>(user_stream);
    } else {
        CU_TRY(cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        own_stream = true;
    }

    CUdeviceptr p = 0;
    ret = device_alloc(&p, sizeof(probe.table), "allocating the reciprocal table");
    if (ret < 0)
        return ret;
    CU_TRY(cu->cuMemcpyHtoD(p, probe.table, sizeof(probe.table)), "copying the reciprocal table");
    pl.divide.table = device_pointer<const uint32_t>(p);
    pl.divide.mode = probe.mode;

    /* Bands with the CPU engine's strides, zeroed; each scale its own (see Pipeline). */
    for (int s = 0; s < kNumScales; s++) {
        pl.band_floats[s] = pl.frame.scale[s].stride * pl.frame.scale[s].h;
        const size_t band = (size_t)pl.band_floats[s] * sizeof(float);
        for (int img = 0; img < 2; img++) {
            if ((ret = device_alloc(&p, band, "allocating the DWT bands")) < 0)
                return ret;
            pl.approx[img][s] = device_pointer<float>(p);
        }
        if ((ret = device_alloc(&p, kDetailBands * band, "allocating the CSF bands")) < 0)
            return ret;
        pl.bands[s] = device_pointer<float>(p);
    }
    ret = device_alloc(&p, kNumScales * sizeof(unsigned), "allocating the block counters");
    if (ret < 0)
        return ret;
    pl.blocks_done = device_pointer<unsigned>(p);
    pl.rows_max = pl.frame.scale[0].h;
    ret = device_alloc(&p, (size_t)kAccumFloats * pl.rows_max * sizeof(float),
                       "allocating the row sums");
    if (ret < 0)
        return ret;
    pl.row_sums = device_pointer<float>(p);
    CU_TRY(plan_launches(*cu, *kernels, pl), "planning the kernels' launches");

    slots.resize(in_flight);
    for (Slot &slot : slots) {
        void *host = nullptr;
        CU_TRY(cu->cuMemHostAlloc(&host, kAccumFloats * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP),
               "allocating pinned memory");
        slot.host_accum = static_cast<float *>(host);
        /* A skipped scale 0 is never written; pool() does not read it either. */
        for (int k = 0; k < kAccumFloats; k++)
            slot.host_accum[k] = 0.0f;
        CU_TRY(cu->cuMemHostGetDevicePointer(&slot.device_accum, host, 0), "mapping pinned memory");
        for (CUevent &ev : slot.stage)
            CU_TRY(cu->cuEventCreate(&ev, CU_EVENT_DEFAULT), "cuEventCreate");
        if ((ret = capture_graph(slot)) < 0)
            return ret;
    }
    return 0;
}

/*
 * The rest of a frame's work, profiled: in stream order, the DWT of scales 1 to 3,
 * then the row sums of each scale (each folding its rows into the slot's
 * accumulators), with events between the stages.
 */
int FloatAdmCudaContext::enqueue_profiled(Slot &slot)
{
    float *accum = device_pointer<float>(slot.device_accum);
    /* Events (see float_adm_cuda_collect): 1 + s after scale s's DWT, 5 + s after its sums. */
    for (int s = 1; s < kNumScales; s++) {
        CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, s, slot.planes, stream),
               "launching the DWT/decouple kernel");
        CU_TRY(cu->cuEventRecord(slot.stage[1 + s], stream), "cuEventRecord");
    }
    for (int s = 0; s < kNumScales; s++) {
        CU_TRY(launch_row_sums(*cu, *kernels, pipeline, s, accum, stream),
               "launching the row-sums kernel");
        CU_TRY(cu->cuEventRecord(slot.stage[5 + s], stream), "cuEventRecord");
    }
    return 0;
}

/*
 * The rest of a frame's work as captured from `main`: the DWT of scales 1 to 3 in
 * turn, and the row sums of scale s on a branch of its own as soon as scale s's DWT
 * is done, so that they fill the machine beside the small DWTs after it.  The
 * branches join main at the end.
 */
int FloatAdmCudaContext::enqueue_branches(Slot &slot, CUstream main,
                                          const CUstream (&branch)[kNumScales - 1],
                                          const CUevent (&ready)[kNumScales - 1],
                                          const CUevent (&done)[kNumScales - 1])
{
    float *accum = device_pointer<float>(slot.device_accum);
    for (int s = 0; s < kNumScales - 1; s++) {
        if (s > 0)
            CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, s, slot.planes, main),
                   "launching the DWT/decouple kernel");
        CU_TRY(cu->cuEventRecord(ready[s], main), "cuEventRecord");
        CU_TRY(cu->cuStreamWaitEvent(branch[s], ready[s], 0), "cuStreamWaitEvent");
        CU_TRY(launch_row_sums(*cu, *kernels, pipeline, s, accum, branch[s]),
               "launching the row-sums kernel");
        CU_TRY(cu->cuEventRecord(done[s], branch[s]), "cuEventRecord");
    }
    const int last = kNumScales - 1;
    CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, last, slot.planes, main),
           "launching the DWT/decouple kernel");
    CU_TRY(launch_row_sums(*cu, *kernels, pipeline, last, accum, main),
           "launching the row-sums kernel");
    for (int s = 0; s < kNumScales - 1; s++)
        CU_TRY(cu->cuStreamWaitEvent(main, done[s], 0), "cuStreamWaitEvent");
    return 0;
}

/* The frame's work after scale 0 as one graph: one launch instead of several calls. */
int FloatAdmCudaContext::capture_graph(Slot &slot)
{
    CUstream capture = nullptr, branch[kNumScales - 1] = {};
    CUevent ready[kNumScales - 1] = {}, done[kNumScales - 1] = {};
    CUgraph graph = nullptr;
    int ret = 0;
    CUresult e = cu->cuStreamCreate(&capture, CU_STREAM_NON_BLOCKING);
    for (CUstream &st : branch)
        if (e == CUDA_SUCCESS)
            e = cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
    for (CUevent &ev : ready)
        if (e == CUDA_SUCCESS)
            e = cu->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
    for (CUevent &ev : done)
        if (e == CUDA_SUCCESS)
            e = cu->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
    if (e != CUDA_SUCCESS)
        ret = fail(e, "creating the capture's streams and events");
    if (ret == 0) {
        e = cu->cuStreamBeginCapture(capture, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
        ret = e == CUDA_SUCCESS ? enqueue_branches(slot, capture, branch, ready, done)
                                : fail(e, "beginning a capture");
        e = cu->cuStreamEndCapture(capture, &graph);
        if (ret == 0 && e != CUDA_SUCCESS)
            ret = fail(e, "capturing the frame graph");
    }
    if (ret == 0) {
        e = cu->cuGraphInstantiate(&slot.graph, graph, 0);
        if (e != CUDA_SUCCESS)
            ret = fail(e, "instantiating the frame graph");
    }
    if (graph)
        cu->cuGraphDestroy(graph);
    for (CUevent ev : ready)
        if (ev)
            cu->cuEventDestroy(ev);
    for (CUevent ev : done)
        if (ev)
            cu->cuEventDestroy(ev);
    for (CUstream st : branch)
        if (st)
            cu->cuStreamDestroy(st);
    if (capture)
        cu->cuStreamDestroy(capture);
    return ret;
}

void FloatAdmCudaContext::release()
{
    if (stream)
        cu->cuStreamSynchronize(stream);
    for (Slot &slot : slots) {
        for (CUevent ev : slot.stage)
            if (ev)
                cu->cuEventDestroy(ev);
        if (slot.graph)
            cu->cuGraphExecDestroy(slot.graph);
        if (slot.host_accum)
            cu->cuMemFreeHost(slot.host_accum);
        for (uint8_t *staging : slot.staging)
            if (staging)
                cu->cuMemFreeHost(staging);
    }
    for (CUdeviceptr p : allocations)
        cu->cuMemFree(p);
    allocations.clear();
    slots.clear();
    if (own_stream && stream)
        cu->cuStreamDestroy(stream);
    stream = nullptr;
    unload_kernels(*cu, &own_kernels);
}

/*
 * The layout is adm_frame.h's; device rows must run forwards, a whole row apart (host
 * rows may run backwards: they are staged row by row).
 */
int FloatAdmCudaContext::check_plane(const void *data, ptrdiff_t pitch, int bytes_per_sample,
                                     int shift, const char *which, bool device)
{
    const adm::FrameSetup &frame = pipeline.frame;
    const ptrdiff_t row = (ptrdiff_t)frame.width * frame.bytes_per_sample;
    char msg[256];
    int ret = FLOAT_ADM_ERROR_INVALID;
    if (!data) {
        snprintf(msg, sizeof(msg), "no %s plane given", which);
    } else {
        ret = adm::check_plane_layout(frame, which, bytes_per_sample, shift, msg, sizeof(msg));
        if (ret == 0 && (device ? pitch : (pitch < 0 ? -pitch : pitch)) < row) {
            snprintf(msg, sizeof(msg), "%s plane: %s %td is less than a row (%td bytes)", which,
                     device ? "pitch" : "stride", pitch, row);
            ret = FLOAT_ADM_ERROR_INVALID;
        }
        if (ret == 0)
            return 0;
    }
    last_error = msg;
    return ret;
}

/*
 * A plane from host memory: its luma copied into the slot's pinned buffer (the caller
 * may reuse its own at once), then uploaded on the stream ahead of the kernels.  The
 * buffers are made on the first such plane, for every slot.
 */
int FloatAdmCudaContext::stage_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    if (!upload_pitch) {
        const size_t pitch = (row + kUploadAlign - 1) / kUploadAlign * kUploadAlign;
        for (Slot &s : slots) {
            for (int k = 0; k < 2; k++) {
                void *host = nullptr;
                CU_TRY(cu->cuMemHostAlloc(&host, row * frame.height, 0),
                       "allocating pinned staging memory");
                s.staging[k] = static_cast<uint8_t *>(host);
                int ret = device_alloc(&s.upload[k], pitch * frame.height,
                                       "allocating the device copies of host frames");
                if (ret < 0)
                    return ret;
            }
        }
        upload_pitch = pitch;
    }
    const uint8_t *src = static_cast<const uint8_t *>(plane.data);
    for (int y = 0; y < frame.height; y++)
        memcpy(slot.staging[img] + y * row, src + y * plane.pitch, row);
    CudaMemcpy2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = slot.staging[img];
    copy.srcPitch = row;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = slot.upload[img];
    copy.dstPitch = upload_pitch;
    copy.WidthInBytes = row;
    copy.Height = frame.height;
    CU_TRY(cu->cuMemcpy2DAsync(&copy, stream), "uploading a frame");
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = plane.shift;
    return 0;
}

/* The frame's kernels after its planes (and their upload) are on the stream. */
int FloatAdmCudaContext::launch_frame(Slot &slot)
{
    slot.profiled = profiling;
    if (slot.profiled)
        CU_TRY(cu->cuEventRecord(slot.stage[0], stream), "cuEventRecord");
    /* Scale 0 takes the frame's planes as its argument: launched directly, so that the
     * graph after it is the same for every frame. */
    CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, 0, slot.planes, stream),
           "launching the DWT/decouple kernel");
    if (slot.profiled) {
        CU_TRY(cu->cuEventRecord(slot.stage[1], stream), "cuEventRecord");
        int ret = enqueue_profiled(slot);
        if (ret < 0)
            return ret;
    } else {
        CU_TRY(cu->cuGraphLaunch(slot.graph, stream), "launching the frame graph");
    }
    CU_TRY(cu->cuEventRecord(slot.stage[kNumEvents - 1], stream), "cuEventRecord");
    queue_count++;
    return 0;
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

namespace {

/* The slot the next submission takes, or nullptr (AGAIN) when every one is in flight. */
Slot *free_slot(FloatAdmCudaContext *ctx)
{
    if (ctx->queue_count == (int)ctx->slots.size()) {
        ctx->last_error = "all frames in flight: collect one first";
        return nullptr;
    }
    return &ctx->slots[(ctx->queue_head + ctx->queue_count) % ctx->slots.size()];
}

int no_driver(char *why, size_t why_size)
{
    const char *text = nullptr;
    CUresult code = CUDA_SUCCESS;
    if (cuda_driver(&text, &code))
        return 0;
    adm::format_error(why, why_size, "%s", text);
    return means_no_device(code) ? FLOAT_ADM_ERROR_NO_DEVICE : error_code(code);
}

} // namespace

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
    const int ret = no_driver(why, why_size);
    if (ret < 0)
        return ret == FLOAT_ADM_ERROR_NO_DEVICE ? 0 : ret;
    const CudaDriver *cu = cuda_driver(nullptr, nullptr);
    const CUresult e = cu->cuDeviceGetCount(count);
    if (e != CUDA_SUCCESS) {
        *count = 0;
        char text[256];
        cuda_describe(e, text, sizeof(text));
        adm::format_error(why, why_size, "%s", text);
        return means_no_device(e) ? 0 : error_code(e);
    }
    adm::format_error(why, why_size, "%d CUDA device(s)", *count);
    return 0;
}

namespace {

/* device: a device's primary context, or -1 for the current context (else device 0's). */
int create_context(FloatAdmCudaContext **out, int device, int width, int height, int bit_depth,
                   const FloatAdmOptions *opts, void *stream, int max_in_flight, char *errbuf,
                   size_t errbuf_size)
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
    char why[512];
    ret = float_adm_cuda_device_count(&devices, why, sizeof(why));
    if (ret < 0 || devices == 0) {
        adm::format_error(errbuf, errbuf_size, "no CUDA device: %s", why);
        return ret < 0 ? ret : FLOAT_ADM_ERROR_NO_DEVICE;
    }
    if (device >= devices || device >= kMaxDevices) {
        adm::format_error(errbuf, errbuf_size, "CUDA device %d: there are %d (0 to %d)", device,
                          devices, devices - 1);
        return FLOAT_ADM_ERROR_RANGE;
    }

    FloatAdmCudaContext *ctx = new (std::nothrow) FloatAdmCudaContext;
    if (!ctx) {
        adm::format_error(errbuf, errbuf_size, "out of host memory");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    ctx->cu = cuda_driver(nullptr, nullptr);
    if ((ret = ctx->attach(device, errbuf, errbuf_size)) < 0) {
        delete ctx;
        return ret;
    }
    {
        ContextScope scope(ctx);
        try {
            ret = scope.ok() ? ctx->init(adm::frame_setup(width, height, bit_depth, *opts), *opts,
                                         stream, max_in_flight)
                             : ctx->fail(CUDA_ERROR_INVALID_DEVICE, "making the context current");
        } catch (const std::bad_alloc &) {
            ctx->last_error = "out of host memory";
            ret = FLOAT_ADM_ERROR_NOMEM;
        }
        if (ret < 0)
            adm::format_error(errbuf, errbuf_size, "CUDA context for %dx%d: %s", width, height,
                              ctx->last_error.c_str());
    }
    if (ret < 0) {
        float_adm_cuda_context_free(&ctx);
        return ret;
    }
    *out = ctx;
    return 0;
}

} // namespace

int float_adm_cuda_context_create(FloatAdmCudaContext **out, int width, int height, int bit_depth,
                                  const FloatAdmOptions *opts, void *stream, int max_in_flight,
                                  char *errbuf, size_t errbuf_size)
{
    return create_context(out, -1, width, height, bit_depth, opts, stream, max_in_flight, errbuf,
                          errbuf_size);
}

int float_adm_cuda_context_create_on_device(FloatAdmCudaContext **out, int device, int width,
                                            int height, int bit_depth, const FloatAdmOptions *opts,
                                            int max_in_flight, char *errbuf, size_t errbuf_size)
{
    if (device < 0) {
        adm::format_error(errbuf, errbuf_size, "CUDA device %d: not a device number", device);
        return FLOAT_ADM_ERROR_RANGE;
    }
    return create_context(out, device, width, height, bit_depth, opts, nullptr, max_in_flight,
                          errbuf, errbuf_size);
}

int float_adm_cuda_submit(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                          const FloatAdmCudaPlane *dist)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    const FloatAdmCudaPlane *planes[2] = {ref, dist};
    static const char *const names[2] = {"reference", "distorted"};
    for (int img = 0; img < 2; img++) {
        const FloatAdmCudaPlane *p = planes[img];
        int ret = ctx->check_plane(p ? p->data : nullptr, p ? p->pitch : 0,
                                   p ? p->bytes_per_sample : 0, p ? p->shift : 0, names[img],
                                   p && !p->in_host_memory);
        if (ret < 0)
            return ret;
    }
    Slot *slot = free_slot(ctx);
    if (!slot)
        return FLOAT_ADM_ERROR_AGAIN;
    ContextScope scope(ctx);
    for (int img = 0; img < 2; img++) {
        if (planes[img]->in_host_memory) {
            int ret = ctx->stage_host_plane(*slot, img, *planes[img]);
            if (ret < 0)
                return ret;
        } else {
            slot->planes.data[img] = static_cast<const uint8_t *>(planes[img]->data);
            slot->planes.pitch[img] = planes[img]->pitch;
            slot->planes.shift[img] = planes[img]->shift;
        }
    }
    return ctx->launch_frame(*slot);
}

int float_adm_cuda_submit_host(FloatAdmCudaContext *ctx, const FloatAdmPlane *ref,
                               const FloatAdmPlane *dist)
{
    FloatAdmCudaPlane planes[2] = {};
    const FloatAdmPlane *host[2] = {ref, dist};
    for (int img = 0; img < 2; img++)
        if (host[img])
            planes[img] = FloatAdmCudaPlane{host[img]->data, host[img]->stride,
                                            host[img]->bytes_per_sample, host[img]->shift, 1};
    return float_adm_cuda_submit(ctx, host[0] ? &planes[0] : nullptr,
                                 host[1] ? &planes[1] : nullptr);
}

int float_adm_cuda_collect(FloatAdmCudaContext *ctx, FloatAdmScores *scores, int wait)
{
    if (!ctx || !scores)
        return FLOAT_ADM_ERROR_INVALID;
    if (!ctx->queue_count) {
        ctx->last_error = "no frame submitted";
        return FLOAT_ADM_ERROR_AGAIN;
    }
    ContextScope scope(ctx);
    const CudaDriver &cu = *ctx->cu;
    Slot &slot = ctx->slots[ctx->queue_head];
    CUevent done = slot.stage[kNumEvents - 1];
    CUresult e = wait ? cu.cuEventSynchronize(done) : cu.cuEventQuery(done);
    if (e == CUDA_ERROR_NOT_READY)
        return FLOAT_ADM_ERROR_AGAIN;
    /* A frame whose work failed is dropped: its scores would be wrong. */
    ctx->queue_head = (ctx->queue_head + 1) % (int)ctx->slots.size();
    ctx->queue_count--;
    if (e != CUDA_SUCCESS)
        return ctx->fail(e, "the frame's kernels");
    if (slot.profiled) {
        for (int k = 0; k < FLOAT_ADM_CUDA_NUM_STAGES; k++) {
            /* Events 0..8 bound stages 0..7 in turn; stage 8 is the whole frame. */
            const int from = k < 8 ? k : 0, to = k < 8 ? k + 1 : kNumEvents - 1;
            e = cu.cuEventElapsedTime(&ctx->stage_ms[k], slot.stage[from], slot.stage[to]);
            if (e != CUDA_SUCCESS)
                return ctx->fail(e, "cuEventElapsedTime");
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
    adm::format_error(description, description_size, "%s; %s; %s", ctx->rcp_description.c_str(),
                      ctx->powf.description, kernel_image_kind());
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

const char *float_adm_cuda_build(void) { return kernel_image_kind(); }

void float_adm_cuda_context_free(FloatAdmCudaContext **ctx)
{
    if (!ctx || !*ctx)
        return;
    FloatAdmCudaContext *c = *ctx;
    if (c->cuda_ctx) {
        ContextScope scope(c);
        c->release();
    }
    delete c;
    *ctx = nullptr;
}

} // extern "C"
