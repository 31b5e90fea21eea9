# Tests of floatadm.Scorer: the C API's bits through ctypes.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import ctypes
import os
import re
import warnings
import weakref

import numpy as np
import pytest

import floatadm
from floatadm import _lib
from floatadm.files import VideoFile, open_pair

from conftest import (FIXTURES, GOLDEN, ROOT, cli_frames, cli_pooled, expected_golden,
                      fixture_args, fixture_geometry, same_bits)


def header_option_fields():
    """{option name: FloatAdmOptions field} from FLOAT_ADM_OPTIONS in the header."""
    with open(os.path.join(ROOT, "include", "float_adm.h"), encoding="utf-8") as f:
        text = f.read()
    rows = re.findall(r'OPT(?:_NO_ALIAS)?\("(\w+)",\s*(?:"\w+"|NULL),\s*([\w\[\]]+),', text)
    assert len(rows) == floatadm.scorer._lib.core().float_adm_option_count()
    return dict(rows)


def read_frames(pair, name):
    ref_path, dis_path = pair(name)
    ref, dis, geometry = open_pair(ref_path, dis_path, *fixture_args(name))
    with ref, dis:
        return [(ref.read_luma(i), dis.read_luma(i)) for i in range(ref.frame_count)], geometry


def test_options_structure_matches_the_library():
    """Every option set by the library lands in the ctypes field the header names."""
    fields = header_option_fields()
    for row in floatadm.options():
        opts = _lib.FloatAdmOptions()
        _lib.core().float_adm_options_default(ctypes.byref(opts))
        value = row["max"] if row["max"] != row["default"] else row["min"]
        err = _lib.core().float_adm_option_set_double(ctypes.byref(opts), row["name"].encode(),
                                                      value, None, 0)
        assert err == 0, row["name"]
        field = fields[row["name"]]
        m = re.match(r"(\w+)\[(\d)\]", field)
        held = getattr(opts, m.group(1))[int(m.group(2))] if m else getattr(opts, field)
        assert held == value, (row["name"], field, held, value)
        # ...and nothing else moved: every other option still reads its default.
        for other in floatadm.options():
            if other["name"] != row["name"]:
                got = floatadm.scorer.options_dict(opts)[other["name"]]
                assert float(got) == other["default"], (row["name"], other["name"])


def test_output_names_are_the_librarys():
    assert floatadm.output_names(debug=True) == list(floatadm.OUTPUT_NAMES)
    assert floatadm.output_names() == list(floatadm.OUTPUT_NAMES[:7])


def test_golden_corpus_bit_for_bit(pair):
    """Every case of golden.json, all 18 outputs, where this host's fingerprint has
    recorded values."""
    cases = expected_golden()
    if cases is None:
        pytest.skip("this host's RCPSS fingerprint has no recorded values: "
                    "test_equals_float_adm_score compares with float_adm_score instead")
    frames_of = {}
    compared = 0
    for case, golden_case in zip(cases, GOLDEN["cases"]):
        name = golden_case["fixture"]
        if name not in frames_of:
            frames_of[name] = read_frames(pair, name)
        frames, geometry = frames_of[name]
        options = dict(golden_case["options"], debug=True)
        with floatadm.Scorer(geometry.width, geometry.height, geometry.bit_depth,
                             **options) as scorer:
            for index, (ref, dis) in enumerate(frames):
                got = scorer.score(ref, dis)
                want = case["frames"][index]
                for output in floatadm.OUTPUT_NAMES:
                    assert same_bits(got[output], want[output]), (
                        name, golden_case["option_set"], index, output, got[output],
                        want[output])
                compared += 1
    assert compared == sum(len(c["frames"]) for c in GOLDEN["cases"])


# One case per fixture with its options, plus the astronaut's option sets that
# change the most code (debug everywhere: all 18 outputs).
CLI_CASES = sorted({(c["fixture"], c["option_set"]) for c in GOLDEN["cases"]
                    if c["option_set"] == "default" or
                    (c["fixture"].startswith("astronaut_576x324_yuv420p_x264") and
                     c["option_set"] in ("egl1.2", "csf_barten_scaled", "adm3_hm", "factors"))})


# Corpus fixtures whose distorted holds more detail than its reference: sharpened,
# or with noise added (tests/corpus/README.md).
ADDS_DETAIL = {"astronaut_576x324_yuv420p_enhanced", "camera_512x384_yuv444p12le_noise",
               "chelsea_33x17_yuv444p_x264"}


