# Tests of the HTML report, in headless Chromium.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

import floatadm
from floatadm.report import render, worst_frames
from floatadm.results import IncompleteLog, Results
from floatadm.video import probe_stream

from conftest import fixture_args, fixture_geometry, write_y4m

ASTRONAUT = "astronaut_576x324_yuv420p_x264"


@pytest.fixture(scope="module")
def logs(pair, run_cli, tmp_path_factory):
    """Three logs: one with timestamps (a y4m's frames timed at its 24 fps, as a
    video's log times them), float_adm_score's own, and one with a skipped frame."""
    work = tmp_path_factory.mktemp("report")
    ref, dis = pair(ASTRONAUT)
    ref_y4m = write_y4m(ref, str(work / "ref.y4m"), *fixture_args(ASTRONAUT))
    dis_y4m = write_y4m(dis, str(work / "dis.y4m"), *fixture_args(ASTRONAUT))
    scored = floatadm.score_files(reference=ref_y4m, distorted=dis_y4m)
    timed = [dict(f, timestamp=f["frame"] / 24) for f in scored.frames]
    Results(timed, names=scored.names).to_json(work / "x264 crf36.json")
    cli = run_cli(*pair("coins_384x304_yuv420p10le_x265"),
                  geometry=fixture_args("coins_384x304_yuv420p10le_x265"))
    (work / "x265.json").write_text(json.dumps(cli))
    grass_ref, grass_dis = pair("grass_322x182_yuv420p_vp9")
    skipped = floatadm.score_files(reference=grass_ref, distorted=grass_dis,
                                   **fixture_geometry("grass_322x182_yuv420p_vp9"))
    frames = [dict(f) for f in skipped.frames]
    frames[1] = {"frame": 1, "skipped": "corrupt frame"}
    Results(frames, names=skipped.names).to_json(work / "vp9 <skip>.json")
    return [str(work / n) for n in ("x264 crf36.json", "x265.json", "vp9 <skip>.json")]


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium (apt-get install chromium)")


def run_chromium(url, size, *extra):
    """Headless Chromium, nothing fetched from the network, a throwaway profile."""
    with tempfile.TemporaryDirectory() as profile:
        command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
                   "--window-size=%d,%d" % size, *extra, url]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class Dom(html.parser.HTMLParser):
    """The dumped DOM's charts: [(metric, number of <path>)], the body's data-*."""

    def __init__(self):
        super().__init__()
        self.charts, self.body, self.worst_rows, self._table = [], {}, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "plot" in attrs.get("class", ""):
            self.charts.append([attrs["data-metric"], 0])
        elif tag == "path" and self.charts:
            self.charts[-1][1] += 1
        elif tag == "body":
            self.body = {k[5:]: v for k, v in attrs.items() if k.startswith("data-")}
        elif tag == "table" and "worst-frames" in attrs.get("class", ""):
            self.worst_rows.append(0)
            self._table = "head"
        elif tag == "tbody" and self._table:
            self._table = "body"
        elif tag == "tr" and self._table == "body":
            self.worst_rows[-1] += 1

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None


def parse(text):
    dom = Dom()
    dom.feed(text)
    return dom


