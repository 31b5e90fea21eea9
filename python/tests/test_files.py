# Tests of floatadm.score_files and Results: float_adm_score's reading, libvmaf's
# pooling and log layouts.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import math
import os
import re
import subprocess
import warnings

import pytest

import floatadm
from floatadm.results import Results, pool

from conftest import (cli_frames, cli_pooled, fixture_args, fixture_geometry, same_bits,
                      write_y4m)

ASTRONAUT = "astronaut_576x324_yuv420p_x264"
COINS = "coins_384x304_yuv420p10le_x265"


def assert_same_frames(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        for name in w:
            assert same_bits(g[name], w[name]), (g.get("frame"), name)


def test_y4m_equals_raw_and_the_command(pair, run_cli, tmp_path):
    ref, dis = pair(COINS)
    ref_y4m = write_y4m(ref, str(tmp_path / "ref.y4m"), *fixture_args(COINS))
    dis_y4m = write_y4m(dis, str(tmp_path / "dis.y4m"), *fixture_args(COINS))
    raw = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(COINS))
    y4m = floatadm.score_files(reference=ref_y4m, distorted=dis_y4m)
    assert_same_frames(y4m.frames, raw.frames)
    assert_same_frames(y4m.frames, cli_frames(run_cli(ref_y4m, dis_y4m)))
    # Frames read from files carry no timestamp, as the command's log has none.
    assert not any("timestamp" in f for f in y4m.frames)
    # A y4m and a raw file together: the header says the geometry.
    mixed = floatadm.score_files(reference=ref_y4m, distorted=dis, pix_fmt="yuv420p10le")
    assert_same_frames(mixed.frames, raw.frames)


def test_y4m_log_is_the_commands_byte_for_byte(pair, score_bin, tmp_path):
    """score_files(...).to_json and float_adm_score --json of one y4m pair are the
    same bytes, the fps aside (the wall time differs)."""
    ref, dis = pair(COINS)
    ref_y4m = write_y4m(ref, str(tmp_path / "ref.y4m"), *fixture_args(COINS))
    dis_y4m = write_y4m(dis, str(tmp_path / "dis.y4m"), *fixture_args(COINS))
    floatadm.score_files(reference=ref_y4m,
                         distorted=dis_y4m).to_json(str(tmp_path / "python.json"))
    subprocess.run([score_bin, "-r", ref_y4m, "-d", dis_y4m, "--json",
                    str(tmp_path / "cli.json"), "--quiet"], check=True, capture_output=True)

    def normalised(name):
        text = (tmp_path / name).read_text(encoding="utf-8")
        return re.sub(r'"fps": [^,\n]*', '"fps": FPS', text)
    assert normalised("python.json") == normalised("cli.json")


def test_frames_and_ranges(pair, run_cli):
    ref, dis = pair(ASTRONAUT)
    whole = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT))
    first = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                 frames=4)
    assert_same_frames(first.frames, cli_frames(run_cli(ref, dis, fixture_args(ASTRONAUT),
                                                        frames=4)))
    assert_same_frames(first.frames, whole.frames[:4])
    middle = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                  start_frame=2,
                                  end_frame=5)
    assert [f["frame"] for f in middle.frames] == [2, 3, 4]
    assert_same_frames(middle.frames, whole.frames[2:5])


