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

import importlib
import importlib.util

# Each public name's module, imported when the name is first used, so that
# `python3 -m floatadm --help` needs no numpy and a command can say what is missing.
_PUBLIC = {
    "FileError": "files", "score_files": "files",
    "OUTPUT_NAMES": "results", "Results": "results", "pool": "results",
    "Error": "scorer", "InvalidError": "scorer", "Scorer": "scorer",
    "choose_backend": "scorer", "cuda_device_count": "scorer", "options": "scorer", "output_names": "scorer",
    "rcp_fingerprint": "scorer", "version": "scorer",
    "FFmpegError": "video", "find_ffmpeg": "video", "score_video": "video",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name):
    """A public name (its module imported on first use) or a submodule
    (floatadm.scorer after a bare `import floatadm`)."""
    if name in _PUBLIC:
        return getattr(importlib.import_module("." + _PUBLIC[name], __name__), name)
    if not name.startswith("__") and importlib.util.find_spec("." + name, __name__):
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
