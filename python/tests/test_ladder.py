# SPDX-License-Identifier: LGPL-2.1-or-later
"""python3 -m floatadm ladder: encoding ladders scored against their sources, the
Bjøntegaard deltas between two, the table, plots and logs it writes."""
import csv
import html
import json
import math
import os
import pathlib
import re
import subprocess
import sys
import threading
import time
import urllib.parse

import pytest

from floatadm import distributed, ladder
from floatadm.__main__ import main
from floatadm.video import (FFmpegError, beside_filters, frame_metadata, probe_stream,
                            score_video)

# JCT-VC's BD-rate worked examples (JCTVC-E137), as libvmaf's BD-rate calculator
# reproduces them: (kbit/s, PSNR) of an anchor and a test, and the BD-rate as a
# fraction, stated to 4 decimal places.
JCTVC_E137 = [
    ([(108048.8736, 43.6471), (61279.976, 40.3953), (33905.6656, 37.247),
      (18883.6928, 34.2911)],
     [(108061.2784, 43.6768), (61299.9936, 40.4232), (33928.7472, 37.2761),
      (18910.912, 34.3147)], -0.00465215420752807),
    ([(40433.8848, 37.5761), (7622.7456, 35.3756), (2394.488, 33.8977),
      (1017.6184, 32.0603)],
     [(40370.12, 37.5982), (7587.0024, 35.4025), (2390.0944, 33.9194),
      (1017.0984, 32.0822)], -0.018779823450567612),
]


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Each test its own score cache: a rung one test scored is not found by another."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.mark.parametrize("anchor,test,expected", JCTVC_E137)
def test_bd_rate_reproduces_the_jctvc_worked_examples(anchor, test, expected):
    assert abs(ladder.bd_rate(anchor, test) - expected) < 0.5e-4


def test_bd_figures_of_a_curve_against_itself_and_a_shifted_copy():
    curve = JCTVC_E137[1][0]
    assert ladder.bd_rate(curve, curve) == 0
    assert ladder.bd_quality(curve, curve) == 0
    # The same qualities at 10 % less rate: -10 %, whatever the interpolation.
    cheaper = [(r * 0.9, q) for r, q in curve]
    assert ladder.bd_rate(curve, cheaper) == pytest.approx(-0.1, abs=1e-12)
    # The same rates 0.5 dB better: +0.5.
    better = [(r, q + 0.5) for r, q in curve]
    assert ladder.bd_quality(curve, better) == pytest.approx(0.5, abs=1e-12)


def test_bd_refuses_curves_that_do_not_overlap_or_do_not_rise():
    low = [(100, 0.90), (200, 0.92), (400, 0.93)]
    high = [(100, 0.95), (200, 0.97), (400, 0.98)]
    with pytest.raises(ladder.LadderError, match="do not overlap in quality"):
        ladder.bd_rate(low, high, ("A", "B"))
    with pytest.raises(ladder.LadderError, match="quality does not rise with rate"):
        ladder.bd_rate([(100, 0.9), (200, 0.8)], high)
    with pytest.raises(ladder.LadderError, match="at least 2"):
        ladder.bd_rate([(100, 0.9)], high)


def test_convex_hull_keeps_the_rungs_worth_encoding():
    points = [(100, 0.90), (150, 0.91), (200, 0.95), (250, 0.94), (300, 0.96), (400, 0.99),
              (500, 0.985)]
    # 150 lies under the line from 100 to 200, 300 under the one from 200 to 400; 250 and
    # 500 buy less quality than a cheaper rung.
    assert ladder.convex_hull(points) == [(100, 0.90), (200, 0.95), (400, 0.99)]


def encode(ffmpeg, source, size, kbps, codec, path):
    extra = ["-deadline", "good", "-cpu-used", "5"] if codec == "libvpx" else []
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                    "-vf", "scale=" + size, "-c:v", codec, *extra, "-b:v", "%dk" % kbps,
                    path], check=True)


@pytest.fixture(scope="module")
def ladders(ffmpeg, tmp_path_factory):
    """2 sources x 2 encoders x 6 rungs (2 sizes x 3 rates), generated, and their
    manifest."""
    encoders = subprocess.run([ffmpeg, "-hide_banner", "-encoders"], capture_output=True,
                              text=True).stdout
    if " libvpx " not in encoders or " mpeg2video " not in encoders:
        pytest.skip("this ffmpeg lacks the libvpx or mpeg2video encoder")
    work = tmp_path_factory.mktemp("ladder")
    rows = []
    for n, chain in enumerate(("null", "hflip,avgblur=1")):
        source = str(work / ("source%d.y4m" % n))
        subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f",
                        "lavfi", "-i", "testsrc2=s=320x180:r=25:d=0.6", "-vf", chain,
                        "-pix_fmt", "yuv420p", source], check=True)
        for name, codec, ext in (("mpeg2", "mpeg2video", "mkv"), ("vp8", "libvpx", "webm")):
            for size in ("320x180", "160x90"):
                for kbps in (100, 250, 600):
                    path = work / ("s%d_%s_%s_%d.%s" % (n, name, size, kbps, ext))
                    encode(ffmpeg, source, size, kbps, codec, str(path))
                    rows.append([os.path.basename(source), name, path.name,
                                 "%s %dk" % (size, kbps)])
    manifest = work / "rungs.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["source", "ladder", "file", "label"])
        writer.writerows(rows)
    return work, str(manifest)


def _plotted(points):
    rows = [dict({k: None for k in ladder.RUNG_COLUMNS}, source="s", ladder="a",
                 label="r%d" % i, bitrate_kbps=rate, adm2_mean=score)
            for i, (rate, score) in enumerate(points)]
    svg = ladder._plot(rows, "s", "adm2")
    return svg, re.findall(r'anchor="middle">(\d[^<]*)</text>', svg)


def test_plot_axes_read_round_values_whatever_the_rungs():
    # Rungs within less than one 1-2-5 step still get round rates, not the padded ends.
    assert _plotted([(1900, 0.95), (2600, 0.96)])[1] == ["2000", "2500"]
    # One rung sits inside its axis, with round rates on both sides.
    svg, rates = _plotted([(3000, 0.95)])
    assert rates == ["1000", "2000", "3000", "5000"]
    # A rung without a finite score is left out, not drawn at "nan".
    svg, rates = _plotted([(300, math.nan), (600, 0.9), (1200, 0.95)])
    assert "nan" not in svg and svg.count("<circle") == 2
    # A ladder within a decade gets every digit; a wide one decades only.
    assert _plotted([(140, 0.9), (660, 0.95)])[1] == ["200", "300", "400", "500", "600"]
    assert _plotted([(100, 0.8), (2e6, 0.99)])[1] == ["100", "1000", "10000", "100000",
                                                       "1000000"]


