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

"""score_video: any video ffmpeg decodes, scored by the float_adm filter.

ffmpeg runs the filter with a JSON log in a private directory; the log, with
each frame's timestamp from a metadata filter behind it, becomes Results.

Everything a caller passes reaches ffmpeg as data: local files as absolute
file: URLs, input options from a short list of known ones, the filter's options
checked (the library's option table; the backend one of the package's names) and
quoted by FFmpeg's two levels of filtergraph escaping.  The CPU scores with the
float_adm filter; backend="cuda" scores with float_adm_cuda, to the same bits, on
frames that NVDEC decoded where the codec and ffmpeg allow, else on frames decoded
on the CPU and uploaded (cuda_decoding, scoring_graph).

Frames are paired by the nearest timestamp (PAIRING, given to the filter and to
every filter measuring beside it: framesync's default pairs each frame with the
last reference frame not after it).  A frame
range [S, E) cuts the distorted input by frame number (trim, never a seek: a seek
lands where the demuxer can) and leaves the reference whole, so that the filter
pairs each distorted frame with the reference frame nearest in time exactly as a
whole run does, whatever the two frame rates; ffmpeg stops after E - S frames.
The frames keep the title's numbers.

ffmpeg runs in a process group of its own and dies with the thread that started
it (Linux: PR_SET_PDEATHSIG), so a killed worker leaves no ffmpeg scoring on;
the private directory is held by a lock (flock) while it is used, and one left by
a killed process, whose lock went with it, is removed by the next run.
"""

import contextlib
import ctypes
import fcntl
import json
import math
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import warnings

import numpy as np

from . import _lib
from ._input import load_json
from ._names import shown
from ._progress import ProgressBar
from .results import Results
from .scorer import (BACKENDS, cuda_device_count, make_options, options as option_table,
                     options_dict, named_inputs, warn_swapped)

_HERE = os.path.dirname(os.path.abspath(__file__))
_checked = {}
_WORK_PREFIX = "floatadm-"

# ffmpeg input options a caller may put before an input, each with one value: the
# demuxer and what a raw input needs.  Anything else could add an input or write a
# file (-dump_attachment), so it is refused.
INPUT_OPTIONS = frozenset((
    "-f", "-pix_fmt", "-video_size", "-s", "-framerate", "-r", "-c:v", "-codec:v",
    "-vcodec", "-color_range", "-colorspace", "-color_primaries", "-color_trc",
    "-stream_loop", "-readrate", "-thread_queue_size"))

# The scalers of FFmpeg's libswscale (its "sws_flags").
SCALERS = ("fast_bilinear", "bilinear", "bicubic", "experimental", "neighbor", "area",
           "bicublin", "gauss", "sinc", "lanczos", "spline")
DEFAULT_SCALER = "bicubic"


class FFmpegError(RuntimeError):
    """ffmpeg failed, or has no float_adm filter; the message ends with its log."""


class DoubtfulPairsError(FFmpegError):
    """The float_adm filter scored pairs whose frames may not belong together (frames
    scored again, pairs more than half a frame apart, an input that ended early): the
    scores would not be those of the pairs meant.  .doubts: what the filter said, as
    pair_doubts() reads it; .results: the Results as scored (None once pickled)."""

    def __init__(self, message, doubts, results=None):
        super().__init__(message)
        self.doubts = doubts
        self.results = results

    def __reduce__(self):
        return type(self), (str(self), self.doubts)


class DoubtfulPairsWarning(UserWarning):
    """Pairs in doubt, scored all the same as asked (accept_doubtful_pairs=True)."""


class FilterWarning(UserWarning):
    """A warning of the float_adm filter that is not about the pairs (colour ranges
    that differ, frames the decoder flagged corrupt), passed on as it said it."""


# The filter that scores on each backend: float_adm takes software frames and scores
# them on the CPU; float_adm_cuda takes CUDA frames (NVDEC's, or uploaded by
# hwupload) and scores them on the GPU, to the same bits.
FILTERS = {"cpu": "float_adm", "cuda": "float_adm_cuda"}

# How the filter pairs the inputs, given on every run: each distorted frame with the
# reference frame nearest in time.  framesync's default (the last reference frame not
# after it) takes the frame before where two inputs' timestamps are rounded apart (a
# 23.976 fps Matroska's milliseconds against a y4m's 1001/24000 s).  The filters that
# measure beside float_adm are given the same option: framesync pairs by the two
# inputs' timestamps alone, so one rule on the same frames gives the same pairs.
PAIRING = "ts_sync_mode=nearest"
# The filter's reason for a distorted frame with no reference frame to be paired with
# (a later start): the filters beside pass such a frame unmeasured, and libvmaf's log
# numbers its frames without it.
UNPAIRED = "no reference frame"


def _filter_help(path, name="float_adm"):
    """ffmpeg's description of a filter (-h filter=NAME), or None where it has none."""
    key = (path, name)
    if key not in _checked:
        try:
            out = subprocess.run([path, "-hide_banner", "-h", "filter=" + name],
                                 capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL)
            known = re.search(r"^Filter %s$" % re.escape(name), out.stdout, re.M) and \
                re.search(r"^\S+ AVOptions:$", out.stdout, re.M)
            _checked[key] = out.stdout if known else None
        except (OSError, subprocess.SubprocessError):
            _checked[key] = None
    return _checked[key]


def _has_filter(path):
    return _filter_help(path) is not None


# FFmpeg's filters that measure beside float_adm, on the same frames: each with the
# values it gives a frame (its frame metadata; libvmaf's log) under the names of a
# ladder's table (float_adm_table_metric).
BESIDE = {"psnr": {"psnr_y": "lavfi.psnr.psnr.y", "psnr_avg": "lavfi.psnr.psnr_avg"},
          "ssim": {"ssim_y": "lavfi.ssim.Y", "ssim": "lavfi.ssim.All"},
          "libvmaf": {"vmaf": "vmaf"}}
# What each ffmpeg lists, by (option, ffmpeg): read once a process.
_listings = {}


def _listed(ffmpeg, option, parse):
    """What ffmpeg lists with option (-filters, -hwaccels), parsed."""
    key = (option, ffmpeg)
    if key not in _listings:
        try:
            out = subprocess.run([ffmpeg, "-hide_banner", option], capture_output=True,
                                 text=True, timeout=60, stdin=subprocess.DEVNULL).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        _listings[key] = parse(out)
    return _listings[key]


def filter_names(ffmpeg):
    """The filters ffmpeg has, as ffmpeg -filters lists them."""
    return _listed(ffmpeg, "-filters", lambda out: {
        line.split()[1] for line in out.splitlines() if len(line.split()) > 2})


def beside_filters(ffmpeg):
    """Of BESIDE's filters, (those ffmpeg has, those it lacks), as ffmpeg -filters
    lists them."""
    listed = filter_names(ffmpeg)
    return (tuple(f for f in BESIDE if f in listed),
            tuple(f for f in BESIDE if f not in listed))


def _candidates():
    found = []
    if os.environ.get("FLOATADM_FFMPEG"):
        found.append(os.environ["FLOATADM_FFMPEG"])
    try:
        from . import _config
        if getattr(_config, "BINDIR", None):
            found.append(os.path.join(_config.BINDIR, "ffmpeg"))
    except ImportError:
        pass
    root = os.path.dirname(os.path.dirname(_HERE))
    found.append(os.path.join(root, "build", "bin", "ffmpeg"))
    found.append(os.path.join(root, "bin", "ffmpeg"))
    on_path = shutil.which("ffmpeg")
    if on_path:
        found.append(on_path)
    return found


