/*
 * Maps (float_adm.h, "Maps"): the loss lies where the picture was distorted,
 * nothing is lost between identical pictures, the blocks add up to the frame's
 * sums, and a map changes no score.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "adm_engine.h"
#include "adm_simd.h"
#include "content.h"
#include "fixture.h"
#include "float_adm.h"

namespace {

using testsupport::FramePair;
using testsupport::OptionSet;

struct Map {
    int columns = 0, rows = 0;
    std::vector<float> loss;
    std::vector<double> num[4], den[4];
};

FloatAdmContext *make_context(const FramePair &f, const FloatAdmOptions &opts, bool map)
{
    char err[256] = "";
    FloatAdmContext *ctx = nullptr;
    EXPECT_EQ(0, float_adm_context_create(&ctx, f.width(), f.height(), f.ref.geometry.depth, &opts,
                                          err, sizeof(err)))
        << err;
    if (ctx && map) {
        EXPECT_EQ(0, float_adm_context_enable_map(ctx));
    }
    return ctx;
}

Map read_map(const FloatAdmContext *ctx)
{
    Map m;
    int block = 0;
    EXPECT_EQ(0, float_adm_map_size(ctx, &m.columns, &m.rows, &block));
    EXPECT_EQ(FLOAT_ADM_MAP_BLOCK_SIZE, block);
    const size_t n = (size_t)m.columns * m.rows;
    m.loss.assign(n, -1.0f);
    EXPECT_EQ(0, float_adm_map_loss(ctx, m.loss.data(), n));
    for (int s = 0; s < 4; s++) {
        m.num[s].assign(n, -1.0);
        m.den[s].assign(n, -1.0);
        EXPECT_EQ(0, float_adm_map_sums(ctx, s, m.num[s].data(), m.den[s].data(), n));
    }
    return m;
}

/* Scores and map of one frame pair. */
FloatAdmScores score(const FramePair &f, const FloatAdmOptions &opts, bool with_map,
                     Map *map = nullptr, const char *level = nullptr, int threads = 1)
{
    FloatAdmContext *ctx = make_context(f, opts, with_map);
    FloatAdmScores s = {};
    if (!ctx)
        return s;
    EXPECT_EQ(0, float_adm_context_set_simd_level(ctx, level));
    EXPECT_EQ(0, float_adm_context_set_threads(ctx, threads));
    const FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    EXPECT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
    if (map)
        *map = read_map(ctx);
    float_adm_context_free(&ctx);
    return s;
}

const testjson::Value &golden()
{
    static const testjson::Value g = testsupport::read_json(testsupport::golden_path());
    return g;
}

FloatAdmOptions defaults()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.debug = 1;
    return opts;
}

/* The reference with its left half taken from the distorted picture of the pair. */
FramePair left_half_distorted(int width, int height, uint32_t seed)
{
    FramePair f = testsupport::make_frame_pair(testsupport::FrameGeometry{width, height, 8}, seed);
    FramePair out{f.ref, f.ref};
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width / 2; x++)
            out.dist.set_sample(x, y, f.dist.sample(x, y));
    return out;
}

TEST(Map, LossLiesWhereThePictureWasDistorted)
{
    const int width = 512, height = 192;
    const FramePair f = left_half_distorted(width, height, 11);
    Map m;
    score(f, defaults(), true, &m);
    ASSERT_EQ(16, m.columns);
    ASSERT_EQ(6, m.rows);
    double left = 0, right = 0;
    for (int r = 0; r < m.rows; r++)
        for (int c = 0; c < m.columns; c++) {
            const float loss = m.loss[r * m.columns + c];
            /* Columns 0 and 15 lie in ADM's border at every scale: not measured. */
            if (c == 0 || c == m.columns - 1) {
                EXPECT_TRUE(std::isnan(loss)) << "border block " << r << ", " << c;
                continue;
            }
            EXPECT_GE(loss, 0.0f);
            EXPECT_LE(loss, 1.0f);
            (c < m.columns / 2 ? left : right) += loss;
            /* Past the reach of the coarsest wavelet and its masking: nothing differs. */
            if (c * FLOAT_ADM_MAP_BLOCK_SIZE >= width / 2 + 96) {
                EXPECT_EQ(0.0f, loss) << "clean block " << r << ", " << c;
            }
        }
    EXPECT_GT(left / (m.rows * m.columns / 2), 0.05) << "the distorted half shows its loss";
    EXPECT_GT(left, 20 * right) << "left " << left << ", right " << right;
}

