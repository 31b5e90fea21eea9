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

"""Results: per-frame scores, pooled as libvmaf pools, written in libvmaf's layouts.

Nothing here needs the library: logs can be read, merged, pooled and reported
on a machine without it.
"""

import json
import math
import os
import secrets

# The outputs in the library's order (float_adm_output_name); the first 7 are
# always there, the rest with debug.
OUTPUT_NAMES = (
    "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3",
    "adm", "adm_num", "adm_den",
    "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
)
POOL_NAMES = ("min", "max", "mean", "harmonic_mean")
# Longest first, so that "adm_scale0_egl_1.2" is adm_scale0's and not adm's.
_BY_LENGTH = sorted(OUTPUT_NAMES, key=len, reverse=True)
# libvmaf builds feature names in a 256-byte buffer.
_MAX_NAME = 255


def plain_name(log_name):
    """The output a log's metric name is (libvmaf appends option suffixes:
    "adm2_egl_1.2" is adm2), or None for a name of no output of ours."""
    for name in _BY_LENGTH:
        if log_name == name or log_name.startswith(name + "_"):
            return name
    return None


def libvmaf_names(names, options, table):
    """{output: libvmaf's name of it}: each option that is not its default (debug
    aside) appends "_ALIAS_VALUE" ("_ALIAS" for a bool; an int's value %d, a
    double's %g), in the order of the options' full names; "adm" takes none."""
    parts = []
    for row in table:
        value = options.get(row["name"], row["default"])
        if row["name"] == "debug" or float(value) == row["default"]:
            continue
        part = "_" + (row["alias"] or row["name"])
        if row["type"] == "int":
            part += "_%d" % int(value)
        elif row["type"] == "double":
            part += "_%g" % float(value)
        parts.append((row["name"].encode(), part))
    suffix = "".join(part for _, part in sorted(parts))
    return {n: n if n == "adm" else (n + suffix)[:_MAX_NAME] for n in names}


def pool(values):
    """libvmaf's pooling of a sequence of doubles, in its order: min, max, mean =
    sum / n and harmonic_mean = n / sum(1 / (x + 1)) - 1, each sum accumulated in
    order as one double (which is what makes split runs equal whole ones)."""
    total = inv_total = 0.0
    low = high = 0.0
    n = 0
    for x in values:
        total += x
        inv_total += 1.0 / (x + 1.0) if x != -1.0 else math.inf
        if not n or x < low:
            low = x
        if not n or x > high:
            high = x
        n += 1
    if not n:
        return None
    harmonic = n / inv_total - 1.0 if inv_total else math.inf
    return {"min": low, "max": high, "mean": total / n, "harmonic_mean": harmonic}


def _number(value):
    """A double as the library writes it: %.17g; NaN and infinity as null in JSON."""
    return "%.17g" % value if math.isfinite(value) else "null"


