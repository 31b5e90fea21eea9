/*
 * CPU versus CUDA parity: every output's 64 bits, over the golden corpus with each of
 * its option sets (plus P010-style storage of the high-depth fixtures) and over
 * generated content from 17x17 to 3840x2160.  Also the CPU path against golden.json
 * where this host's RCPSS fingerprint is the corpus's.  Without a CUDA device the
 * CUDA part is skipped with a message and the exit status is 0.
 *
 * Usage: cuda_parity [--corpus DIR] [--quick] [--no-random] [--threads N] [--filter TEXT]
 *                    [--p-norms LIST]
 *   --quick: generated sizes up to 322x182 only (CI and make check)
 *   --filter: only the cases whose name contains TEXT (e.g. for compute-sanitizer)
 *   --p-norms: also every fixture's default case with adm_p_norm set to each of LIST
 *              (comma-separated), named "FIXTURE p_norm P" (--filter " p_norm " runs
 *              only those); they fail on any difference where the device says its
 *              powf is exact
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "content.h"
#include "cuda_support.h"
#include "fixture.h"
#include "scores.h"
#include "thread_pool.h"

using cuda_test::DevicePlane;
using testsupport::FrameGeometry;
using testsupport::LumaPlane;

namespace {

struct Totals {
    long long frames = 0, outputs = 0, differing = 0;
    long long powf_outputs = 0, powf_differing = 0; /* adm_p_norm other than 1 and 3 */
    long long golden_outputs = 0, golden_differing = 0;
    int failures = 0;
};

struct Runner {
    ThreadPool *pool;
    int threads;
    bool have_device;
    std::string filter;
    Totals totals;
    std::vector<double> p_norms; /* --p-norms */
    bool cuda_exact = true;      /* float_adm_cuda_is_exact of the last CUDA context */

    /* Scores of every frame pair on the CPU; false on error. */
    bool cpu_scores(const std::vector<LumaPlane> &refs, const std::vector<LumaPlane> &dists,
                    int depth, const FloatAdmOptions &opts, std::vector<FloatAdmScores> *out)
    {
        char err[512];
        FloatAdmContext *ctx = nullptr;
        if (float_adm_context_create(&ctx, refs[0].width(), refs[0].height(), depth, &opts, err,
                                     sizeof(err)) < 0) {
            printf("  FAIL CPU context: %s\n", err);
            return false;
        }
        float_adm_set_executor(ctx, ThreadPool::execute, pool, threads);
        out->resize(refs.size());
        for (size_t f = 0; f < refs.size(); f++) {
            const FloatAdmPlane r = refs[f].view(), d = dists[f].view();
            if (float_adm_score_frame(ctx, &r, &d, &(*out)[f]) < 0) {
                printf("  FAIL CPU scoring\n");
                float_adm_context_free(&ctx);
                return false;
            }
        }
        float_adm_context_free(&ctx);
        return true;
    }

