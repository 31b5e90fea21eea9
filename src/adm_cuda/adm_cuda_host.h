/*
 * float_adm CUDA backend: the host's side of frames from host memory, which needs no
 * device: their rows copied into pinned memory over threads, how many threads and
 * frames in flight a context takes, and which backend `auto` takes.  Internal; host
 * code alone, so that the unit tests hold it without a GPU.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CUDA_HOST_H
#define ADM_CUDA_HOST_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "adm_thread_pool.h"

namespace adm_cuda {

/* Frames in flight where the caller leaves it to the library: one being scored, the
 * next uploading beside it, the one after being copied or read on the host, and one
 * scored and waiting to be collected. */
constexpr int kDefaultInFlight = 4;
constexpr int kMaxInFlight = 16;
constexpr int kMaxHostThreads = 64;

/* The threads that copy host planes into pinned memory where the caller leaves it to
 * the library: a quarter of the host's, 1 to 4 (4 copy a 4K frame pair faster than its
 * upload takes). */
int host_threads_choice(unsigned hardware_threads);

/*
 * rows rows of row_bytes from src (rows src_stride apart, negative: upwards) into dest
 * (rows dest_pitch apart), in up to `parts` bands of rows on pool (nullptr or parts 1:
 * on this thread), none under 512 KiB.
 */
void copy_rows(uint8_t *dest, size_t dest_pitch, const uint8_t *src, ptrdiff_t src_stride,
               size_t row_bytes, int rows, adm::ThreadPool *pool, int parts);

/*
 * bytes bytes of file fd from offset into dest by pread, in up to `parts` parts on pool
 * (nullptr or parts 1: on this thread), none under 512 KiB: 0, the errno of a failed
 * read, or -1 where the file ended first.
 */
int read_file_bytes(int fd, uint64_t offset, uint8_t *dest, size_t bytes, adm::ThreadPool *pool,
                    int parts);

/*
 * A host plane read in place: the whole pages within its rows, which no other allocation
 * shares (pinned for its upload), and the rows [first_row, end_row) that lie in them;
 * the rows before and after, which touch pages shared with what lies beside the plane,
 * are copied.  bytes 0: the plane is copied whole (rows upwards, or too few whole pages
 * to be worth pinning).
 */
struct InPlaceRows {
    uintptr_t begin = 0; /* of the pages, page-aligned */
    size_t bytes = 0;    /* a whole number of pages */
    int first_row = 0, end_row = 0;
};
InPlaceRows in_place_rows(uintptr_t data, ptrdiff_t pitch, size_t row_bytes, int rows, size_t page);

/* What `auto` knows when it chooses (float_adm_cuda_choose_backend). */
struct AutoFacts {
    int devices = 0;       /* usable CUDA devices */
    std::string no_device; /* why there is none, where devices is 0 */
    bool exact = true;     /* the device reproduces this host's division and powf */
    std::string inexact;   /* why not, where it does not */
    int width = 0, height = 0, bit_depth = 8;
    int cpu_threads = 1;
    uint64_t frames = 0; /* 0: not known */
};

struct AutoChoice {
    bool cuda;
    std::string why; /* a sentence: what decided it */
};

/*
 * `auto`'s rule (docs/cuda.md, "Which backend auto takes"): the CUDA device where there
 * is one, it gives this CPU's bits, and it is estimated faster for these frames than
 * the CPU on cpu_threads threads, its start counted where the frames are known;
 * else the CPU.
 */
AutoChoice choose_backend(const AutoFacts &facts);

/* The estimates the rule compares, in ms: a frame on the CPU, a frame on the device
 * (frames from host memory), and the device's start in a process. */
double cpu_frame_ms(int width, int height, int cpu_threads);
double device_frame_ms(int width, int height, int bit_depth);
double device_start_ms();

} // namespace adm_cuda

#endif /* ADM_CUDA_HOST_H */
