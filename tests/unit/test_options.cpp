/*
 * Unit tests: the option table (names, aliases, defaults, ranges) and setting
 * options by text and by number.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "float_adm.h"

namespace {

struct ExpectedOption {
    const char *name, *alias;
    FloatAdmOptionType type;
    double default_value, min, max;
};

/* libvmaf float_adm's table (libvmaf 3.2.0), plus -1 accepted for adm_skip_aim_scale. */
const ExpectedOption kLibvmafOptions[] = {
    {"debug", nullptr, FLOAT_ADM_OPT_BOOL, 0, 0, 1},
    {"adm_enhn_gain_limit", "egl", FLOAT_ADM_OPT_DOUBLE, 100.0, 1.0, 100.0},
    {"adm_norm_view_dist", "nvd", FLOAT_ADM_OPT_DOUBLE, 3.0, 0.75, 24.0},
    {"adm_noise_weight", "nw", FLOAT_ADM_OPT_DOUBLE, 0.03125, 0.0, 1500.0},
    {"adm_csf_scale", "scf", FLOAT_ADM_OPT_DOUBLE, 1.0, 0.0, 50.0},
    {"adm_csf_diag_scale", "scfd", FLOAT_ADM_OPT_DOUBLE, 1.0, 0.0, 50.0},
    {"adm_ref_display_height", "rdf", FLOAT_ADM_OPT_INT, 1080, 1, 4320},
    {"adm_csf_mode", "csf", FLOAT_ADM_OPT_INT, 0, 0, 9},
    {"adm_bypass_cm", "bcm", FLOAT_ADM_OPT_INT, 0, 0, 1},
    {"adm_adm3_apply_hm", "aah", FLOAT_ADM_OPT_BOOL, 0, 0, 1},
    {"adm_p_norm", "apn", FLOAT_ADM_OPT_DOUBLE, 3.0, 1.0, 20.0},
    {"adm_dlm_weight", "dlmw", FLOAT_ADM_OPT_DOUBLE, 0.5, 0.0, 1.0},
    {"adm_min_val", "min", FLOAT_ADM_OPT_DOUBLE, 0.0, 0.0, 1.0},
    {"adm_f1s0", "f1s0", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f1s1", "f1s1", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f1s2", "f1s2", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f1s3", "f1s3", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f2s0", "f2s0", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f2s1", "f2s1", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f2s2", "f2s2", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_f2s3", "f2s3", FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0},
    {"adm_skip_aim_scale", "sasc", FLOAT_ADM_OPT_INT, -1, -1, 3},
    {"adm_skip_scale0", "ssz", FLOAT_ADM_OPT_BOOL, 0, 0, 1},
};
constexpr int kNumExpected = sizeof(kLibvmafOptions) / sizeof(kLibvmafOptions[0]);

FloatAdmOptions defaults()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    return opts;
}

/* A value inside the range that differs from the default. */
double other_value(const ExpectedOption &e)
{
    if (e.type == FLOAT_ADM_OPT_DOUBLE)
        return e.default_value == e.max ? e.min : e.max;
    return e.default_value == e.max ? e.min : e.default_value + 1;
}

TEST(Options, TableIsLibvmafs)
{
    ASSERT_EQ(float_adm_option_count(), kNumExpected);
    for (int i = 0; i < kNumExpected; i++) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        const ExpectedOption &e = kLibvmafOptions[i];
        ASSERT_NE(info, nullptr);
        EXPECT_STREQ(info->name, e.name);
        if (e.alias)
            EXPECT_STREQ(info->alias, e.alias) << e.name;
        else
            EXPECT_EQ(info->alias, nullptr) << e.name;
        EXPECT_EQ(info->type, e.type) << e.name;
        EXPECT_EQ(info->default_value, e.default_value) << e.name;
        EXPECT_EQ(info->min, e.min) << e.name;
        EXPECT_EQ(info->max, e.max) << e.name;
        EXPECT_NE(info->help, nullptr) << e.name;
    }
    EXPECT_EQ(float_adm_option_info(-1), nullptr);
    EXPECT_EQ(float_adm_option_info(kNumExpected), nullptr);
}