def test_report_is_self_contained(logs, tmp_path):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "floatadm", "report", *logs, "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    for needle in ("http:", "https:", "<script", "<link", "@import", "url("):
        assert needle not in text, needle
    # Pictures (the maps) are inline PNG data, never a file or an address.
    assert all(v.startswith("data:image/png;base64,") for v in re.findall(r' src="([^"]*)"', text))
    assert "vp9 &lt;skip&gt;" in text and "<skip>" not in text
    assert "prefers-color-scheme: dark" in text


def test_worst_frames_order(logs):
    results = Results.from_json(logs[0])
    worst = worst_frames(results, "adm2")
    values = [f["adm2"] for f in worst]
    assert values == sorted(values) and len(worst) == 6
    aim = [f["aim"] for f in worst_frames(results, "aim")]
    assert aim == sorted(aim, reverse=True)  # aim: the highest are the worst
    assert len(worst_frames(Results.from_json(logs[2]), "adm2")) == 2  # the skipped left out


def test_report_in_chromium(logs, tmp_path):
    """One path per log in each chart; the worst frames with their times; no page-wide
    horizontal scrolling at phone width; dark colours where the system asks."""
    text = render(floatadm.report.load(logs))
    page = tmp_path / "report.html"
    page.write_text(text)
    dom = parse(run_chromium(page.as_uri(), (1280, 900), "--dump-dom"))
    assert [m for m, _ in dom.charts] == list(floatadm.report.METRICS)
    assert all(paths == len(logs) for _, paths in dom.charts), dom.charts
    assert dom.worst_rows[:3] == [6, 4, 2]  # adm2's tables: every scored frame (< 10)
    assert re.search(r"<td>0:00\.208</td>", text)  # frame 5 of the y4m at 24 fps

    # The report in frames of a phone's and a laptop's width (a headless window is
    # at least 500 pixels wide), measured by the test's script: the report has none.
    probe = """<!DOCTYPE html><html><body>
<iframe id="phone" style="width: 390px; height: 844px; border: 0" srcdoc="%s"></iframe>
<iframe id="laptop" style="width: 1280px; height: 800px; border: 0" srcdoc="%s"></iframe>
<script>
for (const frame of document.querySelectorAll('iframe')) frame.onload = () => {
  const w = frame.contentWindow, d = frame.contentDocument;
  const b = document.body.dataset, id = frame.id;
  b[id + 'Overflow'] = d.documentElement.scrollWidth > w.innerWidth;
  b[id + 'Dark'] = w.matchMedia('(prefers-color-scheme: dark)').matches;
  b[id + 'Background'] = w.getComputedStyle(d.body).backgroundColor;
  b[id + 'Charts'] = [...d.querySelectorAll('figure.chart')]
      .filter(f => f.offsetParent !== null).length;
  b[id + 'ChartWidth'] = d.querySelector('.p-adm2 figure').getBoundingClientRect().width;
  b[id + 'LabelFont'] = parseFloat(w.getComputedStyle(d.querySelector('.p-adm2 .yl')).fontSize);
};
</script></body></html>""" % ((html.escape(text, quote=True),) * 2)
    (tmp_path / "probe.html").write_text(probe)
    url = (tmp_path / "probe.html").as_uri()
    light = parse(run_chromium(url, (1300, 900), "--dump-dom")).body
    dark = parse(run_chromium(url, (1300, 900), "--dump-dom", "--force-dark-mode")).body
    for body in (light, dark):
        for device in ("phone", "laptop"):
            assert body[device + "-overflow"] == "false"  # tables scroll in their box
            assert body[device + "-charts"] == "1"  # the adm2 tab alone
            assert float(body[device + "-label-font"]) >= 11  # labels keep their size
        assert float(body["phone-chart-width"]) <= 390 < 800 < float(body["laptop-chart-width"])
    assert light["phone-dark"] == "false" and light["phone-background"] == "rgb(255, 255, 255)"
    assert dark["phone-dark"] == "true" and dark["phone-background"] == "rgb(17, 21, 28)"

    shot = tmp_path / "phone.png"
    run_chromium(page.as_uri(), (390, 844), "--screenshot=" + str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _probe_page(text, width, script):
    """A page holding the report in an iframe of width pixels (a headless window is
    at least 500 wide) and the test's script, run once the report is laid out: it
    writes its findings into the body's data-* attributes."""
    return """<!DOCTYPE html><html><body>
<iframe id="r" style="width: %dpx; height: 900px; border: 0" srcdoc="%s"></iframe>
<script>
const frame = document.getElementById('r');
frame.onload = () => {
  const w = frame.contentWindow, d = frame.contentDocument, out = document.body.dataset;
  %s
};
</script></body></html>""" % (width, html.escape(text, quote=True), script)


def test_legend_names_stay_beside_their_colour(logs, tmp_path):
    """At a phone's 390 pixels, a long log name (with or without spaces) wraps beside
    its colour swatch: its first line starts just right of the swatch, level with it,
    and nothing runs past the window."""
    long_names = ["x264_crf36_preset_veryslow_tune_film_1920x1080_2pass_abr_4500k_ladder_"
                  "rung_07_final_candidate.json",
                  "x264 crf36 preset veryslow tune film 1920x1080 2pass abr 4500k ladder "
                  "rung 07 final candidate.json"]
    paths = []
    for name in long_names:
        path = tmp_path / name
        shutil.copy(logs[0], path)
        paths.append(str(path))
    text = render(floatadm.report.load(paths + [logs[1]]))
    script = """
  const found = [];
  for (const li of d.querySelectorAll('.p-adm2 .legend li')) {
    const swatch = li.querySelector('.swatch').getBoundingClientRect();
    const range = d.createRange();
    range.setStartAfter(li.querySelector('.swatch'));
    range.setEndAfter(li.lastChild);
    const first = range.getClientRects()[0];
    found.push([first.left - swatch.right, (swatch.top + swatch.bottom) / 2 - first.top,
                first.height, li.getBoundingClientRect().right, range.getClientRects().length]);
  }
  out.legend = JSON.stringify(found);
  out.width = w.innerWidth;
  out.overflow = d.documentElement.scrollWidth > w.innerWidth;
  out.wide = [...d.querySelectorAll('body *')].filter(e => !e.closest('.scroll') &&
      e.getBoundingClientRect().right > w.innerWidth + 0.5).map(e => e.tagName).join(' ');
"""
    (tmp_path / "probe.html").write_text(_probe_page(text, 390, script))
    body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1000, 1000),
                              "--dump-dom")).body
    assert body["overflow"] == "false", body["wide"]
    legend = json.loads(html.unescape(body["legend"]))
    assert len(legend) == 3
    for gap, centre, line, right, lines in legend:
        assert 0 <= gap <= 12, legend  # just right of the swatch
        assert 0 <= centre <= line, legend  # level with the name's first line
        assert right <= float(body["width"]), legend
    assert legend[0][4] > 1 and legend[1][4] > 1  # the long names do wrap


LIBVMAF_LOGS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "data", "libvmaf-logs")


def test_report_reads_libvmaf_logs(logs, tmp_path):
    """libvmaf's own logs (vmaf CLI, FFmpeg's libvmaf filter with VMAF's model): a tab
    for each metric a log holds, float ADM beside VMAF, each log's options."""
    paths = [logs[0], os.path.join(LIBVMAF_LOGS, "ffmpeg_libvmaf_egl1.2.json"),
             os.path.join(LIBVMAF_LOGS, "vmaf_cli_egl1.2_apn2_csf1_debug.json")]
    text = render(floatadm.report.load(paths))
    page = tmp_path / "report.html"
    page.write_text(text)
    dom = parse(run_chromium(page.as_uri(), (1280, 900), "--dump-dom"))
    tabs = [m for m, _ in dom.charts]
    assert tabs[:8] == list(floatadm.report.METRICS) + ["vmaf"]
    for metric in ("integer_adm2", "integer_vif_scale0", "integer_motion2",
                   "VMAF_integer_feature_motion_sad_score", "adm_num_scale3"):
        assert metric in tabs
    assert len(tabs) == len(set(tabs))
    assert all(paths == 3 for _, paths in dom.charts)  # one per log, empty where it lacks it
    with open(paths[1], encoding="utf-8") as f:
        vmaf = [frame["metrics"]["vmaf"] for frame in json.load(f)["frames"]]
    log = floatadm.report.load(paths[1:2])[0]
    assert log.values("vmaf") == vmaf
    assert log.pooled["vmaf"]["mean"] == floatadm.pool(vmaf)["mean"]
    assert log.pooled["adm2"]["min"] == min(log.values("adm2"))
    compared = re.search(r'<table class="compared">.*?</table>', text, re.S).group(0)
    assert "egl=1.2</td>" in compared and "csf=1 egl=1.2 apn=2</td>" in compared
    assert ">defaults</td>" in compared  # the first log: float_adm's defaults


