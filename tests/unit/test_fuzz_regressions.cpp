/*
 * Unit tests: the C API invariants fuzz/fuzz_c_api.cpp checks, pinned on the
 * inputs that reach them (degenerate strides, raw option structs, short error
 * buffers, a failing executor, non-finite option numbers).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "float_adm.h"

namespace {

const int kWidth = 33;
const int kHeight = 21;

struct DefaultContext {
    FloatAdmContext *ctx = nullptr;
    DefaultContext()
    {
        FloatAdmOptions opts;
        float_adm_options_default(&opts);
        EXPECT_EQ(float_adm_context_create(&ctx, kWidth, kHeight, 8, &opts, nullptr, 0), 0);
    }
    ~DefaultContext() { float_adm_context_free(&ctx); }
};

std::vector<uint8_t> ramp(size_t size, int step)
{
    std::vector<uint8_t> v(size);
    for (size_t i = 0; i < size; ++i)
        v[i] = (uint8_t)(i * step + (i * i) % 7);
    return v;
}

bool same_bits(const FloatAdmScores &a, const FloatAdmScores &b)
{
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

/* Stride 0 repeats one row: the same frame as that row copied down. */
TEST(FuzzRegression, ZeroStrideIsOneRowRepeated)
{
    DefaultContext c;
    const std::vector<uint8_t> ref_row = ramp(kWidth, 3), dist_row = ramp(kWidth, 5);
    std::vector<uint8_t> ref(kWidth * kHeight), dist(kWidth * kHeight);
    for (int y = 0; y < kHeight; ++y) {
        std::memcpy(&ref[y * kWidth], ref_row.data(), kWidth);
        std::memcpy(&dist[y * kWidth], dist_row.data(), kWidth);
    }
    FloatAdmScores repeated, copied;
    const FloatAdmPlane r0{ref_row.data(), 0, 1, 0}, d0{dist_row.data(), 0, 1, 0};
    const FloatAdmPlane r{ref.data(), kWidth, 1, 0}, d{dist.data(), kWidth, 1, 0};
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r0, &d0, &repeated), 0);
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r, &d, &copied), 0);
    EXPECT_TRUE(same_bits(repeated, copied));
}

/* Rows closer than a row's length overlap; the buffer holds exactly what
 * they span (ASan in check-sanitize sees a read past it), and a second call
 * gives the same bits. */
TEST(FuzzRegression, OverlappingRowsReadOnlyWhatTheySpan)
{
    DefaultContext c;
    const ptrdiff_t stride = 4;
    const size_t span = (size_t)(kHeight - 1) * stride + kWidth;
    const std::vector<uint8_t> ref = ramp(span, 3), dist = ramp(span, 7);
    const FloatAdmPlane r{ref.data(), stride, 1, 0}, d{dist.data(), stride, 1, 0};
    const FloatAdmPlane r_up{ref.data() + span - kWidth, -stride, 1, 0};
    FloatAdmScores first, second, upwards;
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r, &d, &first), 0);
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r, &d, &second), 0);
    EXPECT_TRUE(same_bits(first, second));
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r_up, &d, &upwards), 0);
}

/* A struct of garbage is caught by validation, and create leaves no context. */
TEST(FuzzRegression, GarbageOptionsStructIsRefused)
{
    for (const uint8_t fill : {0x00, 0x7f, 0xa5, 0xff}) {
        FloatAdmOptions opts;
        std::memset(&opts, fill, sizeof(opts));
        char err[256] = "";
        FloatAdmContext *ctx = reinterpret_cast<FloatAdmContext *>(&opts);
        const int ret = float_adm_context_create(&ctx, kWidth, kHeight, 8, &opts, err, sizeof(err));
        EXPECT_LT(ret, 0) << "fill " << (int)fill;
        EXPECT_EQ(ctx, nullptr);
        EXPECT_NE(err[0], '\0');
    }
}

/* Non-finite numbers never get into an option, whatever its type. */
TEST(FuzzRegression, NonFiniteNumbersAreOutOfRange)
{
    for (int i = 0; i < float_adm_option_count(); ++i) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        for (const double value : {NAN, -NAN, INFINITY, -INFINITY}) {
            FloatAdmOptions opts;
            float_adm_options_default(&opts);
            EXPECT_EQ(float_adm_option_set_double(&opts, info->name, value, nullptr, 0),
                      FLOAT_ADM_ERROR_RANGE)
                << info->name << " = " << value;
            EXPECT_EQ(float_adm_options_validate(&opts, nullptr, 0), 0);
        }
    }
}

/* Error buffers of 0, 1 and 2 bytes: nothing past them, always terminated. */
TEST(FuzzRegression, ShortErrorBuffersStayTerminated)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    for (const size_t size : {1u, 2u}) {
        std::vector<char> err(size, 'x');
        FloatAdmContext *ctx = nullptr;
        EXPECT_LT(float_adm_context_create(&ctx, 16, 16, 8, &opts, err.data(), err.size()), 0);
        EXPECT_EQ(err[size - 1], '\0');
        EXPECT_LT(float_adm_option_set(&opts, "egl", "0", err.data(), err.size()), 0);
        EXPECT_EQ(err[size - 1], '\0');
    }
    FloatAdmContext *ctx = nullptr;
    EXPECT_LT(float_adm_context_create(&ctx, 16, 16, 8, &opts, nullptr, 0), 0);
}

int failing_executor(void *, FloatAdmJobFn, void *, int)
{
    return FLOAT_ADM_ERROR_NOMEM;
}

/* An executor's error is the frame's error; the context scores on after it. */
TEST(FuzzRegression, ExecutorErrorsReachTheCaller)
{
    DefaultContext c;
    const std::vector<uint8_t> ref = ramp(kWidth * kHeight, 3), dist = ramp(kWidth * kHeight, 5);
    const FloatAdmPlane r{ref.data(), kWidth, 1, 0}, d{dist.data(), kWidth, 1, 0};
    FloatAdmScores serial, after;
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r, &d, &serial), 0);
    ASSERT_EQ(float_adm_set_executor(c.ctx, failing_executor, nullptr, 4), 0);
    FloatAdmScores scores;
    EXPECT_EQ(float_adm_score_frame(c.ctx, &r, &d, &scores), FLOAT_ADM_ERROR_NOMEM);
    ASSERT_EQ(float_adm_set_executor(c.ctx, nullptr, nullptr, 0), 0);
    ASSERT_EQ(float_adm_score_frame(c.ctx, &r, &d, &after), 0);
    EXPECT_TRUE(same_bits(serial, after));
}

} // namespace
