/*
 * float_adm CUDA backend: the planes a caller submits, checked, and those from host
 * memory uploaded on the context's copy stream: copied first into the slot's pinned
 * buffers over the context's host threads, read from the caller's memory pinned in place,
 * or read by the caller straight into the pinned buffers (float_adm_cuda_host_frame).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <new>
#include <system_error>
#include <thread>

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
 * A plane read where it is: the pages holding its rows pinned (cuMemHostRegister) until
 * the frame is collected.  false where they cannot be (rows upwards, memory already
 * pinned or shared with the other plane, a mapping the driver will not pin): the plane
 * is copied then, with the same bits.
 */
bool FloatAdmCudaContext::pin_in_place(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    const adm::FrameSetup &frame = pipeline.frame;
    if (plane.pitch <= 0)
        return false;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t first = (uintptr_t)plane.data;
    const uintptr_t end = first + (uintptr_t)plane.pitch * (frame.height - 1) +
                          (uintptr_t)frame.width * frame.bytes_per_sample;
    const uintptr_t begin = first / page * page;
    const size_t bytes = (end - begin + page - 1) / page * page;
    if (cu->cuMemHostRegister(reinterpret_cast<void *>(begin), bytes, register_flags) !=
        CUDA_SUCCESS)
        return false;
    slot.pinned_in_place[img] = reinterpret_cast<void *>(begin);
    return true;
}

/* The caller's memory pinned for a frame, unpinned once its upload is over. */
void FloatAdmCudaContext::unpin(Slot &slot)
{
    for (void *&pinned : slot.pinned_in_place) {
        if (pinned)
            cu->cuMemHostUnregister(pinned);
        pinned = nullptr;
    }
}

/* A frame that was not queued: its uploads finish before the memory they read is unpinned. */
void FloatAdmCudaContext::abandon(Slot &slot)
{
    if (copy_stream)
        cu->cuStreamSynchronize(copy_stream);
    unpin(slot);
}

/* A plane's rows (in pinned memory) to the slot's device copy, on the copy stream. */
int FloatAdmCudaContext::upload_staged(Slot &slot, int img, const uint8_t *src, size_t pitch,
                                       int shift)
{
    const adm::FrameSetup &frame = pipeline.frame;
    CudaMemcpy2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = src;
    copy.srcPitch = pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = slot.upload[img];
    copy.dstPitch = upload_pitch;
    copy.WidthInBytes = (size_t)frame.width * frame.bytes_per_sample;
    copy.Height = frame.height;
    CU_TRY(cu->cuMemcpy2DAsync(&copy, copy_stream), "uploading a frame");
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = shift;
    return 0;
}

/*
 * A plane from host memory: read in place where the caller allows it and its pages can
 * be pinned, else copied into the slot's pinned buffer (the caller may reuse its own at
 * once); then uploaded on the copy stream.
 */
int FloatAdmCudaContext::upload_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    int ret = make_upload_buffers();
    if (ret < 0)
        return ret;
    if (plane.in_host_memory == FLOAT_ADM_CUDA_HOST_IN_PLACE && pin_in_place(slot, img, plane))
        return upload_staged(slot, img, static_cast<const uint8_t *>(plane.data),
                             (size_t)plane.pitch, plane.shift);
    if ((ret = start_host_pool()) < 0)
        return ret;
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    copy_rows(slot.staging[img], row, static_cast<const uint8_t *>(plane.data), plane.pitch, row,
              frame.height, host_pool.get(), host_threads);
    return upload_staged(slot, img, slot.staging[img], row, plane.shift);
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