@pytest.mark.parametrize("fixture,option_set", CLI_CASES)
def test_equals_float_adm_score(pair, run_cli, fixture, option_set):
    """Scorer and Results equal float_adm_score on this host, bit for bit: frames and
    pooled values (exact by construction on any host)."""
    case = next(c for c in GOLDEN["cases"]
                if c["fixture"] == fixture and c["option_set"] == option_set)
    options = dict(case["options"], debug="true")
    ref_path, dis_path = pair(fixture)
    log = run_cli(ref_path, dis_path, fixture_args(fixture), options)
    frames, geometry = read_frames(pair, fixture)
    want = cli_frames(log)
    with floatadm.Scorer(geometry.width, geometry.height, geometry.bit_depth,
                         **options) as scorer:
        got = [scorer.score(reference=r, distorted=d) for r, d in frames]
    assert len(got) == len(want) == FIXTURES[fixture]["frames"]
    for index, (g, w) in enumerate(zip(got, want)):
        assert set(g) == set(w)
        for output in g:
            assert same_bits(g[output], w[output]), (fixture, index, output)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = floatadm.score_files(reference=ref_path, distorted=dis_path,
                                       **fixture_geometry(fixture), **options)
    # The order check names the corpus's distortions that add detail, and no other.
    assert ["fine detail" in str(w.message) for w in caught] == \
        ([True] if fixture in ADDS_DETAIL else []), (fixture, [str(w.message) for w in caught])
    pooled = cli_pooled(log)
    for output, stats in results.pooled.items():
        for key, value in stats.items():
            assert same_bits(value, pooled[output][key]), (fixture, output, key)


def test_reference_comes_first(pair):
    (ref, dis), = read_frames(pair, "chelsea_33x17_yuv444p_x264")[0][:1]
    with floatadm.Scorer(33, 17, 8) as scorer:
        forward = scorer.score(ref, dis)
        assert scorer.score(distorted=dis, reference=ref) == forward
        assert scorer.score(dis, ref) != forward


def test_any_strides_give_the_same_bits(pair):
    frames, g = read_frames(pair, "coins_384x304_yuv420p10le_x265")
    ref, dis = frames[1]
    with floatadm.Scorer(g.width, g.height, g.bit_depth) as scorer:
        want = scorer.score(ref, dis)
        # Rows bottom-up (negative stride), columns flipped back afterwards.
        assert scorer.score(ref[::-1][::-1], dis[::-1][::-1]) == want
        assert scorer.score(np.flipud(np.flipud(ref)), dis) == want
        # Planes inside wider arrays, Fortran order, every other column of a wider
        # plane, and big-endian samples.
        wide = np.zeros((g.height, g.width + 13), np.uint16)
        wide[:, 5:5 + g.width] = ref
        assert scorer.score(wide[:, 5:5 + g.width], dis) == want
        assert scorer.score(np.asfortranarray(ref), np.asfortranarray(dis)) == want
        every_other = np.zeros((g.height, 2 * g.width), np.uint16)
        every_other[:, ::2] = dis
        assert scorer.score(ref, every_other[:, ::2]) == want
        assert scorer.score(ref.astype(">u2"), dis) == want
        # A negative-stride view scored as such (not flipped back) is the upside-down
        # picture: the library reads what it is given.
        flipped = scorer.score(ref[::-1], dis[::-1])
        with floatadm.Scorer(g.width, g.height, g.bit_depth) as other:
            assert other.score(np.ascontiguousarray(ref[::-1]),
                               np.ascontiguousarray(dis[::-1])) == flipped


def test_threads_give_the_same_bits(pair):
    frames, g = read_frames(pair, "rocket_1920x1080_yuv420p_vp9")
    with floatadm.Scorer(g.width, g.height, g.bit_depth, debug=True) as one, \
            floatadm.Scorer(g.width, g.height, g.bit_depth, threads=3, debug=True) as three:
        for ref, dis in frames:
            assert three.score(ref, dis) == one.score(ref, dis)


