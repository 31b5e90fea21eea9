/*
 * float_adm CUDA tests and benchmark: a luma plane in device memory.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cuda_support.h"

#include <cuda_runtime_api.h>

namespace cuda_test {

DevicePlane::~DevicePlane()
{
    if (data_)
        cudaFree(data_);
}

bool DevicePlane::upload(const testsupport::LumaPlane &plane, std::string *error)
{
    const size_t row_bytes = plane.geometry.luma_row_bytes();
    cudaError_t e = cudaSuccess;
    if (!data_) {
        size_t pitch = 0;
        e = cudaMallocPitch(&data_, &pitch, row_bytes, plane.height());
        pitch_ = (ptrdiff_t)pitch;
    }
    if (e == cudaSuccess)
        e = cudaMemcpy2D(data_, pitch_, plane.bytes.data(), plane.stride, row_bytes, plane.height(),
                         cudaMemcpyHostToDevice);
    bps_ = plane.geometry.bytes_per_sample();
    shift_ = plane.shift;
    if (e != cudaSuccess) {
        *error = std::string("uploading a plane: ") + cudaGetErrorString(e);
        return false;
    }
    return true;
}

} // namespace cuda_test