def test_file_errors_say_what_is_wrong(pair, tmp_path):
    ref, dis = pair(ASTRONAUT)
    other_ref, _ = pair("grass_322x182_yuv420p_vp9")
    with pytest.raises(floatadm.FileError, match="missing width, height, pix_fmt"):
        floatadm.score_files(reference=ref, distorted=dis)
    with pytest.raises(floatadm.FileError, match="ends inside frame"):
        floatadm.score_files(reference=ref, distorted=dis, width=577, height=324, pix_fmt="yuv420p")
    with pytest.raises(floatadm.FileError, match="unknown pixel format"):
        floatadm.score_files(reference=ref, distorted=dis, width=576, height=324, pix_fmt="nv12")
    short = tmp_path / "short.yuv"
    with open(ref, "rb") as f:
        short.write_bytes(f.read(576 * 324 * 3 // 2 * 2))
    with pytest.raises(floatadm.FileError, match="differ.*frames=N"):
        floatadm.score_files(reference=ref, distorted=str(short), **fixture_geometry(ASTRONAUT))
    with pytest.raises(floatadm.FileError, match="frames=3, but the file holds 2"):
        floatadm.score_files(reference=ref, distorted=str(short), **fixture_geometry(ASTRONAUT),
                             frames=3)
    with pytest.raises(floatadm.FileError, match="cannot open"):
        floatadm.score_files(reference=str(tmp_path / "absent.yuv"), distorted=dis,
                             **fixture_geometry(ASTRONAUT))
    bad = tmp_path / "bad.y4m"
    bad.write_bytes(b"not y4m")
    with pytest.raises(floatadm.FileError, match="not a y4m file"):
        floatadm.score_files(reference=str(bad), distorted=str(bad))
    assert other_ref  # a second fixture exists for the geometry test below
    y4m = write_y4m(ref, str(tmp_path / "a.y4m"), *fixture_args(ASTRONAUT))
    with pytest.raises(floatadm.FileError, match="header says 576x324"):
        floatadm.score_files(reference=y4m, distorted=y4m, width=640)


def test_reads_what_the_command_reads_with_its_rules(pair, tmp_path):
    """The library's reader under score_files: whole frames for frames=N, containers
    named with what scores them, interlaced y4m scored with a warning."""
    ref, dis = pair(ASTRONAUT)
    frame = 576 * 324 * 3 // 2
    partial = tmp_path / "partial.yuv"
    with open(dis, "rb") as f:
        partial.write_bytes(f.read(frame * 3 + frame // 2))
    whole = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                 frames=3)
    cut = floatadm.score_files(reference=ref, distorted=str(partial),
                               **fixture_geometry(ASTRONAUT), frames=3)
    assert_same_frames(cut.frames, whole.frames)
    with pytest.raises(floatadm.FileError, match="3.5 frames of 576x324 yuv420p"):
        floatadm.score_files(reference=ref, distorted=str(partial), **fixture_geometry(ASTRONAUT))
    mp4 = tmp_path / "clip.mp4"
    mp4.write_bytes(b"\0\0\0\x20ftypisom\0\0\2\0isomiso2avc1mp41")
    with pytest.raises(floatadm.FileError, match="raw YUV and y4m.*float_adm filter.*"
                                                 "python3 -m floatadm score"):
        floatadm.score_files(reference=str(mp4), distorted=str(mp4), **fixture_geometry(ASTRONAUT))
    progressive = write_y4m(ref, str(tmp_path / "p.y4m"), *fixture_args(ASTRONAUT))
    interlaced = tmp_path / "i.y4m"
    with open(progressive, "rb") as f:
        interlaced.write_bytes(f.read().replace(b" Ip ", b" It ", 1))
    with pytest.warns(UserWarning, match="It .interlaced, top field first.*two fields"):
        fields = floatadm.score_files(reference=str(interlaced), distorted=progressive)
    assert_same_frames(fields.frames, floatadm.score_files(reference=progressive,
                                                           distorted=progressive).frames)


def test_pooling_is_libvmafs(pair, run_cli):
    """Results.pooled, merged halves, the JSON and CSV writers, all against
    float_adm_score's logs."""
    ref, dis = pair(ASTRONAUT)
    log = run_cli(ref, dis, fixture_args(ASTRONAUT), {"debug": "true"})
    results = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                   debug=True)
    want = cli_pooled(log)
    for name, stats in results.pooled.items():
        for key in ("min", "max", "mean", "harmonic_mean"):
            assert same_bits(stats[key], want[name][key]), (name, key)
    halves = Results.merge([Results(results.frames[3:], names=results.names),
                            Results(results.frames[:3], names=results.names)])
    assert halves.frames == results.frames
    assert halves.pooled == results.pooled
    # A segment past the end of a title (a video's estimated count) adds nothing.
    empty = Results([], names=[])
    assert Results.merge([empty, halves, empty]).pooled == results.pooled


def test_pool_follows_c_doubles():
    assert pool([]) is None
    p = pool([0.5, float("nan"), 0.25])
    assert p["min"] == 0.25 and p["max"] == 0.5  # NaN compares false, as in C
    assert math.isnan(p["mean"]) and math.isnan(p["harmonic_mean"])
    p = pool([-1.0, 1.0])
    assert p["harmonic_mean"] == -1.0  # 1 / 0 is infinity, as in C
    values = [0.1, 0.2, 0.3]
    assert pool(values)["mean"] == ((0.1 + 0.2) + 0.3) / 3


def test_json_and_csv_layouts(pair, score_bin, tmp_path):
    ref, dis = pair(ASTRONAUT)
    geometry = ["--width", "576", "--height", "324", "--pix-fmt", "yuv420p"]
    csv_path, json_path = tmp_path / "cli.csv", tmp_path / "cli.json"
    subprocess.run([score_bin, "--reference", ref, "--distorted", dis, *geometry, "--csv",
                    str(csv_path), "--json", str(json_path), "--quiet"], check=True)
    results = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT))
    # CSV: the command's bytes.
    results.to_csv(tmp_path / "py.csv")
    assert (tmp_path / "py.csv").read_text() == csv_path.read_text()
    # JSON: the command's content (the version and fps lines aside), and read back.
    results.to_json(tmp_path / "py.json")
    mine, theirs = (json.loads(p.read_text()) for p in (tmp_path / "py.json", json_path))
    for data in (mine, theirs):
        data.pop("fps", None)
        data.pop("version")
    assert mine == theirs
    again = Results.from_json(tmp_path / "py.json")
    assert again.frames == results.frames
    assert again.pooled == results.pooled
    text = (tmp_path / "py.json").read_text()
    assert '"frameNum": 5,' in text and '"harmonic_mean": ' in text


