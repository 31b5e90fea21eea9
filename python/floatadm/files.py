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

"""Raw planar YUV / gray and y4m files, read by the library's reader.

The pixel formats, the y4m colorspace tags, the frame sizes on disk and the reading
(float_adm_reader_*) are libfloatadm's, the ones float_adm_score reads with, so
score_files() scores the same luma as the command.  Any frame can be read without
reading the ones before it, which is what splitting a title into segments needs.
"""

import ctypes
import os
import stat
import time
import warnings

import numpy as np

from . import _lib
from ._names import shown
from .results import Results, RunFiles
from .scorer import (Scorer, SwapCheck, choose_backend, make_options, named_inputs,
                     warn_swapped)

_ERRBUF = 1024


def pixel_formats():
    """FFmpeg's names of the pixel formats the reader takes, in the library's order."""
    lib = _lib.core()
    names, index = [], 0
    while lib.float_adm_pixel_format_name(index):
        names.append(_lib.text(lib.float_adm_pixel_format_name(index)))
        index += 1
    return names


def y4m_tag(pix_fmt):
    """A pixel format's y4m colorspace tag, without its 'C' ("420", "444p10")."""
    buf = ctypes.create_string_buffer(32)
    if _lib.core().float_adm_pixel_format_y4m_tag(str(pix_fmt).encode(), buf, len(buf)) < 0:
        raise FileError("unknown pixel format %r" % (pix_fmt,))
    return _lib.text(buf.value)


class FileError(ValueError):
    """A file that cannot be scored as given; the message names it."""


def _same_layout(a, b):
    return _lib.core().float_adm_pixel_format_same_layout(a.encode(), b.encode()) == 1


class Geometry:
    """A frame's size and pixel format, and what one frame takes on disk (the
    library's float_adm_frame_format)."""

    def __init__(self, width, height, pix_fmt):
        from .scorer import check_frame
        width, height = check_frame(width, height, 8)[:2]
        self.format = _lib.FloatAdmFrameFormat()
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if _lib.core().float_adm_frame_format(ctypes.byref(self.format), width, height,
                                              str(pix_fmt).encode(), errbuf, _ERRBUF) < 0:
            raise FileError(_lib.message(errbuf.value))
        self.width, self.height, self.pix_fmt = width, height, str(pix_fmt)
        self.bit_depth = self.format.bit_depth
        self.sample_bytes = 2 if self.bit_depth > 8 else 1
        self.luma_bytes = self.format.luma_bytes
        self.frame_bytes = self.format.frame_bytes

    def describe(self):
        return "%dx%d %s" % (self.width, self.height, self.pix_fmt)


