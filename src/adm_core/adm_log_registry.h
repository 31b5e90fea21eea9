/*
 * float_adm: the log registry, what FFmpeg's filter graph rebuilds need.
 *
 * FFmpeg rebuilds its filter graph, and so the float_adm filter, when an input
 * changes size mid-stream.  The new filter must go on writing the old one's log:
 * the same file, its frame numbers and its summary over frames, one footer at the
 * end.  The registry keeps, for the whole process, one entry per log file (by
 * device and inode; stdout by name) with the log, whether a filter holds it and
 * the frame to go on from.  float_adm_log_acquire and float_adm_log_release
 * (float_adm.h) are its C API; nothing else in the core touches it.
 *
 * The entries and their mutex live in one object that is never freed: the logs
 * last as long as the process, so that any later graph can take them over.
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

private:
    struct Entry;

    LogRegistry() = default;
    /* The entry of path's file; null where there is none, or where path is a device. */
    Entry *find(const char *path);

    std::mutex lock_;
    std::vector<Entry> entries_;
};

} // namespace adm

#endif /* ADM_LOG_REGISTRY_H */
