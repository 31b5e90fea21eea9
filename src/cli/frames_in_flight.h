/*
 * float_adm_score: scores raw YUV and y4m files with the float ADM core.
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

/* CPU frames in flight: reader threads read the next frames while the context's
 * threads score the ones before; the caller collects them in order. */

#ifndef FLOAT_ADM_CLI_FRAMES_IN_FLIGHT_H
#define FLOAT_ADM_CLI_FRAMES_IN_FLIGHT_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "float_adm.h"
#include "pixel_format.h"
#include "video_reader.h"

class FramesInFlight {
public:
    /** Frames in flight on context, scored by its `threads` threads; reader threads of
     *  their own open the two files again.  Throws CliError. */
    FramesInFlight(FloatAdmContext *context, int threads, const std::string &reference_path,
                   const std::string &distorted_path, const InputGeometry &geometry);
    /** Frames still in flight (a run that failed) are waited for: they read the buffers. */
    ~FramesInFlight();
    FramesInFlight(const FramesInFlight &) = delete;
    FramesInFlight &operator=(const FramesInFlight &) = delete;

    /** Whether send() must wait for a receive() first. */
    bool full() const { return sent_ - collected_ == slots_.size(); }
    /** Frame `frame`: the files' frames reference_index and distorted_index. */
    void send(unsigned long long frame, uint64_t reference_index, uint64_t distorted_index);
    /** The oldest sent frame's number and scores, waiting for them; false when none is
     *  left.  Throws CliError for a frame that could not be read or scored. */
    bool receive(unsigned long long *frame, FloatAdmScores *scores);

private:
    struct Slot {
        unsigned long long frame = 0;
        uint64_t index[2] = {0, 0};
        LargeBuffer luma[2]; /* reference, distorted */
        std::string error;   /* why it was not submitted */
    };
    /* Stops the readers and waits for the frames in flight. */
    void stop();
    void read_loop(const std::string &reference_path, const std::string &distorted_path,
                   const InputGeometry &geometry);

    FloatAdmContext *context_;
    std::vector<Slot> slots_;
    size_t sent_ = 0, collected_ = 0; /* the caller's */

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<size_t> to_read_; /* sent frames no reader took yet */
    size_t submitted_ = 0;       /* frames read and submitted (or failed), in order */
    bool stopping_ = false;
    std::vector<std::thread> readers_;
};

#endif /* FLOAT_ADM_CLI_FRAMES_IN_FLIGHT_H */
