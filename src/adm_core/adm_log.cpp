/*
 * float_adm: per-frame logs in libvmaf's JSON, CSV and XML layouts, with its pooling.
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

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "adm_internal.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

namespace {

/* Running sums of one output, accumulated exactly as libvmaf pools. */
struct PoolStats {
    double sum = 0.;
    double inv_sum = 0.;  /* sum of 1 / (x + 1), for the harmonic mean */
    double min = 0., max = 0.;
};

void pool_add(PoolStats *pool, uint64_t nb_before, double value)
{
    pool->sum += value;
    pool->inv_sum += 1.0 / (value + 1.0);
    if (!nb_before || value < pool->min)
        pool->min = value;
    if (!nb_before || value > pool->max)
        pool->max = value;
}

} // namespace

struct FloatAdmLog {
    FILE *file = nullptr;       /* null: pooling only */
    bool is_stdout = false;
    bool regular = false;       /* a regular file: fsync, and seek back after finish */
    std::string name;           /* the path, or "stdout", for messages */
    FloatAdmLogFormat format = FLOAT_ADM_LOG_JSON;
    int num_outputs = 0;
    int width = 0, height = 0;
    bool header_written = false;
    uint64_t entries = 0;       /* frames and skipped frames in the file */
    uint64_t nb_pooled = 0;
    PoolStats pool[FLOAT_ADM_NUM_DEBUG_OUTPUTS];
    bool finished = false;
    off_t footer_start = -1;    /* where the last footer began; -1: cannot seek back */
    std::string error;          /* the first write error: nothing is written after it */
};

