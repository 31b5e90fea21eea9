/*
 * float_adm: the log registry (adm_log_registry.h) and the C API over it,
 * float_adm_log_acquire, float_adm_log_release and float_adm_log_end, and the map
 * patterns' frame numbers (float_adm_map_acquire, _release, _end).
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

#include "adm_error_message.h"
#include "adm_log.h"
#include "adm_log_registry.h"
#include "float_adm.h"

namespace adm {

struct LogRegistry::Entry {
    std::string path;  /* a map pattern, "-", or a file's path as first given */
    bool maps = false; /* the frame numbers of a map pattern: no log */
    dev_t dev = 0;
    ino_t ino = 0;
    bool is_file = false;
    FloatAdmLog *log = nullptr;
    bool held = false;
    uint64_t next_frame = 0;
};

LogRegistry &LogRegistry::process()
{
    /* Never freed: a filter may release its log from a destructor that runs after
     * static objects are gone, and a later graph must still find the entry. */
    static LogRegistry *const registry = new LogRegistry;
    return *registry;
}

LogRegistry::Entry *LogRegistry::find(const char *path, bool maps)
{
    struct stat st;
    const bool is_file = !maps && std::strcmp(path, "-") != 0 && stat(path, &st) == 0;
    /* A device (/dev/null) keeps no file that two logs could garble: each has its own. */
    if (is_file && S_ISCHR(st.st_mode))
        return nullptr;
    for (Entry &entry : entries_) {
        if (entry.maps != maps)
            continue;
        if (is_file ? entry.is_file && entry.dev == st.st_dev && entry.ino == st.st_ino
                    : !entry.is_file && entry.path == path)
            return &entry;
    }
    return nullptr;
}

/* The entry held under that key (a log, or a map pattern), taken over where it was
 * released; BUSY where another holds it. */
int LogRegistry::take_over(Entry *entry, const char *path, uint64_t *next_frame, char *errbuf,
                           size_t errbuf_size)
{
    if (entry->held) {
        format_error(errbuf, errbuf_size, "%s: another %s of this process writes %s", path,
                     entry->maps ? "map writer" : "log", entry->maps ? "these maps" : "this file");
        return FLOAT_ADM_ERROR_BUSY;
    }
    entry->held = true;
    *next_frame = entry->next_frame;
    return 0;
}

int LogRegistry::acquire(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                         const FloatAdmOptions *opts, int width, int height, uint64_t *next_frame,
                         char *errbuf, size_t errbuf_size)
{
    std::lock_guard<std::mutex> hold(lock_);
    if (Entry *entry = find(path, false)) {
        const int ret = take_over(entry, path, next_frame, errbuf, errbuf_size);
        if (ret >= 0)
            *out = entry->log;
        return ret;
    }
    Entry entry;
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
    entries_.push_back(entry);
    *out = entry.log;
    return 0;
}

int LogRegistry::release(FloatAdmLog **plog, uint64_t next_frame, char *errbuf, size_t errbuf_size)
{
    /* A pipe cannot take its footer back: the next user goes on and finishes it. */
    const int ret = log_is_on_pipe(*plog) ? 0 : float_adm_log_finish(*plog, errbuf, errbuf_size);
    std::lock_guard<std::mutex> hold(lock_);
    for (Entry &entry : entries_) {
        if (entry.log == *plog) {
            entry.held = false;
            entry.next_frame = next_frame;
        }
    }
    *plog = nullptr;
    return ret;
}

void LogRegistry::forget(const FloatAdmLog *log)
{
    std::lock_guard<std::mutex> hold(lock_);
    for (auto entry = entries_.begin(); entry != entries_.end(); ++entry) {
        if (!entry->maps && entry->log == log) {
            entries_.erase(entry);
            return;
        }
    }
}

int LogRegistry::acquire_maps(const char *pattern, uint64_t *next_frame, char *errbuf,
                              size_t errbuf_size)
{
    std::lock_guard<std::mutex> hold(lock_);
    if (Entry *entry = find(pattern, true))
        return take_over(entry, pattern, next_frame, errbuf, errbuf_size);
    Entry entry;
    entry.path = pattern;
    entry.maps = true;
    entry.held = true;
    entries_.push_back(entry);
    return 0;
}

void LogRegistry::release_maps(const char *pattern, uint64_t next_frame, bool last)
{
    std::lock_guard<std::mutex> hold(lock_);
    for (auto entry = entries_.begin(); entry != entries_.end(); ++entry) {
        if (entry->maps && entry->path == pattern) {
            if (last) {
                entries_.erase(entry);
                return;
            }
            entry->held = false;
            entry->next_frame = next_frame;
            return;
        }
    }
}

} // namespace adm

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
        return adm::LogRegistry::process().acquire(out, path, format, opts, width, height,
                                                   next_frame, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory opening the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_release(FloatAdmLog **plog, uint64_t next_frame, char *errbuf, size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    return adm::LogRegistry::process().release(plog, next_frame, errbuf, errbuf_size);
}

int float_adm_log_end(FloatAdmLog **plog, char *errbuf, size_t errbuf_size)
{
    if (!plog || !*plog)
        return 0;
    /* Forgotten first: the next acquire of the file starts a log of its own. */
    adm::LogRegistry::process().forget(*plog);
    return float_adm_log_close(plog, errbuf, errbuf_size);
}

int float_adm_map_acquire(const char *pattern, uint64_t *next_frame, char *errbuf,
                          size_t errbuf_size)
{
    if (!next_frame) {
        adm::format_error(errbuf, errbuf_size, "no frame number given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    *next_frame = 0;
    const int ret = float_adm_map_pattern_check(pattern, errbuf, errbuf_size);
    if (ret < 0)
        return ret;
    try {
        return adm::LogRegistry::process().acquire_maps(pattern, next_frame, errbuf, errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory for the maps' frame numbers");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

void float_adm_map_release(const char *pattern, uint64_t next_frame)
{
    if (pattern)
        adm::LogRegistry::process().release_maps(pattern, next_frame, false);
}

void float_adm_map_end(const char *pattern)
{
    if (pattern)
        adm::LogRegistry::process().release_maps(pattern, 0, true);
}

} // extern "C"