def test_frames_in_flight_give_the_same_bits_in_order(pair):
    """score_frames on 3 threads (5 frames at once) yields score()'s values, frame for
    frame; the loop holds the scorer, and a frame that fails raises with its reason."""
    frames, g = read_frames(pair, "coins_384x304_yuv420p10le_x265")
    frames = frames * 4  # more frames than are in flight at once
    with floatadm.Scorer(g.width, g.height, g.bit_depth, debug=True) as one, \
            floatadm.Scorer(g.width, g.height, g.bit_depth, threads=3, debug=True) as three:
        want = [one.score(ref, dis) for ref, dis in frames]
        assert list(three.score_frames(frames)) == want
        loop = three.score_frames(frames)
        next(loop)
        with pytest.raises(floatadm.Error, match="inside a loop over score_frames"):
            three.score(*frames[0])
        loop.close()  # the frames in flight finish; the scorer is free again
        assert three.score(*frames[0]) == want[0]
        with pytest.raises(ValueError, match="distorted: shape"):
            list(three.score_frames([frames[0], (frames[0][0], frames[0][1][:-1])]))
        assert list(three.score_frames(frames[:2])) == want[:2]


def test_frames_in_flight_beyond_the_librarys_depth(pair):
    """A scorer with more threads than frames can be in flight at once scores through
    score_frames, and stays usable after."""
    frames, g = read_frames(pair, "coins_384x304_yuv420p10le_x265")
    with floatadm.Scorer(g.width, g.height, g.bit_depth) as one:
        want = [one.score(ref, dis) for ref, dis in frames]
    with floatadm.Scorer(g.width, g.height, g.bit_depth, threads=300) as many:
        assert list(many.score_frames(frames)) == want
        assert many.score(*frames[0]) == want[0]


def test_constants_are_the_headers():
    """Each number _lib names after a #define of float_adm.h has the header's value."""
    with open(os.path.join(ROOT, "include", "float_adm.h"), encoding="utf-8") as f:
        declared = dict(re.findall(r"^#define (FLOAT_ADM_\w+) (\d+)$", f.read(), re.M))
    named = {name: getattr(_lib, name) for name in declared if hasattr(_lib, name)}
    assert named and named == {name: int(declared[name]) for name in named}


def test_scorers_with_threads_come_and_go():
    """Scorers with threads made and dropped in a loop, the last reference going in the
    cycle collector: every frame is scored and every thread is gone after."""
    import subprocess
    import sys
    program = (
        "import gc, os, numpy as np, floatadm\n"
        "r = np.zeros((64, 96), np.uint8); d = np.full((64, 96), 3, np.uint8)\n"
        "tasks = len(os.listdir('/proc/self/task'))\n"
        "for i in range(400):\n"
        "    s = floatadm.Scorer(96, 64, 8, threads=3)\n"
        "    s.cycle = s\n"  # freed by the cycle collector, as in a long-lived program
        "    s.score(r, d)\n"
        "    del s\n"
        "gc.collect()\n"
        "print(len(os.listdir('/proc/self/task')) - tasks)\n")
    # The timeout only ends a hung run; the answer is the thread count.
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              sys.path)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0", "threads left behind: " + done.stdout


def test_sizes_and_depths_are_integers_within_the_limits():
    """A size or depth is a whole number the library takes, else a ValueError that says
    which limit; nothing is truncated or wrapped."""
    with pytest.raises(ValueError, match="65536"):
        floatadm.Scorer(2 ** 31, 17, 8)
    with pytest.raises(ValueError, match="65536"):
        floatadm.Scorer(17, 2 ** 64 + 17, 8)
    with pytest.raises(ValueError, match="width must be an integer, not 17.9"):
        floatadm.Scorer(17.9, 17, 8)
    with pytest.raises(ValueError, match="bit_depth must be an integer, not 8.5"):
        floatadm.Scorer(17, 17, 8.5)
    with pytest.raises(ValueError, match="8, 9, 10, 12, 14 or 16"):
        floatadm.Scorer(17, 17, 2 ** 32 + 8)
    with pytest.raises(ValueError, match="at least 17x17"):
        floatadm.Scorer(17, -1, 8)
    with floatadm.Scorer(np.int64(17), np.uint16(17), np.int8(8)) as scorer:
        assert (scorer.width, scorer.height, scorer.bit_depth) == (17, 17, 8)


def test_error_codes_are_the_librarys():
    """Every FLOAT_ADM_ERROR_* of the header, with its value, and nothing Python made up."""
    with open(os.path.join(ROOT, "include", "float_adm.h"), encoding="utf-8") as f:
        declared = dict(re.findall(r"#define FLOAT_ADM_ERROR_(\w+) \(-\((E\w+)\)\)", f.read()))
    import errno
    codes = floatadm.scorer.error_codes()
    assert codes == {name: -getattr(errno, e) for name, e in declared.items()}
    assert floatadm.scorer.ERROR_BUSY == -errno.EBUSY
    with pytest.raises(AttributeError):
        floatadm.scorer.ERROR_NO_SUCH_CODE


