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

"""A visual report of one or more logs: one self-contained HTML file.

It reads float_adm's JSON logs and libvmaf's own (vmaf, integer_adm2, vif,
motion, ... and float_adm's features under their libvmaf names), so that float
ADM can be charted beside VMAF runs, and the metrics a record beside a log keeps
of the frames it scored (beside_frames: a ladder's PSNR, SSIM and VMAF).  First, what was compared: each log's
options (from its metric names' suffixes), resolution, frame count, and where a
record lies beside the log (NAME.spec.json) its inputs with their size and
bitrate and the scaling done.  Then one tab per metric any log holds (adm2
first; CSS-only tabs): an inline SVG chart with one path per log, whose points
show their frame and value on hover or keyboard focus, the pooled values of each
log, and each log's 10 worst frames with their timestamps where the log has
them.  Where a log has maps beside it (NAME.maps.npz: `score --maps`,
Results.save_maps), where detail is lost: its worst frames by adm2, apart from
one another, each under two views in the library's colours
(float_adm_map_render_rgb24), the loss in each block and each block's share of
the frame's lost detail, and the maps averaged over the title.  Nothing is
fetched: no scripts, fonts or images from anywhere (pictures are inline PNG
data).  The layout follows the window from phone to laptop width, names wrap
only after their separators, and the colours follow the system's light or dark
scheme (prefers-color-scheme).
"""

import functools
import html
import json
import math
import os
import re
import stat
import types
import warnings

from ._input import InputError, load_json
from ._names import shown
from .results import OUTPUT_NAMES, plain_name, pool

# float_adm's outputs first, in the library's order, then VMAF.
METRICS = OUTPUT_NAMES[:7]
FIRST_METRICS = METRICS + ("vmaf",)
# aim measures impairment: its worst frames are its highest; the others' their lowest.
HIGHER_IS_WORSE = {"aim", "integer_aim"}
# The chart's coordinate space; the SVG is stretched to the page's width.
PLOT_W, PLOT_H = 1000.0, 400.0
# Enough points to draw any screen's width; longer logs keep each bucket's extremes.
MAX_POINTS = 1500
WORST_COUNT = 10
# The maps drawn per log: its worst frames by adm2, as pictures this wide at most.
MAP_WORST_COUNT = 4
# Frames drawn with their maps lie this many frames apart at least (about a second),
# a quarter of a shorter title's frames (map_frames).
MAP_FRAME_GAP = 24
MAP_WIDTH = 480
# The largest picture a map is drawn for (8K UHD): what a maps file may claim, checked
# before it is decompressed and drawn.
MAX_MAP_PIXELS = 7680 * 4320

_CSS = """
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1d2430; --muted: #5b6676; --line: #d9dee5; --panel: #f5f7fa;
  --accent: #1f6feb;
  --c0: #1f6feb; --c1: #d1495b; --c2: #2a9d5c; --c3: #b7791f; --c4: #7b4bd1;
  --c5: #0e8a9b; --c6: #c2417a; --c7: #5a6b2f;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #11151c; --fg: #e3e8ef; --muted: #9aa5b4; --line: #2c3440; --panel: #19202a;
    --accent: #6ea8fe;
    --c0: #6ea8fe; --c1: #ff7b89; --c2: #5fd38d; --c3: #f2c14e; --c4: #b794f6;
    --c5: #4fd1e0; --c6: #f78fbf; --c7: #b5cc6a;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.35rem; margin: 0 0 4px; }
h2 { font-size: 1.05rem; margin: 20px 0 8px; }
h3 { font-size: 0.95rem; margin: 14px 0 6px; }
p.meta { color: var(--muted); margin: 0 0 12px; font-size: 0.9rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.tabs { display: flex; flex-wrap: wrap; gap: 6px; margin: 12px 0; }
.tabs label { cursor: pointer; padding: 5px 12px; border: 1px solid var(--line);
  border-radius: 999px; background: var(--panel); font-size: 0.9rem; user-select: none; }
.panel { display: none; }
%(tab_rules)s
.chart { position: relative; margin: 0; padding: 8px 8px 26px 58px; background: var(--panel);
  border: 1px solid var(--line); border-radius: 8px; }
.chart svg { display: block; width: 100%%; height: clamp(180px, 42vw, 340px); overflow: visible; }
.chart .grid { stroke: var(--line); stroke-width: 1; vector-effect: non-scaling-stroke; }
.chart path { fill: none; stroke-width: 1.8; stroke-linejoin: round; stroke-linecap: round;
  vector-effect: non-scaling-stroke; }
.yl, .xl { position: absolute; font-size: 0.75rem; color: var(--muted);
  font-variant-numeric: tabular-nums; white-space: nowrap; }
.yl { left: 4px; width: 50px; text-align: right; transform: translateY(-50%%); }
.xl { bottom: 4px; transform: translateX(-50%%); }
.xl.first { transform: none; } .xl.last { transform: translateX(-100%%); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 8px 0 0; padding: 0;
  list-style: none; font-size: 0.9rem; }
.legend li { display: flex; align-items: center; gap: 6px; min-width: 0; max-width: 100%%; }
.legend .name { min-width: 0; overflow-x: auto; }
.swatch { flex: none; width: 18px; height: 4px; border-radius: 2px; }
.pts { position: absolute; top: 8px; right: 8px; bottom: 26px; left: 58px; }
.pt { position: absolute; width: 12px; height: 12px; margin: -6px 0 0 -6px;
  border-radius: 50%%; outline: none; }
.pt::after { content: ""; position: absolute; inset: 3px; border-radius: 50%%;
  background: var(--c); opacity: 0; }
.pt:hover::after, .pt:focus::after { opacity: 1; }
.pt:focus-visible { box-shadow: 0 0 0 2px var(--accent); }
.tip { display: none; position: absolute; z-index: 2; bottom: 14px; left: 50%%;
  transform: translateX(-50%%); padding: 3px 7px; border-radius: 4px; white-space: nowrap;
  background: var(--fg); color: var(--bg); font-size: 0.78rem;
  font-variant-numeric: tabular-nums; pointer-events: none; }
.pt:hover .tip, .pt:focus .tip { display: block; }
.pt.low .tip { bottom: auto; top: 14px; }
.pt.left .tip { left: 0; transform: none; }
.pt.right .tip { left: auto; right: 0; transform: none; }
table.compared td { white-space: normal; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%%; font-size: 0.88rem;
  font-variant-numeric: tabular-nums; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.name { white-space: normal; min-width: 9em; }
.named { display: flex; align-items: flex-start; gap: 6px; }
.named .swatch { margin-top: calc(0.725em - 2px); }
thead th { color: var(--muted); font-weight: 600; }
div.worst { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(280px, 100%%), 1fr));
  gap: 8px 20px; }
div.worst > div { min-width: 0; }
h3 { overflow-x: auto; }
p.meta { overflow-wrap: break-word; }
.na { color: var(--muted); }
.maps { display: grid; grid-template-columns: repeat(var(--cols), minmax(0, 1fr));
  gap: 16px 12px; margin: 0 0 8px; }
@media (max-width: 720px) { .maps { grid-template-columns: minmax(0, 1fr); } }
figure.map { margin: 0; min-width: 0; }
figure.map .views { display: grid; gap: 6px 12px;
  grid-template-columns: repeat(auto-fit, minmax(min(260px, 100%%), 1fr)); }
.view-name { display: block; color: var(--muted); font-size: 0.82rem; margin-bottom: 2px; }
figure.map img { display: block; width: 100%%; height: auto; border-radius: 4px; }
figure.map figcaption { font-size: 0.88rem; margin-bottom: 2px;
  font-variant-numeric: tabular-nums; }
.palette { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 20px;
  color: var(--muted); font-size: 0.82rem; margin: 0 0 12px; }
.palette .key { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 2px 6px; }
.palette strong { color: var(--fg); font-weight: 600; }
.palette .scale { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; }
.palette img { width: min(180px, 40vw); height: 12px; border-radius: 2px; }
.palette .grey img { width: 12px; }
footer { color: var(--muted); font-size: 0.8rem; margin: 24px 0 8px; }
"""


