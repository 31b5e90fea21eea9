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

#include "score_outputs.h"

#include <cstdio>

#include <unistd.h>

#include "cli_error.h"

namespace {

/* Each log begun in the run's files (float_adm_run_files_begin_output), which hold the
 * inputs already: a log over an input, a link, a FIFO, another program's file or
 * another log, a second writer to stdout, or a path another run is writing, is
 * refused before anything is written; the log goes to its locked temporary, renamed
 * into place with the others when the run ends. */
FloatAdmOutput *begin_log(FloatAdmRunFiles *files, const LogRequest &request)
{
    char message[512] = "";
    FloatAdmOutput *output = nullptr;
    const int target = float_adm_run_files_begin_output(files, request.path.c_str(),
                                                        FLOAT_ADM_OUTPUT_LOG, request.flag.c_str(),
                                                        &output, message, sizeof(message));
    if (target < 0)
        throw CliError(message[0] ? message : request.path + ": " + float_adm_strerror(target));
    return output;
}

/* Logs are opened before scoring, so that a bad path fails at once.  No output: the
 * summary over frames alone. */
LogPtr open_log(const LogRequest &request, FloatAdmOutput *output, const FloatAdmOptions &options,
                const InputGeometry &geometry)
{
    char message[512] = "";
    FloatAdmLog *log = nullptr;
    int err = float_adm_log_open(&log, nullptr, request.format, &options, geometry.width,
                                 geometry.height, message, sizeof(message));
    LogPtr owned(log);
    if (err >= 0 && output)
        err = float_adm_log_set_output(log, output, message, sizeof(message));
    if (err < 0)
        throw CliError(message[0] ? message : request.path + ": " + float_adm_strerror(err));
    return owned;
}

/* Turns a log call's failure into the tool's error. */
void check_log(int err, const char *message, const std::string &path)
{
    if (err < 0)
        throw CliError(message[0] ? message : path + ": " + float_adm_strerror(err));
}

} // namespace

ScoreOutputs::ScoreOutputs(const CommandLine &command_line, const FloatAdmOptions &options,
                           const InputGeometry &geometry, FloatAdmRunFiles *files,
                           unsigned long long frame_count)
    : files_(files), frame_count_(frame_count)
{
    std::vector<FloatAdmOutput *> outputs;
    for (const LogRequest &request : command_line.logs)
        outputs.push_back(request.path.empty() ? nullptr : begin_log(files, request));
    for (size_t i = 0; i < outputs.size(); i++)
        logs_.emplace_back(&command_line.logs[i],
                           open_log(command_line.logs[i], outputs[i], options, geometry));
    const LogRequest summary_only{"", FLOAT_ADM_LOG_JSON, ""};
    summary_ = open_log(summary_only, nullptr, options, geometry);
    /* A log on stdout, under any name, has stdout to itself. */
    print_summary_ = !command_line.quiet && !float_adm_run_files_stdout_taken(files);
    print_table_ = print_summary_ && command_line.per_frame;
    /* As vmaf: a counter on a terminal, nothing in a pipe or a file. */
    show_progress_ = !command_line.quiet && isatty(STDERR_FILENO);
    started_ = last_shown_ = std::chrono::steady_clock::now();
    if (print_table_)
        std::printf("%6s  %-10s  %-10s  %-10s\n", "frame", "adm2", "aim", "adm3");
}

void ScoreOutputs::add(unsigned long long frame, const FloatAdmScores &scores)
{
    char message[512];
    for (auto &log : logs_) {
        message[0] = '\0';
        check_log(float_adm_log_frame(log.second.get(), frame, &scores, message, sizeof(message)),
                  message, log.first->path);
    }
    check_log(float_adm_log_frame(summary_.get(), frame, &scores, nullptr, 0), "", "");
    if (print_table_)
        std::printf("%6llu  %.8f  %.8f  %.8f\n", frame, scores.adm2, scores.aim, scores.adm3);
    scored_++;
    show_progress(false);
}

/* vmaf's counter: "\r" then the frames scored and the speed, at most a few times a
 * second; the last one stays, ended by a newline. */
void ScoreOutputs::show_progress(bool last)
{
    if (!show_progress_)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (!last && now - last_shown_ < std::chrono::milliseconds(200))
        return;
    last_shown_ = now;
    const double seconds = std::chrono::duration<double>(now - started_).count();
    if (frame_count_) /* 0: a stream's, not known before its end */
        std::fprintf(stderr, "\r%llu/%llu frames %.2f FPS%s", scored_, frame_count_,
                     seconds > 0 ? scored_ / seconds : 0.0, last ? "\n" : "");
    else
        std::fprintf(stderr, "\r%llu frames %.2f FPS%s", scored_,
                     seconds > 0 ? scored_ / seconds : 0.0, last ? "\n" : "");
}

void ScoreOutputs::finish()
{
    show_progress(true);
    char message[512];
    for (auto &log : logs_) {
        FloatAdmLog *raw = log.second.release();
        message[0] = '\0';
        check_log(float_adm_log_close(&raw, message, sizeof(message)), message, log.first->path);
    }
    /* Every log written whole: now they land, all of them, or none. */
    message[0] = '\0';
    check_log(float_adm_run_files_commit(files_, message, sizeof(message)), message, "the logs");
    /* The pooled means, as vmaf prints its pooled scores ("%s: %f"). */
    FloatAdmPooled pooled;
    for (int i = 0; print_summary_ && float_adm_log_pooled(summary_.get(), i, &pooled) == 0; i++)
        std::printf("%s: %f\n", float_adm_log_output_name(summary_.get(), i), pooled.mean);
}
