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

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "cli_error.h"

/* The core takes 16-bit samples in host order; the files are little-endian. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "float_adm_score reads little-endian samples straight into the core: little-endian hosts only"
#endif

namespace {

const char y4m_signature[] = "YUV4MPEG2 ";
const size_t y4m_signature_length = sizeof(y4m_signature) - 1;
/* Longer header lines are not y4m: stop before reading a whole raw file as one. */
const size_t y4m_max_line_length = 65536;

bool has_y4m_extension(const std::string &path)
{
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos)
        return false;
    std::string extension = path.substr(dot + 1);
    for (char &c : extension)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension == "y4m";
}

/* A y4m W or H value: a positive decimal integer. */
bool parse_dimension(const std::string &text, int &value)
{
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        return false;
    value = std::stoi(text);
    return value > 0;
}

} // namespace

VideoReader::VideoReader(const std::string &path) : path_(path)
{
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_)
        fail(string_printf("cannot open: %s", std::strerror(errno)));
    struct stat info;
    if (fstat(fileno(file_), &info) != 0)
        fail(string_printf("cannot stat: %s", std::strerror(errno)));
    if (!S_ISREG(info.st_mode))
        fail("not a regular file (pipes and devices cannot be sized up front)");
    file_size_ = static_cast<uint64_t>(info.st_size);

    char signature[y4m_signature_length];
    const size_t got = std::fread(signature, 1, sizeof(signature), file_);
    const bool has_signature =
        got == sizeof(signature) && std::memcmp(signature, y4m_signature, got) == 0;
    if (has_y4m_extension(path) && !has_signature)
        fail("not a y4m file: it does not start with \"YUV4MPEG2 \"");
    is_y4m_ = has_signature;
    if (is_y4m_)
        read_y4m_header();
}

VideoReader::~VideoReader()
{
    if (file_)
        std::fclose(file_);
}

void VideoReader::fail(const std::string &what) const
{
    throw CliError(path_ + ": " + what);
}

bool VideoReader::read_line(std::string &line)
{
    line.clear();
    for (;;) {
        const int c = std::getc(file_);
        if (c == EOF) {
            if (std::ferror(file_))
                fail(string_printf("read error: %s", std::strerror(errno)));
            return false;
        }
        if (c == '\n')
            return true;
        if (line.size() == y4m_max_line_length)
            fail(string_printf("y4m header line longer than %zu bytes", y4m_max_line_length));
        line += static_cast<char>(c);
    }
}

void VideoReader::seek_to(uint64_t offset)
{
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0)
        fail(string_printf("cannot seek: %s", std::strerror(errno)));
}

void VideoReader::read_y4m_header()
{
    seek_to(0);
    std::string header;
    if (!read_line(header))
        fail("the y4m header has no end of line");
    first_frame_offset_ = header.size() + 1;

    /* Without a C tag, y4m means 8-bit 4:2:0. */
    std::string colorspace = "420jpeg";
    bool has_width = false, has_height = false;
    std::istringstream tokens(header.substr(y4m_signature_length));
    std::string token;
    while (tokens >> token) {
        const std::string value = token.substr(1);
        switch (token[0]) {
        case 'W':
            has_width = parse_dimension(value, geometry_.width);
            if (!has_width)
                fail("bad width '" + token + "' in the y4m header");
            break;
        case 'H':
            has_height = parse_dimension(value, geometry_.height);
            if (!has_height)
                fail("bad height '" + token + "' in the y4m header");
            break;
        case 'C':
            colorspace = value;
            break;
        default: /* frame rate, interlacing, aspect, X comments: luma needs none */
            break;
        }
    }
    if (!has_width || !has_height)
        fail(std::string("the y4m header has no ") + (has_width ? "H (height)" : "W (width)"));
    geometry_.format = find_y4m_pixel_format(colorspace);
    if (!geometry_.format)
        fail("unsupported y4m colorspace C" + colorspace + "; supported: " +
             supported_y4m_colorspaces());
}

