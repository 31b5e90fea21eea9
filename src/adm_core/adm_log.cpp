/*
 * float_adm: per-frame logs in libvmaf's JSON, XML, CSV and subtitle layouts, with its
 * pooling and its names of the outputs.
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
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>
#include <utility>
#include <vector>

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
    std::vector<std::string> names;  /* libvmaf's name of each output */
    int width = 0, height = 0;
    std::chrono::steady_clock::time_point opened;  /* the start of the fps clock */
    off_t fps_offset = -1;      /* where the header's fps field lies; -1: not rewritable */
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

/* libvmaf's names are built in a 256-byte buffer (feature_name.c): longer ones are cut. */
const size_t kMaxNameLength = 255;

std::string printf_string(const char *format, double value, bool as_int)
{
    char text[64];
    if (as_int)
        std::snprintf(text, sizeof(text), format, static_cast<int>(value));
    else
        std::snprintf(text, sizeof(text), format, value);
    return text;
}

/*
 * What libvmaf appends to its feature names for these options
 * (vmaf_feature_name_from_options, libvmaf/src/feature/feature_name.c): each option
 * that differs from its default adds "_ALIAS_VALUE", a bool "_ALIAS" alone, an int's
 * value printed %d and a double's %g; the options go in strcmp order of their full
 * names, as libvmaf sorts its dictionary of them before writing the suffix.
 */
std::string option_suffix(const FloatAdmOptions &opts)
{
    std::vector<std::pair<std::string, std::string>> parts;  /* full name, "_alias..." */
    for (int i = 0; i < float_adm_option_count(); i++) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        double value = 0.;
        /* libvmaf's debug is no feature parameter: it never changes a name. */
        if (!std::strcmp(info->name, "debug") ||
            float_adm_option_get(&opts, info->name, &value) < 0 || value == info->default_value)
            continue;
        std::string part = std::string("_") + (info->alias ? info->alias : info->name);
        if (info->type == FLOAT_ADM_OPT_INT)
            part += printf_string("_%d", value, true);
        else if (info->type == FLOAT_ADM_OPT_DOUBLE)
            part += printf_string("_%g", value, false);
        parts.emplace_back(info->name, part);
    }
    std::sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) {
        return std::strcmp(a.first.c_str(), b.first.c_str()) < 0;
    });
    std::string suffix;
    for (const auto &part : parts)
        suffix += part.second;
    return suffix;
}

/* The outputs' names as libvmaf's float_adm gives them: its debug "adm" is appended
 * under its plain name (it is no provided feature, so it has no suffixed name). */
std::vector<std::string> output_names(const FloatAdmOptions &opts, int num_outputs)
{
    const std::string suffix = option_suffix(opts);
    std::vector<std::string> names;
    for (int i = 0; i < num_outputs; i++) {
        std::string name = float_adm_output_name(i);
        if (name != "adm")
            name += suffix;
        if (name.size() > kMaxNameLength)
            name.resize(kMaxNameLength);
        names.push_back(name);
    }
    return names;
}

/* Room for libvmaf's "%.2f" fps of any rate below a billion frames per second. */
const size_t kFpsWidth = 12;

/* Where the fps can be filled in later: a file this log opened (stdout may be a
 * terminal, a pipe, or a file opened for appending). */
bool fps_rewritable(const FloatAdmLog *log)
{
    return log->regular && !log->is_stdout;
}

/* libvmaf writes an fps it has no number for as null (JSON) or "nan" (XML). */
std::string fps_text(const FloatAdmLog *log, double fps)
{
    char text[64];
    std::snprintf(text, sizeof(text), "%.2f", fps);
    if (!std::isfinite(fps) || std::strlen(text) > kFpsWidth)
        return log->format == FLOAT_ADM_LOG_JSON ? "null" : "nan";
    return text;
}

/* The fps value and what closes it (XML: the quote), padded where it can be rewritten. */
std::string fps_field(const FloatAdmLog *log, const std::string &value)
{
    std::string field = value;
    if (log->format == FLOAT_ADM_LOG_XML)
        field += '"';
    if (fps_rewritable(log)) {
        const size_t width = kFpsWidth + (log->format == FLOAT_ADM_LOG_XML ? 1 : 0);
        field.append(width - field.size(), ' ');
    }
    return field;
}

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

