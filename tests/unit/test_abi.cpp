/*
 * Unit tests: the _sized entry points refuse a structure of a size this library does
 * not know (a program built against a newer float_adm.h), saying so, and touch nothing.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "float_adm.h"

namespace {

/* FloatAdmOptions and FloatAdmScores as a later float_adm.h might make them. */
struct NewerOptions {
    FloatAdmOptions today;
    double appended;
};
struct NewerScores {
    FloatAdmScores today;
    double appended;
};

} // namespace

TEST(Abi, NewerOptionsAreRefusedWithAMessage)
{
    NewerOptions opts;
    std::memset(&opts, 0x5a, sizeof(opts));
    const NewerOptions before = opts;
    EXPECT_EQ(float_adm_options_default_sized(&opts.today, sizeof(opts)), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(std::memcmp(&opts, &before, sizeof(opts)), 0);

    float_adm_options_default(&opts.today);
    char err[256] = "";
    FloatAdmContext *ctx = nullptr;
    EXPECT_EQ(float_adm_context_create_sized(&ctx, 64, 48, 8, &opts.today, sizeof(opts), err,
                                             sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(ctx, nullptr);
    const std::string expected = "FloatAdmOptions of " + std::to_string(sizeof(opts)) +
                                 " bytes: libfloatadm " + float_adm_version() + " knows " +
                                 std::to_string(sizeof(FloatAdmOptions)) + "-byte ones only";
    EXPECT_EQ(std::string(err).rfind(expected, 0), 0u) << err;
    EXPECT_NE(std::string(err).find("a newer float_adm.h"), std::string::npos) << err;
    EXPECT_EQ(float_adm_option_set_sized(&opts.today, sizeof(opts), "egl", "1.2", err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    double value = 0;
    EXPECT_EQ(float_adm_option_get_sized(&opts.today, sizeof(opts), "egl", &value),
              FLOAT_ADM_ERROR_INVALID);
    /* Today's size, through the header's macros, works. */
    EXPECT_EQ(float_adm_option_set(&opts.today, "egl", "1.2", err, sizeof(err)), 0) << err;
    EXPECT_EQ(float_adm_option_get(&opts.today, "egl", &value), 0);
    EXPECT_EQ(value, 1.2);
}

TEST(Abi, NewerScoresAreRefused)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    char err[256] = "";
    FloatAdmContext *ctx = nullptr;
    ASSERT_EQ(float_adm_context_create(&ctx, 32, 32, 8, &opts, err, sizeof(err)), 0) << err;
    static uint8_t pixels[32 * 32];
    const FloatAdmPlane plane = {pixels, 32, 1, 0};
    NewerScores scores;
    std::memset(&scores, 0x5a, sizeof(scores));
    const NewerScores before = scores;
    EXPECT_EQ(float_adm_score_frame_sized(ctx, &plane, &plane, &scores.today, sizeof(scores)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(std::memcmp(&scores, &before, sizeof(scores)), 0);
    EXPECT_TRUE(std::isnan(float_adm_output_value_sized(&scores.today, sizeof(scores), 0)));
    EXPECT_EQ(float_adm_output_set_value_sized(&scores.today, sizeof(scores), 0, 1.0),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(ctx, &plane, &plane, &scores.today), 0);
    EXPECT_EQ(float_adm_output_value(&scores.today, 0), 1.0); /* identical pictures */
    float_adm_context_free(&ctx);
}
