/*
 * float_adm CUDA tests and benchmark: shared helpers (frames on host and device,
 * the golden corpus, bitwise comparison of scores).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CUDA_TEST_UTIL_H
#define CUDA_TEST_UTIL_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "float_adm.h"
#include "float_adm_cuda.h"

namespace cuda_test {

/* A luma plane on the host: 1 or 2 bytes per sample, rows packed. */
struct HostPlane {
    int width = 0, height = 0, bytes_per_sample = 1, shift = 0;
    std::vector<uint8_t> bytes;

    FloatAdmPlane view() const
    {
        return FloatAdmPlane{bytes.data(), (ptrdiff_t)width * bytes_per_sample, bytes_per_sample,
                             shift};
    }
};

/* The same plane in device memory (pitched); freed with the object. */
class DevicePlane {
public:
    DevicePlane() = default;
    DevicePlane(const DevicePlane &) = delete;
    DevicePlane &operator=(const DevicePlane &) = delete;
    ~DevicePlane();
    /* Allocates (once) and uploads; false with a message on failure. */
    bool upload(const HostPlane &plane, std::string *error);
    FloatAdmCudaPlane view() const { return FloatAdmCudaPlane{data_, pitch_, bps_, shift_}; }

private:
    void *data_ = nullptr;
    ptrdiff_t pitch_ = 0;
    int bps_ = 1, shift_ = 0;
};

/* A minimal JSON value: enough for golden.json. */
struct Json {
    enum Type { kNull, kBool, kNumber, kString, kArray, kObject } type = kNull;
    double number = 0;
    bool boolean = false;
    std::string string;
    std::vector<Json> array;
    std::vector<std::pair<std::string, Json>> object;

    const Json *get(const std::string &key) const;
    static bool parse(const std::string &text, Json *out, std::string *error);
};

bool read_file(const std::string &path, std::string *out);

/* Luma planes of every frame of an .yuv.xz fixture (decompressed with xz). */
bool load_fixture_luma(const std::string &path, int width, int height, const std::string &pix_fmt,
                       std::vector<HostPlane> *frames, std::string *error);
int pix_fmt_depth(const std::string &pix_fmt);

/* Deterministic picture-like content: a gradient, texture and noise; and a distortion. */
HostPlane random_reference(int width, int height, int depth, uint32_t seed);
HostPlane distort(const HostPlane &ref, int depth, uint32_t seed);
/* The plane with its samples moved into the top bits (P010-style storage). */
HostPlane shifted_msb(const HostPlane &plane, int depth);

/* Number of the 18 outputs whose 64 bits differ; names of the first few into *which. */
int differing_outputs(const FloatAdmScores &a, const FloatAdmScores &b, std::string *which);

/* Options from golden.json's "options" object (numbers and "true"/"false"). */
bool options_from_json(const Json &options, FloatAdmOptions *opts, std::string *error);

/* This processor's RCPSS fingerprint. */
std::string host_fingerprint();

} // namespace cuda_test

#endif /* CUDA_TEST_UTIL_H */
