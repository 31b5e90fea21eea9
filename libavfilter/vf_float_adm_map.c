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
 * Where Netflix VMAF's float ADM finds detail lost, as a video: float_adm's
 * scores, with in place of each main frame an RGB24 picture of its map (the
 * loss of each 32x32 block, libfloatadm's float_adm_map_render_rgb24).
 */

#include <math.h>

#include <float_adm.h>

#include "libavutil/cpu.h"
#include "libavutil/mem.h"
#include "avfilter.h"
#include "filters.h"
#include "float_adm_common.h"
#include "formats.h"
#include "framesync.h"
#include "video.h"

typedef struct MapState {
    float *loss;            /* the grid of the frame last scored; NaN (not measured) before */
    int columns, rows;      /* the grid's size, in blocks */
    AVFrame *picture;       /* the last picture painted, repeated for unscored frames */
    int nb_jobs;            /* the slices of block rows it is painted in */
    int *job_rets;
} MapState;

typedef struct PaintJob {
    const float *loss;
    AVFrame *picture;
    int columns, rows;
} PaintJob;

FRAMESYNC_DEFINE_CLASS_EXT(float_adm_map, ADMContext, fs, ff_float_adm_options);

static const enum AVPixelFormat out_pix_fmts[] = { AV_PIX_FMT_RGB24, AV_PIX_FMT_NONE };

/* FFmpeg 7.1 (libavfilter 10) has only the untyped list constructor. */
#if LIBAVFILTER_VERSION_MAJOR < 11
#define ff_make_pixel_format_list(fmts) ff_make_format_list((const int *)(fmts))
#endif

/* The inputs are read as float_adm reads them, each keeping its own colour
 * range and space; the output is a picture of its own. */
static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    int ret;

    for (int i = 0; i < NB_INPUTS; i++) {
        if ((ret = ff_formats_ref(ff_make_pixel_format_list(ff_float_adm_pix_fmts),
                                  &cfg_in[i]->formats)) < 0 ||
            (ret = ff_formats_ref(ff_all_color_ranges(), &cfg_in[i]->color_ranges)) < 0 ||
            (ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[i]->color_spaces)) < 0)
            return ret;
    }
    return ff_formats_ref(ff_make_pixel_format_list(out_pix_fmts), &cfg_out[0]->formats);
}

/* A slice of the grid's block rows: a picture is megabytes a frame. */
static int paint_rows(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    const PaintJob *p = arg;
    const int first = p->rows * jobnr / nb_jobs, last = p->rows * (jobnr + 1) / nb_jobs;
    const int y = first * FLOAT_ADM_MAP_BLOCK_SIZE;
    const int height = FFMIN(last * FLOAT_ADM_MAP_BLOCK_SIZE, p->picture->height) - y;
    const ptrdiff_t linesize = p->picture->linesize[0];

    return float_adm_map_render_rgb24(p->loss + (size_t)first * p->columns, p->columns,
                                      last - first, p->picture->data[0] + y * linesize,
                                      p->picture->width, height, linesize);
}

static int paint(AVFilterContext *ctx, MapState *m)
{
    AVFilterLink *outlink = ctx->outputs[0];
    PaintJob job = { .loss = m->loss, .columns = m->columns, .rows = m->rows };

    av_frame_free(&m->picture);
    if (!(m->picture = ff_get_video_buffer(outlink, outlink->w, outlink->h)))
        return AVERROR(ENOMEM);
    job.picture = m->picture;
    ff_filter_execute(ctx, paint_rows, &job, m->job_rets, m->nb_jobs);
    for (int i = 0; i < m->nb_jobs; i++) {
        if (m->job_rets[i] < 0) {
            av_log(ctx, AV_LOG_ERROR, "The map could not be painted: %s\n",
                   float_adm_strerror(m->job_rets[i]));
            av_frame_free(&m->picture);
            return AVERROR_EXTERNAL;
        }
    }
    return 0;
}

/* The main frame leaves as its map's picture, with its time and metadata.  An
 * unscored frame shows the last map again, or before the first a picture of
 * nothing measured (grey). */
