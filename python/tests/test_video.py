# Tests of floatadm.score_video: the float_adm filter of the project's ffmpeg.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import shutil
import subprocess
import tempfile
import warnings
import wave

import pytest

import floatadm
from floatadm.results import Results

from conftest import fixture_args, fixture_geometry, make_clip, same_bits, write_y4m

ASTRONAUT = "astronaut_576x324_yuv420p_x264"


@pytest.fixture(scope="module")
def videos(pair, ffmpeg, tmp_path_factory):
    """The astronaut pair as y4m files and its distorted side as lossless FFV1 in
    Matroska at 25 fps."""
    work = tmp_path_factory.mktemp("video")
    ref, dis = pair(ASTRONAUT)
    ref_y4m = write_y4m(ref, str(work / "ref.y4m"), *fixture_args(ASTRONAUT), rate="25:1")
    dis_y4m = write_y4m(dis, str(work / "dis.y4m"), *fixture_args(ASTRONAUT), rate="25:1")
    dis_mkv = str(work / "dis.mkv")
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i", dis_y4m,
                    "-c:v", "ffv1", dis_mkv], check=True)
    return ref_y4m, dis_y4m, dis_mkv


def assert_same(got, want):
    assert [f["frame"] for f in got.frames] == [f["frame"] for f in want.frames]
    for g, w in zip(got.frames, want.frames):
        for name in want.names:
            assert same_bits(g[name], w[name]), (g["frame"], name)


def test_video_equals_files(videos):
    ref_y4m, dis_y4m, dis_mkv = videos
    want = floatadm.score_files(reference=ref_y4m, distorted=dis_y4m, egl=1.2, debug=True)
    got = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, egl=1.2, debug=True)
    assert got.names == want.names and len(got.names) == 18
    assert_same(got, want)
    for name in got.names:
        assert got.pooled[name] == want.pooled[name]
    assert [f["timestamp"] for f in got.frames] == pytest.approx(
        [i / 25 for i in range(6)], abs=1e-6)


def test_raw_input_through_input_options(pair, ffmpeg):
    ref, dis = pair(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "576x324"]
    got = floatadm.score_video(reference=ref, distorted=dis, ffmpeg=ffmpeg, reference_args=raw,
                               distorted_args=raw)
    assert_same(got, floatadm.score_files(reference=ref, distorted=dis,
                                          **fixture_geometry(ASTRONAUT)))


def test_swapped_pair_warns_from_its_pictures(pair, ffmpeg):
    """The README's pair (the demo's: the astronaut and its x264 encode) as raw files,
    of one size and with no bitrate: given the wrong way round, the filter's check of
    the pictures warns once, naming both; the right way round, nothing is said."""
    ref, dis = pair(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "576x324"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floatadm.score_video(reference=ref, distorted=dis, reference_args=raw, distorted_args=raw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        swapped = floatadm.score_video(reference=dis, distorted=ref, reference_args=raw,
                                       distorted_args=raw)
    assert [str(w.message) for w in caught] == [
        "the distorted %s against the reference %s: the distorted has 1.29 times the "
        "reference's fine detail (squared differences of neighbouring luma samples, 6 "
        "frames): are the two swapped? (an encode has less than its source; sharpening or "
        "added noise or grain give more)" % (ref, dis)]
    assert caught[0].filename == __file__
    assert len(swapped.frames) == 6


def test_inputs_by_position_warn(pair, ffmpeg):
    """score_video by position: the two taken in that order, with a warning naming it."""
    ref, dis = pair(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "576x324"]
    with pytest.warns(UserWarning, match=r"^score_video\(\): the reference and the distorted "
                      r"given by position; name them") as caught:
        by_position = floatadm.score_video(ref, dis, reference_args=raw, distorted_args=raw,
                                           end_frame=2)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert by_position.frames == floatadm.score_video(
        reference=ref, distorted=dis, reference_args=raw, distorted_args=raw,
        end_frame=2).frames


def test_frame_range_by_number(videos):
    ref_y4m, dis_y4m, dis_mkv = videos
    whole = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv)
    part = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, start_frame=2, end_frame=5)
    assert [f["frame"] for f in part.frames] == [2, 3, 4]
    assert part.frames == whole.frames[2:5]
    tail = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, start_frame=4)
    assert tail.frames == whole.frames[4:]


def test_progress_bar_only_when_asked_or_on_a_terminal(videos, capsys):
    ref_y4m, _, dis_mkv = videos
    floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, progress=True)
    err = capsys.readouterr().err
    assert "6/6 frames" in err
    floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, end_frame=3, progress=True)
    assert "3/3 frames" in capsys.readouterr().err
    floatadm.score_video(reference=ref_y4m, distorted=dis_mkv)  # stderr is no terminal here
    assert capsys.readouterr().err == ""


def test_ffmpeg_errors(videos, tmp_path):
    ref_y4m, _, _ = videos
    with pytest.raises(floatadm.FFmpegError, match="float_adm filter"):
        floatadm.score_video(reference=ref_y4m, distorted=ref_y4m, ffmpeg="/bin/true")
    with pytest.raises(floatadm.FFmpegError, match="exit status"):
        floatadm.score_video(reference=ref_y4m, distorted=str(tmp_path / "absent.mkv"))
    with pytest.raises(ValueError, match="range"):
        floatadm.score_video(reference=ref_y4m, distorted=ref_y4m, egl=1000)


