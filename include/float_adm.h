/*
 * float_adm: Netflix VMAF's float ADM features, bit-exact with libvmaf.
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
 * libfloatadm's API: everything a program needs to compute float ADM as libvmaf
 * does, in C.  Scoring (contexts, options, the SIMD level and threads), the pooling
 * of each output over frames (summaries), libvmaf's log layouts and the names of
 * its outputs, and the reader of raw and y4m files all live here, once; every
 * program calls them rather than keeping a copy: FFmpeg's float_adm filter,
 * float_adm_score, the Python package (floatadm, through ctypes) and the
 * benchmarks.  The CUDA backend adds float_adm_cuda.h.
 *
 * Typical use:
 *   FloatAdmOptions opts;
 *   float_adm_options_default(&opts);
 *   float_adm_option_set(&opts, "adm_enhn_gain_limit", "1.2", err, sizeof(err));
 *   FloatAdmContext *ctx;
 *   float_adm_context_create(&ctx, width, height, bit_depth, &opts, err, sizeof(err));
 *   per frame: float_adm_score_frame(ctx, &ref_plane, &dist_plane, &scores);
 *   float_adm_context_free(&ctx);
 * A libvmaf-style log, with its summary over frames (float_adm_log_*, below):
 *   float_adm_log_open(&log, "out.json", FLOAT_ADM_LOG_JSON, &opts, width, height,
 *                      err, sizeof(err));
 *   per frame: float_adm_log_frame(log, frame_num, &scores, err, sizeof(err));
 *   float_adm_log_close(&log, err, sizeof(err));
 *
 * Every function returns 0 on success or a negative FLOAT_ADM_ERROR_* code
 * (AVERROR-style); float_adm_strerror() names it.  Functions that take an
 * errbuf write a message there that says exactly what is wrong.
 */

#ifndef FLOAT_ADM_H
#define FLOAT_ADM_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with -fvisibility=hidden: what is declared here is all it exports. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define FLOAT_ADM_VERSION_MAJOR 1
#define FLOAT_ADM_VERSION_MINOR 9
#define FLOAT_ADM_VERSION_PATCH 0

/** The version of the library linked in, "MAJOR.MINOR.PATCH". */
const char *float_adm_version(void);

/*
 * Error codes: negative errno values, as FFmpeg's AVERROR(e) on every platform,
 * so the filter passes them on unchanged.
 */
#define FLOAT_ADM_ERROR_INVALID (-(EINVAL)) /* bad argument or option */
#define FLOAT_ADM_ERROR_NOMEM (-(ENOMEM))
#define FLOAT_ADM_ERROR_RANGE (-(ERANGE))        /* option value out of range */
#define FLOAT_ADM_ERROR_NOT_FOUND (-(ENOENT))    /* unknown option name */
#define FLOAT_ADM_ERROR_UNSUPPORTED (-(ENOTSUP)) /* unsupported depth or size */
#define FLOAT_ADM_ERROR_IO (-(EIO))              /* a log could not be written */
#define FLOAT_ADM_ERROR_BUSY (-(EBUSY))          /* another writer holds the file */
#define FLOAT_ADM_ERROR_AGAIN (-(EAGAIN))        /* frame queue full / nothing ready */
/* An output refused by the output policy (float_adm_output_check): */
#define FLOAT_ADM_ERROR_OUTPUT_INPUT (-(ETXTBSY))   /* the file is an input of the run */
#define FLOAT_ADM_ERROR_OUTPUT_NOT_FILE (-(EISDIR)) /* a device, FIFO, socket or directory */
#define FLOAT_ADM_ERROR_OUTPUT_SYMLINK (-(ELOOP))   /* a symbolic link */
#define FLOAT_ADM_ERROR_OUTPUT_NOT_OURS (-(EEXIST)) /* a file that is not this project's */
#define FLOAT_ADM_ERROR_OUTPUT_SHARED (-(EALREADY)) /* another output of the run goes there */
/* An input given twice (float_adm_run_files_add_input): */
#define FLOAT_ADM_ERROR_INPUT_SHARED (-(ESPIPE)) /* one stream named as two inputs */

/** A static message for an error code. */
const char *float_adm_strerror(int err);

/**
 * The error codes for bindings: float_adm_error_code(i) is the i-th FLOAT_ADM_ERROR_*
 * code (0 past the last), float_adm_error_name(code) its name without the prefix
 * ("INVALID", ..., "BUSY"; NULL for no code of the list).
 */
int float_adm_error_code(int index);
const char *float_adm_error_name(int err);

/* ---- Options: libvmaf float_adm's names, aliases, defaults and ranges ---- */

/*
 * The option table, in libvmaf's order; the C API, float_adm_score and the
 * FFmpeg filter's options all expand it.  One row per option:
 *   OPT(name, alias, field, type, default, min, max, help)
 * name and alias are libvmaf's; field is the member of FloatAdmOptions that holds
 * the value (type DOUBLE: a double; INT and BOOL: an int); type is BOOL, INT or
 * DOUBLE (FLOAT_ADM_OPT_##type).  Options that libvmaf gives no alias use
 * OPT_NO_ALIAS, with the same columns and NULL as alias, so that a consumer
 * making one entry per name and one per alias can leave the alias out; others
 * pass the same macro twice.
 * adm_skip_aim_scale: libvmaf's range is [0, 3] with -1 (none) as the default;
 * -1 is accepted too.
 */
#define FLOAT_ADM_OPTIONS(OPT, OPT_NO_ALIAS)                                                       \
    OPT_NO_ALIAS("debug", NULL, debug, BOOL, 0, 0, 1, "also report the 11 debug outputs")          \
    OPT("adm_enhn_gain_limit", "egl", enhn_gain_limit, DOUBLE, 100, 1, 100,                        \
        "enhancement gain limit (1: no gain)")                                                     \
    OPT("adm_norm_view_dist", "nvd", norm_view_dist, DOUBLE, 3, 0.75, 24,                          \
        "viewing distance / reference display height")                                             \
    OPT("adm_noise_weight", "nw", noise_weight, DOUBLE, 0.03125, 0, 1500, "noise floor weight")    \
    OPT("adm_csf_scale", "scf", csf_scale, DOUBLE, 1, 0, 50, "Barten CSF scale (h, v)")            \
    OPT("adm_csf_diag_scale", "scfd", csf_diag_scale, DOUBLE, 1, 0, 50,                            \
        "Barten CSF scale (diagonal)")                                                             \
    OPT("adm_ref_display_height", "rdf", ref_display_height, INT, 1080, 1, 4320,                   \
        "reference display height in pixels")                                                      \
    OPT("adm_csf_mode", "csf", csf_mode, INT, 0, 0, 9,                                             \
        "CSF: 0 Watson, 1 Barten, 2 DLM paper, others Watson")                                     \
    OPT("adm_bypass_cm", "bcm", bypass_cm, INT, 0, 0, 1, "bypass contrast masking")                \
    OPT("adm_adm3_apply_hm", "aah", adm3_apply_hm, BOOL, 0, 0, 1,                                  \
        "adm3 as the harmonic mean of DLM and AIM")                                                \
    OPT("adm_p_norm", "apn", p_norm, DOUBLE, 3, 1, 20, "p of the energy sums")                     \
    OPT("adm_dlm_weight", "dlmw", dlm_weight, DOUBLE, 0.5, 0, 1,                                   \
        "weight of DLM against AIM in adm3 (1: DLM only)")                                         \
    OPT("adm_min_val", "min", min_val, DOUBLE, 0, 0, 1, "lower clip of adm3")                      \
    OPT("adm_f1s0", "f1s0", f1s[0], DOUBLE, -1, -1, 10, "CSF factor h/v, scale 0 (-1: the CSF's)") \
    OPT("adm_f1s1", "f1s1", f1s[1], DOUBLE, -1, -1, 10, "CSF factor h/v, scale 1 (-1: the CSF's)") \
    OPT("adm_f1s2", "f1s2", f1s[2], DOUBLE, -1, -1, 10, "CSF factor h/v, scale 2 (-1: the CSF's)") \
    OPT("adm_f1s3", "f1s3", f1s[3], DOUBLE, -1, -1, 10, "CSF factor h/v, scale 3 (-1: the CSF's)") \
    OPT("adm_f2s0", "f2s0", f2s[0], DOUBLE, -1, -1, 10,                                            \
        "CSF factor diagonal, scale 0 (-1: the CSF's)")                                            \
    OPT("adm_f2s1", "f2s1", f2s[1], DOUBLE, -1, -1, 10,                                            \
        "CSF factor diagonal, scale 1 (-1: the CSF's)")                                            \
    OPT("adm_f2s2", "f2s2", f2s[2], DOUBLE, -1, -1, 10,                                            \
        "CSF factor diagonal, scale 2 (-1: the CSF's)")                                            \
    OPT("adm_f2s3", "f2s3", f2s[3], DOUBLE, -1, -1, 10,                                            \
        "CSF factor diagonal, scale 3 (-1: the CSF's)")                                            \
    OPT("adm_skip_aim_scale", "sasc", skip_aim_scale, INT, -1, -1, 3,                              \
        "leave this scale out of aim (-1: none)")                                                  \
    OPT("adm_skip_scale0", "ssz", skip_scale0, BOOL, 0, 0, 1, "skip scale 0")

