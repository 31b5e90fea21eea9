/*
 * Unit tests: the CUDA backend's host side, which needs no device (adm_cuda_host.h): host
 * planes copied into pinned memory over threads, planes of files read, and the rule of
 * `auto`.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include "adm_cuda_host.h"

namespace {

using adm_cuda::AutoChoice;
using adm_cuda::AutoFacts;

/* rows x row_bytes of distinct bytes, with a gap of `gap` bytes after each row. */
std::vector<uint8_t> pattern(size_t row_bytes, int rows, size_t gap)
{
    std::vector<uint8_t> bytes((row_bytes + gap) * rows);
    uint32_t state = 12345;
    for (uint8_t &b : bytes) {
        state = state * 1664525u + 1013904223u;
        b = static_cast<uint8_t>(state >> 24);
    }
    return bytes;
}

} // namespace

TEST(CudaHost, RowsCopiedOverThreadsAreTheRows)
{
    adm::ThreadPool pool(4);
    /* 8-bit and 16-bit rows of odd sizes, small (one band) and large (bands on threads),
     * rows forwards, with a gap, and upwards (a negative stride). */
    const struct {
        size_t row_bytes;
        int rows;
        size_t gap;
        bool upwards;
    } cases[] = {{17, 17, 0, false},          {33 * 2, 19, 6, true}, {3840, 2160, 0, false},
                 {1031 * 2, 1025, 64, false}, {1919, 1081, 1, true}, {4095 * 2, 3, 0, false}};
    for (const auto &c : cases) {
        const std::vector<uint8_t> src = pattern(c.row_bytes, c.rows, c.gap);
        const ptrdiff_t stride = (ptrdiff_t)(c.row_bytes + c.gap);
        const uint8_t *first = c.upwards ? src.data() + stride * (c.rows - 1) : src.data();
        std::vector<uint8_t> want(c.row_bytes * c.rows);
        for (int y = 0; y < c.rows; y++)
            for (size_t x = 0; x < c.row_bytes; x++)
                want[y * c.row_bytes + x] =
                    first[(c.upwards ? -stride : stride) * y + (ptrdiff_t)x];
        for (int parts : {1, 2, 3, 4, 16}) {
            SCOPED_TRACE(std::to_string(c.row_bytes) + " bytes x " + std::to_string(c.rows) +
                         " rows, " + std::to_string(parts) + " parts");
            std::vector<uint8_t> dest(want.size(), 0xee);
            adm_cuda::copy_rows(dest.data(), c.row_bytes, first, c.upwards ? -stride : stride,
                                c.row_bytes, c.rows, &pool, parts);
            EXPECT_TRUE(dest == want);
            std::vector<uint8_t> alone(want.size(), 0xee);
            adm_cuda::copy_rows(alone.data(), c.row_bytes, first, c.upwards ? -stride : stride,
                                c.row_bytes, c.rows, nullptr, parts);
            EXPECT_TRUE(alone == want);
        }
    }
}

TEST(CudaHost, FileBytesReadInPartsAreTheFilesBytes)
{
    /* What a plane of a file is read with where its pages are not pinned, and its rows on
     * pages shared with other bytes: any offset, in parts or not; a file that ends first,
     * and a descriptor that cannot be read, are told apart. */
    adm::ThreadPool pool(4);
    const std::vector<uint8_t> bytes = pattern(3000, 1000, 0);
    char path[] = "/tmp/test_cuda_host.XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    unlink(path);
    ASSERT_EQ(write(fd, bytes.data(), bytes.size()), (ssize_t)bytes.size());
    for (const uint64_t offset : {0ull, 6ull, 4096ull, 123457ull}) {
        for (const size_t length : {(size_t)1, (size_t)4095, bytes.size() - offset}) {
            for (int parts : {1, 3, 4}) {
                SCOPED_TRACE(std::to_string(length) + " bytes at " + std::to_string(offset) + ", " +
                             std::to_string(parts) + " parts");
                std::vector<uint8_t> got(length, 0xee);
                EXPECT_EQ(adm_cuda::read_file_bytes(fd, offset, got.data(), length, &pool, parts),
                          0);
                EXPECT_TRUE(std::equal(got.begin(), got.end(), bytes.begin() + (long)offset));
            }
        }
    }
    std::vector<uint8_t> past(4096);
    EXPECT_EQ(
        adm_cuda::read_file_bytes(fd, bytes.size() - 100, past.data(), past.size(), nullptr, 1),
        -1);
    std::vector<uint8_t> many(size_t(2) << 20);
    EXPECT_EQ(adm_cuda::read_file_bytes(fd, bytes.size() - 100, many.data(), many.size(), &pool, 4),
              -1);
    close(fd);
    EXPECT_EQ(adm_cuda::read_file_bytes(fd, 0, past.data(), past.size(), nullptr, 1), EBADF);
}