static int map_pair(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    ADMContext *s = ctx->priv;
    MapState *m = s->map;
    FloatAdmScores scores;
    AVFrame *dist, *ref, *out = NULL;
    uint64_t index;
    int score, ret;

    if ((ret = ff_float_adm_get_pair(fs, &dist, &ref, &index, &score)) < 0 || !dist)
        return ret;
    if (score && (ret = ff_float_adm_score_cpu(ctx, dist, ref, index, &scores)) >= 0 &&
        (ret = float_adm_map_loss(s->adm, m->loss, (size_t)m->columns * m->rows)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "The map of frame %"PRIu64": %s\n", index,
               float_adm_strerror(ret));
        ret = AVERROR_EXTERNAL;
    }
    if (ret >= 0 && (score || !m->picture))
        ret = paint(ctx, m);
    if (ret >= 0 && !(out = av_frame_clone(m->picture)))
        ret = AVERROR(ENOMEM);
    if (ret >= 0) {
        out->pts                 = dist->pts;
        out->duration            = dist->duration;
        out->sample_aspect_ratio = dist->sample_aspect_ratio;
        FFSWAP(AVDictionary *, out->metadata, dist->metadata);
    }
    av_frame_free(&dist);
    if (ret < 0)
        return ret;
    return ff_float_adm_emit(ctx, out, index, score ? &scores : NULL);
}

static av_cold int init(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    if (!(s->map = av_mallocz(sizeof(MapState))))
        return AVERROR(ENOMEM);
    return ff_float_adm_init(ctx, map_pair);
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    ADMContext *s = ctx->priv;
    MapState *m = s->map;
    size_t blocks;
    int ret;

    if ((ret = ff_float_adm_config_cpu(outlink)) < 0)
        return ret;
    if (float_adm_context_enable_map(s->adm) < 0) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    float_adm_map_size(s->adm, &m->columns, &m->rows, NULL);
    blocks = (size_t)m->columns * m->rows;
    /* At most a slice per core: each thread woken takes a slice of its own, and
     * the threads are one more than the cores by default. */
    m->nb_jobs = FFMIN3(ff_filter_get_nb_threads(ctx), av_cpu_count(), m->rows);
    if (!(m->loss = av_malloc_array(blocks, sizeof(*m->loss))) ||
        !(m->job_rets = av_calloc(m->nb_jobs, sizeof(*m->job_rets)))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    for (size_t i = 0; i < blocks; i++)
        m->loss[i] = NAN;
    return 0;
fail:
    s->failed = ret;
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    MapState *m = s->map;

    ff_float_adm_uninit_cpu(ctx);
    if (m) {
        av_freep(&m->loss);
        av_freep(&m->job_rets);
        av_frame_free(&m->picture);
    }
    av_freep(&s->map);
}

static const AVFilterPad float_adm_map_inputs[] = {
    {
        .name = "main",
        .type = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name = "reference",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

static const AVFilterPad float_adm_map_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

#if LIBAVFILTER_VERSION_MAJOR >= 11
const FFFilter ff_vf_float_adm_map = {
    .p.name         = "float_adm_map",
    .p.description  = NULL_IF_CONFIG_SMALL("Show where Netflix VMAF's float ADM finds detail "
                                           "lost, as a video."),
    .p.priv_class   = &float_adm_map_class,
    .p.flags        = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_SLICE_THREADS,
#else
const AVFilter ff_vf_float_adm_map = {
    .name           = "float_adm_map",
    .description    = NULL_IF_CONFIG_SMALL("Show where Netflix VMAF's float ADM finds detail "
                                           "lost, as a video."),
    .priv_class     = &float_adm_map_class,
    .flags          = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_SLICE_THREADS,
#endif
    .preinit        = float_adm_map_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = ff_float_adm_activate,
    .priv_size      = sizeof(ADMContext),
    FILTER_INPUTS(float_adm_map_inputs),
    FILTER_OUTPUTS(float_adm_map_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
