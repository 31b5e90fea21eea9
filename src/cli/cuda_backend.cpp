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

/* float_adm_score --backend cuda: frames read into pinned host buffers and
 * uploaded on the context's stream, two frames in flight. */

#include "cuda_backend.h"

#include <cstdio>
#include <memory>

#include <cuda_runtime_api.h>

#include "cli_error.h"
#include "float_adm_cuda.h"

namespace {

const char program_name[] = "float_adm_score";

/* Two slots: the next frame is read and uploaded while the other is scored. */
const int slots = 2;

void check_cuda(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        throw CliError(string_printf("CUDA: %s: %s", what, cudaGetErrorString(err)));
}

struct HostBuffer {
    void *data = nullptr;
    ~HostBuffer()
    {
        if (data)
            cudaFreeHost(data);
    }
};

struct DeviceBuffer {
    void *data = nullptr;
    ~DeviceBuffer()
    {
        if (data)
            cudaFree(data);
    }
};

struct Stream {
    cudaStream_t stream = nullptr;
    ~Stream()
    {
        if (stream)
            cudaStreamDestroy(stream);
    }
};

struct ContextFree {
    void operator()(FloatAdmCudaContext *context) const { float_adm_cuda_context_free(&context); }
};

/* The frame's index and its buffers, reference then distorted. */
struct Slot {
    unsigned long long frame = 0;
    HostBuffer host[2];
    DeviceBuffer device[2];
};

} // namespace

bool cuda_backend_available(std::string &why)
{
    char message[256] = "";
    int count = 0;
    const int err = float_adm_cuda_device_count(&count, message, sizeof(message));
    if (err < 0 || count <= 0) {
        const char *reason = err < 0 ? float_adm_cuda_strerror(err) : "none found";
        why = std::string("no usable CUDA device: ") + (message[0] ? message : reason);
        return false;
    }
    return true;
}

void cuda_backend_score(const FrameGeometry &geometry, const FloatAdmOptions &options,
                        VideoReader &reference, VideoReader &distorted,
                        unsigned long long frame_count, unsigned long long subsample,
                        const FrameScoresSink &sink)
{
    Stream stream;
    check_cuda(cudaStreamCreateWithFlags(&stream.stream, cudaStreamNonBlocking),
               "cannot create a stream");
    /* Declared before the context, which is freed first: its queued frames read them. */
    Slot slot[slots];
    char message[512] = "";
    FloatAdmCudaContext *raw = nullptr;
    int err = float_adm_cuda_context_create(&raw, geometry.width, geometry.height,
                                            geometry.format->bit_depth, &options, stream.stream,
                                            slots, message, sizeof(message));
    if (err < 0)
        throw CliError("cannot score " + geometry.describe() + " on the CUDA device: " +
                       (message[0] ? message : float_adm_cuda_strerror(err)));
    std::unique_ptr<FloatAdmCudaContext, ContextFree> context(raw);

    char description[512] = "";
    if (!float_adm_cuda_is_exact(context.get(), description, sizeof(description)))
        std::fprintf(stderr,
                     "%s: note: the CUDA scores may differ from the CPU's in the last bits: %s\n",
                     program_name, description);

    const size_t bytes = geometry.luma_bytes();
    for (Slot &s : slot)
        for (int k = 0; k < 2; ++k) {
            check_cuda(cudaHostAlloc(&s.host[k].data, bytes, cudaHostAllocDefault),
                       "cannot allocate pinned host memory");
            check_cuda(cudaMalloc(&s.device[k].data, bytes), "cannot allocate device memory");
        }

    VideoReader *const inputs[2] = {&reference, &distorted};
    unsigned long long submitted = 0, next_collect = 0; /* counts of frames */
    auto collect = [&]() {
        FloatAdmScores scores;
        const int status = float_adm_cuda_collect(context.get(), &scores, 1);
        const Slot &done = slot[next_collect % slots];
        if (status < 0) {
            const char *why = float_adm_cuda_last_error(context.get());
            throw CliError(string_printf("frame %llu: scoring failed: %s", done.frame,
                                         why && *why ? why : float_adm_cuda_strerror(status)));
        }
        next_collect++;
        sink(done.frame, scores);
    };

    FloatAdmCudaPlane planes[2];
    for (FloatAdmCudaPlane &plane : planes) {
        plane.pitch = static_cast<ptrdiff_t>(geometry.width) * geometry.bytes_per_sample();
        plane.bytes_per_sample = geometry.bytes_per_sample();
        plane.shift = 0;
    }
    for (unsigned long long frame = 0; frame < frame_count; ++frame) {
        if (frame % subsample) {
            reference.skip_frames(1);
            distorted.skip_frames(1);
            continue;
        }
        /* A slot is reused once its frame (scored after its upload) is collected. */
        if (submitted - next_collect == slots)
            collect();
        Slot &s = slot[submitted % slots];
        s.frame = frame;
        for (int k = 0; k < 2; ++k) {
            inputs[k]->read_frame_into(s.host[k].data);
            check_cuda(cudaMemcpyAsync(s.device[k].data, s.host[k].data, bytes,
                                       cudaMemcpyHostToDevice, stream.stream),
                       "cannot upload a frame");
            planes[k].data = s.device[k].data;
        }
        err = float_adm_cuda_submit(context.get(), &planes[0], &planes[1]);
        if (err < 0) {
            const char *why = float_adm_cuda_last_error(context.get());
            throw CliError(string_printf("frame %llu: scoring failed: %s", frame,
                                         why && *why ? why : float_adm_cuda_strerror(err)));
        }
        submitted++;
    }
    while (next_collect < submitted)
        collect();
}
