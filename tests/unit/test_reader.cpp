/*
 * Tests of the library's raw and y4m reader (float_adm_reader_*) and pixel formats.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
