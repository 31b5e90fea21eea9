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

"""Scorer: one libfloatadm context (CPU or CUDA) scoring numpy luma planes."""

import collections
import ctypes
import errno
import functools
import inspect
import numbers
import threading
import typing
import warnings

import numpy as np

from . import _lib
from ._names import shown

BACKENDS = ("cpu", "cuda", "auto")
# How the CUDA backend takes the caller's arrays: pinned where they are for their upload
# (read until the frame's scores are out), or copied first into the library's pinned
# buffers (docs/cuda.md, "Frames from host memory").
UPLOADS = ("in_place", "copy")
_ERRBUF = 512
# The codes that mean a caller's value is wrong, by the library's names of them.
_VALUE_ERROR_NAMES = ("INVALID", "RANGE", "NOT_FOUND", "UNSUPPORTED")


def error_codes():
    """{name: code} of the library's FLOAT_ADM_ERROR_* codes ("INVALID", ..., "BUSY");
    also module attributes: floatadm.scorer.ERROR_BUSY."""
    lib = _lib.core()
    codes = {}
    index = 0
    while lib.float_adm_error_code(index):
        code = lib.float_adm_error_code(index)
        codes[_lib.text(lib.float_adm_error_name(code))] = code
        index += 1
    return codes


def __getattr__(name):
    """ERROR_<NAME>: the library's FLOAT_ADM_ERROR_<NAME>, looked up when first used."""
    if name.startswith("ERROR_"):
        codes = error_codes()
        if name[len("ERROR_"):] in codes:
            return codes[name[len("ERROR_"):]]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


class Error(Exception):
    """An error reported by libfloatadm; .code is its negative FLOAT_ADM_ERROR_* code
    (-EINVAL where none is given)."""

    def __init__(self, message, code=-errno.EINVAL):
        super().__init__(message)
        self.code = code


class InvalidError(Error, ValueError):
    """A bad argument or option value (unknown name, out of range, unsupported size)."""


def _raise(code, message, prefix=""):
    lib = _lib.core()
    text = message or _lib.text(lib.float_adm_strerror(code))
    is_value_error = _lib.text(lib.float_adm_error_name(code)) in _VALUE_ERROR_NAMES
    raise (InvalidError if is_value_error else Error)(prefix + text, code)


# The library checks sizes as 64-bit integers; larger ones are past every limit anyway.
_INT64_MAX = 2 ** 63 - 1


def _integer(name, value):
    """value as an int, or ValueError: a size or depth is a whole number, never rounded."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidError("%s must be an integer, not %r" % (name, value))
    return int(value)


def check_frame(width, height, bit_depth):
    """(width, height, bit_depth) as ints, checked against the library's limits; a
    value outside them raises InvalidError (a ValueError) that names the limit."""
    width, height = _integer("width", width), _integer("height", height)
    bit_depth = _integer("bit_depth", bit_depth)
    clamp = [max(-_INT64_MAX, min(v, _INT64_MAX)) for v in (width, height, bit_depth)]
    errbuf = ctypes.create_string_buffer(_ERRBUF)
    err = _lib.core().float_adm_check_frame(*clamp, errbuf, _ERRBUF)
    if err < 0:
        _raise(err, _lib.message(errbuf.value))
    return width, height, bit_depth


def version():
    """The linked library's version, e.g. "1.1.0"."""
    return _lib.text(_lib.core().float_adm_version())


def rcp_fingerprint():
    """This processor's RCPSS fingerprint (64 hex digits, or "none"); see float_adm.h."""
    buf = ctypes.create_string_buffer(65)
    _lib.core().float_adm_rcp_fingerprint(buf)
    return buf.value.decode()


def output_names(debug=False):
    """The outputs' names in the library's order: 7, or 18 with debug."""
    lib = _lib.core()
    count = _lib.FLOAT_ADM_NUM_DEBUG_OUTPUTS if debug else _lib.FLOAT_ADM_NUM_OUTPUTS
    return [_lib.text(lib.float_adm_output_name(i)) for i in range(count)]


