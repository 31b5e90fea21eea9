/*
 * float_adm CUDA backend: the C API's contexts (created, described, freed) and
 * profiling; the queue is adm_cuda_queue.cpp, the devices adm_cuda_devices.cpp.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <new>

#include "adm_cuda_context.h"
#include "adm_error_message.h"

namespace {

/* device: a device's primary context, or -1 for the current context (else device 0's). */
int create_context(FloatAdmCudaContext **out, int device, int width, int height, int bit_depth,
                   const FloatAdmOptions *opts, void *stream, int max_in_flight, char *errbuf,
                   size_t errbuf_size)
{
    if (!out || !opts) {
        adm::format_error(errbuf, errbuf_size, "no context pointer or options given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    int ret = adm::check_context(width, height, bit_depth, opts, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    if (max_in_flight < 0 || max_in_flight > kMaxInFlight) {
        adm::format_error(errbuf, errbuf_size,
                          "max_in_flight %d is out of range (1 to %d; 0: the library's choice)",
                          max_in_flight, kMaxInFlight);
        return FLOAT_ADM_ERROR_RANGE;
    }
    if (max_in_flight == 0)
        max_in_flight = kDefaultInFlight;
    int devices = 0;
    char why[512];
    ret = float_adm_cuda_device_count(&devices, why, sizeof(why));
    if (ret < 0 || devices == 0) {
        adm::format_error(errbuf, errbuf_size, "no CUDA device: %s", why);
        return ret < 0 ? ret : FLOAT_ADM_ERROR_NO_DEVICE;
    }
    if (device >= devices || device >= kMaxDevices) {
        adm::format_error(errbuf, errbuf_size, "CUDA device %d: there are %d (0 to %d)", device,
                          devices, devices - 1);
        return FLOAT_ADM_ERROR_RANGE;
    }

    FloatAdmCudaContext *ctx = new (std::nothrow) FloatAdmCudaContext;
    if (!ctx) {
        adm::format_error(errbuf, errbuf_size, "out of host memory");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    ctx->cu = cuda_driver(nullptr, nullptr);
    if ((ret = ctx->attach(device, errbuf, errbuf_size)) < 0) {
        delete ctx;
        return ret;
    }
    {
        ContextScope scope(ctx);
        try {
            ret = scope.ok() ? ctx->init(adm::frame_setup(width, height, bit_depth, *opts), *opts,
                                         stream, max_in_flight)
                             : ctx->fail(CUDA_ERROR_INVALID_DEVICE, "making the context current");
        } catch (const std::bad_alloc &) {
            ctx->last_error = "out of host memory";
            ret = FLOAT_ADM_ERROR_NOMEM;
        }
        if (ret < 0)
            adm::format_error(errbuf, errbuf_size, "CUDA context for %dx%d: %s", width, height,
                              ctx->last_error.c_str());
    }
    if (ret < 0) {
        float_adm_cuda_context_free(&ctx);
        return ret;
    }
    *out = ctx;
    return 0;
}

} // namespace

extern "C" {

int float_adm_cuda_context_create(FloatAdmCudaContext **out, int width, int height, int bit_depth,
                                  const FloatAdmOptions *opts, void *stream, int max_in_flight,
                                  char *errbuf, size_t errbuf_size)
{
    return create_context(out, -1, width, height, bit_depth, opts, stream, max_in_flight, errbuf,
                          errbuf_size);
}

int float_adm_cuda_context_create_on_device(FloatAdmCudaContext **out, int device, int width,
                                            int height, int bit_depth, const FloatAdmOptions *opts,
                                            int max_in_flight, char *errbuf, size_t errbuf_size)
{
    if (device < 0) {
        adm::format_error(errbuf, errbuf_size, "CUDA device %d: not a device number", device);
        return FLOAT_ADM_ERROR_RANGE;
    }
    return create_context(out, device, width, height, bit_depth, opts, nullptr, max_in_flight,
                          errbuf, errbuf_size);
}

int float_adm_cuda_is_exact(const FloatAdmCudaContext *ctx, char *description,
                            size_t description_size)
{
    if (!ctx)
        return 0;
    adm::format_error(description, description_size, "%s; %s; %s", ctx->rcp_description.c_str(),
                      ctx->powf.description, kernel_image_kind());
    return ctx->rcp_mode != adm::kRcpIeeeNewton && ctx->powf.exact;
}

const char *float_adm_cuda_last_error(const FloatAdmCudaContext *ctx)
{
    return ctx ? ctx->last_error.c_str() : "";
}

int float_adm_cuda_set_profiling(FloatAdmCudaContext *ctx, int enable)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    ctx->profiling = enable != 0;
    return 0;
}

int float_adm_cuda_stage_times(const FloatAdmCudaContext *ctx,
                               float ms[FLOAT_ADM_CUDA_NUM_STAGES])
{
    if (!ctx || !ms)
        return FLOAT_ADM_ERROR_INVALID;
    for (int k = 0; k < FLOAT_ADM_CUDA_NUM_STAGES; k++)
        ms[k] = ctx->stage_ms[k];
    return 0;
}

const char *float_adm_cuda_stage_name(int stage)
{
    static const char *const names[FLOAT_ADM_CUDA_NUM_STAGES] = {
        "dwt+decouple s0", "dwt+decouple s1", "dwt+decouple s2", "dwt+decouple s3",
        "row sums s0",     "row sums s1",     "row sums s2",     "row sums s3",
        "frame, profiled"};
    return stage >= 0 && stage < FLOAT_ADM_CUDA_NUM_STAGES ? names[stage] : nullptr;
}

const char *float_adm_cuda_build(void) { return kernel_image_kind(); }

void float_adm_cuda_context_free(FloatAdmCudaContext **ctx)
{
    if (!ctx || !*ctx)
        return;
    FloatAdmCudaContext *c = *ctx;
    if (c->cuda_ctx) {
        ContextScope scope(c);
        c->release();
    }
    delete c;
    *ctx = nullptr;
}

} // extern "C"
