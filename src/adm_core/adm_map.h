/*
 * float_adm: the map of a frame, where in the picture detail is lost
 * (docs/maps.md).  The frame's denominator and DLM numerator sums split over
 * blocks of FLOAT_ADM_MAP_BLOCK_SIZE pixels: the row kernels add each column's
 * terms, the very fp32 values the frame's sums add, in fp64 down each column of
 * a block (SumRowArgs::column_sums), and at the block's last row the map adds
 * its columns left to right, so that neither the SIMD level nor the job count
 * changes a bit.  A block's rows are one job's (the engine splits rows at
 * multiples of block_rows).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_MAP_H
#define ADM_MAP_H

#include <stdint.h>

#include <string>
#include <vector>

#include "adm_context_setup.h"
#include "float_adm.h"

namespace adm {

/* The sums a map keeps: the denominator's and the DLM numerator's. */
enum MapSum { kMapDen = 0, kMapNum = 1, kNumMapSums = 2 };

class FrameMap {
public:
    FrameMap(const FrameSetup &frame, const FloatAdmOptions &opts);

    /* Blocks across a picture of the given width (or down its height). */
    static int blocks_across(int pixels)
    {
        return (pixels + FLOAT_ADM_MAP_BLOCK_SIZE - 1) / FLOAT_ADM_MAP_BLOCK_SIZE;
    }
    int columns() const { return columns_; }
    int rows() const { return rows_; }
    /* Coefficient rows (and columns) of scale s a block covers. */
    static int block_rows(int s) { return FLOAT_ADM_MAP_BLOCK_SIZE >> (s + 1); }

    /* Each job's column sums: kNumMapSums rows of the widest band. */
    void set_jobs(int nb_jobs);
    /* The row kernel's column_sums for row i of scale s in a job: whether the row
     * starts a block. */
    void column_sums(int s, int i, int job, double *sums[kNumMapSums], bool *start);

    /* A frame begins: its loss() is not readable until finish (the sums, and
     * loss_rows from them, once every row or set_sums has added them). */
    void start() { ready_ = false; }
    /* After the row kernel: at the last row of a block, the block's columns added. */
    void add_row(int s, int i, int job);
    /* A device's sums of scale s, [block row][block column][MapSum], instead of rows. */
    void set_sums(int s, const double *blocks);
    /* Every row of every scale added: the loss of each block. */
    void finish();
    /* The loss of block rows [first, first + n), into loss (n rows of columns()),
     * from the sums alone: it changes nothing, so threads may each take their own
     * rows at once. */
    void loss_rows(int first, int n, float *loss) const;
    bool ready() const { return ready_; }

    /* Block (r, c) of scale s: sum k (MapSum). */
    double block_sum(int s, int r, int c, int k) const
    {
        return blocks_[s][((size_t)r * columns_ + c) * kNumMapSums + k];
    }
    const float *loss() const { return loss_.data(); }
    /* Scale s's sums per block, row by row (float_adm_map_sums); num or den may be null. */
    void read_sums(int s, double *num, double *den) const;

private:
    FrameSetup frame_;
    double inv_p_;
    int columns_, rows_;
    bool ready_ = false;
    /* Per scale: [block row][block column][MapSum]. */
    std::vector<double> blocks_[kNumScales];
    std::vector<float> loss_;
    /* The noise floor of a block of n coefficients per band: (3 n nw)^(1/p). */
    std::vector<double> noise_floor_;
    /* Per job: [MapSum][column], the sums of the block row being added. */
    std::vector<std::vector<double>> job_sums_;
    ptrdiff_t stride_; /* of a job's rows */
};

/*
 * Writes a frame's loss (columns x rows, row by row from the top) as the PFM file the
 * pattern names for frame_num (float_adm_map_write_pfm; a device backend's maps too).
 */
int write_map_pfm(const char *pattern, uint64_t frame_num, const float *loss, int columns, int rows,
                  char *errbuf, size_t errbuf_size);

/* Whether a map pattern (float_adm_map_pattern_check's) gives the file name `name` for
 * some frame number (%d: the number without leading zeros; %0Nd: N digits or more);
 * false for a pattern that is not one. */
bool map_pattern_names(const char *pattern, const std::string &name);

} // namespace adm

#endif /* ADM_MAP_H */
