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
#include "libavutil/avstring.h"
#include "libavutil/cpu.h"
#include "libavutil/fifo.h"
#include "libavutil/hwcontext.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "video.h"
#include "vf_float_adm_cuda.h"
#include "vf_float_adm_pairs.h"

/* Frames in flight on the CPU have buffers of their own each: a bound on their memory. */
#define MAX_CPU_THREADS 32

/* A frame waiting to leave in order behind frames in flight: with ref, for its
 * scores (the backend reads both frames' planes until they are collected). */
typedef struct QueuedFrame {
    AVFrame *dist;
    AVFrame *ref;
    uint64_t index;
    const char *skipped;    /* unscored: why, for the log, or NULL */
} QueuedFrame;

enum Backend {
    BACKEND_AUTO,
    BACKEND_CPU,
    BACKEND_CUDA,
};

typedef struct ADMContext {
    const AVClass *class;
    FFFrameSync fs;

    FloatAdmOptions opts;
    char *log_path;
    int log_fmt;
    char *map_path;
    int n_subsample;
    int backend;
    char *metadata_prefix;

    int map_output;                 /* float_adm_map: the output is the map's picture */
    FloatAdmContext *adm;
    int width, height;              /* the size the context was made for */
    FloatAdmPlane plane_layout[NB_INPUTS]; /* sample size and shift of each input */
    int nb_outputs;
    int *job_rets;
    int nb_jobs;

    int on_corrupt;

    FloatAdmLog *log;               /* the file's, or the summary only without log_path */
    int shared_log;                 /* log is the file's, shared with later instances */
    int ended;                      /* the stream, or what is wanted of it, is over */
    int failed;                     /* the error that stopped this instance, or 0 */
    int map_acquired;               /* map_path's frame numbers are held (float_adm_map_acquire) */
    uint64_t frame_index;           /* frames seen on the first input */
    uint64_t nb_scored;
    ADMPairChecks checks;
    int warned_key_collision;

    ADMCudaPath *cuda;              /* the CUDA path, where it scores */
    /* Frames in flight (the CUDA path, or whole frames on the CPU library's threads):
     * QueuedFrame, in output order; NULL where each frame is scored as it comes. */
    AVFifo *in_order;

    float *map_loss;                /* map_output: the loss grid of the frame just scored */
    float *not_measured;            /* map_output: a grid of NaN, the picture before the first */
    int map_columns, map_rows;
    AVFrame *map_frame;             /* map_output: its picture, repeated for unscored frames */
    int nb_paint_jobs;              /* map_output: slices of block rows it is painted in */
    int *paint_rets;
} ADMContext;

#define OFFSET(x) offsetof(ADMContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

/*
 * libvmaf's float_adm options, one row each in libfloatadm's table
 * (FLOAT_ADM_OPTIONS, float_adm.h): each under its name and, where libvmaf gives
 * one, its alias.
 */
#define ADM_AVTYPE_BOOL         AV_OPT_TYPE_BOOL
#define ADM_AVTYPE_INT          AV_OPT_TYPE_INT
#define ADM_AVTYPE_DOUBLE       AV_OPT_TYPE_DOUBLE
#define ADM_AVDEFAULT_BOOL(v)   { .i64 = v }
#define ADM_AVDEFAULT_INT(v)    { .i64 = v }
#define ADM_AVDEFAULT_DOUBLE(v) { .dbl = v }
#define ADM_AVOPTION(key, field, type, def, min, max, help) \
    { key, help, OFFSET(opts.field), \
      ADM_AVTYPE_##type, ADM_AVDEFAULT_##type(def), min, max, FLAGS },
#define ADM_OPTION(name, alias, field, type, def, min, max, help) \
    ADM_AVOPTION(name,  field, type, def, min, max, help)         \
    ADM_AVOPTION(alias, field, type, def, min, max, help)
#define ADM_OPTION_NO_ALIAS(name, alias, field, type, def, min, max, help) \
    ADM_AVOPTION(name, field, type, def, min, max, help)

static const AVOption float_adm_options[] = {
    FLOAT_ADM_OPTIONS(ADM_OPTION, ADM_OPTION_NO_ALIAS)
    { "log_path", "Set the file to write the per-frame log to (- for stdout).",
      OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "Set the format of the log.",
      OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = FLOAT_ADM_LOG_JSON }, FLOAT_ADM_LOG_JSON,
      FLOAT_ADM_LOG_SUB, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout",
          0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_JSON }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "csv", "libvmaf's CSV layout",
          0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_CSV }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "xml", "libvmaf's XML layout",
          0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_XML }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "sub", "libvmaf's subtitle layout",
          0, AV_OPT_TYPE_CONST, { .i64 = FLOAT_ADM_LOG_SUB }, 0, 0, FLAGS, .unit = "log_fmt" },
    { "map_path",
      "Set the file name pattern (%d: the frame number) of a PFM map per frame "
      "of where detail is lost.",
      OFFSET(map_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "on_corrupt", "Set what to do with frames the decoder flagged as corrupt.",
      OFFSET(on_corrupt), AV_OPT_TYPE_INT, { .i64 = ON_CORRUPT_SCORE }, ON_CORRUPT_SCORE,
      ON_CORRUPT_FAIL, FLAGS, .unit = "on_corrupt" },
        { "score", "score them, with a warning per run of frames",
          0, AV_OPT_TYPE_CONST, { .i64 = ON_CORRUPT_SCORE }, 0, 0, FLAGS, .unit = "on_corrupt" },
        { "skip", "pass them on unscored; the log says so",
          0, AV_OPT_TYPE_CONST, { .i64 = ON_CORRUPT_SKIP }, 0, 0, FLAGS, .unit = "on_corrupt" },
        { "fail", "stop with an error",
          0, AV_OPT_TYPE_CONST, { .i64 = ON_CORRUPT_FAIL }, 0, 0, FLAGS, .unit = "on_corrupt" },
    { "n_subsample", "Score every n-th frame.",
      OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend", "Set where the scores are computed.",
      OFFSET(backend), AV_OPT_TYPE_INT, { .i64 = BACKEND_AUTO }, BACKEND_AUTO, BACKEND_CUDA, FLAGS,
      .unit = "backend" },
        { "auto", "CUDA on CUDA frames, the CPU on software frames",
          0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu", "the CPU",
          0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_CPU }, 0, 0, FLAGS, .unit = "backend" },
        { "cuda", "an NVIDIA GPU (software frames are uploaded)",
          0, AV_OPT_TYPE_CONST, { .i64 = BACKEND_CUDA }, 0, 0, FLAGS, .unit = "backend" },
    { "metadata_prefix",
      "Set the prefix of the frame metadata keys (one per instance when chained).",
      OFFSET(metadata_prefix), AV_OPT_TYPE_STRING, { .str = "lavfi.float_adm" }, 0, 0, FLAGS },
    /* framesync's options, declared here so that help shows the defaults this
     * filter uses: frames are paired by the nearest timestamp (see preinit). */
    { "eof_action", "Action to take when encountering EOF from secondary input",
      OFFSET(fs.opt_eof_action), AV_OPT_TYPE_INT, { .i64 = EOF_ACTION_REPEAT }, EOF_ACTION_REPEAT,
      EOF_ACTION_PASS, FLAGS, .unit = "eof_action" },
        { "repeat", "Repeat the previous frame.",
          0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_REPEAT }, 0, 0, FLAGS, .unit = "eof_action" },
        { "endall", "End both streams.",
          0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_ENDALL }, 0, 0, FLAGS, .unit = "eof_action" },
        { "pass", "Pass through the main input.",
          0, AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_PASS }, 0, 0, FLAGS, .unit = "eof_action" },
    { "shortest", "force termination when the shortest input terminates",
      OFFSET(fs.opt_shortest), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "repeatlast", "extend last frame of secondary streams beyond EOF",
      OFFSET(fs.opt_repeatlast), AV_OPT_TYPE_BOOL, { .i64 = 1 }, 0, 1, FLAGS },
    { "ts_sync_mode", "How strictly to sync streams based on secondary input timestamps",
      OFFSET(fs.opt_ts_sync_mode), AV_OPT_TYPE_INT, { .i64 = TS_NEAREST }, TS_DEFAULT, TS_NEAREST,
      FLAGS, .unit = "ts_sync_mode" },
        { "default",
          "Frame from secondary input with the nearest lower or equal timestamp "
          "to the primary input frame",
          0, AV_OPT_TYPE_CONST, { .i64 = TS_DEFAULT }, 0, 0, FLAGS, .unit = "ts_sync_mode" },
        { "nearest",
          "Frame from secondary input with the absolute nearest timestamp "
          "to the primary input frame",
          0, AV_OPT_TYPE_CONST, { .i64 = TS_NEAREST }, 0, 0, FLAGS, .unit = "ts_sync_mode" },
    { NULL }
};

