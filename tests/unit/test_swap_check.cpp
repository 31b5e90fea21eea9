/*
 * Tests of the check that the inputs may be the wrong way round
 * (float_adm_swap_check_*): a blurred encode given as the reference warns, the
 * right order does not, nor what a low-rate encode adds to smooth content, flat
 * frames are left out, and every layout reads alike.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "float_adm.h"

namespace {

constexpr int kWidth = 64, kHeight = 48;

/* A textured picture, its 3x3 box blur (an encode's lost detail), and a flat one. */
std::vector<uint8_t> textured(int seed)
{
    std::vector<uint8_t> picture(kWidth * kHeight);
    uint32_t state = 2463534242u + seed;
    for (auto &sample : picture) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        sample = static_cast<uint8_t>(64 + state % 128);
    }
    return picture;
}

std::vector<uint8_t> blurred(const std::vector<uint8_t> &picture)
{
    std::vector<uint8_t> out(picture.size());
    for (int y = 0; y < kHeight; y++)
        for (int x = 0; x < kWidth; x++) {
            int sum = 0, n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (y + dy >= 0 && y + dy < kHeight && x + dx >= 0 && x + dx < kWidth) {
                        sum += picture[(y + dy) * kWidth + x + dx];
                        n++;
                    }
            out[y * kWidth + x] = static_cast<uint8_t>(sum / n);
        }
    return out;
}

/* Smooth content: a ramp of 2 steps a sample across, 1 down (2.5 steps squared a
 * difference: not flat). */
std::vector<uint8_t> ramp()
{
    std::vector<uint8_t> picture(kWidth * kHeight);
    for (int y = 0; y < kHeight; y++)
        for (int x = 0; x < kWidth; x++)
            picture[y * kWidth + x] = static_cast<uint8_t>(30 + 2 * x + y);
    return picture;
}

/* picture plus noise of levels values around 0. */
std::vector<uint8_t> with_noise(const std::vector<uint8_t> &picture, int seed, int levels)
{
    std::vector<uint8_t> out(picture.size());
    uint32_t state = 88675123u + seed;
    for (size_t i = 0; i < picture.size(); i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        out[i] = static_cast<uint8_t>(picture[i] + static_cast<int>(state % levels) - levels / 2);
    }
    return out;
}

/* Squared neighbour differences: the detail the check compares over the pairs. */
double detail(const std::vector<uint8_t> &picture)
{
    double sum = 0;
    const auto add = [&](int a, int b) { sum += (a - b) * (a - b); };
    for (int y = 0; y < kHeight; y++)
        for (int x = 0; x < kWidth; x++) {
            if (x + 1 < kWidth)
                add(picture[y * kWidth + x + 1], picture[y * kWidth + x]);
            if (y + 1 < kHeight)
                add(picture[(y + 1) * kWidth + x], picture[y * kWidth + x]);
        }
    return sum;
}

FloatAdmPlane plane_of(const std::vector<uint8_t> &picture)
{
    return FloatAdmPlane{picture.data(), kWidth, 1, 0};
}

struct Check {
    FloatAdmSwapCheck *check = nullptr;
    explicit Check(int bit_depth = 8)
    {
        EXPECT_EQ(float_adm_swap_check_create(&check, kWidth, kHeight, bit_depth), 0);
    }
    ~Check() { float_adm_swap_check_free(&check); }
    int result(std::string *message = nullptr) const
    {
        char text[512] = "unset";
        const int ret = float_adm_swap_check_result(check, text, sizeof(text));
        if (message)
            *message = text;
        return ret;
    }
};

TEST(SwapCheck, EncodeAsReferenceWarnsAndSaysWhy)
{
    const auto source = textured(1), encode = blurred(source);
    Check check;
    FloatAdmPlane reference = plane_of(encode), distorted = plane_of(source);
    EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
    std::string message;
    EXPECT_EQ(check.result(&message), 1);
    EXPECT_NE(message.find("are the two swapped?"), std::string::npos) << message;
    EXPECT_NE(message.find("1 frame)"), std::string::npos) << message;
}

TEST(SwapCheck, RightOrderAndIdenticalPairsSayNothing)
{
    const auto source = textured(2), encode = blurred(source);
    for (const auto *distorted_picture : {&encode, &source}) {
        Check check;
        FloatAdmPlane reference = plane_of(source), distorted = plane_of(*distorted_picture);
        EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
        std::string message;
        EXPECT_EQ(check.result(&message), 0);
        EXPECT_EQ(message, "");
    }
}

/* A low-rate block codec keeps each 8x8 block of smooth content as its mean: the
 * steps at the block edges are many times the ramp's detail, none of it off the
 * block grid. */
