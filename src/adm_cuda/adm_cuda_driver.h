/*
 * float_adm CUDA backend: the CUDA driver API, loaded at run time.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The library needs no CUDA toolkit to build its host code and no CUDA library to
 * load: libcuda.so.1 (the driver, installed with the NVIDIA kernel module) is opened
 * with dlopen when the first context is created, as FFmpeg does through
 * nv-codec-headers.  The types and constants below are the driver's ABI, declared
 * here for the few calls the backend makes; tests/cuda/test_cuda_driver_abi.cpp holds
 * them to the toolkit's cuda.h where one is installed.
 */
#ifndef ADM_CUDA_DRIVER_H
#define ADM_CUDA_DRIVER_H

#include <stddef.h>

namespace adm_cuda {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

/* CUresult values the backend tells apart. */
enum : CUresult {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
};

enum : int {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED = 113,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    CU_MEMORYTYPE_HOST = 1,
    CU_MEMORYTYPE_DEVICE = 2,
};

constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_BLOCKING_SYNC = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x2;
constexpr unsigned CU_MEMHOSTREGISTER_READ_ONLY = 0x8;

/* CUDA_MEMCPY2D (the _v2 layout). */
struct CudaMemcpy2D {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
};

/* CUDA_KERNEL_NODE_PARAMS (the _v1 layout, which cuGraphExecKernelNodeSetParams takes). */
struct CudaKernelNodeParams {
    CUfunction func;
    unsigned gridDimX, gridDimY, gridDimZ;
    unsigned blockDimX, blockDimY, blockDimZ;
    unsigned sharedMemBytes;
    void **kernelParams;
    void **extra;
};

/* The entry points, by the names the driver exports them under (see driver.cpp). */
struct CudaDriver {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuGetErrorName)(CUresult error, const char **name);
    CUresult (*cuGetErrorString)(CUresult error, const char **text);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
    CUresult (*cuDeviceGetName)(char *name, int size, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
    CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
    CUresult (*cuCtxPushCurrent)(CUcontext ctx);
    CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
    CUresult (*cuCtxGetDevice)(CUdevice *device);
    CUresult (*cuMemGetInfo)(size_t *free_bytes, size_t *total_bytes);
    CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr ptr);
    CUresult (*cuMemHostAlloc)(void **ptr, size_t bytes, unsigned flags);
    CUresult (*cuMemFreeHost)(void *ptr);
    CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *dptr, void *ptr, unsigned flags);
    CUresult (*cuMemHostRegister)(void *ptr, size_t bytes, unsigned flags);
    CUresult (*cuMemHostUnregister)(void *ptr);
    CUresult (*cuMemsetD8)(CUdeviceptr ptr, unsigned char value, size_t count);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*cuMemcpy2DAsync)(const CudaMemcpy2D *copy, CUstream stream);
    CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned num_options,
                                   int *options, void **values);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
    CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction function);
    CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                               unsigned block_x, unsigned block_y, unsigned block_z,
                               unsigned shared_bytes, CUstream stream, void **params, void **extra);
    CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream stream);
    CUresult (*cuStreamSynchronize)(CUstream stream);
    CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
    CUresult (*cuStreamBeginCapture)(CUstream stream, int mode);
    CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
    CUresult (*cuStreamGetCaptureInfo)(CUstream stream, int *status, unsigned long long *id,
                                       CUgraph *graph, const CUgraphNode **dependencies,
                                       size_t *num_dependencies);
    CUresult (*cuGraphInstantiate)(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
    CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
    CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec exec, CUgraphNode node,
                                               const CudaKernelNodeParams *params);
    CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
    CUresult (*cuGraphDestroy)(CUgraph graph);
    CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
    CUresult (*cuEventDestroy)(CUevent event);
    CUresult (*cuEventRecord)(CUevent event, CUstream stream);
    CUresult (*cuEventQuery)(CUevent event);
    CUresult (*cuEventSynchronize)(CUevent event);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
};

/*
 * The driver, opened and initialised (cuInit) once per process; it stays loaded.
 * nullptr where it cannot be: *why says what failed (no libcuda.so.1, a missing
 * entry point, cuInit's error), *code is a CUresult (CUDA_ERROR_NO_DEVICE where the
 * library itself is missing).
 */
const CudaDriver *cuda_driver(const char **why, CUresult *code);

/* "<name>: <description>" of a CUresult, for messages. */
void cuda_describe(CUresult e, char *buf, size_t size);

} // namespace adm_cuda

#endif /* ADM_CUDA_DRIVER_H */