def test_report_tells_what_was_compared(ffmpeg, tmp_path):
    """A log written with its record (python3 -m floatadm score --json): the report
    gives its resolution, frames, options, the inputs' sizes and bitrates and the
    scaling."""
    from conftest import make_clip
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    rung = make_clip(ffmpeg, tmp_path / "rung.mkv", 25, seconds=0.4, lossy=True, size="96x64")
    out = tmp_path / "rung.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", rung,
                           "--scale", "lanczos", "--option", "egl=1.2", "--json", str(out),
                           "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = render(floatadm.report.load([str(out)]))
    compared = re.search(r'<table class="compared">.*?</table>', text, re.S).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", compared, re.S)
    assert cells[1:4] == ["10", "160&times;96", "egl=1.2"]
    for path, cell in ((ref, cells[4]), (rung, cells[5])):
        size = os.path.getsize(path)
        assert os.path.basename(path) in cell and "%.1f kB" % (size / 1e3) in cell
        assert "%.0f kbit/s" % (probe_stream(ffmpeg, path)["bitrate"] / 1000) in cell
    assert cells[6] == "lanczos to 160x96 (distorted)"


def test_bitrate_is_the_whole_streams_when_part_was_scored(ffmpeg, tmp_path):
    """A log of the first 12 of 50 frames: the inputs' bitrate is the whole video
    stream's, not the file's size over the frames scored (4 times as much here)."""
    from conftest import make_clip
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=2)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=2, lossy=True)
    out = tmp_path / "part.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           "--frames", "12", "--json", str(out), "--quiet"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    compared = re.search(r'<table class="compared">.*?</table>',
                         render(floatadm.report.load([str(out)])), re.S).group(0)
    cell = re.findall(r"<td[^>]*>(.*?)</td>", compared, re.S)[5]
    whole = 8 * os.path.getsize(dis) / 2 / 1000
    shown = float(re.search(r"([0-9.]+) kbit/s", cell).group(1))
    assert 0.8 * whole < shown <= 1.01 * whole


def test_chart_points_show_frame_and_value(logs, tmp_path):
    """A chart's point, focused from the keyboard (or hovered), shows its frame and
    value beside it, inside the window."""
    text = render(floatadm.report.load(logs[:1]))
    script = """
  const point = d.querySelectorAll('.p-adm2 .pt')[3];
  const tip = point.querySelector('.tip');
  out.before = w.getComputedStyle(tip).display;
  point.focus();
  out.focused = d.activeElement === point;
  out.after = w.getComputedStyle(tip).display;
  out.text = tip.textContent;
  out.label = point.getAttribute('aria-label');
  const r = tip.getBoundingClientRect(), p = point.getBoundingClientRect();
  out.inside = r.left >= 0 && r.right <= w.innerWidth && r.width > 0;
  out.near = Math.abs((r.left + r.right) / 2 - (p.left + p.right) / 2) < r.width;
"""
    (tmp_path / "probe.html").write_text(_probe_page(text, 700, script))
    body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1000, 1000),
                              "--dump-dom")).body
    frame3 = Results.from_json(logs[0]).frames[3]
    assert body["before"] == "none" and body["focused"] == "true"
    assert body["after"] == "block" and body["inside"] == "true" and body["near"] == "true"
    assert html.unescape(body["text"]) == "frame 3 \u00b7 %.6f" % frame3["adm2"]
    assert html.unescape(body["label"]) == "x264 crf36: frame 3, adm2 %.6f" % frame3["adm2"]
    assert ".pt:hover .tip" in text


def _png_pixels(data):
    """The pixels of a PNG the report wrote (8-bit RGB, no filter)."""
    import struct
    import zlib
    import numpy as np
    width, height = struct.unpack(">II", data[16:24])
    chunks, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            chunks += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    rows = np.frombuffer(zlib.decompress(chunks), np.uint8).reshape(height, 1 + 3 * width)
    assert not rows[:, 0].any()
    return rows[:, 1:].reshape(height, width, 3)