/* ADM leaves about a tenth of each side out of its sums: at 1920x1080 the blocks of
 * the 160 pixels at the left edge hold no coefficient of any scale.  A distortion
 * there moves no score, and the map says "not measured" (NaN), not "nothing lost". */
TEST(Map, BlocksOutsideTheSumRegionsAreNotMeasured)
{
    const int width = 1920, height = 1080, strip = 160;
    FramePair f = testsupport::make_frame_pair(testsupport::FrameGeometry{width, height, 8}, 5);
    FramePair clean{f.ref, f.ref};
    for (int y = 0; y < height; y++)
        for (int x = 0; x < strip; x++)
            clean.dist.set_sample(x, y, f.dist.sample(x, y));
    Map m;
    score(clean, defaults(), true, &m);
    for (int r = 0; r < m.rows; r++) {
        for (int c = 0; c < strip / FLOAT_ADM_MAP_BLOCK_SIZE; c++)
            EXPECT_TRUE(std::isnan(m.loss[r * m.columns + c])) << "block " << r << ", " << c;
        /* The next block holds coefficients of scale 3 (from pixel 176 on). */
        const float next = m.loss[r * m.columns + strip / FLOAT_ADM_MAP_BLOCK_SIZE];
        if (r >= 4 && r < m.rows - 4) {
            EXPECT_FALSE(std::isnan(next)) << "block " << r;
        }
    }
}

/* The loss read by block rows (the filter's slices on the CUDA path read the
 * GPU's map so) has the bits of the whole map's, border NaNs included. */
TEST(Map, LossByBlockRowsIsTheWholeMapsLoss)
{
    const FramePair f = testsupport::make_frame_pair(testsupport::FrameGeometry{333, 197, 8}, 9);
    FloatAdmContext *ctx = make_context(f, defaults(), true);
    ASSERT_NE(nullptr, ctx);
    const FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    FloatAdmScores s;
    ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
    const Map whole = read_map(ctx);
    const adm::FrameMap *map = adm::context_engine(*ctx).map();
    ASSERT_NE(nullptr, map);
    std::vector<float> sliced(whole.loss.size(), -1.0f);
    const int cuts[] = {0, 1, 4, whole.rows};
    for (int k = 0; k + 1 < 4; k++)
        map->loss_rows(cuts[k], cuts[k + 1] - cuts[k], &sliced[(size_t)cuts[k] * whole.columns]);
    EXPECT_EQ(0, memcmp(sliced.data(), whole.loss.data(), sliced.size() * sizeof(float)));
    float_adm_context_free(&ctx);
}

TEST(Map, IdenticalPicturesLoseNothingAnywhere)
{
    const std::pair<int, int> sizes[] = {{17, 17}, {63, 65}, {333, 171}, {576, 324}};
    uint32_t seed = 30;
    for (const OptionSet &set : testsupport::option_sets(golden()))
        for (auto size : sizes) {
            FramePair f = testsupport::make_frame_pair(
                testsupport::FrameGeometry{size.first, size.second, 10}, seed++);
            f.dist = f.ref;
            Map m;
            score(f, testsupport::debug_options(set), true, &m);
            for (size_t k = 0; k < m.loss.size(); k++) {
                const int r = (int)k / m.columns, c = (int)k % m.columns;
                const bool edge = r == 0 || c == 0 || r == m.rows - 1 || c == m.columns - 1;
                /* 0, or not measured (NaN) at the picture's edge. */
                if (!(edge && std::isnan(m.loss[k]))) {
                    ASSERT_EQ(0.0f, m.loss[k]) << testsupport::describe(set) << " " << size.first
                                               << "x" << size.second << " block " << k;
                }
            }
        }
}

