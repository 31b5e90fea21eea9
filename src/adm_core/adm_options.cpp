/*
 * float_adm: the option table (libvmaf float_adm's names, aliases, defaults, ranges).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "adm_internal.h"

namespace {

struct OptionEntry {
    FloatAdmOptionInfo info;
    size_t offset;  /* of the int or double field in FloatAdmOptions */
};

#define OPT_FIELD(field) offsetof(FloatAdmOptions, field)

/* One row per option; the order is libvmaf's. */
const OptionEntry kOptions[] = {
    {{"debug", nullptr, "also report the 11 debug outputs", FLOAT_ADM_OPT_BOOL, 0, 0, 1},
     OPT_FIELD(debug)},
    {{"adm_enhn_gain_limit", "egl", "enhancement gain imposed on adm, >= 1 (1: no gain)",
      FLOAT_ADM_OPT_DOUBLE, 100.0, 1.0, 100.0}, OPT_FIELD(enhn_gain_limit)},
    {{"adm_norm_view_dist", "nvd", "viewing distance / reference display height",
      FLOAT_ADM_OPT_DOUBLE, 3.0, 0.75, 24.0}, OPT_FIELD(norm_view_dist)},
    {{"adm_noise_weight", "nw", "noise weight", FLOAT_ADM_OPT_DOUBLE, 0.03125, 0.0, 1500.0},
     OPT_FIELD(noise_weight)},
    {{"adm_csf_scale", "scf", "scale factor of the Barten CSF (h, v)", FLOAT_ADM_OPT_DOUBLE, 1.0,
      0.0, 50.0}, OPT_FIELD(csf_scale)},
    {{"adm_csf_diag_scale", "scfd", "scale factor of the Barten CSF (diagonal)",
      FLOAT_ADM_OPT_DOUBLE, 1.0, 0.0, 50.0}, OPT_FIELD(csf_diag_scale)},
    {{"adm_ref_display_height", "rdf", "reference display height in pixels", FLOAT_ADM_OPT_INT,
      1080, 1, 4320}, OPT_FIELD(ref_display_height)},
    {{"adm_csf_mode", "csf", "CSF: 0 Watson, 1 Barten, 2 DLM paper, others Watson",
      FLOAT_ADM_OPT_INT, 0, 0, 9}, OPT_FIELD(csf_mode)},
    {{"adm_bypass_cm", "bcm", "bypass contrast masking", FLOAT_ADM_OPT_INT, 0, 0, 1},
     OPT_FIELD(bypass_cm)},
    {{"adm_adm3_apply_hm", "aah", "combine DLM and AIM by harmonic mean", FLOAT_ADM_OPT_BOOL, 0,
      0, 1}, OPT_FIELD(adm3_apply_hm)},
    {{"adm_p_norm", "apn", "p-norm of the energy sums", FLOAT_ADM_OPT_DOUBLE, 3.0, 1.0, 20.0},
     OPT_FIELD(p_norm)},
    {{"adm_dlm_weight", "dlmw", "weight of DLM against AIM in adm3 (1: DLM only)",
      FLOAT_ADM_OPT_DOUBLE, 0.5, 0.0, 1.0}, OPT_FIELD(dlm_weight)},
    {{"adm_min_val", "min", "lower clip of adm3", FLOAT_ADM_OPT_DOUBLE, 0.0, 0.0, 1.0},
     OPT_FIELD(min_val)},
    {{"adm_f1s0", "f1s0", "CSF factor h/v of scale 0 (-1: from the CSF)", FLOAT_ADM_OPT_DOUBLE,
      -1.0, -1.0, 10.0}, OPT_FIELD(f1s[0])},
    {{"adm_f1s1", "f1s1", "CSF factor h/v of scale 1 (-1: from the CSF)", FLOAT_ADM_OPT_DOUBLE,
      -1.0, -1.0, 10.0}, OPT_FIELD(f1s[1])},
    {{"adm_f1s2", "f1s2", "CSF factor h/v of scale 2 (-1: from the CSF)", FLOAT_ADM_OPT_DOUBLE,
      -1.0, -1.0, 10.0}, OPT_FIELD(f1s[2])},
    {{"adm_f1s3", "f1s3", "CSF factor h/v of scale 3 (-1: from the CSF)", FLOAT_ADM_OPT_DOUBLE,
      -1.0, -1.0, 10.0}, OPT_FIELD(f1s[3])},
    {{"adm_f2s0", "f2s0", "CSF factor diagonal of scale 0 (-1: from the CSF)",
      FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0}, OPT_FIELD(f2s[0])},
    {{"adm_f2s1", "f2s1", "CSF factor diagonal of scale 1 (-1: from the CSF)",
      FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0}, OPT_FIELD(f2s[1])},
    {{"adm_f2s2", "f2s2", "CSF factor diagonal of scale 2 (-1: from the CSF)",
      FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0}, OPT_FIELD(f2s[2])},
    {{"adm_f2s3", "f2s3", "CSF factor diagonal of scale 3 (-1: from the CSF)",
      FLOAT_ADM_OPT_DOUBLE, -1.0, -1.0, 10.0}, OPT_FIELD(f2s[3])},
    /* libvmaf's range is [0, 3] with -1 (skip none) as the default; -1 is accepted too. */
    {{"adm_skip_aim_scale", "sasc", "leave this scale out of aim (-1: none)", FLOAT_ADM_OPT_INT,
      -1, -1, 3}, OPT_FIELD(skip_aim_scale)},
    {{"adm_skip_scale0", "ssz", "skip scale 0", FLOAT_ADM_OPT_BOOL, 0, 0, 1},
     OPT_FIELD(skip_scale0)},
};

