/*
 * float_adm CUDA backend: the pages of files mapped for planes read in place
 * (adm_cuda_file_windows.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_cuda_file_windows.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace adm_cuda {
namespace {

constexpr size_t kWindowBytes = size_t(256) << 20;

} // namespace

FileWindows::~FileWindows()
{
    for (Window &w : windows_)
        unmap(w);
}

void FileWindows::unmap(Window &w)
{
    if (w.address)
        munmap(w.address, w.bytes);
    w = Window{};
}

FileWindows::Use FileWindows::acquire(int fd, uint64_t offset, size_t bytes)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        return Use{};
    const uint64_t end = offset + bytes;
    Window *free_entry = nullptr;
    for (Window &w : windows_) {
        const bool same_file = w.address && w.device == st.st_dev && w.inode == st.st_ino;
        if (same_file && w.offset <= offset && end <= w.offset + w.bytes) {
            w.users++;
            return Use{(int)(&w - windows_.data()), w.address + (offset - w.offset)};
        }
        /* A window is to be mapped: those no plane reads go (a frame's pages are read
         * once: nothing mapped before is read again but by a caller reading frames again). */
        if (w.address && !w.users)
            unmap(w);
        if (!w.address && !free_entry)
            free_entry = &w;
    }
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    const uint64_t first = offset / page * page;
    const size_t length = end - first > kWindowBytes ? (size_t)(end - first) : kWindowBytes;
    void *address = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, (off_t)first);
    if (address == MAP_FAILED)
        return Use{};
    if (!free_entry) {
        windows_.emplace_back();
        free_entry = &windows_.back();
    }
    *free_entry = Window{st.st_dev, st.st_ino, first, length, static_cast<uint8_t *>(address), 1};
    return Use{(int)(free_entry - windows_.data()), free_entry->address + (offset - first)};
}

void FileWindows::release(int window)
{
    if (window >= 0 && window < (int)windows_.size() && windows_[window].users > 0)
        windows_[window].users--;
}

int FileWindows::mapped() const
{
    int n = 0;
    for (const Window &w : windows_)
        n += w.address != nullptr;
    return n;
}

} // namespace adm_cuda