    /*
     * Scores on the GPU with up to 3 frames in flight, frames in turn from device memory
     * (float_adm_cuda_submit), from host memory (float_adm_cuda_submit_host, staged by
     * the library) and a device reference beside a host distorted plane (a CUDA input
     * beside a software one in the filter), so every path is held to the CPU's bits.
     */
    bool cuda_scores(const std::vector<LumaPlane> &refs, const std::vector<LumaPlane> &dists,
                     int depth, const FloatAdmOptions &opts, std::vector<FloatAdmScores> *out)
    {
        char err[512];
        FloatAdmCudaContext *ctx = nullptr;
        if (float_adm_cuda_context_create(&ctx, refs[0].width(), refs[0].height(), depth, &opts,
                                          nullptr, 3, err, sizeof(err)) < 0) {
            printf("  FAIL CUDA context: %s\n", err);
            return false;
        }
        cuda_exact = float_adm_cuda_is_exact(ctx, nullptr, 0) != 0;
        std::vector<DevicePlane> dref(refs.size()), ddist(refs.size());
        std::string error;
        for (size_t f = 0; f < refs.size(); f++) {
            if (!dref[f].upload(refs[f], &error) || !ddist[f].upload(dists[f], &error)) {
                printf("  FAIL %s\n", error.c_str());
                float_adm_cuda_context_free(&ctx);
                return false;
            }
        }
        out->assign(refs.size(), FloatAdmScores{});
        size_t submitted = 0, collected = 0;
        bool ok = true;
        while (ok && collected < refs.size()) {
            int ret = FLOAT_ADM_ERROR_AGAIN;
            if (submitted < refs.size()) {
                const FloatAdmPlane hr = refs[submitted].view(), hd = dists[submitted].view();
                const FloatAdmCudaPlane host_dist = {hd.data, hd.stride, hd.bytes_per_sample,
                                                     hd.shift, 1};
                const FloatAdmCudaPlane r = dref[submitted].view(), d = ddist[submitted].view();
                if (submitted % 3 == 0)
                    ret = float_adm_cuda_submit(ctx, &r, &d);
                else if (submitted % 3 == 1)
                    ret = float_adm_cuda_submit_host(ctx, &hr, &hd);
                else
                    ret = float_adm_cuda_submit(ctx, &r, &host_dist);
                if (ret == 0)
                    submitted++;
            }
            if (ret == FLOAT_ADM_ERROR_AGAIN || submitted == refs.size())
                ret = float_adm_cuda_collect(ctx, &(*out)[collected++], 1);
            if (ret < 0) {
                printf("  FAIL CUDA: %s (%s)\n", float_adm_cuda_strerror(ret),
                       float_adm_cuda_last_error(ctx));
                ok = false;
            }
        }
        float_adm_cuda_context_free(&ctx);
        return ok;
    }

    /* CPU vs CUDA (and CPU vs golden when given) for one case. */
    void run_case(const std::string &name, const std::vector<LumaPlane> &refs,
                  const std::vector<LumaPlane> &dists, const std::vector<LumaPlane> &cuda_refs,
                  const std::vector<LumaPlane> &cuda_dists, int depth, const FloatAdmOptions &opts,
                  const testjson::Value *golden_frames)
    {
        if (name.find(filter) == std::string::npos)
            return;
        std::vector<FloatAdmScores> cpu;
        if (!cpu_scores(refs, dists, depth, opts, &cpu)) {
            totals.failures++;
            return;
        }
        int golden_diff = 0;
        if (golden_frames) {
            for (size_t f = 0; f < cpu.size() && f < golden_frames->items.size(); f++) {
                const testjson::Value &g = golden_frames->items[f];
                for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
                    const char *output = float_adm_output_name(k);
                    if (!g.has(output))
                        continue;
                    /* null: libvmaf left aim undefined, ours is defined as 0 */
                    const double want = g[output].is_null() ? 0.0 : g[output].number();
                    const double got = float_adm_output_value(&cpu[f], k);
                    totals.golden_outputs++;
                    if (memcmp(&got, &want, sizeof(got))) {
                        golden_diff++;
                        totals.golden_differing++;
                    }
                }
            }
        }
        int diff = 0;
        std::string which;
        const bool powf_case = opts.p_norm != 3.0 && opts.p_norm != 1.0;
        if (have_device) {
            std::vector<FloatAdmScores> gpu;
            if (!cuda_scores(cuda_refs, cuda_dists, depth, opts, &gpu)) {
                totals.failures++;
                return;
            }
            for (size_t f = 0; f < cpu.size(); f++)
                diff += testsupport::differing_outputs(cpu[f], gpu[f],
                                                       which.empty() ? &which : nullptr);
            const long long n = (long long)cpu.size() * FLOAT_ADM_NUM_DEBUG_OUTPUTS;
            (powf_case ? totals.powf_outputs : totals.outputs) += n;
            (powf_case ? totals.powf_differing : totals.differing) += diff;
        }
        totals.frames += (long long)cpu.size();
        /* Other p_norm than 1 and 3 may differ only where the device says it is not exact. */
        const bool failed = (diff && (!powf_case || cuda_exact)) || golden_diff;
        totals.failures += failed;
        printf("  %-4s %-52s %zu frames  cuda: %s  golden: %s%s%s\n", failed ? "FAIL" : "ok",
               name.c_str(), cpu.size(),
               have_device ? (diff ? (std::to_string(diff) + " outputs differ").c_str() : "0 bits")
                           : "skipped",
               golden_frames ? (golden_diff ? (std::to_string(golden_diff) + " differ").c_str()
                                            : "0 bits")
                             : "-",
               diff ? "  first: " : "", diff ? which.c_str() : "");
        fflush(stdout);
    }
};

