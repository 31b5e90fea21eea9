/*
 * float_adm: the reader of raw planar YUV / gray and y4m files that float_adm_score
 * and the Python package score: headers, frame counts and any frame's luma.
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

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_pixel_format.h"
#include "adm_thread_pool.h"
#include "float_adm.h"

/* The core takes 16-bit samples in host order; the files are little-endian. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the reader hands little-endian samples straight to the core: little-endian hosts only"
#endif

namespace {

const char kY4mSignature[] = "YUV4MPEG2 ";
const size_t kY4mSignatureLength = sizeof(kY4mSignature) - 1;
/* Longer header lines are not y4m: stop before reading a whole raw file as one. */
const size_t kY4mMaxLineLength = 65536;
/* A frame read in parts: none smaller than this (a thread's wake-up would cost more than
 * its share), and as many parts as float_adm_reader_set_threads(reader, 0) takes. */
const uint64_t kReadPartMin = uint64_t(1) << 20;
const int kReadThreadsChoice = 4;
const int kReadThreadsMax = 64;

/* A reader's failure: the message, prefixed with the file's path. */
struct ReadError {
    int code;
    std::string message;
};

bool has_y4m_extension(const std::string &path)
{
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos)
        return false;
    std::string extension = path.substr(dot + 1);
    for (char &c : extension)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
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

std::string printf_string(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_string(const char *format, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(text, sizeof(text), format, ap);
    va_end(ap);
    return text;
}

} // namespace

struct FloatAdmReader {
    std::string path;
    FILE *file = nullptr;
    uint64_t file_size = 0;
    bool stream = false; /* a pipe or stdin: read once, in order, never sized up front */
    /* A stream's bytes read ahead (to recognise it, and its first frame), consumed
     * from pending_at on. */
    std::string pending;
    size_t pending_at = 0;
    uint64_t next_frame = 0;            /* the frame read_next_luma reads */
    std::vector<unsigned char> discard; /* a stream's chroma, read past */
    bool is_y4m = false;
    uint64_t first_frame_offset = 0; /* just past the y4m header, else 0 */
    FloatAdmFrameFormat header{};    /* what a y4m header says */
    int rate_num = 0, rate_den = 0;  /* a y4m header's F; 0/0 without */
    std::string warning;             /* something the caller must say; empty: none */
    FloatAdmFrameFormat format{};    /* fixed by start */
    bool started = false;
    std::vector<uint64_t> luma_offsets; /* where each whole frame's luma starts */
    std::string incomplete;             /* how the file ends inside a frame; empty: it does not */
    /* A regular file's frames read in parts at once, on these threads
     * (float_adm_reader_set_threads); none: one read on the caller's thread. */
    std::unique_ptr<adm::ThreadPool> read_pool;
    int read_threads = 1;

    ~FloatAdmReader()
    {
        if (file && file != stdin)
            std::fclose(file);
    }

    [[noreturn]] void fail(const std::string &what, int code = FLOAT_ADM_ERROR_INVALID) const
    {
        throw ReadError{code, path + ": " + what};
    }

    void seek_to(uint64_t offset)
    {
        if (fseeko(file, static_cast<off_t>(offset), SEEK_SET) != 0)
            fail(printf_string("cannot seek: %s", std::strerror(errno)), FLOAT_ADM_ERROR_IO);
    }

    /* The next byte (a stream's read-ahead first), or EOF. */
    int next_byte()
    {
        if (pending_at < pending.size())
            return static_cast<unsigned char>(pending[pending_at++]);
        return std::getc(file);
    }

    /* Up to size bytes (a stream's read-ahead first); fewer only at the end. */
    size_t read_bytes(void *dest, size_t size)
    {
        if (!size) /* a gray frame's chroma: dest may be an empty buffer's null */
            return 0;
        const size_t from_pending = std::min(pending.size() - pending_at, size);
        std::memcpy(dest, pending.data() + pending_at, from_pending);
        pending_at += from_pending;
        if (pending_at == pending.size()) {
            pending = std::string();
            pending_at = 0;
        }
        size_t got = from_pending;
        while (got < size) {
            const size_t n = std::fread(static_cast<char *>(dest) + got, 1, size - got, file);
            if (n == 0)
                break;
            got += n;
        }
        if (got < size && std::ferror(file))
            fail(printf_string("read error: %s", std::strerror(errno)), FLOAT_ADM_ERROR_IO);
        return got;
    }

