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

#include <cstdio>
#include <cstdlib>
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
#include "adm_output_policy.h"
#include "float_adm.h"

namespace adm {

struct LogRegistry::Entry {
    std::string path;  /* a map pattern, or a log's key (log_key) */
    bool maps = false; /* the frame numbers of a map pattern: no log */
    FloatAdmLog *log = nullptr; /* a log released, waiting for the next user of its path */
    bool held = false;          /* a map pattern's: a user writes it now */
    uint64_t next_frame = 0;
};

LogRegistry &LogRegistry::process()
{
    /* Never freed: a filter may release its log from a destructor that runs after
     * static objects are gone, and a later graph must still find the entry. */
    static LogRegistry *const registry = new LogRegistry;
    return *registry;
}

/* Where a log goes, as one key however the path names it: stdout by name, a file by
 * its directory (by identity) and its name, as the file itself may not exist before the
 * log lands; empty for a device (/dev/null), which keeps nothing to go on with. */
static std::string log_key(const char *path)
{
    if (!std::strcmp(path, "-"))
        return "-";
    struct stat st;
    if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
        return std::string();
    const std::string directory = parent_directory(path);
    const std::string name = std::string(path).substr(std::string(path).find_last_of('/') + 1);
    if (stat(directory.c_str(), &st) != 0)
        return "path " + std::string(path);
    return "file " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + "/" + name;
}

LogRegistry::Entry *LogRegistry::find_maps(const char *pattern)
{
    for (Entry &entry : entries_) {
        if (entry.maps && entry.path == pattern)
            return &entry;
    }
    return nullptr;
}

/* A map pattern's entry, taken over where it was released; BUSY where another holds it. */
int LogRegistry::take_over(Entry *entry, const char *path, uint64_t *next_frame, char *errbuf,
                           size_t errbuf_size)
{
    if (entry->held) {
        format_error(errbuf, errbuf_size,
                     "%s: another map writer of this process writes these "
                     "maps",
                     path);
        return FLOAT_ADM_ERROR_BUSY;
    }
    entry->held = true;
    *next_frame = entry->next_frame;
    return 0;
}

FloatAdmLog *LogRegistry::take_released(const char *path, uint64_t *next_frame)
{
    const std::string key = log_key(path);
    std::lock_guard<std::mutex> hold(lock_);
    for (auto entry = entries_.begin(); !key.empty() && entry != entries_.end(); ++entry) {
        if (!entry->maps && entry->path == key) {
            FloatAdmLog *log = entry->log;
            *next_frame = entry->next_frame;
            entries_.erase(entry);
            return log;
        }
    }
    return nullptr;
}

int LogRegistry::acquire(FloatAdmLog **out, const char *path, enum FloatAdmLogFormat format,
                         const FloatAdmOptions *opts, int width, int height, uint64_t *next_frame,
                         char *errbuf, size_t errbuf_size)
{
    if ((*out = take_released(path, next_frame)))
        return 0;
    return float_adm_log_open(out, path, format, opts, width, height, errbuf, errbuf_size);
}

/* Lands every log still waiting for a next user: the process ends, and none came. */
static void land_released_logs() { LogRegistry::process().land_all(); }

void LogRegistry::land_all()
{
    std::vector<FloatAdmLog *> waiting;
    {
        std::lock_guard<std::mutex> hold(lock_);
        exiting_ = true;
        for (auto entry = entries_.begin(); entry != entries_.end();) {
            if (entry->maps) {
                ++entry;
                continue;
            }
            waiting.push_back(entry->log);
            entry = entries_.erase(entry);
        }
    }
    for (FloatAdmLog *log : waiting) {
        char errbuf[512] = "";
        /* Nobody is left to tell: the error goes where a program's last words go. */
        if (float_adm_log_close(&log, errbuf, sizeof(errbuf)) < 0)
            std::fprintf(stderr, "float_adm: %s\n", errbuf);
    }
}

int LogRegistry::release(FloatAdmLog **plog, uint64_t next_frame, const char *path, char *errbuf,
                         size_t errbuf_size)
{
    FloatAdmLog *log = *plog;
    *plog = nullptr;
    const std::string key = log_key(path);
    bool land_now = key.empty();
    {
        std::lock_guard<std::mutex> hold(lock_);
        land_now = land_now || exiting_;
        if (!land_now) {
            Entry entry;
            entry.path = key;
            entry.log = log;
            entry.next_frame = next_frame;
            entries_.push_back(entry);
            if (!lands_at_exit_)
                lands_at_exit_ = std::atexit(land_released_logs) == 0;
        }
    }
    return land_now ? float_adm_log_close(&log, errbuf, errbuf_size) : 0;
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
    if (Entry *entry = find_maps(pattern))
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
    try {
        return adm::LogRegistry::process().release(plog, next_frame, adm::log_path(*plog), errbuf,
                                                   errbuf_size);
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory keeping the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_log_abandon_released(const char *path, const char *reason, char *errbuf,
                                   size_t errbuf_size)
{
    if (!path) {
        adm::format_error(errbuf, errbuf_size, "no log path given");
        return FLOAT_ADM_ERROR_INVALID;
    }
    uint64_t next_frame;
    try {
        FloatAdmLog *log = adm::LogRegistry::process().take_released(path, &next_frame);
        return log ? float_adm_log_abandon(&log, reason, errbuf, errbuf_size) : 0;
    } catch (const std::bad_alloc &) {
        adm::format_error(errbuf, errbuf_size, "out of memory ending the log");
        return FLOAT_ADM_ERROR_NOMEM;
    }
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
