/*
 * float_adm CUDA backend: the devices, counted through the driver, and the CUDA
 * context a context works in (a device's primary context, or the caller's).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mutex>

#include "adm_cuda_context.h"
#include "adm_error_message.h"

namespace {

/*
 * A device's primary context, for contexts made where none is current (device 0) or
 * on a device by number: retained once and kept for the life of the process, as the
 * CUDA runtime keeps it, with the kernels loaded into it once (the driver compiles the
 * PTX when it is loaded: once per process, not once per context).
 */
struct PrimaryContext {
    std::mutex lock;
    CUcontext ctx = nullptr;
    Kernels kernels;
};

PrimaryContext &primary_context(int device)
{
    static PrimaryContext primary[kMaxDevices];
    return primary[device];
}

int no_driver(char *why, size_t why_size)
{
    const char *text = nullptr;
    CUresult code = CUDA_SUCCESS;
    if (cuda_driver(&text, &code))
        return 0;
    adm::format_error(why, why_size, "%s", text);
    return means_no_device(code) ? FLOAT_ADM_ERROR_NO_DEVICE : error_code(code);
}

} // namespace

/*
 * The CUDA context to work in: device's primary context where device >= 0; else the
 * one current to this thread (an FFmpeg hwcontext pushes its own), or device 0's
 * primary context where none is.
 */
int FloatAdmCudaContext::attach(int device, char *errbuf, size_t errbuf_size)
{
    CUresult e = CUDA_SUCCESS;
    cuda_ctx = nullptr;
    if (device < 0) {
        e = cu->cuCtxGetCurrent(&cuda_ctx);
        device = 0;
    }
    if (e == CUDA_SUCCESS && !cuda_ctx) {
        PrimaryContext &primary = primary_context(device);
        std::lock_guard<std::mutex> guard(primary.lock);
        if (!primary.ctx) {
            CUdevice dev = 0;
            e = cu->cuDeviceGet(&dev, device);
            if (e == CUDA_SUCCESS)
                e = cu->cuDevicePrimaryCtxRetain(&primary.ctx, dev);
            if (e != CUDA_SUCCESS)
                primary.ctx = nullptr;
        }
        cuda_ctx = primary.ctx;
        primary_device = cuda_ctx ? device : -1;
    }
    if (e != CUDA_SUCCESS) {
        char text[256];
        cuda_describe(e, text, sizeof(text));
        adm::format_error(errbuf, errbuf_size, "no CUDA context on device %d: %s", device, text);
        cuda_ctx = nullptr;
        return error_code(e);
    }
    return 0;
}

/* The kernels, in the primary context once per process, else into the caller's context. */
int FloatAdmCudaContext::load(char *error, size_t error_size)
{
    CUresult e = CUDA_SUCCESS;
    if (primary_device >= 0) {
        PrimaryContext &primary = primary_context(primary_device);
        std::lock_guard<std::mutex> guard(primary.lock);
        if (!primary.kernels.module)
            e = load_kernels(*cu, &primary.kernels, error, error_size);
        kernels = &primary.kernels;
    } else {
        e = load_kernels(*cu, &own_kernels, error, error_size);
    }
    return e == CUDA_SUCCESS ? 0 : error_code(e);
}

extern "C" {

int float_adm_cuda_device_count(int *count, char *why, size_t why_size)
{
    if (!count)
        return FLOAT_ADM_ERROR_INVALID;
    *count = 0;
    const int ret = no_driver(why, why_size);
    if (ret < 0)
        return ret == FLOAT_ADM_ERROR_NO_DEVICE ? 0 : ret;
    const CudaDriver *cu = cuda_driver(nullptr, nullptr);
    const CUresult e = cu->cuDeviceGetCount(count);
    if (e != CUDA_SUCCESS) {
        *count = 0;
        char text[256];
        cuda_describe(e, text, sizeof(text));
        adm::format_error(why, why_size, "%s", text);
        return means_no_device(e) ? 0 : error_code(e);
    }
    adm::format_error(why, why_size, "%d CUDA device(s)", *count);
    return 0;
}

int float_adm_cuda_choose_backend(int device, int width, int height, int bit_depth, double p_norm,
                                  int cpu_threads, uint64_t frames, char *why, size_t why_size)
{
    int ret = adm::check_frame(width, height, bit_depth, why, why_size);
    if (ret < 0)
        return ret;
    if (device < 0 || cpu_threads < 1 || cpu_threads > FLOAT_ADM_MAX_THREADS || !(p_norm > 0)) {
        adm::format_error(why, why_size, "device %d, cpu_threads %d, p_norm %g: out of range",
                          device, cpu_threads, p_norm);
        return FLOAT_ADM_ERROR_INVALID;
    }
    AutoFacts facts;
    facts.width = width;
    facts.height = height;
    facts.bit_depth = bit_depth;
    facts.cpu_threads = cpu_threads;
    facts.frames = frames;
    char text[512] = "";
    int count = 0;
    ret = float_adm_cuda_device_count(&count, text, sizeof(text));
    if (ret < 0 || count == 0) {
        facts.no_device = text;
    } else if (device >= count) {
        adm::format_error(text, sizeof(text), "there is no CUDA device %d: %d found", device,
                          count);
        facts.no_device = text;
    } else {
        facts.devices = count;
        /* The probes of the host a context makes: its division, and powf for p not 3. */
        const adm::RcpProbe &probe = adm::rcp_probe_host();
        const adm::PowfChoice powf = adm::powf_choose(p_norm == 3.0, (float)p_norm);
        if (probe.mode == adm::kRcpIeeeNewton) {
            adm::rcp_probe_describe(probe, text, sizeof(text));
            facts.exact = false;
            facts.inexact = text;
        } else if (!powf.exact) {
            facts.exact = false;
            facts.inexact = powf.description;
        }
    }
    const AutoChoice choice = choose_backend(facts);
    adm::format_error(why, why_size, "%s", choice.why.c_str());
    return choice.cuda ? 1 : 0;
}

} // extern "C"
