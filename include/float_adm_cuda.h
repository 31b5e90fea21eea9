/*
 * float_adm CUDA backend: libvmaf's float ADM on an NVIDIA GPU, bit-exact with the
 * CPU path (float_adm.h) of the host it runs on.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 */

/*
 * Typical use (an FFmpeg filter with CUDA frames):
 *   cuCtxPushCurrent(hwctx->cuda_ctx);        // every call below runs in that context
 *   float_adm_cuda_context_create(&ctx, w, h, depth, &opts, hwctx->stream, 4, err, sizeof(err));
 *   per frame:  float_adm_cuda_submit(ctx, &ref, &dist);      // queued on the stream
 *               float_adm_cuda_collect(ctx, &scores, 1);       // oldest frame's scores
 *   float_adm_cuda_context_free(&ctx);
 *   cuCtxPopCurrent(NULL);
 *
 * All device memory is allocated by context_create; submitting never allocates.
 * Functions return 0 or a negative FLOAT_ADM_ERROR_* code (float_adm.h, plus the
 * codes below); context_create writes what went wrong into errbuf, and
 * float_adm_cuda_last_error() says it for the other calls.  A CUDA failure is
 * always an error, never a score.  The library links the CUDA runtime statically
 * and loads the driver when the first context is created, so programs linking it
 * start on machines without GPU or driver.
 */
#ifndef FLOAT_ADM_CUDA_H
#define FLOAT_ADM_CUDA_H

#include <errno.h>
#include <stddef.h>

#include "float_adm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with -fvisibility=hidden: what is declared here is all it exports. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Negative errno values, as float_adm.h's codes (FFmpeg's AVERROR(e)). */
#define FLOAT_ADM_ERROR_NO_DEVICE (-(ENODEV)) /* no CUDA device or driver */
#define FLOAT_ADM_ERROR_DEVICE (-(EIO))       /* a CUDA call or kernel failed */
#define FLOAT_ADM_ERROR_AGAIN (-(EAGAIN))     /* queue full / nothing ready */

/** A message for every code, the CUDA ones included. */
const char *float_adm_cuda_strerror(int err);

/**
 * Number of usable CUDA devices into *count; 0 (and return 0) where there is no
 * driver or no device, so callers can skip cleanly.  why (may be NULL) then says
 * what CUDA reported.
 */
int float_adm_cuda_device_count(int *count, char *why, size_t why_size);

/** One luma plane in device memory (a CUdeviceptr or cudaMalloc'd pointer). */
typedef struct FloatAdmCudaPlane {
    const void *data;
    ptrdiff_t   pitch;            /* bytes between rows, > 0 */
    int         bytes_per_sample; /* 1, or 2 (little-endian uint16) */
    int         shift;            /* right shift of each sample: 6 for P010, 4 P012, 0 else */
} FloatAdmCudaPlane;

typedef struct FloatAdmCudaContext FloatAdmCudaContext;

/**
 * Create a context on the current CUDA device (or the CUDA context current to
 * this thread, as FFmpeg's hwcontext pushes it).  stream: a cudaStream_t /
 * CUstream to run on, or NULL for a stream of the context's own.  max_in_flight
 * (1..16): how many frames may be submitted before collecting.  Sizes and depths
 * as float_adm_context_create.
 */
int float_adm_cuda_context_create(FloatAdmCudaContext **ctx, int width, int height,
                                  int bit_depth, const FloatAdmOptions *opts, void *stream,
                                  int max_in_flight, char *errbuf, size_t errbuf_size);

/**
 * Queue one frame pair (reference, distorted) on the stream; returns at once.
 * FLOAT_ADM_ERROR_AGAIN when max_in_flight frames are waiting to be collected.
 * The planes must stay valid until the frame is collected.
 */
int float_adm_cuda_submit(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                          const FloatAdmCudaPlane *dist);

/**
 * The scores of the oldest submitted frame (frames come back in submission order).
 * wait = 0: FLOAT_ADM_ERROR_AGAIN if that frame is not finished yet (or none is
 * queued); wait = 1: block until it is (AGAIN only when none is queued).
 */
int float_adm_cuda_collect(FloatAdmCudaContext *ctx, FloatAdmScores *scores, int wait);

/** Frames submitted and not yet collected. */
int float_adm_cuda_in_flight(const FloatAdmCudaContext *ctx);

/** submit + collect(wait = 1); the queue must be empty. */
int float_adm_cuda_score_frame(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                               const FloatAdmCudaPlane *dist, FloatAdmScores *scores);

/**
 * Whether the device reproduces this host's division and, for adm_p_norm other than
 * 3, its powf bit for bit (1) or not (0: the host's reciprocal estimate or its libm's
 * powf could not be modelled; scores may differ from the CPU path in the last bits).
 * description (may be NULL) gets a line saying which methods are used, and what the
 * probes of the host cost.
 */
int float_adm_cuda_is_exact(const FloatAdmCudaContext *ctx, char *description,
                            size_t description_size);

/** What the last failing call on this context reported (empty if none). */
const char *float_adm_cuda_last_error(const FloatAdmCudaContext *ctx);

/**
 * Per-stage timing for benchmarks: when enabled, each submit records CUDA events
 * between its kernels (which costs a little); float_adm_cuda_stage_times() then
 * gives the milliseconds of each stage of the last collected frame.
 */
#define FLOAT_ADM_CUDA_NUM_STAGES 9 /* dwt+decouple s0..3, sums s0..3 (each with its fold), frame */
int float_adm_cuda_set_profiling(FloatAdmCudaContext *ctx, int enable);
int float_adm_cuda_stage_times(const FloatAdmCudaContext *ctx,
                               float ms[FLOAT_ADM_CUDA_NUM_STAGES]);
const char *float_adm_cuda_stage_name(int stage);

/** Waits for queued work, frees everything; *ctx becomes NULL. */
void float_adm_cuda_context_free(FloatAdmCudaContext **ctx);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* FLOAT_ADM_CUDA_H */
