/*
 * Unit tests: the log writer (JSON, CSV, XML), its pooling, finishing and going
 * on, and its refusals and write errors.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_reader.h"
#include "float_adm.h"

namespace {

/* A private directory for the test's files, removed with them. */
class LogTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/test_log.XXXXXX";
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        ASSERT_NE(mkdtemp(buffer.data()), nullptr) << std::strerror(errno);
        dir_ = buffer.data();
    }
    void TearDown() override
    {
        for (const std::string &file : files_)
            unlink(file.c_str());
        rmdir(dir_.c_str());
    }
    std::string path(const std::string &name)
    {
        files_.push_back(dir_ + "/" + name);
        return files_.back();
    }

    std::string dir_;
    std::vector<std::string> files_;
};

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> split(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

bool same_bits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

/* Frame k's scores: every output distinct, with values whose sums round. */
FloatAdmScores scores_of(int k)
{
    FloatAdmScores s;
    double *fields[FLOAT_ADM_NUM_DEBUG_OUTPUTS] = {
        &s.adm2, &s.aim, &s.adm3, &s.adm_scale[0], &s.adm_scale[1], &s.adm_scale[2],
        &s.adm_scale[3], &s.adm, &s.adm_num, &s.adm_den, &s.adm_num_scale[0],
        &s.adm_den_scale[0], &s.adm_num_scale[1], &s.adm_den_scale[1], &s.adm_num_scale[2],
        &s.adm_den_scale[2], &s.adm_num_scale[3], &s.adm_den_scale[3],
    };
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
        *fields[i] = 0.1 * (k + 1) + 1.0 / (3.0 + i) + (k % 2 ? 1e-9 * i : 1e3 * i);
    return s;
}

struct Log {
    FloatAdmLog *log = nullptr;
    char err[512] = "";
    ~Log() { float_adm_log_close(&log, nullptr, 0); }
};

int open_log(Log &l, const std::string &path, FloatAdmLogFormat format, int outputs = 7)
{
    return float_adm_log_open(&l.log, path.c_str(), format, outputs, 576, 324, l.err,
                              sizeof(l.err));
}

void log_frames(Log &l, int first, int count)
{
    for (int k = first; k < first + count; k++) {
        const FloatAdmScores s = scores_of(k);
        ASSERT_EQ(float_adm_log_frame(l.log, k, &s, l.err, sizeof(l.err)), 0) << l.err;
    }
}

/* What libvmaf's pooling gives for frames 0..n-1 of output i, by hand. */
FloatAdmPooled hand_pooled(int output, const std::vector<int> &frames)
{
    double sum = 0., inv_sum = 0., min = 0., max = 0.;
    for (size_t j = 0; j < frames.size(); j++) {
        const FloatAdmScores s = scores_of(frames[j]);
        const double x = float_adm_output_value(&s, output);
        sum = sum + x;
        inv_sum = inv_sum + 1.0 / (x + 1.0);
        min = j == 0 || x < min ? x : min;
        max = j == 0 || x > max ? x : max;
    }
    const double n = static_cast<double>(frames.size());
    return FloatAdmPooled{min, max, sum / n, n / inv_sum - 1.0};
}

void expect_pooled_json(const testjson::Value &doc, int outputs, const std::vector<int> &frames)
{
    const testjson::Value &pooled = doc["pooled_metrics"];
    ASSERT_EQ(pooled.members.size(), static_cast<size_t>(outputs));
    for (int i = 0; i < outputs; i++) {
        ASSERT_EQ(pooled.members[i].first, float_adm_output_name(i));
        const testjson::Value &p = pooled.members[i].second;
        const FloatAdmPooled want = hand_pooled(i, frames);
        EXPECT_TRUE(same_bits(p["min"].number(), want.min)) << i;
        EXPECT_TRUE(same_bits(p["max"].number(), want.max)) << i;
        EXPECT_TRUE(same_bits(p["mean"].number(), want.mean)) << i;
        EXPECT_TRUE(same_bits(p["harmonic_mean"].number(), want.harmonic_mean)) << i;
    }
}

/* The frames array holds exactly these frame numbers, each scored with scores_of. */
void expect_frames_json(const testjson::Value &doc, int outputs, const std::vector<int> &frames)
{
    const testjson::Value &list = doc["frames"];
    ASSERT_EQ(list.kind, testjson::Value::kArray);
    ASSERT_EQ(list.items.size(), frames.size());
    for (size_t j = 0; j < frames.size(); j++) {
        const testjson::Value &frame = list.items[j];
        EXPECT_EQ(frame["frameNum"].text, std::to_string(frames[j]));
        const testjson::Value &metrics = frame["metrics"];
        ASSERT_EQ(metrics.members.size(), static_cast<size_t>(outputs));
        const FloatAdmScores s = scores_of(frames[j]);
        for (int i = 0; i < outputs; i++) {
            EXPECT_EQ(metrics.members[i].first, float_adm_output_name(i));
            EXPECT_TRUE(same_bits(metrics.members[i].second.number(),
                                  float_adm_output_value(&s, i)));
        }
    }
}

TEST_F(LogTest, JsonLayoutParses)
{
    for (int outputs : {FLOAT_ADM_NUM_OUTPUTS, FLOAT_ADM_NUM_DEBUG_OUTPUTS}) {
        const std::string file = path("log" + std::to_string(outputs) + ".json");
        {
            Log l;
            ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON, outputs), 0) << l.err;
            log_frames(l, 0, 3);
            ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
            EXPECT_EQ(l.log, nullptr);
        }
        const testjson::Value doc = testjson::parse(read_file(file));
        ASSERT_EQ(doc.members.size(), 4u);
        EXPECT_EQ(doc.members[0].first, "version");
        EXPECT_EQ(doc["version"].text, std::string("float_adm ") + float_adm_version());
        expect_frames_json(doc, outputs, {0, 1, 2});
        expect_pooled_json(doc, outputs, {0, 1, 2});
        EXPECT_EQ(doc["aggregate_metrics"].kind, testjson::Value::kObject);
        EXPECT_TRUE(doc["aggregate_metrics"].members.empty());
    }
}

