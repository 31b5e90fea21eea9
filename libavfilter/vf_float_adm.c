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
 * Netflix VMAF's float ADM features (adm2, aim, adm3 and the per-scale
 * scores), bit-exact with libvmaf, computed by libfloatadm.
 */

#include <float_adm.h>

#include "config.h"
#include "libavutil/cpu.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "float_adm_common.h"
#include "formats.h"
#include "framesync.h"

FRAMESYNC_DEFINE_CLASS_EXT(float_adm, ADMContext, fs, ff_float_adm_options);

static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY9, AV_PIX_FMT_GRAY10,
    AV_PIX_FMT_GRAY12, AV_PIX_FMT_GRAY14, AV_PIX_FMT_GRAY16,
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV440P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P9, AV_PIX_FMT_YUV422P9, AV_PIX_FMT_YUV444P9,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV440P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12, AV_PIX_FMT_YUV422P12, AV_PIX_FMT_YUV440P12, AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P14, AV_PIX_FMT_YUV422P14, AV_PIX_FMT_YUV444P14,
    AV_PIX_FMT_YUV420P16, AV_PIX_FMT_YUV422P16, AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV21, AV_PIX_FMT_P010, AV_PIX_FMT_P012, AV_PIX_FMT_P016,
    AV_PIX_FMT_NONE
};

/* FFmpeg 7.1 (libavfilter 10) has only the untyped list constructor. */
#if LIBAVFILTER_VERSION_MAJOR < 11
#define ff_make_pixel_format_list(fmts) ff_make_format_list((const int *)(fmts))
#endif

/* One pixel format for both inputs and the output, so that FFmpeg converts a
 * reference of another format (another depth, another chroma layout) as it does
 * for psnr.  Each input keeps its own colour range and space: libvmaf reads the
 * samples as they are, and common ones would have FFmpeg convert the reference's.
 * The reference's lists are set first: the common ones fill only what is unset. */
static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
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
    return ff_set_common_formats2(ctx, cfg_in, cfg_out, ff_make_pixel_format_list(pix_fmts));
}

static int score_pair(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    ADMContext *s = ctx->priv;
    FloatAdmPlane planes[NB_INPUTS];
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

        planes[i]        = s->layout[i];
        planes[i].data   = frame->data[0];
        planes[i].stride = frame->linesize[0];
    }
    ret = float_adm_score_frame(s->adm, &planes[INPUT_REFERENCE], &planes[INPUT_MAIN], &scores);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Scoring frame %"PRIu64" failed: %s\n", index,
               float_adm_strerror(ret));
        av_frame_free(&dist);
        return ret;
    }
    return ff_float_adm_emit(ctx, dist, index, &scores);
}

static av_cold int init(AVFilterContext *ctx)
{
    return ff_float_adm_init(ctx, score_pair);
}

typedef struct SliceJob {
    FloatAdmJobFn job;
    void *arg;
} SliceJob;

static int run_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    const SliceJob *sj = arg;

    return sj->job(sj->arg, jobnr, nb_jobs);
}

/* libfloatadm splits each frame into row ranges: they run as the filter's slices. */
static int execute_slices(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    AVFilterContext *ctx = opaque;
    ADMContext *s = ctx->priv;
    SliceJob sj = { .job = job, .arg = arg };

    if (nb_jobs > s->nb_jobs)
        return AVERROR_BUG;
    ff_filter_execute(ctx, run_slice, &sj, s->job_rets, nb_jobs);
    for (int i = 0; i < nb_jobs; i++)
        if (s->job_rets[i] < 0)
            return s->job_rets[i];
    return 0;
}

/* The widest instructions -cpuflags leaves; libfloatadm lowers it further to
 * what gives libvmaf's bits on this processor. */
static const char *simd_level(int flags)
{
#if ARCH_X86
    if (flags & AV_CPU_FLAG_AVX512)
        return "avx512";
    if (flags & AV_CPU_FLAG_AVX2)
        return "avx2";
    if (flags & AV_CPU_FLAG_SSE2)
        return "sse2";
#endif
    return "scalar";
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    ADMContext *s = ctx->priv;
    const AVPixFmtDescriptor *main_desc = av_pix_fmt_desc_get(ctx->inputs[INPUT_MAIN]->format);
    const AVPixFmtDescriptor *ref_desc  = av_pix_fmt_desc_get(ctx->inputs[INPUT_REFERENCE]->format);
    char errbuf[256];
    int ret;

    if ((ret = ff_float_adm_config_output(outlink, main_desc, ref_desc)) < 0)
        goto fail;
    ret = float_adm_context_create(&s->adm, s->width, s->height, main_desc->comp[0].depth,
                                   &s->opts, errbuf, sizeof(errbuf));
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        goto fail;
    }
    if ((ret = float_adm_context_set_simd_level(s->adm, simd_level(av_get_cpu_flags()))) < 0) {
        ret = AVERROR_BUG;
        goto fail;
    }
    /* ffmpeg runs a core more slice threads than cores by default: a frame split into
     * more jobs than cores waits for the job left without one. */
    s->nb_jobs = FFMIN(ff_filter_get_nb_threads(ctx), av_cpu_count());
    if (s->nb_jobs > 1) {
        if (!(s->job_rets = av_calloc(s->nb_jobs, sizeof(*s->job_rets)))) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        if ((ret = float_adm_set_executor(s->adm, execute_slices, ctx, s->nb_jobs)) < 0) {
            ret = AVERROR_BUG;
            goto fail;
        }
    }
    av_log(ctx, AV_LOG_VERBOSE, "%s\n", float_adm_context_describe(s->adm, errbuf, sizeof(errbuf)));
    return 0;
fail:
    s->failed = ret;
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    ff_float_adm_uninit(ctx);
    float_adm_context_free(&s->adm);
    av_freep(&s->job_rets);
}

static const AVFilterPad float_adm_inputs[] = {
    {
        .name = "main",
        .type = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name = "reference",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

static const AVFilterPad float_adm_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

#if LIBAVFILTER_VERSION_MAJOR >= 11
const FFFilter ff_vf_float_adm = {
    .p.name         = "float_adm",
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate Netflix VMAF's float ADM features "
                                           "between two video streams."),
    .p.priv_class   = &float_adm_class,
    .p.flags        = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_SLICE_THREADS |
                      AVFILTER_FLAG_METADATA_ONLY,
#else
const AVFilter ff_vf_float_adm = {
    .name           = "float_adm",
    .description    = NULL_IF_CONFIG_SMALL("Calculate Netflix VMAF's float ADM features "
                                           "between two video streams."),
    .priv_class     = &float_adm_class,
    .flags          = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_SLICE_THREADS |
                      AVFILTER_FLAG_METADATA_ONLY,
#endif
    .preinit        = float_adm_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = ff_float_adm_activate,
    .priv_size      = sizeof(ADMContext),
    FILTER_INPUTS(float_adm_inputs),
    FILTER_OUTPUTS(float_adm_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
