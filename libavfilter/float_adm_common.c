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
 * What float_adm and float_adm_cuda share: the options, the pairing, the log
 * and the metadata (float_adm_common.h).
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <float_adm.h>

#include "libavutil/error.h"
#include "libavutil/opt.h"
#include "avfilter.h"
#include "filters.h"
#include "float_adm_common.h"
#include "framesync.h"

#define OFFSET(x) offsetof(ADMContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

/* log_fmt's values are the filter's own: its range does not depend on the order
 * of libfloatadm's enum. */
enum LogFormat {
    LOG_FMT_JSON,
    LOG_FMT_CSV,
    LOG_FMT_XML,
    LOG_FMT_SUB,
    NB_LOG_FMTS,
};

static const enum FloatAdmLogFormat log_formats[NB_LOG_FMTS] = {
    [LOG_FMT_JSON] = FLOAT_ADM_LOG_JSON,
    [LOG_FMT_CSV]  = FLOAT_ADM_LOG_CSV,
    [LOG_FMT_XML]  = FLOAT_ADM_LOG_XML,
    [LOG_FMT_SUB]  = FLOAT_ADM_LOG_SUB,
};

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
    { "log_path", "file to write the per-frame log to (-: stdout)",
      OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "format of the log",
      OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = LOG_FMT_XML }, 0, NB_LOG_FMTS - 1, FLAGS,
      .unit = "log_fmt" },
        { "xml",  "libvmaf's XML layout",  0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_XML },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout", 0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_JSON },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "libvmaf's CSV layout",  0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_CSV },
          0, 0, FLAGS, .unit = "log_fmt" },
        { "sub",  "libvmaf's subtitle layout", 0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_SUB },
          0, 0, FLAGS, .unit = "log_fmt" },
    { "n_subsample", "score every n-th frame only",
      OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { NULL }
};

av_cold int ff_float_adm_init(AVFilterContext *ctx, int (*on_event)(FFFrameSync *fs))
{
    ADMContext *s = ctx->priv;
    char errbuf[256];
    int ret = float_adm_options_validate(&s->opts, errbuf, sizeof(errbuf));

    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return ret;
    }
    s->nb_scores  = s->opts.debug ? FLOAT_ADM_NUM_DEBUG_OUTPUTS : FLOAT_ADM_NUM_OUTPUTS;
    s->fs.on_event = on_event;
    return 0;
}

/* Each filter instance writes a log of its own, as psnr's stats_file: the file
 * log_path names is replaced, a link written through, a FIFO or a device
 * written to at the end; only a file this process has open (an input) is
 * refused.  libfloatadm writes the log to a temporary beside the file, locked
 * against another writer, and renames it into place when the log is closed:
 * at the end of the output, or in uninit.  Its error codes are negative errno
 * values, as AVERROR's. */
static int open_log(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[512] = "";
    int ret = float_adm_log_open_flags(&s->log, s->log_path, log_formats[s->log_fmt], &s->opts,
                                       s->width, s->height, FLOAT_ADM_LOG_ANY_FILE,
                                       errbuf, sizeof(errbuf));

    if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
    return ret;
}

int ff_float_adm_config_output(AVFilterLink *outlink, const AVPixFmtDescriptor *main_desc,
                               const AVPixFmtDescriptor *ref_desc)
{
    AVFilterContext *ctx = outlink->src;
    ADMContext *s = ctx->priv;
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
    ADMContext *s = ctx->priv;
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
    ADMContext *s = ctx->priv;
    char errbuf[256] = "";
    int ret = 0;

    for (int i = 0; scores && i < s->nb_scores && ret >= 0; i++)
        ret = set_meta(&dist->metadata, float_adm_output_name(i),
                       float_adm_output_value(scores, i));
    if (ret >= 0 && scores &&
        (ret = float_adm_log_frame(s->log, index, scores, errbuf, sizeof(errbuf))) < 0)
        av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64": %s\n", index, errbuf);
    if (ret < 0) {
        av_frame_free(&dist);
        return ret;
    }
    return ff_filter_frame(ctx->outputs[0], dist);
}

static void report_pooled(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    FloatAdmPooled pooled;

    for (int i = 0; s->log && i < s->nb_scores; i++) {
        if (float_adm_log_pooled(s->log, i, &pooled) >= 0)
            av_log(ctx, AV_LOG_INFO, "%s mean:%.6f min:%.6f max:%.6f harmonic_mean:%.6f\n",
                   float_adm_output_name(i), pooled.mean, pooled.min, pooled.max,
                   pooled.harmonic_mean);
    }
}

/* The end of the output (the inputs ended, or it was closed): the log lands
 * now, so that a log that cannot be written, or whose file another program
 * wrote meanwhile, fails the run. */
int ff_float_adm_activate(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[512] = "";
    int ret = ff_framesync_activate(&s->fs);

    if (ret >= 0 && !s->ended && ff_outlink_get_status(ctx->outputs[0])) {
        int closed;

        s->ended = 1;
        report_pooled(ctx);
        if ((closed = float_adm_log_close(&s->log, errbuf, sizeof(errbuf))) < 0) {
            av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
            ret = closed;
        }
    }
    if (ret < 0 && ret != AVERROR_EOF && ret != FFERROR_NOT_READY && !s->failed)
        s->failed = ret;
    return ret;
}

/* A log still open here (the end of the output closes it) lands now: as
 * incomplete where the filter failed, so that no reader takes it for finished;
 * else whole, with the frames passed on (ffmpeg freed the graph without an end:
 * -frames has what it wants, or an input changed size and the new graph's
 * instance writes a log of its own, as psnr's stats_file is written again). */
static void close_log(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[512] = "", reason[128];
    int ret;

    if (s->failed) {
        snprintf(reason, sizeof(reason), "the filter failed: %s", av_err2str(s->failed));
        ret = float_adm_log_abandon(&s->log, reason, errbuf, sizeof(errbuf));
    } else {
        ret = float_adm_log_close(&s->log, errbuf, sizeof(errbuf));
    }
    if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
}

av_cold void ff_float_adm_uninit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    report_pooled(ctx);
    if (s->log)
        close_log(ctx);
    ff_framesync_uninit(&s->fs);
}