def start_failure(path):
    """Why an ffmpeg cannot run here, or None where `ffmpeg -version` runs: no such
    file, not executable, or the loader's own words where it cannot start it (a
    shared library it was linked with, such as libvmaf.so.3, is not where the loader
    looks)."""
    try:
        done = subprocess.run([path, "-hide_banner", "-version"], capture_output=True,
                              text=True, errors="replace", timeout=60,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        return "no such file"
    except PermissionError:
        return "not executable"
    except (OSError, subprocess.SubprocessError) as error:
        return "it cannot be run: %s" % error
    if done.returncode == 0:
        return None
    said = " ".join(done.stderr.split())[-600:] or "nothing said"
    if "error while loading shared libraries" in done.stderr:
        return ("it cannot start, the loader says: %s (a library it was linked with is "
                "not where the loader looks: LD_LIBRARY_PATH names its directory, or build "
                "it with the library linked statically)" % said)
    return "it cannot start (exit status %d): %s" % (done.returncode, said)


def find_ffmpeg(ffmpeg=None):
    """The ffmpeg to run: the one named (which must have the float_adm filter), else
    $FLOATADM_FFMPEG, the project's build/bin/ffmpeg, an installed one, or the first
    ffmpeg on PATH that has the filter.  One named that cannot start says why
    (start_failure), not that it lacks the filter."""
    if ffmpeg is not None:
        path = shutil.which(ffmpeg) or ffmpeg
        if not _has_filter(path):
            raise FFmpegError("%s: %s" % (shown(ffmpeg), start_failure(path) or
                                          "not an ffmpeg with the float_adm filter"))
        return path
    for path in _candidates():
        if os.access(path, os.X_OK) and _has_filter(path):
            return path
    raise FFmpegError("no ffmpeg with the float_adm filter: build the project's "
                      "(build/bin/ffmpeg, `make`), or name one with ffmpeg= or "
                      "$FLOATADM_FFMPEG")


def filter_value(value):
    r"""A text as one value of a filter option inside a filtergraph, by FFmpeg's two
    levels of escaping ("Notes on filtergraph escaping"): quoted for the option
    parser (a quote inside as '\''), then each of \ ' [ ] , ; backslashed for the
    graph parser.  Whatever it holds (: = , ; [ ] ' \, spaces, newlines), it stays
    one value: it cannot end the option, add one, or add a filter."""
    text = str(value)
    if "\0" in text:
        raise ValueError("a filter option value cannot hold a NUL character: %r" % text)
    quoted = "'" + text.replace("'", "'\\''") + "'"
    return "".join("\\" + c if c in "\\'[],;" else c for c in quoted)


def filter_options(options):
    """float_adm's options for the filter: checked by the library, passed by full name
    with the value the library holds (a double as its shortest exact text)."""
    held = options_dict(make_options(options))
    table = {row["name"]: row for row in option_table()}
    by_alias = {row["alias"]: row["name"] for row in table.values() if row["alias"]}
    parts = []
    for key in options:
        name = key if key in table else by_alias[key]
        value, kind = held[name], table[name]["type"]
        text = ("1" if value else "0") if kind == "bool" else (
            "%d" % value if kind == "int" else repr(float(value)))
        parts.append("%s=%s" % (name, filter_value(text)))
    return parts, {name: held[name] for name in held}


def has_filter_option(ffmpeg, option, name="float_adm"):
    """Whether a filter of ffmpeg (float_adm by default) has an option, as ffmpeg -h
    lists it."""
    for line in (_filter_help(ffmpeg, name) or "").splitlines():
        fields = line.split()
        if len(fields) > 1 and fields[0] == option and fields[1].startswith("<"):
            return True
    return False


def _has_cuda_filters(ffmpeg):
    return {FILTERS["cuda"], "hwupload"} <= filter_names(ffmpeg)


# backend="cuda": where frames are decoded.  NVDEC's frames stay on the GPU; frames
# decoded on the CPU are uploaded.  NVDEC is taken for the codecs and formats whose
# NVDEC frames have been compared with the CPU decoder's, value for value, on the
# GPU (docs/perf-cuda.md): H.264 and HEVC, whose standards fix the decoded pictures
# of a stream that decodes without errors, in 4:2:0 (NV12, P010: the software
# decoder's luma); not where something in the graph needs software frames (a
# scaler, the metrics beside).  A picture cropped at its top or left, which ffmpeg
# leaves undone on NVDEC's frames, float_adm_cuda refuses: the run fails and is run
# again decoding on the CPU.
DECODERS = ("auto", "cpu")
NVDEC_FORMATS = {"h264": frozenset(("yuv420p",)),
                 "hevc": frozenset(("yuv420p", "yuv420p10le"))}
# The device ffmpeg opens for a run: the decoders or uploads and float_adm_cuda on
# one CUDA context (frames of two contexts cost a copy of each reference frame).
_CUDA_DEVICE = "floatadm"
# NVDEC's decode surfaces beyond what the stream needs, as its rates in
# docs/perf-cuda.md were measured.
_EXTRA_HW_FRAMES = 8


def check_decoder(decoder):
    """decoder= as given, if one of DECODERS, else ValueError."""
    if not isinstance(decoder, str) or decoder not in DECODERS:
        raise ValueError("decoder %r: one of %s" % (decoder, ", ".join(DECODERS)))
    return decoder


def _hwaccels(ffmpeg):
    """The hardware decoders ffmpeg has, as ffmpeg -hwaccels lists them (after its
    heading, "Hardware acceleration methods:")."""
    return _listed(ffmpeg, "-hwaccels", lambda out: set(out.split()[3:]))


def cuda_decoding(ffmpeg, decoder, streams, software_frames):
    """Where a backend="cuda" run decodes: ("nvdec", why) or ("cpu", why).  decoder:
    one of DECODERS; streams: each input's (codec, pixel format) as ffprobe names them,
    the reference's first; software_frames: what in the graph needs frames on the
    CPU, or None."""
    if check_decoder(decoder) == "cpu":
        return "cpu", "decoder='cpu'"
    if software_frames:
        return "cpu", "%s takes frames decoded on the CPU" % software_frames
    if "cuda" not in _hwaccels(ffmpeg):
        return "cpu", "%s has no cuda hwaccel" % shown(ffmpeg)
    taken = "NVDEC is taken for %s" % "; ".join(
        "%s in %s" % (codec, " or ".join(sorted(formats)))
        for codec, formats in sorted(NVDEC_FORMATS.items()))
    for which, (codec, pix_fmt) in zip(("reference", "distorted"), streams):
        if codec not in NVDEC_FORMATS:
            return "cpu", "the %s is %s: %s" % (
                which, codec or "of a codec ffprobe does not name", taken)
        if pix_fmt not in NVDEC_FORMATS[codec]:
            return "cpu", "the %s is %s in %s: %s" % (
                which, codec, pix_fmt or "a pixel format ffprobe does not name", taken)
    return "nvdec", "NVDEC decodes both inputs"


def cuda_options(decoding):
    """ffmpeg's options for a backend="cuda" run: (before the inputs, before each
    input).  One device for the run; NVDEC's frames left on it, or the filters'
    uploads made to it."""
    device = ["-init_hw_device", "cuda=" + _CUDA_DEVICE]
    if decoding == "nvdec":
        return device, ["-hwaccel", "cuda", "-hwaccel_device", _CUDA_DEVICE,
                        "-hwaccel_output_format", "cuda",
                        "-extra_hw_frames", str(_EXTRA_HW_FRAMES)]
    return device + ["-filter_hw_device", _CUDA_DEVICE], []


def check_backend(ffmpeg, backend, map=False):
    """The backend a run takes, "cpu" or "cuda", for backend= (one of BACKENDS, as
    Scorer takes them; None: the CPU), else ValueError.  "auto" is the GPU where ffmpeg
    has float_adm_cuda (and, for map=True, its map_path) and a CUDA device is there,
    else the CPU; "cuda" where ffmpeg has no float_adm_cuda is an FFmpegError."""
    if backend is None:
        return "cpu"
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError("backend %r: one of %s" % (backend, ", ".join(BACKENDS)))
    if backend == "auto":
        usable = _has_cuda_filters(ffmpeg) and cuda_device_count() > 0 and (
            not map or has_filter_option(ffmpeg, "map_path", FILTERS["cuda"]))
        return "cuda" if usable else "cpu"
    if backend == "cuda" and not _has_cuda_filters(ffmpeg):
        raise FFmpegError("backend='cuda': %s has no %s or no hwupload filter (an ffmpeg "
                          "built with the CUDA backend and FFmpeg's CUDA hwcontext has both)"
                          % (shown(ffmpeg), FILTERS["cuda"]))
    return backend


def scoring_graph(backend, distorted, reference, options, decoding="cpu"):
    """The filtergraph part that scores the pads labelled distorted and reference
    with a filter option string: float_adm on the CPU; for "cuda" float_adm_cuda, on
    NVDEC's frames as they are (decoding "nvdec") or on each input uploaded by
    hwupload to the run's device (cuda_options: the first CUDA device
    CUDA_VISIBLE_DEVICES leaves).  Its output, the distorted frames with their scores
    (CUDA frames on the GPU), is left open for a filter after it."""
    if backend == "cuda" and decoding != "nvdec":
        return "[{d}]hwupload[{d}_gpu];[{r}]hwupload[{r}_gpu];" \
            "[{d}_gpu][{r}_gpu]{f}={o}".format(d=distorted, r=reference, f=FILTERS["cuda"],
                                              o=options)
    return "[%s][%s]%s=%s" % (distorted, reference, FILTERS[backend], options)


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def input_url(path):
    """What ffmpeg is given to read: a local file as an absolute file: URL, whatever
    its name holds (a colon, a protocol's name, a leading dash); a name with :// that
    is no local file as the URL it is (http://, rtmp://, ...)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text or not text:
        raise ValueError("not a file name or URL: %r" % text)
    if not isinstance(path, os.PathLike) and _URL.match(text) and not os.path.exists(text):
        return text
    try:
        is_stream = text == "-" or not stat.S_ISREG(os.stat(text).st_mode)
    except OSError:
        is_stream = False  # ffmpeg names what it cannot open
    if is_stream:
        # ffprobe reads it, then ffmpeg again: a pipe gives its bytes to the first.
        raise FFmpegError("%s is a pipe, FIFO or device: a video is read more than once "
                          "(probed, then scored), which a stream cannot give; save it to a "
                          "file first" % shown(text))
    return "file:" + os.path.abspath(text)


def input_options(args, which):
    """A caller's ffmpeg input options, checked: each one of INPUT_OPTIONS with its
    value (which cannot be taken for an option)."""
    args = [str(a) for a in args]
    if len(args) % 2:
        raise ValueError("%s_args: each option takes one value: %r" % (which, args))
    for option, value in zip(args[::2], args[1::2]):
        if option not in INPUT_OPTIONS:
            raise ValueError("%s_args: %r is not an input option score_video passes (%s)"
                             % (which, option, " ".join(sorted(INPUT_OPTIONS))))
        if not value or value.startswith("-") and not _is_number(value) or "\0" in value:
            raise ValueError("%s_args: %s takes a value, not %r" % (which, option, value))
    return args


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


# INPUT_OPTIONS as ffprobe takes them: those it knows by other names (the demuxer's, for
# a raw input's "-f rawvideo -pix_fmt yuv420p -s 1920x1080 -r 24"), and those of
# ffmpeg's reading alone, which it refuses and which change nothing a probe reads (None).
_FFPROBE_NAMES = {"-pix_fmt": "-pixel_format", "-s": "-video_size", "-r": "-framerate",
                  "-vcodec": "-codec:v", "-stream_loop": None, "-readrate": None,
                  "-thread_queue_size": None}


def _ffprobe_options(input_args):
    """input_options' checked pairs as ffprobe takes them."""
    options = []
    for option, value in zip(input_args[::2], input_args[1::2]):
        name = _FFPROBE_NAMES.get(option, option)
        if name:
            options += [name, value]
    return options


def _ffprobe(ffmpeg, url, input_args, entries, extra=(), streams="v:0"):
    """ffprobe's JSON on the streams selected (None: all of them), or {}; input_args are
    ffmpeg's (input_options')."""
    input_args = _ffprobe_options(list(input_args))
    ffprobe = os.path.join(os.path.dirname(ffmpeg), "ffprobe")
    if not os.access(ffprobe, os.X_OK):
        ffprobe = shutil.which("ffprobe")
    if not ffprobe:
        return {}
    select = ["-select_streams", streams] if streams else []
    try:
        out = subprocess.run([ffprobe, "-v", "error", *extra, *input_args, *select,
                              "-show_entries", entries, "-of", "json", "-i", url],
                             capture_output=True, text=True, timeout=600,
                             stdin=subprocess.DEVNULL, preexec_fn=_child_setup())
        return json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}


