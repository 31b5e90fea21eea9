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

"""Raw planar YUV / gray and y4m files, read as float_adm_score reads them.

The pixel formats, the y4m colorspace tags and the checks (a file ending inside
a frame, differing frame counts) are those of src/cli/pixel_format.cpp and
video_reader.cpp, so score_files() scores the same luma as the command.  Any
frame can be read without reading the ones before it (raw: by frame size; y4m:
after one pass over the FRAME headers), which is what splitting a title into
segments needs.
"""

import os
import time

import numpy as np

from .results import Results
from .scorer import Scorer

# name: (bit depth, has chroma, chroma shift x, chroma shift y); canonical names
# first, as in the command's table, so that a layout finds its canonical name.
PIXEL_FORMATS = {}
for _depth, _suffix in ((8, ""), (9, "9le"), (10, "10le"), (12, "12le"), (14, "14le"),
                        (16, "16le")):
    _p = "p" + _suffix
    PIXEL_FORMATS["yuv420" + _p] = (_depth, True, 1, 1)
    PIXEL_FORMATS["yuv422" + _p] = (_depth, True, 1, 0)
    PIXEL_FORMATS["yuv444" + _p] = (_depth, True, 0, 0)
    if _depth in (8, 10, 12):
        PIXEL_FORMATS["yuv440" + _p] = (_depth, True, 0, 1)
    PIXEL_FORMATS["gray" + _suffix] = (_depth, False, 0, 0)
for _name in ("yuvj420p", "yuvj422p", "yuvj444p", "yuvj440p"):
    PIXEL_FORMATS[_name] = PIXEL_FORMATS[_name.replace("j", "")]

_Y4M_SIGNATURE = b"YUV4MPEG2 "
_Y4M_MAX_LINE = 65536
_Y4M_420_SITINGS = ("420jpeg", "420mpeg2", "420paldv")


class FileError(ValueError):
    """A file that cannot be scored as given; the message names it."""


def _y4m_colorspace(layout):
    depth, chroma, sx, sy = layout
    family = ("mono" if not chroma else "420" if sx and sy else "422" if sx
              else "440" if sy else "444")
    if depth == 8:
        return family
    return family + ("p" if chroma else "") + str(depth)


def _y4m_format(colorspace):
    if colorspace in _Y4M_420_SITINGS:
        return "yuv420p"
    for name, layout in PIXEL_FORMATS.items():
        if _y4m_colorspace(layout) == colorspace:
            return name
    return None


def _same_layout(a, b):
    la, lb = PIXEL_FORMATS[a], PIXEL_FORMATS[b]
    return la[0] == lb[0] and la[1] == lb[1] and (not la[1] or la[2:] == lb[2:])


class Geometry:
    """A frame's size and pixel format, and what one frame takes on disk."""

    def __init__(self, width, height, pix_fmt):
        if pix_fmt not in PIXEL_FORMATS:
            raise FileError("unknown pixel format %r; supported: %s"
                            % (pix_fmt, ", ".join(PIXEL_FORMATS)))
        self.width, self.height, self.pix_fmt = int(width), int(height), pix_fmt
        depth, chroma, sx, sy = PIXEL_FORMATS[pix_fmt]
        self.bit_depth = depth
        self.sample_bytes = 2 if depth > 8 else 1
        self.luma_bytes = self.width * self.height * self.sample_bytes
        self.chroma_bytes = 0
        if chroma:
            cw = (self.width + (1 << sx) - 1) >> sx
            ch = (self.height + (1 << sy) - 1) >> sy
            self.chroma_bytes = 2 * cw * ch * self.sample_bytes
        self.frame_bytes = self.luma_bytes + self.chroma_bytes

    def describe(self):
        return "%dx%d %s" % (self.width, self.height, self.pix_fmt)