def _label(path, label, used):
    """The user's label, else the log's file name without ".json", as a name is shown
    (shown(): one printable line); made unique with " (2)", " (3)"..."""
    if not label:
        base = os.path.basename(os.fspath(path))
        label = base[:-5] if base.endswith(".json") else base
    label = shown(label)
    candidate, n = label, 2
    while candidate in used:
        candidate = "%s (%d)" % (label, n)
        n += 1
    used.add(candidate)
    return candidate


def _wrap_name(text):
    """A name (a log's, a file's) escaped, that wraps after its separators ('/', '_',
    '-') and nowhere inside a part: av1_360p_|1200k.mkv, never av1_360p_1200k.m|kv."""
    return re.sub(r"([/_-]+)", r"\1<wbr>", html.escape(text))


def _fmt(value, digits=6):
    if value is None:
        return '<span class="na">–</span>'
    if not math.isfinite(value):
        return html.escape(str(value))
    return '<span title="%.17g">%.*f</span>' % (value, digits, value)


def _fmt_time(seconds):
    if seconds is None:
        return '<span class="na">–</span>'
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    minutes, sec = divmod(seconds, 60.0)
    hours, minutes = divmod(int(minutes), 60)
    if hours:
        return "%s%d:%02d:%06.3f" % (sign, hours, minutes, sec)
    return "%s%d:%06.3f" % (sign, minutes, sec)