TEST(CudaHost, HostThreadsAndDepthTheLibraryTakes)
{
    EXPECT_EQ(adm_cuda::host_threads_choice(0), 1);
    EXPECT_EQ(adm_cuda::host_threads_choice(2), 1);
    EXPECT_EQ(adm_cuda::host_threads_choice(8), 2);
    EXPECT_EQ(adm_cuda::host_threads_choice(16), 4);
    EXPECT_EQ(adm_cuda::host_threads_choice(256), 4);
    EXPECT_GE(adm_cuda::kDefaultInFlight, 3); /* scored, uploading, prepared on the host */
    EXPECT_LE(adm_cuda::kDefaultInFlight, adm_cuda::kMaxInFlight);
}

TEST(CudaHost, AutoTakesTheCpuWithoutADeviceAndSaysWhy)
{
    AutoFacts facts;
    facts.no_device = "the NVIDIA driver's CUDA library could not be loaded (libcuda.so.1)";
    facts.width = 3840;
    facts.height = 2160;
    const AutoChoice choice = adm_cuda::choose_backend(facts);
    EXPECT_FALSE(choice.cuda);
    EXPECT_EQ(choice.why, "no usable CUDA device (the NVIDIA driver's CUDA library could not "
                          "be loaded (libcuda.so.1))");
}

TEST(CudaHost, AutoTakesTheCpuWhereTheDeviceWouldNotGiveItsBits)
{
    AutoFacts facts;
    facts.devices = 1;
    facts.exact = false;
    facts.inexact = "powf: this host's libm is neither of glibc's builds";
    facts.width = 3840;
    facts.height = 2160;
    const AutoChoice choice = adm_cuda::choose_backend(facts);
    EXPECT_FALSE(choice.cuda);
    EXPECT_NE(choice.why.find("would not give this CPU's bits (powf: this host's libm"),
              std::string::npos)
        << choice.why;
}

TEST(CudaHost, AutoWeighsTheDeviceAgainstTheCpuThreads)
{
    AutoFacts facts;
    facts.devices = 1;
    facts.width = 3840;
    facts.height = 2160;
    facts.cpu_threads = 1;
    AutoChoice choice = adm_cuda::choose_backend(facts);
    EXPECT_TRUE(choice.cuda) << choice.why;
    EXPECT_EQ(choice.why.find("the CUDA device is estimated faster than the CPU on 1 thread for "
                              "3840x2160 8-bit frames ("),
              0u)
        << choice.why;
    /* Enough CPU threads outrun the copies to the device. */
    facts.cpu_threads = 256;
    choice = adm_cuda::choose_backend(facts);
    EXPECT_FALSE(choice.cuda) << choice.why;
    EXPECT_EQ(choice.why.find("the CPU on 256 threads is estimated faster than the CUDA device"),
              0u)
        << choice.why;
    /* A few small frames do not pay for the device's start; many do. */
    facts.width = 576;
    facts.height = 324;
    facts.cpu_threads = 1;
    facts.frames = 6;
    choice = adm_cuda::choose_backend(facts);
    EXPECT_FALSE(choice.cuda) << choice.why;
    EXPECT_NE(choice.why.find("(6 frames: "), std::string::npos) << choice.why;
    facts.frames = 100000;
    EXPECT_TRUE(adm_cuda::choose_backend(facts).cuda);
    /* The rule's own estimates: a frame costs the CPU less on more threads, the device
     * more for 2-byte samples. */
    EXPECT_LT(adm_cuda::cpu_frame_ms(1920, 1080, 16), adm_cuda::cpu_frame_ms(1920, 1080, 4));
    EXPECT_GT(adm_cuda::device_frame_ms(1920, 1080, 10), adm_cuda::device_frame_ms(1920, 1080, 8));
}