TEST(SwapCheck, BlockEdgesOfAnEncodeOfSmoothContentSayNothing)
{
    const auto source = ramp();
    std::vector<uint8_t> encode(source.size());
    for (int y = 0; y < kHeight; y++)
        for (int x = 0; x < kWidth; x++) {
            int sum = 0;
            for (int dy = 0; dy < 8; dy++)
                for (int dx = 0; dx < 8; dx++)
                    sum += source[(y / 8 * 8 + dy) * kWidth + x / 8 * 8 + dx];
            encode[y * kWidth + x] = static_cast<uint8_t>(sum / 64);
        }
    ASSERT_GT(detail(encode), 5 * detail(source));
    Check check;
    FloatAdmPlane reference = plane_of(source), distorted = plane_of(encode);
    for (int i = 0; i < 7; i++)
        EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
    EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 1);
    std::string message;
    EXPECT_EQ(check.result(&message), 0);
    EXPECT_EQ(message, "");
}

/* Noise of one step on smooth content (an encode's rounding) is a fifth more detail
 * there, but below one step squared a difference: nothing is said. */
TEST(SwapCheck, FaintNoiseOnSmoothContentSaysNothing)
{
    const auto source = ramp();
    Check check;
    double source_detail = 0, encode_detail = 0;
    for (int i = 0; i < 8; i++) {
        const auto encode = with_noise(source, i, 2);
        source_detail += detail(source);
        encode_detail += detail(encode);
        FloatAdmPlane reference = plane_of(source), distorted = plane_of(encode);
        float_adm_swap_check_add(check.check, &reference, &distorted);
    }
    ASSERT_GT(encode_detail, 1.1 * source_detail);
    EXPECT_EQ(check.result(), 0);
}

/* An encoder's noise on smooth content grows from a clean key frame as the frames
 * after it drift; a swap, or noise added to every frame, shows in each pair. */
TEST(SwapCheck, EveryPairMustHoldMoreDetail)
{
    const auto source = ramp();
    for (bool clean_first : {true, false}) {
        Check check;
        double source_detail = 0, encode_detail = 0;
        for (int i = 0; i < 8; i++) {
            const auto encode = i == 0 && clean_first ? source : with_noise(source, i, 3);
            source_detail += detail(source);
            encode_detail += detail(encode);
            FloatAdmPlane reference = plane_of(source), distorted = plane_of(encode);
            float_adm_swap_check_add(check.check, &reference, &distorted);
        }
        ASSERT_GT(encode_detail, 1.3 * source_detail);
        EXPECT_EQ(check.result(), clean_first ? 0 : 1) << clean_first;
    }
}

/* A black reference under a noisy distorted (a fade from black) tells nothing;
 * without a frame to compare, nothing is said. */
TEST(SwapCheck, FlatReferenceFramesAreLeftOut)
{
    const std::vector<uint8_t> black(kWidth * kHeight, 16);
    const auto noise = textured(3);
    Check check;
    FloatAdmPlane reference = plane_of(black), distorted = plane_of(noise);
    for (int i = 0; i < 20; i++)
        EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
    EXPECT_EQ(check.result(), 0);
}

/* A reference that stays flat (a black lead-in) is not read for ever: after 64
 * pairs the verdict is on what was compared by then, here one swapped pair. */
TEST(SwapCheck, SixtyFourPairsAtMostAreLookedAt)
{
    const std::vector<uint8_t> black(kWidth * kHeight, 16);
    const auto source = textured(7), encode = blurred(source);
    Check check;
    FloatAdmPlane flat = plane_of(black), reference = plane_of(encode),
                  distorted = plane_of(source);
    EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
    for (int i = 1; i < 63; i++)
        EXPECT_EQ(float_adm_swap_check_add(check.check, &flat, &flat), 0) << i;
    EXPECT_EQ(float_adm_swap_check_add(check.check, &flat, &flat), 1);
    /* Later pairs are left out, however much they would say. */
    EXPECT_EQ(float_adm_swap_check_add(check.check, &distorted, &reference), 1);
    std::string message;
    EXPECT_EQ(check.result(&message), 1);
    EXPECT_NE(message.find("1 frame)"), std::string::npos) << message;
}

TEST(SwapCheck, EightPairsWithDetailGiveTheVerdict)
{
    const auto source = textured(4), encode = blurred(source);
    const std::vector<uint8_t> black(kWidth * kHeight, 16);
    Check check;
    FloatAdmPlane flat = plane_of(black), reference = plane_of(encode),
                  distorted = plane_of(source);
    EXPECT_EQ(float_adm_swap_check_add(check.check, &flat, &flat), 0);
    for (int i = 0; i < 7; i++)
        EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
    EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 1);
    /* Later pairs are left out: the right order now would not change the verdict. */
    EXPECT_EQ(float_adm_swap_check_add(check.check, &distorted, &reference), 1);
    std::string message;
    EXPECT_EQ(check.result(&message), 1);
    EXPECT_NE(message.find("8 frames"), std::string::npos) << message;
}

