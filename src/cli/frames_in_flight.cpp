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

#include "frames_in_flight.h"

#include <exception>
#include <system_error>

#include "cli_error.h"

/* Two more frames than threads: a thread that finishes before the oldest frame finds
 * the next one read.  A reader for every four threads: reading a frame pair takes about
 * a quarter of scoring it on one thread. */
FramesInFlight::FramesInFlight(FloatAdmContext *context, int threads,
                               const std::string &reference_path, const std::string &distorted_path,
                               const InputGeometry &geometry)
    : context_(context), slots_(threads + 2)
{
    const int err = float_adm_context_set_frames_in_flight(context, (int)slots_.size());
    if (err < 0)
        throw CliError(string_printf("--threads %d: %s", threads, float_adm_strerror(err)));
    const int readers = (threads + 3) / 4;
    try {
        for (int i = 0; i < readers; i++)
            readers_.emplace_back(&FramesInFlight::read_loop, this, reference_path, distorted_path,
                                  geometry);
    } catch (const std::system_error &error) {
        stop();
        throw CliError(std::string("cannot start a reader thread: ") + error.what());
    }
}

FramesInFlight::~FramesInFlight() { stop(); }

void FramesInFlight::stop()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread &reader : readers_)
        reader.join();
    readers_.clear();
    FloatAdmScores scores;
    while (float_adm_in_flight(context_) > 0)
        float_adm_collect(context_, &scores, 1);
}

void FramesInFlight::send(unsigned long long frame, uint64_t reference_index,
                          uint64_t distorted_index)
{
    const size_t number = sent_++;
    Slot &slot = slots_[number % slots_.size()];
    slot.frame = frame;
    slot.index[0] = reference_index;
    slot.index[1] = distorted_index;
    slot.error.clear();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        to_read_.push_back(number);
    }
    changed_.notify_all();
}

bool FramesInFlight::receive(unsigned long long *frame, FloatAdmScores *scores)
{
    if (collected_ == sent_)
        return false;
    Slot &slot = slots_[collected_ % slots_.size()];
    {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return submitted_ > collected_; });
    }
    *frame = slot.frame;
    collected_++;
    if (!slot.error.empty())
        throw CliError(slot.error);
    const int err = float_adm_collect(context_, scores, 1);
    if (err < 0)
        throw CliError(
            string_printf("frame %llu: scoring failed: %s", *frame, float_adm_strerror(err)));
    return true;
}

/* Takes the oldest frame not taken, reads it, and submits it once the frames before
 * it are: frames enter the context in order, whichever reader finishes first. */
void FramesInFlight::read_loop(const std::string &reference_path, const std::string &distorted_path,
                               const InputGeometry &geometry)
{
    std::unique_ptr<VideoReader> inputs[2];
    std::string open_error;
    try {
        inputs[0] = std::make_unique<VideoReader>(reference_path);
        inputs[1] = std::make_unique<VideoReader>(distorted_path);
        inputs[0]->start(geometry);
        inputs[1]->start(geometry);
    } catch (const std::exception &error) {
        open_error = error.what();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || !to_read_.empty(); });
        if (stopping_)
            return;
        const size_t number = to_read_.front();
        to_read_.pop_front();
        Slot &slot = slots_[number % slots_.size()];
        lock.unlock();
        std::string error = open_error;
        FloatAdmPlane planes[2];
        try {
            for (int i = 0; i < 2 && error.empty(); i++)
                planes[i] = inputs[i]->read_frame_at(slot.index[i], slot.luma[i]);
        } catch (const std::exception &e) {
            error = e.what();
        }
        lock.lock();
        changed_.wait(lock, [this, number] { return submitted_ == number; });
        if (error.empty()) {
            const int err = float_adm_submit(context_, &planes[0], &planes[1]);
            if (err < 0)
                error = string_printf("frame %llu: scoring failed: %s", slot.frame,
                                      float_adm_strerror(err));
        }
        slot.error = error;
        submitted_++;
        changed_.notify_all();
    }
}
