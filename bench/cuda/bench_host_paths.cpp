/*
 * Frames from host memory, the C API's paths, against the CPU at all its threads in the
 * same run: per size, the copy floor (the two luma planes from pinned memory to the
 * device, back to back), arrays in memory (copied into pinned memory on 1, 2 or 4
 * threads, or pinned in place, unpinned at each collect or held and unpinned in batches;
 * at depth 1, 2 and the library's) and raw yuv420p files
 * (read straight into the context's pinned buffers, a frame in 1 to 4 parts, or read in
 * place: their pages mapped and pinned, float_adm_cuda_submit_file), and the
 * CPU path on arrays and on the same files.  Each row: wall ms a pair, the process's CPU
 * ms a pair (getrusage: every thread, the driver's too) and their ratio (cores), the
 * speed against the CPU path of the same input, and every output of every frame
 * against the CPU's bits.  8 frame pairs rotate (held arrays: 24 copies of them, as new
 * arrays would); the files hold 64 frames of them.
 * Lines starting "RESULT" are for scripts.
 *
 * Usage: cuda_host_bench [--frames N] [--size WxH:DEPTH]... [--dir DIR] [--cpu-threads N]
 *   --dir: where the raw files are written (default /dev/shm), removed at the end
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "content.h"
#include "cuda_support.h"
#include "scores.h"

using cuda_test::CurrentPrimaryContext;
using namespace adm_cuda;
using testsupport::FrameGeometry;
using testsupport::LumaPlane;

namespace {

constexpr int kRotation = 8;    /* distinct frame pairs */
constexpr int kFileFrames = 64; /* frames in each file: the pairs in turn */
/* Copies of the pairs that held memory rotates over: more than the frames it keeps pinned
 * (16 planes after their collect, and the frames in flight), as a caller's new arrays. */
constexpr int kHeldCopies = 3 * kRotation;
constexpr int kWarmup = 10;

struct Clock {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    double cpu_ms = process_cpu_ms();
    static double process_cpu_ms()
    {
        struct rusage use;
        getrusage(RUSAGE_SELF, &use);
        return use.ru_utime.tv_sec * 1e3 + use.ru_utime.tv_usec / 1e3 + use.ru_stime.tv_sec * 1e3 +
               use.ru_stime.tv_usec / 1e3;
    }
    double wall_ms() const
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall)
            .count();
    }
    double used_cpu_ms() const { return process_cpu_ms() - cpu_ms; }
};

struct Row {
    std::string path;
    double ms = 0, cpu_ms = 0;
    long differing = -1; /* -1: not compared */
    std::string error;
};

/* Where the frames come from. */
enum Source { kArraysCopied, kArraysInPlace, kArraysHeld, kFiles, kFilesInPlace };

struct Inputs {
    int width, height, depth;
    std::vector<LumaPlane> refs, dists;
    std::vector<LumaPlane> held_refs, held_dists; /* kHeldCopies: pair k % kRotation */
    std::vector<FloatAdmScores> cpu; /* each pair's CPU scores */
    std::string files[2];            /* yuv420p: reference, distorted */
    const char *pix_fmt;
};

bool write_yuv(const std::string &path, const std::vector<LumaPlane> &planes)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const FrameGeometry &g = planes[0].geometry;
    const size_t chroma = 2 * (size_t)((g.width + 1) / 2) * ((g.height + 1) / 2) *
                          g.bytes_per_sample();
    const std::vector<uint8_t> grey(chroma, 0x80);
    bool ok = true;
    for (int k = 0; k < kFileFrames && ok; k++) {
        const LumaPlane &p = planes[k % planes.size()];
        for (int y = 0; y < p.height() && ok; y++)
            ok = fwrite(&p.bytes[(size_t)y * p.stride], 1, g.luma_row_bytes(), f) ==
                 g.luma_row_bytes();
        ok = ok && fwrite(grey.data(), 1, grey.size(), f) == grey.size();
    }
    return fclose(f) == 0 && ok;
}

