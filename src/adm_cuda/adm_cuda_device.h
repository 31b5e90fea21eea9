/*
 * float_adm CUDA backend: the device built-ins the kernels use, for clang without
 * the CUDA toolkit's headers (-nocudainc -nocudalib), as FFmpeg's compat/cuda does.
 * Under nvcc the toolkit provides them and this header adds nothing.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Nothing here rounds: the arithmetic is adm_arith.h's, built with -ffp-contract=off.
 */
#ifndef ADM_CUDA_DEVICE_H
#define ADM_CUDA_DEVICE_H

#if defined(__clang__) && !defined(__NVCC__)

#include <stddef.h>
#include <stdint.h>

/* What the toolkit's wrapper defines: adm_arith.h's functions become __host__ __device__. */
#define __CUDACC__ 1
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

/* threadIdx, blockIdx, blockDim, gridDim: clang's own, from its resource directory. */
#include <__clang_cuda_builtin_vars.h>

#define ADM_DEVICE static __device__ __forceinline__

ADM_DEVICE int min(int a, int b) { return a < b ? a : b; }
ADM_DEVICE int max(int a, int b) { return a > b ? a : b; }
ADM_DEVICE float fabsf(float x) { return __builtin_fabsf(x); }
ADM_DEVICE void *memcpy(void *dst, const void *src, size_t n)
{
    return __builtin_memcpy(dst, src, n);
}

ADM_DEVICE void __threadfence() { __nvvm_membar_gl(); }

/*
 * The block barrier as an asm statement that clobbers memory.  clang's __syncthreads
 * (llvm.nvvm.barrier0) is, to LLVM 14's alias analysis of globals, a call that cannot
 * write a __shared__ variable whose address is never taken: the load of a flag one
 * thread sets for the block moved above the barrier and read what was there before.
 * clang marks every asm statement in device code convergent, as it does the builtin.
 */
ADM_DEVICE void adm_cuda_block_barrier() { asm volatile("bar.sync 0;" ::: "memory"); }
#define __syncthreads adm_cuda_block_barrier
ADM_DEVICE unsigned atomicAdd(unsigned *p, unsigned v)
{
    return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v);
}

/* Shuffles across the whole warp (width 32): clamp 31 down, 0 up. */
ADM_DEVICE float __shfl_down_sync(unsigned mask, float v, unsigned delta)
{
    return __nvvm_shfl_sync_down_f32(mask, v, delta, 0x1f);
}
ADM_DEVICE float __shfl_up_sync(unsigned mask, float v, unsigned delta)
{
    return __nvvm_shfl_sync_up_f32(mask, v, delta, 0);
}

/* Loads through the read-only cache, and through L2 only (ld.global.cg). */
ADM_DEVICE uint8_t __ldg(const uint8_t *p) { return __nvvm_ldg_uc(p); }
ADM_DEVICE uint16_t __ldg(const uint16_t *p) { return __nvvm_ldg_us(p); }
ADM_DEVICE float __ldg(const float *p) { return __nvvm_ldg_f(p); }
ADM_DEVICE float __ldcg(const float *p)
{
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

/* Round-to-nearest double operations, never fused (adm_powf_model.h). */
ADM_DEVICE double __dmul_rn(double a, double b) { return __nvvm_mul_rn_d(a, b); }
ADM_DEVICE double __dadd_rn(double a, double b) { return __nvvm_add_rn_d(a, b); }
ADM_DEVICE double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }

#undef ADM_DEVICE

#endif /* clang without the CUDA headers */

#endif /* ADM_CUDA_DEVICE_H */