def _downsample(points):
    """At most MAX_POINTS (x, y): each bucket keeps its lowest and highest point in
    frame order, so that a dip of one frame still shows."""
    if len(points) <= MAX_POINTS:
        return points
    size = math.ceil(len(points) / (MAX_POINTS // 2))
    kept = []
    for i in range(0, len(points), size):
        bucket = [p for p in points[i:i + size] if math.isfinite(p[1])]
        if not bucket:
            kept.append(points[i])
            continue
        low = min(bucket, key=lambda p: p[1])
        high = max(bucket, key=lambda p: p[1])
        kept.extend(sorted({low, high}))
    return kept


def _nice_ticks(low, high, count=5):
    """Round tick values covering [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0, 1.0]
    if not math.isfinite(high - low):  # a log's values near both ends of the doubles
        return [2 * t for t in _nice_ticks(low / 2, high / 2, count)]
    if high - low < 1e-12:
        pad = abs(low) * 0.01 or 0.01
        low, high = low - pad, high + pad
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 12))
        value += step
    return ticks


def _tick_text(value, ticks):
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    decimals = max(0, min(8, -int(math.floor(math.log10(step))) + 1)) if step else 3
    return "%.*f" % (decimals, value)


def _chart(metric, logs):
    """The SVG of one metric: one <path> per log (empty where the log lacks the
    metric), grid lines as <line>; tick labels are HTML beside it, so that they keep
    their size at any width."""
    series = []
    for results in logs:
        series.append([(f["frame"], f[metric]) for f in results.scored if metric in f])
    values = [y for s in series for _, y in s if math.isfinite(y)]
    frames = [x for s in series for x, _ in s]
    first, last = (min(frames), max(frames)) if frames else (0, 1)
    ticks = _nice_ticks(min(values), max(values)) if values else [0.0, 1.0]
    low, high = ticks[0], ticks[-1]

    def sx(x):
        return PLOT_W / 2 if last == first else (x - first) / (last - first) * PLOT_W

    def sy(y):
        # In halves: y - low overflows for values near both ends of the doubles.
        return PLOT_H - (y / 2 - low / 2) / (high / 2 - low / 2) * PLOT_H

    out = ['<figure class="chart">',
           '<svg class="plot" data-metric="%s" viewBox="0 0 %g %g" preserveAspectRatio="none" '
           'role="img" aria-label="%s per frame, one line per log">'
           % (html.escape(metric), PLOT_W, PLOT_H, html.escape(metric))]
    for t in ticks:
        out.append('<line class="grid" x1="0" x2="%g" y1="%.2f" y2="%.2f"/>'
                   % (PLOT_W, sy(t), sy(t)))
    for i, points in enumerate(series):
        d, pen_down = [], False
        for x, y in _downsample(points):
            if not math.isfinite(y):
                pen_down = False
                continue
            d.append("%s%.2f %.2f" % ("L" if pen_down else "M", sx(x), sy(y)))
            pen_down = True
        if len(points) == 1 and d:
            d.append("h0.01")
        out.append('<path class="series" data-log="%d" style="stroke: var(--c%d)" d="%s">'
                   '<title>%s</title></path>' % (i, i % 8, " ".join(d),
                                                html.escape(logs[i].label)))
    out.append("</svg>")
    out.append('<div class="pts">')
    for i, points in enumerate(series):
        for x, y in _downsample(points):
            if not math.isfinite(y):
                continue
            left, top = sx(x) / PLOT_W * 100, sy(y) / PLOT_H * 100
            where = " low" if top < 20 else ""
            where += " left" if left < 15 else " right" if left > 85 else ""
            text = "%s: frame %d, %s %.6f" % (logs[i].label, x, metric, y)
            out.append('<span class="pt%s" tabindex="0" role="img" aria-label="%s" '
                       'style="left: %.3f%%; top: %.3f%%; --c: var(--c%d)">'
                       '<span class="tip">frame %d &middot; %.6f</span></span>'
                       % (where, html.escape(text), left, top, i % 8, x, y))
    out.append("</div>")
    for t in ticks:
        # The figure's padding is 8px above and 26px below the SVG (_CSS).
        out.append('<span class="yl" style="top: calc(8px + (100%% - 34px) * %.4f)">%s</span>'
                   % (sy(t) / PLOT_H, _tick_text(t, ticks)))
    x_labels = [(first, "xl first", "%d" % first)]
    if last != first:
        x_labels.append((last, "xl last", "%d" % last))
        inner = [t for t in _nice_ticks(first, last) if t == int(t)]
        x_labels += [(int(t), "xl", "%d" % t) for t in inner
                     if 0.12 < (t - first) / (last - first) < 0.88]
    for x, cls, text in x_labels:
        out.append('<span class="%s" style="left: calc(58px + (100%% - 66px) * %.4f)">%s</span>'
                   % (cls, sx(x) / PLOT_W, text))
    out.append("</figure>")
    return "\n".join(out)


def _difference(metric, logs):
    """For two logs of the same reference (as their records say; either without one),
    a chart of the first's metric less the second's, frame by frame, over the frames
    both scored; else nothing."""
    if len(logs) != 2:
        return ""
    refs = [((log.record or {}).get("inputs", {}).get("reference") or {}).get("path")
            for log in logs]
    if all(refs) and refs[0] != refs[1]:
        return ""
    second = {f["frame"]: f[metric] for f in logs[1].scored if metric in f}
    frames = [{"frame": f["frame"], metric: f[metric] - second[f["frame"]]}
              for f in logs[0].scored if metric in f and f["frame"] in second]
    if not frames:
        return ""
    label = "%s \u2212 %s" % (logs[0].label, logs[1].label)
    return "<h2>%s per frame, %s</h2>\n%s" % (
        html.escape(metric), _wrap_name(label),
        _chart(metric, [types.SimpleNamespace(scored=frames, label=label)]))


def _pooled_table(metric, logs):
    rows = []
    for i, results in enumerate(logs):
        pooled = results.pooled.get(metric) if metric in results.names else None
        cells = [_fmt(pooled[k]) if pooled else _fmt(None)
                 for k in ("mean", "harmonic_mean", "min", "max")]
        rows.append('<tr><td class="name"><span class="named"><span class="swatch" '
                    'style="background: var(--c%d)"></span><span>%s</span></span></td>'
                    '<td>%d</td>%s</tr>' % (i % 8, _wrap_name(results.label),
                                            len(results.scored),
                                            "".join("<td>%s</td>" % c for c in cells)))
    return ('<div class="scroll"><table class="pooled"><thead><tr><th>log</th><th>frames</th>'
            '<th>mean</th><th>harmonic mean</th><th>min</th><th>max</th></tr></thead>'
            '<tbody>%s</tbody></table></div>' % "".join(rows))


def worst_frames(results, metric, count=WORST_COUNT):
    """The count worst scored frames of a log for metric: lowest first (highest for
    aim); NaN last; ties in frame order."""
    scored = [f for f in results.scored if metric in f]
    sign = -1.0 if metric in HIGHER_IS_WORSE else 1.0
    return sorted(scored, key=lambda f: (not math.isfinite(f[metric]),
                                         sign * f[metric] if math.isfinite(f[metric]) else 0,
                                         f["frame"]))[:count]


def _worst_tables(metric, logs):
    out = ['<div class="worst">']
    for results in logs:
        worst = worst_frames(results, metric)
        has_time = any("timestamp" in f for f in worst)
        head = "<th>#</th><th>frame</th>%s<th>%s</th>" % (
            "<th>time</th>" if has_time else "", html.escape(metric))
        rows = "".join(
            "<tr><td>%d</td><td>%d</td>%s<td>%s</td></tr>" % (
                rank + 1, f["frame"],
                "<td>%s</td>" % _fmt_time(f.get("timestamp")) if has_time else "",
                _fmt(f[metric]))
            for rank, f in enumerate(worst))
        out.append('<div><h3>%s</h3><div class="scroll"><table class="worst-frames">'
                   '<thead><tr>%s</tr></thead><tbody>%s</tbody></table></div></div>'
                   % (_wrap_name(results.label), head, rows or
                      '<tr><td class="na" colspan="4">no scored frames</td></tr>'))
    out.append("</div>")
    return "\n".join(out)


def render(logs, title="float_adm report"):
    """The report's HTML for a list of logs (load())."""
    metrics = _metrics(logs)
    tab_rules = "\n".join(
        "#m-{0}:checked ~ .panels .p-{0} {{ display: block; }}\n"
        "#m-{0}:checked ~ .tabs label[for=m-{0}] {{ background: var(--accent); "
        "color: var(--bg); border-color: var(--accent); }}\n"
        "#m-{0}:focus-visible ~ .tabs label[for=m-{0}] {{ outline: 2px solid var(--accent); "
        "outline-offset: 2px; }}".format(_css_id(m)) for m in metrics)
    legend = "".join('<li><span class="swatch" style="background: var(--c%d)"></span>'
                     '<span class="name">%s <span class="na">(%d frames)</span></span></li>'
                     % (i % 8, _wrap_name(r.label), len(r.scored))
                     for i, r in enumerate(logs))
    radios = "".join('<input type="radio" class="sr" name="metric" id="m-%s"%s '
                     'aria-label="%s">' % (_css_id(m), " checked" if i == 0 else "",
                                           html.escape(m))
                     for i, m in enumerate(metrics))
    labels = "".join('<label for="m-%s">%s</label>' % (_css_id(m), html.escape(m))
                     for m in metrics)
    panels = []
    for m in metrics:
        panels.append(
            '<section class="panel p-%s">\n<h2>%s per frame</h2>\n%s\n'
            '<ul class="legend">%s</ul>\n%s\n<h2>Pooled %s</h2>\n%s\n'
            '<h2>Worst %d frames (%s)</h2>\n%s\n</section>'
            % (_css_id(m), html.escape(m), _chart(m, logs), legend, _difference(m, logs),
               html.escape(m), _pooled_table(m, logs), WORST_COUNT,
               "highest" if m in HIGHER_IS_WORSE else "lowest", _worst_tables(m, logs)))
    try:
        from .scorer import version
        made_by = "floatadm %s" % version()
    except Exception:  # a report needs no library
        made_by = "floatadm"
    return """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="float_adm report">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<main>
<h1>{title}</h1>
<p class="meta">{count} log{s}: {names}. Netflix VMAF's float ADM features (and whatever else
the logs hold), pooled as libvmaf pools them (mean, harmonic mean = n / &Sigma; 1/(x+1)
&minus; 1, min, max).</p>
<h2>What was compared</h2>
{compared}
{radios}
<nav class="tabs" aria-label="metric">{labels}</nav>
<div class="panels">
{panels}
</div>
{maps}
<footer>Made by {made_by}. Hover a value for all 17 digits; hover or focus (Tab) a
chart's point for its frame and value.</footer>
</main>
</body>
</html>
""".format(title=html.escape(shown(title)), css=_CSS % {"tab_rules": tab_rules}, count=len(logs),
           s="" if len(logs) == 1 else "s",
           names=", ".join(_wrap_name(r.label) for r in logs), radios=radios,
           compared=_compared_table(logs),
           labels=labels, panels="\n".join(panels), maps=_maps_section(logs),
           made_by=html.escape(made_by))


def _css_id(metric):
    """A metric's name as an id and class: libvmaf's names hold dots (adm2_egl_1.2)."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", metric)


def _metrics(logs):
    """Every metric a log holds, one tab each: float_adm's outputs in the library's
    order, vmaf, then the others in the order the logs name them."""
    seen = []
    for log in logs:
        seen += [n for n in log.names if n not in seen]
    first = [m for m in FIRST_METRICS if m in seen]
    return first + [m for m in seen if m not in first] or ["adm2"]


class Log:
    """One JSON log as the report draws it: float_adm's (from score_video,
    score_files, float_adm_score or the filter) or libvmaf's, whatever metrics it
    holds.  .frames: {"frame": N, metric: value, "timestamp", "skipped"}; .names:
    its metrics, float_adm's by their plain names (adm2_egl_1.2 is adm2; the suffix
    says the options); .record: what made it, where NAME.spec.json lies beside."""

    def __init__(self, path, label, data=None):
        self.label = label
        self.source = os.fspath(path)
        if data is None:
            data = _read_json(path)
        _check_log(path, data)
        self.version = data.get("version") or ""
        # A failed run's log (float_adm_log_abandon): its frames, and why it ends.
        self.incomplete = data.get("incomplete")
        if self.incomplete is not None:
            warnings.warn(LogInDoubt("%s: the run that wrote this log did not end "
                                     "(incomplete: %s): its values are of the frames it "
                                     "holds" % (self.source, self.incomplete)), stacklevel=2)
        self.suffix = None
        self.frames, self.names = [], []
        for entry in data["frames"]:
            row = {"frame": entry["frameNum"]}
            if entry.get("timestamp") is not None:
                row["timestamp"] = float(entry["timestamp"])
            if "skipped" in entry:
                row["skipped"] = entry["skipped"]
            for log_name, value in (entry.get("metrics") or {}).items():
                name = plain_name(log_name) or log_name
                if name != log_name and name != "adm" and self.suffix is None:
                    self.suffix = log_name[len(name):]
                elif name in METRICS and self.suffix is None:
                    self.suffix = ""
                if name not in self.names:
                    self.names.append(name)
                row[name] = math.nan if value is None else float(value)
            self.frames.append(row)
        self.frames.sort(key=lambda f: f["frame"])
        self.record = _read_record(path)
        self._add_beside(path)
        self.maps, self.lost = _read_maps(path, len(self.frames), self.record)
        self._pooled = None

    def _add_beside(self, path):
        """The values of the metrics measured beside float_adm on the frames it scored
        (a ladder's rungs: PSNR, SSIM, VMAF), where the record keeps them, as the log's
        own metrics."""
        frames, own = {f["frame"]: f for f in self.frames}, set(self.names)
        for entry in (self.record or {}).get("beside_frames", ()):
            row = frames.get(entry["frame"])
            if row is None or "skipped" in row:
                raise ReportError("%s: its record holds values of frame %d, which the log "
                                  "has not scored" % (os.fspath(path), entry["frame"]))
            for name, value in entry.items():
                if name in own:
                    raise ReportError("%s: its record holds values of %s, a metric of the "
                                      "log itself" % (os.fspath(path), name))
                if name != "frame":
                    row[name] = math.nan if value is None else float(value)
                    if name not in self.names:
                        self.names.append(name)

    @property
    def scored(self):
        return [f for f in self.frames if "skipped" not in f]

    def values(self, name):
        """One metric's values over the scored frames that hold it, in frame order."""
        return [f[name] for f in self.scored if name in f]

    @property
    def pooled(self):
        """Each metric pooled as libvmaf pools (results.pool), over the scored frames
        that hold it."""
        if self._pooled is None:
            self._pooled = {}
            for name in self.names:
                values = self.values(name)
                if values:
                    self._pooled[name] = pool(values)
        return self._pooled

    def options_text(self):
        """float_adm's options that are not their defaults ("egl=1.2 apn=2"): as the
        log's record holds them, else as its metric names' suffix says them;
        "defaults" where there are none, None without float_adm outputs."""
        try:
            from .scorer import options
            table = options()
        except Exception:  # a report needs no library: the suffix as it is
            return None if self.suffix is None else self.suffix[1:] or "defaults"
        held = (self.record or {}).get("options")
        if isinstance(held, dict):
            parts = ["%s=%s" % (r["alias"] or r["name"], _option_text(held[r["name"]]))
                     for r in table if r["name"] in held and r["name"] != "debug" and
                     float(held[r["name"]]) != r["default"]]
            return " ".join(parts) or "defaults"
        if self.suffix is None:
            return None
        if not self.suffix:
            return "defaults"
        tokens = self.suffix[1:].split("_")
        flags = {r["alias"] or r["name"] for r in table if r["type"] == "bool"}
        parts = []
        while tokens:
            key = tokens.pop(0)
            if key in flags or not tokens:
                parts.append(key)
            else:
                parts.append("%s=%s" % (key, tokens.pop(0)))
        return " ".join(parts)


def _option_text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return "%g" % value if isinstance(value, float) else str(value)


def _size_text(size):
    """A file's size in one family of units: kB below a megabyte, MB above."""
    return "%.1f kB" % (size / 1e3) if size < 1e6 else "%.1f MB" % (size / 1e6)


def _stream_bitrate(entry):
    """The bitrate of an input's whole video stream (video.probe_stream), where the file
    is still the one the record names (same size and time); else None: the frames a
    log scored may be a part of the file, whose bitrate they do not tell."""
    try:
        st = os.stat(entry["path"])
    except OSError:
        return None
    if (st.st_size, st.st_mtime_ns) != (entry.get("size"), entry.get("mtime_ns")):
        return None
    return _probed_bitrate(entry["path"], st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _probed_bitrate(path, size, mtime_ns):
    """probe_stream's bitrate of one version of a file (size, mtime_ns), once however
    many logs name it (a source scored against many encodes)."""
    from .video import FFmpegError, find_ffmpeg, probe_stream
    try:
        return probe_stream(find_ffmpeg(), path)["bitrate"]
    except (OSError, FFmpegError):
        return None


def _file_text(entry):
    """An input of a log's record: its name, size and the bitrate of its whole video
    stream, where the file can still be read."""
    if not isinstance(entry, dict) or not entry.get("path"):
        return _fmt(None)
    text = _wrap_name(shown(os.path.basename(entry["path"])))
    size = entry.get("size")
    if isinstance(size, int):
        text += "<br>%s" % _size_text(size)
        bitrate = _stream_bitrate(entry)
        if bitrate:
            text += ", %.0f kbit/s" % (bitrate / 1000)
    return '<span title="%s">%s</span>' % (html.escape(shown(entry["path"])), text)


def _resolution(log):
    record = log.record or {}
    size = record.get("resolution")
    if isinstance(size, list) and len(size) == 2:
        return "%s&times;%s" % tuple(html.escape(str(v)) for v in size)
    settings = record.get("settings", {})
    if settings.get("width") and settings.get("height"):
        return "%s&times;%s" % (html.escape(str(settings["width"])),
                                html.escape(str(settings["height"])))
    return _fmt(None)


def _frames_text(log):
    """The frames scored, and where the run failed, that its log is incomplete."""
    text = "%d" % len(log.scored)
    if log.incomplete is not None:
        text += ' <span class="incomplete">(incomplete: the run failed: %s)</span>' % (
            html.escape(log.incomplete))
    return text


def _compared_table(logs):
    """Per log: frames, resolution, options, the inputs (size, bitrate) and the
    scaling where its record says them, and what wrote it."""
    rows = []
    for i, log in enumerate(logs):
        record = log.record or {}
        inputs = record.get("inputs", {})
        scaled = record.get("scaled")
        scaling = (html.escape("%s to %sx%s (%s)" % (scaled.get("scaler"), scaled.get("width"),
                                                     scaled.get("height"),
                                                     scaled.get("inputs")))
                   if isinstance(scaled, dict) else "none" if log.record else _fmt(None))
        options = log.options_text()
        rows.append('<tr><td class="name"><span class="named"><span class="swatch" '
                    'style="background: var(--c%d)"></span><span>%s</span></span></td>'
                    '<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>'
                    '<td>%s</td><td>%s</td></tr>' % (
                        i % 8, _wrap_name(log.label), _frames_text(log), _resolution(log),
                        html.escape(options) if options else _fmt(None),
                        _file_text(inputs.get("reference")),
                        _file_text(inputs.get("distorted")), scaling,
                        html.escape(log.version) or _fmt(None)))
    return ('<div class="scroll"><table class="compared"><thead><tr><th>log</th>'
            '<th>frames</th><th>resolution</th><th>options</th><th>reference</th>'
            '<th>distorted</th><th>scaled</th><th>written by</th></tr></thead>'
            '<tbody>%s</tbody></table></div>' % "".join(rows))


class ReportError(ValueError):
    """A file the report reads is not what it should be: the message names the file
    and what was expected of it."""


class LogInDoubt(UserWarning):
    """A log drawn with a doubt: its run did not end (it says "incomplete"), or the
    record beside it was written with another log (left out).  The message names the
    file and the doubt."""


class SkippedFile(UserWarning):
    """Files given as logs that are none (spec files, NAME.spec.json): left out, one
    warning for all of them; .paths names them."""

    def __init__(self, message, paths=()):
        super().__init__(message)
        self.paths = list(paths)


def _kind_of(value):
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            type(None): "null"}.get(type(value), "a number")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _read_json(path):
    """The JSON in path; ReportError naming it where it is none (_input.load_json:
    not UTF-8, a number beyond a double, nesting too deep)."""
    try:
        return load_json(path, "a JSON file")
    except OSError as error:
        raise ReportError("%s: cannot be read: %s" % (shown(path), error.strerror))
    except InputError as error:
        raise ReportError(str(error)) from None


def is_spec(data):
    """Whether a JSON document is a spec file (what made a log), not a log."""
    from .distributed import SPEC_VERSION
    return isinstance(data, dict) and data.get("float_adm_spec") == SPEC_VERSION


def _check_log(path, data):
    """ReportError unless data is a JSON log as float_adm and libvmaf write them: an
    object whose "frames" list holds objects with a whole "frameNum", "metrics" an
    object of numbers (or null), a finite "timestamp" where there is one."""
    def fail(what):
        raise ReportError("%s: not a JSON log of float_adm or libvmaf: %s"
                          % (shown(path), what))
    if not isinstance(data, dict):
        fail("an object with \"frames\" was expected, not %s" % _kind_of(data))
    if not isinstance(data.get("frames"), list):
        fail("\"frames\" must be a list, not %s" % _kind_of(data.get("frames")))
    for key in ("version", "incomplete"):
        if key in data and not isinstance(data[key], str):
            fail("\"%s\" must be a string, not %s" % (key, _kind_of(data[key])))
    for i, entry in enumerate(data["frames"]):
        if not isinstance(entry, dict):
            fail("frame %d must be an object, not %s" % (i, _kind_of(entry)))
        number = entry.get("frameNum")
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            fail("frame %d: \"frameNum\" must be a whole number from 0, not %s"
                 % (i, json.dumps(number)))
        metrics = entry.get("metrics", {})
        if not isinstance(metrics, dict):
            fail("frame %d: \"metrics\" must be an object, not %s" % (number, _kind_of(metrics)))
        for name, value in metrics.items():
            if value is not None and not _number(value):
                fail("frame %d: metric %s must be a number or null, not %s"
                     % (number, json.dumps(name), _kind_of(value)))
        when = entry.get("timestamp")
        if when is not None and (not _number(when) or not math.isfinite(when)):
            fail("frame %d: \"timestamp\" must be a finite number, not %s"
                 % (number, json.dumps(when)))


def _written_with(record, log_path):
    """Whether record was written with the log now at log_path (its digest)."""
    from .distributed import log_digest
    try:
        with open(log_path, "rb") as f:
            return record["log_sha256"] == log_digest(f.read())
    except OSError:
        return False


def _read_record(log_path):
    """The record beside a log (NAME.spec.json), checked, or None where there is none;
    ReportError where it is not a record."""
    from .distributed import spec_path
    path = spec_path(log_path)
    if not os.path.lexists(path):
        return None
    record = _read_json(path)

    def fail(what):
        raise ReportError("%s: not a spec file (the record beside a log): %s"
                          % (shown(path), what))
    if not isinstance(record, dict):
        fail("an object was expected, not %s" % _kind_of(record))
    if "log_sha256" in record and not _written_with(record, log_path):
        warnings.warn(LogInDoubt("%s: left out: it was written with another log than %s "
                                 "(one run's record beside another's log)"
                                 % (path, os.fspath(log_path))), stacklevel=3)
        return None
    for key in ("inputs", "settings", "options"):
        if not isinstance(record.get(key, {}), dict):
            fail("\"%s\" must be an object, not %s" % (key, _kind_of(record[key])))
    for name, entry in record.get("inputs", {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("path", ""), str):
            fail("input %s must be an object with a \"path\" string" % json.dumps(name))
        for key in ("size", "mtime_ns"):
            if key in entry and (not isinstance(entry[key], int) or isinstance(entry[key], bool)):
                fail("input %s: \"%s\" must be a whole number" % (json.dumps(name), key))
    for name, value in record.get("options", {}).items():
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            fail("option %s must be a finite number or true/false, not %s" % (json.dumps(name),
                                                                   json.dumps(value)))
    size = record.get("resolution")
    if size is not None and not (isinstance(size, list) and len(size) == 2 and
                                 all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                     for v in size)):
        fail("\"resolution\" must be [width, height], not %s" % json.dumps(size))
    if not isinstance(record.get("scaled", {}) or {}, dict):
        fail("\"scaled\" must be an object, not %s" % _kind_of(record["scaled"]))
    beside = record.get("beside_frames", [])
    if not isinstance(beside, list):
        fail("\"beside_frames\" must be a list, not %s" % _kind_of(beside))
    for i, entry in enumerate(beside):
        number = entry.get("frame") if isinstance(entry, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            fail("beside_frames[%d] must be an object with a whole \"frame\" from 0" % i)
        for name, value in entry.items():
            if name != "frame" and value is not None and not _number(value):
                fail("beside_frames[%d]: %s must be a number or null, not %s"
                     % (i, json.dumps(name), _kind_of(value)))
    return record


def _npy_header(archive, member, path):
    """(shape, dtype) of one array of an .npz, read from its .npy header alone."""
    import numpy as np
    with archive.open(member) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError("an .npy header of version %d.%d" % version)
    return shape, dtype


def _read_maps(log_path, frame_count, record):
    """({frame: loss}, {frame: lost detail} or None) of the maps beside a log
    (Results.save_maps), or (None, None) where there are none; ReportError where the
    file is not a maps file of at most frame_count frames, of the size the record says
    (and at most MAX_MAP_PIXELS).  The sizes are checked in the arrays' headers before
    anything is decompressed."""
    import zipfile
    import numpy as np
    from .results import Results, maps_path
    path = maps_path(log_path)
    if not os.path.lexists(path):
        return None, None

    def fail(what):
        raise ReportError("%s: not a maps file (Results.save_maps: arrays frames, loss and "
                          "perhaps lost): %s" % (shown(path), what))
    try:
        with zipfile.ZipFile(path) as archive:
            names = sorted(archive.namelist())
            if names not in (["frames.npy", "loss.npy"], ["frames.npy", "loss.npy", "lost.npy"]):
                fail("it holds %s" % ", ".join(archive.namelist()))
            frames_shape, frames_type = _npy_header(archive, "frames.npy", path)
            loss_shape, loss_type = _npy_header(archive, "loss.npy", path)
            lost_header = _npy_header(archive, "lost.npy", path) if len(names) == 3 else None
    except ReportError:
        raise
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as error:
        fail(str(error) or type(error).__name__)
    if len(frames_shape) != 1 or frames_type.kind not in "iu":
        fail("frames must be a list of frame numbers, not %s %s" % (frames_type, frames_shape))
    if len(loss_shape) != 3 or loss_type != np.dtype("<f4") or \
            loss_shape[0] != frames_shape[0]:
        fail("loss must be (frames, rows, columns) float32, one per frame number, not "
             "%s %s" % (loss_type, loss_shape))
    if lost_header and lost_header != (loss_shape, np.dtype("<f4")):
        fail("lost must be float32 of the loss's shape %s, not %s %s"
             % (loss_shape, lost_header[1], lost_header[0]))
    if frames_shape[0] > frame_count:
        fail("%d maps for a log of %d frames" % (frames_shape[0], frame_count))
    rows, columns = loss_shape[1:]
    if rows * columns * 32 * 32 > MAX_MAP_PIXELS:
        fail("maps of %dx%d blocks, larger than the pictures the report draws (%d pixels)"
             % (columns, rows, MAX_MAP_PIXELS))
    size = (record or {}).get("resolution")
    if size and (columns, rows) != (-(-size[0] // 32), -(-size[1] // 32)):
        fail("maps of %dx%d blocks for frames of %dx%d" % (columns, rows, size[0], size[1]))
    try:
        return Results.load_maps(path), Results.load_lost(path)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        fail(str(error) or type(error).__name__)


def _distorted_frames(log, numbers):
    """({frame: 8-bit luma}, None) of the distorted input's frames where the log's
    record names an input that is there as it was scored (its size and modification
    time the record's): raw or y4m read by the library's reader, a video decoded by
    ffmpeg as score_video numbered its frames.  ({}, why) where the frames cannot be
    found for certain: the maps are then drawn alone."""
    from .files import FileError
    from .video import FFmpegError
    record = log.record or {}
    settings = record.get("settings", {})
    entry = record.get("inputs", {}).get("distorted") or {}
    path = entry.get("path")
    if not path or settings.get("kind") not in ("files", "video"):
        return {}, "no record beside the log names its distorted input"
    if not isinstance(entry.get("size"), int) or not isinstance(entry.get("mtime_ns"), int):
        return {}, "the record holds no size and time of %s (not a local file)" % path
    try:
        now = os.stat(path)
    except OSError as error:
        return {}, "%s: %s" % (path, error.strerror)
    if not stat.S_ISREG(now.st_mode):
        return {}, "%s is not a regular file" % path
    if (now.st_size, now.st_mtime_ns) != (entry["size"], entry["mtime_ns"]):
        return {}, "%s has changed since it was scored (its size or time)" % path
    try:
        if settings["kind"] == "files":
            luma = _file_frames(path, settings, numbers)
        else:
            luma = _video_frames(log, path, settings, numbers)
    except (OSError, KeyError, TypeError, ValueError, FileError, FFmpegError) as error:
        return {}, str(error)
    return luma, None


def _file_frames(path, settings, numbers):
    """{frame: 8-bit luma} of a raw or y4m file; ValueError says why not."""
    from .files import Geometry, VideoFile
    from .map_image import luma_8bit
    with VideoFile(path) as video:
        geometry = video.header or Geometry(settings["width"], settings["height"],
                                            settings["pix_fmt"])
        video.start(geometry)
        missing = [n for n in numbers if n >= video.frame_count]
        if missing:
            raise ValueError("%s holds %d frames, not frame %d"
                             % (shown(path), video.frame_count, missing[0]))
        return {n: luma_8bit(video.read_luma(n), geometry.bit_depth) for n in numbers}


def _video_frames(log, path, settings, numbers):
    """{frame: 8-bit luma} of a video decoded by ffmpeg, each frame checked to be the
    one scored: at the time the log gives it (nearer to it than to any other frame's)
    and at the size scored, its map's blocks; ValueError says why not."""
    from .map_image import luma_8bit
    from .video_frames import read_frames
    record = log.record
    scaling = record.get("scaled")
    # The package's ffmpeg, never a program a record names: a report runs on logs
    # from anywhere.  Each frame's time and size are checked below.
    frames = read_frames(path, numbers, distorted_args=settings.get("distorted_args", ()),
                         scaling=scaling if isinstance(scaling, dict) else None)
    logged = {f["frame"]: f["timestamp"] for f in log.frames if "timestamp" in f}
    size = record.get("resolution")
    luma = {}
    for n, frame in frames.items():
        if n not in logged or frame.timestamp is None:
            raise ValueError("frame %d has no time %s to check it by" % (
                n, "in the log" if n not in logged else "as ffmpeg decodes it"))
        off = abs(logged[n] - frame.timestamp)
        if any(abs(t - frame.timestamp) <= off for m, t in logged.items() if m != n):
            raise ValueError("ffmpeg's frame %d of %s is at %.6g s, the log's frame %d at "
                             "%.6g s: not certainly the frame scored"
                             % (n, shown(path), frame.timestamp, n, logged[n]))
        height, width = frame.luma.shape
        if isinstance(size, list) and size != [width, height] or \
                log.maps[n].shape != (-(-height // 32), -(-width // 32)):
            raise ValueError("frame %d of %s decodes at %dx%d, not at the size scored"
                             % (n, shown(path), width, height))
        luma[n] = luma_8bit(frame.luma, frame.bit_depth)
    return luma


def _img(rgb, alt):
    import base64
    from .map_image import png, shrink
    rgb = shrink(rgb, MAP_WIDTH)
    return ('<img src="data:image/png;base64,%s" width="%d" height="%d" alt="%s">'
            % (base64.b64encode(png(rgb)).decode(), rgb.shape[1], rgb.shape[0],
               html.escape(alt)))


def _map_legend(with_share):
    """The colours of the views (the library's, from 0 to 1), and the grey of blocks not
    measured, each key's colours kept beside its words."""
    import numpy as np
    from .map_image import alone
    steps = 64
    strip = _img(alone(np.linspace(0, 1, steps, dtype=np.float32)[None, :], steps * 32, 32),
                 "the colours from 0 to 1")
    grey = _img(alone(np.full((1, 1), np.nan, dtype=np.float32), 32, 32),
                "the grey of blocks not measured")
    keys = ['<span class="key"><strong>loss in each block</strong> '
            '<span class="scale">0 %s 1</span></span>' % strip]
    if with_share:
        keys.append('<span class="key"><strong>share of the frame\'s lost detail</strong> '
                    '<span class="scale">0 %s its largest</span></span>' % strip)
    keys.append('<span class="key"><span class="scale grey">%s not measured</span> (ADM leaves '
                'a border of each scale out)</span>' % grey)
    return ('<p class="palette">%s <span class="key">(the library\'s colours: '
            'float_adm_map_render_rgb24)</span></p>' % " ".join(keys))


def map_frames(log):
    """The frames a log's maps are drawn for: its worst by adm2 (worst_frames' order),
    each at least min(MAP_FRAME_GAP, frames / MAP_WORST_COUNT) frames from those drawn
    before it, so that one bad moment is drawn once, not with its neighbours; among the
    worse half of the frames (fewer drawn rather than good ones), MAP_WORST_COUNT at
    most."""
    mapped = [f for f in log.scored if f["frame"] in log.maps]
    gap = max(1, min(MAP_FRAME_GAP, len(mapped) // MAP_WORST_COUNT))
    chosen = []
    for f in worst_frames(log, "adm2", max(MAP_WORST_COUNT, len(mapped) // 2)):
        if f["frame"] in log.maps and all(abs(f["frame"] - c["frame"]) >= gap for c in chosen):
            chosen.append(f)
            if len(chosen) == MAP_WORST_COUNT:
                break
    return chosen


def _map_figure(kind, frame, loss, lost, luma, size, caption, alt):
    """One frame's (or the title's) views, side by side: the loss in each block and,
    where the maps keep each block's lost detail, its share of the frame's, scaled to
    the largest share; each over the frame's luma where there is one (dimmed under the
    colours), else alone."""
    import numpy as np
    from .map_image import alone, overlay, share
    views = [("loss", "loss in each block", loss, "")]
    if lost is not None:
        shares = share(lost)
        largest = shares.max()
        scaled = np.where(np.isnan(loss), np.nan, shares / largest if largest > 0 else shares)
        views.append(("share", "share of the frame's lost detail",
                      scaled.astype(np.float32), " (largest %.2g %%)" % (100 * largest)
                      if largest > 0 else " (none lost)"))
    parts = []
    for name, title, grid, note in views:
        picture = overlay(grid, luma) if luma is not None else alone(grid, *size)
        parts.append('<div class="view %s"><span class="view-name">%s%s</span>%s</div>'
                     % (name, title, note, _img(picture, "%s, %s%s" % (
                         alt, title, " over it" if luma is not None else ""))))
    return ('<figure class="map %s" data-frame="%d"><figcaption>%s</figcaption>'
            '<div class="views">%s</div></figure>' % (kind, frame, caption, "".join(parts)))


def _maps_section(logs):
    """Per log with maps: the map averaged over its frames, and its worst frames by
    adm2 (map_frames), each over the distorted frame it describes."""
    import numpy as np
    with_maps = [log for log in logs
                 if log.maps and any(f["frame"] in log.maps for f in log.scored)]
    if not with_maps:
        return ""
    out = ['<section class="map-section"><h2>Where detail is lost</h2>',
           '<p class="meta">Each 32&times;32 block over the distorted frame, dimmed '
           '(docs/maps.md), in two views: <strong>loss in each block</strong>, 1 &minus; '
           'N/D of the block alone, however little detail it held (a flat sky loses much '
           'of little); and, where the maps keep it, <strong>share of the frame\'s lost '
           'detail</strong>, the block\'s D &minus; N over the sum of the frame\'s: where '
           'the detail the score misses went. The worst %d frames by adm2 at least %d '
           'frames apart (a quarter of a shorter title), among the worse half of the '
           'frames, and the maps averaged over the title.</p>'
           % (MAP_WORST_COUNT, MAP_FRAME_GAP),
           _map_legend(any(log.lost for log in with_maps))]
    for log in with_maps:
        chosen = map_frames(log)
        mapped = [f["frame"] for f in log.scored if f["frame"] in log.maps]
        middle = mapped[len(mapped) // 2]
        luma, why_alone = _distorted_frames(log, sorted({f["frame"] for f in chosen} |
                                                        {middle}))
        rows, columns = log.maps[middle].shape
        size = next(iter(luma.values())).shape[::-1] if luma else (columns * 32, rows * 32)
        # A frame the filter skipped has no map (NaN): the mean is the scored frames'.
        mean = np.mean(np.stack([log.maps[n] for n in mapped]), axis=0, dtype=np.float64)
        lost = None if log.lost is None else np.sum(
            np.clip(np.stack([log.lost[n] for n in mapped]), 0, None), axis=0)
        over = " over frame %d" % middle if middle in luma else ""
        figures = [_map_figure("mean", middle, mean.astype(np.float32), lost, luma.get(middle),
                               size, "mean of %d frames%s" % (len(mapped), over),
                               "%s: the maps averaged over %d frames%s"
                               % (log.label, len(mapped), over))]
        for f in chosen:
            n = f["frame"]
            when = " &middot; %s" % _fmt_time(f["timestamp"]) if "timestamp" in f else ""
            figures.append(_map_figure(
                "worst", n, log.maps[n], None if log.lost is None else log.lost[n],
                luma.get(n), size, "frame %d%s &middot; adm2 %s" % (n, when, _fmt(f["adm2"])),
                "%s: frame %d" % (log.label, n)))
        notes = []
        if not luma:
            notes.append("The distorted frames are not drawn under their maps (the maps "
                         "alone): %s." % html.escape(why_alone))
        if log.lost is None:
            notes.append("These maps keep the loss alone (ffmpeg's filter writes no more, "
                         "nor did maps files before the blocks' lost detail was kept): no "
                         "share view.")
        # Two views a figure: one figure a row where there is room; else rows of
        # pictures that hold as many as one another.
        cols = 1 if log.lost is not None else _balanced_columns(len(figures))
        out.append('<h3>%s</h3>%s<div class="maps" style="--cols: %d">%s</div>'
                   % (_wrap_name(log.label), "".join('<p class="meta">%s</p>' % n
                                                      for n in notes),
                      cols, "".join(figures)))
    out.append("</section>")
    return "\n".join(out)


def _balanced_columns(count, widest=4):
    """Columns for count pictures, widest at most, whose rows hold as many as one
    another or one fewer (5: 3 and 2, not 4 and 1)."""
    rows = -(-count // widest)
    return -(-count // rows)


def _load_one(path, label, used):
    """A log, labelled label (its file name without one), or None for a spec file (the
    natural glob NAME*.json takes NAME.spec.json too), which the caller leaves out
    (_leave_out); anything else that is no log is a ReportError naming it."""
    data = _read_json(path)
    if is_spec(data):
        return None
    return Log(path, _label(path, label, used), data)


def _leave_out(specs):
    """One SkippedFile warning for the spec files given among the logs, however many
    (a glob over a ladder's logs takes every rung's record)."""
    if len(specs) == 1:
        text = "%s: a spec file (what made a log), not a log: left out" % shown(specs[0])
    else:
        text = "%d spec files (what made each log), not logs: left out (%s, ...)" % (
            len(specs), shown(specs[0]))
    warnings.warn(SkippedFile(text, specs), stacklevel=3)


def _labels(paths, labels):
    labels = list(labels or ())
    if len(labels) > len(paths):
        raise ReportError("%d labels for %d logs" % (len(labels), len(paths)))
    return labels + [None] * (len(paths) - len(labels))


def load(paths, labels=()):
    """Each JSON log, labelled by labels in order (by file name past them), a label
    used twice made unique with " (2)"; spec files left out (_load_one)."""
    used, logs, specs = set(), [], []
    for path, label in zip(paths, _labels(paths, labels)):
        log = _load_one(path, label, used)
        if log is None:
            specs.append(os.fspath(path))
        else:
            logs.append(log)
    if specs:
        _leave_out(specs)
    if not logs:
        raise ReportError("no logs among %s" % ", ".join(shown(p) for p in paths))
    return logs


def write_report(paths, output, title="float_adm report", labels=(), progress=None):
    """Read the JSON logs at paths and write the report to output, where the output
    policy lets a report go (never over a log read, a file of another program, a
    link or a device; "-" is stdout).  The page's first lines carry the generator
    meta tag by which the library knows a report of ours (float_adm_output_check).
    progress: a line on stderr of the logs read, then the page (None: on a terminal)."""
    from . import _lib
    from ._progress import ProgressBar
    from .distributed import spec_path
    from .results import RunFiles, maps_path, write_atomically
    inputs = [os.fspath(p) for p in paths]
    # Everything read (each log, and the record and maps beside it), then the page:
    # the page is never any of them, under any name, before the work.
    files = RunFiles()
    for path in inputs:
        files.add_input(path, "a log")
        for beside in (spec_path(path), maps_path(path)):
            if os.path.exists(beside):
                files.add_input(beside)
    files.add_output(output, _lib.FLOAT_ADM_OUTPUT_REPORT, "the report")
    bar = ProgressBar(len(paths) + 1, enabled=progress, label="logs read, then the page")
    used, logs, specs = set(), [], []
    for n, (path, label) in enumerate(zip(paths, _labels(paths, labels)), 1):
        log = _load_one(path, label, used)
        if log is None:
            specs.append(os.fspath(path))
        else:
            logs.append(log)
        bar.update(n)
    if specs:
        _leave_out(specs)
    if not logs:
        raise ReportError("no logs among %s" % ", ".join(map(shown, inputs)))
    text = render(logs, title=title)
    bar.update(len(paths) + 1)
    bar.close()
    write_atomically(output, text, _lib.FLOAT_ADM_OUTPUT_REPORT, inputs)
