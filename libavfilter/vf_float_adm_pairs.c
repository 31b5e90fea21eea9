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
 * The float_adm filters' checks of each pair, and the warnings that make
 * sure no wrong pairing, concealed frame or range mismatch goes unsaid; the
 * pairs in doubt also as frame metadata and counts in the log, for programs.
 */

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/fifo.h"
#include "libavutil/hwcontext.h"
#include "libavutil/mathematics.h"
#include "libavutil/mem.h"
#include "filters.h"
#include "vf_float_adm_pairs.h"

struct ADMPairChecks {
    int on_corrupt;                     /* enum OnCorrupt */
    const AVPixFmtDescriptor *desc[NB_INPUTS]; /* per input: the (software) format */
    struct {
        int64_t first, last;            /* a run of flagged frames; first < 0: none */
    } corrupt[NB_INPUTS];
    uint64_t nb_checked;
    int64_t last_pts[NB_INPUTS];        /* the last pair's timestamps, in the framesync's */
    int warned_range;
    uint64_t doubts[FLOAT_ADM_NUM_PAIR_DOUBTS]; /* per kind (enum FloatAdmPairDoubt): frames */
    uint64_t first_doubt[FLOAT_ADM_NUM_PAIR_DOUBTS]; /* per kind: its first frame */
    int logged;                         /* the counts went into the log */
    FloatAdmSwapCheck *swap_check;      /* until its verdict is said */
    FloatAdmPlane layout[NB_INPUTS];    /* per input: how its luma is laid out */
    AVFifo *skipped;                    /* the frames left unscored and why, until they leave */
};

/* A frame left unscored, and why: the log says so when the frame leaves. */
typedef struct SkippedFrame {
    uint64_t index;
    const char *reason;
} SkippedFrame;

av_cold int ff_float_adm_pairs_init(ADMPairChecks **pc, int on_corrupt, int width, int height,
                                    const AVPixFmtDescriptor *main_desc,
                                    const AVPixFmtDescriptor *ref_desc,
                                    const FloatAdmPlane layout[NB_INPUTS])
{
    ADMPairChecks *c = *pc;

    if (!c && !(c = *pc = av_mallocz(sizeof(*c))))
        return AVERROR(ENOMEM);
    float_adm_swap_check_free(&c->swap_check);
    av_fifo_freep2(&c->skipped);
    *c = (ADMPairChecks) {
        .on_corrupt = on_corrupt,
        .desc       = { main_desc, ref_desc },
        .corrupt    = { { .first = -1 }, { .first = -1 } },
        .layout     = { layout[INPUT_MAIN], layout[INPUT_REFERENCE] },
    };
    if (!(c->skipped = av_fifo_alloc2(4, sizeof(SkippedFrame), AV_FIFO_FLAG_AUTO_GROW)))
        return AVERROR(ENOMEM);
    return float_adm_swap_check_create(&c->swap_check, width, height, main_desc->comp[0].depth) < 0 ?
           AVERROR(ENOMEM) : 0;
}

static int note_skipped(ADMPairChecks *c, uint64_t index, const char *reason)
{
    const SkippedFrame sf = { .index = index, .reason = reason };

    return av_fifo_write(c->skipped, &sf, 1) < 0 ? AVERROR(ENOMEM) : 0;
}

const char *ff_float_adm_pairs_skipped(ADMPairChecks *c, uint64_t index)
{
    SkippedFrame sf;

    while (c && av_fifo_peek(c->skipped, &sf, 1, 0) >= 0 && sf.index <= index) {
        av_fifo_drain2(c->skipped, 1);
        if (sf.index == index)
            return sf.reason;
    }
    return NULL;
}

/* A pair in doubt of this kind, at frame index: whether it is the first. */
static int note_doubt(ADMPairChecks *c, enum FloatAdmPairDoubt kind, uint64_t index)
{
    if (!c->doubts[kind])
        c->first_doubt[kind] = index;
    return !c->doubts[kind]++;
}

