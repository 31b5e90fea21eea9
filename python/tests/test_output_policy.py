# The output policy on every face: every file the package writes (score's --json
# and --csv, save_maps, report -o, a catalogue's logs and spec files) and
# float_adm_score's logs (--json, --csv, --xml, --sub) go where the library's
# float_adm_output_check lets them, against one list of hostile targets, with one
# behaviour per target (the table of docs/robustness.md).
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import stat
import subprocess
import sys

import pytest

import floatadm
from floatadm import _lib
from floatadm.report import write_report
from floatadm.results import OutputRefused, output_target
from conftest import fixture_args, write_y4m

COINS = "coins_384x304_yuv420p10le_x265"

# What each face does with a target: written to stdout, thrown away (/dev/null
# written directly), a file replaced, or refused (nothing changed).
STDOUT, DISCARD, REPLACED, REFUSED = "stdout", "discarded", "replaced", "refused"
EXPECTED = {
    "input": REFUSED,
    "/dev/stdout": STDOUT,
    "/dev/null": DISCARD,
    "fifo": REFUSED,
    "directory": REFUSED,
    "symlink to an input": REFUSED,
    "dangling symlink": REFUSED,
    "file of another program": REFUSED,
    "file of ours": REPLACED,
    "-": STDOUT,
}

# Each face, run in a child process whose stdout is a pipe: argv[1] the face,
# argv[2] the target, argv[3] the work directory; it prints nothing else on stdout.
_FACE = r"""
import json, os, sys
import floatadm
from floatadm import _lib, distributed
from floatadm.__main__ import main
face, target, work = sys.argv[1:4]
ref, dis = os.path.join(work, "ref.y4m"), os.path.join(work, "dis.y4m")
if face == "score --json":
    sys.exit(main(["score", "-r", ref, "-d", dis, "--json", target, "--quiet"]))
if face == "score --csv":
    sys.exit(main(["score", "-r", ref, "-d", dis, "--csv", target, "--quiet"]))
if face == "report -o":
    sys.exit(main(["report", os.path.join(work, "log.json"), "-o", target, "--quiet"]))
if face == "save_maps":
    try:
        floatadm.score_files(ref, dis, frames=1, map=True).save_maps(target)
    except OSError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
if face == "catalogue":
    try:
        distributed.run_job(distributed.normalise_job(
            {"reference": ref, "distorted": dis, "frames": 1, "name": "job"}), target)
    except OSError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
"""

# The C faces: float_adm_score's logs, and the filter's log_path.
CLI_FLAGS = ("--json", "--csv", "--xml", "--sub")
FFMPEG_LOG = "ffmpeg float_adm=log_path"
FACES = ("score --json", "score --csv", "report -o", "save_maps", "catalogue") + tuple(
    "float_adm_score " + flag for flag in CLI_FLAGS) + (FFMPEG_LOG,)
# Each face's own kind of file, and the input it reads that the target may be.
KIND = {"score --json": "log.json", "score --csv": "log.csv", "report -o": "report.html",
        "save_maps": "maps.npz", "catalogue": "log.json", FFMPEG_LOG: "log.json"}
KIND.update({"float_adm_score " + flag: "log." + flag[2:] for flag in CLI_FLAGS})
INPUT = {face: "log.json" if face == "report -o" else "dis.y4m" for face in FACES}


@pytest.fixture(scope="module")
def work(pair, score_bin, tmp_path_factory):
    """ref.y4m, dis.y4m (one frame of a corpus pair), their log, a report of it, a
    log of each layout and a maps file: the inputs and the project's files of each
    kind."""
    path = tmp_path_factory.mktemp("outputs")
    ref, dis = pair(COINS)
    write_y4m(ref, str(path / "ref.y4m"), *fixture_args(COINS))
    write_y4m(dis, str(path / "dis.y4m"), *fixture_args(COINS))
    results = floatadm.score_files(reference=str(path / "ref.y4m"),
                                   distorted=str(path / "dis.y4m"), frames=1,
                                   map=True)
    results.to_json(str(path / "log.json"))
    results.to_csv(str(path / "log.csv"))
    results.save_maps(str(path / "maps.npz"))
    write_report([str(path / "log.json")], str(path / "report.html"))
    subprocess.run([score_bin, "-r", str(path / "ref.y4m"), "-d", str(path / "dis.y4m"),
                    "--map-path", str(path / "map%d.pfm"), "--quiet"], check=True)
    for layout in ("xml", "sub"):
        subprocess.run([score_bin, "-r", str(path / "ref.y4m"), "-d", str(path / "dis.y4m"),
                        "--" + layout, str(path / ("log." + layout)), "--quiet"], check=True)
    return path


