# SPDX-License-Identifier: LGPL-2.1-or-later
"""Encoding ladders: every rung (an encode of a source, at any size and rate) scored
against its source, scaled to the source's size, with the bitrate of the rung's whole
video stream, beside it PSNR, SSIM and VMAF (FFmpeg's filters, on the same frames); which
rungs lie on their ladder's convex hull, the rungs worth encoding; and BD-rate and
BD-quality between ladders of the same sources, by each metric.

BD figures follow the common practice (Bjøntegaard, VCEG-M33, with the piecewise cubic
Hermite interpolation of the JCT-VC test conditions): log-rate is interpolated as a
function of quality (BD-rate) or quality as a function of log-rate (BD-quality), each
curve by PCHIP through the upper convex hull of its ladder's points, the two integrated
exactly over the range where both curves have points, never extrapolated.  Only outputs
that grow with quality take part (adm2, adm3, adm_scale0..3 and the metrics beside; aim
falls).
"""
import concurrent.futures
import csv
import glob
import hashlib
import html
import io
import json
import math
import os
import shutil
import sys
import threading
import time
import warnings

from . import _lib
from ._input import InputError, read_text
from ._names import shown, url_path
from .report import _nice_ticks, _tick_text, _wrap_name
from .results import RunFiles, feature_names_for, output_target, plain_name, write_output
from .video import (BESIDE, DEFAULT_SCALER, FFmpegError, beside_filters, filter_options,
                    find_ffmpeg, probe_stream, score_video)

QUALITY_OUTPUTS = ("adm2", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3")
POOLS = ("mean", "harmonic_mean", "min", "max")


def _listed(function):
    """A list the library keeps: function(i) for i = 0, 1, ... up to its NULL."""
    names = []
    while function(len(names)) is not None:
        names.append(_lib.text(function(len(names))))
    return tuple(names)


# The table's first columns and the metrics beside float_adm it may pool: the library's,
# by which its output policy knows a ladder's CSV table.
RUNG_COLUMNS = _listed(_lib.core().float_adm_table_column)
BESIDE_METRICS = _listed(_lib.core().float_adm_table_metric)

# A BD figure taken over a common quality range narrower than NARROW of its metric's
# scale rests on a sliver of the curves: said in a note.  The scales: 1 (ADM, SSIM),
# 60 dB for PSNR (libvmaf's ceiling for 8-bit), 100 for VMAF.
NARROW = 0.05
SCALES = {"psnr_y": 60.0, "psnr_avg": 60.0, "vmaf": 100.0}

RECOMMENDED_RULE = (
    "a ladder's recommended rungs for a title are chosen from the bottom up: the first is "
    "its floor, the cheapest rung of the smallest picture size on its convex hull of "
    "bitrate against the metric (a ladder starts at its smallest picture); each "
    "next one, of the rungs that are at least min_rate_ratio times its bitrate, no "
    "smaller in picture size and at least quality_step better, the one that adds the most "
    "quality for each bit added (the next corner of their convex hull); the ladder ends "
    "where no rung is a quality step better.  So the picture size never falls "
    "as the bitrate rises, no two rungs are closer in bitrate than a switch is worth, and "
    "each rung is a difference a viewer can tell.  With rungs=N, the largest quality_step "
    "that gives N rungs.  A rung without a finite value of the metric takes no part")

# The rules' defaults.  Rungs less than half again apart in bitrate are not worth a
# switch (HLS authoring guidance: adjacent bitrates 1.5 to 2 times apart).  Consecutive
# rungs a quality step apart: for VMAF 6 points, the usual just-noticeable difference;
# for adm2 the step that corresponds to it on the titles measured in docs/ladder.md
# ("The quality step of adm2"); other metrics have none unless one is given.
MIN_RATE_RATIO = 1.5
QUALITY_STEPS = {"vmaf": 6.0, "adm2": 0.025}


class LadderError(ValueError):
    """A ladder that cannot be scored or compared as asked; the message says why."""


# ---- Bjøntegaard deltas ----

def _pchip_slopes(x, y):
    """The derivatives at the knots of the shape-preserving piecewise cubic Hermite
    interpolant (Fritsch-Carlson, with the three-point ends of Moler's pchip)."""
    n = len(x)
    h = [x[k + 1] - x[k] for k in range(n - 1)]
    m = [(y[k + 1] - y[k]) / h[k] for k in range(n - 1)]
    if n == 2:
        return [m[0], m[0]]
    d = [0.0] * n
    for k in range(1, n - 1):
        if m[k - 1] * m[k] > 0:
            w1, w2 = 2 * h[k] + h[k - 1], h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k])

    def end(h0, h1, m0, m1):
        slope = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        if slope * m0 <= 0:
            return 0.0
        if m0 * m1 < 0 and abs(slope) > abs(3 * m0):
            return 3 * m0
        return slope

    d[0] = end(h[0], h[1], m[0], m[1])
    d[-1] = end(h[-1], h[-2], m[-1], m[-2])
    return d


def _integral(x, y, a, b):
    """The integral over [a, b] (within x's range) of the PCHIP through (x, y), exact:
    each piece's cubic in Hermite form integrated in closed form."""
    d = _pchip_slopes(x, y)

    def upto(t):
        k = max(0, min(len(x) - 2, next((i for i in range(len(x) - 1) if t <= x[i + 1]),
                                        len(x) - 2)))
        total = 0.0
        for i in range(k):
            h = x[i + 1] - x[i]
            total += h * (y[i] + y[i + 1]) / 2 + h * h * (d[i] - d[i + 1]) / 12
        h = x[k + 1] - x[k]
        s = (t - x[k]) / h
        total += h * (y[k] * (s**4 / 2 - s**3 + s) + h * d[k] * (s**4 / 4 - 2 * s**3 / 3 + s**2 / 2)
                      + y[k + 1] * (s**3 - s**4 / 2) + h * d[k + 1] * (s**4 / 4 - s**3 / 3))
        return total

    return upto(b) - upto(a)


def _curve(points, name):
    """(rate, quality) points as two lists sorted by quality, each strictly increasing."""
    points = sorted((float(r), float(q)) for r, q in points)
    if len(points) < 2:
        raise LadderError("%s: %d point(s); a BD figure needs at least 2 (4 is usual)"
                          % (name, len(points)))
    for (r0, q0), (r1, q1) in zip(points, points[1:]):
        if not (r0 > 0 and r1 > r0 and q1 > q0):
            raise LadderError("%s: quality does not rise with rate (%g at %g, %g at %g): "
                              "BD figures need a monotonic curve (a convex hull is one)"
                              % (name, q0, r0, q1, r1))
    return [r for r, _ in points], [q for _, q in points]


def _overlap(a, b, what, names, shown=lambda v: v):
    low, high = max(a[0], b[0]), min(a[-1], b[-1])
    if high <= low:
        raise LadderError("%s and %s do not overlap in %s (%.6g..%.6g against %.6g..%.6g): "
                          "no BD figure without a common range"
                          % (names[0], names[1], what, shown(a[0]), shown(a[-1]),
                             shown(b[0]), shown(b[-1])))
    return low, high


def bd_rate(anchor, test, names=("anchor", "test")):
    """The test's average rate difference to the anchor at equal quality, as a
    fraction (-0.05: 5 % fewer bits), over their common quality range.  anchor, test:
    (rate, quality) points of two monotonic curves."""
    ra, qa = _curve(anchor, names[0])
    rt, qt = _curve(test, names[1])
    low, high = _overlap(qa, qt, "quality", names)
    la, lt = [math.log(r) for r in ra], [math.log(r) for r in rt]
    mean = (_integral(qt, lt, low, high) - _integral(qa, la, low, high)) / (high - low)
    return math.exp(mean) - 1


def bd_quality(anchor, test, names=("anchor", "test")):
    """The test's average quality difference to the anchor at equal rate, over their
    common range of log-rate."""
    ra, qa = _curve(anchor, names[0])
    rt, qt = _curve(test, names[1])
    la, lt = [math.log(r) for r in ra], [math.log(r) for r in rt]
    low, high = _overlap(la, lt, "bitrate", names, math.exp)
    return (_integral(lt, qt, low, high) - _integral(la, qa, low, high)) / (high - low)


def convex_hull(points):
    """The upper convex hull of (rate, quality) points: each kept point has more quality
    than every cheaper one, and none lies below the line through its neighbours.
    Returned sorted by rate."""
    pareto = []
    for r, q in sorted(points, key=lambda p: (p[0], -p[1])):
        if not pareto or q > pareto[-1][1]:
            pareto.append((r, q))
    hull = []
    for p in pareto:
        while len(hull) >= 2:
            (r0, q0), (r1, q1) = hull[-2], hull[-1]
            if (r1 - r0) * (p[1] - q0) - (q1 - q0) * (p[0] - r0) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


# ---- The recommended ladder ----

def ladder_rules(metric, min_rate_ratio=None, quality_step=None, rungs=None):
    """The rules a recommended ladder of metric obeys (RECOMMENDED_RULE), with their
    parameters: min_rate_ratio (MIN_RATE_RATIO), quality_step (QUALITY_STEPS' for
    metric, else 0: none) or rungs (a count, instead of a step), and where each
    came from.  LadderError for values that make no ladder."""
    if min_rate_ratio is None:
        min_rate_ratio, ratio_from = MIN_RATE_RATIO, "default"
    else:
        ratio_from = "given"
    if not (isinstance(min_rate_ratio, (int, float)) and math.isfinite(min_rate_ratio)
            and min_rate_ratio >= 1):
        raise LadderError("--min-rate-ratio %r: a ratio of 1 or more" % (min_rate_ratio,))
    if rungs is not None and quality_step is not None:
        raise LadderError("--rungs and --quality-step: one or the other, a count of rungs "
                          "or the quality between them")
    if rungs is not None:
        if not isinstance(rungs, int) or rungs < 1:
            raise LadderError("--rungs %r: a count of 1 or more" % (rungs,))
        step, step_from = None, "chosen for the count of rungs"
    elif quality_step is not None:
        if not (isinstance(quality_step, (int, float)) and math.isfinite(quality_step)
                and quality_step >= 0):
            raise LadderError("--quality-step %r: 0 or more" % (quality_step,))
        step, step_from = float(quality_step), "given"
    elif metric in QUALITY_STEPS:
        step, step_from = QUALITY_STEPS[metric], "default for %s" % metric
    else:
        step, step_from = 0.0, ("none: %s has no default step (--quality-step or "
                                "--rungs sets one)" % metric)
    return {"metric": metric, "min_rate_ratio": float(min_rate_ratio),
            "min_rate_ratio_from": ratio_from, "quality_step": step,
            "quality_step_from": step_from, "rungs": rungs,
            "resolution_never_falls": True,
            "floor": "the cheapest rung of the smallest picture size on the convex hull"}


