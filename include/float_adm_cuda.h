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
 * Typical use, frames in host memory (the library stages and uploads them, the upload of
 * each frame beside the kernels of the frame before):
 *   float_adm_cuda_context_create(&ctx, w, h, depth, &opts, NULL, 0, err, sizeof(err));
 *   per frame:  while (float_adm_cuda_submit_host(ctx, &ref, &dist) == FLOAT_ADM_ERROR_AGAIN)
 *                   float_adm_cuda_collect(ctx, &scores, 1);   // oldest frame first
 *   at the end: while (float_adm_cuda_in_flight(ctx)) float_adm_cuda_collect(ctx, &scores, 1);
 *   float_adm_cuda_context_free(&ctx);
 * Frames of files are read where they lie (their pages mapped and pinned):
 *   FloatAdmCudaFilePlane ref, dist;
 *   float_adm_reader_luma_at(ref_reader, n, &ref.fd, &ref.offset);   // and the distorted's
 *   while (float_adm_cuda_submit_file(ctx, &ref, &dist) == FLOAT_ADM_ERROR_AGAIN)
 *       float_adm_cuda_collect(ctx, &scores, 1);
 * Frames of streams go straight into the context's pinned buffers:
 *   while (float_adm_cuda_host_frame(ctx, &ref, &dist) == FLOAT_ADM_ERROR_AGAIN)
 *       float_adm_cuda_collect(ctx, &scores, 1);
 *   float_adm_reader_read_next_luma(ref_reader, ref.data, ...);   // and the distorted's
 *   float_adm_cuda_submit_host_frame(ctx);
 * With frames already on the device (an FFmpeg filter with CUDA frames), create the
 * context while the frames' CUDA context is current (cuCtxPushCurrent), pass their
 * stream, and submit with float_adm_cuda_submit.
 *
 * All device memory is allocated by context_create, but for the staging buffers of
 * host frames, made on the first float_adm_cuda_submit_host.  Functions return 0 or
 * a negative FLOAT_ADM_ERROR_* code (float_adm.h, plus the codes below);
 * context_create writes what went wrong into errbuf, and float_adm_cuda_last_error()
 * says it for the other calls.  A CUDA failure is always an error, never a score.
 *
 * The library needs the NVIDIA driver at run time and nothing else of CUDA: it opens
 * libcuda.so.1 when the first context is created (or devices are counted), so programs
 * linking it start on machines without GPU or driver, and its kernels are built into
 * it (PTX, compiled by the driver for the device it finds).
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
/* FLOAT_ADM_ERROR_AGAIN (float_adm.h): queue full / nothing ready. */

/** A message for every code, the CUDA ones included. */
const char *float_adm_cuda_strerror(int err);

/**
 * Number of usable CUDA devices into *count; 0 (and return 0) where there is no
 * driver or no device, so callers can skip cleanly.  why (may be NULL) then says
 * what CUDA reported.
 */
int float_adm_cuda_device_count(int *count, char *why, size_t why_size);

/*
 * Where a FloatAdmCudaPlane is (its in_host_memory):
 *   FLOAT_ADM_CUDA_DEVICE_MEMORY  device memory: the kernels read it;
 *   FLOAT_ADM_CUDA_HOST_COPY      host memory, copied into pinned memory of the context's
 *                                 before submit returns, then uploaded;
 *   FLOAT_ADM_CUDA_HOST_IN_PLACE  host memory the caller keeps, unchanged, until the
 *                                 frame is collected: the whole pages within its rows are
 *                                 pinned (cuMemHostRegister) and uploaded from where they
 *                                 are, with no copy on the host (the few rows on pages
 *                                 shared with what lies beside the plane are copied);
 *                                 where they cannot be pinned (or the rows run upwards)
 *                                 the plane is copied as FLOAT_ADM_CUDA_HOST_COPY.
 *                                 Since 1.8.0.
 *   FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD  as _HOST_IN_PLACE, for a caller that keeps the
 *                                 memory allocated a while after the frame is collected
 *                                 (it may change it then): the pages stay pinned after
 *                                 the collect and are unpinned with those of later frames,
 *                                 as float_adm_cuda_submit_file's are, so that collecting
 *                                 does not wait for the frames still in flight (unpinning
 *                                 waits for all the device's work).  The memory of the
 *                                 frames float_adm_cuda_held_frames counts must stay
 *                                 allocated.  Since 1.9.0.
 */
#define FLOAT_ADM_CUDA_DEVICE_MEMORY 0
#define FLOAT_ADM_CUDA_HOST_COPY 1
#define FLOAT_ADM_CUDA_HOST_IN_PLACE 2
#define FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD 3

