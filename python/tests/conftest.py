# Tests of the floatadm Python package: shared fixtures.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Environment (all optional; `make check-python` sets them):
#   FLOATADM_PYTHONPATH    where the package is imported from (default: python/)
#   FLOATADM_LIBRARY       libfloatadm.so to load (default: the package's search)
#   FLOAT_ADM_CORPUS_DIR   the decompressed corpus (default: decompressed here)
#   FLOAT_ADM_SCORE        float_adm_score (default: build/bin/float_adm_score)
#   FLOATADM_FFMPEG        an ffmpeg with the filter (default: build/bin/ffmpeg)
#   FLOAT_ADM_TEST_FINGERPRINT  stands in for this host's RCPSS fingerprint

import json
import lzma
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS_SRC = os.path.join(ROOT, "tests", "corpus")
PYTHONPATH = os.path.abspath(os.environ.get("FLOATADM_PYTHONPATH") or
                             os.path.join(ROOT, "python"))
sys.path.insert(0, PYTHONPATH)
# Subprocesses and Dask's worker processes import the same package.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [PYTHONPATH] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

import floatadm  # noqa: E402

with open(os.path.join(CORPUS_SRC, "golden.json"), encoding="utf-8") as _f:
    GOLDEN = json.load(_f)
FIXTURES = {f["name"]: f for f in GOLDEN["fixtures"]}


def fixture_args(name):
    """(width, height, pix_fmt) of a corpus fixture."""
    f = FIXTURES[name]
    return f["width"], f["height"], f["pix_fmt"]


def fixture_geometry(name):
    """{width, height, pix_fmt} of a corpus fixture, as score_files takes them."""
    return dict(zip(("width", "height", "pix_fmt"), fixture_args(name)))


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    """A directory with the corpus's .yuv files."""
    given = os.environ.get("FLOAT_ADM_CORPUS_DIR")
    if given:
        return given
    out = str(tmp_path_factory.mktemp("corpus"))
    for entry in sorted(os.listdir(CORPUS_SRC)):
        if entry.endswith(".yuv.xz"):
            with lzma.open(os.path.join(CORPUS_SRC, entry)) as src, \
                    open(os.path.join(out, entry[:-3]), "wb") as dst:
                shutil.copyfileobj(src, dst)
    return out


@pytest.fixture(scope="session")
def pair(corpus_dir):
    """pair(name) -> (reference path, distorted path) of a corpus fixture."""
    def paths(name):
        return (os.path.join(corpus_dir, name + ".ref.yuv"),
                os.path.join(corpus_dir, name + ".dis.yuv"))
    return paths


@pytest.fixture(scope="session")
def score_bin():
    path = os.environ.get("FLOAT_ADM_SCORE") or os.path.join(ROOT, "build", "bin",
                                                              "float_adm_score")
    if not os.access(path, os.X_OK):
        pytest.skip("float_adm_score is not built (make)")
    return path


@pytest.fixture(scope="session")
def run_cli(score_bin, tmp_path_factory):
    """run_cli(ref, dis, geometry or None, options dict, frames=None) -> its JSON log."""
    work = tmp_path_factory.mktemp("cli")
    counter = [0]

    def run(reference, distorted, geometry=None, options=None, frames=None):
        counter[0] += 1
        out = str(work / ("cli%d.json" % counter[0]))
        command = [score_bin, "--reference", reference, "--distorted", distorted,
                   "--json", out, "--quiet"]
        if geometry:
            command += ["--width", str(geometry[0]), "--height", str(geometry[1]),
                        "--pix-fmt", geometry[2]]
        for name, value in (options or {}).items():
            command += ["--option", "%s=%s" % (name, value)]
        if frames:
            command += ["--frames", str(frames)]
        subprocess.run(command, check=True, capture_output=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)
    return run


@pytest.fixture(scope="session")
def ffmpeg():
    try:
        return floatadm.find_ffmpeg()
    except floatadm.FFmpegError as error:
        pytest.skip(str(error))


def expected_golden():
    """golden.json's cases with the values this host must reproduce bit for bit, or
    None where the host's RCPSS fingerprint has no recorded values (the same rule
    as tests/corpus/test_corpus.cpp)."""
    fingerprint = os.environ.get("FLOAT_ADM_TEST_FINGERPRINT") or floatadm.rcp_fingerprint()
    if GOLDEN["reference"]["rcpss_sha256"] == fingerprint:
        return GOLDEN["cases"]
    host = os.path.join(CORPUS_SRC, "hosts", fingerprint + ".json")
    if os.path.exists(host):
        with open(host, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        assert [c["fixture"] for c in cases] == [c["fixture"] for c in GOLDEN["cases"]]
        return cases
    return None


def cli_frames(log):
    """A float_adm_score JSON log's frames as {name: value} dicts (plain names)."""
    from floatadm.results import plain_name
    return [{plain_name(k): v for k, v in f["metrics"].items()} for f in log["frames"]]


def cli_pooled(log):
    from floatadm.results import plain_name
    return {plain_name(k): v for k, v in log["pooled_metrics"].items()}


def same_bits(a, b):
    """Two floats with the same 64 bits (NaN equal to NaN)."""
    import struct
    return struct.pack("<d", a) == struct.pack("<d", b)


def write_y4m(raw_path, y4m_path, width, height, pix_fmt, rate="24:1"):
    """A y4m file holding a raw file's frames (FRAME lines without parameters, except
    every third frame, which has one: readers must skip it)."""
    from floatadm.files import Geometry, y4m_tag
    g = Geometry(width, height, pix_fmt)
    tag = y4m_tag(pix_fmt)
    with open(raw_path, "rb") as src, open(y4m_path, "wb") as dst:
        dst.write(b"YUV4MPEG2 W%d H%d F%s Ip A1:1 C%s\n" % (width, height, rate.encode(),
                                                           tag.encode()))
        index = 0
        while True:
            frame = src.read(g.frame_bytes)
            if not frame:
                break
            dst.write(b"FRAME Ixyz\n" if index % 3 == 2 else b"FRAME\n")
            dst.write(frame)
            index += 1
    return y4m_path


def make_clip(ffmpeg, path, rate, seconds=4, lossy=False, vfr=False, size="160x96"):
    """A moving test picture (testsrc2) at rate frames per second: lossless FFV1, or
    MPEG-2 at a low quality (lossy) to be a distorted version of it.  vfr: every
    fifth frame dropped and the timestamps kept, a variable frame rate."""
    chain = ["select='not(eq(mod(n\\,5)\\,2))'"] if vfr else []
    command = [ffmpeg, "-y", "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
               "-i", "testsrc2=size=%s:rate=%s:duration=%s" % (size, rate, seconds)]
    if chain:
        command += ["-vf", ",".join(chain), "-fps_mode", "passthrough"]
    command += ["-c:v", "mpeg2video", "-q:v", "20"] if lossy else ["-c:v", "ffv1"]
    subprocess.run(command + [str(path)], check=True)
    return str(path)


def pytest_terminal_summary(terminalreporter):
    """The hostile-path suite's counts: every face against every kind of target."""
    suite = sys.modules.get("test_output_policy")
    if not suite or not suite.CASES:
        return
    faces = {face for face, _ in suite.CASES}
    targets = {target for _, target in suite.CASES}
    terminalreporter.write_line("hostile-path suite: %d faces x %d kinds of target: %d cases "
                                "run" % (len(faces), len(targets), len(suite.CASES)))
