/*
 * The tests' and benchmarks' generated content.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "content.h"

#include <cmath>
#include <vector>

namespace testsupport {

namespace {

double clip01(double v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

/* The reference picture in [0, 1], row by row. */
std::vector<double> picture(int w, int h, Lcg &rng)
{
    const int cell = 16, gw = w / cell + 2, gh = h / cell + 2;
    std::vector<double> lattice((size_t)gw * gh);
    for (double &v : lattice)
        v = rng.unit();
    const double phase = 6.28 * rng.unit(), fx = 0.03 + 0.05 * rng.unit(),
                 fy = 0.02 + 0.04 * rng.unit();
    std::vector<double> image((size_t)w * h);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            double ty = (double)(i % cell) / cell, tx = (double)(j % cell) / cell;
            ty = ty * ty * (3 - 2 * ty); /* smoothstep */
            tx = tx * tx * (3 - 2 * tx);
            const double *r0 = &lattice[(size_t)(i / cell) * gw + j / cell], *r1 = r0 + gw;
            const double shape = (r0[0] * (1 - tx) + r0[1] * tx) * (1 - ty) +
                                 (r1[0] * (1 - tx) + r1[1] * tx) * ty;
            const double ripple = 0.08 * std::sin(fx * j + fy * i + phase);
            const double edge = (i / 8 + j / 8) % 5 == 0 ? 0.15 : 0.0;
            const double check = (((i / 5) ^ (j / 3)) & 1) * 0.1;
            const double grain = rng.centred(5) / 255.0;
            image[(size_t)i * w + j] = clip01(0.1 + 0.6 * shape + ripple + edge + check + grain);
        }
    return image;
}

/* What a coarse coder keeps of (x, y): the mean of its 8x8 block, and a little noise. */
double coded(const std::vector<double> &image, int w, int h, int x, int y, Lcg &rng)
{
    const int x0 = x / 8 * 8, y0 = y / 8 * 8;
    double sum = 0;
    int n = 0;
    for (int i = y0; i < y0 + 8 && i < h; i++)
        for (int j = x0; j < x0 + 8 && j < w; j++, n++)
            sum += image[(size_t)i * w + j];
    return sum / n + rng.centred(3) / 255.0;
}

} // namespace

FramePair make_frame_pair(const FrameGeometry &geometry, uint32_t seed, int shift,
                          ptrdiff_t row_padding)
{
    const int w = geometry.width, h = geometry.height;
    const double max = (double)((1 << geometry.depth) - 1);
    Lcg rng{seed * 2654435761u + 1};
    const std::vector<double> ref = picture(w, h, rng);
    FramePair pair{LumaPlane::blank(geometry, row_padding),
                   LumaPlane::blank(geometry, row_padding)};
    pair.ref.shift = pair.dist.shift = shift;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const double *row = &ref[(size_t)i * w];
            const double l = row[j > 0 ? j - 1 : j], c = row[j], r = row[j < w - 1 ? j + 1 : j];
            double d;
            switch ((i * 4 / h + j * 5 / w) % 5) {
            case 0: d = 0.5 + (c - 0.5) * 1.2; break;         /* enhanced */
            case 1: d = c + rng.centred(8) / 255.0; break;    /* noisy */
            case 2: d = 0.25 * l + 0.5 * c + 0.25 * r; break; /* blurred */
            case 3: d = coded(ref, w, h, j, i, rng); break;   /* coded */
            default: d = c; break;                            /* untouched */
            }
            pair.ref.set_sample(j, i, (int)std::lround(c * max));
            pair.dist.set_sample(j, i, (int)std::lround(clip01(d) * max));
        }
    return pair;
}

} // namespace testsupport