def options():
    """The option table (FLOAT_ADM_OPTIONS): a list of dicts in libvmaf's order."""
    lib = _lib.core()
    kinds = {_lib.FLOAT_ADM_OPT_BOOL: "bool", _lib.FLOAT_ADM_OPT_INT: "int",
             _lib.FLOAT_ADM_OPT_DOUBLE: "double"}
    table = []
    for i in range(lib.float_adm_option_count()):
        info = lib.float_adm_option_info(i).contents
        table.append({"name": _lib.text(info.name), "alias": _lib.text(info.alias),
                      "type": kinds.get(info.type, "double"), "default": info.default_value,
                      "min": info.min, "max": info.max, "help": _lib.text(info.help)})
    return table


def make_options(values):
    """A FloatAdmOptions from {name or alias: value}, each set and range-checked by the
    library.  Numbers and bools are passed as doubles (exact); strings as text."""
    lib = _lib.core()
    opts = _lib.FloatAdmOptions()
    lib.float_adm_options_default(ctypes.byref(opts))
    errbuf = ctypes.create_string_buffer(_ERRBUF)
    for name, value in values.items():
        key = str(name).encode()
        errbuf.value = b""
        if isinstance(value, (bool, np.bool_)):
            err = lib.float_adm_option_set_double(ctypes.byref(opts), key, float(bool(value)),
                                                  errbuf, _ERRBUF)
        elif isinstance(value, numbers.Real):
            err = lib.float_adm_option_set_double(ctypes.byref(opts), key, float(value),
                                                  errbuf, _ERRBUF)
        else:
            err = lib.float_adm_option_set(ctypes.byref(opts), key, str(value).encode(),
                                           errbuf, _ERRBUF)
        if err < 0:
            message = _lib.message(errbuf.value)
            _raise(err, message, "" if message else "option %s=%r: " % (name, value))
    return opts


def options_dict(opts):
    """{full name: value} of every option of a FloatAdmOptions (ints as int)."""
    lib = _lib.core()
    values = {}
    for row in options():
        value = ctypes.c_double()
        lib.float_adm_option_get(ctypes.byref(opts), row["name"].encode(), ctypes.byref(value))
        values[row["name"]] = (value.value if row["type"] == "double"
                               else bool(value.value) if row["type"] == "bool"
                               else int(value.value))
    return values


def _check_plane(array, name, width, height, dtype):
    """array as a 2-D array of dtype whose rows the library can read (a copy only when
    the samples of a row are not adjacent, or not in host byte order)."""
    a = np.asarray(array)
    if a.ndim != 2:
        raise ValueError("%s: a 2-D luma plane is needed, not %d-D" % (name, a.ndim))
    if a.shape != (height, width):
        raise ValueError("%s: shape %s, but the scorer is %dx%d (height %d, width %d)"
                         % (name, a.shape, width, height, height, width))
    if a.dtype.kind != "u" or a.dtype.itemsize != dtype.itemsize:
        raise TypeError("%s: dtype %s; a %s array is needed at this bit depth"
                        % (name, a.dtype, dtype.name))
    if not a.dtype.isnative:
        a = a.astype(dtype)
    if a.strides[1] != a.itemsize or abs(a.strides[0]) < a.shape[1] * a.itemsize:
        a = np.ascontiguousarray(a)
    return a


class _MapCalls(typing.NamedTuple):
    """The one place that says which backends give maps: both.  The CPU's
    (float_adm_context_enable_map, float_adm_map_*) and the CUDA library's
    (float_adm_cuda_context_enable_map, float_adm_cuda_map_*), bit for bit the CPU's,
    called alike on a context of either."""

    enable: typing.Any
    size: typing.Any
    loss: typing.Any
    sums: typing.Any
    ctx: ctypes.c_void_p


