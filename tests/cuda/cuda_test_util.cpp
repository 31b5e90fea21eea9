/*
 * float_adm CUDA tests and benchmark: shared helpers.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cuda_test_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include <cuda_runtime_api.h>

namespace cuda_test {

DevicePlane::~DevicePlane()
{
    if (data_)
        cudaFree(data_);
}

bool DevicePlane::upload(const HostPlane &plane, std::string *error)
{
    const size_t row_bytes = (size_t)plane.width * plane.bytes_per_sample;
    cudaError_t e = cudaSuccess;
    if (!data_) {
        size_t pitch = 0;
        e = cudaMallocPitch(&data_, &pitch, row_bytes, plane.height);
        pitch_ = (ptrdiff_t)pitch;
    }
    if (e == cudaSuccess)
        e = cudaMemcpy2D(data_, pitch_, plane.bytes.data(), row_bytes, row_bytes, plane.height,
                         cudaMemcpyHostToDevice);
    bps_ = plane.bytes_per_sample;
    shift_ = plane.shift;
    if (e != cudaSuccess) {
        *error = std::string("uploading a plane: ") + cudaGetErrorString(e);
        return false;
    }
    return true;
}

const Json *Json::get(const std::string &key) const
{
    for (const auto &kv : object)
        if (kv.first == key)
            return &kv.second;
    return nullptr;
}

namespace {

struct JsonParser {
    const std::string &s;
    size_t i = 0;
    std::string error;

    void skip()
    {
        while (i < s.size() && isspace((unsigned char)s[i]))
            i++;
    }
    bool fail(const char *what)
    {
        error = std::string(what) + " at offset " + std::to_string(i);
        return false;
    }
    bool parse_string(std::string *out)
    {
        if (s[i] != '"')
            return fail("expected a string");
        for (i++; i < s.size() && s[i] != '"'; i++) {
            if (s[i] == '\\' && i + 1 < s.size())
                i++; /* golden.json escapes nothing but quotes and backslashes */
            out->push_back(s[i]);
        }
        if (i >= s.size())
            return fail("unterminated string");
        i++;
        return true;
    }
    bool parse(Json *v)
    {
        skip();
        if (i >= s.size())
            return fail("unexpected end");
        const char c = s[i];
        if (c == '{') {
            v->type = Json::kObject;
            i++;
            skip();
            if (s[i] == '}') {
                i++;
                return true;
            }
            for (;;) {
                skip();
                std::string key;
                if (!parse_string(&key))
                    return false;
                skip();
                if (s[i++] != ':')
                    return fail("expected ':'");
                v->object.emplace_back(key, Json());
                if (!parse(&v->object.back().second))
                    return false;
                skip();
                if (s[i] == ',') {
                    i++;
                    continue;
                }
                if (s[i++] != '}')
                    return fail("expected '}'");
                return true;
            }
        }
        if (c == '[') {
            v->type = Json::kArray;
            i++;
            skip();
            if (s[i] == ']') {
                i++;
                return true;
            }
            for (;;) {
                v->array.emplace_back();
                if (!parse(&v->array.back()))
                    return false;
                skip();
                if (s[i] == ',') {
                    i++;
                    continue;
                }
                if (s[i++] != ']')
                    return fail("expected ']'");
                return true;
            }
        }
        if (c == '"') {
            v->type = Json::kString;
            return parse_string(&v->string);
        }
        if (!s.compare(i, 4, "true") || !s.compare(i, 5, "false")) {
            v->type = Json::kBool;
            v->boolean = s[i] == 't';
            i += v->boolean ? 4 : 5;
            return true;
        }
        if (!s.compare(i, 4, "null")) {
            i += 4;
            return true;
        }
        char *end = nullptr;
        v->type = Json::kNumber;
        v->number = strtod(s.c_str() + i, &end);
        if (end == s.c_str() + i)
            return fail("unexpected character");
        i = (size_t)(end - s.c_str());
        return true;
    }
};

} // namespace

bool Json::parse(const std::string &text, Json *out, std::string *error)
{
    JsonParser p{text, 0, std::string()};
    if (!p.parse(out)) {
        *error = p.error;
        return false;
    }
    return true;
}

bool read_file(const std::string &path, std::string *out)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    std::stringstream ss;
    ss << f.rdbuf();
    *out = ss.str();
    return true;
}

int pix_fmt_depth(const std::string &pix_fmt)
{
    if (pix_fmt.find("p10") != std::string::npos)
        return 10;
    if (pix_fmt.find("p12") != std::string::npos)
        return 12;
    if (pix_fmt.find("p16") != std::string::npos)
        return 16;
    return 8;
}