def test_one_command_scores_two_ladders_of_two_sources(ffmpeg, ladders, capsys):
    work, manifest = ladders
    out = str(work / "out")
    assert main(["ladder", manifest, "-o", out, "--compare", "mpeg2", "vp8", "--ffmpeg", ffmpeg,
                 "--no-progress"]) == 0
    printed = capsys.readouterr()
    # The hulls' metric, first of the BD figures: VMAF where this ffmpeg has libvmaf,
    # else adm2.
    has_vmaf = "libvmaf" in beside_filters(ffmpeg)[0]
    hull_metric = "vmaf" if has_vmaf else "adm2"
    assert "BD-rate vp8 against mpeg2, mean over the sources where it was taken:\n" \
        "  %s " % hull_metric in printed.out
    with open(os.path.join(out, "ladder.json"), encoding="utf-8") as f:
        table = json.load(f)
    rungs = table["rungs"]
    assert len(rungs) == 24 and table["scale"] == "bicubic"
    for rung in rungs:
        assert rung["frames"] == 15
        assert rung["width"] in (320, 160) and rung["codec"] in ("mpeg2video", "vp8")
        assert rung["bitrate_kbps"] > 0
        assert 0 < rung["adm2_mean"] <= 1 and rung["aim_mean"] >= 0
        assert os.path.isfile(rung["log"])
    # A rung at the source's size holds more of it than the same encoder's half-size
    # rung at the same rate.
    by_label = {(r["source"], r["ladder"], r["label"]): r["adm2_mean"] for r in rungs}
    for (source, name, label), adm2 in by_label.items():
        if label.startswith("320x180"):
            assert adm2 > by_label[(source, name, label.replace("320x180", "160x90"))]
    (comparison,) = table["comparisons"]
    assert [s["source"] for s in comparison["sources"]] == \
        sorted({r["source"] for r in rungs})
    assert all(math.isfinite(s["bd_rate_percent"]) for s in comparison["sources"])
    assert comparison["bd_rate_percent"] == pytest.approx(
        sum(s["bd_rate_percent"] for s in comparison["sources"]) / 2)
    with open(os.path.join(out, "ladder.csv"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("source,ladder,label,file,codec,width,height,frames,"
                               "bitrate_kbps,scale,options,hull_metric,on_hull,adm2_mean,")
    assert len(lines) == 25
    # PSNR and SSIM beside ADM, each rung's mean; VMAF where this ffmpeg has libvmaf,
    # else one line says it is left out.
    header = lines[0].split(",")
    for metric in ("psnr_y", "psnr_avg", "ssim_y", "ssim") + ("vmaf",) * has_vmaf:
        assert metric + "_mean" in header
    assert ("vmaf_mean" in header) == has_vmaf
    assert ("has no libvmaf filter: the tables leave vmaf out" in printed.err) != has_vmaf
    for rung in rungs:
        assert 20 < rung["psnr_y_mean"] < 70 and 20 < rung["psnr_avg_mean"] < 70
        assert 0.5 < rung["ssim_y_mean"] <= 1 and 0.5 < rung["ssim_mean"] <= 1
    # A BD figure by each metric, the hulls' first; the hulls' rungs marked, in each
    # title's recommended ladder in rising bitrate.
    assert list(comparison["by_metric"]) == ["vmaf"] * has_vmaf + [
        "adm2", "psnr_y", "psnr_avg", "ssim_y", "ssim"]
    for figures in comparison["by_metric"].values():
        assert all(math.isfinite(s["bd_rate_percent"]) for s in figures["sources"])
    column = hull_metric + "_mean"
    assert table["hull_metric"] == column and table["options"] == ""
    # Without VMAF the hulls are adm2's, and the command says so; with it, VMAF's,
    # unsaid; the rules of the recommended ladders and their parameters are stored,
    # and printed.
    assert ("the hulls and recommended ladders are by adm2: no VMAF was measured" in
            printed.err) != has_vmaf
    assert table["ladder_rules"] == ladder.ladder_rules(hull_metric)
    assert "at least min_rate_ratio times its bitrate" in table["recommended_rule"]
    assert "Recommended ladders by %s: from the floor (the cheapest rung of the smallest " \
        "picture size on the convex hull) up: picture size never falls as bitrate rises; " \
        "each rung at least 1.5 times the bitrate of the one below (default); at least %s " \
        "of %s apart (default for %s)" % (hull_metric, "6" if has_vmaf else "0.025",
                                          hull_metric, hull_metric) in printed.out
    for title in table["titles"]:
        for d in title["ladders"]:
            points = [(r["bitrate_kbps"], r[column]) for r in rungs
                      if r["source"] == title["source"] and r["ladder"] == d["ladder"]]
            hull = ladder.convex_hull(points)
            assert [(p["bitrate_kbps"], p[column]) for p in d["hull"]] == hull
            assert d["recommended"] == [p["label"] for p in d["recommended_rungs"]]
            _assert_obeys(d["recommended_rungs"], table["ladder_rules"], column)
            assert len(d["hull"]) + len(d["off_hull"]) == 6
            assert [(c["from"], c["to"]) for c in d["crossovers"]] == [("160x90", "320x180")]
    assert sum(r["on_hull"] for r in rungs) == sum(len(d["hull"]) for t in table["titles"]
                                                   for d in t["ladders"])
    assert list(table["titles_by_metric"]) == list(comparison["by_metric"])
    with open(os.path.join(out, "ladder.html"), encoding="utf-8") as f:
        page = f.read()
    # A view of every metric, each with its plot of each source.
    assert page.count("<svg") == 2 * len(comparison["by_metric"])
    assert "BD figures by adm2, vp8 against mpeg2" in page
    # Both axes read off the plots: round rates and scores, and each rung's label,
    # bitrate and score on its point, the rungs of the recommended ladders ringed.
    assert re.search(r'text-anchor="middle">[125]0*</text>', page)
    assert re.search(r'text-anchor="end">0\.\d+</text>', page)
    chosen = {(t["source"], d["ladder"], label) for t in table["titles"]
              for d in t["ladders"] for label in d["recommended"]}
    for rung in rungs:
        assert "<title>%s: %.0f kbit/s, %s %.5f%s</title>" % (
            rung["label"], rung["bitrate_kbps"], hull_metric, rung[column],
            ", recommended" if (rung["source"], rung["ladder"], rung["label"]) in chosen
            else "") in page
    # Each rung's label in the table links its report (its frames, charts and maps),
    # and "log" its log, relative to the page.
    links = {os.path.realpath(os.path.join(out, urllib.parse.unquote(href))): html.unescape(label)
             for href, label in re.findall(r'<a href="([^"]+)">([^<]+)</a>', page)}
    assert links == dict([(os.path.realpath(r["log"]), "log") for r in rungs] +
                         [(os.path.realpath(ladder.report_path(r["log"])), r["label"])
                          for r in rungs])
    # Each rung's report charts every metric and draws its worst frames' maps; those of
    # the rungs on a hull, by any metric the page shows, the share of each frame's lost
    # detail too, from maps the library made again of the same frames, the filter's
    # loss to the bit.
    from floatadm.results import Results, maps_path
    recommended = chosen
    # The hulls by each metric the page shows, from the rungs' means alone.
    chosen = set()
    for m in ["adm2", "psnr_y", "psnr_avg", "ssim_y", "ssim"] + ["vmaf"] * has_vmaf:
        for source, name in {(r["source"], r["ladder"]) for r in rungs}:
            mine = [r for r in rungs if (r["source"], r["ladder"]) == (source, name)]
            hull = ladder.convex_hull([(r["bitrate_kbps"], r[m + "_mean"]) for r in mine])
            chosen |= {(source, name, r["label"]) for r in mine
                       if (r["bitrate_kbps"], r[m + "_mean"]) in hull}
    assert recommended < chosen < {(r["source"], r["ladder"], r["label"]) for r in rungs}
    assert ladder.hull_rungs(rungs) == chosen
    for r in rungs:
        report = open(ladder.report_path(r["log"]), encoding="utf-8").read()
        assert "loss in each block" in report and "psnr_y" in report
        shared = (r["source"], r["ladder"], r["label"]) in chosen
        assert ('view-name">share of the frame' in report) == shared
        assert (Results.load_lost(maps_path(r["log"])) is not None) == shared
    r = next(r for r in rungs if (r["source"], r["ladder"], r["label"]) in chosen)
    filters = score_video(reference=r["source"], distorted=r["file"], ffmpeg=ffmpeg,
                          scale="bicubic", map=True).maps
    library = Results.load_maps(maps_path(r["log"]))
    assert all(filters[i].tobytes() == library[i].tobytes() for i in range(15))
    # Run again: the project's own tables and logs are replaced.
    assert main(["ladder", manifest, "-o", out, "--ffmpeg", ffmpeg, "--quiet",
                 "--no-progress"]) == 0


def test_a_file_that_is_not_ours_is_never_replaced(ffmpeg, ladders, capsys):
    work, manifest = ladders
    out = work / "taken"
    out.mkdir()
    (out / "ladder.csv").write_text("name,bitrate\nmine,1\n")
    assert main(["ladder", manifest, "-o", str(out), "--ffmpeg", ffmpeg, "--quiet",
                 "--no-progress"]) == 1
    assert "ladder.csv" in capsys.readouterr().err
    assert (out / "ladder.csv").read_text() == "name,bitrate\nmine,1\n"


@pytest.mark.parametrize("header", ["source,ladder,label,file,crf",
                                    "source,ladder,label,file"])
def test_the_manifest_is_never_a_table(ffmpeg, ladders, tmp_path, capsys, header):
    """A manifest named ladder.csv in the output directory, whatever its columns (the
    first four as a table's): an input of the run, refused before scoring, unchanged;
    and a table's own header with a column of the user's is not ours either."""
    work, _ = ladders
    manifest = tmp_path / "ladder.csv"
    text = "%s\n%s,vp8,low,%s%s\n" % (header, work / "source0.y4m",
                                     work / "s0_vp8_320x180_100.webm",
                                     ",40" if header.endswith("crf") else "")
    manifest.write_text(text)
    assert main(["ladder", str(manifest), "-o", str(tmp_path), "--ffmpeg", ffmpeg, "--quiet",
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "ladder.csv" in err and "input of the run" in err and err.count("\n") == 1, err
    assert manifest.read_text() == text
    assert sorted(os.listdir(tmp_path)) == ["ladder.csv"]


def test_a_record_that_is_not_ours_is_refused_before_scoring(ffmpeg, ladders, capsys):
    """A file that is not the project's where a later rung's record goes
    (LABEL.spec.json): refused before the first rung is scored, nothing written."""
    work, _ = ladders
    out = work / "foreign-record"
    encodes = [str(work / ("s0_vp8_320x180_%d.webm" % kbps)) for kbps in (100, 600)]
    logs = ladder.log_paths(ladder.rungs_of(str(work / "source0.y4m"), {"vp8": encodes}),
                            str(out / "logs"))
    foreign = distributed.spec_path(logs[1])
    os.makedirs(os.path.dirname(foreign))
    with open(foreign, "w", encoding="utf-8") as f:
        f.write("notes\n")
    assert main(["ladder", "--source", str(work / "source0.y4m"), "--ladder",
                 "vp8=" + ",".join(encodes), "-o", str(out), "--ffmpeg", ffmpeg, "--quiet",
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("floatadm: %s" % foreign) and err.count("\n") == 1, err
    assert os.listdir(os.path.dirname(foreign)) == [os.path.basename(foreign)]
    assert sorted(os.listdir(out)) == ["logs"]


def test_bitrate_is_the_whole_streams(ffmpeg, ladders):
    """Packets' bytes over the time they span: within the container's overhead of the
    file's size over its duration, whatever part of it is scored."""
    work, _ = ladders
    path = work / "s0_vp8_320x180_600.webm"
    stream = probe_stream(ffmpeg, str(path))
    whole = 8 * os.path.getsize(path) / 0.6
    assert 0.8 * whole < stream["bitrate"] <= whole


# Measures each plot of a page in Chromium: the texts drawn (ticks and the rungs'
# labels), pairs of them that overlap, labels over a point, and each label's nearest
# point, which must be its rung's (a circle's title starts with its rung's label).
PLOT_PROBE = """
  const plots = [];
  for (const svg of d.querySelectorAll('svg')) {
    const frame = svg.getBoundingClientRect();
    if (frame.width === 0) continue;  // a view not shown
    const texts = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()])
        .filter(([t, r]) => r.width > 0);
    const dots = [...svg.querySelectorAll('circle')].map(c => [c.getBoundingClientRect(),
        c.querySelector('title').textContent]);
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
        a.top < b.bottom - 1 && b.top < a.bottom - 1;
    let overlaps = 0, covered = 0, strays = 0, outside = 0, unnamed = 0, oncurve = 0;
    texts.forEach(([, a], i) => texts.slice(i + 1).forEach(([, b]) => overlaps += meet(a, b)));
    const labels = texts.filter(([t]) => t.classList.contains('pl'));
    for (const [t, r] of labels) {
      covered += dots.filter(([c]) => meet(r, c)).length;
      outside += r.left < frame.left || r.right > frame.right || r.top < frame.top ||
          r.bottom > frame.bottom;
      const gap = ([c]) => Math.max(c.left - r.right, r.left - c.right, 0) ** 2 +
          Math.max(c.top - r.bottom, r.top - c.bottom, 0) ** 2;
      const nearest = Math.min(...dots.map(gap));
      strays += !dots.some(dot => gap(dot) === nearest &&
                                  dot[1].startsWith(t.textContent + ':'));
      // A label over a curve: a point of a curve's line inside its box.
      for (const line of svg.querySelectorAll('line[stroke-width="2"]')) {
        const a = line.x1.baseVal.value, b = line.y1.baseVal.value;
        const c = line.x2.baseVal.value, e = line.y2.baseVal.value;
        for (let k = 0; k <= 50; k++) {
          const x = frame.left + a + (c - a) * k / 50, y = frame.top + b + (e - b) * k / 50;
          if (x > r.left && x < r.right && y > r.top && y < r.bottom) { oncurve++; break; }
        }
      }
    }
    // Every rung named: its label drawn, or in the list under the plot shown at this width.
    let listed = '';
    for (let p = svg.closest('figure').nextElementSibling;
         p && p.classList.contains('unl'); p = p.nextElementSibling)
      if (p.getBoundingClientRect().height > 0) listed += p.textContent;
    const drawn = new Set(labels.map(([t]) => t.textContent));
    for (const [, title] of dots) {
      const name = title.slice(0, title.indexOf(': '));
      unnamed += !drawn.has(name) && !listed.includes(name + ', ');
    }
    plots.push({width: frame.width, texts: texts.length, labels: labels.length,
                points: dots.length, overlaps, covered, strays, outside, unnamed, oncurve});
  }
  out.plots = JSON.stringify(plots);
"""


def _plots(page, width, tmp_path):
    """PLOT_PROBE's findings for each plot of a page laid out width pixels wide."""
    from test_report import _probe_page, parse, run_chromium
    (tmp_path / "plots.html").write_text(_probe_page(page, width, PLOT_PROBE))
    body = parse(run_chromium((tmp_path / "plots.html").as_uri(), (1700, 1000),
                              "--dump-dom")).body
    return json.loads(html.unescape(body["plots"]))


def _assert_readable(plots, width):
    """Plots at a page's width (most of it where there is room), none past it; their
    texts overlap nothing; each shown label lies inside its plot, by its own point,
    over no point and no curve; every rung not labelled is listed under the plot; most
    rungs labelled on a wide screen, some on a phone."""
    for plot in plots:
        assert (0.8 if width > 1000 else 0.6) * width <= plot["width"] <= width, plot
        assert plot["overlaps"] == plot["covered"] == plot["strays"] == plot["outside"] == 0, \
            plot
        assert plot["unnamed"] == plot["oncurve"] == 0, plot
        assert plot["labels"] >= (plot["points"] / 2 if width > 1000 else 1), plot


@pytest.mark.parametrize("width", [390, 1400])
def test_rungs_are_labelled_and_ticks_kept_apart(tmp_path, width):
    """A ladder whose rungs crowd (rates 10 % apart, labels as long as file names) and
    whose rate axis crosses a decade (900 beside 1000): at a phone's and a wide
    screen's width, no two texts of the plot overlap, and the labels drawn name the
    point beside them."""
    rows = [dict({k: None for k in ladder.RUNG_COLUMNS}, source="s.y4m", ladder=name,
                 label="%s_%dp_%dk" % (name, height, kbps), codec="x", width=1, height=1,
                 frames=1, bitrate_kbps=kbps * scale, adm2_mean=quality)
            for name, scale, shift in (("av1", 0.8, 0.01), ("x264", 1.0, 0.0))
            for height, kbps, quality in ((360, 700, 0.93), (360, 800, 0.945),
                                          (360, 900, 0.955), (360, 1000, 0.962),
                                          (360, 1100, 0.967), (360, 1200, 0.97),
                                          (240, 800, 0.94), (240, 1000, 0.95))
            for quality in [quality + shift]]
    page = ladder.table_html(rows, None, "adm2", "bicubic")
    assert page.count("<circle") == 16
    _assert_readable(_plots(page, width, tmp_path), width)


@pytest.mark.parametrize("width", [390, 1400])
def test_a_label_by_the_top_of_the_plot_stays_inside_it(tmp_path, width):
    """The best rung a little under the plot's top edge (8.4 % of its height, as VMAF
    98.3 on an axis up to 100): its label, above it, keeps inside the plot as drawn,
    the font's whole height included."""
    rows = [dict({k: None for k in ladder.RUNG_COLUMNS}, source="s.y4m", ladder="a",
                 label="320x180 %dk" % kbps, codec="x", width=1, height=1, frames=1,
                 bitrate_kbps=kbps, adm2_mean=quality)
            for kbps, quality in ((100, 0.80), (200, 0.90), (400, 0.95), (800, 0.98318))]
    page = ladder.table_html(rows, None, "adm2", "bicubic")
    assert page.count('cy="8.41%"') == 1
    _assert_readable(_plots(page, width, tmp_path), width)


def _ladder_page(ffmpeg, ladders):
    """ladder.html of the two ladders compared, made by the first test that asks."""
    work, manifest = ladders
    out = work / "page"
    if not (out / "ladder.html").exists():
        assert main(["ladder", manifest, "-o", str(out), "--compare", "mpeg2", "vp8",
                     "--ffmpeg", ffmpeg, "--quiet", "--no-progress"]) == 0
    return (out / "ladder.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("width", [390, 1400])
def test_ladder_page_holds_from_a_phone_to_a_wide_screen(ffmpeg, ladders, tmp_path, width):
    """ladder.html in Chromium at 390 and 1400 pixels: nothing runs past the window but
    inside a table's scroller, each plot is drawn at the page's width and its rungs
    labelled (_assert_readable), a size never wraps, and nothing is fetched from
    elsewhere."""
    from test_report import _probe_page, parse, run_chromium
    text = _ladder_page(ffmpeg, ladders)
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text
    script = """
  out.width = w.innerWidth;
  out.overflow = d.documentElement.scrollWidth > w.innerWidth;
  out.wide = [...d.querySelectorAll('body *')].filter(e => !e.closest('.scroll') &&
      e.getBoundingClientRect().right > w.innerWidth + 0.5).map(e => e.tagName).join(' ');
  const cell = [...d.querySelectorAll('td')].find(t => t.textContent === '320×180');
  const line = parseFloat(w.getComputedStyle(cell).lineHeight) || 20;
  out.sizewraps = cell.getBoundingClientRect().height > 1.8 * line;
"""
    (tmp_path / "probe.html").write_text(_probe_page(text, width, script))
    body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1700, 1000),
                              "--dump-dom")).body
    assert body["overflow"] == "false", body["wide"]
    assert body["sizewraps"] == "false"
    plots = _plots(text, width, tmp_path)
    assert len(plots) == 2
    _assert_readable(plots, width)


def test_rungs_that_do_not_encode_the_whole_source_are_refused_first(ffmpeg, ladders, tmp_path):
    """A rung of more (or fewer) frames than its source would be scored against a
    repeated source picture: refused, naming both counts, before anything is scored
    or written; so is a rung that is the source itself."""
    work, _ = ladders
    longer = tmp_path / "longer.webm"
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                    "-i", "testsrc2=s=320x180:r=25:d=2", "-c:v", "libvpx", "-deadline", "realtime",
                    str(longer)], check=True)
    out = tmp_path / "out"
    rungs = ladder.rungs_of(str(work / "source0.y4m"),
                            {"vp8": [str(work / "s0_vp8_320x180_600.webm"), str(longer)]})
    with pytest.raises(ladder.LadderError, match=r"longer.webm holds 50 frames, its source "
                                                 r".*source0.y4m 15"):
        ladder.score_ladder(rungs, log_dir=str(out), ffmpeg=ffmpeg)
    assert not out.exists()
    with pytest.raises(ladder.LadderError, match="is its source itself"):
        ladder.rungs_of(str(work / "source0.y4m"), {"x": [str(work / "source0.y4m")]})


def test_mistakes_in_the_command_are_refused_before_scoring(ffmpeg, ladders, tmp_path, capsys):
    work, manifest = ladders
    for args, message in ((["--compare", "mpeg2", "nope"], "no ladder nope"),
                          (["--compare", "vp8", "vp8"], "a ladder against itself"),
                          (["--metric", "aim"], "--metric aim"),
                          (["--metric", "bogus", "--compare", "mpeg2", "vp8"], "--metric bogus"),
                          (["--compare", "mpeg2"], "--compare takes ANCHOR TEST, or all"),
                          (["--jobs", "0"], "--jobs takes a number")):
        out = tmp_path / ("out%d" % len(message))
        assert main(["ladder", manifest, "-o", str(out), "--ffmpeg", ffmpeg, "--quiet",
                     "--no-progress", *args]) == 1
        assert message in capsys.readouterr().err
        assert not out.exists()


def test_names_that_meet_as_file_names_are_kept_apart(tmp_path):
    """Two sources of one file name, labels that become the same file name: each rung
    its own log, each source its own name in the tables."""
    for d in ("t1", "t2"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "source.y4m").write_bytes(b"x")
    (tmp_path / "r.webm").write_bytes(b"x")
    rungs = [ladder._rung(str(tmp_path / d / "source.y4m"), "<b>vp9</b>", str(tmp_path / "r.webm"),
                          label) for d in ("t1", "t2") for label in ("a/b", "a_b", "..")]
    paths = ladder.log_paths(rungs, "logs")
    assert len(set(paths)) == 6
    assert all(p.startswith("logs/") and "/../" not in p for p in paths)
    # A label ending ".spec" in either order: no log is another rung's record.
    for labels in (("a", "a.spec"), ("a.spec", "a")):
        spec_rungs = [ladder._rung(str(tmp_path / "t1" / "source.y4m"), "vp9",
                                   str(tmp_path / "r.webm"), label) for label in labels]
        logs = ladder.log_paths(spec_rungs, "logs")
        files = logs + [distributed.spec_path(p) for p in logs]
        assert len(set(files)) == 4, files
    names = ladder.source_names(rungs)
    assert len(set(names.values())) == 2


def test_a_bd_figure_that_cannot_be_taken_leaves_the_others():
    """Per source, BD-rate and BD-quality each taken where the curves overlap; a source
    one ladder lacks is listed apart; the means are over what was taken."""
    rows = []
    for source, ladders in (("s1", {"A": [(100, 0.90), (200, 0.95), (400, 0.98)],
                                    "B": [(100, 0.92), (200, 0.96), (400, 0.985)]}),
                            ("s2", {"A": [(100, 0.90), (200, 0.92)],
                                    "B": [(1000, 0.95), (2000, 0.97)]}),
                            ("s3", {"A": [(100, 0.9), (200, 0.95)]})):
        for name, points in ladders.items():
            rows += [{"source": source, "ladder": name, "label": "%d" % r, "bitrate_kbps": r,
                      "adm2_mean": q} for r, q in points]
    result = ladder.compare(rows, "A", "B")
    s1, s2 = result["sources"]
    assert s1["bd_rate_percent"] < 0 and s1["bd_quality"] > 0 and "not_taken" not in s1
    assert s2["bd_rate_percent"] is None and s2["bd_quality"] is None
    assert "do not overlap in quality" in s2["not_taken"]["bd_rate_percent"]
    assert "do not overlap in bitrate (100..200 against 1000..2000)" in \
        s2["not_taken"]["bd_quality"]
    assert result["bd_rate_percent"] == s1["bd_rate_percent"]
    assert result["mean_over"] == {"bd_rate_percent": ["s1"], "bd_quality": ["s1"]}
    assert "not_taken" not in result
    assert result["sources_lacking_a_ladder"] == ["s3"]
    assert ladder.not_taken(result, rows)[-1] == \
        "B against A, s3: not compared, ladder B has no rung of it"
    # Where no source's figure is taken, the mean says so.
    none = ladder.compare([r for r in rows if r["source"] != "s1"], "A", "B")
    assert none["bd_rate_percent"] is None and none["mean_over"]["bd_rate_percent"] == []
    assert none["not_taken"]["bd_rate_percent"] == "taken for none of the 1 source(s) compared"


def test_each_mean_says_its_sources_and_each_figure_not_taken_says_why(ffmpeg, ladders,
                                                                       tmp_path, capsys):
    """A rung identical to its source (FFV1: PSNR infinite in every frame) leaves vp8
    one rung of source1 with a PSNR: its PSNR BD figures there are not taken, adm2's
    are.  Console, stderr, ladder.json and the page say which sources each mean is
    over and why each figure, and the rung's PSNR mean, was not taken; the command
    exits 1, as wherever a figure of a comparison is not taken."""
    work, _ = ladders
    lossless = tmp_path / "lossless.mkv"
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i",
                    str(work / "source1.y4m"), "-c:v", "ffv1", str(lossless)], check=True)
    manifest = tmp_path / "rungs.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["source", "ladder", "file"])
        for n, name, ext in ((0, "mpeg2", "mkv"), (0, "vp8", "webm"), (1, "mpeg2", "mkv")):
            for size in ("320x180", "160x90"):
                for kbps in (100, 250, 600):
                    writer.writerow([work / ("source%d.y4m" % n), name,
                                     work / ("s%d_%s_%s_%d.%s" % (n, name, size, kbps, ext))])
        writer.writerow([work / "source1.y4m", "vp8", work / "s1_vp8_320x180_250.webm"])
        writer.writerow([work / "source1.y4m", "vp8", lossless])
    out = tmp_path / "out"
    assert main(["ladder", str(manifest), "-o", str(out), "--compare", "mpeg2", "vp8",
                 "--ffmpeg", ffmpeg, "--no-progress"]) == 1
    printed = capsys.readouterr()
    why = ("vp8 (source1.y4m): 1 point(s); a BD figure needs at least 2 (4 is usual); left "
           "out: 1 rung(s) of vp8 without a finite psnr_y mean (lossless)")
    assert "BD-rate vp8 against mpeg2, mean over the sources where it was taken:\n" \
        in printed.out
    assert re.search(r"^  adm2 +[-+]\d+\.\d\d % +over 2 of 2 sources$", printed.out, re.M)
    assert re.search(r"^  psnr_y +[-+]\d+\.\d\d % +over 1 of 2 sources: source0\.y4m, not "
                     r"source1\.y4m$", printed.out, re.M)
    assert "      BD-rate not taken: " + why in printed.out
    assert "floatadm: vp8 against mpeg2 by psnr_y, source1.y4m: BD-rate not taken: " + why \
        in printed.err
    assert "floatadm: vp8 against mpeg2 by psnr_y, source1.y4m: BD-quality not taken: vp8 " \
        "(source1.y4m): 1 point(s)" in printed.err
    assert "mean over 2 source(s)" not in printed.out
    rung_why = "psnr_y mean not taken: psnr_y is not finite in 15 of the 15 frames scored " \
        "(the first: frame 0); PSNR is infinite where a frame equals its source"
    assert "source1.y4m vp8 lossless: " + rung_why in printed.out
    table = json.loads((out / "ladder.json").read_text())
    (comparison,) = table["comparisons"]
    sources = sorted({r["source"] for r in table["rungs"]})
    assert comparison["by_metric"]["adm2"]["mean_over"]["bd_rate_percent"] == sources
    psnr = comparison["by_metric"]["psnr_y"]
    assert psnr["mean_over"]["bd_rate_percent"] == sources[:1]
    assert psnr["sources"][1]["not_taken"]["bd_rate_percent"] == why
    assert "vp8 against mpeg2 by psnr_y, source1.y4m: BD-rate not taken: " + why in \
        comparison["figures_not_taken"]
    (lossless_row,) = [r for r in table["rungs"] if r["label"] == "lossless"]
    assert lossless_row["psnr_y_mean"] is None and \
        lossless_row["not_taken"]["psnr_y_mean"] == rung_why[len("psnr_y mean not taken: "):]
    page = (out / "ladder.html").read_text()
    assert html.escape("1 of 2 sources: source0.y4m, not source1.y4m") in page
    assert html.escape("vp8 against mpeg2 by psnr_y, source1.y4m: BD-rate not taken: " + why) \
        in page
    assert html.escape("vp8, lossless: " + rung_why) in page
    # The rule is the one --help states.
    with pytest.raises(SystemExit):
        main(["ladder", "--help"])
    assert "Exit status: 0 where every figure of every --compare was taken; 1 where any " \
        "was not" in " ".join(capsys.readouterr().out.split())


