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

/* float_adm_score: libvmaf's float_adm scores of a raw YUV or y4m file pair.  The
 * command line is command_line.cpp's, the inputs' geometry and frame count
 * input_frames.cpp's, where the scores go score_outputs.cpp's; here is the run. */

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "cli_error.h"
#include "command_line.h"
#ifdef FLOAT_ADM_CLI_CUDA
#include "cuda_backend.h"
#endif
#include "float_adm.h"
#include "frames_in_flight.h"
#include "input_frames.h"
#include "pixel_format.h"
#ifdef FLOAT_ADM_CLI_SWSCALE
#include "scaler.h"
#endif
#include "score_outputs.h"
#include "swap_warning.h"
#include "usage.h"
#include "video_reader.h"

namespace {

struct ContextDeleter {
    void operator()(FloatAdmContext *context) const { float_adm_context_free(&context); }
};
using ContextPtr = std::unique_ptr<FloatAdmContext, ContextDeleter>;

ContextPtr create_context(const InputGeometry &geometry, const FloatAdmOptions &options)
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

/* The level a context starts at here: the best this processor runs exactly. */
const char *best_simd_level()
{
    FloatAdmOptions options;
    float_adm_options_default(&options);
    FloatAdmContext *context = nullptr;
    if (float_adm_context_create(&context, 64, 64, 8, &options, nullptr, 0) < 0)
        return "unknown";
    const char *level = float_adm_context_simd_level(context);
    float_adm_context_free(&context);
    return level;
}

/* Everything printed must have reached stdout before the tool says it succeeded. */
void finish_stdout()
{
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw CliError(std::string("cannot write to stdout: ") +
                       std::strerror(errno ? errno : EIO));
}

/* --backend: whether frames go to a CUDA device.  auto takes the device where the
 * library's rule finds it faster for these frames (float_adm_cuda_choose_backend) and says
 * in one line which it took and why. */
bool use_cuda(const CommandLine &command_line, const InputGeometry &geometry,
              const FloatAdmOptions &options, unsigned long long frames)
{
    if (command_line.backend == "cpu")
        return false;
    std::string why;
#ifdef FLOAT_ADM_CLI_CUDA
    if (command_line.backend == "cuda") {
        if (cuda_backend_available(why))
            return true;
        throw CliError("--backend cuda: " + why);
    }
    const bool cuda = cuda_backend_chosen(geometry, options, command_line.threads, frames, why);
#else
    (void)geometry;
    (void)options;
    (void)frames;
    why = "this build has no CUDA backend (configure --enable-cuda)";
    if (command_line.backend == "cuda")
        throw CliError("--backend cuda: " + why);
    const bool cuda = false;
#endif
    std::fprintf(stderr, "%s: --backend auto: %s; scoring on the %s\n", program_name, why.c_str(),
                 cuda ? "CUDA device" : "CPU");
    return cuda;
}

/* How many frames a run with a stream scores at most: --frames, vmaf's --frame_cnt,
 * else all (until an input ends). */
unsigned long long stream_frame_limit(const CommandLine &command_line)
{
    if (command_line.max_frames)
        return command_line.max_frames;
    return command_line.frame_cnt ? command_line.frame_cnt : ~0ULL;
}

/* The next frame of an input, read in order; false at its end. */
bool next_plane(VideoReader &input, FloatAdmPlane &plane)
{
    if (input.is_stream())
        return input.read_next(plane);
    if (input.next_frame() >= input.frame_count())
        return false;
    plane = input.read_frame();
    return true;
}

/* An input of a run with a stream ended after `frames` frames: as the files' counts
 * are checked before a run (frames_to_score), an end that leaves frames unpaired, a
 * frame cut short, or fewer frames than --frames asked for is an error, or with vmaf's
 * options a warning, as vmaf reads until one input ends. */
void check_stream_end(const CommandLine &command_line, const VideoReader &reference,
                      const VideoReader &distorted, bool got_reference, bool got_distorted,
                      unsigned long long frames)
{
    if (!frames)
        throw CliError("no frame to score: " + (got_reference ? distorted : reference).path() +
                       " holds none" +
                       ((got_reference ? distorted : reference).incomplete().empty()
                            ? std::string()
                            : ": " + (got_reference ? distorted : reference).incomplete()));
    if (command_line.max_frames)
        throw CliError(
            string_printf("--frames %llu, but %s ended after %llu", command_line.max_frames,
                          (got_reference ? distorted : reference).path().c_str(), frames));
    std::string why;
    for (const VideoReader *input : {&reference, &distorted})
        if (!input->incomplete().empty())
            why = input->path() + ": " + input->incomplete();
    if (why.empty() && got_reference != got_distorted)
        why = string_printf("reference and distorted differ: %s ended after %llu frames, %s "
                            "holds more",
                            (got_reference ? distorted : reference).path().c_str(), frames,
                            (got_reference ? reference : distorted).path().c_str());
    if (why.empty())
        return;
    if (!command_line.vmaf_dialect)
        throw CliError(why + " (--frames N scores the first N)");
    std::fprintf(stderr, "%s: warning: %s; scoring the first %llu, as vmaf does\n", program_name,
                 why.c_str(), frames);
}

struct RunFilesDeleter {
    void operator()(FloatAdmRunFiles *files) const { float_adm_run_files_free(&files); }
};
using RunFilesPtr = std::unique_ptr<FloatAdmRunFiles, RunFilesDeleter>;

/* The run's files with both inputs and the maps' pattern in them: one stream named
 * twice (stdin as "-" and /dev/fd/0, one FIFO) is refused, as two readers would
 * split its bytes; so is a pattern that gives an input's name. */
RunFilesPtr register_inputs(const CommandLine &command_line)
{
    FloatAdmRunFiles *raw = nullptr;
    if (float_adm_run_files_create(&raw) < 0)
        throw std::bad_alloc();
    RunFilesPtr files(raw);
    for (const auto &input : {std::make_pair("--reference", &command_line.reference),
                              std::make_pair("--distorted", &command_line.distorted)}) {
        char message[512] = "";
        const int err = float_adm_run_files_add_input(files.get(), input.second->c_str(),
                                                      input.first, message, sizeof(message));
        /* A path that cannot be looked at is no other input: the reader says why. */
        if (err < 0 && err != FLOAT_ADM_ERROR_IO)
            throw CliError(message[0] ? message : *input.second + ": " + float_adm_strerror(err));
    }
    char message[512] = "";
    if (!command_line.map_path.empty() &&
        float_adm_run_files_add_map_pattern(files.get(), command_line.map_path.c_str(),
                                            "--map-path", message, sizeof(message)) < 0)
        throw CliError(message);
    return files;
}

/* A file the reader has doubts about is scored, and the doubt said once. */
void warn_about(const VideoReader &input)
{
    if (!input.warning().empty())
        std::fprintf(stderr, "%s: warning: %s\n", program_name, input.warning().c_str());
}

/* Two y4m inputs of different frame rates are still scored frame n against frame
 * n, which pairs different moments unless one was made from the other frame by
 * frame: said once. */
void warn_if_rates_differ(const VideoReader &reference, const VideoReader &distorted)
{
    const long long ref_num = reference.rate_num(), ref_den = reference.rate_den();
    const long long dis_num = distorted.rate_num(), dis_den = distorted.rate_den();
    if (!ref_num || !ref_den || !dis_num || !dis_den || ref_num * dis_den == dis_num * ref_den)
        return;
    std::fprintf(stderr,
                 "%s: warning: the reference %s is %g fps and the distorted %s %g fps; they "
                 "are scored frame by frame, frame n against frame n, which pairs different "
                 "moments unless the frames correspond one to one\n",
                 program_name, reference.path().c_str(), static_cast<double>(ref_num) / ref_den,
                 distorted.path().c_str(), static_cast<double>(dis_num) / dis_den);
}

/* A distorted larger than its reference, scaled down to it, is most often the
 * source given as the distorted: said once, naming both.  Whether it was said. */
bool warn_if_swapped(const VideoReader &reference, const InputGeometry &reference_geometry,
                     const VideoReader &distorted, const InputGeometry &distorted_geometry)
{
    if (static_cast<long long>(distorted_geometry.width) * distorted_geometry.height <=
        static_cast<long long>(reference_geometry.width) * reference_geometry.height)
        return false;
    std::fprintf(stderr,
                 "%s: warning: the distorted %s (%dx%d) is larger than the reference %s "
                 "(%dx%d) and is scaled down to it: are the two swapped? (--reference is "
                 "the source, --distorted the encode)\n",
                 program_name, distorted.path().c_str(), distorted_geometry.width,
                 distorted_geometry.height, reference.path().c_str(), reference_geometry.width,
                 reference_geometry.height);
    return true;
}

int score(const CommandLine &command_line)
{
    if (command_line.reference.empty())
        throw CliError("missing --reference (see --help)");
    if (command_line.distorted.empty())
        throw CliError("missing --distorted (see --help)");
#ifndef FLOAT_ADM_CLI_SWSCALE
    if (command_line.scale)
        throw CliError("--scale: this build has no libswscale (configure --enable-swscale)");
#endif
    if (command_line.scaler_given && !command_line.scale)
        throw CliError("--scaler " + command_line.scaler + " without --scale: nothing to scale");

    const FloatAdmOptions options = make_options(command_line);
    /* Every input is known, by what it is, before anything is read or written. */
    const RunFilesPtr files = register_inputs(command_line);
    VideoReader reference(command_line.reference);
    VideoReader distorted(command_line.distorted);
    warn_about(reference);
    warn_about(distorted);
    warn_if_rates_differ(reference, distorted);
    const InputGeometry geometry = resolve_geometry(command_line, reference, distorted);
    const InputGeometry distorted_geometry =
        command_line.scale ? resolve_scaled_geometry(command_line, distorted, geometry) : geometry;
    const bool sizes_asked = warn_if_swapped(reference, geometry, distorted, distorted_geometry);

    /* The files are sized up before the context is made: a header announcing a
     * huge frame over a few bytes must fail at once, not after allocating it. */
    reference.start(geometry);
    if (command_line.scale)
        distorted.start_to_scale();
    else
        distorted.start(distorted_geometry);
    /* A stream (stdin, a pipe) is read until it ends: its frames are not counted first. */
    const bool streaming = reference.is_stream() || distorted.is_stream();
    const unsigned long long frame_count = streaming
                                               ? stream_frame_limit(command_line)
                                               : frames_to_score(command_line,
                                                                 {&reference, &distorted},
                                                                 {&geometry, &distorted_geometry});
    reference.skip_frames(command_line.skip[0]);
    distorted.skip_frames(command_line.skip[1]);
    const bool maps = !command_line.map_path.empty();
    const unsigned long long scored = streaming && !command_line.max_frames &&
                                              !command_line.frame_cnt
                                          ? 0
                                          : (frame_count + command_line.subsample - 1) /
                                                command_line.subsample;
    const bool on_cuda = use_cuda(command_line, geometry, options, scored);
#ifdef FLOAT_ADM_CLI_SWSCALE
    std::unique_ptr<LumaScaler> scaler;
    if (command_line.scale)
        scaler = std::make_unique<LumaScaler>(distorted_geometry, geometry, command_line.scaler);
#endif

    ContextPtr context = on_cuda ? nullptr : create_context(geometry, options);
    if (!on_cuda && command_line.threads > 1) {
        const int err = float_adm_context_set_threads(context.get(), command_line.threads);
        if (err < 0)
            throw CliError(
                string_printf("--threads %d: %s", command_line.threads, float_adm_strerror(err)));
    }
    if (!on_cuda && maps && float_adm_context_enable_map(context.get()) < 0)
        throw CliError("--map-path: no memory for the maps of " + geometry.describe());
    ScoreOutputs outputs(command_line, options, geometry, files.get(), scored);
    /* Maps are written from the context after each frame, and scaled frames are
     * scaled here: those frames are scored one at a time. */
    std::unique_ptr<FramesInFlight> in_flight;
    if (!on_cuda && !maps && !streaming && !command_line.scale)
        in_flight = std::make_unique<FramesInFlight>(context.get(), command_line.threads,
                                                     command_line.reference, command_line.distorted,
                                                     geometry);
    unsigned long long collected_frame = 0;
    /* The order is asked about once: from the sizes, else from the pictures. */
    SwapWarning swap_warning(geometry, command_line.reference, command_line.distorted,
                             !sizes_asked);
    LargeBuffer swap_reference, swap_distorted; /* the first frames in flight, read again */

#ifdef FLOAT_ADM_CLI_CUDA
    std::unique_ptr<CudaScorer> cuda;
    if (on_cuda) {
        cuda = std::make_unique<CudaScorer>(geometry, options, command_line.map_path);
    }
    unsigned long long scored_frame = 0;
#endif
    for (unsigned long long frame = 0; frame < frame_count; ++frame) {
        FloatAdmPlane reference_plane, distorted_plane;
#ifdef FLOAT_ADM_CLI_CUDA
        /* Unscaled frames on the device: files read where they lie, streams into its
         * pinned buffers, no other copy. */
        if (cuda && !command_line.scale) {
            if (!streaming && frame % command_line.subsample) {
                reference.skip_frames(1);
                distorted.skip_frames(1);
                continue;
            }
            FloatAdmScores scores;
            if (cuda->full() && cuda->receive(&scored_frame, &scores))
                outputs.add(scored_frame, scores);
            if (!streaming) {
                /* Files: the library reads each plane where it lies. */
                if (swap_warning.wants_pairs())
                    swap_warning.add(
                        reference.read_frame_at(reference.next_frame(), swap_reference),
                        distorted.read_frame_at(distorted.next_frame(), swap_distorted));
                FloatAdmCudaFilePlane planes[2];
                reference.next_frame_place(&planes[0].fd, &planes[0].offset);
                distorted.next_frame_place(&planes[1].fd, &planes[1].offset);
                cuda->send_file_frame(frame, planes);
                continue;
            }
            const CudaScorer::HostFrame buffers = cuda->host_frame();
            const bool got_reference = reference.read_next_into(buffers.luma[0]);
            const bool got_distorted = distorted.read_next_into(buffers.luma[1]);
            if (!got_reference || !got_distorted) {
                check_stream_end(command_line, reference, distorted, got_reference, got_distorted,
                                 frame);
                break;
            }
            if (frame % command_line.subsample)
                continue;
            swap_warning.add(buffers.plane[0], buffers.plane[1]);
            cuda->send_host_frame(frame);
            continue;
        }
#endif
        if (streaming) {
            const bool got_reference = next_plane(reference, reference_plane);
            const bool got_distorted = next_plane(distorted, distorted_plane);
            if (!got_reference || !got_distorted) {
                check_stream_end(command_line, reference, distorted, got_reference, got_distorted,
                                 frame);
                break;
            }
            if (frame % command_line.subsample)
                continue;
        } else if (frame % command_line.subsample) {
            reference.skip_frames(1);
            distorted.skip_frames(1);
            continue;
        }
        if (in_flight) {
            if (swap_warning.wants_pairs())
                swap_warning.add(reference.read_frame_at(reference.next_frame(), swap_reference),
                                 distorted.read_frame_at(distorted.next_frame(), swap_distorted));
            FloatAdmScores scores;
            if (in_flight->full() && in_flight->receive(&collected_frame, &scores))
                outputs.add(collected_frame, scores);
            in_flight->send(frame, reference.next_frame(), distorted.next_frame());
            reference.skip_frames(1);
            distorted.skip_frames(1);
            continue;
        }
        if (!streaming) {
            reference_plane = reference.read_frame();
            distorted_plane = distorted.read_frame();
        }
#ifdef FLOAT_ADM_CLI_SWSCALE
        if (scaler)
            distorted_plane = scaler->scale(distorted_plane);
#endif
        swap_warning.add(reference_plane, distorted_plane);
        FloatAdmScores scores;
#ifdef FLOAT_ADM_CLI_CUDA
        if (cuda) {
            /* The oldest frame leaves when the queue is full; frames come back in order. */
            if (cuda->full() && cuda->receive(&scored_frame, &scores))
                outputs.add(scored_frame, scores);
            cuda->send(frame, reference_plane, distorted_plane);
            continue;
        }
#endif
        const int err = float_adm_score_frame(context.get(), &reference_plane, &distorted_plane,
                                              &scores);
        if (err < 0)
            throw CliError(
                string_printf("frame %llu: scoring failed: %s", frame, float_adm_strerror(err)));
        outputs.add(frame, scores);
        if (maps) {
            char message[512] = "";
            if (float_adm_map_write_pfm(context.get(), command_line.map_path.c_str(), frame,
                                        message, sizeof(message)) < 0)
                throw CliError(std::string("--map-path: ") + message);
        }
    }
    for (FloatAdmScores scores; in_flight && in_flight->receive(&collected_frame, &scores);)
        outputs.add(collected_frame, scores);
#ifdef FLOAT_ADM_CLI_CUDA
    for (FloatAdmScores scores; cuda && cuda->receive(&scored_frame, &scores);)
        outputs.add(scored_frame, scores);
#endif
    swap_warning.finish();
    outputs.finish();
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
            std::printf("%s %s\nsimd levels:", program_name, float_adm_version());
            for (int i = 0; float_adm_simd_level_name(i); i++)
                std::printf(" %s", float_adm_simd_level_name(i));
            std::printf(" (best here: %s)\n", best_simd_level());
#ifdef FLOAT_ADM_CLI_SWSCALE
            std::printf("--scale: %s\n", LumaScaler::library_version().c_str());
#else
            std::printf("--scale: none (built without libswscale)\n");
#endif
            std::printf("rcpss fingerprint: %s\n", fingerprint);
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