def test_one_scorer_shared_by_threads(pair):
    """Calls from several threads take turns on the one context: each gets its own
    frame's scores."""
    import concurrent.futures
    frames, g = read_frames(pair, "astronaut_576x324_yuv420p_x264")
    with floatadm.Scorer(g.width, g.height, g.bit_depth) as scorer:
        want = [scorer.score(r, d) for r, d in frames]
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda f: scorer.score(*f), frames * 3))
    assert got == want * 3


def test_options_by_name_alias_and_type():
    with floatadm.Scorer(64, 64, 8, egl=1.2, adm_norm_view_dist="5", csf=1,
                         adm_skip_scale0=True, debug=1) as scorer:
        held = scorer.options
        assert held["adm_enhn_gain_limit"] == 1.2
        assert held["adm_norm_view_dist"] == 5.0
        assert held["adm_csf_mode"] == 1
        assert held["adm_skip_scale0"] is True
        assert scorer.debug and len(scorer.names) == 18


def test_a_refused_value_is_shown_as_given(pair, capsys):
    """A value just past its range's end is named as given, not rounded onto the end
    ("100 is out of range [1, 100]" says nothing)."""
    from floatadm.__main__ import main
    with pytest.raises(floatadm.InvalidError, match=re.escape(
            "option adm_enhn_gain_limit (egl): 100.00000000000001 is out of range [1, 100]")):
        floatadm.Scorer(64, 64, 8, egl="100.00000000000001")
    ref, dis = pair("astronaut_576x324_yuv420p_x264")
    assert main(["score", "-r", ref, "-d", dis, "--width", "576", "--height", "324",
                 "--pix-fmt", "yuv420p", "--option", "egl=100.00000000000001", "--quiet"]) == 1
    assert "100.00000000000001 is out of range [1, 100]" in capsys.readouterr().err


def test_errors_carry_the_librarys_message():
    with pytest.raises(ValueError, match=r"adm_enhn_gain_limit.*range") as info:
        floatadm.Scorer(64, 64, 8, egl=0.5)
    assert isinstance(info.value, floatadm.Error)
    with pytest.raises(floatadm.InvalidError, match="no_such_option"):
        floatadm.Scorer(64, 64, 8, no_such_option=1)
    with pytest.raises(ValueError, match="17"):
        floatadm.Scorer(16, 64, 8)
    with pytest.raises(ValueError):
        floatadm.Scorer(64, 64, 11)
    with pytest.raises(ValueError, match="backend"):
        floatadm.Scorer(64, 64, 8, backend="tpu")
    with floatadm.Scorer(64, 48, 10) as scorer:
        plane = np.zeros((48, 64), np.uint16)
        with pytest.raises(TypeError, match="uint16"):
            scorer.score(plane.astype(np.uint8), plane)
        with pytest.raises(ValueError, match="shape"):
            scorer.score(plane.T, plane)
        with pytest.raises(ValueError, match="2-D"):
            scorer.score(plane[0], plane)
    scorer.close()
    with pytest.raises(floatadm.Error, match="closed"):
        scorer.score(plane, plane)


def cuda_or_skip():
    if floatadm.cuda_device_count() == 0:
        pytest.skip("no CUDA device or library here: %s" % floatadm.cuda_device_count.why)


def test_cuda_unavailable_falls_back():
    """Without a GPU (or the CUDA library) backend="cuda" raises, "auto" is the CPU and
    says why, as choose_backend does for any size."""
    if floatadm.cuda_device_count() > 0:
        pytest.skip("a CUDA device is here: test_cuda_equals_cpu runs instead")
    with pytest.raises(floatadm.Error, match="CUDA|cuda"):
        floatadm.Scorer(96, 72, 10, backend="cuda")
    with floatadm.Scorer(96, 72, 10, backend="auto") as auto:
        assert auto.backend == "cpu"
        assert re.search("no usable CUDA device|CUDA library .* is not available",
                         auto.backend_reason), auto.backend_reason
    backend, why = floatadm.choose_backend(3840, 2160, 8, threads=1, frames=1000)
    assert backend == "cpu"
    assert why == auto.backend_reason
    with floatadm.Scorer(96, 72, 10, backend="cpu") as cpu:
        assert cpu.backend_reason == "backend='cpu'"


