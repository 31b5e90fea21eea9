/*
 * float_adm CUDA backend: the planes a caller submits, checked, and those from host
 * memory staged in the slot's pinned buffers and uploaded.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstring>

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

/*
 * A plane from host memory: its luma copied into the slot's pinned buffer (the caller
 * may reuse its own at once), then uploaded on the stream ahead of the kernels.  The
 * buffers are made on the first such plane, for every slot.
 */
int FloatAdmCudaContext::stage_host_plane(Slot &slot, int img, const FloatAdmCudaPlane &plane)
{
    const adm::FrameSetup &frame = pipeline.frame;
    const size_t row = (size_t)frame.width * frame.bytes_per_sample;
    if (!upload_pitch) {
        const size_t pitch = (row + kUploadAlign - 1) / kUploadAlign * kUploadAlign;
        for (Slot &s : slots) {
            for (int k = 0; k < 2; k++) {
                void *host = nullptr;
                CU_TRY(cu->cuMemHostAlloc(&host, row * frame.height, 0),
                       "allocating pinned staging memory");
                s.staging[k] = static_cast<uint8_t *>(host);
                int ret = device_alloc(&s.upload[k], pitch * frame.height,
                                       "allocating the device copies of host frames");
                if (ret < 0)
                    return ret;
            }
        }
        upload_pitch = pitch;
    }
    const uint8_t *src = static_cast<const uint8_t *>(plane.data);
    for (int y = 0; y < frame.height; y++)
        memcpy(slot.staging[img] + y * row, src + y * plane.pitch, row);
    CudaMemcpy2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = slot.staging[img];
    copy.srcPitch = row;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = slot.upload[img];
    copy.dstPitch = upload_pitch;
    copy.WidthInBytes = row;
    copy.Height = frame.height;
    CU_TRY(cu->cuMemcpy2DAsync(&copy, stream), "uploading a frame");
    slot.planes.data[img] = device_pointer<const uint8_t>(slot.upload[img]);
    slot.planes.pitch[img] = (ptrdiff_t)upload_pitch;
    slot.planes.shift[img] = plane.shift;
    return 0;
}