# Every character that means something to a filtergraph or an option list.
HOSTILE = (":", ",", ";", "[", "]", "'", "\\", "\n", "=", " ")


def test_hostile_values_stay_data(videos, tmp_path, monkeypatch):
    """Nothing passed to score_video adds a filter option, a filter or an ffmpeg
    option: backends that are not the package's names, options the library refuses
    and input options outside the known ones are errors; paths holding any of them
    are read as the paths they are."""
    ref_y4m, dis_y4m, dis_mkv = videos
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    whole = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv)
    for bad in ("cpu:log_path=%s" % victim, "cpu:egl=1", "cpu,null", "cpu;[x]", "cpu[a]",
                "cpu'", "cpu\\", "cpu\n", "cpu=1", "'cpu'", "cpu "):
        with pytest.raises(ValueError, match="backend"):
            floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, backend=bad)
    for c in HOSTILE:
        with pytest.raises(ValueError):
            floatadm.score_video(reference=ref_y4m, distorted=dis_mkv,
                                 egl="1.2%slog_path=%s" % (c, victim))
        with pytest.raises((ValueError, TypeError)):
            floatadm.score_video(reference=ref_y4m, distorted=dis_mkv,
                                 **{"egl%slog_path" % c: str(victim)})
    for args in (["-dump_attachment:t", str(victim)], ["-i", str(victim)], ["-f"],
                 ["-f", "-y"], ["-y", "-f"]):
        with pytest.raises(ValueError, match="distorted_args"):
            floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, distorted_args=args)
    assert victim.read_text() == "keep me"
    # The private directory (log_path, the metadata file) under a hostile TMPDIR,
    # and input files named with every one of them.
    hostile = "".join(HOSTILE) + "log_path=" + str(victim)
    tmp = tmp_path / ("tmp" + hostile.replace("/", "_"))
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    ref_copy = tmp_path / ("ref" + hostile.replace("/", "_") + ".y4m")
    dis_copy = tmp_path / ("dis" + hostile.replace("/", "_") + ".mkv")
    shutil.copy(ref_y4m, ref_copy)
    shutil.copy(dis_mkv, dis_copy)
    got = floatadm.score_video(reference=str(ref_copy), distorted=str(dis_copy), backend="cpu",
                               egl=1.2)
    assert got.options["adm_enhn_gain_limit"] == 1.2
    assert_same(got, floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, egl=1.2))
    assert_same(floatadm.score_video(reference=str(ref_copy), distorted=str(dis_copy)), whole)
    assert victim.read_text() == "keep me"
    assert os.listdir(tmp) == []


def test_file_names_that_look_like_urls(videos, tmp_path, monkeypatch):
    """A local file is read as that file, whatever its name says: file:x.mkv is the
    file named so, not x.mkv; a:b.mkv is no protocol; -x.mkv is no option."""
    ref_y4m, dis_y4m, dis_mkv = videos
    monkeypatch.chdir(tmp_path)
    whole = floatadm.score_video(reference=ref_y4m, distorted=dis_mkv)
    shutil.copy(dis_mkv, tmp_path / "file:x.mkv")
    make_clip(floatadm.find_ffmpeg(), tmp_path / "x.mkv", 25, seconds=0.24, size="576x324")
    for name in ("file:x.mkv", "a:b.mkv", "-x.mkv", "pipe:0.mkv", "concat:x.mkv|x.mkv"):
        if name != "file:x.mkv":
            shutil.copy(dis_mkv, tmp_path / name)
        assert_same(floatadm.score_video(reference=ref_y4m, distorted=name), whole)
        assert_same(floatadm.score_video(reference=ref_y4m, distorted=tmp_path / name), whole)


def test_frame_range_pairs_by_time(ffmpeg, tmp_path):
    """A frame range of a 25 fps distorted against a 50 fps reference: each frame
    scored against the reference frame a whole run pairs it with."""
    ref = make_clip(ffmpeg, tmp_path / "ref50.mkv", 50)
    dis = make_clip(ffmpeg, tmp_path / "dis25.mkv", 25, lossy=True)
    whole = floatadm.score_video(reference=ref, distorted=dis)
    part = floatadm.score_video(reference=ref, distorted=dis, start_frame=50, end_frame=60)
    assert [f["frame"] for f in part.frames] == list(range(50, 60))
    assert part.frames == whole.frames[50:60]
    assert floatadm.score_video(reference=ref, distorted=dis,
                                start_frame=90).frames == whole.frames[90:]
    with pytest.raises(floatadm.FFmpegError, match="asked for"):
        floatadm.score_video(reference=ref, distorted=dis, start_frame=95, end_frame=120)


def test_rounded_timestamps_pair_by_the_nearest(ffmpeg, tmp_path):
    """A 23.976 fps distorted in Matroska (millisecond timestamps, some before the
    frame's time) against its y4m source (1001/24000 s): each frame is scored against
    its own source frame (floatadm.video.PAIRING), not the one before, which
    framesync's default pairing would take."""
    ref, dis = str(tmp_path / "ref.y4m"), str(tmp_path / "dis.y4m")
    make = [ffmpeg, "-y", "-hide_banner", "-loglevel", "error", "-nostdin"]
    subprocess.run(make + ["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=24000/1001:"
                           "duration=2,format=yuv420p", ref], check=True)
    shutil.copy(ref, dis)
    dis_mkv = str(tmp_path / "dis.mkv")
    subprocess.run(make + ["-i", dis, "-c:v", "ffv1", dis_mkv], check=True)
    got = floatadm.score_video(reference=ref, distorted=dis_mkv)
    want = floatadm.score_files(reference=ref, distorted=dis)
    assert [f["frame"] for f in got.frames] == [f["frame"] for f in want.frames]
    assert len(want.frames) == 48
    # The case is there: frames whose timestamp is before their time.
    assert any(f["timestamp"] < f["frame"] * 1001 / 24000 - 1e-4 for f in got.frames)
    for g, w in zip(got.frames, want.frames):
        assert all(same_bits(g[n], w[n]) for n in want.names), g["frame"]


