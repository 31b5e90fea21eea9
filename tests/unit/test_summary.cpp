/*
 * Tests of the library's pooling over frames (float_adm_summary_*) and of the
 * names it gives outputs (float_adm_output_feature_name, float_adm_output_parse_name).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "float_adm.h"

namespace {

struct Summary {
    FloatAdmSummary *s = nullptr;
    Summary() { EXPECT_EQ(float_adm_summary_create(&s), 0); }
    ~Summary() { float_adm_summary_free(&s); }
    FloatAdmPooled result() const
    {
        FloatAdmPooled r{};
        EXPECT_EQ(float_adm_summary_result(s, &r), 0);
        return r;
    }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

void expect_same(const FloatAdmPooled &a, const FloatAdmPooled &b)
{
    EXPECT_TRUE(same_bits(a.min, b.min));
    EXPECT_TRUE(same_bits(a.max, b.max));
    EXPECT_TRUE(same_bits(a.mean, b.mean));
    EXPECT_TRUE(same_bits(a.harmonic_mean, b.harmonic_mean));
}

} // namespace

TEST(Summary, LibvmafsPoolingInFrameOrder)
{
    const double values[] = {0.1, 0.2, 0.3};
    Summary s;
    ASSERT_EQ(float_adm_summary_add(s.s, values, 3), 0);
    const FloatAdmPooled r = s.result();
    EXPECT_EQ(float_adm_summary_count(s.s), 3u);
    EXPECT_EQ(r.min, 0.1);
    EXPECT_EQ(r.max, 0.3);
    EXPECT_TRUE(same_bits(r.mean, ((0.1 + 0.2) + 0.3) / 3));
    const double inv = (1.0 / 1.1 + 1.0 / 1.2) + 1.0 / 1.3;
    EXPECT_TRUE(same_bits(r.harmonic_mean, 3 / inv - 1.0));
}

TEST(Summary, EmptyHasNoResult)
{
    Summary s;
    FloatAdmPooled r;
    EXPECT_EQ(float_adm_summary_result(s.s, &r), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_summary_add(s.s, nullptr, 0), 0);
    EXPECT_EQ(float_adm_summary_add(s.s, nullptr, 1), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_summary_merge(s.s, s.s), FLOAT_ADM_ERROR_INVALID);
}

TEST(Summary, CDoublesForNanAndMinusOne)
{
    Summary s;
    const double values[] = {0.5, std::nan(""), 0.25};
    ASSERT_EQ(float_adm_summary_add(s.s, values, 3), 0);
    const FloatAdmPooled r = s.result();
    EXPECT_EQ(r.min, 0.25); /* NaN compares false */
    EXPECT_EQ(r.max, 0.5);
    EXPECT_TRUE(std::isnan(r.mean));
    Summary t;
    const double pole[] = {-1.0, 1.0};
    ASSERT_EQ(float_adm_summary_add(t.s, pole, 2), 0);
    EXPECT_EQ(t.result().harmonic_mean, -1.0); /* 1 / 0 is infinity */
}

TEST(Summary, MergedRunsEqualOneRunBitForBit)
{
    std::vector<double> values;
    for (int i = 0; i < 1000; i++)
        values.push_back(0.9 + 0.0001 * std::sin(i * 0.7) + 1e-17 * i);
    Summary whole, first, second;
    ASSERT_EQ(float_adm_summary_add(whole.s, values.data(), values.size()), 0);
    ASSERT_EQ(float_adm_summary_add(first.s, values.data(), 377), 0);
    ASSERT_EQ(float_adm_summary_add(second.s, values.data() + 377, values.size() - 377), 0);
    ASSERT_EQ(float_adm_summary_merge(first.s, second.s), 0);
    EXPECT_EQ(float_adm_summary_count(first.s), values.size());
    expect_same(first.result(), whole.result());
}

