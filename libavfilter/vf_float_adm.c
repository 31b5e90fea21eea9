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

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <float_adm.h>

#include "config.h"
#include "libavutil/cpu.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "vf_float_adm.h"

#define OFFSET(x) offsetof(FloatADMContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

/* libvmaf's float_adm options, one row each in libfloatadm's table
 * (FLOAT_ADM_OPTIONS, float_adm.h), under libvmaf's names. */
#define ADM_AVTYPE_BOOL         AV_OPT_TYPE_BOOL
#define ADM_AVTYPE_INT          AV_OPT_TYPE_INT
#define ADM_AVTYPE_DOUBLE       AV_OPT_TYPE_DOUBLE
#define ADM_AVDEFAULT_BOOL(v)   { .i64 = v }
#define ADM_AVDEFAULT_INT(v)    { .i64 = v }
#define ADM_AVDEFAULT_DOUBLE(v) { .dbl = v }
#define ADM_OPTION(name, alias, field, type, def, min, max, help) \
    { name, help, OFFSET(opts.field), ADM_AVTYPE_##type, ADM_AVDEFAULT_##type(def), min, max, FLAGS },

const AVOption ff_float_adm_options[] = {
    FLOAT_ADM_OPTIONS(ADM_OPTION, ADM_OPTION)
    { "log_path", "Set the file to write the per-frame log to (- for stdout).",
      OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "Set the format of the log.",
      OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = FLOAT_ADM_LOG_XML }, FLOAT_ADM_LOG_JSON,
      FLOAT_ADM_LOG_SUB, FLAGS, .unit = "log_fmt" },
        { "xml",  "libvmaf's XML layout",  0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_XML },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout", 0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_JSON },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "libvmaf's CSV layout",  0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_CSV },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "sub",  "libvmaf's subtitle layout", 0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_SUB },
          0, 0, FLAGS, .unit = "log_fmt" },
    { "n_subsample", "Set the interval of the frames scored.",
      OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS_EXT(float_adm, FloatADMContext, fs, ff_float_adm_options);

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

av_cold int ff_float_adm_init(AVFilterContext *ctx, int (*on_event)(FFFrameSync *fs))
{
    FloatADMContext *s = ctx->priv;
    char errbuf[256];
    int ret = float_adm_options_validate(&s->opts, errbuf, sizeof(errbuf));

    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return AVERROR(EINVAL);
    }
    s->nb_scores  = s->opts.debug ? FLOAT_ADM_NUM_DEBUG_OUTPUTS : FLOAT_ADM_NUM_OUTPUTS;
    s->fs.on_event = on_event;
    return 0;
}

/* The log is written to a temporary beside log_path, locked against any other
 * writer, and renamed into place at its end.  ffmpeg rebuilds the graph when a
 * decoded input changes size or format: the new instance takes the log over
 * from the old one (libfloatadm keeps it for the process) and numbers the
 * frames on, so that the file lands once, with every frame. */
static int open_log(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;
    char errbuf[512] = "";
    int ret;

    if (!s->log_path)
        ret = float_adm_log_open(&s->log, NULL, s->log_fmt, &s->opts, s->width, s->height,
                                 errbuf, sizeof(errbuf));
    else
        ret = float_adm_log_acquire(&s->log, s->log_path, s->log_fmt, &s->opts,
                                    s->width, s->height, &s->frame_index,
                                    errbuf, sizeof(errbuf));
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return ret == FLOAT_ADM_ERROR_NOMEM ? AVERROR(ENOMEM) :
               ret == FLOAT_ADM_ERROR_BUSY  ? AVERROR(EBUSY)  : AVERROR(EINVAL);
    }
    s->shared_log = !!s->log_path;
    if (s->frame_index)
        av_log(ctx, AV_LOG_INFO, "The filter graph was rebuilt: the log %s goes on from "
               "frame %"PRIu64".\n", s->log_path, s->frame_index);
    return 0;
}

