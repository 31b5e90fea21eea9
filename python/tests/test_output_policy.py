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
    "input under another name": REFUSED,
    "/dev/stdout": STDOUT,
    "/proc/self/fd/1": STDOUT,
    "/dev/fd/1": STDOUT,
    "/dev/null": DISCARD,
    "fifo": REFUSED,
    "device": REFUSED,
    "directory": REFUSED,
    "symlink to an input": REFUSED,
    "dangling symlink": REFUSED,
    "/proc file": REFUSED,
    "/sys file": REFUSED,
    "file of another program": REFUSED,
    "table of another program": REFUSED,
    "file of ours": REPLACED,
    "-": STDOUT,
}
# The kernel's files tried: empty-looking regular files that are settings.
KERNEL_FILES = {"/proc file": "/proc/self/comm", "/sys file": "/sys/kernel/uevent_seqnum"}
if not os.path.isfile(KERNEL_FILES["/sys file"]):
    del EXPECTED["/sys file"]
# What the suite ran, face by target, reported at the end of the session.
CASES = {}

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

# The C faces: float_adm_score's logs, and the filter's log_path (its JSON layout,
# named: the filter's default is libvmaf's XML).
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
    if name in ("-", "/dev/stdout", "/proc/self/fd/1", "/dev/fd/1", "/dev/null"):
        return name
    if name == "input":
        return str(work / INPUT[face])
    if name in KERNEL_FILES:
        return KERNEL_FILES[name]
    if name == "device":
        return "/dev/zero"
    path = os.path.join(place, "out")
    if name == "input under another name":
        os.link(str(work / INPUT[face]), path)
    elif name == "table of another program":
        # A ladder's manifest with a column of its own: it begins as a table does.
        with open(path, "w") as f:
            f.write("source,ladder,label,file,crf\nsrc.y4m,vp9,low,vp9_100k.webm,40\n")
    elif name == "fifo":
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
    """What a target is before and after: its kind and its bytes (files; a kernel
    file's bytes are the kernel's to change, and its refusal says it was never
    written)."""
    if path in KERNEL_FILES.values():
        return ("kernel", path)
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
        command = _ffmpeg_command(ffmpeg, dis, ref, "log_fmt=json:log_path='%s'" % path)
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
    CASES[(face, name)] = True
    if done.returncode != 0:
        assert after == before, (face, name)
        assert done.stdout == b"" and done.stderr.strip(), (face, name)
        # The refusal names what it refused (the filter names the option it came from).
        assert path.encode() in done.stderr or face == FFMPEG_LOG, (face, name, done.stderr)
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
# Only targets made in the place are such names.
ELSEWHERE = ("-", "/dev/stdout", "/proc/self/fd/1", "/dev/fd/1", "/dev/null", "device") + \
    tuple(KERNEL_FILES)
MAP_EXPECTED = {name: behaviour for name, behaviour in EXPECTED.items()
                if name not in ELSEWHERE}
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
        CASES[(face, name)] = True
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


# One stream, one writer: every face that writes two files, with the two given one
# place under two names (stdout's names, one file's), is refused before it writes.
TWO_WRITER_FACES = {
    "score": [sys.executable, "-m", "floatadm", "score", "--quiet"],
    "float_adm_score": None,  # the score_bin fixture's
}
SHARED_PLACES = (("-", "/dev/stdout"), ("/dev/stdout", "/proc/self/fd/1"), ("-", "-"),
                 ("same.json", "./same.json"))


@pytest.mark.parametrize("face", sorted(TWO_WRITER_FACES))
@pytest.mark.parametrize("places", SHARED_PLACES)
def test_one_place_has_one_writer(face, places, work, tmp_path, score_bin):
    command = TWO_WRITER_FACES[face] or [score_bin, "--quiet"]
    done = subprocess.run(command + ["-r", str(work / "ref.y4m"), "-d", str(work / "dis.y4m"),
                                     "--json", places[0], "--csv", places[1]],
                          capture_output=True, timeout=120, cwd=str(tmp_path),
                          stdin=subprocess.DEVNULL)
    CASES[(face + " --json and --csv", " and ".join(places))] = True
    assert done.returncode == 1 and done.stdout == b"", done.stderr
    assert b"Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert os.listdir(str(tmp_path)) == [], os.listdir(str(tmp_path))


