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

"""Results: per-frame scores, pooled, named and written by the library.

The pooling (libvmaf's min, max, mean and harmonic mean), libvmaf's names of the
outputs and the log layouts are libfloatadm's (float_adm_summary_*,
float_adm_output_feature_name, float_adm_output_parse_name, float_adm_log_*): a
log written here and float_adm_score's of the same frames are the same bytes, the
fps aside.
"""

import ctypes
import math
import os
import sys

from . import _lib
from ._names import shown

POOL_NAMES = ("min", "max", "mean", "harmonic_mean")
_ERRBUF = 512


def _output_names():
    from .scorer import output_names
    return tuple(output_names(debug=True))


def __getattr__(name):
    """OUTPUT_NAMES: the library's outputs in its order (float_adm_output_name); the
    first 7 are always there, the rest with debug."""
    if name == "OUTPUT_NAMES":
        return _output_names()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def plain_name(log_name):
    """The output a log's metric name is (libvmaf appends option suffixes:
    "adm2_egl_1.2" is adm2), or None for a name of no output of ours."""
    lib = _lib.core()
    index = lib.float_adm_output_parse_name(str(log_name).encode(), None)
    return _lib.text(lib.float_adm_output_name(index)) if index >= 0 else None


def feature_names_for(names, options):
    """{output: libvmaf's name of it for these options} ({full or alias name: value})."""
    from .scorer import make_options
    lib = _lib.core()
    opts = make_options(options)
    order = _output_names()
    buf = ctypes.create_string_buffer(256)
    named = {}
    for name in names:
        lib.float_adm_output_feature_name(ctypes.byref(opts), order.index(name), buf, len(buf))
        named[name] = _lib.text(buf.value)
    return named


def _options_of_log_name(log_name):
    """{full name: value} of the options a log's metric name says, or None."""
    from .scorer import options_dict
    opts = _lib.FloatAdmOptions()
    if _lib.core().float_adm_output_parse_name(str(log_name).encode(), ctypes.byref(opts)) < 0:
        return None
    return options_dict(opts)


def pool(values):
    """libvmaf's pooling of a sequence of doubles, in its order, by the library
    (float_adm_summary_*): min, max, mean = sum / n and harmonic_mean =
    n / sum(1 / (x + 1)) - 1, each sum accumulated in order as one double (which is
    what makes split runs equal whole ones); None for no values."""
    values = [float(x) for x in values]
    if not values:
        return None
    lib = _lib.core()
    summary = ctypes.c_void_p()
    if lib.float_adm_summary_create(ctypes.byref(summary)) < 0:
        raise MemoryError("no memory for a frame summary")
    try:
        array = (ctypes.c_double * len(values))(*values)
        result = _lib.FloatAdmPooled()
        if lib.float_adm_summary_add(summary, array, len(values)) < 0 or \
                lib.float_adm_summary_result(summary, ctypes.byref(result)) < 0:
            raise MemoryError("no memory for a frame summary")
    finally:
        lib.float_adm_summary_free(ctypes.byref(summary))
    return {key: getattr(result, key) for key in POOL_NAMES}


