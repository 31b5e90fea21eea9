/*
 * float_adm CUDA backend: the kernels' image (PTX, or an nvcc fatbin) in the library's
 * read-only data, NUL-terminated, for cuModuleLoadDataEx (adm_cuda_launch.cpp).
 * ADM_CUDA_IMAGE: its path, from src/adm_cuda/module.mk.
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
    .section .rodata
    .balign 64
    .globl adm_cuda_kernel_image
    .hidden adm_cuda_kernel_image
    .type adm_cuda_kernel_image, @object
adm_cuda_kernel_image:
    .incbin ADM_CUDA_IMAGE
    .byte 0
    .size adm_cuda_kernel_image, . - adm_cuda_kernel_image

    .section .note.GNU-stack, "", @progbits
