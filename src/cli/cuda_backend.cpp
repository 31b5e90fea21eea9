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

/* float_adm_score --backend cuda: frames read from the files straight into the device's
 * pinned buffers (scaled ones copied there by the library), as many in flight as the
 * library takes, so that the next frames are read and uploaded while one is scored. */

#include "cuda_backend.h"

#include <cstdio>

#include "cli_error.h"

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

bool cuda_backend_chosen(const InputGeometry &geometry, const FloatAdmOptions &options,
                         int cpu_threads, unsigned long long frames, std::string &why)
{
    char message[1024] = "";
    const int chosen = float_adm_cuda_choose_backend(0, geometry.width, geometry.height,
                                                     geometry.format->bit_depth, options.p_norm,
                                                     cpu_threads, frames, message, sizeof(message));
    why = message[0] ? message : float_adm_cuda_strerror(chosen);
    return chosen == 1;
}

CudaScorer::CudaScorer(const InputGeometry &geometry, const FloatAdmOptions &options,
                       const std::string &map_path)
    : map_path_(map_path)
{
    char message[1024] = "";
    const int err = float_adm_cuda_context_create(&context_, geometry.width, geometry.height,
                                                  geometry.format->bit_depth, &options, nullptr, 0,
                                                  message, sizeof(message));
    if (err < 0)
        throw CliError("cannot score " + geometry.describe() + " on the CUDA device: " +
                       (message[0] ? message : float_adm_cuda_strerror(err)));
    frames_.resize(float_adm_cuda_max_in_flight(context_));
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

bool CudaScorer::full() const { return count_ == frames_.size(); }

void CudaScorer::fail(unsigned long long frame, int err) const
{
    const char *why = float_adm_cuda_last_error(context_);
    throw CliError(string_printf("frame %llu: scoring failed: %s", frame,
                                 why && *why ? why : float_adm_cuda_strerror(err)));
}

void CudaScorer::queued(unsigned long long frame)
{
    frames_[(head_ + count_) % frames_.size()] = frame;
    count_++;
}

void CudaScorer::send(unsigned long long frame, const FloatAdmPlane &reference,
                      const FloatAdmPlane &distorted)
{
    const int err = float_adm_cuda_submit_host(context_, &reference, &distorted);
    if (err < 0)
        fail(frame, err);
    queued(frame);
}

CudaScorer::HostFrame CudaScorer::host_frame()
{
    HostFrame buffers;
    const int err = float_adm_cuda_host_frame(context_, &buffers.plane[0], &buffers.plane[1]);
    if (err < 0) {
        const char *why = float_adm_cuda_last_error(context_);
        throw CliError(std::string("the device's buffers for the next frame: ") +
                       (why && *why ? why : float_adm_cuda_strerror(err)));
    }
    /* The library lends them to be written. */
    for (int k = 0; k < 2; k++)
        buffers.luma[k] = const_cast<void *>(buffers.plane[k].data);
    return buffers;
}

void CudaScorer::send_host_frame(unsigned long long frame)
{
    const int err = float_adm_cuda_submit_host_frame(context_);
    if (err < 0)
        fail(frame, err);
    queued(frame);
}

void CudaScorer::send_file_frame(unsigned long long frame, const FloatAdmCudaFilePlane (&planes)[2])
{
    const int err = float_adm_cuda_submit_file(context_, &planes[0], &planes[1]);
    if (err < 0)
        fail(frame, err);
    queued(frame);
}

bool CudaScorer::receive(unsigned long long *frame, FloatAdmScores *scores)
{
    if (!count_)
        return false;
    *frame = frames_[head_];
    head_ = (head_ + 1) % frames_.size();
    count_--;
    const int err = float_adm_cuda_collect(context_, scores, 1);
    if (err < 0)
        fail(*frame, err);
    char message[512] = "";
    if (!map_path_.empty() && float_adm_cuda_map_write_pfm(context_, map_path_.c_str(), *frame,
                                                           message, sizeof(message)) < 0)
        throw CliError(std::string("--map-path: ") + message);
    return true;
}
