/*
 * float_adm CUDA backend: the planes a caller submits, checked, and those from host
 * memory uploaded on the context's copy stream: copied first into the slot's pinned
 * buffers over the context's host threads, read from the caller's memory pinned in place,
 * or read by the caller straight into the pinned buffers (float_adm_cuda_host_frame), or
 * read from files where they are, their pages mapped and pinned (float_adm_cuda_submit_file).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstring>
#include <new>
#include <string>
#include <system_error>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>

#include "adm_cuda_context.h"

namespace {

/* Rows of the device copies of host frames start on this boundary. */
constexpr size_t kUploadAlign = 256;

} // namespace

/*
 * The layout is adm_context_setup.h's; device rows must run forwards, a whole row apart (host
 * rows may run backwards: they are staged row by row).
 */
int FloatAdmCudaContext::check_plane(const void *data, ptrdiff_t pitch, int bytes_per_sample,
                                     int shift, const char *which, bool device)
{
    const adm::FrameSetup &frame = pipeline.frame;
    const ptrdiff_t row = (ptrdiff_t)frame.width * frame.bytes_per_sample;
    char msg[256];
    int ret = FLOAT_ADM_ERROR_INVALID;
    if (!data) {
        snprintf(msg, sizeof(msg), "no %s plane given", which);
    } else {
        ret = adm::check_plane_layout(frame, which, bytes_per_sample, shift, msg, sizeof(msg));
        if (ret == 0 && (device ? pitch : (pitch < 0 ? -pitch : pitch)) < row) {
            snprintf(msg, sizeof(msg), "%s plane: %s %td is less than a row (%td bytes)", which,
                     device ? "pitch" : "stride", pitch, row);
            ret = FLOAT_ADM_ERROR_INVALID;
        }
        if (ret == 0)
            return 0;
    }
    last_error = msg;
    return ret;
}

/* The pinned buffers and device copies of host frames, for every slot, at the first. */
int FloatAdmCudaContext::make_upload_buffers()
{
    if (upload_pitch)
        return 0;
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    const size_t pitch = (row + kUploadAlign - 1) / kUploadAlign * kUploadAlign;
    for (Slot &s : slots) {
        for (int k = 0; k < 2; k++) {
            void *host = nullptr;
            if (!s.staging[k]) {
                CU_TRY(cu->cuMemHostAlloc(&host, row * frame.height, 0),
                       "allocating pinned staging memory");
                s.staging[k] = static_cast<uint8_t *>(host);
            }
            if (!s.upload[k]) {
                int ret = device_alloc(&s.upload[k], pitch * frame.height,
                                       "allocating the device copies of host frames");
                if (ret < 0)
                    return ret;
            }
        }
    }
    upload_pitch = pitch;
    return 0;
}

/* The threads that copy host planes into pinned memory, at the first copy. */
int FloatAdmCudaContext::start_host_pool()
{
    if (!host_threads)
        host_threads = host_threads_choice(std::thread::hardware_concurrency());
    if (host_threads < 2 || host_pool)
        return 0;
    try {
        host_pool.reset(new adm::ThreadPool(host_threads));
    } catch (const std::bad_alloc &) {
        host_pool.reset();
    } catch (const std::system_error &) {
        host_pool.reset();
    }
    if (host_pool)
        return 0;
    last_error = "cannot start the threads that copy host frames";
    return FLOAT_ADM_ERROR_NOMEM;
}

/*
 * A plane read where it is: the whole pages within its rows pinned (cuMemHostRegister)
 * until the frame is collected or later (unpin), and the rows in them read from there
 * (in_place_rows).  Nothing pinned (bytes 0) where they cannot be (rows upwards, too few
 * pages, pages still pinned for the same plane in another frame, a mapping the driver
 * will not pin): the plane is copied then, with the same bits.
 */
InPlaceRows FloatAdmCudaContext::pin_in_place(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    const adm::FrameSetup &frame = pipeline.frame;
    InPlaceRows in_place = in_place_rows((uintptr_t)plane.data, plane.pitch,
                                         (size_t)frame.width * frame.bytes_per_sample, frame.height,
                                         (size_t)sysconf(_SC_PAGESIZE));
    if (in_place.bytes && cu->cuMemHostRegister(reinterpret_cast<void *>(in_place.begin),
                                                in_place.bytes, register_flags) == CUDA_SUCCESS) {
        slot.pinned_in_place[img] = reinterpret_cast<void *>(in_place.begin);
        slot.pinned_bytes[img] = in_place.bytes;
        slot.held[img] = plane.in_host_memory == FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD;
    } else {
        in_place = InPlaceRows{};
    }
    return in_place;
}