TEST_F(LogTest, JsonWritesNanAndInfinityAsNull)
{
    const std::string file = path("nan.json");
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
        FloatAdmScores s = scores_of(0);
        s.aim = std::numeric_limits<double>::quiet_NaN();
        s.adm3 = std::numeric_limits<double>::infinity();
        ASSERT_EQ(float_adm_log_frame(l.log, 0, &s, l.err, sizeof(l.err)), 0) << l.err;
    }
    const testjson::Value doc = testjson::parse(read_file(file));
    EXPECT_TRUE(doc["frames"].items[0]["metrics"]["aim"].is_null());
    EXPECT_TRUE(doc["frames"].items[0]["metrics"]["adm3"].is_null());
    EXPECT_TRUE(doc["pooled_metrics"]["aim"]["mean"].is_null());
    EXPECT_FALSE(doc["pooled_metrics"]["adm2"]["mean"].is_null());
}

TEST_F(LogTest, JsonWithoutFramesIsComplete)
{
    const std::string file = path("empty.json");
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
    }
    const testjson::Value doc = testjson::parse(read_file(file));
    EXPECT_TRUE(doc["frames"].items.empty());
    EXPECT_TRUE(doc["pooled_metrics"].members.empty());
}

TEST_F(LogTest, CsvLayout)
{
    const std::string file = path("log.csv");
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_CSV), 0) << l.err;
        log_frames(l, 0, 3);
    }
    const std::vector<std::string> lines = split(read_file(file), '\n');
    ASSERT_EQ(lines.size(), 5u);  /* header, 3 frames, nothing after the last '\n' */
    EXPECT_EQ(lines[0], "Frame,adm2,aim,adm3,adm_scale0,adm_scale1,adm_scale2,adm_scale3,");
    EXPECT_EQ(lines[4], "");
    for (int k = 0; k < 3; k++) {
        const std::vector<std::string> fields = split(lines[1 + k], ',');
        ASSERT_EQ(fields.size(), 9u);  /* frame, 7 values, the empty field after the last ',' */
        EXPECT_EQ(fields[0], std::to_string(k));
        const FloatAdmScores s = scores_of(k);
        for (int i = 0; i < 7; i++)
            EXPECT_TRUE(same_bits(std::strtod(fields[1 + i].c_str(), nullptr),
                                  float_adm_output_value(&s, i)));
        EXPECT_EQ(fields[8], "");
    }
}

/* name="value" attributes of one XML line, in order. */
std::vector<std::pair<std::string, std::string>> attributes(const std::string &line)
{
    std::vector<std::pair<std::string, std::string>> out;
    size_t pos = line.find(' ', line.find('<'));
    while (pos != std::string::npos) {
        const size_t equals = line.find("=\"", pos);
        if (equals == std::string::npos)
            break;
        const size_t name_start = line.find_first_not_of(' ', pos);
        const size_t value_end = line.find('"', equals + 2);
        out.emplace_back(line.substr(name_start, equals - name_start),
                         line.substr(equals + 2, value_end - equals - 2));
        pos = value_end + 1;
    }
    return out;
}