void VideoReader::start(const FrameGeometry &geometry)
{
    geometry_ = geometry;
    if (is_y4m_)
        count_y4m_frames();
    else
        count_raw_frames();
    if (frame_count_ == 0)
        fail("the file holds no frames");
    luma_.resize(geometry_.luma_bytes());
    next_frame_ = 0;
    seek_to(first_frame_offset_);
}

void VideoReader::count_raw_frames()
{
    const uint64_t frame_bytes = geometry_.frame_bytes();
    frame_count_ = file_size_ / frame_bytes;
    if (file_size_ % frame_bytes != 0)
        fail(string_printf("%g frames of %s: the file ends inside frame %llu",
                           static_cast<double>(file_size_) / static_cast<double>(frame_bytes),
                           geometry_.describe().c_str(),
                           static_cast<unsigned long long>(frame_count_)));
}

void VideoReader::count_y4m_frames()
{
    const uint64_t frame_bytes = geometry_.frame_bytes();
    uint64_t offset = first_frame_offset_;
    frame_count_ = 0;
    seek_to(offset);
    while (offset < file_size_) {
        if (!read_line(frame_header_))
            fail(string_printf("the file ends inside the header of frame %llu",
                               static_cast<unsigned long long>(frame_count_)));
        if (frame_header_.compare(0, 5, "FRAME") != 0 ||
            (frame_header_.size() > 5 && frame_header_[5] != ' '))
            fail(string_printf("frame %llu does not start with a FRAME header",
                               static_cast<unsigned long long>(frame_count_)));
        offset += frame_header_.size() + 1;
        if (file_size_ - offset < frame_bytes)
            fail(string_printf("%g frames of %s: the file ends inside frame %llu",
                               static_cast<double>(frame_count_) +
                                   static_cast<double>(file_size_ - offset) /
                                       static_cast<double>(frame_bytes),
                               geometry_.describe().c_str(),
                               static_cast<unsigned long long>(frame_count_)));
        offset += frame_bytes;
        ++frame_count_;
        seek_to(offset);
    }
}

FloatAdmPlane VideoReader::read_frame()
{
    read_frame_into(luma_.data());
    FloatAdmPlane plane;
    plane.data = luma_.data();
    plane.stride = static_cast<ptrdiff_t>(geometry_.width) * geometry_.bytes_per_sample();
    plane.bytes_per_sample = geometry_.bytes_per_sample();
    plane.shift = 0;
    return plane;
}

void VideoReader::read_frame_into(void *dest)
{
    const unsigned long long frame = next_frame_++;
    if (is_y4m_ && !read_line(frame_header_))
        fail(string_printf("the file ends before frame %llu: did it change while read?", frame));
    if (std::fread(dest, 1, luma_.size(), file_) != luma_.size())
        fail(string_printf("cannot read frame %llu: %s", frame,
                           std::ferror(file_) ? std::strerror(errno)
                                              : "the file ended: did it change while read?"));
    if (fseeko(file_, static_cast<off_t>(geometry_.chroma_bytes()), SEEK_CUR) != 0)
        fail(string_printf("cannot seek past frame %llu: %s", frame, std::strerror(errno)));
}

void VideoReader::skip_frames(uint64_t count)
{
    if (count > frame_count_ - next_frame_)
        fail(string_printf("cannot skip %llu frames past frame %llu: the file holds %llu",
                           static_cast<unsigned long long>(count),
                           static_cast<unsigned long long>(next_frame_),
                           static_cast<unsigned long long>(frame_count_)));
    if (!is_y4m_) {
        /* Raw frames are all one size: one seek. */
        next_frame_ += count;
        seek_to(first_frame_offset_ + next_frame_ * geometry_.frame_bytes());
        return;
    }
    for (; count; --count) {
        const unsigned long long frame = next_frame_++;
        if (!read_line(frame_header_))
            fail(string_printf("the file ends before frame %llu: did it change while read?",
                               frame));
        if (fseeko(file_, static_cast<off_t>(geometry_.frame_bytes()), SEEK_CUR) != 0)
            fail(string_printf("cannot seek past frame %llu: %s", frame, std::strerror(errno)));
    }
}
