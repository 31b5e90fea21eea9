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
 * scored on their own device, context and stream; libfloatadm_cuda stages and
 * uploads the luma of software frames, and of CUDA frames of another context
 * (downloaded here first).
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

/* Where the GPU reads an input's luma from. */
enum LumaSource {
    LUMA_ON_DEVICE,         /* CUDA frames of the context scoring them: in place */
    LUMA_FROM_HOST,         /* software frames: the library uploads them */
    LUMA_FROM_CONTEXT,      /* CUDA frames of another context on the same device:
                             * downloaded, then uploaded by the library */
};

struct ADMCudaPath {
    AVFilterContext *ctx;
    FloatAdmCudaContext *adm;
    int width, height;
    FloatAdmPlane layout[NB_INPUTS]; /* per input */
    AVBufferRef *device;
    AVCUDADeviceContext *hwctx;
    CUstream stream;
    int own_stream;
    int luma_source[NB_INPUTS];      /* per input: a LumaSource */
    AVBufferRef *ref_device;        /* the reference's, where its CUDA context is another */
    uint8_t *staging;               /* the reference's luma on its way between contexts */
    size_t staging_pitch;
    const char *map_path;           /* the filter's map_path, or NULL */
    int map_picture;
    int map_columns, map_rows;
};

#define CHECK_CU(x) FF_CUDA_CHECK_DL(c->ctx, c->hwctx->internal->cuda_dl, x)

static int cuda_fail(ADMCudaPath *c, const char *what, uint64_t index, int err)
{
    av_log(c->ctx, AV_LOG_ERROR, "%s frame %"PRIu64" on the GPU failed: %s (%s)\n", what,
           index, float_adm_cuda_strerror(err), float_adm_cuda_last_error(c->adm));
    return err;
}

/* With map_path: the map of the frame just collected, into its file. */
static int write_map(ADMCudaPath *c, uint64_t index)
{
    char errbuf[512];
    int ret;

    if (c->map_path &&
        (ret = float_adm_cuda_map_write_pfm(c->adm, c->map_path, index, errbuf,
                                            sizeof(errbuf))) < 0) {
        av_log(c->ctx, AV_LOG_ERROR, "Frame %"PRIu64": %s\n", index, errbuf);
        return ret;
    }
    return 0;
}

/* The CUDA context of the reference's frames, current while their luma is downloaded. */
static int cuda_push(ADMCudaPath *c, AVCUDADeviceContext *hwctx)
{
    return CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPushCurrent(hwctx->cuda_ctx));
}

static void cuda_pop(ADMCudaPath *c)
{
    CUcontext dummy;

    CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPopCurrent(&dummy));
}

/* The frame's luma as the library reads it: in device memory in place, or in
 * host memory (a software frame, or a CUDA frame of another context downloaded
 * into the staging buffer), which the library stages and uploads. */
static int luma_plane(ADMCudaPath *c, const AVFrame *frame, int input,
                      FloatAdmCudaPlane *plane)
{
    *plane = (FloatAdmCudaPlane) {
        .data             = frame->data[0],
        .pitch            = frame->linesize[0],
        .bytes_per_sample = c->layout[input].bytes_per_sample,
        .shift            = c->layout[input].shift,
        .in_host_memory   = c->luma_source[input] != LUMA_ON_DEVICE,
    };

    /* One context cannot read another's memory: through the host. */
    if (c->luma_source[input] == LUMA_FROM_CONTEXT) {
        CudaFunctions *cu = c->hwctx->internal->cuda_dl;
        AVCUDADeviceContext *ref_hwctx = ((AVHWDeviceContext *)c->ref_device->data)->hwctx;
        CUDA_MEMCPY2D download = {
            .srcMemoryType = CU_MEMORYTYPE_DEVICE,
            .srcDevice     = (CUdeviceptr)frame->data[0],
            .srcPitch      = frame->linesize[0],
            .dstMemoryType = CU_MEMORYTYPE_HOST,
            .dstHost       = c->staging,
            .dstPitch      = c->staging_pitch,
            .WidthInBytes  = (size_t)c->width * c->layout[input].bytes_per_sample,
            .Height        = c->height,
        };
        int ret;

        if ((ret = cuda_push(c, ref_hwctx)) < 0)
            return ret;
        ret = CHECK_CU(cu->cuMemcpy2DAsync(&download, ref_hwctx->stream));
        if (ret >= 0)
            ret = CHECK_CU(cu->cuStreamSynchronize(ref_hwctx->stream));
        cuda_pop(c);
        if (ret < 0)
            return ret;
        plane->data  = c->staging;
        plane->pitch = c->staging_pitch;
    }
    return 0;
}