class FrameMap:
    """One frame's map, as the library computes it (docs/maps.md): blocks of
    block_size x block_size pixels, rows x columns from the top left.

    .loss: (rows, columns) float32, each block's detail loss in 0..1
        (float_adm_map_loss: 0 where nothing is lost).
    .num, .den: (4, rows, columns) float64, each scale's DLM numerator and
        denominator sums per block (float_adm_map_sums).
    .lost: (rows, columns) float64, each block's lost detail D - N, where its loss is
        1 - N/D (docs/maps.md): the sum over scales of den^(1/p) - num^(1/p), p the
        adm_p_norm (the noise floor, the same in N and D, cancels); negative where
        the block was enhanced, 0 where nothing was measured.
    """

    def __init__(self, loss, num, den, block_size, p_norm):
        self.loss, self.num, self.den, self.block_size = loss, num, den, block_size
        q = 1.0 / p_norm
        self.lost = np.sum(den ** q - num ** q, axis=0)

    def __repr__(self):
        return "<FrameMap: %dx%d blocks of %d pixels>" % (self.loss.shape[1], self.loss.shape[0],
                                                         self.block_size)


def named_inputs(function):
    """function(reference, distorted, ...), with the two asked for by name: given by
    position they are taken in that order, with a warning that names what was given
    so, since the float_adm filter takes the distorted first and float_adm_score the
    reference first.  A call that does not bind fails as it would unwrapped."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError:
            return function(*args, **kwargs)
        if args:
            given = "the reference and the distorted" if len(args) > 1 else "the reference"
            warnings.warn("%s(): %s given by position; name them (reference=..., "
                          "distorted=...), as the float_adm filter takes the distorted "
                          "first" % (function.__name__, given), stacklevel=2)
        return function(*args, **kwargs)
    return call


def warn_swapped(reference, distorted, message, stacklevel):
    """The swap check's message (float_adm_swap_check_result), naming both inputs, as
    a warning of the caller stacklevel frames up from the one that calls this."""
    warnings.warn("the distorted %s against the reference %s: %s"
                  % (shown(distorted), shown(reference), message),
                  stacklevel=stacklevel + 1)


class SwapCheck:
    """Whether the inputs may be the wrong way round (float_adm_swap_check_*): an
    encode holds less fine detail than its source.  add() the pairs scored, as
    (reference, distorted) luma arrays, while wanted is True; message() is then the
    library's sentence when the distorted holds clearly more, else None."""

    def __init__(self, width, height, bit_depth):
        self._check = ctypes.c_void_p()
        self.dtype = np.dtype(np.uint8 if bit_depth <= 8 else np.uint16)
        self.width, self.height = width, height
        err = _lib.core().float_adm_swap_check_create(ctypes.byref(self._check), width, height,
                                                      bit_depth)
        if err < 0:
            _raise(err, None, "the check of the inputs' order: ")
        self.wanted = True

    def add(self, reference, distorted):
        if not self.wanted:
            return
        planes = [_check_plane(a, name, self.width, self.height, self.dtype)
                  for a, name in ((reference, "reference"), (distorted, "distorted"))]
        ref, dis = [_lib.FloatAdmPlane(a.ctypes.data, a.strides[0], a.itemsize, 0)
                    for a in planes]
        err = _lib.core().float_adm_swap_check_add(self._check, ctypes.byref(ref),
                                                   ctypes.byref(dis))
        if err < 0:
            _raise(err, None, "the check of the inputs' order: ")
        self.wanted = err == 0

    def message(self):
        text = ctypes.create_string_buffer(512)
        if _lib.core().float_adm_swap_check_result(self._check, text, len(text)) > 0:
            return _lib.text(text.value)
        return None

    def close(self):
        _lib.core().float_adm_swap_check_free(ctypes.byref(self._check))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_check", None):
            self.close()


