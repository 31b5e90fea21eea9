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

/* The frames of a raw YUV or y4m file, one after another, read by the library's
 * reader (float_adm_reader_*). */

#ifndef FLOAT_ADM_CLI_VIDEO_READER_H
#define FLOAT_ADM_CLI_VIDEO_READER_H

#include <cstdint>
#include <string>

#include "float_adm.h"
#include "large_buffer.h"
#include "pixel_format.h"

class VideoReader {
public:
    /** Opens path; a y4m file has its header read.  Throws CliError naming the file. */
    explicit VideoReader(const std::string &path);
    ~VideoReader();
    VideoReader(const VideoReader &) = delete;
    VideoReader &operator=(const VideoReader &) = delete;

    const std::string &path() const { return path_; }
    bool is_y4m() const { return is_y4m_; }
    /** What the y4m header announces; only meaningful for y4m files. */
    const InputGeometry &header_geometry() const { return header_; }
    /** A y4m header's frame rate (F), rate_num / rate_den; 0/0 without one. */
    int rate_num() const { return rate_num_; }
    int rate_den() const { return rate_den_; }
    /** What the user must be told about the file (an interlaced y4m); empty: nothing. */
    const std::string &warning() const { return warning_; }

    /** Fixes the geometry of every frame and counts the whole frames; reading then
     *  starts at frame 0. */
    void start(const InputGeometry &geometry);
    /** start, at the y4m header's size, for frames scaled before they are scored: any
     *  size the header may say, not only one float ADM scores. */
    void start_to_scale();
    uint64_t frame_count() const { return frame_count_; }
    /** stdin ("-") or a pipe: read once, in order (read_next), its length unknown. */
    bool is_stream() const { return is_stream_; }
    /** Reads the next frame's luma into the reused buffer: false at the input's end. */
    bool read_next(FloatAdmPlane &plane);
    /** Reads the next frame's luma into dest (luma_bytes() of the geometry): false at the
     *  input's end. */
    bool read_next_into(void *dest);
    /** How the file ends inside a frame after the whole ones; empty: it does not. */
    const std::string &incomplete() const { return incomplete_; }

    /** Reads the next frame's luma into a buffer reused for every frame; the
     *  plane stays valid until the next call. */
    FloatAdmPlane read_frame();
    /** Reads the next frame's luma into buffer (sized to fit); the plane stays valid
     *  while buffer is left alone. */
    FloatAdmPlane read_frame(LargeBuffer &buffer);
    /** Reads frame `index` (counted from the file's start) into buffer, as above; the
     *  next frame read stays where it was. */
    FloatAdmPlane read_frame_at(uint64_t index, LargeBuffer &buffer);
    /** The frame that read_frame() reads next. */
    uint64_t next_frame() const { return next_frame_; }
    /** Where the next frame's luma lies in the file, which a regular file's reader tells
     *  (float_adm_reader_luma_at), and moves past it. */
    void next_frame_place(int *fd, uint64_t *offset);
    /** Moves past the next count frames without reading them. */
    void skip_frames(uint64_t count);

private:
    void start(const InputGeometry &geometry, const FloatAdmFrameFormat &format);

    std::string path_;
    FloatAdmReader *reader_ = nullptr;
    bool is_y4m_ = false;
    bool is_stream_ = false;
    InputGeometry header_;
    int rate_num_ = 0, rate_den_ = 0;
    std::string warning_;
    InputGeometry geometry_;
    uint64_t frame_count_ = 0;
    std::string incomplete_;
    uint64_t next_frame_ = 0;
    size_t luma_bytes_ = 0;
    LargeBuffer luma_; /* read_frame's and read_next's, made by the first of them */
};

#endif /* FLOAT_ADM_CLI_VIDEO_READER_H */