class VideoFile:
    """A raw YUV or y4m file, its frames' luma readable by number.

    VideoFile(path) reads a y4m header (a .y4m name, or the "YUV4MPEG2 " signature)
    and warns (a UserWarning) where the library doubts the file (an interlaced
    y4m); start(geometry) fixes the frame size (y4m: its header's) and counts the
    whole frames; .incomplete says how a file ends inside a frame after them.
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        self.name = shown(self.path)  # the path as messages name it
        try:
            is_pipe = self.path == "-" or stat.S_ISFIFO(os.stat(self.path).st_mode)
        except OSError:
            is_pipe = False  # the library's open says why
        if is_pipe:
            raise FileError("%s: a pipe: frames are read here by number, from regular files "
                            "(float_adm_score reads y4m or raw frames from a pipe or stdin)"
                            % self.name)
        lib = _lib.core()
        self._reader = ctypes.c_void_p()
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if lib.float_adm_reader_open(ctypes.byref(self._reader), os.fsencode(self.path),
                                     errbuf, _ERRBUF) < 0:
            raise FileError(_lib.message(errbuf.value))
        header = _lib.FloatAdmFrameFormat()
        num, den = ctypes.c_int(), ctypes.c_int()
        self.is_y4m = lib.float_adm_reader_header(self._reader, ctypes.byref(header),
                                                  ctypes.byref(num), ctypes.byref(den)) == 1
        self.header = None        # the y4m header's Geometry
        self.frame_rate = None    # the y4m header's F, as a float
        if self.is_y4m:
            self.header = Geometry(header.width, header.height,
                                   _lib.text(header.pixel_format))
            if den.value:
                self.frame_rate = num.value / den.value
        warning = lib.float_adm_reader_warning(self._reader)
        if warning:
            warnings.warn(_lib.message(warning), stacklevel=2)
        self.geometry = None
        self.frame_count = 0
        self.incomplete = None

    def start(self, geometry):
        """Fix the geometry, count the whole frames; see the class."""
        lib = _lib.core()
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if lib.float_adm_reader_start(self._reader, ctypes.byref(geometry.format), errbuf,
                                      _ERRBUF) < 0:
            raise FileError(_lib.message(errbuf.value))
        self.geometry = geometry
        self.frame_count = lib.float_adm_reader_frame_count(self._reader)
        if lib.float_adm_reader_incomplete(self._reader, errbuf, _ERRBUF):
            self.incomplete = "%s: %s" % (self.name, _lib.message(errbuf.value))

    def read_luma(self, index):
        """Frame index's luma as a (height, width) uint8 or uint16 array."""
        g = self.geometry
        if not 0 <= index < self.frame_count:
            raise IndexError("%s: frame %d of %d" % (self.name, index, self.frame_count))
        dtype = np.uint8 if g.sample_bytes == 1 else np.dtype("<u2")
        luma = np.empty((g.height, g.width), dtype)
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if _lib.core().float_adm_reader_read_luma(self._reader, index, luma.ctypes.data,
                                                  errbuf, _ERRBUF) < 0:
            raise FileError(_lib.message(errbuf.value))
        return luma

    def read_luma_into(self, index, address):
        """Frame index's luma into the memory at address (the layout read_luma's array
        has: rows of width samples, little-endian)."""
        if not 0 <= index < self.frame_count:
            raise IndexError("%s: frame %d of %d" % (self.path, index, self.frame_count))
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        if _lib.core().float_adm_reader_read_luma(self._reader, index, address, errbuf,
                                                  _ERRBUF) < 0:
            raise FileError(_lib.text(errbuf.value))

    def luma_at(self, index):
        """Where frame index's luma lies (the layout read_luma's array has: rows of width
        samples, little-endian): the reader's file descriptor, which stays the reader's,
        and the offset of its first byte (float_adm_reader_luma_at), for the CUDA
        library to read it there."""
        if not 0 <= index < self.frame_count:
            raise IndexError("%s: frame %d of %d" % (self.path, index, self.frame_count))
        fd, offset = ctypes.c_int(), ctypes.c_uint64()
        if _lib.core().float_adm_reader_luma_at(self._reader, index, ctypes.byref(fd),
                                                ctypes.byref(offset)) != 1:
            raise FileError("%s: frame %d has no place in the file" % (self.name, index))
        return fd.value, offset.value

    def close(self):
        _lib.core().float_adm_reader_free(ctypes.byref(self._reader))

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


def resolve_geometry(reference, distorted, width=None, height=None, pix_fmt=None):
    """The frames' geometry: the y4m headers' (which must agree with each other and
    with what is given), else width, height and pix_fmt, which raw input needs."""
    y4m = None
    for video in (reference, distorted):
        if not video.is_y4m:
            continue
        h = video.header
        for flag, given, own in (("width", width, h.width), ("height", height, h.height)):
            if given and int(given) != own:
                raise FileError("%s: the y4m header says %s, but %s says %s"
                                % (video.name, h.describe(), flag, given))
        if pix_fmt and (pix_fmt not in pixel_formats() or not _same_layout(pix_fmt, h.pix_fmt)):
            raise FileError("%s: the y4m header says %s, but pix_fmt says %s"
                            % (video.name, h.describe(), pix_fmt))
        if y4m is not None:
            first = y4m.header
            if (h.width, h.height) != (first.width, first.height) or \
                    not _same_layout(h.pix_fmt, first.pix_fmt):
                raise FileError("reference and distorted differ: %s is %s but %s is %s"
                                % (y4m.name, first.describe(), video.name, h.describe()))
        y4m = video
    if y4m is not None:
        return y4m.header
    missing = [n for n, v in (("width", width), ("height", height), ("pix_fmt", pix_fmt))
               if not v]
    if missing:
        raise FileError("missing %s: raw YUV input (%s) has no header to say the frame size "
                        "and pixel format" % (", ".join(missing), reference.name))
    return Geometry(width, height, pix_fmt)


