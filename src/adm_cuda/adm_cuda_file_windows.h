/*
 * float_adm CUDA backend: the pages of files mapped for planes read in place
 * (float_adm_cuda_submit_file).  Host code alone: no CUDA call.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_CUDA_FILE_WINDOWS_H
#define ADM_CUDA_FILE_WINDOWS_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sys/types.h>

namespace adm_cuda {

/*
 * Windows of files, mapped read-only and shared: a plane's pages are read through the
 * window that holds them, which stays mapped while planes read it and for the planes
 * after, which mostly lie in it (a window is 256 MiB, or a plane's pages where more):
 * mapping and unmapping each plane's pages cost more than pinning them.  The windows no
 * plane reads are unmapped when another window is mapped, so that a context scoring
 * file after file keeps none of the files before.  Files are told apart by device and
 * inode, not by descriptor, which a caller may close and give to another file.
 */
class FileWindows {
public:
    struct Use {
        int window = -1;               /* for release; -1: not mapped */
        const uint8_t *data = nullptr; /* the plane's first byte */
    };

    FileWindows() = default;
    FileWindows(const FileWindows &) = delete;
    FileWindows &operator=(const FileWindows &) = delete;
    ~FileWindows();

    /* Bytes [offset, offset + bytes) of file fd through a window; window -1 where the file
     * cannot be mapped (a pipe, a file system that does not map). */
    Use acquire(int fd, uint64_t offset, size_t bytes);
    /* A plane read through `window` no longer is. */
    void release(int window);
    /* The windows mapped now. */
    int mapped() const;

private:
    struct Window {
        dev_t device = 0;
        ino_t inode = 0;
        uint64_t offset = 0; /* of its first page in the file */
        size_t bytes = 0;
        uint8_t *address = nullptr; /* nullptr: a free entry */
        int users = 0;
    };
    void unmap(Window &w);
    std::vector<Window> windows_;
};

} // namespace adm_cuda

#endif /* ADM_CUDA_FILE_WINDOWS_H */