constexpr int kNumOptions = (int)(sizeof(kOptions) / sizeof(kOptions[0]));

const OptionEntry *find_option(const char *name)
{
    if (!name)
        return nullptr;
    for (const OptionEntry &e : kOptions)
        if (!strcmp(e.info.name, name) || (e.info.alias && !strcmp(e.info.alias, name)))
            return &e;
    return nullptr;
}

double read_field(const FloatAdmOptions *opts, const OptionEntry &e)
{
    const char *base = reinterpret_cast<const char *>(opts) + e.offset;
    if (e.info.type == FLOAT_ADM_OPT_DOUBLE)
        return *reinterpret_cast<const double *>(base);
    return *reinterpret_cast<const int *>(base);
}

void write_field(FloatAdmOptions *opts, const OptionEntry &e, double value)
{
    char *base = reinterpret_cast<char *>(opts) + e.offset;
    if (e.info.type == FLOAT_ADM_OPT_DOUBLE)
        *reinterpret_cast<double *>(base) = value;
    else
        *reinterpret_cast<int *>(base) = (int)value;
}

int check_value(const OptionEntry &e, double value, char *errbuf, size_t errbuf_size)
{
    const FloatAdmOptionInfo &o = e.info;
    if (std::isnan(value) || value < o.min || value > o.max) {
        if (o.type == FLOAT_ADM_OPT_DOUBLE)
            adm::format_error(errbuf, errbuf_size, "option %s%s%s%s: %g is out of range [%g, %g]",
                              o.name, o.alias ? " (" : "", o.alias ? o.alias : "",
                              o.alias ? ")" : "", value, o.min, o.max);
        else
            adm::format_error(errbuf, errbuf_size, "option %s%s%s%s: %g is out of range [%d, %d]",
                              o.name, o.alias ? " (" : "", o.alias ? o.alias : "",
                              o.alias ? ")" : "", value, (int)o.min, (int)o.max);
        return FLOAT_ADM_ERROR_RANGE;
    }
    if (o.type != FLOAT_ADM_OPT_DOUBLE && value != std::floor(value)) {
        adm::format_error(errbuf, errbuf_size, "option %s: %g is not an integer", o.name, value);
        return FLOAT_ADM_ERROR_INVALID;
    }
    return 0;
}

/* Text to number: booleans take true/false/yes/no/1/0; ints and doubles strtod. */
bool parse_value(const OptionEntry &e, const char *text, double *value)
{
    if (!text || !*text)
        return false;
    if (e.info.type == FLOAT_ADM_OPT_BOOL) {
        static const char *const truths[] = {"true", "yes", "on", "1"};
        static const char *const lies[] = {"false", "no", "off", "0"};
        for (const char *t : truths)
            if (!strcmp(text, t)) {
                *value = 1;
                return true;
            }
        for (const char *f : lies)
            if (!strcmp(text, f)) {
                *value = 0;
                return true;
            }
        return false;
    }
    char *end = nullptr;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE)
        return false;
    *value = v;
    return true;
}

} // namespace

extern "C" {

void float_adm_options_default(FloatAdmOptions *opts)
{
    memset(opts, 0, sizeof(*opts));
    for (const OptionEntry &e : kOptions)
        write_field(opts, e, e.info.default_value);
}

int float_adm_option_count(void) { return kNumOptions; }

const FloatAdmOptionInfo *float_adm_option_info(int index)
{
    return index >= 0 && index < kNumOptions ? &kOptions[index].info : nullptr;
}

int float_adm_option_set_double(FloatAdmOptions *opts, const char *name, double value,
                                char *errbuf, size_t errbuf_size)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e) {
        adm::format_error(errbuf, errbuf_size, "unknown option '%s'", name ? name : "(null)");
        return FLOAT_ADM_ERROR_NOT_FOUND;
    }
    int ret = check_value(*e, value, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    write_field(opts, *e, value);
    return 0;
}

int float_adm_option_set(FloatAdmOptions *opts, const char *name, const char *value,
                         char *errbuf, size_t errbuf_size)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e) {
        adm::format_error(errbuf, errbuf_size, "unknown option '%s'", name ? name : "(null)");
        return FLOAT_ADM_ERROR_NOT_FOUND;
    }
    double v;
    if (!parse_value(*e, value, &v)) {
        adm::format_error(errbuf, errbuf_size, "option %s: '%s' is not a valid %s", e->info.name,
                          value ? value : "(null)",
                          e->info.type == FLOAT_ADM_OPT_BOOL  ? "boolean (true/false)"
                          : e->info.type == FLOAT_ADM_OPT_INT ? "integer"
                                                              : "number");
        return FLOAT_ADM_ERROR_INVALID;
    }
    return float_adm_option_set_double(opts, e->info.name, v, errbuf, errbuf_size);
}

int float_adm_option_get(const FloatAdmOptions *opts, const char *name, double *value)
{
    const OptionEntry *e = find_option(name);
    if (!opts || !e || !value)
        return FLOAT_ADM_ERROR_NOT_FOUND;
    *value = read_field(opts, *e);
    return 0;
}

int float_adm_options_validate(const FloatAdmOptions *opts, char *errbuf, size_t errbuf_size)
{
    if (!opts) {
        adm::format_error(errbuf, errbuf_size, "no options given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    for (const OptionEntry &e : kOptions) {
        int ret = check_value(e, read_field(opts, e), errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    return 0;
}

} // extern "C"
