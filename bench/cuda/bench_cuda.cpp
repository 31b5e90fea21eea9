/*
 * CUDA benchmark: GPU time per frame with CUDA events (warm-up first, median over
 * many frames, inputs rotating through several frame pairs so the L2 does not
 * flatter), the per-stage breakdown, throughput with frames in flight, and the CPU
 * path on this host's cores for the ratio.  Each size is checked for exactness
 * (CPU vs CUDA, all 18 outputs) before it is timed.  The last column: frames from
 * host memory (float_adm_cuda_submit_host: staged, uploaded, 2 in flight).  Then
 * the cost of a map (float_adm_cuda_context_enable_map): the same timings without
 * and with one, in alternating rounds; with 4 in flight, each frame's loss is read
 * (computed on the host) as float_adm_score does.
 *
 * Usage: cuda_bench [--frames N] [--cpu-frames N] [--threads N] [--size WxH:DEPTH]...
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

#include "content.h"
#include "cuda_support.h"
#include "scores.h"
#include "thread_pool.h"

using cuda_test::CurrentPrimaryContext;
using cuda_test::DevicePlane;
using namespace adm_cuda;
using testsupport::FrameGeometry;
using testsupport::LumaPlane;

namespace {

constexpr int kRotation = 8; /* distinct frame pairs */

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        CUresult e_ = (call);                                                                      \
        if (e_ != CUDA_SUCCESS) {                                                                  \
            char text_[256];                                                                       \
            cuda_describe(e_, text_, sizeof(text_));                                               \
            fprintf(stderr, "%s: %s\n", #call, text_);                                             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define CHECK_ADM(ctx, call)                                                                       \
    do {                                                                                           \
        int r_ = (call);                                                                           \
        if (r_ < 0) {                                                                              \
            fprintf(stderr, "%s: %s (%s)\n", #call, float_adm_cuda_strerror(r_),                   \
                    float_adm_cuda_last_error(ctx));                                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct Result {
    std::string label;
    double gpu_ms, gpu_p10, gpu_p90, pipelined_ms, host_ms, cpu_ms,
        stages[FLOAT_ADM_CUDA_NUM_STAGES];
    int differing;
};

/* What a frame's collect is followed by: nothing, reading its map's sums, or its loss. */
enum { kNoMap, kMapSums, kMapLoss, kMapReads };

/* ms a frame with 4 in flight, each frame's map read as `read` says. */
double pipelined_ms(const CudaDriver &cu, FloatAdmCudaContext *ctx, CUstream stream,
                    const std::vector<DevicePlane> &dref, const std::vector<DevicePlane> &ddist,
                    int frames, int read)
{
    int columns = 0, rows = 0, block = 0;
    if (read != kNoMap)
        CHECK_ADM(ctx, float_adm_cuda_map_size(ctx, &columns, &rows, &block));
    std::vector<float> loss((size_t)columns * rows);
    std::vector<double> num(loss.size()), den(loss.size());
    CUevent start, stop;
    CHECK_CUDA(cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK_CUDA(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CHECK_CUDA(cu.cuEventRecord(start, stream));
    for (int submitted = 0, collected = 0; collected < frames;) {
        if (submitted < frames && float_adm_cuda_in_flight(ctx) < 4) {
            const int k = submitted % kRotation;
            const FloatAdmCudaPlane gr = dref[k].view(), gd = ddist[k].view();
            CHECK_ADM(ctx, float_adm_cuda_submit(ctx, &gr, &gd));
            submitted++;
            continue;
        }
        FloatAdmScores s;
        CHECK_ADM(ctx, float_adm_cuda_collect(ctx, &s, 1));
        if (read == kMapSums)
            for (int sc = 0; sc < 4; sc++) /* scales 0..3 */
                CHECK_ADM(ctx,
                          float_adm_cuda_map_sums(ctx, sc, num.data(), den.data(), num.size()));
        if (read == kMapLoss)
            CHECK_ADM(ctx, float_adm_cuda_map_loss(ctx, loss.data(), loss.size()));
        collected++;
    }
    CHECK_CUDA(cu.cuEventRecord(stop, stream));
    CHECK_CUDA(cu.cuEventSynchronize(stop));
    float total = 0;
    CHECK_CUDA(cu.cuEventElapsedTime(&total, start, stop));
    cu.cuEventDestroy(start);
    cu.cuEventDestroy(stop);
    return total / frames;
}

Result bench_size(const CudaDriver &cu, int w, int h, int depth, int frames, int cpu_frames,
                  ThreadPool &pool, int threads)
{
    Result res = {};
    res.label = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(depth) + "-bit";
    std::vector<LumaPlane> refs, dists;
    std::vector<DevicePlane> dref(kRotation), ddist(kRotation);
    std::string error;
    for (int k = 0; k < kRotation; k++) {
        const testsupport::FramePair pair = testsupport::make_frame_pair(FrameGeometry{w, h, depth},
                                                                         100 + k);
        refs.push_back(pair.ref);
        dists.push_back(pair.dist);
        if (!dref[k].upload(refs[k], &error) || !ddist[k].upload(dists[k], &error)) {
            fprintf(stderr, "%s\n", error.c_str());
            exit(1);
        }
    }
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.debug = 1;
    CUstream stream;
    CHECK_CUDA(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    FloatAdmCudaContext *ctx = nullptr;
    char err[512];
    if (float_adm_cuda_context_create(&ctx, w, h, depth, &opts, stream, 4, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }

    /* Exactness first, and the CPU's time on the same frames. */
    FloatAdmContext *cpu = nullptr;
    if (float_adm_context_create(&cpu, w, h, depth, &opts, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    float_adm_set_executor(cpu, ThreadPool::execute, &pool, threads);
    std::vector<double> cpu_times;
    for (int f = 0; f < cpu_frames + 1; f++) {
        const int k = f % kRotation;
        FloatAdmScores cs, gs;
        const FloatAdmPlane r = refs[k].view(), d = dists[k].view();
        const auto t0 = std::chrono::steady_clock::now();
        float_adm_score_frame(cpu, &r, &d, &cs);
        const auto t1 = std::chrono::steady_clock::now();
        if (f > 0) /* the first frame warms the caches */
            cpu_times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        if (f < kRotation) {
            const FloatAdmCudaPlane gr = dref[k].view(), gd = ddist[k].view();
            CHECK_ADM(ctx, float_adm_cuda_score_frame(ctx, &gr, &gd, &gs));
            res.differing += testsupport::differing_outputs(cs, gs);
        }
    }
    float_adm_context_free(&cpu);
    res.cpu_ms = median(cpu_times);

    /* One frame at a time: events around each frame's work on the stream. */
    CUevent start, stop;
    CHECK_CUDA(cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK_CUDA(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT));
    std::vector<double> times;
    std::vector<std::vector<double>> stage_times(FLOAT_ADM_CUDA_NUM_STAGES);
    const int warmup = 20;
    for (int pass = 0; pass < 2; pass++) {
        /* Pass 0 plain; pass 1 with stage events (they add a little time). */
        float_adm_cuda_set_profiling(ctx, pass);
        for (int f = 0; f < warmup + frames; f++) {
            const int k = f % kRotation;
            const FloatAdmCudaPlane gr = dref[k].view(), gd = ddist[k].view();
            FloatAdmScores s;
            CHECK_CUDA(cu.cuEventRecord(start, stream));
            CHECK_ADM(ctx, float_adm_cuda_submit(ctx, &gr, &gd));
            CHECK_CUDA(cu.cuEventRecord(stop, stream));
            CHECK_ADM(ctx, float_adm_cuda_collect(ctx, &s, 1));
            if (f < warmup)
                continue;
            if (pass == 0) {
                float ms = 0;
                /* collect waited for the frame, not for `stop` recorded after it. */
                CHECK_CUDA(cu.cuEventSynchronize(stop));
                CHECK_CUDA(cu.cuEventElapsedTime(&ms, start, stop));
                times.push_back(ms);
            } else {
                float ms[FLOAT_ADM_CUDA_NUM_STAGES];
                float_adm_cuda_stage_times(ctx, ms);
                for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
                    stage_times[st].push_back(ms[st]);
            }
        }
    }
    float_adm_cuda_set_profiling(ctx, 0);
    res.gpu_ms = median(times);
    std::sort(times.begin(), times.end());
    res.gpu_p10 = times[times.size() / 10];
    res.gpu_p90 = times[times.size() * 9 / 10];
    for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
        res.stages[st] = median(stage_times[st]);

    /* Throughput: 4 frames in flight, collected as they finish. */
    res.pipelined_ms = pipelined_ms(cu, ctx, stream, dref, ddist, frames, kNoMap);
    float_adm_cuda_context_free(&ctx);

    /* Frames from host memory: the library stages and uploads them, 2 in flight. */
    if (float_adm_cuda_context_create(&ctx, w, h, depth, &opts, stream, 2, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    float total = 0;
    for (int pass = 0; pass < 2; pass++) { /* pass 0 warms up (and makes the staging buffers) */
        const int n = pass ? frames : warmup;
        CHECK_CUDA(cu.cuEventRecord(start, stream));
        for (int submitted = 0, collected = 0; collected < n;) {
            if (submitted < n && float_adm_cuda_in_flight(ctx) < 2) {
                const int k = submitted % kRotation;
                const FloatAdmPlane r = refs[k].view(), d = dists[k].view();
                CHECK_ADM(ctx, float_adm_cuda_submit_host(ctx, &r, &d));
                submitted++;
                continue;
            }
            FloatAdmScores s;
            CHECK_ADM(ctx, float_adm_cuda_collect(ctx, &s, 1));
            collected++;
        }
        CHECK_CUDA(cu.cuEventRecord(stop, stream));
        CHECK_CUDA(cu.cuEventSynchronize(stop));
        CHECK_CUDA(cu.cuEventElapsedTime(&total, start, stop));
    }
    res.host_ms = total / frames;
    float_adm_cuda_context_free(&ctx);

    cu.cuEventDestroy(start);
    cu.cuEventDestroy(stop);
    cu.cuStreamDestroy(stream);
    return res;
}

/*
 * A map's cost at one size: GPU ms a frame without (0) and with (1); 4 in flight, ms a
 * frame as kNoMap, kMapSums and kMapLoss say (the loss is computed on the host).
 */
struct MapCost {
    std::string label;
    double gpu_ms[2], pipelined_ms[kMapReads];
    double stages[2][FLOAT_ADM_CUDA_NUM_STAGES]; /* profiled, without and with */
};

MapCost bench_map(const CudaDriver &cu, int w, int h, int depth, int frames)
{
    MapCost res = {};
    res.label = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(depth) + "-bit";
    std::vector<DevicePlane> dref(kRotation), ddist(kRotation);
    std::string error;
    for (int k = 0; k < kRotation; k++) {
        const testsupport::FramePair pair = testsupport::make_frame_pair(FrameGeometry{w, h, depth},
                                                                         100 + k);
        if (!dref[k].upload(pair.ref, &error) || !ddist[k].upload(pair.dist, &error)) {
            fprintf(stderr, "%s\n", error.c_str());
            exit(1);
        }
    }
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    CUstream stream;
    CUevent start, stop;
    CHECK_CUDA(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK_CUDA(cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK_CUDA(cu.cuEventCreate(&stop, CU_EVENT_DEFAULT));
    FloatAdmCudaContext *ctx[2] = {};
    char err[512];
    for (int m = 0; m < 2; m++) {
        if (float_adm_cuda_context_create(&ctx[m], w, h, depth, &opts, stream, 4, err,
                                          sizeof(err)) < 0) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        if (m)
            CHECK_ADM(ctx[m], float_adm_cuda_context_enable_map(ctx[m]));
    }
    std::vector<double> times[2];
    double pipelined[kMapReads] = {};
    const int rounds = 4, per_round = frames / rounds > 0 ? frames / rounds : 1, warmup = 20;
    for (int round = 0; round < rounds; round++) {
        for (int m = 0; m < 2; m++) {
            /* One frame at a time: events around each frame's work. */
            for (int f = 0; f < warmup + per_round; f++) {
                const int k = f % kRotation;
                const FloatAdmCudaPlane gr = dref[k].view(), gd = ddist[k].view();
                FloatAdmScores s;
                CHECK_CUDA(cu.cuEventRecord(start, stream));
                CHECK_ADM(ctx[m], float_adm_cuda_submit(ctx[m], &gr, &gd));
                CHECK_CUDA(cu.cuEventRecord(stop, stream));
                CHECK_ADM(ctx[m], float_adm_cuda_collect(ctx[m], &s, 1));
                if (f < warmup)
                    continue;
                float ms = 0;
                CHECK_CUDA(cu.cuEventSynchronize(stop));
                CHECK_CUDA(cu.cuEventElapsedTime(&ms, start, stop));
                times[m].push_back(ms);
            }
            /* 4 in flight, each frame's map read: its sums, or its loss. */
            for (int read = m ? kMapSums : kNoMap; read <= (m ? kMapLoss : kNoMap); read++)
                pipelined[read] += pipelined_ms(cu, ctx[m], stream, dref, ddist, per_round, read) /
                                   rounds;
        }
    }
    /* Stage by stage, without and with: where a map's time goes (its kernels run last). */
    for (int m = 0; m < 2; m++) {
        std::vector<std::vector<double>> stage_times(FLOAT_ADM_CUDA_NUM_STAGES);
        float_adm_cuda_set_profiling(ctx[m], 1);
        for (int f = 0; f < warmup + frames; f++) {
            const int k = f % kRotation;
            const FloatAdmCudaPlane gr = dref[k].view(), gd = ddist[k].view();
            FloatAdmScores s;
            CHECK_ADM(ctx[m], float_adm_cuda_submit(ctx[m], &gr, &gd));
            CHECK_ADM(ctx[m], float_adm_cuda_collect(ctx[m], &s, 1));
            if (f < warmup)
                continue;
            float ms[FLOAT_ADM_CUDA_NUM_STAGES];
            float_adm_cuda_stage_times(ctx[m], ms);
            for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
                stage_times[st].push_back(ms[st]);
        }
        float_adm_cuda_set_profiling(ctx[m], 0);
        for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
            res.stages[m][st] = median(stage_times[st]);
    }
    for (int m = 0; m < 2; m++) {
        res.gpu_ms[m] = median(times[m]);
        float_adm_cuda_context_free(&ctx[m]);
    }
    for (int read = 0; read < kMapReads; read++)
        res.pipelined_ms[read] = pipelined[read];
    cu.cuEventDestroy(start);
    cu.cuEventDestroy(stop);
    cu.cuStreamDestroy(stream);
    return res;
}

} // namespace

int main(int argc, char **argv)
{
    int frames = 300, cpu_frames = 20;
    int threads = (int)std::thread::hardware_concurrency();
    struct BenchSize {
        int w, h, depth;
    };
    std::vector<BenchSize> sizes;
    for (int i = 1; i < argc; i++) {
        BenchSize s;
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cpu-frames") && i + 1 < argc)
            cpu_frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
                 sscanf(argv[++i], "%dx%d:%d", &s.w, &s.h, &s.depth) == 3)
            sizes.push_back(s);
        else {
            fprintf(stderr, "usage: %s [--frames N] [--cpu-frames N] [--threads N] "
                            "[--size WxH:DEPTH]...\n", argv[0]);
            return 2;
        }
    }
    if (sizes.empty())
        sizes = {{1920, 1080, 8}, {3840, 2160, 8}, {3840, 2160, 10}};
    threads = threads < 1 ? 1 : threads;
    int devices = 0;
    char why[256];
    float_adm_cuda_device_count(&devices, why, sizeof(why));
    if (!devices) {
        printf("SKIP: no CUDA device (%s)\n", why);
        return 0;
    }
    CurrentPrimaryContext
        primary; /* the library's contexts and the benchmark's stream work in it */
    const CudaDriver *cu = primary.driver();
    if (!cu) {
        fprintf(stderr, "no CUDA context on device 0\n");
        return 1;
    }
    CUdevice dev = 0;
    char name[256] = "";
    int sms = 0;
    CHECK_CUDA(cu->cuCtxGetDevice(&dev));
    CHECK_CUDA(cu->cuDeviceGetName(name, sizeof(name), dev));
    CHECK_CUDA(cu->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    printf("device: %s, %d SMs; %s; CPU path with %d threads; %d timed frames after 20 "
           "warm-up, %d frame pairs rotating\n",
           name, sms, float_adm_cuda_build(), threads, frames, kRotation);
    ThreadPool pool(threads);
    std::vector<Result> results;
    for (const BenchSize &s : sizes) {
        results.push_back(bench_size(*cu, s.w, s.h, s.depth, frames, cpu_frames, pool, threads));
        const Result &r = results.back();
        printf("\n%s: stages (median ms, with stage events):\n", r.label.c_str());
        for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
            printf("  %-18s %8.4f\n", float_adm_cuda_stage_name(st), r.stages[st]);
        fflush(stdout);
    }
    printf("\n%-18s %10s %10s %10s %12s %10s %10s %8s %s\n", "size", "gpu ms", "p10", "p90",
           "4-in-flight", "host-2", "cpu ms", "ratio", "exact");
    for (const Result &r : results)
        printf("%-18s %10.4f %10.4f %10.4f %12.4f %10.4f %10.3f %8.1f %s\n", r.label.c_str(),
               r.gpu_ms, r.gpu_p10, r.gpu_p90, r.pipelined_ms, r.host_ms, r.cpu_ms,
               r.cpu_ms / r.gpu_ms, r.differing ? "NO" : "yes (0 bits)");
    printf("\n%-18s %10s %10s %8s %12s %12s %8s %12s %8s\n", "map size", "gpu ms", "with map", "+%",
           "4-in-flight", "with sums", "+%", "with loss", "+%");
    std::vector<MapCost> costs;
    for (const BenchSize &s : sizes) {
        costs.push_back(bench_map(*cu, s.w, s.h, s.depth, frames));
        const MapCost &c = costs.back();
        const double *p = c.pipelined_ms;
        printf("%-18s %10.4f %10.4f %8.1f %12.4f %12.4f %8.1f %12.4f %8.1f\n", c.label.c_str(),
               c.gpu_ms[0], c.gpu_ms[1], 100.0 * (c.gpu_ms[1] / c.gpu_ms[0] - 1.0), p[kNoMap],
               p[kMapSums], 100.0 * (p[kMapSums] / p[kNoMap] - 1.0), p[kMapLoss],
               100.0 * (p[kMapLoss] / p[kNoMap] - 1.0));
        fflush(stdout);
    }
    /* The map's kernels run after the row sums when profiled: the frame's last stage. */
    for (const MapCost &c : costs) {
        printf("\n%s: stages without and with a map (median ms, with stage events):\n",
               c.label.c_str());
        for (int st = 0; st < FLOAT_ADM_CUDA_NUM_STAGES; st++)
            printf("  %-18s %8.4f %8.4f\n", float_adm_cuda_stage_name(st), c.stages[0][st],
                   c.stages[1][st]);
    }
    return 0;
}
