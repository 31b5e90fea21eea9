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

#ifndef FLOAT_ADM_CLI_CUDA_BACKEND_H
#define FLOAT_ADM_CLI_CUDA_BACKEND_H

#include <string>
#include <vector>

#include "float_adm.h"
#include "float_adm_cuda.h"
#include "video_reader.h"

/* Built only with the CUDA library (HAVE_CUDA=yes, FLOAT_ADM_CLI_CUDA defined). */

/** Whether a CUDA device can be used; why it cannot otherwise. */
bool cuda_backend_available(std::string &why);

/**
 * --backend auto's choice, the library's (float_adm_cuda_choose_backend): true for the
 * CUDA device; why says what decided it.  frames: those scored, 0 where not known.
 */
bool cuda_backend_chosen(const InputGeometry &geometry, const FloatAdmOptions &options,
                         int cpu_threads, unsigned long long frames, std::string &why);

/**
 * Frames scored on the CUDA device, as many in flight as the library takes: the caller
 * has the library read each frame of regular files where it lies (send_file_frame), reads
 * each frame of a stream straight into the device's pinned buffers (host_frame, then
 * send_host_frame), or sends planes of its own (send: copied by the library, to be reused
 * at once), and receives the scores of the oldest frame, in order, as dav1d's send/get;
 * with a map pattern, receiving a frame writes its map.  Every method throws CliError on
 * failure.
 */
class CudaScorer {
public:
    /* The pinned buffers of the next frame: reference, distorted. */
    struct HostFrame {
        void *luma[2];
        FloatAdmPlane plane[2];
    };

    /* map_path: a --map-path pattern, or empty for no maps. */
    CudaScorer(const InputGeometry &geometry, const FloatAdmOptions &options,
               const std::string &map_path);
    ~CudaScorer();
    CudaScorer(const CudaScorer &) = delete;
    CudaScorer &operator=(const CudaScorer &) = delete;

    /** Whether a frame must be received before the next can be sent. */
    bool full() const;
    /** Queues frame number `frame`. */
    void send(unsigned long long frame, const FloatAdmPlane &reference,
              const FloatAdmPlane &distorted);
    /** The buffers to read the next frame into; not when full(). */
    HostFrame host_frame();
    /** Queues what was read into host_frame()'s buffers as frame number `frame`. */
    void send_host_frame(unsigned long long frame);
    /** Queues frame number `frame`, read by the library from where its planes lie in two
     *  files (float_adm_cuda_submit_file): reference, distorted. */
    void send_file_frame(unsigned long long frame, const FloatAdmCudaFilePlane (&planes)[2]);
    /** The oldest sent frame's number and scores, waiting for them; false when none is
     *  queued. */
    bool receive(unsigned long long *frame, FloatAdmScores *scores);

private:
    [[noreturn]] void fail(unsigned long long frame, int err) const;
    void queued(unsigned long long frame);

    FloatAdmCudaContext *context_ = nullptr;
    std::string map_path_;
    std::vector<unsigned long long> frames_; /* numbers of the queued frames, in a ring */
    size_t head_ = 0, count_ = 0;
};

#endif /* FLOAT_ADM_CLI_CUDA_BACKEND_H */
