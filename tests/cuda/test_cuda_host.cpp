/*
 * Frames from host memory on the GPU, every output's 64 bits the CPU's: at every depth
 * (1, 2, 3, the library's, 16), host planes copied over 1 and 4 threads or pinned in
 * place (and in place where they cannot be: rows upwards, small planes sharing a page),
 * frames read from raw and y4m files straight into the context's pinned buffers
 * (float_adm_cuda_host_frame, a frame in parts) or read where they lie, their pages
 * mapped and pinned (float_adm_cuda_submit_file), and every kind mixed in one context;
 * over the corpus (8 to 16 bits, odd sizes, default options) and generated frames up to
 * 3840x2160.  Each case's frames are submitted three times over, so that every slot is
 * taken again.  Then the API's refusals, and that waiting for frames sleeps instead of
 * spinning a core.  Without a CUDA device: SKIP, exit 0.
 *
 * Usage: cuda_host [--corpus DIR] [--quick] [--tmp DIR]
 *   --quick: generated sizes up to 641x359 only
 *   --tmp: where the frames' files are written (default $TMPDIR or /tmp)
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "content.h"
#include "cuda_support.h"
#include "fixture.h"
#include "scores.h"
#include "thread_pool.h"

using cuda_test::DevicePlane;
using testsupport::FrameGeometry;
using testsupport::LumaPlane;

namespace {

constexpr int kRepeats = 3;

enum Kind {
    kCopy,
    kInPlace,
    kHeld,
    kUpwards,
    kRawFile,
    kY4mFile,
    kRawInPlace,
    kY4mInPlace,
    kMixed
};

struct Variant {
    int depth;        /* max_in_flight; 0: the library's */
    int host_threads; /* float_adm_cuda_set_host_threads; 0: the library's */
    Kind kind;
    const char *name;
};

const Variant kVariants[] = {
    {1, 1, kCopy, "depth 1, copied on 1 thread"},
    {2, 4, kCopy, "depth 2, copied on 4 threads"},
    {0, 0, kInPlace, "library's depth, in place"},
    {16, 0, kInPlace, "depth 16, in place"},
    {0, 0, kHeld, "library's depth, in place, held"},
    {16, 0, kHeld, "depth 16, in place, held"},
    {3, 0, kUpwards, "depth 3, in place, rows upwards (copied)"},
    {0, 0, kRawFile, "library's depth, raw file into pinned buffers"},
    {1, 0, kY4mFile, "depth 1, y4m file into pinned buffers"},
    {0, 0, kRawInPlace, "library's depth, raw file read in place"},
    {2, 1, kY4mInPlace, "depth 2, y4m file read in place, 1 host thread"},
    {16, 0, kRawInPlace, "depth 16, raw file read in place"},
    {0, 2, kMixed, "library's depth, every kind in turn"},
};

/* A plane's rows stored bottom to top, so that data at its last row with a negative
 * stride is the plane. */
LumaPlane stored_upwards(const LumaPlane &plane)
{
    LumaPlane flipped = plane;
    for (int y = 0; y < plane.height(); y++)
        memcpy(&flipped.bytes[(size_t)(plane.height() - 1 - y) * plane.stride],
               &plane.bytes[(size_t)y * plane.stride], plane.geometry.luma_row_bytes());
    return flipped;
}

const char *gray_format(int depth)
{
    switch (depth) {
    case 8: return "gray";
    case 9: return "gray9le";
    case 10: return "gray10le";
    case 12: return "gray12le";
    case 14: return "gray14le";
    default: return "gray16le";
    }
}

/* The planes as a gray raw or y4m file, each row's samples only. */
bool write_file(const std::string &path, const std::vector<LumaPlane> &planes, bool y4m)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const FrameGeometry &g = planes[0].geometry;
    if (y4m) {
        char tag[32] = "";
        float_adm_pixel_format_y4m_tag(gray_format(g.depth), tag, sizeof(tag));
        fprintf(f, "YUV4MPEG2 W%d H%d F25:1 C%s\n", g.width, g.height, tag);
    }
    bool ok = true;
    for (const LumaPlane &p : planes) {
        if (y4m)
            fputs("FRAME\n", f);
        for (int y = 0; y < p.height(); y++)
            ok = ok && fwrite(&p.bytes[(size_t)y * p.stride], 1, g.luma_row_bytes(), f) ==
                           g.luma_row_bytes();
    }
    return fclose(f) == 0 && ok;
}