def without_fps(text):
    """A JSON or XML log without its fps (a speed, not a score)."""
    return re.sub(r'(\n  "fps": |<fyi fps=")[^\n]*', r"\1-", text)


@pytest.mark.parametrize("options", [{}, {"debug": "true", "egl": "1.2", "csf": "1"}])
def test_logs_are_the_commands_bytes(pair, score_bin, tmp_path, options):
    """A log from Python and float_adm_score's of the same clip are the same bytes,
    the fps aside: one writer, the library's, for both."""
    ref, dis = pair(ASTRONAUT)
    geometry = ["--width", "576", "--height", "324", "--pix-fmt", "yuv420p"]
    option_args = [a for k, v in options.items() for a in ("--option", "%s=%s" % (k, v))]
    command = {suffix: tmp_path / ("cli." + suffix) for suffix in ("json", "csv")}
    subprocess.run([score_bin, "--reference", ref, "--distorted", dis, *geometry,
                    *option_args, "--json", str(command["json"]), "--csv", str(command["csv"]),
                    "--quiet"], check=True)
    results = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                   **options)
    results.to_json(tmp_path / "py.json")
    results.to_csv(tmp_path / "py.csv")
    assert (tmp_path / "py.csv").read_bytes() == command["csv"].read_bytes()
    assert without_fps((tmp_path / "py.json").read_text()) == \
        without_fps(command["json"].read_text())
    # Read back and written again: the same bytes still.
    again = Results.from_json(tmp_path / "py.json")
    again.to_json(tmp_path / "again.json")
    assert without_fps((tmp_path / "again.json").read_text()) == \
        without_fps(command["json"].read_text())


