/*
 * libFuzzer target: the C API of the float ADM core.
 *
 * Copyright (c) 2026 the float_adm authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/*
 * Options by name and value (text and number, NaN included), raw option
 * structs, frame sizes from 0 to INT_MAX, bit depths, sample sizes, shifts,
 * strides (padded, negative, overlapping, zero), executors that reorder or
 * fail, and plane contents.  Every plane buffer is exactly as large as the
 * rows it describes, so ASan sees any read past it.  Invariants checked
 * beyond "no crash": every error comes with a message, a failed create
 * leaves no context, and scoring the same pair twice gives the same bits.
 */

#include <fuzzer/FuzzedDataProvider.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "float_adm.h"

namespace {

/* Bounds that keep one input fast: larger frames only go as far as create,
 * and only where create must refuse them before allocating. */
const long long max_scored_area = 160 * 160;
const long long max_created_area = 1024 * 1024;

void require(bool condition)
{
    if (!condition)
        __builtin_trap();
}

/* An error path must say what is wrong, in a buffer of exactly errbuf_size. */
void require_message(int ret, const std::vector<char> &errbuf)
{
    if (ret >= 0 || errbuf.empty())
        return;
    require(std::memchr(errbuf.data(), '\0', errbuf.size()) != nullptr);
    if (errbuf.size() > 1)
        require(errbuf[0] != '\0');
}

std::vector<char> make_errbuf(FuzzedDataProvider &fdp)
{
    static const size_t sizes[] = {256, 0, 1, 2, 7, 64};
    return std::vector<char>(fdp.PickValueInArray(sizes), 'x');
}

const char *option_name(FuzzedDataProvider &fdp, std::string &storage)
{
    if (fdp.ConsumeBool()) {
        storage = fdp.ConsumeRandomLengthString(32);
        return storage.c_str();
    }
    const int index = fdp.ConsumeIntegralInRange(0, float_adm_option_count() - 1);
    const FloatAdmOptionInfo *info = float_adm_option_info(index);
    require(info != nullptr);
    return info->alias && fdp.ConsumeBool() ? info->alias : info->name;
}

double special_double(FuzzedDataProvider &fdp)
{
    static const double specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e308,
                                      -1e308, 4.9e-324, 0.5, 2147483648.0, -2147483649.0};
    return fdp.ConsumeBool() ? fdp.PickValueInArray(specials)
                             : fdp.ConsumeFloatingPoint<double>();
}

void fuzz_options(FuzzedDataProvider &fdp, FloatAdmOptions &opts)
{
    float_adm_options_default(&opts);
    if (fdp.ConsumeIntegralInRange(0, 15) == 0) {
        /* A struct filled by a careless caller: validation must catch it. */
        const std::vector<uint8_t> raw = fdp.ConsumeBytes<uint8_t>(sizeof(opts));
        if (!raw.empty())
            std::memcpy(&opts, raw.data(), raw.size());
    }
    const int count = fdp.ConsumeIntegralInRange(0, 4);
    for (int i = 0; i < count; ++i) {
        std::string name_storage;
        const char *name = option_name(fdp, name_storage);
        std::vector<char> errbuf = make_errbuf(fdp);
        int ret;
        if (fdp.ConsumeBool()) {
            const std::string value = fdp.ConsumeRandomLengthString(24);
            ret = float_adm_option_set(&opts, name, value.c_str(), errbuf.data(), errbuf.size());
        } else {
            ret = float_adm_option_set_double(&opts, name, special_double(fdp), errbuf.data(),
                                              errbuf.size());
        }
        require_message(ret, errbuf);
        double read_back;
        if (ret == 0)
            require(float_adm_option_get(&opts, name, &read_back) == 0 && !std::isnan(read_back));
    }
}

int dimension(FuzzedDataProvider &fdp)
{
    static const int extremes[] = {INT_MIN, -17, -1, 0, 1, 16, 17, 18, 33, 65536, 65537,
                                   1 << 20, INT_MAX};
    if (fdp.ConsumeIntegralInRange(0, 7) == 0)
        return fdp.PickValueInArray(extremes);
    return fdp.ConsumeIntegralInRange(17, 160);
}

int depth(FuzzedDataProvider &fdp)
{
    static const int depths[] = {8, 9, 10, 12, 14, 16};
    if (fdp.ConsumeIntegralInRange(0, 15) == 0)
        return fdp.ConsumeIntegral<int>();
    return fdp.PickValueInArray(depths);
}

/* One plane: its buffer holds exactly the bytes its rows span. */
struct TestPlane {
    std::vector<uint8_t> buffer;
    FloatAdmPlane plane{};
};

