/*
 * Unit tests: every error path of the C API, and its messages.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "float_adm.h"

namespace {

FloatAdmOptions defaults()
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    return opts;
}

/* Creates a context or returns the error with its message. */
struct Created {
    FloatAdmContext *ctx = nullptr;
    int ret = 0;
    std::string message;
    ~Created() { float_adm_context_free(&ctx); }
};

void create(Created &out, int width, int height, int depth, const FloatAdmOptions *opts)
{
    char err[256] = "";
    out.ret = float_adm_context_create(&out.ctx, width, height, depth, opts, err, sizeof(err));
    out.message = err;
}

TEST(ApiErrors, SizesBelowSeventeenAreRefusedAndSaidSo)
{
    const FloatAdmOptions opts = defaults();
    for (int w : {16, 17}) {
        for (int h : {16, 17}) {
            Created c;
            create(c, w, h, 8, &opts);
            if (w == 17 && h == 17) {
                EXPECT_EQ(c.ret, 0) << c.message;
                EXPECT_NE(c.ctx, nullptr);
                continue;
            }
            EXPECT_EQ(c.ret, FLOAT_ADM_ERROR_UNSUPPORTED) << w << "x" << h;
            EXPECT_EQ(c.ctx, nullptr);
            EXPECT_NE(c.message.find(std::to_string(w) + "x" + std::to_string(h)),
                      std::string::npos) << c.message;
            EXPECT_NE(c.message.find("17x17"), std::string::npos) << c.message;
            EXPECT_NE(c.message.find("too small"), std::string::npos) << c.message;
        }
    }
    Created negative;
    create(negative, -20, 100, 8, &opts);
    EXPECT_EQ(negative.ret, FLOAT_ADM_ERROR_UNSUPPORTED);
}

TEST(ApiErrors, HugeSizesAreRefused)
{
    const FloatAdmOptions opts = defaults();
    Created c;
    create(c, 65537, 17, 8, &opts);
    EXPECT_EQ(c.ret, FLOAT_ADM_ERROR_UNSUPPORTED);
    EXPECT_NE(c.message.find("too large"), std::string::npos) << c.message;
}

TEST(ApiErrors, BitDepths)
{
    const FloatAdmOptions opts = defaults();
    for (int depth : {0, 7, 11, 13, 15, 17, 32}) {
        Created c;
        create(c, 32, 32, depth, &opts);
        EXPECT_EQ(c.ret, FLOAT_ADM_ERROR_UNSUPPORTED) << depth;
        EXPECT_NE(c.message.find("bit depth " + std::to_string(depth)), std::string::npos)
            << c.message;
    }
    for (int depth : {8, 9, 10, 12, 14, 16}) {
        Created c;
        create(c, 32, 32, depth, &opts);
        EXPECT_EQ(c.ret, 0) << depth << ": " << c.message;
    }
}

TEST(ApiErrors, NullArguments)
{
    const FloatAdmOptions opts = defaults();
    char err[256] = "";
    EXPECT_EQ(float_adm_context_create(nullptr, 32, 32, 8, &opts, err, sizeof(err)),
              FLOAT_ADM_ERROR_INVALID);
    Created no_options;
    create(no_options, 32, 32, 8, nullptr);
    EXPECT_EQ(no_options.ret, FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(no_options.ctx, nullptr);
    /* Errors without an error buffer. */
    FloatAdmContext *ctx = nullptr;
    EXPECT_EQ(float_adm_context_create(&ctx, 8, 8, 8, &opts, nullptr, 0),
              FLOAT_ADM_ERROR_UNSUPPORTED);

    Created c;
    create(c, 32, 32, 8, &opts);
    ASSERT_EQ(c.ret, 0);
    std::vector<uint8_t> pixels(32 * 32, 100);
    const FloatAdmPlane plane = {pixels.data(), 32, 1, 0};
    FloatAdmPlane no_data = plane;
    no_data.data = nullptr;
    FloatAdmScores scores;
    EXPECT_EQ(float_adm_score_frame(nullptr, &plane, &plane, &scores), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, nullptr, &plane, &scores), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, &plane, nullptr, &scores), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, &plane, &plane, nullptr), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, &no_data, &plane, &scores), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, &plane, &no_data, &scores), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_score_frame(c.ctx, &plane, &plane, &scores), 0);

    EXPECT_EQ(float_adm_set_executor(nullptr, nullptr, nullptr, 1), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_set_executor(c.ctx, nullptr, nullptr, -1), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_set_executor(c.ctx, nullptr, nullptr, 0), 0);

    float_adm_context_free(nullptr);
    FloatAdmContext *none = nullptr;
    float_adm_context_free(&none);
}

