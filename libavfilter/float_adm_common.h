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
 * What float_adm and float_adm_cuda share (float_adm_common.c): their options,
 * the pairing of the inputs, the log and the frames' metadata.  Each filter
 * scores a pair its own way and hands the scores on through ff_float_adm_emit.
 */

#ifndef AVFILTER_FLOAT_ADM_COMMON_H
#define AVFILTER_FLOAT_ADM_COMMON_H

#include <stdint.h>

#include <float_adm.h>

#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "framesync.h"

/* The pads' order: the main (distorted) video, which leaves with the scores,
 * then the reference.  libfloatadm takes (reference, distorted). */
enum {
    INPUT_MAIN,
    INPUT_REFERENCE,
    NB_INPUTS,
};

typedef struct ADMContext {
    const AVClass *class;
    FFFrameSync fs;

    FloatAdmOptions opts;
    char *log_path;
    int log_fmt;
    int n_subsample;

    int width, height;
    FloatAdmPlane layout[NB_INPUTS];    /* sample size and shift of each input's luma */
    int nb_scores;                      /* the scores each frame carries */
    FloatAdmLog *log;                   /* log_path's, or one without a file for the summary */
    uint64_t frame_index;               /* frames seen on the main input */
    int ended;                          /* the output has ended */
    int failed;                         /* the error that stopped the filter, or 0 */

    FloatAdmContext *adm;               /* float_adm */
    int *job_rets;
    int nb_jobs;
    void *cuda;                         /* float_adm_cuda's own state */
} ADMContext;

extern const AVOption ff_float_adm_options[];

/** The options checked, the pairing callback set (init). */
int ff_float_adm_init(AVFilterContext *ctx, int (*on_event)(FFFrameSync *fs));

/**
 * The inputs' sizes and depths checked, the log opened, framesync configured
 * and the output set up as the main input (config_props of the output).
 */
int ff_float_adm_config_output(AVFilterLink *outlink, const AVPixFmtDescriptor *main_desc,
                               const AVPixFmtDescriptor *ref_desc);

/**
 * The pair framesync gives: *dist and *ref, or 0 with *dist NULL where nothing
 * is to be scored or passed on; *index, the frame's number; *score, whether the
 * pair is to be scored (else dist leaves unscored through ff_float_adm_emit).
 */
int ff_float_adm_get_pair(FFFrameSync *fs, AVFrame **dist, AVFrame **ref,
                          uint64_t *index, int *score);

/** A frame leaves: its scores (NULL: none) to its metadata and the log. */
int ff_float_adm_emit(AVFilterContext *ctx, AVFrame *dist, uint64_t index,
                      const FloatAdmScores *scores);

/** framesync's activation; at the end of the output the log is closed. */
int ff_float_adm_activate(AVFilterContext *ctx);

/**
 * The summary said, the log closed (as incomplete where the filter failed),
 * framesync freed.
 */
void ff_float_adm_uninit(AVFilterContext *ctx);

#endif /* AVFILTER_FLOAT_ADM_COMMON_H */
