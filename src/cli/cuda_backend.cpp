/*
 * float_adm_score's CUDA backend.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* float_adm_score --backend cuda: the library stages and uploads the frames read from
 * the files, two in flight, so the next frame is read while one is scored. */

#include "cuda_backend.h"

#include <cstdio>

#include "cli_error.h"
#include "float_adm_cuda.h"

namespace {

const char program_name[] = "float_adm_score";

} // namespace

bool cuda_backend_available(std::string &why)
{
    char message[512] = "";
    int count = 0;
    const int err = float_adm_cuda_device_count(&count, message, sizeof(message));
    if (err < 0 || count <= 0) {
        const char *reason = err < 0 ? float_adm_cuda_strerror(err) : "none found";
        why = std::string("no usable CUDA device: ") + (message[0] ? message : reason);
        return false;
    }
    return true;
}

CudaScorer::CudaScorer(const InputGeometry &geometry, const FloatAdmOptions &options,
                       const std::string &map_path)
    : map_path_(map_path)
{
    char message[1024] = "";
    const int err = float_adm_cuda_context_create(&context_, geometry.width, geometry.height,
                                                  geometry.format->bit_depth, &options, nullptr,
                                                  kInFlight, message, sizeof(message));
    if (err < 0)
        throw CliError("cannot score " + geometry.describe() + " on the CUDA device: " +
                       (message[0] ? message : float_adm_cuda_strerror(err)));
    char description[1024] = "";
    if (!float_adm_cuda_is_exact(context_, description, sizeof(description)))
        std::fprintf(stderr,
                     "%s: note: the CUDA scores may differ from the CPU's in the last bits: %s\n",
                     program_name, description);
    if (!map_path_.empty() && float_adm_cuda_context_enable_map(context_) < 0) {
        const std::string why = float_adm_cuda_last_error(context_);
        float_adm_cuda_context_free(&context_);
        throw CliError("--map-path: cannot compute the maps of " + geometry.describe() +
                       " on the CUDA device: " + why);
    }
}

CudaScorer::~CudaScorer() { float_adm_cuda_context_free(&context_); }

bool CudaScorer::full() const { return count_ == kInFlight; }

void CudaScorer::send(unsigned long long frame, const FloatAdmPlane &reference,
                      const FloatAdmPlane &distorted)
{
    const int err = float_adm_cuda_submit_host(context_, &reference, &distorted);
    if (err < 0) {
        const char *why = float_adm_cuda_last_error(context_);
        throw CliError(string_printf("frame %llu: scoring failed: %s", frame,
                                     why && *why ? why : float_adm_cuda_strerror(err)));
    }
    frames_[(head_ + count_) % kInFlight] = frame;
    count_++;
}

bool CudaScorer::receive(unsigned long long *frame, FloatAdmScores *scores)
{
    if (!count_)
        return false;
    *frame = frames_[head_];
    head_ = (head_ + 1) % kInFlight;
    count_--;
    const int err = float_adm_cuda_collect(context_, scores, 1);
    if (err < 0) {
        const char *why = float_adm_cuda_last_error(context_);
        throw CliError(string_printf("frame %llu: scoring failed: %s", *frame,
                                     why && *why ? why : float_adm_cuda_strerror(err)));
    }
    char message[512] = "";
    if (!map_path_.empty() && float_adm_cuda_map_write_pfm(context_, map_path_.c_str(), *frame,
                                                           message, sizeof(message)) < 0)
        throw CliError(std::string("--map-path: ") + message);
    return true;
}