/*
 * Every case of the corpus, on its first frame: the blocks' sums of each scale, added in
 * double, are the frame's fp32 sums of that scale within 1e-6 relative.  The frame adds
 * each row's columns, then the rows, in fp32, so its own rounding can exceed that: where
 * it may, the comparison allows that rounding's bound, (columns + rows) * 2^-24 of the
 * sum of the (non-negative) terms, and says so.
 */
TEST(Map, BlocksAddUpToTheFrameSumsForEveryCorpusCase)
{
    const std::string dir = testsupport::golden_path().substr(
        0, testsupport::golden_path().find_last_of('/') + 1);
    std::map<std::string, std::pair<testsupport::LumaPlane, testsupport::LumaPlane>> frames;
    int checked = 0;
    for (const auto &c : golden()["cases"].items) {
        const testjson::Value &fx = testsupport::find_fixture(golden(), c["fixture"].text);
        const std::string name = fx["name"].text;
        if (!frames.count(name)) {
            const auto g = testsupport::fixture_geometry(fx);
            /* The first frame of each: the .yuv.xz files of tests/corpus. */
            auto ref = testsupport::load_luma_frames(dir + fx["ref"].text, g);
            auto dis = testsupport::load_luma_frames(dir + fx["dis"].text, g);
            frames.emplace(name, std::make_pair(ref[0], dis[0]));
        }
        const FramePair f{frames.at(name).first, frames.at(name).second};
        const OptionSet set = testsupport::option_set(c["options"]);
        FloatAdmContext *ctx = make_context(f, testsupport::debug_options(set), true);
        ASSERT_TRUE(ctx);
        const FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
        FloatAdmScores s;
        ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
        const Map m = read_map(ctx);
        const adm::Engine &engine = adm::context_engine(*ctx);
        for (int sc = engine.frame().skip_scale0 ? 1 : 0; sc < adm::kNumScales; sc++) {
            const float *band = engine.band_sums(sc);
            const double frame_den = (double)band[adm::kDenSum] + band[adm::kDenSum + 1] +
                                     band[adm::kDenSum + 2];
            const double frame_num = (double)band[adm::kNumSum] + band[adm::kNumSum + 1] +
                                     band[adm::kNumSum + 2];
            double den = 0, num = 0;
            for (size_t k = 0; k < m.loss.size(); k++) {
                den += m.den[sc][k];
                num += m.num[sc][k];
            }
            const std::string what = name + " " + testsupport::describe(set) + " scale " +
                                     std::to_string(sc);
            const adm::Region &r = engine.frame().scale[sc].sums;
            const double fp32_rounding = (r.right - r.left + r.bottom - r.top) * 0x1p-24;
            for (auto sums : {std::make_pair(den, frame_den), std::make_pair(num, frame_num)}) {
                const double diff = std::fabs(sums.first - sums.second);
                if (diff <= 1e-6 * sums.second)
                    continue;
                std::printf("%s: blocks %.17g, frame %.17g: %.3g relative, within the "
                            "frame's fp32 rounding bound %.3g\n",
                            what.c_str(), sums.first, sums.second, diff / sums.second,
                            fp32_rounding);
                EXPECT_LE(diff, fp32_rounding * sums.first) << what;
            }
        }
        float_adm_context_free(&ctx);
        checked++;
    }
    EXPECT_EQ(golden()["cases"].items.size(), (size_t)checked);
}

bool same_bits(const void *a, const void *b, size_t size) { return memcmp(a, b, size) == 0; }