/* The header; *fps_at is where its fps field starts (npos: it has none). */
std::string header_text(const FloatAdmLog *log, size_t *fps_at)
{
    std::string out;
    *fps_at = std::string::npos;
    const std::string unknown_fps = fps_field(log, fps_text(log, NAN));
    switch (log->format) {
    case FLOAT_ADM_LOG_JSON:
        out += "{\n  \"version\": \"float_adm ";
        out += float_adm_version();
        out += "\",\n  \"fps\": ";
        *fps_at = out.size();
        out += unknown_fps + ",\n  \"frames\": [";
        break;
    case FLOAT_ADM_LOG_CSV:
        out += "Frame,";
        for (const std::string &name : log->names)
            out += name + ',';
        out += '\n';
        break;
    case FLOAT_ADM_LOG_XML:
        out += "<VMAF version=\"float_adm ";
        out += float_adm_version();
        out += "\">\n  <params qualityWidth=\"" + std::to_string(log->width) +
               "\" qualityHeight=\"" + std::to_string(log->height) + "\" />\n  <fyi fps=\"";
        *fps_at = out.size();
        out += unknown_fps + " />\n  <frames>\n";
        break;
    case FLOAT_ADM_LOG_SUB:
        break;
    }
    return out;
}

/* A subtitle line's start: shown from frame N to N + 1. */
void append_sub_start(std::string &out, uint64_t frame_num)
{
    out += '{';
    append_uint(out, frame_num);
    out += "}{";
    append_uint(out, frame_num + 1);
    out += "}frame: ";
    append_uint(out, frame_num);
    out += '|';
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
            out += log->names[i];
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
            out += log->names[i];
            out += "=\"";
            append_double(out, float_adm_output_value(scores, i));
            out += "\" ";
        }
        out += "/>\n";
        break;
    case FLOAT_ADM_LOG_SUB:
        append_sub_start(out, frame_num);
        for (int i = 0; i < log->num_outputs; i++) {
            out += log->names[i];
            out += ": ";
            append_double(out, float_adm_output_value(scores, i));
            out += '|';
        }
        out += '\n';
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
    case FLOAT_ADM_LOG_SUB:
        append_sub_start(out, frame_num);
        out += '\n';
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
    if (log->format == FLOAT_ADM_LOG_CSV || log->format == FLOAT_ADM_LOG_SUB)
        return out;
    const bool json = log->format == FLOAT_ADM_LOG_JSON;
    out += json ? "\n  ],\n  \"pooled_metrics\": {" : "  </frames>\n  <pooled_metrics>\n";
    for (int i = 0; i < log->num_outputs && log->nb_pooled; i++) {
        const FloatAdmPooled pooled = pooled_of(log, i);
        const double values[] = {pooled.min, pooled.max, pooled.mean, pooled.harmonic_mean};
        if (json) {
            out += i ? ",\n" : "\n";
            out += "    \"";
            out += log->names[i];
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
            out += log->names[i];
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

/* Writes text, with the header before it if that is still due. */
int write_with_header(FloatAdmLog *log, const std::string &text, char *errbuf,
                      size_t errbuf_size)
{
    if (log->header_written)
        return write_checked(log, text, errbuf, errbuf_size);
    size_t fps_at;
    const std::string header = header_text(log, &fps_at);
    /* Every byte before here is flushed, so the header starts here. */
    const off_t start = fps_rewritable(log) ? ftello(log->file) : -1;
    if (start >= 0 && fps_at != std::string::npos)
        log->fps_offset = start + static_cast<off_t>(fps_at);
    log->header_written = true;
    return write_checked(log, header + text, errbuf, errbuf_size);
}

/* Fills in the header's fps (frames logged per second since the log was opened),
 * then goes back to the end of the file. */
int write_fps(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    if (log->fps_offset < 0)
        return 0;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - log->opened).count();
    const std::string field =
        fps_field(log, fps_text(log, static_cast<double>(log->nb_pooled) / seconds));
    errno = 0;
    if (fseeko(log->file, log->fps_offset, SEEK_SET) != 0)
        return fail_io(log, "cannot seek back to the fps", errno, errbuf, errbuf_size);
    int ret = write_checked(log, field, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    errno = 0;
    if (fseeko(log->file, 0, SEEK_END) != 0)
        return fail_io(log, "cannot seek to the end", errno, errbuf, errbuf_size);
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
    const int ret = write_with_header(log, entry, errbuf, errbuf_size);
    log->entries++;
    return ret;
}

/* A descriptor of this process, other than except (and, with skip_std, other than
 * stdin, stdout and stderr), open on the file st describes. */
bool open_in_process(const struct stat &st, int except, bool skip_std = false)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return false;
    bool found = false;
    const int own = dirfd(dir);
    while (const struct dirent *entry = readdir(dir)) {
        char *end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end || fd == except || fd == own ||
            (skip_std && fd <= STDERR_FILENO))
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

/* The file begins as a log of any format does, libvmaf's included. */
bool holds_log(const char *path)
{
    char start[24] = "";
    FILE *file = std::fopen(path, "rb");
    if (!file)
        return false;
    const size_t size = std::fread(start, 1, sizeof(start) - 1, file);
    std::fclose(file);
    start[size] = '\0';
    for (const char *header : {"{\n  \"version\"", "<?xml", "<VMAF ", "Frame,"}) {
        if (!std::strncmp(start, header, std::strlen(header)))
            return true;
    }
    unsigned long first, next;
    int consumed = 0;
    return std::sscanf(start, "{%lu}{%lu}frame: %n", &first, &next, &consumed) == 2 &&
           consumed > 0;
}

/* Opens path for writing; a regular file is truncated only once it is known to be
 * no input or output of this process, and empty or a log. */
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
    /* A file read later (one picture of an image sequence) is not open yet: only
     * an empty file or an earlier log is replaced. */
    if (log->regular && st.st_size > 0 && !holds_log(path)) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: refusing to write the log there: the file holds something "
                          "other than a log (an input?) and would be destroyed; remove it "
                          "first if it is to go",
                          path);
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

/* A path to the file stdout is (/dev/stdout, /proc/self/fd/1) is stdout: opened
 * again, a regular file would be truncated under stdout's own offset. */
bool is_stdout_path(const char *path)
{
    struct stat st, out;
    return stat(path, &st) == 0 && fstat(STDOUT_FILENO, &out) == 0 && st.st_dev == out.st_dev &&
           st.st_ino == out.st_ino && !S_ISCHR(st.st_mode);
}

/* stdout, unless another descriptor of this process writes there too: an output
 * on stdout (FFmpeg's pipe protocol holds its own copy of the descriptor) would
 * interleave with the log.  /dev/null keeps nothing, so nothing is mixed up. */
int use_stdout(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    struct stat st;
    log->file = stdout;
    log->is_stdout = true;
    log->name = "stdout";
    if (fstat(STDOUT_FILENO, &st) != 0)
        return 0;
    log->regular = S_ISREG(st.st_mode);
    if ((!S_ISCHR(st.st_mode) || isatty(STDOUT_FILENO)) && open_in_process(st, -1, true)) {
        adm::format_error(errbuf, errbuf_size,
                          "refusing to write the log to stdout: this process has stdout open "
                          "for something else too (an output?), which the log would be "
                          "mixed into; give the log a file of its own");
        return FLOAT_ADM_ERROR_INVALID;
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
    int ret = write_with_header(log, std::string(), errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    /* Every byte before here is flushed, so this is where the footer begins. */
    log->footer_start = log->regular ? ftello(log->file) : -1;
    ret = write_checked(log, footer_text(log), errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    ret = write_fps(log, errbuf, errbuf_size);
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
                       const FloatAdmOptions *opts, int width, int height, char *errbuf,
                       size_t errbuf_size)
{
    if (!out) {
        adm::format_error(errbuf, errbuf_size, "no log pointer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    if (format != FLOAT_ADM_LOG_JSON && format != FLOAT_ADM_LOG_CSV &&
        format != FLOAT_ADM_LOG_XML && format != FLOAT_ADM_LOG_SUB) {
        adm::format_error(errbuf, errbuf_size, "unknown log format %d", static_cast<int>(format));
        return FLOAT_ADM_ERROR_INVALID;
    }
    FloatAdmOptions defaults;
    if (!opts) {
        float_adm_options_default(&defaults);
        opts = &defaults;
    }
    /* The names are those of a context made with these options: none other exists. */
    const int invalid = float_adm_options_validate(opts, errbuf, errbuf_size);
    if (invalid < 0)
        return invalid;
    const int num_outputs = opts->debug ? FLOAT_ADM_NUM_DEBUG_OUTPUTS : FLOAT_ADM_NUM_OUTPUTS;
    if (path && !*path) {
        adm::format_error(errbuf, errbuf_size, "empty log path");
        return FLOAT_ADM_ERROR_INVALID;
    }
    FloatAdmLog *log = nullptr;
    try {
        log = new FloatAdmLog;
        log->format = format;
        log->num_outputs = num_outputs;
        log->names = output_names(*opts, num_outputs);
        log->width = width;
        log->height = height;
        log->opened = std::chrono::steady_clock::now();
        if (path && (!std::strcmp(path, "-") || is_stdout_path(path))) {
            const int ret = use_stdout(log, errbuf, errbuf_size);
            if (ret < 0) {
                delete log;
                return ret;
            }
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

const char *float_adm_log_output_name(const FloatAdmLog *log, int output)
{
    if (!log || output < 0 || output >= log->num_outputs)
        return nullptr;
    return log->names[static_cast<size_t>(output)].c_str();
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

/* Logs shared within the process, one entry per file, kept to the end of the
 * process: a later acquire of the same file goes on with the same log. */
namespace {

struct SharedLog {
    std::string path;
    dev_t dev = 0;
    ino_t ino = 0;
    bool is_file = false;
    FloatAdmLog *log = nullptr;
    bool held = false;
    uint64_t next_frame = 0;
};

std::mutex shared_logs_lock;
std::vector<SharedLog> *shared_logs;

SharedLog *find_shared(const char *path)
{
    struct stat st;
    const bool is_file = std::strcmp(path, "-") != 0 && stat(path, &st) == 0;
    /* A device (/dev/null) keeps no file that two logs could garble: each has its own. */
    if (is_file && S_ISCHR(st.st_mode))
        return nullptr;
    for (SharedLog &entry : *shared_logs) {
        if (is_file ? entry.is_file && entry.dev == st.st_dev && entry.ino == st.st_ino
                    : !entry.is_file && entry.path == path)
            return &entry;
    }
    return nullptr;
}

} // namespace

int float_adm_log_acquire(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                          const FloatAdmOptions *opts, int width, int height,
                          uint64_t *next_frame, char *errbuf, size_t errbuf_size)
{
    if (!out || !path || !next_frame) {
        adm::format_error(errbuf, errbuf_size, "no log pointer, path or frame number given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    *next_frame = 0;
    try {
        std::lock_guard<std::mutex> lock(shared_logs_lock);
        if (!shared_logs)
            shared_logs = new std::vector<SharedLog>;
        if (SharedLog *entry = find_shared(path)) {
            if (entry->held) {
                adm::format_error(errbuf, errbuf_size,
                                  "%s: another log of this process writes this file", path);
                return FLOAT_ADM_ERROR_BUSY;
            }
            entry->held = true;
            *next_frame = entry->next_frame;
            *out = entry->log;
            return 0;
        }
        SharedLog entry;
        const int ret = float_adm_log_open(&entry.log, path, format, opts, width, height,
                                           errbuf, errbuf_size);
        if (ret < 0)
            return ret;
        struct stat st;
        entry.path = path;
        entry.is_file = std::strcmp(path, "-") != 0 && stat(path, &st) == 0;
        if (entry.is_file) {
            entry.dev = st.st_dev;
            entry.ino = st.st_ino;
        }
        entry.held = true;
        shared_logs->push_back(entry);
        *out = entry.log;
        return 0;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory opening the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_release(FloatAdmLog **plog, uint64_t next_frame, char *errbuf,
                          size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    /* A pipe cannot take its footer back: the next user goes on and finishes it. */
    const int ret = (*plog)->regular || !(*plog)->file
                        ? float_adm_log_finish(*plog, errbuf, errbuf_size)
                        : 0;
    std::lock_guard<std::mutex> lock(shared_logs_lock);
    for (SharedLog &entry : *shared_logs) {
        if (entry.log == *plog) {
            entry.held = false;
            entry.next_frame = next_frame;
        }
    }
    *plog = nullptr;
    return ret;
}

} // extern "C"
