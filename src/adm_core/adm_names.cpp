/*
 * float_adm: the names libvmaf gives the outputs: the plain names, and the suffix
 * its feature names take for options that are not their defaults; and the names of
 * the kinds of pairs in doubt, which every face says and reads.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "adm_error_message.h"
#include "adm_names.h"
#include "float_adm.h"

namespace {

const char *const kOutputNames[FLOAT_ADM_NUM_DEBUG_OUTPUTS] = {
    "adm2",           "aim",
    "adm3",           "adm_scale0",
    "adm_scale1",     "adm_scale2",
    "adm_scale3",     "adm",
    "adm_num",        "adm_den",
    "adm_num_scale0", "adm_den_scale0",
    "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2",
    "adm_num_scale3", "adm_den_scale3",
};

/* Each kind of pair in doubt (enum FloatAdmPairDoubt): its name, and what it is and
 * what makes it. */
const char *const kPairDoubts[FLOAT_ADM_NUM_PAIR_DOUBTS][2] = {
    {"apart", "pairs more than half a frame apart (an input misses frames, starts later or "
              "has another frame rate)"},
    {"reference_repeated", "main (distorted) frames scored against a reference frame already "
                           "scored (the reference ended early or has a lower frame rate)"},
    {"main_repeated", "main (distorted) frames with the timestamp of a main frame already "
                      "scored (the main input's timestamps repeat)"},
    {"no_reference", "main (distorted) frames with no reference frame, not scored (the "
                     "reference starts later)"},
    {"reference_after_main", "reference frames after the main (distorted) input's last, not "
                             "scored (the main input ended early)"},
};

/* libvmaf's names are built in a 256-byte buffer (feature_name.c): longer ones are cut. */
const size_t kMaxNameLength = 255;

std::string printf_string(const char *format, double value, bool as_int)
{
    char text[64];
    if (as_int)
        std::snprintf(text, sizeof(text), format, static_cast<int>(value));
    else
        std::snprintf(text, sizeof(text), format, value);
    return text;
}

/*
 * What libvmaf appends to its feature names for these options
 * (vmaf_feature_name_from_options, libvmaf/src/feature/feature_name.c): each option
 * that differs from its default adds "_ALIAS_VALUE", a bool "_ALIAS" alone, an int's
 * value printed %d and a double's %g; the options go in strcmp order of their full
 * names, as libvmaf sorts its dictionary of them before writing the suffix.
 */
std::string option_suffix(const FloatAdmOptions &opts)
{
    std::vector<std::pair<std::string, std::string>> parts; /* full name, "_alias..." */
    for (int i = 0; i < float_adm_option_count(); i++) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        double value = 0.;
        /* libvmaf's debug is no feature parameter: it never changes a name. */
        if (!std::strcmp(info->name, "debug") ||
            float_adm_option_get(&opts, info->name, &value) < 0 || value == info->default_value)
            continue;
        std::string part = std::string("_") + (info->alias ? info->alias : info->name);
        if (info->type == FLOAT_ADM_OPT_INT)
            part += printf_string("_%d", value, true);
        else if (info->type == FLOAT_ADM_OPT_DOUBLE)
            part += printf_string("_%g", value, false);
        parts.emplace_back(info->name, part);
    }
    std::sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) {
        return std::strcmp(a.first.c_str(), b.first.c_str()) < 0;
    });
    std::string suffix;
    for (const auto &part : parts)
        suffix += part.second;
    return suffix;
}

/* The outputs' names as libvmaf's float_adm gives them: its debug "adm" is appended
 * under its plain name (it is no provided feature, so it has no suffixed name). */
} // namespace

namespace adm {

std::vector<std::string> output_names(const FloatAdmOptions &opts, int num_outputs)
{
    const std::string suffix = option_suffix(opts);
    std::vector<std::string> names;
    for (int i = 0; i < num_outputs; i++) {
        std::string name = float_adm_output_name(i);
        if (name != "adm")
            name += suffix;
        if (name.size() > kMaxNameLength)
            name.resize(kMaxNameLength);
        names.push_back(name);
    }
    return names;
}

} // namespace adm

extern "C" {

const char *float_adm_output_name(int index)
{
    return index >= 0 && index < FLOAT_ADM_NUM_DEBUG_OUTPUTS ? kOutputNames[index] : nullptr;
}

const char *float_adm_pair_doubt_name(int doubt)
{
    return doubt >= 0 && doubt < FLOAT_ADM_NUM_PAIR_DOUBTS ? kPairDoubts[doubt][0] : nullptr;
}

const char *float_adm_pair_doubt_description(int doubt)
{
    return doubt >= 0 && doubt < FLOAT_ADM_NUM_PAIR_DOUBTS ? kPairDoubts[doubt][1] : nullptr;
}

int float_adm_output_feature_name(const FloatAdmOptions *opts, int output, char *buf, size_t size)
{
    if (!opts || !buf || !size || output < 0 || output >= FLOAT_ADM_NUM_DEBUG_OUTPUTS)
        return FLOAT_ADM_ERROR_INVALID;
    try {
        const std::string name = adm::output_names(*opts, output + 1)[output];
        std::snprintf(buf, size, "%s", name.c_str());
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    }
    return 0;
}

int float_adm_output_parse_name(const char *name, FloatAdmOptions *opts)
{
    if (!name)
        return FLOAT_ADM_ERROR_INVALID;
    /* The longest plain name it starts with: "adm_scale0_egl_1.2" is adm_scale0's. */
    int output = FLOAT_ADM_ERROR_NOT_FOUND;
    size_t plain_length = 0;
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
        const size_t length = std::strlen(kOutputNames[i]);
        if (length > plain_length && !std::strncmp(name, kOutputNames[i], length) &&
            (name[length] == '\0' || name[length] == '_')) {
            output = i;
            plain_length = length;
        }
    }
    if (output < 0 || !opts)
        return output;
    /* The suffix, "_ALIAS[_VALUE]..." (aliases hold no '_'), read back into options;
     * the name they make must be this one, or it is none of ours. */
    float_adm_options_default(opts);
    try {
        std::vector<std::string> tokens;
        const std::string suffix = name + plain_length;
        for (size_t start = 1; start <= suffix.size();) {
            const size_t end = std::min(suffix.find('_', start), suffix.size());
            tokens.push_back(suffix.substr(start, end - start));
            start = end + 1;
        }
        for (size_t t = 0; t < tokens.size(); t++) {
            const FloatAdmOptionInfo *info = nullptr;
            for (int i = 0; !info && i < float_adm_option_count(); i++) {
                const FloatAdmOptionInfo *row = float_adm_option_info(i);
                if (row->alias && tokens[t] == row->alias)
                    info = row;
            }
            if (!info)
                return FLOAT_ADM_ERROR_INVALID;
            const std::string value = info->type == FLOAT_ADM_OPT_BOOL ? "1"
                                      : t + 1 < tokens.size()          ? tokens[++t]
                                                                       : "";
            if (float_adm_option_set(opts, info->name, value.c_str(), nullptr, 0) < 0)
                return FLOAT_ADM_ERROR_INVALID;
        }
        if (adm::output_names(*opts, output + 1)[output] != name)
            return FLOAT_ADM_ERROR_INVALID;
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    }
    return output;
}

} // extern "C"