int ff_float_adm_cuda_submit(ADMCudaPath *c, const AVFrame *dist, const AVFrame *ref,
                             uint64_t index)
{
    const AVFrame *frames[NB_INPUTS] = { [INPUT_MAIN] = dist, [INPUT_REFERENCE] = ref };
    FloatAdmCudaPlane planes[NB_INPUTS];
    int ret;

    if (float_adm_cuda_in_flight(c->adm) >= CUDA_MAX_IN_FLIGHT)
        return AVERROR(EAGAIN);
    for (int i = 0; i < NB_INPUTS; i++)
        if ((ret = luma_plane(c, frames[i], i, &planes[i])) < 0)
            return ret;
    if ((ret = float_adm_cuda_submit(c->adm, &planes[INPUT_REFERENCE], &planes[INPUT_MAIN])) < 0)
        return cuda_fail(c, "Submitting", index, ret);
    return 0;
}

int ff_float_adm_cuda_collect(ADMCudaPath *c, uint64_t index, int wait, FloatAdmScores *scores)
{
    int ret = float_adm_cuda_collect(c->adm, scores, wait);

    if (ret == FLOAT_ADM_ERROR_AGAIN && !wait)
        return AVERROR(EAGAIN);
    if (ret < 0)
        return cuda_fail(c, "Scoring", index, ret);
    return write_map(c, index);
}

int ff_float_adm_cuda_map_loss_rows(const ADMCudaPath *c, int first_row, int nb_rows, float *loss)
{
    /* Host work on the collected sums: no CUDA context is made current. */
    return float_adm_cuda_map_loss_rows(c->adm, first_row, nb_rows, loss,
                                        (size_t)nb_rows * c->map_columns);
}

