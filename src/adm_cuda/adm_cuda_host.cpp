/*
 * float_adm CUDA backend: the host's side of frames from host memory (adm_cuda_host.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_host.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace adm_cuda {
namespace {

constexpr size_t kCopyPartMin = size_t(512) << 10;
/* Fewer whole pages than this in a plane: copied, which costs less than pinning them. */
constexpr size_t kPinnedMin = size_t(64) << 10;

struct RowCopy {
    uint8_t *dest;
    size_t dest_pitch;
    const uint8_t *src;
    ptrdiff_t src_stride;
    size_t row_bytes;
    int rows;
};

int copy_band(void *arg, int part, int parts)
{
    const RowCopy &c = *static_cast<const RowCopy *>(arg);
    const int first = (int)((int64_t)c.rows * part / parts);
    const int end = (int)((int64_t)c.rows * (part + 1) / parts);
    if (c.src_stride == (ptrdiff_t)c.row_bytes && c.dest_pitch == c.row_bytes) {
        std::memcpy(c.dest + (size_t)first * c.row_bytes, c.src + (size_t)first * c.row_bytes,
                    (size_t)(end - first) * c.row_bytes);
        return 0;
    }
    for (int y = first; y < end; y++)
        std::memcpy(c.dest + (size_t)y * c.dest_pitch, c.src + (ptrdiff_t)y * c.src_stride,
                    c.row_bytes);
    return 0;
}

/*
 * The estimates of `auto`'s rule, from the NVIDIA H100 and its 16-core Xeon host
 * (docs/perf-cuda.md, "Frames from host memory"): the CPU path scored a 3840x2160 8-bit
 * pair in 1.87 ms on 16 threads, 3.6 ns a pixel on one; the device's path from host
 * memory is bound by moving the two luma planes (a 4K 8-bit pair, 16.6 MB, in 0.9 ms),
 * plus a fixed cost a frame; a process's first context starts the driver, compiles
 * or loads the kernels and probes the host's division.
 */
constexpr double kCpuNsPerPixel = 3.6;
constexpr double kDeviceBytesPerMs = 18.5e6;
constexpr double kDeviceFrameMs = 0.06;
constexpr double kDeviceStartMs = 300;

struct FileRead {
    int fd;
    uint64_t offset;
    uint8_t *dest;
    size_t bytes;
};

/* Part `part` of a FileRead: 0, an errno, or -1 at the file's end. */
int read_part(void *arg, int part, int parts)
{
    const FileRead &r = *static_cast<const FileRead *>(arg);
    size_t at = r.bytes * (size_t)part / (size_t)parts;
    const size_t end = r.bytes * (size_t)(part + 1) / (size_t)parts;
    while (at < end) {
        const ssize_t got = pread(r.fd, r.dest + at, end - at, (off_t)(r.offset + at));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return got < 0 ? errno : -1;
        at += (size_t)got;
    }
    return 0;
}

} // namespace

int host_threads_choice(unsigned hardware_threads)
{
    return (int)std::min(4u, std::max(1u, hardware_threads / 4));
}

void copy_rows(uint8_t *dest, size_t dest_pitch, const uint8_t *src, ptrdiff_t src_stride,
               size_t row_bytes, int rows, adm::ThreadPool *pool, int parts)
{
    RowCopy copy = {dest, dest_pitch, src, src_stride, row_bytes, rows};
    const size_t bytes = row_bytes * (size_t)std::max(rows, 0);
    parts = (int)std::min<size_t>(
        {(size_t)std::max(parts, 1), bytes / kCopyPartMin, (size_t)std::max(rows, 1)});
    if (!pool || parts <= 1) {
        copy_band(&copy, 0, 1);
        return;
    }
    pool->run(copy_band, &copy, parts);
}

int read_file_bytes(int fd, uint64_t offset, uint8_t *dest, size_t bytes, adm::ThreadPool *pool,
                    int parts)
{
    FileRead read = {fd, offset, dest, bytes};
    parts = (int)std::min<size_t>((size_t)std::max(parts, 1), bytes / kCopyPartMin);
    if (!pool || parts <= 1)
        return read_part(&read, 0, 1);
    return pool->run(read_part, &read, parts);
}

InPlaceRows in_place_rows(uintptr_t data, ptrdiff_t pitch, size_t row_bytes, int rows, size_t page)
{
    InPlaceRows in_place;
    if (pitch <= 0 || rows <= 0)
        return in_place;
    const uintptr_t end = data + (uintptr_t)pitch * (rows - 1) + row_bytes;
    const uintptr_t begin_page = (data + page - 1) / page * page, end_page = end / page * page;
    if (end_page <= begin_page || end_page - begin_page < kPinnedMin)
        return in_place;
    /* The first row that starts in the pages, the last that ends in them. */
    const int first = (int)((begin_page - data + (uintptr_t)pitch - 1) / (uintptr_t)pitch);
    const int last_end = end_page - data < row_bytes
                             ? 0
                             : (int)((end_page - data - row_bytes) / (uintptr_t)pitch) + 1;
    const int end_row = std::min(last_end, rows);
    if (end_row <= first)
        return in_place;
    in_place.begin = begin_page;
    in_place.bytes = end_page - begin_page;
    in_place.first_row = first;
    in_place.end_row = end_row;
    return in_place;
}

double cpu_frame_ms(int width, int height, int cpu_threads)
{
    return kCpuNsPerPixel * 1e-6 * width * height / std::max(cpu_threads, 1);
}

double device_frame_ms(int width, int height, int bit_depth)
{
    const double bytes = 2.0 * width * height * (bit_depth > 8 ? 2 : 1);
    return kDeviceFrameMs + bytes / kDeviceBytesPerMs;
}

double device_start_ms() { return kDeviceStartMs; }

AutoChoice choose_backend(const AutoFacts &f)
{
    if (f.devices <= 0)
        return {false, "no usable CUDA device (" + f.no_device + ")"};
    if (!f.exact)
        return {false, "the CUDA device would not give this CPU's bits (" + f.inexact + ")"};
    const double cpu = cpu_frame_ms(f.width, f.height, f.cpu_threads);
    const double device = device_frame_ms(f.width, f.height, f.bit_depth);
    char numbers[200];
    bool faster;
    if (f.frames) {
        const double cpu_all = cpu * (double)f.frames;
        const double device_all = device_start_ms() + device * (double)f.frames;
        faster = device_all < cpu_all;
        snprintf(numbers, sizeof(numbers),
                 "%" PRIu64 " frames: %.0f ms on the device, its start included, %.0f on the CPU",
                 f.frames, device_all, cpu_all);
    } else {
        faster = device < cpu;
        snprintf(numbers, sizeof(numbers), "%.3f ms a frame on the device, %.3f on the CPU", device,
                 cpu);
    }
    char cpu_on[40], why[400];
    snprintf(cpu_on, sizeof(cpu_on), "the CPU on %d thread%s", f.cpu_threads,
             f.cpu_threads == 1 ? "" : "s");
    snprintf(why, sizeof(why), "%s is estimated faster than %s for %dx%d %d-bit frames (%s)",
             faster ? "the CUDA device" : cpu_on, faster ? cpu_on : "the CUDA device", f.width,
             f.height, f.bit_depth, numbers);
    return {faster, why};
}

} // namespace adm_cuda
