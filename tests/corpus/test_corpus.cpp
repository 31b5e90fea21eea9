/*
 * The golden corpus: every frame of every case of golden.json, all 18 outputs,
 * compared bit for bit through the C API and through float_adm_score.
 *
 * libvmaf's float ADM divides with the processor's reciprocal estimate (RCPSS), so
 * its scores belong to the processor.  Where this host's RCPSS fingerprint is the
 * one golden.json was made on, every output must be the same 64 bits.  Where
 * hosts/<fingerprint>.json holds upstream's values made on a processor with this
 * host's fingerprint, every output must equal those, bit for bit.  Elsewhere the
 * outputs are compared with golden.json within kOtherHostTolerance (relative) and
 * the test says that the host differs.
 *
 * Environment: FLOAT_ADM_CORPUS_DIR (golden.json and the decompressed .yuv files),
 * FLOAT_ADM_SCORE (the float_adm_score binary; its test is skipped when unset),
 * FLOAT_ADM_SIMD (the SIMD level of the C API's contexts, and float_adm_score's;
 * unset or "auto": the default),
 * FLOAT_ADM_TEST_FINGERPRINT (stands in for the host's, to try another host's path),
 * FLOAT_ADM_REQUIRE_EXACT=1 (fail rather than compare within the tolerance: for a
 * target whose values are recorded, such as aarch64 under qemu in `make check-aarch64`).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "fixture.h"
#include "float_adm.h"

namespace {

/* Largest relative difference seen between an AMD EPYC host and the golden Intel
 * host is 1.3e-7 (docs/exactness.md); the bound leaves a margin of ~8x. */
constexpr double kOtherHostTolerance = 1e-6;

std::string env_or_empty(const char *name)
{
    const char *v = std::getenv(name);
    return v ? v : "";
}

/* FLOAT_ADM_SIMD on a context: 0, or a failure that names the levels there are. */
::testing::AssertionResult apply_simd_level(FloatAdmContext *ctx)
{
    const std::string level = env_or_empty("FLOAT_ADM_SIMD");
    if (float_adm_context_set_simd_level(ctx, level.empty() ? nullptr : level.c_str()) == 0)
        return ::testing::AssertionSuccess();
    std::string names = "auto";
    for (int i = 0; float_adm_simd_level_name(i); i++)
        names += std::string(", ") + float_adm_simd_level_name(i);
    return ::testing::AssertionFailure()
           << "FLOAT_ADM_SIMD=" << level << " is not a SIMD level (" << names << ")";
}

