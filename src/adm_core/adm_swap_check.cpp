/*
 * float_adm: whether the two inputs may be the wrong way round, from their fine
 * detail: an encode holds less than its source.
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
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <cstdint>
#include <cstdio>
#include <new>

#include "float_adm.h"

namespace {

/* Pairs whose reference has detail enough to compare: the verdict is in after
 * these, so that the check costs a few frames of a run, not a pass over each. */
constexpr uint64_t kPairsToCompare = 8;
/* Pairs looked at, flat ones included: a run whose reference stays flat longer
 * (a black lead-in, slides) gives its verdict on what it compared by then. */
constexpr uint64_t kPairsToLookAt = 64;
/* A reference frame below this mean squared neighbour difference (in 8-bit steps,
 * squared) is too flat to compare: black, a fade, a plain card, whose distorted
 * holds little more than encoding noise. */
constexpr double kFlatFrame = 1.0;
/* The distorted's detail over the reference's beyond which the order is in
 * doubt, over the pairs compared and in each of them off the block grid.  Corpus
 * encodes the right way round give 0.78-0.87, the same encodes swapped 1.15-1.29
 * (each pair off the grid 1.15 at least), an identical pair 1.00
 * (docs/reading-adm.md). */
constexpr double kMoreDetail = 1.1;
/* A block codec's blocks are 8x8 or split from such blocks, on a grid from the
 * frame's corner: at low rates on smooth content their edges are steps, more
 * detail than the source had there.  Off the grid: without the differences
 * between columns (rows) 8k - 1 and 8k. */
constexpr int kBlockGrid = 8;
/* What each pair's distorted must gain over its reference off the grid, in 8-bit
 * steps squared per difference, besides kMoreDetail times as much: the noise an
 * encode of smooth content adds (0.33 at most where measured) is below it, the
 * detail a swapped corpus encode lost (2.5 at least) above it. */
constexpr double kGainedDetail = 1.0;

/* The integers a squared difference and a lane's sum of them take: as narrow as
 * the samples allow (so that the loop below vectorises well), and wide enough
 * for a row of FLOAT_ADM_MAX_SIZE samples (255^2 * 65536 / 16 lanes < 2^32). */
template <typename Sample> struct SumTypes;
template <> struct SumTypes<uint8_t> {
    using Square = uint16_t;
    using Lane = uint32_t;
};
template <> struct SumTypes<uint16_t> {
    using Square = uint32_t;
    using Lane = uint64_t;
};

template <typename Sample> Sample sample_at(const Sample *samples, int x, int shift)
{
    return static_cast<Sample>(samples[x] >> shift);
}

/* A run's squared neighbour differences, as integers: all of them, and those
 * across the block grid (between columns 8k - 1 and 8k). */
struct RunEnergy {
    uint64_t all, across_grid;
};

/* The squared differences of count samples of a row and the next ones (next =
 * row + 1: horizontal neighbours) or those below (the next row), as integers: the
 * same on every host.  Independent lanes let the compiler vectorise the loop at
 * -O2; lane i holds the columns i mod kLanes, so that the grid's columns are whole
 * lanes.  A shift of 0 (every layout but P010's and P012's) is a template argument
 * of its own: a shift by a variable count would widen 8-bit samples to 32 bits. */
template <typename Sample, bool kShifted>
RunEnergy differences_energy(const Sample *row, const Sample *next, int count, int shift)
{
    using Square = typename SumTypes<Sample>::Square;
    using Lane = typename SumTypes<Sample>::Lane;
    constexpr int kLanes = 16;
    static_assert(kLanes % kBlockGrid == 0, "a lane holds columns of one place in the grid");
    Lane lanes[kLanes] = {};
    RunEnergy sum = {0, 0};
    int x = 0;
    for (; x + kLanes <= count; x += kLanes)
        for (int i = 0; i < kLanes; i++) {
            const Sample a = kShifted ? sample_at(row, x + i, shift) : row[x + i];
            const Sample b = kShifted ? sample_at(next, x + i, shift) : next[x + i];
            const Square magnitude = static_cast<Square>(a > b ? a - b : b - a);
            lanes[i] += static_cast<Square>(magnitude * magnitude);
        }
    for (; x < count; x++) {
        const Sample a = sample_at(row, x, shift), b = sample_at(next, x, shift);
        const uint64_t magnitude = a > b ? a - b : b - a;
        sum.all += magnitude * magnitude;
        if (x % kBlockGrid == kBlockGrid - 1)
            sum.across_grid += magnitude * magnitude;
    }
    for (int i = 0; i < kLanes; i++) {
        sum.all += lanes[i];
        if (i % kBlockGrid == kBlockGrid - 1)
            sum.across_grid += lanes[i];
    }
    return sum;
}

template <typename Sample>
RunEnergy differences_energy(const Sample *row, const Sample *next, int count, int shift)
{
    return shift ? differences_energy<Sample, true>(row, next, count, shift)
                 : differences_energy<Sample, false>(row, next, count, 0);
}

/* A frame's detail: its squared neighbour differences, all of them and those off
 * the block grid. */
struct Detail {
    double all, off_grid;
};

/* A row's sums are exact integers (below 2^53: 2 * 65536 * 65535^2); the frame's
 * are their double sums, in row order, which no frame size can overflow. */
