/*
 * Unit tests: the CUDA backend's host side, which needs no device (adm_cuda_host.h): host
 * planes copied into pinned memory over threads, and the rule of `auto`.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

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
    } cases[] = {{17, 17, 0, false},     {33 * 2, 19, 6, true},     {3840, 2160, 0, false},
                 {1031 * 2, 1025, 64, false}, {1919, 1081, 1, true}, {4095 * 2, 3, 0, false}};
    for (const auto &c : cases) {
        const std::vector<uint8_t> src = pattern(c.row_bytes, c.rows, c.gap);
        const ptrdiff_t stride = (ptrdiff_t)(c.row_bytes + c.gap);
        const uint8_t *first = c.upwards ? src.data() + stride * (c.rows - 1) : src.data();
        std::vector<uint8_t> want(c.row_bytes * c.rows);
        for (int y = 0; y < c.rows; y++)
            for (size_t x = 0; x < c.row_bytes; x++)
                want[y * c.row_bytes + x] = first[(c.upwards ? -stride : stride) * y + (ptrdiff_t)x];
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