@pytest.mark.parametrize("face", sorted(TWO_WRITER_FACES))
@pytest.mark.parametrize("name", ("-", "/dev/stdout", "the file stdout is"))
def test_a_log_on_stdout_has_it_to_itself(face, name, work, tmp_path, score_bin):
    """No summary or table after a log on stdout, under any of its names: the output
    is the log alone."""
    command = TWO_WRITER_FACES[face] or [score_bin]
    command = [c for c in command if c != "--quiet"]
    out = str(tmp_path / "out.json")
    with open(out, "wb") as stdout:
        done = subprocess.run(command + ["-r", str(work / "ref.y4m"), "-d",
                                         str(work / "dis.y4m"), "--json",
                                         out if name == "the file stdout is" else name],
                              stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                              stdin=subprocess.DEVNULL)
    CASES[(face + " --json", "stdout as " + name)] = True
    assert done.returncode == 0, done.stderr
    with open(out, encoding="utf-8") as f:
        assert "pooled_metrics" in json.load(f)


@pytest.mark.parametrize("face", sorted(TWO_WRITER_FACES))
def test_one_pipe_is_one_input(face, work, score_bin):
    """stdin as both inputs, under two names: refused, not scored as garbage."""
    command = (TWO_WRITER_FACES[face] or [score_bin, "--quiet"]) + [
        "-r", "-", "-d", "/dev/fd/0", "--width", "384", "--height", "304", "--pix-fmt",
        "yuv420p10le", "--frames", "1"]
    with open(str(work / "dis.y4m"), "rb") as stdin:
        data = stdin.read()
    done = subprocess.run(command, input=data, capture_output=True, timeout=120)
    CASES[(face, "one pipe as both inputs")] = True
    assert done.returncode == 1 and done.stdout == b"", done.stderr
    assert b"are one stream" in done.stderr, done.stderr


def test_a_catalogue_never_logs_over_an_input(work, tmp_path):
    """A job's log (NAME.json in the output directory) that is another job's input, or
    the jobs' own file: refused before any job is submitted (no client is needed to
    find it), the file whole."""
    from floatadm import distributed
    taken = tmp_path / "b.json"
    with open(str(work / "dis.y4m"), "rb") as src:
        taken.write_bytes(src.read())
    jobs = [{"reference": str(work / "ref.y4m"), "distorted": str(taken), "name": "a",
             "kind": "files"},
            {"reference": str(work / "ref.y4m"), "distorted": str(work / "dis.y4m"),
             "name": "b"}]
    before = taken.read_bytes()
    with pytest.raises(OutputRefused) as refused:
        distributed.score_catalogue(jobs, None, str(tmp_path))
    assert str(taken) in str(refused.value) and "input of the run" in str(refused.value)
    assert taken.read_bytes() == before
    jobs_file = tmp_path / "c.json"
    jobs_file.write_text(json.dumps(jobs[1:]))
    with pytest.raises(OutputRefused):
        distributed.score_catalogue([dict(jobs[1], name="c")], None, str(tmp_path),
                                    jobs_file=str(jobs_file))
    CASES[("catalogue", "a job's log over an input")] = True


@pytest.mark.parametrize("face", ("score", "score --json -", "report -o -", "float_adm_score"))
def test_stdout_redirected_to_an_input_is_refused(face, work, tmp_path, score_bin):
    """`>> INPUT` (or `1<> INPUT`): whatever the face prints on stdout would go into
    its input; refused, the input unchanged."""
    victim = tmp_path / ("log.json" if face.startswith("report") else "dis.y4m")
    victim.write_bytes((work / victim.name).read_bytes())
    before = victim.read_bytes()
    ref, dis = str(work / "ref.y4m"), str(victim)
    command = {"score": [sys.executable, "-m", "floatadm", "score", "-r", ref, "-d", dis],
               "score --json -": [sys.executable, "-m", "floatadm", "score", "-r", ref, "-d",
                                  dis, "--json", "-"],
               "report -o -": [sys.executable, "-m", "floatadm", "report", dis, "-o", "-"],
               "float_adm_score": [score_bin, "-r", ref, "-d", dis]}[face]
    with open(str(victim), "ab") as stdout:
        done = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                              stdin=subprocess.DEVNULL)
    CASES[(face, "stdout appended to an input")] = True
    assert done.returncode == 1, done.stderr
    assert b"standard output too" in done.stderr and len(done.stderr.splitlines()) == 1, \
        done.stderr
    assert victim.read_bytes() == before


