/*
 * Unit tests: the log writer (JSON, XML, CSV, sub), its names of the outputs, its
 * pooling, finishing and going on, and its refusals and write errors.
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
#include <thread>
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

/* The default options, with debug for 18 outputs. */
FloatAdmOptions options_for(int outputs)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    opts.debug = outputs == FLOAT_ADM_NUM_DEBUG_OUTPUTS;
    return opts;
}

int open_log(Log &l, const std::string &path, FloatAdmLogFormat format, int outputs = 7)
{
    const FloatAdmOptions opts = options_for(outputs);
    return float_adm_log_open(&l.log, path.c_str(), format, &opts, 576, 324, l.err,
                              sizeof(l.err));
}

/* The file's text with the JSON or XML header's fps value cut out (it is timing). */
std::string without_fps(const std::string &text)
{
    for (const char *key : {"\"fps\": ", "<fyi fps=\""}) {
        const size_t start = text.find(key);
        if (start == std::string::npos)
            continue;
        const size_t end = text.find('\n', start);
        return text.substr(0, start) + text.substr(end);
    }
    return text;
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
        /* libvmaf's keys, in its order. */
        ASSERT_EQ(doc.members.size(), 5u);
        const char *keys[] = {"version", "fps", "frames", "pooled_metrics", "aggregate_metrics"};
        for (size_t i = 0; i < 5; i++)
            EXPECT_EQ(doc.members[i].first, keys[i]);
        EXPECT_EQ(doc["version"].text, std::string("float_adm ") + float_adm_version());
        EXPECT_EQ(doc["fps"].kind, testjson::Value::kNumber);
        EXPECT_GE(doc["fps"].number(), 0.);
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

TEST_F(LogTest, TimestampsWhereTheCallerKnowsThem)
{
    const std::string json = path("timed.json"), csv = path("timed.csv");
    {
        Log j, c;
        ASSERT_EQ(open_log(j, json, FLOAT_ADM_LOG_JSON), 0) << j.err;
        ASSERT_EQ(open_log(c, csv, FLOAT_ADM_LOG_CSV), 0) << c.err;
        const FloatAdmScores s = scores_of(0);
        for (Log *l : {&j, &c}) {
            ASSERT_EQ(float_adm_log_frame_at(l->log, 0, 1.5, &s, l->err, sizeof(l->err)), 0);
            ASSERT_EQ(float_adm_log_frame_at(l->log, 1, NAN, &s, l->err, sizeof(l->err)), 0);
        }
    }
    const std::string text = read_file(json);
    EXPECT_NE(text.find("\"frameNum\": 0,\n      \"timestamp\": 1.5,\n      \"metrics\""),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("\"timestamp\"", text.find("\"frameNum\": 1")), std::string::npos);
    const testjson::Value doc = testjson::parse(text);
    EXPECT_EQ(doc["frames"].items.size(), 2u);
    EXPECT_EQ(read_file(csv).find("1.5"), std::string::npos);
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
    std::vector<std::string> lines = split(read_file(file), '\n');
    const std::string version = float_adm_version();
    ASSERT_EQ(lines.size(), 19u);  /* nothing after the last '\n' */
    EXPECT_EQ(lines[0], "<VMAF version=\"float_adm " + version + "\">");
    EXPECT_EQ(lines[1], "  <params qualityWidth=\"576\" qualityHeight=\"324\" />");
    /* <fyi fps="F" />, the padding after the quote. */
    const auto fyi = attributes(lines[2]);
    ASSERT_EQ(fyi.size(), 1u) << lines[2];
    EXPECT_EQ(fyi[0].first, "fps");
    EXPECT_EQ(lines[2].rfind("  <fyi fps=\"", 0), 0u) << lines[2];
    EXPECT_EQ(lines[2].substr(lines[2].size() - 3), " />") << lines[2];
    char *end = nullptr;
    EXPECT_GE(std::strtod(fyi[0].second.c_str(), &end), 0.) << lines[2];
    EXPECT_EQ(*end, '\0') << lines[2];
    lines.erase(lines.begin() + 2);
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
    const FloatAdmOptions opts = options_for(FLOAT_ADM_NUM_DEBUG_OUTPUTS);
    ASSERT_EQ(float_adm_log_open(&l.log, nullptr, FLOAT_ADM_LOG_JSON, &opts, 0, 0, l.err,
                                 sizeof(l.err)), 0)
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

/* What a log wrote so far lies in its temporary, .NAME.tmp beside the path: the path
 * itself gets the whole log when the log closes. */
std::string temporary_of(const std::string &file)
{
    const size_t slash = file.find_last_of('/');
    return file.substr(0, slash + 1) + "." + file.substr(slash + 1) + ".tmp";
}

TEST_F(LogTest, FinishThenContinueKeepsOneFileInOrder)
{
    const std::string file = path("continue.json");
    Log l;
    ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 2);
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;  /* no-op */
    testjson::Value doc = testjson::parse(read_file(temporary_of(file)));
    expect_frames_json(doc, 7, {0, 1});
    expect_pooled_json(doc, 7, {0, 1});

    log_frames(l, 2, 2);
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    doc = testjson::parse(read_file(temporary_of(file)));
    expect_frames_json(doc, 7, {0, 1, 2, 3});
    expect_pooled_json(doc, 7, {0, 1, 2, 3});

    log_frames(l, 4, 1); /* close finishes again, and lands the file */
    struct stat st;
    EXPECT_NE(stat(file.c_str(), &st), 0) << "the log is at its path before it closes";
    ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1, 2, 3, 4});
    expect_pooled_json(doc, 7, {0, 1, 2, 3, 4});
    EXPECT_NE(stat(temporary_of(file).c_str(), &st), 0) << "the temporary stays";
}