    /* One '\n'-terminated line without the '\n'; false at the end of the file.  Each
     * part read goes to check, which throws where the line cannot be what is wanted. */
    template <typename Check> bool read_line(std::string &line, Check check)
    {
        line.clear();
        for (;;) {
            const int c = next_byte();
            if (c == EOF) {
                if (std::ferror(file))
                    fail(printf_string("read error: %s", std::strerror(errno)), FLOAT_ADM_ERROR_IO);
                return false;
            }
            if (c == '\n')
                return true;
            if (line.size() == kY4mMaxLineLength)
                fail(printf_string("y4m header line longer than %zu bytes", kY4mMaxLineLength));
            line += static_cast<char>(c);
            check(line);
        }
    }

    bool read_line(std::string &line)
    {
        return read_line(line, [](const std::string &) {});
    }

    /* A frame's header line, as far as it is read, is "FRAME" and parameters: else the
     * frames are not of the size the y4m header says (or this is no y4m). */
    void check_frame_header(const char *line, size_t length, uint64_t frame) const
    {
        static const char kFrame[] = "FRAME ";
        const size_t checked = std::min(length, sizeof(kFrame) - 1);
        if (std::memcmp(line, kFrame, checked) == 0)
            return;
        fail(printf_string("frame %llu does not start with a FRAME header: the frames are not "
                           "%dx%d %s (%llu bytes) as the y4m header says",
                           static_cast<unsigned long long>(frame), format.width, format.height,
                           format.pixel_format,
                           static_cast<unsigned long long>(format.frame_bytes)));
    }

    /* The header line of frame `frame` without its '\n': false at the input's end. */
    bool read_frame_header(std::string &line, uint64_t frame)
    {
        return read_line(line, [&](const std::string &part) {
            check_frame_header(part.data(), part.size(), frame);
        });
    }

    /* A stream's first frame, read ahead whole before anything of its size is
     * allocated: memory grows with the bytes that arrive, so that a header announcing
     * a huge frame over a few bytes fails at once, as a file's does. */
    void read_ahead_first_frame()
    {
        static const size_t kChunk = size_t(1) << 20;
        bool header_known = !is_y4m; /* raw: no FRAME line */
        size_t header_bytes = 0;     /* the FRAME line with its '\n' */
        for (;;) {
            const size_t have = pending.size() - pending_at;
            if (!header_known) {
                const size_t end = pending.find('\n', pending_at);
                check_frame_header(pending.data() + pending_at,
                                   end == std::string::npos ? have : end - pending_at, 0);
                header_known = end != std::string::npos;
                header_bytes = header_known ? end - pending_at + 1 : 0;
                if (!header_known && have >= kY4mMaxLineLength)
                    fail(printf_string("frame 0: its FRAME header is longer than %zu bytes",
                                       kY4mMaxLineLength));
            }
            const uint64_t wanted = header_known ? header_bytes + format.frame_bytes : have + 4096;
            if (have >= wanted)
                return;
            const size_t chunk = static_cast<size_t>(std::min<uint64_t>(kChunk, wanted - have));
            const size_t old_size = pending.size();
            pending.resize(old_size + chunk);
            const size_t got = std::fread(&pending[old_size], 1, chunk, file);
            pending.resize(old_size + got);
            if (got)
                continue;
            if (std::ferror(file))
                fail(printf_string("read error: %s", std::strerror(errno)), FLOAT_ADM_ERROR_IO);
            if (!have)
                fail("the stream holds no frames");
            if (!header_known)
                fail("the stream holds no whole frame: it ends inside the header of frame 0");
            fail(printf_string("the stream holds no whole frame: it ends after %llu of the %llu "
                               "bytes of frame 0 (%dx%d %s)",
                               static_cast<unsigned long long>(have - header_bytes),
                               static_cast<unsigned long long>(format.frame_bytes), format.width,
                               format.height, format.pixel_format));
        }
    }