def test_a_video_from_a_pipe_is_refused_at_once(work, tmp_path):
    """A video is probed, then scored: read twice, which a FIFO or stdin cannot give.
    Refused in one line before either is read (the FIFO's writer is never
    answered), not a hang."""
    fifo = str(tmp_path / "ref-video")
    os.mkfifo(fifo)
    for reference in (fifo, "-"):
        done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r", reference,
                               "-d", str(work / "dis.y4m"), "--video"],
                              capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        CASES[("score --video", "a pipe as an input")] = True
        assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
        assert b"is a pipe, FIFO or device" in done.stderr, done.stderr


def test_frame_rates_that_differ_are_said(work, tmp_path):
    """Two y4m inputs of different rates are paired frame by frame: said once, as
    float_adm_score says it; the same rates say nothing."""
    other = tmp_path / "dis50.y4m"
    data = (work / "dis.y4m").read_bytes()
    header, rest = data.split(b"\n", 1)
    other.write_bytes(b" ".join(w if not w.startswith(b"F") else b"F50:1"
                                for w in header.split(b" ")) + b"\n" + rest)
    for distorted, said in ((str(other), True), (str(work / "dis.y4m"), False)):
        done = subprocess.run([sys.executable, "-m", "floatadm", "score", "-r",
                               str(work / "ref.y4m"), "-d", distorted, "--quiet"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert ("24 fps and the distorted %s 50 fps" % distorted in done.stderr) == said, \
            done.stderr


# Logs written whole, one run's: each file a face writes goes to .NAME.tmp beside it,
# locked (flock) for the run, and lands by a rename at the end, all of a run's files
# or none.  Another writer, here a process holding that lock as a run does, refuses
# every face at its start, naming the holder's process.
HELD_FACES = {
    "score --json": ("log.json", lambda t: [sys.executable, "-m", "floatadm", "score",
                                            "--json", t, "--quiet"]),
    "score --csv": ("log.csv", lambda t: [sys.executable, "-m", "floatadm", "score",
                                          "--csv", t, "--quiet"]),
    "catalogue": ("log.json", None),
    "report -o": ("report.html", None),
    "save_maps": ("maps.npz", None),
}
HELD_FACES.update({"float_adm_score " + flag: ("log." + flag[2:], None) for flag in CLI_FLAGS})
HELD_FACES.update({"%s, %s" % (FFMPEG_LOG, fmt): ("log." + fmt, None)
                   for fmt in ("json", "csv", "xml")})


def _holding(path):
    """A process holding the lock on path's temporary as its writer would; its pid is
    the holder's (wait until it holds it)."""
    temporary = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         "fcntl.flock(os.open(sys.argv[1], os.O_RDWR | os.O_CREAT), fcntl.LOCK_EX)\n"
         "print('held', flush=True)\ntime.sleep(60)", temporary], stdout=subprocess.PIPE)
    assert holder.stdout.readline() == b"held\n"
    return holder


