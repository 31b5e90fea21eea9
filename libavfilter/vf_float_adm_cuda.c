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
 * Netflix VMAF's float ADM features of CUDA frames, computed on their GPU by
 * libfloatadm_cuda, bit for bit as float_adm computes them.
 */

#include <stdint.h>

#include <float_adm_cuda.h>

#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "float_adm_common.h"
#include "formats.h"
#include "framesync.h"

FRAMESYNC_DEFINE_CLASS_EXT(float_adm_cuda, ADMContext, fs, ff_float_adm_options);

/* The formats float_adm reads that CUDA frames can hold (hwcontext_cuda's). */
static const enum AVPixelFormat sw_formats[] = {
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_NV12,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_P010, AV_PIX_FMT_P012, AV_PIX_FMT_P016, AV_PIX_FMT_YUV444P16,
};

typedef struct ADMCuda {
    AVBufferRef *device;            /* the main input's: scoring runs in its context */
    AVCUDADeviceContext *hwctx;
    CUstream stream;                /* the device's, or one of ours */
    FloatAdmCudaContext *adm;
    AVBufferRef *ref_device;        /* the reference's, if another context or stream: */
    AVCUDADeviceContext *ref_hwctx;
    CUevent ref_ready;              /* recorded on its stream after its frame's writes */
    CUdeviceptr copy;               /* the reference's luma, from another context */
    size_t copy_pitch;
} ADMCuda;

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, c->hwctx->internal->cuda_dl, x)

static int push(AVFilterContext *ctx, ADMCuda *c, AVCUDADeviceContext *hwctx)
{
    return CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPushCurrent(hwctx->cuda_ctx));
}

static void pop(AVFilterContext *ctx, ADMCuda *c)
{
    CUcontext dummy;

    CHECK_CU(c->hwctx->internal->cuda_dl->cuCtxPopCurrent(&dummy));
}

/* CUDA frames in and out.  Each input keeps its own colour range and space, as
 * in float_adm: nothing can convert CUDA frames to common ones.  The reference's
 * lists are set first: the common ones fill only what is unset. */
static int query_formats(const AVFilterContext *ctx, AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    int ret;

    if ((ret = ff_formats_ref(ff_all_color_ranges(),
                              &cfg_in[INPUT_REFERENCE]->color_ranges)) < 0 ||
        (ret = ff_formats_ref(ff_all_color_spaces(),
                              &cfg_in[INPUT_REFERENCE]->color_spaces)) < 0 ||
        (ret = ff_set_common_color_ranges2(ctx, cfg_in, cfg_out, ff_all_color_ranges())) < 0 ||
        (ret = ff_set_common_color_spaces2(ctx, cfg_in, cfg_out, ff_all_color_spaces())) < 0)
        return ret;
    return ff_set_common_formats2(ctx, cfg_in, cfg_out,
                                  ff_make_formats_list_singleton(AV_PIX_FMT_CUDA));
}

static int input_frames(AVFilterContext *ctx, int input, AVHWFramesContext **frames)
{
    const AVBufferRef *ref = ff_filter_link(ctx->inputs[input])->hw_frames_ctx;
    const char *name = input == INPUT_MAIN ? "main (first)" : "reference (second)";

    if (!ref) {
        av_log(ctx, AV_LOG_ERROR, "The %s input has no CUDA frames context.\n", name);
        return AVERROR(EINVAL);
    }
    *frames = (AVHWFramesContext *)ref->data;
    for (int i = 0; i < FF_ARRAY_ELEMS(sw_formats); i++)
        if ((*frames)->sw_format == sw_formats[i])
            return 0;
    av_log(ctx, AV_LOG_ERROR, "The %s input's CUDA frames are %s: float_adm_cuda reads "
           "yuv420p, yuv422p, yuv444p, nv12, yuv420p10, yuv422p10, yuv444p10, p010, p012, "
           "p016 and yuv444p16.\n", name, av_get_pix_fmt_name((*frames)->sw_format));
    return AVERROR(EINVAL);
}

