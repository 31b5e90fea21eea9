/*
 * The device's powf model against this host's powf on every finite non-negative
 * float x (2^31 inputs) for each p: the device computes the model (and, for the
 * record, CUDA's own powf) a chunk at a time, and host threads compare each result
 * with the host's powf while the device computes the next chunk.
 *
 * Usage: cuda_powf_check [--p LIST] [--threads N] [--mode fma|sse2] [--bits B]
 *   --p: comma-separated exponents (default 1,1.5,2.5,4,7.3,20)
 *   --mode: the model to check (default: the one the host probe picks)
 *   --bits: check only the 2^B inputs from 0 upwards, for a quick run (default 31)
 * Exit status: 0 when the model equals powf everywhere (or there is no CUDA device:
 * it says so), 1 on any difference, 2 on a usage or CUDA error.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "adm_cuda_powf.cuh"
#include "adm_powf_model.h"

namespace {

constexpr int kChunkBits = 26; /* 64 Mi inputs a chunk: 256 MiB per result array */
constexpr uint32_t kChunk = 1u << kChunkBits;
constexpr int kMaxReported = 8;

/* The model's results for the chunk that starts at `first`. */
__global__ void model_kernel(uint32_t first, uint32_t count, float p, int mode, float *out)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = adm_cuda::DevicePow{mode}(adm::powf_from_bits(first + i), p);
}

/* CUDA's own powf, for the record (what the backend used before the model). */
__global__ void device_powf_kernel(uint32_t first, uint32_t count, float p, float *out)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = powf(adm::powf_from_bits(first + i), p);
}