TEST_F(LogTest, XmlLayout)
{
    const std::string file = path("log.xml");
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_XML), 0) << l.err;
        log_frames(l, 0, 2);
    }
    const std::vector<std::string> lines = split(read_file(file), '\n');
    const std::string version = float_adm_version();
    ASSERT_EQ(lines.size(), 18u);  /* nothing after the last '\n' */
    EXPECT_EQ(lines[0], "<VMAF version=\"float_adm " + version + "\">");
    EXPECT_EQ(lines[1], "  <params qualityWidth=\"576\" qualityHeight=\"324\" />");
    EXPECT_EQ(lines[2], "  <frames>");
    for (int k = 0; k < 2; k++) {
        const std::string &line = lines[3 + k];
        EXPECT_EQ(line.rfind("    <frame ", 0), 0u) << line;
        EXPECT_EQ(line.substr(line.size() - 2), "/>");
        const auto attrs = attributes(line);
        ASSERT_EQ(attrs.size(), 8u) << line;
        EXPECT_EQ(attrs[0], std::make_pair(std::string("frameNum"), std::to_string(k)));
        const FloatAdmScores s = scores_of(k);
        for (int i = 0; i < 7; i++) {
            EXPECT_EQ(attrs[1 + i].first, float_adm_output_name(i));
            EXPECT_TRUE(same_bits(std::strtod(attrs[1 + i].second.c_str(), nullptr),
                                  float_adm_output_value(&s, i)));
        }
    }
    EXPECT_EQ(lines[5], "  </frames>");
    EXPECT_EQ(lines[6], "  <pooled_metrics>");
    for (int i = 0; i < 7; i++) {
        const auto attrs = attributes(lines[7 + i]);
        ASSERT_EQ(attrs.size(), 5u) << lines[7 + i];
        EXPECT_EQ(attrs[0].second, float_adm_output_name(i));
        const FloatAdmPooled want = hand_pooled(i, {0, 1});
        EXPECT_TRUE(same_bits(std::strtod(attrs[1].second.c_str(), nullptr), want.min));
        EXPECT_TRUE(same_bits(std::strtod(attrs[2].second.c_str(), nullptr), want.max));
        EXPECT_TRUE(same_bits(std::strtod(attrs[3].second.c_str(), nullptr), want.mean));
        EXPECT_TRUE(same_bits(std::strtod(attrs[4].second.c_str(), nullptr),
                              want.harmonic_mean));
    }
    EXPECT_EQ(lines[14], "  </pooled_metrics>");
    EXPECT_EQ(lines[15], "  <aggregate_metrics />");
    EXPECT_EQ(lines[16], "</VMAF>");
}

TEST_F(LogTest, PooledEqualsHandComputationBitForBit)
{
    const std::vector<int> frames = {0, 1, 2, 3, 4, 5, 6};
    Log l;
    ASSERT_EQ(float_adm_log_open(&l.log, nullptr, FLOAT_ADM_LOG_JSON,
                                 FLOAT_ADM_NUM_DEBUG_OUTPUTS, 0, 0, l.err, sizeof(l.err)), 0)
        << l.err;
    FloatAdmPooled pooled;
    EXPECT_EQ(float_adm_log_pooled(l.log, 0, &pooled), FLOAT_ADM_ERROR_INVALID);
    log_frames(l, 0, static_cast<int>(frames.size()));
    EXPECT_EQ(float_adm_log_frame_count(l.log), frames.size());
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
        ASSERT_EQ(float_adm_log_pooled(l.log, i, &pooled), 0);
        const FloatAdmPooled want = hand_pooled(i, frames);
        EXPECT_TRUE(same_bits(pooled.min, want.min)) << i;
        EXPECT_TRUE(same_bits(pooled.max, want.max)) << i;
        EXPECT_TRUE(same_bits(pooled.mean, want.mean)) << i;
        EXPECT_TRUE(same_bits(pooled.harmonic_mean, want.harmonic_mean)) << i;
    }
    EXPECT_EQ(float_adm_log_pooled(l.log, -1, &pooled), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_log_pooled(l.log, FLOAT_ADM_NUM_DEBUG_OUTPUTS, &pooled),
              FLOAT_ADM_ERROR_INVALID);
    /* No file: finish and close have nothing to write. */
    EXPECT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    EXPECT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
}