    /* "-" (stdin) or a pipe: a stream, read once in order (a FIFO's open waits for
     * its writer, as cat's does).  A regular file is sized and read at will. */
    void open_stream_or_file()
    {
        struct stat info;
        if (path == "-") {
            file = stdin;
        } else if (stat(path.c_str(), &info) == 0 && S_ISFIFO(info.st_mode)) {
            const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0 || !(file = fdopen(fd, "rb"))) {
                const int err = errno;
                if (fd >= 0)
                    ::close(fd);
                fail(printf_string("cannot open: %s", std::strerror(err)), FLOAT_ADM_ERROR_IO);
            }
        }
        if (file) {
            if (fstat(fileno(file), &info) != 0 ||
                !(S_ISFIFO(info.st_mode) || S_ISREG(info.st_mode)))
                fail("stdin (\"-\") is neither a pipe nor a file");
            stream = true;
            return;
        }
        /* Non-blocking: a device is refused at once, never waited on. */
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            fail(printf_string("cannot open: %s", std::strerror(errno)), FLOAT_ADM_ERROR_IO);
        if (fstat(fd, &info) != 0) {
            const int err = errno;
            ::close(fd);
            fail(printf_string("cannot stat: %s", std::strerror(err)), FLOAT_ADM_ERROR_IO);
        }
        if (!S_ISREG(info.st_mode)) {
            ::close(fd);
            fail("neither a regular file nor a pipe");
        }
        file = fdopen(fd, "rb");
        if (!file) {
            const int err = errno;
            ::close(fd);
            fail(printf_string("cannot open: %s", std::strerror(err)), FLOAT_ADM_ERROR_IO);
        }
        file_size = static_cast<uint64_t>(info.st_size);
    }

    void open()
    {
        open_stream_or_file();
        /* The first bytes tell y4m and containers apart; a stream keeps them to read. */
        char head[12] = {};
        const size_t got = read_bytes(head, sizeof(head));
        if (stream)
            pending.assign(head, got);
        const bool has_signature = got >= kY4mSignatureLength &&
                                   std::memcmp(head, kY4mSignature, kY4mSignatureLength) == 0;
        if (has_y4m_extension(path) && !has_signature)
            fail("not a y4m file: it does not start with \"YUV4MPEG2 \"");
        if (const char *container = has_signature ? nullptr : container_name(head, got)) {
            fail(std::string(container) +
                     " container: float_adm reads raw YUV and y4m; for containers use FFmpeg's "
                     "float_adm filter, or `python3 -m floatadm score`, which decodes with "
                     "ffmpeg",
                 FLOAT_ADM_ERROR_UNSUPPORTED);
        }
        is_y4m = has_signature;
        if (is_y4m)
            read_y4m_header();
    }

    /* The container a file's first 12 bytes announce, or NULL: decoding is FFmpeg's. */
    static const char *container_name(const char *bytes, size_t size)
    {
        const unsigned char *head = reinterpret_cast<const unsigned char *>(bytes);
        if (size < 12)
            return nullptr;
        if (!std::memcmp(head + 4, "ftyp", 4))
            return "MP4/QuickTime";
        if (head[0] == 0x1a && head[1] == 0x45 && head[2] == 0xdf && head[3] == 0xa3)
            return "Matroska/WebM";
        if (!std::memcmp(head, "RIFF", 4) && !std::memcmp(head + 8, "AVI ", 4))
            return "AVI";
        return nullptr;
    }

    void read_y4m_header()
    {
        if (!stream)
            seek_to(0);
        std::string line;
        if (!read_line(line))
            fail("the y4m header has no end of line");
        first_frame_offset = line.size() + 1;
        /* Without a C tag, y4m means 8-bit 4:2:0. */
        std::string colorspace = "420jpeg";
        int width = 0, height = 0;
        std::istringstream tokens(line.substr(kY4mSignatureLength));
        std::string token;
        while (tokens >> token) {
            const std::string value = token.substr(1);
            switch (token[0]) {
            case 'W':
                if (!parse_dimension(value, width))
                    fail("bad width '" + token + "' in the y4m header");
                break;
            case 'H':
                if (!parse_dimension(value, height))
                    fail("bad height '" + token + "' in the y4m header");
                break;
            case 'C': colorspace = value; break;
            case 'F': {
                unsigned num = 0, den = 0;
                char end;
                if (std::sscanf(value.c_str(), "%u:%u%c", &num, &den, &end) == 2 && num && den &&
                    num <= 0x7fffffff && den <= 0x7fffffff) {
                    rate_num = static_cast<int>(num);
                    rate_den = static_cast<int>(den);
                }
                break;
            }
            case 'I':
                /* Fields woven into frames: the scores are of those frames. */
                if (value == "t" || value == "b" || value == "m")
                    warning = path + ": the y4m header says " + token + " (" +
                              (value == "t"   ? "interlaced, top field first"
                               : value == "b" ? "interlaced, bottom field first"
                                              : "mixed progressive and interlaced") +
                              "): each frame holds two fields and is scored as one "
                              "progressive picture; deinterlace both files first "
                              "(e.g. ffmpeg -vf bwdif) to score pictures";
                break;
            default: /* aspect, X comments: luma needs none */ break;
            }
        }
        if (!width || !height)
            fail(std::string("the y4m header has no ") + (width ? "H (height)" : "W (width)"));
        const adm::PixelFormat *format = adm::find_y4m_pixel_format(colorspace);
        if (!format)
            fail("unsupported y4m colorspace C" + colorspace +
                 "; supported: " + adm::supported_y4m_colorspaces());
        header = adm::frame_format(width, height, *format);
    }

    /* Ends inside frame `whole` with `bytes` of its frame_bytes. */
    void note_incomplete(uint64_t whole, uint64_t bytes)
    {
        incomplete = printf_string("%g frames of %dx%d %s: the file ends inside frame %llu",
                                   static_cast<double>(whole) +
                                       static_cast<double>(bytes) /
                                           static_cast<double>(format.frame_bytes),
                                   format.width, format.height, format.pixel_format,
                                   static_cast<unsigned long long>(whole));
    }

    void count_raw_frames()
    {
        const uint64_t whole = file_size / format.frame_bytes;
        for (uint64_t k = 0; k < whole; k++)
            luma_offsets.push_back(k * format.frame_bytes);
        if (file_size % format.frame_bytes)
            note_incomplete(whole, file_size % format.frame_bytes);
    }

    void count_y4m_frames()
    {
        uint64_t offset = first_frame_offset;
        std::string line;
        seek_to(offset);
        while (offset < file_size) {
            const uint64_t frame = luma_offsets.size();
            if (!read_frame_header(line, frame)) {
                incomplete = printf_string("the file ends inside the header of frame %llu",
                                           static_cast<unsigned long long>(frame));
                return;
            }
            offset += line.size() + 1;
            if (file_size - offset < format.frame_bytes) {
                note_incomplete(frame, file_size - offset);
                return;
            }
            luma_offsets.push_back(offset);
            offset += format.frame_bytes;
            seek_to(offset);
        }
    }

    void start(const FloatAdmFrameFormat &wanted)
    {
        format = wanted;
        luma_offsets.clear();
        incomplete.clear();
        next_frame = 0;
        if (stream) {
            if (started)
                fail("a stream is started once");
            started = true;
            read_ahead_first_frame();
            return;
        }
        if (is_y4m)
            count_y4m_frames();
        else
            count_raw_frames();
        if (luma_offsets.empty())
            fail(incomplete.empty() ? std::string("the file holds no frames")
                                    : "the file holds no whole frame: " + incomplete);
        started = true;
    }

    void read_luma(uint64_t frame, void *dest)
    {
        if (stream)
            fail("a stream is read in order (float_adm_reader_read_next_luma)");
        if (!started || frame >= luma_offsets.size())
            fail(printf_string("no frame %llu: the file holds %llu",
                               static_cast<unsigned long long>(frame),
                               static_cast<unsigned long long>(luma_offsets.size())));
        const int parts = read_pool ? static_cast<int>(std::min<uint64_t>(
                                          read_threads, format.luma_bytes / kReadPartMin))
                                    : 1;
        if (parts > 1) {
            read_in_parts(frame, dest, parts);
            return;
        }
        seek_to(luma_offsets[frame]);
        if (std::fread(dest, 1, format.luma_bytes, file) != format.luma_bytes)
            fail_frame_read(frame, std::ferror(file) ? errno : 0);
    }

    [[noreturn]] void fail_frame_read(uint64_t frame, int error) const
    {
        fail(printf_string("cannot read frame %llu: %s", static_cast<unsigned long long>(frame),
                           error ? std::strerror(error)
                                 : "the file ended: did it change while read?"),
             FLOAT_ADM_ERROR_IO);
    }

    /* One part of a frame read in parts: bytes [begin, end) of the luma, by pread, which
     * leaves the stream's position alone and may run beside the other parts' reads. */
    struct PartRead {
        int fd;
        unsigned char *dest;
        uint64_t offset, bytes;
    };

    static uint64_t part_start(const PartRead &read, int part, int parts)
    {
        /* Whole pages but for the last part: each part's copy starts on a page of dest. */
        const uint64_t page = 4096;
        const uint64_t share = (read.bytes / parts + page - 1) / page * page;
        return std::min(read.bytes, share * part);
    }

    /* 0, or the errno of a failed read; EOF (the file got shorter) as -1. */
    static int read_part(void *arg, int part, int parts)
    {
        const PartRead &read = *static_cast<const PartRead *>(arg);
        uint64_t at = part_start(read, part, parts);
        const uint64_t end = part_start(read, part + 1, parts);
        while (at < end) {
            const ssize_t got = pread(read.fd, read.dest + at, end - at,
                                      static_cast<off_t>(read.offset + at));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return got < 0 ? errno : -1;
            at += static_cast<uint64_t>(got);
        }
        return 0;
    }

    void read_in_parts(uint64_t frame, void *dest, int parts)
    {
        PartRead read = {fileno(file), static_cast<unsigned char *>(dest), luma_offsets[frame],
                         format.luma_bytes};
        const int error = read_pool->run(read_part, &read, parts);
        if (error)
            fail_frame_read(frame, error > 0 ? error : 0);
    }

    void set_threads(int threads)
    {
        const int wanted = threads ? threads : kReadThreadsChoice;
        read_pool.reset();
        read_threads = 1;
        if (wanted > 1)
            read_pool.reset(new adm::ThreadPool(wanted));
        read_threads = wanted;
    }

    /* The next whole frame's luma: true; false at the end (a frame cut short is noted
     * as incomplete). */
    bool read_next_luma(void *dest)
    {
        if (!started)
            fail("not started");
        if (!stream) {
            if (next_frame >= luma_offsets.size())
                return false;
            read_luma(next_frame++, dest);
            return true;
        }
        const uint64_t frame = next_frame;
        if (is_y4m) {
            std::string line;
            if (!read_frame_header(line, frame)) {
                if (!line.empty())
                    incomplete = printf_string("the stream ends inside the header of frame %llu",
                                               static_cast<unsigned long long>(frame));
                return false;
            }
        }
        uint64_t got = read_bytes(dest, format.luma_bytes);
        if (got == format.luma_bytes) {
            discard.resize(format.frame_bytes - format.luma_bytes);
            got += read_bytes(discard.data(), discard.size());
        }
        if (got == format.frame_bytes) {
            next_frame++;
            return true;
        }
        if (got || is_y4m)
            note_incomplete(frame, got);
        return false;
    }
};