struct Reader {
    FloatAdmReader *r = nullptr;
    ~Reader() { float_adm_reader_free(&r); }
    bool open(const std::string &path, const FrameGeometry &g, std::string *error)
    {
        char err[512] = "";
        FloatAdmFrameFormat format;
        if (float_adm_reader_open(&r, path.c_str(), err, sizeof(err)) < 0 ||
            float_adm_frame_format(&format, g.width, g.height, gray_format(g.depth), err,
                                   sizeof(err)) < 0 ||
            float_adm_reader_set_threads(r, 0) < 0 ||
            float_adm_reader_start(r, &format, err, sizeof(err)) < 0) {
            *error = path + ": " + err;
            return false;
        }
        return true;
    }
};

struct Totals {
    long long frames = 0, outputs = 0, differing = 0;
    int failures = 0;
};

struct Runner {
    ThreadPool *pool;
    int threads;
    std::string tmp;
    Totals totals;

    bool cpu_scores(const std::vector<LumaPlane> &refs, const std::vector<LumaPlane> &dists,
                    const FloatAdmOptions &opts, std::vector<FloatAdmScores> *out)
    {
        char err[512];
        FloatAdmContext *ctx = nullptr;
        if (float_adm_context_create(&ctx, refs[0].width(), refs[0].height(),
                                     refs[0].geometry.depth, &opts, err, sizeof(err)) < 0) {
            printf("  FAIL CPU context: %s\n", err);
            return false;
        }
        float_adm_set_executor(ctx, ThreadPool::execute, pool, threads);
        out->resize(refs.size());
        bool ok = true;
        for (size_t f = 0; f < refs.size() && ok; f++) {
            const FloatAdmPlane r = refs[f].view(), d = dists[f].view();
            ok = float_adm_score_frame(ctx, &r, &d, &(*out)[f]) == 0;
        }
        float_adm_context_free(&ctx);
        if (!ok)
            printf("  FAIL CPU scoring\n");
        return ok;
    }

    /* The frames, kRepeats times over, as the variant submits them: the scores in order. */
    bool cuda_scores(const std::vector<LumaPlane> &refs, const std::vector<LumaPlane> &dists,
                     const FloatAdmOptions &opts, const Variant &v,
                     std::vector<FloatAdmScores> *out, std::string *error)
    {
        const FrameGeometry &g = refs[0].geometry;
        const size_t n = refs.size(), total = n * kRepeats;
        std::vector<LumaPlane> up_refs, up_dists;
        std::vector<DevicePlane> dev_refs(n);
        Reader files[2];
        for (size_t f = 0; f < n; f++) {
            up_refs.push_back(stored_upwards(refs[f]));
            up_dists.push_back(stored_upwards(dists[f]));
            if (v.kind == kMixed && !dev_refs[f].upload(refs[f], error))
                return false;
        }
        if (v.kind == kRawFile || v.kind == kY4mFile || v.kind == kRawInPlace ||
            v.kind == kY4mInPlace || v.kind == kMixed) {
            const bool y4m = v.kind == kY4mFile || v.kind == kY4mInPlace;
            const std::string base = tmp + "/cuda_host." + std::to_string(getpid());
            const std::string paths[2] = {base + (y4m ? ".ref.y4m" : ".ref.gray"),
                                          base + (y4m ? ".dis.y4m" : ".dis.gray")};
            const bool ok = write_file(paths[0], refs, y4m) && write_file(paths[1], dists, y4m) &&
                            files[0].open(paths[0], g, error) && files[1].open(paths[1], g, error);
            unlink(paths[0].c_str());
            unlink(paths[1].c_str());
            if (!ok) {
                if (error->empty())
                    *error = "cannot write " + paths[0];
                return false;
            }
        }
        char err[512];
        FloatAdmCudaContext *ctx = nullptr;
        if (float_adm_cuda_context_create(&ctx, g.width, g.height, g.depth, &opts, nullptr, v.depth,
                                          err, sizeof(err)) < 0) {
            *error = err;
            return false;
        }
        const int depth = float_adm_cuda_max_in_flight(ctx);
        if (depth != (v.depth ? v.depth : 4)) {
            *error = "max_in_flight " + std::to_string(depth);
            float_adm_cuda_context_free(&ctx);
            return false;
        }
        float_adm_cuda_set_host_threads(ctx, v.host_threads);
        out->assign(total, FloatAdmScores{});
        size_t submitted = 0, collected = 0;
        int ret = 0;
        while (ret >= 0 && collected < total) {
            ret = FLOAT_ADM_ERROR_AGAIN;
            if (submitted < total)
                ret = submit(ctx, v, submitted, refs, dists, up_refs, up_dists, dev_refs, files,
                             error);
            if (ret == 0)
                submitted++;
            if (ret == FLOAT_ADM_ERROR_AGAIN)
                ret = float_adm_cuda_collect(ctx, &(*out)[collected++], 1);
        }
        if (ret < 0 && error->empty())
            *error = std::string(float_adm_cuda_strerror(ret)) + " (" +
                     float_adm_cuda_last_error(ctx) + ")";
        while (float_adm_cuda_in_flight(ctx) > 0) {
            FloatAdmScores s;
            float_adm_cuda_collect(ctx, &s, 1);
        }
        float_adm_cuda_context_free(&ctx);
        return ret >= 0;
    }