struct Reader {
    FloatAdmReader *r = nullptr;
    ~Reader() { float_adm_reader_free(&r); }
    bool open(const Inputs &in, int k, int threads, std::string *error)
    {
        char err[512] = "";
        FloatAdmFrameFormat format;
        if (float_adm_reader_open(&r, in.files[k].c_str(), err, sizeof(err)) < 0 ||
            float_adm_frame_format(&format, in.width, in.height, in.pix_fmt, err, sizeof(err)) <
                0 ||
            float_adm_reader_set_threads(r, threads) < 0 ||
            float_adm_reader_start(r, &format, err, sizeof(err)) < 0) {
            *error = err;
            return false;
        }
        return true;
    }
};

long compare(const Inputs &in, const std::vector<FloatAdmScores> &got, size_t first)
{
    long n = 0;
    for (size_t k = 0; k < got.size(); k++)
        n += testsupport::differing_outputs(in.cpu[(first + k) % kRotation], got[k]);
    return n;
}

/*
 * frames pairs on the GPU, after kWarmup: frame k is pair k % kRotation (and file frame
 * k % kFileFrames, the same pair).  depth 0 and host_threads 0: the library's choice.
 */
Row run_gpu(const Inputs &in, const std::string &path, Source source, int depth, int host_threads,
            int read_threads, int frames)
{
    Row row;
    row.path = path;
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.debug = 1;
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    if (float_adm_cuda_context_create(&ctx, in.width, in.height, in.depth, &opts, nullptr, depth,
                                      err, sizeof(err)) < 0) {
        row.error = err;
        return row;
    }
    float_adm_cuda_set_host_threads(ctx, host_threads);
    Reader files[2];
    if ((source == kFiles || source == kFilesInPlace) &&
        (!files[0].open(in, 0, read_threads, &row.error) ||
         !files[1].open(in, 1, read_threads, &row.error))) {
        float_adm_cuda_context_free(&ctx);
        return row;
    }
    auto submit = [&](int k) -> int {
        if (source == kFilesInPlace) {
            FloatAdmCudaFilePlane planes[2];
            for (int i = 0; i < 2; i++)
                if (float_adm_reader_luma_at(files[i].r, k % kFileFrames, &planes[i].fd,
                                             &planes[i].offset) != 1) {
                    row.error = "no place for a frame";
                    return FLOAT_ADM_ERROR_INVALID;
                }
            return float_adm_cuda_submit_file(ctx, &planes[0], &planes[1]);
        }
        if (source == kFiles) {
            FloatAdmPlane r, d;
            int ret = float_adm_cuda_host_frame(ctx, &r, &d);
            if (ret < 0)
                return ret;
            void *into[2] = {const_cast<void *>(r.data), const_cast<void *>(d.data)};
            for (int i = 0; i < 2; i++)
                if (float_adm_reader_read_luma(files[i].r, k % kFileFrames, into[i], err,
                                               sizeof(err)) < 0) {
                    row.error = err;
                    return FLOAT_ADM_ERROR_IO;
                }
            return float_adm_cuda_submit_host_frame(ctx);
        }
        const int where = source == kArraysInPlace ? FLOAT_ADM_CUDA_HOST_IN_PLACE
                          : source == kArraysHeld  ? FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD
                                                   : FLOAT_ADM_CUDA_HOST_COPY;
        const bool held = source == kArraysHeld;
        const FloatAdmPlane r = held ? in.held_refs[k % kHeldCopies].view()
                                     : in.refs[k % kRotation].view();
        const FloatAdmPlane d = held ? in.held_dists[k % kHeldCopies].view()
                                     : in.dists[k % kRotation].view();
        const FloatAdmCudaPlane planes[2] = {{r.data, r.stride, r.bytes_per_sample, 0, where},
                                             {d.data, d.stride, d.bytes_per_sample, 0, where}};
        return float_adm_cuda_submit(ctx, &planes[0], &planes[1]);
    };
    /* n frames from frame `first` on, collected as the queue fills. */
    auto score = [&](int first, int n, std::vector<FloatAdmScores> *out) -> int {
        out->assign(n, FloatAdmScores{});
        int submitted = 0, collected = 0, ret = 0;
        while (ret >= 0 && collected < n) {
            ret = submitted < n ? submit(first + submitted) : FLOAT_ADM_ERROR_AGAIN;
            if (ret == 0)
                submitted++;
            if (ret == FLOAT_ADM_ERROR_AGAIN)
                ret = float_adm_cuda_collect(ctx, &(*out)[collected++], 1);
        }
        return ret;
    };
    std::vector<FloatAdmScores> warm, timed;
    int ret = score(0, kWarmup, &warm);
    const Clock clock;
    if (ret >= 0)
        ret = score(kWarmup, frames, &timed);
    row.ms = clock.wall_ms() / frames;
    row.cpu_ms = clock.used_cpu_ms() / frames;
    if (ret < 0 && row.error.empty())
        row.error = std::string(float_adm_cuda_strerror(ret)) + ": " +
                    float_adm_cuda_last_error(ctx);
    if (ret >= 0)
        row.differing = compare(in, warm, 0) + compare(in, timed, kWarmup);
    while (float_adm_cuda_in_flight(ctx) > 0) {
        FloatAdmScores s;
        float_adm_cuda_collect(ctx, &s, 1);
    }
    float_adm_cuda_context_free(&ctx);
    return row;
}