AVFILTER_DEFINE_CLASS_EXT(float_adm, "float_adm", float_adm_options);
AVFILTER_DEFINE_CLASS_EXT(float_adm_map, "float_adm_map", float_adm_options);

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

static const enum AVPixelFormat map_pix_fmts[] = { AV_PIX_FMT_RGB24, AV_PIX_FMT_NONE };

/* FFmpeg 7.1 (libavfilter 10) has only the untyped list constructor. */
#if LIBAVFILTER_VERSION_MAJOR < 11
#define ff_make_pixel_format_list(fmts) ff_make_format_list((const int *)(fmts))
#endif

static AVFilterFormats *input_formats(void)
{
    AVFilterFormats *formats = ff_make_pixel_format_list(pix_fmts);

    if (HAVE_LIBFLOATADM_CUDA && formats && ff_add_format(&formats, AV_PIX_FMT_CUDA) < 0)
        return NULL;
    return formats;
}

/* float_adm passes the first input on: they share one format; the reference
 * may use another chroma layout, since only luma is read.  Each input keeps its
 * own colour range and space, as libvmaf reads the samples as they are: left
 * common, FFmpeg would convert the reference's samples to the main's range
 * before the filter could see (and warn about) the difference.  float_adm_map's
 * output is its own RGB24 picture. */
static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    const ADMContext *s = ctx->priv;
    AVFilterFormats *main_formats = input_formats();
    AVFilterFormats *main_ranges  = ff_all_color_ranges();
    AVFilterFormats *main_spaces  = ff_all_color_spaces();
    int ret;

    if ((ret = ff_formats_ref(main_formats, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(main_ranges, &cfg_in[0]->color_ranges)) < 0 ||
        (ret = ff_formats_ref(main_spaces, &cfg_in[0]->color_spaces)) < 0 ||
        (ret = ff_formats_ref(input_formats(), &cfg_in[1]->formats)) < 0 ||
        (ret = ff_formats_ref(ff_all_color_ranges(), &cfg_in[1]->color_ranges)) < 0 ||
        (ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[1]->color_spaces)) < 0)
        return ret;
    if (s->map_output)
        return ff_formats_ref(ff_make_pixel_format_list(map_pix_fmts), &cfg_out[0]->formats);
    if ((ret = ff_formats_ref(main_formats, &cfg_out[0]->formats)) < 0 ||
        (ret = ff_formats_ref(main_ranges, &cfg_out[0]->color_ranges)) < 0)
        return ret;
    return ff_formats_ref(main_spaces, &cfg_out[0]->color_spaces);
}

/* Frames are paired by the nearest timestamp (ts_sync_mode's default above):
 * a loopback decoder's millisecond timestamps and a 1/24 s source never meet
 * exactly, and framesync's default (the last reference frame not after the
 * main one) would then pair every third frame with the previous picture.
 * framesync's own defaults are set here, before this filter's: framesync
 * would otherwise set them when it is configured, over the user's. */
static av_cold int preinit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    ff_framesync_preinit(&s->fs);
    return 0;
}

