/*
 * float_adm: the log registry, what FFmpeg's filter graph rebuilds need.
 *
 * FFmpeg rebuilds its filter graph, and so the float_adm filter, when an input
 * changes size mid-stream.  The new filter must go on writing the old one's log:
 * the same temporary, its frame numbers and its summary over frames, one footer and
 * one rename at the end; so must its maps' numbers, where it writes maps without a
 * log.  A plain log (float_adm_log_open, _frame, _close) never comes here: the
 * registry keeps, for the whole process, only the logs a filter released without an
 * end (float_adm_log_release), one per place (stdout by name, a file by its
 * directory and name), each with the frame to go on from, until the next user of
 * that place takes it over (float_adm_log_acquire); one that no user takes over is
 * landed as it stands when the process exits, and float_adm_log_abandon_released
 * ends one as incomplete (the rebuilt filter failed).  Map patterns are kept by
 * their text, with whether a filter holds them (float_adm_map_acquire, _release,
 * _end).  float_adm_log_acquire, _release, _end, _abandon_released and
 * float_adm_map_acquire, _release, _end (float_adm.h) are its C API; nothing else in
 * the core touches it.
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
#include <string>
#include <vector>

#include "float_adm.h"

namespace adm {

class LogRegistry {
public:
    /* The process's registry. */
    static LogRegistry &process();

    /* float_adm_log_acquire with its arguments checked: the log released for path's
     * place, else a new one (float_adm_log_open). */
    int acquire(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
                const FloatAdmOptions *opts, int width, int height, uint64_t *next_frame,
                char *errbuf, size_t errbuf_size);
    /* The log released for path's place, taken out of the registry (*next_frame the
     * frame to go on from); null where none waits. */
    FloatAdmLog *take_released(const char *path, uint64_t *next_frame);
    /* float_adm_log_release: keeps *log for the next user of path's place (a device's
     * log, or one released while the process exits, is closed at once). */
    int release(FloatAdmLog **log, uint64_t next_frame, const char *path, char *errbuf,
                size_t errbuf_size);
    /* Drops log's entry, where it has one (float_adm_log_end, float_adm_log_abandon). */
    void forget(const FloatAdmLog *log);
    /* Closes every log released and never taken over (at exit). */
    void land_all();
    /* float_adm_map_acquire with its pattern checked. */
    int acquire_maps(const char *pattern, uint64_t *next_frame, char *errbuf, size_t errbuf_size);
    /* float_adm_map_release (last: float_adm_map_end). */
    void release_maps(const char *pattern, uint64_t next_frame, bool last);

private:
    struct Entry;

    LogRegistry() = default;
    Entry *find_maps(const char *pattern);
    int take_over(Entry *entry, const char *path, uint64_t *next_frame, char *errbuf,
                  size_t errbuf_size);

    std::mutex lock_;
    std::vector<Entry> entries_;
    bool lands_at_exit_ = false; /* land_all is registered with atexit */
    bool exiting_ = false;       /* land_all has run: a log released now is closed */
};

} // namespace adm

#endif /* ADM_LOG_REGISTRY_H */