/* At every level and 1 or 3 threads: the scores with a map are those without, bit for
 * bit, and the map is the same everywhere. */
TEST(Map, ScoresAndMapAreTheSameAtEveryLevelAndThreadCount)
{
    uint32_t seed = 50;
    for (const OptionSet &set : testsupport::option_sets(golden())) {
        const FramePair f = testsupport::make_frame_pair(testsupport::FrameGeometry{161, 97, 8},
                                                         seed++);
        const FloatAdmOptions opts = testsupport::debug_options(set);
        Map want;
        score(f, opts, true, &want, "scalar");
        for (int l = 0; l < adm::simd_level_count(); l++) {
            if (!adm::simd_level_supported((adm::SimdLevel)l))
                continue;
            const char *level = adm::simd_level_name((adm::SimdLevel)l);
            for (int threads : {1, 3}) {
                const std::string what = testsupport::describe(set) + " " + level + " threads " +
                                         std::to_string(threads);
                const FloatAdmScores plain = score(f, opts, false, nullptr, level, threads);
                Map got;
                const FloatAdmScores mapped = score(f, opts, true, &got, level, threads);
                EXPECT_TRUE(same_bits(&plain, &mapped, sizeof(plain))) << what;
                EXPECT_TRUE(
                    same_bits(want.loss.data(), got.loss.data(), want.loss.size() * sizeof(float)))
                    << what;
                for (int s = 0; s < 4; s++) {
                    EXPECT_TRUE(same_bits(want.num[s].data(), got.num[s].data(),
                                          want.num[s].size() * sizeof(double)))
                        << what << " scale " << s;
                    EXPECT_TRUE(same_bits(want.den[s].data(), got.den[s].data(),
                                          want.den[s].size() * sizeof(double)))
                        << what << " scale " << s;
                }
            }
        }
    }
}

TEST(Map, ApiRefusesWhatItCannotAnswer)
{
    const FramePair f = testsupport::make_frame_pair(testsupport::FrameGeometry{100, 65, 8}, 3);
    const FloatAdmOptions opts = defaults();
    int columns = 0, rows = 0, block = 0;
    float loss[16];
    double sums[16];

    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_context_enable_map(nullptr));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_size(nullptr, &columns, &rows, &block));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_loss(nullptr, loss, 16));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_sums(nullptr, 0, sums, sums, 16));

    FloatAdmContext *ctx = make_context(f, opts, false);
    ASSERT_TRUE(ctx);
    EXPECT_EQ(0, float_adm_map_size(ctx, &columns, &rows, nullptr));
    EXPECT_EQ(4, columns); /* ceil(100 / 32) */
    EXPECT_EQ(3, rows);    /* ceil(65 / 32) */
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_loss(ctx, loss, 16)) << "no map enabled";
    EXPECT_EQ(0, float_adm_context_enable_map(ctx));
    EXPECT_EQ(0, float_adm_context_enable_map(ctx)) << "again: harmless";
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_loss(ctx, loss, 16)) << "no frame yet";

    const FloatAdmPlane ref = f.ref.view(), dist = f.dist.view();
    FloatAdmScores s;
    ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
    EXPECT_EQ(0, float_adm_map_loss(ctx, loss, 12));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_loss(ctx, loss, 11)) << "too small";
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_loss(ctx, nullptr, 12));
    EXPECT_EQ(0, float_adm_map_sums(ctx, 3, sums, nullptr, 12));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_sums(ctx, 3, sums, sums, 11));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_sums(ctx, 4, sums, sums, 12));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_sums(ctx, -1, sums, sums, 12));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_context_enable_map(ctx))
        << "a context that scored without a map does not start one halfway";
    float_adm_context_free(&ctx);

    ctx = make_context(f, opts, false);
    ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_context_enable_map(ctx));
    float_adm_context_free(&ctx);
}

/* Each level's row kernel adds a map's column sums as the scalar level does, bit for bit,
 * over any column range (partial vectors, edges) and whether the row starts a block. */
