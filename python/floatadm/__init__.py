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

"""Netflix VMAF's float ADM features, bit-exact with libvmaf, from Python.

A thin ctypes layer over libfloatadm.so (and libfloatadm_cuda.so where built);
numpy is its only dependency.

    import floatadm
    with floatadm.Scorer(576, 324, 8) as scorer:
        scores = scorer.score(reference=ref_luma, distorted=dis_luma)   # {"adm2": ...}
    results = floatadm.score_files(reference="ref.y4m", distorted="dis.y4m")
    results = floatadm.score_video(reference="ref.mp4", distorted="dis.mp4", egl=1.2)
    results.pooled["adm2"]["mean"]; results.to_json("out.json")

floatadm.distributed scores catalogues and split titles on Dask;
`python3 -m floatadm score|report` is the command line.
"""

from .files import FileError, score_files
from .results import Results, pool
from .scorer import (Error, InvalidError, Scorer, cuda_device_count, options, output_names,
                     rcp_fingerprint, version)
from .video import FFmpegError, find_ffmpeg, score_video

__all__ = [
    "Error", "FFmpegError", "FileError", "InvalidError", "OUTPUT_NAMES", "Results", "Scorer",
    "cuda_device_count", "find_ffmpeg", "options", "output_names", "pool", "rcp_fingerprint",
    "score_files", "score_video", "version",
]


def __getattr__(name):
    """OUTPUT_NAMES: the library's, read when first used (results.OUTPUT_NAMES)."""
    if name == "OUTPUT_NAMES":
        from . import results
        return results.OUTPUT_NAMES
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
