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
 * What the float_adm filter checks about each pair it scores, and says: frames
 * the decoder flagged corrupt, pairs more than half a frame apart, a frame
 * scored twice, main frames without a reference, reference frames after the
 * main's end, colour ranges that differ, inputs that may be the wrong way round;
 * and the types the filter's files share.
 */

#ifndef AVFILTER_FLOAT_ADM_PAIRS_H
#define AVFILTER_FLOAT_ADM_PAIRS_H

#include <stdint.h>

#include <float_adm.h>

#include "libavutil/frame.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "framesync.h"

/* The filter's inputs, in the order of its pads: the main (distorted) video, which
 * leaves with the scores, then the reference.  The library takes (reference,
 * distorted), so each call names its slots. */
enum ADMInput {
    INPUT_MAIN,
    INPUT_REFERENCE,
    NB_INPUTS,
};

enum OnCorrupt {
    ON_CORRUPT_SCORE,
    ON_CORRUPT_SKIP,
    ON_CORRUPT_FAIL,
};

typedef struct ADMPairChecks {
    int on_corrupt;                     /* enum OnCorrupt */
    const AVPixFmtDescriptor *desc[NB_INPUTS]; /* per input: the (software) format */
    struct {
        int64_t first, last;            /* a run of flagged frames; first < 0: none */
    } corrupt[NB_INPUTS];
    uint64_t nb_checked;
    int64_t last_pts[NB_INPUTS];        /* the last pair's timestamps, in the framesync's */
    int warned_repeat;
    int warned_range;
    uint64_t nb_unpaired;               /* main frames without a reference frame */
    uint64_t nb_far_pairs;              /* pairs further apart than half a frame */
    int64_t first_far_pair;
    uint64_t nb_ref_after_main;         /* reference frames after the main's last */
    FloatAdmSwapCheck *swap_check;      /* until its verdict is said */
    FloatAdmPlane layout[NB_INPUTS];    /* per input: how its luma is laid out */
} ADMPairChecks;

static inline const char *ff_float_adm_input_name(int input)
{
    return input == INPUT_REFERENCE ? "reference (second)" : "main (first)";
}

/** layout: per input, how its luma is laid out (the data and stride left out). */
int ff_float_adm_pairs_init(ADMPairChecks *c, int on_corrupt, int width, int height,
                            const AVPixFmtDescriptor *main_desc,
                            const AVPixFmtDescriptor *ref_desc,
                            const FloatAdmPlane layout[NB_INPUTS]);

/**
 * Check the pair framesync gives for frame index.  Warnings as they arise;
 * an error only for a flagged frame with on_corrupt=fail.  *skip: leave the
 * pair unscored (a flagged frame with on_corrupt=skip).
 */
int ff_float_adm_check_pair(AVFilterContext *ctx, ADMPairChecks *c, const FFFrameSync *fs,
                            const AVFrame *dist, const AVFrame *ref, uint64_t index,
                            int *skip);

/** A main frame with no reference frame to be paired with. */
void ff_float_adm_note_unpaired(AVFilterContext *ctx, ADMPairChecks *c, uint64_t index);

/**
 * The main input has ended and framesync gives its last frame (dist) again
 * with a later reference frame: counted where that frame starts after it.
 */
void ff_float_adm_note_after_main(AVFilterContext *ctx, ADMPairChecks *c,
                                  const FFFrameSync *fs, const AVFrame *dist);

/** The end: the open run of flagged frames, the counts, the inputs' order; frees
 *  what the checks hold. */
void ff_float_adm_pairs_report(AVFilterContext *ctx, ADMPairChecks *c);

#endif /* AVFILTER_FLOAT_ADM_PAIRS_H */