TEST(Map, RowKernelsAddColumnSumsAsTheScalarLevel)
{
    testsupport::Lcg rng{21};
    auto value = [&rng]() {
        const float magnitude = (float)rng.unit() * (rng.next() % 2 ? 40.0f : 1e-3f);
        return rng.next() % 2 ? magnitude : -magnitude;
    };
    for (int w = 2; w <= 200; w += w < 40 ? 1 : 37) {
        const ptrdiff_t stride = w + adm::kRowPadding;
        /* ref, weighted [signal][band], filtered [signal][band][row]. */
        std::vector<float> in(27 * stride);
        for (int r = 0; r < 27; r++)
            for (int j = 0; j < w; j++)
                in[r * stride + j] = r >= 9 ? std::fabs(value()) / 30.0f : value();
        adm::SumRowArgs args;
        for (int b = 0; b < 3; b++) {
            args.ref[b] = &in[b * stride];
            args.factor[b] = b == 2 ? 0.0083f : 0.0178f;
            for (int m = 0; m < 2; m++) {
                args.weighted[m][b] = &in[(3 + m * 3 + b) * stride];
                for (int r = 0; r < 3; r++)
                    args.filtered[m][b][r] = &in[(9 + (m * 3 + b) * 3 + r) * stride];
            }
        }
        args.w = w;
        for (int variant = 0; variant < 8; variant++) {
            args.left = variant % 2 ? 0 : w / 7;
            args.right = variant % 2 ? w : w - w / 9;
            args.masking = variant / 2 % 2 == 0;
            args.cube = variant < 4;
            args.p = args.cube ? 3.0f : 2.5f;
            std::vector<double> start(2 * stride);
            for (double &v : start)
                v = rng.unit();
            std::vector<double> want[2];
            for (int level = 0; level < adm::simd_level_count(); level++) {
                const adm::SimdKernels *k = adm::simd_kernels((adm::SimdLevel)level);
                if (!k)
                    continue;
                for (int first_row = 0; first_row < 2; first_row++) {
                    std::vector<double> got = start;
                    args.column_sums[0] = got.data();
                    args.column_sums[1] = got.data() + stride;
                    args.column_sums_start = first_row;
                    float sums[adm::kNumRowSums];
                    k->row_sums(args, sums);
                    if (level == 0)
                        want[first_row] = got;
                    EXPECT_EQ(
                        0, memcmp(want[first_row].data(), got.data(), got.size() * sizeof(double)))
                        << adm::simd_level_name((adm::SimdLevel)level) << " w " << w << " variant "
                        << variant << " first row " << first_row;
                    EXPECT_EQ(0, memcmp(start.data() + args.right, got.data() + args.right,
                                        (stride - args.right) * sizeof(double)))
                        << "written past the range";
                    EXPECT_EQ(0, memcmp(start.data(), got.data(), args.left * sizeof(double)))
                        << "written before the range";
                }
            }
        }
    }
}

/* A frame with a map scored, and a directory for its files. */
class MapFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        ctx = make_context(frames, defaults(), true);
        ASSERT_TRUE(ctx);
        const FloatAdmPlane ref = frames.ref.view(), dist = frames.dist.view();
        FloatAdmScores s;
        ASSERT_EQ(0, float_adm_score_frame(ctx, &ref, &dist, &s));
        m = read_map(ctx);
        ASSERT_TRUE(mkdtemp(dir));
        base = std::string(dir) + "/";
    }
    void TearDown() override
    {
        for (const std::string &name : written)
            std::remove((base + name).c_str());
        rmdir(dir);
        float_adm_context_free(&ctx);
    }

    const FramePair frames = left_half_distorted(100, 70, 5);
    FloatAdmContext *ctx = nullptr;
    Map m;
    char dir[32] = "/tmp/float_adm_map_XXXXXX";
    std::string base;
    std::vector<std::string> written; /* removed at the end */
    char err[512] = "";
};