/** One luma plane, in device memory (a CUdeviceptr) or in host memory. */
typedef struct FloatAdmCudaPlane {
    const void *data;
    ptrdiff_t pitch;              /* bytes between rows; > 0 in device memory */
    int         bytes_per_sample; /* 1, or 2 (little-endian uint16) */
    int         shift;            /* right shift of each sample: 6 for P010, 4 P012, 0 else */
    int in_host_memory; /* FLOAT_ADM_CUDA_DEVICE_MEMORY, _HOST_COPY, _HOST_IN_PLACE(_HELD) */
} FloatAdmCudaPlane;

typedef struct FloatAdmCudaContext FloatAdmCudaContext;

/**
 * Create a context in the CUDA context current to this thread (as FFmpeg's
 * hwcontext pushes it), or else in the primary context of CUDA device 0; every
 * later call on it runs there, whatever is current then.  stream: a CUstream of
 * that context to run on, or NULL for a stream of the context's own.
 * max_in_flight (1..16): how many frames may be submitted before collecting; 0: the
 * library's choice, 4 (one scored, the next uploaded beside it, one prepared on the
 * host, one waiting to be collected; float_adm_cuda_max_in_flight says it).  Every
 * depth gives the same bits.  Sizes and depths as float_adm_context_create.
 */
int float_adm_cuda_context_create(FloatAdmCudaContext **ctx, int width, int height,
                                  int bit_depth, const FloatAdmOptions *opts, void *stream,
                                  int max_in_flight, char *errbuf, size_t errbuf_size);

/**
 * As float_adm_cuda_context_create, in the primary context of CUDA device `device`
 * (0 .. count - 1, as CUDA numbers them after CUDA_VISIBLE_DEVICES) whatever is
 * current, on a stream of the context's own: for callers that bring no CUDA context,
 * such as frames from host memory.
 */
int float_adm_cuda_context_create_on_device(FloatAdmCudaContext **ctx, int device, int width,
                                            int height, int bit_depth, const FloatAdmOptions *opts,
                                            int max_in_flight, char *errbuf, size_t errbuf_size);

/**
 * Queue one frame pair (reference, distorted) on the stream; returns at once.
 * FLOAT_ADM_ERROR_AGAIN when max_in_flight frames are waiting to be collected.
 * Planes in device memory, and host planes FLOAT_ADM_CUDA_HOST_IN_PLACE, must stay
 * valid and unchanged until the frame is collected; FLOAT_ADM_CUDA_HOST_COPY planes are
 * copied before this returns.  Host planes are uploaded on a stream of the context's
 * own while the frames before are scored; the kernels wait for them.
 */
int float_adm_cuda_submit(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                          const FloatAdmCudaPlane *dist);

/**
 * Queue one frame pair in host memory (float_adm.h's planes; strides may be
 * negative): float_adm_cuda_submit with both planes FLOAT_ADM_CUDA_HOST_COPY.  The
 * luma is copied into pinned buffers of the context (a frame's worth a slot of
 * max_in_flight), on float_adm_cuda_set_host_threads' threads, and uploaded beside the
 * kernels of the frames before, so the caller may reuse its planes as soon as this
 * returns.
 */
int float_adm_cuda_submit_host(FloatAdmCudaContext *ctx, const FloatAdmPlane *ref,
                               const FloatAdmPlane *dist);

/**
 * The scores of the oldest submitted frame (frames come back in submission order).
 * wait = 0: FLOAT_ADM_ERROR_AGAIN if that frame is not finished yet (or none is
 * queued); wait = 1: block until it is (AGAIN only when none is queued).
 */
int float_adm_cuda_collect(FloatAdmCudaContext *ctx, FloatAdmScores *scores, int wait);

/** Frames submitted and not yet collected. */
int float_adm_cuda_in_flight(const FloatAdmCudaContext *ctx);

/**
 * How many of the frames collected last may still have memory pinned that was submitted
 * FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD: the caller keeps the memory of that many of its
 * latest collected frames allocated.  At most 16 planes, 256 MiB or the memory of 8
 * frames are kept pinned so (the count is under 8); 0 once no frame is in flight (the
 * collect that empties the queue unpins them all, and so does
 * float_adm_cuda_context_free).  Since 1.9.0.
 */
int float_adm_cuda_held_frames(const FloatAdmCudaContext *ctx);

/** How many frames may be in flight (max_in_flight, or the library's choice).  Since 1.8.0. */
int float_adm_cuda_max_in_flight(const FloatAdmCudaContext *ctx);