class OutputRefused(OSError):
    """The library's output policy (float_adm_output_check) refused a path; .code is
    its FLOAT_ADM_ERROR_OUTPUT_* code, the message names the path and why."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def output_target(path, kind, inputs=()):
    """Where the library's output policy lets a file of kind (_lib.FLOAT_ADM_OUTPUT_LOG,
    _MAP, _REPORT, _SPEC) go: _lib.FLOAT_ADM_TARGET_NEW or _REPLACE (a file, written
    through a temporary and a rename), _STDOUT or _DISCARD; OutputRefused where it is
    refused (an input, a link, a device, a FIFO, a directory, another program's file).
    The rules are the library's alone (float_adm_output_check)."""
    names = [os.fsencode(os.fspath(p)) for p in inputs if p is not None]
    array = (ctypes.c_char_p * max(len(names), 1))(*names)
    errbuf = ctypes.create_string_buffer(_ERRBUF)
    target = _lib.core().float_adm_output_check(os.fsencode(os.fspath(path)), kind, array,
                                                len(names), errbuf, _ERRBUF)
    if target < 0:
        raise OutputRefused(_lib.message(errbuf.value) or "%s: %s" % (
            shown(path), _lib.text(_lib.core().float_adm_strerror(target))), target)
    return target


class RunFiles:
    """What one run reads and writes, told to the library before anything is written
    (float_adm_run_files_*): inputs by what they are, not by name (one pipe given
    twice is refused), every output checked by the output policy against them, one
    writer for each file and for stdout.  .stdout_taken: an output goes to stdout,
    which then carries nothing else.

    begin_output() begins writing a file: its temporary (.NAME.tmp beside it) made
    and locked for as long as these files live, so that another run writing the same
    path is refused at its start; commit() renames every temporary into place, all
    of them or none; files dropped without a commit remove their temporaries and
    leave every path as it was."""

    def __init__(self):
        self._files = ctypes.c_void_p()
        if _lib.core().float_adm_run_files_create(ctypes.byref(self._files)) < 0:
            raise MemoryError("no memory for a run's files")

    def __del__(self):
        self.close()

    def close(self):
        """Drops the files: outputs not committed are removed, their locks let go."""
        if getattr(self, "_files", None):
            _lib.core().float_adm_run_files_free(ctypes.byref(self._files))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @staticmethod
    def _label(label):
        return None if label is None else label.encode("utf-8", "surrogateescape")

    def add_input(self, path, label=None):
        """Registers an input (a path, "-" for stdin); OSError naming it and why
        (OutputRefused where one stream is named twice or it is an output)."""
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        err = _lib.core().float_adm_run_files_add_input(
            self._files, os.fsencode(os.fspath(path)), self._label(label), errbuf, _ERRBUF)
        if err < 0:
            raise OutputRefused(_lib.message(errbuf.value) or "%s: %s" % (
                shown(path), _lib.text(_lib.core().float_adm_strerror(err))), err)

    def add_inputs(self, paths, label=None):
        """Registers each of paths that exists here (an output may name one that does
        not, and no file it writes is then one of them)."""
        for path in paths:
            if path is not None and os.path.exists(os.fspath(path)):
                self.add_input(path, label)

    def add_output(self, path, kind, label=None):
        """Registers an output of kind (_lib.FLOAT_ADM_OUTPUT_*): its target
        (_lib.FLOAT_ADM_TARGET_*), else OutputRefused naming it and why."""
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        target = _lib.core().float_adm_run_files_add_output(
            self._files, os.fsencode(os.fspath(path)), kind, self._label(label), errbuf,
            _ERRBUF)
        if target < 0:
            raise OutputRefused(_lib.message(errbuf.value) or "%s: %s" % (
                shown(path), _lib.text(_lib.core().float_adm_strerror(target))), target)
        return target

    def begin_output(self, path, kind, label=None):
        """Registers an output of kind and begins writing it
        (float_adm_run_files_begin_output): an Output, else OutputRefused naming it and
        why (.code FLOAT_ADM_ERROR_BUSY where another run writes the path, the
        message naming its process)."""
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        handle = ctypes.c_void_p()
        target = _lib.core().float_adm_run_files_begin_output(
            self._files, os.fsencode(os.fspath(path)), kind, self._label(label),
            ctypes.byref(handle), errbuf, _ERRBUF)
        if target < 0:
            raise OutputRefused(_lib.text(errbuf.value) or "%s: %s" % (
                os.fspath(path), _lib.text(_lib.core().float_adm_strerror(target))), target)
        return Output(self, handle, os.fspath(path), kind, target)

    def commit(self):
        """Renames every output begun into place (float_adm_run_files_commit): all of
        them, or, where one cannot land (its path written by another program meanwhile),
        none, with OutputRefused naming it."""
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        err = _lib.core().float_adm_run_files_commit(self._files, errbuf, _ERRBUF)
        if err < 0:
            raise OutputRefused(_lib.text(errbuf.value) or
                                _lib.text(_lib.core().float_adm_strerror(err)), err)

    @property
    def stdout_taken(self):
        return bool(_lib.core().float_adm_run_files_stdout_taken(self._files))


class Output:
    """A file a run writes (RunFiles.begin_output): .path, .kind, .target; its bytes
    go to .fd (the locked temporary, stdout or /dev/null) until the run commits."""

    def __init__(self, files, handle, path, kind, target):
        self._files = files  # the run that owns the output
        self.handle, self.path, self.kind, self.target = handle, path, kind, target

    @property
    def fd(self):
        return _lib.core().float_adm_output_fd(self.handle)

    @property
    def on_stdout(self):
        return self.target == _lib.FLOAT_ADM_TARGET_STDOUT

    def write(self, data):
        """Appends data (bytes)."""
        if self.on_stdout:
            sys.stdout.flush()
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]

    def written(self):
        """The bytes written so far (a file's temporary; None for stdout and /dev/null)."""
        if self.target not in (_lib.FLOAT_ADM_TARGET_NEW, _lib.FLOAT_ADM_TARGET_REPLACE):
            return None
        size = os.fstat(self.fd).st_size
        return os.pread(self.fd, size, 0)


