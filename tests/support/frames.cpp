/*
 * The tests' frame geometry and luma planes.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "frames.h"

#include <cstring>
#include <stdexcept>

namespace testsupport {

FrameGeometry FrameGeometry::from_pix_fmt(const std::string &pix_fmt, int width, int height)
{
    static const struct {
        const char *prefix;
        Chroma chroma;
    } kLayouts[] = {{"yuv420p", k420}, {"yuv422p", k422}, {"yuv444p", k444}, {"gray", kGray}};
    FrameGeometry g;
    g.width = width;
    g.height = height;
    for (const auto &layout : kLayouts) {
        const std::string prefix = layout.prefix;
        if (pix_fmt.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string rest = pix_fmt.substr(prefix.size());
        g.chroma = layout.chroma;
        if (rest.empty())
            return g;
        for (int depth : {9, 10, 12, 14, 16})
            if (rest == std::to_string(depth) + "le") {
                g.depth = depth;
                return g;
            }
    }
    throw std::runtime_error("pixel format not handled by the tests: " + pix_fmt);
}

size_t FrameGeometry::frame_bytes() const
{
    const size_t luma = (size_t)width * height;
    const size_t cw = (size_t)(width + 1) / 2, ch = (size_t)(height + 1) / 2;
    size_t chroma_samples = 0;
    switch (chroma) {
    case kGray: break;
    case k420: chroma_samples = 2 * cw * ch; break;
    case k422: chroma_samples = 2 * cw * height; break;
    case k444: chroma_samples = 2 * luma; break;
    }
    return (luma + chroma_samples) * bytes_per_sample();
}

LumaPlane LumaPlane::blank(const FrameGeometry &geometry, ptrdiff_t row_padding)
{
    LumaPlane p;
    p.geometry = geometry;
    p.stride = (ptrdiff_t)geometry.luma_row_bytes() + row_padding;
    p.bytes.assign((size_t)p.stride * geometry.height, 0);
    return p;
}

int LumaPlane::sample(int x, int y) const
{
    const uint8_t *at = bytes.data() + y * stride + (ptrdiff_t)x * geometry.bytes_per_sample();
    if (geometry.bytes_per_sample() == 1)
        return *at >> shift;
    uint16_t v;
    memcpy(&v, at, sizeof(v));
    return v >> shift;
}

void LumaPlane::set_sample(int x, int y, int value)
{
    uint8_t *at = bytes.data() + y * stride + (ptrdiff_t)x * geometry.bytes_per_sample();
    if (geometry.bytes_per_sample() == 1) {
        *at = (uint8_t)(value << shift);
    } else {
        const uint16_t v = (uint16_t)(value << shift);
        memcpy(at, &v, sizeof(v));
    }
}

LumaPlane with_shift(const LumaPlane &plane, int shift)
{
    LumaPlane p = plane;
    p.shift = shift;
    for (int y = 0; y < plane.height(); y++)
        for (int x = 0; x < plane.width(); x++)
            p.set_sample(x, y, plane.sample(x, y));
    return p;
}

LumaPlane widened(const LumaPlane &plane, int depth)
{
    FrameGeometry g = plane.geometry;
    g.depth = depth;
    LumaPlane p = LumaPlane::blank(g);
    const int up = depth - plane.geometry.depth;
    for (int y = 0; y < plane.height(); y++)
        for (int x = 0; x < plane.width(); x++)
            p.set_sample(x, y, plane.sample(x, y) << up);
    return p;
}

} // namespace testsupport