TEST(Options, DefaultsFillTheStruct)
{
    FloatAdmOptions opts = defaults();
    EXPECT_EQ(opts.debug, 0);
    EXPECT_EQ(opts.enhn_gain_limit, 100.0);
    EXPECT_EQ(opts.norm_view_dist, 3.0);
    EXPECT_EQ(opts.ref_display_height, 1080);
    EXPECT_EQ(opts.noise_weight, 0.03125);
    EXPECT_EQ(opts.csf_mode, 0);
    EXPECT_EQ(opts.csf_scale, 1.0);
    EXPECT_EQ(opts.csf_diag_scale, 1.0);
    EXPECT_EQ(opts.bypass_cm, 0);
    EXPECT_EQ(opts.p_norm, 3.0);
    EXPECT_EQ(opts.adm3_apply_hm, 0);
    EXPECT_EQ(opts.dlm_weight, 0.5);
    EXPECT_EQ(opts.min_val, 0.0);
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(opts.f1s[s], -1.0);
        EXPECT_EQ(opts.f2s[s], -1.0);
    }
    EXPECT_EQ(opts.skip_aim_scale, -1);
    EXPECT_EQ(opts.skip_scale0, 0);
    char err[256] = "";
    EXPECT_EQ(float_adm_options_validate(&opts, err, sizeof(err)), 0) << err;
}

TEST(Options, EveryNameAndAliasSetsAndReadsItsField)
{
    for (const ExpectedOption &e : kLibvmafOptions) {
        for (const char *key : {e.name, e.alias}) {
            if (!key)
                continue;
            FloatAdmOptions opts = defaults();
            double value = NAN;
            ASSERT_EQ(float_adm_option_get(&opts, key, &value), 0) << key;
            EXPECT_EQ(value, e.default_value) << key;
            char err[256] = "";
            const double wanted = other_value(e);
            ASSERT_EQ(float_adm_option_set_double(&opts, key, wanted, err, sizeof(err)), 0)
                << key << ": " << err;
            ASSERT_EQ(float_adm_option_get(&opts, e.name, &value), 0);
            EXPECT_EQ(value, wanted) << key;
            /* By text, with the same result. */
            FloatAdmOptions by_text = defaults();
            const std::string text = std::to_string(wanted);
            const char *as_text = e.type == FLOAT_ADM_OPT_BOOL ? (wanted ? "true" : "false")
                                                                : text.c_str();
            ASSERT_EQ(float_adm_option_set(&by_text, key, as_text, err, sizeof(err)), 0)
                << key << "=" << as_text << ": " << err;
            ASSERT_EQ(float_adm_option_get(&by_text, e.alias ? e.alias : e.name, &value), 0);
            EXPECT_EQ(value, wanted) << key;
        }
    }
}

TEST(Options, FieldsMatchTheirNames)
{
    FloatAdmOptions opts = defaults();
    char err[256];
    ASSERT_EQ(float_adm_option_set(&opts, "egl", "1.2", err, sizeof(err)), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "adm_ref_display_height", "2160", err, sizeof(err)), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "f2s3", "0.25", err, sizeof(err)), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "sasc", "2", err, sizeof(err)), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "ssz", "1", err, sizeof(err)), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "debug", "true", err, sizeof(err)), 0);
    EXPECT_EQ(opts.enhn_gain_limit, 1.2);
    EXPECT_EQ(opts.ref_display_height, 2160);
    EXPECT_EQ(opts.f2s[3], 0.25);
    EXPECT_EQ(opts.f2s[2], -1.0);
    EXPECT_EQ(opts.skip_aim_scale, 2);
    EXPECT_EQ(opts.skip_scale0, 1);
    EXPECT_EQ(opts.debug, 1);
}