/*
 * The values of the options, one member per field of FLOAT_ADM_OPTIONS, typed by its
 * rows (DOUBLE: double; INT and BOOL: int; the per-scale rows: an array).  The members
 * stay where libfloatadm 1.0 put them (the ABI; tests/unit/test_options_layout.cpp pins
 * it) and a new field goes at the end: scripts/gen-options.py writes them so, and the
 * Python package's ctypes copy.  The library learns the caller's size with each call
 * ("ABI" below; docs/abi.md), so a later 1.x can append members.
 */
typedef struct FloatAdmOptions {
    /* begin: generated from FLOAT_ADM_OPTIONS in include/float_adm.h by `make option-docs` */
    int debug;
    double enhn_gain_limit;
    double norm_view_dist;
    int ref_display_height;
    double noise_weight;
    int csf_mode;
    double csf_scale;
    double csf_diag_scale;
    int bypass_cm;
    double p_norm;
    int adm3_apply_hm;
    double dlm_weight;
    double min_val;
    double f1s[4];
    double f2s[4];
    int skip_aim_scale;
    int skip_scale0;
    /* end: generated */
} FloatAdmOptions;

enum FloatAdmOptionType {
    FLOAT_ADM_OPT_BOOL,
    FLOAT_ADM_OPT_INT,
    FLOAT_ADM_OPT_DOUBLE,
};

typedef struct FloatAdmOptionInfo {
    const char *name;           /* libvmaf's name, e.g. "adm_enhn_gain_limit" */
    const char *alias;          /* libvmaf's alias, e.g. "egl"; NULL if none */
    const char *help;
    enum FloatAdmOptionType type;
    double default_value;
    double min;
    double max;
} FloatAdmOptionInfo;

/** Fill opts with the table's defaults (libvmaf's). */
void float_adm_options_default(FloatAdmOptions *opts);

/** Number of options, and the row of option i of the table (NULL when out of range). */
int float_adm_option_count(void);
const FloatAdmOptionInfo *float_adm_option_info(int index);

/**
 * Set an option by name or alias from its text ("1.2", "true", "0").
 * Unknown name: FLOAT_ADM_ERROR_NOT_FOUND; unparsable text: FLOAT_ADM_ERROR_INVALID;
 * value out of range: FLOAT_ADM_ERROR_RANGE, the message names the option and its range.
 */
int float_adm_option_set(FloatAdmOptions *opts, const char *name, const char *value,
                         char *errbuf, size_t errbuf_size);

/** Set an option by name or alias from a number (bools: 0 or 1). */
int float_adm_option_set_double(FloatAdmOptions *opts, const char *name, double value,
                                char *errbuf, size_t errbuf_size);

/** Read an option by name or alias. */
int float_adm_option_get(const FloatAdmOptions *opts, const char *name, double *value);

/** Check every option against its range (context creation does this too). */
int float_adm_options_validate(const FloatAdmOptions *opts, char *errbuf, size_t errbuf_size);

/* ---- Outputs ---- */

/** The 7 outputs, then with debug the 11 debug outputs; libvmaf's plain names. */
typedef struct FloatAdmScores {
    double adm2;
    double aim;             /* 0 where libvmaf leaves it undefined (adm_den == 0) */
    double adm3;
    double adm_scale[4];
    /* debug */
    double adm;
    double adm_num;
    double adm_den;
    double adm_num_scale[4];
    double adm_den_scale[4];
} FloatAdmScores;

#define FLOAT_ADM_NUM_OUTPUTS       7
#define FLOAT_ADM_NUM_DEBUG_OUTPUTS 18

/** Name of output i in 0..17 ("adm2", ..., "adm_den_scale3"); NULL out of range. */
const char *float_adm_output_name(int index);
/** Value of output i of a score set. */
double float_adm_output_value(const FloatAdmScores *scores, int index);
/** Set output i of a score set (a binding filling one from its own copy); i out of range:
 * nothing. */
void float_adm_output_set_value(FloatAdmScores *scores, int index, double value);

/**
 * libvmaf's name of output `output` (0..17) for these options, as its float_adm
 * names the feature: float_adm_output_name()'s, then, for each option that is not its
 * default (debug aside), "_ALIAS_VALUE" ("_ALIAS" for a bool), the options in
 * alphabetical order of their full names, an int's VALUE as %d and a double's as
 * %g; at most 255 characters.  "adm" (debug) never takes the suffix.  E.g.
 * adm_csf_mode=1:adm_enhn_gain_limit=1.2 makes adm2 "adm2_csf_1_egl_1.2".  Written
 * into buf (truncated to size, always terminated).
 */
int float_adm_output_feature_name(const FloatAdmOptions *opts, int output, char *buf, size_t size);

/**
 * The output a name in a log stands for: the index of the longest plain name it
 * starts with ("adm_scale0_egl_1.2": 3), or FLOAT_ADM_ERROR_NOT_FOUND for a name
 * of none (e.g. "vmaf").  With opts, the options its suffix says are set there (the
 * rest at their defaults) and the name must be exactly the one those options give
 * (float_adm_output_feature_name), else FLOAT_ADM_ERROR_INVALID.
 */
int float_adm_output_parse_name(const char *name, FloatAdmOptions *opts);

/* ---- Frame summaries: libvmaf's pooling of one output over frames ---- */

/*
 * What libvmaf reports of an output over the frames: min, max, mean = sum / n and
 * harmonic_mean = n / sum(1 / (x + 1)) - 1, the sums accumulated in frame order as
 * doubles (NaN compares false; 1 / 0 is infinity).  A summary keeps its values, so
 * that merging the summaries of consecutive runs gives, bit for bit, the summary of
 * one run over all of their frames.  Logs pool the same way (float_adm_log_pooled).
 */
typedef struct FloatAdmSummary FloatAdmSummary;

typedef struct FloatAdmPooled {
    double min, max, mean, harmonic_mean;
} FloatAdmPooled;

int float_adm_summary_create(FloatAdmSummary **summary);
/** Add count values, the next frames' in frame order. */
int float_adm_summary_add(FloatAdmSummary *summary, const double *values, size_t count);
/** Add the values of later, the run after summary's, in their order. */
int float_adm_summary_merge(FloatAdmSummary *summary, const FloatAdmSummary *later);
uint64_t float_adm_summary_count(const FloatAdmSummary *summary);
/** The pooled values; FLOAT_ADM_ERROR_INVALID before the first value. */
int float_adm_summary_result(const FloatAdmSummary *summary, FloatAdmPooled *result);
void float_adm_summary_free(FloatAdmSummary **summary);

/* ---- Scoring ---- */

typedef struct FloatAdmContext FloatAdmContext;

/** One luma plane in host memory. */
typedef struct FloatAdmPlane {
    const void *data;
    ptrdiff_t   stride;           /* bytes between rows; may be negative */
    int         bytes_per_sample; /* 1, or 2 (little-endian host uint16) */
    int         shift;            /* right shift of each sample: 6 for P010, 0 planar */
} FloatAdmPlane;

/* ---- Inputs the wrong way round ---- */

/*
 * Given the encode as the reference and its source as the distorted, ADM neither
 * fails nor falls (docs/reading-adm.md).  An encode holds less fine detail than its
 * source: a swap check compares the inputs' fine detail (squared differences of
 * neighbouring luma samples) over the first 8 pairs whose reference is not flat
 * (among the first 64 pairs), and says when the distorted holds more than 1.1
 * times the reference's.  A swapped encode of high quality (detail within 10 %)
 * passes unsaid.  Every face adds its pairs and
 * warns with the message, naming its inputs.  Apart from scoring: no score changes.
 */
typedef struct FloatAdmSwapCheck FloatAdmSwapCheck;

/** A check for width x height luma (at least 2x2) at bit_depth 8..16. */
int float_adm_swap_check_create(FloatAdmSwapCheck **check, int width, int height, int bit_depth);
/**
 * Add the next pair: 1 once the check has seen pairs enough (later ones are left
 * out, and need not be added), 0 while it wants more.
 */
int float_adm_swap_check_add(FloatAdmSwapCheck *check, const FloatAdmPlane *ref,
                             const FloatAdmPlane *dist);
/**
 * 1 when the distorted holds clearly more fine detail than the reference: over the
 * pairs added, and in each of them off the 8x8 grid of block codecs (a low-rate
 * encode's block edges and its noise on smooth content are not taken for detail;
 * docs/reading-adm.md), with the sentence that says so in message (its first word in
 * lower case); 0 when not, or when no pair had detail enough to tell.
 */
int float_adm_swap_check_result(const FloatAdmSwapCheck *check, char *message, size_t size);
void float_adm_swap_check_free(FloatAdmSwapCheck **check);

