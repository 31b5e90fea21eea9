/*
 * Benchmark: time per frame of the float ADM core at 576x324, 1920x1080 and
 * 3840x2160, 8-bit, serial and with 2 to 16 threads (and this machine's core count)
 * through the shared thread pool.
 *   BM_ScoreFrame/w/h/threads    a frame, the pool's executor as it is (threads 1: the
 *                                core's serial path, no executor)
 *   BM_ExecutorCalls/w/h/jobs    the same on a pool of `jobs` threads, through an
 *                                executor that counts its calls: counter calls_per_frame
 *                                (each call is one meeting of the frame's threads)
 *   BM_JobBalance/w/h/jobs       the jobs one after another on this thread, each timed
 *                                (CPU time, medians over the frames): counters work_ms
 *                                (all jobs of a frame), critical_ms (per call the slowest
 *                                job, added up: a frame's time on `jobs` free cores,
 *                                waiting aside), serial_ms (the frame with no executor)
 *                                and speedup, serial / critical
 * bench/engine_threads.sh runs two builds of it side by side.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <thread>
#include <utility>
#include <vector>

#include "bench_support.h"

namespace {

/* "1920x1080 8-bit, 2 threads, adm2 ...": count of what ("thread", "job"). */
void label_scores(benchmark::State &state, int w, int h, int count, const char *what,
                  const FloatAdmScores &scores)
{
    char label[80];
    snprintf(label, sizeof(label), "%dx%d 8-bit, %d %s%s, adm2 %.6f", w, h, count, what,
             count > 1 ? "s" : "", scores.adm2);
    state.SetLabel(label);
}

/* args: width, height, threads (1: the core's serial path, no executor). */
void BM_ScoreFrame(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1), threads = (int)state.range(2);
    const testsupport::FramePair frames = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, threads);
    if (!ctx.ok()) {
        state.SkipWithError(ctx.error());
        return;
    }
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    for (auto _ : state) {
        if (float_adm_score_frame(ctx.get(), &ref, &dist, &scores) < 0) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
    }
    state.counters["fps"] = benchmark::Counter((double)state.iterations(),
                                               benchmark::Counter::kIsRate);
    label_scores(state, w, h, threads, "thread", scores);
}

