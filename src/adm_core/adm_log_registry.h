/*
 * float_adm: the log registry, what FFmpeg's filter graph rebuilds need.
 *
 * FFmpeg rebuilds its filter graph, and so the float_adm filter, when an input
 * changes size mid-stream.  The new filter must go on writing the old one's log:
 * the same file, its frame numbers and its summary over frames, one footer at the
 * end; so must its maps' numbers, where it writes maps without a log.  The
 * registry keeps, for the whole process, one entry per log file (by device and
 * inode; stdout by name) or map pattern (by its text) with the log, whether a
 * filter holds it and the frame to go on from.  A released entry waits for the
 * next user of its file (the rebuilt filter); an ended one (float_adm_log_end,
 * float_adm_log_abandon, float_adm_map_end: the stream is over) is closed and
 * forgotten, so a later, unrelated user starts anew.  float_adm_log_acquire,
 * _release, _end and float_adm_map_acquire, _release, _end (float_adm.h) are its C
 * API; nothing else in the core touches it.
 *
 * The entries and their mutex live in one object that is never freed: a filter
 * may release its log from a destructor that runs after static objects are gone.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_LOG_REGISTRY_H
#define ADM_LOG_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include <mutex>
#include <vector>

#include "float_adm.h"

namespace adm {

class LogRegistry {
public:
    /* The process's registry. */
    static LogRegistry &process();

    /* float_adm_log_acquire with its arguments checked. */
    int acquire(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                const FloatAdmOptions *opts, int width, int height, uint64_t *next_frame,
                char *errbuf, size_t errbuf_size);
    /* float_adm_log_release of a log that acquire gave. */
    int release(FloatAdmLog **log, uint64_t next_frame, char *errbuf, size_t errbuf_size);
    /* Drops log's entry, where it has one (float_adm_log_end, float_adm_log_abandon):
     * the next acquire of its file starts anew. */
    void forget(const FloatAdmLog *log);
    /* float_adm_map_acquire with its pattern checked. */
    int acquire_maps(const char *pattern, uint64_t *next_frame, char *errbuf, size_t errbuf_size);
    /* float_adm_map_release (last: float_adm_map_end). */
    void release_maps(const char *pattern, uint64_t next_frame, bool last);

private:
    struct Entry;

    LogRegistry() = default;
    /* The entry of path's file (maps: of the map pattern); null where there is none,
     * or where path is a device. */
    Entry *find(const char *path, bool maps);
    int take_over(Entry *entry, const char *path, uint64_t *next_frame, char *errbuf,
                  size_t errbuf_size);

    std::mutex lock_;
    std::vector<Entry> entries_;
};

} // namespace adm

#endif /* ADM_LOG_REGISTRY_H */