int run_corpus(Runner &run, const std::string &dir, bool golden_applies)
{
    testjson::Value golden;
    std::vector<testsupport::CorpusFixture> corpus;
    if (!cuda_test::load_corpus(dir, &golden, &corpus, &run.totals.failures))
        return 1;
    for (const testsupport::CorpusFixture &fx : corpus) {
        const std::string &name = fx.name;
        const std::vector<LumaPlane> &refs = fx.frames.refs, &dists = fx.frames.dists;
        const FrameGeometry &g = fx.frames.geometry;
        for (const testsupport::CorpusCase &c : fx.cases) {
            FloatAdmOptions opts = c.options;
            opts.debug = 1;
            const std::string &set = c.option_set;
            const testjson::Value *frames = golden_applies ? &(*c.json)["frames"] : nullptr;
            run.run_case(name + " " + set, refs, dists, refs, dists, g.depth, opts, frames);
            /* The same frames stored in the top bits (P010/P012 layout). */
            if (g.depth > 8 && g.depth < 16 && set == "default") {
                std::vector<LumaPlane> sr, sd;
                for (size_t f = 0; f < refs.size(); f++) {
                    sr.push_back(testsupport::with_shift(refs[f], 16 - g.depth));
                    sd.push_back(testsupport::with_shift(dists[f], 16 - g.depth));
                }
                run.run_case(name + " msb-aligned (P01x)", refs, dists, sr, sd, g.depth, opts,
                             nullptr);
            }
            /* The powf path: the default case again at each --p-norms value. */
            for (double p : set == "default" ? run.p_norms : std::vector<double>()) {
                FloatAdmOptions po = opts;
                po.p_norm = p;
                char label[32];
                snprintf(label, sizeof(label), " p_norm %g", p);
                run.run_case(name + label, refs, dists, refs, dists, g.depth, po, nullptr);
            }
        }
    }
    return 0;
}