/* The frame carries its pair's kinds of doubt (a bit per enum FloatAdmPairDoubt),
 * by libfloatadm's names joined with '+', for programs to read. */
static int mark_doubts(AVFrame *frame, unsigned kinds)
{
    char value[128] = "";

    if (!kinds)
        return 0;
    for (int i = 0; i < FLOAT_ADM_NUM_PAIR_DOUBTS; i++) {
        if (!(kinds & 1U << i))
            continue;
        if (*value)
            av_strlcat(value, "+", sizeof(value));
        av_strlcat(value, float_adm_pair_doubt_name(i), sizeof(value));
    }
    return av_dict_set(&frame->metadata, "lavfi.float_adm.pair_doubt", value, 0);
}

static int frame_is_corrupt(const AVFrame *frame)
{
    return (frame->flags & AV_FRAME_FLAG_CORRUPT) || frame->decode_error_flags;
}

/* One warning per run of consecutive flagged frames, when the run ends. */
static void report_corrupt_run(AVFilterContext *ctx, ADMPairChecks *c, int input)
{
    const int skip = c->on_corrupt == ON_CORRUPT_SKIP;

    if (c->corrupt[input].first < 0)
        return;
    av_log(ctx, AV_LOG_WARNING, "Frames %"PRId64"-%"PRId64" of the %s input were flagged "
           "corrupt by the decoder: %s (on_corrupt=%s).\n", c->corrupt[input].first,
           c->corrupt[input].last, ff_float_adm_input_name(input),
           skip ? "not scored, marked skipped in the log" : "scored as decoded",
           skip ? "skip" : "score");
    c->corrupt[input].first = -1;
}

/* Decoders flag frames they concealed.  A metric exists to measure that damage,
 * so by default such frames are scored, and said to be. */
static int check_corrupt(AVFilterContext *ctx, ADMPairChecks *c,
                         const AVFrame *const frames[NB_INPUTS], uint64_t index, int *skip)
{
    *skip = 0;
    for (int i = 0; i < NB_INPUTS; i++) {
        if (!frame_is_corrupt(frames[i])) {
            report_corrupt_run(ctx, c, i);
            continue;
        }
        if (c->on_corrupt == ON_CORRUPT_FAIL) {
            av_log(ctx, AV_LOG_ERROR, "Frame %"PRIu64" of the %s input was flagged corrupt "
                   "by the decoder (on_corrupt=fail).\n", index, ff_float_adm_input_name(i));
            return AVERROR_INVALIDDATA;
        }
        if (c->corrupt[i].first >= 0 && c->corrupt[i].last + 1 != (int64_t)index)
            report_corrupt_run(ctx, c, i);
        if (c->corrupt[i].first < 0)
            c->corrupt[i].first = index;
        c->corrupt[i].last = index;
        *skip |= c->on_corrupt == ON_CORRUPT_SKIP;
    }
    return 0;
}

/* One frame's duration in framesync's time base: the frame's own, else the
 * link's frame rate's; 0 where neither is known. */
static int64_t frame_duration(AVFilterContext *ctx, const FFFrameSync *fs, const AVFrame *frame)
{
    AVFilterLink *mainlink = ctx->inputs[INPUT_MAIN];
    const AVRational frame_rate = ff_filter_link(mainlink)->frame_rate;

    if (frame->duration > 0)
        return av_rescale_q(frame->duration, mainlink->time_base, fs->time_base);
    if (frame_rate.num > 0 && frame_rate.den > 0)
        return av_rescale_q(1, av_inv_q(frame_rate), fs->time_base);
    return 0;
}

/* Half a frame apart or more, the reference is another picture than the one
 * meant: an input with a frame missing, a shifted start, mismatched rates.
 * The kinds of doubt found (a bit per enum FloatAdmPairDoubt). */
