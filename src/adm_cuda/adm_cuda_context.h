/*
 * float_adm CUDA backend: a context's state (FloatAdmCudaContext), the frames in its
 * queue, and what the backend's files share about them.  Internal: included by
 * src/adm_cuda/ alone.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CUDA_CONTEXT_H
#define ADM_CUDA_CONTEXT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "adm_cuda_driver.h"
#include "adm_cuda_host.h"
#include "adm_cuda_launch.h"
#include "adm_context_setup.h"
#include "adm_map.h"
#include "adm_powf_model.h"
#include "adm_rcp_model.h"
#include "float_adm_cuda.h"

namespace adm_cuda {

constexpr int kNumEvents = FLOAT_ADM_CUDA_NUM_STAGES + 1;
constexpr int kMaxDevices = 64;

/*
 * One frame in the queue: its planes, its accumulators (pinned host memory the last
 * kernel writes), the graph of its work, the events that mark it, and for frames from
 * host memory, where their luma is staged and uploaded to, the event that marks their
 * upload, and the caller's memory pinned in place for it.
 */
struct Slot {
    InputPlanes planes = {};
    float *host_accum = nullptr;  /* pinned, mapped */
    CUdeviceptr device_accum = 0; /* the same memory, as the device sees it */
    CUgraph graph_source = nullptr; /* what graph was instantiated from: holds its nodes */
    CUgraphExec graph = nullptr;
    CUgraphNode dwt_node = nullptr; /* scale 0's DWT in graph: set to each frame's planes */
    CUevent stage[kNumEvents] = {};
    bool profiled = false;
    uint8_t *staging[2] = {}; /* pinned: reference, distorted */
    CUdeviceptr upload[2] = {};
    CUevent uploaded = nullptr;    /* on the copy stream, after the frame's uploads */
    void *pinned_in_place[2] = {}; /* cuMemHostRegister'ed until the frame is collected */
    /* (a file's pages, and memory the caller holds: until released with others,
     * FloatAdmCudaContext::retired_pages) */
    size_t pinned_bytes[2] = {};
    bool held[2] = {}; /* FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD */
    /* A plane's pages of a file (float_adm_cuda_submit_file), mapped until unpinned;
     * pinned_in_place then points into them. */
    struct FileMapping {
        void *address = nullptr;
        size_t bytes = 0;
    } file_mapped[2];
    /* With a map: its sums per scale, [scale][block row][block column][MapSum], as the
     * map kernels write them (blocks the sums regions miss stay 0), and their copy in
     * pinned memory, made on the context's map_stream after the frame's kernels:
     * map_copied marks it. */
    CUdeviceptr device_map = 0;
    double *host_map = nullptr;
    CUevent map_copied = nullptr;
};

/* Codes of the driver's errors that mean "no usable device" rather than a failure. */
bool means_no_device(CUresult e);
/* The library's code for a driver's error. */
int error_code(CUresult e);
/* The cap on a context's device allocations (a test hook; SIZE_MAX in the library). */
size_t memory_limit_from_env();

template <class T> T *device_pointer(CUdeviceptr p) { return reinterpret_cast<T *>((uintptr_t)p); }

} // namespace adm_cuda

/* The backend's sources, this header's context included, work in adm_cuda's names. */
using adm::kNumRowSums;
using adm::kNumScales;
using namespace adm_cuda;

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
    /* Host planes are uploaded on a stream of their own, beside the kernels of the frames
     * before; those copied first into pinned memory are copied on host_threads threads. */
    CUstream copy_stream = nullptr;
    int host_threads = 0; /* 0: the library's choice, made at the first copy */
    std::unique_ptr<adm::ThreadPool> host_pool;
    unsigned register_flags = 0;  /* cuMemHostRegister's, for planes read in place */
    /*
     * Pages pinned for frames collected, still pinned: unpinning waits for all the work
     * in flight on the device (and spins a core meanwhile), so those of a frame are
     * unpinned with those of the frames after it, when nothing is in flight or when they
     * reach kRetiredPlanes planes, kRetiredBytes or kRetiredFrames frames (the caller
     * keeps the memory of held_frames frames).  They are files' pages in the
     * library's own mappings, which no caller sees, and memory a caller holds for it
     * (FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD; held_frames counts the frames it keeps).  Any
     * other memory of a caller's is unpinned when its frame is collected, as promised.
     */
    struct RetiredPlane {
        void *pinned = nullptr; /* nullptr: none pinned */
        size_t pinned_bytes = 0;
        Slot::FileMapping mapping; /* a file's pages, unmapped once unpinned */
    };
    static constexpr size_t kRetiredPlanes = 16;
    static constexpr size_t kRetiredBytes = (size_t)256 << 20;
    static constexpr int kRetiredFrames = (int)kRetiredPlanes / 2;
    std::vector<RetiredPlane> retired_pages;
    size_t retired_bytes = 0;
    int held_frames = 0;          /* frames collected since the retired pages were last released */
    bool host_frame_lent = false; /* float_adm_cuda_host_frame gave the next slot's buffers */
    bool profiling = false;
    float stage_ms[FLOAT_ADM_CUDA_NUM_STAGES] = {};
    std::string last_error;
    bool submitted = false; /* a frame was submitted: too late to enable a map */
    /* With a map: the map of the frame last collected (readable once it is collected
     * whole, until the next collect), its loss computed on the host as the CPU's when
     * first read (libm's pow per block and scale costs more host time than the
     * device's frame). */
    std::unique_ptr<adm::FrameMap> map;
    bool map_collected = false; /* map holds the sums of the frame last collected */
    CUstream map_stream = nullptr; /* the maps' copies, beside the next frames' kernels */
    CUdeviceptr map_coefficients[kNumScales] = {}; /* Pipeline::map_coefficients' memory */

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
    void destroy_graph(Slot &slot);
    int enable_map();
    size_t map_doubles() const;
    int launch_maps(Slot &slot, int scale, CUstream on);
    int copy_map(Slot &slot);
    int check_plane(const void *data, ptrdiff_t pitch, int bytes_per_sample, int shift,
                    const char *which, bool device);
    int make_upload_buffers();
    int start_host_pool();
    InPlaceRows pin_in_place(Slot &slot, int img, const FloatAdmCudaPlane &plane);
    void unpin(Slot &slot, bool collected);
    void release_retired_pages();
    int upload_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane);
    int upload_file_plane(Slot &slot, int img, const FloatAdmCudaFilePlane &file);
    int read_file_rows(Slot &slot, int img, const FloatAdmCudaFilePlane &file, int first, int end,
                       int parts);
    int upload_rows(Slot &slot, int img, const uint8_t *src, size_t pitch, int first, int end);
    int upload_staged(Slot &slot, int img, const uint8_t *src, size_t pitch, int shift);
    int submit_planes(Slot &slot, const FloatAdmCudaPlane *const (&planes)[2]);
    void abandon(Slot &slot);
    int launch_frame(Slot &slot, bool after_upload);
    void pool_scales(const float *accum, FloatAdmScores *out) const;
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

#endif /* ADM_CUDA_CONTEXT_H */
