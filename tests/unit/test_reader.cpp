/*
 * Tests of the library's raw and y4m reader (float_adm_reader_*) and pixel formats.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "float_adm.h"

namespace {

/* A file with these bytes, removed at the end of the test. */
struct TempFile {
    std::string path;
    explicit TempFile(const std::string &bytes, const char *suffix = ".yuv")
    {
        const char *base = std::getenv("TMPDIR");
        path = std::string(base && *base ? base : "/tmp") + "/test_reader." +
               std::to_string(getpid()) + "." + std::to_string(counter()++) + suffix;
        FILE *f = std::fopen(path.c_str(), "wb");
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    ~TempFile() { unlink(path.c_str()); }
    static int &counter()
    {
        static int n = 0;
        return n;
    }
};

struct Reader {
    FloatAdmReader *r = nullptr;
    char err[1024] = "";
    int ret;
    explicit Reader(const std::string &path)
    {
        ret = float_adm_reader_open(&r, path.c_str(), err, sizeof(err));
    }
    ~Reader() { float_adm_reader_free(&r); }
};

FloatAdmFrameFormat format_of(int w, int h, const char *pix_fmt)
{
    FloatAdmFrameFormat f;
    EXPECT_EQ(float_adm_frame_format(&f, w, h, pix_fmt, nullptr, 0), 0);
    return f;
}

/* Frame k of a 17x17 gray clip: every byte k. */
std::string gray_frames(int count)
{
    std::string bytes;
    for (int k = 0; k < count; k++)
        bytes += std::string(17 * 17, static_cast<char>(k));
    return bytes;
}

} // namespace

TEST(Reader, FrameSizesOfThePixelFormats)
{
    const FloatAdmFrameFormat f = format_of(33, 17, "yuv420p10le");
    EXPECT_EQ(f.bit_depth, 10);
    EXPECT_EQ(f.luma_bytes, 33u * 17 * 2);
    EXPECT_EQ(f.frame_bytes, 33u * 17 * 2 + 2u * 17 * 9 * 2); /* chroma rounds up */
    char err[512];
    FloatAdmFrameFormat g;
    EXPECT_EQ(float_adm_frame_format(&g, 17, 17, "nv12", err, sizeof(err)),
              FLOAT_ADM_ERROR_NOT_FOUND);
    EXPECT_NE(std::string(err).find("yuv420p, "), std::string::npos) << err;
    EXPECT_EQ(float_adm_pixel_format_same_layout("yuvj420p", "yuv420p"), 1);
    EXPECT_EQ(float_adm_pixel_format_same_layout("yuv422p", "yuv420p"), 0);
    char tag[32];
    ASSERT_EQ(float_adm_pixel_format_y4m_tag("yuv444p10le", tag, sizeof(tag)), 0);
    EXPECT_STREQ(tag, "444p10");
    EXPECT_STREQ(float_adm_pixel_format_name(0), "yuv420p");
}

TEST(Reader, RawFramesInAnyOrderAndAPartialEnd)
{
    TempFile file(gray_frames(3) + std::string(100, 'x'));
    Reader reader(file.path);
    ASSERT_EQ(reader.ret, 0) << reader.err;
    EXPECT_EQ(float_adm_reader_header(reader.r, nullptr, nullptr, nullptr), 0);
    const FloatAdmFrameFormat f = format_of(17, 17, "gray");
    ASSERT_EQ(float_adm_reader_start(reader.r, &f, reader.err, sizeof(reader.err)), 0);
    EXPECT_EQ(float_adm_reader_frame_count(reader.r), 3u);
    char why[256];
    ASSERT_EQ(float_adm_reader_incomplete(reader.r, why, sizeof(why)), 1);
    EXPECT_NE(std::string(why).find("frames of 17x17 gray: the file ends inside frame 3"),
              std::string::npos)
        << why;
    std::vector<unsigned char> luma(f.luma_bytes);
    for (int k : {2, 0, 1}) {
        ASSERT_EQ(float_adm_reader_read_luma(reader.r, k, luma.data(), nullptr, 0), 0);
        EXPECT_EQ(luma[0], k);
        EXPECT_EQ(luma.back(), k);
    }
    EXPECT_EQ(float_adm_reader_read_luma(reader.r, 3, luma.data(), nullptr, 0),
              FLOAT_ADM_ERROR_INVALID);
}