TEST(Options, OutOfRangeIsRejectedWithNameAndRange)
{
    for (const ExpectedOption &e : kLibvmafOptions) {
        for (double bad : {e.min - 1, e.max + 1}) {
            FloatAdmOptions opts = defaults();
            const FloatAdmOptions before = opts;
            char err[256] = "";
            EXPECT_EQ(float_adm_option_set_double(&opts, e.name, bad, err, sizeof(err)),
                      FLOAT_ADM_ERROR_RANGE)
                << e.name << " = " << bad;
            const std::string message = err;
            EXPECT_NE(message.find(e.name), std::string::npos) << message;
            char range[64];
            if (e.type == FLOAT_ADM_OPT_DOUBLE)
                snprintf(range, sizeof(range), "[%g, %g]", e.min, e.max);
            else
                snprintf(range, sizeof(range), "[%d, %d]", (int)e.min, (int)e.max);
            EXPECT_NE(message.find(range), std::string::npos) << message;
            /* A rejected value leaves the options as they were. */
            EXPECT_EQ(memcmp(&opts, &before, sizeof(opts)), 0) << e.name;
        }
    }
}

TEST(Options, OutOfRangeTextIsRejected)
{
    FloatAdmOptions opts = defaults();
    char err[256] = "";
    EXPECT_EQ(float_adm_option_set(&opts, "egl", "0.5", err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find("adm_enhn_gain_limit"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("[1, 100]"), std::string::npos) << err;
    EXPECT_EQ(float_adm_option_set(&opts, "nvd", "nan", err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_EQ(float_adm_option_set(&opts, "csf", "10", err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_EQ(float_adm_option_set(&opts, "sasc", "-2", err, sizeof(err)),
              FLOAT_ADM_ERROR_RANGE);
    EXPECT_EQ(float_adm_option_set(&opts, "ssz", "2", err, sizeof(err)), FLOAT_ADM_ERROR_INVALID);
}

/* A value just past a bound is shown as given, never rounded onto the bound
 * ("100 is out of range [1, 100]" would say nothing). */
TEST(Options, RefusedValuesAreShownAsGiven)
{
    FloatAdmOptions opts = defaults();
    char err[256] = "";
    EXPECT_EQ(float_adm_option_set(&opts, "egl", "100.00000000000001", err, sizeof(err)),
              FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find(": 100.00000000000001 is out of range [1, 100]"),
              std::string::npos)
        << err;
    EXPECT_EQ(float_adm_option_set(&opts, "egl", " 1e3", err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find(": 1e3 is out of range"), std::string::npos) << err;
    EXPECT_EQ(float_adm_option_set_double(&opts, "egl", 100.00000000000001, err, sizeof(err)),
              FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find(": 100.00000000000001 is out of range [1, 100]"),
              std::string::npos)
        << err;
    EXPECT_EQ(float_adm_option_set(&opts, "rdf", "1080.0000000000002", err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_NE(std::string(err).find(": 1080.0000000000002 is not an integer"), std::string::npos)
        << err;
    EXPECT_EQ(float_adm_option_set_double(&opts, "csf", 0.1, err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_NE(std::string(err).find(": 0.1 is not an integer"), std::string::npos) << err;
}

TEST(Options, UnknownNamesAreNotFound)
{
    FloatAdmOptions opts = defaults();
    char err[256] = "";
    EXPECT_EQ(float_adm_option_set(&opts, "adm_gain", "1", err, sizeof(err)),
              FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_NE(std::string(err).find("adm_gain"), std::string::npos) << err;
    EXPECT_EQ(float_adm_option_set_double(&opts, "EGL", 1, err, sizeof(err)),
              FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_EQ(float_adm_option_set(&opts, nullptr, "1", err, sizeof(err)),
              FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_EQ(float_adm_option_set(nullptr, "egl", "1", err, sizeof(err)),
              FLOAT_ADM_ERROR_NOT_FOUND);
    double value;
    EXPECT_EQ(float_adm_option_get(&opts, "nope", &value), FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_EQ(float_adm_option_get(&opts, "egl", nullptr), FLOAT_ADM_ERROR_NOT_FOUND);
}

TEST(Options, BadTextIsInvalid)
{
    FloatAdmOptions opts = defaults();
    char err[256] = "";
    for (const char *text : {"", "abc", "1.2x", " ", "1e999"}) {
        EXPECT_EQ(float_adm_option_set(&opts, "egl", text, err, sizeof(err)),
                  FLOAT_ADM_ERROR_INVALID)
            << "'" << text << "'";
        EXPECT_NE(std::string(err).find("adm_enhn_gain_limit"), std::string::npos) << err;
    }
    EXPECT_EQ(float_adm_option_set(&opts, "egl", nullptr, err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_option_set(&opts, "aah", "maybe", err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(opts.enhn_gain_limit, 100.0);
}

TEST(Options, BoolsTakeTrueFalseOneZero)
{
    FloatAdmOptions opts = defaults();
    char err[256] = "";
    const struct {
        const char *text;
        int value;
    } cases[] = {{"true", 1}, {"false", 0}, {"1", 1}, {"0", 0}};
    for (const char *name : {"debug", "aah", "ssz"})
        for (const auto &c : cases) {
            ASSERT_EQ(float_adm_option_set(&opts, name, c.text, err, sizeof(err)), 0)
                << name << "=" << c.text << ": " << err;
            double value;
            ASSERT_EQ(float_adm_option_get(&opts, name, &value), 0);
            EXPECT_EQ(value, c.value) << name << "=" << c.text;
        }
}

TEST(Options, IntsRejectFractions)
{
    const FloatAdmOptions untouched = defaults();
    FloatAdmOptions opts = untouched;
    char err[256] = "";
    /* Fractions inside each range: the integer check, not the range, refuses them. */
    const struct {
        const char *name, *text;
        double value;
    } cases[] = {{"adm_ref_display_height", "1080.5", 1080.5}, {"csf", "1.5", 1.5},
                 {"bcm", "0.5", 0.5}, {"sasc", "1.5", 1.5}};
    for (const auto &c : cases) {
        EXPECT_EQ(float_adm_option_set(&opts, c.name, c.text, err, sizeof(err)),
                  FLOAT_ADM_ERROR_INVALID)
            << c.name;
        EXPECT_NE(std::string(err).find("not an integer"), std::string::npos) << err;
        EXPECT_EQ(float_adm_option_set_double(&opts, c.name, c.value, err, sizeof(err)),
                  FLOAT_ADM_ERROR_INVALID)
            << c.name;
    }
    EXPECT_EQ(memcmp(&opts, &untouched, sizeof(opts)), 0);
    EXPECT_EQ(float_adm_option_set(&opts, "rdf", "2160.0", err, sizeof(err)), 0) << err;
    EXPECT_EQ(opts.ref_display_height, 2160);
}

TEST(Options, ValidateChecksEveryField)
{
    char err[256] = "";
    FloatAdmOptions opts = defaults();
    opts.p_norm = 0.5;
    EXPECT_EQ(float_adm_options_validate(&opts, err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find("adm_p_norm"), std::string::npos) << err;
    opts = defaults();
    opts.f1s[2] = 11;
    EXPECT_EQ(float_adm_options_validate(&opts, err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(err).find("adm_f1s2"), std::string::npos) << err;
    opts = defaults();
    opts.skip_scale0 = 2;
    EXPECT_EQ(float_adm_options_validate(&opts, err, sizeof(err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_EQ(float_adm_options_validate(nullptr, err, sizeof(err)), FLOAT_ADM_ERROR_INVALID);
    /* A NULL error buffer is allowed. */
    EXPECT_EQ(float_adm_options_validate(&opts, nullptr, 0), FLOAT_ADM_ERROR_RANGE);
}

} // namespace