/* 10 bits in 16-bit words, planar or in P010's upper bits, read as the 8-bit
 * picture four times larger. */
TEST(SwapCheck, DeepAndShiftedSamplesReadAlike)
{
    const auto source = textured(5), encode = blurred(source);
    std::string eight_bit_message;
    {
        Check check;
        FloatAdmPlane reference = plane_of(encode), distorted = plane_of(source);
        float_adm_swap_check_add(check.check, &reference, &distorted);
        ASSERT_EQ(check.result(&eight_bit_message), 1);
    }
    for (int shift : {0, 6}) {
        std::vector<uint16_t> ref16(source.size()), dis16(source.size());
        for (size_t i = 0; i < source.size(); i++) {
            ref16[i] = static_cast<uint16_t>((encode[i] * 4) << shift);
            dis16[i] = static_cast<uint16_t>((source[i] * 4) << shift);
        }
        Check check(10);
        FloatAdmPlane reference{ref16.data(), kWidth * 2, 2, shift};
        FloatAdmPlane distorted{dis16.data(), kWidth * 2, 2, shift};
        EXPECT_EQ(float_adm_swap_check_add(check.check, &reference, &distorted), 0);
        std::string message;
        EXPECT_EQ(check.result(&message), 1);
        EXPECT_EQ(message, eight_bit_message) << "shift " << shift;
    }
}

/* Twice the samples, four times the squares: at every layout, and at widths that
 * leave the vector loop a remainder. */
TEST(SwapCheck, DetailIsTheSquaredNeighbourDifferences)
{
    for (int width : {17, 37, 64}) {
        for (int shift : {-1, 0, 6}) { /* -1: 8-bit */
            const int height = 19;
            std::vector<uint16_t> ref(width * height), dis(width * height);
            uint32_t state = 12345u + width;
            for (size_t i = 0; i < ref.size(); i++) {
                state = state * 1664525u + 1013904223u;
                ref[i] = static_cast<uint16_t>(state >> 25); /* 0..127 */
                dis[i] = static_cast<uint16_t>(2 * ref[i]);
            }
            std::vector<uint8_t> ref8(ref.begin(), ref.end()), dis8(dis.begin(), dis.end());
            for (size_t i = 0; shift >= 0 && i < ref.size(); i++) {
                ref[i] = static_cast<uint16_t>(ref[i] << shift);
                dis[i] = static_cast<uint16_t>(dis[i] << shift);
            }
            const bool deep = shift >= 0;
            FloatAdmSwapCheck *check = nullptr;
            ASSERT_EQ(float_adm_swap_check_create(&check, width, height, deep ? 10 : 8), 0);
            const FloatAdmPlane reference{deep ? static_cast<const void *>(ref.data())
                                               : ref8.data(),
                                          deep ? 2 * width : width, deep ? 2 : 1, deep ? shift : 0};
            const FloatAdmPlane distorted{deep ? static_cast<const void *>(dis.data())
                                               : dis8.data(),
                                          deep ? 2 * width : width, deep ? 2 : 1, deep ? shift : 0};
            EXPECT_EQ(float_adm_swap_check_add(check, &reference, &distorted), 0);
            char message[512];
            ASSERT_EQ(float_adm_swap_check_result(check, message, sizeof(message)), 1)
                << width << " shift " << shift;
            EXPECT_NE(std::string(message).find("has 4.00 times"), std::string::npos) << message;
            float_adm_swap_check_free(&check);
        }
    }
}

TEST(SwapCheck, BadArgumentsAreRefused)
{
    FloatAdmSwapCheck *check = nullptr;
    EXPECT_EQ(float_adm_swap_check_create(nullptr, kWidth, kHeight, 8), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_swap_check_create(&check, 1, kHeight, 8), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_swap_check_create(&check, kWidth, kHeight, 7), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(check, nullptr);
    ASSERT_EQ(float_adm_swap_check_create(&check, kWidth, kHeight, 8), 0);
    const auto picture = textured(6);
    FloatAdmPlane plane = plane_of(picture), no_data{nullptr, kWidth, 1, 0};
    FloatAdmPlane three_bytes{picture.data(), kWidth, 3, 0};
    EXPECT_EQ(float_adm_swap_check_add(check, &plane, &no_data), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_swap_check_add(check, &three_bytes, &plane), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_swap_check_add(check, nullptr, &plane), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_swap_check_result(nullptr, nullptr, 0), FLOAT_ADM_ERROR_INVALID);
    float_adm_swap_check_free(&check);
    EXPECT_EQ(check, nullptr);
    float_adm_swap_check_free(&check);
}

} // namespace