/* A log outlives its filter instance: ffmpeg rebuilds the graph when a decoded
 * input changes size, format or colour properties, and the new instance goes
 * on writing the same log (the library's shared logs), with frame numbers that
 * go on counting. */
static int acquire_log(AVFilterContext *ctx, int width, int height)
{
    ADMContext *s = ctx->priv;
    char errbuf[256] = "";
    int ret;

    if (!s->log_path)
        return float_adm_log_open(&s->log, NULL, s->log_fmt, &s->opts, width, height,
                                  errbuf, sizeof(errbuf));
    ret = float_adm_log_acquire(&s->log, s->log_path, s->log_fmt, &s->opts, width, height,
                                &s->frame_index, errbuf, sizeof(errbuf));
    if (ret == FLOAT_ADM_ERROR_BUSY)
        av_log(ctx, AV_LOG_ERROR, "Another float_adm instance already writes the log %s; "
               "give each instance its own log_path.\n", s->log_path);
    else if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
    else if (s->frame_index)
        av_log(ctx, AV_LOG_INFO, "The filter graph was rebuilt: the log %s goes on from "
               "frame %"PRIu64".\n", s->log_path, s->frame_index);
    s->shared_log = ret >= 0;
    return ret;
}

/* Maps without a log keep their frame numbers across a rebuild as the log's do,
 * and two instances never write the same maps. */
static int acquire_maps(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[256] = "";
    uint64_t next_frame;
    int ret;

    if (!s->map_path)
        return 0;
    ret = float_adm_map_acquire(s->map_path, &next_frame, errbuf, sizeof(errbuf));
    if (ret == FLOAT_ADM_ERROR_BUSY)
        av_log(ctx, AV_LOG_ERROR, "Another float_adm instance already writes the maps %s; "
               "give each instance its own map_path.\n", s->map_path);
    else if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "map_path: %s\n", errbuf);
    if (ret < 0)
        return ret;
    s->map_acquired = 1;
    if (!s->shared_log)
        s->frame_index = next_frame;
    return 0;
}

/* The end of the stream: the footer goes out now, so that a log that cannot be
 * completed fails the run; uninit then ends the log for good. */
static int finish_log(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[256] = "";
    int ret;

    if (s->ended)
        return 0;
    s->ended = 1;
    if (!s->shared_log)
        return 0;
    if ((ret = float_adm_log_finish(s->log, errbuf, sizeof(errbuf))) < 0)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
    return ret;
}

/* Three ways an instance goes: the run failed (its log says incomplete, so that
 * no reader takes it for finished), the stream ended (the log is closed and
 * forgotten: a later user of the path starts a log of its own), or ffmpeg
 * rebuilds the graph (the log and the maps' numbers wait for the next instance).
 * Frames ffmpeg dropped with the old graph keep their numbers: the frame numbers
 * stay those of the main input. */
static void close_log(AVFilterContext *ctx, uint64_t dropped)
{
    ADMContext *s = ctx->priv;
    char errbuf[256] = "", reason[128];
    int ret = 0;

    if (s->map_acquired) {
        if (s->failed || s->ended)
            float_adm_map_end(s->map_path);
        else
            float_adm_map_release(s->map_path, s->frame_index + dropped);
    }
    if (!s->shared_log) {
        float_adm_log_close(&s->log, errbuf, sizeof(errbuf));
        return;
    }
    if (s->failed) {
        snprintf(reason, sizeof(reason), "the filter failed: %s", av_err2str(s->failed));
        ret = float_adm_log_abandon(&s->log, reason, errbuf, sizeof(errbuf));
    } else if (s->ended) {
        ret = float_adm_log_end(&s->log, errbuf, sizeof(errbuf));
    } else {
        ret = float_adm_log_release(&s->log, s->frame_index + dropped, errbuf, sizeof(errbuf));
    }
    if (ret < 0 && !s->failed)
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
}

/* value NULL: remove the key. */
static int set_meta(AVDictionary **metadata, const char *prefix, const char *name,
                    const double *value)
{
    char *key = av_asprintf("%s.%s", prefix, name);
    char str[32];

    if (!key)
        return AVERROR(ENOMEM);
    if (value)
        snprintf(str, sizeof(str), "%.17g", *value);
    return av_dict_set(metadata, key, value ? str : NULL, AV_DICT_DONT_STRDUP_KEY);
}

/* Against the context's size, not the link's: a filter upstream (scale with
 * eval=frame) may reconfigure the link under us. */
static int check_frame_size(AVFilterContext *ctx, const AVFrame *frame, int input)
{
    const ADMContext *s = ctx->priv;

    if (frame->width == s->width && frame->height == s->height)
        return 0;
    av_log(ctx, AV_LOG_ERROR, "The %s input changed resolution from %dx%d to %dx%d "
           "mid-stream; float_adm scores one resolution per run.\n",
           ff_float_adm_input_name(input), s->width, s->height, frame->width, frame->height);
    return AVERROR(EINVAL);
}

/* Chained instances with one prefix would overwrite each other's keys. */
static void warn_key_collision(AVFilterContext *ctx, const AVFrame *dist)
{
    ADMContext *s = ctx->priv;
    char *key;

    if (s->warned_key_collision || !dist->metadata)
        return;
    key = av_asprintf("%s.%s", s->metadata_prefix, float_adm_output_name(0));
    if (key && av_dict_get(dist->metadata, key, NULL, 0)) {
        av_log(ctx, AV_LOG_WARNING, "The main input's frames already carry %s: another "
               "float_adm upstream? Its keys are overwritten; give each instance its own "
               "metadata_prefix.\n", key);
        s->warned_key_collision = 1;
    }
    av_free(key);
}

typedef struct PaintJob {
    float *loss;
    const ADMCudaPath *cuda;        /* the loss is read from the GPU's map into loss first */
    AVFrame *picture;
    int columns, rows;
} PaintJob;

/* One slice of the map's block rows: a full-size picture is megabytes a frame
 * and a 4K map's loss half a millisecond, both done on the filter's threads. */