    /* Frame k (of frames k % n) as the variant gives it: 0, AGAIN, or an error. */
    int submit(FloatAdmCudaContext *ctx, const Variant &v, size_t k,
               const std::vector<LumaPlane> &refs, const std::vector<LumaPlane> &dists,
               const std::vector<LumaPlane> &up_refs, const std::vector<LumaPlane> &up_dists,
               const std::vector<DevicePlane> &dev_refs, Reader (&files)[2], std::string *error)
    {
        const size_t f = k % refs.size();
        Kind kind = v.kind;
        if (kind == kMixed) {
            const Kind turns[] = {kCopy, kInPlace, kRawFile, kHeld, kUpwards, kRawInPlace};
            kind = turns[k % 6];
            if (k % 7 == 6) { /* a device plane beside a host one, now and then */
                const FloatAdmCudaPlane r = dev_refs[f].view();
                const FloatAdmPlane hd = dists[f].view();
                const FloatAdmCudaPlane d = {hd.data, hd.stride, hd.bytes_per_sample, hd.shift,
                                             FLOAT_ADM_CUDA_HOST_IN_PLACE};
                return float_adm_cuda_submit(ctx, &r, &d);
            }
        }
        if (kind == kRawFile || kind == kY4mFile) {
            FloatAdmPlane r, d;
            int ret = float_adm_cuda_host_frame(ctx, &r, &d);
            if (ret < 0)
                return ret;
            char err[512] = "";
            void *into[2] = {const_cast<void *>(r.data), const_cast<void *>(d.data)};
            for (int i = 0; i < 2; i++)
                if (float_adm_reader_read_luma(files[i].r, f, into[i], err, sizeof(err)) < 0) {
                    *error = err;
                    return FLOAT_ADM_ERROR_IO;
                }
            return float_adm_cuda_submit_host_frame(ctx);
        }
        if (kind == kRawInPlace || kind == kY4mInPlace) {
            FloatAdmCudaFilePlane planes[2];
            for (int i = 0; i < 2; i++)
                if (float_adm_reader_luma_at(files[i].r, f, &planes[i].fd, &planes[i].offset) !=
                    1) {
                    *error = "no place for frame " + std::to_string(f);
                    return FLOAT_ADM_ERROR_INVALID;
                }
            return float_adm_cuda_submit_file(ctx, &planes[0], &planes[1]);
        }
        const bool upwards = kind == kUpwards;
        const LumaPlane &lr = upwards ? up_refs[f] : refs[f],
                        &ld = upwards ? up_dists[f] : dists[f];
        FloatAdmCudaPlane planes[2];
        const LumaPlane *host[2] = {&lr, &ld};
        for (int i = 0; i < 2; i++) {
            const LumaPlane &p = *host[i];
            const ptrdiff_t stride = upwards ? -p.stride : p.stride;
            const uint8_t *data = upwards ? p.bytes.data() + p.stride * (p.height() - 1)
                                          : p.bytes.data();
            planes[i] = FloatAdmCudaPlane{data, stride, p.geometry.bytes_per_sample(), p.shift,
                                          kind == kCopy   ? FLOAT_ADM_CUDA_HOST_COPY
                                          : kind == kHeld ? FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD
                                                          : FLOAT_ADM_CUDA_HOST_IN_PLACE};
        }
        return float_adm_cuda_submit(ctx, &planes[0], &planes[1]);
    }