/**
 * How many threads copy FLOAT_ADM_CUDA_HOST_COPY planes (and float_adm_cuda_submit_host's)
 * into pinned memory: rows in bands, none under 512 KiB, the caller's thread one of them.
 * 0 (the default): the library's choice, a quarter of the host's threads, 1 to 4; at most
 * 64.  Since 1.8.0.
 */
int float_adm_cuda_set_host_threads(FloatAdmCudaContext *ctx, int threads);

/**
 * The pinned host buffers the next frame is read into by the caller, with no other copy
 * on the host (float_adm_reader_read_luma writes this layout): rows of width samples
 * (little-endian above 8 bits, shift 0), stride width * bytes per sample.
 * FLOAT_ADM_ERROR_AGAIN when max_in_flight frames wait to be collected.  The buffers
 * are the caller's until float_adm_cuda_submit_host_frame queues them; meanwhile other
 * submits are refused, and a second call gives the same buffers.  Since 1.8.0.
 */
int float_adm_cuda_host_frame(FloatAdmCudaContext *ctx, FloatAdmPlane *ref, FloatAdmPlane *dist);

/** Queue the frame written into float_adm_cuda_host_frame's buffers.  Since 1.8.0. */
int float_adm_cuda_submit_host_frame(FloatAdmCudaContext *ctx);

/**
 * Where a plane lies in a file (float_adm_reader_luma_at gives it): fd, a descriptor open
 * for reading, which the library reads (pread) and maps but never closes or moves; offset,
 * the plane's first byte.  Rows of width samples, little-endian above 8 bits, stride width
 * * bytes per sample.  Since 1.9.0.
 */
typedef struct FloatAdmCudaFilePlane {
    int fd;
    uint64_t offset;
} FloatAdmCudaFilePlane;

/**
 * Queue one frame pair read from files, crossing host memory only on its way to the
 * device where the files allow it: the pages that hold each plane are mapped and pinned,
 * and uploaded from there (the file's pages in the page cache: a file on tmpfs, or one
 * read before); they are the library's own mapping, released with those of later
 * frames (at most 16 planes or 256 MiB kept after their frames are collected, none once
 * no frame is in flight: unpinning waits for the device); the rows on pages shared with
 * other bytes of the file, and every row of a plane whose pages cannot be pinned (a file
 * system or a driver that will not), are read into the context's pinned buffers instead,
 * on the host threads (float_adm_cuda_set_host_threads).  The same bits either way.
 * FLOAT_ADM_ERROR_IO where a read fails or the file ends first; AGAIN when max_in_flight
 * frames wait to be collected.  Since 1.9.0.
 */
int float_adm_cuda_submit_file(FloatAdmCudaContext *ctx, const FloatAdmCudaFilePlane *ref,
                               const FloatAdmCudaFilePlane *dist);

/**
 * Which backend `auto` takes (docs/cuda.md, "Which backend auto takes"): 1 CUDA device
 * `device`, 0 the CPU, for frames of width x height at bit_depth with adm_p_norm
 * p_norm, against the CPU path on cpu_threads threads, over `frames` frames (0: not
 * known).  The device where there is one, it reproduces this host's bits for p_norm
 * (float_adm_cuda_is_exact's probes), and it is estimated faster, its start counted
 * where the frames are known; else the CPU.  why (may be NULL) gets the sentence that
 * says what decided it.  A negative code for sizes or values out of range.  Since 1.8.0.
 */
int float_adm_cuda_choose_backend(int device, int width, int height, int bit_depth, double p_norm,
                                  int cpu_threads, uint64_t frames, char *why, size_t why_size);

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

/*
 * Maps (float_adm.h, "Maps"; docs/maps.md): the device computes each block's sums in
 * the CPU's order, bit for bit the CPU's, and the host the loss from them with the
 * CPU's code, when the loss is first read.  A frame's map is read after float_adm_cuda_collect returns that
 * frame's scores, until the next collect: frames submitted later do not touch it.
 */

/**
 * Compute a map of every frame from now on; before the first submit
 * (FLOAT_ADM_ERROR_INVALID after), twice is harmless.  Without it no map kernel runs.
 */
int float_adm_cuda_context_enable_map(FloatAdmCudaContext *ctx);

/** As float_adm_map_size: block columns and rows, block size in pixels. */
int float_adm_cuda_map_size(const FloatAdmCudaContext *ctx, int *columns, int *rows,
                            int *block_size);

