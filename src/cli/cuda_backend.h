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

#include <memory>
#include <string>

#include "float_adm.h"
#include "video_reader.h"

/* Built only with the CUDA library (HAVE_CUDA=yes, FLOAT_ADM_CLI_CUDA defined). */

struct FloatAdmCudaContext;

/** Whether a CUDA device can be used; why it cannot otherwise. */
bool cuda_backend_available(std::string &why);

/**
 * Frames scored on the CUDA device, two in flight: the caller sends each frame's
 * planes (host memory, which the library stages and uploads; they may be reused at
 * once) and receives the scores of the oldest frame, in order, as dav1d's send/get;
 * with a map pattern, receiving a frame writes its map.  Every method throws CliError
 * on failure.
 */
class CudaScorer {
public:
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
    /** The oldest sent frame's number and scores, waiting for them; false when none is
     *  queued. */
    bool receive(unsigned long long *frame, FloatAdmScores *scores);

private:
    static const int kInFlight = 2;
    FloatAdmCudaContext *context_ = nullptr;
    std::string map_path_;
    unsigned long long frames_[kInFlight] = {}; /* numbers of the queued frames, in a ring */
    int head_ = 0, count_ = 0;
};

#endif /* FLOAT_ADM_CLI_CUDA_BACKEND_H */