class VideoFile:
    """A raw YUV or y4m file, its frames' luma readable by number.

    VideoFile(path) reads a y4m header (a .y4m name, or the "YUV4MPEG2 " signature);
    start(geometry) fixes the frame size (y4m: its header's), counts the frames and
    checks that the file ends where a frame ends.
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            self._file = open(self.path, "rb")
        except OSError as error:
            raise FileError("%s: cannot open: %s" % (self.path, error.strerror)) from None
        if not os.path.isfile(self.path):
            self._file.close()
            raise FileError("%s: not a regular file" % self.path)
        self.size = os.fstat(self._file.fileno()).st_size
        signature = self._file.read(len(_Y4M_SIGNATURE))
        self.is_y4m = signature == _Y4M_SIGNATURE
        if self.path.lower().endswith(".y4m") and not self.is_y4m:
            self.close()
            raise FileError('%s: not a y4m file: it does not start with "YUV4MPEG2 "'
                            % self.path)
        self.header = None        # the y4m header's Geometry
        self.frame_rate = None    # the y4m header's F, as a float
        self._first = 0
        self.geometry = None
        self.frame_count = 0
        self._offsets = None      # y4m: where each frame's luma starts
        if self.is_y4m:
            self._read_y4m_header()

    def _fail(self, what):
        raise FileError("%s: %s" % (self.path, what))

    def _read_line(self):
        line = self._file.readline(_Y4M_MAX_LINE + 1)
        if len(line) > _Y4M_MAX_LINE:
            self._fail("y4m header line longer than %d bytes" % _Y4M_MAX_LINE)
        if not line.endswith(b"\n"):
            return None
        return line[:-1]

    def _read_y4m_header(self):
        self._file.seek(0)
        header = self._read_line()
        if header is None:
            self._fail("the y4m header has no end of line")
        self._first = len(header) + 1
        colorspace, width, height = "420jpeg", None, None
        for token in header[len(_Y4M_SIGNATURE):].decode("latin-1").split():
            tag, value = token[0], token[1:]
            if tag in "WH":
                if not value.isdigit() or len(value) > 9 or int(value) <= 0:
                    self._fail("bad %s '%s' in the y4m header"
                               % ("width" if tag == "W" else "height", token))
                if tag == "W":
                    width = int(value)
                else:
                    height = int(value)
            elif tag == "C":
                colorspace = value
            elif tag == "F" and ":" in value:
                num, den = value.split(":", 1)
                if num.isdigit() and den.isdigit() and int(den):
                    self.frame_rate = int(num) / int(den)
        if width is None or height is None:
            self._fail("the y4m header has no " + ("H (height)" if width else "W (width)"))
        pix_fmt = _y4m_format(colorspace)
        if pix_fmt is None:
            self._fail("unsupported y4m colorspace C" + colorspace)
        self.header = Geometry(width, height, pix_fmt)

    def start(self, geometry):
        """Fix the geometry, count the frames; see the class."""
        self.geometry = geometry
        if self.is_y4m:
            self._count_y4m()
        else:
            self.frame_count = self.size // geometry.frame_bytes
            if self.size % geometry.frame_bytes:
                self._fail("%g frames of %s: the file ends inside frame %d" % (
                    self.size / geometry.frame_bytes, geometry.describe(), self.frame_count))
        if self.frame_count == 0:
            self._fail("the file holds no frames")

    def _count_y4m(self):
        frame_bytes = self.geometry.frame_bytes
        offset, offsets = self._first, []
        while offset < self.size:
            self._file.seek(offset)
            line = self._read_line()
            if line is None:
                self._fail("the file ends inside the header of frame %d" % len(offsets))
            if not (line == b"FRAME" or line.startswith(b"FRAME ")):
                self._fail("frame %d does not start with a FRAME header" % len(offsets))
            offset += len(line) + 1
            if self.size - offset < frame_bytes:
                self._fail("%g frames of %s: the file ends inside frame %d" % (
                    len(offsets) + (self.size - offset) / frame_bytes,
                    self.geometry.describe(), len(offsets)))
            offsets.append(offset)
            offset += frame_bytes
        self._offsets = offsets
        self.frame_count = len(offsets)

    def read_luma(self, index):
        """Frame index's luma as a (height, width) uint8 or uint16 array."""
        g = self.geometry
        if not 0 <= index < self.frame_count:
            raise IndexError("%s: frame %d of %d" % (self.path, index, self.frame_count))
        offset = self._offsets[index] if self.is_y4m else index * g.frame_bytes
        self._file.seek(offset)
        data = self._file.read(g.luma_bytes)
        if len(data) != g.luma_bytes:
            self._fail("cannot read frame %d: the file ended: did it change while read?"
                       % index)
        dtype = np.uint8 if g.sample_bytes == 1 else np.dtype("<u2")
        return np.frombuffer(data, dtype=dtype).reshape(g.height, g.width)

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


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
                                % (video.path, h.describe(), flag, given))
        if pix_fmt and (pix_fmt not in PIXEL_FORMATS or not _same_layout(pix_fmt, h.pix_fmt)):
            raise FileError("%s: the y4m header says %s, but pix_fmt says %s"
                            % (video.path, h.describe(), pix_fmt))
        if y4m is not None:
            first = y4m.header
            if (h.width, h.height) != (first.width, first.height) or \
                    not _same_layout(h.pix_fmt, first.pix_fmt):
                raise FileError("reference and distorted differ: %s is %s but %s is %s"
                                % (y4m.path, first.describe(), video.path, h.describe()))
        y4m = video
    if y4m is not None:
        return y4m.header
    missing = [n for n, v in (("width", width), ("height", height), ("pix_fmt", pix_fmt))
               if not v]
    if missing:
        raise FileError("missing %s: raw YUV input (%s) has no header to say the frame size "
                        "and pixel format" % (", ".join(missing), reference.path))
    return Geometry(width, height, pix_fmt)