int ff_float_adm_config_output(AVFilterLink *outlink, const AVPixFmtDescriptor *main_desc,
                               const AVPixFmtDescriptor *ref_desc)
{
    AVFilterContext *ctx = outlink->src;
    FloatADMContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[INPUT_MAIN];
    AVFilterLink *reflink  = ctx->inputs[INPUT_REFERENCE];
    const AVPixFmtDescriptor *descs[NB_INPUTS] = { main_desc, ref_desc };
    int ret;

    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        main_desc->comp[0].depth != ref_desc->comp[0].depth) {
        av_log(ctx, AV_LOG_ERROR, "The inputs must have the same size and bit depth: the "
               "main (first) input is %dx%d %s, the reference (second) %dx%d %s.\n",
               mainlink->w, mainlink->h, main_desc->name,
               reflink->w, reflink->h, ref_desc->name);
        return AVERROR(EINVAL);
    }
    s->width  = mainlink->w;
    s->height = mainlink->h;
    for (int i = 0; i < NB_INPUTS; i++) {
        s->layout[i].bytes_per_sample = descs[i]->comp[0].depth > 8 ? 2 : 1;
        s->layout[i].shift            = descs[i]->comp[0].shift; /* P010's high bits */
    }
    if ((ret = open_log(ctx)) < 0)
        return ret;

    if ((ret = ff_framesync_init_dualinput(&s->fs, ctx)) < 0)
        return ret;
    /* The output is the main input's frames: it ends with them, and the rest of
     * the reference is not read. */
    s->fs.in[INPUT_MAIN].after = EXT_STOP;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ff_filter_link(outlink)->frame_rate = ff_filter_link(mainlink)->frame_rate;
    if ((ret = ff_framesync_configure(&s->fs)) < 0)
        return ret;
    outlink->time_base = s->fs.time_base;
    return 0;
}

int ff_float_adm_get_pair(FFFrameSync *fs, AVFrame **dist, AVFrame **ref,
                          uint64_t *index, int *score)
{
    AVFilterContext *ctx = fs->parent;
    FloatADMContext *s = ctx->priv;
    int ret = ff_framesync_dualinput_get(fs, dist, ref);

    if (ret < 0)
        return ret;
    for (int i = 0; *dist && i < NB_INPUTS; i++) {
        const AVFrame *frame = i == INPUT_MAIN ? *dist : *ref;

        if (frame && (frame->width != s->width || frame->height != s->height)) {
            av_log(ctx, AV_LOG_ERROR, "The %s input changed size mid-stream from %dx%d to "
                   "%dx%d: float_adm scores frames of one size.\n",
                   i == INPUT_MAIN ? "main (first)" : "reference (second)",
                   s->width, s->height, frame->width, frame->height);
            av_frame_free(dist);
            return AVERROR(EINVAL);
        }
    }
    *index = s->frame_index++;
    *score = *ref && !ctx->is_disabled && !(*index % s->n_subsample);
    return 0;
}

/* 17 significant digits, so that the text parses back to the same double, and
 * no exponent: FATE's refcmp-metadata.awk reads only plain decimals as numbers. */
static int set_meta(AVDictionary **metadata, const char *name, double value)
{
    char key[64], str[384];

    snprintf(key, sizeof(key), "lavfi.float_adm.%s", name);
    snprintf(str, sizeof(str), "%.17g", value);
    if (strchr(str, 'e'))
        snprintf(str, sizeof(str), "%.*f", FFMAX(0, 16 - (int)floor(log10(fabs(value)))), value);
    return av_dict_set(metadata, key, str, 0);
}

/* A log that cannot be written fails the frame: no score is lost silently. */
int ff_float_adm_emit(AVFilterContext *ctx, AVFrame *dist, uint64_t index,
                      const FloatAdmScores *scores)
{
    FloatADMContext *s = ctx->priv;
    char errbuf[256] = "";
    int ret = 0;

    for (int i = 0; scores && i < s->nb_scores && ret >= 0; i++)
        ret = set_meta(&dist->metadata, float_adm_output_name(i),
                       float_adm_output_value(scores, i));
    if (ret >= 0 && scores &&
        float_adm_log_frame(s->log, index, scores, errbuf, sizeof(errbuf)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64": %s\n", index, errbuf);
        ret = AVERROR(EIO);
    }
    if (ret < 0) {
        av_frame_free(&dist);
        return ret;
    }
    return ff_filter_frame(ctx->outputs[0], dist);
}

