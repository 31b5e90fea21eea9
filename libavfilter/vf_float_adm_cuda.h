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
 * The float_adm filter's CUDA path: frames scored on the GPU, a few in
 * flight, leaving in order.  Without libfloatadm_cuda, init fails with a
 * message and nothing else is reached.
 */

#ifndef AVFILTER_FLOAT_ADM_CUDA_H
#define AVFILTER_FLOAT_ADM_CUDA_H

#include <stdint.h>

#include <float_adm.h>

#include "avfilter.h"

typedef struct FloatAdmCuda FloatAdmCuda;

/**
 * What the filter does with a frame when its turn to leave comes: with
 * scores, publish them; without, pass it on unscored (skipped says why, for
 * the log, or is NULL).  Takes ownership of dist.
 */
typedef int (*FloatAdmEmitFn)(AVFilterContext *ctx, AVFrame *dist, uint64_t index,
                              const FloatAdmScores *scores, const char *skipped);

/**
 * Set up scoring on the GPU of the inputs' CUDA frames (or of the graph's, or
 * the default, CUDA device); software inputs have their luma uploaded.
 * layout: the main and reference planes' sample size and shift.
 */
int ff_float_adm_cuda_init(AVFilterContext *ctx, FloatAdmCuda **cuda, FloatAdmEmitFn emit,
                           const FloatAdmOptions *opts, int width, int height, int depth,
                           const FloatAdmPlane layout[2]);

/** Queue the pair; dist leaves through emit once its scores are back. */
int ff_float_adm_cuda_submit(FloatAdmCuda *cuda, AVFrame *dist, const AVFrame *ref,
                             uint64_t index);

/** An unscored frame, queued behind the frames being scored. */
int ff_float_adm_cuda_pass(FloatAdmCuda *cuda, AVFrame *dist, uint64_t index,
                           const char *skipped);

/** The end of the stream: every queued frame leaves. */
int ff_float_adm_cuda_flush(FloatAdmCuda *cuda);

void ff_float_adm_cuda_uninit(FloatAdmCuda **cuda);

#endif /* AVFILTER_FLOAT_ADM_CUDA_H */
