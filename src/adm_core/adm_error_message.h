/*
 * float_adm: the messages of the C API's errors, written into the caller's buffer.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ERROR_MESSAGE_H
#define ADM_ERROR_MESSAGE_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>

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

} // namespace adm

#endif /* ADM_ERROR_MESSAGE_H */
