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

"""Pictures of maps: a grid of values in 0..1 (a loss, or a share of the frame's lost
detail scaled to its largest) in the library's false colours
(float_adm_map_render_rgb24), over a frame's luma or alone, as PNG bytes.

The palette is the library's, so the report, the filter and any other tool show a
loss in the same colour; this module only blends, scales and encodes.
"""

import struct
import zlib

import numpy as np

from . import _lib

# The share of the map's colour in a pixel over a frame: enough to read the colour,
# little enough to recognise the picture under it.
MAP_OPACITY = 0.55


def render(loss, width, height):
    """The loss grid (rows, columns) as the library paints it for a width x height
    picture: a (height, width, 3) uint8 array."""
    from .scorer import _raise
    loss = np.ascontiguousarray(loss, np.float32)
    rows, columns = loss.shape
    rgb = np.empty((height, width, 3), np.uint8)
    err = _lib.core().float_adm_map_render_rgb24(loss.ctypes.data, columns, rows,
                                                 rgb.ctypes.data, width, height,
                                                 rgb.strides[0])
    if err < 0:
        _raise(err, "", "a map of %dx%d blocks for a %dx%d picture: " % (columns, rows, width,
                                                                        height))
    return rgb


def luma_8bit(luma, bit_depth):
    """A luma plane of any depth as 8-bit grey."""
    luma = np.asarray(luma)
    if bit_depth > 8:
        luma = luma >> (bit_depth - 8)
    return luma.astype(np.uint8)


def overlay(loss, luma8):
    """The map painted over a frame: (height, width, 3) uint8."""
    height, width = luma8.shape
    colour = render(loss, width, height).astype(np.float32)
    grey = luma8.astype(np.float32)[:, :, None]
    blended = grey * (1.0 - MAP_OPACITY) + colour * MAP_OPACITY
    return np.round(blended).astype(np.uint8)


def share(lost):
    """Each block's share of its frame's lost detail: its D - N (FrameMap.lost) over
    the sum of the frame's; an enhanced block (D - N below 0) takes none.  Zeros where
    nothing is lost."""
    kept = np.clip(np.nan_to_num(np.asarray(lost, np.float64)), 0.0, None)
    total = kept.sum()
    return kept / total if total > 0 else kept


def alone(loss, width, height):
    """The map alone, for a width x height picture."""
    return render(loss, width, height)


def shrink(rgb, max_width):
    """rgb at most max_width wide: each output pixel the mean of a square of pixels."""
    height, width = rgb.shape[:2]
    factor = -(-width // max_width)
    if factor <= 1:
        return rgb
    h, w = height // factor, width // factor
    squares = rgb[:h * factor, :w * factor].reshape(h, factor, w, factor, 3)
    return np.round(squares.mean(axis=(1, 3))).astype(np.uint8)


def png(rgb):
    """An RGB24 array as PNG bytes (8-bit truecolour, no filter)."""
    rgb = np.ascontiguousarray(rgb, np.uint8)
    height, width = rgb.shape[:2]
    raw = b"".join(b"\0" + rgb[y].tobytes() for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