def test_the_graph_of_each_backend(monkeypatch):
    """backend= is one of the package's names; "cpu" scores with float_adm, "cuda"
    with float_adm_cuda on NVDEC's frames or frames uploaded to one device (an ffmpeg
    without it is named), "auto" takes the GPU only where ffmpeg and the machine have
    one."""
    video = floatadm.video
    monkeypatch.setitem(video._listings, ("-filters", "cpu-only"), {"float_adm", "null"})
    monkeypatch.setitem(video._listings, ("-filters", "with-cuda"),
                        {"float_adm", "float_adm_cuda", "hwupload"})
    assert video.check_backend("cpu-only", None) == "cpu"
    assert video.check_backend("cpu-only", "cpu") == "cpu"
    assert video.check_backend("cpu-only", "auto") == "cpu"
    with pytest.raises(floatadm.FFmpegError, match="no float_adm_cuda or no hwupload"):
        video.check_backend("cpu-only", "cuda")
    assert video.check_backend("with-cuda", "cuda") == "cuda"
    monkeypatch.setattr(video, "cuda_device_count", lambda: 0)
    assert video.check_backend("with-cuda", "auto") == "cpu"
    monkeypatch.setattr(video, "cuda_device_count", lambda: 1)
    assert video.check_backend("with-cuda", "auto") == "cuda"
    for bad in ("gpu", "CUDA", "float_adm_cuda", 1, ("cuda",)):
        with pytest.raises(ValueError, match="backend"):
            video.check_backend("with-cuda", bad)
    assert video.scoring_graph("cpu", "d0", "r0", "log_fmt=json") == \
        "[d0][r0]float_adm=log_fmt=json"
    assert video.scoring_graph("cuda", "d0", "r0", "log_fmt=json") == \
        "[d0]hwupload[d0_gpu];[r0]hwupload[r0_gpu];" \
        "[d0_gpu][r0_gpu]float_adm_cuda=log_fmt=json"
    assert video.scoring_graph("cuda", "d0", "r0", "log_fmt=json", "nvdec") == \
        "[d0][r0]float_adm_cuda=log_fmt=json"
    # One device for the run: the decoders or the uploads and the filter on it.
    assert video.cuda_options("cpu") == (
        ["-init_hw_device", "cuda=floatadm", "-filter_hw_device", "floatadm"], [])
    assert video.cuda_options("nvdec") == (
        ["-init_hw_device", "cuda=floatadm"],
        ["-hwaccel", "cuda", "-hwaccel_device", "floatadm", "-hwaccel_output_format", "cuda",
         "-extra_hw_frames", "8"])


def test_nvdec_only_where_its_frames_are_the_cpus(monkeypatch):
    """NVDEC decodes only the codecs and formats compared with the CPU's on the GPU,
    with an ffmpeg that has the cuda hwaccel and nothing in the graph that takes
    software frames; each refusal says why."""
    video = floatadm.video
    monkeypatch.setitem(video._listings, ("-hwaccels", "nv"), {"cuda"})
    monkeypatch.setitem(video._listings, ("-hwaccels", "no-nv"), {"vaapi"})
    good = [("h264", "yuv420p"), ("hevc", "yuv420p10le")]
    assert video.cuda_decoding("nv", "auto", good, None) == ("nvdec",
                                                              "NVDEC decodes both inputs")
    for decoder, streams, software, why in (
            ("cpu", good, None, "decoder='cpu'"),
            ("auto", good, "the scaler (scale=)", "the scaler"),
            ("auto", [good[0], ("mpeg2video", "yuv420p")], None,
             "the distorted is mpeg2video: NVDEC is taken for h264 in yuv420p; hevc in "
             "yuv420p or yuv420p10le"),
            ("auto", [("av1", "yuv420p")] * 2, None, "the reference is av1"),
            ("auto", [("h264", "yuv420p10le"), good[0]], None,
             "the reference is h264 in yuv420p10le"),
            ("auto", [("hevc", "yuv420p12le")] * 2, None, "yuv420p12le"),
            ("auto", [(None, None)] * 2, None, "ffprobe does not name")):
        decoding, reason = video.cuda_decoding("nv", decoder, streams, software)
        assert decoding == "cpu" and why in reason, (decoder, streams, reason)
    assert video.cuda_decoding("no-nv", "auto", good, None) == (
        "cpu", "no-nv has no cuda hwaccel")
    for bad in ("nvdec", "CPU", None, 1):
        with pytest.raises(ValueError, match="decoder"):
            video.cuda_decoding("nv", bad, good, None)


