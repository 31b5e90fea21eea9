/*
 * float_adm CUDA backend: the library's error codes for the driver's errors, and
 * their text.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_context.h"

namespace adm_cuda {

/* Codes of the driver's errors that mean "no usable device" rather than a failure. */
bool means_no_device(CUresult e)
{
    return e == CUDA_ERROR_NO_DEVICE || e == CUDA_ERROR_NOT_INITIALIZED ||
           e == CUDA_ERROR_STUB_LIBRARY || e == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
           e == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE || e == CUDA_ERROR_DEVICE_UNAVAILABLE ||
           e == CUDA_ERROR_INVALID_DEVICE || e == CUDA_ERROR_NO_BINARY_FOR_GPU ||
           e == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || e == CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
}

int error_code(CUresult e)
{
    if (e == CUDA_ERROR_OUT_OF_MEMORY)
        return FLOAT_ADM_ERROR_NOMEM;
    return means_no_device(e) ? FLOAT_ADM_ERROR_NO_DEVICE : FLOAT_ADM_ERROR_DEVICE;
}

} // namespace adm_cuda

extern "C" {

const char *float_adm_cuda_strerror(int err)
{
    switch (err) {
    case FLOAT_ADM_ERROR_NO_DEVICE: return "no usable CUDA device or driver";
    case FLOAT_ADM_ERROR_DEVICE: return "CUDA call or kernel failed";
    case FLOAT_ADM_ERROR_AGAIN: return "try again: frame queue full or no frame ready";
    default: return float_adm_strerror(err);
    }
}

} // extern "C"
