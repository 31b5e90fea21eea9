/*
 * CUDA maps against the CPU's: every block's sums of every scale (the doubles' 64
 * bits) and its loss (the float's 32), frame by frame, over the golden corpus with
 * each of its option sets, every clip's default case at each --p-norms value, and
 * generated content whose edges cut blocks; and the CUDA scores with a map the same
 * bits as without.  Up to 3 frames are in flight, the map read after each collect:
 * it must be the collected frame's.  First the API's refusals, as the CPU's.  Without a
 * CUDA device it says so and exits 0.
 *
 * Usage: cuda_map [--corpus DIR] [--p-norms LIST] [--filter TEXT]
 *   --p-norms: also every clip's default case at each adm_p_norm of LIST
 *              (comma-separated); a difference fails there only where the device says
 *              its powf is exact, as in cuda_parity
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "content.h"
#include "cuda_support.h"
#include "fixture.h"
#include "scores.h"

using testsupport::FrameGeometry;
using testsupport::LumaPlane;

namespace {

constexpr int kScales = 4; /* a map's scales (float_adm_map_sums) */

/* One frame's map: per scale the sums per block, and the loss per block. */
struct FrameMap {
    std::vector<double> num[kScales], den[kScales];
    std::vector<float> loss;
};

/* A frame's scores and, with a map, its map. */
struct Scored {
    std::vector<FloatAdmScores> scores;
    std::vector<FrameMap> maps;
};

struct Case {
    std::string name;
    const std::vector<LumaPlane> *refs, *dists;
    int depth;
    FloatAdmOptions opts;
};

size_t grid_of(int width, int height)
{
    const int b = FLOAT_ADM_MAP_BLOCK_SIZE;
    return (size_t)((width + b - 1) / b) * (size_t)((height + b - 1) / b);
}

/* float_adm_cuda_map_loss_rows, a block row at a time (as the filter's slices
 * read it), gives float_adm_cuda_map_loss's bits. */
bool rows_match_whole(const FloatAdmCudaContext *ctx, const std::vector<float> &loss, int width)
{
    const int columns = (width + FLOAT_ADM_MAP_BLOCK_SIZE - 1) / FLOAT_ADM_MAP_BLOCK_SIZE;
    const int rows = (int)(loss.size() / columns);
    std::vector<float> row(columns);
    for (int r = 0; r < rows; r++) {
        if (float_adm_cuda_map_loss_rows(ctx, r, 1, row.data(), row.size()) != 0 ||
            memcmp(row.data(), &loss[(size_t)r * columns], columns * sizeof(float)) != 0)
            return false;
    }
    return true;
}

bool cpu_run(const Case &c, Scored *out)
{
    char err[512];
    FloatAdmContext *ctx = nullptr;
    const LumaPlane &first = (*c.refs)[0];
    if (float_adm_context_create(&ctx, first.width(), first.height(), c.depth, &c.opts, err,
                                 sizeof(err)) < 0 ||
        float_adm_context_enable_map(ctx) < 0) {
        printf("  FAIL CPU context: %s\n", err);
        float_adm_context_free(&ctx);
        return false;
    }
    const size_t n = grid_of(first.width(), first.height());
    bool ok = true;
    for (size_t f = 0; ok && f < c.refs->size(); f++) {
        const FloatAdmPlane r = (*c.refs)[f].view(), d = (*c.dists)[f].view();
        FloatAdmScores scores;
        FrameMap map;
        map.loss.resize(n);
        ok = float_adm_score_frame(ctx, &r, &d, &scores) == 0 &&
             float_adm_map_loss(ctx, map.loss.data(), n) == 0;
        for (int s = 0; ok && s < kScales; s++) {
            map.num[s].resize(n);
            map.den[s].resize(n);
            ok = float_adm_map_sums(ctx, s, map.num[s].data(), map.den[s].data(), n) == 0;
        }
        out->scores.push_back(scores);
        out->maps.push_back(map);
    }
    if (!ok)
        printf("  FAIL CPU scoring or map\n");
    float_adm_context_free(&ctx);
    return ok;
}

