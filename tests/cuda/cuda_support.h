/*
 * float_adm CUDA tests and benchmark: a luma plane in device memory, and device 0's
 * primary CUDA context (the one a context of the library works in when none is
 * current), through the library's own driver loader: the tests need no CUDA library
 * either.  Frames, golden.json, the fixtures and generated content come from
 * tests/support.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TESTS_CUDA_SUPPORT_H
#define TESTS_CUDA_SUPPORT_H

#include <string>
#include <vector>

#include "adm_cuda_driver.h"
#include "fixture.h"
#include "float_adm_cuda.h"
#include "frames.h"

namespace cuda_test {

/*
 * Device 0's primary context, current while the object lives (nothing where no
 * driver).  It is retained once for the whole program, so that memory allocated in it
 * outlives the object.
 */
class CurrentPrimaryContext {
public:
    CurrentPrimaryContext();
    CurrentPrimaryContext(const CurrentPrimaryContext &) = delete;
    CurrentPrimaryContext &operator=(const CurrentPrimaryContext &) = delete;
    ~CurrentPrimaryContext();
    /* The driver, where the context is current; nullptr otherwise. */
    const adm_cuda::CudaDriver *driver() const { return pushed_ ? cu_ : nullptr; }

private:
    const adm_cuda::CudaDriver *cu_ = nullptr;
    bool pushed_ = false;
};

/* A host plane copied to device memory (pitched); freed with the object. */
class DevicePlane {
public:
    DevicePlane() = default;
    DevicePlane(const DevicePlane &) = delete;
    DevicePlane &operator=(const DevicePlane &) = delete;
    ~DevicePlane();
    /* Allocates (once) and uploads; false with a message on failure. */
    bool upload(const testsupport::LumaPlane &plane, std::string *error);
    FloatAdmCudaPlane view() const
    {
        return FloatAdmCudaPlane{reinterpret_cast<const void *>((uintptr_t)data_), pitch_, bps_,
                                 shift_, 0};
    }

private:
    adm_cuda::CUdeviceptr data_ = 0;
    ptrdiff_t pitch_ = 0;
    int bps_ = 1, shift_ = 0;
};

/* Free device memory of device 0, in bytes (0 where it cannot be read). */
size_t device_free_bytes();

/*
 * Whether the library finds a CUDA device: prints "CUDA: <device>" where it does,
 * "SKIP <what>: no CUDA device (<why>)" where not (a test then passes, skipped).
 */
bool have_device(const char *what);

/* "1.5,2.5,4" into out: false unless every item is a number. */
bool parse_p_norms(const char *text, std::vector<double> *out);

/*
 * testsupport::load_corpus for the tests that print their cases: each fixture or case
 * left out printed as "  FAIL ..." and counted in *failures; false, with "FAIL ...",
 * where golden.json cannot be read.
 */
bool load_corpus(const std::string &dir, testjson::Value *golden,
                 std::vector<testsupport::CorpusFixture> *corpus, int *failures);

} // namespace cuda_test

#endif /* TESTS_CUDA_SUPPORT_H */