/* The PFM holds the loss grid bit for bit, its rows from the bottom up. */
TEST_F(MapFiles, PfmFileHoldsTheLossGrid)
{
    written.push_back("m%_0017.pfm");
    ASSERT_EQ(0,
              float_adm_map_write_pfm(ctx, (base + "m%%_%04d.pfm").c_str(), 17, err, sizeof(err)))
        << err;
    const std::string bytes = testsupport::read_file(base + "m%_0017.pfm");
    const std::string header = "Pf\n4 3\n-1.0\n";
    ASSERT_EQ(header.size() + 4 * 3 * sizeof(float), bytes.size());
    EXPECT_EQ(header, bytes.substr(0, header.size()));
    for (int r = 0; r < 3; r++) {
        float row[4];
        std::memcpy(row, bytes.data() + header.size() + (2 - r) * sizeof(row), sizeof(row));
        EXPECT_EQ(0, std::memcmp(row, &m.loss[r * 4], sizeof(row))) << "row " << r;
    }
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_write_pfm(ctx, nullptr, 0, err, sizeof(err)));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_pattern_check(nullptr, err, sizeof(err)));
    EXPECT_EQ(0, float_adm_map_pattern_check("%d", nullptr, 0));
}

/* A loss grid the caller computed (in parts, as float_adm_cuda writes its maps) is
 * written as the context's map is: the same file, byte for byte; under the same rules
 * (a picture's extension refused); no grid, no file. */
TEST_F(MapFiles, PfmOfAGridIsTheContextsPfm)
{
    written = {"ctx3.pfm", "grid3.pfm"};
    ASSERT_EQ(0, float_adm_map_write_pfm(ctx, (base + "ctx%d.pfm").c_str(), 3, err, sizeof(err)))
        << err;
    ASSERT_EQ(0, float_adm_map_write_pfm_grid(m.loss.data(), m.columns, m.rows,
                                              (base + "grid%d.pfm").c_str(), 3, err, sizeof(err)))
        << err;
    EXPECT_EQ(testsupport::read_file(base + "ctx3.pfm"),
              testsupport::read_file(base + "grid3.pfm"));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_write_pfm_grid(m.loss.data(), m.columns, m.rows,
                                           (base + "grid%d.png").c_str(), 4, err, sizeof(err)));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_write_pfm_grid(nullptr, m.columns, m.rows,
                                           (base + "grid%d.pfm").c_str(), 5, err, sizeof(err)));
    EXPECT_EQ(FLOAT_ADM_ERROR_INVALID,
              float_adm_map_write_pfm_grid(m.loss.data(), 0, m.rows, (base + "grid%d.pfm").c_str(),
                                           6, err, sizeof(err)));
    for (const char *name : {"grid4.png", "grid5.pfm", "grid6.pfm"})
        EXPECT_NE(0, access((base + name).c_str(), F_OK)) << name << " was written";
}

/* The maps are PFM files: a picture format's extension is refused with the reason, before
 * any file is written; any other name is taken. */
TEST(MapFile, PictureExtensionsAreRefused)
{
    char err[256];
    for (const char *pattern : {"m_%05d.png", "maps/%d.PNG", "%d.jpg", "f%04d.tiff", "%d.exr"}) {
        EXPECT_EQ(FLOAT_ADM_ERROR_INVALID, float_adm_map_pattern_check(pattern, err, sizeof(err)))
            << pattern;
        EXPECT_NE(std::strstr(err, "PFM"), nullptr) << err;
        EXPECT_NE(std::strstr(err, ".pfm"), nullptr) << err;
    }
    for (const char *pattern : {"m_%05d.pfm", "maps/%d", "png/%d.pfm", "%d.png.pfm", "x.png%d"})
        EXPECT_EQ(0, float_adm_map_pattern_check(pattern, err, sizeof(err)))
            << pattern << ": " << err;
}

} // namespace