/* The CPU path on `threads` threads, frames in flight (float_adm_submit/collect), from
 * the arrays, or read from the files on this thread as float_adm_score's readers do. */
Row run_cpu(const Inputs &in, const std::string &path, bool from_files, int threads, int frames)
{
    Row row;
    row.path = path;
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.debug = 1;
    FloatAdmContext *ctx = nullptr;
    char err[512] = "";
    const int depth = threads + 2;
    if (float_adm_context_create(&ctx, in.width, in.height, in.depth, &opts, err, sizeof(err)) <
            0 ||
        float_adm_context_set_threads(ctx, threads) < 0 ||
        float_adm_context_set_frames_in_flight(ctx, depth) < 0) {
        row.error = err[0] ? err : "CPU context";
        float_adm_context_free(&ctx);
        return row;
    }
    Reader files[2];
    if (from_files &&
        (!files[0].open(in, 0, 1, &row.error) || !files[1].open(in, 1, 1, &row.error))) {
        float_adm_context_free(&ctx);
        return row;
    }
    const size_t luma = (size_t)in.width * in.height * (in.depth > 8 ? 2 : 1);
    std::vector<std::vector<uint8_t>> buffers(2 * depth, std::vector<uint8_t>(luma));
    auto score = [&](int first, int n, std::vector<FloatAdmScores> *out) -> int {
        out->assign(n, FloatAdmScores{});
        int submitted = 0, collected = 0, ret = 0;
        while (ret >= 0 && collected < n) {
            if (submitted < n && submitted - collected < depth) {
                const int k = first + submitted;
                FloatAdmPlane r = in.refs[k % kRotation].view(), d = in.dists[k % kRotation].view();
                if (from_files) {
                    uint8_t *into[2] = {buffers[2 * (submitted % depth)].data(),
                                        buffers[2 * (submitted % depth) + 1].data()};
                    for (int i = 0; i < 2 && ret >= 0; i++)
                        ret = float_adm_reader_read_luma(files[i].r, k % kFileFrames, into[i], err,
                                                         sizeof(err));
                    r.data = into[0];
                    d.data = into[1];
                    r.stride = d.stride = (ptrdiff_t)(luma / in.height);
                }
                if (ret >= 0)
                    ret = float_adm_submit(ctx, &r, &d);
                submitted += ret >= 0;
                continue;
            }
            ret = float_adm_collect(ctx, &(*out)[collected++], 1);
        }
        return ret;
    };
    std::vector<FloatAdmScores> warm, timed;
    int ret = score(0, kWarmup, &warm);
    const Clock clock;
    if (ret >= 0)
        ret = score(kWarmup, frames, &timed);
    row.ms = clock.wall_ms() / frames;
    row.cpu_ms = clock.used_cpu_ms() / frames;
    if (ret < 0)
        row.error = err[0] ? err : float_adm_strerror(ret);
    else
        row.differing = compare(in, warm, 0) + compare(in, timed, kWarmup);
    while (float_adm_in_flight(ctx) > 0) {
        FloatAdmScores s;
        float_adm_collect(ctx, &s, 1);
    }
    float_adm_context_free(&ctx);
    return row;
}

