/*
 * float_adm CUDA backend: a context's setup (the host's division and powf, the
 * kernels, its stream, device buffers, pinned accumulators, events and frame graphs
 * of its queue's slots) and its release.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cstdlib>

#include "adm_cuda_context.h"

namespace adm_cuda {

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

} // namespace adm_cuda

namespace {

constexpr int kAccumFloats = kNumScales * kNumRowSums;

} // namespace

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
    CU_TRY(cu->cuStreamCreate(&copy_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    /* Planes read in place are only read: pinned so where the device allows it. */
    CUdevice device = 0;
    int read_only = 0;
    if (cu->cuCtxGetDevice(&device) == CUDA_SUCCESS &&
        cu->cuDeviceGetAttribute(&read_only, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED,
                                 device) == CUDA_SUCCESS &&
        read_only)
        register_flags = CU_MEMHOSTREGISTER_READ_ONLY;

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
    retired_pages.reserve(kRetiredPlanes + 2); /* unpin() never allocates */
    for (Slot &slot : slots) {
        void *host = nullptr;
        CU_TRY(cu->cuMemHostAlloc(&host, kAccumFloats * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP),
               "allocating pinned memory");
        slot.host_accum = static_cast<float *>(host);
        /* A skipped scale 0 is never written; pool_scales() does not read it either. */
        for (int k = 0; k < kAccumFloats; k++)
            slot.host_accum[k] = 0.0f;
        CU_TRY(cu->cuMemHostGetDevicePointer(&slot.device_accum, host, 0), "mapping pinned memory");
        /* The frame's last event is waited on: blocking, so that a caller waiting for a
         * frame sleeps instead of spinning a core. */
        for (CUevent &ev : slot.stage)
            CU_TRY(cu->cuEventCreate(&ev, &ev == &slot.stage[kNumEvents - 1]
                                              ? CU_EVENT_BLOCKING_SYNC
                                              : CU_EVENT_DEFAULT),
                   "cuEventCreate");
        CU_TRY(cu->cuEventCreate(&slot.uploaded, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        if ((ret = capture_graph(slot)) < 0)
            return ret;
    }
    return 0;
}

/*
 * Maps from the next frame on: the map coefficients in device memory, each slot's
 * blocks in device and pinned memory, and the slots' graphs captured again with the
 * map kernels.
 */
int FloatAdmCudaContext::enable_map()
{
    Pipeline &pl = pipeline;
    map.reset(new adm::FrameMap(pl.frame, opts));
    pl.map_columns = map->columns();
    pl.map_rows = map->rows();
    /* Each buffer once: a call after one that failed takes what that one allocated. */
    int ret = 0;
    for (int s = 0; s < kNumScales; s++) {
        const adm::Region &sums = pl.frame.scale[s].sums;
        const size_t coefficients = (size_t)sum_rows(pl, s) * std::max(0, sums.right - sums.left);
        if (coefficients == 0)
            continue; /* no row sums, no map kernel */
        if (!map_coefficients[s] &&
            (ret = device_alloc(&map_coefficients[s],
                                coefficients * adm::kNumMapSums * sizeof(double),
                                "allocating the map's coefficients")) < 0)
            break;
    }
    if (ret == 0 && !map_stream) {
        CUresult e = cu->cuStreamCreate(&map_stream, CU_STREAM_NON_BLOCKING);
        if (e != CUDA_SUCCESS)
            ret = fail(e, "creating the maps' stream");
    }
    for (Slot &slot : slots) {
        if (ret < 0)
            break;
        if (!slot.device_map &&
            (ret = device_alloc(&slot.device_map, map_doubles() * sizeof(double),
                                "allocating the map's blocks")) < 0)
            break;
        void *host = nullptr;
        CUresult e = CUDA_SUCCESS;
        if (!slot.host_map &&
            (e = cu->cuMemHostAlloc(&host, map_doubles() * sizeof(double), 0)) == CUDA_SUCCESS)
            slot.host_map = static_cast<double *>(host);
        if (e == CUDA_SUCCESS && !slot.map_copied)
            e = cu->cuEventCreate(&slot.map_copied,
                                  CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC);
        if (e != CUDA_SUCCESS) {
            ret = fail(e, "allocating the map's pinned memory and event");
            break;
        }
    }
    /* The row sums store the map's coefficients in the graphs captured from now on. */
    for (int s = 0; ret == 0 && s < kNumScales; s++)
        pl.map_coefficients[s] = device_pointer<double>(map_coefficients[s]);
    for (Slot &slot : slots) {
        if (ret < 0)
            break;
        destroy_graph(slot);
        ret = capture_graph(slot);
    }
    if (ret < 0) {
        /* No map, then: the graphs as they were (one that cannot be captured again fails
         * its frames' launch, never scores them wrong). */
        const std::string why = last_error;
        map.reset();
        for (double *&coefficients : pl.map_coefficients)
            coefficients = nullptr;
        for (Slot &slot : slots)
            if (!slot.graph)
                capture_graph(slot);
        last_error = why;
    }
    return ret;
}

void FloatAdmCudaContext::release()
{
    if (stream)
        cu->cuStreamSynchronize(stream);
    if (copy_stream) {
        cu->cuStreamSynchronize(copy_stream);
        cu->cuStreamDestroy(copy_stream);
        copy_stream = nullptr;
    }
    if (map_stream) {
        cu->cuStreamSynchronize(map_stream);
        cu->cuStreamDestroy(map_stream);
        map_stream = nullptr;
    }
    host_pool.reset();
    for (Slot &slot : slots)
        unpin(slot, false);
    release_retired_pages();
    for (Slot &slot : slots) {
        for (CUevent ev : slot.stage)
            if (ev)
                cu->cuEventDestroy(ev);
        if (slot.uploaded)
            cu->cuEventDestroy(slot.uploaded);
        destroy_graph(slot);
        if (slot.host_accum)
            cu->cuMemFreeHost(slot.host_accum);
        if (slot.host_map)
            cu->cuMemFreeHost(slot.host_map);
        if (slot.map_copied)
            cu->cuEventDestroy(slot.map_copied);
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