def open_pair(reference, distorted, width=None, height=None, pix_fmt=None):
    """Both files opened and started on one geometry: (reference, distorted, geometry).
    Both are told to the library as one run's inputs before anything is read: one
    pipe or FIFO under two names is refused, as two readers would split its bytes."""
    ref = VideoFile(reference)
    try:
        dis = VideoFile(distorted)
    except Exception:
        ref.close()
        raise
    try:
        files = RunFiles()
        files.add_input(reference, "reference")
        files.add_input(distorted, "distorted")
        geometry = resolve_geometry(ref, dis, width, height, pix_fmt)
        ref.start(geometry)
        dis.start(geometry)
    except Exception:
        ref.close()
        dis.close()
        raise
    return ref, dis, geometry


def frame_count(reference, distorted, width=None, height=None, pix_fmt=None):
    """The frames both files hold (the command's rule: both must hold as many whole
    frames, and no partial one)."""
    ref, dis, geometry = open_pair(reference, distorted, width, height, pix_fmt)
    with ref, dis:
        for video in (ref, dis):
            if video.incomplete:
                raise FileError(video.incomplete)
        if ref.frame_count != dis.frame_count:
            raise FileError("reference and distorted differ: %s holds %d frames of %s but "
                            "%s holds %d" % (ref.name, ref.frame_count, geometry.describe(),
                                             dis.name, dis.frame_count))
        return ref.frame_count


def _luma_view(plane, geometry):
    """The luma a FloatAdmPlane holds (read_luma's layout) as an array over its memory."""
    dtype = np.uint8 if geometry.sample_bytes == 1 else np.dtype("<u2")
    memory = (ctypes.c_char * geometry.luma_bytes).from_address(plane.data)
    return np.frombuffer(memory, dtype).reshape(geometry.height, geometry.width)