namespace {

const char *const kPoolNames[] = {"min", "max", "mean", "harmonic_mean"};

void append_double(std::string &out, double value)
{
    char text[40];
    std::snprintf(text, sizeof(text), "%.17g", value);
    out += text;
}

/* JSON has no NaN or infinity: libvmaf writes null there. */
void append_json_number(std::string &out, double value)
{
    if (std::isfinite(value))
        append_double(out, value);
    else
        out += "null";
}

void append_uint(std::string &out, uint64_t value)
{
    out += std::to_string(static_cast<unsigned long long>(value));
}

void append_json_string(std::string &out, const char *text)
{
    out += '"';
    for (const char *p = text; *p; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof(escape), "\\u%04x", c);
            out += escape;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

/* An XML attribute value; control characters XML 1.0 cannot hold become '?'. */
void append_xml_attribute(std::string &out, const char *text)
{
    out += '"';
    for (const char *p = text; *p; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            out += c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : static_cast<char>(c);
        }
    }
    out += '"';
}

std::string header_text(const FloatAdmLog *log)
{
    std::string out;
    switch (log->format) {
    case FLOAT_ADM_LOG_JSON:
        out += "{\n  \"version\": \"float_adm ";
        out += float_adm_version();
        out += "\",\n  \"frames\": [";
        break;
    case FLOAT_ADM_LOG_CSV:
        out += "Frame,";
        for (int i = 0; i < log->num_outputs; i++) {
            out += float_adm_output_name(i);
            out += ',';
        }
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "<VMAF version=\"float_adm ";
        out += float_adm_version();
        out += "\">\n  <params qualityWidth=\"" + std::to_string(log->width) +
               "\" qualityHeight=\"" + std::to_string(log->height) + "\" />\n  <frames>\n";
        break;
    }
    return out;
}

std::string frame_text(const FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores)
{
    std::string out;
    switch (log->format) {
    case FLOAT_ADM_LOG_JSON:
        out += log->entries ? ",\n" : "\n";
        out += "    {\n      \"frameNum\": ";
        append_uint(out, frame_num);
        out += ",\n      \"metrics\": {\n";
        for (int i = 0; i < log->num_outputs; i++) {
            out += "        \"";
            out += float_adm_output_name(i);
            out += "\": ";
            append_json_number(out, float_adm_output_value(scores, i));
            out += i + 1 < log->num_outputs ? ",\n" : "\n";
        }
        out += "      }\n    }";
        break;
    case FLOAT_ADM_LOG_CSV:
        append_uint(out, frame_num);
        out += ',';
        for (int i = 0; i < log->num_outputs; i++) {
            append_double(out, float_adm_output_value(scores, i));
            out += ',';
        }
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "    <frame frameNum=\"";
        append_uint(out, frame_num);
        out += "\" ";
        for (int i = 0; i < log->num_outputs; i++) {
            out += float_adm_output_name(i);
            out += "=\"";
            append_double(out, float_adm_output_value(scores, i));
            out += "\" ";
        }
        out += "/>\n";
        break;
    }
    return out;
}

std::string skipped_text(const FloatAdmLog *log, uint64_t frame_num, const char *reason)
{
    std::string out;
    switch (log->format) {
    case FLOAT_ADM_LOG_JSON:
        out += log->entries ? ",\n" : "\n";
        out += "    {\n      \"frameNum\": ";
        append_uint(out, frame_num);
        out += ",\n      \"skipped\": ";
        append_json_string(out, reason);
        out += ",\n      \"metrics\": {\n      }\n    }";
        break;
    case FLOAT_ADM_LOG_CSV:
        append_uint(out, frame_num);
        out += ',';
        out.append(static_cast<size_t>(log->num_outputs), ',');
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "    <frame frameNum=\"";
        append_uint(out, frame_num);
        out += "\" skipped=";
        append_xml_attribute(out, reason);
        out += " />\n";
        break;
    }
    return out;
}

FloatAdmPooled pooled_of(const FloatAdmLog *log, int output)
{
    const PoolStats &pool = log->pool[output];
    const uint64_t n = log->nb_pooled;
    return FloatAdmPooled{pool.min, pool.max, pool.sum / n, n / pool.inv_sum - 1.0};
}

std::string footer_text(const FloatAdmLog *log)
{
    std::string out;
    if (log->format == FLOAT_ADM_LOG_CSV)
        return out;
    const bool json = log->format == FLOAT_ADM_LOG_JSON;
    out += json ? "\n  ],\n  \"pooled_metrics\": {" : "  </frames>\n  <pooled_metrics>\n";
    for (int i = 0; i < log->num_outputs && log->nb_pooled; i++) {
        const FloatAdmPooled pooled = pooled_of(log, i);
        const double values[] = {pooled.min, pooled.max, pooled.mean, pooled.harmonic_mean};
        if (json) {
            out += i ? ",\n" : "\n";
            out += "    \"";
            out += float_adm_output_name(i);
            out += "\": {";
            for (size_t j = 0; j < 4; j++) {
                out += j ? ",\n" : "\n";
                out += "      \"";
                out += kPoolNames[j];
                out += "\": ";
                append_json_number(out, values[j]);
            }
            out += "\n    }";
        } else {
            out += "    <metric name=\"";
            out += float_adm_output_name(i);
            out += "\" ";
            for (size_t j = 0; j < 4; j++) {
                out += kPoolNames[j];
                out += "=\"";
                append_double(out, values[j]);
                out += "\" ";
            }
            out += "/>\n";
        }
    }
    out += json ? "\n  },\n  \"aggregate_metrics\": {\n  }\n}\n"
                : "  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n";
    return out;
}

/* Records the first error (later writes would only garble the file) and reports it. */
int fail_io(FloatAdmLog *log, const char *what, int err, char *errbuf, size_t errbuf_size)
{
    if (log->error.empty())
        log->error = log->name + ": " + what + ": " + std::strerror(err ? err : EIO);
    adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
    return FLOAT_ADM_ERROR_IO;
}

/* Writes text, flushes, and checks that every byte reached the system. */
int write_checked(FloatAdmLog *log, const std::string &text, char *errbuf, size_t errbuf_size)
{
    errno = 0;
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), log->file) != text.size())
        return fail_io(log, "cannot write", errno, errbuf, errbuf_size);
    if (std::fflush(log->file) != 0 || std::ferror(log->file))
        return fail_io(log, "cannot write", errno, errbuf, errbuf_size);
    return 0;
}

