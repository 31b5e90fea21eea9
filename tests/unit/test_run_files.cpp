/*
 * Unit tests: a run's files (float_adm_run_files_*): inputs known by identity, one
 * stream read by one reader, one writer for each place written.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "float_adm.h"

namespace {

class RunFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/test_run.XXXXXX";
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        ASSERT_NE(mkdtemp(buffer.data()), nullptr) << std::strerror(errno);
        dir_ = buffer.data();
        ASSERT_EQ(float_adm_run_files_create(&files_), 0);
        reference_ = path("ref.y4m");
        std::ofstream(reference_) << "YUV4MPEG2 W64 H64 F25:1 C420jpeg\n";
    }
    void TearDown() override
    {
        float_adm_run_files_free(&files_);
        EXPECT_EQ(files_, nullptr);
        EXPECT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0);
    }
    std::string path(const std::string &name) const { return dir_ + "/" + name; }
    int input(const std::string &name, const char *label = nullptr)
    {
        err_[0] = '\0';
        return float_adm_run_files_add_input(files_, name.c_str(), label, err_, sizeof(err_));
    }
    int output(const std::string &name, const char *label = nullptr)
    {
        err_[0] = '\0';
        return float_adm_run_files_add_output(files_, name.c_str(), FLOAT_ADM_OUTPUT_LOG, label,
                                              err_, sizeof(err_));
    }
    std::string err() const { return err_; }

    std::string dir_, reference_;
    FloatAdmRunFiles *files_ = nullptr;
    char err_[512] = "";
};

TEST_F(RunFiles, OnePipeUnderTwoNamesIsRefused)
{
    int ends[2];
    ASSERT_EQ(pipe(ends), 0);
    const std::string fd = std::to_string(ends[0]);
    EXPECT_EQ(input("/dev/fd/" + fd, "--reference"), 0) << err();
    EXPECT_EQ(input("/proc/self/fd/" + fd, "--distorted"), FLOAT_ADM_ERROR_INPUT_SHARED);
    EXPECT_NE(err().find("--reference /dev/fd/" + fd + " and --distorted /proc/self/fd/" + fd),
              std::string::npos)
        << err();
    close(ends[0]);
    close(ends[1]);
}

TEST_F(RunFiles, OneFifoTwiceIsRefused)
{
    ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
    EXPECT_EQ(input(path("fifo")), 0) << err();
    EXPECT_EQ(input(dir_ + "/./fifo"), FLOAT_ADM_ERROR_INPUT_SHARED);
}

TEST_F(RunFiles, OneRegularFileTwiceIsReadTwice)
{
    EXPECT_EQ(input(reference_), 0) << err();
    EXPECT_EQ(input(dir_ + "/./ref.y4m"), 0) << err();
    EXPECT_EQ(input(path("missing.y4m"), "--distorted"), FLOAT_ADM_ERROR_IO);
    EXPECT_NE(err().find("--distorted " + path("missing.y4m") + ": cannot read"), std::string::npos)
        << err();
}

/* An input under another name (a hard link) is still the input. */
TEST_F(RunFiles, AnInputUnderAnotherNameIsNeverWritten)
{
    ASSERT_EQ(link(reference_.c_str(), path("other-name.json").c_str()), 0);
    EXPECT_EQ(input(reference_, "--reference"), 0);
    EXPECT_EQ(output(path("other-name.json"), "--json"), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_NE(err().find("--reference " + reference_), std::string::npos) << err();
}

/* Registered the other way round: the output first, then an input that is it. */
TEST_F(RunFiles, AnOutputIsNoInput)
{
    std::ofstream(path("log.json")) << "";
    EXPECT_EQ(output(path("log.json"), "--json"), FLOAT_ADM_TARGET_REPLACE) << err();
    EXPECT_EQ(input(path("log.json"), "--distorted"), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_NE(err().find("an output of the run"), std::string::npos) << err();
}

/* stdout redirected to an input (">> input") would write into it. */
TEST_F(RunFiles, AnInputThatIsStdoutIsRefused)
{
    const int saved = dup(STDOUT_FILENO);
    ASSERT_GE(saved, 0);
    const int fd = open(reference_.c_str(), O_WRONLY | O_APPEND);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    const int err = input(reference_, "--reference");
    const std::string message = err_;
    ASSERT_EQ(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    close(saved);
    EXPECT_EQ(err, FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_NE(message.find("--reference " + reference_ + " is this run's standard output too"),
              std::string::npos)
        << message;
}

TEST_F(RunFiles, StdoutHasOneWriterUnderAnyName)
{
    EXPECT_EQ(float_adm_run_files_stdout_taken(files_), 0);
    EXPECT_EQ(output("-", "--json"), FLOAT_ADM_TARGET_STDOUT) << err();
    EXPECT_EQ(float_adm_run_files_stdout_taken(files_), 1);
    /* Where stdout is /dev/null, its other names are the null device, which keeps
     * nothing to mix up. */
    struct stat out, null;
    const bool discarded = fstat(STDOUT_FILENO, &out) == 0 && stat("/dev/null", &null) == 0 &&
                           S_ISCHR(out.st_mode) && out.st_rdev == null.st_rdev;
    for (const char *alias : {"-", "/dev/stdout", "/proc/self/fd/1"}) {
        if (discarded && std::strcmp(alias, "-"))
            continue;
        EXPECT_EQ(output(alias, "--csv"), FLOAT_ADM_ERROR_OUTPUT_SHARED) << alias;
        EXPECT_NE(err().find("--json - and --csv " + std::string(alias) + " both write to stdout"),
                  std::string::npos)
            << err();
    }
}

TEST_F(RunFiles, OneFileHasOneWriterUnderAnyName)
{
    EXPECT_EQ(output(path("s.json"), "--json"), FLOAT_ADM_TARGET_NEW);
    EXPECT_EQ(output(dir_ + "/./s.json", "--csv"), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_NE(err().find("both write to the same file"), std::string::npos) << err();
    std::ofstream(path("old.json")) << "";
    EXPECT_EQ(output(path("old.json")), FLOAT_ADM_TARGET_REPLACE);
    ASSERT_EQ(link(path("old.json").c_str(), path("alias.json").c_str()), 0);
    EXPECT_EQ(output(path("alias.json")), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    /* The null device keeps nothing: any number of outputs may go there. */
    EXPECT_EQ(output("/dev/null"), FLOAT_ADM_TARGET_DISCARD);
    EXPECT_EQ(output("/dev/null"), FLOAT_ADM_TARGET_DISCARD);
    EXPECT_EQ(float_adm_run_files_stdout_taken(files_), 0);
}

/* A map pattern's files are known by name: a log or an input that the pattern
 * names, registered before or after it, is refused. */
TEST_F(RunFiles, AMapPatternNamesNoOtherFile)
{
    EXPECT_EQ(output(path("mm1"), "--json"), FLOAT_ADM_TARGET_NEW);
    err_[0] = '\0';
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, path("mm%d").c_str(), "--map-path", err_,
                                                  sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_NE(err().find("--map-path " + path("mm%d") + " gives the name of --json " + path("mm1") +
                         ", another output of the run"),
              std::string::npos)
        << err();
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, (dir_ + "/./m%03d.pfm").c_str(), nullptr,
                                                  err_, sizeof(err_)),
              0)
        << err();
    EXPECT_EQ(output(path("m007.pfm")), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_EQ(output(path("m1234.pfm")), FLOAT_ADM_ERROR_OUTPUT_SHARED);
    EXPECT_EQ(output(path("m07.pfm")), FLOAT_ADM_TARGET_NEW);
    EXPECT_EQ(output(path("m0123.pfm")), FLOAT_ADM_TARGET_NEW);
    std::ofstream(path("m002.pfm")) << "";
    EXPECT_EQ(input(path("m002.pfm")), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, path("ref%d.y4m").c_str(), nullptr, err_,
                                                  sizeof(err_)),
              0);
    std::ofstream(path("ref5.y4m")) << "";
    EXPECT_EQ(input(path("ref5.y4m"), "--distorted"), FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, "no-number", nullptr, err_, sizeof(err_)),
              FLOAT_ADM_ERROR_INVALID);
}

/* The files a pattern would replace that are there already are asked of the policy
 * when the pattern is registered, before any map is written: a file open in the
 * process (an input the face could not name, as ffmpeg's are to the filter), or
 * another program's, is refused then, not at its frame; earlier maps are replaced. */
TEST_F(RunFiles, AMapPatternsFilesThereAlreadyAreCheckedFirst)
{
    std::ofstream(path("old3.pfm")) << "Pf\n1 1\n-1.0\n";
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, path("old%d.pfm").c_str(), nullptr, err_,
                                                  sizeof(err_)),
              0)
        << err();
    std::ofstream(path("held7.pfm")) << "";
    const int fd = open(path("held7.pfm").c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    err_[0] = '\0';
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, path("held%d.pfm").c_str(), nullptr, err_,
                                                  sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_INPUT);
    EXPECT_NE(err().find(path("held7.pfm")), std::string::npos) << err();
    EXPECT_NE(err().find("open in this process"), std::string::npos) << err();
    close(fd);
    std::ofstream(path("notes2.txt")) << "someone else's";
    EXPECT_EQ(float_adm_run_files_add_map_pattern(files_, path("notes%d.txt").c_str(), nullptr,
                                                  err_, sizeof(err_)),
              FLOAT_ADM_ERROR_OUTPUT_NOT_OURS);
    std::ifstream kept(path("notes2.txt"));
    std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "someone else's");
}

TEST_F(RunFiles, BadArguments)
{
    EXPECT_EQ(float_adm_run_files_create(nullptr), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_run_files_add_input(nullptr, "x", nullptr, nullptr, 0),
              FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(input(""), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(
        float_adm_run_files_add_output(nullptr, "x", FLOAT_ADM_OUTPUT_LOG, nullptr, nullptr, 0),
        FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_run_files_stdout_taken(nullptr), 0);
    float_adm_run_files_free(nullptr);
}

} // namespace
