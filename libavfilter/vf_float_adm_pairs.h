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
 * What the float_adm filters check about each pair they score, and say: frames
 * the decoder flagged corrupt, pairs more than half a frame apart, a frame
 * scored twice, main frames without a reference, reference frames after the
 * main's end, colour ranges that differ, inputs that may be the wrong way round.
 * Pairs in doubt are also said for programs: each frame passed on whose pair is
 * in doubt carries lavfi.float_adm.pair_doubt (libfloatadm's names of the kinds,
 * joined with '+'), and the counts go into the log (float_adm_log_add_pairing).
 */

#ifndef AVFILTER_FLOAT_ADM_PAIRS_H
#define AVFILTER_FLOAT_ADM_PAIRS_H

#include <stdint.h>

#include <float_adm.h>

#include "libavutil/frame.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "float_adm_common.h"
#include "framesync.h"

enum OnCorrupt {
    ON_CORRUPT_SCORE,
    ON_CORRUPT_SKIP,
    ON_CORRUPT_FAIL,
};

typedef struct ADMPairChecks ADMPairChecks;

static inline const char *ff_float_adm_input_name(int input)
{
    return input == INPUT_REFERENCE ? "reference (second)" : "main (first)";
}

/**
 * Set the checks up in *c, allocated where NULL.  layout: per input, how its luma
 * is laid out (the data and stride left out).
 */
int ff_float_adm_pairs_init(ADMPairChecks **c, int on_corrupt, int width, int height,
                            const AVPixFmtDescriptor *main_desc,
                            const AVPixFmtDescriptor *ref_desc,
                            const FloatAdmPlane layout[NB_INPUTS]);

/**
 * Check the pair framesync gives for frame index.  Warnings as they arise, and
 * dist's metadata names the pair's kinds of doubt; an error only for a flagged
 * frame with on_corrupt=fail (or no memory).  *skip: leave the pair unscored (a
 * flagged frame with on_corrupt=skip).
 */
int ff_float_adm_check_pair(AVFilterContext *ctx, ADMPairChecks *c, const FFFrameSync *fs,
                            AVFrame *dist, const AVFrame *ref, uint64_t index, int *skip);

/**
 * dist, main frame index, has no reference frame to be paired with (its metadata
 * says so): 0, or AVERROR(ENOMEM).
 */
int ff_float_adm_note_unpaired(AVFilterContext *ctx, ADMPairChecks *c, AVFrame *dist,
                               uint64_t index);

/**
 * The main input has ended and framesync gives its last frame (dist) again
 * with a later reference frame: counted where that frame starts after it.
 */
void ff_float_adm_note_after_main(AVFilterContext *ctx, ADMPairChecks *c,
                                  const FFFrameSync *fs, const AVFrame *dist);

/**
 * Why frame index, leaving without scores, was left unscored (for the log), or
 * NULL where it was not skipped (n_subsample, the timeline).  Frames leave in
 * order: what is known of the frames before it is forgotten.
 */
const char *ff_float_adm_pairs_skipped(ADMPairChecks *c, uint64_t index);

/**
 * The pairs checked and the pairs in doubt, counted, added to log
 * (float_adm_log_add_pairing), once: before the log lands or is handed to a
 * rebuilt graph.  c or log NULL: nothing.  0, or an error said.
 */
int ff_float_adm_pairs_log(AVFilterContext *ctx, ADMPairChecks *c, FloatAdmLog *log);

/**
 * The end: the counts added to log where they are not yet (NULL: a log that
 * takes none, or none), the open run of flagged frames, the counts said, the
 * inputs' order; the checks freed and *c set to NULL.
 */
void ff_float_adm_pairs_report(AVFilterContext *ctx, ADMPairChecks **c, FloatAdmLog *log);

#endif /* AVFILTER_FLOAT_ADM_PAIRS_H */
