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

#include "command_line.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "cli_error.h"

const char program_name[] = "float_adm_score";

namespace {

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

/* A whole decimal integer in [min, max]. */
long long parse_integer(const std::string &flag, const std::string &text, long long min,
                        long long max)
{
    errno = 0;
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
        throw CliError(string_printf("%s: '%s' is not an integer in [%lld, %lld]", flag.c_str(),
                                     text.c_str(), min, max));
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
                                     "scores (%d)",
                                     flag.c_str(), value, FLOAT_ADM_MAX_SIZE));
    return static_cast<int>(value);
}

/* What a flag does; the table below names each flag, long and short. */
enum class Arg {
    Reference,
    Distorted,
    Width,
    Height,
    PixFmt,
    InputPixelFormat,
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
    PerFrame,
    NoPrediction,
    LogFormat,
    Backend,
    MapPath,
    Scale,
    Scaler,
};

struct ArgSpec {
    const char *name; /* long name, after "--" */
    char letter;      /* vmaf's short flag; 0: none */
    Arg arg;
    bool takes_value; /* LogFormat: only without -o */
};

/* Our long options, and vmaf's (libvmaf/tools/cli_parse.c) with its short ones. */
const ArgSpec arg_specs[] = {
    {"reference", 'r', Arg::Reference, true},
    {"distorted", 'd', Arg::Distorted, true},
    {"width", 'w', Arg::Width, true},
    {"height", 'h', Arg::Height, true},
    {"pix-fmt", 0, Arg::PixFmt, true},
    {"pixel_format", 'p', Arg::InputPixelFormat, true},
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
    {"map-path", 0, Arg::MapPath, true},
    {"scale", 0, Arg::Scale, true},
    {"scaler", 0, Arg::Scaler, true},
    /* vmaf's flags that add a model or other features. */
    {"model", 'm', Arg::NotFloatAdm, true},
    {"aom_ctc", 0, Arg::NotFloatAdm, true},
    {"nflx_ctc", 0, Arg::NotFloatAdm, true},
    {"help", 0, Arg::Help, false},
    {"version", 'v', Arg::Version, false},
    {"list-options", 0, Arg::ListOptions, false},
    {"quiet", 'q', Arg::Quiet, false},
    {"per-frame", 0, Arg::PerFrame, false},
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

/* A long flag of vmaf's that the tool's own dialect spells otherwise or lacks: with
 * one (or any short flag) the command line is vmaf's. */
bool is_vmafs_own(const std::string &name)
{
    static const char *const names[] = {"pixel_format",    "bitdepth",  "output",
                                        "feature",         "frame_cnt", "frame_skip_ref",
                                        "frame_skip_dist", "subsample", "no_prediction"};
    for (const char *vmaf_name : names)
        if (name == vmaf_name)
            return true;
    return false;
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
                i += k + 1 == token.size(); /* its value is the next argument */
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
        throw CliError(flag + " " + name + ": " + program_name + " computes float ADM only (" +
                       flag + " float_adm[=NAME=VALUE:...])");
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
        command_line.options.push_back(
            {flag + " float_adm", item.substr(0, split), item.substr(split + 1)});
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
    case Arg::Reference: set_path_once(command_line.reference, flag, value); break;
    case Arg::Distorted: set_path_once(command_line.distorted, flag, value); break;
    case Arg::Width: command_line.width = parse_size(flag, value); break;
    case Arg::Height: command_line.height = parse_size(flag, value); break;
    case Arg::PixFmt:
        command_line.pixel_format = find_pixel_format(value);
        if (!command_line.pixel_format)
            throw CliError("unknown pixel format '" + value +
                           "'; supported: " + supported_pixel_formats());
        break;
    case Arg::InputPixelFormat:
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
    case Arg::Feature: parse_feature(command_line, flag, value); break;
    case Arg::Frames:
        command_line.max_frames = static_cast<unsigned long long>(
            parse_integer(flag, value, 1, LLONG_MAX));
        break;
    case Arg::FrameCnt: command_line.frame_cnt = parse_count(flag, value); break;
    case Arg::SkipRef: command_line.skip[0] = parse_count(flag, value); break;
    case Arg::SkipDist: command_line.skip[1] = parse_count(flag, value); break;
    case Arg::Subsample: command_line.subsample = std::max(parse_count(flag, value), 1ULL); break;
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
    case Arg::MapPath: {
        set_path_once(command_line.map_path, flag, value);
        char message[256] = "";
        if (float_adm_map_pattern_check(value.c_str(), message, sizeof(message)) < 0)
            throw CliError(flag + ": " + message);
        break;
    }
    case Arg::Scale: {
        /* WxH, which must be the reference's size, or "reference": its size. */
        command_line.scale = true;
        command_line.scale_width = command_line.scale_height = 0;
        if (value == "reference")
            break;
        const size_t x = value.find('x');
        if (x == std::string::npos)
            throw CliError(flag + " takes WxH (the reference's size) or reference, not '" + value +
                           "'");
        command_line.scale_width = static_cast<int>(
            parse_integer(flag, value.substr(0, x), 1, INT_MAX));
        command_line.scale_height = static_cast<int>(
            parse_integer(flag, value.substr(x + 1), 1, INT_MAX));
        break;
    }
    case Arg::Scaler:
        command_line.scaler = value;
        command_line.scaler_given = true;
        break;
    case Arg::NotFloatAdm:
        throw CliError(flag + ": " + program_name +
                       " computes float ADM only, without a "
                       "VMAF model or other features (libvmaf's vmaf scores those; here "
                       "give -n and --feature float_adm alone)");
    case Arg::Help: command_line.help = true; break;
    case Arg::Version: command_line.version = true; break;
    case Arg::ListOptions: command_line.list_options = true; break;
    case Arg::PerFrame: command_line.per_frame = true; break;
    case Arg::Quiet: command_line.quiet = true; break;
    case Arg::NoPrediction: break;
    case Arg::LogFormat:
        for (const LogFormatFlag &format : log_format_flags) {
            if (flag != std::string("--") + format.name)
                continue;
            if (has_value)
                add_log(command_line, flag, format.format, value);
            else
                command_line.output_format = format.format; /* the last one, as vmaf */
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
    std::string name = command_line.vmaf_layout == "400" ? std::string("gray")
                                                         : "yuv" + command_line.vmaf_layout + "p";
    if (command_line.vmaf_bitdepth > 8)
        name += std::to_string(command_line.vmaf_bitdepth) + "le";
    command_line.pixel_format = find_pixel_format(name);
    if (!command_line.pixel_format)
        throw CliError("no pixel format " + name + " for -p " + command_line.vmaf_layout + " -b " +
                       std::to_string(command_line.vmaf_bitdepth));
    command_line.pixel_format_flag = "-p/-b";
}

} // namespace

CommandLine parse_command_line(int argc, char **argv)
{
    CommandLine command_line;
    const bool has_output = has_output_flag(argc, argv);
    std::string bare_format; /* the flag before, if a format flag without a value */
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
            command_line.vmaf_dialect |= is_vmafs_own(flag.substr(2));
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
                /* The dialect follows what the inputs and outputs are given by: -q and
                 * -v mean what --quiet and --version do and switch nothing. */
                if (spec->arg != Arg::Quiet && spec->arg != Arg::Version)
                    command_line.vmaf_dialect = true;
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
        const int err = float_adm_option_set(&options, option.name.c_str(), option.value.c_str(),
                                             message, sizeof(message));
        if (err < 0)
            throw CliError(option.flag + " " + option.name + "=" + option.value + ": " +
                           (message[0] ? message : float_adm_strerror(err)));
    }
    return options;
}