/* ---- Pairs in doubt: what a face that pairs two videos' frames by time says ----
 *
 * The kinds of pairs that may not be the ones meant, named once for every face:
 *   "apart"                 a pair more than half a frame apart
 *   "reference_repeated"    a main (distorted) frame scored against a reference frame
 *                           already scored
 *   "main_repeated"         a main frame with the timestamp of a main frame already
 *                           scored
 *   "no_reference"          a main frame with no reference frame, not scored
 *   "reference_after_main"  a reference frame after the main input's last, not scored
 * FFmpeg's float_adm filters give each frame they pass on whose pair is in doubt the
 * metadata key lavfi.float_adm.pair_doubt: the names of its pair's kinds, in this
 * order, joined with '+' ("apart+reference_repeated"; reference_after_main has no
 * frame to carry it); and the run's counts go into its log
 * (float_adm_log_add_pairing).  The Python package reads both by these names.
 */
enum FloatAdmPairDoubt {
    FLOAT_ADM_PAIR_APART,
    FLOAT_ADM_PAIR_REFERENCE_REPEATED,
    FLOAT_ADM_PAIR_MAIN_REPEATED,
    FLOAT_ADM_PAIR_NO_REFERENCE,
    FLOAT_ADM_PAIR_REFERENCE_AFTER_MAIN,
};

#define FLOAT_ADM_NUM_PAIR_DOUBTS 5

/** The name of a kind of pair in doubt (enum FloatAdmPairDoubt); NULL out of range. */
const char *float_adm_pair_doubt_name(int doubt);
/**
 * What a kind of pair in doubt is and what makes it, in words, plural ("pairs more
 * than half a frame apart (an input misses frames, starts later or has another frame
 * rate)"); NULL out of range.
 */
const char *float_adm_pair_doubt_description(int doubt);

/* Smallest frame: below this libvmaf reads outside its coarsest bands. */
#define FLOAT_ADM_MIN_SIZE 17
/* Largest width or height: keeps the core's int band and index arithmetic in range. */
#define FLOAT_ADM_MAX_SIZE 65536

/**
 * Create a context for width x height luma, each in FLOAT_ADM_MIN_SIZE..FLOAT_ADM_MAX_SIZE,
 * at bit_depth 8, 9, 10, 12, 14 or 16 (9 and 14 are an extension: samples are divided
 * by 2^(depth-8) as libvmaf does for 10/12/16).  All buffers are allocated here;
 * scoring never allocates.
 */
int float_adm_context_create(FloatAdmContext **ctx, int width, int height, int bit_depth,
                             const FloatAdmOptions *opts, char *errbuf, size_t errbuf_size);

/**
 * The size and depth checks of float_adm_context_create for integers of any width
 * (a binding's, before it narrows them to int): 0, or FLOAT_ADM_ERROR_UNSUPPORTED
 * with a message that names the limit.
 */
int float_adm_check_frame(int64_t width, int64_t height, int64_t bit_depth, char *errbuf,
                          size_t errbuf_size);

/**
 * Parallel work: the core splits each frame into at most nb_jobs bands of rows and
 * calls execute(opaque, job, arg, nb_jobs) once per frame, which must run job(arg,
 * 0..nb_jobs-1) (in any order, on any threads) and return when all are done.  No job
 * waits for another.  Scores are identical for every executor and job count.  NULL
 * execute restores the serial default.
 */
typedef int (*FloatAdmJobFn)(void *arg, int job, int nb_jobs);
typedef int (*FloatAdmExecuteFn)(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs);
int float_adm_set_executor(FloatAdmContext *ctx, FloatAdmExecuteFn execute, void *opaque,
                           int nb_jobs);

/* The most threads a context runs: more is a typo, not a frame's worth of rows. */
#define FLOAT_ADM_MAX_THREADS 1024

/**
 * Run ctx's jobs on threads of its own: threads - 1 workers that the context
 * starts here and stops when it is freed (or given another count or an executor),
 * plus the thread that calls float_adm_score_frame.  threads 1: serial.  Scores are
 * identical for every count.  Callers without threads of their own (programs,
 * bindings) use this; FFmpeg keeps float_adm_set_executor for its slice threads.
 * threads outside 1..FLOAT_ADM_MAX_THREADS: FLOAT_ADM_ERROR_INVALID.  Not while a
 * frame of ctx is being scored.
 */
int float_adm_context_set_threads(FloatAdmContext *ctx, int threads);

/** Score one frame pair (reference, distorted) into *scores. */
int float_adm_score_frame(FloatAdmContext *ctx, const FloatAdmPlane *ref,
                          const FloatAdmPlane *dist, FloatAdmScores *scores);

/* ---- Frames in flight: submit and collect, as float_adm_cuda.h's ----
 *
 *   float_adm_context_set_threads(ctx, 16);
 *   float_adm_context_set_frames_in_flight(ctx, 18);
 *   per frame:  while (float_adm_submit(ctx, &ref, &dist) == FLOAT_ADM_ERROR_AGAIN)
 *                   float_adm_collect(ctx, &scores, 1);   // oldest frame first
 *   at the end: while (float_adm_in_flight(ctx)) float_adm_collect(ctx, &scores, 1);
 *
 * Submitted frames are scored on threads of the context's own, as many as
 * float_adm_context_set_threads asked (one otherwise), none of them the caller's: each
 * thread takes a whole frame, and a frame's rows are split among ceil(threads /
 * frames_in_flight) jobs (a lone frame in flight on every thread).  The scores are
 * float_adm_score_frame's, bit for bit, for every depth and thread count, and come
 * back in submission order.  The planes are not copied: their memory must stay valid
 * and unchanged until their frame is collected.  A context with a map
 * (float_adm_context_enable_map) scores with float_adm_score_frame alone.
 */

/* The most frames a context holds in flight. */
#define FLOAT_ADM_MAX_FRAMES_IN_FLIGHT 256

/**
 * How many frames may be submitted before the first is collected (1 ..
 * FLOAT_ADM_MAX_FRAMES_IN_FLIGHT, 1 by default); each frame being scored has buffers
 * no other frame uses meanwhile: as many sets as frames were ever scored at once (at
 * most the smaller of threads and frames in flight), each allocated by the thread that
 * first needed it (a failure is that frame's FLOAT_ADM_ERROR_NOMEM, from
 * float_adm_collect) and kept until this,
 * float_adm_context_set_threads, float_adm_set_executor or
 * float_adm_context_set_simd_level is called again.  Those calls return
 * FLOAT_ADM_ERROR_INVALID while frames are in flight.
 */
int float_adm_context_set_frames_in_flight(FloatAdmContext *ctx, int frames);

/**
 * Queue one frame pair (reference, distorted); returns at once.  FLOAT_ADM_ERROR_AGAIN
 * when frames_in_flight frames wait to be collected; FLOAT_ADM_ERROR_INVALID for a bad
 * plane or a context with a map; FLOAT_ADM_ERROR_NOMEM where the frames' buffers or
 * threads cannot be had.
 */
int float_adm_submit(FloatAdmContext *ctx, const FloatAdmPlane *ref, const FloatAdmPlane *dist);

/**
 * The scores of the oldest submitted frame, or its error; it leaves the queue either
 * way.  wait = 0: FLOAT_ADM_ERROR_AGAIN if that frame is not finished yet (or none is
 * queued); wait = 1: block until it is (AGAIN only when none is queued).
 */
int float_adm_collect(FloatAdmContext *ctx, FloatAdmScores *scores, int wait);

/** Frames submitted and not yet collected (0 for a NULL ctx). */
int float_adm_in_flight(const FloatAdmContext *ctx);

void float_adm_context_free(FloatAdmContext **ctx);

/* ---- Maps: where in the picture detail is lost (docs/maps.md) ---- */

/*
 * A map cuts the picture into blocks of FLOAT_ADM_MAP_BLOCK_SIZE x
 * FLOAT_ADM_MAP_BLOCK_SIZE pixels, columns = ceil(width / size) by rows =
 * ceil(height / size), stored row by row from the top (the last column and row may
 * reach past the picture).  Each block holds its share of every scale's denominator
 * and DLM numerator sums: the terms the frame's sums add, of the coefficients of the
 * frame's sum region whose pixels lie in the block (a coefficient (i, j) of scale s
 * covers the pixels from (2^(s+1) i, 2^(s+1) j) on), added in double in a fixed
 * order (docs/maps.md).  The loss of a block is 1 minus its adm2, computed from its
 * sums as adm2 is from the frame's, in 0..1: 0 where nothing is lost (everywhere for
 * identical pictures), towards 1 where the detail is gone.  A block with no
 * coefficient in any scale's sum region (ADM leaves a border of each scale out of its
 * sums: about a tenth of the picture's width and height on each side) is not
 * measured: its loss is NaN.  The scores do not change with a map.  The CUDA backend computes the same bits (float_adm_cuda.h, "Maps").
 */
#define FLOAT_ADM_MAP_BLOCK_SIZE 32

/**
 * Compute a map of every frame ctx scores from now on.  Before the first
 * float_adm_score_frame of ctx (else FLOAT_ADM_ERROR_INVALID); calling it again
 * is harmless.  FLOAT_ADM_ERROR_NOMEM where the map's buffers cannot be had.
 */