    void run_case(const std::string &name, const std::vector<LumaPlane> &refs,
                  const std::vector<LumaPlane> &dists, FloatAdmOptions opts)
    {
        opts.debug = 1;
        std::vector<FloatAdmScores> cpu;
        if (!cpu_scores(refs, dists, opts, &cpu)) {
            totals.failures++;
            return;
        }
        int failed_variants = 0;
        for (const Variant &v : kVariants) {
            std::vector<FloatAdmScores> gpu;
            std::string error, which;
            int diff = 0;
            const bool ran = cuda_scores(refs, dists, opts, v, &gpu, &error);
            for (size_t k = 0; ran && k < gpu.size(); k++)
                diff += testsupport::differing_outputs(cpu[k % cpu.size()], gpu[k],
                                                       which.empty() ? &which : nullptr);
            totals.frames += ran ? (long long)gpu.size() : 0;
            totals.outputs += ran ? (long long)gpu.size() * FLOAT_ADM_NUM_DEBUG_OUTPUTS : 0;
            totals.differing += diff;
            if (ran && !diff)
                continue;
            failed_variants++;
            printf("  FAIL %-44s %-48s %s\n", name.c_str(), v.name,
                   !ran ? error.c_str()
                        : (std::to_string(diff) + " outputs differ, first " + which).c_str());
        }
        totals.failures += failed_variants;
        if (!failed_variants)
            printf("  ok   %-44s %zu frames x %d, %zu variants: 0 bits\n", name.c_str(),
                   refs.size(), kRepeats, sizeof(kVariants) / sizeof(kVariants[0]));
        fflush(stdout);
    }
};

int run_corpus(Runner &run, const std::string &dir)
{
    testjson::Value golden;
    std::vector<testsupport::CorpusFixture> corpus;
    if (!cuda_test::load_corpus(dir, &golden, &corpus, &run.totals.failures))
        return 1;
    for (const testsupport::CorpusFixture &fx : corpus)
        for (const testsupport::CorpusCase &c : fx.cases)
            if (c.option_set == "default")
                run.run_case(fx.name, fx.frames.refs, fx.frames.dists, c.options);
    return 0;
}

void run_generated(Runner &run, bool quick)
{
    const struct {
        int w, h, depth;
    } sizes[] = {{17, 17, 8},     {63, 65, 10},     {641, 359, 16},
                 {1919, 1081, 8}, {1920, 1080, 10}, {3840, 2160, 8}};
    uint32_t seed = 7;
    for (const auto &s : sizes) {
        if (quick && s.w * s.h > 641 * 359)
            continue;
        std::vector<LumaPlane> refs, dists;
        for (int f = 0; f < 3; f++) {
            const testsupport::FramePair p = testsupport::make_frame_pair(
                FrameGeometry{s.w, s.h, s.depth}, seed++);
            refs.push_back(p.ref);
            dists.push_back(p.dist);
        }
        FloatAdmOptions opts;
        float_adm_options_default(&opts);
        run.run_case("generated " + std::to_string(s.w) + "x" + std::to_string(s.h) + " " +
                         std::to_string(s.depth) + "-bit",
                     refs, dists, opts);
    }
}

int failures = 0;

void check(bool ok, const std::string &what)
{
    printf("  %-4s %s\n", ok ? "ok" : "FAIL", what.c_str());
    failures += !ok;
}

/* Files read in place (a 64x64 gray context): no file, and a file cut short, refused;
 * a file of the frame scores as the same frame copied. */