static const AVHWFramesContext *hw_frames(AVFilterLink *link)
{
    const AVBufferRef *frames = ff_filter_link(link)->hw_frames_ctx;

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

/* The CUDA device (its ordinal) of a frames context's CUDA context. */
static int context_device(ADMCudaPath *c, const AVHWFramesContext *frames, CUdevice *device)
{
    const AVCUDADeviceContext *hwctx = frames->device_ctx->hwctx;
    CudaFunctions *cu = hwctx->internal->cuda_dl;
    CUcontext dummy;
    int ret = FF_CUDA_CHECK_DL(c->ctx, cu, cu->cuCtxPushCurrent(hwctx->cuda_ctx));

    if (ret < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(c->ctx, cu, cu->cuCtxGetDevice(device));
    FF_CUDA_CHECK_DL(c->ctx, cu, cu->cuCtxPopCurrent(&dummy));
    return ret;
}

/* The device of the inputs' CUDA frames, or for software frames the filters'
 * device (-init_hw_device, -filter_hw_device), as hwupload takes it: the filter
 * never picks a GPU itself.  A software input beside a CUDA one (a loopback
 * decoder without hwaccel) is uploaded to the CUDA input's device. */
static int open_device(ADMCudaPath *c)
{
    AVFilterContext *ctx = c->ctx;
    const AVHWFramesContext *frames[NB_INPUTS] = {
        [INPUT_MAIN]      = hw_frames(ctx->inputs[INPUT_MAIN]),
        [INPUT_REFERENCE] = hw_frames(ctx->inputs[INPUT_REFERENCE]),
    };
    char why[256] = "";
    int count, ret;

    for (int i = 0; i < NB_INPUTS; i++)
        c->luma_source[i] = frames[i] ? LUMA_ON_DEVICE : LUMA_FROM_HOST;
    if (frames[INPUT_MAIN] && frames[INPUT_REFERENCE]) {
        const AVCUDADeviceContext *main_dev = frames[INPUT_MAIN]->device_ctx->hwctx;
        const AVCUDADeviceContext *ref_dev  = frames[INPUT_REFERENCE]->device_ctx->hwctx;
        CUdevice devices[NB_INPUTS];

        for (int i = 0; i < NB_INPUTS; i++)
            if ((ret = context_device(c, frames[i], &devices[i])) < 0)
                return ret;
        if (devices[INPUT_MAIN] != devices[INPUT_REFERENCE]) {
            av_log(ctx, AV_LOG_ERROR, "The inputs' CUDA frames are on different devices "
                   "(main: CUDA device %d, reference: CUDA device %d); decode or upload "
                   "both on one.\n", devices[INPUT_MAIN], devices[INPUT_REFERENCE]);
            return AVERROR(EINVAL);
        }
        /* Each hwupload_cuda makes a CUDA context of its own. */
        if (main_dev->cuda_ctx != ref_dev->cuda_ctx) {
            av_log(ctx, AV_LOG_VERBOSE, "The inputs' CUDA frames come from two CUDA contexts "
                   "(two hwupload_cuda?): the reference's luma is copied through the host. "
                   "hwupload with -filter_hw_device, or NVDEC, shares one context.\n");
            c->luma_source[INPUT_REFERENCE] = LUMA_FROM_CONTEXT;
            if (!(c->ref_device = av_buffer_ref(frames[INPUT_REFERENCE]->device_ref)))
                return AVERROR(ENOMEM);
        }
    }
    if (frames[INPUT_MAIN] || frames[INPUT_REFERENCE]) {
        const int hw_input = frames[INPUT_MAIN] ? INPUT_MAIN : INPUT_REFERENCE;

        if (!frames[INPUT_MAIN] || !frames[INPUT_REFERENCE])
            av_log(ctx, AV_LOG_VERBOSE, "The %s input has software frames: its luma is "
                   "uploaded to the other input's CUDA device.\n",
                   ff_float_adm_input_name(hw_input == INPUT_MAIN ? INPUT_REFERENCE : INPUT_MAIN));
        c->device = av_buffer_ref(frames[hw_input]->device_ref);
        return c->device ? 0 : AVERROR(ENOMEM);
    }

    if ((ret = float_adm_cuda_device_count(&count, why, sizeof(why))) < 0)
        return ret;
    if (!count)
        return no_cuda_device(ctx, why[0] ? why : "CUDA reports no device.");
    if (!ctx->hw_device_ctx ||
        ((AVHWDeviceContext *)ctx->hw_device_ctx->data)->type != AV_HWDEVICE_TYPE_CUDA) {
        av_log(ctx, AV_LOG_ERROR, "backend=cuda on software frames uploads them to the "
               "filters' CUDA device, and there is none: add -init_hw_device cuda (with "
               "-filter_hw_device to pick one of several), or upload the inputs with "
               "hwupload_cuda.\n");
        return AVERROR(EINVAL);
    }
    c->device = av_buffer_ref(ctx->hw_device_ctx);
    return c->device ? 0 : AVERROR(ENOMEM);
}

static int setup(ADMCudaPath *c, const FloatAdmOptions *opts, int depth)
{
    CudaFunctions *cu;
    char errbuf[1024];
    int ret;

    if ((ret = open_device(c)) < 0)
        return ret;
    c->hwctx = ((AVHWDeviceContext *)c->device->data)->hwctx;
    cu = c->hwctx->internal->cuda_dl;
    if (c->luma_source[INPUT_REFERENCE] == LUMA_FROM_CONTEXT) {
        c->staging_pitch = FFALIGN((size_t)c->width *
                                   c->layout[INPUT_REFERENCE].bytes_per_sample, 64);
        if (!(c->staging = av_malloc(c->staging_pitch * c->height)))
            return AVERROR(ENOMEM);
    }

    /* The library works in the device's context (current while it is created) on
     * the device's stream, after whatever wrote the frames there; without one, a
     * blocking stream of ours orders itself after the legacy default stream. */
    if ((ret = cuda_push(c, c->hwctx)) < 0)
        return ret;
    c->stream = c->hwctx->stream;
    if (!c->stream) {
        ret = CHECK_CU(cu->cuStreamCreate(&c->stream, CU_STREAM_DEFAULT));
        c->own_stream = ret >= 0;
    }
    if (ret >= 0) {
        ret = float_adm_cuda_context_create(&c->adm, c->width, c->height, depth, opts,
                                            c->stream, CUDA_MAX_IN_FLIGHT,
                                            errbuf, sizeof(errbuf));
        if (ret < 0)
            av_log(c->ctx, AV_LOG_ERROR, "%s\n", errbuf);
    }
    if (ret >= 0 && (c->map_path || c->map_picture) &&
        (ret = float_adm_cuda_context_enable_map(c->adm)) < 0)
        av_log(c->ctx, AV_LOG_ERROR, "map: %s\n", float_adm_cuda_last_error(c->adm));
    if (ret >= 0 && c->map_picture)
        float_adm_cuda_map_size(c->adm, &c->map_columns, &c->map_rows, NULL);
    cuda_pop(c);
    if (ret >= 0) {
        const int exact = float_adm_cuda_is_exact(c->adm, errbuf, sizeof(errbuf));
        const int uploads = c->luma_source[INPUT_MAIN] != LUMA_ON_DEVICE ||
                            c->luma_source[INPUT_REFERENCE] != LUMA_ON_DEVICE;

        av_log(c->ctx, exact ? AV_LOG_VERBOSE : AV_LOG_WARNING, "CUDA backend%s: %s\n",
               uploads ? " (software frames uploaded)" : "", errbuf);
    }
    return ret;
}

av_cold int ff_float_adm_cuda_init(AVFilterContext *ctx, ADMCudaPath **cuda,
                                   const FloatAdmOptions *opts, int width, int height, int depth,
                                   const FloatAdmPlane layout[NB_INPUTS], const char *map_path,
                                   int map_picture)
{
    ADMCudaPath *c = av_mallocz(sizeof(*c));
    int ret;

    if (!c)
        return AVERROR(ENOMEM);
    *c = (ADMCudaPath) {
        .ctx = ctx, .width = width, .height = height,
        .layout = { layout[INPUT_MAIN], layout[INPUT_REFERENCE] },
        .map_path = map_path, .map_picture = map_picture,
    };
    *cuda = c;
    if ((ret = setup(c, opts, depth)) < 0)
        ff_float_adm_cuda_uninit(cuda);
    return ret;
}

void ff_float_adm_cuda_map_size(const ADMCudaPath *c, int *columns, int *rows)
{
    *columns = c->map_columns;
    *rows    = c->map_rows;
}

av_cold void ff_float_adm_cuda_uninit(ADMCudaPath **cuda)
{
    ADMCudaPath *c = *cuda;

    if (!c)
        return;
    /* Waits for the queued work, which still reads the filter's frames in flight. */
    float_adm_cuda_context_free(&c->adm);
    if (c->own_stream && cuda_push(c, c->hwctx) >= 0) {
        CHECK_CU(c->hwctx->internal->cuda_dl->cuStreamDestroy(c->stream));
        cuda_pop(c);
    }
    av_freep(&c->staging);
    av_buffer_unref(&c->ref_device);
    av_buffer_unref(&c->device);
    av_freep(cuda);
}

#else /* !HAVE_LIBFLOATADM_CUDA */

av_cold int ff_float_adm_cuda_init(AVFilterContext *ctx, ADMCudaPath **cuda,
                                   const FloatAdmOptions *opts, int width, int height, int depth,
                                   const FloatAdmPlane layout[NB_INPUTS], const char *map_path,
                                   int map_picture)
{
    av_log(ctx, AV_LOG_ERROR, "backend=cuda: no usable CUDA device.\n");
    av_log(ctx, AV_LOG_ERROR, "This FFmpeg was built without float_adm's CUDA backend "
           "(libfloatadm_cuda).\n");
    return AVERROR(ENODEV);
}

int ff_float_adm_cuda_submit(ADMCudaPath *cuda, const AVFrame *dist, const AVFrame *ref,
                             uint64_t index)
{
    return AVERROR_BUG;
}

int ff_float_adm_cuda_collect(ADMCudaPath *cuda, uint64_t index, int wait, FloatAdmScores *scores)
{
    return AVERROR_BUG;
}

int ff_float_adm_cuda_map_loss_rows(const ADMCudaPath *cuda, int first_row, int nb_rows,
                                    float *loss)
{
    return FLOAT_ADM_ERROR_INVALID;
}

void ff_float_adm_cuda_map_size(const ADMCudaPath *cuda, int *columns, int *rows)
{
    *columns = *rows = 0;
}

av_cold void ff_float_adm_cuda_uninit(ADMCudaPath **cuda)
{
}

#endif /* HAVE_LIBFLOATADM_CUDA */
