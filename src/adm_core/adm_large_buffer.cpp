/*
 * float_adm: a zeroed buffer of a frame's size, on huge pages where the system gives
 * them.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "adm_large_buffer.h"

#include <cstring>
#include <new>

#include <sys/mman.h>

namespace adm {

namespace {
constexpr size_t kHugePage = size_t(2) << 20;
}

void LargeBuffer::assign(size_t bytes)
{
    const size_t align = bytes >= kHugePage ? kHugePage : 64;
    void *p = nullptr;
    if (posix_memalign(&p, align, bytes ? bytes : 1) != 0)
        throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (align == kHugePage)
        madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it, ordinary pages */
#endif
    std::memset(p, 0, bytes);
    data_.reset(p);
    size_ = bytes;
}

} // namespace adm