def _above(point, below, ratio, step):
    """Whether point may be the rung above below: ratio times the bitrate at least, no
    smaller a picture, at least step more quality (and more)."""
    return (point["bitrate_kbps"] >= ratio * below["bitrate_kbps"] and
            point["pixels"] >= below["pixels"] and point["quality"] > below["quality"] and
            point["quality"] >= below["quality"] + step)


def _gain(point, below):
    """The quality point adds over below for each kbit/s added."""
    added = point["bitrate_kbps"] - below["bitrate_kbps"]
    return (point["quality"] - below["quality"]) / added if added > 0 else math.inf


def _walk(points, floor, ratio, step):
    """The rungs chosen from the floor up by RECOMMENDED_RULE, in rising bitrate."""
    chosen = [floor]
    while True:
        better = [p for p in points if _above(p, chosen[-1], ratio, step)]
        if not better:
            return chosen
        chosen.append(max(better, key=lambda p: (_gain(p, chosen[-1]), -p["bitrate_kbps"])))


def recommend(points, rules):
    """The recommended ladder of one title's ladder: points, its rungs as
    {"label", "bitrate_kbps", "quality", "width", "height"} (those with a finite
    quality), chosen by rules (ladder_rules()).  Returns {"rungs": the points chosen
    in rising bitrate, "quality_step": the step used, "notes": [...]}."""
    points = [dict(p, pixels=p["width"] * p["height"]) for p in points
              if p["quality"] is not None and math.isfinite(p["quality"]) and
              p["bitrate_kbps"] > 0]
    if not points:
        return {"rungs": [], "quality_step": rules["quality_step"],
                "notes": ["no rung has a finite %s" % rules["metric"]]}
    hull = convex_hull([(p["bitrate_kbps"], p["quality"]) for p in points])
    on_hull = [p for p in points if (p["bitrate_kbps"], p["quality"]) in hull]
    smallest = min(p["pixels"] for p in on_hull)
    floor = min((p for p in on_hull if p["pixels"] == smallest),
                key=lambda p: (p["bitrate_kbps"], -p["quality"]))
    ratio, notes = rules["min_rate_ratio"], []
    if rules["rungs"] is None:
        step = rules["quality_step"]
        chosen = _walk(points, floor, ratio, step)
    else:
        # The largest step that still gives the count (fewer rungs as the step grows).
        steps = sorted({0.0} | {a["quality"] - b["quality"] for a in points for b in points
                                if a["quality"] > b["quality"]})
        low, high = 0, len(steps) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if len(_walk(points, floor, ratio, steps[middle])) >= rules["rungs"]:
                low = middle
            else:
                high = middle - 1
        step = steps[low]
        chosen = _walk(points, floor, ratio, step)
        if len(chosen) != rules["rungs"]:
            notes.append("%d rungs asked for, %d under the other rules" % (
                rules["rungs"], len(chosen)))
    hull_labels = [p["label"] for p in points if (p["bitrate_kbps"], p["quality"]) in hull]
    left = [label for label in hull_labels if label not in [p["label"] for p in chosen]]
    added = [p["label"] for p in chosen if p["label"] not in hull_labels]
    if added:
        notes.append("off the convex hull, chosen by the rules: %s" % ", ".join(added))
    if left:
        notes.append("on the convex hull, left out by the rules: %s" % ", ".join(left))
    return {"rungs": [{k: p[k] for k in ("label", "bitrate_kbps", "quality", "width",
                                         "height")} for p in chosen],
            "quality_step": step, "notes": notes}


def _interpolate(curve, x):
    """The quality at log-rate x of a curve of (log-rate, quality) points, linearly."""
    for (x0, y0), (x1, y1) in zip(curve, curve[1:]):
        if x0 <= x <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    raise ValueError("outside the curve")


def crossovers(points):
    """Where each picture size of a title's ladder overtakes the next smaller one:
    [{"from": "WxH", "to": "WxH", "bitrate_kbps": the rate where the larger size's
    curve (its own convex hull, quality linear in log-rate between its rungs) reaches
    the smaller's, or None with "why"}], smaller sizes first.  points as recommend()'s."""
    sizes = sorted({(p["width"] * p["height"], p["width"], p["height"]) for p in points
                    if p["quality"] is not None and math.isfinite(p["quality"])})
    curves = {}
    for size in sizes:
        hull = convex_hull([(p["bitrate_kbps"], p["quality"]) for p in points
                            if (p["width"] * p["height"], p["width"], p["height"]) == size and
                            p["quality"] is not None and math.isfinite(p["quality"])])
        curves[size] = [(math.log(r), q) for r, q in hull]
    found = []
    for small, large in zip(sizes, sizes[1:]):
        entry = {"from": "%dx%d" % small[1:], "to": "%dx%d" % large[1:], "bitrate_kbps": None}
        a, b = curves[small], curves[large]
        low, high = max(a[0][0], b[0][0]), min(a[-1][0], b[-1][0])
        if len(a) < 2 or len(b) < 2 or high <= low:
            entry["why"] = ("their curves share no range of bitrates (%s: %.0f..%.0f kbit/s, "
                            "%s: %.0f..%.0f)" % (entry["from"], math.exp(a[0][0]),
                                                 math.exp(a[-1][0]), entry["to"],
                                                 math.exp(b[0][0]), math.exp(b[-1][0])))
            found.append(entry)
            continue
        xs = sorted({low, high} | {x for x, _ in a + b if low < x < high})
        gaps = [_interpolate(b, x) - _interpolate(a, x) for x in xs]
        span = "%.0f..%.0f kbit/s" % (math.exp(low), math.exp(high))
        if gaps[0] >= 0:
            entry["why"] = "%s is ahead of %s at every rate both cover (%s)" % (
                entry["to"], entry["from"], span)
        else:
            k = next((k for k in range(1, len(xs)) if gaps[k] >= 0), None)
            if k is None:
                entry["why"] = "%s stays behind %s at every rate both cover (%s)" % (
                    entry["to"], entry["from"], span)
            else:
                x = xs[k - 1] + (xs[k] - xs[k - 1]) * -gaps[k - 1] / (gaps[k] - gaps[k - 1])
                entry["bitrate_kbps"] = math.exp(x)
                entry["quality"] = _interpolate(b, x)
        found.append(entry)
    return found


# ---- The score cache ----