template <typename Sample> Detail detail_energy(const FloatAdmPlane &plane, int width, int height)
{
    Detail sum = {0, 0};
    const Sample *above = nullptr;
    for (int y = 0; y < height; y++) {
        const auto *row = reinterpret_cast<const Sample *>(
            static_cast<const unsigned char *>(plane.data) + y * plane.stride);
        const RunEnergy across = differences_energy(row, row + 1, width - 1, plane.shift);
        uint64_t all = across.all, off_grid = across.all - across.across_grid;
        if (above) {
            const uint64_t down = differences_energy(above, row, width, plane.shift).all;
            all += down;
            if (y % kBlockGrid) /* rows y - 1 and y lie in one block */
                off_grid += down;
        }
        sum.all += static_cast<double>(all);
        sum.off_grid += static_cast<double>(off_grid);
        above = row;
    }
    return sum;
}

Detail plane_energy(const FloatAdmPlane &plane, int width, int height)
{
    return plane.bytes_per_sample == 2 ? detail_energy<uint16_t>(plane, width, height)
                                       : detail_energy<uint8_t>(plane, width, height);
}

bool plane_valid(const FloatAdmPlane *plane)
{
    return plane && plane->data && (plane->bytes_per_sample == 1 || plane->bytes_per_sample == 2) &&
           plane->shift >= 0 && plane->shift < 8 * plane->bytes_per_sample;
}

/* The neighbour differences off the block grid along a line of length samples. */
double off_grid_count(int length) { return (length - 1) - (length - 1) / kBlockGrid; }

} // namespace

struct FloatAdmSwapCheck {
    int width, height;
    double steps_squared;        /* one 8-bit step, squared, in the samples' units */
    double differences;          /* neighbour differences in a frame */
    double differences_off_grid; /* those off the block grid */
    uint64_t pairs;              /* pairs compared (flat references left out) */
    uint64_t looked_at;          /* pairs added, flat ones included */
    double reference_energy, distorted_energy;
    bool each_pair_more; /* every pair compared has clearly more detail off the grid */
};

extern "C" {

int float_adm_swap_check_create(FloatAdmSwapCheck **check, int width, int height, int bit_depth)
{
    if (!check)
        return FLOAT_ADM_ERROR_INVALID;
    *check = nullptr;
    if (width < 2 || height < 2 || width > FLOAT_ADM_MAX_SIZE || height > FLOAT_ADM_MAX_SIZE ||
        bit_depth < 8 || bit_depth > 16)
        return FLOAT_ADM_ERROR_INVALID;
    *check = new (std::nothrow) FloatAdmSwapCheck();
    if (!*check)
        return FLOAT_ADM_ERROR_NOMEM;
    const double step = static_cast<double>(1 << (bit_depth - 8));
    (*check)->width = width;
    (*check)->height = height;
    (*check)->steps_squared = step * step;
    (*check)->differences = (width - 1.0) * height + width * (height - 1.0);
    (*check)->differences_off_grid = off_grid_count(width) * height +
                                     width * off_grid_count(height);
    (*check)->each_pair_more = true;
    return 0;
}

int float_adm_swap_check_add(FloatAdmSwapCheck *check, const FloatAdmPlane *ref,
                             const FloatAdmPlane *dist)
{
    if (!check || !plane_valid(ref) || !plane_valid(dist))
        return FLOAT_ADM_ERROR_INVALID;
    if (check->pairs >= kPairsToCompare || check->looked_at >= kPairsToLookAt)
        return 1;
    check->looked_at++;
    const Detail reference = plane_energy(*ref, check->width, check->height);
    if (reference.all >= kFlatFrame * check->steps_squared * check->differences) {
        const Detail distorted = plane_energy(*dist, check->width, check->height);
        check->reference_energy += reference.all;
        check->distorted_energy += distorted.all;
        /* A swap shows in every pair, each frame of a source holding more than its
         * encode; the noise an encoder adds to smooth content comes and goes (a
         * key frame is clean, the frames after it drift). */
        if (distorted.off_grid <= kMoreDetail * reference.off_grid ||
            distorted.off_grid - reference.off_grid <=
                kGainedDetail * check->steps_squared * check->differences_off_grid)
            check->each_pair_more = false;
        check->pairs++;
    }
    return check->pairs >= kPairsToCompare || check->looked_at >= kPairsToLookAt;
}

int float_adm_swap_check_result(const FloatAdmSwapCheck *check, char *message, size_t size)
{
    if (!check)
        return FLOAT_ADM_ERROR_INVALID;
    if (message && size)
        message[0] = '\0';
    if (!check->pairs || !check->each_pair_more ||
        check->distorted_energy <= kMoreDetail * check->reference_energy)
        return 0;
    if (message && size)
        std::snprintf(message, size,
                      "the distorted has %.2f times the reference's fine detail (squared "
                      "differences of neighbouring luma samples, %llu frame%s): are the two "
                      "swapped? (an encode has less than its source; sharpening or added noise "
                      "or grain give more)",
                      check->distorted_energy / check->reference_energy,
                      static_cast<unsigned long long>(check->pairs), check->pairs > 1 ? "s" : "");
    return 1;
}

void float_adm_swap_check_free(FloatAdmSwapCheck **check)
{
    if (!check)
        return;
    delete *check;
    *check = nullptr;
}

} // extern "C"
