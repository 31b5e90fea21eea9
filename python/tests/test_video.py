# Tests of floatadm.score_video: the float_adm filter of the project's ffmpeg.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import subprocess

import pytest

import floatadm

from conftest import fixture_args, same_bits, write_y4m

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
    want = floatadm.score_files(ref_y4m, dis_y4m, egl=1.2, debug=True)
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
    got = floatadm.score_video(ref, dis, ffmpeg=ffmpeg, reference_args=raw,
                               distorted_args=raw)
    assert_same(got, floatadm.score_files(ref, dis, *fixture_args(ASTRONAUT)))


def test_frame_range_by_number(videos):
    ref_y4m, dis_y4m, dis_mkv = videos
    whole = floatadm.score_video(ref_y4m, dis_mkv)
    part = floatadm.score_video(ref_y4m, dis_mkv, start_frame=2, end_frame=5)
    assert [f["frame"] for f in part.frames] == [2, 3, 4]
    assert part.frames == whole.frames[2:5]
    tail = floatadm.score_video(ref_y4m, dis_mkv, start_frame=4)
    assert tail.frames == whole.frames[4:]


def test_progress_bar_only_when_asked_or_on_a_terminal(videos, capsys):
    ref_y4m, _, dis_mkv = videos
    floatadm.score_video(ref_y4m, dis_mkv, progress=True)
    err = capsys.readouterr().err
    assert "6/6 frames" in err
    floatadm.score_video(ref_y4m, dis_mkv, end_frame=3, progress=True)
    assert "3/3 frames" in capsys.readouterr().err
    floatadm.score_video(ref_y4m, dis_mkv)  # stderr is no terminal here
    assert capsys.readouterr().err == ""


def test_ffmpeg_errors(videos, tmp_path):
    ref_y4m, _, _ = videos
    with pytest.raises(floatadm.FFmpegError, match="float_adm filter"):
        floatadm.score_video(ref_y4m, ref_y4m, ffmpeg="/bin/true")
    with pytest.raises(floatadm.FFmpegError, match="exit status"):
        floatadm.score_video(ref_y4m, str(tmp_path / "absent.mkv"))
    with pytest.raises(ValueError, match="range"):
        floatadm.score_video(ref_y4m, ref_y4m, egl=1000)