void check_file_refusals(FloatAdmCudaContext *ctx, const std::vector<uint8_t> &plane)
{
    const FloatAdmCudaFilePlane none = {-1, 0};
    int ret = float_adm_cuda_submit_file(ctx, &none, &none);
    check(ret == FLOAT_ADM_ERROR_INVALID,
          std::string("a file plane without a descriptor refused: ") +
              float_adm_cuda_last_error(ctx));
    char path[] = "/tmp/cuda_host_file.XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
        check(false, "a temporary file");
        return;
    }
    unlink(path);
    /* The plane at an offset off the page boundaries (too few pages to pin: read into
     * the pinned buffers). */
    std::vector<uint8_t> bytes(100 + plane.size() * 2, 3);
    memcpy(&bytes[100], plane.data(), plane.size());
    const bool written = write(fd, bytes.data(), bytes.size()) == (ssize_t)bytes.size();
    const FloatAdmCudaFilePlane at = {fd, 100};
    const FloatAdmPlane host = {plane.data(), 64, 1, 0};
    FloatAdmScores from_file, copied;
    check(written && float_adm_cuda_submit_file(ctx, &at, &at) == 0 &&
              float_adm_cuda_collect(ctx, &from_file, 1) == 0 &&
              float_adm_cuda_submit_host(ctx, &host, &host) == 0 &&
              float_adm_cuda_collect(ctx, &copied, 1) == 0 &&
              testsupport::differing_outputs(from_file, copied) == 0,
          "a frame read from its file, then copied: the same bits");
    const FloatAdmCudaFilePlane past_end = {fd, (uint64_t)bytes.size() - plane.size() / 2};
    ret = float_adm_cuda_submit_file(ctx, &past_end, &at);
    const std::string why = float_adm_cuda_last_error(ctx);
    check(ret == FLOAT_ADM_ERROR_IO &&
              why.find("reference plane from its file: the file ended") != std::string::npos,
          "a plane past the file's end: " + why);
    check(float_adm_cuda_in_flight(ctx) == 0, "nothing queued by the refusals");
    close(fd);
}

/* The API's refusals, on a small context. */
void check_refusals()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    int ret = float_adm_cuda_context_create(&ctx, 64, 64, 8, &opts, nullptr, 17, err, sizeof(err));
    check(ret == FLOAT_ADM_ERROR_RANGE, std::string("max_in_flight 17 refused: ") + err);
    if (float_adm_cuda_context_create(&ctx, 64, 64, 8, &opts, nullptr, 0, err, sizeof(err)) < 0) {
        check(false, std::string("context: ") + err);
        return;
    }
    check(float_adm_cuda_max_in_flight(ctx) == 4, "max_in_flight 0: the library's 4");
    check(float_adm_cuda_set_host_threads(ctx, -1) == FLOAT_ADM_ERROR_INVALID &&
              float_adm_cuda_set_host_threads(ctx, 65) == FLOAT_ADM_ERROR_INVALID,
          "host threads -1 and 65 refused");
    ret = float_adm_cuda_submit_host_frame(ctx);
    check(ret == FLOAT_ADM_ERROR_INVALID,
          std::string("submit_host_frame without host_frame refused: ") +
              float_adm_cuda_last_error(ctx));
    std::vector<uint8_t> plane(64 * 64, 9);
    const FloatAdmCudaPlane bad = {plane.data(), 64, 1, 0, 4};
    ret = float_adm_cuda_submit(ctx, &bad, &bad);
    check(ret == FLOAT_ADM_ERROR_INVALID,
          std::string("in_host_memory 4 refused: ") + float_adm_cuda_last_error(ctx));
    FloatAdmPlane r1, d1, r2, d2;
    check(float_adm_cuda_host_frame(ctx, &r1, &d1) == 0 &&
              float_adm_cuda_host_frame(ctx, &r2, &d2) == 0 && r1.data == r2.data &&
              d1.data == d2.data && r1.data != d1.data && r1.stride == 64 && r1.shift == 0,
          "host_frame twice: the same buffers, rows of the width");
    const FloatAdmPlane host = {plane.data(), 64, 1, 0};
    ret = float_adm_cuda_submit_host(ctx, &host, &host);
    check(ret == FLOAT_ADM_ERROR_INVALID,
          std::string("a submit while the buffers are lent refused: ") +
              float_adm_cuda_last_error(ctx));
    memset(const_cast<void *>(r1.data), 9, 64 * 64);
    memset(const_cast<void *>(d1.data), 9, 64 * 64);
    FloatAdmScores lent, copied;
    check(float_adm_cuda_submit_host_frame(ctx) == 0 &&
              float_adm_cuda_collect(ctx, &lent, 1) == 0 &&
              float_adm_cuda_submit_host(ctx, &host, &host) == 0 &&
              float_adm_cuda_collect(ctx, &copied, 1) == 0 &&
              testsupport::differing_outputs(lent, copied) == 0,
          "the lent buffers submitted, then the same planes copied: the same bits");
    check_file_refusals(ctx, plane);
    float_adm_cuda_context_free(&ctx);
}