def cache_directory():
    """Where scored rungs are kept for any run: $XDG_CACHE_HOME/floatadm/ladder, or
    ~/.cache/floatadm/ladder where XDG_CACHE_HOME is unset or not absolute (as the XDG
    base directory specification says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "floatadm", "ladder")


def _stamp(path):
    """A file's identity and content stamp: its real path, device and inode, size and
    modification time (to the nanosecond)."""
    st = os.stat(path)
    return [os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


def cache_entry(directory, spec):
    """Where a rung's scores lie in the score cache: DIRECTORY/KK/KEY.json, its
    record and maps beside it, KEY a hash of what makes them (the job's record: its
    inputs, float_adm's options, scaler, metrics beside and the library's version)
    and of the inputs' and every ffmpeg's identity and content stamp (_stamp)."""
    from .distributed import job_record
    record = job_record(spec)
    key = {"record": {k: v for k, v in record.items() if k != "library"},
           "library": record["library"],
           "files": [_stamp(spec[k]) for k in ("reference", "distorted")],
           "ffmpeg": _stamp(spec["ffmpeg"]),
           "beside_ffmpeg": {name: _stamp(path)
                             for name, path in spec.get("beside_ffmpeg", {}).items()}}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    return os.path.join(directory, digest[:2], digest + ".json")


# ---- Rungs ----

MANIFEST_COLUMNS = ("source", "ladder", "file")
MANIFEST = "a CSV manifest in UTF-8 whose first line names the columns source, ladder, file"


def read_manifest(path):
    """The rungs of a CSV manifest: a first line naming the columns source, ladder,
    file and an optional label (in any case and order; the label defaults to the
    file's name without its extension), then a rung a line; relative paths are the
    manifest's directory's.  A column named twice is refused, naming it.  A file
    that is not UTF-8 CSV: InputError naming it."""
    base = os.path.dirname(os.path.abspath(path))
    reader = csv.reader(io.StringIO(read_text(path, MANIFEST, "utf-8-sig"), newline=""))
    try:
        header = [c.strip().lower() for c in next(reader, [])]
        if not set(MANIFEST_COLUMNS) <= set(header):
            raise LadderError("%s: its first line must name the columns source, ladder, file "
                              "(and label), not %s" % (shown(path),
                                                       shown(",".join(header)) or "nothing"))
        twice = sorted({c for c in header if header.count(c) > 1})
        if twice:
            raise LadderError("%s: its first line names %s more than once: which one counts "
                              "is not said" % (shown(path), ", ".join(map(shown, twice))))
        rungs = []
        for row in reader:
            if not any(c.strip() for c in row):
                continue
            where = "%s, line %d" % (shown(path), reader.line_num)
            if len(row) > len(header):
                raise LadderError("%s: %d fields for %d columns (a ',' in a name must be "
                                  "quoted)" % (where, len(row), len(header)))
            cells = dict(zip(header, (c.strip() for c in row)))
            missing = [c for c in MANIFEST_COLUMNS if not cells.get(c)]
            if missing:
                raise LadderError("%s: no %s" % (where, ", ".join(missing)))
            rungs.append(_rung(os.path.join(base, cells["source"]), cells["ladder"],
                               os.path.join(base, cells["file"]), cells.get("label", "")))
    except csv.Error as error:  # a NUL byte, a field past csv's size limit
        raise InputError("%s, line %d" % (path, reader.line_num), MANIFEST, error) from None
    if not rungs:
        raise LadderError("%s: no rungs, only the line naming the columns" % shown(path))
    return rungs


def rungs_of(source, ladders):
    """The rungs of one source: ladders maps a ladder's name to its encodes (file
    names, or glob patterns where no file has the name)."""
    rungs = []
    for name, patterns in ladders.items():
        files = []
        for pattern in patterns:
            found = [pattern] if os.path.exists(pattern) or not glob.has_magic(pattern) \
                else sorted(glob.glob(pattern))
            if not found:
                raise LadderError("ladder %s: %s matches no file" % (shown(name), shown(pattern)))
            files += found
        rungs += [_rung(source, name, f, "") for f in files]
    return rungs


def _rung(source, ladder, path, label):
    """A rung: its source and file as paths, its ladder's name and its label as
    names are shown (shown(): one printable line, in every table and page)."""
    ladder = shown(ladder)
    for what, p in (("source", source), ("encode", path)):
        if not os.path.isfile(p):
            raise LadderError("ladder %s: the %s %s is not a file" % (ladder, what, shown(p)))
    if os.path.samefile(source, path):
        raise LadderError("ladder %s: %s is its source itself, not an encode of it"
                          % (ladder, shown(path)))
    label = shown(label or os.path.splitext(os.path.basename(path))[0])
    return {"source": os.path.abspath(source), "ladder": ladder, "label": label,
            "file": os.path.abspath(path)}


_KEPT_IN_FILE_NAMES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                 b"0123456789-_.")


def file_name(name):
    """A name (a rung's label, a ladder's, a source's) as one file name, the same in
    every run and never another name's: ASCII letters, digits, '-', '_' and '.' kept,
    every other byte of its UTF-8 (of a file name that is not UTF-8, its own bytes)
    as %XX, '%' included; a '.' first (a hidden file, "..") and the '.' of ".spec" at
    its end (a label's log would be another label's record, NAME.spec.json) as %2E;
    "" as "%".  Decoding %XX gives the name back, so two names never meet."""
    data = os.fsencode(name)
    text = "".join(chr(b) if b in _KEPT_IN_FILE_NAMES else "%%%02X" % b for b in data)
    if text.startswith("."):
        text = "%2E" + text[1:]
    if text.endswith(".spec"):
        text = text[:-len(".spec")] + "%2Espec"
    return text or "%"


def source_names(rungs):
    """Each source's name in tables and plots: its file name, or where two sources
    share one, its path; as names are shown (shown())."""
    sources = sorted({r["source"] for r in rungs})
    names = {}
    for source in sources:
        base = os.path.basename(source)
        clash = sum(os.path.basename(s) == base for s in sources) > 1
        names[source] = shown(os.path.relpath(source) if clash else base)
    return names


def log_paths(rungs, log_dir):
    """Each rung's log, log_dir/SOURCE/LADDER/LABEL.json, each part file_name() of
    the source's name (source_names), the ladder's and the label: never the same file
    for two rungs, nor one rung's log another's record (LABEL.spec.json)."""
    names = source_names(rungs)
    return [os.path.join(log_dir, file_name(names[rung["source"]]), file_name(rung["ladder"]),
                         file_name(rung["label"]) + ".json") for rung in rungs]


def _check_labels(rungs):
    seen = set()
    for rung in rungs:
        key = (rung["source"], rung["ladder"], rung["label"])
        if key in seen:
            raise LadderError("ladder %s has two rungs labelled %s for %s: give each its own "
                              "label (a manifest's label column)"
                              % (rung["ladder"], rung["label"], shown(rung["source"])))
        seen.add(key)


def check_rungs(rungs, ffmpeg=None):
    """Before anything is scored: labels apart within each ladder and source, every
    source and rung a video whose bitrate ffprobe can take, and each rung as many
    frames as its source (a rung is an encode of the whole source: paired with a
    shorter or longer one, frames would be scored against a repeated picture).
    Returns {file: probe_stream()} for every source and rung."""
    from .video import count_frames
    ffmpeg = find_ffmpeg(ffmpeg)
    _check_labels(rungs)
    streams, frames = {}, {}
    for path in sorted({r["source"] for r in rungs} | {r["file"] for r in rungs}):
        try:
            streams[path] = probe_stream(ffmpeg, path)
        except FFmpegError as error:
            raise LadderError(str(error)) from None
        frames[path] = count_frames(ffmpeg, path)
    for rung in rungs:
        have, want = frames[rung["file"]], frames[rung["source"]]
        if have is None or want is None or have != want:
            raise LadderError("%s holds %s frames, its source %s %s: a rung must encode the "
                              "whole source, frame for frame"
                              % (shown(rung["file"]), have if have is not None else "uncounted",
                                 shown(rung["source"]),
                                 want if want is not None else "uncounted"))
    return streams


def beside_measured(ffmpeg, beside=None, metrics_ffmpeg=None, moved=()):
    """Which filters of BESIDE measure the metrics beside float_adm, and where:
    (beside: the filters, beside_ffmpeg: {filter: metrics_ffmpeg} for those the other
    ffmpeg measures, lacking: those neither has).  beside: the filters wanted (None:
    all of BESIDE); metrics_ffmpeg: another ffmpeg (video.metrics_ffmpeg()) that
    measures, on the scoring ffmpeg's frames, those of them the scoring ffmpeg lacks,
    and those of moved ("all": every one) that it has; the scoring ffmpeg measures
    the others it has."""
    wanted = [f for f in BESIDE if beside is None or f in beside]
    here = set(beside_filters(ffmpeg)[0])
    there = set(metrics_ffmpeg_filters(metrics_ffmpeg)) if metrics_ffmpeg else set()
    unknown = [f for f in moved if f not in BESIDE and f != "all"]
    if unknown:
        raise LadderError("--metrics-ffmpeg-for %s: the filters are %s, or all" % (
            ",".join(map(shown, unknown)), ", ".join(BESIDE)))
    other = {f: metrics_ffmpeg for f in wanted
             if f in there and (f not in here or f in moved or "all" in moved)}
    measured = [f for f in wanted if f in there or f in here]
    return measured, other, [f for f in wanted if f not in measured]


def metrics_ffmpeg_filters(path):
    """The filters of BESIDE another ffmpeg has (video.metrics_ffmpeg); FFmpegError
    where it cannot start."""
    from .video import metrics_ffmpeg
    return metrics_ffmpeg(path)[1]


def default_metric(rows_or_measured):
    """The hull metric where none is asked for: vmaf where it was measured, else adm2."""
    return "vmaf" if "vmaf" in rows_or_measured else "adm2"


def score_ladder(rungs, log_dir=None, ffmpeg=None, scale=DEFAULT_SCALER, progress=None,
                 metric=None, jobs=None, beside=None, beside_ffmpeg=None, cache=None,
                 maps=True, accept_doubtful_pairs=False, **options):
    """Scores every rung against its source (score_video, the rung scaled to the
    source's size by scale) and returns the table's rows, by source, ladder, size and
    bitrate: the rung, its codec, size, frames scored, the bitrate of its whole video
    stream (ffprobe: the stream's packets over its duration) in kbit/s, the scaler and
    float_adm's options given (options_text), whether it lies on its ladder's convex
    hull of bitrate against metric's mean (hull_metric, on_hull; metric None: vmaf
    where it is measured, else adm2), every output's pooled values as OUTPUT_POOL,
    named as the logs name them (adm2_egl_1_mean), and the mean of each metric beside
    (beside: FFmpeg's filters of video.BESIDE; None: those ffmpeg has; beside_ffmpeg:
    {filter: another ffmpeg} measuring some on ffmpeg's frames, score_video) as
    METRIC_mean.  Everything is checked first (check_rungs, and where each log and
    its record would go).  log_dir: each rung's JSON log there (log_paths), with the
    record of what made it beside it, as score --json writes, and with maps=True its
    maps (LABEL.maps.npz, which the report draws); a rung whose log's record says it
    was made from the same files (path, size, modification time), the same options,
    scaler, metrics beside, ffmpeg and library is not scored again but read back (its
    row's "reused").  cache: a directory of scores kept for any run (cache_entry;
    None: none): a rung found there, up to date as a log in log_dir would have to be,
    is copied from it (its row's "reused" and "cached"), one scored is put there.
    jobs: rungs scored at once (None: one per core), each in its own ffmpeg, the same
    bits as one at a time.  progress: a line "rung i/N NAME" on stderr as each is done
    (None: when stderr is a terminal).  accept_doubtful_pairs: a rung whose pairs the
    filter says are in doubt is kept, the doubts in its record (score_video's); by
    default that is a DoubtfulPairsError, and a log or cache entry whose record lists
    doubts is not reused."""
    from .distributed import (_up_to_date, add_results_to_record, job_record, normalise_job,
                              read_record, spec_path)
    from .results import Results, maps_path
    ffmpeg = os.path.abspath(find_ffmpeg(ffmpeg))  # recorded: the same file from anywhere
    _check_labels(rungs)
    beside = sorted(beside_filters(ffmpeg)[0] if beside is None else beside)
    beside_ffmpeg = {f: os.path.abspath(shutil.which(p) or p)  # a name on PATH as its file
                     for f, p in (beside_ffmpeg or {}).items()}
    beside = sorted(set(beside) | set(beside_ffmpeg))
    measured = [m for m in BESIDE_METRICS if any(m in BESIDE[f] for f in beside)]
    metric = metric or default_metric(measured)
    named = metric_name(metric, options)
    if metric in BESIDE_METRICS and metric not in measured:
        raise LadderError("--metric %s: not measured, %s has no %s filter" % (
            shown(metric), shown(ffmpeg), next(f for f in BESIDE if metric in BESIDE[f])))
    given = options_text(options)
    logs = log_paths(rungs, log_dir) if log_dir is not None else [None] * len(rungs)
    for rung, path in zip(rungs, logs):
        if path is not None:
            # The log and its record (write_log), every rung's before the first is scored.
            inputs = [rung["source"], rung["file"]]
            output_target(path, _lib.FLOAT_ADM_OUTPUT_LOG, inputs)
            output_target(spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC, inputs)
            if maps:
                output_target(maps_path(path), _lib.FLOAT_ADM_OUTPUT_MAP, inputs)
    specs = [normalise_job(dict({"reference": rung["source"], "distorted": rung["file"],
                                 "name": "rung", "options": options, "kind": "video",
                                 "ffmpeg": ffmpeg, "scale": scale, "beside": beside},
                                **({"beside_ffmpeg": beside_ffmpeg} if beside_ffmpeg else {})))
             for rung in rungs]

    def whole(spec, path):
        """A log up to date for its rung (_up_to_date: its record the one written with
        it, pairs in doubt accepted now too), with its maps where they are wanted."""
        record = read_record(path)
        return record is not None and "stream" in record and \
            (not maps or os.path.isfile(maps_path(path))) and \
            _up_to_date(spec, path, accept_doubtful_pairs) == []

    done = {}  # rung: (Results, record, reused, from the cache)
    for i, path in enumerate(logs):
        if path is not None and whole(specs[i], path):
            done[i] = (Results.from_json(path), read_record(path), True, False)
        elif cache is not None:
            entry = cache_entry(cache, specs[i])
            if whole(specs[i], entry):
                results = Results.from_json(entry)
                record = read_record(entry)
                if path is not None:
                    _copy_scores(entry, path, record, maps)
                done[i] = (results, record, True, True)
    todo = [i for i in range(len(rungs)) if i not in done]
    streams = check_rungs([rungs[i] for i in todo], ffmpeg) if todo else {}
    names = source_names(rungs)
    told_to, count = _progress_stream(progress), [0]

    def told(i, what):
        count[0] += 1
        if told_to:
            print("rung %d/%d %s %s %s: %s" % (count[0], len(rungs), names[rungs[i]["source"]],
                                               rungs[i]["ladder"], rungs[i]["label"], what),
                  file=told_to, flush=True)
    for i in sorted(done):
        told(i, "from the score cache" if done[i][3] else "reused, its log is up to date")

    def score(i):
        rung, began = rungs[i], time.monotonic()
        record = job_record(specs[i])  # the inputs as they are when scoring begins
        results = score_video(reference=rung["source"], distorted=rung["file"], ffmpeg=ffmpeg,
                              scale=scale, progress=False, beside=beside, stop=stop,
                              beside_ffmpeg=beside_ffmpeg, map=maps,
                              accept_doubtful_pairs=accept_doubtful_pairs, **options)
        add_results_to_record(record, results)
        record["stream"] = streams[rung["file"]]
        for path in (logs[i], cache_entry(cache, specs[i]) if cache is not None else None):
            if path is not None:
                _keep_scores(results, record, path, maps, logs[i] is path)
        return results, record, time.monotonic() - began

    stop = threading.Event()  # a failure or Ctrl-C stops every ffmpeg running
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or default_jobs()) as pool:
        futures = {pool.submit(score, i): i for i in todo}
        try:
            for future in concurrent.futures.as_completed(futures):
                results, record, took = future.result()
                done[futures[future]] = (results, record, False, False)
                told(futures[future], "scored in %.1f s" % took)
        except BaseException:
            stop.set()
            for future in futures:
                future.cancel()
            raise
    rows = []
    for i, rung in enumerate(rungs):
        results, record, reused, cached = done[i]
        stream = record["stream"]
        row = dict(rung, codec=stream["codec"], width=stream["width"],
                   height=stream["height"], frames=len(results.frames),
                   bitrate_kbps=stream["bitrate"] / 1000, scale=scale, options=given,
                   hull_metric=named + "_mean", on_hull=False)
        for name, pooled in results.pooled.items():
            for pool in POOLS:
                row["%s_%s" % (results.feature_names[name], pool)] = pooled[pool]
        for m in measured:
            row[m + "_mean"] = record.get("beside_pooled", {}).get(m, {}).get("mean")
            if row[m + "_mean"] is None:
                row.setdefault("not_taken", {})[m + "_mean"] = _no_mean(record, m)
        if logs[i] is not None:
            row.update(log=logs[i], reused=reused, cached=cached)
        rows.append(row)
    rows.sort(key=lambda r: (names[r["source"]], r["ladder"], r["width"] * r["height"],
                             r["bitrate_kbps"], r["label"]))
    for source in {r["source"] for r in rows}:
        for ladder in {r["ladder"] for r in rows}:
            hull = convex_hull(_points(rows, source, ladder, named))
            for r in rows:
                if r["source"] == source and r["ladder"] == ladder:
                    r["on_hull"] = (r["bitrate_kbps"], r[named + "_mean"]) in hull
    return rows


def _keep_scores(results, record, path, maps, required):
    """A rung's log, record and maps at path (its log, or its score cache entry),
    written by the library as one run's files: they land together, the record keeping
    the log's digest.  A cache entry that cannot be written is said in a warning, and
    the run goes on."""
    from .distributed import begin_log, write_log_and_record
    from .results import maps_path
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with RunFiles() as files:
            files.add_inputs(entry["path"] for entry in record["inputs"].values())
            log, spec = begin_log(files, path, "a rung's log")
            maps_output = files.begin_output(maps_path(path), _lib.FLOAT_ADM_OUTPUT_MAP,
                                             "a rung's maps") if maps else None
            write_log_and_record(results, log, spec, record)
            if maps_output is not None:
                results.save_maps_to(maps_output)
            files.commit()
    except OSError as error:
        if required:
            raise
        warnings.warn("the score cache could not keep a rung (%s): it is scored again "
                      "next time" % error, LadderWarning, stacklevel=2)


def _copy_scores(entry, path, record, maps):
    """A rung's log, record and maps from the score cache (entry), byte for byte (the
    record keeping the log's digest), written by the library as one run's files where
    the output policy lets each go: they land together."""
    from .distributed import spec_path
    from .results import maps_path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with RunFiles() as files:
        files.add_inputs(entry["path"] for entry in record["inputs"].values())
        for source, target, kind, label in (
                (entry, path, _lib.FLOAT_ADM_OUTPUT_LOG, "a rung's log"),
                (spec_path(entry), spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC,
                 "a rung's record"),
                (maps_path(entry), maps_path(path), _lib.FLOAT_ADM_OUTPUT_MAP, "a rung's maps")):
            if kind != _lib.FLOAT_ADM_OUTPUT_MAP or maps:
                with open(source, "rb") as f:
                    files.begin_output(target, kind, label).write(f.read())
        files.commit()


class LadderWarning(UserWarning):
    """Something a ladder goes on without: the score cache could not keep a rung, a
    rung's maps could not be made with the lost detail."""


def _no_mean(record, metric):
    """Why a rung's record holds no mean of a metric beside: the frames where its value
    is not finite."""
    frames = record.get("beside_frames", [])
    bad = [f["frame"] for f in frames if metric in f and f[metric] is None]
    if not bad:
        return "not measured"
    return "%s is not finite in %d of the %d frames scored (the first: frame %d)%s" % (
        metric, len(bad), len(frames), bad[0],
        "; PSNR is infinite where a frame equals its source" if metric.startswith("psnr")
        else "")


def default_jobs():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _progress_stream(progress):
    """stderr where progress is to be shown (None: when it is a terminal), else None."""
    if progress is None:
        progress = sys.stderr.isatty()
    return sys.stderr if progress else None


def options_text(options):
    """float_adm's options given, each by its full name with the value the library
    holds ("adm_enhn_gain_limit=1.0"), ' ' between them; "" for none (libvmaf's
    defaults).  Checked by the library."""
    parts, held = filter_options(options)
    return " ".join("%s=%s" % (name, json.dumps(held[name]))
                    for name in (p.partition("=")[0] for p in parts))


def metric_name(metric, options=None):
    """A metric as the table's columns name it: an output of float_adm as the logs
    name it for the options ("adm2_egl_1" for adm2 with egl=1), a metric beside as it
    is.  One that does not grow with quality: LadderError."""
    check_comparison((), None, None, metric)
    if metric in BESIDE_METRICS:
        return metric
    return feature_names_for([metric], options or {})[metric]


def _rises(metric):
    """Whether a metric (by its name or as the columns name it) grows with quality."""
    return metric in BESIDE_METRICS or plain_name(metric) in QUALITY_OUTPUTS


def _points(rows, source, ladder, metric):
    """(bitrate, metric's mean) of a ladder's rungs of a source that have a finite one."""
    return [(r["bitrate_kbps"], r[metric + "_mean"]) for r in rows
            if r["source"] == source and r["ladder"] == ladder and
            r.get(metric + "_mean") is not None and math.isfinite(r[metric + "_mean"])]


def check_comparison(rungs, anchor, test, metric):
    """Before anything is scored: two different ladders that the rungs have, and a
    metric that grows with quality."""
    if not _rises(metric):
        raise LadderError("--metric %s: the plots and BD figures take a metric that grows "
                          "with quality: %s" % (shown(metric), ", ".join(QUALITY_OUTPUTS +
                                                                  BESIDE_METRICS)))
    if anchor is None:
        return
    names = {r["ladder"] for r in rungs}
    for ladder in (anchor, test):
        if ladder not in names:
            raise LadderError("no ladder %s: the ladders are %s" % (shown(ladder),
                                                                    ", ".join(sorted(names))))
    if anchor == test:
        raise LadderError("--compare %s %s: a ladder against itself" % (shown(anchor),
                                                                       shown(test)))


# The figures of a comparison, as the console, the page and the notes name them.
FIGURES = {"bd_rate_percent": "BD-rate", "bd_quality": "BD-quality"}


def _without_value(rows, source, ladder, metric):
    """The labels of a ladder's rungs of a source that have no finite mean of metric."""
    return [r["label"] for r in rows if r["source"] == source and r["ladder"] == ladder and
            not (r.get(metric + "_mean") is not None and math.isfinite(r[metric + "_mean"]))]


def compare(rows, anchor, test, metric="adm2"):
    """BD-rate (percent) and BD-quality of ladder test against ladder anchor for each
    source both have, each over the two ladders' convex hulls in (bitrate, metric's
    mean), and their means over the sources where each could be taken ("mean_over":
    those sources, by figure).  A figure that cannot be taken (curves that do not
    overlap, a hull of one point) is None, with why in its place's "not_taken"
    ({figure: why}), for a source and for a mean; sources that one ladder lacks are
    listed apart."""
    check_comparison(rows, anchor, test, metric)
    names = source_names(rows)
    per_source, lacking = [], []
    for source in sorted({r["source"] for r in rows}):
        if not all(any(r["source"] == source and r["ladder"] == ladder for r in rows)
                   for ladder in (anchor, test)):
            lacking.append(source)
            continue
        ha = convex_hull(_points(rows, source, anchor, metric))
        ht = convex_hull(_points(rows, source, test, metric))
        label = ("%s (%s)" % (anchor, names[source]), "%s (%s)" % (test, names[source]))
        low, high = (max(ha[0][1], ht[0][1]), min(ha[-1][1], ht[-1][1])) if ha and ht \
            else (0, 0)
        entry = {"source": source, "hull_points": [len(ha), len(ht)],
                 "quality_range": [low, high] if high > low else None,
                 "narrow": high > low and high - low < NARROW * SCALES.get(metric, 1.0)}
        left_out = ["%d rung(s) of %s without a finite %s mean (%s)" % (
            len(labels), ladder, metric, ", ".join(labels))
            for ladder in (anchor, test)
            for labels in [_without_value(rows, source, ladder, metric)] if labels]
        for key, figure, scale in (("bd_rate_percent", bd_rate, 100),
                                   ("bd_quality", bd_quality, 1)):
            try:
                entry[key] = scale * figure(ha, ht, label)
            except LadderError as error:
                entry[key] = None
                entry.setdefault("not_taken", {})[key] = "; ".join(
                    [str(error)] + ["left out: " + text for text in left_out])
        per_source.append(entry)
    result = {"anchor": anchor, "test": test, "metric": metric, "sources": per_source,
              "sources_lacking_a_ladder": lacking, "mean_over": {}}
    for key in FIGURES:
        taken = [s for s in per_source if s[key] is not None]
        result[key] = sum(s[key] for s in taken) / len(taken) if taken else None
        result["mean_over"][key] = [s["source"] for s in taken]
        if not taken:
            result.setdefault("not_taken", {})[key] = (
                "no source has rungs of both ladders" if not per_source else
                "taken for none of the %d source(s) compared" % len(per_source))
    return result


def comparison_pairs(rungs, compares):
    """The (anchor, test) pairs of --compare arguments: each [ANCHOR, TEST], or ["all"]:
    every pair of the rungs' ladders in the order they were given (the manifest's
    lines, the --ladder arguments), the earlier of each pair the anchor; each checked
    (check_comparison), the same pair once."""
    ladders = list(dict.fromkeys(r["ladder"] for r in rungs))
    pairs = []
    for args in compares:
        if list(args) == ["all"]:
            found = [(a, t) for n, a in enumerate(ladders) for t in ladders[n + 1:]]
            if not found:
                raise LadderError("--compare all: one ladder (%s), nothing to compare it with"
                                  % ", ".join(ladders))
        elif len(args) == 2:
            check_comparison(rungs, args[0], args[1], "adm2")
            found = [tuple(args)]
        else:
            raise LadderError("--compare takes ANCHOR TEST, or all, not %s"
                              % " ".join(map(shown, args)))
        pairs += [p for p in found if p not in pairs]
    return pairs


def _means(rows):
    """The metrics whose means the rows hold, as their columns name them (METRIC_mean;
    not METRIC_harmonic_mean, which would read as an output named METRIC_harmonic)."""
    return [c[:-len("_mean")] for c in _columns(rows)
            if c.endswith("_mean") and not c.endswith("_harmonic_mean")]


def bd_metrics(rows, metric):
    """The metrics BD figures are taken by: metric, adm2 and each metric beside that
    the rows have, as the columns name them."""
    named = _means(rows)
    adm2 = [m for m in named if plain_name(m) == "adm2"]
    beside = [m for m in BESIDE_METRICS if m in named and
              any(r.get(m + "_mean") is not None for r in rows)]
    return [metric] + [m for m in adm2 + beside if m != metric]


def not_taken(comparison, rows):
    """Every figure of a comparison (compare_all's) that was not taken, each a line
    that names it and says why: by metric, each source's and the means, then the
    sources that one of the two ladders lacks."""
    names = source_names(rows)
    pair = "%s against %s" % (comparison["test"], comparison["anchor"])
    lines = []
    by_metric = comparison.get("by_metric") or {comparison["metric"]: comparison}
    for m, c in by_metric.items():
        for s in c["sources"]:
            lines += ["%s by %s, %s: %s not taken: %s" % (pair, m, names[s["source"]],
                                                          FIGURES[key], why)
                      for key, why in s.get("not_taken", {}).items()]
        lines += ["%s by %s, mean over the sources: %s not taken: %s" % (pair, m,
                                                                         FIGURES[key], why)
                  for key, why in c.get("not_taken", {}).items()]
    for source in comparison["sources_lacking_a_ladder"]:
        missing = [ladder for ladder in (comparison["anchor"], comparison["test"])
                   if not any(r["source"] == source and r["ladder"] == ladder for r in rows)]
        lines.append("%s, %s: not compared, ladder %s has no rung of it"
                     % (pair, names[source], " and ".join(missing)))
    return lines


def mean_over(figures, key, names):
    """Which sources a mean of figures (a compare()'s, or one metric's of by_metric)
    is over: "2 of 2 sources", "1 of 2 sources: a.y4m, not b.y4m"."""
    compared = [s["source"] for s in figures["sources"]]
    over = figures["mean_over"][key]
    text = "%d of %d source%s" % (len(over), len(compared), "" if len(compared) == 1 else "s")
    if over and len(over) < len(compared):
        text += ": %s, not %s" % (", ".join(names[s] for s in over),
                                  ", ".join(names[s] for s in compared if s not in over))
    return text


def compare_all(rows, pairs, metric):
    """compare() of each pair, by metric, with "by_metric": each of bd_metrics()'s
    BD figures, the sources each mean is over and why a figure was not taken;
    "figures_not_taken": every figure not taken, a line each (not_taken()); and
    "notes": in plain words, where two metrics disagree in the sign of a BD-rate (for
    the means, of the metrics whose means are over every source compared), and where
    a figure rests on a quality range narrower than NARROW of its metric's scale."""
    names = source_names(rows)
    comparisons = []
    for anchor, test in pairs:
        result = compare(rows, anchor, test, metric)
        by_metric = {m: compare(rows, anchor, test, m) for m in bd_metrics(rows, metric)}
        result["by_metric"] = {m: {k: c[k] for k in ("sources", "bd_rate_percent",
                                                     "bd_quality", "mean_over", "not_taken")
                                   if k in c}
                               for m, c in by_metric.items()}
        result["figures_not_taken"] = not_taken(result, rows)
        notes = []
        for m, c in by_metric.items():
            for s in c["sources"]:
                if s["narrow"] and s["quality_range"]:
                    low, high = s["quality_range"]
                    notes.append("%s against %s, %s: the two hulls share %s %.6g..%.6g only, "
                                  "%.1f %% of its scale (%g), under %g %%: the %s BD figures "
                                  "there are not stable" % (
                                      test, anchor, names[s["source"]], m, low, high,
                                      100 * (high - low) / SCALES.get(m, 1.0),
                                      SCALES.get(m, 1.0), 100 * NARROW, m))
        where = [(names[s["source"]], {m: c["sources"][n]["bd_rate_percent"]
                                       for m, c in by_metric.items()})
                 for n, s in enumerate(result["sources"])]
        compared = [s["source"] for s in result["sources"]]
        where.append(("mean over the sources", {
            m: c["bd_rate_percent"] for m, c in by_metric.items()
            if c["mean_over"]["bd_rate_percent"] == compared}))
        for place, rates in where:
            fewer = ["%s %+.2f %%" % (m, v) for m, v in rates.items() if v is not None and v < 0]
            more = ["%s %+.2f %%" % (m, v) for m, v in rates.items() if v is not None and v > 0]
            if fewer and more:
                notes.append("%s against %s, %s: the metrics disagree on which needs fewer "
                             "bits: %s fewer by %s, more by %s" % (
                                 test, anchor, place, test, ", ".join(fewer), ", ".join(more)))
        result["notes"] = notes
        comparisons.append(result)
    return comparisons


def titles(rows, metric=None, rules=None):
    """Per source, per ladder, in the rows' order: the rungs on its convex hull of
    bitrate against metric's mean (None: the rows' hull_metric) in rising bitrate, with
    their bitrate and the metric's value; the recommended ladder (recommend() under
    rules, ladder_rules(metric) unless given): its labels, and each rung's bitrate,
    size and value, the quality step taken and the rules' notes; the rungs off the
    hull; and where each picture size overtakes the next smaller one (crossovers())."""
    metric = metric or _one(rows, "hull_metric")[:-len("_mean")]
    rules = rules or ladder_rules(metric)
    column = metric + "_mean"
    found, points = [], {}
    for r in rows:
        title = next((t for t in found if t["source"] == r["source"]), None)
        if title is None:
            title = {"source": r["source"], "ladders": []}
            found.append(title)
        if not any(d["ladder"] == r["ladder"] for d in title["ladders"]):
            title["ladders"].append({"ladder": r["ladder"]})
        value = r.get(column)
        points.setdefault((r["source"], r["ladder"]), []).append(
            {"label": r["label"], "bitrate_kbps": r["bitrate_kbps"], "width": r["width"],
             "height": r["height"],
             "quality": value if value is not None and math.isfinite(value) else None})
    for title in found:
        for ladder in title["ladders"]:
            mine = points[(title["source"], ladder["ladder"])]
            valued = [p for p in mine if p["quality"] is not None]
            hull = convex_hull([(p["bitrate_kbps"], p["quality"]) for p in valued])
            on = sorted((p for p in valued if (p["bitrate_kbps"], p["quality"]) in hull),
                        key=lambda p: p["bitrate_kbps"])
            chosen = recommend(mine, rules)
            ladder.update(
                hull=[{"label": p["label"], "bitrate_kbps": p["bitrate_kbps"],
                       column: p["quality"]} for p in on],
                recommended=[p["label"] for p in chosen["rungs"]],
                recommended_rungs=[{"label": p["label"], "bitrate_kbps": p["bitrate_kbps"],
                                    "width": p["width"], "height": p["height"],
                                    column: p["quality"]} for p in chosen["rungs"]],
                quality_step=chosen["quality_step"], notes=chosen["notes"],
                off_hull=[p["label"] for p in mine if p not in on],
                crossovers=crossovers(mine))
    return found


# ---- The table, as JSON, CSV and an HTML page with the rate-quality plots ----

def _columns(rows):
    """RUNG_COLUMNS, then the pooled ones of every row, in the order first met."""
    extra = []
    for row in rows:
        extra += [k for k in row if k not in RUNG_COLUMNS and
                  k not in ("log", "reused", "cached", "not_taken") and k not in extra]
    return list(RUNG_COLUMNS) + extra


def table_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = _columns(rows)
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["%.17g" % row[c] if isinstance(row.get(c), float) else
                         shown(row[c]) if c in ("source", "file") else row.get(c)
                         for c in columns])
    return out.getvalue()


def _one(rows, key):
    """What every row says of key (scale, options, hull_metric): rows scored otherwise
    make no one table."""
    values = {r.get(key) for r in rows}
    if len(values) > 1:
        raise LadderError("rows of different %s (%s) make no one table" % (
            key, ", ".join(sorted(map(repr, values)))))
    return values.pop() if values else None


def table_json(rows, comparisons, rules=None):
    """The table as JSON; "float_adm_table": 1 comes first, as the output policy knows
    the project's tables by it.  Then how the rungs were scored (the scaler, float_adm's
    options given) and judged (hull_metric, recommended_rule, the rules and their
    parameters: ladder_rules()), the rungs, each title's hulls, recommended ladders and
    crossover sizes by the hull metric (titles()) and by every metric of the page
    (titles_by_metric, under view_rules()), and the comparisons."""
    def finite(value):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: finite(v) for k, v in value.items()}
        if isinstance(value, list):
            return [finite(v) for v in value]
        return value

    metric = _one(rows, "hull_metric")[:-len("_mean")]
    rules = rules or ladder_rules(metric)
    return json.dumps(finite({
        "float_adm_table": 1, "scale": _one(rows, "scale"), "options": _one(rows, "options"),
        "hull_metric": _one(rows, "hull_metric"), "recommended_rule": RECOMMENDED_RULE,
        "ladder_rules": rules, "rungs": rows, "titles": titles(rows, metric, rules),
        "titles_by_metric": {m: titles(rows, m, view_rules(m, rules))
                             for m in bd_metrics(rows, metric)},
        "comparisons": comparisons}), indent=2, allow_nan=False) + "\n"


_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def _log_ticks(low, high):
    """Round rates between 10**low and 10**high: decades, or 1-2-5, 1-2-3-5, every digit
    or every half digit of them, whichever puts nearest five (two to eight) on the
    axis; else the two ends to three digits."""
    def inside(steps):
        return [m * 10.0**k for k in range(math.floor(low), math.ceil(high) + 1)
                for m in steps if low - 1e-9 <= math.log10(m * 10.0**k) <= high + 1e-9]

    best = []
    for steps in ((1,), (1, 2, 5), (1, 2, 3, 5), range(1, 10), [m / 2 for m in range(2, 20)]):
        ticks = inside(steps)
        if 2 <= len(ticks) <= 8 and (not best or abs(len(ticks) - 5) < abs(len(best) - 5)):
            best = ticks
    return best or [float("%.3g" % 10**low), float("%.3g" % 10**high)]


def _rate_text(rate):
    return "%d" % rate if rate >= 1 and rate == int(rate) else "%.3g" % rate


# The plot spans the page's width at a height that follows it (table_html's style);
# inside, its coordinates are percentages, so that its text keeps its size at any
# width.  Labels and ticks are placed for the plot areas (width, height in pixels) of
# pages 360 (a phone), 700 and 1200 pixels wide less a scroll bar; each is drawn from
# the narrowest of them where it overlaps nothing drawn there (classes t1, t2 hide it
# below 700 and 1200 pixels).
_TIERS = ((252, 240), (577, 252), (1077, 432))
_TIER_CSS = ("@media (max-width:1199px){.t2{display:none}}"
             "@media (max-width:699px){.t1{display:none}}"
             ".unl{display:none;color:#555;font-size:12px;margin:-16px 16px 16px 60px}"
             "@media (max-width:699px){.unl.w0{display:block}}"
             "@media (min-width:700px) and (max-width:1199px){.unl.w1{display:block}}"
             "@media (min-width:1200px){.unl.w2{display:block}}")
_FONT = 12
# A character of the page's sans-serif at _FONT pixels, a little over its width.  A
# browser's box of a text spans the font's ascent above the baseline and its descent
# below, whatever the glyphs (DejaVu Sans at _FONT pixels: 11 and 3).
_CHAR = 0.64 * _FONT
_ASCENT = 0.95 * _FONT
_DESCENT = 0.25 * _FONT


def _text_box(x, y, text, anchor, dx, dy):
    """The box (left, top, right, bottom) of text whose baseline starts (anchor "start"),
    ends ("end") or centres ("middle") at (x + dx, y + dy)."""
    width = len(text) * _CHAR
    left = x + dx - {"start": 0, "middle": width / 2, "end": width}[anchor]
    return (left, y + dy - _ASCENT, left + width, y + dy + _DESCENT)


def _overlaps(a, b, gap=2):
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _crosses(box, segment, size):
    """Whether a line between two points (in percent) passes through box (pixels)."""
    (x0, y0), (x1, y1) = [(x * size[0] / 100, y * size[1] / 100) for x, y in segment]
    steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / 3))
    return any(box[0] <= x0 + (x1 - x0) * k / steps <= box[2] and
               box[1] <= y0 + (y1 - y0) * k / steps <= box[3] for k in range(steps + 1))


# Where a point's label may go: (dx, dy, text-anchor), in the order tried: a point on
# a hull (which rises and bends down) has room above it and to its left, a point off
# the hulls below it and to its right; then the same a line further off.  dy is the
# baseline's: a label below its point clears the point's marker and margin (7 pixels)
# by its ascent.
_ABOVE = ((-5, -10, "end"), (-7, 4, "end"), (0, -11, "middle"), (5, -10, "start"))
_BELOW = ((5, 19, "start"), (7, 4, "start"), (0, 20, "middle"), (-5, 19, "end"))
_FURTHER = ((0, -24, "middle"), (0, 33, "middle"), (-9, -22, "end"), (9, 31, "start"),
            (-9, 31, "end"), (9, -22, "start"))


def _place_labels(points, segments, obstacles=()):
    """For each point (x %, y %, text, on a hull), (dx, dy, anchor, tier) of its label,
    or None where no place near it is free on the widest plot.  Placed there first,
    in the points' order: the first place tried that lies inside the plot, overlaps no
    label, point or obstacle (x %, y %: a marker of the same size as a point) and
    crosses no curve (segments: pairs of points in percent); then each label is drawn
    from the narrowest width where it overlaps nothing drawn there.  A label never lies
    on a curve; one not drawn at some width is the caller's to list (_unlabelled)."""
    def boxes(x, y, text, place):
        dx, dy, anchor = place
        return [_text_box(x * w / 100, y * h / 100, text, anchor, dx, dy) for w, h in _TIERS]

    dots = [[(x * w / 100 - 5, y * h / 100 - 5, x * w / 100 + 5, y * h / 100 + 5)
             for x, y in [(p[0], p[1]) for p in points] + list(obstacles)] for w, h in _TIERS]

    def clear(box, t, drawn):
        w, h = _TIERS[t]
        return box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h and \
            not any(_overlaps(box, o) for o in dots[t] + drawn) and \
            not any(_crosses(box, s, _TIERS[t]) for s in segments)

    wide = len(_TIERS) - 1
    chosen, drawn = [], []
    for x, y, text, on_hull in points:
        place = next((p for p in (_ABOVE + _BELOW if on_hull else _BELOW + _ABOVE) + _FURTHER
                      if clear(boxes(x, y, text, p)[wide], wide, drawn)), None)
        chosen.append(place)
        if place is not None:
            drawn.append(boxes(x, y, text, place)[wide])
    shown = [[] for _ in _TIERS]  # the label boxes each width draws
    placed = []
    for (x, y, text, _), place in zip(points, chosen):
        if place is None:
            placed.append(None)
            continue
        box = boxes(x, y, text, place)
        tier = next(t for t in range(len(_TIERS))
                    if all(clear(box[u], u, shown[u]) for u in range(t, len(_TIERS))))
        for u in range(tier, len(_TIERS)):
            shown[u].append(box[u])
        placed.append((*place, tier))
    return placed


def _unlabelled(marks, places):
    """The rungs whose labels a plot does not draw, listed under it (folded) for each
    range of widths where some are missing (the classes w0, w1, w2 show each list only
    there): every rung is named on the plot or beside it, at any width."""
    out = []
    for tier in range(len(_TIERS)):
        missing = [r for (r, *_), place in zip(marks, places)
                   if place is None or place[3] > tier]
        if missing:
            out.append('<details class="unl w%d"><summary>%d rung%s not labelled on the plot '
                       'at this width (no room beside the point; each label on hover)'
                       '</summary>%s</details>' % (
                           tier, len(missing), "" if len(missing) == 1 else "s", "; ".join(
                               "%s %s, %.0f kbit/s" % (html.escape(r["ladder"]),
                                                       html.escape(r["label"]),
                                                       r["bitrate_kbps"])
                               for r in missing)))
    return "".join(out)


def _roundness(rate):
    """0 for a decade, 1 for 2 and 5 times one, 2 for 3 times one, 3 for the others."""
    mantissa = round(rate / 10 ** math.floor(math.log10(rate)), 3)
    return {1.0: 0, 2.0: 1, 5.0: 1, 3.0: 2}.get(mantissa, 3)


def _tick_tiers(rates, xs):
    """The tier of each rate tick at x (percent), None where it is drawn at no width:
    rounder rates first, each at the narrowest width where its label keeps 8 pixels
    from those drawn there ("900" and "1000" side by side on a phone: 1000 alone)."""
    shown = [[] for _ in _TIERS]
    tiers = [None] * len(rates)
    for i in sorted(range(len(rates)), key=lambda i: (_roundness(rates[i]), i)):
        boxes = [_text_box(xs[i] * size[0] / 100, 0, _rate_text(rates[i]), "middle", 0, 0)
                 for size in _TIERS]
        fits = [not any(_overlaps(boxes[t], o, 8) for o in shown[t]) for t in range(len(_TIERS))]
        if fits[-1]:
            tiers[i] = next(t for t in range(len(_TIERS)) if all(fits[t:]))
            for t in range(tiers[i], len(_TIERS)):
                shown[t].append(boxes[t])
    return tiers


def _tier_class(tier):
    return ' class="t%d"' % tier if tier else ""


def _value(row, metric):
    """A row's finite mean of metric, else None."""
    value = row.get(metric + "_mean")
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def _plot(rows, source, metric, crossings=None, marker="xo", chosen=()):
    """A rate-quality plot of one source at the page's width: a curve per ladder
    through its convex hull, every rung a point (hollow where it is off the hull)
    labelled where its label fits off the curves (_place_labels; every label, bitrate
    and score on hover, and the rungs not labelled listed under the plot), where each
    picture size overtakes the next smaller one a diamond on its ladder's curve
    (crossings: {ladder: crossovers()}; marker: the diamond's id, one per plot), the
    rungs of the recommended ladders (chosen: (ladder, label) pairs) ringed thick, rate
    on a log axis, both axes with round ticks."""
    rungs = [r for r in rows if r["source"] == source and r["bitrate_kbps"] > 0 and
             math.isfinite(r["bitrate_kbps"]) and _value(r, metric) is not None]
    if not rungs:
        return "<p>No rung of this source has a bitrate and a %s to plot.</p>" % (
            html.escape(metric))
    ladders = sorted({r["ladder"] for r in rungs})
    lr = [math.log10(r["bitrate_kbps"]) for r in rungs]
    if max(lr) > min(lr):
        x0, x1 = min(lr) - 0.03 * (max(lr) - min(lr)), max(lr) + 0.03 * (max(lr) - min(lr))
    else:  # one bitrate: in the middle of a decade
        x0, x1 = lr[0] - 0.5, lr[0] + 0.5
    y_ticks = _nice_ticks(min(_value(r, metric) for r in rungs),
                          max(_value(r, metric) for r in rungs))
    y0, y1 = y_ticks[0], y_ticks[-1]

    def xy(rate, q):  # percent of the plot's width and height
        return ((math.log10(rate) - x0) / (x1 - x0) * 100, (y1 - q) / (y1 - y0) * 100)

    e = html.escape
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="%s against '
             'bitrate"><defs><path id="%s" d="M0 -6L6 0L0 6L-6 0Z"/></defs>'
             % (e(metric), e(marker))]
    rates = _log_ticks(x0, x1)
    xs = [xy(t, y0)[0] for t in rates]
    for t, x, tier in zip(rates, xs, _tick_tiers(rates, xs)):
        if tier is not None:
            parts.append('<g%s><line x1="%.2f%%" y1="0" x2="%.2f%%" y2="100%%" class="grid"/>'
                         '<text x="%.2f%%" y="100%%" dy="16" text-anchor="middle">%s</text></g>'
                         % (_tier_class(tier), x, x, x, _rate_text(t)))
    for t in y_ticks:
        y = xy(10**x0, t)[1]
        parts.append('<line x1="0" y1="%.2f%%" x2="100%%" y2="%.2f%%" class="grid"/>'
                     '<text x="0" dx="-6" y="%.2f%%" dy="4" text-anchor="end">%s</text>'
                     % (y, y, y, _tick_text(t, y_ticks)))
    parts.append('<rect width="100%" height="100%" fill="none" stroke="#999"/>')
    hulls = {}
    for i, ladder in enumerate(ladders):
        hulls[ladder] = convex_hull([(r["bitrate_kbps"], _value(r, metric)) for r in rungs
                                     if r["ladder"] == ladder])
        for a, b in zip(hulls[ladder], hulls[ladder][1:]):
            parts.append('<line x1="%.2f%%" y1="%.2f%%" x2="%.2f%%" y2="%.2f%%" stroke="%s" '
                         'stroke-width="2" stroke-linecap="round"/>'
                         % (*xy(*a), *xy(*b), _COLOURS[i % len(_COLOURS)]))
    diamonds = []
    for ladder, found in sorted((crossings or {}).items()):
        if ladder not in ladders:
            continue
        for c in found:
            if c["bitrate_kbps"] is not None and x0 <= math.log10(c["bitrate_kbps"]) <= x1 \
                    and y0 <= c["quality"] <= y1:
                x, y = xy(c["bitrate_kbps"], c["quality"])
                diamonds.append((x, y))
                parts.append('<use href="#%s" x="%.2f%%" y="%.2f%%" fill="%s" class="xo">'
                             '<title>%s: %s overtakes %s at %.0f kbit/s</title></use>'
                             % (e(marker), x, y, _COLOURS[ladders.index(ladder) %
                                                          len(_COLOURS)],
                                e(ladder), e(c["to"]), e(c["from"]), c["bitrate_kbps"]))
    # Labels of the rungs worth encoding first, then the others, each ladder's by rate.
    marks = []
    for r in sorted(rungs, key=lambda r: ((r["bitrate_kbps"], _value(r, metric)) not in
                                          hulls[r["ladder"]], ladders.index(r["ladder"]),
                                          r["bitrate_kbps"])):
        point = (r["bitrate_kbps"], _value(r, metric))
        marks.append((r, point, _COLOURS[ladders.index(r["ladder"]) % len(_COLOURS)],
                      *xy(*point)))
    segments = [(xy(*a), xy(*b)) for hull in hulls.values() for a, b in zip(hull, hull[1:])]
    places = _place_labels([(x, y, r["label"], point in hulls[r["ladder"]])
                            for r, point, _, x, y in marks], segments, diamonds)
    for (r, _, colour, x, y), place in zip(marks, places):
        if place is not None:
            dx, dy, anchor, tier = place
            parts.append('<text class="pl%s" x="%.2f%%" y="%.2f%%" dx="%d" dy="%d" '
                         'text-anchor="%s" fill="%s">%s</text>'
                         % (" t%d" % tier if tier else "", x, y, dx, dy, anchor, colour,
                            e(r["label"])))
    for r, point, colour, x, y in marks:
        ringed = (r["ladder"], r["label"]) in chosen
        parts.append('<circle cx="%.2f%%" cy="%.2f%%" r="%s" stroke="%s" fill="%s">'
                     '<title>%s: %.0f kbit/s, %s %.5f%s</title></circle>'
                     % (x, y, '5" stroke-width="3' if ringed else "4", colour,
                        colour if point in hulls[r["ladder"]] else "white",
                        e(r["label"]), point[0], e(metric), point[1],
                        ", recommended" if ringed else ""))
    parts.append("</svg>")
    keys = "".join('<li><span class="sw" style="background:%s"></span><span>%s</span></li>'
                   % (_COLOURS[i % len(_COLOURS)], _wrap_name(ladder))
                   for i, ladder in enumerate(ladders))
    return ('<figure class="rq"><ul class="keys">%s<li>filled: on the hull; hollow: off it'
            '%s%s</li></ul><div class="axis">%s mean</div><div class="plot">%s</div>'
            '<div class="axis x">bitrate, kbit/s (log scale)</div></figure>%s'
            % (keys, "; ringed thick: in the recommended ladder" if chosen else "",
               "; &#9670;: a picture size overtakes the next smaller one" if diamonds
               else "", e(metric), "\n".join(parts), _unlabelled(marks, places)))