TEST_F(LogTest, FinishThenContinueKeepsOneFileInOrder)
{
    const std::string file = path("continue.json");
    Log l;
    ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 2);
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;  /* no-op */
    testjson::Value doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1});
    expect_pooled_json(doc, 7, {0, 1});

    log_frames(l, 2, 2);
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1, 2, 3});
    expect_pooled_json(doc, 7, {0, 1, 2, 3});

    log_frames(l, 4, 1);  /* close finishes again */
    ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1, 2, 3, 4});
    expect_pooled_json(doc, 7, {0, 1, 2, 3, 4});
}

TEST_F(LogTest, FinishThenContinueXmlAndCsv)
{
    const std::string xml = path("continue.xml"), csv = path("continue.csv");
    const std::string files[2] = {xml, csv};
    const FloatAdmLogFormat formats[2] = {FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_CSV};
    for (int f = 0; f < 2; f++) {
        const std::string straight = path("straight" + std::to_string(f));
        {
            Log l;
            ASSERT_EQ(open_log(l, straight, formats[f]), 0) << l.err;
            log_frames(l, 0, 3);
        }
        Log l;
        ASSERT_EQ(open_log(l, files[f], formats[f]), 0) << l.err;
        log_frames(l, 0, 1);
        ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
        log_frames(l, 1, 1);
        ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
        log_frames(l, 2, 1);
        ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
        EXPECT_EQ(read_file(files[f]), read_file(straight));
    }
}

TEST_F(LogTest, ContinuingAfterFinishOnAPipeIsAnError)
{
    const std::string fifo = path("fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    Log l;
    ASSERT_EQ(open_log(l, fifo, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 1);
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    const FloatAdmScores s = scores_of(1);
    EXPECT_EQ(float_adm_log_frame(l.log, 1, &s, l.err, sizeof(l.err)), FLOAT_ADM_ERROR_IO);
    EXPECT_NE(std::string(l.err).find(fifo), std::string::npos) << l.err;
    EXPECT_NE(std::string(l.err).find("cannot seek back"), std::string::npos) << l.err;
    EXPECT_EQ(float_adm_log_frame_count(l.log), 2u);  /* pooled all the same */
    EXPECT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), FLOAT_ADM_ERROR_IO);
    close(reader);
}

TEST_F(LogTest, DevFullFailsAtTheFirstFrameNamingThePath)
{
    if (access("/dev/full", W_OK) != 0)
        GTEST_SKIP() << "no /dev/full";
    for (FloatAdmLogFormat format : {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV, FLOAT_ADM_LOG_XML}) {
        Log l;
        ASSERT_EQ(open_log(l, "/dev/full", format), 0) << l.err;
        const FloatAdmScores s = scores_of(0);
        EXPECT_EQ(float_adm_log_frame(l.log, 0, &s, l.err, sizeof(l.err)), FLOAT_ADM_ERROR_IO);
        EXPECT_EQ(std::string(l.err).rfind("/dev/full: cannot write: ", 0), 0u) << l.err;
        EXPECT_NE(std::string(l.err).find(std::strerror(ENOSPC)), std::string::npos) << l.err;
        l.err[0] = '\0';
        EXPECT_EQ(float_adm_log_skipped(l.log, 1, "x", l.err, sizeof(l.err)),
                  FLOAT_ADM_ERROR_IO);
        EXPECT_NE(std::string(l.err).find("/dev/full"), std::string::npos) << l.err;
        l.err[0] = '\0';
        EXPECT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), FLOAT_ADM_ERROR_IO);
        EXPECT_NE(std::string(l.err).find("/dev/full"), std::string::npos) << l.err;
        EXPECT_EQ(l.log, nullptr);
    }
}