/* The copy floor: both luma planes from pinned memory into device memory, pair after
 * pair on one stream, timed with events. */
Row copy_floor(const CudaDriver &cu, const Inputs &in, int frames)
{
    Row row;
    row.path = "copy floor: 2 luma planes, pinned -> device";
    const size_t bytes = (size_t)in.width * in.height * (in.depth > 8 ? 2 : 1);
    void *host[2] = {};
    CUdeviceptr device[2] = {};
    CUstream stream = nullptr;
    CUevent start = nullptr, stop = nullptr;
    bool ok = cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
              cu.cuEventCreate(&start, CU_EVENT_BLOCKING_SYNC) == CUDA_SUCCESS &&
              cu.cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC) == CUDA_SUCCESS;
    for (int i = 0; i < 2 && ok; i++) {
        ok = cu.cuMemHostAlloc(&host[i], bytes, 0) == CUDA_SUCCESS &&
             cu.cuMemAlloc(&device[i], bytes) == CUDA_SUCCESS;
        if (ok)
            memcpy(host[i], (i ? in.dists : in.refs)[0].bytes.data(), bytes);
    }
    auto copy_pair = [&]() {
        for (int i = 0; i < 2 && ok; i++) {
            CudaMemcpy2D copy = {};
            copy.srcMemoryType = CU_MEMORYTYPE_HOST;
            copy.srcHost = host[i];
            copy.srcPitch = bytes / in.height;
            copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            copy.dstDevice = device[i];
            copy.dstPitch = bytes / in.height;
            copy.WidthInBytes = bytes / in.height;
            copy.Height = in.height;
            ok = cu.cuMemcpy2DAsync(&copy, stream) == CUDA_SUCCESS;
        }
    };
    for (int k = 0; k < kWarmup && ok; k++)
        copy_pair();
    const Clock clock;
    ok = ok && cu.cuEventRecord(start, stream) == CUDA_SUCCESS;
    for (int k = 0; k < frames && ok; k++)
        copy_pair();
    float ms = 0;
    ok = ok && cu.cuEventRecord(stop, stream) == CUDA_SUCCESS &&
         cu.cuEventSynchronize(stop) == CUDA_SUCCESS &&
         cu.cuEventElapsedTime(&ms, start, stop) == CUDA_SUCCESS;
    row.ms = ms / frames;
    row.cpu_ms = clock.used_cpu_ms() / frames;
    if (!ok)
        row.error = "the copies failed";
    for (int i = 0; i < 2; i++) {
        if (host[i])
            cu.cuMemFreeHost(host[i]);
        if (device[i])
            cu.cuMemFree(device[i]);
    }
    if (start)
        cu.cuEventDestroy(start);
    if (stop)
        cu.cuEventDestroy(stop);
    if (stream)
        cu.cuStreamDestroy(stream);
    return row;
}