def open_pair(reference, distorted, width=None, height=None, pix_fmt=None):
    """Both files opened and started on one geometry: (reference, distorted, geometry)."""
    ref = VideoFile(reference)
    try:
        dis = VideoFile(distorted)
    except Exception:
        ref.close()
        raise
    try:
        geometry = resolve_geometry(ref, dis, width, height, pix_fmt)
        ref.start(geometry)
        dis.start(geometry)
    except Exception:
        ref.close()
        dis.close()
        raise
    return ref, dis, geometry


def frame_count(reference, distorted, width=None, height=None, pix_fmt=None):
    """The frames both files hold (the command's rule: both must hold as many)."""
    ref, dis, geometry = open_pair(reference, distorted, width, height, pix_fmt)
    with ref, dis:
        if ref.frame_count != dis.frame_count:
            raise FileError("reference and distorted differ: %s holds %d frames of %s but "
                            "%s holds %d" % (ref.path, ref.frame_count, geometry.describe(),
                                             dis.path, dis.frame_count))
        return ref.frame_count


def score_files(reference, distorted, width=None, height=None, pix_fmt=None, frames=None,
                start_frame=0, end_frame=None, threads=1, backend="cpu", progress=False,
                **options):
    """Scores a raw YUV or y4m pair as float_adm_score does; returns Results.

    width, height, pix_fmt: for raw files (a y4m header says them; given, they must
    agree).  frames=N: the first N frames, which both files must hold; without it
    both must hold as many.  start_frame, end_frame: only frames [start, end) (a
    segment; frame numbers stay the title's).  threads, backend and **options (by
    libvmaf name or alias) as Scorer's.  progress: a bar on stderr (True: when it
    is a terminal).
    """
    from ._progress import ProgressBar

    ref, dis, geometry = open_pair(reference, distorted, width, height, pix_fmt)
    with ref, dis:
        if frames is not None:
            frames = int(frames)
            for video in (ref, dis):
                if frames > video.frame_count:
                    raise FileError("%s: frames=%d, but the file holds %d frames of %s"
                                    % (video.path, frames, video.frame_count,
                                       geometry.describe()))
            total = frames
        elif ref.frame_count != dis.frame_count:
            raise FileError("reference and distorted differ: %s holds %d frames of %s but "
                            "%s holds %d (frames=N scores the first N)"
                            % (ref.path, ref.frame_count, geometry.describe(), dis.path,
                               dis.frame_count))
        else:
            total = ref.frame_count
        end = total if end_frame is None else int(end_frame)
        start = int(start_frame)
        if not 0 <= start <= end <= total:
            raise ValueError("frames [%d, %d) are not within the %d frames of the title"
                             % (start, end, total))
        fps = ref.frame_rate or dis.frame_rate
        began = time.monotonic()
        bar = ProgressBar(end - start, enabled=progress)
        rows = []
        with Scorer(geometry.width, geometry.height, geometry.bit_depth, backend=backend,
                    threads=threads, **options) as scorer:
            for index in range(start, end):
                row = {"frame": index}
                if fps:
                    row["timestamp"] = index / fps
                row.update(scorer.score(ref.read_luma(index), dis.read_luma(index)))
                rows.append(row)
                bar.update(len(rows))
            names = scorer.names
            settings = scorer.options
        bar.close()
        return Results(rows, names=names, options=settings, width=geometry.width,
                       height=geometry.height, elapsed=time.monotonic() - began)
