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

#include "video_reader.h"

#include "cli_error.h"

VideoReader::VideoReader(const std::string &path) : path_(path)
{
    char message[1024] = "";
    if (float_adm_reader_open(&reader_, path.c_str(), message, sizeof(message)) < 0)
        throw CliError(message);
    FloatAdmFrameFormat header;
    is_y4m_ = float_adm_reader_header(reader_, &header, &rate_num_, &rate_den_) == 1;
    is_stream_ = float_adm_reader_is_stream(reader_) == 1;
    if (is_y4m_) {
        header_.width = header.width;
        header_.height = header.height;
        header_.format = find_pixel_format(header.pixel_format);
    }
    if (const char *warning = float_adm_reader_warning(reader_))
        warning_ = warning;
}

VideoReader::~VideoReader() { float_adm_reader_free(&reader_); }

void VideoReader::start(const InputGeometry &geometry) { start(geometry, geometry.frame_format()); }

void VideoReader::start_to_scale()
{
    FloatAdmFrameFormat format;
    float_adm_reader_header(reader_, &format, nullptr, nullptr);
    start(header_, format);
}

void VideoReader::start(const InputGeometry &geometry, const FloatAdmFrameFormat &format)
{
    geometry_ = geometry;
    char message[1024] = "";
    if (float_adm_reader_start(reader_, &format, message, sizeof(message)) < 0)
        throw CliError(message);
    frame_count_ = float_adm_reader_frame_count(reader_);
    if (float_adm_reader_incomplete(reader_, message, sizeof(message)))
        incomplete_ = message;
    luma_bytes_ = format.luma_bytes;
    next_frame_ = 0;
}

FloatAdmPlane VideoReader::read_frame() { return read_frame(luma_); }

bool VideoReader::read_next(FloatAdmPlane &plane)
{
    if (luma_.size() != luma_bytes_)
        luma_.assign(luma_bytes_);
    if (!read_next_into(luma_.data()))
        return false;
    plane.data = luma_.data();
    plane.stride = static_cast<ptrdiff_t>(geometry_.width) * geometry_.bytes_per_sample();
    plane.bytes_per_sample = geometry_.bytes_per_sample();
    plane.shift = 0;
    return true;
}

bool VideoReader::read_next_into(void *dest)
{
    char message[1024] = "";
    const int got = float_adm_reader_read_next_luma(reader_, dest, message, sizeof(message));
    if (got < 0)
        throw CliError(message);
    if (!got) {
        if (float_adm_reader_incomplete(reader_, message, sizeof(message)))
            incomplete_ = message;
        return false;
    }
    next_frame_++;
    return true;
}

FloatAdmPlane VideoReader::read_frame(LargeBuffer &buffer)
{
    const FloatAdmPlane plane = read_frame_at(next_frame_, buffer);
    next_frame_++;
    return plane;
}

FloatAdmPlane VideoReader::read_frame_at(uint64_t index, LargeBuffer &buffer)
{
    if (buffer.size() != luma_bytes_)
        buffer.assign(luma_bytes_);
    char message[1024] = "";
    if (float_adm_reader_read_luma(reader_, index, buffer.data(), message, sizeof(message)) < 0)
        throw CliError(message);
    FloatAdmPlane plane;
    plane.data = buffer.data();
    plane.stride = static_cast<ptrdiff_t>(geometry_.width) * geometry_.bytes_per_sample();
    plane.bytes_per_sample = geometry_.bytes_per_sample();
    plane.shift = 0;
    return plane;
}

void VideoReader::next_frame_place(int *fd, uint64_t *offset)
{
    if (float_adm_reader_luma_at(reader_, next_frame_, fd, offset) != 1)
        throw CliError(string_printf("%s: frame %llu has no place in the file", path_.c_str(),
                                     static_cast<unsigned long long>(next_frame_)));
    next_frame_++;
}

void VideoReader::skip_frames(uint64_t count)
{
    FloatAdmPlane plane;
    for (uint64_t k = 0; is_stream_ && k < count; k++)
        if (!read_next(plane))
            throw CliError(string_printf("%s: cannot skip %llu frames: the stream ended after %llu",
                                         path_.c_str(), static_cast<unsigned long long>(count),
                                         static_cast<unsigned long long>(next_frame_)));
    if (is_stream_)
        return;
    if (count > frame_count_ - next_frame_)
        throw CliError(string_printf("%s: cannot skip %llu frames past frame %llu: the file "
                                     "holds %llu",
                                     path_.c_str(), static_cast<unsigned long long>(count),
                                     static_cast<unsigned long long>(next_frame_),
                                     static_cast<unsigned long long>(frame_count_)));
    next_frame_ += count;
}
