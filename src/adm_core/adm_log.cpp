/*
 * float_adm: per-frame logs: the file a log writes (created, checked, finished and
 * reopened) and the C API of float_adm_log_*; the layouts are adm_log_layout.cpp's,
 * the names adm_names.cpp's, the summary over frames adm_summary.cpp's.
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
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "adm_error_message.h"
#include "adm_log.h"
#include "adm_log_layout.h"
#include "adm_log_registry.h"
#include "adm_names.h"
#include "adm_output_policy.h"
#include "adm_summary.h"
#include "float_adm.h"

struct FloatAdmLog {
    FILE *file = nullptr; /* null: the summary only */
    /* Where the file's bytes land: the log's own output (float_adm_log_open: renamed into
     * place when it closes), or a run's (float_adm_log_open_output: its run commits it). */
    std::unique_ptr<adm::OutputFile> own_output;
    FloatAdmOutput *run_output = nullptr;
    bool is_stdout = false;
    bool regular = false; /* a regular file: fsync, and seek back after finish */
    std::string name;     /* the path, or "stdout", for messages */
    std::string path;     /* the path as given ("-": stdout), where the log has one */
    adm::LogLayout layout;
    std::chrono::steady_clock::time_point opened; /* the start of the fps clock */
    bool fps_given = false; /* the caller's fps (float_adm_log_set_fps), not the clock's */
    double fps = NAN;
    off_t fps_offset = -1; /* where the header's fps field lies; -1: not rewritable */
    bool header_written = false;
    uint64_t entries = 0; /* frames and skipped frames in the file */
    adm::FrameStats stats[FLOAT_ADM_NUM_DEBUG_OUTPUTS];
    adm::LogPairing pairing; /* float_adm_log_add_pairing's counts */
    bool finished = false;
    off_t footer_start = -1; /* where the last footer began; -1: cannot seek back */
    std::string error;       /* the first write error: nothing is written after it */
};

namespace {

/* A log writes to stdout: the process has one stdout, and two logs there would mix. */
std::atomic<bool> stdout_taken{false};

int num_outputs(const FloatAdmLog *log) { return static_cast<int>(log->layout.names.size()); }

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
    const std::string header = adm::header_text(log->layout, &fps_at);
    /* Every byte before here is flushed, so the header starts here. */
    const off_t start = log->layout.fps_padded ? ftello(log->file) : -1;
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
    double fps = log->fps;
    if (!log->fps_given) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - log->opened).count();
        fps = static_cast<double>(log->stats[0].count) / seconds;
    }
    const std::string field = adm::fps_field(log->layout, adm::fps_text(log->layout, fps));
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

} // namespace

/* A descriptor of this process, other than except (and, with skip_std, other than
 * stdin, stdout and stderr), open on the file st describes. */
bool adm::open_in_process(const struct stat &st, int except, bool skip_std)
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