static int paint_rows(AVFilterContext av_unused *ctx, void *arg, int jobnr, int nb_jobs)
{
    const PaintJob *p = arg;
    const int first = p->rows * jobnr / nb_jobs, last = p->rows * (jobnr + 1) / nb_jobs;
    const int y = first * FLOAT_ADM_MAP_BLOCK_SIZE;
    const int height = FFMIN(last * FLOAT_ADM_MAP_BLOCK_SIZE, p->picture->height) - y;
    const ptrdiff_t linesize = p->picture->linesize[0];
    float *loss = p->loss + (size_t)first * p->columns;
    int ret;

    if (p->cuda && (ret = ff_float_adm_cuda_map_loss_rows(p->cuda, first, last - first, loss)) < 0)
        return ret;
    return float_adm_map_render_rgb24(loss, p->columns, last - first,
                                      p->picture->data[0] + y * linesize,
                                      p->picture->width, height, linesize);
}

/* float_adm_map: the picture of this frame's map (float_adm_map_render_rgb24)
 * from its loss (map_loss, or on the CUDA path the GPU's map of the frame just
 * collected), in place of the main input's frame, with its time and metadata.
 * A frame left unscored shows the last scored frame's map again, or before the
 * first a picture of nothing measured. */
static int map_picture(AVFilterContext *ctx, AVFrame **frame, int scored)
{
    ADMContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    AVFrame *dist = *frame, *out;
    int ret;

    if (scored || !s->map_frame) {
        PaintJob paint = { scored ? s->map_loss : s->not_measured, scored ? s->cuda : NULL,
                           NULL, s->map_columns, s->map_rows };

        av_frame_free(&s->map_frame);
        if (!(s->map_frame = ff_get_video_buffer(outlink, outlink->w, outlink->h)))
            return AVERROR(ENOMEM);
        paint.picture = s->map_frame;
        ff_filter_execute(ctx, paint_rows, &paint, s->paint_rets, s->nb_paint_jobs);
        for (int i = 0; i < s->nb_paint_jobs; i++) {
            if ((ret = s->paint_rets[i]) < 0) {
                av_log(ctx, AV_LOG_ERROR, "The map could not be painted: %s\n",
                       float_adm_strerror(ret));
                return AVERROR_BUG;
            }
        }
    }
    if (!(out = av_frame_clone(s->map_frame)))
        return AVERROR(ENOMEM);
    av_dict_free(&out->metadata);
    if ((ret = av_dict_copy(&out->metadata, dist->metadata, 0)) < 0) {
        av_frame_free(&out);
        return ret;
    }
    out->pts                 = dist->pts;
    out->duration            = dist->duration;
    out->sample_aspect_ratio = dist->sample_aspect_ratio;
    av_frame_free(frame);
    *frame = out;
    return 0;
}

/* A frame's line in the log: its scores, or why it was skipped. */
static int log_frame(AVFilterContext *ctx, uint64_t index, const FloatAdmScores *scores,
                     const char *skipped, char *errbuf, size_t errbuf_size)
{
    ADMContext *s = ctx->priv;
    int ret = 0;

    if (scores)
        ret = float_adm_log_frame(s->log, index, scores, errbuf, errbuf_size);
    else if (skipped)
        ret = float_adm_log_skipped(s->log, index, skipped, errbuf, errbuf_size);
    s->nb_scored += ret >= 0 && scores;
    return ret;
}

/* Each frame leaves here, in order: its scores go to the frame's metadata, the
 * summary and the log, or the log says why it has none.  A log that cannot be
 * written fails the frame: no score is lost silently. */
static int emit_frame(AVFilterContext *ctx, AVFrame *dist, uint64_t index,
                      const FloatAdmScores *scores, const char *skipped)
{
    ADMContext *s = ctx->priv;
    char errbuf[256] = "";
    int ret = 0;

    /* The keys go last, in the library's order of the outputs (adm2, aim, adm3,
     * adm_scale0..3, then the debug sums): keys already there (an instance
     * upstream with this prefix) are removed first, as av_dict_set would move
     * another key into a replaced one's place. */
    for (int i = 0; scores && i < s->nb_outputs && ret >= 0; i++)
        ret = set_meta(&dist->metadata, s->metadata_prefix, float_adm_output_name(i), NULL);
    for (int i = 0; scores && i < s->nb_outputs && ret >= 0; i++) {
        const double value = float_adm_output_value(scores, i);

        ret = set_meta(&dist->metadata, s->metadata_prefix, float_adm_output_name(i), &value);
    }
    if (ret >= 0)
        ret = log_frame(ctx, index, scores, skipped, errbuf, sizeof(errbuf));
    if (ret >= 0 && s->map_output)
        ret = map_picture(ctx, &dist, !!scores);
    if (ret < 0) {
        if (errbuf[0])
            av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64": %s\n", index, errbuf);
        av_frame_free(&dist);
        return ret;
    }
    /* Frames in flight are out before framesync ends the output (activate). */
    av_assert0(!s->fs.eof);
    return ff_filter_frame(ctx->outputs[0], dist);
}

/* The scores of the oldest frame in flight, with wait once they are there;
 * AVERROR(EAGAIN) without wait until then. */
static int collect(AVFilterContext *ctx, uint64_t index, int wait, FloatAdmScores *scores)
{
    ADMContext *s = ctx->priv;
    int ret;

    if (s->cuda)
        return ff_float_adm_cuda_collect(s->cuda, index, wait, scores);
    ret = float_adm_collect(s->adm, scores, wait);
    if (ret == FLOAT_ADM_ERROR_AGAIN)
        return AVERROR(EAGAIN);
    if (ret < 0)
        av_log(ctx, AV_LOG_ERROR, "Scoring frame %"PRIu64" failed: %s\n", index,
               float_adm_strerror(ret));
    return ret;
}

/* The frames in flight whose turn to leave has come, in order, waiting for the
 * scores of up to wait frames. */
