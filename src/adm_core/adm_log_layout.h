/*
 * float_adm: libvmaf's four log layouts as text (float_adm.h says what each holds).
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef ADM_LOG_LAYOUT_H
#define ADM_LOG_LAYOUT_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "adm_summary.h"
#include "float_adm.h"

namespace adm {

/* What a log's text depends on besides its entries. */
struct LogLayout {
    FloatAdmLogFormat format = FLOAT_ADM_LOG_JSON;
    std::vector<std::string> names; /* libvmaf's name of each output */
    int width = 0, height = 0;
    bool fps_padded = false; /* the fps is filled in later: leave room for it */
};

/* A run's pairing (float_adm_log_add_pairing): the pairs checked and the frames of
 * each kind of pair in doubt. */
struct LogPairing {
    bool given = false;
    uint64_t pairs = 0;
    int num_doubts = FLOAT_ADM_NUM_PAIR_DOUBTS; /* the kinds every caller counted */
    uint64_t doubts[FLOAT_ADM_NUM_PAIR_DOUBTS] = {};
};

/* The fps, %.2f, or what libvmaf writes for an fps it has no number for. */
std::string fps_text(const LogLayout &layout, double fps);
/* The fps value and what closes it (XML: the quote), padded where it is filled in later. */
std::string fps_field(const LogLayout &layout, const std::string &value);
/* The header; *fps_at is where its fps field starts (npos: it has none). */
std::string header_text(const LogLayout &layout, size_t *fps_at);
/* One frame; first: the first entry of the file.  timestamp NaN: none. */
std::string frame_text(const LogLayout &layout, bool first, uint64_t frame_num, double timestamp,
                       const FloatAdmScores *scores);
/* A frame that was not scored. */
std::string skipped_text(const LogLayout &layout, bool first, uint64_t frame_num,
                         const char *reason);
/* The end: the pooled metrics of stats (one per output) for JSON and XML, then the
 * pairing where one was given. */
std::string footer_text(const LogLayout &layout, const FrameStats *stats,
                        const LogPairing &pairing);
/* The end of a log whose run failed, in place of the footer (float_adm_log_abandon):
 * no pooled metrics, the reason instead. */
std::string incomplete_text(const LogLayout &layout, const char *reason);

} // namespace adm

#endif /* ADM_LOG_LAYOUT_H */