TEST(ApiErrors, InvalidOptionsRefuseTheContext)
{
    FloatAdmOptions opts = defaults();
    opts.enhn_gain_limit = 0.5;
    Created c;
    create(c, 32, 32, 8, &opts);
    EXPECT_EQ(c.ret, FLOAT_ADM_ERROR_RANGE);
    EXPECT_EQ(c.ctx, nullptr);
    EXPECT_NE(c.message.find("adm_enhn_gain_limit"), std::string::npos) << c.message;
}

/* Score a frame of zeros with a plane of the given layout; returns the error code. */
int score_with(FloatAdmContext *ctx, int bytes_per_sample, int shift)
{
    static std::vector<uint16_t> pixels(32 * 32, 0);
    const FloatAdmPlane good = {pixels.data(), 64, 2, 0};
    const FloatAdmPlane tried = {pixels.data(), 64, bytes_per_sample, shift};
    FloatAdmScores scores;
    int ret = float_adm_score_frame(ctx, &tried, &good, &scores);
    if (ret == 0)
        ret = float_adm_score_frame(ctx, &good, &tried, &scores);
    return ret;
}

TEST(ApiErrors, SampleLayoutMustFitTheDepth)
{
    const FloatAdmOptions opts = defaults();
    Created eight;
    create(eight, 32, 32, 8, &opts);
    ASSERT_EQ(eight.ret, 0);
    std::vector<uint8_t> pixels(64 * 32, 0);
    const FloatAdmPlane ok = {pixels.data(), 32, 1, 0};
    FloatAdmScores scores;
    for (const FloatAdmPlane &bad : {FloatAdmPlane{pixels.data(), 64, 2, 0},
                                      FloatAdmPlane{pixels.data(), 32, 1, 1},
                                      FloatAdmPlane{pixels.data(), 32, 1, -1},
                                      FloatAdmPlane{pixels.data(), 32, 0, 0},
                                      FloatAdmPlane{pixels.data(), 32, 4, 0}}) {
        EXPECT_EQ(float_adm_score_frame(eight.ctx, &bad, &ok, &scores), FLOAT_ADM_ERROR_INVALID)
            << bad.bytes_per_sample << " bytes, shift " << bad.shift;
        EXPECT_EQ(float_adm_score_frame(eight.ctx, &ok, &bad, &scores), FLOAT_ADM_ERROR_INVALID);
    }

    const struct {
        int depth, max_shift;
    } wide[] = {{9, 7}, {10, 6}, {12, 4}, {14, 2}, {16, 0}};
    for (const auto &w : wide) {
        Created c;
        create(c, 32, 32, w.depth, &opts);
        ASSERT_EQ(c.ret, 0) << c.message;
        EXPECT_EQ(score_with(c.ctx, 1, 0), FLOAT_ADM_ERROR_INVALID) << w.depth;
        EXPECT_EQ(score_with(c.ctx, 2, -1), FLOAT_ADM_ERROR_INVALID) << w.depth;
        EXPECT_EQ(score_with(c.ctx, 2, w.max_shift + 1), FLOAT_ADM_ERROR_INVALID) << w.depth;
        EXPECT_EQ(score_with(c.ctx, 2, w.max_shift), 0) << w.depth;
        EXPECT_EQ(score_with(c.ctx, 2, 0), 0) << w.depth;
    }
}

TEST(ApiErrors, StrerrorNamesEveryCode)
{
    EXPECT_STREQ(float_adm_strerror(0), "success");
    for (int code : {FLOAT_ADM_ERROR_INVALID, FLOAT_ADM_ERROR_NOMEM, FLOAT_ADM_ERROR_RANGE,
                     FLOAT_ADM_ERROR_NOT_FOUND, FLOAT_ADM_ERROR_UNSUPPORTED, FLOAT_ADM_ERROR_IO,
                     FLOAT_ADM_ERROR_BUSY}) {
        EXPECT_STRNE(float_adm_strerror(code), "unknown error") << code;
        EXPECT_STRNE(float_adm_strerror(code), "success") << code;
    }
    EXPECT_STREQ(float_adm_strerror(-9999), "unknown error");
}