bool load_fixture_luma(const std::string &path, int width, int height, const std::string &pix_fmt,
                       std::vector<HostPlane> *frames, std::string *error)
{
    const int depth = pix_fmt_depth(pix_fmt);
    const int bps = depth > 8 ? 2 : 1;
    const size_t cw = (size_t)(width + 1) / 2, ch = (size_t)(height + 1) / 2;
    size_t chroma;
    if (pix_fmt.rfind("yuv420", 0) == 0)
        chroma = 2 * cw * ch;
    else if (pix_fmt.rfind("yuv422", 0) == 0)
        chroma = 2 * cw * height;
    else if (pix_fmt.rfind("yuv444", 0) == 0)
        chroma = 2 * (size_t)width * height;
    else {
        *error = "unknown pixel format " + pix_fmt;
        return false;
    }
    const size_t luma_bytes = (size_t)width * height * bps;
    const size_t frame_bytes = luma_bytes + chroma * bps;

    /* xz, or Python's lzma where xz is not installed. */
    const std::string cmd = "xz -dc '" + path + "' 2>/dev/null || python3 -c 'import lzma, sys; "
                            "sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' '" + path + "'";
    FILE *pipe = popen(cmd.c_str(), "r");
    if (!pipe) {
        *error = "cannot run " + cmd;
        return false;
    }
    std::vector<uint8_t> frame(frame_bytes);
    while (fread(frame.data(), 1, frame_bytes, pipe) == frame_bytes) {
        HostPlane p;
        p.width = width;
        p.height = height;
        p.bytes_per_sample = bps;
        p.bytes.assign(frame.begin(), frame.begin() + luma_bytes);
        frames->push_back(std::move(p));
    }
    if (pclose(pipe) != 0 || frames->empty()) {
        *error = "could not decompress " + path + " (is xz installed?)";
        return false;
    }
    return true;
}

namespace {

void put_sample(HostPlane &p, size_t index, int v)
{
    if (p.bytes_per_sample == 1) {
        p.bytes[index] = (uint8_t)v;
    } else {
        p.bytes[2 * index] = (uint8_t)v;
        p.bytes[2 * index + 1] = (uint8_t)(v >> 8);
    }
}

int get_sample(const HostPlane &p, size_t index)
{
    if (p.bytes_per_sample == 1)
        return p.bytes[index];
    return p.bytes[2 * index] | p.bytes[2 * index + 1] << 8;
}

HostPlane blank(int width, int height, int depth)
{
    HostPlane p;
    p.width = width;
    p.height = height;
    p.bytes_per_sample = depth > 8 ? 2 : 1;
    p.bytes.assign((size_t)width * height * p.bytes_per_sample, 0);
    return p;
}

} // namespace

HostPlane random_reference(int width, int height, int depth, uint32_t seed)
{
    HostPlane p = blank(width, height, depth);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double fx = 2 + 20 * u(rng), fy = 2 + 20 * u(rng), phase = 6.28 * u(rng);
    const int max = (1 << depth) - 1;
    std::normal_distribution<double> noise(0.0, 0.04);
    for (int i = 0; i < height; i++) {
        for (int j = 0; j < width; j++) {
            const double x = (double)j / width, y = (double)i / height;
            double v = 0.5 + 0.25 * sin(fx * x * 6.28 + phase) * cos(fy * y * 6.28) + 0.2 * (x - y);
            if ((i / 16 + j / 16) % 7 == 0)
                v += 0.15; /* edges */
            v += noise(rng);
            v = v < 0 ? 0 : (v > 1 ? 1 : v);
            put_sample(p, (size_t)i * width + j, (int)lround(v * max));
        }
    }
    return p;
}

HostPlane distort(const HostPlane &ref, int depth, uint32_t seed)
{
    HostPlane p = ref;
    std::mt19937 rng(seed);
    const int max = (1 << depth) - 1;
    std::normal_distribution<double> noise(0.0, 0.02 * max);
    const int w = ref.width, h = ref.height;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            /* A horizontal blur on the left half, noise everywhere, sharpening on the right. */
            const size_t at = (size_t)i * w + j;
            const int l = get_sample(ref, (size_t)i * w + (j > 0 ? j - 1 : 0));
            const int c = get_sample(ref, at);
            const int r = get_sample(ref, (size_t)i * w + (j < w - 1 ? j + 1 : j));
            double v = j < w / 2 ? (l + 2.0 * c + r) / 4 : c + 0.6 * (2.0 * c - l - r);
            v += noise(rng);
            v = v < 0 ? 0 : (v > max ? max : v);
            put_sample(p, at, (int)lround(v));
        }
    }
    return p;
}

HostPlane shifted_msb(const HostPlane &plane, int depth)
{
    HostPlane p = plane;
    p.shift = 16 - depth;
    for (size_t k = 0; k < (size_t)p.width * p.height; k++)
        put_sample(p, k, get_sample(plane, k) << p.shift);
    return p;
}

int differing_outputs(const FloatAdmScores &a, const FloatAdmScores &b, std::string *which)
{
    int n = 0;
    for (int k = 0; k < FLOAT_ADM_NUM_DEBUG_OUTPUTS; k++) {
        const double x = float_adm_output_value(&a, k), y = float_adm_output_value(&b, k);
        if (memcmp(&x, &y, sizeof(x))) {
            if (which && n < 3) {
                char buf[128];
                snprintf(buf, sizeof(buf), "%s%s %.17g vs %.17g", n ? ", " : "",
                         float_adm_output_name(k), x, y);
                *which += buf;
            }
            n++;
        }
    }
    return n;
}

bool options_from_json(const Json &options, FloatAdmOptions *opts, std::string *error)
{
    float_adm_options_default(opts);
    opts->debug = 1;
    for (const auto &kv : options.object) {
        std::string value;
        if (kv.second.type == Json::kNumber) {
            char buf[64];
            snprintf(buf, sizeof(buf), "%.17g", kv.second.number);
            value = buf;
        } else if (kv.second.type == Json::kBool) {
            value = kv.second.boolean ? "true" : "false";
        } else {
            value = kv.second.string;
        }
        char err[256];
        if (float_adm_option_set(opts, kv.first.c_str(), value.c_str(), err, sizeof(err)) < 0) {
            *error = err;
            return false;
        }
    }
    return true;
}

std::string host_fingerprint()
{
    char hex[65];
    float_adm_rcp_fingerprint(hex);
    return hex;
}

} // namespace cuda_test