def view_rules(metric, rules):
    """The rules of another metric's view, from those of the hull metric: the same rate
    ratio and count of rungs, the metric's own quality step."""
    if rules is None or rules["metric"] == metric:
        return rules or ladder_rules(metric)
    return ladder_rules(metric, rules["min_rate_ratio"], rungs=rules["rungs"])


def rules_text(rules):
    """The rules of a recommended ladder, in a line."""
    if rules["rungs"] is not None:
        spacing = "%d rungs, as far apart in %s as the other rules let them" % (
            rules["rungs"], rules["metric"])
    elif rules["quality_step"]:
        spacing = "at least %g of %s apart (%s)" % (rules["quality_step"], rules["metric"],
                                                    rules["quality_step_from"])
    else:
        spacing = "no quality step (%s)" % rules["quality_step_from"]
    return ("from the floor (%s) up: picture size never falls as bitrate rises; each rung "
            "at least %g times the bitrate of the one below (%s); %s; each the one of these "
            "that adds the most quality for each bit added; up to where no rung is a step "
            "better" % (rules["floor"], rules["min_rate_ratio"], rules["min_rate_ratio_from"],
                         spacing))


def report_path(log):
    """Where a rung's report (per-frame charts, worst frames and maps) lies: beside
    its log, LABEL.html."""
    return log[:-len(".json")] + ".html" if log.endswith(".json") else log + ".html"