/* A graph rebuilt mid-stream: the next user of the path takes the log over, and
 * numbering and pooling go on in the same temporary; the log lands once, at its end. */
TEST_F(LogTest, SharedLogGoesOnAfterRelease)
{
    const std::string file = path("shared.json");
    const FloatAdmOptions opts = options_for(7);
    char err[512] = "";
    FloatAdmLog *first = nullptr, *second = nullptr, *busy = nullptr;
    uint64_t next = 99;
    ASSERT_EQ(float_adm_log_acquire(&first, file.c_str(), FLOAT_ADM_LOG_JSON, &opts, 576, 324,
                                    &next, err, sizeof(err)), 0) << err;
    EXPECT_EQ(next, 0u);
    EXPECT_EQ(float_adm_log_acquire(&busy, file.c_str(), FLOAT_ADM_LOG_JSON, &opts, 576, 324,
                                    &next, err, sizeof(err)), FLOAT_ADM_ERROR_BUSY);
    EXPECT_EQ(busy, nullptr);
    Log a{first};
    log_frames(a, 0, 2);
    ASSERT_EQ(float_adm_log_release(&a.log, 3, err, sizeof(err)), 0) << err;
    struct stat st;
    EXPECT_NE(stat(file.c_str(), &st), 0) << "a released log landed";
    /* Kept, its temporary still locked: no other writer takes the path meanwhile. */
    EXPECT_EQ(float_adm_log_open(&busy, file.c_str(), FLOAT_ADM_LOG_CSV, &opts, 576, 324, err,
                                 sizeof(err)),
              FLOAT_ADM_ERROR_BUSY);

    ASSERT_EQ(float_adm_log_acquire(&second, file.c_str(), FLOAT_ADM_LOG_JSON, &opts, 576, 324,
                                    &next, err, sizeof(err)), 0) << err;
    EXPECT_EQ(second, first);
    EXPECT_EQ(next, 3u);
    Log b{second};
    log_frames(b, 3, 2);
    ASSERT_EQ(float_adm_log_end(&b.log, err, sizeof(err)), 0) << err;
    const testjson::Value doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1, 3, 4});
    expect_pooled_json(doc, 7, {0, 1, 3, 4});
}

/* A rebuilt filter that cannot go on ends the log its predecessor released as
 * incomplete; with none released, nothing is written. */
TEST_F(LogTest, AReleasedLogIsAbandonedByTheNextUserThatFails)
{
    const std::string file = path("rebuilt.json");
    const FloatAdmOptions opts = options_for(7);
    char err[512] = "";
    uint64_t next = 0;
    EXPECT_EQ(
        float_adm_log_abandon_released(file.c_str(), "the rebuilt graph failed", err, sizeof(err)),
        0)
        << err;
    struct stat st;
    EXPECT_NE(stat(file.c_str(), &st), 0);
    Log a;
    ASSERT_EQ(float_adm_log_acquire(&a.log, file.c_str(), FLOAT_ADM_LOG_JSON, &opts, 576, 324,
                                    &next, err, sizeof(err)),
              0)
        << err;
    log_frames(a, 0, 2);
    ASSERT_EQ(float_adm_log_release(&a.log, 2, err, sizeof(err)), 0) << err;
    ASSERT_EQ(
        float_adm_log_abandon_released(file.c_str(), "the rebuilt graph failed", err, sizeof(err)),
        0)
        << err;
    const testjson::Value doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1});
    EXPECT_EQ(doc["incomplete"].text, "the rebuilt graph failed");
    EXPECT_FALSE(doc.has("pooled_metrics"));
}

TEST_F(LogTest, FinishThenContinueXmlCsvAndSub)
{
    const std::string xml = path("continue.xml"), csv = path("continue.csv");
    const std::string sub = path("continue.sub");
    const std::string files[3] = {xml, csv, sub};
    const FloatAdmLogFormat formats[3] = {FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_CSV,
                                          FLOAT_ADM_LOG_SUB};
    for (int f = 0; f < 3; f++) {
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
        EXPECT_EQ(without_fps(read_file(files[f])), without_fps(read_file(straight)));
    }
}

/* A FIFO or a device other than /dev/null is no place for a log (the output
 * policy): refused before anything is opened, so a FIFO without reader never blocks. */