def _probe_frames(ffmpeg, url, input_args):
    """The frames in the first video stream as ffprobe sees them, or None: the
    container's count, else its duration times the frame rate, else the packets
    counted (demuxing only, no decoding)."""
    info = _ffprobe(ffmpeg, url, input_args,
                    "stream=nb_frames,avg_frame_rate,duration:format=duration")
    stream = (info.get("streams") or [{}])[0]
    if str(stream.get("nb_frames", "")).isdigit():
        return int(stream["nb_frames"])
    try:
        num, den = stream["avg_frame_rate"].split("/")
        duration = stream.get("duration") or info.get("format", {})["duration"]
        return int(round(float(duration) * int(num) / int(den)))
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    info = _ffprobe(ffmpeg, url, input_args, "stream=nb_read_packets", ["-count_packets"])
    count = str((info.get("streams") or [{}])[0].get("nb_read_packets", ""))
    return int(count) if count.isdigit() else None


def count_frames(ffmpeg, path, input_args=()):
    """The frames of the first video stream, counted by demuxing it whole (no
    decoding), or None."""
    info = _ffprobe(ffmpeg, input_url(path), input_options(input_args, "input"),
                    "stream=nb_read_packets", ["-count_packets"])
    count = str((info.get("streams") or [{}])[0].get("nb_read_packets", ""))
    return int(count) if count.isdigit() else None


def probe_stream(ffmpeg, path):
    """The first video stream of a file: {"codec", "width", "height", "bitrate"}, the
    bitrate (bit/s) of the whole stream, its packets' bytes over the time they span
    (the container's figure is missing in some formats and counts other streams in
    others).  FFmpegError where ffprobe cannot tell."""
    url = input_url(path)
    stream = (_ffprobe(ffmpeg, url, (), "stream=codec_name,width,height,avg_frame_rate")
              .get("streams") or [{}])[0]
    packets = _ffprobe(ffmpeg, url, (), "packet=pts_time,duration_time,size").get(
        "packets") or []
    size, start, end = 0, None, None
    for packet in packets:
        try:
            pts, duration = float(packet["pts_time"]), float(packet.get("duration_time", 0))
            size += int(packet["size"])
        except (KeyError, ValueError):
            continue
        start = pts if start is None else min(start, pts)
        end = pts + duration if end is None else max(end, pts + duration)
    if start is None and packets:
        # An elementary stream (raw MPEG-2, H.264) has no timestamps: its packets are
        # its frames, at the stream's rate.
        try:
            num, den = (int(v) for v in stream["avg_frame_rate"].split("/"))
            size = sum(int(p["size"]) for p in packets)
            start, end = 0.0, len(packets) * den / num
        except (KeyError, ValueError, ZeroDivisionError):
            pass
    if not isinstance(stream.get("width"), int) or start is None or end <= start:
        raise FFmpegError("%s: ffprobe finds no video stream with timed packets to take "
                          "its bitrate from" % shown(path))
    return {"codec": stream.get("codec_name", "?"), "width": stream["width"],
            "height": stream["height"], "bitrate": 8 * size / (end - start)}


# What a warning that the inputs may be swapped asks, in every face.  Those warnings
# name the line that called score_video: 4 frames up, past named_inputs' wrapper.
_SWAPPED = "are the two swapped? (the reference is the source, the distorted its encode)"


def _warn_if_swapped(distorted_size, reference_size, reference, distorted):
    """A rung is scaled up to its source: a distorted larger than its reference,
    scaled down, is most likely the source given as the distorted.  Whether it warned."""
    if distorted_size and distorted_size[0] * distorted_size[1] > \
            reference_size[0] * reference_size[1]:
        warnings.warn("the distorted %s (%dx%d) is larger than the reference %s (%dx%d) and "
                      "is scaled down to it: %s" % (shown(distorted), distorted_size[0],
                                                    distorted_size[1], shown(reference),
                                                    reference_size[0], reference_size[1],
                                                    _SWAPPED),
                      stacklevel=4)
        return True
    return False


# Codecs whose encodes of one source can be told apart by bitrate (lossy, inter-coded).
_LOSSY_CODECS = frozenset(("av1", "h264", "hevc", "mpeg1video", "mpeg2video", "mpeg4", "vp8",
                           "vp9"))


def _bit_rate(entry):
    """An entry's bit_rate (bit/s), or None where ffprobe gives none."""
    rate = str(entry.get("bit_rate", ""))
    return int(rate) if rate.isdigit() else None


