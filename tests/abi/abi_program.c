/*
 * The ABI test's program: scores a raw clip with the C API of libfloatadm 1.2 alone,
 * so that it builds against float_adm-1.2.h (no size passed: the FLOATADM_1.2 entry
 * points) and against today's float_adm.h (the _sized ones) from one source, and
 * prints every output of every frame, %.17g, then the name libvmaf gives adm2.
 * Usage: abi_program REF DIST WIDTH HEIGHT PIXFMT
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include <float_adm.h>

static int fail(const char *what, int ret, const char *err)
{
    fprintf(stderr, "abi_program: %s: %s (%s)\n", what, err, float_adm_strerror(ret));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: abi_program REF DIST WIDTH HEIGHT PIXFMT\n");
        return 2;
    }
    char err[512] = "";
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    /* Options other than the defaults, through every call that takes them. */
    int ret = float_adm_option_set(&opts, "debug", "true", err, sizeof(err));
    if (ret >= 0)
        ret = float_adm_option_set_double(&opts, "egl", 1.2, err, sizeof(err));
    if (ret >= 0)
        ret = float_adm_options_validate(&opts, err, sizeof(err));
    if (ret < 0)
        return fail("options", ret, err);
    double egl = 0;
    if (float_adm_option_get(&opts, "adm_enhn_gain_limit", &egl) < 0 || egl != 1.2)
        return fail("option_get", FLOAT_ADM_ERROR_INVALID, "not the value set");

    FloatAdmFrameFormat format;
    FloatAdmReader *readers[2] = {NULL, NULL};
    ret = float_adm_frame_format(&format, atoi(argv[3]), atoi(argv[4]), argv[5], err, sizeof(err));
    for (int i = 0; i < 2 && ret >= 0; i++) {
        ret = float_adm_reader_open(&readers[i], argv[1 + i], err, sizeof(err));
        if (ret >= 0)
            ret = float_adm_reader_start(readers[i], &format, err, sizeof(err));
    }
    if (ret < 0)
        return fail("reader", ret, err);

    FloatAdmContext *ctx = NULL;
    ret = float_adm_context_create(&ctx, format.width, format.height, format.bit_depth, &opts, err,
                                   sizeof(err));
    if (ret < 0)
        return fail("context", ret, err);
    FloatAdmLog *log = NULL;
    ret = float_adm_log_open(&log, NULL, FLOAT_ADM_LOG_JSON, &opts, format.width, format.height,
                             err, sizeof(err));
    if (ret < 0)
        return fail("log", ret, err);

    unsigned char *luma[2] = {malloc(format.luma_bytes), malloc(format.luma_bytes)};
    const int bytes = format.bit_depth > 8 ? 2 : 1;
    const uint64_t frames = float_adm_reader_frame_count(readers[0]);
    for (uint64_t f = 0; f < frames; f++) {
        FloatAdmPlane planes[2];
        for (int i = 0; i < 2; i++) {
            ret = float_adm_reader_read_luma(readers[i], f, luma[i], err, sizeof(err));
            if (ret < 0)
                return fail("read", ret, err);
            planes[i].data = luma[i];
            planes[i].stride = (ptrdiff_t)format.width * bytes;
            planes[i].bytes_per_sample = bytes;
            planes[i].shift = 0;
        }
        FloatAdmScores scores;
        ret = float_adm_score_frame(ctx, &planes[0], &planes[1], &scores);
        if (ret < 0)
            return fail("score", ret, "float_adm_score_frame");
        ret = float_adm_log_frame(log, f, &scores, err, sizeof(err));
        if (ret < 0)
            return fail("log frame", ret, err);
        for (int o = 0; o < FLOAT_ADM_NUM_DEBUG_OUTPUTS; o++)
            printf("%llu %s %.17g\n", (unsigned long long)f, float_adm_output_name(o),
                   float_adm_output_value(&scores, o));
    }
    FloatAdmPooled pooled;
    ret = float_adm_log_pooled(log, 0, &pooled);
    if (ret < 0)
        return fail("pooled", ret, "float_adm_log_pooled");
    printf("mean adm2 %.17g\n", pooled.mean);
    char name[256];
    ret = float_adm_output_feature_name(&opts, 0, name, sizeof(name));
    if (ret < 0)
        return fail("feature name", ret, "float_adm_output_feature_name");
    printf("name %s\n", name);

    free(luma[0]);
    free(luma[1]);
    float_adm_reader_free(&readers[0]);
    float_adm_reader_free(&readers[1]);
    ret = float_adm_log_close(&log, err, sizeof(err));
    float_adm_context_free(&ctx);
    return ret < 0 ? fail("log close", ret, err) : 0;
}
