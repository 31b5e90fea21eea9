/*
 * float_adm CUDA backend: the host's powf on the device (adm_powf_model.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Include from one CUDA translation unit per program: it defines the tables.
 */
#ifndef ADM_CUDA_POWF_CUH
#define ADM_CUDA_POWF_CUH

#include <stdint.h>

#include "adm_powf_model.h"

namespace adm_cuda {

/*
 * glibc's tables in global memory (not const: clang would put them in constant
 * memory): each thread reads its own entry, which the L1 cache serves as a gather,
 * where constant memory would serialize a warp's differing addresses.
 */
static __device__ double kPowfLog2TableDevice[2 * adm::kPowfLog2TableSize] = ADM_POWF_LOG2_TABLE;
static __device__ uint64_t kPowfExp2TableDevice[adm::kPowfExp2TableSize] = ADM_POWF_EXP2_TABLE;

/*
 * powf(x, p) as the host computes it; where no model held (a libm other than glibc's),
 * glibc's baseline algorithm all the same: a powf within an ulp, and no device math
 * library is needed.
 */
struct DevicePow {
    int mode; /* adm::PowfMode, the same for every thread */

    __device__ __forceinline__ float operator()(float x, float p) const
    {
        if (mode == adm::kPowfGlibcFma)
            return adm::glibc_powf<true>(x, p, kPowfLog2TableDevice, kPowfExp2TableDevice);
        return adm::glibc_powf<false>(x, p, kPowfLog2TableDevice, kPowfExp2TableDevice);
    }
};

} // namespace adm_cuda

#endif /* ADM_CUDA_POWF_CUH */
