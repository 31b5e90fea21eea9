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
 * flight.  The filter submits each pair and collects their scores in the same
 * order, as dav1d's send/get: nothing here calls back into the filter.
 * Without libfloatadm_cuda, init fails with a message and nothing else is
 * reached.
 */

#ifndef AVFILTER_FLOAT_ADM_CUDA_H
#define AVFILTER_FLOAT_ADM_CUDA_H

#include <stdint.h>

#include <float_adm.h>

#include "avfilter.h"
#include "vf_float_adm_pairs.h"

typedef struct ADMCudaPath ADMCudaPath;


/**
 * Set up scoring on the GPU of the inputs' CUDA frames (or of the graph's, or
 * the default, CUDA device); software inputs have their luma uploaded.
 * layout: the main and reference planes' sample size and shift.  map_path:
 * each scored frame's map written as its scores are collected; map_picture:
 * each scored frame's map loss read with ff_float_adm_cuda_map_loss_rows.
 */
int ff_float_adm_cuda_init(AVFilterContext *ctx, ADMCudaPath **cuda,
                           const FloatAdmOptions *opts, int width, int height, int depth,
                           const FloatAdmPlane layout[NB_INPUTS], const char *map_path,
                           int map_picture);

/** With map_picture: the map's grid, in blocks. */
void ff_float_adm_cuda_map_size(const ADMCudaPath *cuda, int *columns, int *rows);

/**
 * Put the pair in flight, AVERROR(EAGAIN) while there is no room (collect the
 * oldest first).  The frames are read until their scores are collected: the
 * caller keeps them until then.  index: the frame's number, for messages.
 */
int ff_float_adm_cuda_submit(ADMCudaPath *cuda, const AVFrame *dist, const AVFrame *ref,
                             uint64_t index);

/**
 * The scores of the oldest frame in flight (index: its number, for messages and
 * map_path), waiting for them with wait, else AVERROR(EAGAIN) until they are
 * back.
 */
int ff_float_adm_cuda_collect(ADMCudaPath *cuda, uint64_t index, int wait, FloatAdmScores *scores);

/**
 * With map_picture: the loss of block rows [first_row, first_row + nb_rows) of
 * the frame last collected, into loss (those rows of the grid); < 0 a library
 * error code.  Calls for different rows may run at once on the filter's threads,
 * until the next collect.
 */
int ff_float_adm_cuda_map_loss_rows(const ADMCudaPath *cuda, int first_row, int nb_rows,
                                    float *loss);

void ff_float_adm_cuda_uninit(ADMCudaPath **cuda);

#endif /* AVFILTER_FLOAT_ADM_CUDA_H */
