/*
 * Copyright (c) 2026 the float_adm authors
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * The float_adm filter's CUDA path (libfloatadm_cuda): CUDA frames are
 * scored on their own device, context and stream; software frames, and CUDA
 * frames of another context, have their luma copied to the device.
 */

#include "config.h"
#include "vf_float_adm_cuda.h"

#if HAVE_LIBFLOATADM_CUDA
#include <float_adm_cuda.h>

#include "libavutil/cuda_check.h"
#include "libavutil/fifo.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/mem.h"
#include "filters.h"

/* Frames scored on the GPU while the next are queued; more buys no speed. */
#define CUDA_MAX_IN_FLIGHT 4

/* Where an input's luma comes from when the GPU cannot read it in place. */
enum CopySource {
    COPY_NONE,
    COPY_FROM_HOST,         /* software frames */
    COPY_FROM_CONTEXT,      /* CUDA frames of another context on the same device */
};

/* A frame waiting to leave in order: with ref set, for its scores. */
typedef struct QueuedFrame {
    AVFrame *dist;
    AVFrame *ref;
    uint64_t index;
    const char *skipped;    /* why it is not scored, for the log */
} QueuedFrame;

enum EmitMode {
    EMIT_READY, /* only frames whose scores are back */
    EMIT_ONE,   /* wait for the oldest scored frame, then as EMIT_READY */
    EMIT_ALL,   /* wait for every frame */
};

struct FloatAdmCuda {
    AVFilterContext *ctx;
    FloatAdmEmitFn emit;
    FloatAdmCudaContext *adm;
    int width, height;
    FloatAdmPlane layout[2];        /* main, reference */
    AVBufferRef *device;
    AVCUDADeviceContext *hwctx;
    CUstream stream;
    int own_stream;
    int copy_luma[2];               /* per input: a CopySource */
    CUdeviceptr upload_planes[CUDA_MAX_IN_FLIGHT][2];
    size_t upload_pitch;
    AVBufferRef *ref_device;        /* the reference's, where its CUDA context is another */
    uint8_t *staging;               /* the reference's luma on its way between contexts */
    uint64_t nb_submitted;
    AVFifo *queue;                  /* QueuedFrame, in output order */
};

#define CHECK_CU(x) FF_CUDA_CHECK_DL(c->ctx, c->hwctx->internal->cuda_dl, x)

/* Every float_adm_cuda call runs in the device's context. */
static int cuda_push(FloatAdmCuda *c)
{
    return CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPushCurrent(c->hwctx->cuda_ctx));
}

static void cuda_pop(FloatAdmCuda *c)
{
    CUcontext dummy;

    CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPopCurrent(&dummy));
}

static int cuda_fail(FloatAdmCuda *c, const char *what, uint64_t index, int err)
{
    av_log(c->ctx, AV_LOG_ERROR, "%s frame %"PRIu64" on the GPU failed: %s (%s)\n", what,
           index, float_adm_cuda_strerror(err), float_adm_cuda_last_error(c->adm));
    return err;
}

/* Sends the queue's head frames on while their scores are back. */
static int emit_queued(FloatAdmCuda *c, enum EmitMode mode)
{
    QueuedFrame qf;
    int ret;

    while (av_fifo_peek(c->queue, &qf, 1, 0) >= 0) {
        const int scored = qf.ref != NULL;
        FloatAdmScores scores;

        if (scored) {
            const int wait = mode != EMIT_READY;

            if ((ret = cuda_push(c)) < 0)
                return ret;
            ret = float_adm_cuda_collect(c->adm, &scores, wait);
            cuda_pop(c);
            if (ret == FLOAT_ADM_ERROR_AGAIN && !wait)
                return 0;
            if (ret < 0)
                return cuda_fail(c, "Scoring", qf.index, ret);
            if (mode == EMIT_ONE)
                mode = EMIT_READY;
            av_frame_free(&qf.ref);
        }
        av_fifo_drain2(c->queue, 1);
        if ((ret = c->emit(c->ctx, qf.dist, qf.index, scored ? &scores : NULL, qf.skipped)) < 0)
            return ret;
    }
    return 0;
}

/* The frame's luma where the GPU can read it: in place, or copied into the
 * upload slot of this submission. */
