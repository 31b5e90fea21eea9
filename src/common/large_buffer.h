/*
 * float_adm: the library's frame-sized buffers on huge pages, for the programs whose
 * threads read frames for it (float_adm_score's frames in flight).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef FLOAT_ADM_COMMON_LARGE_BUFFER_H
#define FLOAT_ADM_COMMON_LARGE_BUFFER_H

#include "adm_large_buffer.h"

using adm::LargeBuffer;

#endif /* FLOAT_ADM_COMMON_LARGE_BUFFER_H */