/*
 * A frame's pinned memory, once its uploads are over: a caller's unpinned, unless it
 * holds it for a frame collected; the pages of files mapped for it retired; the retired
 * released with others (retired_pages).
 */
void FloatAdmCudaContext::unpin(Slot &slot, bool collected)
{
    for (int img = 0; img < 2; img++) {
        void *&pinned = slot.pinned_in_place[img];
        Slot::FileMapping &mapped = slot.file_mapped[img];
        if (mapped.address || (pinned && slot.held[img] && collected)) {
            retired_pages.push_back(RetiredPlane{pinned, slot.pinned_bytes[img], mapped});
            retired_bytes += slot.pinned_bytes[img];
        } else if (pinned) {
            cu->cuMemHostUnregister(pinned);
        }
        pinned = nullptr;
        slot.pinned_bytes[img] = 0;
        slot.held[img] = false;
        mapped = Slot::FileMapping{};
    }
    if (retired_pages.size() >= kRetiredPlanes || retired_bytes >= kRetiredBytes)
        release_retired_pages();
}

/* The retired pages unpinned, and files' unmapped. */
void FloatAdmCudaContext::release_retired_pages()
{
    for (const RetiredPlane &plane : retired_pages) {
        if (plane.pinned)
            cu->cuMemHostUnregister(plane.pinned);
        if (plane.mapping.address)
            munmap(plane.mapping.address, plane.mapping.bytes);
    }
    retired_pages.clear();
    retired_bytes = 0;
    held_frames = 0;
}

/* A frame that was not queued, or failed: its uploads finish before the memory they read
 * is unpinned, the caller's at once (it may free it when the call returns). */
void FloatAdmCudaContext::abandon(Slot &slot)
{
    if (copy_stream)
        cu->cuStreamSynchronize(copy_stream);
    unpin(slot, false);
    if (!queue_count)
        release_retired_pages();
}

/* Rows [first, end) of a plane whose row 0 is at src (pinned memory) to the slot's device
 * copy, on the copy stream. */
int FloatAdmCudaContext::upload_rows(Slot &slot, int img, const uint8_t *src, size_t pitch,
                                     int first, int end)
{
    if (end <= first)
        return 0;
    CudaMemcpy2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = src + pitch * first;
    copy.srcPitch = pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = slot.upload[img] + upload_pitch * first;
    copy.dstPitch = upload_pitch;
    copy.WidthInBytes = (size_t)pipeline.frame.width * pipeline.frame.bytes_per_sample;
    copy.Height = end - first;
    CU_TRY(cu->cuMemcpy2DAsync(&copy, copy_stream), "uploading a frame");
    return 0;
}

/* A plane in pinned memory to the slot's device copy, which the frame's kernels read. */
int FloatAdmCudaContext::upload_staged(Slot &slot, int img, const uint8_t *src, size_t pitch,
                                       int shift)
{
    const int ret = upload_rows(slot, img, src, pitch, 0, pipeline.frame.height);
    if (ret < 0)
        return ret;
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = shift;
    return 0;
}

/*
 * A plane from host memory: the rows within whole pages read in place where the caller
 * allows it and they can be pinned, the others (all of them otherwise) copied into the
 * slot's pinned buffer first (the caller may reuse its own at once); then uploaded on the
 * copy stream.
 */
int FloatAdmCudaContext::upload_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    int ret = make_upload_buffers();
    if (ret < 0)
        return ret;
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    const uint8_t *src = static_cast<const uint8_t *>(plane.data);
    const InPlaceRows in_place = plane.in_host_memory != FLOAT_ADM_CUDA_HOST_COPY
                                     ? pin_in_place(slot, img, plane)
                                     : InPlaceRows{};
    if (!in_place.bytes) {
        if ((ret = start_host_pool()) < 0)
            return ret;
        copy_rows(slot.staging[img], row, src, plane.pitch, row, frame.height, host_pool.get(),
                  host_threads);
        return upload_staged(slot, img, slot.staging[img], row, plane.shift);
    }
    /* The rows that touch shared pages: a few, copied on this thread. */
    const int first = in_place.first_row, end = in_place.end_row;
    copy_rows(slot.staging[img], row, src, plane.pitch, row, first, nullptr, 1);
    copy_rows(slot.staging[img] + row * end, row, src + plane.pitch * end, plane.pitch, row,
              frame.height - end, nullptr, 1);
    if ((ret = upload_rows(slot, img, slot.staging[img], row, 0, first)) < 0 ||
        (ret = upload_rows(slot, img, src, (size_t)plane.pitch, first, end)) < 0 ||
        (ret = upload_rows(slot, img, slot.staging[img], row, end, frame.height)) < 0)
        return ret;
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = plane.shift;
    return 0;
}