static int emit_frames(AVFilterContext *ctx, int wait)
{
    ADMContext *s = ctx->priv;
    FloatAdmScores scores;
    QueuedFrame qf;
    int ret = 0;

    while (av_fifo_peek(s->in_order, &qf, 1, 0) >= 0) {
        const int scored = !!qf.ref;

        if (scored)
            ret = collect(ctx, qf.index, wait > 0, &scores);
        if (scored && ret == AVERROR(EAGAIN))
            return 0;
        wait -= scored;
        av_fifo_drain2(s->in_order, 1);
        av_frame_free(&qf.ref);
        if (ret < 0) {
            av_frame_free(&qf.dist);
            return ret;
        }
        if ((ret = emit_frame(ctx, qf.dist, qf.index, scored ? &scores : NULL, qf.skipped)) < 0)
            return ret;
    }
    return 0;
}

/* A full queue's oldest frames leave (its head is a frame in flight: the frames
 * behind it wait for it), so that the queue holds a bounded number of frames. */
static int make_room(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    while (!av_fifo_can_write(s->in_order)) {
        const size_t queued = av_fifo_can_read(s->in_order);
        int ret = emit_frames(ctx, 1);

        if (ret < 0)
            return ret;
        if (av_fifo_can_read(s->in_order) == queued)
            return AVERROR_BUG;
    }
    return 0;
}

/* A pair goes in flight; while the backend has no room, the oldest frames leave. */
static int submit_frame(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref, uint64_t index)
{
    ADMContext *s = ctx->priv;
    QueuedFrame qf = { .dist = dist, .index = index };
    FloatAdmPlane planes[NB_INPUTS];
    int ret;

    /* The queue has room before the frame goes in flight, so that it is always there. */
    if (!(qf.ref = av_frame_clone(ref)))
        ret = AVERROR(ENOMEM);
    else
        ret = make_room(ctx);
    for (int i = 0; i < NB_INPUTS && !s->cuda; i++) {
        const AVFrame *frame = i == INPUT_MAIN ? dist : qf.ref;

        planes[i]        = s->plane_layout[i];
        planes[i].data   = frame ? frame->data[0] : NULL;
        planes[i].stride = frame ? frame->linesize[0] : 0;
    }
    while (ret >= 0) {
        if (s->cuda) {
            ret = ff_float_adm_cuda_submit(s->cuda, dist, qf.ref, index);
        } else if ((ret = float_adm_submit(s->adm, &planes[INPUT_REFERENCE],
                                           &planes[INPUT_MAIN])) == FLOAT_ADM_ERROR_AGAIN) {
            ret = AVERROR(EAGAIN);
        } else if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Submitting frame %"PRIu64" failed: %s\n", index,
                   float_adm_strerror(ret));
        }
        if (ret != AVERROR(EAGAIN))
            break;
        ret = av_fifo_can_read(s->in_order) ? emit_frames(ctx, 1) : AVERROR_BUG;
    }
    if (ret < 0) {
        av_frame_free(&qf.ref);
        av_frame_free(&dist);
        return ret;
    }
    av_fifo_write(s->in_order, &qf, 1);
    return emit_frames(ctx, 0);
}

/* A frame left unscored still waits behind the frames in flight. */
static int pass_frame(AVFilterContext *ctx, AVFrame *frame, uint64_t index,
                      const char *skipped)
{
    ADMContext *s = ctx->priv;
    const QueuedFrame qf = { .dist = frame, .index = index, .skipped = skipped };
    int ret;

    if (!s->in_order || !av_fifo_can_read(s->in_order))
        return emit_frame(ctx, frame, index, NULL, skipped);
    if ((ret = make_room(ctx)) < 0) {
        av_frame_free(&frame);
        return ret;
    }
    /* Making room may have emptied the queue: the frame leaves at once then. */
    if (!av_fifo_can_read(s->in_order))
        return emit_frame(ctx, frame, index, NULL, skipped);
    av_fifo_write(s->in_order, &qf, 1);
    return emit_frames(ctx, 0);
}

static int do_float_adm(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    ADMContext *s = ctx->priv;
    AVFrame *dist, *ref;
    FloatAdmPlane dist_plane, ref_plane;
    FloatAdmScores scores;
    char errbuf[512] = "";
    uint64_t index;
    int skip, ret;

    ret = ff_framesync_dualinput_get(fs, &dist, &ref);
    if (ret < 0)
        return ret;
    /* The main input has ended, and framesync goes on with its last frame for
     * each later reference frame: that frame is scored (and passed on) once. */
    if (dist && !fs->in[INPUT_MAIN].sync) {
        ff_float_adm_note_after_main(ctx, &s->checks, fs, dist);
        av_frame_free(&dist);
        ff_filter_set_ready(ctx, 100);
        return 0;
    }
    index = s->frame_index++;
    if (!ref && !ctx->is_disabled) {
        ff_float_adm_note_unpaired(ctx, &s->checks, index);
        return pass_frame(ctx, dist, index, "no reference frame");
    }
    if (!ref || index % s->n_subsample)
        return pass_frame(ctx, dist, index, NULL);

    if ((ret = check_frame_size(ctx, dist, INPUT_MAIN)) < 0 ||
        (ret = check_frame_size(ctx, ref, INPUT_REFERENCE)) < 0 ||
        (ret = ff_float_adm_check_pair(ctx, &s->checks, fs, dist, ref, index, &skip)) < 0)
        goto fail;
    warn_key_collision(ctx, dist);
    if (skip)
        return pass_frame(ctx, dist, index, "corrupt");

    if (s->in_order)
        return submit_frame(ctx, dist, ref, index);
    dist_plane        = s->plane_layout[INPUT_MAIN];
    dist_plane.data   = dist->data[0];
    dist_plane.stride = dist->linesize[0];
    ref_plane         = s->plane_layout[INPUT_REFERENCE];
    ref_plane.data    = ref->data[0];
    ref_plane.stride  = ref->linesize[0];
    ret = float_adm_score_frame(s->adm, &ref_plane, &dist_plane, &scores);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Scoring frame %"PRIu64" failed: %s\n",
               index, float_adm_strerror(ret));
        goto fail;
    }
    if (s->map_path &&
        (ret = float_adm_map_write_pfm(s->adm, s->map_path, index, errbuf, sizeof(errbuf))) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64": %s\n", index, errbuf);
        goto fail;
    }
    if (s->map_output &&
        (ret = float_adm_map_loss(s->adm, s->map_loss,
                                  (size_t)s->map_columns * s->map_rows)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "The map of frame %"PRIu64": %s\n", index,
               float_adm_strerror(ret));
        goto fail;
    }

    return emit_frame(ctx, dist, index, &scores, NULL);