def test_manifest_as_spreadsheets_save_it(tmp_path):
    """A byte-order mark, capitalised and padded column names, blank lines: read; no
    line naming the columns, a line of more fields than columns, or no rungs: refused
    with the line."""
    (tmp_path / "src.y4m").write_bytes(b"x")
    (tmp_path / "r1.webm").write_bytes(b"x")
    good = tmp_path / "good.csv"
    good.write_text("\ufeffSource, Ladder ,FILE,Label\n\nsrc.y4m,vp8,r1.webm,\"low, 100k\"\n",
                    encoding="utf-8")
    (rung,) = ladder.read_manifest(str(good))
    assert rung["label"] == "low, 100k" and rung["file"] == str(tmp_path / "r1.webm")
    for text, message in (("src.y4m,vp8,r1.webm\n", "must name the columns"),
                          ("source,ladder,file\n\nsrc.y4m,vp8,r1.webm,x\n", "line 3: 4 fields"),
                          ("source,ladder,file\n", "no rungs")):
        bad = tmp_path / "bad.csv"
        bad.write_text(text)
        with pytest.raises(ladder.LadderError, match=message):
            ladder.read_manifest(str(bad))


def test_a_manifest_that_is_no_utf8_csv_is_named(tmp_path, capsys):
    """A binary file, or a field past csv's limit, given as the manifest: one line naming
    it and what a manifest is."""
    expected = "not a CSV manifest in UTF-8 whose first line names the columns source, " \
        "ladder, file"
    binary = tmp_path / "rungs.csv"
    binary.write_bytes(b"source,ladder,file\nsrc.y4m,vp8,\xd2\x04\x00\x01.webm\n")
    long_field = tmp_path / "long.csv"
    long_field.write_text('source,ladder,file\nsrc.y4m,vp8,"%s"\n' % ("x" * 200000))
    for path, where, why in ((binary, binary, "byte 31, 0xd2, is not UTF-8"),
                             (long_field, "%s, line 2" % long_field, "field larger than")):
        assert main(["ladder", str(path), "-o", str(tmp_path / "out"), "--quiet"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("floatadm: %s: %s (%s" % (where, expected, why)), err
        assert err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


def test_bitrate_of_an_elementary_stream(ffmpeg, ladders, tmp_path):
    """Raw MPEG-2 (no timestamps): its packets over their count at the frame rate."""
    work, _ = ladders
    es = tmp_path / "rung.m2v"
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i",
                    str(work / "source0.y4m"), "-c:v", "mpeg2video", "-b:v", "300k", "-f",
                    "rawvideo", str(es)], check=True)
    assert probe_stream(ffmpeg, str(es))["bitrate"] == pytest.approx(8 * os.path.getsize(es) / 0.6)