static unsigned check_pair_distance(AVFilterContext *ctx, ADMPairChecks *c,
                                    const FFFrameSync *fs, const AVFrame *dist, uint64_t index)
{
    const int64_t dist_pts = fs->in[INPUT_MAIN].pts, ref_pts = fs->in[INPUT_REFERENCE].pts;
    const int64_t duration = frame_duration(ctx, fs, dist);

    if (dist_pts == AV_NOPTS_VALUE || ref_pts == AV_NOPTS_VALUE || !duration)
        return 0;
    if (2 * FFABS(dist_pts - ref_pts) <= duration)
        return 0;
    if (note_doubt(c, FLOAT_ADM_PAIR_APART, index))
        av_log(ctx, AV_LOG_WARNING, "Frame %"PRIu64" is paired with a reference frame more "
               "than half a frame away (main at %.6f s, reference at %.6f s): an input "
               "misses frames or starts later; further such pairs are counted "
               "(pair_doubt=%s).\n", index, dist_pts * av_q2d(fs->time_base),
               ref_pts * av_q2d(fs->time_base), float_adm_pair_doubt_name(FLOAT_ADM_PAIR_APART));
    return 1U << FLOAT_ADM_PAIR_APART;
}

/* The kind of doubt of a pair whose frame of this input was scored already. */
static enum FloatAdmPairDoubt repeated_kind(int input)
{
    return input == INPUT_REFERENCE ? FLOAT_ADM_PAIR_REFERENCE_REPEATED :
                                      FLOAT_ADM_PAIR_MAIN_REPEATED;
}

/* framesync holds an input's last frame while the other goes on (the input
 * ended, or has fewer frames per second): a pair with a picture already scored
 * compares against a stale one.  Timestamps say which picture it is.  Each such
 * pair is counted, the first of each input said. */
static unsigned check_repeated_frame(AVFilterContext *ctx, ADMPairChecks *c,
                                     const FFFrameSync *fs, uint64_t index)
{
    unsigned kinds = 0;

    for (int i = 0; i < NB_INPUTS; i++) {
        const int64_t pts = fs->in[i].pts;

        if (c->nb_checked && pts != AV_NOPTS_VALUE && pts == c->last_pts[i]) {
            kinds |= 1U << repeated_kind(i);
            if (note_doubt(c, repeated_kind(i), index))
                av_log(ctx, AV_LOG_WARNING, "Frame %"PRIu64" is scored with a %s frame already "
                       "scored: %s; further such frames are counted (pair_doubt=%s).\n",
                       index, ff_float_adm_input_name(i), i == INPUT_REFERENCE ?
                       "that input ended early or has a lower frame rate. Use shortest=1 or "
                       "eof_action=endall to stop with the shorter input" :
                       "the main input's timestamps repeat",
                       float_adm_pair_doubt_name(repeated_kind(i)));
        }
        c->last_pts[i] = pts;
    }
    return kinds;
}

/* Limited range (unspecified, except yuvj) read as full, or the reverse,
 * changes every score without being a change of quality. */
static enum AVColorRange effective_range(const AVFrame *frame, const AVPixFmtDescriptor *desc)
{
    if (frame->color_range != AVCOL_RANGE_UNSPECIFIED)
        return frame->color_range;
    return av_strstart(desc->name, "yuvj", NULL) ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
}

static void check_color_range(AVFilterContext *ctx, ADMPairChecks *c,
                              const AVFrame *dist, const AVFrame *ref)
{
    const enum AVColorRange dist_range = effective_range(dist, c->desc[INPUT_MAIN]);
    const enum AVColorRange ref_range  = effective_range(ref, c->desc[INPUT_REFERENCE]);

    if (c->warned_range || dist_range == ref_range)
        return;
    av_log(ctx, AV_LOG_WARNING, "The inputs' colour ranges differ (main: %s, reference: %s): "
           "the samples are compared as they are, which changes the scores; convert one "
           "input to the other's range (scale=out_range=tv or pc) to compare the pictures.\n",
           av_color_range_name(dist_range), av_color_range_name(ref_range));
    c->warned_range = 1;
}