_SCRIPT = """<script>
(function () {
  var pick = document.getElementById('metric');
  function show() {
    document.querySelectorAll('section.view').forEach(function (v) {
      v.hidden = v.getAttribute('data-metric') !== pick.value;
    });
    try { history.replaceState(null, '', '#' + pick.value); } catch (e) {}
  }
  var asked = decodeURIComponent(location.hash.slice(1));
  for (var i = 0; i < pick.options.length; i++)
    if (pick.options[i].value === asked) pick.value = asked;
  pick.addEventListener('change', show);
  show();
})();
</script>"""


def table_html(rows, comparisons, metric, scale, directory=".", rules=None):
    """A self-contained page: a view per metric (metric's first; a menu switches
    between them, no request made): each title's recommended ladders under their rules
    (view_rules), its crossover sizes, a rate-quality plot and the rungs' table by that
    metric, and the BD figures by it where two ladders were compared.  Each rung's
    label links its report (report_path: per-frame charts, worst frames and maps)
    where one lies beside its log, and its log; links are relative to directory, where
    the page goes."""
    e = html.escape
    names = source_names(rows)
    means = _means(rows)
    aim = next((m for m in means if plain_name(m) == "aim"), "aim") + "_mean"
    beside = [m for m in BESIDE_METRICS if m in means]
    metrics = bd_metrics(rows, metric)

    def link(path, text):
        target = os.path.relpath(os.path.abspath(path), os.path.abspath(directory))
        return '<a href="%s">%s</a>' % (e(url_path(target)), text)

    def rung(r):
        if not r.get("log"):
            return e(r["label"])
        report = report_path(r["log"])
        return (link(report, e(r["label"])) if os.path.isfile(report) else e(r["label"])) + \
            " (%s)" % link(r["log"], "log")

    out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
           '<meta name="generator" content="float_adm report">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>float_adm ladder</title><style>body{font:14px sans-serif;margin:0 auto;"
           "padding:16px;max-width:1600px}figure.rq{margin:8px 0 16px}"
           ".keys{display:flex;flex-wrap:wrap;gap:4px 18px;list-style:none;margin:0 0 6px;"
           "padding:0}.keys li{display:flex;align-items:center;gap:6px;min-width:0}"
           ".sw{flex:none;width:18px;height:4px;border-radius:2px}.axis{color:#555}"
           ".axis.x{margin-left:60px;text-align:center}"
           # The plot's margins hold its tick labels (_TIERS counts on them).
           ".plot{margin:8px 16px 24px 60px;height:clamp(240px,36vw,480px)}"
           ".plot svg{display:block;width:100%;height:100%;overflow:visible;font-size:12px}"
           ".plot .grid{stroke:#ddd}.xo{stroke:#000;stroke-width:1}" + _TIER_CSS +
           ".scroll{overflow-x:auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;"
           "white-space:nowrap}td.t,th.t{text-align:left}td.w{white-space:normal;"
           "min-width:14em}.err{color:#b00}.pick{position:sticky;top:0;background:#fff;"
           "padding:6px 0;border-bottom:1px solid #ccc;z-index:1}"
           ".pick select{font:inherit}</style></head><body>",
           "<h1>Encoding ladder</h1>",
           "<p>Each rung scored against its source, scaled to the source's size with "
           "%s, float_adm's options: %s; bitrate: the rung's whole video stream. Curves "
           "join each ladder's convex hull; hollow points lie off it.</p>"
           % (e(str(scale)), e(_one(rows, "options") or "libvmaf's defaults")),
           '<p class="pick"><label>Metric of the hulls, ladders and plots: <select '
           'id="metric">%s</select></label></p>' % "".join(
               '<option value="%s"%s>%s</option>' % (e(m), " selected" if m == metric else "",
                                                    e(m)) for m in metrics)]

    def taken(place, key, text):
        """A figure's cell: its value, else "not taken" with why on hover."""
        if place.get(key) is not None:
            return "<td>%s</td>" % (text % place[key])
        why = place.get("not_taken", {}).get(key, "")
        return '<td class=err title="%s">not taken</td>' % e(why)

    for n, m in enumerate(metrics):
        rules_m = view_rules(m, rules)
        found = titles(rows, m, rules_m)
        out.append('<section class="view" data-metric="%s"%s>' % (
            e(m), "" if m == metric else " hidden"))
        out.append("<h2>By %s</h2><p>Recommended ladders: %s.</p>" % (
            e(m), e(rules_text(rules_m))))
        for t, title in enumerate(found):
            source = title["source"]
            chosen = {(source, d["ladder"], label) for d in title["ladders"]
                      for label in d["recommended"]}
            out.append("<h3>%s</h3>" % _wrap_name(names[source]))
            out.append("<div class=scroll><table><tr><th class=t>ladder</th><th class=t>"
                       "recommended ladder, by %s</th><th class=t>picture size overtakes the "
                       "next smaller one</th></tr>%s</table></div>" % (e(m), "".join(
                           "<tr><td class=t>%s</td><td class='t w'>%s%s</td>"
                           "<td class='t w'>%s</td></tr>" % (
                               e(d["ladder"]), e(", ".join(
                                   "%s (%dx%d, %.0f kbit/s, %.4g)" % (
                                       p["label"], p["width"], p["height"], p["bitrate_kbps"],
                                       p[m + "_mean"]) for p in d["recommended_rungs"])
                                   or "none"),
                               "".join("<br>%s" % e(note) for note in d["notes"]),
                               e("; ".join(
                                   "%s over %s at %.0f kbit/s" % (
                                       c["to"], c["from"], c["bitrate_kbps"])
                                   if c["bitrate_kbps"] is not None else
                                   "%s over %s: none, %s" % (c["to"], c["from"], c["why"])
                                   for c in d["crossovers"]) or "one picture size"))
                           for d in title["ladders"])))
            out.append(_plot(rows, source, m,
                             {d["ladder"]: d["crossovers"] for d in title["ladders"]},
                             "xo%d_%d" % (n, t), {pair[1:] for pair in chosen}))
            out.append('<div class=scroll><table><tr><th class=t>ladder</th><th class=t>rung'
                       "</th><th class=t>codec</th><th>size</th><th>frames</th><th>kbit/s</th>"
                       "<th>%s mean</th><th>%s</th>%s<th>on hull</th><th>recommended</th></tr>"
                       % (e(m), e(aim.replace("_mean", " mean")),
                          "".join("<th>%s mean</th>" % e(b) for b in beside if b != m)))
            hull = {(d["ladder"], p["label"]) for d in title["ladders"] for p in d["hull"]}
            for r in (r for r in rows if r["source"] == source):  # score_ladder's order
                out.append("<tr><td class=t>%s</td><td class=t>%s</td><td class=t>%s</td>"
                           "<td>%d×%d</td><td>%d</td><td>%.1f</td>%s<td>%.5f</td>%s"
                           "<td>%s</td><td>%s</td></tr>"
                           % (e(r["ladder"]), rung(r), e(str(r["codec"])), r["width"],
                              r["height"], r["frames"], r["bitrate_kbps"],
                              taken(r, m + "_mean", "%.5f"), r.get(aim, float("nan")),
                              "".join(taken(r, b + "_mean", "%.4f") for b in beside if b != m),
                              "yes" if (r["ladder"], r["label"]) in hull else "",
                              "yes" if (source, r["ladder"], r["label"]) in chosen else ""))
            out.append("</table></div>")
            for r in (r for r in rows if r["source"] == source):
                for column, why in r.get("not_taken", {}).items():
                    out.append("<p>%s, %s: %s not taken: %s.</p>" % (
                        e(r["ladder"]), e(r["label"]), e(column.replace("_mean", " mean")),
                        e(why)))
        for comparison in comparisons or ():
            c = comparison.get("by_metric", {}).get(m)
            if c is None:
                continue
            out.append("<h3>BD figures by %s, %s against %s</h3><div class=scroll><table>"
                       "<tr><th class=t>source</th><th>BD-rate</th><th>BD-%s</th>"
                       "<th>hull points</th></tr>"
                       % (e(m), e(comparison["test"]), e(comparison["anchor"]), e(m)))
            for s in c["sources"]:
                out.append("<tr><td class=t>%s</td>%s%s<td>%d, %d</td></tr>"
                           % (e(names[s["source"]]), taken(s, "bd_rate_percent", "%+.2f %%"),
                              taken(s, "bd_quality", "%+.5g"), *s["hull_points"]))
            out.append("<tr><th class=t>mean</th>%s%s<th></th></tr>"
                       "<tr><td class=t>mean over</td><td>%s</td><td>%s</td><td></td></tr>"
                       "</table></div>"
                       % (taken(c, "bd_rate_percent", "%+.2f %%"),
                          taken(c, "bd_quality", "%+.5g"),
                          e(mean_over(c, "bd_rate_percent", names)),
                          e(mean_over(c, "bd_quality", names))))
        out.append("</section>")
    for comparison in comparisons or ():
        out.append("<h2>BD-rate of %s against %s, by each metric</h2><div class=scroll><table>"
                   "<tr><th class=t>metric</th><th>BD-rate, mean</th><th class=t>over</th>"
                   "<th>BD-quality, mean</th><th class=t>over</th></tr>%s</table></div>" % (
                       e(comparison["test"]), e(comparison["anchor"]), "".join(
                           "<tr><td class=t>%s</td>%s<td class=t>%s</td>%s<td class=t>%s</td>"
                           "</tr>" % (e(m), taken(c, "bd_rate_percent", "%+.2f %%"),
                                      e(mean_over(c, "bd_rate_percent", names)),
                                      taken(c, "bd_quality", "%+.5g"),
                                      e(mean_over(c, "bd_quality", names)))
                           for m, c in comparison.get("by_metric", {}).items())))
        for line in not_taken(comparison, rows):
            out.append("<p class=err>%s</p>" % e(line))
        for note in comparison.get("notes", ()):
            out.append("<p>Note: %s.</p>" % e(note))
    out.append(_SCRIPT)
    out.append("</body></html>\n")
    return "\n".join(out)