def test_a_source_that_is_no_video_is_named(ffmpeg, ladders, tmp_path):
    work, _ = ladders
    text = tmp_path / "notes.y4m"
    text.write_text("not a video\n")
    rungs = ladder.rungs_of(str(text), {"vp8": [str(work / "s0_vp8_320x180_600.webm")]})
    with pytest.raises(ladder.LadderError, match="notes.y4m: ffprobe finds no video stream"):
        ladder.check_rungs(rungs, ffmpeg)


def test_psnr_and_ssim_measure_the_frames_float_adm_scores(ffmpeg, ladders, tmp_path):
    """PSNR and SSIM beside float_adm in one graph: float_adm's scores bit for bit those
    of a run without them, and the values FFmpeg's filters give the rung scaled alone."""
    work, _ = ladders
    source, rung = str(work / "source1.y4m"), str(work / "s1_vp8_160x90_250.webm")
    alone = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic")
    beside = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                         beside=("psnr", "ssim"))
    for results, name in ((alone, "alone.json"), (beside, "beside.json")):
        results.to_json(str(tmp_path / name))
    logs = [json.loads((tmp_path / name).read_text())["frames"]
            for name in ("alone.json", "beside.json")]
    assert logs[0] == logs[1] and len(logs[0]) == 15
    assert alone.beside == {} and sorted(beside.beside) == ["psnr_avg", "psnr_y", "ssim",
                                                             "ssim_y"]
    for name, keys in (("psnr", ("lavfi.psnr.psnr.y", "lavfi.psnr.psnr_avg")),
                       ("ssim", ("lavfi.ssim.Y", "lavfi.ssim.All"))):
        meta = tmp_path / (name + ".txt")
        subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i", rung,
                        "-i", source, "-filter_complex",
                        "[0:v]scale=w=320:h=180:flags=bicubic[d];[d][1:v]%s,metadata=mode="
                        "print:file=%s" % (name, meta), "-f", "null", "-"], check=True)
        frames = frame_metadata(str(meta))
        metrics = {"psnr": ("psnr_y", "psnr_avg"), "ssim": ("ssim_y", "ssim")}[name]
        for metric, key in zip(metrics, keys):
            assert beside.beside[metric] == [frames[n][key] for n in range(15)]


# Rungs in each container at the common frame rates, and a variable frame rate: a
# source's frame i is at i / rate (y4m, exact), a Matroska or WebM rung's at i / rate
# rounded to the millisecond, an MP4 rung's on a tick of 1 / rate.  The VFR source
# changes from 60 to 20 fps (Matroska: milliseconds), which MP4 rungs keep on a tick
# of 1/60 s.
PAIRING_RATES = {"23.976": "24000/1001", "24": "24", "29.97": "30000/1001",
                 "59.94": "60000/1001", "vfr": None}
PAIRING_CONTAINERS = {"mkv": ["-c:v", "mpeg2video", "-q:v", "12", "-bf", "2"],
                      "mp4": ["-c:v", "mpeg2video", "-q:v", "12", "-bf", "2"],
                      "webm": ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
                               "-b:v", "60k"]}
PAIRING_CASES = [(rate, ext) for rate in PAIRING_RATES for ext in PAIRING_CONTAINERS]


@pytest.fixture(scope="module")
def pairing_clips(ffmpeg, tmp_path_factory):
    """{(rate, container): (source, rung)}: 12 frames of testsrc2 at 128x72, each source
    encoded at 96x54 (B-frames in MPEG-2, so that frames are reordered) into each
    container."""
    encoders = subprocess.run([ffmpeg, "-hide_banner", "-encoders"], capture_output=True,
                              text=True).stdout
    if " libvpx " not in encoders or " mpeg2video " not in encoders:
        pytest.skip("this ffmpeg lacks the libvpx or mpeg2video encoder")
    work = tmp_path_factory.mktemp("pairing")
    run = [ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
    clips = {}
    for name, rate in PAIRING_RATES.items():
        if rate:
            source = str(work / ("source_%s.y4m" % name))
            subprocess.run(run + ["-f", "lavfi", "-i", "testsrc2=s=128x72:r=" + rate,
                                  "-frames:v", "12", "-pix_fmt", "yuv420p", source], check=True)
        else:
            source = str(work / "source_vfr.mkv")
            subprocess.run(run + ["-f", "lavfi", "-i", "testsrc2=s=128x72:r=60", "-vf",
                                  "select='lt(n\\,8)+eq(mod(n\\,3)\\,0)'", "-fps_mode",
                                  "passthrough", "-frames:v", "12", "-c:v", "ffv1", source],
                           check=True)
        for ext, codec in PAIRING_CONTAINERS.items():
            rung = str(work / ("rung_%s.%s" % (name, ext)))
            subprocess.run(run + ["-i", source, "-vf", "scale=96:54", *codec, rung], check=True)
            clips[(name, ext)] = (source, rung)
    return clips


def index_paired(ffmpeg, source, rung, filters, work):
    """float_adm's frames and each filter's per-frame values ({metric: [...]}) of the
    rung's frame i against the source's frame i, as decoded: both inputs' timestamps
    replaced by their frame numbers (setpts=N/TB: frame i at i seconds), so that every
    pairing rule pairs them by index, in the graph score_video builds otherwise (the
    rung scaled as a ladder scales it, then split to each filter)."""
    from floatadm.results import Results
    from floatadm.video import BESIDE, scale_filter
    scaled = scale_filter({"scaler": "bicubic", "width": 128, "height": 72})
    n = len(filters) + 1
    graph = "[0:v]%s,setpts=N/TB,split=%d%s;[1:v]setpts=N/TB,split=%d%s;" % (
        scaled, n, "".join("[d%d]" % i for i in range(n)), n,
        "".join("[r%d]" % i for i in range(n)))
    graph += "[d0][r0]float_adm=log_fmt=json:log_path=%s" % (work / "adm.json")
    for i, name in enumerate(filters, 1):
        graph += ";[d%d][r%d]" % (i, i) + (
            "libvmaf=log_fmt=json:log_path=%s" % (work / "vmaf.json") if name == "libvmaf"
            else "%s,metadata=mode=print:file=%s" % (name, work / (name + ".txt")))
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i", rung,
                    "-i", source, "-filter_complex", graph, "-f", "null", "-"], check=True)
    values = {}
    for name in filters:
        if name == "libvmaf":
            frames = json.loads((work / "vmaf.json").read_text())["frames"]
            per_frame = {f["frameNum"]: f["metrics"] for f in frames}
        else:
            per_frame = frame_metadata(str(work / (name + ".txt")))
        for metric, key in BESIDE[name].items():
            values[metric] = [per_frame[i][key] for i in sorted(per_frame)]
    return Results.from_json(str(work / "adm.json")), values