int float_adm_context_enable_map(FloatAdmContext *ctx);

/**
 * The size of ctx's maps: block columns and rows, and the block size in pixels
 * (FLOAT_ADM_MAP_BLOCK_SIZE).  Any output pointer may be NULL; NULL ctx:
 * FLOAT_ADM_ERROR_INVALID.
 */
int float_adm_map_size(const FloatAdmContext *ctx, int *columns, int *rows, int *block_size);

/**
 * The loss of each block of the last frame ctx scored, columns x rows floats in
 * 0..1 (NaN: not measured), row by row, into loss (count floats).  FLOAT_ADM_ERROR_INVALID for a NULL
 * ctx or loss, a count below columns x rows, a context without a map, or before a
 * frame was scored whole (a failed float_adm_score_frame leaves no map).
 */
int float_adm_map_loss(const FloatAdmContext *ctx, float *loss, size_t count);

/**
 * The last frame's sums of scale `scale` (0..3) per block, columns x rows doubles
 * each, row by row: num the DLM numerator's, den the denominator's, of the h, v
 * and d bands' terms (either pointer may be NULL).  Added over the blocks they give
 * the frame's sums of that scale, h + v + d (to rounding: the frame adds in fp32).
 * Errors as float_adm_map_loss, and FLOAT_ADM_ERROR_INVALID for a scale outside
 * 0..3.  Under adm_skip_scale0, scale 0's sums are 0.
 */
int float_adm_map_sums(const FloatAdmContext *ctx, int scale, double *num, double *den,
                       size_t count);

/**
 * Check a pattern of map file names: any text with exactly one frame number
 * conversion, %d or %0Nd (N 1..20: zero-padded to N digits), and "%%" for a '%';
 * any other '%' is refused.  0, or FLOAT_ADM_ERROR_INVALID with a message.
 */
int float_adm_map_pattern_check(const char *pattern, char *errbuf, size_t errbuf_size);

/**
 * Write the loss of ctx's last frame (float_adm_map_loss) as a PFM file: "Pf",
 * columns rows, -1.0 (little-endian), then the rows of 32-bit floats from the
 * bottom row up, as PFM orders them.  The path is the pattern with frame_num in
 * place of its conversion.  As a log: a regular file open in this process (an
 * input) or non-empty and not a PFM is refused (FLOAT_ADM_ERROR_INVALID) before
 * anything is truncated; an earlier map is replaced.  A failed write is
 * FLOAT_ADM_ERROR_IO with "PATH: cannot write: <OS error>"; errors of
 * float_adm_map_loss and float_adm_map_pattern_check as they say.
 */
int float_adm_map_write_pfm(const FloatAdmContext *ctx, const char *pattern, uint64_t frame_num,
                            char *errbuf, size_t errbuf_size);

/**
 * Write a loss grid (columns x rows floats, row by row, as float_adm_map_loss
 * gives it, or float_adm_cuda_map_loss_rows in parts, each on a thread of its
 * own) as the PFM file float_adm_map_write_pfm writes of it, under the same
 * rules.  FLOAT_ADM_ERROR_INVALID for a NULL loss or a size <= 0.  Since 1.9.0.
 */
int float_adm_map_write_pfm_grid(const float *loss, int columns, int rows, const char *pattern,
                                 uint64_t frame_num, char *errbuf, size_t errbuf_size);

/**
 * Paint a loss grid (columns x rows floats, row by row, as float_adm_map_loss
 * gives it) as a width x height RGB24 picture, 3 bytes per pixel (R, G, B), stride
 * bytes from one row to the next: pixel (x, y) takes the colour of block
 * (x / FLOAT_ADM_MAP_BLOCK_SIZE, y / FLOAT_ADM_MAP_BLOCK_SIZE), so the picture is
 * the one the grid was computed on (float_adm_map_size's columns and rows are
 * ceil(width / size) and ceil(height / size)).  The palette is fixed and its
 * brightness rises with the loss, piecewise linear between these stops:
 *
 *     loss  0     0.05   0.15   0.4      1
 *           black blue   red    yellow   white
 *           0,0,0 0,0,255 255,0,0 255,255,0 255,255,255
 *
 * each channel rounded to the nearest integer; a loss of 0 (nothing lost) is
 * black, a loss below 0 reads as 0, above 1 as 1; NaN (not measured) is grey,
 * 128,128,128, a colour no loss takes (docs/maps.md).
 * FLOAT_ADM_ERROR_INVALID for a NULL loss or rgb, a size <= 0, a grid that is not
 * the picture's, or a stride below 3 x width.
 */
int float_adm_map_render_rgb24(const float *loss, int columns, int rows, uint8_t *rgb, int width,
                               int height, ptrdiff_t stride);

/* ---- CPU code path: SIMD levels (every level gives the same bits) ---- */

/**
 * The name of the index-th SIMD level this build has, slowest first, starting with
 * "scalar" (on x86-64 today: "sse2", "avx2", "avx512" follow); NULL past the last.
 * Iterate until NULL rather than assuming the list.
 */
const char *float_adm_simd_level_name(int index);

/**
 * Run ctx's kernels at `level`: "auto" or NULL for the best level this processor
 * runs exactly (a context starts there), or a name of float_adm_simd_level_name,
 * capped to the best level at or below it that this build and processor run
 * exactly (a vector level counts only where its reciprocal estimate gives RCPSS's
 * bits; "scalar" always does).  An unknown name: FLOAT_ADM_ERROR_NOT_FOUND, the
 * level unchanged.  Not while a frame of ctx is being scored.
 */
int float_adm_context_set_simd_level(FloatAdmContext *ctx, const char *level);

/** The name of the level ctx runs; NULL for a NULL ctx. */
const char *float_adm_context_simd_level(const FloatAdmContext *ctx);

/**
 * One line on how ctx computes, for logs: the backend, the SIMD level, the thread
 * count, and whether the division (libvmaf's RCPSS) and powf are this host's
 * libvmaf's.  Written into buf (truncated to size, always terminated); returns buf.
 */
const char *float_adm_context_describe(const FloatAdmContext *ctx, char *buf, size_t size);

/* ---- Logs: libvmaf's JSON, XML, CSV and subtitle layouts, with its pooling ---- */

/*
 * A log pools every frame given to it as libvmaf pools (min, max, mean, harmonic
 * mean, in frame order) and writes each frame as it comes to a temporary beside its
 * path (.NAME.tmp, locked by this log: a second writer of the path is refused,
 * naming the first's process), which is renamed over the path when the log closes:
 * a reader finds the whole log of one run there, or the one before.  A run killed
 * mid-way leaves its frames in the temporary, which the next writer of the path
 * takes over.  stdout and /dev/null are written directly.  Layouts, as libvmaf's
 * output.c writes them, except that every score is %.17g:
 *   JSON: {"version": "float_adm <version>", "fps": F, "frames": [{"frameNum": N,
 *         "metrics": {NAME: VALUE, ...}}, ...], "pooled_metrics": {NAME: {"min",
 *         "max", "mean", "harmonic_mean"}}, "aggregate_metrics": {}}, then
 *         "pairing" where a caller gave one (float_adm_log_add_pairing); NaN and
 *         infinity as null.
 *   XML:  <VMAF version=...><params qualityWidth= qualityHeight= /><fyi fps= />
 *         <frames><frame frameNum="N" NAME="VALUE" ... /></frames><pooled_metrics>
 *         <metric name= min= max= mean= harmonic_mean= /></pooled_metrics>
 *         <aggregate_metrics /></VMAF>, <pairing ... /> before </VMAF> where given.
 *   CSV:  "Frame,NAME,...," then "N,VALUE,...,", one line per frame (no pooling).
 *   SUB:  "{N}{N+1}frame: N|NAME: VALUE|...|", one line per frame (no pooling).
 * F is the frames logged per second of wall time since the log was opened, %.2f,
 * known only when the log is finished: the header keeps room for it in a file
 * this log opened, which finishing fills in (the rest of that line is padded
 * with spaces); on stdout and other streams it stays null (XML: "nan"), as
 * libvmaf writes an fps it has no value for.
 * NAME is libvmaf's name of the output for the options the log was opened with
 * (see float_adm_log_output_name).
 * Not thread-safe: one thread at a time per log.
 */
enum FloatAdmLogFormat {
    FLOAT_ADM_LOG_JSON,
    FLOAT_ADM_LOG_CSV,
    FLOAT_ADM_LOG_XML,
    FLOAT_ADM_LOG_SUB,
};

typedef struct FloatAdmLog FloatAdmLog;
/** An output a run writes (float_adm_run_files_begin_output); its run owns it. */
typedef struct FloatAdmOutput FloatAdmOutput;