@named_inputs
def score_files(reference, distorted, width=None, height=None, pix_fmt=None, frames=None,
                start_frame=0, end_frame=None, threads=1, backend="cpu", progress=False,
                map=False, **options):
    """Scores a raw YUV or y4m pair as float_adm_score does; returns Results.

    width, height, pix_fmt: for raw files (a y4m header says them; given, they must
    agree).  frames=N: the first N frames, which both files must hold whole (a
    partial frame after them does not matter); without it both must hold as many
    whole frames, and no partial one.  start_frame, end_frame: only frames [start, end) (a
    segment; frame numbers stay the title's).  threads, backend and **options (by
    libvmaf name or alias) as Scorer's; "auto" weighs the device's start against these
    frames, and the Results say which backend scored them (.backend, .backend_reason).
    progress: a bar on stderr (True: when it
    is a terminal).  map=True: every frame's map too, as Results.maps, and each
    block's lost detail as Results.lost (on either backend, the same bits).
    """
    from ._progress import ProgressBar

    ref, dis, geometry = open_pair(reference, distorted, width, height, pix_fmt)
    with ref, dis:
        if ref.frame_rate and dis.frame_rate and ref.frame_rate != dis.frame_rate:
            # The caller's line: past score_files and named_inputs' wrapper.
            warnings.warn("the reference %s is %g fps and the distorted %s %g fps; they are "
                          "scored frame by frame, frame n against frame n, which pairs "
                          "different moments unless the frames correspond one to one"
                          % (ref.name, ref.frame_rate, dis.name, dis.frame_rate),
                          stacklevel=3)
        if frames is not None:
            frames = int(frames)
            for video in (ref, dis):
                if frames > video.frame_count:
                    raise FileError("%s: frames=%d, but the file holds %d frames of %s"
                                    % (video.name, frames, video.frame_count,
                                       geometry.describe()))
            total = frames
        elif ref.incomplete or dis.incomplete:
            raise FileError("%s (frames=N scores the first N)"
                            % (ref.incomplete or dis.incomplete))
        elif ref.frame_count != dis.frame_count:
            raise FileError("reference and distorted differ: %s holds %d frames of %s but "
                            "%s holds %d (frames=N scores the first N)"
                            % (ref.name, ref.frame_count, geometry.describe(), dis.name,
                               dis.frame_count))
        else:
            total = ref.frame_count
        end = total if end_frame is None else int(end_frame)
        start = int(start_frame)
        if not 0 <= start <= end <= total:
            raise ValueError("frames [%d, %d) are not within the %d frames of the title"
                             % (start, end, total))
        began = time.monotonic()
        bar = ProgressBar(end - start, enabled=progress)
        rows, maps, lost = [], [], []
        reason = "backend=%r" % backend
        if backend == "auto":
            backend, reason = choose_backend(geometry.width, geometry.height,
                                             geometry.bit_depth, threads=threads,
                                             frames=end - start,
                                             p_norm=make_options(options).p_norm)
        with Scorer(geometry.width, geometry.height, geometry.bit_depth, backend=backend,
                    threads=threads, **options) as scorer, \
                SwapCheck(geometry.width, geometry.height, geometry.bit_depth) as swap:
            # Frames read from files carry no timestamp, as float_adm_score's and
            # libvmaf's logs give none: one log of one pair, whoever writes it.
            if map:
                for index in range(start, end):
                    pair = ref.read_luma(index), dis.read_luma(index)
                    swap.add(*pair)
                    scores, frame_map = scorer.score(*pair, map=True)
                    maps.append(frame_map.loss)
                    lost.append(frame_map.lost)
                    rows.append(dict(frame=index, **scores))
                    bar.update(len(rows))
            else:
                def read_frame(k, reference_plane, distorted_plane):
                    """Frame start + k of both files into the scorer's planes, checked for
                    swapped inputs while the check wants pairs."""
                    ref.read_luma_into(start + k, reference_plane.data)
                    dis.read_luma_into(start + k, distorted_plane.data)
                    if swap.wanted:
                        swap.add(_luma_view(reference_plane, geometry),
                                 _luma_view(distorted_plane, geometry))

                def place_frame(k):
                    """Where frame start + k lies in both files, checked for swapped
                    inputs while the check wants pairs."""
                    if swap.wanted:
                        swap.add(ref.read_luma(start + k), dis.read_luma(start + k))
                    return ref.luma_at(start + k), dis.luma_at(start + k)

                for index, scores in zip(range(start, end),
                                         scorer.score_read(read_frame, end - start,
                                                           place_frame)):
                    rows.append(dict(frame=index, **scores))
                    bar.update(len(rows))
            swapped = swap.message()
            names = scorer.names
            settings = scorer.options
            map_shape = scorer.map_shape if map else None
        bar.close()
        if swapped:
            # The caller's line: past score_files and named_inputs' wrapper.
            warn_swapped(reference, distorted, swapped, stacklevel=3)
        def stacked(grids):
            return np.stack(grids) if grids else np.zeros((0,) + map_shape, np.float32)
        results = Results(rows, names=names, options=settings, width=geometry.width,
                          height=geometry.height, elapsed=time.monotonic() - began,
                          inputs=(reference, distorted), maps=stacked(maps) if map else None,
                          lost=stacked(lost) if map else None)
        results.backend, results.backend_reason = backend, reason
        return results
