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

#include "usage.h"

#include <string>

#include "cli_error.h"
#include "command_line.h"
#include "float_adm.h"
#include "pixel_format.h"

namespace {

/* Prints a ", "-separated list indented, in lines of at most 80 columns. */
void print_wrapped(FILE *out, const std::string &list)
{
    const size_t width = 80;
    std::string line = " ";
    size_t start = 0;
    while (start < list.size()) {
        size_t end = list.find(", ", start);
        end = end == std::string::npos ? list.size() : end + 1;
        const std::string item = list.substr(start, end - start);
        if (line.size() + 1 + item.size() > width) {
            std::fprintf(out, "%s\n", line.c_str());
            line = " ";
        }
        line += " " + item;
        start = end + 1;
    }
    std::fprintf(out, "%s\n", line.c_str());
}

const char *option_type_name(FloatAdmOptionType type)
{
    return type == FLOAT_ADM_OPT_BOOL ? "bool" : type == FLOAT_ADM_OPT_INT ? "int" : "double";
}

} // namespace

void print_usage(FILE *out)
{
    std::fprintf(out,
                 "Usage: %s --reference R --distorted D [--width W --height H --pix-fmt F]\n"
                 "       [--option NAME=VALUE]... [--frames N] [--threads N]\n"
                 "       [--backend cpu|cuda|auto] [--map-path PATTERN]\n"
                 "       [--scale WxH|reference [--scaler METHOD]]\n"
                 "       [--json OUT] [--csv OUT] [--xml OUT] [--sub OUT] [--per-frame] [--quiet]\n"
                 "   or, as libvmaf's vmaf takes it:\n"
                 "       %s -r R -d D -w W -h H -p 420|422|444|400 -b 8|10|12|16\n"
                 "       [--feature float_adm[=NAME=VALUE[:NAME=VALUE]...]]\n"
                 "       [-o OUT [--xml|--json|--csv|--sub]] [--threads N] [--subsample N]\n"
                 "       [--frame_cnt N] [--frame_skip_ref N] [--frame_skip_dist N] [-q] [-n]\n"
                 "\n"
                 "Scores the luma of a distorted video against its reference with Netflix\n"
                 "libvmaf's float_adm feature, bit-exact with libvmaf.  Reads raw YUV and y4m\n"
                 "(for MP4, MKV and other containers use FFmpeg's float_adm filter or\n"
                 "python3 -m floatadm score).  On a terminal it counts the frames on stderr\n"
                 "as vmaf does; at the end it prints each output's mean over the frames as\n"
                 "vmaf prints its scores (\"adm2: 0.922522\").\n"
                 "\n"
                 "  --reference R, -r R, --distorted D, -d D\n"
                 "        raw planar YUV, or y4m (a .y4m name or a \"YUV4MPEG2 \" header)\n"
                 "        (a name starting with '-' is given as ./-name); \"-\" is stdin, which,\n"
                 "        as a pipe (a FIFO), is read once in order until it ends\n"
                 "  --width W, -w W, --height H, -h H, --pix-fmt F\n"
                 "        the raw frame size (at most %d each) and FFmpeg pixel format;\n"
                 "        optional for y4m, whose header says them (if given they must agree)\n"
                 "  -p L, --pixel_format L, -b B, --bitdepth B\n"
                 "        the pixel format as vmaf gives it, instead of --pix-fmt: layout L\n"
                 "        420, 422, 444 or 400 (gray), B bits, little-endian above 8\n"
                 "        (-p 420 -b 10: yuv420p10le)\n"
                 "  --option NAME=VALUE\n"
                 "        a float_adm option by name or alias (below); repeatable\n"
                 "  --feature float_adm[=NAME=VALUE[:NAME=VALUE]...]\n"
                 "        the same options, as vmaf takes them; other features, --model,\n"
                 "        --aom_ctc and --nflx_ctc are refused: this tool computes float ADM only\n"
                 "  --frames N   score the first N frames, which both files must hold whole (a\n"
                 "               partial frame after them does not matter); without it every\n"
                 "               frame, and both files must hold as many whole frames; in\n"
                 "               vmaf's dialect (-r/-d, -p/-b, -o, ...) the frames both hold,\n"
                 "               with a warning where one holds more, as vmaf does; -q and -v\n"
                 "               are --quiet and --version and choose no dialect\n"
                 "  --frame_cnt N\n"
                 "               score at most N frames (0: every frame)\n"
                 "  --frame_skip_ref N, --frame_skip_dist N\n"
                 "               leave out the first N frames of the reference, of the\n"
                 "               distorted; the frames after them are numbered from 0\n"
                 "  --subsample N\n"
                 "               score frames 0, N, 2N, ... (0 and 1: every frame)\n"
                 "  --threads N  score on N threads (0: 1), a whole frame each, the next\n"
                 "               frames read meanwhile; scores never change [1]\n"
                 "  --backend cpu|cuda|auto\n"
                 "               where frames are scored: the CPU (the default), a CUDA\n"
                 "               device, or the device where one exists, else the CPU;\n"
                 "               the same scores either way\n"
                 "  --map-path PATTERN\n"
                 "               where detail is lost: one PFM file per scored frame, the\n"
                 "               loss of each 32x32 block (0: none, towards 1: gone), named\n"
                 "               PATTERN with the frame number for its one %%d or %%05d (%%%%: a\n"
                 "               '%%'); an earlier map is replaced, never an input or another\n"
                 "               file; on the CPU or the CUDA device, the same files; scores\n"
                 "               never change\n"
                 "  --scale WxH, --scale reference\n"
                 "               score a distorted of another size (a y4m, its header says\n"
                 "               its size: a rung of a ladder) at the reference's size WxH,\n"
                 "               scaled by FFmpeg's libswscale as ffmpeg's scale filter\n"
                 "               scales it: the same scores as\n"
                 "               -lavfi \"[0:v]scale=W:H:flags=METHOD[d];[d][1:v]float_adm\";\n"
                 "               a distorted larger than the reference is warned of (swapped?);\n"
                 "               only in a build with libswscale (--version says)\n"
                 "  --scaler METHOD\n"
                 "               libswscale's method for --scale: bicubic (the default, as\n"
                 "               ffmpeg's), bilinear, lanczos, spline, neighbor, area, ...\n"
                 "  --json OUT, --csv OUT, --xml OUT, --sub OUT\n"
                 "               libvmaf's log layouts, each frame written as it is scored and\n"
                 "               the pooled scores at the end; any of them, each to its own\n"
                 "               file, never an input (\"-\": stdout, for one of them, which then\n"
                 "               carries no table); JSON writes NaN and infinity as null;\n"
                 "               outputs are named as libvmaf names them (adm2_egl_1.2 for\n"
                 "               adm_enhn_gain_limit=1.2)\n"
                 "  -o OUT, --output OUT\n"
                 "               a log as vmaf writes it: --xml, --json, --csv or --sub then\n"
                 "               take no value and pick its format, XML without them\n"
                 "  --per-frame  also a table of adm2, aim and adm3 per frame on stdout\n"
                 "  --quiet, -q  nothing on stdout and no counter\n"
                 "  -n, --no_prediction\n"
                 "               taken for vmaf's command line: this tool predicts nothing\n"
                 "  --help, --version (-v)\n"
                 "\n"
                 "Pixel formats:\n",
                 program_name, program_name, FLOAT_ADM_MAX_SIZE);
    print_wrapped(out, supported_pixel_formats());
    /* --list-options prints the table for programs: one option a line, tab-separated
     * name, alias (may be empty), type, default, min, max. */
    std::fputs("\nOptions (name, alias, range, default; --list-options for programs):\n", out);
    for (int i = 0; i < float_adm_option_count(); ++i) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        std::string range = info->type == FLOAT_ADM_OPT_BOOL
                                ? std::string("bool")
                                : string_printf("[%g, %g]", info->min, info->max);
        std::fprintf(out, "  %-24s %-6s %-16s %-8g %s\n", info->name,
                     info->alias ? info->alias : "", range.c_str(), info->default_value,
                     info->help ? info->help : "");
    }
}

/* The option table for programs (the documentation check): each number exactly. */
void print_option_list(FILE *out)
{
    for (int i = 0; i < float_adm_option_count(); ++i) {
        const FloatAdmOptionInfo *info = float_adm_option_info(i);
        std::fprintf(out, "%s\t%s\t%s\t%.17g\t%.17g\t%.17g\n", info->name,
                     info->alias ? info->alias : "", option_type_name(info->type),
                     info->default_value, info->min, info->max);
    }
}
