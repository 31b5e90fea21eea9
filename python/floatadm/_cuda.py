# floatadm: Python bindings of libfloatadm (Netflix VMAF's float ADM, bit-exact).
#
# Copyright (c) 2026 the float_adm authors
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

"""The little of NVIDIA's driver API the CUDA scorer needs: a context and two buffers.

libfloatadm_cuda scores planes in device memory.  The driver (libcuda.so.1, part
of every NVIDIA driver install) gives us that memory without a compiled
extension: the device's primary context is made current around each call, so
the library's statically linked CUDA runtime works in the same context.
"""

import ctypes

_driver = None

_CUdeviceptr = ctypes.c_uint64


def _load():
    global _driver
    if _driver is None:
        lib = ctypes.CDLL("libcuda.so.1")
        for name, argtypes in {
            "cuInit": [ctypes.c_uint],
            "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
            "cuDevicePrimaryCtxRetain": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int],
            "cuDevicePrimaryCtxRelease_v2": [ctypes.c_int],
            "cuCtxPushCurrent_v2": [ctypes.c_void_p],
            "cuCtxPopCurrent_v2": [ctypes.POINTER(ctypes.c_void_p)],
            "cuMemAlloc_v2": [ctypes.POINTER(_CUdeviceptr), ctypes.c_size_t],
            "cuMemFree_v2": [_CUdeviceptr],
            "cuMemcpyHtoD_v2": [_CUdeviceptr, ctypes.c_void_p, ctypes.c_size_t],
            "cuGetErrorString": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
        }.items():
            fn = getattr(lib, name)
            fn.argtypes = argtypes
            fn.restype = ctypes.c_int
        _driver = lib
    return _driver


class CudaDriverError(RuntimeError):
    """A CUDA driver call failed."""


def _check(result, what):
    if result != 0:
        message = ctypes.c_char_p()
        _driver.cuGetErrorString(result, ctypes.byref(message))
        raise CudaDriverError("%s: CUDA error %d (%s)" % (
            what, result, message.value.decode() if message.value else "unknown"))


class DevicePlanes:
    """The primary context of one device and two luma buffers on it."""

    def __init__(self, device, plane_bytes):
        driver = _load()
        _check(driver.cuInit(0), "cuInit")
        self._device = ctypes.c_int()
        _check(driver.cuDeviceGet(ctypes.byref(self._device), device), "cuDeviceGet(%d)" % device)
        self._context = ctypes.c_void_p()
        _check(driver.cuDevicePrimaryCtxRetain(ctypes.byref(self._context), self._device),
               "cuDevicePrimaryCtxRetain")
        self.plane_bytes = plane_bytes
        self.buffers = []
        with self:
            for _ in range(2):
                pointer = _CUdeviceptr()
                _check(driver.cuMemAlloc_v2(ctypes.byref(pointer), plane_bytes), "cuMemAlloc")
                self.buffers.append(pointer)

    def __enter__(self):
        _check(_driver.cuCtxPushCurrent_v2(self._context), "cuCtxPushCurrent")
        return self

    def __exit__(self, *exc):
        popped = ctypes.c_void_p()
        _driver.cuCtxPopCurrent_v2(ctypes.byref(popped))
        return False

    def upload(self, index, host_pointer):
        """Copy plane_bytes from host memory into buffer index; returns its address."""
        _check(_driver.cuMemcpyHtoD_v2(self.buffers[index], host_pointer, self.plane_bytes),
               "cuMemcpyHtoD")
        return self.buffers[index].value

    def close(self):
        if self._context is None:
            return
        with self:
            for pointer in self.buffers:
                _driver.cuMemFree_v2(pointer)
        self.buffers = []
        _driver.cuDevicePrimaryCtxRelease_v2(self._device)
        self._context = None
