/*
 * The tests' one frame-geometry type and the luma plane they score: what the
 * fixture loader reads and the content generator makes.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_SUPPORT_FRAMES_H
#define TESTS_SUPPORT_FRAMES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "float_adm.h"

namespace testsupport {

/* Size, depth and chroma layout of planar little-endian frames. */
struct FrameGeometry {
    enum Chroma { kGray, k420, k422, k444 };
    int width = 0, height = 0, depth = 8;
    Chroma chroma = kGray;

    /* yuv420p, yuv422p10le, yuv444p16le, gray12le, ...; throws on any other. */
    static FrameGeometry from_pix_fmt(const std::string &pix_fmt, int width, int height);

    int bytes_per_sample() const { return depth > 8 ? 2 : 1; }
    size_t luma_row_bytes() const { return (size_t)width * bytes_per_sample(); }
    /* One whole frame in a file: luma, then both chroma planes. */
    size_t frame_bytes() const;
};

/* One luma plane in host memory, rows stride bytes apart. */
struct LumaPlane {
    FrameGeometry geometry;
    int shift = 0;        /* samples stored in the top bits (P010-style) */
    ptrdiff_t stride = 0; /* >= geometry.luma_row_bytes() */
    std::vector<uint8_t> bytes;

    /* All samples 0; row_padding extra bytes at the end of each row. */
    static LumaPlane blank(const FrameGeometry &geometry, ptrdiff_t row_padding = 0);

    int width() const { return geometry.width; }
    int height() const { return geometry.height; }
    /* A sample's value (shifted down). */
    int sample(int x, int y) const;
    /* Stores value (0 .. 2^depth - 1) shifted up by shift. */
    void set_sample(int x, int y, int value);
    FloatAdmPlane view() const
    {
        return FloatAdmPlane{bytes.data(), stride, geometry.bytes_per_sample(), shift};
    }
};

/* The same samples stored in the top bits, shifted left by shift (P010: 6). */
LumaPlane with_shift(const LumaPlane &plane, int shift);
/* The samples of a plane scaled to depth by a left shift (v << (depth - its depth)). */
LumaPlane widened(const LumaPlane &plane, int depth);

} // namespace testsupport

#endif /* TESTS_SUPPORT_FRAMES_H */
