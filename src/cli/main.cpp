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
#include "float_adm.h"
#include "pixel_format.h"
#include "thread_pool.h"
#include "video_reader.h"

namespace {

const char program_name[] = "float_adm_score";
/* Far more threads than any frame has rows to share is a typo, not a request. */
const int max_threads = 1024;

/* A log asked for on the command line: --json, --csv, --xml. */
const size_t num_logs = 3;
struct LogRequest {
    const char *flag;           /* "--json", ... */
    FloatAdmLogFormat format;
    std::string path;           /* empty: none; "-": stdout */
};

struct CommandLine {
    std::string reference;
    std::string distorted;
    int width = 0;  /* 0: not given */
    int height = 0;
    const PixelFormat *pixel_format = nullptr;
    std::vector<std::pair<std::string, std::string>> options;  /* name, value */
    unsigned long long max_frames = 0;  /* 0: every frame */
    int threads = 1;
    LogRequest logs[num_logs] = {{"--json", FLOAT_ADM_LOG_JSON, ""},
                                 {"--csv", FLOAT_ADM_LOG_CSV, ""},
                                 {"--xml", FLOAT_ADM_LOG_XML, ""}};
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
        "       [--json OUT] [--csv OUT] [--xml OUT] [--quiet]\n"
        "\n"
        "Scores the luma of a distorted video against its reference with Netflix\n"
        "libvmaf's float_adm feature, bit-exact with libvmaf.\n"
        "\n"
        "  --reference R, --distorted D\n"
        "        raw planar YUV, or y4m (a .y4m name or a \"YUV4MPEG2 \" header)\n"
        "        (a name starting with '-' is given as ./-name)\n"
        "  --width W, --height H, --pix-fmt F\n"
        "        the raw frame size (at most %d each) and FFmpeg pixel format;\n"
        "        optional for y4m, whose header says them (if given they must agree)\n"
        "  --option NAME=VALUE\n"
        "        a float_adm option by name or alias (below); repeatable\n"
        "  --frames N   score the first N frames, which both files must hold; without\n"
        "               it every frame, and both files must hold as many\n"
        "  --threads N  split each frame across N threads; scores never change [1]\n"
        "  --json OUT, --csv OUT, --xml OUT\n"
        "               libvmaf's log layouts, each frame written as it is scored and\n"
        "               the pooled scores at the end; any of them, each to its own\n"
        "               file, never an input (\"-\": stdout, for one of them, which then\n"
        "               carries no table); JSON writes NaN and infinity as null\n"
        "  --quiet      no per-frame table on stdout\n"
        "  --help, --version\n"
        "\n"
        "Pixel formats:\n",
        program_name, FLOAT_ADM_MAX_SIZE);
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

CommandLine parse_command_line(int argc, char **argv)
{
    CommandLine command_line;
    for (int i = 1; i < argc; ++i) {
        std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            command_line.help = true;
            continue;
        }
        if (flag == "--version") {
            command_line.version = true;
            continue;
        }
        if (flag == "--list-options") {
            command_line.list_options = true;
            continue;
        }
        if (flag == "--quiet") {
            command_line.quiet = true;
            continue;
        }
        if (flag.compare(0, 2, "--") != 0)
            throw CliError("unexpected argument '" + flag + "' (see --help)");

        /* Every other flag takes a value: "--flag value" or "--flag=value". */
        std::string value;
        const size_t equals = flag.find('=');
        if (equals != std::string::npos) {
            value = flag.substr(equals + 1);
            flag.resize(equals);
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            throw CliError(flag + " needs a value (see --help)");
        }

        LogRequest *log = nullptr;
        for (LogRequest &request : command_line.logs)
            if (flag == request.flag)
                log = &request;
        if (flag == "--reference") {
            set_path_once(command_line.reference, flag, value);
        } else if (flag == "--distorted") {
            set_path_once(command_line.distorted, flag, value);
        } else if (log) {
            set_path_once(log->path, flag, value);
        } else if (flag == "--width") {
            command_line.width = parse_size(flag, value);
        } else if (flag == "--height") {
            command_line.height = parse_size(flag, value);
        } else if (flag == "--pix-fmt") {
            command_line.pixel_format = find_pixel_format(value);
            if (!command_line.pixel_format)
                throw CliError("unknown pixel format '" + value +
                               "'; supported: " + supported_pixel_formats());
        } else if (flag == "--option") {
            const size_t split = value.find('=');
            if (split == std::string::npos || split == 0)
                throw CliError("--option takes NAME=VALUE, not '" + value + "'");
            command_line.options.emplace_back(value.substr(0, split), value.substr(split + 1));
        } else if (flag == "--frames") {
            command_line.max_frames =
                static_cast<unsigned long long>(parse_integer(flag, value, 1, LLONG_MAX));
        } else if (flag == "--threads") {
            command_line.threads = static_cast<int>(parse_integer(flag, value, 1, max_threads));
        } else {
            throw CliError("unknown argument '" + flag + "' (see --help)");
        }
    }
    const char *to_stdout = nullptr;
    for (const LogRequest &request : command_line.logs) {
        if (request.path != "-")
            continue;
        if (to_stdout)
            throw CliError(std::string(to_stdout) + " and " + request.flag +
                           " both write to stdout: one log at most can go there");
        to_stdout = request.flag;
    }
    return command_line;
}

