/*
 * float_adm_score: scores raw YUV and y4m files with the float ADM core.
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

/* Where each scored frame goes: the logs asked for, the pooled summary, the
 * per-frame table (--per-frame) and, on a terminal, the live counter. */

#ifndef FLOAT_ADM_CLI_SCORE_OUTPUTS_H
#define FLOAT_ADM_CLI_SCORE_OUTPUTS_H

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "command_line.h"
#include "float_adm.h"
#include "pixel_format.h"

/* A log still open when the outputs go is one of a run that failed (finish() closes
 * the others): it ends as incomplete, never with a finished-looking footer; a file's
 * temporary is then removed with the run's files, and the path keeps what it held. */
struct LogCloser {
    void operator()(FloatAdmLog *log) const
    {
        float_adm_log_abandon(&log, "float_adm_score failed before the end of the inputs", nullptr,
                              0);
    }
};
using LogPtr = std::unique_ptr<FloatAdmLog, LogCloser>;

class ScoreOutputs {
public:
    /** Begins every log asked for in files (the run's, its inputs registered: each
     *  file's temporary made and locked), then opens them, so that a bad path, or one
     *  another run writes, fails before any frame is scored.  files outlives this.
     *  Throws CliError. */
    ScoreOutputs(const CommandLine &command_line, const FloatAdmOptions &options,
                 const InputGeometry &geometry, FloatAdmRunFiles *files,
                 unsigned long long frame_count);

    /** One scored frame, in order, whichever backend scored it. */
    void add(unsigned long long frame, const FloatAdmScores &scores);

    /** Completes every log and lands them all (the run's files committed), then
     *  prints the pooled means as vmaf prints them. */
    void finish();

private:
    void show_progress(bool last);

    FloatAdmRunFiles *files_;
    std::vector<std::pair<const LogRequest *, LogPtr>> logs_;
    LogPtr summary_; /* the summary and the names, whatever logs were asked for */
    bool print_summary_ = false;
    bool print_table_ = false;
    bool show_progress_ = false; /* stderr is a terminal */
    unsigned long long frame_count_ = 0;
    unsigned long long scored_ = 0;
    std::chrono::steady_clock::time_point started_, last_shown_;
};

#endif /* FLOAT_ADM_CLI_SCORE_OUTPUTS_H */