TEST_F(LogTest, FifosAndDevicesAreRefusedBeforeOpening)
{
    const std::string fifo = path("fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    for (const std::string &target : {fifo, std::string("/dev/full")}) {
        Log l;
        EXPECT_EQ(open_log(l, target, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        EXPECT_NE(std::string(l.err).find(target), std::string::npos) << l.err;
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
        EXPECT_EQ(open_log(l, input, format), FLOAT_ADM_ERROR_OUTPUT_INPUT);
        EXPECT_EQ(l.log, nullptr);
        EXPECT_NE(std::string(l.err).find(input), std::string::npos) << l.err;
        EXPECT_NE(std::string(l.err).find("open in this process"), std::string::npos) << l.err;
    }
    /* Another name for the same file (a hard link) is the same file. */
    const std::string link_name = path("link.json");
    ASSERT_EQ(link(input.c_str(), link_name.c_str()), 0) << std::strerror(errno);
    {
        Log l;
        EXPECT_EQ(open_log(l, link_name, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    }
    EXPECT_EQ(read_file(input), content);
    std::fclose(held);

    /* Closed, it is still no log (a picture of a sequence is opened only when read):
     * refused all the same; emptied, it is taken. */
    {
        Log l;
        EXPECT_EQ(open_log(l, input, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
        EXPECT_NE(std::string(l.err).find("not a float_adm log"), std::string::npos) << l.err;
    }
    EXPECT_EQ(read_file(input), content);
    std::ofstream(input, std::ios::trunc).close();
    Log l;
    EXPECT_EQ(open_log(l, input, FLOAT_ADM_LOG_JSON), 0) << l.err;
}

/* One writer a path: the second is refused at its start, naming the process that
 * writes (here this one), and the first's log lands whole. */
TEST_F(LogTest, TwoLogsOnOneFileAreRefused)
{
    const std::string file = path("twice.json");
    Log first, second;
    ASSERT_EQ(open_log(first, file, FLOAT_ADM_LOG_JSON), 0) << first.err;
    EXPECT_EQ(open_log(second, file, FLOAT_ADM_LOG_CSV), FLOAT_ADM_ERROR_BUSY);
    EXPECT_NE(std::string(second.err).find(file), std::string::npos) << second.err;
    EXPECT_NE(std::string(second.err).find("in this process (" + std::to_string(getpid()) + ")"),
              std::string::npos)
        << second.err;
    log_frames(first, 0, 2);
    ASSERT_EQ(float_adm_log_close(&first.log, first.err, sizeof(first.err)), 0) << first.err;
    expect_frames_json(testjson::parse(read_file(file)), 7, {0, 1});
}

/* ---- FLOAT_ADM_LOG_ANY_FILE: the path as a program's own output file ---- */

int open_any_file(Log &l, const std::string &path, FloatAdmLogFormat format)
{
    const FloatAdmOptions opts = options_for(7);
    return float_adm_log_open_flags(&l.log, path.c_str(), format, &opts, 576, 324,
                                    FLOAT_ADM_LOG_ANY_FILE, l.err, sizeof(l.err));
}

/* Two users of one path one after the other (FFmpeg's filter in two graphs): each
 * lands a whole log of its own, the second's replacing the first's, its frames
 * numbered as the second gave them and pooled alone. */
TEST_F(LogTest, AnyFileLogsOneAfterTheOtherEachLandWhole)
{
    const std::string file = path("twice.json");
    {
        Log first;
        ASSERT_EQ(open_any_file(first, file, FLOAT_ADM_LOG_JSON), 0) << first.err;
        log_frames(first, 0, 3);
        ASSERT_EQ(float_adm_log_close(&first.log, first.err, sizeof(first.err)), 0) << first.err;
    }
    expect_frames_json(testjson::parse(read_file(file)), 7, {0, 1, 2});
    Log second;
    ASSERT_EQ(open_any_file(second, file, FLOAT_ADM_LOG_JSON), 0) << second.err;
    /* Written whole: the path keeps the first's log until the second lands. */
    log_frames(second, 0, 2);
    expect_frames_json(testjson::parse(read_file(file)), 7, {0, 1, 2});
    /* One writer at a time, as every log. */
    Log busy;
    EXPECT_EQ(open_any_file(busy, file, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_BUSY);
    ASSERT_EQ(float_adm_log_close(&second.log, second.err, sizeof(second.err)), 0) << second.err;
    const testjson::Value doc = testjson::parse(read_file(file));
    expect_frames_json(doc, 7, {0, 1});
    expect_pooled_json(doc, 7, {0, 1});
}

/* A symbolic link is written through: the file it leads to gets the log (made where
 * the link leads nowhere), and the link stays a link. */
TEST_F(LogTest, AnyFileWritesThroughASymbolicLink)
{
    const std::string target = path("target.csv"), link_name = path("link.csv");
    const std::string missing = path("missing.csv"), dangling = path("dangling.csv");
    {
        std::ofstream out(target, std::ios::binary);
        out << "not a log\n";
    }
    ASSERT_EQ(symlink("target.csv", link_name.c_str()), 0) << std::strerror(errno);
    ASSERT_EQ(symlink(missing.c_str(), dangling.c_str()), 0) << std::strerror(errno);
    for (const std::string &name : {link_name, dangling}) {
        Log l;
        ASSERT_EQ(open_any_file(l, name, FLOAT_ADM_LOG_CSV), 0) << l.err;
        log_frames(l, 0, 2);
        ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
        struct stat st;
        ASSERT_EQ(lstat(name.c_str(), &st), 0);
        EXPECT_TRUE(S_ISLNK(st.st_mode)) << name;
    }
    for (const std::string &written : {target, missing}) {
        const std::vector<std::string> lines = split(read_file(written), '\n');
        ASSERT_EQ(lines.size(), 4u) << written;
        EXPECT_EQ(lines[0].rfind("Frame,", 0), 0u) << written;
        EXPECT_EQ(lines[2].rfind("1,", 0), 0u) << written;
    }
}

/* A file of any content is replaced, as any program replaces its output file. */
TEST_F(LogTest, AnyFileReplacesAFileThatIsNotALog)
{
    const std::string file = path("data.txt");
    {
        std::ofstream out(file, std::ios::binary);
        out << "somebody's notes\n";
    }
    Log l;
    ASSERT_EQ(open_any_file(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 1);
    ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    expect_frames_json(testjson::parse(read_file(file)), 7, {0});
}

/* A FIFO gets the whole log at the close, which opens it then: opening the log does
 * not wait for a reader.  A device too: /dev/full's error comes at the close. */
TEST_F(LogTest, AnyFileWritesAFifoOrADeviceAtTheEnd)
{
    const std::string fifo = path("fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    Log l;
    ASSERT_EQ(open_any_file(l, fifo, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 3);
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });
    const int closed = float_adm_log_close(&l.log, l.err, sizeof(l.err));
    reader.join();
    ASSERT_EQ(closed, 0) << l.err;
    const testjson::Value doc = testjson::parse(received);
    expect_frames_json(doc, 7, {0, 1, 2});
    expect_pooled_json(doc, 7, {0, 1, 2});

    Log full;
    ASSERT_EQ(open_any_file(full, "/dev/full", FLOAT_ADM_LOG_CSV), 0) << full.err;
    log_frames(full, 0, 1);
    EXPECT_EQ(float_adm_log_close(&full.log, full.err, sizeof(full.err)), FLOAT_ADM_ERROR_IO);
    EXPECT_NE(std::string(full.err).find("/dev/full"), std::string::npos) << full.err;
}

/* What stays of the policy: a file open in this process is never written; and a
 * directory is no file. */
TEST_F(LogTest, AnyFileRefusesAFileOpenInTheProcessAndADirectory)
{
    const std::string input = path("input.yuv"), input_link = path("input_link.json");
    const std::string content = "frames that must survive\n";
    {
        std::ofstream out(input, std::ios::binary);
        out << content;
    }
    ASSERT_EQ(symlink(input.c_str(), input_link.c_str()), 0) << std::strerror(errno);
    FILE *held = std::fopen(input.c_str(), "rb");
    ASSERT_NE(held, nullptr);
    for (const std::string &name : {input, input_link}) {
        Log l;
        EXPECT_EQ(open_any_file(l, name, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_INPUT);
        EXPECT_NE(std::string(l.err).find("open in this process"), std::string::npos) << l.err;
    }
    std::fclose(held);
    EXPECT_EQ(read_file(input), content);
    Log l;
    EXPECT_EQ(open_any_file(l, dir_, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
    EXPECT_NE(std::string(l.err).find("a directory"), std::string::npos) << l.err;
    const FloatAdmOptions opts = options_for(7);
    EXPECT_EQ(float_adm_log_open_flags(&l.log, path("flags.json").c_str(), FLOAT_ADM_LOG_JSON,
                                       &opts, 576, 324, 0x4, l.err, sizeof(l.err)),
              FLOAT_ADM_ERROR_INVALID);
}

TEST_F(LogTest, SkippedFramesAreLoggedNotPooled)
{
    const char *reason = "corrupt \"frame\" <7> & \\ more";
    const std::string json = path("skip.json"), csv = path("skip.csv"), xml = path("skip.xml");
    const std::string sub = path("skip.sub");
    const std::string files[4] = {json, csv, xml, sub};
    const FloatAdmLogFormat formats[4] = {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV,
                                          FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_SUB};
    for (int f = 0; f < 4; f++) {
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
    EXPECT_EQ(lines[5], "    <frame frameNum=\"1\" skipped=\"corrupt &quot;frame&quot; "
                        "&lt;7&gt; &amp; \\ more\" />");

    const std::vector<std::string> subtitles = split(read_file(sub), '\n');
    ASSERT_EQ(subtitles.size(), 4u);
    EXPECT_EQ(subtitles[1], "{1}{2}frame: 1|");
}

/* One vocabulary of pairs in doubt: the filter's metadata, its log and Python's
 * messages all take these names. */
TEST(PairDoubts, NamesAndDescriptions)
{
    const char *names[FLOAT_ADM_NUM_PAIR_DOUBTS] = {"apart", "reference_repeated", "main_repeated",
                                                    "no_reference", "reference_after_main"};
    for (int i = 0; i < FLOAT_ADM_NUM_PAIR_DOUBTS; i++) {
        EXPECT_STREQ(float_adm_pair_doubt_name(i), names[i]);
        ASSERT_NE(float_adm_pair_doubt_description(i), nullptr);
        EXPECT_GT(std::strlen(float_adm_pair_doubt_description(i)), 20u);
    }
    EXPECT_STREQ(float_adm_pair_doubt_name(FLOAT_ADM_PAIR_NO_REFERENCE), "no_reference");
    for (int i : {-1, FLOAT_ADM_NUM_PAIR_DOUBTS}) {
        EXPECT_EQ(float_adm_pair_doubt_name(i), nullptr);
        EXPECT_EQ(float_adm_pair_doubt_description(i), nullptr);
    }
}

/* A run's pairing ends the JSON and XML logs, the counts of every call added up
 * (a rebuilt filter's instances each add theirs), also when given after a finish;
 * CSV and subtitles stay as they are. */
TEST_F(LogTest, PairingEndsJsonAndXml)
{
    const uint64_t first[FLOAT_ADM_NUM_PAIR_DOUBTS] = {1, 2, 0, 0, 0};
    const uint64_t second[FLOAT_ADM_NUM_PAIR_DOUBTS] = {1, 0, 0, 1, 4};
    const FloatAdmLogFormat formats[4] = {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_CSV,
                                          FLOAT_ADM_LOG_SUB};
    std::string files[4], straight[4];
    for (int f = 0; f < 4; f++) {
        files[f] = path("pairing" + std::to_string(f));
        straight[f] = path("straight" + std::to_string(f));
        {
            Log l;
            ASSERT_EQ(open_log(l, straight[f], formats[f]), 0) << l.err;
            log_frames(l, 0, 2);
        }
        Log l;
        ASSERT_EQ(open_log(l, files[f], formats[f]), 0) << l.err;
        log_frames(l, 0, 2);
        ASSERT_EQ(float_adm_log_add_pairing(l.log, 3, first, FLOAT_ADM_NUM_PAIR_DOUBTS, l.err,
                                            sizeof(l.err)),
                  0)
            << l.err;
        ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
        ASSERT_EQ(float_adm_log_add_pairing(l.log, 2, second, FLOAT_ADM_NUM_PAIR_DOUBTS, l.err,
                                            sizeof(l.err)),
                  0)
            << l.err;
        ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    }

    const testjson::Value doc = testjson::parse(read_file(files[0]));
    ASSERT_EQ(doc.members.size(), 6u);
    EXPECT_EQ(doc.members[4].first, "aggregate_metrics");
    EXPECT_EQ(doc.members[5].first, "pairing");
    const testjson::Value &pairing = doc["pairing"];
    const char *keys[] = {"pairs",         "apart",        "reference_repeated",
                          "main_repeated", "no_reference", "reference_after_main"};
    const char *counts[] = {"5", "2", "2", "0", "1", "4"};
    ASSERT_EQ(pairing.members.size(), 6u);
    for (size_t i = 0; i < 6; i++) {
        EXPECT_EQ(pairing.members[i].first, keys[i]);
        EXPECT_EQ(pairing.members[i].second.text, counts[i]) << keys[i];
    }
    expect_frames_json(doc, 7, {0, 1});
    expect_pooled_json(doc, 7, {0, 1});

    const std::vector<std::string> lines = split(read_file(files[1]), '\n');
    ASSERT_GE(lines.size(), 4u);
    EXPECT_EQ(lines[lines.size() - 4], "  <aggregate_metrics />");
    EXPECT_EQ(lines[lines.size() - 3],
              "  <pairing pairs=\"5\" apart=\"2\" reference_repeated=\"2\" "
              "main_repeated=\"0\" no_reference=\"1\" reference_after_main=\"4\" />");
    EXPECT_EQ(lines[lines.size() - 2], "</VMAF>");
    std::string without = read_file(files[1]);
    without.erase(without.find("  <pairing "), lines[lines.size() - 3].size() + 1);
    EXPECT_EQ(without_fps(without), without_fps(read_file(straight[1])));

    for (int f = 2; f < 4; f++)
        EXPECT_EQ(read_file(files[f]), read_file(straight[f])) << f;
    /* A log given no pairing has none. */
    EXPECT_EQ(read_file(straight[0]).find("pairing"), std::string::npos);
}

/* A caller built against fewer kinds gives fewer counts: the others are left out,
 * not written as nought.  More kinds than the library knows are refused. */
TEST_F(LogTest, PairingOfFewerKindsLeavesTheOthersOut)
{
    const std::string file = path("fewer.json");
    const uint64_t doubts[FLOAT_ADM_NUM_PAIR_DOUBTS + 1] = {7, 8, 9, 10, 11, 12};
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
        log_frames(l, 0, 1);
        EXPECT_EQ(float_adm_log_add_pairing(l.log, 1, doubts, FLOAT_ADM_NUM_PAIR_DOUBTS + 1, l.err,
                                            sizeof(l.err)),
                  FLOAT_ADM_ERROR_INVALID);
        EXPECT_NE(std::string(l.err).find("6 kinds of pairs in doubt"), std::string::npos) << l.err;
        EXPECT_EQ(float_adm_log_add_pairing(l.log, 1, nullptr, 2, l.err, sizeof(l.err)),
                  FLOAT_ADM_ERROR_INVALID);
        EXPECT_EQ(float_adm_log_add_pairing(nullptr, 1, doubts, 2, l.err, sizeof(l.err)),
                  FLOAT_ADM_ERROR_INVALID);
        ASSERT_EQ(float_adm_log_add_pairing(l.log, 1, doubts, 2, l.err, sizeof(l.err)), 0) << l.err;
    }
    const testjson::Value doc = testjson::parse(read_file(file));
    const testjson::Value &pairing = doc["pairing"];
    ASSERT_EQ(pairing.members.size(), 3u);
    EXPECT_EQ(pairing["pairs"].text, "1");
    EXPECT_EQ(pairing["apart"].text, "7");
    EXPECT_EQ(pairing["reference_repeated"].text, "8");
}

/* The names a pooling-only log gives the outputs for options set by name. */
std::vector<std::string> names_for(const std::vector<std::pair<const char *, const char *>> &set)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    char err[256] = "";
    for (const auto &option : set)
        EXPECT_EQ(float_adm_option_set(&opts, option.first, option.second, err, sizeof(err)), 0)
            << err;
    FloatAdmLog *log = nullptr;
    EXPECT_EQ(float_adm_log_open(&log, nullptr, FLOAT_ADM_LOG_JSON, &opts, 0, 0, err,
                                 sizeof(err)), 0) << err;
    std::vector<std::string> names;
    for (int i = 0; float_adm_log_output_name(log, i); i++)
        names.push_back(float_adm_log_output_name(log, i));
    float_adm_log_close(&log, nullptr, 0);
    return names;
}

TEST(LogNames, DefaultsKeepThePlainNames)
{
    const std::vector<std::string> names = names_for({{"debug", "true"}});
    ASSERT_EQ(names.size(), static_cast<size_t>(FLOAT_ADM_NUM_DEBUG_OUTPUTS));
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
        EXPECT_EQ(names[i], float_adm_output_name(i));
    EXPECT_EQ(names_for({}).size(), static_cast<size_t>(FLOAT_ADM_NUM_OUTPUTS));
    /* An option set to its default value is no change. */
    EXPECT_EQ(names_for({{"egl", "100"}, {"adm_p_norm", "3.0"}})[0], "adm2");
}

/* libvmaf 3.2.0's names for adm_enhn_gain_limit=1.2:adm_p_norm=2:adm_csf_mode=1:debug=true
 * (tests/data/libvmaf-logs/vmaf_cli_egl1.2_apn2_csf1_debug.json). */
TEST(LogNames, LibvmafsNamesForNonDefaultOptions)
{
    const std::vector<std::string> names = names_for(
        {{"adm_enhn_gain_limit", "1.2"}, {"adm_p_norm", "2"}, {"adm_csf_mode", "1"},
         {"debug", "true"}});
    const char *const want[FLOAT_ADM_NUM_DEBUG_OUTPUTS] = {
        "adm2_csf_1_egl_1.2_apn_2", "aim_csf_1_egl_1.2_apn_2", "adm3_csf_1_egl_1.2_apn_2",
        "adm_scale0_csf_1_egl_1.2_apn_2", "adm_scale1_csf_1_egl_1.2_apn_2",
        "adm_scale2_csf_1_egl_1.2_apn_2", "adm_scale3_csf_1_egl_1.2_apn_2", "adm",
        "adm_num_csf_1_egl_1.2_apn_2", "adm_den_csf_1_egl_1.2_apn_2",
        "adm_num_scale0_csf_1_egl_1.2_apn_2", "adm_den_scale0_csf_1_egl_1.2_apn_2",
        "adm_num_scale1_csf_1_egl_1.2_apn_2", "adm_den_scale1_csf_1_egl_1.2_apn_2",
        "adm_num_scale2_csf_1_egl_1.2_apn_2", "adm_den_scale2_csf_1_egl_1.2_apn_2",
        "adm_num_scale3_csf_1_egl_1.2_apn_2", "adm_den_scale3_csf_1_egl_1.2_apn_2"};
    ASSERT_EQ(names.size(), static_cast<size_t>(FLOAT_ADM_NUM_DEBUG_OUTPUTS));
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++)
        EXPECT_EQ(names[i], want[i]);
    /* Set by alias, in another order: the same names. */
    EXPECT_EQ(names_for({{"csf", "1"}, {"apn", "2.0"}, {"egl", "1.20"}})[0],
              "adm2_csf_1_egl_1.2_apn_2");
}

TEST(LogNames, SuffixOrderAndValueFormats)
{
    /* Sorted by full name (adm_csf_diag_scale < adm_csf_mode < adm_csf_scale), not by
     * alias or by libvmaf's declaration order; bools are the alias alone, ints %d,
     * doubles %g. */
    EXPECT_EQ(names_for({{"scf", "2"}, {"csf", "1"}, {"scfd", "0.5"}})[0],
              "adm2_scfd_0.5_csf_1_scf_2");
    EXPECT_EQ(names_for({{"ssz", "true"}, {"aah", "true"}, {"bcm", "1"}})[1],
              "aim_aah_bcm_1_ssz");
    EXPECT_EQ(names_for({{"nw", "0.00001"}, {"rdf", "2160"}, {"sasc", "2"}})[2],
              "adm3_nw_1e-05_rdf_2160_sasc_2");
    EXPECT_EQ(names_for({{"nvd", "1.5"}, {"min", "0.25"}, {"f2s3", "0.123456789"},
                         {"f1s0", "10"}, {"dlmw", "1"}})[3],
              "adm_scale0_dlmw_1_f1s0_10_f2s3_0.123457_min_0.25_nvd_1.5");
}

TEST(LogNames, CutAt255CharactersAsLibvmafsBuffer)
{
    std::vector<std::pair<const char *, const char *>> every = {
        {"egl", "1.23456789"}, {"nvd", "1.23456789"}, {"nw", "1.23456789"},
        {"scf", "1.23456789"}, {"scfd", "1.23456789"}, {"rdf", "1234"}, {"csf", "5"},
        {"bcm", "1"}, {"aah", "true"}, {"apn", "1.23456789"}, {"dlmw", "0.123456789"},
        {"min", "0.123456789"}, {"f1s0", "-0.00123456789"}, {"f1s1", "-0.00123456789"},
        {"f1s2", "-0.00123456789"}, {"f1s3", "-0.00123456789"}, {"f2s0", "-0.00123456789"},
        {"f2s1", "-0.00123456789"}, {"f2s2", "-0.00123456789"}, {"f2s3", "-0.00123456789"},
        {"sasc", "3"}, {"ssz", "true"}, {"debug", "true"}};
    const std::vector<std::string> names = names_for(every);
    ASSERT_EQ(names.size(), static_cast<size_t>(FLOAT_ADM_NUM_DEBUG_OUTPUTS));
    EXPECT_EQ(names[7], "adm");
    for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; i++) {
        if (i == 7)
            continue;
        EXPECT_EQ(names[i].size(), 255u) << names[i];
        EXPECT_EQ(names[i].rfind(std::string(float_adm_output_name(i)) + "_aah_bcm_1_scfd_1.23457",
                                 0), 0u) << names[i];
    }
}

TEST_F(LogTest, EveryLayoutUsesTheNames)
{
    FloatAdmOptions opts = options_for(FLOAT_ADM_NUM_DEBUG_OUTPUTS);
    opts.enhn_gain_limit = 1.2;
    const std::string json = path("named.json"), csv = path("named.csv"),
                      xml = path("named.xml"), sub = path("named.sub");
    const std::string files[4] = {json, csv, xml, sub};
    const FloatAdmLogFormat formats[4] = {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV,
                                          FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_SUB};
    for (int f = 0; f < 4; f++) {
        Log l;
        ASSERT_EQ(float_adm_log_open(&l.log, files[f].c_str(), formats[f], &opts, 576, 324,
                                     l.err, sizeof(l.err)), 0) << l.err;
        EXPECT_STREQ(float_adm_log_output_name(l.log, 0), "adm2_egl_1.2");
        EXPECT_STREQ(float_adm_log_output_name(l.log, 7), "adm");
        EXPECT_STREQ(float_adm_log_output_name(l.log, 17), "adm_den_scale3_egl_1.2");
        EXPECT_EQ(float_adm_log_output_name(l.log, 18), nullptr);
        EXPECT_EQ(float_adm_log_output_name(l.log, -1), nullptr);
        log_frames(l, 0, 2);
    }
    const testjson::Value doc = testjson::parse(read_file(json));
    EXPECT_EQ(doc["frames"].items[1]["metrics"].members[0].first, "adm2_egl_1.2");
    EXPECT_EQ(doc["frames"].items[1]["metrics"].members[7].first, "adm");
    EXPECT_EQ(doc["pooled_metrics"].members[17].first, "adm_den_scale3_egl_1.2");
    EXPECT_EQ(split(read_file(csv), '\n')[0].rfind("Frame,adm2_egl_1.2,aim_egl_1.2,", 0), 0u);
    EXPECT_NE(read_file(xml).find("<metric name=\"adm_num_egl_1.2\" min="), std::string::npos);
    EXPECT_EQ(split(read_file(sub), '\n')[1].rfind("{1}{2}frame: 1|adm2_egl_1.2: ", 0), 0u);
}

/* libvmaf's vmaf_write_output_sub: no header, no footer, "NAME: VALUE|" per output. */
TEST_F(LogTest, SubLayout)
{
    const std::string file = path("log.sub");
    {
        Log l;
        ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_SUB), 0) << l.err;
        log_frames(l, 0, 3);
    }
    const std::vector<std::string> lines = split(read_file(file), '\n');
    ASSERT_EQ(lines.size(), 4u);  /* 3 frames, nothing after the last '\n' */
    EXPECT_EQ(lines[3], "");
    for (int k = 0; k < 3; k++) {
        const std::string start = "{" + std::to_string(k) + "}{" + std::to_string(k + 1) +
                                  "}frame: " + std::to_string(k) + "|";
        ASSERT_EQ(lines[k].rfind(start, 0), 0u) << lines[k];
        const std::vector<std::string> fields = split(lines[k].substr(start.size()), '|');
        ASSERT_EQ(fields.size(), 8u) << lines[k];  /* 7 outputs, the empty one after the last */
        EXPECT_EQ(fields[7], "");
        const FloatAdmScores s = scores_of(k);
        for (int i = 0; i < 7; i++) {
            const std::string prefix = std::string(float_adm_output_name(i)) + ": ";
            ASSERT_EQ(fields[i].rfind(prefix, 0), 0u) << fields[i];
            EXPECT_TRUE(same_bits(std::strtod(fields[i].c_str() + prefix.size(), nullptr),
                                  float_adm_output_value(&s, i)));
        }
    }
}

/* The fps is filled in when the log is finished, and again after more frames. */
TEST_F(LogTest, FpsIsFilledInAtEachFinish)
{
    const std::string file = path("fps.json");
    Log l;
    ASSERT_EQ(open_log(l, file, FLOAT_ADM_LOG_JSON), 0) << l.err;
    log_frames(l, 0, 1);
    /* Before the finish: a placeholder that still parses. */
    const std::string early = read_file(temporary_of(file));
    EXPECT_NE(early.find("\n  \"fps\": null        ,\n  \"frames\": ["), std::string::npos)
        << early;
    ASSERT_EQ(float_adm_log_finish(l.log, l.err, sizeof(l.err)), 0) << l.err;
    const std::string finished = read_file(temporary_of(file));
    /* Only the fps changed in what was written: the footer follows. */
    const std::string kept = without_fps(early);
    EXPECT_EQ(without_fps(finished).substr(0, kept.size()), kept);
    testjson::Value doc = testjson::parse(finished);
    ASSERT_EQ(doc["fps"].kind, testjson::Value::kNumber) << finished;
    EXPECT_GT(doc["fps"].number(), 0.);
    /* %.2f, then spaces up to the comma. */
    const size_t at = finished.find("\"fps\": ") + 7;
    const std::string field = finished.substr(at, finished.find(',', at) - at);
    EXPECT_EQ(field.size(), 12u) << field;
    const size_t dot = field.find('.');
    ASSERT_NE(dot, std::string::npos) << field;
    EXPECT_EQ(field.find_first_not_of("0123456789", dot + 1), dot + 3) << field;

    log_frames(l, 1, 2);
    ASSERT_EQ(float_adm_log_close(&l.log, l.err, sizeof(l.err)), 0) << l.err;
    doc = testjson::parse(read_file(file));
    EXPECT_EQ(doc["fps"].kind, testjson::Value::kNumber);
    expect_frames_json(doc, 7, {0, 1, 2});
}

TEST_F(LogTest, BadArgumentsAreRefused)
{
    Log l;
    EXPECT_EQ(float_adm_log_open(nullptr, nullptr, FLOAT_ADM_LOG_JSON, nullptr, 0, 0, l.err,
                                 sizeof(l.err)), FLOAT_ADM_ERROR_INVALID);
    FloatAdmOptions bad;
    float_adm_options_default(&bad);
    bad.enhn_gain_limit = 0.5;  /* below libvmaf's range: no context has these options */
    EXPECT_EQ(float_adm_log_open(&l.log, path("bad.json").c_str(), FLOAT_ADM_LOG_JSON, &bad, 0,
                                 0, l.err, sizeof(l.err)), FLOAT_ADM_ERROR_RANGE);
    EXPECT_NE(std::string(l.err).find("adm_enhn_gain_limit"), std::string::npos) << l.err;
    EXPECT_EQ(open_log(l, path("bad2.json"), static_cast<FloatAdmLogFormat>(7)),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(open_log(l, "", FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(open_log(l, dir_ + "/no/such/dir.json", FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_IO);
    EXPECT_NE(std::string(l.err).find("no/such/dir.json: cannot write: "), std::string::npos)
        << l.err;
    EXPECT_EQ(open_log(l, dir_, FLOAT_ADM_LOG_JSON), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
    EXPECT_EQ(l.log, nullptr);
    EXPECT_EQ(float_adm_log_frame(nullptr, 0, nullptr, nullptr, 0), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_log_close(&l.log, nullptr, 0), 0);
    EXPECT_STRNE(float_adm_strerror(FLOAT_ADM_ERROR_IO), "unknown error");
}

} // namespace