TEST(Summary, LogsPoolAsSummaries)
{
    FloatAdmLog *log = nullptr;
    ASSERT_EQ(float_adm_log_open(&log, nullptr, FLOAT_ADM_LOG_JSON, nullptr, 64, 64, nullptr, 0),
              0);
    Summary s;
    for (int i = 0; i < 50; i++) {
        FloatAdmScores scores{};
        scores.adm2 = 0.8 + i * 0.00123;
        ASSERT_EQ(float_adm_log_frame(log, i, &scores, nullptr, 0), 0);
        ASSERT_EQ(float_adm_summary_add(s.s, &scores.adm2, 1), 0);
    }
    FloatAdmPooled pooled;
    ASSERT_EQ(float_adm_log_pooled(log, 0, &pooled), 0);
    expect_same(pooled, s.result());
    float_adm_log_close(&log, nullptr, 0);
}

TEST(OutputNames, FeatureNamesAreTheLogs)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    ASSERT_EQ(float_adm_option_set(&opts, "csf", "1", nullptr, 0), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "egl", "1.2", nullptr, 0), 0);
    ASSERT_EQ(float_adm_option_set(&opts, "debug", "1", nullptr, 0), 0);
    FloatAdmLog *log = nullptr;
    ASSERT_EQ(float_adm_log_open(&log, nullptr, FLOAT_ADM_LOG_JSON, &opts, 64, 64, nullptr, 0), 0);
    char name[256];
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
        ASSERT_EQ(float_adm_output_feature_name(&opts, i, name, sizeof(name)), 0);
        EXPECT_STREQ(name, float_adm_log_output_name(log, i));
    }
    float_adm_log_close(&log, nullptr, 0);
    EXPECT_EQ(float_adm_output_feature_name(&opts, FLOAT_ADM_NUM_DEBUG_OUTPUTS, name, sizeof(name)),
              FLOAT_ADM_ERROR_INVALID);
}

TEST(OutputNames, ParsedBackToTheOutputAndItsOptions)
{
    EXPECT_EQ(float_adm_output_parse_name("adm2", nullptr), 0);
    EXPECT_EQ(float_adm_output_parse_name("adm_scale0_egl_1.2", nullptr), 3);
    EXPECT_EQ(float_adm_output_parse_name("adm_num_scale0", nullptr), 10);
    EXPECT_EQ(float_adm_output_parse_name("adm", nullptr), 7);
    EXPECT_EQ(float_adm_output_parse_name("vmaf", nullptr), FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_EQ(float_adm_output_parse_name("adm2x", nullptr), FLOAT_ADM_ERROR_NOT_FOUND);

    FloatAdmOptions opts;
    EXPECT_EQ(float_adm_output_parse_name("adm2_scfd_0.5_csf_1_scf_2", &opts), 0);
    EXPECT_EQ(opts.csf_diag_scale, 0.5);
    EXPECT_EQ(opts.csf_mode, 1);
    EXPECT_EQ(opts.csf_scale, 2.0);
    EXPECT_EQ(float_adm_output_parse_name("aim_aah_bcm_1_ssz", &opts), 1);
    EXPECT_EQ(opts.adm3_apply_hm, 1);
    EXPECT_EQ(opts.skip_scale0, 1);
    EXPECT_EQ(opts.bypass_cm, 1);
    EXPECT_EQ(opts.csf_mode, 0); /* the rest at their defaults */
    /* Out of libvmaf's order, or not its value format: no name it writes. */
    EXPECT_EQ(float_adm_output_parse_name("adm2_egl_1.2_csf_1", &opts), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_output_parse_name("adm2_egl_1.20", &opts), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_output_parse_name("adm2_xyz_1", &opts), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_output_parse_name("adm2_egl", &opts), FLOAT_ADM_ERROR_INVALID);
}

TEST(OutputNames, SetValueIsTheInverseOfValue)
{
    FloatAdmScores scores{};
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
        float_adm_output_set_value(&scores, i, 100.0 + i);
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
        EXPECT_EQ(float_adm_output_value(&scores, i), 100.0 + i);
    float_adm_output_set_value(&scores, FLOAT_ADM_NUM_DEBUG_OUTPUTS, 1.0); /* nothing */
}