namespace {

/* Writes to what output began (the policy asked, a temporary made and locked): a
 * temporary or /dev/null through a FILE of its own; stdout is use_stdout's. */
int open_on(FloatAdmLog *log, const adm::OutputFile &output, char *errbuf, size_t errbuf_size)
{
    if (output.target() == FLOAT_ADM_TARGET_STDOUT)
        return FLOAT_ADM_TARGET_STDOUT;
    log->regular = output.target() != FLOAT_ADM_TARGET_DISCARD;
    log->layout.fps_padded = log->regular;
    const int fd = fcntl(output.fd(), F_DUPFD_CLOEXEC, 0);
    log->file = fd < 0 ? nullptr : fdopen(fd, "w");
    if (!log->file) {
        adm::format_error(errbuf, errbuf_size, "%s: cannot write: %s", output.path().c_str(),
                          std::strerror(errno));
        if (fd >= 0)
            close(fd);
        return FLOAT_ADM_ERROR_IO;
    }
    return 0;
}

/* A log of its own at path: checked by the output policy (or, FLOAT_ADM_LOG_ANY_FILE,
 * taken as a program's own output file), written to a locked temporary beside it that
 * close renames into place. */
int open_file(FloatAdmLog *log, const char *path, adm::OutputRule rule, char *errbuf,
              size_t errbuf_size)
{
    log->own_output.reset(new adm::OutputFile);
    const int target = log->own_output->begin(path, FLOAT_ADM_OUTPUT_LOG, {}, errbuf, errbuf_size,
                                              rule);
    if (target < 0)
        return target;
    return open_on(log, *log->own_output, errbuf, errbuf_size);
}

/* stdout, unless another descriptor of this process writes there too: an output
 * on stdout (FFmpeg's pipe protocol holds its own copy of the descriptor) would
 * interleave with the log.  /dev/null keeps nothing, so nothing is mixed up. */
int use_stdout(FloatAdmLog *log, char *errbuf, size_t errbuf_size)
{
    if (stdout_taken.exchange(true)) {
        adm::format_error(errbuf, errbuf_size,
                          "refusing to write the log to stdout: another log of this process "
                          "writes there; one writer each");
        return FLOAT_ADM_ERROR_BUSY;
    }
    struct stat st;
    log->file = stdout;
    log->is_stdout = true;
    log->name = "stdout";
    if (fstat(STDOUT_FILENO, &st) != 0)
        return 0;
    log->regular = S_ISREG(st.st_mode);
    if ((!S_ISCHR(st.st_mode) || isatty(STDOUT_FILENO)) && adm::open_in_process(st, -1, true)) {
        adm::format_error(errbuf, errbuf_size,
                          "refusing to write the log to stdout: this process has stdout open "
                          "for something else too (an output?), which the log would be "
                          "mixed into; give the log a file of its own");
        log->file = nullptr;
        log->is_stdout = false;
        stdout_taken = false;
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
    ret = write_checked(log, adm::footer_text(log->layout, log->stats, log->pairing), errbuf,
                        errbuf_size);
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

int adm::open_log(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                  const FloatAdmOptions *opts, int width, int height, unsigned flags, char *errbuf,
                  size_t errbuf_size)
{
    if (!out) {
        adm::format_error(errbuf, errbuf_size, "no log pointer given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *out = nullptr;
    if (flags & ~static_cast<unsigned>(FLOAT_ADM_LOG_ANY_FILE)) {
        adm::format_error(errbuf, errbuf_size, "unknown log flags 0x%x", flags);
        return FLOAT_ADM_ERROR_INVALID;
    }
    const adm::OutputRule rule = flags & FLOAT_ADM_LOG_ANY_FILE ? adm::OutputRule::any_file
                                                                : adm::OutputRule::policy;
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
        log->layout.format = format;
        log->layout.names = adm::output_names(*opts, num_outputs);
        log->layout.width = width;
        log->layout.height = height;
        log->opened = std::chrono::steady_clock::now();
        if (path) {
            log->name = path;
            log->path = path;
            int ret = open_file(log, path, rule, errbuf, errbuf_size);
            if (ret == FLOAT_ADM_TARGET_STDOUT)
                ret = use_stdout(log, errbuf, errbuf_size);
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

extern "C" {

int float_adm_log_open(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                       const FloatAdmOptions *opts, int width, int height, char *errbuf,
                       size_t errbuf_size)
{
    return adm::open_log(out, path, format, opts, width, height, 0, errbuf, errbuf_size);
}

int float_adm_log_set_output(FloatAdmLog *log, FloatAdmOutput *output, char *errbuf,
                             size_t errbuf_size)
{
    if (!log || !output) {
        adm::format_error(errbuf, errbuf_size, "no log or no output given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    const adm::OutputFile &file = *adm::output_file(output);
    if (log->file || log->entries || file.kind() != FLOAT_ADM_OUTPUT_LOG || file.fd() < 0) {
        adm::format_error(errbuf, errbuf_size,
                          "%s: a log takes an output of its run before its first entry, "
                          "once, and only an output begun as a log",
                          file.path().c_str());
        return FLOAT_ADM_ERROR_INVALID;
    }
    try {
        log->name = file.path();
        log->path = file.path();
        int ret = open_on(log, file, errbuf, errbuf_size);
        if (ret == FLOAT_ADM_TARGET_STDOUT)
            ret = use_stdout(log, errbuf, errbuf_size);
        if (ret < 0) {
            log->file = nullptr;
            log->is_stdout = false;
            return ret;
        }
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for a log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
    log->run_output = output;
    adm::count_writer(output, 1);
    return 0;
}

int float_adm_log_frame(FloatAdmLog *log, uint64_t frame_num, const FloatAdmScores *scores,
                        char *errbuf, size_t errbuf_size)
{
    return float_adm_log_frame_at(log, frame_num, NAN, scores, errbuf, errbuf_size);
}

int float_adm_log_frame_at(FloatAdmLog *log, uint64_t frame_num, double timestamp,
                           const FloatAdmScores *scores, char *errbuf, size_t errbuf_size)
{
    if (!log || !scores) {
        adm::format_error(errbuf, errbuf_size, "no log or no scores given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    for (int i = 0; i < num_outputs(log); i++)
        log->stats[i].add(float_adm_output_value(scores, i));
    try {
        return write_entry(
            log,
            log->file ? adm::frame_text(log->layout, !log->entries, frame_num, timestamp, scores)
                      : std::string(),
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
                           log->file ? adm::skipped_text(log->layout, !log->entries, frame_num,
                                                         reason ? reason : "")
                                     : std::string(),
                           errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory writing the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_add_pairing(FloatAdmLog *log, uint64_t pairs, const uint64_t *doubts,
                              int num_doubts, char *errbuf, size_t errbuf_size)
{
    if (!log || (num_doubts && !doubts)) {
        adm::format_error(errbuf, errbuf_size, "no log or no counts given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (num_doubts < 0 || num_doubts > FLOAT_ADM_NUM_PAIR_DOUBTS) {
        adm::format_error(errbuf, errbuf_size,
                          "counts of %d kinds of pairs in doubt: libfloatadm %s knows %d",
                          num_doubts, float_adm_version(), FLOAT_ADM_NUM_PAIR_DOUBTS);
        return FLOAT_ADM_ERROR_INVALID;
    }
    if (!log->error.empty()) {
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        return FLOAT_ADM_ERROR_IO;
    }
    /* The footer goes out again, with the pairing, when the log closes. */
    if (log->file && log->finished) {
        const int ret = reopen_after_finish(log, errbuf, errbuf_size);
        if (ret < 0)
            return ret;
    }
    log->finished = false;
    adm::LogPairing &pairing = log->pairing;
    pairing.num_doubts = pairing.given ? std::min(pairing.num_doubts, num_doubts) : num_doubts;
    pairing.given = true;
    pairing.pairs += pairs;
    for (int i = 0; i < num_doubts; i++)
        pairing.doubts[i] += doubts[i];
    return 0;
}

const char *float_adm_log_output_name(const FloatAdmLog *log, int output)
{
    if (!log || output < 0 || output >= num_outputs(log))
        return nullptr;
    return log->layout.names[static_cast<size_t>(output)].c_str();
}

int float_adm_log_set_fps(FloatAdmLog *log, double fps)
{
    if (!log)
        return FLOAT_ADM_ERROR_INVALID;
    log->fps_given = true;
    log->fps = fps;
    return 0;
}

uint64_t float_adm_log_frame_count(const FloatAdmLog *log) { return log ? log->stats[0].count : 0; }

int float_adm_log_pooled(const FloatAdmLog *log, int output, FloatAdmPooled *pooled)
{
    if (!log || !pooled || output < 0 || output >= num_outputs(log) || !log->stats[0].count)
        return FLOAT_ADM_ERROR_INVALID;
    *pooled = log->stats[output].result();
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
        if (log->is_stdout)
            stdout_taken = false;
    }
    /* An earlier error (a frame, or going on after a finish) makes the file incomplete. */
    if (ret >= 0 && !log->error.empty()) {
        adm::format_error(errbuf, errbuf_size, "%s", log->error.c_str());
        ret = FLOAT_ADM_ERROR_IO;
    }
    /* The whole file lands, or none of it (its temporary goes with the log). */
    if (ret >= 0 && log->own_output)
        ret = log->own_output->commit(errbuf, errbuf_size);
    if (log->run_output)
        adm::count_writer(log->run_output, -1);
    delete log;
    return ret;
}

int float_adm_log_abandon(FloatAdmLog **plog, const char *reason, char *errbuf, size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    FloatAdmLog *log = *plog;
    int ret = 0;
    try {
        /* A footer already written goes: the file must not read as finished. */
        if (log->file && log->error.empty() && log->finished)
            ret = reopen_after_finish(log, errbuf, errbuf_size);
        if (log->file && log->error.empty() && ret >= 0) {
            const std::string end = adm::incomplete_text(
                log->layout, reason && *reason ? reason : "the run failed");
            ret = write_with_header(log, end, errbuf, errbuf_size);
            if (ret >= 0)
                ret = write_fps(log, errbuf, errbuf_size);
            if (ret >= 0 && log->regular && fsync(fileno(log->file)) != 0)
                ret = fail_io(log, "cannot sync", errno, errbuf, errbuf_size);
        }
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory writing the log");
        ret = FLOAT_ADM_ERROR_NOMEM;
    }
    /* Closed as it stands: nothing may follow, not even a footer. */
    log->finished = true;
    log->error.clear();
    adm::LogRegistry::process().forget(log);
    const int closed = float_adm_log_close(plog, ret < 0 ? nullptr : errbuf, errbuf_size);
    return ret < 0 ? ret : closed;
}

} // extern "C"

const char *adm::log_path(const FloatAdmLog *log) { return log->path.c_str(); }