def _header_rate(info):
    """(codec, bit/s) of the first video stream as the container's header gives them
    (info: _probe_input's), or None: the stream's own rate, else the file's less each
    other stream's where every one is given (an audio track never counts), else none.
    A hint read in an instant, not the measured whole-stream rate of probe_stream."""
    streams = info.get("streams") or []
    video = _video_stream(info)
    if not video or "codec_name" not in video:
        return None
    rate = _bit_rate(video)
    if rate is None:
        rates = [_bit_rate(info.get("format") or {})] + \
            [_bit_rate(s) for s in streams if s is not video]
        if None in rates:
            return None
        rate = rates[0] - sum(rates[1:])
    return (video["codec_name"], rate) if rate > 0 else None


def _warn_if_swapped_rates(ref_info, dis_info, reference, distorted):
    """Two encodes in one lossy codec: a distorted at more than twice its reference's
    bitrate is most likely the source given as the distorted.  Whether it warned."""
    ref, dis = _header_rate(ref_info), _header_rate(dis_info)
    if ref and dis and ref[0] == dis[0] and ref[0] in _LOSSY_CODECS and dis[1] > 2 * ref[1]:
        warnings.warn("the distorted %s (%s, %d kbit/s) has more than twice the bitrate of the "
                      "reference %s (%d kbit/s): %s" % (shown(distorted), dis[0],
                                                        dis[1] // 1000, shown(reference),
                                                        ref[1] // 1000, _SWAPPED),
                      stacklevel=4)
        return True
    return False


# The float_adm filter's warnings on ffmpeg's stderr ("[Parsed_float_adm_0 @ 0x...]
# TEXT"), passed on as the package's own.  Those about pairs in doubt end with the
# kind they are of, "(pair_doubt=KIND)": the package says those once, from what the
# filter gives programs (each frame's metadata, the log's "pairing": pair_doubts),
# and reads no count or frame out of the sentences.
_FILTER_LINE = re.compile(r"^\[Parsed_float_adm(?:_map|_cuda)?_\d+ @ [^\]]*\] (.*?)\s*$", re.M)
_FILTER_SWAPPED = re.compile(r"^The main \(first\) input against the reference \(second\): "
                             r"(.*?)\.?$")
_FILTER_DOUBT = re.compile(r"\(pair_doubt=([a-z_]+)\)\.?$")
# The frame metadata key the filter gives each frame it passes on whose pair is in
# doubt: the kinds of the pair (pair_doubt_kinds()) joined with '+'.
PAIR_DOUBT_KEY = "lavfi.float_adm.pair_doubt"


def pair_doubt_kinds():
    """{name: what it is and what makes it} of each kind of pair in doubt, in the
    library's order (float_adm_pair_doubt_name, float_adm_pair_doubt_description):
    the names the filter's metadata, its log and Results.doubtful_pairs give them."""
    lib = _lib.core()
    kinds, i = {}, 0
    while lib.float_adm_pair_doubt_name(i):
        kinds[_lib.text(lib.float_adm_pair_doubt_name(i))] = \
            _lib.text(lib.float_adm_pair_doubt_description(i))
        i += 1
    return kinds


def __getattr__(name):
    """PAIR_DOUBTS: pair_doubt_kinds(), read from the library when asked."""
    if name == "PAIR_DOUBTS":
        return pair_doubt_kinds()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def filter_warnings(stderr):
    """The float_adm filter's warnings on ffmpeg's stderr, each its text, in order."""
    return _FILTER_LINE.findall(stderr)


def frame_doubts(path):
    """{frame: [kind, ...]} of each frame a metadata filter printed to path (mode=print)
    that carries PAIR_DOUBT_KEY: the kinds of doubt of its pair."""
    doubts, current = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = _META_FRAME.match(line)
                if m:
                    current = int(m.group(1))
                    continue
                key, sep, value = line.strip().partition("=")
                if sep and key == PAIR_DOUBT_KEY and current is not None:
                    doubts[current] = value.split("+")
    except OSError:
        pass
    return doubts


def pair_doubts(frame_kinds, pairing, start=0, kept=None):
    """The pairs in doubt of a run, as the filter gives them to programs: one entry per
    kind of pair_doubt_kinds() that it counted, in that order: {"kind", "why" (the
    library's words), "frames" (how many), "first_frame" (the title's number of the
    first frame of that kind, start being the first frame the filter saw; None where
    no frame says it: reference frames after the distorted's last have none)}.
    frame_kinds: frame_doubts() of the run's metadata; pairing: the "pairing" member
    of its log (the run's counts); kept: the frames (the filter's numbers) that a
    range keeps, None for a whole run.  A whole run counts as the log does (a graph
    rebuilt mid-stream leaves only the last part's metadata); a range counts the
    frames it keeps, as the log counts any frame the filter passed on after them.
    A kind the library does not name: FFmpegError."""
    kinds = pair_doubt_kinds()
    said = {k for ks in frame_kinds.values() for k in ks} | (set(pairing) - {"pairs"})
    unknown = sorted(said - set(kinds))
    if unknown:
        raise FFmpegError("the float_adm filter says pairs are in doubt of kinds this "
                          "libfloatadm does not name (%s): the filter and the library are "
                          "of different builds" % ", ".join(unknown))
    no_frame = _lib.text(_lib.core().float_adm_pair_doubt_name(
        _lib.FLOAT_ADM_PAIR_REFERENCE_AFTER_MAIN))
    found = []
    for kind, why in kinds.items():
        frames = sorted(f for f, ks in frame_kinds.items()
                        if kind in ks and (kept is None or f in kept))
        count = pairing.get(kind, 0) if kept is None or kind == no_frame else len(frames)
        if not isinstance(count, int) or count < 0:
            raise FFmpegError("the float_adm filter's log counts %r pairs in doubt of kind "
                              "%s" % (count, kind))
        if count:
            found.append({"kind": kind, "why": why, "frames": count,
                          "first_frame": frames[0] + start if frames else None})
    return found


def doubts_text(doubts):
    """Pairs in doubt in one line: each kind, how many and the first frame, where known
    (a record written before the filter counted every kind may lack a count)."""
    parts = []
    for d in doubts:
        said = (["%d" % d["frames"]] if d.get("frames") is not None else []) + \
            (["the first at frame %d" % d["first_frame"]] if d.get("first_frame") is not None
             else [])
        parts.append("%s: %s" % (d["why"], ", ".join(said)) if said else d["why"])
    return "; ".join(parts)


ACCEPT_HINT = ("accept_doubtful_pairs=True (python3 -m floatadm: --accept-doubtful-pairs) "
               "keeps them all the same")


def _pass_warnings_on(stderr, doubts, reference, distorted, swap_said, accept, results):
    """The filter's warnings, said as the package's own, naming both inputs: the swap
    check where nothing said it yet, each other warning, and the pairs in doubt
    (pair_doubts()) once: a DoubtfulPairsError, or with accept a DoubtfulPairsWarning
    and results' doubtful_pairs.  Warnings name the line that called score_video."""
    for line in filter_warnings(stderr):
        swapped = _FILTER_SWAPPED.match(line)
        if _FILTER_DOUBT.search(line):
            continue
        if swapped:
            if not swap_said:
                warn_swapped(reference, distorted, swapped.group(1), stacklevel=4)
        else:
            warnings.warn(FilterWarning("the distorted %s against the reference %s: %s" % (
                shown(distorted), shown(reference), line)), stacklevel=4)
    if not doubts:
        return
    text = "the distorted %s against the reference %s, pairs in doubt: %s." % (
        shown(distorted), shown(reference), doubts_text(doubts))
    if not accept:
        raise DoubtfulPairsError("%s These scores would not be of the two videos frame for "
                                 "frame: %s" % (text, ACCEPT_HINT), doubts, results)
    results.doubtful_pairs = doubts
    warnings.warn(DoubtfulPairsWarning("%s Scored all the same, as asked." % text),
                  stacklevel=4)


def _probe_input(ffmpeg, url, input_args):
    """What score_video asks of an input, in one ffprobe: every stream's type, codec,
    header bitrate, size and pixel format, and the file's bitrate."""
    return _ffprobe(ffmpeg, url, input_args, "stream=codec_type,codec_name,bit_rate,width,"
                    "height,pix_fmt:format=bit_rate", streams=None)


def _video_stream(info):
    """The first video stream of _probe_input's info, or None."""
    return next((s for s in info.get("streams") or [] if s.get("codec_type") == "video"),
                None)


def _decoding_of(info):
    """(codec, pixel format) of the first video stream as ffprobe names them; None
    for what it does not say."""
    stream = _video_stream(info) or {}
    return stream.get("codec_name"), stream.get("pix_fmt")


def _size_of(info):
    """(width, height) of the first video stream, or None."""
    stream = _video_stream(info) or {}
    if isinstance(stream.get("width"), int) and isinstance(stream.get("height"), int):
        return stream["width"], stream["height"]
    return None


def _probe_size(ffmpeg, url, input_args):
    """(width, height) of the first video stream, or None."""
    return _size_of(_probe_input(ffmpeg, url, input_args))


_PR_SET_PDEATHSIG = 1


def _child_setup():
    """preexec_fn of ffmpeg and ffprobe (Linux): a process group of its own, so that
    a terminal's Ctrl-C reaches Python, which stops it, and SIGKILL when the thread
    that started it dies, so that a killed worker leaves nothing running.  None where
    prctl is not there."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def setup():
        os.setpgid(0, 0)
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl
            os._exit(1)
    return setup


@contextlib.contextmanager
def work_directory():
    """A private directory (floatadm-*) for one run, owned while the block runs by an
    exclusive flock on the directory itself, and removed at its end.  The lock, not a
    process id (which another PID namespace cannot see), says it is in use:
    remove_stale_work_dirs() removes only directories whose lock it can take."""
    while True:
        path = tempfile.mkdtemp(prefix=_WORK_PREFIX)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue  # another process's cleanup came between: its lock was free
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            # A cleanup that took the lock first removed it: make another.
            if os.path.samestat(os.fstat(fd), os.lstat(path)):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def remove_stale_work_dirs(parent=None):
    """Removes this user's private directories (floatadm-*) that no run holds: what a
    SIGKILL left.  Each is removed while holding its lock, so that a live run's,
    whatever process or namespace it runs in, is never touched.  Returns the paths
    removed."""
    parent = parent or tempfile.gettempdir()
    removed = []
    try:
        entries = os.listdir(parent)
    except OSError:
        return removed
    for entry in entries:
        if not entry.startswith(_WORK_PREFIX):
            continue
        path = os.path.join(parent, entry)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            st = os.fstat(fd)
            if st.st_uid == os.getuid() and os.path.samestat(st, os.lstat(path)):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        except OSError:
            pass  # held by a live run, or gone
        finally:
            os.close(fd)
    return removed


_META_FRAME = re.compile(r"^frame:(\d+)\s+pts:\S+\s+pts_time:(\S+)")


def frame_times(path):
    """{frame: pts_time in seconds, None where it has none} of each frame a metadata
    filter printed to path (mode=print)."""
    times = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = _META_FRAME.match(line)
                if m:
                    known = m.group(2) not in ("NOPTS", "nan")
                    times[int(m.group(1))] = float(m.group(2)) if known else None
    except OSError:
        pass
    return times


def frame_metadata(path):
    """{frame: {key: value}} of each frame a metadata filter printed to path
    (mode=print), the values that are numbers ("inf" included)."""
    frames, current = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = _META_FRAME.match(line)
                if m:
                    current = frames.setdefault(int(m.group(1)), {})
                    continue
                key, sep, value = line.strip().partition("=")
                if sep and current is not None and _is_number(value):
                    current[key] = float(value)
    except OSError:
        pass
    return frames


def _beside_values(work, beside, frames, by_index=False):
    """{metric: [its value of each of frames]} of the filters beside float_adm (their
    metadata, work/FILTER.txt; libvmaf's log, work/libvmaf.json), on exactly the pairs
    float_adm scored: None for a frame it left unscored.  frames: float_adm's log's,
    numbered from 0 as the filters number theirs.  A frame float_adm scored that a
    filter gave no value: FFmpegError (the two did not pair alike).  by_index: the
    filters paired every frame i with reference frame i (measure_elsewhere)."""
    values = {}
    for name in beside:
        if name == "libvmaf":
            try:
                log = load_json(os.path.join(work, "libvmaf.json"), "libvmaf's JSON log")
            except (OSError, ValueError):
                log = None
            frames_logged = log.get("frames") if isinstance(log, dict) else None
            # libvmaf numbers the frames it measured: those paired with a reference frame.
            paired = [f["frame"] for f in frames if by_index or f.get("skipped") != UNPAIRED]
            per_frame = {paired[f["frameNum"]]: f.get("metrics", {})
                         for f in frames_logged or [] if isinstance(f, dict) and
                         isinstance(f.get("frameNum"), int) and 0 <= f["frameNum"] < len(paired)}
        else:
            per_frame = frame_metadata(os.path.join(work, name + ".txt"))
        for metric, key in BESIDE[name].items():
            column = []
            for f in frames:
                value = per_frame.get(f["frame"], {}).get(key)
                if "skipped" in f:
                    value = None
                elif not isinstance(value, (int, float)):
                    raise FFmpegError("the %s filter gave frame %d no %s, though float_adm "
                                      "scored it: the two did not measure the same pairs"
                                      % (name, f["frame"], metric))
                column.append(value)
            values[metric] = column
    return values


# Metrics beside float_adm measured by another ffmpeg (measure_elsewhere): the
# branches the scoring graph then has besides float_adm's and its own filters', and
# the directory of the other ffmpeg's files in the run's private directory.
_CHECK_BRANCHES = ["pairs_nearest", "pairs_by_index", "frames"]
_ELSEWHERE = "elsewhere"
# Frame i at i seconds: two streams so stamped pair frame i with frame i under any
# pairing rule, in any FFmpeg (framesync takes the frame of equal time).
_BY_INDEX = "settb=1,setpts=N"
# The frames handed over: lossless (FFV1, each frame on its own) in Matroska, which
# every FFmpeg reads, both streams in one pipe so that neither can wait on the other.
_HANDOVER = ["-c:v", "ffv1", "-level", "3", "-g", "1", "-fps_mode", "passthrough",
             "-f", "matroska"]


def metrics_ffmpeg(path):
    """Another ffmpeg to measure the metrics beside float_adm (one without the
    float_adm filter: a distribution's, a static build with libvmaf): (its path, the
    filters of BESIDE it has).  One that cannot start says why (start_failure)."""
    found = shutil.which(path) or path
    failure = start_failure(found)
    if failure:
        raise FFmpegError("%s: %s" % (shown(path), failure))
    return found, tuple(f for f in BESIDE if f in filter_names(found))


def _elsewhere(ffmpeg, beside, beside_ffmpeg, start):
    """(the other ffmpeg, the filters of beside it measures) of score_video's
    beside_ffmpeg, checked: one other ffmpeg, which has those filters; the scoring
    ffmpeg's psnr filter to check the pairs; no frame range cut at its start (the
    frames are handed over from the first).  (None, ()) where there is none: a
    filter given to the scoring ffmpeg itself is measured in its graph."""
    given = {name: path for name, path in (beside_ffmpeg or {}).items()
             if not (os.path.exists(path) and os.path.exists(ffmpeg) and
                     os.path.samefile(path, ffmpeg))}
    unknown = [name for name in given if name not in beside]
    if unknown:
        raise ValueError("beside_ffmpeg names %s, not of beside=%s" % (
            " and ".join(unknown), list(beside)))
    if not given:
        return None, ()
    if len(set(given.values())) > 1:
        raise ValueError("beside_ffmpeg: one other ffmpeg, not %s" % ", ".join(
            map(shown, sorted(set(given.values())))))
    other, has = metrics_ffmpeg(next(iter(given.values())))
    lacking = [name for name in given if name not in has]
    if lacking:
        raise FFmpegError("beside_ffmpeg: %s has no %s filter" % (shown(other),
                                                                  " or ".join(lacking)))
    if "psnr" not in beside_filters(ffmpeg)[0] or not has_filter_option(
            ffmpeg, PAIRING.partition("=")[0], "psnr"):
        raise FFmpegError("beside_ffmpeg: %s has no psnr filter pairing as float_adm does, "
                          "by which the pairs handed to %s are checked" % (shown(ffmpeg),
                                                                           shown(other)))
    if start:
        raise ValueError("beside_ffmpeg: frames are handed over from the first, not from "
                         "frame %d" % start)
    return other, tuple(name for name in beside if name in given)


def _check_branch(name, n, work):
    """The scoring graph's branch n of _CHECK_BRANCHES: PSNR of the pairs float_adm
    takes (PAIRING) and of frame i against reference frame i, each into its own
    metadata file; the frames themselves, stamped by index, as the outputs
    [handed_d] and [handed_r]."""
    if name == "pairs_nearest":
        return ";[d%d][r%d]psnr=%s,metadata=mode=print:file=%s" % (
            n, n, PAIRING, filter_value(os.path.join(work, name + ".txt")))
    if name == "pairs_by_index":
        return (";[d{n}]{i}[d{n}i];[r{n}]{i}[r{n}i];[d{n}i][r{n}i]psnr,metadata=mode=print:"
                "file={f}".format(n=n, i=_BY_INDEX,
                                  f=filter_value(os.path.join(work, name + ".txt"))))
    return ";[d{n}]{i}[handed_d];[r{n}]{i}[handed_r]".format(n=n, i=_BY_INDEX)


def measure_elsewhere(command, other, names, work, end, bar, stop):
    """Runs the scoring ffmpeg's command with its frames handed over, and the other
    ffmpeg measuring the filters names on them; (the scoring ffmpeg's exit status,
    its stderr), FFmpegError where the other fails.  The scoring ffmpeg decodes and
    scales once: the frames float_adm is given and the reference frames, each stamped
    with its number (_BY_INDEX), go lossless (FFV1) through one pipe to the other,
    which pairs frame i with reference frame i; _check_pairs then checks that these
    are the pairs float_adm scored.  The other ffmpeg's files are work/elsewhere/,
    as _beside_values reads them."""
    directory = os.path.join(work, _ELSEWHERE)
    os.mkdir(directory)
    count = len(names)
    graph = "[0:v:0]%s,split=%d%s;[0:v:1]%s,split=%d%s" % (
        _BY_INDEX, count, "".join("[d%d]" % n for n in range(count)),
        _BY_INDEX, count, "".join("[r%d]" % n for n in range(count)))
    for n, name in enumerate(names):
        graph += ";[d%d][r%d]" % (n, n) + (
            "libvmaf=log_fmt=json:log_path=%s" % filter_value(
                os.path.join(directory, "libvmaf.json"))
            if name == "libvmaf" else "%s,metadata=mode=print:file=%s" % (
                name, filter_value(os.path.join(directory, name + ".txt"))))
    read_end, write_end = os.pipe()
    errors = tempfile.TemporaryFile(mode="w+")
    with errors:
        try:
            reader = subprocess.Popen(
                [other, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error",
                 "-f", "matroska", "-i", "pipe:0", "-filter_complex", graph, "-f", "null",
                 "-"], stdin=read_end, stdout=subprocess.DEVNULL, stderr=errors,
                preexec_fn=_child_setup())
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        try:
            handed = ["-map", "[handed_d]", "-map", "[handed_r]", *_HANDOVER,
                      "pipe:%d" % write_end]
            if end is not None:
                handed[4:4] = ["-frames:v", str(end)]
            code, stderr = _run_ffmpeg(command + handed, bar, stop, pass_fds=(write_end,))
            measured = reader.wait()
        finally:
            if reader.poll() is None:
                _stop(reader)
        errors.seek(0)
        if measured != 0:
            raise FFmpegError("%s failed measuring %s on the frames handed to it (exit "
                              "status %d)%s\n%s" % (
                                  shown(other), " and ".join(names), measured,
                                  "" if code == 0 else "; the scoring ffmpeg's exit status "
                                  "%d: %s" % (code, stderr[-1000:]), errors.read()[-4000:]))
    return code, stderr


def frames_as_scored(reference, distorted, directory, ffmpeg=None, scale=None):
    """The pairs float_adm scores of two videos, as two y4m files in directory
    (distorted.y4m, reference.y4m: frame i of one paired with frame i of the other),
    decoded and scaled as score_video does (scale: the distorted to the reference's
    size) and checked to be the pairs float_adm takes (_check_pairs), for the
    library to read (score_files).  Returns (reference, distorted) paths."""
    ffmpeg = find_ffmpeg(ffmpeg)
    scaler = _scaler(scale)
    dis_url, ref_url = input_url(distorted), input_url(reference)
    chain = []
    if scaler:
        size = _probe_size(ffmpeg, ref_url, ())
        if size is None:
            raise FFmpegError("%s: its size is unknown" % shown(reference))
        chain.append(scale_filter({"scaler": scaler, "width": size[0], "height": size[1]}))
    count = len(_CHECK_BRANCHES)
    graph = "[0:v]%s%s;[1:v]split=%d%s" % (
        ",".join(chain + ["split=%d" % count]), "".join("[d%d]" % n for n in range(count)),
        count, "".join("[r%d]" % n for n in range(count)))
    graph += "".join(_check_branch(name, n, directory) for n, name in enumerate(_CHECK_BRANCHES))
    paths = [os.path.join(directory, name) for name in ("reference.y4m", "distorted.y4m")]
    # The checks' outputs go to the first output; each y4m takes one stream.
    command = [ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error",
               "-i", dis_url, "-i", ref_url, "-filter_complex", graph, "-f", "null", "-"]
    for pad, path in (("[handed_d]", paths[1]), ("[handed_r]", paths[0])):
        # y4m names 10-bit and other depths only as an extension.
        command += ["-map", pad, "-fps_mode", "passthrough", "-strict", "-1",
                    "-f", "yuv4mpegpipe", "file:" + path]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", preexec_fn=_child_setup())
    if done.returncode != 0:
        raise FFmpegError("ffmpeg failed (exit status %d): %s\n%s" % (
            done.returncode, " ".join(shown(arg) for arg in command), done.stderr[-4000:]))
    paired = frame_metadata(os.path.join(directory, "pairs_nearest.txt"))
    _check_pairs(directory, [{"frame": n} for n in sorted(paired)], "the library",
                 "its frames are not written")
    return paths[0], paths[1]


class CoarseValues(UserWarning):
    """Another ffmpeg gave a metric's values to two decimals only."""


def _warn_if_coarse(values, other):
    """A warning where every value of a PSNR or SSIM the other ffmpeg measured has two
    decimals at most: its frame metadata printed them so (older FFmpegs do), and the
    means are as coarse (an SSIM of 0.99 may be anything from 0.985 to 0.995)."""
    coarse = [metric for metric, column in values.items()
              if metric != "vmaf" and sum(v is not None and math.isfinite(v) for v in column) > 1
              and all(round(v, 2) == v for v in column if v is not None and math.isfinite(v))]
    if coarse:
        warnings.warn("%s gives %s to two decimals only (its frame metadata, as older FFmpegs "
                      "print it): their means are that coarse; measure them with the scoring "
                      "ffmpeg for six" % (shown(other), ", ".join(coarse)), CoarseValues,
                      stacklevel=3)


def _check_pairs(work, frames, other, instead="measure these metrics with the scoring ffmpeg"):
    """That the pairs handed to the other ffmpeg (or the library), frame i with
    reference frame i, are those float_adm scored: PSNR (luma, and the planes'
    average) of each frame float_adm scored the same bits both ways.  Else
    FFmpegError, saying what to do instead: the other's metrics would be of other
    pairs."""
    paired = frame_metadata(os.path.join(work, "pairs_nearest.txt"))
    by_index = frame_metadata(os.path.join(work, "pairs_by_index.txt"))
    for f in frames:
        if "skipped" in f:
            continue
        keys = ("lavfi.psnr.psnr.y", "lavfi.psnr.psnr_avg")
        if not paired.get(f["frame"]) or any(
                paired[f["frame"]].get(k) != by_index.get(f["frame"], {}).get(k) for k in keys):
            raise FFmpegError(
                "frame %d: float_adm paired it with a reference frame other than the "
                "reference's frame %d (their PSNR differ), so %s, given frame i against "
                "reference frame i, would not measure the pairs float_adm scored; %s" % (
                    f["frame"], f["frame"], shown(other), instead))


def _scaler(scale):
    if scale is None or scale is False:
        return None
    scaler = DEFAULT_SCALER if scale is True else str(scale)
    if scaler not in SCALERS:
        raise ValueError("scale=%r: a scaler of FFmpeg's: %s" % (scale, ", ".join(SCALERS)))
    return scaler


def scale_filter(scaling):
    """The scale filter of a run's scaling (Results.scale: scaler, width, height), each
    value checked, as the distorted input is scaled before it is scored."""
    scaler = _scaler(scaling["scaler"])
    if scaler is None:
        raise ValueError("scaling without a scaler: %r" % (scaling,))
    width, height = _size("%sx%s" % (scaling["width"], scaling["height"]))
    return "scale=w=%d:h=%d:flags=%s" % (width, height, scaler)


def _size(text):
    m = re.match(r"^([1-9][0-9]{0,4})x([1-9][0-9]{0,4})$", str(text))
    if not m:
        raise ValueError("scale_size=%r: WIDTHxHEIGHT, e.g. 1920x1080" % (text,))
    return int(m.group(1)), int(m.group(2))


def _run_ffmpeg(command, bar, stop=None, pass_fds=()):
    """Runs ffmpeg with -progress on its stdout; (exit status, its stderr).  Stopped
    (its whole process group) if this thread is interrupted, or stop (an Event) is
    set: FFmpegError, at ffmpeg's next progress line.  pass_fds: descriptors ffmpeg
    gets (pipe:N), closed here once it has them."""
    errors = tempfile.TemporaryFile(mode="w+")
    with errors:
        try:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors,
                                       text=True, stdin=subprocess.DEVNULL,
                                       preexec_fn=_child_setup(), pass_fds=pass_fds)
        finally:
            for fd in pass_fds:
                os.close(fd)
        try:
            for line in process.stdout:
                if stop is not None and stop.is_set():
                    raise FFmpegError("stopped: %s" % " ".join(shown(arg) for arg in command))
                if line.startswith("frame="):
                    value = line[6:].strip()
                    if value.isdigit():
                        bar.update(int(value))
            code = process.wait()
        except BaseException:
            _stop(process)
            raise
        finally:
            process.stdout.close()
        errors.seek(0)
        return code, errors.read()