TABLES = (("ladder.json", _lib.FLOAT_ADM_OUTPUT_TABLE), ("ladder.csv", _lib.FLOAT_ADM_OUTPUT_TABLE),
          ("ladder.html", _lib.FLOAT_ADM_OUTPUT_REPORT))


def check_outputs(directory, rungs, manifest=None, log_dir=None):
    """Every file the ladder reads (its manifest, sources and rungs) and writes (each
    rung's log and record under log_dir, the three tables in directory), told to the
    library as one run's (RunFiles) before anything is scored or written: refused
    (OutputRefused) where an output would be an input under any name, another
    output's file, or a file that is not the project's.  Returns the inputs' paths."""
    from .distributed import spec_path
    from .results import maps_path
    files = RunFiles()
    if manifest is not None:
        files.add_input(manifest, "the manifest")
    inputs = sorted({r["source"] for r in rungs} | {r["file"] for r in rungs})
    for path in inputs:
        if os.path.exists(path):  # ffmpeg may read what is no file here
            files.add_input(path)
    for path in log_paths(rungs, log_dir) if log_dir is not None else ():
        files.add_output(path, _lib.FLOAT_ADM_OUTPUT_LOG, "a rung's log")
        files.add_output(spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC, "a rung's record")
        files.add_output(maps_path(path), _lib.FLOAT_ADM_OUTPUT_MAP, "a rung's maps")
        files.add_output(report_path(path), _lib.FLOAT_ADM_OUTPUT_REPORT, "a rung's report")
    for name, kind in TABLES:
        files.add_output(os.path.join(directory, name), kind, "the ladder's table")
    return inputs