def write_atomically(path, text):
    """Write text to path through a temporary file in its directory and a rename, so
    that path is either absent or complete."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        # As mkstemp, but with the mode any new file gets (mkstemp's is 0600).
        tmp = os.path.join(directory, ".%s.%s.tmp" % (os.path.basename(path),
                                                      secrets.token_hex(6)))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Results:
    """Per-frame scores of one title.

    .frames: a list of dicts in frame order: {"frame": N, "adm2": ..., ...}, with
        "timestamp" (seconds) where known, and {"frame": N, "skipped": REASON} for a
        frame the filter did not score.
    .names: the outputs present (libvmaf's plain names, in the library's order).
    .pooled: {name: {"min", "max", "mean", "harmonic_mean"}} over the scored frames,
        computed as libvmaf pools (see pool()).
    .feature_names: {name: the name libvmaf gives it for the options used}.
    """

    def __init__(self, frames, names=None, options=None, width=None, height=None,
                 elapsed=None, feature_names=None, source=None, version=None):
        self.frames = sorted(frames, key=lambda f: f["frame"])
        seen = set()
        for f in self.frames:
            if f["frame"] in seen:
                raise ValueError("frame %d appears twice" % f["frame"])
            seen.add(f["frame"])
        if names is None:
            present = set()
            for f in self.frames:
                present.update(k for k in f if k in OUTPUT_NAMES)
            names = [n for n in OUTPUT_NAMES if n in present]
        self.names = list(names)
        self.options = dict(options or {})
        self.width, self.height = width, height
        self.elapsed = elapsed
        self.source = source
        self.version = version
        if feature_names is None:
            feature_names = {n: n for n in self.names}
            if any(k != "debug" for k in self.options):
                from .scorer import options as option_table
                feature_names = libvmaf_names(self.names, self.options, option_table())
        self.feature_names = dict(feature_names)
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

    def to_json_text(self):
        """libvmaf's JSON layout, as the library's log writer lays it out (every double
        %.17g, NaN and infinity as null), with a frame's "timestamp" where known."""
        fps = self.fps
        fps_text = "%.2f" % fps if fps is not None and math.isfinite(fps) else "null"
        out = ['{\n  "version": "float_adm %s",\n  "fps": %s,\n  "frames": ['
               % (self.version or _library_version(), fps_text)]
        for i, f in enumerate(self.frames):
            out.append(",\n" if i else "\n")
            out.append('    {\n      "frameNum": %d,\n' % f["frame"])
            if "timestamp" in f:
                out.append('      "timestamp": %s,\n' % _number(f["timestamp"]))
            if "skipped" in f:
                out.append('      "skipped": %s,\n      "metrics": {\n      }\n    }'
                           % json.dumps(f["skipped"]))
                continue
            out.append('      "metrics": {\n')
            out.append(",\n".join('        "%s": %s' % (self.feature_names[n], _number(f[n]))
                                  for n in self.names))
            out.append("\n      }\n    }")
        out.append('\n  ],\n  "pooled_metrics": {')
        for i, name in enumerate(self.names if self.pooled else []):
            out.append(",\n" if i else "\n")
            out.append('    "%s": {' % self.feature_names[name])
            out.append(",".join('\n      "%s": %s' % (k, _number(self.pooled[name][k]))
                                for k in POOL_NAMES))
            out.append("\n    }")
        out.append('\n  },\n  "aggregate_metrics": {\n  }\n}\n')
        return "".join(out)

    def to_json(self, path):
        """Write to_json_text() to path (atomically: complete or absent)."""
        write_atomically(path, self.to_json_text())

    def to_csv_text(self):
        """libvmaf's CSV layout: "Frame,NAME,...," then "N,VALUE,...," per frame."""
        lines = ["Frame," + "".join(self.feature_names[n] + "," for n in self.names)]
        for f in self.frames:
            if "skipped" in f:
                lines.append("%d," % f["frame"] + "," * len(self.names))
            else:
                lines.append("%d," % f["frame"] +
                             "".join("%.17g," % f[n] for n in self.names))
        return "\n".join(lines) + "\n"

    def to_csv(self, path):
        """Write to_csv_text() to path (atomically)."""
        write_atomically(path, self.to_csv_text())

    @classmethod
    def from_json(cls, path):
        """Read a JSON log: the library's, float_adm_score's, the filter's or to_json's."""
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        frames, feature_names = [], {}
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
                feature_names[name] = log_name
                row[name] = math.nan if value is None else float(value)
            frames.append(row)
        names = [n for n in OUTPUT_NAMES if n in feature_names]
        version = data.get("version", "")
        return cls(frames, names=names, feature_names=feature_names, source=os.fspath(path),
                   version=version[len("float_adm "):] if version.startswith("float_adm ")
                   else None)

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
        return cls(frames, names=first.names, options=first.options, width=first.width,
                   height=first.height, elapsed=elapsed, feature_names=first.feature_names,
                   version=first.version)

    def to_dict(self):
        """{"frames": [...], "pooled": {...}} (plain Python, e.g. for pickling)."""
        return {"frames": self.frames, "pooled": self.pooled, "names": self.names}


def _library_version():
    try:
        from .scorer import version
        return version()
    except Exception:  # writing a log needs no library
        return "unknown"
