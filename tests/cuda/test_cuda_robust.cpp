/*
 * The CUDA backend's failure and endurance checks.
 *
 *   cuda_robust                  device out of memory, injected through the test hook
 *                                FLOAT_ADM_CUDA_MEMORY_LIMIT: context creation must fail
 *                                with FLOAT_ADM_ERROR_NOMEM and say why, free what it had
 *                                taken, and leave the device usable (make check)
 *   cuda_robust --long-run N     N frames of 1920x1080 (four generated pairs in turn, three
 *                                in flight): device free memory and process RSS at frame
 *                                1000 and at frame N, which must not grow; every frame's
 *                                scores must be its pair's first scores, bit for bit
 *
 * Without a CUDA device it says so and exits 0.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "content.h"
#include "cuda_support.h"
#include "scores.h"

using cuda_test::device_free_bytes;
using cuda_test::DevicePlane;
using testsupport::FrameGeometry;

namespace {

constexpr int kWidth = 1920, kHeight = 1080, kDepth = 8;
constexpr int kPairs = 4, kInFlight = 3, kBaselineFrame = 1000;
/* Allowed drift between the two samples: allocator bookkeeping, not per-frame growth. */
constexpr long long kDeviceSlack = 2 << 20, kRssSlack = 1 << 20;

long long rss_bytes()
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long long kib = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %lld kB", &kib) == 1)
            break;
    fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

/* Context creation under FLOAT_ADM_CUDA_MEMORY_LIMIT=limit must fail with NOMEM,
 * naming the allocation and the cause. */
bool expect_out_of_memory(const char *limit)
{
    setenv("FLOAT_ADM_CUDA_MEMORY_LIMIT", limit, 1);
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    const int ret = float_adm_cuda_context_create(&ctx, kWidth, kHeight, kDepth, &opts, nullptr,
                                                  kInFlight, err, sizeof(err));
    unsetenv("FLOAT_ADM_CUDA_MEMORY_LIMIT");
    const bool ok = ret == FLOAT_ADM_ERROR_NOMEM && !ctx &&
                    strstr(err, "not enough device memory") && strstr(err, "allocating");
    printf("%s limit %s bytes: returned %d (%s): %s\n", ok ? "PASS" : "FAIL", limit, ret,
           float_adm_cuda_strerror(ret), err);
    float_adm_cuda_context_free(&ctx);
    return ok;
}

/* Without the cap a context is made and scores: also loads what CUDA loads lazily, so
 * that the free memory compared below moves only with the failed contexts. */
bool scores_without_limit()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    const testsupport::FramePair pair = testsupport::make_frame_pair(
        FrameGeometry{kWidth, kHeight, kDepth}, 1);
    DevicePlane dref, ddist;
    std::string error;
    if (!dref.upload(pair.ref, &error) || !ddist.upload(pair.dist, &error)) {
        printf("FAIL upload: %s\n", error.c_str());
        return false;
    }
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    if (float_adm_cuda_context_create(&ctx, kWidth, kHeight, kDepth, &opts, nullptr, kInFlight,
                                      err, sizeof(err)) < 0) {
        printf("FAIL no limit: context creation failed: %s\n", err);
        return false;
    }
    const FloatAdmCudaPlane r = dref.view(), d = ddist.view();
    FloatAdmScores scores;
    const int ret = float_adm_cuda_score_frame(ctx, &r, &d, &scores);
    if (ret < 0)
        printf("FAIL no limit: scoring failed: %s\n", float_adm_cuda_last_error(ctx));
    else
        printf("PASS no limit: a context is created and scores (adm2 %.17g)\n", scores.adm2);
    float_adm_cuda_context_free(&ctx);
    return ret >= 0;
}