def remove_stale_temporary(path):
    """Removes the temporary a writer of path left when it died (one whose lock this
    process can take; float_adm_output_remove_stale); a live writer's is left alone.
    Whether one was removed."""
    errbuf = ctypes.create_string_buffer(_ERRBUF)
    removed = _lib.core().float_adm_output_remove_stale(os.fsencode(os.fspath(path)), errbuf,
                                                        _ERRBUF)
    if removed < 0:
        raise OSError(_lib.text(errbuf.value))
    return removed == 1


def write_output(path, kind, data, inputs=()):
    """Write data (bytes) where the output policy says: stdout for "-" or
    /dev/stdout, /dev/null directly, else a new or replaced file, written to its
    locked temporary and renamed into place (path is complete, or as it was).
    OutputRefused where it is refused, or another run writes it."""
    with RunFiles() as files:
        files.add_inputs(inputs)
        files.begin_output(path, kind).write(data)
        files.commit()


def maps_path(log_path):
    """Where a log's maps lie (Results.save_maps): NAME.maps.npz beside NAME.json."""
    log_path = os.fspath(log_path)
    base = log_path[:-len(".json")] if log_path.endswith(".json") else log_path
    return base + ".maps.npz"


def write_atomically(path, text, kind, inputs=()):
    """Write text where the output policy lets a file of kind go (write_output)."""
    write_output(path, kind, text.encode("utf-8"), inputs)


class IncompleteLog(ValueError):
    """A log whose run did not end: it says "incomplete" (float_adm_log_abandon), and
    holds the frames before the failure, without pooled values."""