FloatAdmOptions make_options(const CommandLine &command_line)
{
    FloatAdmOptions options;
    float_adm_options_default(&options);
    for (const auto &option : command_line.options) {
        char message[256] = "";
        const int err = float_adm_option_set(&options, option.first.c_str(),
                                             option.second.c_str(), message, sizeof(message));
        if (err < 0)
            throw CliError("--option " + option.first + "=" + option.second + ": " +
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
        disagreement = "--pix-fmt";
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
        missing += " --pix-fmt";
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
    return ContextPtr(context);
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
                request.flag, request.path.c_str(),
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
        throw CliError(std::string(first.flag) + " and " + second.flag +
                       " name the same file " + second.path + ": one log per file");
}

/* Logs are opened before scoring, so that a bad path fails at once. */
LogPtr open_log(const LogRequest &request, int num_outputs, const FrameGeometry &geometry)
{
    char message[512] = "";
    FloatAdmLog *log = nullptr;
    const int err = float_adm_log_open(&log, request.path.c_str(), request.format, num_outputs,
                                       geometry.width, geometry.height, message,
                                       sizeof(message));
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
    unsigned long long frame_count = reference.frame_count();
    if (command_line.max_frames) {
        /* Only the frames asked for need to be in both files. */
        for (const VideoReader *input : {&reference, &distorted})
            if (command_line.max_frames > input->frame_count())
                throw CliError(string_printf(
                    "%s: --frames %llu, but the file holds %llu frames of %s",
                    input->path().c_str(), command_line.max_frames,
                    static_cast<unsigned long long>(input->frame_count()),
                    geometry.describe().c_str()));
        frame_count = command_line.max_frames;
    } else if (reference.frame_count() != distorted.frame_count()) {
        throw CliError(string_printf(
            "reference and distorted differ: %s holds %llu frames of %s but %s holds %llu "
            "(--frames N scores the first N)",
            reference.path().c_str(), static_cast<unsigned long long>(reference.frame_count()),
            geometry.describe().c_str(), distorted.path().c_str(),
            static_cast<unsigned long long>(distorted.frame_count())));
    }

    /* Declared before the context, so that it outlives every call into the core. */
    std::unique_ptr<ThreadPool> pool;
    ContextPtr context = create_context(geometry, options);
    if (command_line.threads > 1) {
        pool = std::make_unique<ThreadPool>(command_line.threads);
        const int err = float_adm_set_executor(context.get(), ThreadPool::execute, pool.get(),
                                               command_line.threads);
        if (err < 0)
            throw CliError(string_printf("--threads %d: %s", command_line.threads,
                                         float_adm_strerror(err)));
    }

    const int num_outputs = options.debug ? FLOAT_ADM_NUM_DEBUG_OUTPUTS : FLOAT_ADM_NUM_OUTPUTS;
    bool log_to_stdout = false;
    for (size_t i = 0; i < num_logs; i++) {
        const LogRequest &request = command_line.logs[i];
        if (request.path.empty())
            continue;
        check_not_an_input(request, reference, distorted);
        for (size_t j = i + 1; j < num_logs; j++)
            check_distinct(request, command_line.logs[j]);
    }
    std::vector<std::pair<const LogRequest *, LogPtr>> logs;
    for (const LogRequest &request : command_line.logs) {
        if (request.path.empty())
            continue;
        logs.emplace_back(&request, open_log(request, num_outputs, geometry));
        log_to_stdout |= request.path == "-";
    }
    const bool print_table = !command_line.quiet && !log_to_stdout;

    if (print_table)
        std::printf("%6s  %-10s  %-10s  %-10s\n", "frame", "adm2", "aim", "adm3");
    char message[512];
    for (unsigned long long frame = 0; frame < frame_count; ++frame) {
        const FloatAdmPlane reference_plane = reference.read_frame();
        const FloatAdmPlane distorted_plane = distorted.read_frame();
        FloatAdmScores scores;
        const int err = float_adm_score_frame(context.get(), &reference_plane,
                                              &distorted_plane, &scores);
        if (err < 0)
            throw CliError(string_printf("frame %llu: scoring failed: %s", frame,
                                         float_adm_strerror(err)));
        for (auto &log : logs) {
            message[0] = '\0';
            check_log(float_adm_log_frame(log.second.get(), frame, &scores, message,
                                          sizeof(message)),
                      message, log.first->path);
        }
        if (print_table)
            std::printf("%6llu  %.8f  %.8f  %.8f\n", frame, scores.adm2, scores.aim,
                        scores.adm3);
    }

    for (auto &log : logs) {
        FloatAdmLog *raw = log.second.release();
        message[0] = '\0';
        check_log(float_adm_log_close(&raw, message, sizeof(message)), message,
                  log.first->path);
    }
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