void print_row(const std::string &size, const Row &row, double cpu_ms)
{
    if (!row.error.empty()) {
        printf("  %-52s FAILED: %s\n", row.path.c_str(), row.error.c_str());
        printf("RESULT size=%s path=\"%s\" error=\"%s\"\n", size.c_str(), row.path.c_str(),
               row.error.c_str());
        return;
    }
    const char *exact = row.differing < 0 ? "-" : row.differing ? "NO" : "0 bits";
    printf("  %-52s %8.3f %11.3f %6.2f %7.2fx %s\n", row.path.c_str(), row.ms, row.cpu_ms,
           row.cpu_ms / row.ms, cpu_ms > 0 ? cpu_ms / row.ms : 0.0, exact);
    printf("RESULT size=%s path=\"%s\" ms=%.4f cpu_ms=%.4f cores=%.3f vs_cpu=%.3f differing=%ld\n",
           size.c_str(), row.path.c_str(), row.ms, row.cpu_ms, row.cpu_ms / row.ms,
           cpu_ms > 0 ? cpu_ms / row.ms : 0.0, row.differing);
    fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    int frames = 200, cpu_threads = (int)std::thread::hardware_concurrency();
    std::string dir = "/dev/shm";
    struct Size {
        int w, h, depth;
    };
    std::vector<Size> sizes;
    for (int i = 1; i < argc; i++) {
        Size s;
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::max(1, atoi(argv[++i]));
        else if (!strcmp(argv[i], "--cpu-threads") && i + 1 < argc)
            cpu_threads = std::max(1, atoi(argv[++i]));
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
                 sscanf(argv[++i], "%dx%d:%d", &s.w, &s.h, &s.depth) == 3)
            sizes.push_back(s);
        else {
            fprintf(stderr,
                    "usage: %s [--frames N] [--size WxH:DEPTH]... [--dir DIR] "
                    "[--cpu-threads N]\n",
                    argv[0]);
            return 2;
        }
    }
    if (sizes.empty())
        sizes = {{3840, 2160, 8}, {1920, 1080, 8}};
    cpu_threads = std::max(cpu_threads, 1);
    if (!cuda_test::have_device("host paths benchmark"))
        return 0;
    CurrentPrimaryContext primary;
    const CudaDriver *cu = primary.driver();
    if (!cu) {
        fprintf(stderr, "no CUDA context on device 0\n");
        return 1;
    }
    CUdevice dev = 0;
    char name[256] = "";
    cu->cuCtxGetDevice(&dev);
    cu->cuDeviceGetName(name, sizeof(name), dev);
    printf("device: %s; %s; CPU path on %d threads; %d timed frames after %d, %d pairs "
           "rotating, files of %d frames in %s\n",
           name, float_adm_cuda_build(), cpu_threads, frames, kWarmup, kRotation, kFileFrames,
           dir.c_str());
    int failures = 0;
    for (const Size &s : sizes) {
        Inputs in = {s.w, s.h, s.depth, {}, {},
                     {},  {},  {},      {}, s.depth > 8 ? "yuv420p10le" : "yuv420p"};
        if (s.depth != 8 && s.depth != 10) {
            fprintf(stderr, "--size %dx%d:%d: 8 or 10 bits\n", s.w, s.h, s.depth);
            return 2;
        }
        for (int k = 0; k < kRotation; k++) {
            const testsupport::FramePair p = testsupport::make_frame_pair(
                FrameGeometry{s.w, s.h, s.depth}, 200 + k);
            in.refs.push_back(p.ref);
            in.dists.push_back(p.dist);
        }
        /* The CPU's bits of each pair, one frame at a time on one context. */
        {
            FloatAdmOptions opts;
            float_adm_options_default(&opts);
            opts.debug = 1;
            FloatAdmContext *ctx = nullptr;
            char err[256] = "";
            if (float_adm_context_create(&ctx, s.w, s.h, s.depth, &opts, err, sizeof(err)) < 0) {
                fprintf(stderr, "%s\n", err);
                return 1;
            }
            float_adm_context_set_threads(ctx, cpu_threads);
            in.cpu.resize(kRotation);
            for (int k = 0; k < kRotation; k++) {
                const FloatAdmPlane r = in.refs[k].view(), d = in.dists[k].view();
                float_adm_score_frame(ctx, &r, &d, &in.cpu[k]);
            }
            float_adm_context_free(&ctx);
        }
        const std::string base = dir + "/cuda_host_bench." + std::to_string(getpid());
        in.files[0] = base + ".ref.yuv";
        in.files[1] = base + ".dis.yuv";
        const bool have_files = write_yuv(in.files[0], in.refs) && write_yuv(in.files[1], in.dists);
        if (!have_files)
            printf("  (cannot write the files in %s: no file rows)\n", dir.c_str());

        const std::string size = std::to_string(s.w) + "x" + std::to_string(s.h) + ":" +
                                 std::to_string(s.depth);
        printf("\n%dx%d %d-bit                                         ms/pair  CPU ms/pair  "
               "cores  vs CPU  exact\n",
               s.w, s.h, s.depth);
        const std::string threads = std::to_string(cpu_threads) + " threads";
        const Row cpu_arrays = run_cpu(in, "CPU, arrays, " + threads, false, cpu_threads, frames);
        print_row(size, cpu_arrays, cpu_arrays.ms);
        failures += cpu_arrays.differing != 0;
        print_row(size, copy_floor(*cu, in, frames), 0);
        std::vector<Row> rows;
        rows.push_back(
            run_gpu(in, "GPU, arrays copied on 1 thread, depth 1", kArraysCopied, 1, 1, 0, frames));
        rows.push_back(
            run_gpu(in, "GPU, arrays copied on 1 thread, depth 2", kArraysCopied, 2, 1, 0, frames));
        for (int t : {1, 2, 4})
            rows.push_back(run_gpu(in,
                                   "GPU, arrays copied on " + std::to_string(t) + " thread" +
                                       (t > 1 ? "s" : "") + ", library's depth",
                                   kArraysCopied, 0, t, 0, frames));
        rows.push_back(run_gpu(in, "GPU, arrays copied, library's threads and depth", kArraysCopied,
                               0, 0, 0, frames));
        rows.push_back(
            run_gpu(in, "GPU, arrays pinned in place, depth 1", kArraysInPlace, 1, 0, 0, frames));
        rows.push_back(run_gpu(in, "GPU, arrays pinned in place, library's depth", kArraysInPlace,
                               0, 0, 0, frames));
        for (int k = 0; k < kHeldCopies; k++) {
            in.held_refs.push_back(in.refs[k % kRotation]);
            in.held_dists.push_back(in.dists[k % kRotation]);
        }
        rows.push_back(run_gpu(in, "GPU, arrays pinned in place and held, library's depth",
                               kArraysHeld, 0, 0, 0, frames));
        in.held_refs.clear();
        in.held_dists.clear();
        for (const Row &row : rows) {
            print_row(size, row, cpu_arrays.ms);
            failures += row.differing != 0;
        }
        if (have_files) {
            const Row cpu_files = run_cpu(in, "CPU, files, read on 1 thread, " + threads, true,
                                          cpu_threads, frames);
            print_row(size, cpu_files, cpu_files.ms);
            failures += cpu_files.differing != 0;
            rows.clear();
            for (int t : {1, 2, 4, 0})
                rows.push_back(run_gpu(in,
                                       "GPU, files into pinned buffers, read in " +
                                           (t == 1   ? std::string("1 part")
                                            : t == 0 ? std::string("the library's parts")
                                                     : std::to_string(t) + " parts"),
                                       kFiles, 0, 0, t, frames));
            rows.push_back(
                run_gpu(in, "GPU, files read in place, depth 1", kFilesInPlace, 1, 0, 1, frames));
            rows.push_back(run_gpu(in, "GPU, files read in place, library's depth", kFilesInPlace,
                                   0, 0, 1, frames));
            for (const Row &row : rows) {
                print_row(size, row, cpu_files.ms);
                failures += row.differing != 0;
            }
        }
        unlink(in.files[0].c_str());
        unlink(in.files[1].c_str());
    }
    printf("\n%s\n", failures ? "HOST BENCH: SOME PATH FAILED OR DIFFERED FROM THE CPU"
                              : "HOST BENCH: every path gave the CPU's bits");
    return failures ? 1 : 0;
}