def test_report_draws_maps(pair, tmp_path):
    """A log scored with --maps: the report shows its worst frames by adm2, each the
    distorted frame with two views over it in the library's colours, the loss in each
    block and each block's share of the frame's lost detail, and the maps averaged over
    the title over its middle frame; a log without maps shows none.  Chromium decodes
    every picture."""
    import numpy as np
    from floatadm import map_image
    from floatadm.report import MAP_WIDTH, MAP_WORST_COUNT, map_frames
    ref = write_y4m(pair(ASTRONAUT)[0], str(tmp_path / "ref.y4m"), *fixture_args(ASTRONAUT))
    dis = write_y4m(pair(ASTRONAUT)[1], str(tmp_path / "dis.y4m"), *fixture_args(ASTRONAUT))
    log = tmp_path / "x264.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           "--json", str(log), "--maps", "--quiet"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    plain = tmp_path / "plain.json"
    floatadm.score_files(reference=ref, distorted=dis).to_json(plain)
    logs = floatadm.report.load([str(log), str(plain)])
    text = render(logs)
    assert text.count('<section class="map-section">') == 1
    middle = len(logs[0].scored) // 2
    assert text.count('<figure class="map mean" data-frame="%d">' % middle) == 1
    assert "mean of %d frames over frame %d" % (len(logs[0].scored), middle) in text
    shown = [int(n) for n in re.findall(r'<figure class="map worst" data-frame="(\d+)">', text)]
    worst = worst_frames(logs[0], "adm2", MAP_WORST_COUNT)
    assert shown == [f["frame"] for f in map_frames(logs[0])] == [f["frame"] for f in worst]
    assert len(shown) == MAP_WORST_COUNT

    # The worst frame's pictures: that frame of the distorted input with, over it,
    # the loss in each block, and each block's share of the frame's lost detail
    # scaled to the largest share, painted by the library.
    maps = Results.load_maps(str(tmp_path / "x264.maps.npz"))
    lost = Results.load_lost(str(tmp_path / "x264.maps.npz"))
    with floatadm.files.VideoFile(dis) as video:
        video.start(video.header)
        luma = video.read_luma(shown[0])
    pictures = _shown_frames(text, "share")
    want = map_image.shrink(map_image.overlay(maps[shown[0]], luma), MAP_WIDTH)
    assert np.array_equal(_shown_frames(text)[shown[0]], want)
    share = map_image.share(lost[shown[0]])
    scaled = np.where(np.isnan(maps[shown[0]]), np.nan, share / share.max()).astype(np.float32)
    want = map_image.shrink(map_image.overlay(scaled, luma), MAP_WIDTH)
    assert np.array_equal(pictures[shown[0]], want)
    assert maps[shown[0]].any() and share.max() > 0

    page = tmp_path / "report.html"
    page.write_text(text)
    script = """
  const pictures = [...d.querySelectorAll('figure.map img')];
  out.pictures = pictures.length;
  out.decoded = pictures.filter(i => i.complete && i.naturalWidth > 0).length;
  out.shown = pictures.filter(i => i.getBoundingClientRect().width > 100).length;
  out.overflow = d.documentElement.scrollWidth > w.innerWidth;
"""
    for width in (390, 1100):
        (tmp_path / "probe.html").write_text(_probe_page(text, width, script))
        body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1200, 1000),
                                  "--dump-dom")).body
        assert body["pictures"] == str(2 * (MAP_WORST_COUNT + 1))
        assert body["decoded"] == body["shown"] == body["pictures"], body
        assert body["overflow"] == "false"

    # A distorted input changed since it was scored is not drawn under its maps.
    st = os.stat(dis)
    os.utime(dis, ns=(st.st_atime_ns, st.st_mtime_ns + 10 ** 9))
    text = render(floatadm.report.load([str(log)]))
    assert "the maps alone" in text and "over it" not in text
    assert text.count('<figure class="map worst"') == MAP_WORST_COUNT


def _video_log(path, reference, distorted, raw, **job):
    """A log of score_video on raw input read through input options (kind "video"), with
    its record and maps, as `score --json --maps` and catalogues write them."""
    from floatadm.distributed import (add_results_to_record, job_record, normalise_job,
                                      write_log)
    from floatadm.results import maps_path
    start = job.pop("start_frame", 0)
    results = floatadm.score_video(reference=reference, distorted=distorted, reference_args=raw,
                                   distorted_args=raw, start_frame=start, map=True, **job)
    record = job_record(normalise_job(dict(job, reference=reference, distorted=distorted,
                                           kind="video", reference_args=raw,
                                           distorted_args=raw, name="log")))
    add_results_to_record(record, results)
    write_log(results, str(path), record)
    results.save_maps(maps_path(str(path)))
    return results


def _shown_frames(text, view="loss"):
    """{frame: its picture's pixels} of the worst frames a report draws with maps, in
    one view (loss, share)."""
    import base64
    return {int(n): _png_pixels(base64.b64decode(data)) for n, data in re.findall(
        r'<figure class="map worst" data-frame="(\d+)">.*?<div class="view %s">'
        r'<span class="view-name">[^<]*</span><img src="data:image/png;base64,([^"]+)"'
        % view, text)}


def test_report_draws_video_frames_under_their_maps(pair, ffmpeg, tmp_path, monkeypatch):
    """A log of score_video (ffmpeg's inputs, here raw through input options, scored
    from frame 1 on): the report decodes its worst frames with ffmpeg and draws each
    map over the frame it was computed on, the same pixels as the library's reader
    gives for that frame of the file.  A file name and a temporary directory that look
    like options, protocols and filtergraph syntax stay names."""
    import numpy as np
    from floatadm import map_image
    from floatadm.report import MAP_WIDTH, MAP_WORST_COUNT
    hostile = tmp_path / "t%d:x,y[a];'"
    hostile.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(hostile))
    reference = shutil.copy(pair(ASTRONAUT)[0], str(tmp_path / "-ref.yuv"))
    distorted = shutil.copy(pair(ASTRONAUT)[1], str(tmp_path / "-i file:x,[d]%d;'.yuv"))
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-video_size", "%dx%d" % (width, height)]
    log = tmp_path / "video.json"
    _video_log(log, reference, distorted, raw, start_frame=1)
    # A record is data: a program it names is not run.
    from floatadm.distributed import spec_path
    program, ran = tmp_path / "not-ffmpeg", tmp_path / "ran"
    program.write_text("#!/bin/sh\ntouch '%s'\n" % ran)
    program.chmod(0o755)
    record = json.loads(open(spec_path(str(log))).read())
    record["settings"]["ffmpeg"] = str(program)
    with open(spec_path(str(log)), "w") as f:
        json.dump(record, f)
    text = render(floatadm.report.load([str(log)]))
    assert not ran.exists()
    assert "the maps alone" not in text
    # The worst frames' and the mean's over the middle frame; the filter's maps keep
    # the loss alone, so no share view.
    assert text.count("loss in each block over it") == MAP_WORST_COUNT + 1
    assert '<div class="view share">' not in text and "no share view" in text
    shown = _shown_frames(text)
    assert len(shown) == MAP_WORST_COUNT and min(shown) >= 1
    maps = Results.load_maps(floatadm.results.maps_path(str(log)))
    with floatadm.files.VideoFile(distorted) as video:
        video.start(floatadm.files.Geometry(width, height, pix_fmt))
        for n, pixels in shown.items():
            want = map_image.shrink(map_image.overlay(maps[n], video.read_luma(n)), MAP_WIDTH)
            assert np.array_equal(pixels, want), n