void make_plane(FuzzedDataProvider &fdp, TestPlane &out, int width, int height, int bit_depth)
{
    const int good_bytes = bit_depth > 8 ? 2 : 1;
    int bytes = good_bytes;
    if (fdp.ConsumeIntegralInRange(0, 15) == 0)
        bytes = fdp.ConsumeIntegralInRange(-1, 4);
    int shift = 0;
    if (bytes == 2 && fdp.ConsumeBool())
        shift = fdp.ConsumeIntegralInRange(0, 16 - bit_depth);
    if (fdp.ConsumeIntegralInRange(0, 15) == 0)
        shift = fdp.ConsumeIntegralInRange(-2, 18);

    /* A valid row never reads more than width samples of its size. */
    const ptrdiff_t row_bytes = (ptrdiff_t)width * (bytes > 0 ? bytes : 1);
    ptrdiff_t stride;
    switch (fdp.ConsumeIntegralInRange(0, 4)) {
    case 0: stride = row_bytes; break;
    case 1: stride = row_bytes + fdp.ConsumeIntegralInRange(1, 64) * good_bytes; break;
    case 2: stride = -(row_bytes + fdp.ConsumeIntegralInRange(0, 3) * 16); break;
    case 3: stride = fdp.ConsumeIntegralInRange(0, 8) * good_bytes; break; /* rows overlap */
    default: stride = -fdp.ConsumeIntegralInRange(1, 8) * good_bytes; break;
    }
    const size_t abs_stride = (size_t)(stride < 0 ? -stride : stride);
    const size_t size = (size_t)(height - 1) * abs_stride + (size_t)row_bytes;

    out.buffer.resize(size);
    const std::vector<uint8_t> content = fdp.ConsumeBytes<uint8_t>(fdp.ConsumeIntegralInRange(0, 512));
    for (size_t i = 0; i < size; ++i)
        out.buffer[i] = content.empty() ? (uint8_t)(i * 37) : content[i % content.size()];

    out.plane.data = out.buffer.data() + (stride < 0 ? (size_t)(height - 1) * abs_stride : 0);
    out.plane.stride = stride;
    out.plane.bytes_per_sample = bytes;
    out.plane.shift = shift;
    if (fdp.ConsumeIntegralInRange(0, 31) == 0)
        out.plane.data = nullptr;
}

/* An executor that runs the jobs last to first, or fails. */
struct ExecutorState {
    bool fail;
};

int reversed_executor(void *opaque, FloatAdmJobFn job, void *arg, int nb_jobs)
{
    const ExecutorState *state = static_cast<const ExecutorState *>(opaque);
    if (state->fail)
        return FLOAT_ADM_ERROR_NOMEM;
    for (int i = nb_jobs - 1; i >= 0; --i) {
        const int ret = job(arg, i, nb_jobs);
        if (ret < 0)
            return ret;
    }
    return 0;
}

bool same_bits(const FloatAdmScores &a, const FloatAdmScores &b)
{
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

void score_frames(FuzzedDataProvider &fdp, FloatAdmContext *ctx, int width, int height,
                  int bit_depth)
{
    ExecutorState executor{false};
    bool executor_fails = false;
    if (fdp.ConsumeIntegralInRange(0, 3) == 0) {
        executor.fail = fdp.ConsumeIntegralInRange(0, 7) == 0;
        const int nb_jobs = fdp.ConsumeIntegralInRange(-2, 12);
        const bool installed = fdp.ConsumeBool();
        const int ret = float_adm_set_executor(ctx, installed ? reversed_executor : nullptr,
                                               &executor, nb_jobs);
        require(ret == 0 || nb_jobs < 0);
        /* More than one job over at least 17 rows: the executor is called. */
        executor_fails = ret == 0 && installed && executor.fail && nb_jobs > 1;
    }

    const int frames = fdp.ConsumeIntegralInRange(1, 3);
    for (int frame = 0; frame < frames; ++frame) {
        TestPlane ref, dist;
        make_plane(fdp, ref, width, height, bit_depth);
        make_plane(fdp, dist, width, height, bit_depth);
        FloatAdmScores first, second;
        const int ret = float_adm_score_frame(ctx, &ref.plane, &dist.plane, &first);
        /* Rows the executor left undone must not become scores. */
        if (executor_fails && ref.plane.data && dist.plane.data)
            require(ret < 0);
        if (ret < 0) {
            require(float_adm_strerror(ret) != nullptr);
            continue;
        }
        /* No state may leak from one frame into the next. */
        require(float_adm_score_frame(ctx, &ref.plane, &dist.plane, &second) == 0);
        require(same_bits(first, second));
        for (int i = 0; i < FLOAT_ADM_NUM_DEBUG_OUTPUTS; ++i)
            require(float_adm_output_name(i) != nullptr);
    }
    require(float_adm_score_frame(ctx, nullptr, nullptr, nullptr) < 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzedDataProvider fdp(data, size);

    FloatAdmOptions opts;
    fuzz_options(fdp, opts);
    std::vector<char> errbuf = make_errbuf(fdp);
    const bool valid_options = float_adm_options_validate(&opts, nullptr, 0) == 0;

    const int width = dimension(fdp);
    const int height = dimension(fdp);
    const int bit_depth = depth(fdp);
    const long long area = (long long)width * height;
    const bool in_range = width >= FLOAT_ADM_MIN_SIZE && height >= FLOAT_ADM_MIN_SIZE &&
                          width <= 65536 && height <= 65536;
    if (in_range && area > max_created_area)
        return 0;

    FloatAdmContext *ctx = reinterpret_cast<FloatAdmContext *>(&opts); /* must be reset */
    const int ret = float_adm_context_create(&ctx, width, height, bit_depth,
                                             fdp.ConsumeIntegralInRange(0, 31) ? &opts : nullptr,
                                             errbuf.data(), errbuf.size());
    require_message(ret, errbuf);
    if (ret < 0) {
        require(ctx == nullptr);
        return 0;
    }
    require(ctx != nullptr && in_range && valid_options);
    if (area <= max_scored_area)
        score_frames(fdp, ctx, width, height, bit_depth);
    float_adm_context_free(&ctx);
    require(ctx == nullptr);
    float_adm_context_free(&ctx);
    float_adm_context_free(nullptr);
    return 0;
}
