/*
 * Maps painted as pictures (float_adm_map_render_rgb24): each pixel takes its
 * block's colour from the documented palette, identical pictures paint black, and
 * what the function cannot paint is refused.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "content.h"
#include "float_adm.h"

namespace {

using Rgb = std::array<int, 3>;

Rgb pixel(const std::vector<uint8_t> &picture, ptrdiff_t stride, int x, int y)
{
    const uint8_t *p = &picture[y * stride + 3 * x];
    return {p[0], p[1], p[2]};
}

/* One block per loss, 32 pixels wide, painted and read back at the block's centre. */
std::vector<Rgb> colours_of(const std::vector<float> &losses)
{
    const int columns = (int)losses.size(), width = columns * FLOAT_ADM_MAP_BLOCK_SIZE;
    std::vector<uint8_t> picture((size_t)3 * width);
    EXPECT_EQ(0, float_adm_map_render_rgb24(losses.data(), columns, 1, picture.data(), width, 1,
                                            3 * width));
    std::vector<Rgb> out;
    for (int c = 0; c < columns; c++)
        out.push_back(pixel(picture, 3 * width, c * FLOAT_ADM_MAP_BLOCK_SIZE + 16, 0));
    return out;
}

TEST(MapRender, PaletteStopsAndRampsAreTheDocumentedColours)
{
    const std::vector<Rgb> stops = colours_of({0.0f, 0.05f, 0.15f, 0.4f, 1.0f});
    EXPECT_EQ((Rgb{0, 0, 0}), stops[0]);
    EXPECT_EQ((Rgb{0, 0, 255}), stops[1]);
    EXPECT_EQ((Rgb{255, 0, 0}), stops[2]);
    EXPECT_EQ((Rgb{255, 255, 0}), stops[3]);
    EXPECT_EQ((Rgb{255, 255, 255}), stops[4]);

    /* 40 % and 60 % of the way between stops: 102 and 153 of 255. */
    const std::vector<Rgb> ramps = colours_of({0.02f, 0.11f, 0.3f, 0.76f});
    EXPECT_EQ((Rgb{0, 0, 102}), ramps[0]);
    EXPECT_EQ((Rgb{153, 0, 102}), ramps[1]);
    EXPECT_EQ((Rgb{255, 153, 0}), ramps[2]);
    EXPECT_EQ((Rgb{255, 255, 153}), ramps[3]);

    /* Outside 0..1 the ends of the palette; NaN (not measured) grey, which no loss is. */
    const std::vector<Rgb> outside = colours_of({-0.5f, NAN, 1.5f, INFINITY});
    EXPECT_EQ((Rgb{0, 0, 0}), outside[0]);
    EXPECT_EQ((Rgb{128, 128, 128}), outside[1]);
    EXPECT_EQ((Rgb{255, 255, 255}), outside[2]);
    EXPECT_EQ((Rgb{255, 255, 255}), outside[3]);
}

TEST(MapRender, EachPixelTakesItsBlocksColourAndRowPaddingIsLeftAlone)
{
    /* 70 x 40 pixels: 3 x 2 blocks, the last column and row cut by the picture. */
    const int width = 70, height = 40, columns = 3, rows = 2;
    const ptrdiff_t stride = 3 * width + 7;
    const std::vector<float> loss = {0.0f, 0.05f, 0.15f, 0.4f, 1.0f, 0.3f};
    std::vector<uint8_t> picture(stride * height, 0xAB);
    ASSERT_EQ(0, float_adm_map_render_rgb24(loss.data(), columns, rows, picture.data(), width,
                                            height, stride));
    const Rgb colour[] = {{0, 0, 0},     {0, 0, 255},     {255, 0, 0},
                          {255, 255, 0}, {255, 255, 255}, {255, 153, 0}};
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            const int block = (y / FLOAT_ADM_MAP_BLOCK_SIZE) * columns +
                              x / FLOAT_ADM_MAP_BLOCK_SIZE;
            ASSERT_EQ(colour[block], pixel(picture, stride, x, y)) << "pixel " << x << ", " << y;
        }
        for (ptrdiff_t b = 3 * width; b < stride; b++)
            ASSERT_EQ(0xAB, picture[y * stride + b]) << "padding of row " << y;
    }
}

TEST(MapRender, IdenticalPicturesPaintBlack)
{
    const int width = 200, height = 90;
    testsupport::FramePair f = testsupport::make_frame_pair(
        testsupport::FrameGeometry{width, height, 8}, 5);
    f.dist = f.ref;
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    char err[256] = "";
    FloatAdmContext *ctx = nullptr;
    ASSERT_EQ(0, float_adm_context_create(&ctx, width, height, 8, &opts, err, sizeof(err))) << err;
    ASSERT_EQ(0, float_adm_context_enable_map(ctx));
    const FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    FloatAdmScores scores;
    ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &scores));
    int columns = 0, rows = 0;
    ASSERT_EQ(0, float_adm_map_size(ctx, &columns, &rows, nullptr));
    std::vector<float> loss((size_t)columns * rows);
    ASSERT_EQ(0, float_adm_map_loss(ctx, loss.data(), loss.size()));
    float_adm_context_free(&ctx);

    std::vector<uint8_t> picture((size_t)3 * width * height, 0xFF);
    ASSERT_EQ(0, float_adm_map_render_rgb24(loss.data(), columns, rows, picture.data(), width,
                                            height, 3 * width));
    for (size_t k = 0; k < picture.size(); k++)
        ASSERT_EQ(0, picture[k]) << "byte " << k;
}

TEST(MapRender, RefusesWhatItCannotPaint)
{
    const float loss[6] = {};
    uint8_t picture[3 * 70 * 40];
    const int width = 70, height = 40;
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(nullptr, 3, 2, picture, width, height, 3 * width));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, 2, nullptr, width, height, 3 * width));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 0, 2, picture, width, height, 3 * width));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, -1, picture, width, height, 3 * width));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, 2, picture, 0, height, 0));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, 2, picture, width, 0, 3 * width));
    /* A grid that is not the picture's: one column short, or one too many. */
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 2, 2, picture, width, height, 3 * width));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, 1, picture, width, height, 3 * width));
    /* A stride short of a row, or going up. */
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 2, 2, picture, 64, height, 3 * 64 - 1));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_render_rgb24(loss, 3, 2, picture, width, height, -3 * width));
    EXPECT_EQ(0, float_adm_map_render_rgb24(loss, 3, 2, picture, width, height, 3 * width));
}

} // namespace