@pytest.mark.parametrize("rate,container", PAIRING_CASES)
def test_every_metric_measures_the_pairs_float_adm_scores(ffmpeg, pairing_clips, tmp_path,
                                                          rate, container):
    """A rung against its source, each frame of every metric beside float_adm the value
    FFmpeg's own filter gives the rung's frame i against the source's frame i, and
    float_adm's scores those of frame i against frame i: the nearest-in-time pairing
    is the pairing by index, for every container's rounding and a variable frame
    rate (where the rung keeps its source's times, which a rung of as many frames
    does)."""
    source, rung = pairing_clips[(rate, container)]
    filters = [f for f in ("psnr", "ssim") if f in beside_filters(ffmpeg)[0]]
    assert filters == ["psnr", "ssim"]
    scored = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                         beside=filters)
    adm, expected = index_paired(ffmpeg, source, rung, filters, tmp_path)
    assert len(scored.frames) == len(adm.frames) == 12
    assert [{k: v for k, v in f.items() if k != "timestamp"} for f in scored.frames] == \
        adm.frames
    for metric, values in expected.items():
        assert len(values) == 12
        assert scored.beside[metric] == values, metric


@pytest.mark.parametrize("rate,container", PAIRING_CASES)
def test_vmaf_measures_the_pairs_float_adm_scores(ffmpeg, pairing_clips, tmp_path, rate,
                                                  container):
    """As above, VMAF: libvmaf's value of each frame that of the rung's frame i against
    the source's frame i."""
    if "libvmaf" not in beside_filters(ffmpeg)[0]:
        pytest.skip("%s has no libvmaf filter (the project's ffmpeg has it where libvmaf-dev "
                    "was installed when it was configured, or after make workbench-libvmaf): "
                    "VMAF's pairing is not checked here" % ffmpeg)
    source, rung = pairing_clips[(rate, container)]
    scored = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                         beside=["libvmaf"])
    _, expected = index_paired(ffmpeg, source, rung, ["libvmaf"], tmp_path)
    assert scored.beside["vmaf"] == expected["vmaf"] and len(expected["vmaf"]) == 12


def test_a_filter_beside_that_cannot_pair_as_float_adm_is_refused(ffmpeg, pairing_clips,
                                                                  monkeypatch):
    """A filter beside whose framesync has no ts_sync_mode (an older FFmpeg) would pair
    by its default: refused, naming it, before ffmpeg runs."""
    from floatadm import video
    help_text = video._filter_help(ffmpeg, "ssim")
    monkeypatch.setitem(video._checked, (ffmpeg, "ssim"),
                        re.sub(r"^ +ts_sync_mode .*$", "", help_text, flags=re.M))
    source, rung = pairing_clips[("24", "mkv")]
    with pytest.raises(FFmpegError, match="the ssim filter of .* has no ts_sync_mode option"):
        score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                    beside=["psnr", "ssim"])


def test_each_rungs_record_keeps_every_metrics_frames(ffmpeg, pairing_clips, tmp_path):
    """A ladder's rung keeps, in its log's record, the value of every metric beside
    float_adm for each frame float_adm scored, that of frame i against frame i; the
    table's means are theirs, the report charts them beside ADM, and a log whose record
    does not say its metrics were paired so is scored again."""
    from floatadm.report import load
    from floatadm.results import pool
    rungs = [ladder._rung(source, container, rung, rate)
             for (rate, container), (source, rung) in pairing_clips.items()]
    rows = ladder.score_ladder(rungs, log_dir=str(tmp_path / "logs"), ffmpeg=ffmpeg,
                               beside=["psnr", "ssim"])
    assert len(rows) == len(PAIRING_CASES)
    for row in rows:
        _, expected = index_paired(ffmpeg, row["source"], row["file"], ["psnr", "ssim"],
                                   tmp_path)
        kept = distributed.read_record(row["log"])["beside_frames"]
        assert [f["frame"] for f in kept] == list(range(12))
        for metric, values in expected.items():
            assert [f[metric] for f in kept] == values, (row["file"], metric)
            assert row[metric + "_mean"] == pool(values)["mean"]
        (log,) = load([row["log"]])
        assert log.values("psnr_y") == expected["psnr_y"] and "adm2" in log.names
    # A log whose record predates the pairing of the metrics beside: scored again.
    log = rows[0]["log"]
    record = distributed.read_record(log)
    del record["settings"]["beside_pairing"], record["beside_frames"]
    with open(distributed.spec_path(log), "w", encoding="utf-8") as f:
        json.dump(record, f)
    again = ladder.score_ladder(rungs, log_dir=str(tmp_path / "logs"), ffmpeg=ffmpeg,
                                beside=["psnr", "ssim"])
    assert [r["label"] for r in again if not r["reused"]] == [rows[0]["label"]]
    assert "beside_frames" in distributed.read_record(log)


def test_a_stopped_rung_ends_its_ffmpeg(ffmpeg, ladders):
    """stop set (a failed rung beside it, Ctrl-C): ffmpeg is ended, score_video says so."""
    work, _ = ladders
    stop = threading.Event()
    stop.set()
    with pytest.raises(FFmpegError, match="^stopped: "):
        score_video(reference=str(work / "source0.y4m"), distorted=str(work / "source1.y4m"),
                    ffmpeg=ffmpeg, stop=stop)


def _synthetic(curves):
    """Rows of (source, ladder): [(kbit/s, {metric: mean})] as score_ladder makes them."""
    return [dict({k: None for k in ladder.RUNG_COLUMNS}, source=source, ladder=name,
                 label="%dk" % rate, bitrate_kbps=rate,
                 **{m + "_mean": v for m, v in means.items()})
            for (source, name), points in curves.items() for rate, means in points]


def test_metrics_that_disagree_and_narrow_ranges_are_noted():
    """A note where two metrics' BD-rates differ in sign, and where the hulls share a
    quality range under 5 % of the metric's scale; every pair with --compare all."""
    rates = (100, 200, 400, 800)
    rows = _synthetic({
        ("s", "A"): [(r, {"adm2": q, "psnr_y": p, "ssim": s})
                     for r, q, p, s in zip(rates, (0.80, 0.88, 0.93, 0.96), (30, 34, 37, 39),
                                           (0.970, 0.975, 0.979, 0.982))],
        ("s", "B"): [(r, {"adm2": q, "psnr_y": p, "ssim": s})
                     for r, q, p, s in zip(rates, (0.84, 0.91, 0.95, 0.97), (29, 33, 36, 38),
                                           (0.971, 0.976, 0.980, 0.983))],
        ("s", "C"): [(r, {"adm2": q, "psnr_y": p, "ssim": s})
                     for r, q, p, s in zip(rates, (0.82, 0.89, 0.94, 0.965), (30, 34, 37, 39),
                                           (0.970, 0.975, 0.979, 0.982))]})
    pairs = ladder.comparison_pairs(rows, [["all"], ["A", "B"], ["B", "A"]])
    assert pairs == [("A", "B"), ("A", "C"), ("B", "C"), ("B", "A")]
    (ab,) = ladder.compare_all(rows, [("A", "B")], "adm2")
    assert list(ab["by_metric"]) == ["adm2", "psnr_y", "ssim"]
    assert ab["by_metric"]["adm2"]["bd_rate_percent"] < 0 < \
        ab["by_metric"]["psnr_y"]["bd_rate_percent"]
    disagree = [n for n in ab["notes"] if "disagree" in n]
    assert len(disagree) == 2  # the source, and the mean over the sources
    assert disagree[0].startswith("B against A, s: the metrics disagree on which needs fewer "
                                  "bits: B fewer by adm2 -") and "more by psnr_y +" in disagree[0]
    (narrow,) = [n for n in ab["notes"] if "not stable" in n]
    assert narrow.startswith("B against A, s: the two hulls share ssim 0.971..0.982 only, 1.1 % "
                             "of its scale (1), under 5 %")
    assert ab["by_metric"]["ssim"]["sources"][0]["narrow"]
    assert not ab["by_metric"]["psnr_y"]["sources"][0]["narrow"]


