/*
 * float_adm CUDA backend: a frame's work on the context's stream: the slot's captured
 * graph, set to the frame's planes, or, profiled, stage by stage.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_context.h"

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
    /* A map's kernels count in the whole frame's time (the last stage). */
    for (int s = 0; s < kNumScales; s++) {
        int ret = launch_maps(slot, s, stream);
        if (ret < 0)
            return ret;
    }
    return 0;
}

size_t FloatAdmCudaContext::map_doubles() const
{
    return (size_t)kNumScales * pipeline.map_rows * pipeline.map_columns * adm::kNumMapSums;
}

/* A map's kernel of one scale, with a map; nothing without. */
int FloatAdmCudaContext::launch_maps(Slot &slot, int s, CUstream on)
{
    if (!map)
        return 0;
    double *blocks = device_pointer<double>(slot.device_map) + map_doubles() / kNumScales * s;
    CU_TRY(launch_map(*cu, *kernels, pipeline, s, blocks, on), "launching the map kernel");
    return 0;
}

/*
 * With a map, its blocks into the slot's pinned memory once the frame's kernels are
 * done: one transfer on map_stream, beside the next frame's kernels (written block by
 * block into host memory by the kernels, they took longer than the frame).  The slot's
 * blocks are written again only after this frame is collected, which waits for it.
 */
int FloatAdmCudaContext::copy_map(Slot &slot)
{
    if (!map)
        return 0;
    CU_TRY(cu->cuStreamWaitEvent(map_stream, slot.stage[kNumEvents - 1], 0), "cuStreamWaitEvent");
    CudaMemcpy2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = slot.device_map;
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost = slot.host_map;
    copy.WidthInBytes = map_doubles() * sizeof(double);
    copy.Height = 1;
    CU_TRY(cu->cuMemcpy2DAsync(&copy, map_stream), "copying the map to the host");
    CU_TRY(cu->cuEventRecord(slot.map_copied, map_stream), "cuEventRecord");
    return 0;
}

/*
 * A frame's work as captured from `main`: the DWT of each scale in turn (the slot
 * keeps scale 0's node, which takes each frame's planes), and the row sums of scale s
 * (and its map's kernels, with a map) on a branch of its own as soon as scale s's DWT
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
        CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, s, slot.planes, main),
               "launching the DWT/decouple kernel");
        if (s == 0) {
            int status = 0;
            const CUgraphNode *last = nullptr;
            size_t count = 0;
            CU_TRY(cu->cuStreamGetCaptureInfo(main, &status, nullptr, nullptr, &last, &count),
                   "cuStreamGetCaptureInfo");
            if (count != 1)
                return fail(CUDA_ERROR_NOT_INITIALIZED, "finding scale 0's DWT in the frame graph");
            slot.dwt_node = last[0];
        }
        CU_TRY(cu->cuEventRecord(ready[s], main), "cuEventRecord");
        CU_TRY(cu->cuStreamWaitEvent(branch[s], ready[s], 0), "cuStreamWaitEvent");
        CU_TRY(launch_row_sums(*cu, *kernels, pipeline, s, accum, branch[s]),
               "launching the row-sums kernel");
        int ret = launch_maps(slot, s, branch[s]);
        if (ret < 0)
            return ret;
        CU_TRY(cu->cuEventRecord(done[s], branch[s]), "cuEventRecord");
    }
    const int last = kNumScales - 1;
    CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, last, slot.planes, main),
           "launching the DWT/decouple kernel");
    CU_TRY(launch_row_sums(*cu, *kernels, pipeline, last, accum, main),
           "launching the row-sums kernel");
    int ret = launch_maps(slot, last, main);
    if (ret < 0)
        return ret;
    for (int s = 0; s < kNumScales - 1; s++)
        CU_TRY(cu->cuStreamWaitEvent(main, done[s], 0), "cuStreamWaitEvent");
    return 0;
}

/*
 * The frame's work as one graph: one launch instead of several calls.  The graph it
 * was instantiated from stays with the slot, for its node of scale 0's DWT.
 */
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
    if (ret == 0) {
        slot.graph_source = graph;
    } else {
        if (graph)
            cu->cuGraphDestroy(graph);
        slot.dwt_node = nullptr;
    }
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

void FloatAdmCudaContext::destroy_graph(Slot &slot)
{
    if (slot.graph)
        cu->cuGraphExecDestroy(slot.graph);
    if (slot.graph_source)
        cu->cuGraphDestroy(slot.graph_source);
    slot.graph = nullptr;
    slot.graph_source = nullptr;
    slot.dwt_node = nullptr;
}

/* The frame's kernels, after its planes' uploads on the copy stream where it has some
 * (which so run beside the kernels of the frame before). */
int FloatAdmCudaContext::launch_frame(Slot &slot, bool after_upload)
{
    submitted = true;
    if (after_upload) {
        CU_TRY(cu->cuEventRecord(slot.uploaded, copy_stream), "cuEventRecord");
        CU_TRY(cu->cuStreamWaitEvent(stream, slot.uploaded, 0), "cuStreamWaitEvent");
    }
    slot.profiled = profiling;
    if (slot.profiled) {
        CU_TRY(cu->cuEventRecord(slot.stage[0], stream), "cuEventRecord");
        CU_TRY(launch_dwt_decouple(*cu, *kernels, pipeline, 0, slot.planes, stream),
               "launching the DWT/decouple kernel");
        CU_TRY(cu->cuEventRecord(slot.stage[1], stream), "cuEventRecord");
        int ret = enqueue_profiled(slot);
        if (ret < 0)
            return ret;
    } else {
        /* Scale 0 in the graph too: launched on its own before the graph, a frame took
         * 6 to 12 % longer (docs/perf-cuda.md). */
        if (!slot.dwt_node) /* the graph would read the last frame's planes */
            return fail(CUDA_ERROR_NOT_INITIALIZED, "the frame graph has no node for the planes");
        CU_TRY(set_dwt_planes(*cu, *kernels, pipeline, slot.planes, slot.graph, slot.dwt_node),
               "setting the frame graph's planes");
        CU_TRY(cu->cuGraphLaunch(slot.graph, stream), "launching the frame graph");
    }
    CU_TRY(cu->cuEventRecord(slot.stage[kNumEvents - 1], stream), "cuEventRecord");
    int ret = copy_map(slot);
    if (ret < 0)
        return ret;
    queue_count++;
    return 0;
}