def write_tables(directory, rows, comparisons=(), metric=None, scale=None, rules=None):
    """ladder.json, ladder.csv and ladder.html in directory, each where the output
    policy lets it go (no input of the run, nothing that is not the project's), all
    three checked before the first is written.  rows: score_ladder's, all scored
    alike (one scaler, the same options, one hull metric); comparisons: compare_all's
    (or one compare()).  metric, scale: the rows' unless given; rules: the recommended
    ladders' (ladder_rules(metric) unless given)."""
    if isinstance(comparisons, dict):
        comparisons = [comparisons]
    comparisons = list(comparisons or ())
    metric = metric or _one(rows, "hull_metric")[:-len("_mean")]
    scale = scale or _one(rows, "scale")
    inputs = check_outputs(directory, rows)
    paths = {name: os.path.join(directory, name) for name, _ in TABLES}
    # All three made before the first is written: none is left beside an earlier run's.
    data = {"ladder.json": table_json(rows, comparisons, rules).encode(),
            "ladder.csv": table_csv(rows).encode(),
            "ladder.html": table_html(rows, comparisons, metric, scale, directory,
                                      rules).encode()}
    for name, kind in TABLES:
        write_output(paths[name], kind, data[name], inputs)
    return paths


def write_reports(rows, progress=None, metric=None):
    """Each rung's report beside its log (report_path): its per-frame charts of every
    metric, its worst frames, and where its maps lie beside the log, the frames with
    their maps (report.write_report).  The rungs on a hull (hull_rungs: of any metric
    the page shows) have their maps made again by the library first (share_maps), so
    that their reports show each block's share of the frame's lost detail too.  One up
    to date (newer than its log, record and maps) is left as it is.  Returns the
    reports written."""
    from .distributed import spec_path
    from .report import write_report
    from .results import maps_path
    names = source_names(rows)
    chosen = hull_rungs(rows, metric)
    written = []
    for r in rows:
        if not r.get("log"):
            continue
        if (r["source"], r["ladder"], r["label"]) in chosen:
            try:
                share_maps(r)
            except (FFmpegError, OSError, ValueError) as error:
                warnings.warn("%s, %s: its maps with the lost detail could not be made (%s): "
                              "its report shows the loss in each block alone"
                              % (r["ladder"], r["label"], error), LadderWarning, stacklevel=2)
        report = report_path(r["log"])
        made = [os.stat(p).st_mtime_ns for p in (r["log"], spec_path(r["log"]),
                                                 maps_path(r["log"])) if os.path.exists(p)]
        if os.path.exists(report) and os.stat(report).st_mtime_ns > max(made):
            continue
        write_report([r["log"]], report, title="%s, %s, %s" % (
            names[r["source"]], r["ladder"], r["label"]), labels=[r["label"]],
            progress=progress)
        written.append(report)
    return written


