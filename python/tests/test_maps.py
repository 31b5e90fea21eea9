# Tests of the maps in Python: Scorer.score(map=True), score_files(map=True) and
# Results.maps, against float_adm_score --map-path.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess

import numpy as np
import pytest

import floatadm
import floatadm.report
import floatadm.video
from floatadm.results import Results

from conftest import fixture_args, fixture_geometry, same_bits

ASTRONAUT = "astronaut_576x324_yuv420p_x264"
WIDTH, HEIGHT = 512, 256


def textured_frame(seed=1):
    """A noise pattern with detail at every scale (8-bit)."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (HEIGHT // 8, WIDTH // 8)).repeat(8, 0).repeat(8, 1)
    fine = rng.integers(-40, 41, (HEIGHT, WIDTH))
    return np.clip(coarse + fine, 0, 255).astype(np.uint8)


def left_half_blurred(frame):
    """frame with its left half flattened to each 16x16 square's mean: its detail gone."""
    out = frame.copy()
    half = out[:, :WIDTH // 2].astype(np.float64)
    means = half.reshape(HEIGHT // 16, 16, WIDTH // 32, 16).mean(axis=(1, 3))
    out[:, :WIDTH // 2] = np.round(means).repeat(16, 0).repeat(16, 1).astype(np.uint8)
    return out


def read_pfm(path):
    """The loss in a PFM file float_adm_score wrote, as (rows, columns) top row first
    (a check of the files, not a reader of the package's)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, size, scale, payload = data.split(b"\n", 3)
    assert magic == b"Pf" and scale == b"-1.0"
    columns, rows = (int(v) for v in size.split())
    return np.frombuffer(payload, "<f4").reshape(rows, columns)[::-1]


def test_distorted_left_half_loses_detail_on_the_left():
    ref = textured_frame()
    with floatadm.Scorer(WIDTH, HEIGHT, 8) as scorer:
        scores, frame_map = scorer.score(ref, left_half_blurred(ref), map=True)
    assert frame_map.block_size == 32
    assert frame_map.loss.shape == (HEIGHT // 32, WIDTH // 32)
    assert frame_map.loss.dtype == np.float32
    left, right = frame_map.loss[:, :WIDTH // 64], frame_map.loss[:, WIDTH // 64:]
    # The sum region leaves out about 10 % of each edge: the blocks inside it.
    inner_left = frame_map.loss[1:-1, 1:WIDTH // 64 - 1]
    assert inner_left.min() > 0.3, frame_map.loss
    assert np.nanmax(right[:, 2:]) == 0.0, frame_map.loss
    assert np.nanmean(left) > 10 * np.nanmean(right)
    # The first and last columns hold no coefficient of any scale: not measured.
    assert np.isnan(frame_map.loss[:, [0, -1]]).all(), frame_map.loss
    assert not np.isnan(frame_map.loss[1:-1, 1:-1]).any(), frame_map.loss
    assert scores["adm2"] < 1.0
    assert frame_map.num.shape == frame_map.den.shape == (4, HEIGHT // 32, WIDTH // 32)
    # The right half's blocks lose nothing: their numerators are their denominators.
    assert np.array_equal(frame_map.num[:, :, -3:], frame_map.den[:, :, -3:])


def test_lost_detail_is_each_blocks_d_minus_n():
    """FrameMap.lost: each block's D - N, the sum over scales of den^(1/p) -
    num^(1/p) (the noise floor cancels), at any adm_p_norm: its loss times its D,
    where its loss is 1 - N/D (D from the sums and the blocks' coefficient counts, as
    docs/maps.md derives it, for the blocks inside the sum region); 0 where nothing
    was measured."""
    ref = textured_frame(5)
    dis = left_half_blurred(ref)
    for p_norm in (3.0, 2.5):
        with floatadm.Scorer(WIDTH, HEIGHT, 8, adm_p_norm=p_norm) as scorer:
            _, frame_map = scorer.score(ref, dis, map=True)
        q = 1.0 / p_norm
        want = np.sum(frame_map.den ** q - frame_map.num ** q, axis=0)
        assert np.array_equal(frame_map.lost, want)
        assert not frame_map.lost[np.isnan(frame_map.loss)].any()
        # An inner block holds 16x16, 8x8, 4x4 and 2x2 coefficients of the 4 scales.
        counts = np.array([16 * 16, 8 * 8, 4 * 4, 2 * 2])[:, None, None]
        noise = (3 * counts * 0.03125) ** q
        den = np.sum(frame_map.den ** q + noise, axis=0)[2:-2, 2:-2]
        loss = frame_map.loss[2:-2, 2:-2]
        assert np.allclose(frame_map.lost[2:-2, 2:-2], loss * den, rtol=1e-5, atol=1e-4)
        assert loss.max() > 0.3


def test_share_of_lost_detail_goes_where_the_detail_was():
    """A night sky of faint grain flattened and a detailed half blurred a little: each
    sky block loses more of its own detail (the loss), but the detailed blocks hold
    most of the frame's lost detail (the share, map_image.share of FrameMap.lost)."""
    from floatadm.map_image import share
    rng = np.random.default_rng(1)
    ref = np.full((256, 256), 40.0)
    ref[:128] += rng.normal(0, 2.0, (128, 256))
    ref[128:] = 128 + 60 * np.sign(np.sin(np.arange(256)[None, :] / 3.0 +
                                          np.arange(128)[:, None] / 5.0))
    ref = np.clip(np.round(ref), 0, 255).astype(np.uint8)
    blurred = ref.astype(np.float64)
    for axis in (0, 1):
        blurred = (np.roll(blurred, 1, axis) + blurred + np.roll(blurred, -1, axis)) / 3
    dis = np.clip(np.round(blurred), 0, 255).astype(np.uint8)
    dis[:128] = 40
    with floatadm.Scorer(256, 256, 8) as scorer:
        _, frame_map = scorer.score(ref, dis, map=True)
    sky, detail = slice(0, 3), slice(5, 8)  # block rows wholly in either half
    assert np.nanmean(frame_map.loss[sky]) > 1.3 * np.nanmean(frame_map.loss[detail])
    shares = share(frame_map.lost)
    assert shares.sum() == pytest.approx(1.0) and shares.min() >= 0
    assert shares[detail].mean() > 1.5 * shares[sky].mean()


def test_identical_pictures_give_a_map_of_zeros():
    ref = textured_frame(2)
    with floatadm.Scorer(WIDTH, HEIGHT, 8) as scorer:
        for _ in range(2):
            _, frame_map = scorer.score(ref, ref.copy(), map=True)
            inner = frame_map.loss[1:-1, 1:-1]
            assert not np.isnan(inner).any() and not inner.any()
            # At the edges: nothing lost, or not measured.
            assert not np.nan_to_num(frame_map.loss).any()


def test_map_false_changes_nothing():
    ref = textured_frame(3)
    dis = left_half_blurred(ref)
    with floatadm.Scorer(WIDTH, HEIGHT, 8) as plain, floatadm.Scorer(WIDTH, HEIGHT, 8) as mapped:
        without = plain.score(ref, dis)
        assert isinstance(without, dict)
        assert plain.score(ref, dis, map=False) == without
        with_map, _ = mapped.score(ref, dis, map=True)
    assert list(with_map) == list(without)
    for name in without:
        assert same_bits(with_map[name], without[name]), name


def test_map_from_the_first_frame_on():
    ref = textured_frame(4)
    with floatadm.Scorer(WIDTH, HEIGHT, 8) as scorer:
        scorer.score(ref, ref)
        with pytest.raises(floatadm.InvalidError, match="first frame"):
            scorer.score(ref, ref, map=True)


def test_cuda_maps_are_bound():
    """The CUDA library's map functions are declared for ctypes (the library loads
    without a driver; its functions are there whether or not a GPU is)."""
    lib = floatadm._lib.cuda()
    if lib is None:
        pytest.skip(floatadm._lib.cuda_error())
    for name in ("float_adm_cuda_context_enable_map", "float_adm_cuda_map_size",
                 "float_adm_cuda_map_loss", "float_adm_cuda_map_sums"):
        assert getattr(lib, name).argtypes == getattr(
            floatadm._lib.core(), name.replace("cuda_", "")).argtypes, name


def test_maps_on_the_cuda_backend_are_asked_of_the_device(pair):
    """map=True with backend="cuda" goes to the CUDA library: without a GPU the error
    says why there is no device, not that maps are the CPU's; "auto" maps on the CPU."""
    if floatadm.cuda_device_count() > 0:
        pytest.skip("a CUDA device is here: test_cuda_maps_equal_cpu_maps runs instead")
    reference, distorted = pair(ASTRONAUT)
    with pytest.raises(floatadm.Error, match="CUDA|cuda") as caught:
        floatadm.score_files(reference=reference, distorted=distorted,
                             **fixture_geometry(ASTRONAUT), map=True,
                             backend="cuda")
    assert "CPU only" not in str(caught.value)
    auto = floatadm.score_files(reference=reference, distorted=distorted,
                                **fixture_geometry(ASTRONAUT), map=True,
                                backend="auto")
    cpu = floatadm.score_files(reference=reference, distorted=distorted,
                               **fixture_geometry(ASTRONAUT), map=True)
    assert auto.maps.tobytes() == cpu.maps.tobytes()


def test_maps_without_the_cuda_library_name_it(pair):
    """Where libfloatadm_cuda.so cannot be loaded, backend="cuda" with map=True says
    which library is missing (in a process of its own: the package loads it once)."""
    import sys
    reference, distorted = pair(ASTRONAUT)
    code = ("import sys, floatadm\n"
            "try:\n"
            "    floatadm.score_files(sys.argv[1], sys.argv[2], %d, %d, %r, map=True,\n"
            "                         backend='cuda')\n"
            "except floatadm.Error as error:\n"
            "    print(error)\n" % fixture_args(ASTRONAUT))
    env = dict(os.environ, FLOATADM_CUDA_LIBRARY="/nonexistent/libfloatadm_cuda.so")
    done = subprocess.run([sys.executable, "-c", code, reference, distorted], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "libfloatadm_cuda.so" in done.stdout and "--enable-cuda" in done.stdout


def test_cuda_maps_equal_cpu_maps(pair):
    """On a GPU: the CUDA backend's maps are the CPU's, every bit of the loss and of
    each scale's sums (scripts/cuda/check_python_maps.sh runs the same without pytest)."""
    if floatadm.cuda_device_count() == 0:
        pytest.skip("no CUDA device or library here: %s" % floatadm.cuda_device_count.why)
    reference, distorted = pair(ASTRONAUT)
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    from floatadm.files import open_pair
    ref, dis, g = open_pair(reference, distorted, width, height, pix_fmt)
    with ref, dis, floatadm.Scorer(width, height, 8) as cpu, \
            floatadm.Scorer(width, height, 8, backend="cuda") as gpu:
        assert gpu.map_shape == cpu.map_shape
        for index in range(ref.frame_count):
            planes = ref.read_luma(index), dis.read_luma(index)
            want, want_map = cpu.score(*planes, map=True)
            got, got_map = gpu.score(*planes, map=True)
            assert all(same_bits(got[n], want[n]) for n in want)
            for name in ("loss", "num", "den"):
                assert getattr(got_map, name).tobytes() == getattr(want_map, name).tobytes()
    want = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                height=height, pix_fmt=pix_fmt, map=True)
    got = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                               height=height, pix_fmt=pix_fmt, map=True,
                               backend="cuda")
    assert got.maps.tobytes() == want.maps.tobytes()


def test_score_files_maps_equal_the_command_pfm_files(pair, score_bin, tmp_path):
    reference, distorted = pair(ASTRONAUT)
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    pattern = str(tmp_path / "map_%03d.pfm")
    subprocess.run([score_bin, "--reference", reference, "--distorted", distorted, "--width",
                    str(width), "--height", str(height), "--pix-fmt", pix_fmt, "--map-path",
                    pattern, "--quiet"], check=True, capture_output=True)
    results = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                   height=height, pix_fmt=pix_fmt, map=True,
                                   backend="auto")
    assert results.maps.shape == (len(results.frames), -(-height // 32), -(-width // 32))
    assert len(os.listdir(tmp_path)) == len(results.frames) > 1
    for i, f in enumerate(results.frames):
        want = read_pfm(pattern % f["frame"])
        assert want.tobytes() == results.maps[i].tobytes(), f["frame"]
    assert results.maps.any()
    # Without map=True the scores are the same, and there are no maps.
    plain = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                 height=height, pix_fmt=pix_fmt)
    assert plain.maps is None
    for got, want in zip(results.frames, plain.frames):
        assert all(same_bits(got[n], want[n]) for n in plain.names)
    # A range keeps the title's frame numbers, and merged ranges are the whole.
    parts = [floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                  height=height, pix_fmt=pix_fmt, map=True,
                                  start_frame=s, end_frame=e)
             for s, e in ((1, len(results.frames)), (0, 1))]
    merged = Results.merge(parts)
    assert merged.maps.tobytes() == results.maps.tobytes()
    assert merged.lost.tobytes() == results.lost.tobytes()
    # Each block's lost detail, frame by frame, as the scorer gives it.
    with floatadm.Scorer(width, height, 8) as scorer, \
            floatadm.files.VideoFile(reference) as ref, \
            floatadm.files.VideoFile(distorted) as dis:
        geometry = floatadm.files.Geometry(width, height, pix_fmt)
        ref.start(geometry)
        dis.start(geometry)
        for i, f in enumerate(results.frames):
            _, frame_map = scorer.score(ref.read_luma(i), dis.read_luma(i), map=True)
            assert results.lost[i].tobytes() == frame_map.lost.astype(np.float32).tobytes()
    # The maps kept beside a log read back with their frame numbers, the lost detail
    # too; a file of the loss alone (an earlier one's, score_video's) has none.
    results.save_maps(str(tmp_path / "log.maps.npz"))
    loaded = Results.load_maps(str(tmp_path / "log.maps.npz"))
    assert sorted(loaded) == [f["frame"] for f in results.frames]
    assert all(loaded[f["frame"]].tobytes() == results.maps[i].tobytes()
               for i, f in enumerate(results.frames))
    lost = Results.load_lost(str(tmp_path / "log.maps.npz"))
    assert all(lost[f["frame"]].tobytes() == results.lost[i].tobytes()
               for i, f in enumerate(results.frames))
    with np.load(str(tmp_path / "log.maps.npz")) as data:
        np.savez_compressed(str(tmp_path / "old.maps.npz"), frames=data["frames"],
                            loss=data["loss"])
    assert Results.load_lost(str(tmp_path / "old.maps.npz")) is None


def test_score_video_maps_equal_score_files(pair, ffmpeg, tmp_path, monkeypatch):
    """score_video(map=True) through the filter's map_path: the same bits as the C API
    path, in a frame range too, under a temporary directory whose name holds a '%'
    and a ':' (the pattern and the filtergraph keep them as text)."""
    reference, distorted = pair(ASTRONAUT)
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-video_size", "%dx%d" % (width, height)]
    hostile = tmp_path / "t%d:x,y"
    hostile.mkdir()
    monkeypatch.setenv("TMPDIR", str(hostile))
    want = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                height=height, pix_fmt=pix_fmt, map=True)
    got = floatadm.score_video(reference=reference, distorted=distorted, ffmpeg=ffmpeg,
                               reference_args=raw,
                               distorted_args=raw, map=True)
    assert got.maps.shape == want.maps.shape
    assert got.maps.tobytes() == want.maps.tobytes()
    assert got.lost is None  # the filter's files hold the loss alone
    part = floatadm.score_video(reference=reference, distorted=distorted, ffmpeg=ffmpeg,
                                reference_args=raw,
                                distorted_args=raw, map=True, start_frame=2, end_frame=4)
    assert [f["frame"] for f in part.frames] == [2, 3]
    assert part.maps.tobytes() == want.maps[2:4].tobytes()
    assert floatadm.score_video(reference=reference, distorted=distorted, ffmpeg=ffmpeg,
                                reference_args=raw,
                                distorted_args=raw).maps is None