static int device_luma(FloatAdmCuda *c, const AVFrame *frame, int input,
                       FloatAdmCudaPlane *plane)
{
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;
    const CUdeviceptr dst = c->upload_planes[c->nb_submitted % CUDA_MAX_IN_FLIGHT][input];
    const size_t row_bytes = (size_t)c->width * c->layout[input].bytes_per_sample;
    const uint8_t *src = frame->data[0];
    ptrdiff_t src_pitch = frame->linesize[0];
    int ret;

    *plane = (FloatAdmCudaPlane) {
        .data             = frame->data[0],
        .pitch            = frame->linesize[0],
        .bytes_per_sample = c->layout[input].bytes_per_sample,
        .shift            = c->layout[input].shift,
    };
    if (c->copy_luma[input] == COPY_NONE)
        return 0;

    /* One context cannot read another's memory: through the host. */
    if (c->copy_luma[input] == COPY_FROM_CONTEXT) {
        AVCUDADeviceContext *ref_hwctx = ((AVHWDeviceContext *)c->ref_device->data)->hwctx;
        CUDA_MEMCPY2D download = {
            .srcMemoryType = CU_MEMORYTYPE_DEVICE,
            .srcDevice     = (CUdeviceptr)frame->data[0],
            .srcPitch      = frame->linesize[0],
            .dstMemoryType = CU_MEMORYTYPE_HOST,
            .dstHost       = c->staging,
            .dstPitch      = c->upload_pitch,
            .WidthInBytes  = row_bytes,
            .Height        = c->height,
        };
        CUcontext dummy;

        if ((ret = CHECK_CU(cu->cuCtxPushCurrent(ref_hwctx->cuda_ctx))) < 0)
            return ret;
        ret = CHECK_CU(cu->cuMemcpy2DAsync(&download, ref_hwctx->stream));
        if (ret >= 0)
            ret = CHECK_CU(cu->cuStreamSynchronize(ref_hwctx->stream));
        CHECK_CU(cu->cuCtxPopCurrent(&dummy));
        if (ret < 0)
            return ret;
        src       = c->staging;
        src_pitch = c->upload_pitch;
    }

    if (src_pitch > 0) {
        CUDA_MEMCPY2D copy = {
            .srcMemoryType = CU_MEMORYTYPE_HOST,
            .srcHost       = src,
            .srcPitch      = src_pitch,
            .dstMemoryType = CU_MEMORYTYPE_DEVICE,
            .dstDevice     = dst,
            .dstPitch      = c->upload_pitch,
            .WidthInBytes  = row_bytes,
            .Height        = c->height,
        };
        ret = CHECK_CU(cu->cuMemcpy2DAsync(&copy, c->stream));
    } else {
        /* CUDA_MEMCPY2D has unsigned pitches: a bottom-up frame goes row by row. */
        ret = 0;
        for (int y = 0; y < c->height && ret >= 0; y++)
            ret = CHECK_CU(cu->cuMemcpyHtoDAsync(dst + y * c->upload_pitch, src + y * src_pitch,
                                                 row_bytes, c->stream));
    }
    plane->data  = (const void *)(uintptr_t)dst;
    plane->pitch = c->upload_pitch;
    return ret;
}

int ff_float_adm_cuda_submit(FloatAdmCuda *c, AVFrame *dist, const AVFrame *ref,
                             uint64_t index)
{
    const AVFrame *frames[2] = { dist, ref };
    FloatAdmCudaPlane planes[2];
    QueuedFrame qf = { .dist = dist, .index = index };
    int ret;

    /* Room first: an upload slot is free only once its frame is collected. */
    if (float_adm_cuda_in_flight(c->adm) >= CUDA_MAX_IN_FLIGHT &&
        (ret = emit_queued(c, EMIT_ONE)) < 0)
        goto fail;
    if (!(qf.ref = av_frame_clone(ref))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }

    if ((ret = cuda_push(c)) < 0)
        goto fail;
    for (int i = 0; i < 2 && ret >= 0; i++)
        ret = device_luma(c, frames[i], i, &planes[i]);
    if (ret >= 0 && (ret = float_adm_cuda_submit(c->adm, &planes[1], &planes[0])) < 0)
        cuda_fail(c, "Submitting", index, ret);
    cuda_pop(c);
    if (ret < 0)
        goto fail;
    c->nb_submitted++;

    if ((ret = av_fifo_write(c->queue, &qf, 1)) < 0)
        goto fail;
    return emit_queued(c, EMIT_READY);
fail:
    av_frame_free(&qf.ref);
    av_frame_free(&dist);
    return ret;
}

int ff_float_adm_cuda_pass(FloatAdmCuda *c, AVFrame *dist, uint64_t index,
                           const char *skipped)
{
    const QueuedFrame qf = { .dist = dist, .index = index, .skipped = skipped };
    int ret;

    if (!av_fifo_can_read(c->queue))
        return c->emit(c->ctx, dist, index, NULL, skipped);
    if ((ret = av_fifo_write(c->queue, &qf, 1)) < 0)
        av_frame_free(&dist);
    return ret;
}

int ff_float_adm_cuda_flush(FloatAdmCuda *c)
{
    return emit_queued(c, EMIT_ALL);
}

