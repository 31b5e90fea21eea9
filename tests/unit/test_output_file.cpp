/*
 * Unit tests: files written whole, one run's (float_adm_run_files_begin_output,
 * float_adm_run_files_commit, float_adm_log_set_output): a locked temporary beside each
 * path, one writer at a time, every file of a run landing or none, a path another
 * program wrote meanwhile left alone, and stdout redirected onto a log refused.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "float_adm.h"

namespace {

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool exists(const std::string &path)
{
    struct stat st;
    return lstat(path.c_str(), &st) == 0;
}

void write_all(int fd, const std::string &text)
{
    ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()))
        << std::strerror(errno);
}

class OutputFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/test_file.XXXXXX";
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        ASSERT_NE(mkdtemp(buffer.data()), nullptr) << std::strerror(errno);
        dir_ = buffer.data();
    }
    void TearDown() override { EXPECT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0); }

    std::string path(const std::string &name) const { return dir_ + "/" + name; }
    std::string temporary(const std::string &name) const { return dir_ + "/." + name + ".tmp"; }
    void write(const std::string &name, const std::string &content) const
    {
        std::ofstream(path(name), std::ios::binary) << content;
    }
    /* Begins name as an output of kind in files: the target, or the error. */
    int begin(FloatAdmRunFiles *files, const std::string &name, FloatAdmOutput **output,
              FloatAdmOutputKind kind = FLOAT_ADM_OUTPUT_LOG)
    {
        err_[0] = '\0';
        return float_adm_run_files_begin_output(files, path(name).c_str(), kind, "--json", output,
                                                err_, sizeof(err_));
    }
    std::string err() const { return err_; }

    std::string dir_;
    char err_[512] = "";
};

const char kOldLog[] = "Frame,adm2,\n0,0.5,\n";
const char kNewLog[] = "Frame,adm2,\n0,0.75,\n1,0.25,\n";

/* Bytes go to the temporary; the path keeps the old file until the run commits, and
 * a hard-linked copy of the old file keeps it after. */
TEST_F(OutputFile, ACommitRenamesTheTemporaryIntoPlace)
{
    write("log.csv", kOldLog);
    ASSERT_EQ(link(path("log.csv").c_str(), path("copy.csv").c_str()), 0);
    FloatAdmRunFiles *files = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&files), 0);
    FloatAdmOutput *output = nullptr;
    ASSERT_EQ(begin(files, "log.csv", &output), FLOAT_ADM_TARGET_REPLACE) << err();
    write_all(float_adm_output_fd(output), kNewLog);
    EXPECT_EQ(read_file(path("log.csv")), kOldLog);
    EXPECT_EQ(read_file(temporary("log.csv")), kNewLog);
    ASSERT_EQ(float_adm_run_files_commit(files, err_, sizeof(err_)), 0) << err();
    EXPECT_EQ(read_file(path("log.csv")), kNewLog);
    EXPECT_EQ(read_file(path("copy.csv")), kOldLog);
    EXPECT_FALSE(exists(temporary("log.csv")));
    float_adm_run_files_free(&files);
    EXPECT_EQ(read_file(path("log.csv")), kNewLog);
}

/* A run freed without a commit leaves every path as it was, and no temporary. */
TEST_F(OutputFile, ARunThatFailsWritesNothing)
{
    write("log.csv", kOldLog);
    FloatAdmRunFiles *files = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&files), 0);
    FloatAdmOutput *log = nullptr, *other = nullptr;
    ASSERT_EQ(begin(files, "log.csv", &log), FLOAT_ADM_TARGET_REPLACE) << err();
    ASSERT_EQ(begin(files, "new.csv", &other), FLOAT_ADM_TARGET_NEW) << err();
    write_all(float_adm_output_fd(log), kNewLog);
    write_all(float_adm_output_fd(other), kNewLog);
    float_adm_run_files_free(&files);
    EXPECT_EQ(read_file(path("log.csv")), kOldLog);
    EXPECT_FALSE(exists(path("new.csv")));
    EXPECT_FALSE(exists(temporary("log.csv")));
    EXPECT_FALSE(exists(temporary("new.csv")));
}

/* A second writer of a path is refused at its start, naming the process that holds
 * it: this one (another run's files), or another. */