/* Scoring runs where the main input's frames are.  Each hwupload_cuda makes a
 * CUDA context of its own: the reference's frames may be of another context of
 * the same device, which can be read (unified addressing), not of another device. */
static int open_device(AVFilterContext *ctx, ADMCuda *c, AVHWFramesContext *frames[NB_INPUTS])
{
    AVCUDADeviceContext *ref_hwctx = frames[INPUT_REFERENCE]->device_ctx->hwctx;
    CudaFunctions *cu;
    CUdevice devices[NB_INPUTS];
    char names[NB_INPUTS][128];
    int ret;

    if (!(c->device = av_buffer_ref(frames[INPUT_MAIN]->device_ref)))
        return AVERROR(ENOMEM);
    c->hwctx = frames[INPUT_MAIN]->device_ctx->hwctx;
    cu = c->hwctx->internal->cuda_dl;
    if (ref_hwctx->cuda_ctx == c->hwctx->cuda_ctx && ref_hwctx->stream == c->hwctx->stream)
        return 0;
    for (int i = 0; i < NB_INPUTS; i++) {
        if ((ret = push(ctx, c, frames[i]->device_ctx->hwctx)) < 0)
            return ret;
        ret = CHECK_CU(cu->cuCtxGetDevice(&devices[i]));
        pop(ctx, c);
        if (ret < 0 ||
            (ret = CHECK_CU(cu->cuDeviceGetName(names[i], sizeof(names[i]), devices[i]))) < 0)
            return ret;
    }
    if (devices[INPUT_MAIN] != devices[INPUT_REFERENCE]) {
        av_log(ctx, AV_LOG_ERROR, "The inputs' CUDA frames are on two devices: the main "
               "(first) input's on CUDA device %d (%s), the reference's on CUDA device %d "
               "(%s).  Put both on one: hwupload both with -init_hw_device cuda=gpu:N "
               "-filter_hw_device gpu, or use hwupload_cuda=device=N, or -hwaccel_device N, "
               "for both.\n", devices[INPUT_MAIN], names[INPUT_MAIN],
               devices[INPUT_REFERENCE], names[INPUT_REFERENCE]);
        return AVERROR(EINVAL);
    }
    if (!(c->ref_device = av_buffer_ref(frames[INPUT_REFERENCE]->device_ref)))
        return AVERROR(ENOMEM);
    c->ref_hwctx = ref_hwctx;
    if ((ret = push(ctx, c, ref_hwctx)) < 0)
        return ret;
    ret = CHECK_CU(cu->cuEventCreate(&c->ref_ready, CU_EVENT_DISABLE_TIMING));
    pop(ctx, c);
    return ret;
}