/**
 * Open a log of the outputs opts scores (FLOAT_ADM_NUM_OUTPUTS, or with debug
 * FLOAT_ADM_NUM_DEBUG_OUTPUTS), named as libvmaf names them for these options;
 * opts NULL: the defaults.  path NULL: no file, pooling only (float_adm_log_set_output
 * may give it a run's output); "-": stdout; else a file where the output policy
 * (float_adm_output_check) lets a log go, written to its locked temporary and renamed
 * into place by float_adm_log_close: the policy's refusal, or FLOAT_ADM_ERROR_BUSY
 * where another writer (of this process or another) holds the path's temporary, with
 * a message that names it.  A path to stdout's file (/dev/stdout) is stdout.  stdout
 * is refused (FLOAT_ADM_ERROR_INVALID) where another descriptor of this process,
 * besides 0, 1 and 2, is open on its file (an output written there), unless it is a
 * device other than a terminal (/dev/null), and (FLOAT_ADM_ERROR_BUSY) where another
 * log of this process writes there.  width and height go to XML's <params>.  The
 * header is written with the first entry (or by finish).
 */
int float_adm_log_open(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                       const FloatAdmOptions *opts, int width, int height, char *errbuf,
                       size_t errbuf_size);

/* Flags of float_adm_log_open_flags. */
#define FLOAT_ADM_LOG_ANY_FILE 0x1u

/*
 * float_adm_log_open_flags(log, path, format, opts, width, height, flags, errbuf,
 * errbuf_size): float_adm_log_open with flags, 0 or FLOAT_ADM_LOG_ANY_FILE (others:
 * FLOAT_ADM_ERROR_INVALID).  A macro over float_adm_log_open_flags_sized ("ABI",
 * below).  FLOAT_ADM_LOG_ANY_FILE takes path as a program takes the name of its own
 * output file (FFmpeg's stats files), not by the output policy: of the policy's
 * refusals only that of a file open in this process (an input, another output) stays,
 * and a file is still written whole, to its locked temporary renamed into place by
 * float_adm_log_close (FLOAT_ADM_ERROR_BUSY where another writer holds it):
 *   a symbolic link is followed: the file it leads to is written (made where it
 *       does not exist), and the link stays;
 *   a FIFO or a character device gets the whole log at float_adm_log_close, which
 *       opens it then (a FIFO waits there for its reader): until then the log is kept
 *       in an unnamed temporary file; /dev/null is written at once;
 *   an existing regular file is replaced, whatever it holds;
 *   "-" and stdout's file are stdout, whatever file stdout is redirected onto;
 *   anything else (a directory, a socket, a block device) is refused,
 *       FLOAT_ADM_ERROR_OUTPUT_NOT_FILE.
 * Nothing is shared with another log: each opens, writes and lands its own file.
 */

/**
 * The name the log gives output `output` (0 .. 6, or 17 with debug): libvmaf's
 * (float_adm_output_feature_name) for the options the log was opened with.  NULL
 * for an output the log lacks.  Valid until the log is closed.
 */
const char *float_adm_log_output_name(const FloatAdmLog *log, int output);

/**
 * Let a log opened without a path (float_adm_log_open(..., NULL, ...)) write its file
 * to output, an output of kind FLOAT_ADM_OUTPUT_LOG that a run began
 * (float_adm_run_files_begin_output): the file lands when that run commits, with the
 * run's other outputs, after float_adm_log_close (the run refuses to commit while a
 * log is open on one of its outputs).  Before the log's first entry, once;
 * FLOAT_ADM_ERROR_INVALID otherwise.  Close the log before the run's files are freed.
 */
int float_adm_log_set_output(FloatAdmLog *log, FloatAdmOutput *output, char *errbuf,
                             size_t errbuf_size);

/**
 * Pool a frame's scores, then append the frame to the file, fflush and check.
 * A failed write is FLOAT_ADM_ERROR_IO with "PATH: cannot write: <OS error>"; the
 * frame is pooled all the same, and every later write returns the same error.
 */
int float_adm_log_frame(FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores,
                        char *errbuf, size_t errbuf_size);

/**
 * float_adm_log_frame with the frame's time in seconds, where the caller knows it
 * (NaN: not known, as float_adm_log_frame): JSON writes it as "timestamp": T after
 * "frameNum" (an addition to libvmaf's layout); the other layouts have no place
 * for it.
 */
int float_adm_log_frame_at(FloatAdmLog *log, uint64_t frame_num, double timestamp,
                           const FloatAdmScores *scores, char *errbuf, size_t errbuf_size);

/**
 * A frame that was not scored (e.g. a corrupt frame skipped), not pooled:
 *   JSON {"frameNum": N, "skipped": "REASON", "metrics": {}};  CSV "N," then one empty
 *   field per output;  XML <frame frameNum="N" skipped="REASON" />;  SUB
 *   "{N}{N+1}frame: N|" alone.
 */
int float_adm_log_skipped(FloatAdmLog *log, uint64_t frame_num, const char *reason,
                          char *errbuf, size_t errbuf_size);

/**
 * Add a run's pairing to the log: pairs, the pairs its face checked; doubts[k], the
 * frames of kind k (enum FloatAdmPairDoubt) for each k below num_doubts (the caller's
 * FLOAT_ADM_NUM_PAIR_DOUBTS; kinds beyond it are left out of the log, as not
 * counted).  Counts add up over calls: each instance of FFmpeg's filter that writes a
 * log across a graph rebuild adds its own.  The log ends with them, after the
 * aggregate metrics (an addition to libvmaf's layouts):
 *   JSON "pairing": {"pairs": N, "apart": N, ...} (the names of
 *        float_adm_pair_doubt_name, in its order);
 *   XML  <pairing pairs="N" apart="N" ... />;
 *   CSV and SUB have no place for them (a line of counts is no frame's line).
 * A log never given a pairing has none (float_adm_score pairs frames by number).
 * Before the log is finished, or after: a footer written already is cut off and
 * written again with the pairing when the log closes (a file that cannot seek back
 * is an error, as going on after a finish is).  num_doubts out of 0 ..
 * FLOAT_ADM_NUM_PAIR_DOUBTS, or doubts NULL with num_doubts > 0: FLOAT_ADM_ERROR_INVALID.
 */
int float_adm_log_add_pairing(FloatAdmLog *log, uint64_t pairs, const uint64_t *doubts,
                              int num_doubts, char *errbuf, size_t errbuf_size);

/**
 * The fps the header gives, instead of the log's own clock: for a caller that logs
 * frames scored earlier, whose speed it measured itself (NaN: unknown, written as
 * an fps without a number is).
 */
int float_adm_log_set_fps(FloatAdmLog *log, double fps);

/** Number of frames pooled (skipped ones not counted). */
uint64_t float_adm_log_frame_count(const FloatAdmLog *log);

/**
 * Output `output` pooled over every frame so far, with libvmaf's doubles: min, max,
 * mean = sum / n and harmonic_mean = n / sum(1 / (x + 1)) - 1, sums in frame order.
 * FLOAT_ADM_ERROR_INVALID for an output the log lacks or before the first frame.
 */
int float_adm_log_pooled(const FloatAdmLog *log, int output, FloatAdmPooled *pooled);

/**
 * Complete the file: write the footer (pooled and aggregate metrics), fflush, and
 * fsync a regular file; any failure is FLOAT_ADM_ERROR_IO with a message.  The log
 * stays open: a later frame or skipped entry first cuts the footer off again
 * (seek back, ftruncate) and goes on, so the file keeps every frame in order and
 * the pooling continues.  Where the file cannot seek (not a regular file: a pipe,
 * a terminal), going on after a finish is an error that says so.
 */
int float_adm_log_finish(FloatAdmLog *log, char *errbuf, size_t errbuf_size);

/**
 * Finish (unless finished since the last entry), close the file (stdout is only
 * flushed), rename a file the log opened itself into place (where its path is still
 * what the log began with: another program that wrote the path meanwhile keeps its
 * file, and the log is an error, FLOAT_ADM_ERROR_OUTPUT_SHARED), free the log and set
 * *log to NULL.  Returns the first error, including one an earlier call reported:
 * then nothing is renamed, and the path keeps what it held.  NULL *log: 0.
 */
int float_adm_log_close(FloatAdmLog **log, char *errbuf, size_t errbuf_size);

/*
 * One log across FFmpeg's graph rebuilds (src/adm_core/adm_log_registry.cpp): FFmpeg
 * rebuilds its filter graph, and so the filter, when an input changes size, and
 * the project's ffmpeg has the new filter go on writing the old one's log.  The
 * logs released are kept for the whole process.  A log the filter opens, writes
 * and closes needs none of this (the float_adm filter FFmpeg's series adds:
 * float_adm_log_open_flags, a log per instance).
 */

/**
 * The log a filter released for this path (float_adm_log_release), taken over: the
 * temporary and the pooling go on, and *next_frame says the frame number to go on
 * from.  Where none was released: a new log, as float_adm_log_open opens it, and
 * *next_frame 0.
 */
int float_adm_log_acquire(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                          const FloatAdmOptions *opts, int width, int height,
                          uint64_t *next_frame, char *errbuf, size_t errbuf_size);

/**
 * A log whose user goes without the stream's end (FFmpeg freed the graph: a rebuild,
 * or -frames): kept for the process as it stands, its temporary locked, for the next
 * acquire of its path, which goes on from frame next_frame; not finished, nothing
 * renamed.  A log no acquire takes over lands, finished, when the process exits (an
 * error then goes to stderr).  A log on a device (/dev/null) is closed at once.  Sets
 * *log to NULL; 0, or an error closing a log that is not kept.
 */
