/*
 * float_adm: a zeroed buffer of a frame's size, on huge pages where the system gives
 * them.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef ADM_LARGE_BUFFER_H
#define ADM_LARGE_BUFFER_H

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace adm {

/*
 * Engines and the frames read for them are buffers first touched by the threads that
 * use them: on 4 KiB pages that is a page fault every 4 KiB, and the faults of many
 * threads queue on the process's one lock of its memory map.  A buffer of 2 MiB or
 * more is aligned to 2 MiB and advised as huge pages (Linux's transparent huge pages;
 * elsewhere, or where they are off, ordinary pages).
 */
class LargeBuffer {
public:
    /* Zeroed; throws std::bad_alloc. */
    void assign(size_t bytes);
    void *data() const { return data_.get(); }
    size_t size() const { return size_; } /* in bytes */

private:
    struct Free {
        void operator()(void *p) const { std::free(p); }
    };
    std::unique_ptr<void, Free> data_;
    size_t size_ = 0;
};

} // namespace adm

#endif /* ADM_LARGE_BUFFER_H */