fail:
    av_frame_free(&dist);
    return ret;
}

static av_cold int init(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    char errbuf[256];
    int ret;

    ret = float_adm_options_validate(&s->opts, errbuf, sizeof(errbuf));
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return ret;
    }
    if (s->map_path && float_adm_map_pattern_check(s->map_path, errbuf, sizeof(errbuf)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "map_path: %s\n", errbuf);
        return AVERROR(EINVAL);
    }
    s->nb_outputs = s->opts.debug ? FLOAT_ADM_NUM_DEBUG_OUTPUTS : FLOAT_ADM_NUM_OUTPUTS;
    s->fs.on_event = do_float_adm;
    s->map_output  = s->class == &float_adm_map_class;
    return 0;
}

static FloatAdmPlane plane_layout(const AVPixFmtDescriptor *desc)
{
    return (FloatAdmPlane) {
        .bytes_per_sample = desc->comp[0].depth > 8 ? 2 : 1,
        /* P010/P012 keep their samples in the upper bits */
        .shift            = desc->comp[0].shift,
    };
}

typedef struct JobData {
    FloatAdmJobFn job;
    void *arg;
} JobData;

static int run_job(AVFilterContext av_unused *ctx, void *arg, int jobnr, int nb_jobs)
{
    const JobData *jd = arg;

    return jd->job(jd->arg, jobnr, nb_jobs);
}

/* The core's executor: its row-range jobs run on lavfi's slice threads. */
static int execute_jobs(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    AVFilterContext *ctx = opaque;
    ADMContext *s = ctx->priv;
    JobData jd = { .job = job, .arg = arg };

    if (nb_jobs > s->nb_jobs)
        return AVERROR_BUG;
    ff_filter_execute(ctx, run_job, &jd, s->job_rets, nb_jobs);
    for (int i = 0; i < nb_jobs; i++)
        if (s->job_rets[i] < 0)
            return s->job_rets[i];
    return 0;
}

/* Whole frames at once on the library's own threads, two frames more than
 * threads: a thread that finishes finds the next frame there. */
static av_cold int init_frames_in_flight(AVFilterContext *ctx, int threads)
{
    ADMContext *s = ctx->priv;
    const int depth = FFMIN(threads + 2, FLOAT_ADM_MAX_FRAMES_IN_FLIGHT);
    int ret;

    if ((ret = float_adm_context_set_threads(s->adm, threads)) < 0 ||
        (ret = float_adm_context_set_frames_in_flight(s->adm, depth)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Cannot score %d frames at once on %d threads: %s\n",
               depth, threads, float_adm_strerror(ret));
        return ret;
    }
    if (!(s->in_order = av_fifo_alloc2(2 * depth, sizeof(QueuedFrame), 0)))
        return AVERROR(ENOMEM);
    return 0;
}

static const AVPixFmtDescriptor *link_sw_desc(AVFilterLink *link)
{
    const AVBufferRef *frames = ff_filter_link(link)->hw_frames_ctx;

    if (link->format == AV_PIX_FMT_CUDA && frames)
        return av_pix_fmt_desc_get(((const AVHWFramesContext *)frames->data)->sw_format);
    return av_pix_fmt_desc_get(link->format);
}

/* auto: CUDA where the frames are (a software input beside CUDA frames is
 * uploaded); cuda: software frames are uploaded. */
static av_cold int select_backend(AVFilterContext *ctx,
                                  const AVPixFmtDescriptor *const descs[NB_INPUTS],
                                  int *use_cuda)
{
    ADMContext *s = ctx->priv;
    int any_hw = 0;

    for (int i = 0; i < NB_INPUTS; i++) {
        const enum AVPixelFormat fmt = av_pix_fmt_desc_get_id(descs[i]);
        int supported = 0;

        if (ctx->inputs[i]->format != AV_PIX_FMT_CUDA)
            continue;
        any_hw = 1;
        for (int j = 0; pix_fmts[j] != AV_PIX_FMT_NONE; j++)
            supported |= pix_fmts[j] == fmt;
        if (!supported) {
            av_log(ctx, AV_LOG_ERROR, "The %s input's CUDA frames hold %s, which float_adm "
                   "does not read.\n", ff_float_adm_input_name(i), descs[i]->name);
            return AVERROR(EINVAL);
        }
    }
    if (any_hw && s->backend == BACKEND_CPU) {
        av_log(ctx, AV_LOG_ERROR, "backend=cpu needs software frames: drop backend=cpu, or "
               "add hwdownload,format=%s to the CUDA input.\n", descs[INPUT_MAIN]->name);
        return AVERROR(EINVAL);
    }
    *use_cuda = any_hw || s->backend == BACKEND_CUDA;
    return 0;
}