bool cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return true;
    fprintf(stderr, "FAIL %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

/* What one host thread found in its share of a chunk. */
struct Share {
    long long model_bad = 0, device_bad = 0;
    uint32_t first_bad[kMaxReported];
    uint32_t host_bits[kMaxReported], model_bits[kMaxReported];
    int reported = 0;
};

void compare_share(uint32_t first, uint32_t begin, uint32_t end, float p, const float *model,
                   const float *device, Share *out)
{
    Share local = *out; /* counted here, not in memory other threads write beside */
    Share *s = &local;
    for (uint32_t i = begin; i < end; i++) {
        const uint32_t want = adm::powf_bits(powf(adm::powf_from_bits(first + i), p));
        const uint32_t got = adm::powf_bits(model[i]);
        if (got != want) {
            if (s->reported < kMaxReported) {
                s->first_bad[s->reported] = first + i;
                s->host_bits[s->reported] = want;
                s->model_bits[s->reported] = got;
                s->reported++;
            }
            s->model_bad++;
        }
        s->device_bad += adm::powf_bits(device[i]) != want;
    }
    *out = local;
}

std::vector<float> parse_list(const char *text)
{
    std::vector<float> out;
    for (const char *s = text; *s;) {
        char *end = nullptr;
        out.push_back(strtof(s, &end));
        if (end == s)
            return {};
        s = *end == ',' ? end + 1 : end;
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<float> ps = {1.0f, 1.5f, 2.5f, 4.0f, 7.3f, 20.0f};
    int threads = (int)std::thread::hardware_concurrency();
    int mode = -1, bits = 31;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--p") && i + 1 < argc)
            ps = parse_list(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
            const char *m = argv[++i];
            mode = !strcmp(m, "fma")    ? adm::kPowfGlibcFma
                   : !strcmp(m, "sse2") ? adm::kPowfGlibcSse2
                                        : -2;
        } else if (!strcmp(argv[i], "--bits") && i + 1 < argc)
            bits = atoi(argv[++i]);
        else
            mode = -2;
        if (mode == -2 || ps.empty() || bits < kChunkBits || bits > 31) {
            fprintf(stderr,
                    "usage: %s [--p LIST] [--threads N] [--mode fma|sse2] [--bits %d..31]\n",
                    argv[0], kChunkBits);
            return 2;
        }
    }
    threads = threads < 1 ? 1 : threads;

    const adm::PowfProbe &probe = adm::powf_probe_host();
    char line[256];
    adm::powf_probe_describe(probe, line, sizeof(line));
    printf("host probe: %s\n", line);
    if (mode < 0) {
        if (probe.mode == adm::kPowfDevice) {
            printf("no model holds on this host: checking the FMA build's model anyway\n");
            mode = adm::kPowfGlibcFma;
        } else {
            mode = probe.mode;
        }
    }
    const char *tunables = getenv("GLIBC_TUNABLES");
    printf("checking the %s build's model; host threads %d%s%s\n",
           mode == adm::kPowfGlibcFma ? "FMA" : "SSE2", threads,
           tunables ? "; GLIBC_TUNABLES=" : "", tunables ? tunables : "");

    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP: no CUDA device\n");
        return 0;
    }
    cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"))
        return 2;
    printf("device: %s\n", prop.name);

    /* Two chunks in flight: the device fills one pair while the host reads the other. */
    float *dev_model = nullptr, *dev_device = nullptr, *host_model[2] = {}, *host_device[2] = {};
    cudaStream_t stream;
    cudaEvent_t done[2], k_start, k_mid, k_end;
    const size_t bytes = (size_t)kChunk * sizeof(float);
    if (!cuda_ok(cudaMalloc(&dev_model, bytes), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dev_device, bytes), "cudaMalloc") ||
        !cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate") ||
        !cuda_ok(cudaEventCreate(&k_start), "cudaEventCreate") ||
        !cuda_ok(cudaEventCreate(&k_mid), "cudaEventCreate") ||
        !cuda_ok(cudaEventCreate(&k_end), "cudaEventCreate"))
        return 2;
    for (int b = 0; b < 2; b++) {
        if (!cuda_ok(cudaMallocHost(&host_model[b], bytes), "cudaMallocHost") ||
            !cuda_ok(cudaMallocHost(&host_device[b], bytes), "cudaMallocHost") ||
            !cuda_ok(cudaEventCreate(&done[b]), "cudaEventCreate"))
            return 2;
    }

    const uint32_t chunks = 1u << (bits - kChunkBits);
    long long total_bad = 0;
    printf("\n%-6s %12s %14s %18s %8s %9s %12s\n", "p", "inputs", "model differs",
           "CUDA powf differs", "wall s", "model ms", "CUDA powf ms");
    for (float p : ps) {
        const auto start = std::chrono::steady_clock::now();
        float model_ms = 0.0f, device_ms = 0.0f;
        std::vector<Share> shares(threads);
        /* The model's results of chunk c into buffer c % 2, the device's powf beside them. */
        auto launch = [&](uint32_t c) {
            const int b = c & 1;
            cudaEventRecord(k_start, stream);
            model_kernel<<<kChunk / 256, 256, 0, stream>>>(c * kChunk, kChunk, p, mode, dev_model);
            cudaEventRecord(k_mid, stream);
            device_powf_kernel<<<kChunk / 256, 256, 0, stream>>>(c * kChunk, kChunk, p, dev_device);
            cudaEventRecord(k_end, stream);
            cudaMemcpyAsync(host_model[b], dev_model, bytes, cudaMemcpyDeviceToHost, stream);
            cudaMemcpyAsync(host_device[b], dev_device, bytes, cudaMemcpyDeviceToHost, stream);
            cudaEventRecord(done[b], stream);
        };
        launch(0);
        for (uint32_t c = 0; c < chunks; c++) {
            const int b = c & 1;
            if (!cuda_ok(cudaEventSynchronize(done[b]), "the chunk kernel"))
                return 2;
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, k_start, k_mid);
            model_ms += ms;
            cudaEventElapsedTime(&ms, k_mid, k_end);
            device_ms += ms;
            /* The device buffers are free again once the copies are done. */
            if (c + 1 < chunks)
                launch(c + 1);
            std::vector<std::thread> pool;
            const uint32_t per = kChunk / (uint32_t)threads + 1;
            for (int t = 0; t < threads; t++) {
                const uint32_t begin = (uint32_t)t * per;
                const uint32_t end = begin + per < kChunk ? begin + per : kChunk;
                pool.emplace_back(compare_share, c * kChunk, begin, end, p, host_model[b],
                                  host_device[b], &shares[t]);
            }
            for (std::thread &t : pool)
                t.join();
        }
        if (!cuda_ok(cudaGetLastError(), "the chunk kernel"))
            return 2;
        long long model_bad = 0, device_bad = 0;
        for (const Share &s : shares) {
            model_bad += s.model_bad;
            device_bad += s.device_bad;
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        printf("%-6g %12llu %14lld %18lld %8.2f %9.1f %12.1f\n", (double)p,
               (unsigned long long)chunks * kChunk, model_bad, device_bad, wall, model_ms,
               device_ms);
        int shown = 0;
        for (const Share &s : shares)
            for (int k = 0; k < s.reported && shown < kMaxReported; k++, shown++)
                printf("    x 0x%08x (%a): host 0x%08x, model 0x%08x\n", s.first_bad[k],
                       (double)adm::powf_from_bits(s.first_bad[k]), s.host_bits[k],
                       s.model_bits[k]);
        fflush(stdout);
        total_bad += model_bad;
    }
    printf("\n%s: the %s model %s this host's powf on every input checked\n",
           total_bad ? "FAIL" : "PASS", mode == adm::kPowfGlibcFma ? "FMA" : "SSE2",
           total_bad ? "differs from" : "equals");
    return total_bad ? 1 : 0;
}
