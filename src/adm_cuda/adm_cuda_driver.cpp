/*
 * float_adm CUDA backend: opening the CUDA driver (libcuda.so.1) at run time.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_driver.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace adm_cuda {
namespace {

constexpr const char *kDriverLibrary = "libcuda.so.1";

/*
 * Each entry point by the name of the ABI the declaration in adm_cuda_driver.h has:
 * the driver keeps every older name, so these stay valid on newer drivers.  A second
 * name is tried where the first is newer than some drivers still in use.
 */
struct Symbol {
    size_t offset;
    const char *names[2];
};

#define SYM(field, ...)                                                                            \
    {                                                                                              \
        offsetof(CudaDriver, field), { __VA_ARGS__ }                                               \
    }
const Symbol kSymbols[] = {
    SYM(cuInit, "cuInit"),
    SYM(cuDriverGetVersion, "cuDriverGetVersion"),
    SYM(cuGetErrorName, "cuGetErrorName"),
    SYM(cuGetErrorString, "cuGetErrorString"),
    SYM(cuDeviceGetCount, "cuDeviceGetCount"),
    SYM(cuDeviceGet, "cuDeviceGet"),
    SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
    SYM(cuDeviceGetName, "cuDeviceGetName"),
    SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"),
    SYM(cuCtxGetCurrent, "cuCtxGetCurrent"),
    SYM(cuCtxPushCurrent, "cuCtxPushCurrent_v2"),
    SYM(cuCtxPopCurrent, "cuCtxPopCurrent_v2"),
    SYM(cuCtxGetDevice, "cuCtxGetDevice"),
    SYM(cuMemGetInfo, "cuMemGetInfo_v2"),
    SYM(cuMemAlloc, "cuMemAlloc_v2"),
    SYM(cuMemFree, "cuMemFree_v2"),
    SYM(cuMemHostAlloc, "cuMemHostAlloc"),
    SYM(cuMemFreeHost, "cuMemFreeHost"),
    SYM(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
    SYM(cuMemHostRegister, "cuMemHostRegister_v2"),
    SYM(cuMemHostUnregister, "cuMemHostUnregister"),
    SYM(cuMemsetD8, "cuMemsetD8_v2"),
    SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
    SYM(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2"),
    SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx"),
    SYM(cuModuleUnload, "cuModuleUnload"),
    SYM(cuModuleGetFunction, "cuModuleGetFunction"),
    SYM(cuFuncGetAttribute, "cuFuncGetAttribute"),
    SYM(cuFuncSetAttribute, "cuFuncSetAttribute"),
    SYM(cuLaunchKernel, "cuLaunchKernel"),
    SYM(cuStreamCreate, "cuStreamCreate"),
    SYM(cuStreamDestroy, "cuStreamDestroy_v2"),
    SYM(cuStreamSynchronize, "cuStreamSynchronize"),
    SYM(cuStreamWaitEvent, "cuStreamWaitEvent"),
    SYM(cuStreamBeginCapture, "cuStreamBeginCapture_v2"),
    SYM(cuStreamEndCapture, "cuStreamEndCapture"),
    SYM(cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo_v2"),
    SYM(cuGraphInstantiate, "cuGraphInstantiateWithFlags"),
    SYM(cuGraphLaunch, "cuGraphLaunch"),
    SYM(cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams"),
    SYM(cuGraphExecDestroy, "cuGraphExecDestroy"),
    SYM(cuGraphDestroy, "cuGraphDestroy"),
    SYM(cuEventCreate, "cuEventCreate"),
    SYM(cuEventDestroy, "cuEventDestroy_v2"),
    SYM(cuEventRecord, "cuEventRecord"),
    SYM(cuEventQuery, "cuEventQuery"),
    SYM(cuEventSynchronize, "cuEventSynchronize"),
    SYM(cuEventElapsedTime, "cuEventElapsedTime", "cuEventElapsedTime_v2"),
};
#undef SYM
static_assert(sizeof(kSymbols) / sizeof(kSymbols[0]) == sizeof(CudaDriver) / sizeof(void (*)()),
              "every entry point has its symbol");

#ifdef FLOAT_ADM_TEST_HOOKS
/* Test hook (test builds only): FLOAT_ADM_CUDA_DRIVER names the library to open. */
const char *driver_library()
{
    const char *name = getenv("FLOAT_ADM_CUDA_DRIVER");
    return name && *name ? name : kDriverLibrary;
}
#else
const char *driver_library() { return kDriverLibrary; }
#endif

struct Loaded {
    CudaDriver driver = {};
    bool ok = false;
    CUresult code = CUDA_ERROR_NO_DEVICE;
    char why[512] = "";
};

void load(Loaded &l)
{
    const char *library = driver_library();
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *err = dlerror();
        snprintf(l.why, sizeof(l.why),
                 "the NVIDIA driver's CUDA library could not be loaded (%s): %s", library,
                 err ? err : "unknown error");
        return;
    }
    for (const Symbol &s : kSymbols) {
        void *fn = nullptr;
        for (const char *name : s.names)
            if (name && !fn)
                fn = dlsym(handle, name);
        if (!fn) {
            snprintf(l.why, sizeof(l.why),
                     "%s has no %s: not a CUDA driver, or one older than CUDA 11.4", library,
                     s.names[0]);
            dlclose(handle);
            return;
        }
        *reinterpret_cast<void **>(reinterpret_cast<char *>(&l.driver) + s.offset) = fn;
    }
    const CUresult e = l.driver.cuInit(0);
    if (e != CUDA_SUCCESS) {
        const char *name = nullptr, *desc = nullptr;
        l.driver.cuGetErrorName(e, &name);
        l.driver.cuGetErrorString(e, &desc);
        if (e == CUDA_ERROR_STUB_LIBRARY) /* the stub names no error */
            snprintf(l.why, sizeof(l.why),
                     "cuInit failed: CUDA_ERROR_STUB_LIBRARY: %s is the CUDA toolkit's stub, "
                     "not the NVIDIA driver's library",
                     library);
        else
            snprintf(l.why, sizeof(l.why), "cuInit failed: %s: %s (CUresult %d)",
                     name ? name : "CUDA error", desc ? desc : "no description", e);
        l.code = e;
        /* The handle stays open: nothing else may unload a driver that was initialised. */
        return;
    }
    l.code = CUDA_SUCCESS;
    l.ok = true;
}

Loaded &loaded()
{
    static Loaded l;
    static std::once_flag once;
    std::call_once(once, [] { load(l); });
    return l;
}

} // namespace

const CudaDriver *cuda_driver(const char **why, CUresult *code)
{
    const Loaded &l = loaded();
    if (why)
        *why = l.why;
    if (code)
        *code = l.code;
    return l.ok ? &l.driver : nullptr;
}

void cuda_describe(CUresult e, char *buf, size_t size)
{
    const CudaDriver *cu = cuda_driver(nullptr, nullptr);
    const char *name = nullptr, *desc = nullptr;
    if (cu) {
        cu->cuGetErrorName(e, &name);
        cu->cuGetErrorString(e, &desc);
    }
    if (name)
        snprintf(buf, size, "%s: %s", name, desc ? desc : "");
    else
        snprintf(buf, size, "CUDA error %d", e);
}

} // namespace adm_cuda