/**
 * The loss per block (rows from the top) of the frame last collected, as
 * float_adm_map_loss: FLOAT_ADM_ERROR_INVALID without a map, before a frame was
 * collected whole (a failed collect leaves none), or for a count below columns x rows.
 */
int float_adm_cuda_map_loss(const FloatAdmCudaContext *ctx, float *loss, size_t count);

/**
 * The loss of block rows [first_row, first_row + nb_rows) of the frame last
 * collected, into loss (nb_rows rows of the grid's columns; count floats at
 * least): the values float_adm_cuda_map_loss gives for those rows.  It reads the
 * context and changes nothing, so calls for different rows may run at once, each
 * on its own thread (a picture painted in slices); no other call on ctx may run
 * meanwhile.  Errors as float_adm_cuda_map_loss, and FLOAT_ADM_ERROR_INVALID for
 * rows outside the grid.  Since 1.5.0.
 */
int float_adm_cuda_map_loss_rows(const FloatAdmCudaContext *ctx, int first_row, int nb_rows,
                                 float *loss, size_t count);

/** Scale scale's sums per block of the frame last collected, as float_adm_map_sums. */
int float_adm_cuda_map_sums(const FloatAdmCudaContext *ctx, int scale, double *num, double *den,
                            size_t count);

/** The loss of the frame last collected as a PFM file, as float_adm_map_write_pfm. */
int float_adm_cuda_map_write_pfm(const FloatAdmCudaContext *ctx, const char *pattern,
                                 uint64_t frame_num, char *errbuf, size_t errbuf_size);

/**
 * How this library's kernels were built: "kernels built as PTX by clang" (an
 * LGPL build: no part of the CUDA toolkit in it) or "kernels built by nvcc" (the
 * CUDA toolkit's compiler and headers: FFmpeg counts such a build as nonfree).
 * pkg-config --variable=nonfree floatadm_cuda says the same at build time.
 */
const char *float_adm_cuda_build(void);

/** Waits for queued work, frees everything; *ctx becomes NULL. */
void float_adm_cuda_context_free(FloatAdmCudaContext **ctx);

/*
 * The _sized twins of the functions above that take FloatAdmOptions or
 * FloatAdmScores, and the macros that pass sizeof() as this header has it, as
 * float_adm.h's ("ABI"; docs/abi.md).  The plain names, exported with version
 * FLOATADM_CUDA_1.2, stay for programs built against float_adm_cuda.h 1.2 and earlier.
 */
int float_adm_cuda_context_create_sized(FloatAdmCudaContext **ctx, int width, int height,
                                        int bit_depth, const FloatAdmOptions *opts,
                                        size_t opts_size, void *stream, int max_in_flight,
                                        char *errbuf, size_t errbuf_size);
int float_adm_cuda_context_create_on_device_sized(FloatAdmCudaContext **ctx, int device, int width,
                                                  int height, int bit_depth,
                                                  const FloatAdmOptions *opts, size_t opts_size,
                                                  int max_in_flight, char *errbuf,
                                                  size_t errbuf_size);
int float_adm_cuda_collect_sized(FloatAdmCudaContext *ctx, FloatAdmScores *scores,
                                 size_t scores_size, int wait);
int float_adm_cuda_score_frame_sized(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                                     const FloatAdmCudaPlane *dist, FloatAdmScores *scores,
                                     size_t scores_size);

#ifndef FLOAT_ADM_BUILDING_LIBRARY
/* clang-format off */
#define float_adm_cuda_context_create(ctx, width, height, bit_depth, opts, stream, \
                                      max_in_flight, errbuf, errbuf_size) \
    float_adm_cuda_context_create_sized((ctx), (width), (height), (bit_depth), (opts), \
                                        sizeof(FloatAdmOptions), (stream), (max_in_flight), \
                                        (errbuf), (errbuf_size))
#define float_adm_cuda_context_create_on_device(ctx, device, width, height, bit_depth, opts, \
                                                max_in_flight, errbuf, errbuf_size) \
    float_adm_cuda_context_create_on_device_sized((ctx), (device), (width), (height), \
                                                  (bit_depth), (opts), sizeof(FloatAdmOptions), \
                                                  (max_in_flight), (errbuf), (errbuf_size))
#define float_adm_cuda_collect(ctx, scores, wait) \
    float_adm_cuda_collect_sized((ctx), (scores), sizeof(FloatAdmScores), (wait))
#define float_adm_cuda_score_frame(ctx, ref, dist, scores) \
    float_adm_cuda_score_frame_sized((ctx), (ref), (dist), (scores), sizeof(FloatAdmScores))
/* clang-format on */
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* FLOAT_ADM_CUDA_H */