def test_report_draws_scaled_video_frames_at_the_size_scored(ffmpeg, tmp_path):
    """`score --maps` of videos scaled to another size, from frame 3 on: the frames
    are drawn under their maps at the size scored."""
    from conftest import make_clip
    from floatadm.report import MAP_WORST_COUNT
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=0.4, lossy=True)
    log = tmp_path / "scaled.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           "--json", str(log), "--maps", "--quiet", "--start-frame", "3",
                           "--scale-size", "200x120"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = render(floatadm.report.load([str(log)]))
    assert "the maps alone" not in text
    shown = _shown_frames(text)
    assert len(shown) == MAP_WORST_COUNT and min(shown) >= 3
    assert all(p.shape == (120, 200, 3) for p in shown.values())


def test_report_draws_video_maps_alone_where_the_frames_are_in_doubt(pair, ffmpeg, tmp_path):
    """Where the frame under a map cannot be found for certain, the map is drawn alone
    and the report says why: the log's times are not the decoded frames' (a frame
    numbered otherwise), the log has no times, the input changed since it was scored,
    or the record has no size and time of it."""
    from floatadm.distributed import log_digest, spec_path
    from floatadm.report import MAP_WORST_COUNT
    reference, distorted = (shutil.copy(p, str(tmp_path)) for p in pair(ASTRONAUT))
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-video_size", "%dx%d" % (width, height)]
    log = tmp_path / "video.json"
    _video_log(log, reference, distorted, raw)
    original = log.read_text()

    def rewrite(text):
        """The log edited, and its record's digest with it (a record of another log is
        left out)."""
        log.write_text(text)
        record = json.loads(open(spec_path(str(log))).read())
        record["log_sha256"] = log_digest(text.encode())
        with open(spec_path(str(log)), "w") as f:
            json.dump(record, f)

    def drawn_alone(why):
        text = render(floatadm.report.load([str(log)]))
        assert "over it" not in text
        assert text.count('<figure class="map worst"') == MAP_WORST_COUNT
        assert "the maps alone" in text and why in html.unescape(text), why

    # Every frame one frame later than the decoder's.
    data = json.loads(original)
    for entry in data["frames"]:
        entry["timestamp"] += 0.04
    rewrite(json.dumps(data))
    drawn_alone("not certainly the frame scored")
    for entry in data["frames"]:
        del entry["timestamp"]
    rewrite(json.dumps(data))
    drawn_alone("has no time in the log")
    rewrite(original)

    record = json.loads(open(spec_path(str(log))).read())
    del record["inputs"]["distorted"]["size"]
    with open(spec_path(str(log)), "w") as f:
        json.dump(record, f)
    drawn_alone("the record holds no size and time of %s" % distorted)

    _video_log(log, reference, distorted, raw)
    st = os.stat(distorted)
    os.utime(distorted, ns=(st.st_atime_ns, st.st_mtime_ns + 10 ** 9))
    drawn_alone("%s has changed since it was scored" % distorted)


HOSTILE = ('"><img src=x onerror=alert(1)>', "'><svg onload=alert(2)>", "</script><script>x",
           '" onmouseover="alert(3)', "</style><b>")


def _no_live_markup(text):
    """Every tag and attribute of the page is the report's own: no <script>, no
    event handler, no <img> but its inline pictures, nothing a hostile string
    closed or opened."""
    class Tags(html.parser.HTMLParser):
        def handle_starttag(self, tag, attrs):
            assert tag not in ("script", "svg") or not any(n.startswith("on") for n, _ in attrs)
            assert tag != "script", tag
            assert not any(n.startswith("on") for n, _ in attrs), (tag, attrs)
            if tag == "img":
                assert dict(attrs)["src"].startswith("data:image/png;base64,"), attrs
            assert tag != "b", tag
    Tags().feed(text)
    for payload in HOSTILE:
        assert payload not in text, payload
    assert "</script>" not in text and "</style><b>" not in text


def test_report_escapes_every_field(pair, tmp_path):
    """Hostile strings in every field of a log, its record and its file name stay
    text, attributes included (a metric's name reaches data-metric and aria-label)."""
    from floatadm import distributed
    from floatadm.__main__ import main
    ref, dis = pair(ASTRONAUT)
    results = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                   frames=2)
    log = json.loads(results.to_json_text())
    log["version"] = HOSTILE[0]
    for i, entry in enumerate(log["frames"]):
        entry["metrics"].update({h: 0.5 + i for h in HOSTILE})
    log["frames"][1]["skipped"] = HOSTILE[1]
    name = 'x "><img src=x onerror=alert(1)> <b>'
    path = tmp_path / (name + ".json")
    path.write_text(json.dumps(log))
    record = {"float_adm_spec": 1, "library": HOSTILE[2], "resolution": [576, 324],
              "inputs": {k: {"path": "/tmp/" + h, "size": 10**6, "mtime_ns": 1}
                         for k, h in (("reference", HOSTILE[0]), ("distorted", HOSTILE[3]))},
              "settings": {"kind": HOSTILE[4], "width": HOSTILE[0], "height": HOSTILE[1]},
              "options": {}, "scaled": {"scaler": HOSTILE[0], "width": HOSTILE[1],
                                        "height": HOSTILE[2], "inputs": HOSTILE[3]}}
    (tmp_path / (name + distributed.SPEC_SUFFIX)).write_text(json.dumps(record))
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--title", HOSTILE[2], "--quiet"]) == 0
    _no_live_markup(out.read_text(encoding="utf-8"))