def test_score_video_maps_on_the_cuda_backend(pair, ffmpeg, monkeypatch):
    """score_video(map=True, backend="cuda") uploads both inputs and asks float_adm_cuda
    for map_path: on a GPU the CPU's bits; without one ffmpeg's error; an ffmpeg without
    float_adm_cuda, or whose filter has no map_path, is named.  "auto" maps on the GPU
    only where it can, else on the CPU: the same bits either way."""
    reference, distorted = pair(ASTRONAUT)
    width, height, pix_fmt = fixture_args(ASTRONAUT)
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-video_size", "%dx%d" % (width, height)]

    def run(backend="cuda"):
        return floatadm.score_video(reference=reference, distorted=distorted, ffmpeg=ffmpeg,
                                    reference_args=raw,
                                    distorted_args=raw, map=True, backend=backend)
    want = floatadm.score_files(reference=reference, distorted=distorted, width=width,
                                height=height, pix_fmt=pix_fmt, map=True)
    video = floatadm.video
    if not {"float_adm_cuda", "hwupload"} <= video.filter_names(ffmpeg):
        with pytest.raises(floatadm.FFmpegError, match="no float_adm_cuda"):
            run()
    elif not video.has_filter_option(ffmpeg, "map_path", "float_adm_cuda"):
        with pytest.raises(floatadm.FFmpegError,
                           match="float_adm_cuda filter .* no map_path option"):
            run()
    elif floatadm.cuda_device_count() > 0:
        assert run().maps.tobytes() == want.maps.tobytes()
    else:
        with pytest.raises(floatadm.FFmpegError, match="exit status"):
            run()
    assert run("auto").maps.tobytes() == want.maps.tobytes()
    help_text = video._filter_help(ffmpeg)
    monkeypatch.setitem(video._checked, (ffmpeg, "float_adm"), "\n".join(
        line for line in help_text.splitlines() if "map_path" not in line))
    with pytest.raises(floatadm.FFmpegError, match="no map_path option"):
        run("cpu")


def test_command_line_maps_of_a_video_in_the_report(ffmpeg, tmp_path):
    """score --json --maps on videos (through the filter) keeps the maps beside the
    log; the report draws them over the distorted frames, decoded by ffmpeg."""
    import sys
    from conftest import make_clip
    ref = make_clip(ffmpeg, tmp_path / "ref.mkv", 25, seconds=0.2)
    dis = make_clip(ffmpeg, tmp_path / "dis.mkv", 25, seconds=0.2, lossy=True)
    log = tmp_path / "mpeg2.json"
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis,
                           "--json", str(log), "--maps", "--quiet"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    maps = Results.load_maps(str(tmp_path / "mpeg2.maps.npz"))
    want = floatadm.score_video(reference=ref, distorted=dis, map=True)
    assert sorted(maps) == [f["frame"] for f in want.frames]
    assert all(maps[f["frame"]].tobytes() == want.maps[i].tobytes()
               for i, f in enumerate(want.frames))
    text = floatadm.report.render(floatadm.report.load([str(log)]))
    assert "the maps alone" not in text
    assert text.count("loss in each block over it") == 4 + 1  # the worst 4, the mean