class Corpus : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        dir_ = env_or_empty("FLOAT_ADM_CORPUS_DIR");
        if (dir_.empty())
            return;
        golden_ = new testjson::Value(testsupport::read_json(dir_ + "/golden.json"));
        char fingerprint[65];
        float_adm_rcp_fingerprint(fingerprint);
        const std::string stand_in = env_or_empty("FLOAT_ADM_TEST_FINGERPRINT");
        if (!stand_in.empty())
            snprintf(fingerprint, sizeof(fingerprint), "%s", stand_in.c_str());
        exact_ = (*golden_)["reference"]["rcpss_sha256"].text == fingerprint;
        const std::string host_file = dir_ + "/hosts/" + fingerprint + ".json";
        if (exact_) {
            printf("RCPSS fingerprint matches golden.json's host: comparing bit for bit.\n");
        } else if (std::ifstream(host_file).good()) {
            testjson::Value host = testsupport::read_json(host_file);
            replace_expected_frames(host);
            exact_ = true;
            printf("RCPSS fingerprint %s: comparing bit for bit with upstream's values\n"
                   "made on a processor of this fingerprint (%s).\n",
                   fingerprint, host_file.c_str());
        } else if (env_or_empty("FLOAT_ADM_REQUIRE_EXACT") == "1") {
            throw std::runtime_error(
                std::string("FLOAT_ADM_REQUIRE_EXACT=1, but RCPSS fingerprint ") + fingerprint +
                " has no recorded scores (" + host_file + ")");
        } else {
            printf("NOTE: this host's RCPSS fingerprint %s differs from the golden host's and has "
                   "no recorded scores: comparing within a relative tolerance of %g\n",
                   fingerprint, kOtherHostTolerance);
        }
    }
    /* Swap in another host's values; the cases must be golden.json's, in its order. */
    static void replace_expected_frames(const testjson::Value &host)
    {
        auto &cases = golden_->members;
        for (auto &m : cases) {
            if (m.first != "cases")
                continue;
            auto &items = m.second.items;
            const auto &host_cases = host["cases"].items;
            if (host_cases.size() != items.size())
                throw std::runtime_error("host values: case count differs from golden.json");
            for (size_t i = 0; i < items.size(); i++) {
                if (host_cases[i]["fixture"].text != items[i]["fixture"].text ||
                    host_cases[i]["frames"].items.size() != items[i]["frames"].items.size())
                    throw std::runtime_error("host values: case " + std::to_string(i) +
                                             " is not golden.json's");
                for (auto &cm : items[i].members)
                    if (cm.first == "frames")
                        cm.second = host_cases[i]["frames"];
            }
        }
    }
    static void TearDownTestSuite()
    {
        delete golden_;
        golden_ = nullptr;
    }
    void SetUp() override
    {
        if (dir_.empty())
            GTEST_SKIP() << "FLOAT_ADM_CORPUS_DIR is not set (run through `make check-corpus`)";
    }

    const testjson::Value &fixture(const std::string &name) const
    {
        return testsupport::find_fixture(*golden_, name);
    }

    /* Compare one frame's outputs with golden; returns the number that differ. */
    int compare_frame(const testjson::Value &expected,
                      const double (&values)[FLOAT_ADM_NUM_DEBUG_OUTPUTS],
                      const std::string &where) const
    {
        int differing = 0;
        for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
            const char *name = float_adm_output_name(i);
            const testjson::Value &want = expected[name];
            double value = values[i];
            if (want.is_null()) /* libvmaf left aim undefined: ours is defined as 0 */
                continue;
            double golden = want.number();
            bool same;
            if (exact_) {
                uint64_t a, b;
                memcpy(&a, &value, 8);
                memcpy(&b, &golden, 8);
                same = a == b;
            } else {
                same = value == golden ||
                       std::fabs(value - golden) <= kOtherHostTolerance * std::fabs(golden);
            }
            if (!same) {
                differing++;
                char got[32];
                snprintf(got, sizeof(got), "%.17g", value);
                ADD_FAILURE() << where << " " << name << ": got " << got  << ", golden " << want.text;
            }
        }
        return differing;
    }

    static std::string dir_;
    static testjson::Value *golden_;
    static bool exact_;
};

std::string Corpus::dir_;
testjson::Value *Corpus::golden_ = nullptr;
bool Corpus::exact_ = false;

