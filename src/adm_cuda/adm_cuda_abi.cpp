/*
 * float_adm: the CUDA backend's _sized entry points (float_adm_cuda.h): the size of
 * the caller's structure checked as float_adm.h's are (adm_abi.h), then the plain
 * function.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstddef>

#include "adm_abi.h"
#include "float_adm_cuda.h"

extern "C" {

int float_adm_cuda_context_create_sized(FloatAdmCudaContext **ctx, int width, int height,
                                        int bit_depth, const FloatAdmOptions *opts,
                                        size_t opts_size, void *stream, int max_in_flight,
                                        char *errbuf, size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0 ? ret
                   : float_adm_cuda_context_create(ctx, width, height, bit_depth, opts, stream,
                                                   max_in_flight, errbuf, errbuf_size);
}

int float_adm_cuda_context_create_on_device_sized(FloatAdmCudaContext **ctx, int device, int width,
                                                  int height, int bit_depth,
                                                  const FloatAdmOptions *opts, size_t opts_size,
                                                  int max_in_flight, char *errbuf,
                                                  size_t errbuf_size)
{
    const int ret = adm::check_options_size(opts, opts_size, errbuf, errbuf_size);
    return ret < 0
               ? ret
               : float_adm_cuda_context_create_on_device(ctx, device, width, height, bit_depth,
                                                         opts, max_in_flight, errbuf, errbuf_size);
}

int float_adm_cuda_collect_sized(FloatAdmCudaContext *ctx, FloatAdmScores *scores,
                                 size_t scores_size, int wait)
{
    const int ret = adm::check_scores_size(scores, scores_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_cuda_collect(ctx, scores, wait);
}

int float_adm_cuda_score_frame_sized(FloatAdmCudaContext *ctx, const FloatAdmCudaPlane *ref,
                                     const FloatAdmCudaPlane *dist, FloatAdmScores *scores,
                                     size_t scores_size)
{
    const int ret = adm::check_scores_size(scores, scores_size, nullptr, 0);
    return ret < 0 ? ret : float_adm_cuda_score_frame(ctx, ref, dist, scores);
}

} // extern "C"