def hull_rungs(rows, metric=None):
    """(source, ladder, label) of every rung on a convex hull by any metric the page
    shows (bd_metrics: metric, the rows' hull metric unless given, first), the
    recommended ladders' rungs among them (the rules pick from a hull, not make one)."""
    metric = metric or _one(rows, "hull_metric")[:-len("_mean")]
    return {(t["source"], d["ladder"], p["label"]) for m in bd_metrics(rows, metric)
            for t in titles(rows, m) for d in t["ladders"] for p in d["hull"]}


def share_maps(row):
    """A rung's maps with each block's lost detail (Results.lost: the share view of
    its report), where its maps file keeps the loss alone (the filter's): the frames
    float_adm scored, handed over as y4m (video.frames_as_scored, checked to be its
    pairs), scored by the library with maps; kept only where every frame's scores are
    the log's, bit for bit, else a warning says why and the maps stay as they were.
    Returns whether the maps keep the lost detail."""
    from . import score_files
    from .distributed import read_record
    from .results import Results, maps_path
    from .video import frames_as_scored, remove_stale_work_dirs, work_directory
    path = maps_path(row["log"])
    if not os.path.isfile(path):
        return False
    if Results.load_lost(path) is not None:
        return True
    record = read_record(row["log"]) or {}
    logged = Results.from_json(row["log"])
    remove_stale_work_dirs()
    with work_directory() as work:
        reference, distorted = frames_as_scored(
            row["source"], row["file"], work, record.get("settings", {}).get("ffmpeg"),
            row["scale"])
        results = score_files(reference=reference, distorted=distorted, map=True,
                              progress=False, **record.get("options", {}))
    if [{k: v for k, v in f.items() if k != "timestamp"} for f in logged.frames] != \
            results.frames:
        warnings.warn("%s, %s: the library's scores of the frames handed over are not the "
                      "log's: its report shows the loss in each block alone"
                      % (row["ladder"], row["label"]), LadderWarning, stacklevel=2)
        return False
    results.save_maps(path, [row["source"], row["file"]])
    return True