void run_generated(Runner &run, bool quick)
{
    struct Size {
        int w, h;
    };
    const Size sizes[] = {{17, 17},   {18, 34},   {33, 17},    {34, 34},    {63, 65},
                          {127, 33},  {322, 182}, {641, 359},  {1280, 720}, {1919, 1081},
                          {1920, 1080}, {3840, 2160}};
    struct Variant {
        int depth;
        bool msb; /* P010-style storage */
        const char *option, *value;
    };
    const Variant variants[] = {{8, false, nullptr, nullptr},     {10, true, nullptr, nullptr},
                                {12, false, nullptr, nullptr},    {16, false, nullptr, nullptr},
                                {8, false, "adm_enhn_gain_limit", "1.2"},
                                {8, false, "adm_p_norm", "1"}};
    uint32_t seed = 1;
    for (const Size &sz : sizes) {
        if (quick && sz.w * sz.h > 322 * 182)
            continue;
        for (const Variant &v : variants) {
            /* The big frames only at 8 and 10 bits with default options, to keep the time. */
            if (sz.w * sz.h > 1280 * 720 && (v.option || v.depth > 10))
                continue;
            FloatAdmOptions opts;
            float_adm_options_default(&opts);
            opts.debug = 1;
            std::string name = std::to_string(sz.w) + "x" + std::to_string(sz.h) + " " +
                               std::to_string(v.depth) + "-bit" + (v.msb ? " msb" : "");
            if (v.option) {
                float_adm_option_set(&opts, v.option, v.value, nullptr, 0);
                name += std::string(" ") + v.option + "=" + v.value;
            }
            std::vector<LumaPlane> refs, dists, cr, cd;
            for (int f = 0; f < 2; f++) {
                const testsupport::FramePair p = testsupport::make_frame_pair(
                    FrameGeometry{sz.w, sz.h, v.depth}, seed++);
                refs.push_back(p.ref);
                dists.push_back(p.dist);
                cr.push_back(v.msb ? testsupport::with_shift(p.ref, 16 - v.depth) : p.ref);
                cd.push_back(v.msb ? testsupport::with_shift(p.dist, 16 - v.depth) : p.dist);
            }
            run.run_case("generated " + name, refs, dists, cr, cd, v.depth, opts, nullptr);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    std::string corpus = "tests/corpus", filter;
    std::vector<double> p_norms;
    bool quick = false, random = true;
    int threads = (int)std::thread::hardware_concurrency();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
            corpus = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--no-random"))
            random = false;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--p-norms") && i + 1 < argc &&
                 cuda_test::parse_p_norms(argv[i + 1], &p_norms))
            i++;
        else {
            fprintf(stderr,
                    "usage: %s [--corpus DIR] [--quick] [--no-random] [--threads N] "
                    "[--filter TEXT] [--p-norms LIST]\n",
                    argv[0]);
            return 2;
        }
    }
    threads = threads < 1 ? 1 : threads;
    ThreadPool pool(threads);

    int devices = 0;
    char why[256] = "";
    float_adm_cuda_device_count(&devices, why, sizeof(why));
    const std::string fingerprint = testsupport::host_fingerprint();
    std::string golden_fp;
    try {
        golden_fp =
            testsupport::read_json(corpus + "/golden.json")["reference"]["rcpss_sha256"].text;
    } catch (const std::exception &) {
        /* run_corpus says why */
    }
    const bool golden_applies = fingerprint == golden_fp;

    printf("host RCPSS fingerprint %s (%s golden's)\n", fingerprint.c_str(),
           golden_applies ? "matches" : "differs from");
    if (!golden_applies)
        printf("SKIP CPU vs golden: this processor's reciprocal estimate is not the corpus "
               "host's, so its CPU scores legitimately differ\n");
    if (!devices)
        printf("SKIP CUDA parity: no CUDA device (%s)\n", why);
    else
        printf("CUDA: %s\n", why);

    Runner run{&pool, threads, devices > 0, filter, {}, p_norms, true};
    if (devices) {
        /* Say once how the device divides and computes powf. */
        FloatAdmOptions opts;
        float_adm_options_default(&opts);
        opts.p_norm = 2.5;
        FloatAdmCudaContext *ctx = nullptr;
        char err[512], desc[256];
        if (float_adm_cuda_context_create(&ctx, 64, 64, 8, &opts, nullptr, 1, err, sizeof(err)) <
            0) {
            printf("FAIL CUDA context: %s\n", err);
            return 1;
        }
        const int exact = float_adm_cuda_is_exact(ctx, desc, sizeof(desc));
        printf("device arithmetic: %s%s\n", desc, exact ? "" : "  (NOT EXACT)");
        float_adm_cuda_context_free(&ctx);
    }
    if (!devices && !golden_applies) {
        printf("nothing to compare on this machine: PASS (skipped)\n");
        return 0;
    }

    printf("corpus %s:\n", corpus.c_str());
    if (run_corpus(run, corpus, golden_applies))
        return 1;
    if (random && devices) {
        printf("generated content%s:\n", quick ? " (quick: up to 322x182)" : "");
        run_generated(run, quick);
    }
    const Totals &t = run.totals;
    printf("\nSUMMARY frames %lld | CPU vs CUDA: %lld of %lld outputs differ (p_norm 1 and 3) | "
           "other p_norm (powf): %lld of %lld outputs differ | CPU vs golden: %lld of %lld "
           "differ%s | failures %d\n",
           t.frames, t.differing, t.outputs, t.powf_differing, t.powf_outputs, t.golden_differing,
           t.golden_outputs, golden_applies ? "" : " (skipped)", t.failures);
    printf("%s\n", t.failures ? "PARITY FAILED" : "PARITY PASSED");
    return t.failures ? 1 : 0;
}