TEST(ApiErrors, CodeListNamesEveryCodeOnce)
{
    const std::vector<std::pair<int, std::string>> want = {
        {FLOAT_ADM_ERROR_INVALID, "INVALID"},
        {FLOAT_ADM_ERROR_NOMEM, "NOMEM"},
        {FLOAT_ADM_ERROR_RANGE, "RANGE"},
        {FLOAT_ADM_ERROR_NOT_FOUND, "NOT_FOUND"},
        {FLOAT_ADM_ERROR_UNSUPPORTED, "UNSUPPORTED"},
        {FLOAT_ADM_ERROR_IO, "IO"},
        {FLOAT_ADM_ERROR_BUSY, "BUSY"},
        {FLOAT_ADM_ERROR_AGAIN, "AGAIN"},
        {FLOAT_ADM_ERROR_OUTPUT_INPUT, "OUTPUT_INPUT"},
        {FLOAT_ADM_ERROR_OUTPUT_NOT_FILE, "OUTPUT_NOT_FILE"},
        {FLOAT_ADM_ERROR_OUTPUT_SYMLINK, "OUTPUT_SYMLINK"},
        {FLOAT_ADM_ERROR_OUTPUT_NOT_OURS, "OUTPUT_NOT_OURS"},
        {FLOAT_ADM_ERROR_OUTPUT_SHARED, "OUTPUT_SHARED"},
        {FLOAT_ADM_ERROR_INPUT_SHARED, "INPUT_SHARED"},
    };
    std::vector<std::pair<int, std::string>> listed;
    for (int i = 0; float_adm_error_code(i); i++)
        listed.emplace_back(float_adm_error_code(i), float_adm_error_name(float_adm_error_code(i)));
    EXPECT_EQ(listed, want);
    EXPECT_EQ(float_adm_error_name(0), nullptr);
    EXPECT_EQ(float_adm_error_code(-1), 0);
}

TEST(ApiErrors, FrameChecksTakeAnyIntegerAndNameTheLimit)
{
    char message[256] = "";
    EXPECT_EQ(float_adm_check_frame(1920, 1080, 10, message, sizeof(message)), 0);
    EXPECT_EQ(float_adm_check_frame(INT64_C(1) << 31, 17, 8, message, sizeof(message)),
              FLOAT_ADM_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(message).find("2147483648x17 is too large (at most 65536x65536)"),
              std::string::npos)
        << message;
    EXPECT_EQ(float_adm_check_frame(17, 17, (INT64_C(1) << 32) + 8, message, sizeof(message)),
              FLOAT_ADM_ERROR_UNSUPPORTED);
    EXPECT_NE(std::string(message).find("4294967304"), std::string::npos) << message;
    EXPECT_EQ(float_adm_check_frame(17, -5, 8, message, sizeof(message)),
              FLOAT_ADM_ERROR_UNSUPPORTED);
}

TEST(ApiVersion, MatchesTheHeader)
{
    const std::string expected = std::to_string(FLOAT_ADM_VERSION_MAJOR) + "." +
                                 std::to_string(FLOAT_ADM_VERSION_MINOR) + "." +
                                 std::to_string(FLOAT_ADM_VERSION_PATCH);
    EXPECT_EQ(float_adm_version(), expected);
}

TEST(ApiHost, RcpFingerprintIsSha256HexOrNone)
{
    char hex[65];
    memset(hex, 'x', sizeof(hex));
    float_adm_rcp_fingerprint(hex);
    const std::string fingerprint = hex;
    if (fingerprint != "none") {
        ASSERT_EQ(fingerprint.size(), 64u);
        EXPECT_EQ(fingerprint.find_first_not_of("0123456789abcdef"), std::string::npos);
    }
}

} // namespace

namespace {

/* In a child that may start only two more threads (RLIMIT_NPROC, as an unprivileged
 * user: root is not held to it), asks for eight: 0 where set_threads says NOMEM,
 * 1 where it says anything else (a process that aborts ends with a signal). */
void ask_more_threads_than_granted()
{
    if (geteuid() == 0 && setuid(65534) != 0)
        _exit(2);
    const struct rlimit limit = {3, 3};
    if (setrlimit(RLIMIT_NPROC, &limit) != 0)
        _exit(2);
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmContext *ctx = nullptr;
    char err[256];
    if (float_adm_context_create(&ctx, 64, 48, 8, &opts, err, sizeof(err)) < 0)
        _exit(2);
    const int ret = float_adm_context_set_threads(ctx, 8);
    float_adm_context_free(&ctx);
    _exit(ret == FLOAT_ADM_ERROR_NOMEM ? 0 : 1);
}

} // namespace

TEST(ApiErrors, ThreadsTheSystemRefusesAreNomemNotAnAbort)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root, to run the child as an unprivileged user held to RLIMIT_NPROC";
    EXPECT_EXIT(ask_more_threads_than_granted(), testing::ExitedWithCode(0), "");
}
