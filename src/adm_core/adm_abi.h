/*
 * float_adm: the checks of the _sized entry points (float_adm.h, "ABI"): the size of
 * the caller's FloatAdmOptions or FloatAdmScores against the ones this library knows.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_ABI_H
#define ADM_ABI_H

#include <cstddef>

#include "float_adm.h"

namespace adm {

/* 0 for NULL options or options of a size this library takes; else
 * FLOAT_ADM_ERROR_INVALID with a message naming both sizes. */
int check_options_size(const FloatAdmOptions *opts, size_t size, char *errbuf, size_t errbuf_size);

/* The same for scores. */
int check_scores_size(const FloatAdmScores *scores, size_t size, char *errbuf, size_t errbuf_size);

} // namespace adm

#endif /* ADM_ABI_H */
