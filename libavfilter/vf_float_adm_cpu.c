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

#include "libavutil/fifo.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "vf_float_adm_cpu.h"

/* A frame waiting to leave in order: with ref set, for its scores. */
typedef struct QueuedFrame {
    AVFrame *dist;
    AVFrame *ref;
    uint64_t index;
    const char *skipped;    /* why it is not scored, for the log */
} QueuedFrame;

struct ADMCpuPath {
    AVFilterContext *ctx;
    FloatAdmContext *adm;
    FloatAdmPlane layout[NB_INPUTS];
    int depth;                      /* frames scored at once */
    AVFifo *queue;                  /* QueuedFrame, in output order */
    /* Scores collected early, to free a slot, for the oldest scored frames queued. */
    FloatAdmScores *collected;
    int *collected_ret;
    int collected_head, nb_collected;
};

/* Two frames more than threads: a thread that finishes finds the next frame there. */
av_cold int ff_float_adm_cpu_init(AVFilterContext *ctx, ADMCpuPath **cpu, FloatAdmContext *adm,
                                  int threads, const FloatAdmPlane layout[NB_INPUTS])
{
    ADMCpuPath *c;
    int ret;

    if (!(c = *cpu = av_mallocz(sizeof(*c))))
        return AVERROR(ENOMEM);
    c->ctx   = ctx;
    c->adm   = adm;
    c->depth = FFMIN(threads + 2, FLOAT_ADM_MAX_FRAMES_IN_FLIGHT);
    memcpy(c->layout, layout, sizeof(c->layout));
    if ((ret = float_adm_context_set_threads(adm, threads)) < 0 ||
        (ret = float_adm_context_set_frames_in_flight(adm, c->depth)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Cannot score %d frames at once on %d threads: %s\n",
               c->depth, threads, float_adm_strerror(ret));
        return ret;
    }
    c->queue = av_fifo_alloc2(2 * c->depth, sizeof(QueuedFrame), 0);
    c->collected = av_calloc(c->depth, sizeof(*c->collected));
    c->collected_ret = av_calloc(c->depth, sizeof(*c->collected_ret));
    if (!c->queue || !c->collected || !c->collected_ret)
        return AVERROR(ENOMEM);
    return 0;
}

static FloatAdmPlane plane_of(const ADMCpuPath *c, const AVFrame *frame, int input)
{
    FloatAdmPlane plane = c->layout[input];

    plane.data   = frame->data[0];
    plane.stride = frame->linesize[0];
    return plane;
}

int ff_float_adm_cpu_submit(ADMCpuPath *c, AVFrame *dist, const AVFrame *ref, uint64_t index)
{
    QueuedFrame qf = { .dist = dist, .index = index };
    FloatAdmPlane ref_plane, dist_plane;
    int ret;

    /* The planes are read until the frame is collected: the queue holds both frames. */
    if (!(qf.ref = av_frame_clone(ref))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    /* Room in the queue before the frame goes in flight, so that it is always there. */
    if (!av_fifo_can_write(c->queue) && (ret = av_fifo_grow2(c->queue, c->depth)) < 0)
        goto fail;
    ref_plane  = plane_of(c, qf.ref, INPUT_REFERENCE);
    dist_plane = plane_of(c, dist, INPUT_MAIN);
    /* Room first: the oldest frame's scores are kept here until it leaves. */
    while ((ret = float_adm_submit(c->adm, &ref_plane, &dist_plane)) == FLOAT_ADM_ERROR_AGAIN) {
        const int slot = (c->collected_head + c->nb_collected) % c->depth;

        if (c->nb_collected == c->depth) {
            ret = AVERROR_BUG;
            goto fail;
        }
        c->collected_ret[slot] = float_adm_collect(c->adm, &c->collected[slot], 1);
        c->nb_collected++;
    }
    if (ret < 0) {
        av_log(c->ctx, AV_LOG_ERROR, "Submitting frame %"PRIu64" failed: %s\n", index,
               float_adm_strerror(ret));
        goto fail;
    }
    return av_fifo_write(c->queue, &qf, 1);
fail:
    av_frame_free(&qf.ref);
    av_frame_free(&dist);
    return ret;
}

int ff_float_adm_cpu_pass(ADMCpuPath *c, AVFrame *dist, uint64_t index, const char *skipped)
{
    const QueuedFrame qf = { .dist = dist, .index = index, .skipped = skipped };
    int ret = 0;

    if (!av_fifo_can_write(c->queue))
        ret = av_fifo_grow2(c->queue, c->depth);
    if (ret < 0 || (ret = av_fifo_write(c->queue, &qf, 1)) < 0)
        av_frame_free(&dist);
    return ret;
}

int ff_float_adm_cpu_receive(ADMCpuPath *c, int wait, ADMScoredFrame *out)
{
    QueuedFrame qf;
    int ret;

    if (av_fifo_peek(c->queue, &qf, 1, 0) < 0)
        return 0;
    *out = (ADMScoredFrame) { .index = qf.index, .scored = !!qf.ref, .skipped = qf.skipped };
    if (out->scored) {
        if (c->nb_collected) {
            out->scores = c->collected[c->collected_head];
            ret = c->collected_ret[c->collected_head];
            c->collected_head = (c->collected_head + 1) % c->depth;
            c->nb_collected--;
        } else {
            ret = float_adm_collect(c->adm, &out->scores, wait);
            if (ret == FLOAT_ADM_ERROR_AGAIN && !wait)
                return 0;
        }
        av_fifo_drain2(c->queue, 1);
        av_frame_free(&qf.ref);
        if (ret < 0) {
            av_log(c->ctx, AV_LOG_ERROR, "Scoring frame %"PRIu64" failed: %s\n", qf.index,
                   float_adm_strerror(ret));
            av_frame_free(&qf.dist);
            return ret;
        }
    } else {
        av_fifo_drain2(c->queue, 1);
    }
    out->dist = qf.dist;
    return 1;
}

/* Frames still in flight are waited for (their planes are read until then) and dropped. */
av_cold void ff_float_adm_cpu_uninit(ADMCpuPath **cpu)
{
    ADMCpuPath *c = *cpu;
    FloatAdmScores scores;
    QueuedFrame qf;

    if (!c)
        return;
    while (float_adm_in_flight(c->adm) > 0)
        float_adm_collect(c->adm, &scores, 1);
    while (c->queue && av_fifo_read(c->queue, &qf, 1) >= 0) {
        av_frame_free(&qf.dist);
        av_frame_free(&qf.ref);
    }
    av_fifo_freep2(&c->queue);
    av_freep(&c->collected);
    av_freep(&c->collected_ret);
    av_freep(cpu);
}
