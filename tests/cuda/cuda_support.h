/*
 * float_adm CUDA tests and benchmark: a luma plane in device memory.  Frames,
 * golden.json, the fixtures and generated content come from tests/support.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_CUDA_SUPPORT_H
#define TESTS_CUDA_SUPPORT_H

#include <string>

#include "float_adm_cuda.h"
#include "frames.h"

namespace cuda_test {

/* A host plane copied to device memory (pitched); freed with the object. */
class DevicePlane {
public:
    DevicePlane() = default;
    DevicePlane(const DevicePlane &) = delete;
    DevicePlane &operator=(const DevicePlane &) = delete;
    ~DevicePlane();
    /* Allocates (once) and uploads; false with a message on failure. */
    bool upload(const testsupport::LumaPlane &plane, std::string *error);
    FloatAdmCudaPlane view() const { return FloatAdmCudaPlane{data_, pitch_, bps_, shift_}; }

private:
    void *data_ = nullptr;
    ptrdiff_t pitch_ = 0;
    int bps_ = 1, shift_ = 0;
};

} // namespace cuda_test

#endif /* TESTS_CUDA_SUPPORT_H */
