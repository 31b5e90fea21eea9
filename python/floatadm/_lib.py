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

"""Finding and loading libfloatadm.so (and libfloatadm_cuda.so) with ctypes.

The structures below mirror include/float_adm.h and include/float_adm_cuda.h;
python/tests/test_scorer.py checks the options structure against the library
field by field, so a change of layout fails a test rather than a score.

Where the library is looked for, first hit wins:
  1. $FLOATADM_LIBRARY (and $FLOATADM_CUDA_LIBRARY): a path to the file;
  2. the directory recorded when the package was staged or installed
     (_config.LIBDIR: build/lib/shared for `make`, $(LIBDIR) for `make install`);
  3. build/lib/shared of the source tree the package sits in (PYTHONPATH=python);
  4. the system's loader (libfloatadm.so.1, then ctypes.util.find_library).
"""

import ctypes
import ctypes.util
import glob
import os
import threading

from ._names import one_line

_HERE = os.path.dirname(os.path.abspath(__file__))

FLOAT_ADM_NUM_OUTPUTS = 7
FLOAT_ADM_NUM_DEBUG_OUTPUTS = 18
FLOAT_ADM_MAX_FRAMES_IN_FLIGHT = 256
FLOAT_ADM_OPT_BOOL, FLOAT_ADM_OPT_INT, FLOAT_ADM_OPT_DOUBLE = 0, 1, 2


class FloatAdmOptions(ctypes.Structure):
    """struct FloatAdmOptions."""

    _fields_ = [
        # begin: generated from FLOAT_ADM_OPTIONS in include/float_adm.h by `make option-docs`
        ("debug", ctypes.c_int),
        ("enhn_gain_limit", ctypes.c_double),
        ("norm_view_dist", ctypes.c_double),
        ("ref_display_height", ctypes.c_int),
        ("noise_weight", ctypes.c_double),
        ("csf_mode", ctypes.c_int),
        ("csf_scale", ctypes.c_double),
        ("csf_diag_scale", ctypes.c_double),
        ("bypass_cm", ctypes.c_int),
        ("p_norm", ctypes.c_double),
        ("adm3_apply_hm", ctypes.c_int),
        ("dlm_weight", ctypes.c_double),
        ("min_val", ctypes.c_double),
        ("f1s", ctypes.c_double * 4),
        ("f2s", ctypes.c_double * 4),
        ("skip_aim_scale", ctypes.c_int),
        ("skip_scale0", ctypes.c_int),
        # end: generated
    ]


class FloatAdmOptionInfo(ctypes.Structure):
    """struct FloatAdmOptionInfo."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("alias", ctypes.c_char_p),
        ("help", ctypes.c_char_p),
        ("type", ctypes.c_int),
        ("default_value", ctypes.c_double),
        ("min", ctypes.c_double),
        ("max", ctypes.c_double),
    ]


class FloatAdmScores(ctypes.Structure):
    """struct FloatAdmScores: 18 doubles, read through float_adm_output_value()."""

    _fields_ = [("values", ctypes.c_double * FLOAT_ADM_NUM_DEBUG_OUTPUTS)]


class FloatAdmPlane(ctypes.Structure):
    """struct FloatAdmPlane (host memory); also FloatAdmCudaPlane's layout."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("stride", ctypes.c_ssize_t),
        ("bytes_per_sample", ctypes.c_int),
        ("shift", ctypes.c_int),
    ]


class FloatAdmCudaFilePlane(ctypes.Structure):
    """struct FloatAdmCudaFilePlane: where a plane lies in a file."""

    _fields_ = [
        ("fd", ctypes.c_int),
        ("offset", ctypes.c_uint64),
    ]