/* Rows [first, end) of a plane in a file read into the slot's pinned buffer, in up to
 * `parts` parts on the host threads. */
int FloatAdmCudaContext::read_file_rows(Slot &slot, int img, const FloatAdmCudaFilePlane &file,
                                        int first, int end, int parts)
{
    if (end <= first)
        return 0;
    const size_t row = (size_t)pipeline.frame.width * pipeline.frame.bytes_per_sample;
    const int error = read_file_bytes(file.fd, file.offset + row * first,
                                      slot.staging[img] + row * first, row * (end - first),
                                      parts > 1 ? host_pool.get() : nullptr, parts);
    if (!error)
        return 0;
    last_error = std::string("reading the ") + (img ? "distorted" : "reference") +
                 " plane from its file: " +
                 (error > 0 ? strerror(error) : "the file ended: did it change while read?");
    return FLOAT_ADM_ERROR_IO;
}

/*
 * A plane in a file: the pages that hold it mapped and pinned, and uploaded from there,
 * where the file and the driver allow it; the rows on pages it shares with other bytes,
 * and all of them where its pages cannot be pinned, read into the slot's pinned buffer.
 * The mapping is never read on the host: a file cut short meanwhile fails a read or the
 * pinning, not the process.
 */
int FloatAdmCudaContext::upload_file_plane(Slot &slot, int img, const FloatAdmCudaFilePlane &file)
{
    int ret = make_upload_buffers();
    if (ret < 0)
        return ret;
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const uint64_t map_offset = file.offset / page * page;
    const size_t map_bytes = (size_t)(file.offset - map_offset) + row * frame.height;
    void *mapped = mmap(nullptr, map_bytes, PROT_READ, MAP_SHARED, file.fd, (off_t)map_offset);
    InPlaceRows in_place;
    const uint8_t *src = nullptr;
    if (mapped != MAP_FAILED) {
        src = static_cast<const uint8_t *>(mapped) + (file.offset - map_offset);
        const FloatAdmCudaPlane plane = {src, (ptrdiff_t)row, frame.bytes_per_sample, 0,
                                         FLOAT_ADM_CUDA_HOST_IN_PLACE};
        in_place = pin_in_place(slot, img, plane);
        if (in_place.bytes)
            slot.file_mapped[img] = Slot::FileMapping{mapped, map_bytes};
        else
            munmap(mapped, map_bytes);
    }
    if (!in_place.bytes) {
        if ((ret = start_host_pool()) < 0 ||
            (ret = read_file_rows(slot, img, file, 0, frame.height, host_threads)) < 0)
            return ret;
        return upload_staged(slot, img, slot.staging[img], row, 0);
    }
    const int first = in_place.first_row, end = in_place.end_row;
    if ((ret = read_file_rows(slot, img, file, 0, first, 1)) < 0 ||
        (ret = read_file_rows(slot, img, file, end, frame.height, 1)) < 0 ||
        (ret = upload_rows(slot, img, slot.staging[img], row, 0, first)) < 0 ||
        (ret = upload_rows(slot, img, src, row, first, end)) < 0 ||
        (ret = upload_rows(slot, img, slot.staging[img], row, end, frame.height)) < 0)
        return ret;
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = 0;
    return 0;
}

/* A frame's planes, device or host, then its kernels after the uploads. */
int FloatAdmCudaContext::submit_planes(Slot &slot, const FloatAdmCudaPlane *const (&planes)[2])
{
    bool uploads = false;
    for (int img = 0; img < 2; img++) {
        const FloatAdmCudaPlane &p = *planes[img];
        if (p.in_host_memory) {
            const int ret = upload_host_plane(slot, img, p);
            if (ret < 0) {
                abandon(slot);
                return ret;
            }
            uploads = true;
        } else {
            slot.planes.data[img] = static_cast<const uint8_t *>(p.data);
            slot.planes.pitch[img] = p.pitch;
            slot.planes.shift[img] = p.shift;
        }
    }
    const int ret = launch_frame(slot, uploads);
    if (ret < 0)
        abandon(slot);
    return ret;
}