def _target(work, face, name, place):
    """The path of target name for face, made in place (a fresh directory)."""
    if name in ("-", "/dev/stdout", "/dev/null"):
        return name
    if name == "input":
        return str(work / INPUT[face])
    path = os.path.join(place, "out")
    if name == "fifo":
        os.mkfifo(path)
    elif name == "directory":
        os.mkdir(path)
    elif name == "symlink to an input":
        os.symlink(str(work / INPUT[face]), path)
    elif name == "dangling symlink":
        os.symlink(os.path.join(place, "nowhere"), path)
    elif name == "file of another program":
        with open(path, "wb") as f:
            f.write(b"\x1a\x45\xdf\xa3 a video of someone else's")
    elif name == "file of ours":
        # A stale copy (a new one may be the same bytes): still known as ours.
        with open(str(work / KIND[face]), "rb") as src, open(path, "wb") as dst:
            dst.write(src.read() + b"\nstale\n")
    return path


def _snapshot(path):
    """What a target is before and after: its kind and its bytes (files)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", f.read())
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    return (stat.S_IFMT(st.st_mode), st.st_rdev)


def _ffmpeg_command(ffmpeg, dis, ref, options):
    """ffmpeg scoring dis against ref with float_adm=options, its output thrown away."""
    return [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", dis, "-i", ref,
            "-lavfi", "float_adm=" + options, "-f", "null", "-"]


def _run_face(face, path, work, score_bin, ffmpeg):
    dis, ref = str(work / "dis.y4m"), str(work / "ref.y4m")
    if face.startswith("float_adm_score "):
        command = [score_bin, "-r", ref, "-d", dis, face.split()[1], path, "--quiet"]
    elif face == FFMPEG_LOG:
        command = _ffmpeg_command(ffmpeg, dis, ref, "log_path='%s'" % path)
    else:
        command = [sys.executable, "-c", _FACE, face, path, str(work)]
    return subprocess.run(command, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)


def _behaviour(face, name, work, place, score_bin, ffmpeg):
    path = _target(work, face, name, place)
    before = _snapshot(path)
    inputs = {n: _snapshot(str(work / n)) for n in ("ref.y4m", "dis.y4m", "log.json")}
    done = _run_face(face, path, work, score_bin, ffmpeg)
    after = _snapshot(path)
    # Whatever happened, the inputs are whole and nothing was made beside a link.
    assert inputs == {n: _snapshot(str(work / n)) for n in inputs}, (face, name)
    assert not os.path.lexists(os.path.join(place, "nowhere")), (face, name)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    if done.returncode != 0:
        assert after == before, (face, name)
        assert done.stdout == b"" and done.stderr.strip(), (face, name)
        return REFUSED
    if done.stdout:
        assert after == before, (face, name)
        return STDOUT
    if path == "/dev/null":
        assert after == before
        return DISCARD
    assert after != before and after[0] == "file", (face, name)
    return REPLACED


@pytest.fixture(scope="module")
def face_ffmpeg():
    """The ffmpeg with the filter, for the filter's faces (None: those are skipped)."""
    try:
        return floatadm.find_ffmpeg()
    except floatadm.FFmpegError:
        return None


@pytest.mark.parametrize("face", FACES)
def test_every_face_treats_each_target_alike(face, work, tmp_path, score_bin, face_ffmpeg):
    if os.geteuid() != 0:
        pytest.skip("/dev/stdout is tried as root (where a rename could replace it)")
    if face.startswith("ffmpeg") and not face_ffmpeg:
        pytest.skip("no ffmpeg with the float_adm filter")
    got = {}
    for n, name in enumerate(EXPECTED):
        place = tmp_path / str(n)
        place.mkdir()
        got[name] = _behaviour(face, name, work, str(place), score_bin, face_ffmpeg)
    assert got == EXPECTED


# The map faces write one file per frame, named by a pattern with a frame number:
# '-', /dev/stdout and /dev/null are no such names.  Each target below is frame 0's
# file of the pattern PLACE/out%d ("input": that file is the distorted input itself).
MAP_FACES = ("float_adm_score --map-path", "ffmpeg float_adm=map_path")
MAP_EXPECTED = {name: behaviour for name, behaviour in EXPECTED.items()
                if name not in ("-", "/dev/stdout", "/dev/null")}
KIND.update({face: "map0.pfm" for face in MAP_FACES})
INPUT.update({face: "dis.y4m" for face in MAP_FACES})


