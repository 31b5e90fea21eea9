/*
 * float_adm: the output policy (float_adm_output_check, float_adm.h) as the core's
 * writers use it: checked, then opened without following a link planted since.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_OUTPUT_POLICY_H
#define ADM_OUTPUT_POLICY_H

#include <stddef.h>

#include "float_adm.h"

namespace adm {

/* Checks path by the policy, then opens it for writing: NEW is created (never
 * through a link), REPLACE opened without following links and truncated once it is
 * known to be the file checked, DISCARD opened as it is.  Returns the target
 * (*fd the descriptor, close-on-exec), or STDOUT with *fd -1, or an error with a
 * message. */
int open_output(const char *path, enum FloatAdmOutputKind kind, int *fd, char *errbuf,
                size_t errbuf_size);

} // namespace adm

#endif /* ADM_OUTPUT_POLICY_H */
