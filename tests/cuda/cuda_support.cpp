/*
 * float_adm CUDA tests and benchmark: a luma plane in device memory, through the
 * library's driver loader; whether there is a device; the p_norm lists of the options.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cuda_support.h"

#include <cstdio>
#include <cstdlib>

namespace cuda_test {

using namespace adm_cuda;

namespace {

/* Retained on first use, never released: the driver releases it at exit. */
CUcontext retained_primary(const CudaDriver *cu)
{
    static CUcontext ctx = [cu] {
        CUdevice device = 0;
        CUcontext c = nullptr;
        if (cu->cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
            cu->cuDevicePrimaryCtxRetain(&c, device) != CUDA_SUCCESS)
            c = nullptr;
        return c;
    }();
    return ctx;
}

} // namespace

CurrentPrimaryContext::CurrentPrimaryContext()
{
    cu_ = cuda_driver(nullptr, nullptr);
    CUcontext ctx = cu_ ? retained_primary(cu_) : nullptr;
    pushed_ = ctx && cu_->cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
}

CurrentPrimaryContext::~CurrentPrimaryContext()
{
    CUcontext popped;
    if (pushed_)
        cu_->cuCtxPopCurrent(&popped);
}

DevicePlane::~DevicePlane()
{
    CurrentPrimaryContext ctx;
    if (data_ && ctx.driver())
        ctx.driver()->cuMemFree(data_);
}

bool DevicePlane::upload(const testsupport::LumaPlane &plane, std::string *error)
{
    CurrentPrimaryContext ctx;
    const CudaDriver *cu = ctx.driver();
    if (!cu) {
        *error = "uploading a plane: no CUDA context";
        return false;
    }
    const size_t row_bytes = plane.geometry.luma_row_bytes();
    CUresult e = CUDA_SUCCESS;
    if (!data_) {
        pitch_ = (ptrdiff_t)((row_bytes + 255) / 256 * 256);
        e = cu->cuMemAlloc(&data_, (size_t)pitch_ * plane.height());
    }
    if (e == CUDA_SUCCESS) {
        CudaMemcpy2D copy = {};
        copy.srcMemoryType = CU_MEMORYTYPE_HOST;
        copy.srcHost = plane.bytes.data();
        copy.srcPitch = plane.stride;
        copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        copy.dstDevice = data_;
        copy.dstPitch = pitch_;
        copy.WidthInBytes = row_bytes;
        copy.Height = plane.height();
        e = cu->cuMemcpy2DAsync(&copy, nullptr);
        if (e == CUDA_SUCCESS)
            e = cu->cuStreamSynchronize(nullptr);
    }
    bps_ = plane.geometry.bytes_per_sample();
    shift_ = plane.shift;
    if (e != CUDA_SUCCESS) {
        char text[256];
        cuda_describe(e, text, sizeof(text));
        *error = std::string("uploading a plane: ") + text;
        return false;
    }
    return true;
}

size_t device_free_bytes()
{
    CurrentPrimaryContext ctx;
    size_t free_bytes = 0, total = 0;
    return ctx.driver() && ctx.driver()->cuMemGetInfo(&free_bytes, &total) == CUDA_SUCCESS
               ? free_bytes
               : 0;
}

bool have_device(const char *what)
{
    int devices = 0;
    char why[256] = "";
    float_adm_cuda_device_count(&devices, why, sizeof(why));
    if (!devices)
        printf("SKIP %s: no CUDA device (%s)\n", what, why);
    else
        printf("CUDA: %s\n", why);
    return devices > 0;
}

bool parse_p_norms(const char *text, std::vector<double> *out)
{
    for (const char *s = text;;) {
        char *end = nullptr;
        out->push_back(strtod(s, &end));
        if (end == s || (*end && *end != ','))
            return false;
        if (!*end)
            return true;
        s = end + 1;
    }
}

bool load_corpus(const std::string &dir, testjson::Value *golden,
                 std::vector<testsupport::CorpusFixture> *corpus, int *failures)
{
    std::vector<std::string> left_out;
    try {
        *corpus = testsupport::load_corpus(dir, golden, &left_out);
    } catch (const std::exception &e) {
        printf("FAIL %s\n", e.what());
        return false;
    }
    for (const std::string &why : left_out)
        printf("  FAIL %s\n", why.c_str());
    *failures += (int)left_out.size();
    return true;
}

} // namespace cuda_test
