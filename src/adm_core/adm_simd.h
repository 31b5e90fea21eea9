/*
 * float_adm: the row kernels of the CPU engine and their run-time dispatch.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each level is one table of row kernels: scalar (one lane, adm_arith.h's expressions
 * column by column), SSE2, AVX2, AVX-512 (the vector template of adm_simd_kernels.h,
 * each compiled in its own translation unit with its own -m flags, never FMA).  Every
 * level computes adm_arith.h's expressions operation for operation, so all give the
 * same bits.  The best level this processor runs exactly is the default; a context
 * can be given another (float_adm_context_set_simd_level), capped to that one.
 */
#ifndef ADM_SIMD_H
#define ADM_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "adm_context_setup.h"

namespace adm {

/* A level is its index in the table of adm_simd_dispatch.cpp, slowest first; the scalar
 * level is 0 and the others are named there alone. */
enum class SimdLevel : int { kScalar = 0 };

/* Floats readable past the end of every row a kernel reads (wide loads, tails). */
constexpr int kRowPadding = 64;

/* One output row of the horizontal DWT pass. */
struct DwtRowArgs {
    const float *lo, *hi;  /* the vertical pass: in_w samples, + kRowPadding readable */
    int in_w, w;
    const int *taps[4];    /* horizontal source index of tap t for output j */
    float *a;              /* band a, always written */
    float *h, *v, *d;      /* null: band a only */
};

/* Decouple and CSF of one row over columns [left, right). */
struct DecoupleRowArgs {
    const float *ref[3], *dist[3]; /* detail bands h, v, d */
    int left, right;
    double egl;
    float cos_1deg_sq;
    float factor[3];
    float *weighted[2][3]; /* [restored, additive][band] */
    float *filtered[2][3];
};

/* The nine inner sums of one row over columns [left, right). */
struct SumRowArgs {
    const float *ref[3];            /* detail of the reference, this row */
    const float *weighted[2][3];    /* this row */
    const float *filtered[2][3][3]; /* [signal][band][row above, this row, row below] */
    int left, right, w;
    float factor[3];
    bool masking, cube;
    float p;
    /* Null, or a map's column sums (adm_map.h): [0] the denominator's, [1] the DLM
     * numerator's.  Column j's terms of the h, v and d bands, each widened to fp64,
     * added as (h + v) + d, then added to (start: stored in) column_sums[k][j]. */
    double *column_sums[2] = {};
    bool column_sums_start = false;
};

struct SimdKernels {
    /* The reciprocal estimate, exposed so that tests can hold it to RCPSS. */
    void (*reciprocal)(const float *in, float *out, size_t n);
    void (*dwt_vertical_float)(const float *const rows[4], int n, float *lo, float *hi);
    void (*dwt_vertical_u8)(const uint8_t *const rows[4], int n, float *lo, float *hi);
    /* Little-endian uint16 samples, shifted right by shift, divided by scaler. */
    void (*dwt_vertical_u16)(const uint8_t *const rows[4], int n, int shift, float scaler,
                             float *lo, float *hi);
    void (*dwt_horizontal)(const DwtRowArgs &args);
    void (*decouple_csf)(const DecoupleRowArgs &args);
    /* Each sum (in RowSum order) starts at 0 and adds its columns left to right. */
    void (*row_sums)(const SumRowArgs &args, float sums[kNumRowSums]);
};

/* How many levels this build names, supported here or not. */
int simd_level_count();
/* "scalar", "sse2", ...; null for an index past the table. */
const char *simd_level_name(SimdLevel level);
/* A name of simd_level_name; false for anything else. */
bool simd_level_parse(const char *name, SimdLevel *level);
/* Built in, run by this processor, and its reciprocal estimate equals RCPSS (the
 * scalar level: always). */
bool simd_level_supported(SimdLevel level);
SimdLevel simd_level_best();
/* The best supported level at or below `wanted`. */
SimdLevel simd_level_capped(SimdLevel wanted);
/* The kernel table of a supported level; null for any other. */
const SimdKernels *simd_kernels(SimdLevel level);

} // namespace adm

#endif /* ADM_SIMD_H */
