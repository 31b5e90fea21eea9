/*
 * float_adm: the setup of a context (see adm_context_setup.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>

#include "adm_context_setup.h"
#include "adm_csf.h"
#include "adm_error_message.h"
#include "float_adm.h"

namespace adm {
namespace {

/* 9 and 14 are ours (libvmaf has 8, 10, 12 and 16). */
bool supported_depth(int depth)
{
    return depth == 8 || depth == 9 || depth == 10 || depth == 12 || depth == 14 || depth == 16;
}

} // namespace

int check_frame(long long width, long long height, long long bit_depth, char *errbuf,
                size_t errbuf_size)
{
    if (width < FLOAT_ADM_MIN_SIZE || height < FLOAT_ADM_MIN_SIZE) {
        format_error(errbuf, errbuf_size,
                     "frame size %lldx%lld is too small: float ADM needs at least %dx%d "
                     "(its coarsest bands would read outside the frame)",
                     width, height, FLOAT_ADM_MIN_SIZE, FLOAT_ADM_MIN_SIZE);
        return FLOAT_ADM_ERROR_UNSUPPORTED;
    }
    /* Guard the band and index arithmetic (int) against overflow. */
    if (width > FLOAT_ADM_MAX_SIZE || height > FLOAT_ADM_MAX_SIZE) {
        format_error(errbuf, errbuf_size, "frame size %lldx%lld is too large (at most %dx%d)",
                     width, height, FLOAT_ADM_MAX_SIZE, FLOAT_ADM_MAX_SIZE);
        return FLOAT_ADM_ERROR_UNSUPPORTED;
    }
    if (bit_depth < 0 || bit_depth > 16 || !supported_depth(static_cast<int>(bit_depth))) {
        format_error(errbuf, errbuf_size,
                     "bit depth %lld is not supported (8, 9, 10, 12, 14 or 16)", bit_depth);
        return FLOAT_ADM_ERROR_UNSUPPORTED;
    }
    return 0;
}

int check_context(int width, int height, int bit_depth, const FloatAdmOptions *opts, char *errbuf,
                  size_t errbuf_size)
{
    const int ret = check_frame(width, height, bit_depth, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    return float_adm_options_validate(opts, errbuf, errbuf_size);
}

FrameSetup frame_setup(int width, int height, int bit_depth, const FloatAdmOptions &opts)
{
    FrameSetup f = {};
    f.width = width;
    f.height = height;
    f.bit_depth = bit_depth;
    f.bytes_per_sample = bit_depth > 8 ? 2 : 1;
    f.input_scaler = input_scaler(bit_depth);
    const double pi = 3.14159265358979323846;
    f.cos_1deg_sq = (float)(cos(1.0 * pi / 180.0) * cos(1.0 * pi / 180.0));
    f.enhn_gain_limit = opts.enhn_gain_limit;
    f.cube = opts.p_norm == 3.0;
    f.p = (float)opts.p_norm;
    f.masking = !opts.bypass_cm;
    f.skip_scale0 = opts.skip_scale0 != 0;

    int in_w = width, in_h = height;
    for (int s = 0; s < kNumScales; s++) {
        ScaleGeometry &sc = f.scale[s];
        sc.in_w = in_w;
        sc.in_h = in_h;
        sc.w = (in_w + 1) / 2;
        sc.h = (in_h + 1) / 2;
        sc.stride = band_stride(sc.w);
        sc.decouple = decouple_region(sc.w, sc.h);
        sc.sums = sum_region(sc.w, sc.h);
        const CsfWeights csf = csf_weights(opts, s);
        sc.factor[0] = sc.factor[1] = csf.hv;
        sc.factor[2] = csf.d;
        in_w = sc.w;
        in_h = sc.h;
    }
    return f;
}

int check_plane_layout(const FrameSetup &frame, const char *which, int bytes_per_sample, int shift,
                       char *errbuf, size_t errbuf_size)
{
    if (bytes_per_sample != frame.bytes_per_sample) {
        format_error(errbuf, errbuf_size, "%s plane: %d bytes per sample, %d-bit input needs %d",
                     which, bytes_per_sample, frame.bit_depth, frame.bytes_per_sample);
        return FLOAT_ADM_ERROR_INVALID;
    }
    /* Samples stored in the upper bits (P010) shift down to the depth, never further. */
    if (shift < 0 || shift > 16 - frame.bit_depth || (frame.bytes_per_sample == 1 && shift)) {
        format_error(errbuf, errbuf_size, "%s plane: shift %d is invalid for %d-bit input", which,
                     shift, frame.bit_depth);
        return FLOAT_ADM_ERROR_INVALID;
    }
    return 0;
}

} // namespace adm