/* The mappings of `path` in this process (a file's pages mapped to be read in place). */
int mappings_of(const std::string &path)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return -1;
    int count = 0;
    char line[4096];
    while (fgets(line, sizeof(line), maps))
        count += strstr(line, path.c_str()) != nullptr;
    fclose(maps);
    return count;
}

/* The pages of files read in place are released in batches while frames are in flight
 * (unpinning waits for the device), so they must stay bounded while a file streams, and
 * all go once nothing is in flight: 48 1080p frames of a file, 4 in flight. */
void check_file_pages_released(const std::string &tmp)
{
    constexpr int kFrames = 48, kWidth = 1920, kHeight = 1080, kInFlight = 4;
    const std::string path = tmp + "/cuda_host_pages." + std::to_string(getpid());
    FILE *out = fopen(path.c_str(), "wb");
    std::vector<uint8_t> plane((size_t)kWidth * kHeight);
    bool written = out != nullptr;
    for (int f = 0; written && f < kFrames; f++) {
        for (size_t i = 0; i < plane.size(); i++)
            plane[i] = (uint8_t)(i * 7 + f * 13 + i / kWidth);
        written = fwrite(plane.data(), 1, plane.size(), out) == plane.size();
    }
    written = out && fclose(out) == 0 && written;
    const int fd = written ? open(path.c_str(), O_RDONLY) : -1;
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    if (fd < 0 || float_adm_cuda_context_create(&ctx, kWidth, kHeight, 8, &opts, nullptr, kInFlight,
                                                err, sizeof(err)) < 0) {
        check(false, std::string("pages of files released: a file and a context ") + err);
        if (fd >= 0)
            close(fd);
        unlink(path.c_str());
        return;
    }
    int most = 0, ret = 0, collected = 0;
    FloatAdmScores s;
    for (int submitted = 0; ret >= 0 && collected < kFrames;) {
        const FloatAdmCudaFilePlane ref = {fd, (uint64_t)plane.size() * submitted};
        const FloatAdmCudaFilePlane dist = {fd,
                                            (uint64_t)plane.size() * ((submitted + 1) % kFrames)};
        ret = submitted < kFrames ? float_adm_cuda_submit_file(ctx, &ref, &dist)
                                  : FLOAT_ADM_ERROR_AGAIN;
        if (ret == 0)
            submitted++;
        if (ret == FLOAT_ADM_ERROR_AGAIN && (ret = float_adm_cuda_collect(ctx, &s, 1)) == 0)
            collected++;
        most = std::max(most, mappings_of(path));
    }
    const int left = mappings_of(path);
    float_adm_cuda_context_free(&ctx);
    close(fd);
    unlink(path.c_str());
    char what[200];
    /* 16 planes retired at most, and the frames in flight's */
    snprintf(
        what, sizeof(what),
        "pages of files: at most %d mappings while %d frames stream, %d once all are collected",
        most, kFrames, left);
    check(ret >= 0 && collected == kFrames && most > 0 && most <= 16 + 2 * kInFlight && left == 0,
          what);
}

/* A page-aligned allocation of whole pages, which this test pins. */
struct PageAligned {
    size_t bytes;
    std::unique_ptr<uint8_t, decltype(&free)> data;
    explicit PageAligned(size_t size)
        : bytes((size + 4095) / 4096 * 4096),
          data(static_cast<uint8_t *>(aligned_alloc(4096, bytes)), &free)
    {
    }
};