@pytest.mark.parametrize("face", sorted(HELD_FACES))
def test_a_second_writer_is_refused_naming_the_first(face, work, tmp_path, score_bin,
                                                     face_ffmpeg):
    if face.startswith("ffmpeg") and not face_ffmpeg:
        pytest.skip("no ffmpeg with the float_adm filter")
    kind, command = HELD_FACES[face]
    path = str(tmp_path / ("out." + kind.split(".")[1]))
    with open(str(work / kind), "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    before = _snapshot(path)
    holder = _holding(path)
    try:
        if command:
            done = subprocess.run(command(path) + ["-r", str(work / "ref.y4m"), "-d",
                                                   str(work / "dis.y4m")],
                                  capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        elif face.startswith(FFMPEG_LOG):
            done = subprocess.run(_ffmpeg_command(
                face_ffmpeg, str(work / "dis.y4m"), str(work / "ref.y4m"),
                "log_fmt=%s:log_path='%s'" % (face.split(", ")[1], path)),
                capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        else:
            done = _run_face(face, path, work, score_bin, face_ffmpeg)
    finally:
        holder.kill()
        holder.wait()
    CASES[(face, "another writer holding it")] = True
    assert done.returncode != 0, (face, done.stderr)
    assert ("process %d is writing it" % holder.pid).encode() in done.stderr, done.stderr
    assert b"Traceback" not in done.stderr, done.stderr
    assert _snapshot(path) == before


def _score(work, *args, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "floatadm", "score", "-r",
                           str(work / "ref.y4m"), "-d", str(work / "dis.y4m"), "--quiet"] +
                          list(args), stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_a_run_that_fails_writes_nothing(work, tmp_path):
    """`score --json OLD --csv NEW` whose CSV cannot be written: OLD and its record stay
    the earlier run's, and no temporary is left."""
    from floatadm.distributed import spec_path
    old = str(tmp_path / "old.json")
    assert _score(work, "--json", old).returncode == 0
    before = {p: _snapshot(p) for p in (old, spec_path(old))}
    done = _score(work, "--json", old, "--csv", str(tmp_path / "missing" / "new.csv"))
    CASES[("score --json, --csv", "a CSV that cannot be written")] = True
    assert done.returncode == 1 and b"new.csv" in done.stderr, done.stderr
    assert {p: _snapshot(p) for p in before} == before
    assert sorted(os.listdir(str(tmp_path))) == ["old.json", "old.spec.json"]


@pytest.mark.parametrize("redirect", (">>", "1<>"))
def test_stdout_redirected_onto_a_log_is_refused(redirect, work, tmp_path):
    """`score --json X >> X`, `--csv X 1<> X`, and as `-`: the log would be appended to
    another, or overwrite one in place; refused, the log unchanged."""
    flag, name = ("--json", "log.json") if redirect == ">>" else ("--csv", "log.csv")
    path = str(tmp_path / name)
    with open(str(work / name), "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    before = _snapshot(path)
    for target in (path, "-"):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND if redirect == ">>" else os.O_RDWR)
        try:
            done = _score(work, flag, target, stdout=fd)
        finally:
            os.close(fd)
        CASES[("score " + flag, "stdout redirected onto a log (%s)" % redirect)] = True
        assert done.returncode == 1 and b"stdout is redirected onto" in done.stderr, \
            done.stderr
        assert _snapshot(path) == before


def test_two_runs_at_once_leave_one_runs_log_and_record(work, tmp_path):
    """Runs of `score --json SAME` with different distorted inputs at once: each either
    lands whole or is refused, and the record beside the log is always that log's (its
    digest, and the distorted it names)."""
    from floatadm.distributed import log_digest, spec_path
    same = str(tmp_path / "same.json")
    other = str(tmp_path / "dis2.y4m")
    with open(str(work / "ref.y4m"), "rb") as src, open(other, "wb") as dst:
        dst.write(src.read())
    for _ in range(3):
        runs = [subprocess.Popen([sys.executable, "-m", "floatadm", "score", "-r",
                                  str(work / "ref.y4m"), "-d", dis, "--json", same, "--quiet"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for dis in (str(work / "dis.y4m"), other)]
        for run in runs:
            _, err = run.communicate(timeout=120)
            assert run.returncode == 0 or b"is writing it" in err, err
        with open(same, "rb") as f:
            log = f.read()
        with open(spec_path(same), encoding="utf-8") as f:
            record = json.load(f)
        assert record["log_sha256"] == log_digest(log)
        adm2 = json.loads(log)["frames"][0]["metrics"]["adm2"]
        assert (adm2 == 1.0) == (record["inputs"]["distorted"]["path"] == other), record
    CASES[("score --json", "two runs at once")] = True