TEST_F(OutputFile, ASecondWriterIsRefusedNamingTheFirst)
{
    FloatAdmRunFiles *first = nullptr, *second = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&first), 0);
    ASSERT_EQ(float_adm_run_files_create(&second), 0);
    FloatAdmOutput *output = nullptr, *refused = nullptr;
    ASSERT_EQ(begin(first, "log.csv", &output), FLOAT_ADM_TARGET_NEW) << err();
    EXPECT_EQ(begin(second, "log.csv", &refused), FLOAT_ADM_ERROR_BUSY);
    EXPECT_EQ(refused, nullptr);
    EXPECT_NE(err().find(path("log.csv") +
                         ": refusing to write the log there: another writer "
                         "in this process (" +
                         std::to_string(getpid()) + ") is writing it"),
              std::string::npos)
        << err();
    float_adm_run_files_free(&first);

    /* Another process holds the lock on the temporary, as its writer would. */
    int ready[2], release[2];
    ASSERT_EQ(pipe(ready), 0);
    ASSERT_EQ(pipe(release), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const int fd = open(temporary("log.csv").c_str(), O_RDWR | O_CREAT, 0666);
        char byte = fd >= 0 && flock(fd, LOCK_EX) == 0 ? 'y' : 'n';
        (void)!::write(ready[1], &byte, 1);
        (void)!read(release[0], &byte, 1);
        _exit(0);
    }
    char byte = 0;
    ASSERT_EQ(read(ready[0], &byte, 1), 1);
    ASSERT_EQ(byte, 'y');
    EXPECT_EQ(begin(second, "log.csv", &refused), FLOAT_ADM_ERROR_BUSY);
    EXPECT_NE(err().find("process " + std::to_string(child) + " is writing it"), std::string::npos)
        << err();
    EXPECT_EQ(float_adm_output_remove_stale(path("log.csv").c_str(), err_, sizeof(err_)), 0);
    EXPECT_TRUE(exists(temporary("log.csv")));
    ASSERT_EQ(::write(release[1], "x", 1), 1);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    /* The writer died: its temporary is taken over, and the path written. */
    ASSERT_EQ(begin(second, "log.csv", &output), FLOAT_ADM_TARGET_NEW) << err();
    write_all(float_adm_output_fd(output), kNewLog);
    ASSERT_EQ(float_adm_run_files_commit(second, err_, sizeof(err_)), 0) << err();
    EXPECT_EQ(read_file(path("log.csv")), kNewLog);
    float_adm_run_files_free(&second);
    for (int fd : {ready[0], ready[1], release[0], release[1]})
        close(fd);
}

/* A dead writer's temporary is removed by float_adm_output_remove_stale, a live one's
 * never; one that is no temporary of ours is refused rather than taken over. */