def test_a_failed_nvdec_run_is_run_again_decoded_on_the_cpu(videos, monkeypatch, tmp_path):
    """An NVDEC run that fails after writing its log and maps is run again decoding
    on the CPU, in a frame range as asked, and the Results say why; the frames and
    maps are the second run's, the CPU's."""
    ref_y4m, dis_y4m, _ = videos
    video = floatadm.video
    ffmpeg = video.find_ffmpeg()
    if not {"float_adm_cuda", "hwupload"} <= video.filter_names(ffmpeg) or \
            not video.has_filter_option(ffmpeg, "map_path", "float_adm_cuda"):
        pytest.skip("this ffmpeg has no float_adm_cuda with map_path")
    # A y4m taken for a stream NVDEC decodes, the runs made on the CPU whatever the
    # decoding (so that the first run writes its log and maps), the first said failed.
    monkeypatch.setitem(video._listings, ("-hwaccels", ffmpeg), {"cuda"})
    monkeypatch.setattr(video, "NVDEC_FORMATS", {"rawvideo": frozenset(("yuv420p",))})
    decodings = []
    real_graph = video.scoring_graph
    monkeypatch.setattr(video, "cuda_options",
                        lambda decoding: (decodings.append(decoding), ([], []))[1])
    monkeypatch.setattr(video, "scoring_graph", lambda backend, d, r, o, decoding="cpu":
                        real_graph("cpu", d, r, o))
    real_run = video._run_ffmpeg

    def run(command, *args, **kwargs):
        code, stderr = real_run(command, *args, **kwargs)
        return (1, "a simulated failure") if len(decodings) == 1 else (code, stderr)
    monkeypatch.setattr(video, "_run_ffmpeg", run)
    got = floatadm.score_video(reference=ref_y4m, distorted=dis_y4m, backend="cuda",
                               start_frame=1, end_frame=3, map=True)
    assert decodings == ["nvdec", "cpu"]
    assert (got.decoder, got.decoder_reason) == (
        "cpu", "NVDEC's run failed (exit status 1: a simulated failure)")
    monkeypatch.undo()
    want = floatadm.score_video(reference=ref_y4m, distorted=dis_y4m, start_frame=1,
                                end_frame=3, map=True)
    assert_same(got, want)
    assert len(got.maps) == 2
    assert [g.tobytes() for g in got.maps] == [w.tobytes() for w in want.maps]


def _children(pid):
    """Process ids whose parent is pid (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read()
    except OSError:
        return b""


def _running(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_live_runs_directory_is_never_removed(tmp_path):
    """A run's private directory is held by its lock, not its process id: another
    process (one that cannot see the run's PID, in another PID namespace, alike)
    leaves it alone while the run lives and removes it once the run is killed."""
    import signal
    import sys
    from floatadm.video import remove_stale_work_dirs
    script = ("import os, sys, tempfile, time\n"
              "from floatadm.video import work_directory\n"
              "tempfile.tempdir = sys.argv[1]\n"
              "with work_directory() as work:\n"
              "    print(work, flush=True)\n"
              "    time.sleep(600)\n")
    run = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                           stdout=subprocess.PIPE, text=True)
    try:
        work = run.stdout.readline().strip()
        # A name that says no process id: nothing to guess from.
        assert os.path.isdir(work) and str(run.pid) not in os.path.basename(work)
        assert remove_stale_work_dirs(str(tmp_path)) == [] and os.path.isdir(work)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
        run.stdout.close()
    assert remove_stale_work_dirs(str(tmp_path)) == [work]


def test_a_cleanup_between_making_and_locking_a_directory(tmp_path, monkeypatch):
    """Another process's cleanup may take a run's new directory in the moment before
    the run locks it (its lock is free then): the run makes another, and goes on."""
    import tempfile
    from floatadm import video
    made = []

    def mkdtemp_then_cleanup(**kwargs):
        path = real_mkdtemp(**kwargs)
        made.append(path)
        if len(made) == 1:
            assert video.remove_stale_work_dirs(str(tmp_path)) == [path]
        return path

    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(video.tempfile, "mkdtemp", mkdtemp_then_cleanup)
    with video.work_directory() as work:
        assert work == made[1] and os.path.isdir(work)
    assert not os.path.exists(work)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_killed_caller_leaves_nothing_running(videos, tmp_path, monkeypatch):
    """SIGKILL the Python process while its ffmpeg scores: ffmpeg dies with it, and
    the next score_video removes the private directory it left."""
    import signal
    import sys
    import time
    ref_y4m, _, dis_mkv = videos
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    script = ("import sys, floatadm\n"
              "floatadm.score_video(sys.argv[1], sys.argv[2], "
              "reference_args=['-stream_loop', '1000'], "
              "distorted_args=['-stream_loop', '1000', '-readrate', '1'])\n")
    caller = subprocess.Popen([sys.executable, "-c", script, ref_y4m, dis_mkv],
                              env=dict(os.environ, TMPDIR=str(tmp)))
    ffmpegs = []
    try:
        deadline = time.monotonic() + 60
        while not ffmpegs and time.monotonic() < deadline:
            ffmpegs = [p for p in _children(caller.pid) if b"-filter_complex" in
                       _cmdline(p)]
            time.sleep(0.05)
        assert ffmpegs and caller.poll() is None
        left = os.listdir(tmp)
        assert len(left) == 1 and left[0].startswith("floatadm-")
        caller.send_signal(signal.SIGKILL)
        caller.wait()
        deadline = time.monotonic() + 30
        while _running(ffmpegs[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(ffmpegs[0]), "ffmpeg goes on without its caller"
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()
        for pid in ffmpegs:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    assert os.listdir(tmp) == left  # a SIGKILL cleans nothing up
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    floatadm.score_video(reference=ref_y4m, distorted=dis_mkv, end_frame=1)
    assert os.listdir(tmp) == []


def test_scaled_distorted(ffmpeg, tmp_path):
    """A 96x64 rung against its 160x96 reference: refused as it is; scaled with
    bicubic (the default) or a named scaler to the reference's size, each scaler its
    own scores; both inputs scaled to a size given; the scaling recorded.  The two
    swapped (the source scaled down to the rung) are warned about, the right way
    round they are not."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    rung = make_clip(ffmpeg, tmp_path / "rung.mkv", 25, seconds=0.4, lossy=True,
                     size="96x64")
    with pytest.raises(floatadm.FFmpegError, match="same size"):
        floatadm.score_video(reference=ref, distorted=rung)
    bicubic = floatadm.score_video(reference=ref, distorted=rung, scale=True)
    assert len(bicubic.frames) == 10 and 0.3 < bicubic.pooled["adm2"]["mean"] < 1
    assert bicubic.scale == {"scaler": "bicubic", "width": 160, "height": 96,
                             "inputs": "distorted"}
    assert floatadm.score_video(reference=ref, distorted=rung,
                                scale="bicubic").frames == bicubic.frames
    lanczos = floatadm.score_video(reference=ref, distorted=rung, scale="lanczos")
    assert lanczos.frames != bicubic.frames and lanczos.scale["scaler"] == "lanczos"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floatadm.score_video(reference=ref, distorted=rung, scale=True, end_frame=1)
    with pytest.warns(UserWarning, match=r"ref.mkv \(160x96\) is larger than the reference "
                      r".*rung.mkv \(96x64\).*swapped"):
        floatadm.score_video(reference=rung, distorted=ref, scale=True, end_frame=1)
    # The rung is testsrc2 drawn at 96x64, finer than the source scaled down to that
    # size: more detail than its reference, which the check of the pictures says.
    with pytest.warns(UserWarning, match=r"rung.mkv against the reference .*ref.mkv: the "
                      r"distorted has .* times the reference's fine detail"):
        small = floatadm.score_video(reference=ref, distorted=rung, scale_size="96x64")
    assert small.scale == {"scaler": "bicubic", "width": 96, "height": 64, "inputs": "both"}
    for bad in ({"scale": "bicubic:log_path=x"}, {"scale": "cubic"},
                {"scale_size": "96x64,null"}, {"scale_size": "0x64"}):
        with pytest.raises(ValueError, match="scale"):
            floatadm.score_video(reference=ref, distorted=rung, **bad)


