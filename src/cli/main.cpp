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

/* float_adm_score: libvmaf's float_adm scores of a raw YUV or y4m file pair. */

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include "cli_error.h"
#ifdef FLOAT_ADM_CLI_CUDA
#include "cuda_backend.h"
#endif
#include "float_adm.h"
#include "pixel_format.h"
#include "video_reader.h"

namespace {

const char program_name[] = "float_adm_score";

/* A log asked for on the command line: --json OUT, ..., or vmaf's -o OUT. */
struct LogRequest {
    std::string flag;           /* "--json", "-o", ...: as typed, for messages */
    FloatAdmLogFormat format;
    std::string path;           /* "-": stdout */
};

/* The flags that name a log format: with a path (--json OUT), or, where -o gives
 * the path, alone as vmaf takes them (--json -o OUT). */
struct LogFormatFlag {
    const char *name;
    FloatAdmLogFormat format;
};
const LogFormatFlag log_format_flags[] = {
    {"json", FLOAT_ADM_LOG_JSON},
    {"csv", FLOAT_ADM_LOG_CSV},
    {"xml", FLOAT_ADM_LOG_XML},
    {"sub", FLOAT_ADM_LOG_SUB},
};

/* An option and the flag that set it (--option, --feature), for messages. */
struct OptionRequest {
    std::string flag;
    std::string name;
    std::string value;
};

struct CommandLine {
    std::string reference;
    std::string distorted;
    int width = 0;  /* 0: not given */
    int height = 0;
    const PixelFormat *pixel_format = nullptr;
    std::string pixel_format_flag = "--pix-fmt";  /* what gave it, for messages */
    std::string vmaf_layout;    /* -p: "420", "422", "444", "400"; empty: not given */
    int vmaf_bitdepth = 0;      /* -b; 0: not given */
    std::vector<OptionRequest> options;
    bool feature_given = false;
    unsigned long long max_frames = 0;  /* --frames N: exactly N; 0: not given */
    unsigned long long frame_cnt = 0;   /* --frame_cnt N: at most N; 0: every frame */
    unsigned long long skip[2] = {0, 0};  /* --frame_skip_ref, --frame_skip_dist */
    unsigned long long subsample = 1;
    int threads = 1;
    std::string backend = "cpu"; /* --backend: cpu, cuda or auto */
    std::vector<LogRequest> logs;
    std::string output;         /* -o */
    std::string output_flag;
    FloatAdmLogFormat output_format = FLOAT_ADM_LOG_XML;  /* vmaf's default for -o */
    bool quiet = false;
    bool help = false;
    bool version = false;
    bool list_options = false;
};

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

void print_usage(FILE *out)
{
    std::fprintf(out,
                 "Usage: %s --reference R --distorted D [--width W --height H --pix-fmt F]\n"
                 "       [--option NAME=VALUE]... [--frames N] [--threads N]\n"
                 "       [--backend cpu|cuda|auto]\n"
                 "       [--json OUT] [--csv OUT] [--xml OUT] [--sub OUT] [--quiet]\n"
                 "   or, as libvmaf's vmaf takes it:\n"
                 "       %s -r R -d D -w W -h H -p 420|422|444|400 -b 8|10|12|16\n"
                 "       [--feature float_adm[=NAME=VALUE[:NAME=VALUE]...]]\n"
                 "       [-o OUT [--xml|--json|--csv|--sub]] [--threads N] [--subsample N]\n"
                 "       [--frame_cnt N] [--frame_skip_ref N] [--frame_skip_dist N] [-q] [-n]\n"
                 "\n"
                 "Scores the luma of a distorted video against its reference with Netflix\n"
                 "libvmaf's float_adm feature, bit-exact with libvmaf.  Prints a table of\n"
                 "adm2, aim and adm3 per frame, then each output's mean over the frames as\n"
                 "vmaf prints its scores (\"adm2: 0.922522\").\n"
                 "\n"
                 "  --reference R, -r R, --distorted D, -d D\n"
                 "        raw planar YUV, or y4m (a .y4m name or a \"YUV4MPEG2 \" header)\n"
                 "        (a name starting with '-' is given as ./-name)\n"
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
                 "  --frames N   score the first N frames, which both files must hold; without\n"
                 "               it every frame, and both files must hold as many\n"
                 "  --frame_cnt N\n"
                 "               score at most N frames (0: every frame)\n"
                 "  --frame_skip_ref N, --frame_skip_dist N\n"
                 "               leave out the first N frames of the reference, of the\n"
                 "               distorted; the frames after them are numbered from 0\n"
                 "  --subsample N\n"
                 "               score frames 0, N, 2N, ... (0 and 1: every frame)\n"
                 "  --threads N  split each frame across N threads (0: 1); scores never\n"
                 "               change [1]\n"
                 "  --backend cpu|cuda|auto\n"
                 "               where frames are scored: the CPU (the default), a CUDA\n"
                 "               device, or the device where one exists, else the CPU;\n"
                 "               the same scores either way\n"
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
                 "  --quiet, -q  no table and no means on stdout\n"
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

const char *option_type_name(FloatAdmOptionType type)
{
    return type == FLOAT_ADM_OPT_BOOL ? "bool" : type == FLOAT_ADM_OPT_INT ? "int" : "double";
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

/* A whole decimal integer in [min, max]. */
long long parse_integer(const std::string &flag, const std::string &text, long long min,
                        long long max)
{
    errno = 0;
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
        throw CliError(string_printf("%s: '%s' is not an integer in [%lld, %lld]",
                                     flag.c_str(), text.c_str(), min, max));
    return value;
}

void set_once(std::string &destination, const std::string &flag, const std::string &value)
{
    if (!destination.empty())
        throw CliError(flag + " given twice");
    if (value.empty())
        throw CliError(flag + " needs a non-empty value");
    destination = value;
}

/* A forgotten path would otherwise swallow the next option as a file name
 * ("--json --quiet" writing a file called --quiet); "-" alone is stdout. */
void set_path_once(std::string &destination, const std::string &flag, const std::string &value)
{
    if (value.size() > 1 && value[0] == '-')
        throw CliError(flag + " needs a path, not the option " + value +
                       " (a file of that name: ./" + value + ")");
    set_once(destination, flag, value);
}

/* A frame side the core can take: larger ones would only fail later, or wrap the
 * 64-bit frame size. */
int parse_size(const std::string &flag, const std::string &text)
{
    const long long value = parse_integer(flag, text, 1, LLONG_MAX);
    if (value > FLOAT_ADM_MAX_SIZE)
        throw CliError(string_printf("%s: %lld is above the largest frame side float_adm "
                                     "scores (%d)", flag.c_str(), value, FLOAT_ADM_MAX_SIZE));
    return static_cast<int>(value);
}

/* What a flag does; the table below names each flag, long and short. */
enum class Arg {
    Reference,
    Distorted,
    Width,
    Height,
    PixFmt,
    PixelFormat,
    Bitdepth,
    Output,
    Option,
    Feature,
    Frames,
    FrameCnt,
    SkipRef,
    SkipDist,
    Subsample,
    Threads,
    NotFloatAdm,
    Help,
    Version,
    ListOptions,
    Quiet,
    NoPrediction,
    LogFormat,
    Backend,
};

struct ArgSpec {
    const char *name;  /* long name, after "--" */
    char letter;       /* vmaf's short flag; 0: none */
    Arg arg;
    bool takes_value;  /* LogFormat: only without -o */
};

/* Our long options, and vmaf's (libvmaf/tools/cli_parse.c) with its short ones. */
const ArgSpec arg_specs[] = {
    {"reference", 'r', Arg::Reference, true},
    {"distorted", 'd', Arg::Distorted, true},
    {"width", 'w', Arg::Width, true},
    {"height", 'h', Arg::Height, true},
    {"pix-fmt", 0, Arg::PixFmt, true},
    {"pixel_format", 'p', Arg::PixelFormat, true},
    {"bitdepth", 'b', Arg::Bitdepth, true},
    {"output", 'o', Arg::Output, true},
    {"option", 0, Arg::Option, true},
    {"feature", 0, Arg::Feature, true},
    {"frames", 0, Arg::Frames, true},
    {"frame_cnt", 0, Arg::FrameCnt, true},
    {"frame_skip_ref", 0, Arg::SkipRef, true},
    {"frame_skip_dist", 0, Arg::SkipDist, true},
    {"subsample", 0, Arg::Subsample, true},
    {"threads", 0, Arg::Threads, true},
    {"backend", 0, Arg::Backend, true},
    /* vmaf's flags that add a model or other features. */
    {"model", 'm', Arg::NotFloatAdm, true},
    {"aom_ctc", 0, Arg::NotFloatAdm, true},
    {"nflx_ctc", 0, Arg::NotFloatAdm, true},
    {"help", 0, Arg::Help, false},
    {"version", 'v', Arg::Version, false},
    {"list-options", 0, Arg::ListOptions, false},
    {"quiet", 'q', Arg::Quiet, false},
    {"no_prediction", 'n', Arg::NoPrediction, false},
    {"json", 0, Arg::LogFormat, true},
    {"csv", 0, Arg::LogFormat, true},
    {"xml", 0, Arg::LogFormat, true},
    {"sub", 0, Arg::LogFormat, true},
};

const ArgSpec *find_arg(const std::string &name, char letter)
{
    for (const ArgSpec &spec : arg_specs)
        if (letter ? spec.letter == letter : name == spec.name)
            return &spec;
    return nullptr;
}

/* Whether vmaf's -o is on the command line: then --json, --csv, --xml and --sub
 * pick its format and take no value, as in vmaf; without it they take a path. */
bool has_output_flag(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string token = argv[i];
        if (token == "--output" || token.rfind("--output=", 0) == 0)
            return true;
        if (token.size() < 2 || token[0] != '-' || token[1] == '-')
            continue;
        /* A short group: flags without a value, then maybe one with its value. */
        for (size_t k = 1; k < token.size(); ++k) {
            const ArgSpec *spec = find_arg("", token[k]);
            if (!spec)
                break;
            if (spec->arg == Arg::Output)
                return true;
            if (spec->takes_value) {
                i += k + 1 == token.size();  /* its value is the next argument */
                break;
            }
        }
    }
    return false;
}

/* libvmaf's --feature NAME[=KEY=VALUE[:KEY=VALUE]...] (cli_parse.c), for float_adm. */
void parse_feature(CommandLine &command_line, const std::string &flag, const std::string &text)
{
    const size_t equals = text.find('=');
    const std::string name = text.substr(0, equals);
    if (name != "float_adm")
        throw CliError(flag + " " + name + ": " + program_name +
                       " computes float ADM only (" + flag + " float_adm[=NAME=VALUE:...])");
    if (command_line.feature_given)
        throw CliError(flag + " float_adm given twice: " + program_name +
                       " computes one float_adm (put every option in one, separated by ':')");
    command_line.feature_given = true;
    if (equals == std::string::npos)
        return;
    const std::string list = text.substr(equals + 1);
    size_t start = 0;
    for (;;) {
        const size_t end = std::min(list.find(':', start), list.size());
        const std::string item = list.substr(start, end - start);
        const size_t split = item.find('=');
        if (split == std::string::npos || split == 0)
            throw CliError(flag + " " + text + ": '" + item + "' is not NAME=VALUE");
        command_line.options.push_back({flag + " float_adm", item.substr(0, split),
                                        item.substr(split + 1)});
        if (end == list.size())
            break;
        start = end + 1;
    }
}

void add_log(CommandLine &command_line, const std::string &flag, FloatAdmLogFormat format,
             const std::string &path)
{
    for (const LogRequest &request : command_line.logs)
        if (request.flag == flag)
            throw CliError(flag + " given twice");
    LogRequest request{flag, format, ""};
    set_path_once(request.path, flag, path);
    command_line.logs.push_back(request);
}

/* A count of frames, vmaf's unsigned: 0 allowed. */
unsigned long long parse_count(const std::string &flag, const std::string &value)
{
    return static_cast<unsigned long long>(parse_integer(flag, value, 0, LLONG_MAX));
}

/* Applies one flag; value is empty for a flag that takes none. */
void apply_arg(CommandLine &command_line, const ArgSpec &spec, const std::string &flag,
               const std::string &value, bool has_value)
{
    switch (spec.arg) {
    case Arg::Reference:
        set_path_once(command_line.reference, flag, value);
        break;
    case Arg::Distorted:
        set_path_once(command_line.distorted, flag, value);
        break;
    case Arg::Width:
        command_line.width = parse_size(flag, value);
        break;
    case Arg::Height:
        command_line.height = parse_size(flag, value);
        break;
    case Arg::PixFmt:
        command_line.pixel_format = find_pixel_format(value);
        if (!command_line.pixel_format)
            throw CliError("unknown pixel format '" + value +
                           "'; supported: " + supported_pixel_formats());
        break;
    case Arg::PixelFormat:
        if (value != "420" && value != "422" && value != "444" && value != "400")
            throw CliError(flag + ": '" + value + "' is not 420, 422, 444 or 400");
        command_line.vmaf_layout = value;
        break;
    case Arg::Bitdepth:
        command_line.vmaf_bitdepth = static_cast<int>(parse_integer(flag, value, 8, 16));
        if (command_line.vmaf_bitdepth % 2 || command_line.vmaf_bitdepth == 14)
            throw CliError(flag + ": '" + value + "' is not 8, 10, 12 or 16");
        break;
    case Arg::Output:
        set_path_once(command_line.output, flag, value);
        command_line.output_flag = flag;
        break;
    case Arg::Option: {
        const size_t split = value.find('=');
        if (split == std::string::npos || split == 0)
            throw CliError(flag + " takes NAME=VALUE, not '" + value + "'");
        command_line.options.push_back({flag, value.substr(0, split), value.substr(split + 1)});
        break;
    }
    case Arg::Feature:
        parse_feature(command_line, flag, value);
        break;
    case Arg::Frames:
        command_line.max_frames =
            static_cast<unsigned long long>(parse_integer(flag, value, 1, LLONG_MAX));
        break;
    case Arg::FrameCnt:
        command_line.frame_cnt = parse_count(flag, value);
        break;
    case Arg::SkipRef:
        command_line.skip[0] = parse_count(flag, value);
        break;
    case Arg::SkipDist:
        command_line.skip[1] = parse_count(flag, value);
        break;
    case Arg::Subsample:
        command_line.subsample = std::max(parse_count(flag, value), 1ULL);
        break;
    case Arg::Threads:
        /* vmaf's default, 0, is one thread. */
        command_line.threads = std::max(
            static_cast<int>(parse_integer(flag, value, 0, FLOAT_ADM_MAX_THREADS)), 1);
        break;
    case Arg::Backend:
        if (value != "cpu" && value != "cuda" && value != "auto")
            throw CliError(flag + ": '" + value + "' is not cpu, cuda or auto");
        command_line.backend = value;
        break;
    case Arg::NotFloatAdm:
        throw CliError(flag + ": " + program_name + " computes float ADM only, without a "
                       "VMAF model or other features (libvmaf's vmaf scores those; here "
                       "give -n and --feature float_adm alone)");
    case Arg::Help:
        command_line.help = true;
        break;
    case Arg::Version:
        command_line.version = true;
        break;
    case Arg::ListOptions:
        command_line.list_options = true;
        break;
    case Arg::Quiet:
        command_line.quiet = true;
        break;
    case Arg::NoPrediction:
        break;
    case Arg::LogFormat:
        for (const LogFormatFlag &format : log_format_flags) {
            if (flag != std::string("--") + format.name)
                continue;
            if (has_value)
                add_log(command_line, flag, format.format, value);
            else
                command_line.output_format = format.format;  /* the last one, as vmaf */
        }
        break;
    }
}

/* -p and -b: the matching raw little-endian planar format. */
void resolve_vmaf_pixel_format(CommandLine &command_line)
{
    if (command_line.vmaf_layout.empty() && !command_line.vmaf_bitdepth)
        return;
    if (command_line.vmaf_layout.empty() || !command_line.vmaf_bitdepth)
        throw CliError("-p/--pixel_format and -b/--bitdepth go together (as in vmaf)");
    if (command_line.pixel_format)
        throw CliError("--pix-fmt and -p/--pixel_format both give the pixel format: give one");
    std::string name = command_line.vmaf_layout == "400"
                           ? std::string("gray")
                           : "yuv" + command_line.vmaf_layout + "p";
    if (command_line.vmaf_bitdepth > 8)
        name += std::to_string(command_line.vmaf_bitdepth) + "le";
    command_line.pixel_format = find_pixel_format(name);
    if (!command_line.pixel_format)
        throw CliError("no pixel format " + name + " for -p " + command_line.vmaf_layout +
                       " -b " + std::to_string(command_line.vmaf_bitdepth));
    command_line.pixel_format_flag = "-p/-b";
}

CommandLine parse_command_line(int argc, char **argv)
{
    CommandLine command_line;
    const bool has_output = has_output_flag(argc, argv);
    std::string bare_format;  /* the flag before, if a format flag without a value */
    for (int i = 1; i < argc; ++i) {
        const std::string token = argv[i];
        const std::string after_format = bare_format;
        bare_format.clear();
        if (token.size() > 2 && token.compare(0, 2, "--") == 0) {
            /* "--flag", "--flag value" or "--flag=value". */
            const size_t equals = token.find('=');
            const std::string flag = token.substr(0, equals);
            const ArgSpec *spec = find_arg(flag.substr(2), 0);
            if (!spec)
                throw CliError("unknown argument '" + flag + "' (see --help)");
            const bool takes_value = spec->arg == Arg::LogFormat
                                         ? !has_output || equals != std::string::npos
                                         : spec->takes_value;
            std::string value;
            if (equals != std::string::npos) {
                if (!takes_value)
                    throw CliError(flag + " takes no value");
                value = token.substr(equals + 1);
            } else if (takes_value) {
                if (i + 1 >= argc)
                    throw CliError(flag + " needs a value (see --help)");
                value = argv[++i];
            }
            apply_arg(command_line, *spec, flag, value, takes_value);
            if (spec->arg == Arg::LogFormat && !takes_value)
                bare_format = flag;
        } else if (token.size() > 1 && token[0] == '-' && token[1] != '-') {
            /* vmaf's short flags, as getopt reads them: "-q -n", "-nq", "-w 576", "-w576". */
            for (size_t k = 1; k < token.size(); ++k) {
                const std::string flag = std::string("-") + token[k];
                const ArgSpec *spec = find_arg("", token[k]);
                if (!spec)
                    throw CliError("unknown argument '" + flag + "' (see --help)");
                if (!spec->takes_value) {
                    apply_arg(command_line, *spec, flag, "", false);
                    continue;
                }
                std::string value;
                if (k + 1 < token.size())
                    value = token.substr(k + 1);
                else if (i + 1 < argc)
                    value = argv[++i];
                else
                    throw CliError(flag + " needs a value (see --help)");
                apply_arg(command_line, *spec, flag, value, true);
                break;
            }
        } else if (!after_format.empty()) {
            throw CliError("unexpected argument '" + token + "': beside -o, " + after_format +
                           " takes no value (" + after_format + "=" + token +
                           " writes a second log)");
        } else {
            throw CliError("unexpected argument '" + token + "' (see --help)");
        }
    }

    resolve_vmaf_pixel_format(command_line);
    if (command_line.max_frames && command_line.frame_cnt)
        throw CliError("--frames and --frame_cnt both limit the frames: give one");
    if (!command_line.output.empty())
        command_line.logs.push_back(
            {command_line.output_flag, command_line.output_format, command_line.output});
    const LogRequest *to_stdout = nullptr;
    for (const LogRequest &request : command_line.logs) {
        if (request.path != "-")
            continue;
        if (to_stdout)
            throw CliError(to_stdout->flag + " and " + request.flag +
                           " both write to stdout: one log at most can go there");
        to_stdout = &request;
    }
    return command_line;
}

FloatAdmOptions make_options(const CommandLine &command_line)
{
    FloatAdmOptions options;
    float_adm_options_default(&options);
    for (const OptionRequest &option : command_line.options) {
        char message[256] = "";
        const int err = float_adm_option_set(&options, option.name.c_str(),
                                             option.value.c_str(), message, sizeof(message));
        if (err < 0)
            throw CliError(option.flag + " " + option.name + "=" + option.value + ": " +
                           (message[0] ? message : float_adm_strerror(err)));
    }
    return options;
}

/* A y4m header and the command line must not disagree about the frames. */
void check_header_agrees(const CommandLine &command_line, const VideoReader &reader)
{
    const FrameGeometry &header = reader.header_geometry();
    const char *disagreement = nullptr;
    std::string given;
    if (command_line.width && command_line.width != header.width) {
        disagreement = "--width";
        given = std::to_string(command_line.width);
    } else if (command_line.height && command_line.height != header.height) {
        disagreement = "--height";
        given = std::to_string(command_line.height);
    } else if (command_line.pixel_format &&
               !same_layout(*command_line.pixel_format, *header.format)) {
        disagreement = command_line.pixel_format_flag.c_str();
        given = command_line.pixel_format->name;
    }
    if (disagreement)
        throw CliError(reader.path() + ": the y4m header says " + header.describe() + ", but " +
                       disagreement + " says " + given);
}

/* The frame geometry: from the y4m headers, else from the command line. */
FrameGeometry resolve_geometry(const CommandLine &command_line, const VideoReader &reference,
                               const VideoReader &distorted)
{
    const VideoReader *y4m = nullptr;
    for (const VideoReader *reader : {&reference, &distorted}) {
        if (!reader->is_y4m())
            continue;
        check_header_agrees(command_line, *reader);
        const FrameGeometry &header = reader->header_geometry();
        if (y4m) {
            const FrameGeometry &first = y4m->header_geometry();
            if (header.width != first.width || header.height != first.height ||
                !same_layout(*header.format, *first.format))
                throw CliError("reference and distorted differ: " + y4m->path() + " is " +
                               first.describe() + " but " + reader->path() + " is " +
                               header.describe());
        }
        y4m = reader;
    }
    if (y4m)
        return y4m->header_geometry();

    std::string missing;
    if (!command_line.width)
        missing += " --width";
    if (!command_line.height)
        missing += " --height";
    if (!command_line.pixel_format)
        missing += " --pix-fmt (or -p and -b)";
    if (!missing.empty())
        throw CliError("missing" + missing + ": raw YUV input (" + reference.path() +
                       ") has no header to say the frame size and pixel format");
    FrameGeometry geometry;
    geometry.width = command_line.width;
    geometry.height = command_line.height;
    geometry.format = command_line.pixel_format;
    return geometry;
}

struct ContextDeleter {
    void operator()(FloatAdmContext *context) const { float_adm_context_free(&context); }
};
using ContextPtr = std::unique_ptr<FloatAdmContext, ContextDeleter>;

ContextPtr create_context(const FrameGeometry &geometry, const FloatAdmOptions &options)
{
    char message[256] = "";
    FloatAdmContext *context = nullptr;
    const int err = float_adm_context_create(&context, geometry.width, geometry.height,
                                             geometry.format->bit_depth, &options, message,
                                             sizeof(message));
    if (err < 0)
        throw CliError("cannot score " + geometry.describe() + ": " +
                       (message[0] ? message : float_adm_strerror(err)));
    ContextPtr owned(context);
    /* FLOAT_ADM_SIMD picks the CPU code path (the scores are the same at every level). */
    const char *level = std::getenv("FLOAT_ADM_SIMD");
    if (level && *level && float_adm_context_set_simd_level(context, level) < 0) {
        std::string names = "auto";
        for (int i = 0; float_adm_simd_level_name(i); i++)
            names += std::string(", ") + float_adm_simd_level_name(i);
        throw CliError(std::string("FLOAT_ADM_SIMD=") + level + ": not a SIMD level (" + names +
                       ")");
    }
    return owned;
}

struct LogCloser {
    void operator()(FloatAdmLog *log) const { float_adm_log_close(&log, nullptr, 0); }
};
using LogPtr = std::unique_ptr<FloatAdmLog, LogCloser>;

/* A log written over an input would destroy it: refused before anything is
 * truncated (the library refuses any file open in the process too). */
void check_not_an_input(const LogRequest &request, const VideoReader &reference,
                        const VideoReader &distorted)
{
    struct stat log_stat;
    if (request.path == "-" || stat(request.path.c_str(), &log_stat) != 0)
        return;
    for (const VideoReader *input : {&reference, &distorted}) {
        struct stat input_stat;
        if (stat(input->path().c_str(), &input_stat) == 0 &&
            input_stat.st_dev == log_stat.st_dev && input_stat.st_ino == log_stat.st_ino)
            throw CliError(string_printf(
                "%s %s: that is the %s file %s; refusing to overwrite an input",
                request.flag.c_str(), request.path.c_str(),
                input == &reference ? "reference" : "distorted", input->path().c_str()));
    }
}

/* Two logs in one file would garble each other. */
void check_distinct(const LogRequest &first, const LogRequest &second)
{
    if (first.path.empty() || second.path.empty() || first.path == "-" || second.path == "-")
        return;
    struct stat a, b;
    if (first.path == second.path ||
        (stat(first.path.c_str(), &a) == 0 && stat(second.path.c_str(), &b) == 0 &&
         a.st_dev == b.st_dev && a.st_ino == b.st_ino))
        throw CliError(first.flag + " and " + second.flag +
                       " name the same file " + second.path + ": one log per file");
}

/* Logs are opened before scoring, so that a bad path fails at once.  An empty
 * path: no file, the pooling alone. */
LogPtr open_log(const LogRequest &request, const FloatAdmOptions &options,
                const FrameGeometry &geometry)
{
    char message[512] = "";
    FloatAdmLog *log = nullptr;
    const int err = float_adm_log_open(&log, request.path.empty() ? nullptr : request.path.c_str(),
                                       request.format, &options, geometry.width,
                                       geometry.height, message, sizeof(message));
    if (err < 0)
        throw CliError(message[0] ? message : request.path + ": " + float_adm_strerror(err));
    return LogPtr(log);
}

/* Turns a log call's failure into the tool's error. */
void check_log(int err, const char *message, const std::string &path)
{
    if (err < 0)
        throw CliError(message[0] ? message : path + ": " + float_adm_strerror(err));
}

/* Everything printed must have reached stdout before the tool says it succeeded. */
void finish_stdout()
{
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw CliError(std::string("cannot write to stdout: ") +
                       std::strerror(errno ? errno : EIO));
}

/* How many frames to go through, after the skipped ones: --frames N exactly,
 * --frame_cnt N at most, else every frame; the files must agree where it matters. */
unsigned long long frames_to_score(const CommandLine &command_line,
                                   const std::array<const VideoReader *, 2> &inputs,
                                   const FrameGeometry &geometry)
{
    const char *const skip_flags[2] = {"--frame_skip_ref", "--frame_skip_dist"};
    unsigned long long available[2];
    std::string holds[2];  /* "N frames of 576x324 yuv420p", for messages */
    for (int k = 0; k < 2; ++k) {
        const unsigned long long count = inputs[k]->frame_count();
        const unsigned long long skip = command_line.skip[k];
        if (skip >= count)
            throw CliError(string_printf("%s: %s %llu, but the file holds %llu frames of %s",
                                         inputs[k]->path().c_str(), skip_flags[k], skip, count,
                                         geometry.describe().c_str()));
        available[k] = count - skip;
        holds[k] = string_printf("%llu frames of %s", available[k], geometry.describe().c_str());
        if (skip)
            holds[k] += string_printf(" after %s %llu", skip_flags[k], skip);
    }
    if (command_line.max_frames) {
        /* Only the frames asked for need to be in both files. */
        for (int k = 0; k < 2; ++k)
            if (command_line.max_frames > available[k])
                throw CliError(string_printf("%s: --frames %llu, but the file holds %s",
                                             inputs[k]->path().c_str(),
                                             command_line.max_frames, holds[k].c_str()));
        return command_line.max_frames;
    }
    const unsigned long long limit = command_line.frame_cnt;
    if (limit && available[0] >= limit && available[1] >= limit)
        return limit;
    if (available[0] != available[1])
        throw CliError(string_printf(
            "reference and distorted differ: %s holds %s but %s holds %llu "
            "(--frames N scores the first N)",
            inputs[0]->path().c_str(), holds[0].c_str(), inputs[1]->path().c_str(),
            available[1]));
    return available[0];
}

/* --backend: whether frames go to a CUDA device; auto falls back to the CPU. */
bool use_cuda(const std::string &backend)
{
    if (backend == "cpu")
        return false;
#ifdef FLOAT_ADM_CLI_CUDA
    std::string why;
    if (cuda_backend_available(why))
        return true;
#else
    const std::string why = "this build has no CUDA backend (configure --enable-cuda)";
#endif
    if (backend == "cuda")
        throw CliError("--backend cuda: " + why);
    std::fprintf(stderr, "%s: --backend auto: %s; scoring on the CPU\n", program_name, why.c_str());
    return false;
}

int score(const CommandLine &command_line)
{
    if (command_line.reference.empty())
        throw CliError("missing --reference (see --help)");
    if (command_line.distorted.empty())
        throw CliError("missing --distorted (see --help)");

    const FloatAdmOptions options = make_options(command_line);
    VideoReader reference(command_line.reference);
    VideoReader distorted(command_line.distorted);
    const FrameGeometry geometry = resolve_geometry(command_line, reference, distorted);

    /* The files are sized up before the context is made: a header announcing a
     * huge frame over a few bytes must fail at once, not after allocating it. */
    reference.start(geometry);
    distorted.start(geometry);
    const unsigned long long frame_count =
        frames_to_score(command_line, {&reference, &distorted}, geometry);
    reference.skip_frames(command_line.skip[0]);
    distorted.skip_frames(command_line.skip[1]);
    const bool on_cuda = use_cuda(command_line.backend);

    ContextPtr context = on_cuda ? nullptr : create_context(geometry, options);
    if (!on_cuda && command_line.threads > 1) {
        const int err = float_adm_context_set_threads(context.get(), command_line.threads);
        if (err < 0)
            throw CliError(string_printf("--threads %d: %s", command_line.threads,
                                         float_adm_strerror(err)));
    }

    bool log_to_stdout = false;
    for (size_t i = 0; i < command_line.logs.size(); i++) {
        const LogRequest &request = command_line.logs[i];
        check_not_an_input(request, reference, distorted);
        for (size_t j = i + 1; j < command_line.logs.size(); j++)
            check_distinct(request, command_line.logs[j]);
    }
    std::vector<std::pair<const LogRequest *, LogPtr>> logs;
    for (const LogRequest &request : command_line.logs) {
        logs.emplace_back(&request, open_log(request, options, geometry));
        log_to_stdout |= request.path == "-";
    }
    /* The summary's pooling and names, whatever logs were asked for. */
    const LogRequest pooling{"", FLOAT_ADM_LOG_JSON, ""};
    LogPtr summary = open_log(pooling, options, geometry);
    const bool print_table = !command_line.quiet && !log_to_stdout;

    if (print_table)
        std::printf("%6s  %-10s  %-10s  %-10s\n", "frame", "adm2", "aim", "adm3");
    char message[512];
    /* Each scored frame, in order, whichever backend scored it. */
    auto emit = [&](unsigned long long frame, const FloatAdmScores &scores) {
        for (auto &log : logs) {
            message[0] = '\0';
            check_log(
                float_adm_log_frame(log.second.get(), frame, &scores, message, sizeof(message)),
                message, log.first->path);
        }
        check_log(float_adm_log_frame(summary.get(), frame, &scores, nullptr, 0), "", "");
        if (print_table)
            std::printf("%6llu  %.8f  %.8f  %.8f\n", frame, scores.adm2, scores.aim, scores.adm3);
    };
#ifdef FLOAT_ADM_CLI_CUDA
    if (on_cuda)
        cuda_backend_score(geometry, options, reference, distorted, frame_count,
                           command_line.subsample, emit);
#endif
    for (unsigned long long frame = 0; !on_cuda && frame < frame_count; ++frame) {
        if (frame % command_line.subsample) {
            reference.skip_frames(1);
            distorted.skip_frames(1);
            continue;
        }
        const FloatAdmPlane reference_plane = reference.read_frame();
        const FloatAdmPlane distorted_plane = distorted.read_frame();
        FloatAdmScores scores;
        const int err = float_adm_score_frame(context.get(), &reference_plane,
                                              &distorted_plane, &scores);
        if (err < 0)
            throw CliError(string_printf("frame %llu: scoring failed: %s", frame,
                                         float_adm_strerror(err)));
        emit(frame, scores);
    }

    for (auto &log : logs) {
        FloatAdmLog *raw = log.second.release();
        message[0] = '\0';
        check_log(float_adm_log_close(&raw, message, sizeof(message)), message,
                  log.first->path);
    }
    /* The pooled means, as vmaf prints its pooled scores ("%s: %f"). */
    FloatAdmPooled pooled;
    for (int i = 0; print_table && float_adm_log_pooled(summary.get(), i, &pooled) == 0; i++)
        std::printf("%s: %f\n", float_adm_log_output_name(summary.get(), i), pooled.mean);
    finish_stdout();
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    try {
        const CommandLine command_line = parse_command_line(argc, argv);
        if (command_line.help) {
            print_usage(stdout);
            finish_stdout();
            return 0;
        }
        if (command_line.list_options) {
            print_option_list(stdout);
            finish_stdout();
            return 0;
        }
        if (command_line.version) {
            char fingerprint[65];
            float_adm_rcp_fingerprint(fingerprint);
            std::printf("%s %s\nrcpss fingerprint: %s\n", program_name, float_adm_version(),
                        fingerprint);
            finish_stdout();
            return 0;
        }
        return score(command_line);
    } catch (const CliError &error) {
        std::fprintf(stderr, "%s: %s\n", program_name, error.what());
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "%s: out of memory\n", program_name);
    } catch (const std::exception &error) {
        std::fprintf(stderr, "%s: %s\n", program_name, error.what());
    }
    return 1;
}
