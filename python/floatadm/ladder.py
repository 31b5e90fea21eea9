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
import html
import io
import json
import math
import os
import sys
import threading
import time

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

RECOMMENDED_RULE = ("a ladder's recommended rungs for a title are those on its upper convex "
                    "hull of bitrate against hull_metric, in rising bitrate: each gives more "
                    "quality than every cheaper rung of the ladder, and no mix of two other "
                    "rungs gives more for the same bits; the rungs off the hull are left out")


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


def score_ladder(rungs, log_dir=None, ffmpeg=None, scale=DEFAULT_SCALER, progress=None,
                 metric="adm2", jobs=None, beside=None, accept_doubtful_pairs=False,
                 **options):
    """Scores every rung against its source (score_video, the rung scaled to the
    source's size by scale) and returns the table's rows, by source, ladder, size and
    bitrate: the rung, its codec, size, frames scored, the bitrate of its whole video
    stream (ffprobe: the stream's packets over its duration) in kbit/s, the scaler and
    float_adm's options given (options_text), whether it lies on its ladder's convex
    hull of bitrate against metric's mean (hull_metric, on_hull), every output's pooled
    values as OUTPUT_POOL, named as the logs name them (adm2_egl_1_mean), and the mean
    of each metric beside (beside: FFmpeg's filters of video.BESIDE; None: those ffmpeg
    has) as METRIC_mean.  Everything is checked first (check_rungs, and where each log
    and its record would go).  log_dir: each rung's JSON log there (log_paths), with
    the record of what made it beside it, as score --json writes; a rung whose log's
    record says it was made from the same files (path, size, modification time), the
    same options, scaler, metrics beside, ffmpeg and library is not scored again but
    read back (its row's "reused").  jobs: rungs scored at once (None: one per core),
    each in its own ffmpeg, the same bits as one at a time.  progress: a line
    "rung i/N NAME" on stderr as each is done (None: when stderr is a terminal).
    accept_doubtful_pairs: a rung whose pairs the filter says are in doubt is kept,
    the doubts in its record (score_video's); by default that is a
    DoubtfulPairsError, and a log whose record lists doubts is not reused."""
    from .distributed import (_up_to_date, add_results_to_record, job_record, normalise_job,
                              read_record, spec_path, write_log)
    from .results import Results
    ffmpeg = os.path.abspath(find_ffmpeg(ffmpeg))  # recorded: the same file from anywhere
    _check_labels(rungs)
    beside = sorted(beside_filters(ffmpeg)[0] if beside is None else beside)
    measured = [m for m in BESIDE_METRICS if any(m in BESIDE[f] for f in beside)]
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
    specs = [normalise_job({"reference": rung["source"], "distorted": rung["file"],
                            "name": "rung", "options": options, "kind": "video",
                            "ffmpeg": ffmpeg, "scale": scale, "beside": beside})
             for rung in rungs]
    done = {}  # rung: (Results, record, reused)
    for i, path in enumerate(logs):
        record = read_record(path) if path is not None else None
        if record is not None and "stream" in record and \
                _up_to_date(specs[i], path, accept_doubtful_pairs) == []:
            done[i] = (Results.from_json(path), record, True)
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
        told(i, "reused, its log is up to date")

    def score(i):
        rung, began = rungs[i], time.monotonic()
        record = job_record(specs[i])  # the inputs as they are when scoring begins
        results = score_video(reference=rung["source"], distorted=rung["file"], ffmpeg=ffmpeg,
                              scale=scale, progress=False, beside=beside, stop=stop,
                              accept_doubtful_pairs=accept_doubtful_pairs, **options)
        add_results_to_record(record, results)
        record["stream"] = streams[rung["file"]]
        if logs[i] is not None:
            os.makedirs(os.path.dirname(logs[i]), exist_ok=True)
            write_log(results, logs[i], record)
        return results, record, time.monotonic() - began

    stop = threading.Event()  # a failure or Ctrl-C stops every ffmpeg running
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or default_jobs()) as pool:
        futures = {pool.submit(score, i): i for i in todo}
        try:
            for future in concurrent.futures.as_completed(futures):
                results, record, took = future.result()
                done[futures[future]] = (results, record, False)
                told(futures[future], "scored in %.1f s" % took)
        except BaseException:
            stop.set()
            for future in futures:
                future.cancel()
            raise
    rows = []
    for i, rung in enumerate(rungs):
        results, record, reused = done[i]
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
            row.update(log=logs[i], reused=reused)
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
    every pair of the rungs' ladders, by name (the first the anchor); each checked
    (check_comparison), the same pair once."""
    ladders = sorted({r["ladder"] for r in rungs})
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
            raise LadderError("--compare takes ANCHOR TEST, or all, not %s" % " ".join(args))
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


def titles(rows):
    """Per source, per ladder, in the rows' order: the rungs on its convex hull (the
    rows' on_hull) in rising bitrate with their bitrate and hull_metric's value, the
    recommended ladder (their labels, RECOMMENDED_RULE) and the rungs off it."""
    found = []
    for r in rows:
        title = next((t for t in found if t["source"] == r["source"]), None)
        if title is None:
            title = {"source": r["source"], "ladders": []}
            found.append(title)
        ladder = next((d for d in title["ladders"] if d["ladder"] == r["ladder"]), None)
        if ladder is None:
            ladder = {"ladder": r["ladder"], "hull": [], "recommended": [], "off_hull": []}
            title["ladders"].append(ladder)
        if r["on_hull"]:
            ladder["hull"].append({"label": r["label"], "bitrate_kbps": r["bitrate_kbps"],
                                   r["hull_metric"]: r[r["hull_metric"]]})
        else:
            ladder["off_hull"].append(r["label"])
    for title in found:
        for ladder in title["ladders"]:
            ladder["hull"].sort(key=lambda p: p["bitrate_kbps"])
            ladder["recommended"] = [p["label"] for p in ladder["hull"]]
    return found


# ---- The table, as JSON, CSV and an HTML page with the rate-quality plots ----

def _columns(rows):
    """RUNG_COLUMNS, then the pooled ones of every row, in the order first met."""
    extra = []
    for row in rows:
        extra += [k for k in row if k not in RUNG_COLUMNS and
                  k not in ("log", "reused", "not_taken") and k not in extra]
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


def table_json(rows, comparisons):
    """The table as JSON; "float_adm_table": 1 comes first, as the output policy knows
    the project's tables by it.  Then how the rungs were scored (the scaler, float_adm's
    options given) and judged (hull_metric, recommended_rule), the rungs, each title's
    hulls and recommended ladders (titles()), and the comparisons."""
    def finite(value):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: finite(v) for k, v in value.items()}
        if isinstance(value, list):
            return [finite(v) for v in value]
        return value

    return json.dumps(finite({
        "float_adm_table": 1, "scale": _one(rows, "scale"), "options": _one(rows, "options"),
        "hull_metric": _one(rows, "hull_metric"), "recommended_rule": RECOMMENDED_RULE,
        "rungs": rows, "titles": titles(rows), "comparisons": comparisons}),
        indent=2, allow_nan=False) + "\n"


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
             "@media (max-width:699px){.t1{display:none}}")
_FONT = 12
# A character of the page's sans-serif at _FONT pixels, a little over its width.
_CHAR = 0.64 * _FONT


def _text_box(x, y, text, anchor, dx, dy):
    """The box (left, top, right, bottom) of text whose baseline starts (anchor "start"),
    ends ("end") or centres ("middle") at (x + dx, y + dy)."""
    width = len(text) * _CHAR
    left = x + dx - {"start": 0, "middle": width / 2, "end": width}[anchor]
    return (left, y + dy - 0.8 * _FONT, left + width, y + dy + 0.25 * _FONT)


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
# the hulls below it and to its right.
_ABOVE = ((-5, -10, "end"), (-7, 4, "end"), (0, -11, "middle"), (5, -10, "start"))
_BELOW = ((5, 17, "start"), (7, 4, "start"), (0, 18, "middle"), (-5, 17, "end"))


def _place_labels(points, segments):
    """For each point (x %, y %, text, on a hull), (dx, dy, anchor, tier) of its label,
    or None where it overlaps something on the widest plot.  Placed there first, in the
    points' order: the first place tried that overlaps nothing and crosses no curve,
    else the first that overlaps nothing; then each label is drawn from the narrowest
    width where it overlaps nothing drawn there."""
    def boxes(x, y, text, place):
        dx, dy, anchor = place
        return [_text_box(x * w / 100, y * h / 100, text, anchor, dx, dy) for w, h in _TIERS]

    dots = [[(x * w / 100 - 5, y * h / 100 - 5, x * w / 100 + 5, y * h / 100 + 5)
             for x, y, _, _ in points] for w, h in _TIERS]

    def clear(box, t, drawn):
        w, h = _TIERS[t]
        return box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h and \
            not any(_overlaps(box, o) for o in dots[t] + drawn)

    wide = len(_TIERS) - 1
    chosen, drawn = [], []
    for x, y, text, on_hull in points:
        fitting = [p for p in (_ABOVE + _BELOW if on_hull else _BELOW + _ABOVE)
                   if clear(boxes(x, y, text, p)[wide], wide, drawn)]
        place = next((p for p in fitting if not any(
            _crosses(boxes(x, y, text, p)[wide], s, _TIERS[wide]) for s in segments)),
            fitting[0] if fitting else None)
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


def _plot(rows, source, metric):
    """A rate-quality plot of one source at the page's width: a curve per ladder
    through its convex hull, every rung a point (hollow where it is off the hull)
    labelled where its label overlaps nothing (_place_labels; its label, bitrate and
    score on hover), rate on a log axis, both axes with round ticks."""
    rungs = [r for r in rows if r["source"] == source and r["bitrate_kbps"] > 0 and
             math.isfinite(r["bitrate_kbps"]) and math.isfinite(r[metric + "_mean"])]
    if not rungs:
        return "<p>No rung of this source has a bitrate and a score to plot.</p>"
    ladders = sorted({r["ladder"] for r in rungs})
    lr = [math.log10(r["bitrate_kbps"]) for r in rungs]
    if max(lr) > min(lr):
        x0, x1 = min(lr) - 0.03 * (max(lr) - min(lr)), max(lr) + 0.03 * (max(lr) - min(lr))
    else:  # one bitrate: in the middle of a decade
        x0, x1 = lr[0] - 0.5, lr[0] + 0.5
    y_ticks = _nice_ticks(min(r[metric + "_mean"] for r in rungs),
                          max(r[metric + "_mean"] for r in rungs))
    y0, y1 = y_ticks[0], y_ticks[-1]

    def xy(rate, q):  # percent of the plot's width and height
        return ((math.log10(rate) - x0) / (x1 - x0) * 100, (y1 - q) / (y1 - y0) * 100)

    e = html.escape
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="%s against '
             'bitrate">' % e(metric)]
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
        hulls[ladder] = convex_hull([(r["bitrate_kbps"], r[metric + "_mean"]) for r in rungs
                                     if r["ladder"] == ladder])
        for a, b in zip(hulls[ladder], hulls[ladder][1:]):
            parts.append('<line x1="%.2f%%" y1="%.2f%%" x2="%.2f%%" y2="%.2f%%" stroke="%s" '
                         'stroke-width="2" stroke-linecap="round"/>'
                         % (*xy(*a), *xy(*b), _COLOURS[i % len(_COLOURS)]))
    # Labels of the rungs worth encoding first, then the others, each ladder's by rate.
    marks = []
    for r in sorted(rungs, key=lambda r: ((r["bitrate_kbps"], r[metric + "_mean"]) not in
                                          hulls[r["ladder"]], ladders.index(r["ladder"]),
                                          r["bitrate_kbps"])):
        point = (r["bitrate_kbps"], r[metric + "_mean"])
        marks.append((r, point, _COLOURS[ladders.index(r["ladder"]) % len(_COLOURS)],
                      *xy(*point)))
    segments = [(xy(*a), xy(*b)) for hull in hulls.values() for a, b in zip(hull, hull[1:])]
    places = _place_labels([(x, y, r["label"], point in hulls[r["ladder"]])
                            for r, point, _, x, y in marks], segments)
    for (r, _, colour, x, y), place in zip(marks, places):
        if place is not None:
            dx, dy, anchor, tier = place
            parts.append('<text class="pl%s" x="%.2f%%" y="%.2f%%" dx="%d" dy="%d" '
                         'text-anchor="%s" fill="%s">%s</text>'
                         % (" t%d" % tier if tier else "", x, y, dx, dy, anchor, colour,
                            e(r["label"])))
    for r, point, colour, x, y in marks:
        parts.append('<circle cx="%.2f%%" cy="%.2f%%" r="4" stroke="%s" fill="%s">'
                     '<title>%s: %.0f kbit/s, %s %.5f</title></circle>'
                     % (x, y, colour, colour if point in hulls[r["ladder"]] else "white",
                        e(r["label"]), point[0], e(metric), point[1]))
    parts.append("</svg>")
    keys = "".join('<li><span class="sw" style="background:%s"></span><span>%s</span></li>'
                   % (_COLOURS[i % len(_COLOURS)], _wrap_name(ladder))
                   for i, ladder in enumerate(ladders))
    return ('<figure class="rq"><ul class="keys">%s<li>filled: on the hull; hollow: off it'
            '</li></ul><div class="axis">%s mean</div><div class="plot">%s</div>'
            '<div class="axis x">bitrate, kbit/s (log scale)</div></figure>'
            % (keys, e(metric), "\n".join(parts)))


def table_html(rows, comparisons, metric, scale, directory="."):
    """A self-contained page: per source a rate-quality plot and the rungs' table, each
    rung's label a link to its log where it has one (relative to directory, where the
    page goes), and the BD figures where two ladders were compared."""
    e = html.escape
    names = source_names(rows)
    means = _means(rows)
    aim = next((m for m in means if plain_name(m) == "aim"), "aim") + "_mean"
    beside = [m for m in BESIDE_METRICS if m in means]

    def rung(r):
        if not r.get("log"):
            return e(r["label"])
        link = os.path.relpath(os.path.abspath(r["log"]), os.path.abspath(directory))
        return '<a href="%s">%s</a>' % (e(url_path(link)), e(r["label"]))

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
           ".plot .grid{stroke:#ddd}" + _TIER_CSS +
           ".scroll{overflow-x:auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;"
           "white-space:nowrap}td.t,th.t{text-align:left}.err{color:#b00}</style>"
           "</head><body>",
           "<h1>Encoding ladder: %s against bitrate</h1>" % e(metric),
           "<p>Each rung scored against its source, scaled to the source's size with "
           "%s, float_adm's options: %s; bitrate: the rung's whole video stream. Curves "
           "join each ladder's convex hull; hollow points lie off it.</p>"
           % (e(str(scale)), e(_one(rows, "options") or "libvmaf's defaults"))]
    def taken(place, key, text):
        """A figure's cell: its value, else "not taken" with why on hover."""
        if place.get(key) is not None:
            return "<td>%s</td>" % (text % place[key])
        why = place.get("not_taken", {}).get(key, "")
        return '<td class=err title="%s">not taken</td>' % e(why)

    for comparison in comparisons or ():
        out.append("<h2>BD figures, %s against %s (%s)</h2><div class=scroll><table>"
                   "<tr><th class=t>source</th><th>BD-rate</th><th>BD-%s</th>"
                   "<th>hull points</th></tr>"
                   % (e(comparison["test"]), e(comparison["anchor"]), e(metric), e(metric)))
        for s in comparison["sources"]:
            out.append("<tr><td class=t>%s</td>%s%s<td>%d, %d</td></tr>"
                       % (e(names[s["source"]]), taken(s, "bd_rate_percent", "%+.2f %%"),
                          taken(s, "bd_quality", "%+.5f"), *s["hull_points"]))
        out.append("<tr><th class=t>mean</th>%s%s<th></th></tr>"
                   "<tr><td class=t>mean over</td><td>%s</td><td>%s</td><td></td></tr>"
                   "</table></div>"
                   % (taken(comparison, "bd_rate_percent", "%+.2f %%"),
                      taken(comparison, "bd_quality", "%+.5f"),
                      e(mean_over(comparison, "bd_rate_percent", names)),
                      e(mean_over(comparison, "bd_quality", names))))
        out.append("<div class=scroll><table><tr><th class=t>metric</th><th>BD-rate, mean"
                   "</th><th class=t>over</th><th>BD-quality, mean</th><th class=t>over</th>"
                   "</tr>%s</table></div>" % "".join(
                       "<tr><td class=t>%s</td>%s<td class=t>%s</td>%s<td class=t>%s</td></tr>"
                       % (e(m), taken(c, "bd_rate_percent", "%+.2f %%"),
                          e(mean_over(c, "bd_rate_percent", names)),
                          taken(c, "bd_quality", "%+.5g"),
                          e(mean_over(c, "bd_quality", names)))
                       for m, c in comparison.get("by_metric", {}).items()))
        for line in not_taken(comparison, rows):
            out.append("<p class=err>%s</p>" % e(line))
        for note in comparison.get("notes", ()):
            out.append("<p>Note: %s.</p>" % e(note))
    for source in sorted({r["source"] for r in rows}):
        out.append("<h2>%s</h2>" % _wrap_name(names[source]))
        out.append(_plot(rows, source, metric))
        out.append('<div class=scroll><table><tr><th class=t>ladder</th><th class=t>rung</th>'
                   "<th class=t>codec</th><th>size</th><th>frames</th><th>kbit/s</th>"
                   "<th>%s mean</th><th>%s</th>%s<th>on hull</th></tr>"
                   % (e(metric), e(aim.replace("_mean", " mean")),
                      "".join("<th>%s mean</th>" % e(m) for m in beside)))
        for r in (r for r in rows if r["source"] == source):  # score_ladder's order
            out.append("<tr><td class=t>%s</td><td class=t>%s</td><td class=t>%s</td>"
                       "<td>%d×%d</td><td>%d</td>"
                       "<td>%.1f</td><td>%.5f</td><td>%.5f</td>%s<td>%s</td></tr>"
                       % (e(r["ladder"]), rung(r), e(str(r["codec"])), r["width"],
                          r["height"], r["frames"], r["bitrate_kbps"], r[metric + "_mean"],
                          r.get(aim, float("nan")),
                          "".join(taken(r, m + "_mean", "%.4f") for m in beside),
                          "yes" if r.get("on_hull") else ""))
        out.append("</table></div>")
        for r in (r for r in rows if r["source"] == source):
            for column, why in r.get("not_taken", {}).items():
                out.append("<p>%s, %s: %s not taken: %s.</p>" % (
                    e(r["ladder"]), e(r["label"]), e(column.replace("_mean", " mean")), e(why)))
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
    for name, kind in TABLES:
        files.add_output(os.path.join(directory, name), kind, "the ladder's table")
    return inputs


def write_tables(directory, rows, comparisons=(), metric=None, scale=None):
    """ladder.json, ladder.csv and ladder.html in directory, each where the output
    policy lets it go (no input of the run, nothing that is not the project's), all
    three checked before the first is written.  rows: score_ladder's, all scored
    alike (one scaler, the same options, one hull metric); comparisons: compare_all's
    (or one compare()).  metric, scale: the rows' unless given."""
    if isinstance(comparisons, dict):
        comparisons = [comparisons]
    comparisons = list(comparisons or ())
    metric = metric or _one(rows, "hull_metric")[:-len("_mean")]
    scale = scale or _one(rows, "scale")
    inputs = check_outputs(directory, rows)
    paths = {name: os.path.join(directory, name) for name, _ in TABLES}
    # All three made before the first is written: none is left beside an earlier run's.
    data = {"ladder.json": table_json(rows, comparisons).encode(),
            "ladder.csv": table_csv(rows).encode(),
            "ladder.html": table_html(rows, comparisons, metric, scale, directory).encode()}
    for name, kind in TABLES:
        write_output(paths[name], kind, data[name], inputs)
    return paths