def test_results_that_no_options_name_are_not_written(tmp_path):
    """A log whose names no float_adm options give cannot be rewritten as if it had
    them: the writer says so rather than renaming the outputs."""
    log = tmp_path / "foreign.json"
    log.write_text(json.dumps({"frames": [{"frameNum": 0, "metrics": {
        name + "_egl_1.20": 0.5 for name in floatadm.OUTPUT_NAMES[:7]}}]}))
    results = Results.from_json(log)
    assert results.names == list(floatadm.OUTPUT_NAMES[:7])
    with pytest.raises(ValueError, match="adm2_egl_1.20"):
        results.to_json(tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_option_names_in_logs(pair):
    """A log names each output as libvmaf does for the options used; reading it back
    gives the plain names again."""
    ref, dis = pair("chelsea_33x17_yuv444p_x264")
    with pytest.warns(UserWarning, match="fine detail"):  # noise added: more detail
        results = floatadm.score_files(reference=ref, distorted=dis,
                                       **fixture_geometry("chelsea_33x17_yuv444p_x264"),
                                       adm_csf_mode=1, egl=1.2, adm_skip_scale0=True)
    assert results.feature_names["adm2"] == "adm2_csf_1_egl_1.2_ssz"
    text = results.to_json_text()
    assert '"adm2_csf_1_egl_1.2_ssz": ' in text
    assert floatadm.results.plain_name("adm_scale0_egl_1.2") == "adm_scale0"
    assert floatadm.results.plain_name("adm_num_scale0") == "adm_num_scale0"
    assert floatadm.results.plain_name("vmaf") is None


def test_command_line_score(pair, tmp_path):
    """python3 -m floatadm score: the table, the logs, and errors as one line, exit 1."""
    import sys
    ref, dis = pair(ASTRONAUT)
    geometry = ["--width", "576", "--height", "324", "--pix-fmt", "yuv420p"]
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           *geometry,
                           "--option", "egl=1.2", "--json", str(out), "--csv",
                           str(tmp_path / "out.csv")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].split() == ["frame", "adm2", "aim", "adm3"]
    want = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT),
                                egl=1.2)
    assert Results.from_json(out).frames == want.frames
    assert (tmp_path / "out.csv").read_text() == want.to_csv_text()
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           *geometry, "--option", "egl=0.5"], capture_output=True, text=True)
    assert done.returncode == 1
    assert re.fullmatch(r"floatadm: .*adm_enhn_gain_limit.*range.*\n", done.stderr)