BENCHMARK(BM_ScoreFrame)
    ->ArgNames({"w", "h", "threads"})
    ->Args({576, 324, 1})
    ->Args({576, 324, 2})
    ->ArgsProduct({{1920}, {1080}, {1, 2, 4, 8, 16}})
    ->ArgsProduct({{3840}, {2160}, {1, 2, 4, 8, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/* BM_ScoreFrame at this machine's core count too, where the list above lacks it. */
const bool core_count_registered = [] {
    const int cores = (int)std::thread::hardware_concurrency();
    if (cores <= 2 || cores == 4 || cores == 8 || cores == 16)
        return false;
    for (const auto &size : {std::make_pair(1920, 1080), std::make_pair(3840, 2160)})
        benchmark::RegisterBenchmark("BM_ScoreFrame", BM_ScoreFrame)
            ->ArgNames({"w", "h", "threads"})
            ->Args({size.first, size.second, cores})
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    return true;
}();

/* The pool's executor, counting its calls. */
struct CountingExecutor {
    ThreadPool pool;
    std::atomic<long> calls{0};

    explicit CountingExecutor(int threads) : pool(threads) {}
    static int execute(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
    {
        CountingExecutor *self = static_cast<CountingExecutor *>(opaque);
        self->calls.fetch_add(1, std::memory_order_relaxed);
        return ThreadPool::execute(&self->pool, job, arg, nb_jobs);
    }
};

/* args: width, height, jobs (the executor's nb_jobs and the pool's threads). */
void BM_ExecutorCalls(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1), jobs = (int)state.range(2);
    const testsupport::FramePair frames = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, 1);
    if (!ctx.ok()) {
        state.SkipWithError(ctx.error());
        return;
    }
    CountingExecutor executor(jobs);
    float_adm_set_executor(ctx.get(), CountingExecutor::execute, &executor, jobs);
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    for (auto _ : state) {
        if (float_adm_score_frame(ctx.get(), &ref, &dist, &scores) < 0) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
    }
    state.counters["calls_per_frame"] = (double)executor.calls.load() /
                                        (double)(state.iterations() ? state.iterations() : 1);
    label_scores(state, w, h, jobs, "job", scores);
}

BENCHMARK(BM_ExecutorCalls)
    ->ArgNames({"w", "h", "jobs"})
    ->ArgsProduct({{1920}, {1080}, {2, 16}})
    ->ArgsProduct({{3840}, {2160}, {2, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/* The calling thread's CPU time: a job's own, whatever else the machine runs. */
double thread_seconds()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs the jobs in order on the calling thread and times each (CPU time):
 * seconds[call of the frame][job], one time per frame. */
struct TimingExecutor {
    std::vector<std::vector<std::vector<double>>> seconds;
    size_t call = 0; /* of the frame being scored */

    static int execute(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
    {
        TimingExecutor *self = static_cast<TimingExecutor *>(opaque);
        if (self->seconds.size() <= self->call)
            self->seconds.resize(self->call + 1);
        std::vector<std::vector<double>> &jobs = self->seconds[self->call++];
        if (jobs.size() < (size_t)nb_jobs)
            jobs.resize(nb_jobs);
        for (int k = 0; k < nb_jobs; k++) {
            const double begin = thread_seconds();
            const int ret = job(arg, k, nb_jobs);
            if (ret != 0)
                return ret;
            jobs[k].push_back(thread_seconds() - begin);
        }
        return 0;
    }
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

/* args: width, height, jobs. */
void BM_JobBalance(benchmark::State &state)
{
    const int w = (int)state.range(0), h = (int)state.range(1), jobs = (int)state.range(2);
    const testsupport::FramePair frames = bench::frames(w, h);
    const bench::ScoringContext ctx(w, h, 1);
    if (!ctx.ok()) {
        state.SkipWithError(ctx.error());
        return;
    }
    const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
    FloatAdmScores scores;
    std::vector<double> serial;
    for (int frame = 0; frame < 5; frame++) {
        const double begin = thread_seconds();
        float_adm_score_frame(ctx.get(), &ref, &dist, &scores);
        serial.push_back(thread_seconds() - begin);
    }
    TimingExecutor executor;
    float_adm_set_executor(ctx.get(), TimingExecutor::execute, &executor, jobs);
    for (auto _ : state) {
        executor.call = 0;
        if (float_adm_score_frame(ctx.get(), &ref, &dist, &scores) < 0) {
            state.SkipWithError("scoring failed");
            break;
        }
        benchmark::DoNotOptimize(scores);
    }
    /* A frame on `jobs` free cores waits at each call for the slowest job. */
    double work = 0, critical = 0;
    for (const std::vector<std::vector<double>> &call : executor.seconds) {
        double slowest = 0;
        for (const std::vector<double> &times : call) {
            const double seconds = median(times);
            work += seconds;
            slowest = seconds > slowest ? seconds : slowest;
        }
        critical += slowest;
    }
    state.counters["work_ms"] = work * 1e3;
    state.counters["critical_ms"] = critical * 1e3;
    state.counters["serial_ms"] = median(serial) * 1e3;
    state.counters["speedup"] = critical > 0 ? median(serial) / critical : 0.0;
    label_scores(state, w, h, jobs, "job", scores);
}

BENCHMARK(BM_JobBalance)
    ->ArgNames({"w", "h", "jobs"})
    ->ArgsProduct({{1920}, {1080}, {2, 8, 16}})
    ->ArgsProduct({{3840}, {2160}, {2, 8, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