class FloatAdmCudaPlane(ctypes.Structure):
    """struct FloatAdmCudaPlane: a plane and where it is (in_host_memory)."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("pitch", ctypes.c_ssize_t),
        ("bytes_per_sample", ctypes.c_int),
        ("shift", ctypes.c_int),
        ("in_host_memory", ctypes.c_int),
    ]


# FloatAdmCudaPlane.in_host_memory: copied before submit returns; read in place (pinned
# for its upload) until the frame is collected; the same, held until
# float_adm_cuda_held_frames no longer counts the frame.
FLOAT_ADM_CUDA_HOST_COPY, FLOAT_ADM_CUDA_HOST_IN_PLACE, FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD = 1, 2, 3


class FloatAdmPooled(ctypes.Structure):
    """struct FloatAdmPooled."""

    _fields_ = [("min", ctypes.c_double), ("max", ctypes.c_double), ("mean", ctypes.c_double),
                ("harmonic_mean", ctypes.c_double)]


class FloatAdmFrameFormat(ctypes.Structure):
    """struct FloatAdmFrameFormat."""

    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("bit_depth", ctypes.c_int),
                ("pixel_format", ctypes.c_char_p), ("luma_bytes", ctypes.c_uint64),
                ("frame_bytes", ctypes.c_uint64)]


# enum FloatAdmPairDoubt: the kind of pair in doubt that no frame carries (reference
# frames after the main input's last); the names are the library's.
FLOAT_ADM_PAIR_REFERENCE_AFTER_MAIN = 4
# enum FloatAdmLogFormat.
FLOAT_ADM_LOG_JSON, FLOAT_ADM_LOG_CSV, FLOAT_ADM_LOG_XML, FLOAT_ADM_LOG_SUB = 0, 1, 2, 3
# enum FloatAdmOutputKind and enum FloatAdmOutputTarget (float_adm_output_check).
FLOAT_ADM_OUTPUT_LOG, FLOAT_ADM_OUTPUT_MAP, FLOAT_ADM_OUTPUT_REPORT, FLOAT_ADM_OUTPUT_SPEC, \
    FLOAT_ADM_OUTPUT_TABLE = 0, 1, 2, 3, 4
FLOAT_ADM_TARGET_NEW, FLOAT_ADM_TARGET_REPLACE, FLOAT_ADM_TARGET_STDOUT, \
    FLOAT_ADM_TARGET_DISCARD = 0, 1, 2, 3

_P = ctypes.POINTER
_CORE_PROTOTYPES = {
    "float_adm_version": (ctypes.c_char_p, []),
    "float_adm_strerror": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_error_code": (ctypes.c_int, [ctypes.c_int]),
    "float_adm_error_name": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_check_frame": (ctypes.c_int, [ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                             ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_options_default": (None, [_P(FloatAdmOptions)]),
    "float_adm_option_count": (ctypes.c_int, []),
    "float_adm_option_info": (_P(FloatAdmOptionInfo), [ctypes.c_int]),
    "float_adm_option_set": (ctypes.c_int, [_P(FloatAdmOptions), ctypes.c_char_p,
                                            ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_option_set_double": (ctypes.c_int, [_P(FloatAdmOptions), ctypes.c_char_p,
                                                   ctypes.c_double, ctypes.c_char_p,
                                                   ctypes.c_size_t]),
    "float_adm_option_get": (ctypes.c_int, [_P(FloatAdmOptions), ctypes.c_char_p,
                                            _P(ctypes.c_double)]),
    "float_adm_options_validate": (ctypes.c_int, [_P(FloatAdmOptions), ctypes.c_char_p,
                                                  ctypes.c_size_t]),
    "float_adm_output_name": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_output_value": (ctypes.c_double, [_P(FloatAdmScores), ctypes.c_int]),
    "float_adm_output_set_value": (None, [_P(FloatAdmScores), ctypes.c_int, ctypes.c_double]),
    "float_adm_output_feature_name": (ctypes.c_int, [_P(FloatAdmOptions), ctypes.c_int,
                                                     ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_output_parse_name": (ctypes.c_int, [ctypes.c_char_p, _P(FloatAdmOptions)]),
    "float_adm_pair_doubt_name": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_pair_doubt_description": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_summary_create": (ctypes.c_int, [_P(ctypes.c_void_p)]),
    "float_adm_summary_add": (ctypes.c_int, [ctypes.c_void_p, _P(ctypes.c_double),
                                             ctypes.c_size_t]),
    "float_adm_summary_result": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmPooled)]),
    "float_adm_summary_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_swap_check_create": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_int,
                                                   ctypes.c_int, ctypes.c_int]),
    "float_adm_swap_check_add": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmPlane),
                                                _P(FloatAdmPlane)]),
    "float_adm_swap_check_result": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                   ctypes.c_size_t]),
    "float_adm_swap_check_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_log_open": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_int,
                                          _P(FloatAdmOptions), ctypes.c_int, ctypes.c_int,
                                          ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_log_set_fps": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    "float_adm_log_frame_at": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_double,
                                              _P(FloatAdmScores), ctypes.c_char_p,
                                              ctypes.c_size_t]),
    "float_adm_log_skipped": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_char_p,
                                             ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_log_close": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_char_p,
                                           ctypes.c_size_t]),
    "float_adm_context_create": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_int,
                                                ctypes.c_int, ctypes.c_int, _P(FloatAdmOptions),
                                                ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_context_set_threads": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "float_adm_score_frame": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmPlane),
                                             _P(FloatAdmPlane), _P(FloatAdmScores)]),
    "float_adm_context_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_context_set_frames_in_flight": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "float_adm_submit": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmPlane), _P(FloatAdmPlane)]),
    "float_adm_collect": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmScores), ctypes.c_int]),
    "float_adm_in_flight": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_context_enable_map": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_map_size": (ctypes.c_int, [ctypes.c_void_p, _P(ctypes.c_int), _P(ctypes.c_int),
                                          _P(ctypes.c_int)]),
    "float_adm_map_loss": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
    "float_adm_map_sums": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                          ctypes.c_void_p, ctypes.c_size_t]),
    "float_adm_map_render_rgb24": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                                  ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                                  ctypes.c_ssize_t]),
    "float_adm_rcp_fingerprint": (None, [ctypes.c_char_p]),
    "float_adm_pixel_format_name": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_frame_format": (ctypes.c_int, [_P(FloatAdmFrameFormat), ctypes.c_int,
                                              ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.c_size_t]),
    "float_adm_pixel_format_same_layout": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p]),
    "float_adm_pixel_format_y4m_tag": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p,
                                                      ctypes.c_size_t]),
    "float_adm_reader_open": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_char_p,
                                             ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_reader_header": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmFrameFormat),
                                               _P(ctypes.c_int), _P(ctypes.c_int)]),
    "float_adm_reader_warning": (ctypes.c_char_p, [ctypes.c_void_p]),
    "float_adm_reader_start": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmFrameFormat),
                                              ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_reader_frame_count": (ctypes.c_uint64, [ctypes.c_void_p]),
    "float_adm_reader_incomplete": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                   ctypes.c_size_t]),
    "float_adm_reader_read_luma": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint64,
                                                  ctypes.c_void_p, ctypes.c_char_p,
                                                  ctypes.c_size_t]),
    "float_adm_reader_luma_at": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint64,
                                                ctypes.POINTER(ctypes.c_int),
                                                ctypes.POINTER(ctypes.c_uint64)]),
    "float_adm_reader_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_output_check": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_int,
                                              _P(ctypes.c_char_p), ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_table_column": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_table_metric": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_run_files_create": (ctypes.c_int, [_P(ctypes.c_void_p)]),
    "float_adm_run_files_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_run_files_add_input": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                     ctypes.c_char_p, ctypes.c_char_p,
                                                     ctypes.c_size_t]),
    "float_adm_run_files_add_output": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                      ctypes.c_int, ctypes.c_char_p,
                                                      ctypes.c_char_p, ctypes.c_size_t]),
    "float_adm_run_files_stdout_taken": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_run_files_begin_output": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                        ctypes.c_int, ctypes.c_char_p,
                                                        _P(ctypes.c_void_p), ctypes.c_char_p,
                                                        ctypes.c_size_t]),
    "float_adm_output_fd": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_run_files_commit": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                                  ctypes.c_size_t]),
    "float_adm_output_remove_stale": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p,
                                                     ctypes.c_size_t]),
    "float_adm_log_set_output": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                                ctypes.c_char_p, ctypes.c_size_t]),
}

_CUDA_PROTOTYPES = {
    "float_adm_cuda_strerror": (ctypes.c_char_p, [ctypes.c_int]),
    "float_adm_cuda_device_count": (ctypes.c_int, [_P(ctypes.c_int), ctypes.c_char_p,
                                                   ctypes.c_size_t]),
    "float_adm_cuda_context_create": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_int,
                                                     ctypes.c_int, ctypes.c_int,
                                                     _P(FloatAdmOptions), ctypes.c_void_p,
                                                     ctypes.c_int, ctypes.c_char_p,
                                                     ctypes.c_size_t]),
    "float_adm_cuda_context_create_on_device": (ctypes.c_int, [_P(ctypes.c_void_p), ctypes.c_int,
                                                               ctypes.c_int, ctypes.c_int,
                                                               ctypes.c_int, _P(FloatAdmOptions),
                                                               ctypes.c_int, ctypes.c_char_p,
                                                               ctypes.c_size_t]),
    "float_adm_cuda_submit_host": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmPlane),
                                                  _P(FloatAdmPlane)]),
    "float_adm_cuda_submit": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmCudaPlane),
                                             _P(FloatAdmCudaPlane)]),
    "float_adm_cuda_submit_file": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmCudaFilePlane),
                                                  _P(FloatAdmCudaFilePlane)]),
    "float_adm_cuda_in_flight": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_cuda_held_frames": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_cuda_max_in_flight": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_cuda_set_host_threads": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "float_adm_cuda_choose_backend": (ctypes.c_int, [ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                                     ctypes.c_int, ctypes.c_double, ctypes.c_int,
                                                     ctypes.c_uint64, ctypes.c_char_p,
                                                     ctypes.c_size_t]),
    "float_adm_cuda_collect": (ctypes.c_int, [ctypes.c_void_p, _P(FloatAdmScores), ctypes.c_int]),
    "float_adm_cuda_is_exact": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p,
                                               ctypes.c_size_t]),
    "float_adm_cuda_last_error": (ctypes.c_char_p, [ctypes.c_void_p]),
    "float_adm_cuda_context_free": (None, [_P(ctypes.c_void_p)]),
    "float_adm_cuda_context_enable_map": (ctypes.c_int, [ctypes.c_void_p]),
    "float_adm_cuda_map_size": (ctypes.c_int, [ctypes.c_void_p, _P(ctypes.c_int),
                                               _P(ctypes.c_int), _P(ctypes.c_int)]),
    "float_adm_cuda_map_loss": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                               ctypes.c_size_t]),
    "float_adm_cuda_map_sums": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                               ctypes.c_void_p, ctypes.c_size_t]),
}


def _recorded_libdir():
    """The library directory written by `make` / `make install`, or None."""
    try:
        from . import _config  # generated; absent in the source tree
    except ImportError:
        return None
    return getattr(_config, "LIBDIR", None)


def _candidate_dirs():
    dirs = []
    recorded = _recorded_libdir()
    if recorded:
        dirs.append(recorded)
    # python/floatadm -> <root>/build/lib/shared; build/python/floatadm -> build/lib/shared.
    root = os.path.dirname(os.path.dirname(_HERE))
    dirs.append(os.path.join(root, "build", "lib", "shared"))
    dirs.append(os.path.join(root, "lib", "shared"))
    return dirs


def _files_in(directory, stem):
    """libSTEM.so, then its versioned names, newest version first."""
    plain = os.path.join(directory, stem + ".so")
    found = [plain] if os.path.exists(plain) else []
    versioned = sorted(glob.glob(os.path.join(directory, stem + ".so.*")),
                       key=lambda p: [int(x) if x.isdigit() else 0
                                      for x in p.rsplit(".so.", 1)[1].split(".")],
                       reverse=True)
    return found + versioned


def _locate(stem, env_name):
    """Paths (or loader names) to try for libSTEM, in order."""
    explicit = os.environ.get(env_name)
    if explicit:
        return [explicit]
    paths = []
    for directory in _candidate_dirs():
        paths.extend(_files_in(directory, stem))
    paths.append(stem + ".so.1")
    found = ctypes.util.find_library(stem[3:])
    if found:
        paths.append(found)
    return paths


def _bind(lib, prototypes):
    for name, (restype, argtypes) in prototypes.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


_lock = threading.Lock()
_core = None
_cuda = None
_cuda_error = None


class LibraryNotFound(OSError):
    """libfloatadm.so (or its CUDA library) could not be loaded."""


def core():
    """The loaded libfloatadm, its functions typed."""
    global _core
    with _lock:
        if _core is None:
            tried = []
            for path in _locate("libfloatadm", "FLOATADM_LIBRARY"):
                try:
                    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                except OSError as error:
                    tried.append("%s (%s)" % (path, error))
                    continue
                _core = _bind(lib, _CORE_PROTOTYPES)
                _core.floatadm_path = path
                break
            else:
                raise LibraryNotFound(
                    "cannot load libfloatadm.so: build it with `make` in the float_adm "
                    "tree, install it with `make install`, or name it in "
                    "FLOATADM_LIBRARY. Tried: " + "; ".join(tried))
        return _core


def cuda():
    """The loaded libfloatadm_cuda, or None where it is not built; see cuda_error()."""
    global _cuda, _cuda_error
    core()  # the CUDA library resolves the core's symbols from it
    with _lock:
        if _cuda is None and _cuda_error is None:
            tried = []
            for path in _locate("libfloatadm_cuda", "FLOATADM_CUDA_LIBRARY"):
                try:
                    lib = ctypes.CDLL(path)
                except OSError as error:
                    tried.append("%s (%s)" % (path, error))
                    continue
                _cuda = _bind(lib, _CUDA_PROTOTYPES)
                _cuda.floatadm_path = path
                break
            else:
                _cuda_error = ("the CUDA library (libfloatadm_cuda.so) is not available: "
                               "it is built with ./configure --enable-cuda. Tried: " +
                               "; ".join(tried))
        return _cuda


def cuda_error():
    """Why cuda() returned None (empty when it did not)."""
    return _cuda_error or ""


def text(value):
    """A C string from the library as str."""
    return value.decode("utf-8", "replace") if value is not None else None


def message(value):
    """A message from the library (an error buffer's, a warning's) as str, one line
    however the paths it names are spelt (_names.one_line)."""
    return one_line(os.fsdecode(value)) if value is not None else None