static void report_pooled(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;
    FloatAdmPooled pooled;

    for (int i = 0; s->log && i < s->nb_scores; i++) {
        if (float_adm_log_pooled(s->log, i, &pooled) >= 0)
            av_log(ctx, AV_LOG_INFO, "%s mean:%.6f min:%.6f max:%.6f harmonic_mean:%.6f\n",
                   float_adm_output_name(i), pooled.mean, pooled.min, pooled.max,
                   pooled.harmonic_mean);
    }
}

/* The end of the output (the inputs ended, or it was closed): the log lands
 * now, so that a log that cannot be written, or whose path another writer
 * took meanwhile, fails the run. */
int ff_float_adm_activate(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;
    char errbuf[512] = "";
    int ret = ff_framesync_activate(&s->fs);

    if (ret >= 0 && !s->ended && ff_outlink_get_status(ctx->outputs[0])) {
        s->ended = 1;
        if (s->shared_log) {
            report_pooled(ctx);
            if (float_adm_log_end(&s->log, errbuf, sizeof(errbuf)) < 0) {
                av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
                ret = AVERROR(EIO);
            }
        }
    }
    if (ret < 0 && ret != AVERROR_EOF && ret != FFERROR_NOT_READY && !s->failed)
        s->failed = ret;
    return ret;
}

/* A log still open here (the end of the output landed it) is closed one of two
 * ways: the run failed (it says incomplete, so that no reader takes it for
 * finished), or ffmpeg freed the graph without an end, to rebuild it or because
 * -frames has all it wants (kept for the next instance; one that never comes
 * leaves it to land when the process exits). */
static void close_log(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;
    char errbuf[512] = "", reason[128];
    int ret;

    if (!s->shared_log) {
        float_adm_log_close(&s->log, errbuf, sizeof(errbuf));
        return;
    }
    if (s->failed) {
        snprintf(reason, sizeof(reason), "the filter failed: %s", av_err2str(s->failed));
        ret = float_adm_log_abandon(&s->log, reason, errbuf, sizeof(errbuf));
    } else {
        ret = float_adm_log_release(&s->log, s->frame_index, errbuf, sizeof(errbuf));
    }
    if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
}

/* A rebuilt instance that failed before it took the log over ends the log its
 * predecessor kept, as incomplete. */
static void abandon_kept_log(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;
    char errbuf[512] = "", reason[160];

    snprintf(reason, sizeof(reason), "the filter graph was rebuilt, and its new float_adm "
             "failed: %s", av_err2str(s->failed));
    if (float_adm_log_abandon_released(s->log_path, reason, errbuf, sizeof(errbuf)) < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
}

av_cold void ff_float_adm_uninit(AVFilterContext *ctx)
{
    FloatADMContext *s = ctx->priv;

    report_pooled(ctx);
    if (!s->log && s->failed && s->log_path)
        abandon_kept_log(ctx);
    if (s->log)
        close_log(ctx);
    ff_framesync_uninit(&s->fs);
}

/* ---- float_adm: the CPU ---- */

static int score_pair(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    FloatADMContext *s = ctx->priv;
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
        return ret == FLOAT_ADM_ERROR_NOMEM ? AVERROR(ENOMEM) : AVERROR_EXTERNAL;
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
    FloatADMContext *s = ctx->priv;
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
    FloatADMContext *s = ctx->priv;
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
        ret = ret == FLOAT_ADM_ERROR_NOMEM ? AVERROR(ENOMEM) : AVERROR(EINVAL);
        goto fail;
    }
    if ((ret = float_adm_context_set_simd_level(s->adm, simd_level(av_get_cpu_flags()))) < 0) {
        ret = AVERROR_BUG;
        goto fail;
    }
    s->nb_jobs = ff_filter_get_nb_threads(ctx);
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
    FloatADMContext *s = ctx->priv;

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
    .priv_size      = sizeof(FloatADMContext),
    FILTER_INPUTS(float_adm_inputs),
    FILTER_OUTPUTS(float_adm_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
