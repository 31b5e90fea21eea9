/*
 * Unit tests: the CSF weights of each scale for every adm_csf_mode and the
 * adm_f1s / adm_f2s overrides.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include "adm_csf.h"

namespace {

FloatAdmOptions options_with_mode(int csf_mode)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.csf_mode = csf_mode;
    return opts;
}

/* libvmaf's default Watson factors (1 / Q), verified by the golden corpus. */
const float kWatsonHv[4] = {0x1.1cc774p-6f, 0x1.06050cp-5f, 0x1.634f1p-5f, 0x1.762816p-5f};
const float kWatsonD[4] = {0x1.820d54p-8f, 0x1.d48d46p-7f, 0x1.8fb80cp-6f, 0x1.008392p-5f};

TEST(CsfWatson, DefaultWeightsAreLibvmafs)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfWatson);
    for (int s = 0; s < 4; s++) {
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_EQ(w.hv, kWatsonHv[s]) << "scale " << s;
        EXPECT_EQ(w.d, kWatsonD[s]) << "scale " << s;
    }
}

TEST(CsfWatson, UsesThetaOneForHvAndTwoForDiagonal)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfWatson);
    for (int s = 0; s < 4; s++) {
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_EQ(w.hv, adm::watson_weight(s, 1, 3.0, 1080));
        EXPECT_EQ(w.d, adm::watson_weight(s, 2, 3.0, 1080));
    }
}

TEST(CsfWatson, CoarserScalesWeighMoreAndDiagonalLess)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfWatson);
    for (int s = 0; s < 4; s++) {
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_LT(w.d, w.hv) << "scale " << s;
        if (s < 3) {
            adm::CsfWeights next = adm::csf_weights(opts, s + 1);
            EXPECT_LT(w.hv, next.hv) << "scale " << s;
            EXPECT_LT(w.d, next.d) << "scale " << s;
        }
    }
}

TEST(CsfWatson, FartherViewingLowersTheFinestWeight)
{
    FloatAdmOptions near = options_with_mode(adm::kCsfWatson);
    FloatAdmOptions far = near;
    far.norm_view_dist = 6.0;
    EXPECT_LT(adm::csf_weights(far, 0).hv, adm::csf_weights(near, 0).hv);
    /* nvd and the display height enter only as their product. */
    FloatAdmOptions tall = near;
    tall.ref_display_height = 2160;
    for (int s = 0; s < 4; s++)
        EXPECT_EQ(adm::csf_weights(far, s).hv, adm::csf_weights(tall, s).hv) << "scale " << s;
}

TEST(CsfModes, UnknownModesFallBackToWatson)
{
    FloatAdmOptions watson = options_with_mode(adm::kCsfWatson);
    for (int mode : {3, 4, 5, 9}) {
        FloatAdmOptions opts = options_with_mode(mode);
        for (int s = 0; s < 4; s++) {
            EXPECT_EQ(adm::csf_weights(opts, s).hv, adm::csf_weights(watson, s).hv);
            EXPECT_EQ(adm::csf_weights(opts, s).d, adm::csf_weights(watson, s).d);
        }
    }
}

TEST(CsfBarten, WeightsAndScaleFactors)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfBarten);
    const float expected[4] = {0x1.35e31ap+0f, 0x1.42b3c6p+2f, 0x1.d410eap+3f, 0x1.af9d36p+4f};
    for (int s = 0; s < 4; s++) {
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_EQ(w.hv, expected[s]) << "scale " << s;
        /* Equal scale factors: no oblique effect in Barten. */
        EXPECT_EQ(w.d, w.hv) << "scale " << s;
        EXPECT_EQ(w.hv, adm::barten_weight(s, 3.0, 1080, 1.0));
        if (s < 3) {
            EXPECT_LT(w.hv, adm::csf_weights(opts, s + 1).hv);
        }
    }
    /* adm_csf_scale scales h/v, adm_csf_diag_scale the diagonal; doubling is exact. */
    FloatAdmOptions scaled = opts;
    scaled.csf_scale = 2.0;
    scaled.csf_diag_scale = 0.0;
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(adm::csf_weights(scaled, s).hv, 2.0f * expected[s]) << "scale " << s;
        EXPECT_EQ(adm::csf_weights(scaled, s).d, 0.0f) << "scale " << s;
    }
}

TEST(CsfBarten, ScaleFactorsAreIgnoredByOtherModes)
{
    for (int mode : {adm::kCsfWatson, adm::kCsfDlmPaper}) {
        FloatAdmOptions opts = options_with_mode(mode);
        FloatAdmOptions scaled = opts;
        scaled.csf_scale = 5.0;
        scaled.csf_diag_scale = 7.0;
        for (int s = 0; s < 4; s++) {
            EXPECT_EQ(adm::csf_weights(scaled, s).hv, adm::csf_weights(opts, s).hv);
            EXPECT_EQ(adm::csf_weights(scaled, s).d, adm::csf_weights(opts, s).d);
        }
    }
}

TEST(CsfDlmPaper, WeightsAndObliqueEffect)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfDlmPaper);
    const float hv[4] = {0x1.64e63ap-8f, 0x1.55ad9ep-3f, 0x1.55f234p-1f, 0x1.f8f7acp-1f};
    const float d[4] = {0x1.e381b4p-13f, 0x1.4dc9d8p-5f, 0x1.8e8f96p-2f, 0x1.c13552p-1f};
    for (int s = 0; s < 4; s++) {
        adm::CsfWeights w = adm::csf_weights(opts, s);
        EXPECT_EQ(w.hv, hv[s]) << "scale " << s;
        EXPECT_EQ(w.d, d[s]) << "scale " << s;
        EXPECT_LT(w.d, w.hv) << "scale " << s;
        EXPECT_EQ(w.hv, adm::dlm_paper_weight(s, 3.0, 1080, false));
        EXPECT_EQ(w.d, adm::dlm_paper_weight(s, 3.0, 1080, true));
    }
}

TEST(CsfOverrides, F1sAndF2sReplaceOneScaleEach)
{
    for (int mode : {adm::kCsfWatson, adm::kCsfBarten, adm::kCsfDlmPaper}) {
        FloatAdmOptions plain = options_with_mode(mode);
        FloatAdmOptions opts = plain;
        opts.f1s[1] = 0.5;
        opts.f2s[3] = 0.0; /* 0 is an override too: only negative means "from the CSF" */
        for (int s = 0; s < 4; s++) {
            adm::CsfWeights w = adm::csf_weights(opts, s), base = adm::csf_weights(plain, s);
            EXPECT_EQ(w.hv, s == 1 ? 0.5f : base.hv) << "mode " << mode << " scale " << s;
            EXPECT_EQ(w.d, s == 3 ? 0.0f : base.d) << "mode " << mode << " scale " << s;
        }
    }
}

TEST(CsfOverrides, ValuesAreRoundedToFloat)
{
    FloatAdmOptions opts = options_with_mode(adm::kCsfWatson);
    opts.f1s[0] = 0.1;
    opts.f2s[0] = 10.0;
    EXPECT_EQ(adm::csf_weights(opts, 0).hv, 0.1f);
    EXPECT_EQ(adm::csf_weights(opts, 0).d, 10.0f);
}

} // namespace