/* Whether the driver lets this thread pin a plane: not while the library keeps it pinned. */
bool pinnable(const adm_cuda::CudaDriver *cu, const PageAligned &plane)
{
    if (cu->cuMemHostRegister(plane.data.get(), plane.bytes, 0) != adm_cuda::CUDA_SUCCESS)
        return false;
    cu->cuMemHostUnregister(plane.data.get());
    return true;
}

/*
 * Memory a caller holds (FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD) stays pinned after its frame is
 * collected, for the frames float_adm_cuda_held_frames counts, and no longer: after every
 * collect the newest frame it counts is still pinned and the newest it does not count is
 * not (this thread can pin it), the count stays within the library's batch, and once all
 * are collected nothing is pinned.  48 1080p frames, each in memory of its own, 4 in flight.
 */
void check_held_memory_released()
{
    constexpr int kFrames = 48, kWidth = 1920, kHeight = 1080, kInFlight = 4;
    cuda_test::CurrentPrimaryContext primary;
    const adm_cuda::CudaDriver *cu = primary.driver();
    std::vector<PageAligned> planes;
    bool allocated = cu != nullptr;
    for (int i = 0; allocated && i < 2 * kFrames; i++) {
        planes.emplace_back((size_t)kWidth * kHeight);
        allocated = planes.back().data != nullptr;
        for (size_t b = 0; allocated && b < planes.back().bytes; b++)
            planes.back().data.get()[b] = (uint8_t)(b * 7 + i * 13 + b / kWidth);
    }
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    if (!allocated || float_adm_cuda_context_create(&ctx, kWidth, kHeight, 8, &opts, nullptr,
                                                    kInFlight, err, sizeof(err)) < 0) {
        check(false, std::string("held memory: the planes and a context ") + err);
        return;
    }
    int most = 0, ret = 0, collected = 0, wrong = 0;
    FloatAdmScores s;
    for (int submitted = 0; ret >= 0 && collected < kFrames;) {
        FloatAdmCudaPlane view[2];
        for (int i = 0; i < 2; i++)
            view[i] = FloatAdmCudaPlane{planes[2 * submitted + i].data.get(), kWidth, 1, 0,
                                        FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD};
        ret = submitted < kFrames ? float_adm_cuda_submit(ctx, &view[0], &view[1])
                                  : FLOAT_ADM_ERROR_AGAIN;
        if (ret == 0)
            submitted++;
        if (ret != FLOAT_ADM_ERROR_AGAIN || (ret = float_adm_cuda_collect(ctx, &s, 1)) < 0)
            continue;
        collected++;
        const int held = float_adm_cuda_held_frames(ctx);
        most = std::max(most, held);
        const int newest_counted = collected - 1, newest_not = collected - 1 - held;
        if (held > 0 && pinnable(cu, planes[2 * newest_counted]))
            wrong++;
        if (newest_not >= 0 && !pinnable(cu, planes[2 * newest_not + 1]))
            wrong++;
    }
    const int left = float_adm_cuda_held_frames(ctx);
    int pinned_after = 0;
    for (const PageAligned &plane : planes)
        pinned_after += !pinnable(cu, plane);
    /* The same planes again and again: the first frame pins them, those after it are
     * copied (the pages are pinned still), and the count of frames the caller keeps
     * stays bounded all the same. */
    int most_same = 0;
    for (int submitted = 0, done = 0; ret >= 0 && done < kFrames;) {
        FloatAdmCudaPlane view[2];
        for (int i = 0; i < 2; i++)
            view[i] = FloatAdmCudaPlane{planes[i].data.get(), kWidth, 1, 0,
                                        FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD};
        ret = submitted < kFrames ? float_adm_cuda_submit(ctx, &view[0], &view[1])
                                  : FLOAT_ADM_ERROR_AGAIN;
        if (ret == 0)
            submitted++;
        if (ret == FLOAT_ADM_ERROR_AGAIN && (ret = float_adm_cuda_collect(ctx, &s, 1)) == 0) {
            done++;
            most_same = std::max(most_same, float_adm_cuda_held_frames(ctx));
        }
    }
    float_adm_cuda_context_free(&ctx);
    char what[300];
    snprintf(what, sizeof(what),
             "held memory: %d frames, at most %d counted after their collect, %d counts wrong, "
             "%d counted and %d planes pinned once all are collected; the same planes %d times: "
             "at most %d counted",
             collected, most, wrong, left, pinned_after, kFrames, most_same);
    /* 16 planes retired at most: 8 frames */
    check(ret >= 0 && collected == kFrames && most > 0 && most <= 8 && wrong == 0 && left == 0 &&
              pinned_after == 0 && most_same < 8,
          what);
}