def test_report_leaves_spec_files_out(pair, tmp_path, capsys):
    """`report X*.json` takes X.spec.json too: left out with one line, not a
    traceback, however many (a ladder's logs/*/*/*.json: one line, not one a rung);
    given alone, one line that no log was given."""
    from floatadm import distributed
    from floatadm.__main__ import main
    ref, dis = pair(ASTRONAUT)
    job = distributed.normalise_job({"reference": ref, "distorted": dis, "frames": 2,
                                     "width": 576, "height": 324, "pix_fmt": "yuv420p",
                                     "name": "X"})
    log = str(tmp_path / "X.json")
    distributed.run_job(job, log)
    spec = distributed.spec_path(log)
    out = str(tmp_path / "r.html")
    assert main(["report", log, spec, "-o", out]) == 0
    captured = capsys.readouterr()
    assert captured.err == "floatadm: %s: a spec file (what made a log), not a log: left " \
        "out\n" % spec
    assert "(1 log)" in captured.out
    assert main(["report", spec, "-o", out]) == 1
    assert capsys.readouterr().err == "floatadm: no logs among %s\n" % spec
    other = str(tmp_path / "Y.json")
    distributed.run_job(dict(job, name="Y"), other)
    assert main(["report", log, spec, other, distributed.spec_path(other), "-o", out]) == 0
    captured = capsys.readouterr()
    assert captured.err == "floatadm: 2 spec files (what made each log), not logs: left out " \
        "(%s, ...)\n" % spec
    assert "(2 logs)" in captured.out


def _npz(path, frames, loss):
    import numpy as np
    np.savez_compressed(path, frames=np.array(frames, np.int64),
                        loss=np.asarray(loss, np.float32))


# Numbers a double does not hold, written as integers (float() of them raises), nesting
# deeper than Python's parser goes, bytes that are not UTF-8: said as the others are.
BEYOND_DOUBLE = "1" + "0" * 400


@pytest.mark.parametrize("case", ["list", "metrics list", "frames object", "string value",
                                  "huge timestamp", "settings list", "spec list",
                                  "garbage npz", "npz bomb", "npz of other arrays",
                                  "npz lost of another shape",
                                  "integer value beyond a double",
                                  "integer timestamp beyond a double",
                                  "integer option beyond a double", "nested too deeply",
                                  "spec nested too deeply", "not UTF-8",
                                  "beside value a string", "beside frame not scored",
                                  "beside a metric of the log"])
def test_malformed_files_give_one_line(case, pair, tmp_path, capsys):
    """Each malformed file beside a log: one line naming the file and what was
    expected, exit status 1, no traceback and no huge allocation."""
    import numpy as np
    from floatadm.__main__ import main
    ref, dis = pair(ASTRONAUT)
    log = json.loads(floatadm.score_files(reference=ref, distorted=dis,
                                          **fixture_geometry(ASTRONAUT),
                                          frames=2).to_json_text())
    path = tmp_path / "x.json"
    spec = tmp_path / "x.spec.json"
    npz = tmp_path / "x.maps.npz"
    bad = path
    if case == "list":
        log = [log]
    elif case == "metrics list":
        log["frames"][0]["metrics"] = [1, 2]
    elif case == "frames object":
        log["frames"] = {"0": {}}
    elif case == "string value":
        log["frames"][0]["metrics"]["adm2"] = "0.9"
    elif case == "huge timestamp":
        log["frames"][0]["timestamp"] = "HUGE"
    elif case in ("settings list", "spec list"):
        spec.write_text('{"float_adm_spec": 1, "settings": []}' if case == "settings list"
                        else "[]")
        bad = spec
    elif case == "garbage npz":
        npz.write_bytes(b"PK\x03\x04 not really a zip")
        bad = npz
    elif case == "npz bomb":
        # 20 kB that would decompress to 5 x 1000 x 1000 blocks (and a picture of
        # 32000 x 32000 pixels).
        _npz(str(npz), range(2), np.zeros((2, 1000, 1000), np.float32))
        assert npz.stat().st_size < 100000
        bad = npz
    elif case == "npz lost of another shape":
        np.savez_compressed(str(npz), frames=np.arange(2), loss=np.zeros((2, 11, 18), np.float32),
                            lost=np.zeros((2, 11, 17), np.float32))
        bad = npz
    elif case == "integer value beyond a double":
        log["frames"][1]["metrics"]["adm2"] = "BEYOND"
    elif case == "integer timestamp beyond a double":
        log["frames"][0]["timestamp"] = "BEYOND"
    elif case == "integer option beyond a double":
        spec.write_text('{"float_adm_spec": 1, "options": {"adm_enhn_gain_limit": %s}}'
                        % BEYOND_DOUBLE)
        bad = spec
    elif case == "spec nested too deeply":
        spec.write_text("[" * 100000)
        bad = spec
    elif case.startswith("beside"):
        entry = {"beside value a string": {"frame": 0, "psnr_y": "30"},
                 "beside frame not scored": {"frame": 9, "psnr_y": 30.0},
                 "beside a metric of the log": {"frame": 0, "adm2": 0.5}}[case]
        spec.write_text(json.dumps({"float_adm_spec": 1, "beside_frames": [entry]}))
        bad = spec if case == "beside value a string" else path
    elif case not in ("nested too deeply", "not UTF-8"):
        np.savez_compressed(str(npz), a=np.zeros(3))
        bad = npz
    path.write_text(json.dumps(log).replace('"HUGE"', "1e999").replace('"BEYOND"',
                                                                       BEYOND_DOUBLE))
    if case == "nested too deeply":
        path.write_text("[" * 100000)
    elif case == "not UTF-8":
        path.write_bytes(path.read_bytes().replace(b'"adm2"', b'"adm\xd2"', 1))
    assert main(["report", str(path), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("floatadm: %s: " % bad) and err.count("\n") == 1, err
    for kind, reason in (("beyond a double", "is beyond the range of a double"),
                         ("nested", "nest too deeply"), ("UTF-8", "is not UTF-8")):
        assert kind not in case or reason in err, err
    assert not (tmp_path / "r.html").exists()


def test_values_at_both_ends_of_the_doubles_are_charted(tmp_path):
    """Values of 1e308 and -1e308, whose difference no double holds: a chart whose
    line runs from top to bottom, not a traceback."""
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"frames": [{"frameNum": 0, "metrics": {"adm2": 1e308}},
                                           {"frameNum": 1, "metrics": {"adm2": -1e308}}]}))
    text = render(floatadm.report.load([str(path)]))
    assert re.search(r'class="series"[^>]*d="M0\.00 [\d.]+ L1000\.00 [\d.]+"', text), text