/* Frames from host memory, up to 3 in flight; the map read after each collect. */
bool cuda_run(const Case &c, bool with_map, Scored *out, bool *exact)
{
    char err[512];
    FloatAdmCudaContext *ctx = nullptr;
    const LumaPlane &first = (*c.refs)[0];
    if (float_adm_cuda_context_create(&ctx, first.width(), first.height(), c.depth, &c.opts,
                                      nullptr, 3, err, sizeof(err)) < 0) {
        printf("  FAIL CUDA context: %s\n", err);
        return false;
    }
    *exact = float_adm_cuda_is_exact(ctx, nullptr, 0) != 0;
    if (with_map && float_adm_cuda_context_enable_map(ctx) < 0) {
        printf("  FAIL CUDA map: %s\n", float_adm_cuda_last_error(ctx));
        float_adm_cuda_context_free(&ctx);
        return false;
    }
    const size_t frames = c.refs->size(), n = grid_of(first.width(), first.height());
    size_t submitted = 0;
    bool ok = true;
    while (ok && out->scores.size() < frames) {
        int ret = FLOAT_ADM_ERROR_AGAIN;
        if (submitted < frames) {
            const FloatAdmPlane r = (*c.refs)[submitted].view(), d = (*c.dists)[submitted].view();
            ret = float_adm_cuda_submit_host(ctx, &r, &d);
            if (ret == 0)
                submitted++;
        }
        if (ret == FLOAT_ADM_ERROR_AGAIN || submitted == frames) {
            FloatAdmScores scores;
            ret = float_adm_cuda_collect(ctx, &scores, 1);
            if (ret == 0) {
                out->scores.push_back(scores);
                if (with_map) {
                    FrameMap map;
                    map.loss.resize(n);
                    ret = float_adm_cuda_map_loss(ctx, map.loss.data(), n);
                    if (ret == 0 && !rows_match_whole(ctx, map.loss, first.width())) {
                        printf("  FAIL frame %zu: its loss read by block rows differs from the "
                               "whole map's\n",
                               out->scores.size() - 1);
                        ok = false;
                    }
                    for (int s = 0; ret == 0 && s < kScales; s++) {
                        map.num[s].resize(n);
                        map.den[s].resize(n);
                        ret = float_adm_cuda_map_sums(ctx, s, map.num[s].data(), map.den[s].data(),
                                                      n);
                    }
                    out->maps.push_back(map);
                }
            }
        }
        if (ret < 0) {
            printf("  FAIL CUDA: %s (%s)\n", float_adm_cuda_strerror(ret),
                   float_adm_cuda_last_error(ctx));
            ok = false;
        }
    }
    float_adm_cuda_context_free(&ctx);
    return ok;
}

/* Blocks whose sums or loss differ from the CPU's, over every frame and scale. */
long long differing_blocks(const Scored &cpu, const Scored &gpu, std::string *first)
{
    long long diff = 0;
    for (size_t f = 0; f < cpu.maps.size(); f++) {
        const FrameMap &a = cpu.maps[f], &b = gpu.maps[f];
        for (size_t k = 0; k < a.loss.size(); k++) {
            bool same = !memcmp(&a.loss[k], &b.loss[k], sizeof(float));
            for (int s = 0; s < kScales; s++)
                same = same && !memcmp(&a.num[s][k], &b.num[s][k], sizeof(double)) &&
                       !memcmp(&a.den[s][k], &b.den[s][k], sizeof(double));
            if (!same && !diff++) {
                char text[256];
                snprintf(text, sizeof(text),
                         "frame %zu block %zu: loss %.9g vs %.9g, scale 0 num %.17g vs %.17g, "
                         "den %.17g vs %.17g",
                         f, k, a.loss[k], b.loss[k], a.num[0][k], b.num[0][k], a.den[0][k],
                         b.den[0][k]);
                *first = text;
            }
        }
    }
    return diff;
}

struct Totals {
    long long cases = 0, blocks = 0, differing = 0, score_changes = 0;
    int failures = 0;
};