int float_adm_log_release(FloatAdmLog **log, uint64_t next_frame, char *errbuf,
                          size_t errbuf_size);

/**
 * The log released for path, if one waits: ended as float_adm_log_abandon ends a log,
 * with reason (a rebuilt filter that cannot go on says so in the log it would have
 * continued).  0 where none waits, else float_adm_log_abandon's result.
 */
int float_adm_log_abandon_released(const char *path, const char *reason, char *errbuf,
                                   size_t errbuf_size);

/**
 * The last user of a log float_adm_log_acquire gave (the stream is over): finish
 * and close it as float_adm_log_close does.
 */
int float_adm_log_end(FloatAdmLog **log, char *errbuf, size_t errbuf_size);

/**
 * End a log whose run failed, so that no reader takes it for finished: in place of
 * the footer (a footer written earlier is cut off first), the file ends with
 *   JSON "incomplete": "REASON" after the frames, and no "pooled_metrics" nor
 *        "aggregate_metrics" (the document stays valid JSON);
 *   XML  <incomplete reason="REASON" /> after </frames>, no <pooled_metrics>;
 *   CSV and SUB, a last line "incomplete: REASON" (the reason on one line).
 * A log whose own write failed is closed as it stands (already incomplete).  Then
 * the log is closed and freed as float_adm_log_close does (a file the log opened
 * itself lands, saying it is incomplete; one on a run's output lands only if the run
 * commits), and *log set to NULL.  reason NULL or empty: "the run failed".  Returns
 * the first error writing that end.
 */
int float_adm_log_abandon(FloatAdmLog **log, const char *reason, char *errbuf, size_t errbuf_size);

/**
 * The frame numbers of maps written without a log, across FFmpeg's graph rebuilds
 * as a shared log's (float_adm_log_acquire): the first acquire of a map pattern
 * gives *next_frame 0; an acquire after float_adm_map_release(pattern, N) gives N;
 * after float_adm_map_end, 0 again.  A pattern held by another user:
 * FLOAT_ADM_ERROR_BUSY (its maps would overwrite each other).  Errors of
 * float_adm_map_pattern_check as it says.
 */
int float_adm_map_acquire(const char *pattern, uint64_t *next_frame, char *errbuf,
                          size_t errbuf_size);
void float_adm_map_release(const char *pattern, uint64_t next_frame);
void float_adm_map_end(const char *pattern);

/* ---- Output files: the one policy of every file any face writes ----
 *
 * Every file the library, float_adm_score, the FFmpeg filter and the Python package
 * write (logs, maps, reports, spec files) goes through float_adm_output_check first:
 *   "-", or a path to this process's stdout (/dev/stdout, /proc/self/fd/1, the
 *       file stdout is): FLOAT_ADM_TARGET_STDOUT, the face writes to stdout; unless
 *       stdout is redirected onto a regular file that holds data already and would
 *       be overwritten in place (opened without truncating: "1<> FILE"), or holds a
 *       project file of that kind that the new one would be appended to
 *       (">> LOG"): refused, FLOAT_ADM_ERROR_OUTPUT_SHARED;
 *   /dev/null (the null device, by stat): FLOAT_ADM_TARGET_DISCARD, written directly,
 *       never replaced or renamed over;
 *   a symbolic link (dangling or not; other than the two above): refused,
 *       FLOAT_ADM_ERROR_OUTPUT_SYMLINK;
 *   any other existing file that is not a regular file (a device, FIFO, socket or
 *       directory): refused, FLOAT_ADM_ERROR_OUTPUT_NOT_FILE, known by lstat/stat
 *       before anything is opened (opening a FIFO would block);
 *   a file, or a new name, on a file system of the kernel's rather than of data
 *       (proc, sysfs, devpts, debugfs, tracefs, securityfs, cgroup, binfmt_misc, bpf,
 *       pstore, efivarfs: /proc/self/comm is a "regular file" of size 0): refused,
 *       FLOAT_ADM_ERROR_OUTPUT_NOT_FILE;
 *   a regular file that is one of inputs (same device and inode) or open in this
 *       process: refused, FLOAT_ADM_ERROR_OUTPUT_INPUT ("an input of the run");
 *   an empty regular file, or one this project wrote of the same kind (recognised by
 *       content, below): FLOAT_ADM_TARGET_REPLACE;
 *   any other non-empty regular file: refused, FLOAT_ADM_ERROR_OUTPUT_NOT_OURS
 *       ("not a float_adm KIND; remove it first if it is to go");
 *   a missing path: FLOAT_ADM_TARGET_NEW.
 * The project's files, by kind:
 *   LOG     a log of any layout, libvmaf's included (JSON "{\n  \"version\"", "<?xml",
 *           "<VMAF ", CSV "Frame,", SUB "{N}{N+1}frame: ");
 *   MAP     a PFM ("Pf\n"), or a numpy .npz ("PK\3\4" whose first member is
 *           "frames.npy", as np.savez_compressed(frames=..., loss=...) writes);
 *   REPORT  begins with "<!DOCTYPE html>" and its first 2048 bytes hold
 *           <meta name="generator" content="float_adm report">;
 *   SPEC    begins with "{" and its first 65536 bytes hold "float_adm_spec": 1;
 *   TABLE   a ladder's table: JSON that begins with "{" and whose first 65536 bytes
 *           hold "float_adm_table": 1, or CSV whose whole first line is the table's
 *           columns (float_adm_table_column) followed by one or more NAME_POOL, NAME
 *           an output's name (float_adm_output_parse_name) or a metric measured
 *           beside it (float_adm_table_metric) and POOL one of mean, harmonic_mean,
 *           min, max: a CSV with any other column is not ours.
 * A path the system cannot look at (a directory on the way not searchable): refused
 * with FLOAT_ADM_ERROR_IO.  Each refusal's message names the path and why.
 */
enum FloatAdmOutputKind {
    FLOAT_ADM_OUTPUT_LOG,
    FLOAT_ADM_OUTPUT_MAP,
    FLOAT_ADM_OUTPUT_REPORT,
    FLOAT_ADM_OUTPUT_SPEC,
    FLOAT_ADM_OUTPUT_TABLE,
};

enum FloatAdmOutputTarget {
    FLOAT_ADM_TARGET_NEW,
    FLOAT_ADM_TARGET_REPLACE,
    FLOAT_ADM_TARGET_STDOUT,
    FLOAT_ADM_TARGET_DISCARD,
};

/**
 * Where a file of kind may be written at path, by the policy above: >= 0, a
 * FloatAdmOutputTarget; < 0, an error, with a message naming the path and why.
 * inputs: the run's input files (nb_inputs of them; NULL entries are skipped).
 * It opens nothing for writing and changes nothing.
 */
int float_adm_output_check(const char *path, enum FloatAdmOutputKind kind,
                           const char *const *inputs, size_t nb_inputs, char *errbuf,
                           size_t errbuf_size);

/**
 * The columns a ladder's CSV table begins with, in order ("source", "ladder",
 * "label", "file", ..., "scale", "options", "hull_metric", "on_hull"); NULL past the
 * last.  The pooled outputs and metrics follow them.
 */
const char *float_adm_table_column(int index);

/**
 * The metrics a ladder's table may pool beside float_adm's outputs, as FFmpeg's
 * filters measure them on the same frames ("psnr_y", "psnr_avg", "ssim_y", "ssim",
 * "vmaf"); NULL past the last.
 */
const char *float_adm_table_metric(int index);

/* ---- A run's files: every input known before anything is written ----
 *
 * A face (float_adm_score, a Python call, a ladder) registers everything the run
 * reads, then everything it writes, in one FloatAdmRunFiles; files are compared by
 * what they are (device and inode, the same pipe), never by name:
 *   an input: "-" is standard input; any other path is followed to what it names
 *       (/dev/stdin, /dev/fd/N, /proc/self/fd/N, a link).  A stream (a pipe, FIFO,
 *       socket or device, or "-", read through the one descriptor whatever stdin
 *       is) registered twice, under any names, is refused with
 *       FLOAT_ADM_ERROR_INPUT_SHARED: two readers would split its bytes between
 *       them.  One regular file given twice is read twice, each on its own.  An
 *       input that is an output registered before, or the file this process's
 *       stdout is redirected to: FLOAT_ADM_ERROR_OUTPUT_INPUT;
 *   an output: the output policy above, with every input registered (by identity),
 *       then one writer per stream: an output going where another output of the
 *       run goes (the same file under any name, a new file's directory and name,
 *       stdout under any name: "-", /dev/stdout, the file stdout is) is refused
 *       with FLOAT_ADM_ERROR_OUTPUT_SHARED; any number may go to /dev/null.
 * Each message names both paths by the labels the face gave ("--json", ...).
 */
typedef struct FloatAdmRunFiles FloatAdmRunFiles;

