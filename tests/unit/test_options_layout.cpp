/*
 * Unit tests: FloatAdmOptions keeps libfloatadm 1.0's layout (the ABI that FFmpeg
 * builds and Python's ctypes copy rely on), however its members are written out from
 * the option table; and each option name writes the member that layout gives it.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "float_adm.h"

namespace {

/* Each member: its type, its offset and the struct's size on x86-64 (LP64), as
 * libfloatadm 1.0 laid them out. */
#define MEMBER_AT(member, type, offset)                                                            \
    static_assert(std::is_same<decltype(FloatAdmOptions::member), type>::value,                    \
                  #member ": its type is not libfloatadm 1.0's");                                  \
    static_assert(offsetof(FloatAdmOptions, member) == (offset),                                   \
                  #member ": its offset is not libfloatadm 1.0's");
MEMBER_AT(debug, int, 0)
MEMBER_AT(enhn_gain_limit, double, 8)
MEMBER_AT(norm_view_dist, double, 16)
MEMBER_AT(ref_display_height, int, 24)
MEMBER_AT(noise_weight, double, 32)
MEMBER_AT(csf_mode, int, 40)
MEMBER_AT(csf_scale, double, 48)
MEMBER_AT(csf_diag_scale, double, 56)
MEMBER_AT(bypass_cm, int, 64)
MEMBER_AT(p_norm, double, 72)
MEMBER_AT(adm3_apply_hm, int, 80)
MEMBER_AT(dlm_weight, double, 88)
MEMBER_AT(min_val, double, 96)
MEMBER_AT(f1s, double[4], 104)
MEMBER_AT(f2s, double[4], 136)
MEMBER_AT(skip_aim_scale, int, 168)
MEMBER_AT(skip_scale0, int, 172)
#undef MEMBER_AT
static_assert(sizeof(FloatAdmOptions) == 176, "FloatAdmOptions: its size is not libfloatadm 1.0's");

} // namespace

/* Each option, set by name to a value in its range other than its default, lands in
 * the member the layout above gives it and nowhere else. */
TEST(OptionsLayout, EachNameWritesItsMember)
{
    struct NameMember {
        const char *name;
        size_t offset;
        bool is_double;
    };
    const NameMember names[] = {
        {"debug", offsetof(FloatAdmOptions, debug), false},
        {"adm_enhn_gain_limit", offsetof(FloatAdmOptions, enhn_gain_limit), true},
        {"adm_norm_view_dist", offsetof(FloatAdmOptions, norm_view_dist), true},
        {"adm_noise_weight", offsetof(FloatAdmOptions, noise_weight), true},
        {"adm_csf_scale", offsetof(FloatAdmOptions, csf_scale), true},
        {"adm_csf_diag_scale", offsetof(FloatAdmOptions, csf_diag_scale), true},
        {"adm_ref_display_height", offsetof(FloatAdmOptions, ref_display_height), false},
        {"adm_csf_mode", offsetof(FloatAdmOptions, csf_mode), false},
        {"adm_bypass_cm", offsetof(FloatAdmOptions, bypass_cm), false},
        {"adm_adm3_apply_hm", offsetof(FloatAdmOptions, adm3_apply_hm), false},
        {"adm_p_norm", offsetof(FloatAdmOptions, p_norm), true},
        {"adm_dlm_weight", offsetof(FloatAdmOptions, dlm_weight), true},
        {"adm_min_val", offsetof(FloatAdmOptions, min_val), true},
        {"adm_f1s0", offsetof(FloatAdmOptions, f1s) + 0 * sizeof(double), true},
        {"adm_f1s1", offsetof(FloatAdmOptions, f1s) + 1 * sizeof(double), true},
        {"adm_f1s2", offsetof(FloatAdmOptions, f1s) + 2 * sizeof(double), true},
        {"adm_f1s3", offsetof(FloatAdmOptions, f1s) + 3 * sizeof(double), true},
        {"adm_f2s0", offsetof(FloatAdmOptions, f2s) + 0 * sizeof(double), true},
        {"adm_f2s1", offsetof(FloatAdmOptions, f2s) + 1 * sizeof(double), true},
        {"adm_f2s2", offsetof(FloatAdmOptions, f2s) + 2 * sizeof(double), true},
        {"adm_f2s3", offsetof(FloatAdmOptions, f2s) + 3 * sizeof(double), true},
        {"adm_skip_aim_scale", offsetof(FloatAdmOptions, skip_aim_scale), false},
        {"adm_skip_scale0", offsetof(FloatAdmOptions, skip_scale0), false},
    };
    ASSERT_EQ(float_adm_option_count(), (int)(sizeof(names) / sizeof(names[0])));
    for (const NameMember &n : names) {
        SCOPED_TRACE(n.name);
        FloatAdmOptions defaults, opts;
        float_adm_options_default(&defaults);
        memcpy(&opts, &defaults, sizeof(opts)); // the padding too
        double value;
        ASSERT_EQ(float_adm_option_get(&opts, n.name, &value), 0);
        value = value == 1 ? 0 : 1; // in every option's range
        char err[256];
        ASSERT_EQ(float_adm_option_set_double(&opts, n.name, value, err, sizeof(err)), 0) << err;
        const unsigned char *set = (const unsigned char *)&opts;
        const unsigned char *old = (const unsigned char *)&defaults;
        if (n.is_double) {
            double member;
            memcpy(&member, set + n.offset, sizeof(member));
            EXPECT_EQ(member, value);
        } else {
            int member;
            memcpy(&member, set + n.offset, sizeof(member));
            EXPECT_EQ(member, (int)value);
        }
        size_t size = n.is_double ? sizeof(double) : sizeof(int);
        for (size_t i = 0; i < sizeof(FloatAdmOptions); ++i) {
            if (i < n.offset || i >= n.offset + size) {
                EXPECT_EQ(set[i], old[i]) << "byte " << i << " changed too";
            }
        }
    }
}