/* The swap check's verdict, said once, then the check goes. */
static void report_swap(AVFilterContext *ctx, ADMPairChecks *c)
{
    char message[512];

    if (c->swap_check && float_adm_swap_check_result(c->swap_check, message, sizeof(message)) > 0)
        av_log(ctx, AV_LOG_WARNING, "The main (first) input against the reference (second): "
               "%s.\n", message);
    float_adm_swap_check_free(&c->swap_check);
}

/* An encode holds less fine detail than its source: the library compares the
 * first pairs' (CUDA frames are downloaded for it, a few frames once). */
static void check_order(AVFilterContext *ctx, ADMPairChecks *c,
                        const AVFrame *const frames[NB_INPUTS])
{
    AVFrame *downloaded[NB_INPUTS] = { NULL };
    FloatAdmPlane planes[NB_INPUTS];
    int ret = 0;

    for (int i = 0; i < NB_INPUTS; i++) {
        const AVFrame *frame = frames[i];

        if (frame->hw_frames_ctx) {
            if (!(downloaded[i] = av_frame_alloc())) {
                ret = AVERROR(ENOMEM);
                break;
            }
            if ((ret = av_hwframe_transfer_data(downloaded[i], frame, 0)) < 0)
                break;
            frame = downloaded[i];
        }
        planes[i]        = c->layout[i];
        planes[i].data   = frame->data[0];
        planes[i].stride = frame->linesize[0];
    }
    if (ret < 0) {
        av_log(ctx, AV_LOG_WARNING, "The inputs' order is not checked: a frame could not "
               "be downloaded from the GPU (%s).\n", av_err2str(ret));
        float_adm_swap_check_free(&c->swap_check);
    } else if (float_adm_swap_check_add(c->swap_check, &planes[INPUT_REFERENCE],
                                        &planes[INPUT_MAIN])) {
        report_swap(ctx, c);
    }
    for (int i = 0; i < NB_INPUTS; i++)
        av_frame_free(&downloaded[i]);
}

int ff_float_adm_check_pair(AVFilterContext *ctx, ADMPairChecks *c, const FFFrameSync *fs,
                            AVFrame *dist, const AVFrame *ref, uint64_t index, int *skip)
{
    const AVFrame *const frames[NB_INPUTS] = { [INPUT_MAIN] = dist, [INPUT_REFERENCE] = ref };
    unsigned doubts;
    int ret = check_corrupt(ctx, c, frames, index, skip);

    if (ret >= 0 && *skip)
        ret = note_skipped(c, index, "corrupt");
    if (ret < 0)
        return ret;
    doubts = check_pair_distance(ctx, c, fs, dist, index);
    check_color_range(ctx, c, dist, ref);
    doubts |= check_repeated_frame(ctx, c, fs, index);
    if (c->swap_check && !*skip)
        check_order(ctx, c, frames);
    c->nb_checked++;
    return mark_doubts(dist, doubts);
}

/* A main frame before the reference's first (a later start, or a graph
 * rebuilt by ffmpeg while the reference's frames were on their way) has
 * nothing to be compared with: it passes unscored, and says so. */
int ff_float_adm_note_unpaired(AVFilterContext *ctx, ADMPairChecks *c, AVFrame *dist,
                               uint64_t index)
{
    int ret;

    if (note_doubt(c, FLOAT_ADM_PAIR_NO_REFERENCE, index))
        av_log(ctx, AV_LOG_WARNING, "Frame %"PRIu64" has no reference frame to be paired "
               "with: it is not scored (the log marks it skipped); such frames are "
               "counted (pair_doubt=%s).\n", index,
               float_adm_pair_doubt_name(FLOAT_ADM_PAIR_NO_REFERENCE));
    if ((ret = mark_doubts(dist, 1U << FLOAT_ADM_PAIR_NO_REFERENCE)) < 0)
        return ret;
    return note_skipped(c, index, "no reference frame");
}