static const AVHWFramesContext *hw_frames(const AVFilterLink *link)
{
    const AVBufferRef *frames = ff_filter_link((AVFilterLink *)link)->hw_frames_ctx;

    return link->format == AV_PIX_FMT_CUDA && frames ? (const AVHWFramesContext *)frames->data
                                                     : NULL;
}

/* The first line is the same whatever the cause, for scripts and FATE. */
static int no_cuda_device(AVFilterContext *ctx, const char *why)
{
    av_log(ctx, AV_LOG_ERROR, "backend=cuda: no usable CUDA device.\n");
    av_log(ctx, AV_LOG_ERROR, "%s\n", why);
    return AVERROR(ENODEV);
}

/* The device of the inputs' CUDA frames, or one for uploading software frames:
 * the filtergraph's (-filter_hw_device), else the default CUDA device.  A
 * software input beside a CUDA one (a loopback decoder without hwaccel) is
 * uploaded. */
static int open_device(FloatAdmCuda *c)
{
    AVFilterContext *ctx = c->ctx;
    const AVHWFramesContext *frames[2] = { hw_frames(ctx->inputs[0]), hw_frames(ctx->inputs[1]) };
    char why[256] = "";
    int count, ret;

    for (int i = 0; i < 2; i++)
        c->copy_luma[i] = frames[i] ? COPY_NONE : COPY_FROM_HOST;
    if (frames[0] && frames[1]) {
        const AVCUDADeviceContext *main_dev = frames[0]->device_ctx->hwctx;
        const AVCUDADeviceContext *ref_dev  = frames[1]->device_ctx->hwctx;

        if (main_dev->internal->cuda_device != ref_dev->internal->cuda_device) {
            av_log(ctx, AV_LOG_ERROR, "The inputs' CUDA frames are on different devices "
                   "(main: CUDA device %d, reference: CUDA device %d); decode or upload "
                   "both on one.\n",
                   main_dev->internal->cuda_device, ref_dev->internal->cuda_device);
            return AVERROR(EINVAL);
        }
        /* Each hwupload_cuda makes a CUDA context of its own. */
        if (main_dev->cuda_ctx != ref_dev->cuda_ctx) {
            av_log(ctx, AV_LOG_VERBOSE, "The inputs' CUDA frames come from two CUDA contexts "
                   "(two hwupload_cuda?): the reference's luma is copied through the host. "
                   "hwupload with -filter_hw_device, or NVDEC, shares one context.\n");
            c->copy_luma[1] = COPY_FROM_CONTEXT;
            if (!(c->ref_device = av_buffer_ref(frames[1]->device_ref)))
                return AVERROR(ENOMEM);
        }
    }
    if (frames[0] || frames[1]) {
        if (!frames[0] || !frames[1])
            av_log(ctx, AV_LOG_VERBOSE, "The %s input has software frames: its luma is "
                   "uploaded to the other input's CUDA device.\n",
                   frames[0] ? "reference (second)" : "main (first)");
        c->device = av_buffer_ref((frames[0] ? frames[0] : frames[1])->device_ref);
        return c->device ? 0 : AVERROR(ENOMEM);
    }

    if ((ret = float_adm_cuda_device_count(&count, why, sizeof(why))) < 0)
        return ret;
    if (!count)
        return no_cuda_device(ctx, why[0] ? why : "CUDA reports no device.");
    if (ctx->hw_device_ctx &&
        ((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type == AV_HWDEVICE_TYPE_CUDA) {
        c->device = av_buffer_ref(ctx->hw_device_ctx);
        return c->device ? 0 : AVERROR(ENOMEM);
    }
    ret = av_hwdevice_ctx_create(&c->device, AV_HWDEVICE_TYPE_CUDA, NULL, NULL, 0);
    if (ret < 0)
        return no_cuda_device(ctx, av_err2str(ret));
    return 0;
}

static int setup(FloatAdmCuda *c, const FloatAdmOptions *opts, int depth)
{
    CudaFunctions *cu;
    char errbuf[256];
    int ret;

    if ((ret = open_device(c)) < 0)
        return ret;
    c->hwctx = ((AVHWDeviceContext *)c->device->data)->hwctx;
    cu = c->hwctx->internal->cuda_dl;
    if (!(c->queue = av_fifo_alloc2(2 * CUDA_MAX_IN_FLIGHT, sizeof(QueuedFrame),
                                    AV_FIFO_FLAG_AUTO_GROW)))
        return AVERROR(ENOMEM);

    if ((ret = cuda_push(c)) < 0)
        return ret;
    /* Work on the device's stream, after whatever wrote the frames there; without
     * one, a blocking stream of ours orders itself after the legacy default stream. */
    c->stream = c->hwctx->stream;
    if (!c->stream) {
        ret = CHECK_CU(cu->cuStreamCreate(&c->stream, CU_STREAM_DEFAULT));
        c->own_stream = ret >= 0;
    }
    c->upload_pitch = FFALIGN((size_t)c->width * c->layout[0].bytes_per_sample, 256);
    for (int i = 0; i < CUDA_MAX_IN_FLIGHT && ret >= 0; i++)
        for (int j = 0; j < 2 && ret >= 0; j++)
            if (c->copy_luma[j] != COPY_NONE)
                ret = CHECK_CU(cu->cuMemAlloc(&c->upload_planes[i][j],
                                              c->upload_pitch * c->height));
    if (ret >= 0 && c->copy_luma[1] == COPY_FROM_CONTEXT &&
        !(c->staging = av_malloc(c->upload_pitch * c->height)))
        ret = AVERROR(ENOMEM);
    if (ret >= 0) {
        ret = float_adm_cuda_context_create(&c->adm, c->width, c->height, depth, opts,
                                            c->stream, CUDA_MAX_IN_FLIGHT,
                                            errbuf, sizeof(errbuf));
        if (ret < 0)
            av_log(c->ctx, AV_LOG_ERROR, "%s\n", errbuf);
    }
    if (ret >= 0) {
        const int exact = float_adm_cuda_is_exact(c->adm, errbuf, sizeof(errbuf));
        const int uploads = c->copy_luma[0] == COPY_FROM_HOST || c->copy_luma[1] == COPY_FROM_HOST;

        av_log(c->ctx, exact ? AV_LOG_VERBOSE : AV_LOG_WARNING, "CUDA backend%s: %s\n",
               uploads ? " (software frames uploaded)" : "", errbuf);
    }
    cuda_pop(c);
    return ret;
}

int ff_float_adm_cuda_init(AVFilterContext *ctx, FloatAdmCuda **cuda, FloatAdmEmitFn emit,
                           const FloatAdmOptions *opts, int width, int height, int depth,
                           const FloatAdmPlane layout[2])
{
    FloatAdmCuda *c = av_mallocz(sizeof(*c));
    int ret;

    if (!c)
        return AVERROR(ENOMEM);
    *c = (FloatAdmCuda) {
        .ctx = ctx, .emit = emit, .width = width, .height = height,
        .layout = { layout[0], layout[1] },
    };
    *cuda = c;
    if ((ret = setup(c, opts, depth)) < 0)
        ff_float_adm_cuda_uninit(cuda);
    return ret;
}

void ff_float_adm_cuda_uninit(FloatAdmCuda **cuda)
{
    FloatAdmCuda *c = *cuda;
    QueuedFrame qf;

    if (!c)
        return;
    if (c->hwctx && cuda_push(c) >= 0) {
        CudaFunctions *cu = c->hwctx->internal->cuda_dl;

        /* Waits for the queued work, which still reads the frames freed below. */
        float_adm_cuda_context_free(&c->adm);
        for (int i = 0; i < CUDA_MAX_IN_FLIGHT; i++)
            for (int j = 0; j < 2; j++)
                if (c->upload_planes[i][j])
                    CHECK_CU(cu->cuMemFree(c->upload_planes[i][j]));
        if (c->own_stream)
            CHECK_CU(cu->cuStreamDestroy(c->stream));
        cuda_pop(c);
    }
    while (c->queue && av_fifo_read(c->queue, &qf, 1) >= 0) {
        av_frame_free(&qf.dist);
        av_frame_free(&qf.ref);
    }
    av_fifo_freep2(&c->queue);
    av_freep(&c->staging);
    av_buffer_unref(&c->ref_device);
    av_buffer_unref(&c->device);
    av_freep(cuda);
}

#else /* !HAVE_LIBFLOATADM_CUDA */

int ff_float_adm_cuda_init(AVFilterContext *ctx, FloatAdmCuda **cuda, FloatAdmEmitFn emit,
                           const FloatAdmOptions *opts, int width, int height, int depth,
                           const FloatAdmPlane layout[2])
{
    av_log(ctx, AV_LOG_ERROR, "backend=cuda: no usable CUDA device.\n");
    av_log(ctx, AV_LOG_ERROR, "This FFmpeg was built without float_adm's CUDA backend "
           "(libfloatadm_cuda).\n");
    return AVERROR(ENODEV);
}

int ff_float_adm_cuda_submit(FloatAdmCuda *cuda, AVFrame *dist, const AVFrame *ref,
                             uint64_t index)
{
    return AVERROR_BUG;
}

int ff_float_adm_cuda_pass(FloatAdmCuda *cuda, AVFrame *dist, uint64_t index,
                           const char *skipped)
{
    return AVERROR_BUG;
}

int ff_float_adm_cuda_flush(FloatAdmCuda *cuda)
{
    return 0;
}

void ff_float_adm_cuda_uninit(FloatAdmCuda **cuda)
{
}

#endif /* HAVE_LIBFLOATADM_CUDA */
