/*
 * The CUDA backend where the driver cannot be used: float_adm_cuda_device_count
 * reports no device (and succeeds, so callers skip cleanly), context creation fails
 * with FLOAT_ADM_ERROR_NO_DEVICE, and both say why.  The driver library is chosen
 * through FLOAT_ADM_CUDA_DRIVER (the tests' hook; tests/cuda/module.mk runs a missing
 * file, a library that is not a driver, and the CUDA toolkit's stub driver).
 *
 * Usage: FLOAT_ADM_CUDA_DRIVER=LIB cuda_no_driver EXPECTED
 *   EXPECTED: text both messages must contain.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstring>

#include "float_adm_cuda.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: FLOAT_ADM_CUDA_DRIVER=LIB %s EXPECTED\n", argv[0]);
        return 2;
    }
    const char *expected = argv[1];
    bool ok = true;

    int count = -1;
    char why[512] = "";
    const int ret = float_adm_cuda_device_count(&count, why, sizeof(why));
    const bool count_ok = ret == 0 && count == 0 && strstr(why, expected);
    printf("%s device count: returns %d, %d devices: %s\n", count_ok ? "PASS" : "FAIL", ret, count,
           why);
    ok &= count_ok;

    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[1024] = "";
    const int created = float_adm_cuda_context_create(&ctx, 64, 64, 8, &opts, nullptr, 2, err,
                                                      sizeof(err));
    const bool create_ok = created == FLOAT_ADM_ERROR_NO_DEVICE && !ctx && strstr(err, expected);
    printf("%s context: %s (%s): %s\n", create_ok ? "PASS" : "FAIL",
           float_adm_cuda_strerror(created),
           created == FLOAT_ADM_ERROR_NO_DEVICE ? "NO_DEVICE" : "?", err);
    ok &= create_ok;
    float_adm_cuda_context_free(&ctx);
    if (!ok)
        printf("expected both messages to contain: %s\n", expected);
    return ok ? 0 : 1;
}