int float_adm_run_files_create(FloatAdmRunFiles **files);
/** Frees *files and sets it to NULL; NULL or *files NULL is a no-op. */
void float_adm_run_files_free(FloatAdmRunFiles **files);
/**
 * Registers an input the run reads at path, named label in messages (NULL: the
 * path alone): 0, or an error with a message naming it and why (FLOAT_ADM_ERROR_IO
 * where it cannot be looked at).
 */
int float_adm_run_files_add_input(FloatAdmRunFiles *files, const char *path, const char *label,
                                  char *errbuf, size_t errbuf_size);
/**
 * Registers an output of kind at path, named label in messages: the target (>= 0,
 * a FloatAdmOutputTarget, as float_adm_output_check), or an error with a message.
 * It opens nothing for writing and changes nothing.
 */
int float_adm_run_files_add_output(FloatAdmRunFiles *files, const char *path,
                                   enum FloatAdmOutputKind kind, const char *label, char *errbuf,
                                   size_t errbuf_size);
/**
 * Registers the map files of pattern (float_adm_map_pattern_check's: one a frame),
 * named label in messages: 0, or an error where the pattern gives the name of an
 * input (FLOAT_ADM_ERROR_OUTPUT_INPUT) or of another output (FLOAT_ADM_ERROR_OUTPUT_SHARED)
 * registered before or after it, in the same directory.  Each map file is checked
 * by the output policy when it is written.
 */
int float_adm_run_files_add_map_pattern(FloatAdmRunFiles *files, const char *pattern,
                                        const char *label, char *errbuf, size_t errbuf_size);
/** 1 where an output registered goes to stdout (the face then prints nothing else
 * there), else 0. */
int float_adm_run_files_stdout_taken(const FloatAdmRunFiles *files);

/*
 * Writing a run's files whole, all of them or none.  An output begun is registered as
 * float_adm_run_files_add_output registers it, then, for a new or replaced file, its
 * temporary .NAME.tmp is made beside it (or taken over from a run that died) and
 * locked (flock, exclusive) for as long as the run's files live: a second writer of
 * the path, in this process or another, is refused at its start with
 * FLOAT_ADM_ERROR_BUSY and a message naming the first's process.  The face writes
 * the bytes to float_adm_output_fd (a log: float_adm_log_set_output), then
 * float_adm_run_files_commit renames every temporary over its path, once each path
 * is known to be what it was when begun; a run freed without a commit, or whose
 * commit fails before the renames, removes its temporaries and leaves every path as
 * it was.  stdout and /dev/null are written directly.
 */

/**
 * Begins writing an output of kind at path, named label in messages: registered (as
 * float_adm_run_files_add_output; the same refusals) and, for a file, its temporary
 * made and locked.  The target (>= 0, a FloatAdmOutputTarget) with *output set, or an
 * error with a message (FLOAT_ADM_ERROR_BUSY: another writer holds the path).  The
 * output lives as long as the run's files.
 */
int float_adm_run_files_begin_output(FloatAdmRunFiles *files, const char *path,
                                     enum FloatAdmOutputKind kind, const char *label,
                                     FloatAdmOutput **output, char *errbuf, size_t errbuf_size);
/** Where an output's bytes go: its temporary (open for reading and writing), stdout
 * (1) or the null device; -1 for NULL or an output already committed. */
int float_adm_output_fd(const FloatAdmOutput *output);
/**
 * Lands every output begun: each temporary flushed to disk and checked (still the
 * file locked; its path not made or written by another program since it was begun:
 * FLOAT_ADM_ERROR_OUTPUT_SHARED), then all renamed into place.  A failed check renames
 * nothing.  FLOAT_ADM_ERROR_INVALID while a log is open on one of them.
 */
int float_adm_run_files_commit(FloatAdmRunFiles *files, char *errbuf, size_t errbuf_size);
/**
 * Removes the temporary a writer of path left when it died (one whose lock can be
 * taken); a live writer's is left alone.  1 removed, 0 nothing to remove, < 0 an
 * error with a message.
 */
int float_adm_output_remove_stale(const char *path, char *errbuf, size_t errbuf_size);

/* ---- Files: raw planar YUV / gray and y4m, as float_adm_score and Python read them ---- */

/* A frame's size and pixel format, and what it takes on disk. */
typedef struct FloatAdmFrameFormat {
    int width, height;
    int bit_depth;            /* 8..16; above 8 a sample is 2 little-endian bytes */
    const char *pixel_format; /* FFmpeg's name, e.g. "yuv420p10le" (static) */
    uint64_t luma_bytes;      /* the luma plane of one frame */
    uint64_t frame_bytes;     /* one frame: luma, then both chroma planes */
} FloatAdmFrameFormat;

/**
 * FFmpeg's name of pixel format i that the reader takes ("yuv420p", ...,
 * "yuvj440p": planar YUV and gray, 8 to 16 bits little-endian); NULL past the last.
 */
const char *float_adm_pixel_format_name(int index);

/**
 * The format of width x height frames of pixel_format: FLOAT_ADM_ERROR_NOT_FOUND for
 * an unknown name (the message lists the known ones), FLOAT_ADM_ERROR_UNSUPPORTED
 * for a size outside the context's limits.
 */
int float_adm_frame_format(FloatAdmFrameFormat *format, int width, int height,
                           const char *pixel_format, char *errbuf, size_t errbuf_size);

/** Whether two pixel formats store frames alike (yuvj420p and yuv420p do): 1 or 0. */
int float_adm_pixel_format_same_layout(const char *a, const char *b);

/** The y4m colorspace tag of a pixel format, without its 'C' ("420", "444p10",
 * "mono12"), into buf; FLOAT_ADM_ERROR_NOT_FOUND for an unknown name. */
int float_adm_pixel_format_y4m_tag(const char *pixel_format, char *buf, size_t size);

typedef struct FloatAdmReader FloatAdmReader;

/**
 * Open a raw or y4m file (y4m: a ".y4m" name, which must then hold one, or the
 * "YUV4MPEG2 " signature) and read a y4m header.  A regular file has its frames
 * counted up front (float_adm_reader_start) and read in any order; "-" (stdin) and a
 * pipe (a FIFO, whose open waits for a writer) are streams: read once, in order, with
 * float_adm_reader_read_next_luma, their length known only at their end.  Devices and
 * directories are refused.  Messages start with the path.
 */
int float_adm_reader_open(FloatAdmReader **reader, const char *path, char *errbuf,
                          size_t errbuf_size);

/**
 * A y4m file's header: 1, with the format it says and its frame rate (F;
 * 0/0 without one); 0 for a raw file, which has none.  Any pointer may be NULL.
 */
int float_adm_reader_header(const FloatAdmReader *reader, FloatAdmFrameFormat *format,
                            int *rate_num, int *rate_den);

/**
 * Something the caller must tell the user, or NULL: an interlaced y4m (It, Ib, Im)
 * is read frame by frame, each frame two fields woven together, so its scores are
 * those of the woven frames.
 */
const char *float_adm_reader_warning(const FloatAdmReader *reader);

/**
 * Fix the frames' format (float_adm_frame_format's; for y4m the caller's choice,
 * normally the header's) and count the whole frames.  A file that ends inside a
 * frame is no error here (float_adm_reader_incomplete says so): a caller scoring
 * every frame refuses it, one asked for the first N frames needs N whole ones.
 * No whole frame at all: an error.  A stream's first frame is read ahead here, in
 * memory that grows with the bytes that arrive, so that a header announcing a huge
 * frame over a few bytes fails at once, as a file's does, before a caller allocates
 * anything of the frame's size.
 */
int float_adm_reader_start(FloatAdmReader *reader, const FloatAdmFrameFormat *format, char *errbuf,
                           size_t errbuf_size);

/** The whole frames the file holds (after start); 0 for a stream, not counted. */
uint64_t float_adm_reader_frame_count(const FloatAdmReader *reader);

/** 1 where the reader reads a stream (stdin or a pipe), else 0. */
int float_adm_reader_is_stream(const FloatAdmReader *reader);

/**
 * Read the next whole frame's luma plane (as float_adm_reader_read_luma) into dest:
 * 1 with a frame; 0 at the end, where float_adm_reader_incomplete says whether the
 * input ended inside a frame; < 0 on an error.  Files and streams alike, from frame 0
 * on after start.
 */
int float_adm_reader_read_next_luma(FloatAdmReader *reader, void *dest, char *errbuf,
                                    size_t errbuf_size);

/**
 * 1 where the file ends inside a frame after its whole ones, with the message
 * ("2.5 frames of 576x324 yuv420p: the file ends inside frame 2") in buf; else 0.
 */
int float_adm_reader_incomplete(const FloatAdmReader *reader, char *buf, size_t size);

/**
 * Read whole frame `frame`'s luma plane (format.luma_bytes: rows of width samples,
 * little-endian above 8 bits, i.e. a FloatAdmPlane with stride width *
 * bytes per sample) into dest.  Any frame, in any order; a stream refuses it.
 */
int float_adm_reader_read_luma(FloatAdmReader *reader, uint64_t frame, void *dest, char *errbuf,
                               size_t errbuf_size);