def test_command_line_scales_a_rung_from_a_pipe(ffmpeg, score_bin, tmp_path):
    """float_adm_score -d - --scale WxH, fed by ffmpeg's y4m pipe, scores a 96x64 rung
    against its 160x96 reference with no file between them, bit for bit as
    score_video's scale (ffmpeg's scale filter before the filter): bicubic, lanczos,
    and at 10 bits."""
    version = subprocess.run([score_bin, "--version"], capture_output=True, text=True,
                             check=True).stdout
    if "--scale: none" in version:
        pytest.skip("float_adm_score is built without libswscale")
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    rung = make_clip(ffmpeg, tmp_path / "rung.mkv", 25, seconds=0.4, lossy=True,
                     size="96x64")
    for pix_fmt, scaler in (("yuv420p", "bicubic"), ("yuv420p", "lanczos"),
                            ("yuv420p10le", "bicubic")):
        ref_y4m = str(tmp_path / ("ref-%s.y4m" % pix_fmt))
        rung_at_depth = str(tmp_path / ("rung-%s.mkv" % pix_fmt))
        for source, out, codec in ((ref, ref_y4m, []), (rung, rung_at_depth, ["-c:v", "ffv1"])):
            subprocess.run([ffmpeg, "-y", "-loglevel", "error", "-nostdin", "-i", source,
                            "-pix_fmt", pix_fmt, "-strict", "-1"] + codec + [out], check=True)
        log = str(tmp_path / ("cli-%s-%s.json" % (pix_fmt, scaler)))
        decoder = subprocess.Popen([ffmpeg, "-loglevel", "error", "-nostdin", "-i",
                                    rung_at_depth, "-strict", "-1", "-f", "yuv4mpegpipe", "-"],
                                   stdout=subprocess.PIPE)
        cli = subprocess.run([score_bin, "-r", ref_y4m, "-d", "-", "--scale", "160x96",
                              "--scaler", scaler, "--json", log, "--quiet"],
                             stdin=decoder.stdout, capture_output=True, text=True)
        decoder.stdout.close()
        assert decoder.wait() == 0 and cli.returncode == 0, cli.stderr
        assert cli.stderr == ""
        got = Results.from_json(log)
        want = floatadm.score_video(reference=ref_y4m, distorted=rung_at_depth, scale=scaler)
        assert len(got.frames) == len(want.frames) == 10
        for g, w in zip(got.frames, want.frames):
            for name in want.names:
                assert same_bits(g[name], w[name]), (pix_fmt, scaler, g["frame"], name)