def _subset(work, path, sources=(0,), ladders=("mpeg2", "vp8"), labels=None):
    """A manifest of the fixture's rungs of some sources and ladders."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["source", "ladder", "file", "label"])
        for n in sources:
            for name, ext in (("mpeg2", "mkv"), ("vp8", "webm")):
                for size in ("320x180", "160x90"):
                    for kbps in (600, 100, 250):
                        if name in ladders:
                            label = labels[kbps] if labels else "%dk" % kbps
                            writer.writerow([work / ("source%d.y4m" % n), name,
                                             work / ("s%d_%s_%s_%d.%s" % (n, name, size, kbps,
                                                                          ext)),
                                             "%s %s" % (size, label)])
    return str(path)


def test_a_second_run_reuses_every_log_and_a_changed_option_rescores(ffmpeg, ladders, capsys):
    """Inputs (path, size, modification time), options and scaler unchanged: every
    rung's log is read back, not scored, in under a quarter of the first run's time,
    and the tables are the same; an option given rescores every rung and names the
    columns as the logs do; an input touched rescores its rung alone."""
    work, _ = ladders
    manifest = _subset(work, work / "reuse.csv")
    out = str(work / "reuse")
    # adm2's hulls, with or without VMAF: the hull metric's name takes the option's.
    command = ["ladder", manifest, "-o", out, "--ffmpeg", ffmpeg, "--no-progress", "--metric",
               "adm2"]
    began = time.monotonic()
    assert main(command) == 0
    first = time.monotonic() - began
    assert "12 rung(s) in" in capsys.readouterr().out
    logs = sorted(str(p) for p in (work / "reuse" / "logs").rglob("*.json"))
    stamps = [os.stat(p).st_mtime_ns for p in logs]
    tables = [(work / "reuse" / name).read_bytes() for name in ("ladder.csv", "ladder.html")]
    began = time.monotonic()
    assert main(command) == 0
    again = time.monotonic() - began
    printed = capsys.readouterr().out
    assert ": 0 scored, 12 reused" in printed and printed.count(" reused\n") == 12
    assert again < first / 4, (first, again)
    assert [os.stat(p).st_mtime_ns for p in logs] == stamps
    assert [(work / "reuse" / name).read_bytes() for name in ("ladder.csv", "ladder.html")] \
        == tables
    # An option given: every rung scored again, its columns and the tables say so.
    assert main(command + ["--option", "egl=1"]) == 0
    assert ": 12 scored, 0 reused" in capsys.readouterr().out
    table = json.loads((work / "reuse" / "ladder.json").read_text())
    assert table["options"] == "adm_enhn_gain_limit=1.0"
    assert table["hull_metric"] == "adm2_egl_1_mean"
    assert all(r["options"] == "adm_enhn_gain_limit=1.0" and "adm2_egl_1_mean" in r and
               "adm2_mean" not in r for r in table["rungs"])
    header = (work / "reuse" / "ladder.csv").read_text().splitlines()[0].split(",")
    assert "adm2_egl_1_mean" in header and "aim_egl_1_max" in header
    assert "float_adm's options: adm_enhn_gain_limit=1.0" in \
        (work / "reuse" / "ladder.html").read_text()
    # One input touched: its rung alone.
    touched = work / "s0_vp8_160x90_250.webm"
    os.utime(touched, ns=(time.time_ns(), time.time_ns()))
    assert main(command + ["--option", "egl=1"]) == 0
    printed = capsys.readouterr().out
    assert ": 1 scored, 11 reused" in printed
    assert re.search(r"vp8 +160x90 250k .* scored\n", printed)


def test_rungs_scored_at_once_are_those_scored_one_by_one(ffmpeg, ladders, tmp_path):
    """Rungs scored by four ffmpegs at once: the rows and every log's frames bit for bit
    those of one at a time."""
    work, _ = ladders
    rungs = ladder.read_manifest(_subset(work, tmp_path / "m.csv", sources=(1,),
                                         ladders=("vp8",)))
    runs = [ladder.score_ladder(rungs, log_dir=str(tmp_path / str(jobs)), ffmpeg=ffmpeg,
                                jobs=jobs) for jobs in (1, 4)]
    for one, four in zip(*runs):
        assert {k: v for k, v in one.items() if k != "log"} == \
            {k: v for k, v in four.items() if k != "log"}
        frames = [json.loads(open(r["log"], encoding="utf-8").read())["frames"]
                  for r in (one, four)]
        assert frames[0] == frames[1]


def test_rungs_are_listed_by_size_and_rate_with_their_progress(ffmpeg, ladders, tmp_path,
                                                               capsys):
    """Console, CSV and JSON list a ladder's rungs by size, then bitrate, whatever their
    labels ("z" for 100k sorts after "a" for 600k); --progress says rung i/N as each is
    done."""
    work, _ = ladders
    manifest = _subset(work, tmp_path / "m.csv", ladders=("mpeg2",),
                       labels={100: "z", 250: "m", 600: "a"})
    out = tmp_path / "out"
    assert main(["ladder", manifest, "-o", str(out), "--ffmpeg", ffmpeg, "--progress",
                 "--jobs", "2"]) == 0
    printed = capsys.readouterr()
    order = ["160x90 z", "160x90 m", "160x90 a", "320x180 z", "320x180 m", "320x180 a"]
    assert re.findall(r"mpeg2 +(\S+ [zma]) ", printed.out) == order
    with open(out / "ladder.csv", encoding="utf-8") as f:
        assert [row["label"] for row in csv.DictReader(f)] == order
    table = json.loads((out / "ladder.json").read_text())
    assert [r["label"] for r in table["rungs"]] == order
    first_view = (out / "ladder.html").read_text().split('<section class="view"')[1]
    assert re.findall(r">(\S+ [zma])</a>", first_view) == order
    rates = [r["bitrate_kbps"] for r in table["rungs"]]
    assert rates[:3] == sorted(rates[:3]) and rates[3:] == sorted(rates[3:])
    progress = re.findall(r"^rung (\d+)/6 source0\.y4m mpeg2 (\S+ [zma]): scored in",
                          printed.err, re.M)
    assert [int(n) for n, _ in progress] == list(range(1, 7))
    assert sorted(label for _, label in progress) == sorted(order)


def _assert_obeys(chosen, rules, column):
    """A recommended ladder (rungs in rising bitrate) obeys its rules: picture size never
    falls as bitrate rises, each rung min_rate_ratio times the one below at least, and
    a quality step apart (the step its rules took where they chose one for a count)."""
    for below, above in zip(chosen, chosen[1:]):
        assert below["width"] * below["height"] <= above["width"] * above["height"], chosen
        assert below["bitrate_kbps"] * rules["min_rate_ratio"] <= above["bitrate_kbps"], chosen
        assert above[column] > below[column], chosen
        if rules["quality_step"]:
            assert above[column] - below[column] >= rules["quality_step"], chosen


def _title(rungs):
    """recommend()'s points of (size, kbit/s, quality) rungs."""
    return [{"label": "%dp %dk" % (h, rate), "bitrate_kbps": rate, "quality": q,
             "width": h * 16 // 9, "height": h} for h, rate, q in rungs]


# A title whose convex hull alone drops the picture size as the bitrate rises: 1080p at
# 1771k lies on the hull, then 720p at 1857k (as an AV1 ladder gave), and rungs crowd
# in bitrate and quality.
CROSSING = _title([(360, 400, 60.0), (360, 600, 66.0), (540, 700, 69.5), (540, 1000, 75.0),
                   (720, 1100, 77.0), (1080, 1771, 85.0), (720, 1857, 85.9),
                   (1080, 2400, 89.0), (1080, 3000, 90.2), (1080, 4500, 93.0),
                   (1080, 6000, 94.0)])


def test_the_hull_alone_would_drop_the_picture_size():
    hull = ladder.convex_hull([(p["bitrate_kbps"], p["quality"]) for p in CROSSING])
    sizes = [next(p["height"] for p in CROSSING if p["bitrate_kbps"] == r) for r, _ in hull]
    assert sizes != sorted(sizes)  # 1080 at 1771k, then 720 at 1857k


@pytest.mark.parametrize("ratio,step", [(1.5, 6.0), (1.2, 3.0), (2.0, 0.0), (1.0, 10.0)])
def test_each_rule_of_the_recommended_ladder_holds(ratio, step):
    rules = ladder.ladder_rules("vmaf", ratio, step)
    chosen = ladder.recommend(CROSSING, rules)["rungs"]
    _assert_obeys(chosen, rules, "quality")
    sized = [dict(p, pixels=p["width"] * p["height"]) for p in CROSSING]
    picked = [next(p for p in sized if p["label"] == c["label"]) for c in chosen]
    # From the floor, the cheapest rung on the hull, up to where no rung is a step
    # better than the last.
    assert picked[0]["label"] == "360p 400k"
    assert not any(ladder._above(p, picked[-1], ratio, step) for p in sized)
    # Each next rung, of those the rules allow above the one below, the one that adds the
    # most quality for each bit added: none lies above the line from the rung below
    # through it (a cheaper one on the line would have been taken first).
    for below, above in zip(picked, picked[1:]):
        for p in sized:
            if ladder._above(p, below, ratio, step) and p is not above:
                line = below["quality"] + (above["quality"] - below["quality"]) * (
                    p["bitrate_kbps"] - below["bitrate_kbps"]) / (
                        above["bitrate_kbps"] - below["bitrate_kbps"])
                assert p["quality"] < line or (p["quality"] == line and
                                               p["bitrate_kbps"] > above["bitrate_kbps"]), \
                    (below, above, p)


def test_a_ladder_starts_at_its_smallest_picture():
    """The cheapest rung is a 720p encode that undershot its rate (195 kbit/s, below every
    540p rung): the ladder starts at the cheapest 540p rung on the hull instead of
    locking every rung at 720p."""
    title = _title([(720, 195, 43.0), (540, 281, 55.0), (540, 574, 65.4), (540, 1218, 73.1),
                    (720, 1024, 71.6), (720, 2277, 81.6), (720, 4905, 91.6)])
    found = ladder.recommend(title, ladder.ladder_rules("vmaf"))
    assert [p["label"] for p in found["rungs"]] == ["540p 281k", "540p 574k", "720p 1024k",
                                                    "720p 2277k", "720p 4905k"]


def test_the_default_rules_and_a_count_of_rungs():
    rules = ladder.ladder_rules("vmaf")
    assert (rules["min_rate_ratio"], rules["quality_step"], rules["rungs"]) == (1.5, 6.0, None)
    found = ladder.recommend(CROSSING, rules)
    # 720p at 1857k, on the hull after 1080p at 1771k, is left out: the picture would
    # shrink as the bitrate rises.  6000k is a point better than 4500k: not worth a rung.
    assert [p["label"] for p in found["rungs"]] == \
        ["360p 400k", "540p 700k", "720p 1100k", "1080p 1771k", "1080p 4500k"]
    assert found["notes"] == ["on the convex hull, left out by the rules: 720p 1857k, "
                              "1080p 2400k, 1080p 3000k, 1080p 6000k"]
    # rungs=N: the widest quality step that gives N; the rules as before.
    for count in (2, 3, 4, 5):
        rules = ladder.ladder_rules("vmaf", rungs=count)
        found = ladder.recommend(CROSSING, rules)
        assert len(found["rungs"]) == count
        assert not any("asked for" in note for note in found["notes"])
        _assert_obeys(found["rungs"], dict(rules, quality_step=found["quality_step"]),
                      "quality")
    found = ladder.recommend(CROSSING, ladder.ladder_rules("vmaf", rungs=20))
    assert "20 rungs asked for, 6 under the other rules" in found["notes"]
    # A metric without a default step says so; nonsense is refused.
    assert ladder.ladder_rules("psnr_y")["quality_step"] == 0
    for args, message in (((0.9,), "--min-rate-ratio"), ((1.5, 6, 4), "one or the other"),
                          ((1.5, None, 0), "--rungs")):
        with pytest.raises(ladder.LadderError, match=message):
            ladder.ladder_rules("vmaf", *args)


def test_crossover_sizes_of_a_title():
    """Where each picture size's curve reaches the next smaller one's, quality linear
    in log-rate between rungs; none where they share no rates or one leads throughout."""
    rates = (500, 1000, 2000, 4000)
    grid = _title([(h, r, q) for h, qualities in ((360, (70, 78, 82, 84)),
                                                  (540, (66, 79, 86, 89)),
                                                  (720, (60, 75, 87, 92)))
                   for r, q in zip(rates, qualities)])
    found = ladder.crossovers(grid)
    assert [(c["from"], c["to"]) for c in found] == [("640x360", "960x540"),
                                                      ("960x540", "1280x720")]
    # 540p is 4 behind at 500k and 1 ahead at 1000k: it reaches 360p 4/5 of the way.
    assert found[0]["bitrate_kbps"] == pytest.approx(500 * 2 ** 0.8, rel=1e-12)
    assert found[1]["bitrate_kbps"] == pytest.approx(1000 * 2 ** 0.8, rel=1e-12)
    ahead = ladder.crossovers([p for p in grid if p["height"] == 360] +
                              [dict(p, quality=p["quality"] + 20) for p in grid
                               if p["height"] == 720])
    assert ahead[0]["bitrate_kbps"] is None and "1280x720 is ahead of 640x360 at every " \
        "rate both cover (500..4000 kbit/s)" == ahead[0]["why"]
    apart = ladder.crossovers(CROSSING)
    assert apart[0]["bitrate_kbps"] is None and "share no range of bitrates" in apart[0]["why"]


def test_compare_all_keeps_the_order_the_ladders_were_given(tmp_path):
    (tmp_path / "src.y4m").write_bytes(b"x")
    for name in ("a", "b", "c"):
        (tmp_path / (name + ".mp4")).write_bytes(b"x")
    rungs = ladder.rungs_of(str(tmp_path / "src.y4m"), {
        "x264": [str(tmp_path / "a.mp4")], "svtav1": [str(tmp_path / "b.mp4")],
        "x265": [str(tmp_path / "c.mp4")]})
    assert ladder.comparison_pairs(rungs, [["all"]]) == [("x264", "svtav1"), ("x264", "x265"),
                                                         ("svtav1", "x265")]


def test_ctrl_c_ends_with_one_line_and_no_table(ffmpeg, ladders, tmp_path):
    """SIGINT while rungs are scored: the ffmpegs stop, one line on stderr, nothing
    on stdout, exit status 130."""
    import signal
    work, manifest = ladders
    process = subprocess.Popen(
        [os.environ.get("PYTHON", "/usr/bin/python3"), "-m", "floatadm", "ladder", manifest,
         "-o", str(tmp_path / "out"), "--ffmpeg", ffmpeg, "--progress", "--jobs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    while not line.startswith("rung 1/"):
        assert line, "the ladder ended before its first rung"
        line = process.stderr.readline()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert out == "" and err == "floatadm: interrupted\n", err
    assert not (tmp_path / "out" / "ladder.json").exists()


def test_a_metrics_ffmpeg_that_cannot_start_says_why(ffmpeg, tmp_path):
    """An ffmpeg linked with a library the loader cannot find (libvmaf.so.3 from a
    prefix of its own): named with the loader's words, not as an ffmpeg without the
    float_adm filter."""
    from floatadm.video import find_ffmpeg, metrics_ffmpeg
    cc = os.environ.get("CC", "cc")
    (tmp_path / "gone.c").write_text("int gone(void) { return 0; }\n")
    (tmp_path / "main.c").write_text("int gone(void);\nint main(void) { return gone(); }\n")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(tmp_path / "libgone.so.3"),
                    "-Wl,-soname,libgone.so.3", str(tmp_path / "gone.c")], check=True)
    subprocess.run([cc, "-o", str(tmp_path / "ffmpeg"), str(tmp_path / "main.c"),
                    str(tmp_path / "libgone.so.3")], check=True)
    os.unlink(tmp_path / "libgone.so.3")
    for call in (find_ffmpeg, metrics_ffmpeg):
        with pytest.raises(FFmpegError, match="cannot start, the loader says: .*libgone.so.3: "
                                              "cannot open shared object file"):
            call(str(tmp_path / "ffmpeg"))
    with pytest.raises(FFmpegError, match="not an ffmpeg with the float_adm filter"):
        find_ffmpeg("/bin/true")


@pytest.fixture()
def other_ffmpeg(ffmpeg, tmp_path):
    """Another ffmpeg: a program of its own path that runs the workbench's."""
    path = tmp_path / "other-ffmpeg"
    path.write_text('#!/bin/sh\nexec "%s" "$@"\n' % ffmpeg)
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("rate,container", [("23.976", "mkv"), ("vfr", "mp4"),
                                            ("29.97", "webm")])
def test_metrics_of_another_ffmpeg_are_of_the_same_frames_and_pairs(
        ffmpeg, pairing_clips, other_ffmpeg, rate, container):
    """PSNR and SSIM measured by another ffmpeg on the frames the workbench decoded and
    scaled, handed to it: every frame's values the bits of the workbench's own filters
    in its graph, and float_adm's scores unchanged."""
    source, rung = pairing_clips[(rate, container)]
    here = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                       beside=["psnr", "ssim"])
    there = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                        beside=["psnr", "ssim"], map=True,
                        beside_ffmpeg={"psnr": other_ffmpeg, "ssim": other_ffmpeg})
    assert there.frames == here.frames and len(here.frames) == 12
    assert there.beside == here.beside and sorted(there.beside) == ["psnr_avg", "psnr_y",
                                                                     "ssim", "ssim_y"]