/* In the main input's context, current. */
static int create(AVFilterContext *ctx, ADMCuda *c, int depth)
{
    ADMContext *s = ctx->priv;
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;
    char errbuf[1024];
    int exact, ret;

    /* After the writes of the main input's frames: on their stream, or where that
     * is the legacy one, on a blocking stream of ours (the library's would not wait). */
    c->stream = c->hwctx->stream;
    if (!c->stream && (ret = CHECK_CU(cu->cuStreamCreate(&c->stream, CU_STREAM_DEFAULT))) < 0)
        return ret;
    if (c->ref_hwctx && c->ref_hwctx->cuda_ctx != c->hwctx->cuda_ctx &&
        (ret = CHECK_CU(cu->cuMemAllocPitch(&c->copy, &c->copy_pitch, (size_t)s->width *
                                            s->layout[INPUT_REFERENCE].bytes_per_sample,
                                            s->height, 16))) < 0)
        return ret;
    ret = float_adm_cuda_context_create(&c->adm, s->width, s->height, depth, &s->opts,
                                        c->stream, 1, errbuf, sizeof(errbuf));
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return ret;
    }
    /* The kernels divide as this host's processor does where they can model it;
     * where they cannot, the documentation's promise does not hold: say so. */
    exact = float_adm_cuda_is_exact(c->adm, errbuf, sizeof(errbuf));
    av_log(ctx, exact ? AV_LOG_VERBOSE : AV_LOG_WARNING, "%s%s\n",
           exact ? "" : "The scores may differ from float_adm's on this host in their last "
           "bits: ", errbuf);
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    ADMContext *s = ctx->priv;
    FilterLink *out = ff_filter_link(outlink);
    FilterLink *mainlink = ff_filter_link(ctx->inputs[INPUT_MAIN]);
    AVHWFramesContext *frames[NB_INPUTS];
    const AVPixFmtDescriptor *main_desc;
    ADMCuda *c;
    int ret;

    for (int i = 0; i < NB_INPUTS; i++)
        if ((ret = input_frames(ctx, i, &frames[i])) < 0)
            goto fail;
    main_desc = av_pix_fmt_desc_get(frames[INPUT_MAIN]->sw_format);
    ret = ff_float_adm_config_output(outlink, main_desc,
                                     av_pix_fmt_desc_get(frames[INPUT_REFERENCE]->sw_format));
    if (ret < 0)
        goto fail;
    /* The main input's frames leave as they came. */
    if (!(out->hw_frames_ctx = av_buffer_ref(mainlink->hw_frames_ctx)) ||
        !(c = s->cuda = av_mallocz(sizeof(*c)))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    if ((ret = open_device(ctx, c, frames)) < 0 || (ret = push(ctx, c, c->hwctx)) < 0)
        goto fail;
    ret = create(ctx, c, main_desc->comp[0].depth);
    pop(ctx, c);
    if (ret >= 0)
        return 0;
fail:
    s->failed = ret;
    return ret;
}

/* The reference's frames of another context or stream: their luma is copied on
 * their own stream, after their writes, and the scoring stream waits for that on
 * the device (an event), not the host.  Each frame is scored to its end before
 * the next copy is queued, so the copy is not overwritten while it is read. */
static int take_reference(AVFilterContext *ctx, ADMCuda *c, const AVFrame *ref,
                          FloatAdmCudaPlane *plane)
{
    CudaFunctions *cu = c->hwctx->internal->cuda_dl;
    int ret = push(ctx, c, c->ref_hwctx);

    if (ret < 0)
        return ret;
    if (c->copy) {
        CUDA_MEMCPY2D cpy = {
            .srcMemoryType = CU_MEMORYTYPE_DEVICE,
            .srcDevice     = (CUdeviceptr)ref->data[0],
            .srcPitch      = ref->linesize[0],
            .dstMemoryType = CU_MEMORYTYPE_DEVICE,
            .dstDevice     = c->copy,
            .dstPitch      = c->copy_pitch,
            .WidthInBytes  = (size_t)ref->width * plane->bytes_per_sample,
            .Height        = ref->height,
        };

        ret = CHECK_CU(cu->cuMemcpy2DAsync(&cpy, c->ref_hwctx->stream));
        plane->data  = (const void *)(uintptr_t)c->copy;
        plane->pitch = c->copy_pitch;
    }
    if (ret >= 0)
        ret = CHECK_CU(cu->cuEventRecord(c->ref_ready, c->ref_hwctx->stream));
    pop(ctx, c);
    if (ret >= 0)
        ret = CHECK_CU(cu->cuStreamWaitEvent(c->stream, c->ref_ready, 0));
    return ret;
}

