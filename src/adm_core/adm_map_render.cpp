/*
 * float_adm: a loss grid painted as a false-colour RGB24 picture (float_adm.h,
 * "Maps"); the filter's map output and Python's report paint with it.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>
#include <cstring>

#include "float_adm.h"

namespace {

struct PaletteStop {
    double loss;
    unsigned char rgb[3];
};

/* Black, blue, red, yellow, white: brightness rises with the loss, and the first
 * stops sit low because a block's loss is mostly a few hundredths. */
constexpr PaletteStop kPalette[] = {
    {0.00, {0, 0, 0}},     {0.05, {0, 0, 255}},     {0.15, {255, 0, 0}},
    {0.40, {255, 255, 0}}, {1.00, {255, 255, 255}},
};
constexpr int kPaletteStops = sizeof(kPalette) / sizeof(kPalette[0]);

/* A block not measured (a loss of NaN): grey, which no loss is painted. */
constexpr unsigned char kNotMeasuredRgb[3] = {128, 128, 128};

void loss_colour(float loss, unsigned char rgb[3])
{
    if (std::isnan(loss)) {
        memcpy(rgb, kNotMeasuredRgb, 3);
        return;
    }
    /* A negative loss reads as 0. */
    const double t = loss > 0.0f ? (loss < 1.0f ? (double)loss : 1.0) : 0.0;
    int k = 1;
    while (k < kPaletteStops - 1 && t > kPalette[k].loss)
        k++;
    const PaletteStop &lo = kPalette[k - 1], &hi = kPalette[k];
    const double f = (t - lo.loss) / (hi.loss - lo.loss);
    for (int c = 0; c < 3; c++) {
        const double v = lo.rgb[c] + (hi.rgb[c] - lo.rgb[c]) * f;
        rgb[c] = (unsigned char)(v + 0.5);
    }
}

int blocks_covering(int pixels) { return (pixels - 1) / FLOAT_ADM_MAP_BLOCK_SIZE + 1; }

} // namespace

extern "C" int float_adm_map_render_rgb24(const float *loss, int columns, int rows, uint8_t *rgb,
                                          int width, int height, ptrdiff_t stride)
{
    if (!loss || !rgb || columns <= 0 || rows <= 0 || width <= 0 || height <= 0)
        return FLOAT_ADM_ERROR_INVALID;
    if (columns != blocks_covering(width) || rows != blocks_covering(height) ||
        stride < (ptrdiff_t)3 * width)
        return FLOAT_ADM_ERROR_INVALID;
    const int block = FLOAT_ADM_MAP_BLOCK_SIZE;
    for (int r = 0; r < rows; r++) {
        uint8_t *first = rgb + (ptrdiff_t)r * block * stride;
        const int block_height = height - r * block < block ? height - r * block : block;
        /* Paint the block row's first line, then copy it down the block. */
        for (int x = 0; x < width; x++) {
            if (x % block == 0)
                loss_colour(loss[(size_t)r * columns + x / block], first + 3 * x);
            else
                memcpy(first + 3 * x, first + 3 * (x - 1), 3);
        }
        for (int y = 1; y < block_height; y++)
            memcpy(first + (ptrdiff_t)y * stride, first, (size_t)3 * width);
    }
    return 0;
}