/* After a finish: cut the footer off, so the next entry follows the last one. */
int reopen_after_finish(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    if (log->footer_start < 0) {
        if (log->error.empty())
            log->error = log->name + ": cannot add frames after the log was finished: the "
                                     "file cannot seek back over its footer";
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        return FLOAT_ADM_ERROR_IO;
    }
    errno = 0;
    if (std::fflush(log->file) != 0 ||
        fseeko(log->file, log->footer_start, SEEK_SET) != 0 ||
        ftruncate(fileno(log->file), log->footer_start) != 0)
        return fail_io(log, "cannot remove the footer to add frames", errno, errbuf,
                       errbuf_size);
    log->finished = false;
    return 0;
}

/* One entry: the header first where it is still due. */
int write_entry(FloatAdmLog *log, const std::string &entry, char *errbuf, size_t errbuf_size)
{
    if (!log->error.empty()) {
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        return FLOAT_ADM_ERROR_IO;
    }
    if (!log->file) {
        log->finished = false;
        return 0;
    }
    if (log->finished) {
        const int ret = reopen_after_finish(log, errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    const int ret = write_checked(log, log->header_written ? entry : header_text(log) + entry,
                                  errbuf, errbuf_size);
    log->header_written = true;
    log->entries++;
    return ret;
}

/* A descriptor of this process, other than except, open on the file st describes. */
bool open_in_process(const struct stat &st, int except)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return false;
    bool found = false;
    const int own = dirfd(dir);
    while (const struct dirent *entry = readdir(dir)) {
        char *end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end || fd == except || fd == own)
            continue;
        struct stat other;
        if (fstat(static_cast<int>(fd), &other) == 0 && other.st_dev == st.st_dev &&
            other.st_ino == st.st_ino) {
            found = true;
            break;
        }
    }
    closedir(dir);
    return found;
}

/* Opens path for writing; a regular file is truncated only once it is known to be
 * no input or output of this process. */
int open_file(FloatAdmLog *log, const char *path, char *errbuf, size_t errbuf_size)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                          std::strerror(errno));
        return FLOAT_ADM_ERROR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                          std::strerror(errno));
        close(fd);
        return FLOAT_ADM_ERROR_IO;
    }
    log->regular = S_ISREG(st.st_mode);
    /* Devices and pipes are not destroyed by a log; a regular file would be. */
    if (log->regular && open_in_process(st, fd)) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: refusing to write the log there: the file is open in this "
                          "process (an input or output?) and would be destroyed", path);
        close(fd);
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (log->regular && ftruncate(fd, 0) != 0) {
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                          std::strerror(errno));
        close(fd);
        return FLOAT_ADM_ERROR_IO;
    }
    log->file = fdopen(fd, "w");
    if (!log->file) {
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", path,
                          std::strerror(errno));
        close(fd);
        return FLOAT_ADM_ERROR_IO;
    }
    return 0;
}

int finish(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    if (!log->error.empty()) {
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        return FLOAT_ADM_ERROR_IO;
    }
    if (log->finished)
        return 0;
    if (!log->file) {
        log->finished = true;
        return 0;
    }
    int ret = 0;
    if (!log->header_written) {
        ret = write_checked(log, header_text(log), errbuf, errbuf_size);
        log->header_written = true;
        if (ret < 0)
            return ret;
    }
    /* Every byte before here is flushed, so this is where the footer begins. */
    log->footer_start = log->regular ? ftello(log->file) : -1;
    ret = write_checked(log, footer_text(log), errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    if (log->regular && fsync(fileno(log->file)) != 0)
        return fail_io(log, "cannot sync", errno, errbuf, errbuf_size);
    log->finished = true;
    return 0;
}

} // namespace