class Results:
    """Per-frame scores of one title.

    .frames: a list of dicts in frame order: {"frame": N, "adm2": ..., ...}, with
        "timestamp" (seconds) where known, and {"frame": N, "skipped": REASON} for a
        frame the filter did not score.
    .names: the outputs present (libvmaf's plain names, in the library's order).
    .pooled: {name: {"min", "max", "mean", "harmonic_mean"}} over the scored frames,
        computed as libvmaf pools (see pool()).
    .feature_names: {name: the name libvmaf gives it for the options used}.
    .inputs: the files scored, which no output of these results may overwrite.
    .maps: with map=True, a (frames, rows, columns) float32 array, the loss of each
        32x32 block of each frame (frame i of .frames is maps[i]; NaN where ADM
        measures nothing, its border; docs/maps.md); else None.  save_maps() and load_maps() keep it beside a log.
    .lost: where the maps came with their blocks' sums (score_files, Scorer), a
        (frames, rows, columns) float32 array, each block's lost detail D - N
        (FrameMap.lost), by which a block's share of its frame's lost detail is
        known; else None (score_video's maps, the filter's files, hold the loss alone).
    .doubtful_pairs: the pairs in doubt that score_video scored as asked
        (accept_doubtful_pairs=True): per kind, how many and from which frame
        (video.pair_doubts); [] where none.
    """

    def __init__(self, frames, names=None, options=None, width=None, height=None,
                 elapsed=None, feature_names=None, source=None, version=None, maps=None,
                 inputs=(), lost=None):
        frames = list(frames)
        order = sorted(range(len(frames)), key=lambda i: frames[i]["frame"])
        self.frames = [frames[i] for i in order]
        self.maps = None
        if maps is not None:
            import numpy as np
            if len(maps) != len(frames):
                raise ValueError("%d maps for %d frames" % (len(maps), len(frames)))
            self.maps = np.asarray(maps, np.float32)[order]
        self.lost = None
        if lost is not None:
            import numpy as np
            if self.maps is None or len(lost) != len(frames):
                raise ValueError("lost detail of %d frames for %s" % (
                    len(lost), "no maps" if self.maps is None else "%d maps" % len(frames)))
            self.lost = np.asarray(lost, np.float32)[order]
        seen = set()
        for f in self.frames:
            if f["frame"] in seen:
                raise ValueError("frame %d appears twice" % f["frame"])
            seen.add(f["frame"])
        if names is None:
            present = set()
            for f in self.frames:
                present.update(f)
            names = [n for n in _output_names() if n in present]
        self.names = list(names)
        self.options = dict(options or {})
        self.width, self.height = width, height
        self.elapsed = elapsed
        self.source = source
        self.version = version
        # The files scored: what no output of these results may overwrite.
        self.inputs = [os.fspath(p) for p in inputs]
        if feature_names is None:
            feature_names = feature_names_for(self.names, self.options)
        self.feature_names = dict(feature_names)
        # Why the run that wrote these frames did not end, where a log said so
        # (from_json(allow_incomplete=True)); else None.
        self.incomplete = None
        self.doubtful_pairs = []
        self._pooled = None

    def __len__(self):
        return len(self.frames)

    def __repr__(self):
        return "<Results: %d frames, %s>" % (len(self.frames), ", ".join(self.names))

    @property
    def scored(self):
        """The frames that carry scores (not skipped)."""
        return [f for f in self.frames if "skipped" not in f]

    def values(self, name):
        """One output's values over the scored frames, in frame order."""
        return [f[name] for f in self.scored]

    @property
    def pooled(self):
        if self._pooled is None:
            scored = self.scored
            self._pooled = {} if not scored else {
                name: pool(f[name] for f in scored) for name in self.names}
        return self._pooled

    @property
    def fps(self):
        """Frames scored per second of wall time, where the time is known."""
        if not self.elapsed or not self.frames:
            return None
        return len(self.scored) / self.elapsed

    def _log_options(self):
        """The FloatAdmOptions the library names these results' outputs with."""
        from .scorer import make_options
        order = _output_names()
        if self.names not in (list(order), list(order[:_lib.FLOAT_ADM_NUM_OUTPUTS])):
            raise ValueError("a log holds the %d outputs, or all %d with debug, not %s"
                             % (_lib.FLOAT_ADM_NUM_OUTPUTS, len(order), ", ".join(self.names)))
        options = dict(self.options, debug=len(self.names) == len(order))
        if feature_names_for(self.names, options) != self.feature_names:
            raise ValueError("these results name their outputs %s, which no options of "
                             "float_adm give: they cannot be written as its log"
                             % ", ".join(self.feature_names[n] for n in self.names))
        return make_options(options)

    def write_log(self, path, log_format=_lib.FLOAT_ADM_LOG_JSON, inputs=()):
        """Write the frames to path with the library's log writer (float_adm_log_*),
        in libvmaf's layout log_format (_lib.FLOAT_ADM_LOG_JSON, _CSV, _XML, _SUB),
        where the output policy lets a log go (write_output: "-" is stdout; never
        over these results' inputs, those given, a link, a device or a file that is
        not a log): path is complete, or as it was.  JSON gives a frame's "timestamp"
        where known, and the header the fps of these results (null where unknown)."""
        with RunFiles() as files:
            files.add_inputs(list(self.inputs) + list(inputs))
            self.write_log_to(files.begin_output(path, _lib.FLOAT_ADM_OUTPUT_LOG), log_format)
            files.commit()

    def write_log_to(self, output, log_format=_lib.FLOAT_ADM_LOG_JSON):
        """Write the log to output, a log a run began (RunFiles.begin_output); it lands
        when the run commits."""
        self._write_log(log_format, output.path, output=output)

    def _write_log(self, log_format, name, file_path=None, output=None):
        """The log written to output, or to file_path, a new file of ours (errors say
        name)."""
        from .scorer import Error
        lib = _lib.core()
        opts = self._log_options()
        log = ctypes.c_void_p()
        errbuf = ctypes.create_string_buffer(_ERRBUF)
        err = lib.float_adm_log_open(ctypes.byref(log),
                                     None if file_path is None else os.fsencode(file_path),
                                     log_format, ctypes.byref(opts), self.width or 0,
                                     self.height or 0, errbuf, _ERRBUF)
        if err < 0:
            raise Error("%s: %s" % (shown(name), _lib.message(errbuf.value)), err)
        try:
            if output is not None:
                err = lib.float_adm_log_set_output(log, output.handle, errbuf, _ERRBUF)
                if err < 0:
                    raise Error(_lib.text(errbuf.value), err)
                if output.on_stdout:
                    sys.stdout.flush()
            fps = self.fps
            lib.float_adm_log_set_fps(log, fps if fps is not None else math.nan)
            scores = _lib.FloatAdmScores()
            for f in self.frames:
                if "skipped" in f:
                    err = lib.float_adm_log_skipped(log, f["frame"],
                                                    str(f["skipped"]).encode(), errbuf,
                                                    _ERRBUF)
                else:
                    for i, name in enumerate(self.names):
                        lib.float_adm_output_set_value(ctypes.byref(scores), i, f[name])
                    err = lib.float_adm_log_frame_at(log, f["frame"],
                                                     f.get("timestamp", math.nan),
                                                     ctypes.byref(scores), errbuf, _ERRBUF)
                if err < 0:
                    raise Error(_lib.message(errbuf.value), err)
        finally:
            closed = lib.float_adm_log_close(ctypes.byref(log), errbuf, _ERRBUF)
        if closed < 0:
            raise Error(_lib.message(errbuf.value), closed)

    def _log_text(self, log_format):
        import tempfile
        with tempfile.TemporaryDirectory(prefix="floatadm.") as directory:
            path = os.path.join(directory, "log")
            self._write_log(log_format, path, file_path=path)
            with open(path, encoding="utf-8") as f:
                return f.read()

    def to_json_text(self):
        """libvmaf's JSON layout, written by the library's log writer (every double
        %.17g, NaN and infinity as null), with a frame's "timestamp" where known."""
        return self._log_text(_lib.FLOAT_ADM_LOG_JSON)

    def to_json(self, path, inputs=()):
        """The JSON log, written to path (write_log)."""
        self.write_log(path, _lib.FLOAT_ADM_LOG_JSON, inputs)

    def to_csv_text(self):
        """libvmaf's CSV layout: "Frame,NAME,...," then "N,VALUE,...," per frame."""
        return self._log_text(_lib.FLOAT_ADM_LOG_CSV)

    def to_csv(self, path, inputs=()):
        """The CSV log, written to path (write_log)."""
        self.write_log(path, _lib.FLOAT_ADM_LOG_CSV, inputs)

    @classmethod
    def from_json(cls, path, allow_incomplete=False):
        """Read a JSON log: the library's, float_adm_score's, the filter's or to_json's
        (a file that is no JSON, or not UTF-8: _input.InputError, naming it).  A log
        whose run did not end (it says "incomplete") is IncompleteLog, naming it and
        why, unless allow_incomplete: then its frames, with .incomplete the reason."""
        from ._input import load_json
        data = load_json(path, "a JSON log")
        incomplete = data.get("incomplete") if isinstance(data, dict) else None
        if incomplete is not None and not allow_incomplete:
            raise IncompleteLog("%s: the run that wrote this log did not end (incomplete: "
                                "%s): its frames are not the whole run's, and it holds no "
                                "pooled values" % (os.fspath(path), incomplete))
        frames, feature_names, options = [], {}, {}
        for entry in data.get("frames", []):
            row = {"frame": int(entry["frameNum"])}
            if "timestamp" in entry and entry["timestamp"] is not None:
                row["timestamp"] = float(entry["timestamp"])
            if "skipped" in entry:
                row["skipped"] = entry["skipped"]
            for log_name, value in entry.get("metrics", {}).items():
                name = plain_name(log_name)
                if name is None:
                    continue
                if name not in feature_names and name != "adm":
                    options = _options_of_log_name(log_name) or options
                feature_names[name] = log_name
                row[name] = math.nan if value is None else float(value)
            frames.append(row)
        names = [n for n in _output_names() if n in feature_names]
        version = data.get("version", "")
        results = cls(frames, names=names, options=options, feature_names=feature_names,
                      source=os.fspath(path),
                      version=version[len("float_adm "):] if version.startswith("float_adm ")
                      else None)
        results.incomplete = incomplete
        return results

    @classmethod
    def merge(cls, parts):
        """One title's Results from its segments' (any order): frames in frame order,
        pooled over all of them in that order, exactly as one run pools them."""
        parts = list(parts)
        if not parts:
            raise ValueError("nothing to merge")
        # A segment past the end of a video (its frame count was an estimate) is empty
        # and names no outputs.
        first = next((p for p in parts if p.frames), parts[0])
        parts = [p for p in parts if p.frames] or [first]
        for p in parts[1:]:
            if p.names != first.names:
                raise ValueError("segments with different outputs: %s and %s"
                                 % (first.names, p.names))
        frames = [f for p in parts for f in p.frames]
        elapsed = sum(p.elapsed for p in parts) if all(p.elapsed for p in parts) else None
        maps = lost = None
        if all(p.maps is not None for p in parts):
            import numpy as np
            maps = np.concatenate([p.maps for p in parts])
            if all(p.lost is not None for p in parts):
                lost = np.concatenate([p.lost for p in parts])
        merged = cls(frames, names=first.names, options=first.options, width=first.width,
                     height=first.height, elapsed=elapsed, feature_names=first.feature_names,
                     version=first.version, maps=maps, lost=lost,
                     inputs=sorted({p for part in parts for p in part.inputs}))
        merged.doubtful_pairs = [d for p in parts for d in p.doubtful_pairs]
        return merged

    def save_maps(self, path, inputs=()):
        """The maps and their frame numbers as a numpy .npz file (arrays "frames",
        first, as the library recognises a map file, "loss", and "lost" where these
        results keep it), written where the output policy lets a map go
        (write_output); load_maps() and load_lost() read it back."""
        write_output(path, _lib.FLOAT_ADM_OUTPUT_MAP, self._maps_file(),
                     list(self.inputs) + list(inputs))

    def save_maps_to(self, output):
        """save_maps() to output, a map file a run began (RunFiles.begin_output)."""
        output.write(self._maps_file())

    def _maps_file(self):
        import io
        import numpy as np
        if self.maps is None:
            raise ValueError("these results have no maps (score with map=True)")
        data = io.BytesIO()
        arrays = {"lost": self.lost} if self.lost is not None else {}
        np.savez_compressed(data, frames=np.array([f["frame"] for f in self.frames],
                                                  np.int64), loss=self.maps, **arrays)
        return data.getvalue()

    @staticmethod
    def load_maps(path):
        """{frame number: (rows, columns) float32 loss} from a save_maps() file."""
        import numpy as np
        with np.load(path, allow_pickle=False) as data:
            return {int(n): loss for n, loss in zip(data["frames"], data["loss"])}

    @staticmethod
    def load_lost(path):
        """{frame number: (rows, columns) float32 lost detail} from a save_maps() file,
        or None where it keeps the loss alone (an earlier file, or score_video's maps)."""
        import numpy as np
        with np.load(path, allow_pickle=False) as data:
            if "lost" not in data:
                return None
            return {int(n): lost for n, lost in zip(data["frames"], data["lost"])}

    def to_dict(self):
        """{"frames": [...], "pooled": {...}} (plain Python, e.g. for pickling)."""
        return {"frames": self.frames, "pooled": self.pooled, "names": self.names}