def test_pairs_another_ffmpeg_would_not_measure_are_refused(ffmpeg, pairing_clips,
                                                            other_ffmpeg, tmp_path):
    """A rung whose frames from the 7th on are a frame late in time (each paired by
    time with the next source frame, not the source frame of its number): the other
    ffmpeg would measure frame i against frame i, so the run is refused, naming the
    first such frame."""
    source, _ = pairing_clips[("24", "mkv")]
    late = str(tmp_path / "late.mkv")
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i", source,
                    "-vf", "setpts=PTS+gte(N\\,6)/(24*TB)", "-c:v", "ffv1", late], check=True)
    with pytest.raises(FFmpegError, match=r"frame 6: float_adm paired it with a reference "
                                          r"frame other than the reference's frame 6"):
        score_video(reference=source, distorted=late, ffmpeg=ffmpeg, scale="bicubic",
                    beside=["psnr"], beside_ffmpeg={"psnr": other_ffmpeg})


def test_a_ladder_measures_with_another_ffmpeg(ffmpeg, ladders, other_ffmpeg, tmp_path, capsys,
                                               monkeypatch):
    """--metrics-ffmpeg measures what --ffmpeg lacks (here: libvmaf, which neither has:
    said), --metrics-ffmpeg-for moves others there too: the tables' PSNR and SSIM the
    bits of the workbench's own filters, the command says which ffmpeg measured them,
    and a log measured otherwise is scored again.  A name on PATH is that file."""
    work, _ = ladders
    manifest = _subset(work, tmp_path / "m.csv", ladders=("vp8",))
    common = ["ladder", manifest, "--ffmpeg", ffmpeg, "--no-progress", "--no-cache"]
    assert main(common + ["-o", str(tmp_path / "here"), "--metrics-ffmpeg", other_ffmpeg]) == 0
    printed = capsys.readouterr()
    if "libvmaf" not in beside_filters(ffmpeg)[0]:
        assert "has no libvmaf filter, nor has %s: the tables leave vmaf out" % other_ffmpeg \
            in printed.err
    assert " measured by " not in printed.err
    monkeypatch.setenv("PATH", os.path.dirname(other_ffmpeg) + os.pathsep +
                       os.environ["PATH"])
    assert main(common + ["-o", str(tmp_path / "here"), "--metrics-ffmpeg", "other-ffmpeg",
                          "--metrics-ffmpeg-for", "psnr,ssim"]) == 0
    printed = capsys.readouterr()
    assert "floatadm: psnr, ssim measured by other-ffmpeg, on the frames %s decodes and " \
        "scales, paired as float_adm pairs them" % ffmpeg in printed.err
    assert ": 6 scored, 0 reused" in printed.out
    tables = [json.loads((tmp_path / "here" / "ladder.json").read_text())]
    assert main(common + ["-o", str(tmp_path / "workbench")]) == 0
    tables.append(json.loads((tmp_path / "workbench" / "ladder.json").read_text()))
    for a, b in zip(*(t["rungs"] for t in tables)):
        assert [a[m + "_mean"] for m in ("psnr_y", "psnr_avg", "ssim_y", "ssim")] == \
            [b[m + "_mean"] for m in ("psnr_y", "psnr_avg", "ssim_y", "ssim")]
    assert main(common + ["-o", str(tmp_path / "x"), "--metrics-ffmpeg-for", "all"]) == 1
    assert "--metrics-ffmpeg-for goes with --metrics-ffmpeg" in capsys.readouterr().err


def test_coarse_values_of_another_ffmpeg_are_said(ffmpeg, pairing_clips, tmp_path):
    """Another ffmpeg that prints PSNR and SSIM to two decimals (as older FFmpegs do):
    a warning says the means are that coarse."""
    from floatadm.video import CoarseValues
    coarse = tmp_path / "coarse-ffmpeg"
    coarse.write_text(
        "#!%s\nimport re, subprocess, sys\n"
        "code = subprocess.call([%r] + sys.argv[1:])\n"
        "for path in re.findall(r\"file=\\\\'([^\\\\']+elsewhere/[a-z]+\\.txt)\", "
        "' '.join(sys.argv)):\n"
        "    text = open(path).read()\n"
        "    text = re.sub(r'=(-?[0-9]+\\.[0-9]+)$', lambda m: '=%%.2f' %% float(m.group(1)), "
        "text, flags=re.M)\n"
        "    open(path, 'w').write(text)\n"
        "sys.exit(code)\n" % (sys.executable, ffmpeg))
    coarse.chmod(0o755)
    source, rung = pairing_clips[("24", "mkv")]
    with pytest.warns(CoarseValues, match="coarse-ffmpeg gives psnr_y, psnr_avg, ssim_y, ssim "
                                          "to two decimals only"):
        results = score_video(reference=source, distorted=rung, ffmpeg=ffmpeg, scale="bicubic",
                              beside=["psnr", "ssim"],
                              beside_ffmpeg={"psnr": str(coarse), "ssim": str(coarse)})
    assert all(round(v, 2) == v for v in results.beside["ssim"])


def test_a_rung_scored_once_is_reused_by_any_output_folder(ffmpeg, ladders, tmp_path, capsys):
    """The score cache: a second output folder gets the first's logs, byte for byte,
    without scoring; --no-cache scores again; an input touched is scored again."""
    work, _ = ladders
    manifest = _subset(work, tmp_path / "m.csv", ladders=("mpeg2",))
    common = ["ladder", manifest, "--ffmpeg", ffmpeg, "--no-progress"]
    assert main(common + ["-o", str(tmp_path / "a")]) == 0
    assert ": 6 scored, 0 reused" in capsys.readouterr().out
    assert main(common + ["-o", str(tmp_path / "b")]) == 0
    printed = capsys.readouterr().out
    assert ": 0 scored, 0 reused (their logs were made from the same files, options and " \
        "scaler), 6 from the score cache" in printed and printed.count(" cached\n") == 6
    for path in (tmp_path / "a" / "logs").rglob("*"):
        if path.is_file() and not path.name.endswith(".html"):
            twin = tmp_path / "b" / path.relative_to(tmp_path / "a")
            assert twin.read_bytes() == path.read_bytes(), path
    cache = ladder.cache_directory()
    assert cache.startswith(os.environ["XDG_CACHE_HOME"]) and len(
        list(pathlib.Path(cache).rglob("*.spec.json"))) == 6
    assert main(common + ["-o", str(tmp_path / "c"), "--no-cache"]) == 0
    assert ": 6 scored, 0 reused" in capsys.readouterr().out
    touched = work / "s0_mpeg2_160x90_250.mkv"
    os.utime(touched, ns=(time.time_ns(), time.time_ns()))
    assert main(common + ["-o", str(tmp_path / "d")]) == 0
    assert ": 1 scored, 0 reused (their logs were made from the same files, options and " \
        "scaler), 5 from the score cache" in capsys.readouterr().out