static int score_pair(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    ADMContext *s = ctx->priv;
    ADMCuda *c = s->cuda;
    FloatAdmCudaPlane planes[NB_INPUTS];
    FloatAdmScores scores;
    AVFrame *dist, *ref;
    uint64_t index;
    int score, ret;

    if ((ret = ff_float_adm_get_pair(fs, &dist, &ref, &index, &score)) < 0 || !dist)
        return ret;
    if (!score)
        return ff_float_adm_emit(ctx, dist, index, NULL);
    for (int i = 0; i < NB_INPUTS; i++) {
        const AVFrame *frame = i == INPUT_MAIN ? dist : ref;

        /* Hardware frames keep the cropping a decoder leaves at the top and left,
         * and all that crop gives them, as fields: the rows and columns outside
         * the picture would be scored. */
        if (frame->crop_top || frame->crop_bottom || frame->crop_left || frame->crop_right) {
            av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64": the %s input's picture is "
                   "cropped (top %zu, bottom %zu, left %zu, right %zu rows and columns), "
                   "which CUDA frames leave undone: decode it in software and upload "
                   "it with hwupload.\n", index, i == INPUT_MAIN ? "main" : "reference",
                   frame->crop_top, frame->crop_bottom, frame->crop_left, frame->crop_right);
            ret = AVERROR(ENOSYS);
            goto fail;
        }
        planes[i] = (FloatAdmCudaPlane) {
            .data             = frame->data[0],
            .pitch            = frame->linesize[0],
            .bytes_per_sample = s->layout[i].bytes_per_sample,
            .shift            = s->layout[i].shift, /* P010's high bits */
        };
    }
    if (c->ref_hwctx && (ret = take_reference(ctx, c, ref, &planes[INPUT_REFERENCE])) < 0)
        goto fail;
    if ((ret = push(ctx, c, c->hwctx)) < 0)
        goto fail;
    ret = float_adm_cuda_score_frame(c->adm, &planes[INPUT_REFERENCE], &planes[INPUT_MAIN],
                                     &scores);
    pop(ctx, c);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Scoring frame %"PRIu64" on the GPU failed: %s (%s)\n",
               index, float_adm_cuda_strerror(ret), float_adm_cuda_last_error(c->adm));
        goto fail;
    }
    return ff_float_adm_emit(ctx, dist, index, &scores);
fail:
    av_frame_free(&dist);
    return ret;
}

static av_cold int init(AVFilterContext *ctx)
{
    return ff_float_adm_init(ctx, score_pair);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    ADMCuda *c = s->cuda;

    ff_float_adm_uninit(ctx);
    if (!c)
        return;
    /* The library makes its own context current. */
    float_adm_cuda_context_free(&c->adm);
    if (c->hwctx && push(ctx, c, c->hwctx) >= 0) {
        if (c->copy)
            CHECK_CU(c->hwctx->internal->cuda_dl->cuMemFree(c->copy));
        if (c->stream && !c->hwctx->stream)
            CHECK_CU(c->hwctx->internal->cuda_dl->cuStreamDestroy(c->stream));
        pop(ctx, c);
    }
    if (c->ref_ready && push(ctx, c, c->ref_hwctx) >= 0) {
        CHECK_CU(c->hwctx->internal->cuda_dl->cuEventDestroy(c->ref_ready));
        pop(ctx, c);
    }
    av_buffer_unref(&c->ref_device);
    av_buffer_unref(&c->device);
    av_freep(&s->cuda);
}

static const AVFilterPad float_adm_cuda_inputs[] = {
    { .name = "main",      .type = AVMEDIA_TYPE_VIDEO },
    { .name = "reference", .type = AVMEDIA_TYPE_VIDEO },
};

static const AVFilterPad float_adm_cuda_outputs[] = {
    { .name = "default", .type = AVMEDIA_TYPE_VIDEO, .config_props = config_output },
};

#if LIBAVFILTER_VERSION_MAJOR >= 11
const FFFilter ff_vf_float_adm_cuda = {
    .p.name         = "float_adm_cuda",
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate Netflix VMAF's float ADM features "
                                           "between two CUDA video streams."),
    .p.priv_class   = &float_adm_cuda_class,
    .p.flags        = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_METADATA_ONLY,
#else
const AVFilter ff_vf_float_adm_cuda = {
    .name           = "float_adm_cuda",
    .description    = NULL_IF_CONFIG_SMALL("Calculate Netflix VMAF's float ADM features "
                                           "between two CUDA video streams."),
    .priv_class     = &float_adm_cuda_class,
    .flags          = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_METADATA_ONLY,
#endif
    .preinit        = float_adm_cuda_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = ff_float_adm_activate,
    .priv_size      = sizeof(ADMContext),
    FILTER_INPUTS(float_adm_cuda_inputs),
    FILTER_OUTPUTS(float_adm_cuda_outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