TEST_F(LogTest, AFileOpenInTheProcessIsRefusedAndLeftIntact)
{
    const std::string input = path("input.yuv");
    const std::string content = "frames that must survive\n";
    {
        std::ofstream out(input, std::ios::binary);
        out << content;
    }
    FILE *held = std::fopen(input.c_str(), "rb");
    ASSERT_NE(held, nullptr);
    for (FloatAdmLogFormat format : {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV, FLOAT_ADM_LOG_XML}) {
        Log l;
        EXPECT_EQ(open_log(l, input, format), FLOAT_ADM_ERROR_INVALID);
        EXPECT_EQ(l.log, nullptr);
        EXPECT_NE(std::string(l.err).find(input), std::string::npos) << l.err;
        EXPECT_NE(std::string(l.err).find("open in this process"), std::string::npos) << l.err;
    }
    /* Another name for the same file (a hard link) is the same file. */
    const std::string link_name = path("link.json");
    ASSERT_EQ(link(input.c_str(), link_name.c_str()), 0) << std::strerror(errno);
    {
        Log l;
        EXPECT_EQ(open_log(l, link_name, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_INVALID);
    }
    EXPECT_EQ(read_file(input), content);
    std::fclose(held);

    Log l;
    EXPECT_EQ(open_log(l, input, FLOAT_ADM_LOG_JSON), 0) << l.err;
}

TEST_F(LogTest, TwoLogsOnOneFileAreRefused)
{
    const std::string file = path("twice.json");
    Log first, second;
    ASSERT_EQ(open_log(first, file, FLOAT_ADM_LOG_JSON), 0) << first.err;
    EXPECT_EQ(open_log(second, file, FLOAT_ADM_LOG_CSV), FLOAT_ADM_ERROR_INVALID);
}

TEST_F(LogTest, SkippedFramesAreLoggedNotPooled)
{
    const char *reason = "corrupt \"frame\" <7> & \\ more";
    const std::string json = path("skip.json"), csv = path("skip.csv"), xml = path("skip.xml");
    const std::string files[3] = {json, csv, xml};
    const FloatAdmLogFormat formats[3] = {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV,
                                          FLOAT_ADM_LOG_XML};
    for (int f = 0; f < 3; f++) {
        Log l;
        ASSERT_EQ(open_log(l, files[f], formats[f]), 0) << l.err;
        log_frames(l, 0, 1);
        ASSERT_EQ(float_adm_log_skipped(l.log, 1, reason, l.err, sizeof(l.err)), 0) << l.err;
        log_frames(l, 2, 1);
        EXPECT_EQ(float_adm_log_frame_count(l.log), 2u);
        FloatAdmPooled pooled;
        ASSERT_EQ(float_adm_log_pooled(l.log, 0, &pooled), 0);
        EXPECT_TRUE(same_bits(pooled.mean, hand_pooled(0, {0, 2}).mean));
        ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    }

    const testjson::Value doc = testjson::parse(read_file(json));
    ASSERT_EQ(doc["frames"].items.size(), 3u);
    const testjson::Value &skipped = doc["frames"].items[1];
    EXPECT_EQ(skipped["frameNum"].text, "1");
    EXPECT_EQ(skipped["skipped"].text, reason);
    EXPECT_EQ(skipped["metrics"].kind, testjson::Value::kObject);
    EXPECT_TRUE(skipped["metrics"].members.empty());
    EXPECT_EQ(doc["frames"].items[2]["frameNum"].text, "2");
    expect_pooled_json(doc, 7, {0, 2});

    const std::vector<std::string> rows = split(read_file(csv), '\n');
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[2], "1,,,,,,,,");

    const std::vector<std::string> lines = split(read_file(xml), '\n');
    EXPECT_EQ(lines[4], "    <frame frameNum=\"1\" skipped=\"corrupt &quot;frame&quot; "
                        "&lt;7&gt; &amp; \\ more\" />");
}

TEST_F(LogTest, BadArgumentsAreRefused)
{
    Log l;
    EXPECT_EQ(float_adm_log_open(nullptr, nullptr, FLOAT_ADM_LOG_JSON, 7, 0, 0, l.err,
                                 sizeof(l.err)), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(open_log(l, path("bad.json"), FLOAT_ADM_LOG_JSON, 8), FLOAT_ADM_ERROR_INVALID);
    EXPECT_NE(std::string(l.err).find("8"), std::string::npos) << l.err;
    EXPECT_EQ(open_log(l, path("bad2.json"), static_cast<FloatAdmLogFormat>(7)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(open_log(l, "", FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(open_log(l, dir_ + "/no/such/dir.json", FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_IO);
    EXPECT_NE(std::string(l.err).find("no/such/dir.json: cannot write: "), std::string::npos)
        << l.err;
    EXPECT_EQ(open_log(l, dir_, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_IO);
    EXPECT_EQ(l.log, nullptr);
    EXPECT_EQ(float_adm_log_frame(nullptr, 0, nullptr, nullptr, 0), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_log_close(&l.log, nullptr, 0), 0);
    EXPECT_STRNE(float_adm_strerror(FLOAT_ADM_ERROR_IO), "unknown error");
}

} // namespace
