# Tests of floatadm.distributed on a local Dask cluster of 2 worker processes:
# catalogues bit-identical to float_adm_score, split titles equal to whole ones,
# a worker killed mid-task, and a rerun after an interrupted run.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings

import pytest

distributed = pytest.importorskip("distributed")

import floatadm  # noqa: E402
from floatadm.distributed import score_catalogue, score_segments  # noqa: E402
from floatadm.results import Results  # noqa: E402
from floatadm.video import DoubtfulPairsError  # noqa: E402

from conftest import (cli_frames, cli_pooled, fixture_args, make_clip, same_bits,  # noqa: E402
                      write_y4m)

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
os.environ["PYTHONPATH"] = os.pathsep.join([TESTS_DIR, os.environ["PYTHONPATH"]])
ASTRONAUT = "astronaut_576x324_yuv420p_x264"


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=50)
    with cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def long_title(pair, tmp_path_factory):
    """A 90-frame title (the astronaut's 6 frames, 15 times over) as raw files: long
    enough that a job takes a second or so, and that split sums could differ."""
    work = tmp_path_factory.mktemp("long")
    paths = []
    for source in pair(ASTRONAUT):
        with open(source, "rb") as f:
            data = f.read()
        path = str(work / os.path.basename(source).replace(ASTRONAUT, "long"))
        with open(path, "wb") as f:
            f.write(data * 15)
        paths.append(path)
    return tuple(paths)