@pytest.mark.parametrize("face", MAP_FACES)
def test_every_map_face_treats_each_target_alike(face, work, tmp_path, score_bin, face_ffmpeg):
    if face.startswith("ffmpeg") and not face_ffmpeg:
        pytest.skip("no ffmpeg with the float_adm filter")
    got = {}
    for n, name in enumerate(MAP_EXPECTED):
        place = tmp_path / str(n)
        place.mkdir()
        path, pattern = str(place / "out0"), str(place / "out%d")
        dis, ref = str(work / "dis.y4m"), str(work / "ref.y4m")
        if name == "input":
            with open(dis, "rb") as src, open(path, "wb") as dst:
                dst.write(src.read())
            dis = path
        else:
            made = _target(work, face, name, str(place))
            if made != path:
                os.rename(made, path)
        before = _snapshot(path)
        if face == MAP_FACES[0]:
            command = [score_bin, "-r", ref, "-d", dis, "--map-path", pattern, "--quiet"]
        else:
            command = _ffmpeg_command(face_ffmpeg, dis, ref, "map_path='%s'" % pattern)
        done = subprocess.run(command, capture_output=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        after = _snapshot(path)
        assert not os.path.lexists(str(place / "nowhere")), (face, name)
        if done.returncode != 0:
            assert after == before and done.stderr.strip(), (face, name)
            got[name] = REFUSED
        else:
            assert after != before and after[0] == "file" and after[1].startswith(b"Pf\n"), \
                (face, name)
            got[name] = REPLACED
    assert got == MAP_EXPECTED


def test_the_policy_is_the_librarys(work, tmp_path):
    """output_target is float_adm_output_check through ctypes: its targets and its
    refusals, each with the path and why."""
    log, dis = str(work / "log.json"), str(work / "dis.y4m")
    assert output_target("-", _lib.FLOAT_ADM_OUTPUT_LOG) == _lib.FLOAT_ADM_TARGET_STDOUT
    assert output_target("/dev/null", _lib.FLOAT_ADM_OUTPUT_LOG) == \
        _lib.FLOAT_ADM_TARGET_DISCARD
    assert output_target(str(tmp_path / "new.json"), _lib.FLOAT_ADM_OUTPUT_LOG) == \
        _lib.FLOAT_ADM_TARGET_NEW
    assert output_target(log, _lib.FLOAT_ADM_OUTPUT_LOG) == _lib.FLOAT_ADM_TARGET_REPLACE
    with pytest.raises(OutputRefused) as refused:
        output_target(dis, _lib.FLOAT_ADM_OUTPUT_LOG, [dis])
    assert dis in str(refused.value) and refused.value.code < 0
    # A log is not a report: each kind replaces its own files alone.
    with pytest.raises(OutputRefused):
        output_target(log, _lib.FLOAT_ADM_OUTPUT_REPORT)
    assert output_target(str(work / "report.html"), _lib.FLOAT_ADM_OUTPUT_REPORT) == \
        _lib.FLOAT_ADM_TARGET_REPLACE


def test_score_never_overwrites_its_inputs(work):
    """`score -r REF -d DIS --csv DIS` (or --json) refuses, DIS whole; `--csv -` is
    stdout, not a file named '-'."""
    dis = str(work / "dis.y4m")
    with open(dis, "rb") as f:
        before = f.read()
    for flag in ("--csv", "--json"):
        done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r",
                               str(work / "ref.y4m"), "-d", dis, flag, dis, "--quiet"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and "input" in done.stderr, done.stderr
        with open(dis, "rb") as f:
            assert f.read() == before
    done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r",
                           str(work / "ref.y4m"), "-d", dis, "--frames", "1", "--csv", "-",
                           "--quiet"], capture_output=True, text=True, timeout=120,
                          cwd=str(work))
    assert done.returncode == 0 and done.stdout.startswith("Frame,"), done.stderr
    assert not os.path.exists(str(work / "-"))


def test_spec_and_report_carry_the_markers(work, tmp_path):
    """A catalogue's spec file and a report are known as the project's by content."""
    from floatadm import distributed
    path = str(tmp_path / "job.json")
    distributed.run_job(distributed.normalise_job(
        {"reference": str(work / "ref.y4m"), "distorted": str(work / "dis.y4m"),
         "frames": 1, "name": "job"}), path)
    with open(distributed.spec_path(path), encoding="utf-8") as f:
        assert json.load(f)["float_adm_spec"] == 1
    assert output_target(distributed.spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC) == \
        _lib.FLOAT_ADM_TARGET_REPLACE
    with open(str(work / "report.html"), encoding="utf-8") as f:
        head = f.read(2048)
    assert head.startswith("<!DOCTYPE html>")
    assert '<meta name="generator" content="float_adm report">' in head
