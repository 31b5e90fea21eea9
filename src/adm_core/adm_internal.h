/*
 * float_adm: internal declarations of the C++ core.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_INTERNAL_H
#define ADM_INTERNAL_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <sys/stat.h>

#include "float_adm.h"

namespace adm {

/* printf into a caller's error buffer (which may be NULL). */
inline void format_error(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
inline void format_error(char *buf, size_t size, const char *fmt, ...)
{
    if (!buf || !size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* A descriptor of this process, other than except (and, with skip_std, other than
 * stdin, stdout and stderr), open on the file st describes (adm_log.cpp): a file
 * that writing would destroy. */
bool open_in_process(const struct stat &st, int except, bool skip_std = false);

/* Whether a log writes to a pipe (or terminal): a footer written there is final. */
bool log_is_on_pipe(const FloatAdmLog *log);

} // namespace adm

#endif /* ADM_INTERNAL_H */