class Scorer:
    """Scores luma planes with libvmaf's float ADM, bit for bit as the C API.

    Scorer(width, height, bit_depth, backend="cpu", threads=1, device=0, upload=None,
           **options)

    backend: "cpu"; "cuda" (libfloatadm_cuda and an NVIDIA GPU; device picks it,
    after CUDA_VISIBLE_DEVICES); "auto" (the library's rule, choose_backend(): the GPU
    where there is one and it is estimated faster than the CPU on `threads` threads for
    frames of this size; .backend says which, .backend_reason why).  threads: the CPU
    path splits each frame over this many threads, with the same scores for any number.
    upload (CUDA): "in_place" (the default: each array pinned where it is for its upload,
    no copy on the host) or "copy" (copied into the library's pinned buffers first);
    the same bits either way.  options: float_adm's options by
    libvmaf name or alias (adm_enhn_gain_limit=1.2, egl=1.2, debug=True, ...),
    checked by the library; a bad one raises InvalidError (a ValueError).

    Use as a context manager, or call close(), to free the context at once.
    """

    def __init__(self, width, height, bit_depth, backend="cpu", threads=1, device=0,
                 upload=None, **options):
        lib = _lib.core()
        if backend not in BACKENDS:
            raise ValueError("backend must be one of %s, not %r" % (", ".join(BACKENDS),
                                                                     backend))
        if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
            raise ValueError("threads must be a positive integer, not %r" % (threads,))
        if upload is not None and upload not in UPLOADS:
            raise ValueError("upload must be one of %s, not %r" % (", ".join(UPLOADS), upload))
        self.upload = upload or UPLOADS[0]
        self.width, self.height, self.bit_depth = check_frame(width, height, bit_depth)
        self._opts = make_options(options)
        self.debug = bool(self._opts.debug)
        self.names = output_names(self.debug)
        self.dtype = np.dtype(np.uint8 if self.bit_depth == 8 else np.uint16)
        self.threads = int(threads)
        self._ctx = ctypes.c_void_p()
        self._cuda_ctx = ctypes.c_void_p()
        self._map_enabled = False
        self._frames_scored = 0
        # A context scores one frame at a time: calls from several threads take turns.
        self._lock = threading.Lock()
        self._streaming_thread = None  # the thread inside score_frames, which holds _lock
        self._frames_in_flight = 1  # the context's depth (float_adm_context_set_frames_in_flight)
        self.backend_reason = "backend=%r" % backend
        if backend == "auto":
            backend, self.backend_reason = choose_backend(
                self.width, self.height, self.bit_depth, threads=self.threads, device=device,
                p_norm=self._opts.p_norm)
        self.backend = backend
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if backend == "cpu":
            err = lib.float_adm_context_create(ctypes.byref(self._ctx), self.width, self.height,
                                               self.bit_depth, ctypes.byref(self._opts),
                                               errbuf, _ERRBUF)
            if err < 0:
                _raise(err, _lib.message(errbuf.value))
            # The context runs its own threads: no Python runs per job, and score()
            # releases the GIL for the whole frame.
            err = lib.float_adm_context_set_threads(self._ctx, self.threads)
            if err < 0:
                lib.float_adm_context_free(ctypes.byref(self._ctx))
                _raise(err, "", "threads=%d: " % self.threads)
        else:
            self._create_cuda(device, errbuf)

    def _create_cuda(self, device, errbuf):
        lib = _lib.cuda()
        if lib is None:
            raise Error(_lib.cuda_error(), error_codes()["UNSUPPORTED"])
        count = cuda_device_count()
        if count <= 0:
            raise Error("backend='cuda': no CUDA device (%s)" % cuda_device_count.why,
                        -errno.ENODEV)
        # As many frames in flight as the library takes (0): score_frames keeps them
        # queued, each upload beside the kernels of the frame before.
        err = lib.float_adm_cuda_context_create_on_device(
            ctypes.byref(self._cuda_ctx), int(device), self.width, self.height, self.bit_depth,
            ctypes.byref(self._opts), 0, errbuf, _ERRBUF)
        if err < 0:
            message = _lib.message(errbuf.value) or _lib.text(lib.float_adm_cuda_strerror(err))
            _raise(err, message)

    @property
    def options(self):
        """{full name: value} of every option, as the library holds them."""
        return options_dict(self._opts)

    @property
    def exact(self):
        """Whether this backend reproduces the host CPU's bits (always, on the CPU)."""
        if self.backend == "cpu":
            return True
        return bool(_lib.cuda().float_adm_cuda_is_exact(self._cuda_ctx, None, 0))

    def score(self, reference, distorted, map=False):
        """Scores one frame pair: 2-D uint8 (8-bit) or uint16 (9-16 bit) luma arrays of
        shape (height, width), any strides.  Returns {name: value} of the 7 outputs
        (18 with debug), the library's doubles unchanged.

        map=True: returns (scores, FrameMap), the frame's map (docs/maps.md).  The
        library computes maps from a context's first frame on, so map=True is asked
        for with the first frame (or every frame after it may ask).  Either backend
        gives them, the same bits (_MapCalls)."""
        self._not_streaming("score")
        ref = _check_plane(reference, "reference", self.width, self.height, self.dtype)
        dis = _check_plane(distorted, "distorted", self.width, self.height, self.dtype)
        scores = _lib.FloatAdmScores()
        with self._lock:
            if map and not self._map_enabled:
                self._enable_map()
            self._score_into(ref, dis, scores)
            self._frames_scored += 1
            frame_map = self._read_map() if map else None
        value = _lib.core().float_adm_output_value
        named = {name: value(ctypes.byref(scores), i) for i, name in enumerate(self.names)}
        return (named, frame_map) if map else named

    def score_frames(self, pairs):
        """Scores an iterable of (reference, distorted) pairs, as score() does each, and
        yields their {name: value} in order.  On the CPU with threads > 1, threads + 2
        frames are scored at once, whole, on the context's threads
        (float_adm_submit/float_adm_collect); on the GPU, as many as the library takes,
        each frame's upload beside the kernels of the one before: the same bits as
        score(), faster where frames are many.  Each pair's arrays are held, and read,
        until its scores are yielded: they must not change before (a reader that refills
        one buffer for every frame gives new arrays here, or scores with score())."""
        if self.backend == "cuda" and not self._map_enabled:
            yield from self._cuda_stream(self._cuda_submits(pairs))
            return
        if self.backend != "cpu" or self.threads == 1 or self._map_enabled:
            for reference, distorted in pairs:
                yield self.score(reference, distorted)
            return
        lib = _lib.core()
        value = lib.float_adm_output_value
        held = collections.deque()  # the arrays of the frames in flight, oldest first

        def collect(wait):
            """The oldest frame's scores, or None (wait=0) while it is being scored."""
            scores = _lib.FloatAdmScores()
            err = lib.float_adm_collect(self._ctx, ctypes.byref(scores), wait)
            if err == -errno.EAGAIN and not wait:
                return None
            held.popleft()
            if err < 0:
                _raise(err, "", "scoring failed: ")
            self._frames_scored += 1
            return {name: value(ctypes.byref(scores), i) for i, name in enumerate(self.names)}

        self._not_streaming("score_frames")
        with self._lock:
            if not self._ctx:
                raise Error("the scorer is closed")
            depth = min(self.threads + 2, _lib.FLOAT_ADM_MAX_FRAMES_IN_FLIGHT)
            if self._frames_in_flight != depth:
                err = lib.float_adm_context_set_frames_in_flight(self._ctx, depth)
                if err < 0:
                    _raise(err, "", "frames in flight: ")
                self._frames_in_flight = depth
            self._streaming_thread = threading.get_ident()
            try:
                for reference, distorted in pairs:
                    ref = _check_plane(reference, "reference", self.width, self.height,
                                       self.dtype)
                    dis = _check_plane(distorted, "distorted", self.width, self.height,
                                       self.dtype)
                    planes = [_lib.FloatAdmPlane(a.ctypes.data, a.strides[0], a.itemsize, 0)
                              for a in (ref, dis)]
                    while True:
                        err = lib.float_adm_submit(self._ctx, ctypes.byref(planes[0]),
                                                   ctypes.byref(planes[1]))
                        if err != -errno.EAGAIN:
                            break
                        yield collect(1)
                    if err < 0:
                        _raise(err, "", "scoring failed: ")
                    held.append((ref, dis))
                    while held:
                        named = collect(0)
                        if named is None:
                            break
                        yield named
                while held:
                    yield collect(1)
            finally:
                # Abandoned or failed: the frames in flight finish before their arrays go.
                scores = _lib.FloatAdmScores()
                while lib.float_adm_in_flight(self._ctx) > 0:
                    lib.float_adm_collect(self._ctx, ctypes.byref(scores), 1)
                held.clear()
                self._streaming_thread = None

    def _cuda_planes(self, ref, dis):
        """The two checked arrays as FloatAdmCudaPlanes, in place or to be copied.  In
        place they are held (the stream keeps them until the library unpins them), so
        that a collect need not wait for the frames in flight."""
        where = (_lib.FLOAT_ADM_CUDA_HOST_IN_PLACE_HELD if self.upload == "in_place"
                 else _lib.FLOAT_ADM_CUDA_HOST_COPY)
        return [_lib.FloatAdmCudaPlane(a.ctypes.data, a.strides[0], a.itemsize, 0, where)
                for a in (ref, dis)]

    def _cuda_submits(self, pairs):
        """For each pair, a function that queues it on the CUDA context, and its arrays."""
        lib = _lib.cuda()
        for reference, distorted in pairs:
            ref = _check_plane(reference, "reference", self.width, self.height, self.dtype)
            dis = _check_plane(distorted, "distorted", self.width, self.height, self.dtype)
            planes = self._cuda_planes(ref, dis)
            yield (lambda planes=planes: lib.float_adm_cuda_submit(
                self._cuda_ctx, ctypes.byref(planes[0]), ctypes.byref(planes[1]))), (ref, dis)

    def score_read(self, read_frame, count, place_frame):
        """Scores `count` frames of two files, in order, and yields their {name: value}:
        on the GPU (without a map) the library reads each where place_frame(index) says
        its planes lie, ((fd, offset), (fd, offset)) for the reference and the distorted
        (float_adm_cuda_submit_file), so that a frame crosses host memory at most once;
        elsewhere read_frame(index, reference, distorted) reads it into the two
        FloatAdmPlanes of new arrays it is given."""
        if self.backend != "cuda" or self._map_enabled:
            yield from self.score_frames(self._read_arrays(read_frame, count))
            return
        lib = _lib.cuda()

        def placed(index):
            planes = [_lib.FloatAdmCudaFilePlane(fd, offset)
                      for fd, offset in place_frame(index)]
            return (lambda: lib.float_adm_cuda_submit_file(
                self._cuda_ctx, ctypes.byref(planes[0]), ctypes.byref(planes[1]))), None

        yield from self._cuda_stream(placed(index) for index in range(count))

    def _read_arrays(self, read_frame, count):
        for index in range(count):
            arrays = [np.empty((self.height, self.width), self.dtype) for _ in range(2)]
            read_frame(index, *[_lib.FloatAdmPlane(a.ctypes.data, a.strides[0], a.itemsize, 0)
                                for a in arrays])
            yield arrays

    def _cuda_stream(self, submits):
        """Frames on the CUDA context, as many in flight as it takes: submits yields, for
        each frame, a function that queues it (0; -EAGAIN while the queue is full) and
        what it reads until its scores are out, which is held until then, and after
        while the library keeps it pinned (float_adm_cuda_held_frames)."""
        lib = _lib.cuda()
        value = _lib.core().float_adm_output_value
        held = collections.deque()
        pinned_after = collections.deque()  # of the frames collected, newest last

        def failed(err):
            return Error("scoring failed: %s" % (
                _lib.text(lib.float_adm_cuda_last_error(self._cuda_ctx)) or
                _lib.text(lib.float_adm_cuda_strerror(err))), err)

        def collect(wait):
            """The oldest frame's scores, or None (wait=0) while it is being scored."""
            scores = _lib.FloatAdmScores()
            err = lib.float_adm_cuda_collect(self._cuda_ctx, ctypes.byref(scores), wait)
            if err == -errno.EAGAIN and not wait:
                return None
            pinned_after.append(held.popleft())
            for _ in range(len(pinned_after) - lib.float_adm_cuda_held_frames(self._cuda_ctx)):
                pinned_after.popleft()
            if err < 0:
                raise failed(err)
            self._frames_scored += 1
            return {name: value(ctypes.byref(scores), i) for i, name in enumerate(self.names)}

        self._not_streaming("score_frames")
        with self._lock:
            if not self._cuda_ctx:
                raise Error("the scorer is closed")
            self._streaming_thread = threading.get_ident()
            try:
                for submit, keep in submits:
                    while True:
                        err = submit()
                        if err != -errno.EAGAIN:
                            break
                        yield collect(1)
                    if err < 0:
                        raise failed(err)
                    held.append(keep)
                    while held:
                        named = collect(0)
                        if named is None:
                            break
                        yield named
                while held:
                    yield collect(1)
            finally:
                # Abandoned or failed: the frames in flight finish before their arrays go.
                scores = _lib.FloatAdmScores()
                while lib.float_adm_cuda_in_flight(self._cuda_ctx) > 0:
                    lib.float_adm_cuda_collect(self._cuda_ctx, ctypes.byref(scores), 1)
                held.clear()
                pinned_after.clear()  # the last collect unpinned them
                self._streaming_thread = None

    def _not_streaming(self, call):
        """The loop over score_frames holds the scorer: a call from within it would wait
        for itself."""
        if self._streaming_thread == threading.get_ident():
            raise Error("%s() inside a loop over score_frames(): finish or close that loop "
                        "first" % call)

    def _map_calls(self):
        """The map functions of this scorer's backend, with its context."""
        if self.backend == "cpu":
            lib = _lib.core()
            return _MapCalls(lib.float_adm_context_enable_map, lib.float_adm_map_size,
                             lib.float_adm_map_loss, lib.float_adm_map_sums, self._ctx)
        lib = _lib.cuda()
        return _MapCalls(lib.float_adm_cuda_context_enable_map, lib.float_adm_cuda_map_size,
                         lib.float_adm_cuda_map_loss, lib.float_adm_cuda_map_sums,
                         self._cuda_ctx)

    def _map_error(self, err, prefix):
        if self.backend == "cuda" and self._cuda_ctx:
            message = _lib.text(_lib.cuda().float_adm_cuda_last_error(self._cuda_ctx))
            _raise(err, message or _lib.text(_lib.cuda().float_adm_cuda_strerror(err)), prefix)
        _raise(err, "", prefix)

    def _enable_map(self):
        """Maps from the first frame on."""
        calls = self._map_calls()
        if not calls.ctx:
            raise Error("the scorer is closed")
        if self._frames_scored:
            raise InvalidError("map=True: a map is computed from a scorer's first frame on, "
                               "and this scorer has scored %d frames without one (ask for "
                               "map=True with the first frame)" % self._frames_scored)
        err = calls.enable(calls.ctx)
        if err < 0:
            self._map_error(err, "map=True: ")
        self._map_enabled = True

    @property
    def map_shape(self):
        """(rows, columns): the blocks of this frame size's maps (float_adm_map_size)."""
        return self._map_size(self._map_calls())[:2]

    @staticmethod
    def _map_size(calls):
        columns, rows, block = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        if not calls.ctx:
            raise Error("map: the scorer is closed")
        calls.size(calls.ctx, ctypes.byref(columns), ctypes.byref(rows), ctypes.byref(block))
        return rows.value, columns.value, block.value

    def _read_map(self):
        calls = self._map_calls()
        rows, columns, block = self._map_size(calls)
        shape = (rows, columns)
        count = rows * columns
        loss = np.empty(shape, np.float32)
        num = np.empty((4,) + shape, np.float64)
        den = np.empty((4,) + shape, np.float64)
        err = calls.loss(calls.ctx, loss.ctypes.data, count)
        for scale in range(4):
            if err >= 0:
                err = calls.sums(calls.ctx, scale, num[scale].ctypes.data,
                                 den[scale].ctypes.data, count)
        if err < 0:
            self._map_error(err, "map: ")
        return FrameMap(loss, num, den, block, self._opts.p_norm)

    def _score_into(self, ref, dis, scores):
        if self.backend == "cpu":
            if not self._ctx:
                raise Error("the scorer is closed")
            planes = [_lib.FloatAdmPlane(a.ctypes.data, a.strides[0], a.itemsize, 0)
                      for a in (ref, dis)]
            err = _lib.core().float_adm_score_frame(self._ctx, ctypes.byref(planes[0]),
                                                    ctypes.byref(planes[1]),
                                                    ctypes.byref(scores))
            if err < 0:
                _raise(err, "", "scoring failed: ")
        else:
            self._score_cuda(ref, dis, scores)

    def _score_cuda(self, ref, dis, scores):
        if not self._cuda_ctx:
            raise Error("the scorer is closed")
        lib = _lib.cuda()
        planes = self._cuda_planes(ref, dis)
        err = lib.float_adm_cuda_submit(self._cuda_ctx, ctypes.byref(planes[0]),
                                        ctypes.byref(planes[1]))
        if err >= 0:
            err = lib.float_adm_cuda_collect(self._cuda_ctx, ctypes.byref(scores), 1)
        if err < 0:
            raise Error("scoring failed: %s" % (
                _lib.text(lib.float_adm_cuda_last_error(self._cuda_ctx)) or
                _lib.text(lib.float_adm_cuda_strerror(err))), err)

    def close(self):
        """Frees the context; the scorer cannot score after."""
        self._not_streaming("close")
        with self._lock:
            self._close()

    def _close(self):
        if self._ctx:
            _lib.core().float_adm_context_free(ctypes.byref(self._ctx))
        if self._cuda_ctx:
            _lib.cuda().float_adm_cuda_context_free(ctypes.byref(self._cuda_ctx))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return "Scorer(%d, %d, %d, backend=%r, threads=%d)" % (
            self.width, self.height, self.bit_depth, self.backend, self.threads)