int out_of_memory_checks()
{
    bool ok = scores_without_limit();
    const size_t free_before = device_free_bytes();
    ok &= expect_out_of_memory("0");       /* the first allocation */
    ok &= expect_out_of_memory("1048576"); /* part-way: the table fits, the bands do not */
    const size_t free_after = device_free_bytes();
    const bool nothing_kept = free_after == free_before;
    printf("%s device free memory before and after the failures: %zu, %zu bytes\n",
           nothing_kept ? "PASS" : "FAIL", free_before, free_after);
    ok &= nothing_kept;
    ok &= scores_without_limit(); /* the device is still usable */
    printf("%s\n", ok ? "OUT-OF-MEMORY CHECKS PASSED" : "OUT-OF-MEMORY CHECKS FAILED");
    return ok ? 0 : 1;
}

int long_run(long frames)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    std::vector<DevicePlane> dref(kPairs), ddist(kPairs);
    std::string error;
    for (int i = 0; i < kPairs; i++) {
        const testsupport::FramePair pair = testsupport::make_frame_pair(
            FrameGeometry{kWidth, kHeight, kDepth}, 100 + i);
        if (!dref[i].upload(pair.ref, &error) || !ddist[i].upload(pair.dist, &error)) {
            printf("FAIL upload: %s\n", error.c_str());
            return 1;
        }
    }
    FloatAdmCudaContext *ctx = nullptr;
    char err[512];
    if (float_adm_cuda_context_create(&ctx, kWidth, kHeight, kDepth, &opts, nullptr, kInFlight,
                                      err, sizeof(err)) < 0) {
        printf("FAIL context: %s\n", err);
        return 1;
    }
    FloatAdmScores first[kPairs];
    size_t device_at_baseline = 0, device_at_end = 0;
    long long rss_at_baseline = 0, rss_at_end = 0, mismatches = 0;
    long submitted = 0, collected = 0;
    int ret = 0;
    while (collected < frames && ret >= 0) {
        if (submitted < frames && float_adm_cuda_in_flight(ctx) < kInFlight) {
            const FloatAdmCudaPlane r = dref[submitted % kPairs].view();
            const FloatAdmCudaPlane d = ddist[submitted % kPairs].view();
            ret = float_adm_cuda_submit(ctx, &r, &d);
            submitted++;
            continue;
        }
        FloatAdmScores scores;
        if ((ret = float_adm_cuda_collect(ctx, &scores, 1)) < 0)
            break;
        const int pair = collected % kPairs;
        std::string which;
        if (collected < kPairs)
            first[pair] = scores;
        else if (testsupport::differing_outputs(scores, first[pair], &which))
            mismatches++;
        collected++;
        if (collected == kBaselineFrame || collected == frames) {
            const size_t device = device_free_bytes();
            const long long rss = rss_bytes();
            printf("frame %ld: device free %zu bytes, RSS %lld bytes\n", collected, device, rss);
            if (collected == kBaselineFrame) {
                device_at_baseline = device;
                rss_at_baseline = rss;
            }
            device_at_end = device;
            rss_at_end = rss;
        }
    }
    if (ret < 0)
        printf("FAIL frame %ld: %s\n", collected, float_adm_cuda_last_error(ctx));
    float_adm_cuda_context_free(&ctx);
    if (ret < 0)
        return 1;

    const long long device_growth = (long long)device_at_baseline - (long long)device_at_end;
    const long long rss_growth = rss_at_end - rss_at_baseline;
    const bool ok = frames >= kBaselineFrame && device_growth <= kDeviceSlack &&
                    rss_growth <= kRssSlack && !mismatches;
    printf("SUMMARY %ld frames %dx%d: device memory growth %lld bytes, RSS growth %lld bytes "
           "(frame %d to %ld); %lld frames whose scores differ from their pair's first\n",
           frames, kWidth, kHeight, device_growth, rss_growth, kBaselineFrame, frames, mismatches);
    printf("%s\n", ok ? "LONG RUN PASSED" : "LONG RUN FAILED");
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    long frames = 0;
    if (argc == 3 && !strcmp(argv[1], "--long-run")) {
        frames = strtol(argv[2], nullptr, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--long-run FRAMES]\n", argv[0]);
        return 2;
    }
    if (!cuda_test::have_device("CUDA robustness checks"))
        return 0;
    return frames > 0 ? long_run(frames) : out_of_memory_checks();
}