def test_incomplete_log(pair, tmp_path):
    """A failed run's log (float_adm_log_abandon: "incomplete" after the frames, no
    pooled values) is said to be incomplete in the report, and a catalogue scores
    its job again."""
    from floatadm import distributed
    ref, dis = pair(ASTRONAUT)
    job = distributed.normalise_job({"reference": ref, "distorted": dis, "frames": 2,
                                     "width": 576, "height": 324, "pix_fmt": "yuv420p",
                                     "name": "X"})
    path = str(tmp_path / "X.json")
    assert distributed.run_job(job, path)["status"] == "scored"
    assert distributed.run_job(job, path)["status"] == "skipped"
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    del log["pooled_metrics"], log["aggregate_metrics"]
    log["incomplete"] = "writing the maps failed: No space left on device"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(log, f, indent=2)
    with pytest.warns(floatadm.report.LogInDoubt, match="X.json: the run that wrote this "
                      "log did not end \\(incomplete: writing the maps failed"):
        text = render(floatadm.report.load([path]))
    assert "incomplete: the run failed: writing the maps failed" in text
    with pytest.raises(IncompleteLog, match="X.json: the run that wrote this log did not end"):
        Results.from_json(path)
    assert Results.from_json(path, allow_incomplete=True).incomplete.startswith("writing")
    assert distributed.run_job(job, path)["status"] == "scored"


def test_a_record_of_another_log(pair, tmp_path):
    """A record beside a log that is not the one it was written with (a reader between
    the two renames of another run, or a log copied over): the catalogue scores the job
    again, and the report leaves the record out, saying so."""
    from floatadm import distributed
    ref, dis = pair(ASTRONAUT)
    job = distributed.normalise_job({"reference": ref, "distorted": dis, "frames": 2,
                                     "width": 576, "height": 324, "pix_fmt": "yuv420p",
                                     "name": "X"})
    path = str(tmp_path / "X.json")
    assert distributed.run_job(job, path)["status"] == "scored"
    other = distributed.normalise_job(dict(job, frames=1))
    distributed.score_job(other).to_json(path)
    with pytest.warns(floatadm.report.LogInDoubt, match="X.spec.json: left out: it was "
                      "written with another log"):
        log = floatadm.report.load([path])[0]
    assert log.record is None
    assert distributed._up_to_date(job, path) == [
        "the record beside the log was written with another log"]
    assert distributed.run_job(job, path)["status"] == "scored"


def test_labels_are_the_users_and_the_build_says_how_far_it_is(logs, tmp_path, capsys):
    """--label names the logs in order (two logs of the same file name need not read
    "(2)"), a label given twice is told apart, and a line on stderr follows the
    build: the logs read, then the page."""
    out = tmp_path / "labelled.html"
    floatadm.report.write_report(logs[:2], str(out), labels=["x264 crf 23"], progress=True)
    text = out.read_text(encoding="utf-8")
    assert "x264 crf 23" in text
    assert os.path.basename(logs[1])[:-len(".json")] in text
    assert "3/3 logs read, then the page" in capsys.readouterr().err
    twice = floatadm.report.load(logs[:2], labels=["same", "same"])
    assert [log.label for log in twice] == ["same", "same (2)"]
    with pytest.raises(floatadm.report.ReportError, match="3 labels for 2 logs"):
        floatadm.report.load(logs[:2], labels=["a", "b", "c"])


def test_two_logs_of_one_source_get_a_difference_chart(logs):
    """Two logs (of the same reference, or without records): per metric, a chart of
    the first less the second, frame by frame; three logs: none."""
    two = floatadm.report.load(logs[:2])
    text = render(two)
    label = "%s \u2212 %s" % (two[0].label, two[1].label)
    assert "adm2 per frame, %s</h2>" % html.escape(label) in text
    first = {f["frame"]: f["adm2"] for f in two[0].scored}
    second = {f["frame"]: f["adm2"] for f in two[1].scored}
    frame = sorted(set(first) & set(second))[0]
    point = "%s: frame %d, adm2 %.6f" % (label, frame, first[frame] - second[frame])
    assert html.escape(point) in text
    assert "\u2212" not in render(floatadm.report.load(logs))


