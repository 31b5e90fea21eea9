/*
 * float_adm: logs shared by the filters of one process, one after another: FFmpeg
 * rebuilds its filter graph, and so the filter, when an input changes size, and
 * the new filter must go on with the old one's file and pooling
 * (float_adm_log_acquire, float_adm_log_release).  One entry per file, kept to
 * the end of the process.
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

#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/types.h>

#include "adm_internal.h"

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

extern "C" {

int float_adm_log_acquire(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                          const FloatAdmOptions *opts, int width, int height, uint64_t *next_frame,
                          char *errbuf, size_t errbuf_size)
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
        const int ret = float_adm_log_open(&entry.log, path, format, opts, width, height, errbuf,
                                           errbuf_size);
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

int float_adm_log_release(FloatAdmLog **plog, uint64_t next_frame, char *errbuf, size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    /* A pipe cannot take its footer back: the next user goes on and finishes it. */
    const int ret = adm::log_is_on_pipe(*plog) ? 0
                                               : float_adm_log_finish(*plog, errbuf, errbuf_size);
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