TEST(Reader, Y4mHeaderRateAndInterlacing)
{
    std::string frames;
    for (int k = 0; k < 2; k++)
        frames += "FRAME\n" + std::string(17 * 17, static_cast<char>(k));
    TempFile progressive("YUV4MPEG2 W17 H17 F30000:1001 Ip Cmono\n" + frames, ".y4m");
    TempFile interlaced("YUV4MPEG2 W17 H17 F25:1 Ib Cmono\n" + frames, ".y4m");
    Reader p(progressive.path), i(interlaced.path);
    ASSERT_EQ(p.ret, 0) << p.err;
    ASSERT_EQ(i.ret, 0) << i.err;
    FloatAdmFrameFormat header;
    int num = 0, den = 0;
    ASSERT_EQ(float_adm_reader_header(p.r, &header, &num, &den), 1);
    EXPECT_EQ(header.width, 17);
    EXPECT_STREQ(header.pixel_format, "gray");
    EXPECT_EQ(num, 30000);
    EXPECT_EQ(den, 1001);
    EXPECT_EQ(float_adm_reader_warning(p.r), nullptr);
    ASSERT_NE(float_adm_reader_warning(i.r), nullptr);
    EXPECT_NE(std::string(float_adm_reader_warning(i.r)).find("Ib (interlaced, bottom field"),
              std::string::npos);
    ASSERT_EQ(float_adm_reader_start(i.r, &header, nullptr, 0), 0);
    EXPECT_EQ(float_adm_reader_frame_count(i.r), 2u);
    EXPECT_EQ(float_adm_reader_incomplete(i.r, nullptr, 0), 0);
}

TEST(Reader, ContainersAreNamedWithWhatScoresThem)
{
    TempFile mp4(std::string("\0\0\0\x20"
                             "ftypisom",
                             12) +
                     std::string(64, '\0'),
                 ".mp4");
    Reader reader(mp4.path);
    EXPECT_EQ(reader.ret, FLOAT_ADM_ERROR_UNSUPPORTED);
    const std::string message = reader.err;
    EXPECT_NE(message.find("MP4/QuickTime container: float_adm reads raw YUV and y4m"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("python3 -m floatadm score"), std::string::npos) << message;
    EXPECT_EQ(reader.r, nullptr);
}

namespace {

/* count frames of format f (y4m: with FRAME lines that carry a parameter), each byte
 * from a xorshift of its position and frame, so that a part read to the wrong place shows. */
std::string patterned_frames(const FloatAdmFrameFormat &f, int count, bool y4m)
{
    std::string bytes;
    uint32_t state = 0x9e3779b9u;
    for (int k = 0; k < count; k++) {
        if (y4m)
            bytes += "FRAME Ixyz\n";
        for (uint64_t i = 0; i < f.frame_bytes; i++) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            bytes += static_cast<char>(state >> 24);
        }
    }
    return bytes;
}

/* Every frame of path as read with `threads` (float_adm_reader_set_threads), frames in
 * the order given, else in order by read_next_luma. */
std::vector<std::string> read_all(const std::string &path, const FloatAdmFrameFormat &f,
                                  int threads, const std::vector<int> &order)
{
    Reader reader(path);
    EXPECT_EQ(reader.ret, 0) << reader.err;
    EXPECT_EQ(float_adm_reader_set_threads(reader.r, threads), 0);
    EXPECT_EQ(float_adm_reader_start(reader.r, &f, reader.err, sizeof(reader.err)), 0)
        << reader.err;
    std::vector<std::string> frames;
    std::string luma(f.luma_bytes, '\0');
    for (int k : order) {
        EXPECT_EQ(float_adm_reader_read_luma(reader.r, k, &luma[0], reader.err, sizeof(reader.err)),
                  0)
            << reader.err;
        frames.push_back(luma);
    }
    while (order.empty() &&
           float_adm_reader_read_next_luma(reader.r, &luma[0], reader.err, sizeof(reader.err)) == 1)
        frames.push_back(luma);
    return frames;
}

} // namespace