TEST(CudaHost, PlanesReadInPlacePinOnlyTheirOwnWholePages)
{
    const size_t page = 4096;
    /* Planes of 8 and 16 bits, odd widths, rows with gaps, starting anywhere in a page;
     * a 3840x2160 plane as numpy lays it (16 bytes into a page), and two planes side by
     * side in one block (a (2, h, w) array), whose shared page neither may pin. */
    struct Case {
        uintptr_t data;
        ptrdiff_t pitch;
        size_t row_bytes;
        int rows;
    };
    std::vector<Case> cases = {{0x10000010, 3840, 3840, 2160},
                               {0x10000000 + 3840 * 2160 + 16, 3840, 3840, 2160},
                               {0x20000000, 1920, 1920, 1080},
                               {0x30000123, 2 * 1031 + 64, 2 * 1031, 1025},
                               {0x40000ff0, 1919, 1919, 1081}};
    uint32_t state = 99;
    for (int k = 0; k < 2000; k++) {
        state = state * 1664525u + 1013904223u;
        const size_t row = 16 + state % 9000;
        state = state * 1664525u + 1013904223u;
        cases.push_back({0x50000000 + state % 8192, (ptrdiff_t)(row + state % 200), row,
                         1 + (int)(state >> 20) % 700});
    }
    int pinned = 0;
    for (const Case &c : cases) {
        const adm_cuda::InPlaceRows r = adm_cuda::in_place_rows(c.data, c.pitch, c.row_bytes,
                                                                c.rows, page);
        const uintptr_t end = c.data + (uintptr_t)c.pitch * (c.rows - 1) + c.row_bytes;
        if (!r.bytes)
            continue;
        pinned++;
        SCOPED_TRACE(std::to_string(c.data) + " " + std::to_string(c.pitch) + " " +
                     std::to_string(c.row_bytes) + " x " + std::to_string(c.rows));
        /* Whole pages, all within the plane's bytes: no other allocation's. */
        EXPECT_EQ(r.begin % page, 0u);
        EXPECT_EQ(r.bytes % page, 0u);
        EXPECT_GE(r.begin, c.data);
        EXPECT_LE(r.begin + r.bytes, end);
        EXPECT_GE(r.bytes, size_t(64) << 10);
        /* The rows read in place lie in them; those before and after do not. */
        ASSERT_LT(r.first_row, r.end_row);
        ASSERT_LE(r.end_row, c.rows);
        EXPECT_GE(c.data + (uintptr_t)c.pitch * r.first_row, r.begin);
        EXPECT_LE(c.data + (uintptr_t)c.pitch * (r.end_row - 1) + c.row_bytes, r.begin + r.bytes);
        if (r.first_row > 0) {
            EXPECT_LT(c.data + (uintptr_t)c.pitch * (r.first_row - 1), r.begin);
        }
        if (r.end_row < c.rows) {
            EXPECT_GT(c.data + (uintptr_t)c.pitch * r.end_row + c.row_bytes, r.begin + r.bytes);
        }
    }
    EXPECT_GT(pinned, 500);
    /* The first two cases: a 4K plane 16 bytes into a page reads all but three rows in
     * place (the first two and the last touch shared pages), and so does the plane after
     * it in the same block. */
    const adm_cuda::InPlaceRows a = adm_cuda::in_place_rows(0x10000010, 3840, 3840, 2160, page);
    const adm_cuda::InPlaceRows b = adm_cuda::in_place_rows(0x10000000 + 3840 * 2160 + 16, 3840,
                                                            3840, 2160, page);
    EXPECT_EQ(a.first_row, 2);
    EXPECT_EQ(a.end_row, 2159);
    EXPECT_LE(a.begin + a.bytes, b.begin);
    EXPECT_EQ(b.end_row, 2159);
    /* Rows upwards, and planes of fewer than 64 KiB of whole pages: copied whole. */
    EXPECT_EQ(adm_cuda::in_place_rows(0x10000000, -3840, 3840, 2160, page).bytes, 0u);
    EXPECT_EQ(adm_cuda::in_place_rows(0x10000000, 64, 64, 64, page).bytes, 0u);
}
