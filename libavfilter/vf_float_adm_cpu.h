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
 * The float_adm filter's CPU frames in flight: with more than one thread and no
 * map, whole frames are scored at once on libfloatadm's own threads
 * (float_adm_submit / float_adm_collect), and leave in order, as the CUDA path's
 * do: the filter submits each pair (or an unscored frame) and then receives the
 * frames whose turn to leave has come.  Nothing here calls back into the filter.
 */

#ifndef AVFILTER_FLOAT_ADM_CPU_H
#define AVFILTER_FLOAT_ADM_CPU_H

#include <stdint.h>

#include <float_adm.h>

#include "avfilter.h"
#include "vf_float_adm_pairs.h"

typedef struct ADMCpuPath ADMCpuPath;

/**
 * Score on threads frames of adm at once, adm keeping its own threads for them
 * (it stays the caller's).  layout: the main and reference planes' sample size
 * and shift.
 */
int ff_float_adm_cpu_init(AVFilterContext *ctx, ADMCpuPath **cpu, FloatAdmContext *adm,
                          int threads, const FloatAdmPlane layout[NB_INPUTS]);

/** Queue the pair; takes dist, which ff_float_adm_cpu_receive gives back. */
int ff_float_adm_cpu_submit(ADMCpuPath *cpu, AVFrame *dist, const AVFrame *ref,
                            uint64_t index);

/** Queue an unscored frame behind the frames being scored; takes dist. */
int ff_float_adm_cpu_pass(ADMCpuPath *cpu, AVFrame *dist, uint64_t index,
                          const char *skipped);

/**
 * The oldest queued frame, once scored (with wait, waiting for it): 1 with *out
 * filled (the caller owns out->dist), 0 when no frame is ready (or none is
 * queued), or a negative error.
 */
int ff_float_adm_cpu_receive(ADMCpuPath *cpu, int wait, ADMScoredFrame *out);

void ff_float_adm_cpu_uninit(ADMCpuPath **cpu);

#endif /* AVFILTER_FLOAT_ADM_CPU_H */