def test_maps_are_drawn_for_frames_apart():
    """The frames drawn with maps: the worst by adm2, but not the neighbours of one
    drawn (a title whose worst are 11, 6, 10, 5 draws 11 and 6, then frames further
    off), and none of the better half of the title."""
    import types
    from floatadm.report import MAP_FRAME_GAP, MAP_WORST_COUNT, map_frames

    def drawn(adm2):
        frames = [{"frame": n, "adm2": v} for n, v in enumerate(adm2)]
        log = types.SimpleNamespace(scored=frames, maps={n: None for n in range(len(adm2))})
        return [f["frame"] for f in map_frames(log)]

    # 12 frames, worst 11, 6, 10, 5: a quarter of the title (3 frames) apart.
    adm2 = [0.99, 0.98, 0.93, 0.985, 0.975, 0.92, 0.90, 0.97, 0.96, 0.95, 0.91, 0.89]
    assert drawn(adm2) == [11, 6, 2]  # 10 and 9 are near 11, 5 near 6
    # A long title: MAP_FRAME_GAP frames apart, the worst first.
    adm2 = [0.99] * 200
    for n, v in ((100, 0.90), (101, 0.901), (110, 0.902), (130, 0.91), (20, 0.92), (60, 0.93),
                 (180, 0.95)):
        adm2[n] = v
    shown = drawn(adm2)
    assert shown == [100, 130, 20, 60] and len(shown) == MAP_WORST_COUNT
    assert all(abs(a - b) >= MAP_FRAME_GAP for a in shown for b in shown if a != b)


# Measures the maps section at a page's width: where each line of a name breaks (the
# character before the break; a <br> reads as a newline), the colour keys' parts off
# their line, each log's figures per row, and whether each figure's two views stand
# side by side.
MAPS_PROBE = """
  const breaks = el => {
    const found = [];
    let top = null, before = null;
    const walk = d.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.tagName === 'BR') before = '\\n';
      if (n.nodeType !== Node.TEXT_NODE) continue;
      for (let i = 0; i < n.length; i++) {
        const range = d.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const rect = range.getClientRects()[0];
        if (rect && n.data[i].trim()) {
          if (top !== null && rect.top > top + 2) found.push(before);
          top = rect.top;
        }
        before = n.data[i];
      }
    }
    return found.join('');
  };
  out.breaks = [...d.querySelectorAll('td.name, .legend .name, h3, td span[title], td')]
      .map(breaks).join('');
  out.keys = [...d.querySelectorAll('.palette .scale')].map(s => {
    const tops = [...s.childNodes].map(n => {
      const range = d.createRange();
      range.selectNode(n);
      const r = range.getBoundingClientRect();
      return (r.top + r.bottom) / 2;
    });
    return Math.max(...tops) - Math.min(...tops);
  }).join(' ');
  out.rows = [...d.querySelectorAll('.maps')].map(grid => {
    const rows = {};
    for (const f of grid.children) {
      const top = Math.round(f.getBoundingClientRect().top);
      rows[top] = (rows[top] || 0) + 1;
    }
    return Object.values(rows).join(',');
  }).join(' ');
  out.pairs = [...d.querySelectorAll('figure.map')].filter(f => f.querySelectorAll('.view')
      .length == 2).map(f => {
    const [a, b] = [...f.querySelectorAll('.view')].map(v => v.getBoundingClientRect());
    return a.top == b.top && a.right <= b.left ? 'beside' : b.top >= a.bottom ? 'below' : '?';
  }).join(' ');
  out.overflow = d.documentElement.scrollWidth > w.innerWidth;
"""


@pytest.mark.parametrize("width", [390, 1400])
def test_maps_and_names_read_at_any_width(pair, ffmpeg, tmp_path, width):
    """At a phone's and a wide screen's width: names (logs, files) wrap only after a
    separator, never inside a part of them; each colour key keeps its colours and
    its words on one line; the two views of a frame stand side by side where there is
    room; five figures (a log whose maps keep the loss alone) fill rows of 3 and 2,
    not 4 and 1."""
    name = "av1_360p_1200k_preset_veryslow_tune_film_1920x1080"
    ref = write_y4m(pair(ASTRONAUT)[0], str(tmp_path / "ref.y4m"), *fixture_args(ASTRONAUT))
    dis = write_y4m(pair(ASTRONAUT)[1], str(tmp_path / (name + ".y4m")),
                    *fixture_args(ASTRONAUT))
    log = tmp_path / (name + ".json")
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           "--json", str(log), "--maps", "--quiet"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    reference, distorted = (shutil.copy(p, str(tmp_path)) for p in pair(ASTRONAUT))
    width_, height, pix_fmt = fixture_args(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-video_size", "%dx%d" % (width_, height)]
    video = tmp_path / "video.json"
    _video_log(video, reference, distorted, raw)
    text = render(floatadm.report.load([str(log), str(video)]))
    (tmp_path / "probe.html").write_text(_probe_page(text, width, MAPS_PROBE))
    body = parse(run_chromium((tmp_path / "probe.html").as_uri(), (1500, 1000),
                              "--dump-dom")).body
    assert body["overflow"] == "false"
    assert set(body["breaks"]) <= set("_-/ \n"), body["breaks"]
    assert "_" in body["breaks"] or width > 1000  # the long names do wrap on a phone
    assert all(float(v) < 4 for v in body["keys"].split()), body["keys"]
    assert len(body["keys"].split()) == 3  # the loss's, the share's and the grey's
    files, videos = body["rows"].split()
    if width > 1000:
        assert files == "1,1,1,1,1" and videos == "3,2"
        assert body["pairs"] == " ".join(["beside"] * 5)
    else:
        assert files == videos == "1,1,1,1,1"
        assert body["pairs"] == " ".join(["below"] * 5)