TEST(Reader, FramesReadInPartsAreTheSameBytes)
{
    /* Sizes that split into parts (at least 2 MiB of luma), odd widths and heights. */
    const struct {
        int width, height;
        const char *pix_fmt;
    } cases[] = {{1031, 2049, "yuv420p"},
                 {1031, 1031, "yuv420p10le"},
                 {1023, 1025, "yuv444p12le"},
                 {1031, 1033, "yuv422p16le"},
                 {2049, 1031, "gray"}};
    for (const auto &c : cases) {
        for (bool y4m : {false, true}) {
            const FloatAdmFrameFormat f = format_of(c.width, c.height, c.pix_fmt);
            char tag[32];
            ASSERT_EQ(float_adm_pixel_format_y4m_tag(c.pix_fmt, tag, sizeof(tag)), 0);
            const std::string header = "YUV4MPEG2 W" + std::to_string(c.width) + " H" +
                                       std::to_string(c.height) + " C" + tag + "\n";
            TempFile file((y4m ? header : std::string()) + patterned_frames(f, 3, y4m),
                          y4m ? ".y4m" : ".yuv");
            const std::vector<int> order = {2, 0, 1};
            const std::vector<std::string> one = read_all(file.path, f, 1, order);
            ASSERT_EQ(one.size(), 3u);
            for (int threads : {2, 3, 0, 7}) {
                SCOPED_TRACE(std::string(c.pix_fmt) + (y4m ? " y4m" : " raw") + ", threads " +
                             std::to_string(threads));
                EXPECT_TRUE(read_all(file.path, f, threads, order) == one);
                const std::vector<std::string> in_order = read_all(file.path, f, threads, {});
                ASSERT_EQ(in_order.size(), 3u);
                EXPECT_TRUE(in_order[0] == one[1] && in_order[1] == one[2] &&
                            in_order[2] == one[0]);
            }
        }
    }
}

TEST(Reader, FramesFromAPipeAreReadInOrderWhateverTheThreads)
{
    const FloatAdmFrameFormat f = format_of(1031, 1031, "yuv420p10le");
    const std::string bytes = patterned_frames(f, 2, false);
    TempFile file(bytes);
    const std::vector<std::string> expected = read_all(file.path, f, 1, {});
    ASSERT_EQ(expected.size(), 2u);
    const std::string fifo = file.path + ".fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        FILE *out = std::fopen(fifo.c_str(), "wb");
        if (out) {
            std::fwrite(bytes.data(), 1, bytes.size(), out);
            std::fclose(out);
        }
    });
    const std::vector<std::string> got = read_all(fifo, f, 4, {});
    writer.join();
    unlink(fifo.c_str());
    EXPECT_TRUE(got == expected);
}

TEST(Reader, AFileCutShortWhileReadInPartsIsAnError)
{
    const FloatAdmFrameFormat f = format_of(2049, 1031, "gray");
    TempFile file(patterned_frames(f, 2, false));
    Reader reader(file.path);
    ASSERT_EQ(reader.ret, 0) << reader.err;
    ASSERT_EQ(float_adm_reader_set_threads(reader.r, 4), 0);
    ASSERT_EQ(float_adm_reader_start(reader.r, &f, reader.err, sizeof(reader.err)), 0);
    ASSERT_EQ(truncate(file.path.c_str(), f.frame_bytes + f.luma_bytes / 2), 0);
    std::string luma(f.luma_bytes, '\0');
    EXPECT_EQ(float_adm_reader_read_luma(reader.r, 1, &luma[0], reader.err, sizeof(reader.err)),
              FLOAT_ADM_ERROR_IO);
    EXPECT_NE(std::string(reader.err).find("cannot read frame 1: the file ended"),
              std::string::npos)
        << reader.err;
    EXPECT_EQ(float_adm_reader_set_threads(reader.r, -1), FLOAT_ADM_ERROR_INVALID);
    EXPECT_EQ(float_adm_reader_set_threads(reader.r, 65), FLOAT_ADM_ERROR_INVALID);
}