double thread_cpu_ms()
{
    struct rusage use;
    getrusage(RUSAGE_THREAD, &use);
    return use.ru_utime.tv_sec * 1e3 + use.ru_utime.tv_usec / 1e3 + use.ru_stime.tv_sec * 1e3 +
           use.ru_stime.tv_usec / 1e3;
}

/* A caller waiting for its frames sleeps: 1000 4K frames from device memory, 16 in flight,
 * take this thread far less CPU time than wall time (a spinning wait takes all of it). */
void check_waiting_sleeps()
{
    const testsupport::FramePair p = testsupport::make_frame_pair(FrameGeometry{3840, 2160, 8}, 3);
    DevicePlane r, d;
    std::string error;
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmCudaContext *ctx = nullptr;
    char err[512] = "";
    if (!r.upload(p.ref, &error) || !d.upload(p.dist, &error) ||
        float_adm_cuda_context_create(&ctx, 3840, 2160, 8, &opts, nullptr, 16, err, sizeof(err)) <
            0) {
        check(false, "waiting sleeps: " + error + err);
        return;
    }
    const FloatAdmCudaPlane rv = r.view(), dv = d.view();
    FloatAdmScores s;
    for (int f = 0; f < 20; f++) /* warm up */
        float_adm_cuda_score_frame(ctx, &rv, &dv, &s);
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_ms();
    int ret = 0;
    for (int submitted = 0, collected = 0; ret >= 0 && collected < 1000;) {
        ret = submitted < 1000 ? float_adm_cuda_submit(ctx, &rv, &dv) : FLOAT_ADM_ERROR_AGAIN;
        if (ret == 0)
            submitted++;
        if (ret == FLOAT_ADM_ERROR_AGAIN) {
            ret = float_adm_cuda_collect(ctx, &s, 1);
            collected++;
        }
    }
    const double cpu = thread_cpu_ms() - cpu_start;
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    float_adm_cuda_context_free(&ctx);
    char what[200];
    snprintf(what, sizeof(what),
             "waiting for frames sleeps: 1000 4K frames, %.1f ms of this thread's CPU in %.1f ms%s",
             cpu, wall, wall < 10 ? " (too fast to tell)" : "");
    check(ret >= 0 && (wall < 10 || cpu < 0.5 * wall), what);
}

} // namespace

int main(int argc, char **argv)
{
    std::string corpus = "tests/corpus";
    const char *tmpdir = getenv("TMPDIR");
    std::string tmp = tmpdir && *tmpdir ? tmpdir : "/tmp";
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
            corpus = argv[++i];
        else if (!strcmp(argv[i], "--tmp") && i + 1 < argc)
            tmp = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
        else {
            fprintf(stderr, "usage: %s [--corpus DIR] [--quick] [--tmp DIR]\n", argv[0]);
            return 2;
        }
    }
    if (!cuda_test::have_device("frames from host memory"))
        return 0;
    const int threads = std::max(1, (int)std::thread::hardware_concurrency());
    ThreadPool pool(threads);
    Runner run{&pool, threads, tmp, {}};
    printf("corpus %s, each case in every variant:\n", corpus.c_str());
    if (run_corpus(run, corpus))
        return 1;
    printf("generated frames%s:\n", quick ? " (quick: up to 641x359)" : "");
    run_generated(run, quick);
    printf("the API:\n");
    check_refusals();
    check_file_pages_released(tmp);
    check_held_memory_released();
    check_waiting_sleeps();
    const Totals &t = run.totals;
    failures += t.failures;
    printf(
        "\nSUMMARY cuda_host: %lld frames, CPU vs CUDA %lld of %lld outputs differ | failures %d\n",
        t.frames, t.differing, t.outputs, failures);
    printf("%s\n", failures ? "HOST PATHS FAILED" : "HOST PATHS PASSED");
    return failures ? 1 : 0;
}