void run_case(const Case &c, const std::string &filter, Totals *t)
{
    if (c.name.find(filter) == std::string::npos)
        return;
    Scored cpu, mapped, plain;
    bool exact = true;
    if (!cpu_run(c, &cpu) || !cuda_run(c, true, &mapped, &exact) ||
        !cuda_run(c, false, &plain, &exact)) {
        t->failures++;
        return;
    }
    std::string first;
    const long long diff = differing_blocks(cpu, mapped, &first);
    int score_changes = 0;
    std::string which;
    for (size_t f = 0; f < plain.scores.size(); f++)
        score_changes += testsupport::differing_outputs(plain.scores[f], mapped.scores[f],
                                                        which.empty() ? &which : nullptr);
    /* Other p_norm than 1 and 3 may differ only where the device says it is not exact. */
    const bool powf_case = c.opts.p_norm != 3.0 && c.opts.p_norm != 1.0;
    const bool failed = (diff && (!powf_case || exact)) || score_changes;
    t->cases++;
    t->blocks += (long long)cpu.maps.size() * (long long)cpu.maps[0].loss.size();
    t->differing += diff;
    t->score_changes += score_changes;
    t->failures += failed;
    printf("  %-4s %-52s %zu frames  map: %s  scores with map: %s%s%s%s%s\n",
           failed ? "FAIL" : "ok", c.name.c_str(), cpu.maps.size(),
           diff ? (std::to_string(diff) + " blocks differ").c_str() : "0 bits",
           score_changes ? (std::to_string(score_changes) + " outputs change").c_str()
                         : "unchanged",
           diff ? "  first: " : "", diff ? first.c_str() : "", score_changes ? "  first: " : "",
           score_changes ? which.c_str() : "");
    fflush(stdout);
}

int run_corpus(const std::string &dir, const std::vector<double> &p_norms,
               const std::string &filter, Totals *t)
{
    testjson::Value golden;
    std::vector<testsupport::CorpusFixture> corpus;
    if (!cuda_test::load_corpus(dir, &golden, &corpus, &t->failures))
        return 1;
    for (const testsupport::CorpusFixture &fx : corpus) {
        const testsupport::FixtureFrames &frames = fx.frames;
        for (const testsupport::CorpusCase &c : fx.cases) {
            run_case(Case{fx.name + " " + c.option_set, &frames.refs, &frames.dists,
                          frames.geometry.depth, c.options},
                     filter, t);
            for (double p : c.option_set == "default" ? p_norms : std::vector<double>()) {
                FloatAdmOptions po = c.options;
                po.p_norm = p;
                char label[32];
                snprintf(label, sizeof(label), " p_norm %g", p);
                run_case(
                    Case{fx.name + label, &frames.refs, &frames.dists, frames.geometry.depth, po},
                    filter, t);
            }
        }
    }
    return 0;
}

/* Sizes whose edges cut blocks of every scale, 8 and 10 bits, default options. */
void run_generated(const std::string &filter, Totals *t)
{
    const int sizes[][2] = {{17, 17},   {33, 17},   {63, 65},     {127, 33},
                            {322, 182}, {641, 359}, {1919, 1081}, {1920, 1080}};
    uint32_t seed = 1;
    for (const auto &sz : sizes) {
        for (int depth : {8, 10}) {
            std::vector<LumaPlane> refs, dists;
            for (int f = 0; f < 3; f++) {
                const testsupport::FramePair p = testsupport::make_frame_pair(
                    FrameGeometry{sz[0], sz[1], depth}, seed++);
                refs.push_back(p.ref);
                dists.push_back(p.dist);
            }
            FloatAdmOptions opts;
            float_adm_options_default(&opts);
            const std::string name = "generated " + std::to_string(sz[0]) + "x" +
                                     std::to_string(sz[1]) + " " + std::to_string(depth) + "-bit";
            run_case(Case{name, &refs, &dists, depth, opts}, filter, t);
        }
    }
}

/*
 * The API's refusals, as the CPU's: no map to read before a frame is collected or
 * without a map, a count or scale out of range, enabling after the first submit.
 */