/* A reference frame within the main's last frame (a reference of twice the
 * rate) is no frame without a partner; one after it is. */
void ff_float_adm_note_after_main(AVFilterContext *ctx, ADMPairChecks *c,
                                  const FFFrameSync *fs, const AVFrame *dist)
{
    const int64_t dist_pts = fs->in[INPUT_MAIN].pts, ref_pts = fs->in[INPUT_REFERENCE].pts;

    if (dist_pts == AV_NOPTS_VALUE || ref_pts == AV_NOPTS_VALUE ||
        ref_pts >= dist_pts + frame_duration(ctx, fs, dist))
        c->doubts[FLOAT_ADM_PAIR_REFERENCE_AFTER_MAIN]++;
}

int ff_float_adm_pairs_log(AVFilterContext *ctx, ADMPairChecks *c, FloatAdmLog *log)
{
    char errbuf[512] = "";
    int ret;

    if (!c || !log || c->logged)
        return 0;
    c->logged = 1;
    ret = float_adm_log_add_pairing(log, c->nb_checked, c->doubts, FLOAT_ADM_NUM_PAIR_DOUBTS,
                                    errbuf, sizeof(errbuf));
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", errbuf);
        return ret == FLOAT_ADM_ERROR_NOMEM ? AVERROR(ENOMEM) : AVERROR(EIO);
    }
    return 0;
}

/* Each kind of pair in doubt the run had, counted, named as the frames' metadata
 * and the log name it. */
static void report_doubts(AVFilterContext *ctx, const ADMPairChecks *c)
{
    for (int kind = 0; kind < FLOAT_ADM_NUM_PAIR_DOUBTS; kind++) {
        const uint64_t count = c->doubts[kind], first = c->first_doubt[kind];
        char said[256];

        if (!count)
            continue;
        switch (kind) {
        case FLOAT_ADM_PAIR_APART:
            snprintf(said, sizeof(said), "%"PRIu64" frame pairs, the first at frame %"PRIu64", "
                     "were more than half a frame apart", count, first);
            break;
        case FLOAT_ADM_PAIR_REFERENCE_REPEATED:
        case FLOAT_ADM_PAIR_MAIN_REPEATED:
            snprintf(said, sizeof(said), "%"PRIu64" frames, the first at frame %"PRIu64", were "
                     "scored with a %s frame already scored", count, first,
                     ff_float_adm_input_name(kind == FLOAT_ADM_PAIR_REFERENCE_REPEATED ?
                                             INPUT_REFERENCE : INPUT_MAIN));
            break;
        case FLOAT_ADM_PAIR_NO_REFERENCE:
            snprintf(said, sizeof(said), "%"PRIu64" frames had no reference frame and were not "
                     "scored", count);
            break;
        default: /* FLOAT_ADM_PAIR_REFERENCE_AFTER_MAIN */
            snprintf(said, sizeof(said), "The reference input goes on after the main input "
                     "ended: its last %"PRIu64" frames have no main frame and were not scored",
                     count);
        }
        av_log(ctx, AV_LOG_WARNING, "%s (pair_doubt=%s).\n", said,
               float_adm_pair_doubt_name(kind));
    }
}

void ff_float_adm_pairs_report(AVFilterContext *ctx, ADMPairChecks **pc, FloatAdmLog *log)
{
    ADMPairChecks *c = *pc;

    /* An instance never configured (ffmpeg parses a graph once to learn its
     * inputs) saw no frame. */
    if (!c)
        return;
    ff_float_adm_pairs_log(ctx, c, log);
    report_swap(ctx, c);
    for (int i = 0; i < NB_INPUTS; i++)
        report_corrupt_run(ctx, c, i);
    report_doubts(ctx, c);
    av_fifo_freep2(&c->skipped);
    av_freep(pc);
}
