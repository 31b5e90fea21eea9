/*
 * float_adm CUDA backend: the frame queue: frames submitted, in flight, and collected
 * in order, their device sums pooled on the host.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
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

} // namespace

extern "C" {

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
    if (e == CUDA_SUCCESS && ctx->map) /* and its map's copy */
        e = wait ? cu.cuEventSynchronize(slot.map_copied) : cu.cuEventQuery(slot.map_copied);
    if (e == CUDA_ERROR_NOT_READY)
        return FLOAT_ADM_ERROR_AGAIN;
    /* A frame whose work failed is dropped: its scores would be wrong. */
    ctx->queue_head = (ctx->queue_head + 1) % (int)ctx->slots.size();
    ctx->queue_count--;
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