def choose_backend(width, height, bit_depth, threads=1, frames=0, device=0, p_norm=3.0):
    """backend="auto"'s choice, the library's (float_adm_cuda_choose_backend): ("cuda",
    why) where CUDA device `device` is there, gives this CPU's bits, and is estimated
    faster than the CPU on `threads` threads for frames of this size (its start
    counted over `frames` frames, where known), else ("cpu", why); why is the sentence
    that says what decided it."""
    lib = _lib.cuda()
    if lib is None:
        return "cpu", _lib.cuda_error()
    why = ctypes.create_string_buffer(_ERRBUF)
    chosen = lib.float_adm_cuda_choose_backend(int(device), int(width), int(height),
                                               int(bit_depth), float(p_norm), int(threads),
                                               int(frames or 0), why, _ERRBUF)
    if chosen < 0:
        _raise(chosen, _lib.text(why.value))
    return ("cuda" if chosen == 1 else "cpu"), _lib.text(why.value)


def cuda_device_count():
    """How many CUDA devices libfloatadm_cuda sees: 0 where it is not built, or there is
    no driver or device (cuda_device_count.why then says why)."""
    lib = _lib.cuda()
    if lib is None:
        cuda_device_count.why = _lib.cuda_error()
        return 0
    count = ctypes.c_int(0)
    why = ctypes.create_string_buffer(_ERRBUF)
    if lib.float_adm_cuda_device_count(ctypes.byref(count), why, _ERRBUF) < 0:
        cuda_device_count.why = _lib.text(why.value)
        return 0
    cuda_device_count.why = _lib.text(why.value) if count.value == 0 else ""
    return count.value


cuda_device_count.why = ""