namespace {

/* Runs a step of the reader, turning its failure into a code and a message. */
template <typename Step> int run(char *errbuf, size_t errbuf_size, Step step)
{
    try {
        step();
        return 0;
    } catch (const ReadError &error) {
        adm::format_error(errbuf, errbuf_size, "%s", error.message.c_str());
        return error.code;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory reading the file");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

} // namespace

extern "C" {

int float_adm_reader_open(FloatAdmReader **out, const char *path, char *errbuf, size_t errbuf_size)
{
    if (!out || !path || !*path) {
        adm::format_error(errbuf, errbuf_size, "no reader pointer or path given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    FloatAdmReader *reader = new (std::nothrow) FloatAdmReader;
    if (!reader) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a reader");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    const int ret = run(errbuf, errbuf_size, [&] {
        reader->path = path;
        reader->open();
    });
    if (ret < 0) {
        delete reader;
        return ret;
    }
    *out = reader;
    return 0;
}

int float_adm_reader_header(const FloatAdmReader *reader, FloatAdmFrameFormat *format,
                            int *rate_num, int *rate_den)
{
    if (!reader)
        return FLOAT_ADM_ERROR_INVALID;
    if (!reader->is_y4m)
        return 0;
    if (format)
        *format = reader->header;
    if (rate_num)
        *rate_num = reader->rate_num;
    if (rate_den)
        *rate_den = reader->rate_den;
    return 1;
}

const char *float_adm_reader_warning(const FloatAdmReader *reader)
{
    return reader && !reader->warning.empty() ? reader->warning.c_str() : nullptr;
}

int float_adm_reader_start(FloatAdmReader *reader, const FloatAdmFrameFormat *format, char *errbuf,
                           size_t errbuf_size)
{
    if (!reader || !format || !format->frame_bytes ||
        !adm::find_pixel_format(format->pixel_format)) {
        adm::format_error(errbuf, errbuf_size, "no reader or no frame format given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    return run(errbuf, errbuf_size, [&] { reader->start(*format); });
}

uint64_t float_adm_reader_frame_count(const FloatAdmReader *reader)
{
    return reader ? reader->luma_offsets.size() : 0;
}

int float_adm_reader_is_stream(const FloatAdmReader *reader) { return reader && reader->stream; }

int float_adm_reader_read_next_luma(FloatAdmReader *reader, void *dest, char *errbuf,
                                    size_t errbuf_size)
{
    if (!reader || !dest) {
        adm::format_error(errbuf, errbuf_size, "no reader or no buffer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    bool got = false;
    const int ret = run(errbuf, errbuf_size, [&] { got = reader->read_next_luma(dest); });
    return ret < 0 ? ret : got ? 1 : 0;
}

int float_adm_reader_incomplete(const FloatAdmReader *reader, char *buf, size_t size)
{
    if (!reader || reader->incomplete.empty())
        return 0;
    adm::format_error(buf, size, "%s", reader->incomplete.c_str());
    return 1;
}

int float_adm_reader_read_luma(FloatAdmReader *reader, uint64_t frame, void *dest, char *errbuf,
                               size_t errbuf_size)
{
    if (!reader || !dest) {
        adm::format_error(errbuf, errbuf_size, "no reader or no buffer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    return run(errbuf, errbuf_size, [&] { reader->read_luma(frame, dest); });
}

int float_adm_reader_luma_at(const FloatAdmReader *reader, uint64_t frame, int *fd,
                             uint64_t *offset)
{
    if (!reader || !fd || !offset)
        return FLOAT_ADM_ERROR_INVALID;
    if (reader->stream)
        return 0;
    if (!reader->started || frame >= reader->luma_offsets.size())
        return FLOAT_ADM_ERROR_INVALID;
    *fd = fileno(reader->file);
    *offset = reader->luma_offsets[frame];
    return 1;
}

int float_adm_reader_set_threads(FloatAdmReader *reader, int threads)
{
    if (!reader || threads < 0 || threads > kReadThreadsMax)
        return FLOAT_ADM_ERROR_INVALID;
    try {
        reader->set_threads(threads);
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    } catch (const std::system_error &) {
        return FLOAT_ADM_ERROR_NOMEM; /* no thread could be started */
    }
    return 0;
}

void float_adm_reader_free(FloatAdmReader **reader)
{
    if (!reader)
        return;
    delete *reader;
    *reader = nullptr;
}

} // extern "C"
