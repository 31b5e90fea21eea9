/*
 * Unit tests: the output policy (float_adm_output_check) against every kind of
 * target, and the library's writers that follow it: logs (opened, acquired, ended,
 * abandoned) and maps.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "float_adm.h"

namespace {

class OutputPolicy : public ::testing::Test {
protected:
    void SetUp() override
    {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/test_output.XXXXXX";
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        ASSERT_NE(mkdtemp(buffer.data()), nullptr) << std::strerror(errno);
        dir_ = buffer.data();
        reference_ = write("ref.y4m", "YUV4MPEG2 W64 H64 F25:1 C420jpeg\nFRAME\n");
        distorted_ = write("dist.yuv", std::string(6144, 'x'));
    }
    void TearDown() override { EXPECT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0); }

    std::string path(const std::string &name) const { return dir_ + "/" + name; }
    std::string write(const std::string &name, const std::string &content) const
    {
        std::ofstream(path(name), std::ios::binary) << content;
        return path(name);
    }
    int check(const std::string &target, FloatAdmOutputKind kind = FLOAT_ADM_OUTPUT_LOG)
    {
        const char *inputs[] = {reference_.c_str(), nullptr, distorted_.c_str()};
        err_[0] = '\0';
        return float_adm_output_check(target.c_str(), kind, inputs, 3, err_, sizeof(err_));
    }
    std::string err() const { return err_; }

    std::string dir_, reference_, distorted_;
    char err_[512] = "";
};

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const FloatAdmOutputKind kKinds[] = {FLOAT_ADM_OUTPUT_LOG, FLOAT_ADM_OUTPUT_MAP,
                                     FLOAT_ADM_OUTPUT_REPORT, FLOAT_ADM_OUTPUT_SPEC,
                                     FLOAT_ADM_OUTPUT_TABLE};

TEST_F(OutputPolicy, EachInputIsRefusedAndNamed)
{
    for (FloatAdmOutputKind kind : kKinds) {
        for (const std::string &input : {reference_, distorted_}) {
            EXPECT_EQ(check(input, kind), FLOAT_ADM_ERROR_OUTPUT_INPUT);
            EXPECT_NE(err().find(input), std::string::npos) << err();
            EXPECT_NE(err().find("an input of the run"), std::string::npos) << err();
        }
    }
    /* Another name of an input (a hard link) is the input. */
    ASSERT_EQ(link(distorted_.c_str(), path("hard.json").c_str()), 0);
    EXPECT_EQ(check(path("hard.json")), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    /* A file open in this process is an input or an output the caller did not name
     * (an ffmpeg's own output file): the message claims neither. */
    const std::string held = write("held.json", "");
    const int fd = open(held.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(check(held), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_NE(err().find("open in this process"), std::string::npos) << err();
    EXPECT_EQ(err().find("it is an input"), std::string::npos) << err();
    close(fd);
    EXPECT_EQ(check(held), FLOAT_ADM_TARGET_REPLACE);
}

TEST_F(OutputPolicy, StdoutAndTheNullDevice)
{
    for (FloatAdmOutputKind kind : kKinds) {
        EXPECT_EQ(check("-", kind), FLOAT_ADM_TARGET_STDOUT);
        EXPECT_EQ(check("/dev/stdout", kind), FLOAT_ADM_TARGET_STDOUT) << err();
        EXPECT_EQ(check("/proc/self/fd/1", kind), FLOAT_ADM_TARGET_STDOUT) << err();
        EXPECT_EQ(check("/dev/null", kind), FLOAT_ADM_TARGET_DISCARD) << err();
    }
    /* A link to /dev/null discards too: it is the null device. */
    ASSERT_EQ(symlink("/dev/null", path("null").c_str()), 0);
    EXPECT_EQ(check(path("null")), FLOAT_ADM_TARGET_DISCARD);
}

TEST_F(OutputPolicy, WhatIsNoRegularFileIsRefusedWithoutOpeningIt)
{
    ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
    ASSERT_EQ(mkdir(path("dir").c_str(), 0700), 0);
    const int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", path("sock").c_str());
    const bool have_socket = sock >= 0 && bind(sock, reinterpret_cast<sockaddr *>(&address),
                                               sizeof(address)) == 0;
    for (FloatAdmOutputKind kind : kKinds) {
        /* A FIFO without a reader: opening it would block; the check returns at once. */
        EXPECT_EQ(check(path("fifo"), kind), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        EXPECT_NE(err().find("FIFO"), std::string::npos) << err();
        EXPECT_EQ(check(path("dir"), kind), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        EXPECT_NE(err().find("a directory"), std::string::npos) << err();
        EXPECT_EQ(check("/dev/zero", kind), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        if (have_socket) {
            EXPECT_EQ(check(path("sock"), kind), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        }
    }
    if (sock >= 0)
        close(sock);
}

TEST_F(OutputPolicy, SymbolicLinksAreRefused)
{
    ASSERT_EQ(symlink(distorted_.c_str(), path("to_input.json").c_str()), 0);
    ASSERT_EQ(symlink(path("nowhere.json").c_str(), path("dangling.json").c_str()), 0);
    const std::string log = write("log.json", "{\n  \"version\": \"2.3.1\",\n");
    ASSERT_EQ(symlink(log.c_str(), path("to_log.json").c_str()), 0);
    for (FloatAdmOutputKind kind : kKinds) {
        for (const char *name : {"to_input.json", "to_log.json", "dangling.json"}) {
            EXPECT_EQ(check(path(name), kind), FLOAT_ADM_ERROR_OUTPUT_SYMLINK) << name;
            EXPECT_NE(err().find("symbolic link"), std::string::npos) << err();
        }
    }
    EXPECT_NE(err().find("leads nowhere (to " + path("nowhere.json")), std::string::npos) << err();
}

TEST_F(OutputPolicy, OnlyTheProjectsOwnFilesOfTheSameKindAreReplaced)
{
    std::string npz = "PK\x03\x04";
    npz += std::string(22, '\0') + std::string("\x0a\x00\x00\x00", 4) + "frames.npy";
    const std::string files[5] = {
        write("a.json", "{\n  \"version\": \"2.3.1\",\n  \"fps\": 1"),
        write("a.pfm", "Pf\n4 3\n-1.0\n"),
        write("a.html", "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                        "<meta name=\"generator\" content=\"float_adm report\">"),
        write("a.spec.json", "{\n  \"float_adm_spec\": 1,\n  \"reference\": \"r.y4m\"\n}\n"),
        write("ladder.json", "{\n  \"float_adm_table\": 1,\n  \"rungs\": []\n}\n")};
    const std::string npz_file = write("a.npz", npz);
    for (size_t k = 0; k < 5; k++) {
        for (size_t f = 0; f < 5; f++) {
            EXPECT_EQ(check(files[f], kKinds[k]),
                      k == f ? FLOAT_ADM_TARGET_REPLACE : FLOAT_ADM_ERROR_OUTPUT_NOT_OURS)
                << files[f] << " as kind " << k << ": " << err();
        }
    }
    EXPECT_EQ(check(npz_file, FLOAT_ADM_OUTPUT_MAP), FLOAT_ADM_TARGET_REPLACE);
    EXPECT_EQ(check(npz_file, FLOAT_ADM_OUTPUT_LOG), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    /* Every layout of log, libvmaf's too. */
    for (const char *start :
         {"<?xml version=\"1.0\"", "<VMAF version", "Frame,adm2", "{0}{1}frame: 0|adm2: 0.9"})
        EXPECT_EQ(check(write("l", start)), FLOAT_ADM_TARGET_REPLACE) << start;
    /* Other zips, other HTML, other JSON, anything else: refused, the file intact. */
    const std::string other_zip = write("o.npz", "PK\x03\x04" + std::string(22, '\0') +
                                                     std::string("\x08\x00\x00\x00", 4) +
                                                     "data.npy");
    EXPECT_EQ(check(other_zip, FLOAT_ADM_OUTPUT_MAP), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    EXPECT_EQ(check(write("o.html", "<!DOCTYPE html><title>mine</title>"), FLOAT_ADM_OUTPUT_REPORT),
              FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    EXPECT_EQ(check(write("o.json", "{\"name\": 1}"), FLOAT_ADM_OUTPUT_SPEC),
              FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    /* A ladder's CSV table by its whole header: the fixed columns, then float_adm's
     * outputs and the metrics beside them, pooled; another CSV is not ours, one that
     * begins as the table does (a ladder's manifest with a column of its own) neither. */
    std::string table = "";
    for (int i = 0; float_adm_table_column(i); i++)
        table += std::string(i ? "," : "") + float_adm_table_column(i);
    EXPECT_NE(table.find(",bitrate_kbps,scale,options,hull_metric,on_hull"), std::string::npos)
        << table;
    std::string metrics = "";
    for (int i = 0; float_adm_table_metric(i); i++)
        metrics += std::string(",") + float_adm_table_metric(i) + "_mean";
    EXPECT_EQ(metrics, ",psnr_y_mean,psnr_avg_mean,ssim_y_mean,ssim_mean,vmaf_mean");
    EXPECT_EQ(float_adm_table_metric(-1), nullptr);
    for (const std::string &ours :
         {table + ",adm2_mean,aim_max,adm2_egl_1_harmonic_mean\n",
          table + ",adm2_egl_1_mean" + metrics + "\n", table + ",psnr_y_mean,vmaf_max\n"})
        EXPECT_EQ(check(write("t.csv", ours), FLOAT_ADM_OUTPUT_TABLE), FLOAT_ADM_TARGET_REPLACE)
            << ours << err();
    for (const std::string &foreign :
         {std::string("source,ladder,label,file,crf\nsrc.y4m,vp9,low,vp9_100k.webm,40\n"),
          table + "\n", table + ",adm2_mean,crf\n", table + ",adm2_mean",
          table + ",adm2_mean,psnr_u_mean\n", table + ",adm2_mean,vmaf\n",
          table + ",on_hull,adm2_mean\n", std::string("name,bitrate\n")})
        EXPECT_EQ(check(write("o.csv", foreign), FLOAT_ADM_OUTPUT_TABLE),
                  FLOAT_ADM_ERROR_OUTPUT_NOT_OURS)
            << foreign;
    const std::string source = write("source.mkv", "\x1a\x45\xdf\xa3 a film");
    for (FloatAdmOutputKind kind : kKinds) {
        EXPECT_EQ(check(source, kind), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
        EXPECT_NE(err().find("remove it first if it is to go"), std::string::npos) << err();
    }
    EXPECT_EQ(read_file(source), "\x1a\x45\xdf\xa3 a film");
    /* Empty, or missing. */
    EXPECT_EQ(check(write("empty", "")), FLOAT_ADM_TARGET_REPLACE);
    EXPECT_EQ(check(path("new.json")), FLOAT_ADM_TARGET_NEW);
    EXPECT_EQ(check(path("no/such/dir/new.json")), FLOAT_ADM_TARGET_NEW);
}

/* The kernel's files are settings and views, however regular and empty they look:
 * never replaced, and no new name is made among them. */
TEST_F(OutputPolicy, KernelFilesAreRefused)
{
    for (const char *kernel_file : {"/proc/self/comm", "/proc/sys/kernel/hostname",
                                    "/proc/sys/vm/drop_caches", "/proc/self/new.json"}) {
        EXPECT_EQ(check(kernel_file), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE) << kernel_file;
        EXPECT_NE(err().find("kernel's proc file system"), std::string::npos) << err();
        EXPECT_NE(err().find(kernel_file), std::string::npos) << err();
    }
    struct stat st;
    if (stat("/sys/kernel/uevent_seqnum", &st) == 0 && S_ISREG(st.st_mode)) {
        EXPECT_EQ(check("/sys/kernel/uevent_seqnum"), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
        EXPECT_NE(err().find("sysfs"), std::string::npos) << err();
    }
}

/* A POSIX message queue file system: a "file" made there is a message queue, and
 * writing a log into it fails with EINVAL after the queue is made.  Mounted here
 * where the process may (as root); the machine's own /dev/mqueue is often absent. */
TEST_F(OutputPolicy, MessageQueuesAreRefused)
{
    const std::string queues = path("mqueue");
    ASSERT_EQ(mkdir(queues.c_str(), 0700), 0) << std::strerror(errno);
    if (mount("none", queues.c_str(), "mqueue", 0, nullptr) != 0)
        GTEST_SKIP() << "cannot mount an mqueue file system here: " << std::strerror(errno);
    EXPECT_EQ(check(queues + "/log.json"), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
    EXPECT_NE(err().find("kernel's mqueue file system"), std::string::npos) << err();
    struct stat st;
    EXPECT_NE(stat((queues + "/log.json").c_str(), &st), 0) << "the check made a queue";
    EXPECT_EQ(umount(queues.c_str()), 0) << std::strerror(errno);
}

TEST_F(OutputPolicy, BadArgumentsAndErrorNames)
{
    EXPECT_EQ(float_adm_output_check(nullptr, FLOAT_ADM_OUTPUT_LOG, nullptr, 0, nullptr, 0),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_output_check("", FLOAT_ADM_OUTPUT_LOG, nullptr, 0, nullptr, 0),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(
        float_adm_output_check("x", static_cast<FloatAdmOutputKind>(9), nullptr, 0, nullptr, 0),
        FLOAT_ADM_ERROR_INVALID);
    std::set<int> listed;
    for (int i = 0; float_adm_error_code(i); i++)
        listed.insert(float_adm_error_code(i));
    for (int code : {FLOAT_ADM_ERROR_OUTPUT_INPUT, FLOAT_ADM_ERROR_OUTPUT_NOT_FILE,
                     FLOAT_ADM_ERROR_OUTPUT_SYMLINK, FLOAT_ADM_ERROR_OUTPUT_NOT_OURS,
                     FLOAT_ADM_ERROR_OUTPUT_SHARED, FLOAT_ADM_ERROR_INPUT_SHARED}) {
        EXPECT_EQ(listed.count(code), 1u) << code;
        EXPECT_STRNE(float_adm_strerror(code), "unknown error");
        EXPECT_NE(float_adm_error_name(code), nullptr);
    }
}

/* The log follows the policy: a FIFO fails at once, a dangling link's target is never
 * made, /dev/null takes any number of logs. */
TEST_F(OutputPolicy, LogsFollowThePolicy)
{
    ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
    ASSERT_EQ(symlink(path("target.json").c_str(), path("dangling.json").c_str()), 0);
    const struct {
        std::string target;
        int expected;
    } cases[] = {{path("fifo"), FLOAT_ADM_ERROR_OUTPUT_NOT_FILE},
                 {path("dangling.json"), FLOAT_ADM_ERROR_OUTPUT_SYMLINK},
                 {dir_, FLOAT_ADM_ERROR_OUTPUT_NOT_FILE},
                 {write("photo.jpg", "\xff\xd8\xff\xe0 JFIF"), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS}};
    for (const auto &c : cases) {
        FloatAdmLog *log = nullptr;
        uint64_t next = 0;
        EXPECT_EQ(float_adm_log_open(&log, c.target.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64,
                                     err_, sizeof(err_)),
                  c.expected)
            << c.target;
        EXPECT_EQ(log, nullptr);
        EXPECT_EQ(float_adm_log_acquire(&log, c.target.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64,
                                        &next, err_, sizeof(err_)),
                  c.expected)
            << c.target;
    }
    EXPECT_NE(access(path("target.json").c_str(), F_OK), 0) << "the link's target was made";
    EXPECT_EQ(read_file(path("photo.jpg")), "\xff\xd8\xff\xe0 JFIF");
    std::vector<FloatAdmLog *> logs(50, nullptr);
    for (FloatAdmLog *&log : logs)
        ASSERT_EQ(float_adm_log_open(&log, "/dev/null", FLOAT_ADM_LOG_XML, nullptr, 64, 64, err_,
                                     sizeof(err_)),
                  0)
            << err_;
    for (FloatAdmLog *&log : logs)
        EXPECT_EQ(float_adm_log_close(&log, err_, sizeof(err_)), 0) << err_;
}

FloatAdmContext *context_with_a_map(const std::vector<uint8_t> &ref,
                                    const std::vector<uint8_t> &dist)
{
    FloatAdmOptions opts;
    float_adm_options_default(&opts);
    FloatAdmContext *ctx = nullptr;
    if (float_adm_context_create(&ctx, 64, 64, 8, &opts, nullptr, 0) < 0 ||
        float_adm_context_enable_map(ctx) < 0)
        return nullptr;
    const FloatAdmPlane r = {ref.data(), 64, 1, 0}, d = {dist.data(), 64, 1, 0};
    FloatAdmScores scores;
    if (float_adm_score_frame(ctx, &r, &d, &scores) < 0)
        float_adm_context_free(&ctx);
    return ctx;
}

TEST_F(OutputPolicy, MapsFollowThePolicy)
{
    std::vector<uint8_t> ref(64 * 64), dist(64 * 64);
    for (size_t i = 0; i < ref.size(); i++) {
        ref[i] = static_cast<uint8_t>(i * 7);
        dist[i] = static_cast<uint8_t>(i * 7 + (i % 3));
    }
    FloatAdmContext *ctx = context_with_a_map(ref, dist);
    ASSERT_NE(ctx, nullptr);
    const std::string pattern = path("m%d.pfm");
    ASSERT_EQ(symlink(path("victim").c_str(), path("m0.pfm").c_str()), 0);
    ASSERT_EQ(mkfifo(path("m1.pfm").c_str(), 0600), 0);
    write("m2.pfm", "not a map");
    EXPECT_EQ(float_adm_map_write_pfm(ctx, pattern.c_str(), 0, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_SYMLINK);
    EXPECT_NE(access(path("victim").c_str(), F_OK), 0) << "the link's target was made";
    EXPECT_EQ(float_adm_map_write_pfm(ctx, pattern.c_str(), 1, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_NOT_FILE);
    EXPECT_EQ(float_adm_map_write_pfm(ctx, pattern.c_str(), 2, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    EXPECT_EQ(read_file(path("m2.pfm")), "not a map");
    ASSERT_EQ(float_adm_map_write_pfm(ctx, pattern.c_str(), 3, err_, sizeof(err_)), 0) << err_;
    ASSERT_EQ(float_adm_map_write_pfm(ctx, pattern.c_str(), 3, err_, sizeof(err_)), 0) << err_;
    EXPECT_EQ(read_file(path("m3.pfm")).substr(0, 3), "Pf\n");
    float_adm_context_free(&ctx);
}

/* A log ended by its last user is closed: thousands of users one after another stay
 * within the descriptor limit, and a later user of a path starts at frame 0. */
TEST_F(OutputPolicy, EndedLogsAreClosedAndForgotten)
{
    /* Past a low descriptor limit, so that a log left open would fail the test. */
    struct rlimit limit, low;
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
    low = limit;
    low.rlim_cur = 128;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
    const int cycles = 300;
    FloatAdmScores scores = {};
    scores.adm2 = 0.5;
    for (int i = 0; i < cycles; i++) {
        const std::string file = path("log" + std::to_string(i) + ".json");
        FloatAdmLog *log = nullptr;
        uint64_t next = 1;
        ASSERT_EQ(float_adm_log_acquire(&log, file.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64,
                                        &next, err_, sizeof(err_)),
                  0)
            << "cycle " << i << ": " << err_;
        ASSERT_EQ(next, 0u);
        ASSERT_EQ(float_adm_log_frame(log, 0, &scores, err_, sizeof(err_)), 0) << err_;
        ASSERT_EQ(float_adm_log_end(&log, err_, sizeof(err_)), 0) << err_;
        ASSERT_EQ(log, nullptr);
        unlink(file.c_str());
    }
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
    /* A released log waits for its file's next user; an ended one does not. */
    const std::string file = path("job.json");
    FloatAdmLog *log = nullptr;
    uint64_t next = 0;
    ASSERT_EQ(float_adm_log_acquire(&log, file.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64, &next,
                                    err_, sizeof(err_)),
              0);
    for (uint64_t frame = 0; frame < 4; frame++)
        ASSERT_EQ(float_adm_log_frame(log, frame, &scores, err_, sizeof(err_)), 0);
    ASSERT_EQ(float_adm_log_release(&log, 4, err_, sizeof(err_)), 0) << err_;
    ASSERT_EQ(float_adm_log_acquire(&log, file.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64, &next,
                                    err_, sizeof(err_)),
              0);
    EXPECT_EQ(next, 4u);
    EXPECT_EQ(float_adm_log_frame_count(log), 4u);
    ASSERT_EQ(float_adm_log_end(&log, err_, sizeof(err_)), 0) << err_;
    ASSERT_EQ(float_adm_log_acquire(&log, file.c_str(), FLOAT_ADM_LOG_JSON, nullptr, 64, 64, &next,
                                    err_, sizeof(err_)),
              0)
        << err_;
    EXPECT_EQ(next, 0u);
    EXPECT_EQ(float_adm_log_frame_count(log), 0u);
    ASSERT_EQ(float_adm_log_end(&log, err_, sizeof(err_)), 0) << err_;
}

/* A map pattern's frame numbers go on after a release, start anew after an end. */
TEST_F(OutputPolicy, MapPatternNumbersSurviveARelease)
{
    const std::string pattern = path("r%d.pfm");
    uint64_t next = 9;
    ASSERT_EQ(float_adm_map_acquire(pattern.c_str(), &next, err_, sizeof(err_)), 0) << err_;
    EXPECT_EQ(next, 0u);
    EXPECT_EQ(float_adm_map_acquire(pattern.c_str(), &next, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_BUSY);
    float_adm_map_release(pattern.c_str(), 4);
    ASSERT_EQ(float_adm_map_acquire(pattern.c_str(), &next, err_, sizeof(err_)), 0) << err_;
    EXPECT_EQ(next, 4u);
    float_adm_map_end(pattern.c_str());
    ASSERT_EQ(float_adm_map_acquire(pattern.c_str(), &next, err_, sizeof(err_)), 0) << err_;
    EXPECT_EQ(next, 0u);
    float_adm_map_end(pattern.c_str());
    EXPECT_EQ(float_adm_map_acquire("no conversion", &next, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_INVALID);
}

/* A failed run's log reads as incomplete in every layout, a footer written before
 * included. */
TEST_F(OutputPolicy, AbandonedLogsReadAsIncomplete)
{
    FloatAdmScores scores = {};
    scores.adm2 = 0.5;
    const FloatAdmLogFormat formats[] = {FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_CSV,
                                         FLOAT_ADM_LOG_SUB};
    const char *expected_end[] = {
        "  ],\n  \"incomplete\": \"frame 2: cannot write \\\"m\\\"\"\n}\n",
        "  </frames>\n  <incomplete reason=\"frame 2: cannot write "
        "&quot;m&quot;\" />\n</VMAF>\n",
        "\nincomplete: frame 2: cannot write \"m\"\n",
        "\nincomplete: frame 2: cannot write \"m\"\n"};
    for (int finished_first = 0; finished_first < 2; finished_first++) {
        for (size_t f = 0; f < 4; f++) {
            const std::string file = path("abandoned" + std::to_string(f));
            FloatAdmLog *log = nullptr;
            ASSERT_EQ(float_adm_log_open(&log, file.c_str(), formats[f], nullptr, 64, 64, err_,
                                         sizeof(err_)),
                      0);
            for (uint64_t frame = 0; frame < 2; frame++) {
                ASSERT_EQ(float_adm_log_frame(log, frame, &scores, err_, sizeof(err_)), 0);
            }
            if (finished_first) {
                ASSERT_EQ(float_adm_log_finish(log, err_, sizeof(err_)), 0);
            }
            ASSERT_EQ(
                float_adm_log_abandon(&log, "frame 2: cannot write \"m\"", err_, sizeof(err_)), 0)
                << err_;
            EXPECT_EQ(log, nullptr);
            const std::string text = read_file(file);
            EXPECT_EQ(text.find("pooled_metrics"), std::string::npos) << text;
            const std::string end = expected_end[f];
            ASSERT_GE(text.size(), end.size());
            EXPECT_EQ(text.substr(text.size() - end.size()), end) << text;
        }
    }
}

} // namespace