def test_swapped_files_warn_once(pair):
    """The encode given as the reference: score_files asks whether the two are swapped,
    naming both, once, after the library's check; the right way round, nothing."""
    ref, dis = pair(ASTRONAUT)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT))
    for threads, map_ in ((1, False), (3, False), (1, True)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            floatadm.score_files(reference=dis, distorted=ref, **fixture_geometry(ASTRONAUT),
                                 threads=threads, map=map_)
        assert [str(w.message) for w in caught] == [
            "the distorted %s against the reference %s: the distorted has 1.29 times the "
            "reference's fine detail (squared differences of neighbouring luma samples, 6 "
            "frames): are the two swapped? (an encode has less than its source; sharpening "
            "or added noise or grain give more)" % (ref, dis)], (threads, map_)
        assert caught[0].filename == __file__


def test_inputs_by_position_warn(pair):
    """The reference and the distorted are asked for by name: by position they are
    taken in that order, with one warning that asks for names, at the caller's line."""
    ref, dis = pair(ASTRONAUT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        by_position = floatadm.score_files(ref, dis, **fixture_geometry(ASTRONAUT))
    assert [str(w.message) for w in caught] == [
        "score_files(): the reference and the distorted given by position; name them "
        "(reference=..., distorted=...), as the float_adm filter takes the distorted first"]
    assert caught[0].filename == __file__
    by_name = floatadm.score_files(reference=ref, distorted=dis, **fixture_geometry(ASTRONAUT))
    assert by_position.frames == by_name.frames
    with pytest.warns(UserWarning, match=r"^score_files\(\): the reference given by position"):
        floatadm.score_files(ref, distorted=dis, **fixture_geometry(ASTRONAUT))
    # A call that cannot bind fails as it would, with no word of positions.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="multiple values"):
            floatadm.score_files(576, reference=ref, distorted=dis)


def test_command_line_says_the_swap_as_its_own_line(pair):
    """python3 -m floatadm score on files swapped: the warning is the tool's own line,
    with no Python source line, as for videos."""
    import sys
    ref, dis = pair(ASTRONAUT)
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", dis, "-d", ref,
                           "--width", "576", "--height", "324", "--pix-fmt", "yuv420p",
                           "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("floatadm: warning: the distorted %s against the reference %s: the "
                           "distorted has 1.29 times the reference's fine detail (squared "
                           "differences of neighbouring luma samples, 6 frames): are the two "
                           "swapped? (an encode has less than its source; sharpening or added "
                           "noise or grain give more)\n" % (ref, dis))


def test_swap_check_takes_what_the_scorer_takes():
    """The check reads luma arrays as Scorer does, and refuses what it refuses."""
    import numpy as np
    from floatadm.scorer import SwapCheck
    rng = np.random.default_rng(1)
    source = rng.integers(64, 192, (48, 64), dtype=np.uint16) * 4
    blurred = (source[:, :-2] + source[:, 1:-1] + source[:, 2:]) // 3
    with SwapCheck(62, 48, 10) as check:
        check.add(blurred, source[:, 1:-1])
        assert check.wanted and "are the two swapped?" in check.message()
        with pytest.raises(ValueError, match="shape"):
            check.add(blurred[1:], source[1:, 1:-1])
    with SwapCheck(62, 48, 10) as check:
        check.add(source[:, 1:-1], blurred)
        assert check.message() is None
    with pytest.raises(floatadm.InvalidError):
        SwapCheck(1, 48, 8)


def test_a_pipe_is_refused_at_once(tmp_path):
    """Frames are read by number here: a FIFO is refused before anything waits for a
    writer, naming the tool that reads pipes."""
    fifo = tmp_path / "dis.y4m"
    os.mkfifo(fifo)
    with pytest.raises(floatadm.FileError, match="a pipe.*float_adm_score reads"):
        floatadm.files.VideoFile(fifo)


@pytest.mark.parametrize("fixture", ["chelsea_33x17_yuv444p_x264",
                                     "coins_384x304_yuv420p10le_x265",
                                     "camera_512x384_yuv444p12le_noise",
                                     "brick_63x65_yuv444p10le_scale",
                                     "rocket_426x240_yuv422p16le_blur"])
def test_frames_read_into_caller_memory_or_in_place_are_read_luma(pair, tmp_path, fixture):
    """VideoFile.read_luma_into (the CPU's frames of score_files) writes the bytes
    read_luma returns, and VideoFile.luma_at (where the CUDA library reads them in place)
    names where they lie: 8 to 16 bits, odd sizes, raw and y4m."""
    import os
    import numpy as np
    from floatadm.files import Geometry, VideoFile
    ref_path, _ = pair(fixture)
    width, height, pix_fmt = fixture_args(fixture)
    geometry = Geometry(width, height, pix_fmt)
    y4m = str(tmp_path / "ref.y4m")
    with open(ref_path, "rb") as raw, open(y4m, "wb") as out:
        frames = raw.read()
        out.write(b"YUV4MPEG2 W%d H%d C%s\n" % (width, height,
                                                floatadm.files.y4m_tag(pix_fmt).encode()))
        for k in range(len(frames) // geometry.frame_bytes):
            out.write(b"FRAME\n" + frames[k * geometry.frame_bytes:
                                          (k + 1) * geometry.frame_bytes])
    for path in (ref_path, y4m):
        with VideoFile(path) as video:
            video.start(video.header or geometry)
            for index in reversed(range(video.frame_count)):
                want = video.read_luma(index)
                into = np.full_like(want, 0x5a)
                video.read_luma_into(index, into.ctypes.data)
                assert (into == want).all(), (path, index)
                fd, offset = video.luma_at(index)
                assert os.pread(fd, want.nbytes, offset) == want.tobytes(), (path, index)
            with pytest.raises(IndexError):
                video.luma_at(video.frame_count)


def test_auto_says_which_backend_scored_the_files(pair):
    """score_files(backend="auto") reports the library's choice; without a device the
    CPU, saying why, with the CPU's scores."""
    ref_path, dis_path = pair("astronaut_576x324_yuv420p_x264")
    geometry = fixture_geometry("astronaut_576x324_yuv420p_x264")
    auto = floatadm.score_files(reference=ref_path, distorted=dis_path, backend="auto",
                                **geometry)
    cpu = floatadm.score_files(reference=ref_path, distorted=dis_path, **geometry)
    assert auto.frames == cpu.frames
    assert cpu.backend == "cpu" and cpu.backend_reason == "backend='cpu'"
    backend, why = floatadm.choose_backend(576, 324, 8, threads=1, frames=len(cpu.frames))
    assert (auto.backend, auto.backend_reason) == (backend, why)
    if floatadm.cuda_device_count() == 0:
        assert auto.backend == "cpu"
        assert re.search("no usable CUDA device|CUDA library .* is not available", why), why
    else:  # 6 small frames do not pay for the device's start
        assert auto.backend == "cpu" and "its start included" in why, why
