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

/* float_adm_score's command line: its own long options and vmaf's dialect. */

#ifndef FLOAT_ADM_CLI_COMMAND_LINE_H
#define FLOAT_ADM_CLI_COMMAND_LINE_H

#include <string>
#include <vector>

#include "float_adm.h"
#include "pixel_format.h"

extern const char program_name[];

/* A log asked for on the command line: --json OUT, ..., or vmaf's -o OUT. */
struct LogRequest {
    std::string flag; /* "--json", "-o", ...: as typed, for messages */
    FloatAdmLogFormat format;
    std::string path; /* "-": stdout */
};

struct OptionRequest {
    std::string flag;
    std::string name;
    std::string value;
};

struct CommandLine {
    std::string reference;
    std::string distorted;
    int width = 0; /* 0: not given */
    int height = 0;
    const InputPixelFormat *pixel_format = nullptr;
    std::string pixel_format_flag = "--pix-fmt"; /* what gave it, for messages */
    std::string vmaf_layout; /* -p: "420", "422", "444", "400"; empty: not given */
    int vmaf_bitdepth = 0;   /* -b; 0: not given */
    std::vector<OptionRequest> options;
    bool feature_given = false;
    unsigned long long max_frames = 0;   /* --frames N: exactly N; 0: not given */
    unsigned long long frame_cnt = 0;    /* --frame_cnt N: at most N; 0: every frame */
    unsigned long long skip[2] = {0, 0}; /* --frame_skip_ref, --frame_skip_dist */
    unsigned long long subsample = 1;
    int threads = 1;
    std::string backend = "cpu"; /* --backend: cpu, cuda or auto */
    std::vector<LogRequest> logs;
    std::string output; /* -o */
    std::string output_flag;
    FloatAdmLogFormat output_format = FLOAT_ADM_LOG_XML; /* vmaf's default for -o */
    bool quiet = false;
    bool help = false;
    bool version = false;
    bool list_options = false;
    bool per_frame = false; /* --per-frame: the table of every frame on stdout */
    std::string map_path;   /* --map-path: a PFM file name pattern; empty: no maps */
    bool scale = false;     /* --scale: the distorted scaled to the reference's size */
    int scale_width = 0;    /* --scale WxH; 0: --scale reference */
    int scale_height = 0;
    std::string scaler = "bicubic"; /* --scaler: libswscale's method, ffmpeg's default */
    bool scaler_given = false;
    /* Given in vmaf's dialect (a short flag, or a long one only vmaf has): frames
     * are then read as vmaf reads them (see frames_to_score). */
    bool vmaf_dialect = false;
};

/** Parses argv; throws CliError. */
CommandLine parse_command_line(int argc, char **argv);

/** The float_adm options the command line sets; throws CliError. */
FloatAdmOptions make_options(const CommandLine &command_line);

#endif /* FLOAT_ADM_CLI_COMMAND_LINE_H */
