/*
 * float_adm CUDA backend: the frame queue: frames submitted, in flight, and collected
 * in order, their device sums pooled on the host.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string>

#include "adm_cuda_context.h"
#include "adm_scale_pooling.h"

/* The device's per-scale band sums, pooled exactly as the CPU engine pools its own. */
void FloatAdmCudaContext::pool_scales(const float *accum, FloatAdmScores *out) const
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

/* The slot a submission of planes or files takes, or nullptr with *err: INVALID while the
 * next slot's buffers are lent, AGAIN when every slot is in flight. */
Slot *submit_slot(FloatAdmCudaContext *ctx, int *err)
{
    if (ctx->host_frame_lent) {
        ctx->last_error = "the next frame's host buffers are lent (float_adm_cuda_host_frame): "
                          "submit them first (float_adm_cuda_submit_host_frame)";
        *err = FLOAT_ADM_ERROR_INVALID;
        return nullptr;
    }
    Slot *slot = free_slot(ctx);
    *err = slot ? 0 : FLOAT_ADM_ERROR_AGAIN;
    return slot;
}

/* A frame's two planes uploaded by upload(img), then its kernels after them; a frame that
 * fails on the way is abandoned. */
template <class Upload> int queue_uploads(FloatAdmCudaContext *ctx, Slot &slot, Upload upload)
{
    for (int img = 0; img < 2; img++) {
        const int ret = upload(img);
        if (ret < 0) {
            ctx->abandon(slot);
            return ret;
        }
    }
    const int ret = ctx->launch_frame(slot, true);
    if (ret < 0)
        ctx->abandon(slot);
    return ret;
}

} // namespace

extern "C" {

int float_adm_cuda_submit(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                          const FloatAdmCudaPlane *dist)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    const FloatAdmCudaPlane *const planes[2] = {ref, dist};
    static const char *const names[2] = {"reference", "distorted"};
    for (int img = 0; img < 2; img++) {
        const FloatAdmCudaPlane *p = planes[img];
        if (p && (p->in_host_memory < 0 || p->in_host_memory > FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD)) {
            ctx->last_error = std::string(names[img]) + " plane: in_host_memory " +
                              std::to_string(p->in_host_memory) +
                              " is not 0 (device), 1 (host, copied), 2 (host, read in place) or "
                              "3 (host, read in place and held)";
            return FLOAT_ADM_ERROR_INVALID;
        }
        int ret = ctx->check_plane(p ? p->data : nullptr, p ? p->pitch : 0,
                                   p ? p->bytes_per_sample : 0, p ? p->shift : 0, names[img],
                                   p && !p->in_host_memory);
        if (ret < 0)
            return ret;
    }
    int err;
    Slot *slot = submit_slot(ctx, &err);
    if (!slot)
        return err;
    ContextScope scope(ctx);
    return ctx->submit_planes(*slot, planes);
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
    if (e == CUDA_SUCCESS && ctx->map) /* and its map's copy */
        e = wait ? cu.cuEventSynchronize(slot.map_copied) : cu.cuEventQuery(slot.map_copied);
    if (e == CUDA_ERROR_NOT_READY)
        return FLOAT_ADM_ERROR_AGAIN;
    /* Its uploads are over (its kernels waited for them): the caller's memory is its own. */
    if (e == CUDA_SUCCESS)
        ctx->unpin(slot, true);
    else
        ctx->abandon(slot);
    /* A frame whose work failed is dropped: its scores would be wrong. */
    ctx->queue_head = (ctx->queue_head + 1) % (int)ctx->slots.size();
    ctx->queue_count--;
    if (!ctx->queue_count) /* unpinning waits for nothing now */
        ctx->release_retired_pages();
    else if (!ctx->retired_pages.empty() &&
             ++ctx->held_frames >= FloatAdmCudaContext::kRetiredFrames)
        ctx->release_retired_pages(); /* frames that pinned nothing count too */
    /* The map read from now on is this frame's, or none if it fails. */
    ctx->map_collected = false;
    if (ctx->map)
        ctx->map->start();
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
    ctx->pool_scales(slot.host_accum, scores);
    if (ctx->map) {
        const size_t per_scale = ctx->map_doubles() / kNumScales;
        for (int s = 0; s < kNumScales; s++)
            ctx->map->set_sums(s, slot.host_map + per_scale * s);
        ctx->map_collected = true;
    }
    return 0;
}

int float_adm_cuda_in_flight(const FloatAdmCudaContext *ctx) { return ctx ? ctx->queue_count : 0; }

int float_adm_cuda_held_frames(const FloatAdmCudaContext *ctx)
{
    return ctx ? ctx->held_frames : 0;
}

int float_adm_cuda_max_in_flight(const FloatAdmCudaContext *ctx)
{
    return ctx ? (int)ctx->slots.size() : 0;
}

int float_adm_cuda_set_host_threads(FloatAdmCudaContext *ctx, int threads)
{
    if (!ctx || threads < 0 || threads > kMaxHostThreads)
        return FLOAT_ADM_ERROR_INVALID;
    ctx->host_pool.reset();
    ctx->host_threads = threads;
    return 0;
}

int float_adm_cuda_host_frame(FloatAdmCudaContext *ctx, FloatAdmPlane *ref, FloatAdmPlane *dist)
{
    if (!ctx || !ref || !dist)
        return FLOAT_ADM_ERROR_INVALID;
    Slot *slot = free_slot(ctx);
    if (!slot)
        return FLOAT_ADM_ERROR_AGAIN;
    ContextScope scope(ctx);
    const int ret = ctx->make_upload_buffers();
    if (ret < 0)
        return ret;
    const adm::FrameSetup &frame = ctx->pipeline.frame;
    const ptrdiff_t row = (ptrdiff_t)frame.width * frame.bytes_per_sample;
    *ref = FloatAdmPlane{slot->staging[0], row, frame.bytes_per_sample, 0};
    *dist = FloatAdmPlane{slot->staging[1], row, frame.bytes_per_sample, 0};
    ctx->host_frame_lent = true;
    return 0;
}

int float_adm_cuda_submit_host_frame(FloatAdmCudaContext *ctx)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    Slot *slot = ctx->host_frame_lent ? free_slot(ctx) : nullptr;
    if (!slot) {
        ctx->last_error = "no host buffers were lent: float_adm_cuda_host_frame first";
        return FLOAT_ADM_ERROR_INVALID;
    }
    ctx->host_frame_lent = false;
    ContextScope scope(ctx);
    const adm::FrameSetup &frame = ctx->pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    return queue_uploads(ctx, *slot, [&](int img) {
        return ctx->upload_staged(*slot, img, slot->staging[img], row, 0);
    });
}

int float_adm_cuda_submit_file(FloatAdmCudaContext *ctx, const FloatAdmCudaFilePlane *ref,
                               const FloatAdmCudaFilePlane *dist)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    const FloatAdmCudaFilePlane *const files[2] = {ref, dist};
    for (int img = 0; img < 2; img++) {
        if (!files[img] || files[img]->fd < 0) {
            ctx->last_error = std::string("no ") + (img ? "distorted" : "reference") +
                              " file given";
            return FLOAT_ADM_ERROR_INVALID;
        }
    }
    int err;
    Slot *slot = submit_slot(ctx, &err);
    if (!slot)
        return err;
    ContextScope scope(ctx);
    return queue_uploads(ctx, *slot,
                         [&](int img) { return ctx->upload_file_plane(*slot, img, *files[img]); });
}

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

} // extern "C"
