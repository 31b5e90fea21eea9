/*
 * The CUDA driver ABI as adm_cuda_driver.h declares it, held to the toolkit's cuda.h
 * where one is installed (tests/cuda/module.mk builds this only then): every constant
 * and the layout of CUDA_MEMCPY2D.  It compiles or it does not; running it only says so.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstddef>
#include <cstdio>

#include "adm_cuda_driver.h"

/* cuda.h defines these as macros: our values first. */
constexpr unsigned kOurHostAllocDeviceMap = adm_cuda::CU_MEMHOSTALLOC_DEVICEMAP;
constexpr unsigned kOurHostRegisterReadOnly = adm_cuda::CU_MEMHOSTREGISTER_READ_ONLY;

#include <cuda.h>

namespace ours = adm_cuda;

#define SAME(name) static_assert((long long)ours::name == (long long)::name, #name)
SAME(CUDA_SUCCESS);
SAME(CUDA_ERROR_OUT_OF_MEMORY);
SAME(CUDA_ERROR_NOT_INITIALIZED);
SAME(CUDA_ERROR_STUB_LIBRARY);
SAME(CUDA_ERROR_DEVICE_UNAVAILABLE);
SAME(CUDA_ERROR_NO_DEVICE);
SAME(CUDA_ERROR_INVALID_DEVICE);
SAME(CUDA_ERROR_NO_BINARY_FOR_GPU);
SAME(CUDA_ERROR_INVALID_PTX);
SAME(CUDA_ERROR_JIT_COMPILER_NOT_FOUND);
SAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
SAME(CUDA_ERROR_NOT_READY);
SAME(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
SAME(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
SAME(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
SAME(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
SAME(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
SAME(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
SAME(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
SAME(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
SAME(CU_JIT_ERROR_LOG_BUFFER);
SAME(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
SAME(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
SAME(CU_MEMORYTYPE_HOST);
SAME(CU_MEMORYTYPE_DEVICE);
SAME(CU_STREAM_NON_BLOCKING);
SAME(CU_EVENT_DEFAULT);
SAME(CU_EVENT_DISABLE_TIMING);
SAME(CU_EVENT_BLOCKING_SYNC);
static_assert(kOurHostAllocDeviceMap == CU_MEMHOSTALLOC_DEVICEMAP, "CU_MEMHOSTALLOC_DEVICEMAP");
static_assert(kOurHostRegisterReadOnly == CU_MEMHOSTREGISTER_READ_ONLY,
              "CU_MEMHOSTREGISTER_READ_ONLY");
#undef SAME

static_assert(sizeof(ours::CUdeviceptr) == sizeof(::CUdeviceptr), "CUdeviceptr");
static_assert(sizeof(ours::CudaMemcpy2D) == sizeof(::CUDA_MEMCPY2D), "CUDA_MEMCPY2D");
#define FIELD(f) static_assert(offsetof(ours::CudaMemcpy2D, f) == offsetof(::CUDA_MEMCPY2D, f), #f)
FIELD(srcXInBytes);
FIELD(srcY);
FIELD(srcMemoryType);
FIELD(srcHost);
FIELD(srcDevice);
FIELD(srcArray);
FIELD(srcPitch);
FIELD(dstXInBytes);
FIELD(dstY);
FIELD(dstMemoryType);
FIELD(dstHost);
FIELD(dstDevice);
FIELD(dstArray);
FIELD(dstPitch);
FIELD(WidthInBytes);
FIELD(Height);
#undef FIELD

static_assert(sizeof(ours::CudaKernelNodeParams) == sizeof(::CUDA_KERNEL_NODE_PARAMS_v1),
              "CUDA_KERNEL_NODE_PARAMS_v1");
#define FIELD(f)                                                                                   \
    static_assert(                                                                                 \
        offsetof(ours::CudaKernelNodeParams, f) == offsetof(::CUDA_KERNEL_NODE_PARAMS_v1, f), #f)
FIELD(func);
FIELD(gridDimX);
FIELD(gridDimY);
FIELD(gridDimZ);
FIELD(blockDimX);
FIELD(blockDimY);
FIELD(blockDimZ);
FIELD(sharedMemBytes);
FIELD(kernelParams);
FIELD(extra);
#undef FIELD
/* cuStreamGetCaptureInfo_v2's status is the enum CUstreamCaptureStatus, an int. */
static_assert(sizeof(::CUstreamCaptureStatus) == sizeof(int), "CUstreamCaptureStatus");

int main()
{
    printf("PASS the driver ABI of adm_cuda_driver.h matches %s's cuda.h (CUDA %d)\n",
           "the toolkit", CUDA_VERSION);
    return 0;
}