TEST_F(Corpus, EveryCaseThroughTheCApi)
{
    int outputs = 0, differing = 0;
    std::string level;
    for (const auto &c : (*golden_)["cases"].items) {
        const testjson::Value &fx = fixture(c["fixture"].text);
        const testsupport::FrameGeometry g = testsupport::fixture_geometry(fx);
        const auto ref = testsupport::load_luma_frames(dir_ + "/" + fx["name"].text + ".ref.yuv",
                                                       g);
        const auto dis = testsupport::load_luma_frames(dir_ + "/" + fx["name"].text + ".dis.yuv",
                                                       g);
        const size_t frames = c["frames"].items.size();
        ASSERT_GE(ref.size(), frames) << fx["name"].text;
        ASSERT_GE(dis.size(), frames) << fx["name"].text;

        std::string err;
        FloatAdmOptions opts;
        ASSERT_TRUE(testsupport::apply_options(testsupport::option_set(c["options"]), &opts, &err))
            << err;
        char errbuf[256] = "";
        FloatAdmContext *ctx = nullptr;
        ASSERT_EQ(0, float_adm_context_create(&ctx, g.width, g.height, g.depth, &opts, errbuf,
                                              sizeof(errbuf)))
            << errbuf;
        ASSERT_TRUE(apply_simd_level(ctx));
        level = float_adm_context_simd_level(ctx);
        for (size_t f = 0; f < frames; f++) {
            const FloatAdmPlane rp = ref[f].view(), dp = dis[f].view();
            FloatAdmScores s;
            ASSERT_EQ(0, float_adm_score_frame(ctx, &rp, &dp, &s));
            double values[FLOAT_ADM_NUM_DEBUG_OUTPUTS];
            for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
                values[i] = float_adm_output_value(&s, i);
            std::string where = fx["name"].text + " " + std::to_string(c["options"].members.size()) +
                                " option(s), frame " + std::to_string(f);
            differing += compare_frame(c["frames"].items[f], values, where);
            outputs += FLOAT_ADM_NUM_DEBUG_OUTPUTS;
        }
        float_adm_context_free(&ctx);
    }
    printf("C API at SIMD level %s: %d outputs over %zu cases, %d differing (%s)\n", level.c_str(),
           outputs, (*golden_)["cases"].items.size(), differing,
           exact_ ? "bit for bit" : "within tolerance, other host");
    EXPECT_EQ(0, differing);
}

TEST_F(Corpus, EveryCaseThroughFloatAdmScore)
{
    const std::string score_bin = env_or_empty("FLOAT_ADM_SCORE");
    if (score_bin.empty())
        GTEST_SKIP() << "FLOAT_ADM_SCORE is not set";
    const std::string json_path = dir_ + "/cli_case.json";
    int outputs = 0, differing = 0;
    for (const auto &c : (*golden_)["cases"].items) {
        const testjson::Value &fx = fixture(c["fixture"].text);
        std::string cmd = "'" + score_bin + "' --quiet --reference '" + dir_ + "/" + fx["name"].text +
                          ".ref.yuv' --distorted '" + dir_ + "/" + fx["name"].text +
                          ".dis.yuv' --width " + fx["width"].text + " --height " +
                          fx["height"].text + " --pix-fmt " + fx["pix_fmt"].text +
                          " --option debug=true";
        for (const auto &o : c["options"].members)
            cmd += " --option " + o.first + "=" + testsupport::option_text(o.second);
        cmd += " --json '" + json_path + "'";
        ASSERT_EQ(0, std::system(cmd.c_str())) << cmd;
        /* The log names the outputs as libvmaf does for these options (adm2_egl_1.2). */
        std::string err;
        FloatAdmOptions opts;
        ASSERT_TRUE(testsupport::apply_options(testsupport::option_set(c["options"]), &opts, &err))
            << err;
        opts.debug = 1;
        FloatAdmLog *names = nullptr;
        ASSERT_EQ(0, float_adm_log_open(&names, nullptr, FLOAT_ADM_LOG_JSON, &opts, 0, 0, nullptr,
                                        0));
        const testjson::Value out = testsupport::read_json(json_path);
        const auto &frames = out["frames"].items;
        ASSERT_EQ(c["frames"].items.size(), frames.size()) << cmd;
        for (size_t f = 0; f < frames.size(); f++) {
            const testjson::Value &metrics = frames[f]["metrics"];
            double values[FLOAT_ADM_NUM_DEBUG_OUTPUTS];
            for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
                const char *name = float_adm_log_output_name(names, i);
                ASSERT_TRUE(metrics.has(name)) << name << " missing in " << cmd;
                values[i] = metrics[name].number();
            }
            differing += compare_frame(c["frames"].items[f], values,
                                       fx["name"].text + " frame " + std::to_string(f) + " (CLI)");
            outputs += FLOAT_ADM_NUM_DEBUG_OUTPUTS;
        }
        float_adm_log_close(&names, nullptr, 0);
    }
    std::remove(json_path.c_str());
    printf("float_adm_score: %d outputs, %d differing (%s)\n", outputs, differing,
           exact_ ? "bit for bit" : "within tolerance, other host");
    EXPECT_EQ(0, differing);
}

} // namespace