int check_api()
{
    int failures = 0;
    auto expect = [&](bool ok, const char *what) {
        printf("  %-4s %s\n", ok ? "ok" : "FAIL", what);
        failures += !ok;
    };
    const int w = 96, h = 64;
    const testsupport::FramePair p = testsupport::make_frame_pair(FrameGeometry{w, h, 8}, 7);
    const FloatAdmPlane r = p.ref.view(), d = p.dist.view();
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    char err[512];
    FloatAdmCudaContext *ctx = nullptr;
    if (float_adm_cuda_context_create(&ctx, w, h, 8, &opts, nullptr, 2, err, sizeof(err)) < 0) {
        printf("  FAIL CUDA context: %s\n", err);
        return 1;
    }
    const size_t n = grid_of(w, h);
    std::vector<float> loss(n);
    std::vector<double> num(n), den(n);
    int columns = 0, rows = 0, size = 0;
    expect(float_adm_cuda_map_size(ctx, &columns, &rows, &size) == 0 && columns == 3 && rows == 2 &&
               size == FLOAT_ADM_MAP_BLOCK_SIZE,
           "map size 3x2 blocks of 32 for 96x64");
    expect(float_adm_cuda_map_loss(ctx, loss.data(), n) == FLOAT_ADM_ERROR_INVALID,
           "no map enabled: loss refused");
    expect(float_adm_cuda_context_enable_map(ctx) == 0 &&
               float_adm_cuda_context_enable_map(ctx) == 0,
           "enabling twice before the first frame");
    expect(float_adm_cuda_map_sums(ctx, 0, num.data(), den.data(), n) == FLOAT_ADM_ERROR_INVALID,
           "no frame collected: sums refused");
    FloatAdmScores scores;
    expect(float_adm_cuda_submit_host(ctx, &r, &d) == 0, "submit");
    expect(float_adm_cuda_map_loss(ctx, loss.data(), n) == FLOAT_ADM_ERROR_INVALID &&
               float_adm_cuda_map_loss_rows(ctx, 0, 1, loss.data(), n) == FLOAT_ADM_ERROR_INVALID,
           "submitted, not collected: loss refused");
    expect(float_adm_cuda_collect(ctx, &scores, 1) == 0, "collect");
    expect(float_adm_cuda_map_loss(ctx, loss.data(), n) == 0 &&
               float_adm_cuda_map_sums(ctx, 3, num.data(), den.data(), n) == 0,
           "collected: loss and sums read");
    expect(float_adm_cuda_map_loss(ctx, loss.data(), n - 1) == FLOAT_ADM_ERROR_INVALID &&
               float_adm_cuda_map_loss(ctx, nullptr, n) == FLOAT_ADM_ERROR_INVALID,
           "a short or missing buffer refused");
    expect(float_adm_cuda_map_loss_rows(ctx, 1, 1, loss.data(), 3) == 0 &&
               float_adm_cuda_map_loss_rows(ctx, 0, 2, loss.data(), n) == 0,
           "block rows read");
    expect(
        float_adm_cuda_map_loss_rows(ctx, 1, 2, loss.data(), n) == FLOAT_ADM_ERROR_INVALID &&
            float_adm_cuda_map_loss_rows(ctx, -1, 1, loss.data(), n) == FLOAT_ADM_ERROR_INVALID &&
            float_adm_cuda_map_loss_rows(ctx, 0, 2, loss.data(), n - 1) == FLOAT_ADM_ERROR_INVALID,
        "rows outside the grid or a short buffer refused");
    expect(float_adm_cuda_map_sums(ctx, 4, num.data(), den.data(), n) == FLOAT_ADM_ERROR_INVALID &&
               float_adm_cuda_map_sums(ctx, -1, num.data(), den.data(), n) ==
                   FLOAT_ADM_ERROR_INVALID,
           "a scale outside 0..3 refused");
    float_adm_cuda_context_free(&ctx);

    if (float_adm_cuda_context_create(&ctx, w, h, 8, &opts, nullptr, 2, err, sizeof(err)) < 0) {
        printf("  FAIL CUDA context: %s\n", err);
        return failures + 1;
    }
    expect(float_adm_cuda_submit_host(ctx, &r, &d) == 0, "a frame submitted without a map");
    while (float_adm_cuda_in_flight(ctx))
        float_adm_cuda_collect(ctx, &scores, 1);
    expect(float_adm_cuda_context_enable_map(ctx) == FLOAT_ADM_ERROR_INVALID,
           "enabling after the first frame refused");
    float_adm_cuda_context_free(&ctx);
    return failures;
}

} // namespace

int main(int argc, char **argv)
{
    std::string corpus = "tests/corpus", filter;
    std::vector<double> p_norms;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
            corpus = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--p-norms") && i + 1 < argc &&
                 cuda_test::parse_p_norms(argv[i + 1], &p_norms))
            i++;
        else {
            fprintf(stderr, "usage: %s [--corpus DIR] [--p-norms LIST] [--filter TEXT]\n", argv[0]);
            return 2;
        }
    }
    if (!cuda_test::have_device("CUDA maps"))
        return 0;
    printf("API:\n");
    Totals t;
    t.failures += check_api();
    printf("corpus %s:\n", corpus.c_str());
    if (run_corpus(corpus, p_norms, filter, &t))
        return 1;
    printf("generated:\n");
    run_generated(filter, &t);
    printf("SUMMARY maps: %lld cases, %lld frame blocks, %lld differ from the CPU's; "
           "%lld score outputs change with a map; %d failures: %s\n",
           t.cases, t.blocks, t.differing, t.score_changes, t.failures,
           t.failures ? "FAIL" : "PASS");
    return t.failures ? 1 : 0;
}