TEST_F(OutputFile, TemporariesLeftBehind)
{
    write(".dead.json.tmp", "{\n  \"version\": \"float_adm 1.8.0\",\n  \"fps\"");
    EXPECT_EQ(float_adm_output_remove_stale(path("dead.json").c_str(), err_, sizeof(err_)), 1)
        << err();
    EXPECT_FALSE(exists(temporary("dead.json")));
    EXPECT_EQ(float_adm_output_remove_stale(path("none.json").c_str(), err_, sizeof(err_)), 0);

    FloatAdmRunFiles *files = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&files), 0);
    FloatAdmOutput *output = nullptr;
    write(".notes.json.tmp", "my notes\n");
    EXPECT_EQ(begin(files, "notes.json", &output), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    EXPECT_NE(err().find("its temporary .notes.json.tmp is not a float_adm log"), std::string::npos)
        << err();
    EXPECT_EQ(read_file(temporary("notes.json")), "my notes\n");
    ASSERT_EQ(symlink("/dev/full", temporary("linked.json").c_str()), 0);
    EXPECT_EQ(begin(files, "linked.json", &output), FLOAT_ADM_ERROR_OUTPUT_SYMLINK);
    write("input.yuv", "frames");
    ASSERT_EQ(link(path("input.yuv").c_str(), temporary("hard.json").c_str()), 0);
    EXPECT_EQ(begin(files, "hard.json", &output), FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    EXPECT_NE(err().find("(a hard link)"), std::string::npos) << err();
    EXPECT_EQ(read_file(path("input.yuv")), "frames");
    float_adm_run_files_free(&files);
}

/* A path another program made or wrote while the run wrote its own (ffmpeg's image
 * muxer on the log's name) keeps that program's file, and the run's other files stay
 * out too. */
TEST_F(OutputFile, APathWrittenMeanwhileIsNotReplaced)
{
    write("other.csv", kOldLog);
    FloatAdmRunFiles *files = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&files), 0);
    FloatAdmOutput *log = nullptr, *other = nullptr;
    ASSERT_EQ(begin(files, "x.csv", &log), FLOAT_ADM_TARGET_NEW) << err();
    ASSERT_EQ(begin(files, "other.csv", &other), FLOAT_ADM_TARGET_REPLACE) << err();
    write_all(float_adm_output_fd(log), kNewLog);
    write_all(float_adm_output_fd(other), kNewLog);
    write("x.csv", "P5\n64 64\n255\n");
    EXPECT_EQ(float_adm_run_files_commit(files, err_, sizeof(err_)), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_NE(err().find(path("x.csv") + ": refusing to replace it with the log: another "
                                         "program made it"),
              std::string::npos)
        << err();
    float_adm_run_files_free(&files);
    EXPECT_EQ(read_file(path("x.csv")), "P5\n64 64\n255\n");
    EXPECT_EQ(read_file(path("other.csv")), kOldLog);
    EXPECT_FALSE(exists(temporary("x.csv")));

    /* A log of its own (the filter's) alike: its close is the error. */
    write("y.csv", kOldLog);
    FloatAdmLog *own = nullptr;
    ASSERT_EQ(float_adm_log_open(&own, path("y.csv").c_str(), FLOAT_ADM_LOG_CSV, nullptr, 64, 64,
                                 err_, sizeof(err_)),
              0)
        << err();
    FloatAdmScores scores = {};
    ASSERT_EQ(float_adm_log_frame(own, 0, &scores, err_, sizeof(err_)), 0) << err();
    write("y.csv", "P5\n64 64\n255\n");
    EXPECT_EQ(float_adm_log_close(&own, err_, sizeof(err_)), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_EQ(read_file(path("y.csv")), "P5\n64 64\n255\n");
    EXPECT_FALSE(exists(temporary("y.csv")));
}

/* A log on a run's output lands with the run; the run does not commit while it is
 * open. */
TEST_F(OutputFile, ALogOnARunsOutput)
{
    FloatAdmRunFiles *files = nullptr;
    ASSERT_EQ(float_adm_run_files_create(&files), 0);
    FloatAdmOutput *output = nullptr, *spec = nullptr;
    ASSERT_EQ(begin(files, "log.json", &output), FLOAT_ADM_TARGET_NEW) << err();
    ASSERT_EQ(begin(files, "log.spec.json", &spec, FLOAT_ADM_OUTPUT_SPEC), FLOAT_ADM_TARGET_NEW)
        << err();
    FloatAdmLog *log = nullptr;
    ASSERT_EQ(
        float_adm_log_open(&log, nullptr, FLOAT_ADM_LOG_JSON, nullptr, 64, 64, err_, sizeof(err_)),
        0);
    EXPECT_EQ(float_adm_log_set_output(log, spec, err_, sizeof(err_)), FLOAT_ADM_ERROR_INVALID);
    ASSERT_EQ(float_adm_log_set_output(log, output, err_, sizeof(err_)), 0) << err();
    FloatAdmScores scores = {};
    scores.adm2 = 0.5;
    ASSERT_EQ(float_adm_log_frame(log, 0, &scores, err_, sizeof(err_)), 0) << err();
    EXPECT_EQ(float_adm_run_files_commit(files, err_, sizeof(err_)), FLOAT_ADM_ERROR_INVALID);
    ASSERT_EQ(float_adm_log_close(&log, err_, sizeof(err_)), 0) << err();
    EXPECT_FALSE(exists(path("log.json")));
    write_all(float_adm_output_fd(spec), "{\"float_adm_spec\": 1}\n");
    ASSERT_EQ(float_adm_run_files_commit(files, err_, sizeof(err_)), 0) << err();
    EXPECT_NE(read_file(path("log.json")).find("\"adm2\": 0.5"), std::string::npos);
    EXPECT_EQ(read_file(path("log.spec.json")), "{\"float_adm_spec\": 1}\n");
    float_adm_run_files_free(&files);
}

/* stdout redirected onto a file that holds a log already (">> log") or data it would
 * overwrite in place ("1<> file") is no place for a log; an empty file is, and so is
 * a file of other data appended to. */
TEST_F(OutputFile, StdoutRedirectedOntoALogIsRefused)
{
    write("old.json", "{\n  \"version\": \"float_adm 1.8.0\"\n}\n");
    write("notes.txt", "notes\n");
    write("empty.json", "");
    struct Case {
        const char *file;
        int flags;
        int want;
    } cases[] = {
        {"old.json", O_WRONLY | O_APPEND, FLOAT_ADM_ERROR_OUTPUT_SHARED},
        {"old.json", O_RDWR, FLOAT_ADM_ERROR_OUTPUT_SHARED},
        {"notes.txt", O_RDWR, FLOAT_ADM_ERROR_OUTPUT_SHARED},
        {"notes.txt", O_WRONLY | O_APPEND, FLOAT_ADM_TARGET_STDOUT},
        {"empty.json", O_WRONLY, FLOAT_ADM_TARGET_STDOUT},
    };
    std::fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    ASSERT_GE(saved, 0);
    for (const Case &c : cases) {
        const int fd = open(path(c.file).c_str(), c.flags);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
        close(fd);
        std::vector<std::string> messages;
        std::vector<int> got;
        for (const std::string &name : {std::string("-"), path(c.file)}) {
            err_[0] = '\0';
            got.push_back(float_adm_output_check(name.c_str(), FLOAT_ADM_OUTPUT_LOG, nullptr, 0,
                                                 err_, sizeof(err_)));
            messages.push_back(err_);
        }
        ASSERT_EQ(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
        for (size_t i = 0; i < got.size(); i++) {
            EXPECT_EQ(got[i], c.want) << c.file << " " << c.flags << ": " << messages[i];
            if (c.want < 0) {
                EXPECT_NE(messages[i].find("stdout is redirected onto"), std::string::npos)
                    << messages[i];
            }
        }
    }
    close(saved);
    EXPECT_EQ(read_file(path("old.json")), "{\n  \"version\": \"float_adm 1.8.0\"\n}\n");
}

} // namespace