TEST(Reader, EachFramesLumaLiesWhereTheReaderSays)
{
    /* What float_adm_cuda_submit_file reads in place: the bytes at the place given are
     * those read_luma reads, raw and y4m (each frame behind its FRAME line), 8 to 16
     * bits, odd sizes. */
    const struct {
        int width, height;
        const char *pix_fmt;
    } cases[] = {
        {33, 17, "yuv444p"}, {63, 65, "yuv444p10le"}, {426, 240, "yuv422p16le"}, {17, 17, "gray"}};
    for (const auto &c : cases) {
        for (bool y4m : {false, true}) {
            SCOPED_TRACE(std::string(c.pix_fmt) + (y4m ? " y4m" : " raw"));
            const FloatAdmFrameFormat f = format_of(c.width, c.height, c.pix_fmt);
            char tag[32];
            ASSERT_EQ(float_adm_pixel_format_y4m_tag(c.pix_fmt, tag, sizeof(tag)), 0);
            const std::string header = "YUV4MPEG2 W" + std::to_string(c.width) + " H" +
                                       std::to_string(c.height) + " C" + tag + "\n";
            const std::string bytes = (y4m ? header : std::string()) + patterned_frames(f, 3, y4m);
            TempFile file(bytes, y4m ? ".y4m" : ".yuv");
            Reader reader(file.path);
            ASSERT_EQ(reader.ret, 0) << reader.err;
            int fd = -1;
            uint64_t offset = 0;
            EXPECT_EQ(float_adm_reader_luma_at(reader.r, 0, &fd, &offset),
                      FLOAT_ADM_ERROR_INVALID); /* not started */
            ASSERT_EQ(float_adm_reader_start(reader.r, &f, reader.err, sizeof(reader.err)), 0);
            for (uint64_t k = 0; k < 3; k++) {
                ASSERT_EQ(float_adm_reader_luma_at(reader.r, k, &fd, &offset), 1);
                std::string luma(f.luma_bytes, '\0');
                ASSERT_EQ(float_adm_reader_read_luma(reader.r, k, &luma[0], reader.err,
                                                     sizeof(reader.err)),
                          0);
                ASSERT_LE(offset + f.luma_bytes, bytes.size());
                EXPECT_TRUE(bytes.compare(offset, f.luma_bytes, luma) == 0) << "frame " << k;
                std::string at(f.luma_bytes, '\0');
                EXPECT_EQ(pread(fd, &at[0], at.size(), (off_t)offset), (ssize_t)at.size());
                EXPECT_TRUE(at == luma) << "frame " << k;
            }
            EXPECT_EQ(float_adm_reader_luma_at(reader.r, 3, &fd, &offset), FLOAT_ADM_ERROR_INVALID);
        }
    }
}

TEST(Reader, AStreamHasNoPlaces)
{
    const FloatAdmFrameFormat f = format_of(17, 17, "gray");
    TempFile file(gray_frames(2));
    const std::string fifo = file.path + ".fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        FILE *out = std::fopen(fifo.c_str(), "wb");
        if (out) {
            const std::string bytes = gray_frames(2);
            std::fwrite(bytes.data(), 1, bytes.size(), out);
            std::fclose(out);
        }
    });
    {
        Reader reader(fifo);
        ASSERT_EQ(reader.ret, 0) << reader.err;
        ASSERT_EQ(float_adm_reader_start(reader.r, &f, reader.err, sizeof(reader.err)), 0);
        int fd = -1;
        uint64_t offset = 0;
        EXPECT_EQ(float_adm_reader_luma_at(reader.r, 0, &fd, &offset), 0);
        std::string luma(f.luma_bytes, '\0');
        while (float_adm_reader_read_next_luma(reader.r, &luma[0], reader.err,
                                               sizeof(reader.err)) == 1) {
        }
    }
    writer.join();
    unlink(fifo.c_str());
}
