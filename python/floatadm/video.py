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
each frame's timestamp from a metadata filter behind it, becomes Results.  A
frame range is selected by number with trim=start_frame/end_frame on both
inputs (never by seeking: a seek lands where the demuxer can, and the frames
would not be the whole run's), and the frames keep the title's numbers.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from ._progress import ProgressBar
from .results import Results
from .scorer import make_options, options as option_table, options_dict

_HERE = os.path.dirname(os.path.abspath(__file__))
_checked = {}


class FFmpegError(RuntimeError):
    """ffmpeg failed, or has no float_adm filter; the message ends with its log."""


def _has_filter(path):
    if path not in _checked:
        try:
            out = subprocess.run([path, "-hide_banner", "-h", "filter=float_adm"],
                                 capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL)
            _checked[path] = "float_adm AVOptions" in out.stdout
        except (OSError, subprocess.SubprocessError):
            _checked[path] = False
    return _checked[path]


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


def find_ffmpeg(ffmpeg=None):
    """The ffmpeg to run: the one named (which must have the float_adm filter), else
    $FLOATADM_FFMPEG, the project's build/bin/ffmpeg, an installed one, or the first
    ffmpeg on PATH that has the filter."""
    if ffmpeg is not None:
        path = shutil.which(ffmpeg) or ffmpeg
        if not _has_filter(path):
            raise FFmpegError("%s: not an ffmpeg with the float_adm filter" % ffmpeg)
        return path
    for path in _candidates():
        if os.access(path, os.X_OK) and _has_filter(path):
            return path
    raise FFmpegError("no ffmpeg with the float_adm filter: build the project's "
                      "(build/bin/ffmpeg, `make`), or name one with ffmpeg= or "
                      "$FLOATADM_FFMPEG")


def _escape(value, special):
    return "".join("\\" + c if c in special else c for c in value)


def _filter_value(value):
    """A value inside a filter's options, then inside the filtergraph (two levels)."""
    return _escape(_escape(value, "\\':"), "\\'[],;")


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
        parts.append("%s=%s" % (name, text))
    return parts, {name: held[name] for name in held}


def _ffprobe(ffmpeg, path, input_args, entries, extra=()):
    ffprobe = os.path.join(os.path.dirname(ffmpeg), "ffprobe")
    if not os.access(ffprobe, os.X_OK):
        ffprobe = shutil.which("ffprobe")
    if not ffprobe:
        return {}
    try:
        out = subprocess.run([ffprobe, "-v", "error", *extra, *input_args, "-select_streams",
                              "v:0", "-show_entries", entries, "-of", "json", path],
                             capture_output=True, text=True, timeout=600,
                             stdin=subprocess.DEVNULL)
        return json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}


def _probe_frames(ffmpeg, path, input_args):
    """The frames in the first video stream as ffprobe sees them, or None: the
    container's count, else its duration times the frame rate, else the packets
    counted (demuxing only, no decoding)."""
    info = _ffprobe(ffmpeg, path, input_args,
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
    info = _ffprobe(ffmpeg, path, input_args, "stream=nb_read_packets", ["-count_packets"])
    count = str((info.get("streams") or [{}])[0].get("nb_read_packets", ""))
    return int(count) if count.isdigit() else None


_META_FRAME = re.compile(r"^frame:(\d+)\s+pts:\S+\s+pts_time:(\S+)")


def _timestamps(path):
    times = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = _META_FRAME.match(line)
                if m and m.group(2) not in ("NOPTS", "nan"):
                    times[int(m.group(1))] = float(m.group(2))
    except OSError:
        pass
    return times


def score_video(reference, distorted, ffmpeg=None, start_frame=0, end_frame=None,
                reference_args=(), distorted_args=(), backend=None, threads=None,
                progress=None, **options):
    """Scores two videos with the float_adm filter of ffmpeg; returns Results.

    reference, distorted: anything ffmpeg reads; reference_args / distorted_args are
    ffmpeg input options put before each (e.g. ["-f", "rawvideo", "-pix_fmt",
    "yuv420p", "-s", "576x324"]).  ffmpeg: which ffmpeg (find_ffmpeg()).
    start_frame, end_frame: only frames [start, end) by number (trim, not a seek);
    the results keep the title's frame numbers.  backend: the filter's ("auto",
    "cpu", "cuda").  threads: the filtergraph's threads.  progress: a bar of frames
    done / expected on stderr (None: only when stderr is a terminal).  **options:
    float_adm's, by libvmaf name or alias, checked by the library first.
    """
    ffmpeg = find_ffmpeg(ffmpeg)
    parts, held = filter_options(options)
    start = int(start_frame)
    end = None if end_frame is None else int(end_frame)
    if start < 0 or (end is not None and end < start):
        raise ValueError("frames [%d, %s) are not a range" % (start, end))
    if backend is not None:
        parts.append("backend=%s" % backend)
    bar = ProgressBar(None, enabled=progress)
    if bar.enabled:
        if end is not None:
            bar.total = end - start
        else:
            expected = _probe_frames(ffmpeg, os.fspath(distorted), list(distorted_args))
            bar.total = None if expected is None else max(0, expected - start)

    with tempfile.TemporaryDirectory(prefix="floatadm-") as work:
        log = os.path.join(work, "log.json")
        meta = os.path.join(work, "metadata.txt")
        trim = ""
        if start or end is not None:
            trim = "trim=start_frame=%d%s" % (start, "" if end is None else
                                              ":end_frame=%d" % end)
        adm = ":".join(["log_path=" + _filter_value(log), "log_fmt=json"] + parts)
        if trim:
            graph = "[0:v]%s[d];[1:v]%s[r];[d][r]float_adm=%s" % (trim, trim, adm)
        else:
            graph = "[0:v][1:v]float_adm=%s" % adm
        graph += ",metadata=mode=print:file=" + _filter_value(meta)
        command = [ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "warning",
                   *map(str, distorted_args), "-i", os.fspath(distorted),
                   *map(str, reference_args), "-i", os.fspath(reference),
                   "-filter_complex", graph]
        if threads:
            command[1:1] = ["-filter_complex_threads", str(int(threads))]
        command += ["-progress", "pipe:1", "-stats_period", "0.2", "-f", "null", "-"]
        began = time.monotonic()
        errors = tempfile.TemporaryFile(mode="w+", dir=work)
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True,
                              stdin=subprocess.DEVNULL) as process:
            for line in process.stdout:
                if line.startswith("frame="):
                    value = line[6:].strip()
                    if value.isdigit():
                        bar.update(int(value))
            code = process.wait()
        bar.close()
        errors.seek(0)
        stderr = errors.read()
        errors.close()
        if code != 0 or not os.path.exists(log):
            raise FFmpegError("ffmpeg failed (exit status %d): %s\n%s" % (
                code, " ".join(command), stderr[-4000:]))
        elapsed = time.monotonic() - began
        raw = Results.from_json(log)
        times = _timestamps(meta)

    frames = []
    for f in raw.frames:
        local = f["frame"]
        f = dict(f, frame=local + start)
        if local in times:
            f["timestamp"] = times[local]
        frames.append(f)
    results = Results(frames, names=raw.names, options=held, elapsed=elapsed,
                      feature_names=raw.feature_names, version=raw.version)
    results.stderr = stderr
    return results