extern "C" {

int float_adm_log_open(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                       int num_outputs, int width, int height, char *errbuf, size_t errbuf_size)
{
    if (!out) {
        adm::format_error(errbuf, errbuf_size, "no log pointer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    if (format != FLOAT_ADM_LOG_JSON && format != FLOAT_ADM_LOG_CSV &&
        format != FLOAT_ADM_LOG_XML) {
        adm::format_error(errbuf, errbuf_size, "unknown log format %d", static_cast<int>(format));
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (num_outputs != FLOAT_ADM_NUM_OUTPUTS && num_outputs != FLOAT_ADM_NUM_DEBUG_OUTPUTS) {
        adm::format_error(errbuf, errbuf_size, "a log holds %d or %d outputs, not %d",
                          FLOAT_ADM_NUM_OUTPUTS, FLOAT_ADM_NUM_DEBUG_OUTPUTS, num_outputs);
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (path && !*path) {
        adm::format_error(errbuf, errbuf_size, "empty log path");
        return FLOAT_ADM_ERROR_INVALID;
    }
    FloatAdmLog *log = nullptr;
    try {
        log = new FloatAdmLog;
        log->format = format;
        log->num_outputs = num_outputs;
        log->width = width;
        log->height = height;
        if (path && !std::strcmp(path, "-")) {
            struct stat st;
            log->file = stdout;
            log->is_stdout = true;
            log->name = "stdout";
            log->regular = fstat(fileno(stdout), &st) == 0 && S_ISREG(st.st_mode);
        } else if (path) {
            log->name = path;
            const int ret = open_file(log, path, errbuf, errbuf_size);
            if (ret < 0) {
                delete log;
                return ret;
            }
        }
    } catch (const std::bad_alloc &) {
        delete log;
        adm::format_error(errbuf, errbuf_size, "out of memory for a log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    *out = log;
    return 0;
}

int float_adm_log_frame(FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores,
                        char *errbuf, size_t errbuf_size)
{
    if (!log || !scores) {
        adm::format_error(errbuf, errbuf_size, "no log or no scores given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    for (int i = 0; i < log->num_outputs; i++)
        pool_add(&log->pool[i], log->nb_pooled, float_adm_output_value(scores, i));
    log->nb_pooled++;
    try {
        return write_entry(log, log->file ? frame_text(log, frame_num, scores) : std::string(),
                           errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory writing the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_skipped(FloatAdmLog *log, uint64_t frame_num, const char *reason,
                          char *errbuf, size_t errbuf_size)
{
    if (!log) {
        adm::format_error(errbuf, errbuf_size, "no log given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    try {
        return write_entry(log,
                           log->file ? skipped_text(log, frame_num, reason ? reason : "")
                                     : std::string(),
                           errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory writing the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

uint64_t float_adm_log_frame_count(const FloatAdmLog *log)
{
    return log ? log->nb_pooled : 0;
}

int float_adm_log_pooled(const FloatAdmLog *log, int output, FloatAdmPooled *pooled)
{
    if (!log || !pooled || output < 0 || output >= log->num_outputs || !log->nb_pooled)
        return FLOAT_ADM_ERROR_INVALID;
    *pooled = pooled_of(log, output);
    return 0;
}

int float_adm_log_finish(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    if (!log) {
        adm::format_error(errbuf, errbuf_size, "no log given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    try {
        return finish(log, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory writing the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_close(FloatAdmLog **plog, char *errbuf, size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    FloatAdmLog *log = *plog;
    *plog = nullptr;
    int ret = float_adm_log_finish(log, errbuf, errbuf_size);
    if (log->file) {
        errno = 0;
        const bool failed = log->is_stdout ? std::fflush(log->file) != 0
                                           : std::fclose(log->file) != 0;
        if (failed && ret >= 0)
            ret = fail_io(log, "cannot write", errno, errbuf, errbuf_size);
    }
    /* An earlier error (a frame, or going on after a finish) makes the file incomplete. */
    if (ret >= 0 && !log->error.empty()) {
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        ret = FLOAT_ADM_ERROR_IO;
    }
    delete log;
    return ret;
}

} // extern "C"
