/*
 * float_adm: the _sized entry points of the C API (float_adm.h, "ABI"): each checks
 * the size of the caller's structure, then runs the plain function, which this file
 * sees as the library's own (FLOAT_ADM_BUILDING_LIBRARY: no macros).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>
#include <cstddef>

#include "adm_abi.h"
#include "adm_error_message.h"
#include "adm_log.h"
#include "float_adm.h"

namespace {

/* The structures as libfloatadm 1.2 laid them out, frozen.  The plain functions,
 * exported as FLOATADM_1.2 for programs that pass no size, take them so; while today's
 * structures are these, the plain functions serve both.  When a member is appended,
 * these assertions fail: the plain functions must then become callers of the _sized
 * ones with these sizes, and the _sized ones take each released size (docs/abi.md,
 * "How a structure grows"). */
struct Options12 {
    int debug;
    double enhn_gain_limit, norm_view_dist;
    int ref_display_height;
    double noise_weight;
    int csf_mode;
    double csf_scale, csf_diag_scale;
    int bypass_cm;
    double p_norm;
    int adm3_apply_hm;
    double dlm_weight, min_val, f1s[4], f2s[4];
    int skip_aim_scale, skip_scale0;
};
struct Scores12 {
    double adm2, aim, adm3, adm_scale[4], adm, adm_num, adm_den, adm_num_scale[4], adm_den_scale[4];
};
static_assert(sizeof(FloatAdmOptions) == sizeof(Options12),
              "FloatAdmOptions grew: the FLOATADM_1.2 entry points must pass 1.2's size");
static_assert(sizeof(FloatAdmScores) == sizeof(Scores12),
              "FloatAdmScores grew: the FLOATADM_1.2 entry points must pass 1.2's size");

int refuse(const char *type, size_t size, size_t known, char *errbuf, size_t errbuf_size)
{
    adm::format_error(errbuf, errbuf_size,
                      "%s of %zu bytes: libfloatadm %s knows %zu-byte ones only; the program "
                      "was built against %s float_adm.h (docs/abi.md)",
                      type, size, float_adm_version(), known, size > known ? "a newer" : "another");
    return FLOAT_ADM_ERROR_INVALID;
}

} // namespace

namespace adm {

int check_options_size(const FloatAdmOptions *opts, size_t size, char *errbuf, size_t errbuf_size)
{
    return !opts || size == sizeof(FloatAdmOptions)
               ? 0
               : refuse("FloatAdmOptions", size, sizeof(FloatAdmOptions), errbuf, errbuf_size);
}

int check_scores_size(const FloatAdmScores *scores, size_t size, char *errbuf, size_t errbuf_size)
{
    return !scores || size == sizeof(FloatAdmScores)
               ? 0
               : refuse("FloatAdmScores", size, sizeof(FloatAdmScores), errbuf, errbuf_size);
}

} // namespace adm

extern "C" {

int float_adm_options_default_sized(FloatAdmOptions *opts, size_t opts_size)
{
    if (!opts || adm::check_options_size(opts, opts_size, nullptr, 0) < 0)
        return FLOAT_ADM_ERROR_INVALID;
    float_adm_options_default(opts);
    return 0;
}

int float_adm_option_set_sized(FloatAdmOptions *opts, size_t opts_size, const char *name,
                               const char *value, char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0 ? ret : float_adm_option_set(opts, name, value, errbuf, errbuf_size);
}

int float_adm_option_set_double_sized(FloatAdmOptions *opts, size_t opts_size, const char *name,
                                      double value, char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0 ? ret : float_adm_option_set_double(opts, name, value, errbuf, errbuf_size);
}

int float_adm_option_get_sized(const FloatAdmOptions *opts, size_t opts_size, const char *name,
                               double *value)
{
    const int ret = adm::check_options_size(opts, opts_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_option_get(opts, name, value);
}

int float_adm_options_validate_sized(const FloatAdmOptions *opts, size_t opts_size, char *errbuf,
                                     size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0 ? ret : float_adm_options_validate(opts, errbuf, errbuf_size);
}

int float_adm_output_feature_name_sized(const FloatAdmOptions *opts, size_t opts_size, int output,
                                        char *buf, size_t size)
{
    const int ret = adm::check_options_size(opts, opts_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_output_feature_name(opts, output, buf, size);
}

int float_adm_output_parse_name_sized(const char *name, FloatAdmOptions *opts, size_t opts_size)
{
    const int ret = adm::check_options_size(opts, opts_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_output_parse_name(name, opts);
}

double float_adm_output_value_sized(const FloatAdmScores *scores, size_t scores_size, int index)
{
    return adm::check_scores_size(scores, scores_size, nullptr, 0) < 0
               ? NAN
               : float_adm_output_value(scores, index);
}

int float_adm_output_set_value_sized(FloatAdmScores *scores, size_t scores_size, int index,
                                     double value)
{
    if (!scores || adm::check_scores_size(scores, scores_size, nullptr, 0) < 0)
        return FLOAT_ADM_ERROR_INVALID;
    float_adm_output_set_value(scores, index, value);
    return 0;
}

int float_adm_context_create_sized(FloatAdmContext **ctx, int width, int height, int bit_depth,
                                   const FloatAdmOptions *opts, size_t opts_size, char *errbuf,
                                   size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0
               ? ret
               : float_adm_context_create(ctx, width, height, bit_depth, opts, errbuf, errbuf_size);
}

int float_adm_score_frame_sized(FloatAdmContext *ctx, const FloatAdmPlane *ref,
                                const FloatAdmPlane *dist, FloatAdmScores *scores,
                                size_t scores_size)
{
    const int ret = adm::check_scores_size(scores, scores_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_score_frame(ctx, ref, dist, scores);
}

int float_adm_log_open_sized(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                             const FloatAdmOptions *opts, size_t opts_size, int width, int height,
                             char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0
               ? ret
               : float_adm_log_open(log, path, format, opts, width, height, errbuf, errbuf_size);
}

int float_adm_log_open_flags_sized(FloatAdmLog **log, const char *path,
                                   enum FloatAdmLogFormat format, const FloatAdmOptions *opts,
                                   size_t opts_size, int width, int height, unsigned flags,
                                   char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0
               ? ret
               : adm::open_log(log, path, format, opts, width, height, flags, errbuf, errbuf_size);
}

int float_adm_log_frame_sized(FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores,
                              size_t scores_size, char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_scores_size(scores, scores_size, errbuf, errbuf_size);
    return ret < 0 ? ret : float_adm_log_frame(log, frame_num, scores, errbuf, errbuf_size);
}

int float_adm_log_frame_at_sized(FloatAdmLog *log, uint64_t frame_num, double timestamp,
                                 const FloatAdmScores *scores, size_t scores_size, char *errbuf,
                                 size_t errbuf_size)
{
    const int ret = adm::check_scores_size(scores, scores_size, errbuf, errbuf_size);
    return ret < 0 ? ret
                   : float_adm_log_frame_at(log, frame_num, timestamp, scores, errbuf, errbuf_size);
}

int float_adm_log_acquire_sized(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                                const FloatAdmOptions *opts, size_t opts_size, int width,
                                int height, uint64_t *next_frame, char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0 ? ret
                   : float_adm_log_acquire(log, path, format, opts, width, height, next_frame,
                                           errbuf, errbuf_size);
}

} // extern "C"
