/*
 * float_adm CUDA backend: the C API of maps (float_adm_cuda.h, "Maps"): the device's
 * sums of the frame last collected, in the core's FrameMap, which computes the loss
 * and writes the files as for the CPU.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <new>

#include "adm_cuda_context.h"
#include "adm_error_message.h"

namespace {

/* The sums of ctx's frame last collected, or null where there are none to read. */
const adm::FrameMap *collected_map(const FloatAdmCudaContext *ctx)
{
    return ctx && ctx->map && ctx->map_collected ? ctx->map.get() : nullptr;
}

/* The same with its loss, computed on its first reading. */
const adm::FrameMap *map_with_loss(const FloatAdmCudaContext *ctx)
{
    if (!collected_map(ctx))
        return nullptr;
    if (!ctx->map->ready())
        ctx->map->finish();
    return ctx->map.get();
}

bool holds_grid(const adm::FrameMap &map, size_t count)
{
    return count >= (size_t)map.columns() * (size_t)map.rows();
}

} // namespace

extern "C" {

int float_adm_cuda_context_enable_map(FloatAdmCudaContext *ctx)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    if (ctx->map)
        return 0;
    if (ctx->submitted) {
        ctx->last_error = "a map is enabled before the first frame is submitted";
        return FLOAT_ADM_ERROR_INVALID;
    }
    ContextScope scope(ctx);
    if (!scope.ok())
        return ctx->fail(CUDA_ERROR_INVALID_DEVICE, "making the context current");
    try {
        return ctx->enable_map();
    } catch (const std::bad_alloc &) {
        ctx->map.reset();
        ctx->last_error = "out of host memory for the map";
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_cuda_map_size(const FloatAdmCudaContext *ctx, int *columns, int *rows,
                            int *block_size)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    if (columns)
        *columns = adm::FrameMap::blocks_across(ctx->pipeline.frame.width);
    if (rows)
        *rows = adm::FrameMap::blocks_across(ctx->pipeline.frame.height);
    if (block_size)
        *block_size = FLOAT_ADM_MAP_BLOCK_SIZE;
    return 0;
}

int float_adm_cuda_map_loss(const FloatAdmCudaContext *ctx, float *loss, size_t count)
{
    if (!loss)
        return FLOAT_ADM_ERROR_INVALID;
    const adm::FrameMap *map = map_with_loss(ctx);
    if (!map || !holds_grid(*map, count))
        return FLOAT_ADM_ERROR_INVALID;
    const size_t n = (size_t)map->columns() * map->rows();
    for (size_t k = 0; k < n; k++)
        loss[k] = map->loss()[k];
    return 0;
}

int float_adm_cuda_map_loss_rows(const FloatAdmCudaContext *ctx, int first_row, int nb_rows,
                                 float *loss, size_t count)
{
    const adm::FrameMap *map = collected_map(ctx);
    if (!map || !loss || first_row < 0 || nb_rows < 0 || first_row > map->rows() - nb_rows ||
        count < (size_t)nb_rows * (size_t)map->columns())
        return FLOAT_ADM_ERROR_INVALID;
    map->loss_rows(first_row, nb_rows, loss);
    return 0;
}

int float_adm_cuda_map_sums(const FloatAdmCudaContext *ctx, int scale, double *num, double *den,
                            size_t count)
{
    const adm::FrameMap *map = collected_map(ctx);
    if (!map || scale < 0 || scale >= kNumScales || !holds_grid(*map, count))
        return FLOAT_ADM_ERROR_INVALID;
    map->read_sums(scale, num, den);
    return 0;
}

int float_adm_cuda_map_write_pfm(const FloatAdmCudaContext *ctx, const char *pattern,
                                 uint64_t frame_num, char *errbuf, size_t errbuf_size)
{
    const adm::FrameMap *map = map_with_loss(ctx);
    if (!map) {
        adm::format_error(errbuf, errbuf_size,
                          "no map to write: the context has no map enabled or no frame "
                          "collected whole");
        return FLOAT_ADM_ERROR_INVALID;
    }
    return adm::write_map_pfm(pattern, frame_num, map->loss(), map->columns(), map->rows(), errbuf,
                              errbuf_size);
}

} // extern "C"
