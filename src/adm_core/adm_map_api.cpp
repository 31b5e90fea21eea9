/*
 * float_adm: the C API of maps (float_adm.h, "Maps"), over the engine's FrameMap.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <new>

#include "adm_engine.h"

namespace {

/* The map of ctx's last frame, or null where there is none to read. */
const adm::FrameMap *ready_map(const FloatAdmContext *ctx)
{
    if (!ctx)
        return nullptr;
    const adm::FrameMap *map = adm::context_engine(*const_cast<FloatAdmContext *>(ctx)).map();
    return map && map->ready() ? map : nullptr;
}

bool holds_grid(const adm::FrameMap &map, size_t count)
{
    return count >= (size_t)map.columns() * (size_t)map.rows();
}

} // namespace

extern "C" {

int float_adm_context_enable_map(FloatAdmContext *ctx)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    try {
        return adm::context_engine(*ctx).enable_map();
    } catch (const std::bad_alloc &) {
        return FLOAT_ADM_ERROR_NOMEM;
    }
}

int float_adm_map_size(const FloatAdmContext *ctx, int *columns, int *rows, int *block_size)
{
    if (!ctx)
        return FLOAT_ADM_ERROR_INVALID;
    const adm::FrameSetup &frame = adm::context_engine(*const_cast<FloatAdmContext *>(ctx)).frame();
    if (columns)
        *columns = adm::FrameMap::blocks_across(frame.width);
    if (rows)
        *rows = adm::FrameMap::blocks_across(frame.height);
    if (block_size)
        *block_size = FLOAT_ADM_MAP_BLOCK_SIZE;
    return 0;
}

int float_adm_map_loss(const FloatAdmContext *ctx, float *loss, size_t count)
{
    const adm::FrameMap *map = ready_map(ctx);
    if (!map || !loss || !holds_grid(*map, count))
        return FLOAT_ADM_ERROR_INVALID;
    const size_t n = (size_t)map->columns() * map->rows();
    for (size_t k = 0; k < n; k++)
        loss[k] = map->loss()[k];
    return 0;
}

int float_adm_map_sums(const FloatAdmContext *ctx, int scale, double *num, double *den,
                       size_t count)
{
    const adm::FrameMap *map = ready_map(ctx);
    if (!map || scale < 0 || scale >= adm::kNumScales || !holds_grid(*map, count))
        return FLOAT_ADM_ERROR_INVALID;
    map->read_sums(scale, num, den);
    return 0;
}

} // extern "C"
