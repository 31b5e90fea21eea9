/*
 * float_adm: what a log (adm_log.cpp) tells the rest of the core beyond the C API.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_LOG_H
#define ADM_LOG_H

#include "float_adm.h"

namespace adm {

/* Whether a log writes to a pipe (or terminal): a footer written there is final,
 * so the log registry leaves it to the log's last user. */
bool log_is_on_pipe(const FloatAdmLog *log);

} // namespace adm

#endif /* ADM_LOG_H */