static int configure_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    ADMContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[INPUT_MAIN];
    AVFilterLink *reflink  = ctx->inputs[INPUT_REFERENCE];
    const AVPixFmtDescriptor *main_desc = link_sw_desc(mainlink);
    const AVPixFmtDescriptor *ref_desc  = link_sw_desc(reflink);
    const int depth = main_desc->comp[0].depth;
    char errbuf[256];
    int use_cuda, ret;

    /* The log first: what fails after it is said in it. */
    if ((ret = acquire_log(ctx, mainlink->w, mainlink->h)) < 0)
        return ret;
    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        depth != ref_desc->comp[0].depth) {
        av_log(ctx, AV_LOG_ERROR, "The inputs must have the same size and bit depth: "
               "main (first input) is %dx%d %d-bit %s, reference (second input) is "
               "%dx%d %d-bit %s.\n",
               mainlink->w, mainlink->h, depth, main_desc->name,
               reflink->w, reflink->h, ref_desc->comp[0].depth, ref_desc->name);
        return AVERROR(EINVAL);
    }

    if ((ret = select_backend(ctx, (const AVPixFmtDescriptor *[NB_INPUTS]){
                                  [INPUT_MAIN] = main_desc, [INPUT_REFERENCE] = ref_desc },
                              &use_cuda)) < 0)
        return ret;
    s->width  = mainlink->w;
    s->height = mainlink->h;
    s->plane_layout[INPUT_MAIN]      = plane_layout(main_desc);
    s->plane_layout[INPUT_REFERENCE] = plane_layout(ref_desc);
    if ((ret = ff_float_adm_pairs_init(&s->checks, s->on_corrupt, s->width, s->height,
                                       main_desc, ref_desc, s->plane_layout)) < 0)
        return ret;
    /* Said only at -v verbose: pairs in doubt are warned about one by one. */
    if (av_cmp_q(mainlink->time_base, reflink->time_base))
        av_log(ctx, AV_LOG_VERBOSE, "The inputs' time bases differ (main %d/%d, reference "
               "%d/%d): frames are paired by the nearest timestamp (ts_sync_mode=nearest).\n",
               mainlink->time_base.num, mainlink->time_base.den,
               reflink->time_base.num, reflink->time_base.den);

    if (use_cuda) {
        if (!(s->in_order = av_fifo_alloc2(MAX_CPU_THREADS, sizeof(QueuedFrame), 0)))
            return AVERROR(ENOMEM);
        if ((ret = ff_float_adm_cuda_init(ctx, &s->cuda, &s->opts, s->width, s->height,
                                          depth, s->plane_layout, s->map_path,
                                          s->map_output)) < 0)
            return ret;
        ff_float_adm_cuda_map_size(s->cuda, &s->map_columns, &s->map_rows);
    } else {
        ret = float_adm_context_create(&s->adm, mainlink->w, mainlink->h, depth,
                                       &s->opts, errbuf, sizeof(errbuf));
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
            return ret;
        }
        s->nb_jobs = ff_filter_get_nb_threads(ctx);
        /* Whole frames at once on the library's threads, in order; a map is of one
         * frame at a time, scored with its rows on lavfi's threads. */
        if (s->nb_jobs > 1 && !s->map_path && !s->map_output) {
            if ((ret = init_frames_in_flight(ctx, FFMIN(s->nb_jobs, MAX_CPU_THREADS))) < 0)
                return ret;
            s->nb_jobs = 1;
        }
        if ((s->map_path || s->map_output) && (ret = float_adm_context_enable_map(s->adm)) < 0)
            return ret;
        if (s->map_output)
            float_adm_map_size(s->adm, &s->map_columns, &s->map_rows, NULL);
    }
    if (s->map_output) {
        const size_t blocks = (size_t)s->map_columns * s->map_rows;

        if (!(s->map_loss = av_calloc(blocks, sizeof(*s->map_loss))) ||
            !(s->not_measured = av_malloc_array(blocks, sizeof(*s->not_measured))))
            return AVERROR(ENOMEM);
        for (size_t i = 0; i < blocks; i++)
            s->not_measured[i] = NAN;
        /* At most a slice per core: libavfilter's threads are one more than the
         * cores by default, and each thread it wakes takes a slice of its own, so
         * one slice more would wait for a core after the others are done. */
        s->nb_paint_jobs = FFMIN3(ff_filter_get_nb_threads(ctx), av_cpu_count(), s->map_rows);
        if (!(s->paint_rets = av_calloc(s->nb_paint_jobs, sizeof(*s->paint_rets))))
            return AVERROR(ENOMEM);
    }
    if (s->nb_jobs > 1) {
        s->job_rets = av_calloc(s->nb_jobs, sizeof(*s->job_rets));
        if (!s->job_rets)
            return AVERROR(ENOMEM);
        ret = float_adm_set_executor(s->adm, execute_jobs, ctx, s->nb_jobs);
        if (ret < 0)
            return ret;
    }
    if (s->adm)
        av_log(ctx, AV_LOG_VERBOSE, "%s\n",
               float_adm_context_describe(s->adm, errbuf, sizeof(errbuf)));

    if ((ret = acquire_maps(ctx)) < 0)
        return ret;

    if ((ret = ff_framesync_init_dualinput(&s->fs, ctx)) < 0)
        return ret;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ff_filter_link(outlink)->frame_rate = ff_filter_link(mainlink)->frame_rate;
    if ((ret = ff_framesync_configure(&s->fs)) < 0)
        return ret;
    outlink->time_base = s->fs.time_base;

    return 0;
}

/* A failure here, as anywhere, leaves the log incomplete: a rebuilt graph's new
 * instance that cannot go on must not leave the earlier instance's log looking
 * finished. */
static int config_output(AVFilterLink *outlink)
{
    ADMContext *s = outlink->src->priv;
    int ret = configure_output(outlink);

    if (ret < 0 && !s->failed)
        s->failed = ret;
    return ret;
}

/* framesync ends the output as soon as its inputs have ended (framesync_eof),
 * and frames still in flight would then follow the end: once an input that can
 * end the stream has ended, each frame is waited for. */
static int inputs_ending(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;

    return ff_outlink_get_status(ctx->inputs[INPUT_MAIN]) ||
           (ff_outlink_get_status(ctx->inputs[INPUT_REFERENCE]) &&
            s->fs.in[INPUT_REFERENCE].after == EXT_STOP);
}