def _read_pfm(path):
    """The loss grid of a map file the filter wrote (float_adm_map_write_pfm: "Pf",
    columns rows, -1.0, little-endian floats from the bottom row up), top row first.
    The library writes PFM and reads none, so the package reads its own files here,
    refusing anything else."""
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(b"\n", 3)
    if len(parts) == 4 and parts[0] == b"Pf" and parts[2] == b"-1.0":
        size = parts[1].split(b" ")
        if len(size) == 2 and all(v.isdigit() for v in size):
            columns, rows = int(size[0]), int(size[1])
            if columns * rows * 4 == len(parts[3]):
                return np.frombuffer(parts[3], "<f4").reshape(rows, columns)[::-1].copy()
    raise FFmpegError("%s: not a map as the float_adm filter writes it" % shown(path))


def _read_maps(directory, frames, end, start):
    """The maps of the frames the filter logged, one per frame of the results (NaN
    for a skipped frame, which has none); a scored frame without its file is an
    error."""
    maps, shape = [], None
    for f in frames:
        local = f["frame"]
        if end is not None and local >= end - start:
            continue
        path = os.path.join(directory, "%d.pfm" % local)
        if "skipped" in f:
            maps.append(None)
            continue
        if not os.path.exists(path):
            raise FFmpegError("the float_adm filter scored frame %d but wrote no map of it"
                              % (local + start))
        loss = _read_pfm(path)
        if shape is not None and loss.shape != shape:
            raise FFmpegError("frame %d: a map of %s blocks after maps of %s (the picture "
                              "changed size)" % (local + start, loss.shape[::-1], shape[::-1]))
        shape = loss.shape
        maps.append(loss)
    if shape is None:
        return np.zeros((len(maps), 0, 0), np.float32)
    return np.stack([np.full(shape, np.nan, np.float32) if m is None else m for m in maps])