@pytest.mark.parametrize("width", [390, 1400])
def test_the_page_switches_metric_without_rerunning(ffmpeg, ladders, tmp_path, width):
    """The page's menu shows another metric's view: its plots, hulls and BD figures,
    from the page alone; the plots of that view are as readable."""
    from test_report import _probe_page, parse, run_chromium
    text = _ladder_page(ffmpeg, ladders)
    script = """
  const shown = () => [...d.querySelectorAll('section.view')].filter(v => !v.hidden)
      .map(v => v.dataset.metric + ':' + v.querySelectorAll('svg').length).join(' ');
  out.before = shown();
  const pick = d.getElementById('metric');
  out.choices = [...pick.options].map(o => o.value).join(' ');
  pick.value = 'psnr_y';
  pick.dispatchEvent(new Event('change'));
  out.after = shown();
  out.aria = [...d.querySelectorAll('section.view:not([hidden]) svg')]
      .map(s => s.getAttribute('aria-label')).join('|');
""" + PLOT_PROBE
    (tmp_path / "probe.html").write_text(_probe_page(text, width, script))
    body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1700, 1000),
                              "--dump-dom")).body
    # The page opens on the hulls' metric: VMAF where this ffmpeg has libvmaf, else adm2.
    has_vmaf = "libvmaf" in beside_filters(ffmpeg)[0]
    first = "vmaf" if has_vmaf else "adm2"
    assert body["before"] == first + ":2" and body["after"] == "psnr_y:2", body
    assert body["choices"].split() == ["vmaf"] * has_vmaf + ["adm2", "psnr_y", "psnr_avg",
                                                               "ssim_y", "ssim"]
    assert body["aria"] == "psnr_y against bitrate|psnr_y against bitrate"
    plots = json.loads(html.unescape(body["plots"]))
    assert len(plots) == 2
    _assert_readable(plots, width)


def test_a_report_without_the_share_view_says_why(ffmpeg, ladders, tmp_path, monkeypatch):
    """Where a recommended rung's maps cannot be made again (here: the frames cannot be
    handed over), a warning says so and its report shows the loss in each block."""
    from floatadm import video
    work, _ = ladders
    rungs = ladder.rungs_of(str(work / "source0.y4m"),
                            {"vp8": [str(work / "s0_vp8_320x180_250.webm")]})
    rows = ladder.score_ladder(rungs, log_dir=str(tmp_path / "logs"), ffmpeg=ffmpeg)

    def refused(*args, **kwargs):
        raise FFmpegError("no frames today")
    monkeypatch.setattr(video, "frames_as_scored", refused)
    with pytest.warns(ladder.LadderWarning, match=r"vp8, s0_vp8_320x180_250: its maps with the "
                                                  r"lost detail could not be made \(no frames "
                                                  r"today\)"):
        (report,) = ladder.write_reports(rows)
    text = open(report, encoding="utf-8").read()
    assert "loss in each block" in text and 'view-name">share of the frame' not in text


@pytest.fixture(scope="module")
def small_title(ffmpeg, tmp_path_factory):
    """A 25-frame source at 25 fps, an encode of it, and 25 frames of it at 50 fps (as
    many frames as the source, half its duration)."""
    work = tmp_path_factory.mktemp("small")
    make = [ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i"]
    source = str(work / "source.y4m")
    subprocess.run(make + ["testsrc2=s=64x64:r=25:d=1", "-pix_fmt", "yuv420p", source],
                   check=True)
    rung = str(work / "rung.mkv")
    subprocess.run(make + ["testsrc2=s=64x64:r=25:d=1", "-c:v", "mpeg2video", "-q:v", "10",
                           rung], check=True)
    fast = str(work / "fast.mkv")
    subprocess.run(make + ["testsrc2=s=64x64:r=50:d=0.5", "-c:v", "mpeg2video", "-q:v", "10",
                           fast], check=True)
    return work, source, rung, fast


def test_a_rung_paired_in_doubt_fails_unless_accepted(ffmpeg, small_title, tmp_path, capsys):
    """A rung of as many frames as its source at twice its rate passes the frame count,
    but the filter pairs its frames in doubt: the ladder fails naming it; accepted, the
    rung's record keeps the doubts, and a later run that does not accept them scores
    it again rather than reuse its log (and fails)."""
    _, source, rung, fast = small_title
    out = tmp_path / "out"
    command = ["ladder", "--source", source, "--ladder", "a=%s,%s" % (rung, fast), "-o",
               str(out), "--ffmpeg", ffmpeg, "--quiet", "--no-progress"]
    assert main(command) == 1
    err = capsys.readouterr().err
    assert "the distorted %s against the reference %s, pairs in doubt: " % (fast, source) in err
    assert "--accept-doubtful-pairs" in err and not (out / "ladder.json").exists()
    assert main(command + ["--accept-doubtful-pairs"]) == 0
    assert "floatadm: warning: the distorted %s against the reference %s, pairs in doubt: " % (
        fast, source) in capsys.readouterr().err
    record = json.loads((out / "logs" / "source.y4m" / "a" / "fast.spec.json").read_text())
    assert {d["kind"] for d in record["doubtful_pairs"]} >= {"apart", "reference_repeated"}
    assert "doubtful_pairs" not in json.loads(
        (out / "logs" / "source.y4m" / "a" / "rung.spec.json").read_text())
    assert main(command) == 1
    assert "pairs in doubt" in capsys.readouterr().err


def test_a_cache_entry_whose_record_is_not_its_logs_is_scored_again(ffmpeg, small_title,
                                                                   tmp_path, capsys):
    """The score cache's entries are reused as the output folder's logs are: one whose
    record was not written with its log (log_sha256) is scored again, not copied."""
    _, source, rung, _ = small_title
    command = ["ladder", "--source", source, "--ladder", "a=%s" % rung, "--ffmpeg", ffmpeg,
               "--no-progress"]
    assert main(command + ["-o", str(tmp_path / "a")]) == 0
    assert ": 1 scored, 0 reused" in capsys.readouterr().out
    (entry,) = pathlib.Path(ladder.cache_directory()).rglob("*.spec.json")
    record = json.loads(entry.read_text())
    assert record["log_sha256"] == distributed.log_digest(
        entry.with_name(entry.name.replace(".spec.json", ".json")).read_bytes())
    entry.write_text(json.dumps(dict(record, log_sha256="0" * 64)))
    assert main(command + ["-o", str(tmp_path / "b")]) == 0
    assert ": 1 scored, 0 reused (their logs were made from the same files, options and " \
        "scaler), 0 from the score cache" in capsys.readouterr().out
    assert main(command + ["-o", str(tmp_path / "c")]) == 0
    assert ", 1 from the score cache" in capsys.readouterr().out


def test_a_column_named_twice_is_refused(tmp_path, capsys):
    """A manifest naming a column twice (in any case) is refused, naming it, rather
    than one of the two taken."""
    (tmp_path / "src.y4m").write_bytes(b"x")
    (tmp_path / "r1.webm").write_bytes(b"x")
    manifest = tmp_path / "rungs.csv"
    manifest.write_text("source,ladder,file,label,File\nsrc.y4m,vp8,r1.webm,a,r2.webm\n")
    with pytest.raises(ladder.LadderError, match=r"rungs.csv: its first line names file "
                                                 r"more than once"):
        ladder.read_manifest(str(manifest))
    assert main(["ladder", str(manifest), "-o", str(tmp_path / "out"), "--quiet"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_log_names_are_one_label_each_whatever_the_others(tmp_path):
    """Each label's log has a name of its own, the same whichever other rungs there
    are: "x y", "x_y" and "x_y-2" never meet, "x_y-2" logs to x_y-2.json with or
    without the others; the names decode back to the labels."""
    (tmp_path / "source.y4m").write_bytes(b"x")
    (tmp_path / "r.webm").write_bytes(b"x")

    def logs(labels):
        rungs = [ladder._rung(str(tmp_path / "source.y4m"), "vp9", str(tmp_path / "r.webm"),
                              label) for label in labels]
        return [os.path.basename(p) for p in ladder.log_paths(rungs, "logs")]
    labels = ["x y", "x_y", "x_y-2", "x%20y", ".hidden", "a.spec", "a", "é"]
    names = logs(labels)
    assert names == ["x%20y.json", "x_y.json", "x_y-2.json", "x%2520y.json", "%2Ehidden.json",
                     "a%2Espec.json", "a.json", "%C3%A9.json"]
    assert logs(["x_y-2"]) == ["x_y-2.json"] and logs(["x_y-2", "x y"])[0] == "x_y-2.json"
    assert [urllib.parse.unquote(n[:-len(".json")]) for n in names] == labels
    records = {distributed.spec_path(n) for n in names}
    assert not records & set(names)


def test_names_that_are_not_utf8_are_written_everywhere(ffmpeg, small_title, tmp_path, capsys):
    """A rung whose file name is not UTF-8: the ladder writes its three tables whole
    over an earlier run's (the name as Python holds it in JSON, shown with \\xff in
    the CSV and the page, the page's link to its log the log's bytes), and the report
    draws its log."""
    _, source, rung, _ = small_title
    odd = os.path.join(os.fsencode(str(tmp_path)), b"\xff.mkv")
    with open(rung, "rb") as src, open(odd, "wb") as dst:
        dst.write(src.read())
    out = tmp_path / "out"
    command = ["ladder", "--source", source, "--ladder", "a=%s" % rung, "-o", str(out),
               "--ffmpeg", ffmpeg, "--quiet", "--no-progress"]
    assert main(command) == 0
    earlier = {name: (out / name).read_bytes() for name in ("ladder.csv", "ladder.html")}
    command[4] = "a=%s,%s" % (rung, os.fsdecode(odd))
    assert main(command) == 0, capsys.readouterr().err
    table = json.loads((out / "ladder.json").read_text(encoding="ascii"))
    assert {r["file"] for r in table["rungs"]} == {rung, os.fsdecode(odd)}
    text = (out / "ladder.csv").read_text(encoding="utf-8")
    assert ",'\\xff','%s/\\xff.mkv'," % tmp_path in text
    page = (out / "ladder.html").read_text(encoding="utf-8")
    assert all((out / name).read_bytes() != earlier[name] for name in earlier)
    # Each rung's label links its report, and "log" its log.
    links = re.findall(r'<a href="([^"]*)">([^<]*)</a>', page)
    reports = {text: link for link, text in links if text != "log"}
    logs = {link for link, text in links if text == "log"}
    assert sorted(reports) == ["&#x27;\\xff&#x27;", "rung"] and len(logs) == 2
    for link in logs | set(reports.values()):
        assert os.path.isfile(os.path.join(os.fsencode(str(out)),
                                           urllib.parse.unquote_to_bytes(link)))
    log = next(os.path.join(os.fsencode(str(out)), urllib.parse.unquote_to_bytes(link))
               for link in logs if not link.endswith("/rung.json"))
    assert main(["report", os.fsdecode(log), "-o", str(tmp_path / "r.html"), "--quiet"]) == 0
    assert "\\xff.mkv" in (tmp_path / "r.html").read_text(encoding="utf-8")