def assert_log_equals_cli(log_path, cli_log):
    with open(log_path, encoding="utf-8") as f:
        log = json.load(f)
    got = cli_frames(log)
    want = cli_frames(cli_log)
    assert [f["frameNum"] for f in log["frames"]] == list(range(len(want)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert set(g) == set(w)
        for name in w:
            assert same_bits(g[name], w[name]), (log_path, name)
    for name, stats in cli_pooled(cli_log).items():
        for key, value in stats.items():
            assert same_bits(cli_pooled(log)[name][key], value), (log_path, name, key)


def test_catalogue_equals_float_adm_score(client, pair, run_cli, tmp_path, ffmpeg):
    names = [ASTRONAUT, "coins_384x304_yuv420p10le_x265", "camera_512x384_yuv444p12le_noise",
             "grass_322x182_yuv420p_vp9"]
    jobs, expected = [], {}
    for name in names:
        ref, dis = pair(name)
        width, height, pix_fmt = fixture_args(name)
        options = {"egl": 1.2} if name == ASTRONAUT else {}
        jobs.append({"name": name, "reference": ref, "distorted": dis, "width": width,
                     "height": height, "pix_fmt": pix_fmt, "options": options})
        expected[name] = run_cli(ref, dis, (width, height, pix_fmt), options)
    # A y4m pair, named by the package, and a video job (lossless FFV1 against y4m).
    ref, dis = pair("brick_63x65_yuv444p10le_scale")
    ref_y4m = write_y4m(ref, str(tmp_path / "brick.ref.y4m"), 63, 65, "yuv444p10le")
    dis_y4m = write_y4m(dis, str(tmp_path / "brick.dis.y4m"), 63, 65, "yuv444p10le")
    jobs.append((ref_y4m, dis_y4m))
    dis_mkv = str(tmp_path / "brick.dis.mkv")
    subprocess.run([ffmpeg, "-loglevel", "error", "-nostdin", "-i", dis_y4m, "-c:v", "ffv1",
                    dis_mkv], check=True)
    jobs.append({"name": "brick-video", "reference": ref_y4m, "distorted": dis_mkv})
    brick = run_cli(ref_y4m, dis_y4m)

    out = tmp_path / "out"
    summaries = score_catalogue(jobs, client, out, progress=False)
    assert [s["status"] for s in summaries] == ["scored"] * len(jobs)
    assert len({s["pid"] for s in summaries}) == 2  # both workers took jobs
    for name in names:
        assert_log_equals_cli(out / (name + ".json"), expected[name])
    assert summaries[4]["name"].startswith("brick-")  # the file stem and a hash
    assert_log_equals_cli(summaries[4]["path"], brick)
    assert_log_equals_cli(out / "brick-video.json", brick)
    assert sorted(os.listdir(out)) == sorted(s["name"] + suffix for s in summaries
                                             for suffix in (".json", ".spec.json"))
    # Everything is there: a second run scores nothing.
    again = score_catalogue(jobs, client, out, progress=False)
    assert [s["status"] for s in again] == ["skipped"] * len(jobs)


def test_segments_equal_the_whole(client, pair, long_title, run_cli, tmp_path, ffmpeg):
    # Raw files, many uneven segments: frames and pooled values bit for bit.
    ref, dis = long_title
    geometry = dict(zip(("width", "height", "pix_fmt"), fixture_args(ASTRONAUT)))
    merged = score_segments(ref, dis, client, segment_frames=7, progress=False,
                            output=tmp_path / "merged.json", **geometry)
    assert_log_equals_cli(tmp_path / "merged.json", run_cli(ref, dis, fixture_args(ASTRONAUT)))
    whole = floatadm.score_files(reference=ref, distorted=dis, **geometry)
    assert merged.frames == whole.frames
    for name in whole.names:
        for key, value in whole.pooled[name].items():
            assert same_bits(merged.pooled[name][key], value)
    # y4m, one frame per segment, options and debug outputs.
    ref, dis = pair("coins_384x304_yuv420p10le_x265")
    ref_y4m = write_y4m(ref, str(tmp_path / "coins.ref.y4m"), *fixture_args(
        "coins_384x304_yuv420p10le_x265"))
    dis_y4m = write_y4m(dis, str(tmp_path / "coins.dis.y4m"), *fixture_args(
        "coins_384x304_yuv420p10le_x265"))
    merged = score_segments(ref_y4m, dis_y4m, client, 1, progress=False, csf=2, debug=True)
    whole = floatadm.score_files(reference=ref_y4m, distorted=dis_y4m, csf=2, debug=True)
    assert merged.frames == whole.frames and merged.pooled == whole.pooled
    # A video cut by frame number (the last segment open-ended).
    ref, dis = pair(ASTRONAUT)
    ref_y4m = write_y4m(ref, str(tmp_path / "a.ref.y4m"), *fixture_args(ASTRONAUT))
    dis_y4m = write_y4m(dis, str(tmp_path / "a.dis.y4m"), *fixture_args(ASTRONAUT))
    dis_mkv = str(tmp_path / "a.dis.mkv")
    subprocess.run([ffmpeg, "-loglevel", "error", "-nostdin", "-i", dis_y4m, "-c:v", "ffv1",
                    dis_mkv], check=True)
    merged = score_segments(ref_y4m, dis_mkv, client, 4, progress=False)
    whole = floatadm.score_files(reference=ref_y4m, distorted=dis_y4m)
    assert [f["frame"] for f in merged.frames] == list(range(6))
    for g, w in zip(merged.frames, whole.frames):
        assert all(same_bits(g[n], w[n]) for n in whole.names)
    assert merged.pooled == whole.pooled


@pytest.mark.parametrize("dis_rate, ref_rate, vfr", [
    (25, 25, False), (25, 50, False), (50, 25, False), ("24000/1001", 24, False),
    (50, 50, True)], ids=["equal", "25-50", "50-25", "23.976-24", "vfr"])
def test_video_segments_pair_by_time(client, ffmpeg, tmp_path, dis_rate, ref_rate, vfr):
    """A video split in segments of 25 frames equals one run, frame for frame and in
    its pooled values, whatever the two inputs' frame rates: each segment's frames
    are paired with the reference frames a whole run pairs them with.  A reference of
    half the distorted's rate scores each reference frame twice: pairs in doubt,
    scored only as asked, and said in the merged results as in the whole run's."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", ref_rate)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", dis_rate, lossy=True, vfr=vfr)
    doubtful = (dis_rate, ref_rate) == (50, 25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore" if doubtful else "error")
        whole = floatadm.score_video(reference=ref, distorted=dis,
                                     accept_doubtful_pairs=doubtful)
    merged = score_segments(ref, dis, client, segment_frames=25, progress=False,
                            accept_doubtful_pairs=doubtful)
    assert len(whole.frames) > 75
    assert bool(whole.doubtful_pairs) == bool(merged.doubtful_pairs) == doubtful
    if doubtful:
        with pytest.raises(DoubtfulPairsError):
            score_segments(ref, dis, client, segment_frames=25, progress=False)
    assert [f["frame"] for f in merged.frames] == [f["frame"] for f in whole.frames]
    for g, w in zip(merged.frames, whole.frames):
        assert g == w, g["frame"]
    for name in whole.names:
        for key, value in whole.pooled[name].items():
            assert same_bits(merged.pooled[name][key], value), (name, key)


def _running(dask_worker):
    """Task functions running on this worker, those of released tasks included."""
    return len(dask_worker.active_threads)


def wait_until_idle(client, timeout=60):
    """Until no worker runs a task function: a task its client let go of still runs
    to its end (a thread cannot be stopped), and may write its log then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(client.processing().values()) and not any(client.run(_running).values()):
            return
        time.sleep(0.1)
    raise AssertionError("the cluster stays busy")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the fault injection reads /proc")
def test_worker_killed_mid_task(client, pair, long_title, run_cli, tmp_path):
    """A worker process dies (SIGKILL) while scoring a job: Dask gives the job to
    another worker (the nanny restarts the dead one), and every job's log is there
    once, complete and equal to float_adm_score's."""
    from dask_helpers import KillWorkerOnce
    ref, dis = long_title
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    out = tmp_path / "out"
    jobs = [{"name": "long-%d" % i, "reference": ref, "distorted": dis, "width": width,
             "height": height, "pix_fmt": pix_fmt} for i in range(3)]
    other_ref, other_dis = pair("grass_322x182_yuv420p_vp9")
    jobs.append({"name": "grass", "reference": other_ref, "distorted": other_dis,
                 "width": 322, "height": 182, "pix_fmt": "yuv420p"})
    marker = str(tmp_path / "killed.json")
    client.register_worker_plugin(KillWorkerOnce("floatadm-job-long-1-", marker, dis,
                                                 str(out / "long-1.json")))
    try:
        summaries = score_catalogue(jobs, client, out, retries=1, progress=False)
    finally:
        client.unregister_worker_plugin(KillWorkerOnce.name)
    with open(marker, encoding="utf-8") as f:
        killed = json.load(f)
    assert killed["key"].startswith("floatadm-job-long-1-")
    assert killed["was_reading"] and not killed["log_existed"]  # killed while scoring
    assert [s["status"] for s in summaries] == ["scored"] * 4
    assert summaries[1]["pid"] != killed["pid"]
    assert sorted(os.listdir(out)) == sorted(j["name"] + suffix for j in jobs
                                             for suffix in (".json", ".spec.json"))
    long_log = run_cli(ref, dis, (width, height, pix_fmt))
    for i in range(3):
        assert_log_equals_cli(out / ("long-%d.json" % i), long_log)
    assert_log_equals_cli(out / "grass.json", run_cli(other_ref, other_dis,
                                                      (322, 182, "yuv420p")))
    client.wait_for_workers(2, timeout=120)


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="the fault injection reads /proc")
def test_worker_killed_while_ffmpeg_scores(client, ffmpeg, tmp_path):
    """A worker SIGKILLed while its video job's ffmpeg scores: that ffmpeg dies with
    it (it would otherwise score on for nobody, beside the job's rerun elsewhere),
    the job is scored again by another worker, and the next video job removes the
    private directory the dead worker left."""
    import threading
    import tempfile
    from dask_helpers import KillWorkerWhileFFmpegRuns
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, lossy=True)
    slow = ["-readrate", "1"]  # 4 s of video in 4 s: time to be killed, and to outlive it
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    client.run(lambda path: setattr(__import__("tempfile"), "tempdir", path), str(tmp))
    marker = tmp_path / "killed.json"
    seen = {}

    def watch():
        """Whether the dead worker's ffmpeg is gone 2 s after the kill (it has more
        than 3 s of reading at that rate left)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                killed = json.loads(marker.read_text())
                break
            except (OSError, ValueError):
                time.sleep(0.01)
        else:
            return
        seen.update(killed)
        stop = time.monotonic() + 2
        while _alive(killed["ffmpeg"]) and time.monotonic() < stop:
            time.sleep(0.01)
        seen["outlived"] = _alive(killed["ffmpeg"])
        if seen["outlived"]:
            os.kill(killed["ffmpeg"], signal.SIGKILL)

    watcher = threading.Thread(target=watch)
    watcher.start()
    client.register_worker_plugin(KillWorkerWhileFFmpegRuns("floatadm-job-video-",
                                                            str(marker)))
    try:
        summaries = score_catalogue([{"name": "video", "reference": ref, "distorted": dis,
                                      "distorted_args": slow}], client, tmp_path / "out",
                                    retries=1, progress=False)
    finally:
        client.unregister_worker_plugin(KillWorkerWhileFFmpegRuns.name)
        client.run(lambda: setattr(__import__("tempfile"), "tempdir", None))
        watcher.join()
    assert seen["ffmpeg"] and not seen["outlived"], "the dead worker's ffmpeg scores on"
    assert summaries[0]["status"] == "scored" and summaries[0]["pid"] != seen["pid"]
    assert Results.from_json(tmp_path / "out" / "video.json").frames == \
        floatadm.score_video(reference=ref, distorted=dis).frames
    # What the dead worker left is removed by the next run (the rerun's, or this one).
    tempfile.tempdir = str(tmp)
    try:
        floatadm.score_video(reference=ref, distorted=dis, end_frame=1)
    finally:
        tempfile.tempdir = None
    assert os.listdir(tmp) == []
    client.wait_for_workers(2, timeout=120)


def test_rerun_after_an_interrupted_run(client, long_title, run_cli, tmp_path):
    """The command line's catalogue run is killed after its first log appears; the
    rerun leaves every finished log alone and scores only the others."""
    ref, dis = long_title
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    jobs = [{"name": "title-%d" % i, "reference": ref, "distorted": dis, "width": width,
             "height": height, "pix_fmt": pix_fmt, "frames": 40 + 5 * i} for i in range(10)]
    jobs_path = tmp_path / "jobs.json"
    jobs_path.write_text(json.dumps(jobs))
    out = tmp_path / "out"
    driver = subprocess.Popen([sys.executable, "-m", "floatadm", "catalogue", str(jobs_path),
                               "-o", str(out), "--scheduler", client.scheduler.address,
                               "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (out.exists() and any(n.endswith(".json") and not n.startswith(".")
                                    for n in os.listdir(out))):
        assert driver.poll() is None, driver.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    driver.stderr.close()
    wait_until_idle(client)  # tasks the dead driver left running finish or stop
    finished = {n: os.stat(out / n) for n in os.listdir(out)
                if not n.startswith(".") and not n.endswith(".spec.json")}
    assert 0 < len(finished) < len(jobs)

    summaries = score_catalogue(jobs, client, out, progress=False)
    skipped = {s["name"] + ".json" for s in summaries if s["status"] == "skipped"}
    scored = {s["name"] + ".json" for s in summaries if s["status"] == "scored"}
    assert skipped == set(finished)
    assert scored == {j["name"] + ".json" for j in jobs} - set(finished)
    for name, before in finished.items():
        after = os.stat(out / name)
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert sorted(os.listdir(out)) == sorted(j["name"] + suffix for j in jobs
                                             for suffix in (".json", ".spec.json"))
    for job in jobs:
        log = Results.from_json(out / (job["name"] + ".json"))
        assert [f["frame"] for f in log.frames] == list(range(job["frames"]))
    assert_log_equals_cli(out / "title-9.json", run_cli(ref, dis, (width, height, pix_fmt),
                                                        frames=85))


def test_changed_job_is_scored_again(client, pair, run_cli, tmp_path):
    """A rerun scores a job again when what made its log changed (its options, an
    input rewritten, no record at all), says so naming the job and the change, and
    skips it when nothing changed."""
    from floatadm.distributed import RescoreWarning
    ref, dis = pair("grass_322x182_yuv420p_vp9")
    geometry = {"width": 322, "height": 182, "pix_fmt": "yuv420p"}
    job = dict(name="grass", reference=ref, distorted=dis, options={"egl": 1.2}, **geometry)
    out = tmp_path / "out"
    assert score_catalogue([job], client, out, progress=False)[0]["status"] == "scored"
    with open(out / "grass.spec.json", encoding="utf-8") as f:
        record = json.load(f)
    assert record["options"]["adm_enhn_gain_limit"] == 1.2
    assert record["inputs"]["distorted"]["size"] == os.path.getsize(dis)
    assert score_catalogue([job], client, out, progress=False)[0]["status"] == "skipped"

    job["options"] = {"egl": 1.5}
    with pytest.warns(RescoreWarning, match=r"grass.*adm_enhn_gain_limit: 1.2 -> 1.5"):
        summary = score_catalogue([job], client, out, progress=False)[0]
    assert summary["status"] == "scored"
    assert summary["changed"] == ["options.adm_enhn_gain_limit: 1.2 -> 1.5"]
    assert_log_equals_cli(out / "grass.json", run_cli(ref, dis, (322, 182, "yuv420p"),
                                                      {"egl": 1.5}))
    # The same options by their full name: nothing changed.
    job["options"] = {"adm_enhn_gain_limit": 1.5}
    assert score_catalogue([job], client, out, progress=False)[0]["status"] == "skipped"

    copy = tmp_path / "dis.yuv"
    shutil.copy(dis, copy)
    job["distorted"] = str(copy)
    with pytest.warns(RescoreWarning, match="inputs.distorted.path"):
        score_catalogue([job], client, out, progress=False)
    os.utime(copy, ns=(0, 0))
    with pytest.warns(RescoreWarning, match="inputs.distorted.mtime_ns"):
        assert score_catalogue([job], client, out, progress=False)[0]["status"] == "scored"
    os.unlink(out / "grass.spec.json")
    with pytest.warns(RescoreWarning, match="no record"):
        assert score_catalogue([job], client, out, progress=False)[0]["status"] == "scored"


def test_hostile_catalogue_fields_stay_data(client, pair, tmp_path):
    """A catalogue's fields reach ffmpeg as data: each hostile value fails its job
    alone, and writes nothing anywhere."""
    ref, dis = pair("grass_322x182_yuv420p_vp9")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", "322x182"]
    base = {"kind": "video", "reference": ref, "distorted": dis, "reference_args": raw,
            "distorted_args": raw, "frames": 2}
    hostile = [("backend", "cpu:log_path=%s" % victim), ("backend", "cpu,null"),
               ("options", {"egl": "1:log_path=%s" % victim}),
               ("options", {"egl;x": 1}), ("distorted_args", ["-dump_attachment:t", str(victim)]),
               ("distorted_args", raw[:-1] + ["322x182:log_path=x"]),
               ("scale", "bicubic:log_path=%s" % victim), ("scale_size", "9x9,null"),
               ("decoder", "cpu:log_path=%s" % victim)]
    jobs = [dict(base, name="good")]
    jobs += [dict(base, name="bad-%d" % i, **{key: value})
             for i, (key, value) in enumerate(hostile)]
    summaries = score_catalogue(jobs, client, tmp_path / "out", retries=0, progress=False,
                                raise_errors=False)
    assert [s["status"] for s in summaries] == ["scored"] + ["failed"] * len(hostile)
    assert victim.read_text() == "keep me"
    assert sorted(os.listdir(tmp_path / "out")) == ["good.json", "good.spec.json"]
    files = {"kind": "files", "reference": ref, "distorted": dis, "width": 322, "height": 182,
             "pix_fmt": "yuv420p", "decoder": "cpu", "name": "files"}
    summary, = score_catalogue([files], client, tmp_path / "out", retries=0, progress=False,
                               raise_errors=False)
    assert summary["status"] == "failed" and "decoder='cpu' need kind" in summary["error"]
    for name in ("x\ny", "../x", ".x", ""):
        with pytest.raises(ValueError, match="job name"):
            score_catalogue([dict(base, name=name)], client, tmp_path / "out")
    for key in ("frames", "width", "threads"):
        with pytest.raises(ValueError, match=key):
            score_catalogue([dict(base, name="n", **{key: "2;x"})], client, tmp_path / "out")


def test_failed_jobs_are_reported_after_the_others(client, pair, tmp_path, capsys):
    """A job that raises is retried, then reported (CatalogueError, or "failed" with
    raise_errors=False); the other jobs are finished all the same.  progress=True
    draws a bar of the jobs finished on stderr."""
    ref, dis = pair("grass_322x182_yuv420p_vp9")
    jobs = [{"name": "good", "reference": ref, "distorted": dis, "width": 322, "height": 182,
             "pix_fmt": "yuv420p"},
            {"name": "absent", "reference": str(tmp_path / "absent.yuv"), "distorted": dis,
             "width": 322, "height": 182, "pix_fmt": "yuv420p"}]
    out = tmp_path / "out"
    with pytest.raises(floatadm.distributed.CatalogueError, match="absent.*cannot open") as info:
        score_catalogue(jobs, client, out, retries=1, progress=True)
    assert [name for name, _ in info.value.failed] == ["absent"]
    drawn = capsys.readouterr()
    assert "2/2 jobs" in drawn.err and drawn.out == ""
    assert sorted(os.listdir(out)) == ["good.json", "good.spec.json"]
    summaries = score_catalogue(jobs, client, out, retries=0, raise_errors=False,
                                progress=False)
    assert [s["status"] for s in summaries] == ["skipped", "failed"]
    with pytest.raises(ValueError, match="names must differ"):
        score_catalogue([jobs[0], jobs[0]], client, out)


def test_a_job_paired_in_doubt_fails_unless_accepted(client, ffmpeg, tmp_path, capsys):
    """A video job whose reference ends early: failed at once (no retry: the same
    inputs give the same doubts), naming the doubts, no log written; accepted, scored
    with the doubts in its record and summary, which the command line says; its log
    reused only while its doubts are accepted."""
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.4)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=1, lossy=True)
    jobs = [{"name": "cut", "reference": ref, "distorted": dis}]
    out = tmp_path / "out"
    (summary,) = score_catalogue(jobs, client, out, retries=5, raise_errors=False,
                                 progress=False)
    assert summary["status"] == "failed"
    assert summary["error"].startswith("DoubtfulPairsError: the distorted %s against the "
                                       "reference %s, pairs in doubt: " % (dis, ref))
    assert os.listdir(out) == []
    (summary,) = score_catalogue(jobs, client, out, progress=False, accept_doubtful_pairs=True)
    assert summary["status"] == "scored" and summary["frames"] == 25
    assert {d["kind"] for d in summary["doubtful_pairs"]} == {"apart", "reference_repeated"}
    with open(out / "cut.spec.json", encoding="utf-8") as f:
        assert json.load(f)["doubtful_pairs"] == summary["doubtful_pairs"]
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps([dict(jobs[0], name="again")]))
    from floatadm.__main__ import main
    assert main(["catalogue", str(jobs_file), "-o", str(out), "--scheduler",
                 client.scheduler.address, "--no-progress"]) == 1
    assert "again: DoubtfulPairsError: " in capsys.readouterr().err
    assert main(["catalogue", str(jobs_file), "-o", str(out), "--scheduler",
                 client.scheduler.address, "--no-progress", "--accept-doubtful-pairs"]) == 0
    assert "floatadm: warning: again: pairs in doubt, scored as asked: " in \
        capsys.readouterr().err
    # Its log is up to date only while its doubts are accepted.
    (summary,) = score_catalogue(jobs, client, out, progress=False, accept_doubtful_pairs=True)
    assert summary["status"] == "skipped"
    with pytest.warns(floatadm.distributed.RescoreWarning, match="doubtful_pairs: accepted"):
        (summary,) = score_catalogue(jobs, client, out, progress=False, raise_errors=False)
    assert summary["status"] == "failed"


def test_temporaries_of_a_live_writer_are_kept(tmp_path):
    """Two catalogue runs into one directory: the cleanup of one removes only the
    temporaries no writer holds (one left by a killed run), never the file the other
    run is writing."""
    from floatadm import _lib, distributed
    from floatadm.results import RunFiles
    with RunFiles() as files:
        files.begin_output(str(tmp_path / "job.json"), _lib.FLOAT_ADM_OUTPUT_LOG)
        live = str(tmp_path / ".job.json.tmp")
        dead = str(tmp_path / ".job.spec.json.tmp")
        open(dead, "w").close()
        other = str(tmp_path / ".jobs.json.tmp")  # another job's
        open(other, "w").close()
        distributed._remove_stale_temporaries(str(tmp_path), ["job"])
        assert os.path.exists(live) and not os.path.exists(dead) and os.path.exists(other)