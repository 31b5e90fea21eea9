/*
 * float_adm: what a log (adm_log.cpp) tells the rest of the core beyond the C API.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_LOG_H
#define ADM_LOG_H

#include <sys/stat.h>

#include "float_adm.h"

namespace adm {

/* A descriptor of this process, other than except (and, with skip_std, other than
 * stdin, stdout and stderr), open on the file st describes: a file that writing
 * would destroy (logs, and maps: adm_map_file.cpp). */
bool open_in_process(const struct stat &st, int except, bool skip_std = false);

/* float_adm_log_open with flags (FLOAT_ADM_LOG_ANY_FILE: the path taken as a program's
 * own output file takes it; float_adm_log_open_flags_sized). */
int open_log(FloatAdmLog **log, const char *path, enum FloatAdmLogFormat format,
             const FloatAdmOptions *opts, int width, int height, unsigned flags, char *errbuf,
             size_t errbuf_size);

/* The path a log was opened with ("-": stdout; empty: none), by which the log
 * registry keeps it for the path's next user. */
const char *log_path(const FloatAdmLog *log);

} // namespace adm

#endif /* ADM_LOG_H */