static int activate(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    /* Closed downstream (-frames): the frames in flight are dropped at uninit. */
    const int ending = s->in_order && !ff_outlink_get_status(ctx->outputs[0]) &&
                       inputs_ending(ctx);
    const uint64_t frames_before = s->frame_index;
    int ret = ending ? emit_frames(ctx, INT_MAX) : 0;

    if (ret >= 0)
        ret = ff_framesync_activate(&s->fs);
    if (ret >= 0 && ending)
        ret = emit_frames(ctx, INT_MAX);
    /* A frame went in flight and none left: framesync asks for input only when
     * activated, so the filter comes back for the next pair while the output
     * still wants a frame. */
    if (ret >= 0 && s->frame_index != frames_before && ff_outlink_frame_wanted(ctx->outputs[0]))
        ff_filter_set_ready(ctx, 100);
    /* The end of the stream, or of what is wanted of it (-frames): a log that
     * cannot be completed fails the run. */
    if (ret >= 0 && (s->fs.eof || ff_outlink_get_status(ctx->outputs[0])))
        ret = finish_log(ctx);
    if (ret < 0 && ret != AVERROR_EOF && ret != FFERROR_NOT_READY && !s->failed)
        s->failed = ret;
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    ADMContext *s = ctx->priv;
    FloatAdmPooled pooled;
    FloatAdmScores scores;
    QueuedFrame qf;
    uint64_t queued, in_flight;
    int dropped_level;

    ff_float_adm_pairs_report(ctx, &s->checks);
    /* Closed mid-stream (a graph rebuild, -frames, a stop): the frames in flight
     * are dropped as ffmpeg drops those queued before the filter, and not logged,
     * so that the log holds the frames that left the filter whatever the number
     * of threads. */
    in_flight = s->in_order ? av_fifo_can_read(s->in_order) : 0;
    /* Closed before the end: ffmpeg rebuilt the graph mid-stream, or stopped
     * on an error, and drops what was on its way: a warning.  Frames past what
     * was wanted of the output (-frames, -t) are no loss: said at -v verbose. */
    dropped_level = ctx->outputs[0] && ff_outlink_get_status(ctx->outputs[0]) && !s->fs.eof ?
                    AV_LOG_VERBOSE : AV_LOG_WARNING;
    queued = ctx->inputs[INPUT_MAIN] ? ff_inlink_queued_frames(ctx->inputs[INPUT_MAIN]) : 0;
    queued += s->fs.in && s->fs.in[INPUT_MAIN].frame_next;
    if (queued && !s->fs.eof)
        av_log(ctx, dropped_level, "%"PRIu64" frames of the main input were still queued when "
               "this filter instance was closed: they are not scored.\n", queued);
    if (in_flight && !s->failed)
        av_log(ctx, dropped_level, "%"PRIu64" frames were being scored when this filter "
               "instance was closed: they are neither passed on nor logged.\n", in_flight);
    if (s->log && !s->nb_scored)
        av_log(ctx, AV_LOG_WARNING, "This filter instance scored no frame%s.\n",
               s->frame_index ? "" : ": no frame reached it");
    for (int i = 0; i < s->nb_outputs && s->nb_scored; i++) {
        if (float_adm_log_pooled(s->log, i, &pooled) >= 0)
            av_log(ctx, AV_LOG_INFO, "%s mean:%.6f min:%.6f max:%.6f harmonic_mean:%.6f\n",
                   float_adm_output_name(i), pooled.mean, pooled.min, pooled.max,
                   pooled.harmonic_mean);
    }
    close_log(ctx, s->fs.eof ? 0 : queued);

    /* The backends read the planes of the frames in flight until they are done. */
    ff_float_adm_cuda_uninit(&s->cuda);
    while (float_adm_in_flight(s->adm) > 0)
        float_adm_collect(s->adm, &scores, 1);
    while (s->in_order && av_fifo_read(s->in_order, &qf, 1) >= 0) {
        av_frame_free(&qf.dist);
        av_frame_free(&qf.ref);
    }
    av_fifo_freep2(&s->in_order);
    ff_framesync_uninit(&s->fs);
    float_adm_context_free(&s->adm);
    av_freep(&s->job_rets);
    av_freep(&s->map_loss);
    av_freep(&s->not_measured);
    av_freep(&s->paint_rets);
    av_frame_free(&s->map_frame);
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

/* HWDEVICE: backend=cuda uploads to the graph's device (-filter_hw_device). */
#define FLOAT_ADM_FLAGS (AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | AVFILTER_FLAG_SLICE_THREADS | \
                         (HAVE_LIBFLOATADM_CUDA ? AVFILTER_FLAG_HWDEVICE : 0))

/* FFmpeg 8 (libavfilter 11) wraps the public AVFilter in FFFilter. */
#if LIBAVFILTER_VERSION_MAJOR >= 11
typedef FFFilter ADMFilter;
#define PUBLIC(field) .p.field
#else
typedef AVFilter ADMFilter;
#define PUBLIC(field) .field
#endif

#define DEFINE_FILTER(fname, desc, filter_flags, internal_flags) \
const ADMFilter ff_vf_##fname = {                                \
    PUBLIC(name)        = #fname,                                \
    PUBLIC(description) = NULL_IF_CONFIG_SMALL(desc),            \
    PUBLIC(priv_class)  = &fname##_class,                        \
    PUBLIC(flags)       = filter_flags,                          \
    .flags_internal     = internal_flags,                        \
    .preinit            = preinit,                               \
    .init               = init,                                  \
    .uninit             = uninit,                                \
    .activate           = activate,                              \
    .priv_size          = sizeof(ADMContext),                    \
    FILTER_INPUTS(float_adm_inputs),                             \
    FILTER_OUTPUTS(float_adm_outputs),                           \
    FILTER_QUERY_FUNC2(query_formats),                           \
}

/* float_adm passes the main input's frames on, CUDA frames with their frames
 * context; float_adm_map outputs new software pictures. */
DEFINE_FILTER(float_adm, "Calculate Netflix VMAF's float ADM features between two video streams.",
              FLOAT_ADM_FLAGS | AVFILTER_FLAG_METADATA_ONLY, 0);
DEFINE_FILTER(float_adm_map, "Show where Netflix VMAF's float ADM finds detail lost, as a video.",
              FLOAT_ADM_FLAGS, FF_FILTER_FLAG_HWFRAME_AWARE);