def _stop(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        process.kill()
    process.wait()


@named_inputs
def score_video(reference, distorted, ffmpeg=None, start_frame=0, end_frame=None,
                reference_args=(), distorted_args=(), backend=None, threads=None,
                progress=None, scale=None, scale_size=None, map=False, beside=(), stop=None,
                beside_ffmpeg=None, accept_doubtful_pairs=False, decoder="auto", **options):
    """Scores two videos with the float_adm filter of ffmpeg; returns Results.

    reference, distorted: local files (any name), or URLs with ://.
    reference_args / distorted_args: ffmpeg input options put before each, from
    INPUT_OPTIONS (e.g. ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size",
    "576x324"]).  ffmpeg: which ffmpeg (find_ffmpeg()).  start_frame, end_frame:
    only frames [start, end) of the distorted, by number, each paired with the
    reference as in a whole run; the results keep the title's frame numbers.
    backend: "cpu" (None: the float_adm filter), "cuda" (scored by float_adm_cuda,
    the same bits) or "auto" (CUDA where ffmpeg and the machine have it;
    check_backend).  decoder, for "cuda": "auto" (NVDEC where the codecs, the formats
    and ffmpeg allow, else the CPU: cuda_decoding) or "cpu" (decoded on the CPU and
    uploaded); an NVDEC run that fails is run again decoding on the CPU.
    Results.decoder says which decoded ("nvdec" or "cpu"), Results.decoder_reason
    why.  threads: the filtergraph's threads.  progress: a bar of frames done /
    expected on stderr (None: only when stderr is a terminal).  scale: a scaler of SCALERS (True: bicubic) that scales
    the distorted to the reference's size, or both to scale_size ("WxH"); without
    it the sizes must agree.  map=True: every frame's map too, as Results.maps
    (the filter's map_path files in the private directory).  beside: FFmpeg's
    filters of BESIDE ("psnr", "ssim", "libvmaf") run on the same decoded, scaled
    frames as float_adm (both inputs split in the graph), each paired as float_adm
    pairs (PAIRING): their values as Results.beside, {"psnr_y": [...], ...}, one for
    each of Results.frames, None for a frame float_adm left unscored
    (beside_filters() says which ffmpeg has).  beside_ffmpeg: {filter: another
    ffmpeg} for filters of beside that another ffmpeg measures (one without the
    float_adm filter: a distribution's, a static build with libvmaf), on the same
    frames and pairs (measure_elsewhere).  stop: a threading.Event that, set from
    another thread, stops ffmpeg (FFmpegError).
    accept_doubtful_pairs: where the filter says pairs are in doubt (a frame scored
    again, pairs more than half a frame apart, an input that ended early: the frames
    compared may not belong together), return the Results all the same, with a
    DoubtfulPairsWarning and the doubts as Results.doubtful_pairs; by default that is a
    DoubtfulPairsError.  The filter's other warnings are FilterWarnings.
    **options: float_adm's, by libvmaf name or alias, checked by the library first.
    """
    ffmpeg = find_ffmpeg(ffmpeg)
    parts, held = filter_options(options)
    start = int(start_frame)
    end = None if end_frame is None else int(end_frame)
    if start < 0 or (end is not None and end < start):
        raise ValueError("frames [%d, %s) are not a range" % (start, end))
    backend = check_backend(ffmpeg, backend, map)
    check_decoder(decoder)
    beside = tuple(beside)
    other, elsewhere = _elsewhere(ffmpeg, beside, beside_ffmpeg, start)
    here = tuple(name for name in beside if name not in elsewhere)
    lacking = [name for name in here if name not in beside_filters(ffmpeg)[0]]
    if lacking:
        raise FFmpegError("beside=%s: %s has no %s filter" % (list(beside), shown(ffmpeg),
                                                              " or ".join(lacking)))
    option = PAIRING.partition("=")[0]
    unpaired = [name for name in here if not has_filter_option(ffmpeg, option, name)]
    if unpaired:
        raise FFmpegError("beside=%s: the %s filter of %s has no %s option, by which it would "
                          "measure the pairs float_adm scores" % (
                              list(beside), " and ".join(unpaired), shown(ffmpeg), option))
    if map and not has_filter_option(ffmpeg, "map_path", FILTERS[backend]):
        on_cpu = backend == "cuda" and has_filter_option(ffmpeg, "map_path")
        raise FFmpegError("map=True: the %s filter of %s has no map_path option (%s)" % (
            FILTERS[backend], shown(ffmpeg), "float_adm has it: backend='cpu'" if on_cpu else
            "an older build, or not the project's: build the project's ffmpeg"))
    scaler = _scaler(scale)
    if scale_size is not None and scaler is None:
        scaler = DEFAULT_SCALER
    dis_url, ref_url = input_url(distorted), input_url(reference)
    dis_args = input_options(distorted_args, "distorted")
    ref_args = input_options(reference_args, "reference")
    inputs = {"reference": (ref_url, ref_args), "distorted": (dis_url, dis_args)}
    probed = {}

    def info(which):
        """_probe_input's of an input, probed once, where it is asked for."""
        if which not in probed:
            probed[which] = _probe_input(ffmpeg, *inputs[which])
        return probed[which]

    scaling, scored_size, warned = None, None, False
    if scaler:
        target = _size(scale_size) if scale_size is not None else _size_of(info("reference"))
        if target is None:
            raise FFmpegError("%s: its size is unknown: give scale_size=WxH" % shown(reference))
        scaling = {"scaler": scaler, "width": target[0], "height": target[1],
                   "inputs": "both" if scale_size is not None else "distorted"}
        scored_size = target
        if scale_size is None:
            warned = _warn_if_swapped(_size_of(info("distorted")), target, reference,
                                      distorted)
    else:
        scored_size = _size_of(info("reference"))
    # The rates where the sizes did not already answer (a rung scaled to its source).
    if not (scaler and scale_size is None) and not dis_args and not ref_args and \
            all(u.startswith("file:") for u in (ref_url, dis_url)):
        warned = _warn_if_swapped_rates(info("reference"), info("distorted"), reference,
                                        distorted)
    if backend == "cuda":
        software = "the scaler (scale=)" if scaling else \
            "beside=%s" % list(beside) if beside else None
        streams = [] if decoder == "cpu" or software else \
            [_decoding_of(info(which)) for which in ("reference", "distorted")]
        decoding = cuda_decoding(ffmpeg, decoder, streams, software)
    else:
        decoding = ("cpu", "backend='cpu'")

    bar = ProgressBar(None, enabled=progress)
    if bar.enabled:
        if end is not None:
            bar.total = end - start
        else:
            expected = _probe_frames(ffmpeg, dis_url, dis_args)
            bar.total = None if expected is None else max(0, expected - start)

    remove_stale_work_dirs()
    with work_directory() as work:
        log = os.path.join(work, "log.json")
        meta = os.path.join(work, "metadata.txt")
        dis_chain, ref_chain = [], []
        if start:
            dis_chain.append("trim=start_frame=%d" % start)
        if scaling:
            scaled = scale_filter(scaling)
            dis_chain.append(scaled)
            if scaling["inputs"] == "both":
                ref_chain.append(scaled)
        if map:
            os.mkdir(os.path.join(work, "maps"))
            # A '%' of the directory's name is text to the pattern: "%%".
            pattern = os.path.join(work, "maps").replace("%", "%%") + "/%d.pfm"
            parts.append("map_path=" + filter_value(pattern))
        adm = ":".join(["log_path=" + filter_value(log), "log_fmt=json", PAIRING] + parts)

        def command_for(decoding):
            graph = "[0:v]%s%s;[1:v]%s%s;%s" % (
                ",".join(dis_chain) or "null", "".join("[d%s]" % n for n in outputs),
                ",".join(ref_chain) or "null", "".join("[r%s]" % n for n in outputs),
                scoring_graph(backend, "d%s" % outputs[0], "r%s" % outputs[0], adm,
                              decoding))
            graph += ",metadata=mode=print:file=" + filter_value(meta)
            for n, name in enumerate(branches[1:], 1):
                if name in _CHECK_BRANCHES:
                    graph += _check_branch(name, n, work)
                    continue
                graph += ";[d%d][r%d]" % (n, n) + (
                    "libvmaf=%s:log_fmt=json:log_path=%s" % (PAIRING, filter_value(
                        os.path.join(work, "libvmaf.json")))
                    if name == "libvmaf" else
                    "%s=%s,metadata=mode=print:file=%s" % (name, PAIRING, filter_value(
                        os.path.join(work, name + ".txt"))))
            run_options, input_args = cuda_options(decoding) if backend == "cuda" else ([], [])
            command = [ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
                       *run_options, *input_args, *dis_args, "-i", dis_url,
                       *input_args, *ref_args, "-i", ref_url, "-filter_complex", graph]
            if threads:
                command[1:1] = ["-filter_complex_threads", str(int(threads))]
            if end is not None:
                command += ["-frames:v", str(end - start)]
            return command + ["-progress", "pipe:1", "-stats_period", "0.2", "-f", "null", "-"]
        # The filters beside float_adm take the same frames: each input split.  With
        # metrics measured elsewhere, two branches more check the pairs and write the
        # frames for the other ffmpeg (measure_elsewhere).
        branches = ["float_adm"] + list(here) + (_CHECK_BRANCHES if elsewhere else [])
        outputs = range(len(branches)) if len(branches) > 1 else [""]
        if len(branches) > 1:
            dis_chain.append("split=%d" % len(outputs))
            ref_chain.append("split=%d" % len(outputs))
        def run(decoding):
            """(command, exit status, stderr, seconds) of one run."""
            command = command_for(decoding)
            began = time.monotonic()
            if elsewhere:
                code, stderr = measure_elsewhere(command, other, elsewhere, work, end, bar,
                                                 stop)
            else:
                code, stderr = _run_ffmpeg(command, bar, stop)
            return command, code, stderr, time.monotonic() - began

        command, code, stderr, elapsed = run(decoding[0])
        retried = code != 0 and decoding[0] == "nvdec"
        if retried:
            # The GPU may not decode what the stream's codec and format promised (a
            # profile, a size): the run again, decoded on the CPU, saying why.
            decoding = ("cpu", "NVDEC's run failed (exit status %d: %s)" % (
                code, " ".join(stderr.split()[-40:]) or "nothing said"))
            if stop is not None and stop.is_set():
                raise FFmpegError("stopped: %s" % " ".join(shown(arg) for arg in command))
            command, code, stderr, elapsed = run("cpu")
        bar.close()
        if code != 0 or not os.path.exists(log):
            raise FFmpegError("ffmpeg failed (exit status %d)%s: %s\n%s" % (
                code, ", decoding on the CPU after " + decoding[1] if retried else "",
                " ".join(shown(arg) for arg in command), stderr[-4000:]))
        raw = Results.from_json(log)
        pairing = load_json(log, "the float_adm filter's log").get("pairing")
        if not isinstance(pairing, dict):
            raise FFmpegError("the float_adm filter of %s does not count the pairs it scores "
                              "(its log has no \"pairing\"), so pairs in doubt would go "
                              "unsaid: an older build, or not the project's: build the "
                              "project's ffmpeg" % shown(ffmpeg))
        times = frame_times(meta)
        frame_kinds = frame_doubts(meta)
        maps = _read_maps(os.path.join(work, "maps"), raw.frames, end, start) if map else None
        # ffmpeg stops after end - start frames; the filter's log may hold one more
        # (it logs each frame it passes on, as psnr's stats_file does), which
        # belongs to the next range.
        kept = [f for f in raw.frames if end is None or f["frame"] < end - start]
        beside_values = _beside_values(work, here, kept)
        if elsewhere:
            _check_pairs(work, kept, other)
            measured = _beside_values(os.path.join(work, _ELSEWHERE), elsewhere, kept,
                                      by_index=True)
            _warn_if_coarse(measured, other)
            beside_values.update(measured)
            beside_values = {m: beside_values[m] for name in beside for m in BESIDE[name]}

    frames = []
    for f in kept:
        local = f["frame"]
        f = dict(f, frame=local + start)
        if times.get(local) is not None:
            f["timestamp"] = times[local]
        frames.append(f)
    if end is not None and len(frames) != end - start:
        raise FFmpegError("frames [%d, %d) asked for, but %s holds %d from frame %d on"
                          % (start, end, shown(distorted), len(frames), start))
    width, height = scored_size or (None, None)
    results = Results(frames, names=raw.names, options=held, width=width, height=height,
                      elapsed=elapsed, feature_names=raw.feature_names, version=raw.version,
                      maps=maps, inputs=[p for p in (reference, distorted)
                                         if os.path.exists(os.fspath(p))])
    results.stderr = stderr
    results.scale = scaling
    results.decoder, results.decoder_reason = decoding
    results.beside = beside_values
    doubts = pair_doubts(frame_kinds, pairing, start,
                         None if end is None else {f["frame"] for f in kept})
    # One warning of the order: the files' sizes or rates said it already, else the
    # filter's check of the pictures; then the filter's other warnings.
    _pass_warnings_on(stderr, doubts, reference, distorted, warned, accept_doubtful_pairs,
                      results)
    return results