def test_swapped_encodes_of_one_codec_warn(ffmpeg, tmp_path):
    """The README's pair, a source and its encode in one codec, given the wrong way
    round: the API and the command line ask whether they are swapped, naming both,
    once; the right way round nothing is said, in one codec or two."""
    def encode(path, quality):
        subprocess.run([ffmpeg, "-y", "-hide_banner", "-loglevel", "error", "-nostdin", "-f",
                        "lavfi", "-i", "testsrc2=size=160x96:rate=25:duration=0.4", "-c:v",
                        "mpeg2video", "-q:v", str(quality), str(path)], check=True)
        return str(path)
    ref, dist = encode(tmp_path / "ref.mkv", 2), encode(tmp_path / "dist.mkv", 25)
    lossless = make_clip(ffmpeg, tmp_path / "lossless.mkv", 25, seconds=0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floatadm.score_video(reference=ref, distorted=dist, end_frame=1)
        floatadm.score_video(reference=lossless, distorted=dist, end_frame=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        floatadm.score_video(reference=dist, distorted=ref, end_frame=1)
    # Said once, from the rates: the filter's check of the pictures says no more.
    assert len(caught) == 1
    assert re.search(r"distorted .*ref.mkv \(mpeg2video, \d+ kbit/s\) has more than twice the "
                     r"bitrate of the reference .*dist.mkv .*swapped", str(caught[0].message))
    # Two codecs: the pictures tell.
    with pytest.warns(UserWarning, match=r"distorted .*lossless.mkv against the reference "
                      r".*dist.mkv: the distorted has .* fine detail"):
        floatadm.score_video(reference=dist, distorted=lossless, end_frame=1)
    run = floatadm_cli("score", "-r", dist, "-d", ref, "--json", str(tmp_path / "out.json"))
    assert run.returncode == 0 and "floatadm: warning: the distorted" in run.stderr
    assert "swapped" in run.stderr and "dist.mkv" in run.stderr and "__main__" not in run.stderr


def test_bitrate_hint_leaves_audio_out(ffmpeg, tmp_path):
    """An encode with an audio track against a video-only one: the bitrates compared
    are the video streams' (Matroska gives none of its own: the file's less the
    audio's), so a low-rate encode with PCM audio is not taken for the source, and
    the source given as the distorted still is."""
    audio = tmp_path / "audio.wav"
    with wave.open(str(audio), "wb") as out:  # 96 kHz stereo PCM: 3072 kbit/s
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(96000)
        out.writeframes(bytes(4 * 96000 * 2))

    def encode(path, quality, *audio_args):
        subprocess.run([ffmpeg, "-y", "-hide_banner", "-loglevel", "error", "-nostdin", "-f",
                        "lavfi", "-i", "testsrc2=size=160x96:rate=25:duration=2", *audio_args,
                        "-c:v", "mpeg2video", "-q:v", str(quality), "-c:a", "pcm_s16le",
                        str(path)], check=True)
        return str(path)
    ref = encode(tmp_path / "ref.mkv", 2)
    dist = encode(tmp_path / "dist.mkv", 25, "-i", str(audio))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        floatadm.score_video(reference=ref, distorted=dist, end_frame=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        floatadm.score_video(reference=dist, distorted=ref, end_frame=1)
    assert len(caught) == 1
    found = re.search(r"distorted .*ref.mkv \(mpeg2video, (\d+) kbit/s\) has more than twice "
                      r"the bitrate of the reference .*dist.mkv \((\d+) kbit/s\)",
                      str(caught[0].message))
    assert found and int(found.group(2)) < 200 < int(found.group(1)) < 3000, \
        str(caught[0].message)


def floatadm_cli(*args):
    import sys
    return subprocess.run([sys.executable, "-m", "floatadm", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)


def test_command_line_names_its_inputs(ffmpeg, tmp_path):
    """The command line takes vmaf's -r/--reference and -d/--distorted; inputs by
    position (whose order differs between tools) are refused with a message naming
    the flags.  --scale scales the distorted rung; the log's record says how."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=0.4, lossy=True)
    rung = make_clip(ffmpeg, tmp_path / "rung.mkv", 25, seconds=0.4, lossy=True,
                     size="96x64")
    done = floatadm_cli("score", dis, ref)
    assert done.returncode != 0 and done.stdout == ""
    assert "-r/--reference" in done.stderr and "-d/--distorted" in done.stderr
    want = floatadm.score_video(reference=ref, distorted=dis)
    for flags in (["-r", ref, "-d", dis], ["--distorted", dis, "--reference", ref]):
        out = tmp_path / "out.json"
        done = floatadm_cli("score", *flags, "--json", str(out), "--quiet")
        assert done.returncode == 0 and done.stdout == "", done.stderr
        assert Results.from_json(out).frames == want.frames
    done = floatadm_cli("score", "-r", ref, "-d", rung, "--scale", "--json", str(out),
                        "--quiet")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out.spec.json", encoding="utf-8") as f:
        record = json.load(f)
    assert record["scaled"] == {"scaler": "bicubic", "width": 160, "height": 96,
                                "inputs": "distorted"}
    assert record["settings"]["scale"] == "bicubic"
    assert record["decoded"] == {"by": "cpu", "why": "backend='cpu'"}
    assert Results.from_json(out).frames[0]["adm2"] == floatadm.score_video(
        reference=ref, distorted=rung, scale="bicubic").frames[0]["adm2"]
    done = floatadm_cli("score", "-r", ref, "-d", rung, "--scale", "cubic")
    assert done.returncode == 1 and "scale='cubic'" in done.stderr


def test_command_line_chooses_the_decoder(ffmpeg, tmp_path):
    """score --decoder, as score_video's decoder=: taken (the record says who decoded),
    checked, and refused for files, which ffmpeg does not decode."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.2)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=0.2, lossy=True)
    out = tmp_path / "out.json"
    done = floatadm_cli("score", "-r", ref, "-d", dis, "--decoder", "cpu", "--json", str(out),
                        "--quiet")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out.spec.json", encoding="utf-8") as f:
        record = json.load(f)
    assert record["decoded"] == {"by": "cpu", "why": "backend='cpu'"}
    done = floatadm_cli("score", "-r", ref, "-d", dis, "--decoder", "nvdec")
    assert done.returncode == 1 and done.stderr == "floatadm: decoder 'nvdec': one of auto, cpu\n"
    y4m = str(tmp_path / "ref.y4m")
    done = floatadm_cli("score", "-r", y4m, "-d", y4m, "--decoder", "cpu")
    assert done.returncode == 1 and "--decoder chooses who decodes videos" in done.stderr


def test_progress_on_stderr_whatever_stdout(ffmpeg, tmp_path):
    """The progress bar goes to stderr, with --quiet too (which quiets stdout), and
    not at all with --no-progress."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=0.4, lossy=True)
    done = floatadm_cli("score", "-r", ref, "-d", dis, "--quiet", "--progress")
    assert done.returncode == 0 and done.stdout == ""
    assert "10/10 frames" in done.stderr
    done = floatadm_cli("score", "-r", ref, "-d", dis, "--progress")
    assert "10/10 frames" in done.stderr and "10/10" not in done.stdout
    done = floatadm_cli("score", "-r", ref, "-d", dis, "--quiet", "--no-progress")
    assert done.returncode == 0 and done.stdout == done.stderr == ""


def test_reading_frames_has_a_time_limit(videos):
    """An input option that makes ffmpeg crawl (-readrate 0.0001, which score_video
    allows) stops at read_frames' time limit with an error naming the command and
    the limit, instead of hanging the report."""
    import time
    from floatadm.video_frames import read_frames
    _, _, dis_mkv = videos
    began = time.monotonic()
    with pytest.raises(floatadm.FFmpegError) as error:
        # Past the first half second, which -readrate reads at once.
        read_frames(dis_mkv, [40], distorted_args=["-stream_loop", "1000", "-readrate",
                                                   "0.0001"], timeout=2)
    assert time.monotonic() - began < 30
    assert "time limit of 2 s" in str(error.value) and "-readrate 0.0001" in str(error.value)


@pytest.fixture(scope="module")
def cut_pair(ffmpeg, tmp_path_factory):
    """A 25-frame reference and its encode, and each cut short: the reference to 13
    frames, the encode to 7."""
    work = tmp_path_factory.mktemp("cut")
    return {name: make_clip(ffmpeg, work / ("%s.mkv" % name), 25, seconds=frames / 25,
                            lossy=name.startswith("dis"))
            for name, frames in (("ref", 25), ("dis", 25), ("ref13", 13), ("dis7", 7))}


def test_pairs_in_doubt_are_an_error_unless_accepted(cut_pair):
    """A reference that ends early leaves the distorted's last frames scored against
    its last frame again (and half a frame or more apart); a distorted that ends early
    leaves the reference's last frames unscored.  Either is a DoubtfulPairsError, one
    line naming both inputs, what the filter counted and how to accept it; accepted,
    the scores come with a warning and the doubts in the Results.  Each kind is
    counted exactly, the frames scored again too, from the filter's metadata and log
    (no sentence of it read)."""
    with pytest.raises(floatadm.video.DoubtfulPairsError) as raised:
        floatadm.score_video(reference=cut_pair["ref13"], distorted=cut_pair["dis"])
    message = str(raised.value)
    assert "\n" not in message and "accept_doubtful_pairs=True" in message
    assert message.startswith("the distorted %s against the reference %s, pairs in doubt: "
                              % (cut_pair["dis"], cut_pair["ref13"]))
    assert [(d["kind"], d["frames"], d["first_frame"]) for d in raised.value.doubts] == [
        ("apart", 12, 13), ("reference_repeated", 12, 13)]
    assert raised.value.doubts[1]["why"] == floatadm.video.PAIR_DOUBTS["reference_repeated"]
    with pytest.warns(floatadm.video.DoubtfulPairsWarning) as caught:
        accepted = floatadm.score_video(reference=cut_pair["ref13"], distorted=cut_pair["dis"],
                                        accept_doubtful_pairs=True)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert len(accepted.frames) == 25 and accepted.doubtful_pairs == raised.value.doubts
    # Frames counted from a range's first, as the title numbers them: the range's own
    # (its first pair is the first its run scores, none scored again before it).
    with pytest.raises(floatadm.video.DoubtfulPairsError) as raised:
        floatadm.score_video(reference=cut_pair["ref13"], distorted=cut_pair["dis"],
                             start_frame=15, end_frame=20)
    assert [(d["kind"], d["frames"], d["first_frame"]) for d in raised.value.doubts] == [
        ("apart", 5, 15), ("reference_repeated", 4, 16)]
    # A range that ends before the reference does is in no doubt.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert floatadm.score_video(reference=cut_pair["ref13"], distorted=cut_pair["dis"],
                                    start_frame=3, end_frame=13).doubtful_pairs == []
    with pytest.raises(floatadm.video.DoubtfulPairsError) as raised:
        floatadm.score_video(reference=cut_pair["ref"], distorted=cut_pair["dis7"])
    assert [(d["kind"], d["frames"], d["first_frame"]) for d in raised.value.doubts] == [
        ("reference_after_main", 18, None)]


def test_pair_doubts_read_what_the_filter_gives(tmp_path):
    """The pairs in doubt come from the frames' metadata (which frames, of which kinds)
    and the log's counts, by the library's names: a whole run counts as the log, a
    range the frames it keeps; a kind the library does not name is an error."""
    meta = tmp_path / "metadata.txt"
    meta.write_text("frame:0    pts:0       pts_time:0\nlavfi.float_adm.adm2=1\n"
                    "frame:1    pts:1       pts_time:0.04\n"
                    "lavfi.float_adm.pair_doubt=apart+reference_repeated\n"
                    "lavfi.float_adm.adm2=0.5\n"
                    "frame:2    pts:2       pts_time:0.08\nlavfi.float_adm.pair_doubt=apart\n")
    kinds = floatadm.video.frame_doubts(str(meta))
    assert kinds == {1: ["apart", "reference_repeated"], 2: ["apart"]}
    pairing = {"pairs": 3, "apart": 2, "reference_repeated": 1, "main_repeated": 0,
               "no_reference": 0, "reference_after_main": 4}
    doubts = floatadm.video.pair_doubts(kinds, pairing, start=10)
    assert [(d["kind"], d["frames"], d["first_frame"]) for d in doubts] == [
        ("apart", 2, 11), ("reference_repeated", 1, 11), ("reference_after_main", 4, None)]
    assert all(d["why"] == floatadm.video.PAIR_DOUBTS[d["kind"]] for d in doubts)
    doubts = floatadm.video.pair_doubts(kinds, dict(pairing, reference_after_main=0),
                                        start=10, kept={0, 1})
    assert [(d["kind"], d["frames"], d["first_frame"]) for d in doubts] == [
        ("apart", 1, 11), ("reference_repeated", 1, 11)]
    with pytest.raises(floatadm.FFmpegError, match="sideways"):
        floatadm.video.pair_doubts({0: ["sideways"]}, {"pairs": 1})


def test_pairs_as_meant_say_nothing(cut_pair, ffmpeg, tmp_path):
    """Inputs of one length, a frame range of them, and a distorted against a
    reference of twice its rate (each distorted frame has its own reference frame):
    no warning, no doubt."""
    ref50 = make_clip(ffmpeg, tmp_path / "ref50.mkv", 50, seconds=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for reference, start, end in ((cut_pair["ref"], 0, None), (cut_pair["ref"], 5, 10),
                                      (ref50, 0, None)):
            results = floatadm.score_video(reference=reference, distorted=cut_pair["dis"],
                                           start_frame=start, end_frame=end)
            assert results.doubtful_pairs == []
            assert len(results.frames) == (end or 25) - start


def test_command_line_fails_on_pairs_in_doubt(cut_pair, tmp_path):
    """score on videos: pairs in doubt exit 1 with one line and write nothing; with
    --accept-doubtful-pairs the scores are written, the warning said and the doubts
    kept in the log's record; inputs paired as meant print nothing on stderr."""
    out = tmp_path / "t.json"
    done = floatadm_cli("score", "-r", cut_pair["ref13"], "-d", cut_pair["dis"], "--json",
                        str(out), "--quiet")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "pairs in doubt" in done.stderr and "--accept-doubtful-pairs" in done.stderr
    assert not out.exists()
    done = floatadm_cli("score", "-r", cut_pair["ref"], "-d", cut_pair["dis7"], "--quiet")
    assert done.returncode == 1 and "reference frames after the main (distorted) input's " \
        "last, not scored (the main input ended early): 18" in done.stderr, done.stderr
    done = floatadm_cli("score", "-r", cut_pair["ref13"], "-d", cut_pair["dis"], "--json",
                        str(out), "--quiet", "--accept-doubtful-pairs")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("floatadm: warning: the distorted %s against the reference "
                                  "%s, pairs in doubt: " % (cut_pair["dis"], cut_pair["ref13"]))
    assert len(Results.from_json(out).frames) == 25
    with open(tmp_path / "t.spec.json", encoding="utf-8") as f:
        record = json.load(f)
    assert [(d["kind"], d["frames"]) for d in record["doubtful_pairs"]] == [
        ("apart", 12), ("reference_repeated", 12)]
    done = floatadm_cli("score", "-r", cut_pair["ref"], "-d", cut_pair["dis"], "--json",
                        str(out), "--quiet")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    with open(tmp_path / "t.spec.json", encoding="utf-8") as f:
        assert "doubtful_pairs" not in json.load(f)


@pytest.mark.parametrize("args", [
    ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "576x324", "-r", "25"],
    ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "576x324", "-vcodec", "rawvideo",
     "-stream_loop", "1", "-readrate", "0", "-thread_queue_size", "8"]])
def test_raw_input_options_probe_as_ffmpeg_reads_them(pair, ffmpeg, args):
    """ffprobe knows ffmpeg's -pix_fmt, -s, -r and -vcodec by other names and refuses
    -stream_loop, -readrate and -thread_queue_size: an input given them is still probed
    (its size, codec and pixel format, for scale_size and the decoder's choice)."""
    ref, _ = pair(ASTRONAUT)
    checked = floatadm.video.input_options(args, "reference")
    info = floatadm.video._probe_input(ffmpeg, ref, checked)
    assert floatadm.video._size_of(info) == (576, 324)
    assert floatadm.video._decoding_of(info) == ("rawvideo", "yuv420p")