/**
 * Where whole frame `frame`'s luma plane lies (the layout float_adm_reader_read_luma
 * writes): 1, with the reader's descriptor of the file in *fd (the reader's: read it with
 * pread or map it, never close it or move its offset) and the plane's first byte in
 * *offset; 0 for a stream, which has no places; FLOAT_ADM_ERROR_INVALID for a frame the
 * started reader does not hold.  For a caller that reads frames in place
 * (float_adm_cuda_submit_file).  Since 1.9.0.
 */
int float_adm_reader_luma_at(const FloatAdmReader *reader, uint64_t frame, int *fd,
                             uint64_t *offset);

/**
 * Read each frame of a regular file in up to `threads` parts at once, on threads of the
 * reader's own (started here, stopped when it is freed), by float_adm_reader_read_luma
 * and float_adm_reader_read_next_luma alike: the same bytes, in less time, where one
 * thread's reads do not fill the memory bus (a 4K frame's luma from the page cache).
 * No part is smaller than 1 MiB.  threads 1 (the default): one read on the caller's
 * thread; 0: the library's choice, 4; more than 64: FLOAT_ADM_ERROR_INVALID.  A stream
 * is read in order on the caller's thread whatever the count.  Since 1.8.0.
 */
int float_adm_reader_set_threads(FloatAdmReader *reader, int threads);

void float_adm_reader_free(FloatAdmReader **reader);

/* ---- Host ---- */

/**
 * The fingerprint of this processor's reciprocal estimate (RCPSS): sha256 of the
 * 4096 little-endian fp32 results of rcp(1 + k/4096), k = 0..4095, as 64 hex
 * digits.  libvmaf's float ADM depends on it; golden values hold where it matches.
 * Without SSE2 (division instead of RCPSS) the string is "none".
 */
void float_adm_rcp_fingerprint(char hex[65]);

/* ---- ABI: the size of the caller's structures travels with each call ---- */

/*
 * FloatAdmOptions and FloatAdmScores are the caller's memory, and a later 1.x may
 * append members to them (docs/abi.md).  So every function that takes one has a
 * _sized twin that also takes the size of the caller's structure, and the macros
 * below make each call pass sizeof() as the header the caller was built with has
 * it: a program calls float_adm_score_frame(ctx, &ref, &dist, &scores) as before,
 * and the library reads and writes no member the program does not have.  A size
 * this library does not know (a program built against a newer float_adm.h) is
 * refused: FLOAT_ADM_ERROR_INVALID, with a message where the function takes an
 * errbuf; float_adm_output_value_sized returns NaN.  A NULL structure is passed on
 * as the plain function takes it.
 *
 * The plain names (the functions declared above, exported with version
 * FLOATADM_1.2) stay for programs built against float_adm.h 1.2 and earlier, which
 * pass no size: they take the structures as 1.2 laid them out.  Bindings that load
 * the library at run time (Python's ctypes) call the _sized functions with their
 * structure's size.
 */
int float_adm_options_default_sized(FloatAdmOptions *opts, size_t opts_size);
int float_adm_option_set_sized(FloatAdmOptions *opts, size_t opts_size, const char *name,
                               const char *value, char *errbuf, size_t errbuf_size);
int float_adm_option_set_double_sized(FloatAdmOptions *opts, size_t opts_size, const char *name,
                                      double value, char *errbuf, size_t errbuf_size);
int float_adm_option_get_sized(const FloatAdmOptions *opts, size_t opts_size, const char *name,
                               double *value);
int float_adm_options_validate_sized(const FloatAdmOptions *opts, size_t opts_size, char *errbuf,
                                     size_t errbuf_size);
int float_adm_output_feature_name_sized(const FloatAdmOptions *opts, size_t opts_size, int output,
                                        char *buf, size_t size);
int float_adm_output_parse_name_sized(const char *name, FloatAdmOptions *opts, size_t opts_size);
double float_adm_output_value_sized(const FloatAdmScores *scores, size_t scores_size, int index);
int float_adm_output_set_value_sized(FloatAdmScores *scores, size_t scores_size, int index,
                                     double value);
int float_adm_context_create_sized(FloatAdmContext **ctx, int width, int height, int bit_depth,
                                   const FloatAdmOptions *opts, size_t opts_size, char *errbuf,
                                   size_t errbuf_size);
int float_adm_score_frame_sized(FloatAdmContext *ctx, const FloatAdmPlane *ref,
                                const FloatAdmPlane *dist, FloatAdmScores *scores,
                                size_t scores_size);
int float_adm_log_open_sized(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                             const FloatAdmOptions *opts, size_t opts_size, int width, int height,
                             char *errbuf, size_t errbuf_size);
int float_adm_log_frame_sized(FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores,
                              size_t scores_size, char *errbuf, size_t errbuf_size);
int float_adm_log_frame_at_sized(FloatAdmLog *log, uint64_t frame_num, double timestamp,
                                 const FloatAdmScores *scores, size_t scores_size, char *errbuf,
                                 size_t errbuf_size);
int float_adm_log_acquire_sized(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                                const FloatAdmOptions *opts, size_t opts_size, int width,
                                int height, uint64_t *next_frame, char *errbuf, size_t errbuf_size);
/* A function of 1.8 (FLOATADM_1.8): no plain symbol, the macro below calls it. */
int float_adm_log_open_flags_sized(FloatAdmLog **log, const char *path,
                                   enum FloatAdmLogFormat format, const FloatAdmOptions *opts,
                                   size_t opts_size, int width, int height, unsigned flags,
                                   char *errbuf, size_t errbuf_size);

/* The library's own sources define the plain functions: they see no macros. */
#ifndef FLOAT_ADM_BUILDING_LIBRARY
/* clang-format off */
#define float_adm_options_default(opts) \
    float_adm_options_default_sized((opts), sizeof(FloatAdmOptions))
#define float_adm_option_set(opts, name, value, errbuf, errbuf_size) \
    float_adm_option_set_sized((opts), sizeof(FloatAdmOptions), (name), (value), (errbuf), \
                               (errbuf_size))
#define float_adm_option_set_double(opts, name, value, errbuf, errbuf_size) \
    float_adm_option_set_double_sized((opts), sizeof(FloatAdmOptions), (name), (value), \
                                      (errbuf), (errbuf_size))
#define float_adm_option_get(opts, name, value) \
    float_adm_option_get_sized((opts), sizeof(FloatAdmOptions), (name), (value))
#define float_adm_options_validate(opts, errbuf, errbuf_size) \
    float_adm_options_validate_sized((opts), sizeof(FloatAdmOptions), (errbuf), (errbuf_size))
#define float_adm_output_feature_name(opts, output, buf, size) \
    float_adm_output_feature_name_sized((opts), sizeof(FloatAdmOptions), (output), (buf), (size))
#define float_adm_output_parse_name(name, opts) \
    float_adm_output_parse_name_sized((name), (opts), sizeof(FloatAdmOptions))
#define float_adm_output_value(scores, index) \
    float_adm_output_value_sized((scores), sizeof(FloatAdmScores), (index))
#define float_adm_output_set_value(scores, index, value) \
    float_adm_output_set_value_sized((scores), sizeof(FloatAdmScores), (index), (value))
#define float_adm_context_create(ctx, width, height, bit_depth, opts, errbuf, errbuf_size) \
    float_adm_context_create_sized((ctx), (width), (height), (bit_depth), (opts), \
                                   sizeof(FloatAdmOptions), (errbuf), (errbuf_size))
#define float_adm_score_frame(ctx, ref, dist, scores) \
    float_adm_score_frame_sized((ctx), (ref), (dist), (scores), sizeof(FloatAdmScores))
#define float_adm_log_open(log, path, format, opts, width, height, errbuf, errbuf_size) \
    float_adm_log_open_sized((log), (path), (format), (opts), sizeof(FloatAdmOptions), (width), \
                             (height), (errbuf), (errbuf_size))
#define float_adm_log_frame(log, frame_num, scores, errbuf, errbuf_size) \
    float_adm_log_frame_sized((log), (frame_num), (scores), sizeof(FloatAdmScores), (errbuf), \
                              (errbuf_size))
#define float_adm_log_frame_at(log, frame_num, timestamp, scores, errbuf, errbuf_size) \
    float_adm_log_frame_at_sized((log), (frame_num), (timestamp), (scores), \
                                 sizeof(FloatAdmScores), (errbuf), (errbuf_size))
#define float_adm_log_acquire(log, path, format, opts, width, height, next_frame, errbuf, \
                              errbuf_size) \
    float_adm_log_acquire_sized((log), (path), (format), (opts), sizeof(FloatAdmOptions), \
                                (width), (height), (next_frame), (errbuf), (errbuf_size))
#define float_adm_log_open_flags(log, path, format, opts, width, height, flags, errbuf, \
                                 errbuf_size) \
    float_adm_log_open_flags_sized((log), (path), (format), (opts), sizeof(FloatAdmOptions), \
                                   (width), (height), (flags), (errbuf), (errbuf_size))
/* clang-format on */
#endif

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* FLOAT_ADM_H */