def test_choose_backend_checks_its_values():
    """The rule's inputs are checked by the library, with or without a device."""
    if floatadm.scorer._lib.cuda() is None:
        pytest.skip("no CUDA library here: choose_backend is the CPU without asking it")
    with pytest.raises(floatadm.InvalidError, match="width|height|size|supported"):
        floatadm.choose_backend(0, 2160, 8)
    with pytest.raises(floatadm.InvalidError, match="cpu_threads 0"):
        floatadm.choose_backend(64, 64, 8, threads=0)


def test_scorer_upload_is_checked():
    with pytest.raises(ValueError, match="upload must be one of in_place, copy"):
        floatadm.Scorer(64, 64, 8, upload="pinned")


@pytest.mark.parametrize("fixture", ["rocket_1920x1080_yuv420p_vp9",
                                     "coins_384x304_yuv420p10le_x265",
                                     "rocket_426x240_yuv422p16le_blur",
                                     "noise_17x17_yuv444p_blur"])
def test_cuda_equals_cpu(pair, fixture):
    """backend="cuda" gives the CPU's bits, all 18 outputs (within 1e-6 only where the
    library says the device cannot model this host's division), one frame at a time and
    in flight, the arrays pinned in place or copied."""
    cuda_or_skip()
    frames, g = read_frames(pair, fixture)
    with floatadm.Scorer(g.width, g.height, g.bit_depth, debug=True) as cpu:
        want = [cpu.score(ref, dis) for ref, dis in frames]
    for upload in floatadm.scorer.UPLOADS:
        with floatadm.Scorer(g.width, g.height, g.bit_depth, backend="cuda", debug=True,
                             threads=1, upload=upload) as gpu:
            assert gpu.backend == "cuda"
            # Host planes of any stride; each frame's arrays anew.
            got = [gpu.score(ref[::-1][::-1], dis) for ref, dis in frames]
            got_in_flight = list(gpu.score_frames((ref.copy(), dis.copy())
                                                  for ref, dis in frames * 3))
            if gpu.exact:
                assert got == want
                assert got_in_flight == want * 3
            else:
                assert got == pytest.approx(want, rel=1e-6)
    # auto: the device for the 1080p clip, the CPU for 17x17 frames (the rule's estimate
    # of a frame's time; choose_backend says why).
    with floatadm.Scorer(g.width, g.height, g.bit_depth, backend="auto") as auto:
        assert auto.backend == {"rocket_1920x1080_yuv420p_vp9": "cuda",
                                "noise_17x17_yuv444p_blur": "cpu"}.get(fixture, auto.backend)
        assert "estimated faster" in auto.backend_reason


def test_cuda_arrays_pinned_in_place_live_while_pinned(pair):
    """Arrays pinned in place stay pinned a few frames after their scores come out, so that
    a collect need not wait for the frames in flight: the scorer holds them for as long as
    the library counts them (float_adm_cuda_held_frames), and no longer."""
    cuda_or_skip()
    frames, g = read_frames(pair, "rocket_1920x1080_yuv420p_vp9")
    lib = _lib.cuda()
    given = []

    def new_arrays():
        for k in range(48):
            ref, dis = (plane.copy() for plane in frames[k % len(frames)])
            given.append((weakref.ref(ref), weakref.ref(dis)))
            yield ref, dis

    most = 0
    with floatadm.Scorer(g.width, g.height, g.bit_depth, backend="cuda",
                         upload="in_place") as gpu:
        for done, _ in enumerate(gpu.score_frames(new_arrays()), 1):
            held = lib.float_adm_cuda_held_frames(gpu._cuda_ctx)
            most = max(most, held)
            for ref, dis in given[done - held:done]:
                assert ref() is not None and dis() is not None, (done, held)
        assert lib.float_adm_cuda_held_frames(gpu._cuda_ctx) == 0
    assert 0 < most <= 8
    assert all(ref() is None and dis() is None for ref, dis in given[:-1])


def test_version_and_fingerprint():
    assert re.fullmatch(r"\d+\.\d+\.\d+", floatadm.version())
    assert re.fullmatch(r"[0-9a-f]{64}|none", floatadm.rcp_fingerprint())


def test_video_file_reads_what_the_command_reads(pair):
    ref_path, _ = pair("brick_63x65_yuv444p10le_scale")
    video = VideoFile(ref_path)
    from floatadm.files import Geometry
    video.start(Geometry(63, 65, "yuv444p10le"))
    with open(ref_path, "rb") as f:
        f.seek(video.geometry.frame_bytes)
        luma = np.frombuffer(f.read(63 * 65 * 2), "<u2").reshape(65, 63)
    assert (video.read_luma(1) == luma).all()
    video.close()
