# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the package is given to read, and the interpreter it runs under: a file that
is not what it should be (bytes that are not UTF-8, an integer no double holds,
nesting deeper than Python's parser goes) is one line naming it and what was expected;
an interpreter without numpy is named, with what to install."""
import os
import re
import subprocess
import sys

import pytest

from floatadm import distributed
from floatadm.__main__ import main
from floatadm.results import Results

BEYOND_DOUBLE = "1" + "0" * 400
# Each file: (its bytes, what the message says of them).
NOT_READ = [
    (b'{"frames": [{"frameNum": 0, "metrics": {"adm2": %s}}]}' % BEYOND_DOUBLE.encode(),
     "the number 100000000000... (401 digits) is beyond the range of a double"),
    (b'{"frames": [{"frameNum": -%s}]}' % BEYOND_DOUBLE.encode(),
     "the number -10000000000... (401 digits) is beyond the range of a double"),
    (b"[" * 100000, "its arrays or objects nest too deeply"),
    (b'{"version": "float_adm \xd2"}', "byte 23, 0xd2, is not UTF-8"),
]
NOT_READ_IDS = ["beyond a double", "below a double", "nested too deeply", "not UTF-8"]


@pytest.mark.parametrize("data,why", NOT_READ, ids=NOT_READ_IDS)
def test_results_from_json_names_the_file(data, why, tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(data)
    with pytest.raises(ValueError, match="^%s$" % re.escape(
            "%s: not a JSON log (%s)" % (path, why))):
        Results.from_json(path)


@pytest.mark.parametrize("data,why", NOT_READ, ids=NOT_READ_IDS)
def test_a_record_that_cannot_be_read_is_no_record(data, why, tmp_path):
    """A catalogue takes a record it cannot read as none: the job is scored again."""
    log = tmp_path / "x.json"
    (tmp_path / "x.spec.json").write_bytes(data)
    assert distributed.read_record(str(log)) is None


@pytest.mark.parametrize("data,why", NOT_READ, ids=NOT_READ_IDS)
def test_a_catalogue_names_a_jobs_file_it_cannot_read(data, why, tmp_path, capsys):
    pytest.importorskip("distributed")
    jobs = tmp_path / "jobs.json"
    jobs.write_bytes(data)
    assert main(["catalogue", str(jobs), "-o", str(tmp_path / "out"), "--quiet"]) == 1
    assert capsys.readouterr().err == "floatadm: %s: not a JSON list of jobs (%s)\n" % (
        jobs, why)
    assert not (tmp_path / "out").exists()


def test_the_command_line_without_numpy(tmp_path):
    """numpy hidden from the interpreter (None in sys.modules, as where it is not
    installed): --help works, and a command says in one line which interpreter lacks
    it and what to install."""
    hidden = ("import runpy, sys; sys.modules['numpy'] = None; "
              "runpy.run_module('floatadm', run_name='__main__', alter_sys=True)")

    def run(*args):
        return subprocess.run([sys.executable, "-c", hidden, *args], capture_output=True,
                              text=True, timeout=120, cwd=str(tmp_path))

    for args in (["--help"], ["report", "--help"]):
        done = run(*args)
        assert done.returncode == 0 and done.stdout.startswith("usage: python3 -m floatadm"), \
            done.stderr
    done = run("report", "x.json", "-o", "r.html")
    assert done.returncode == 1
    assert done.stderr == (
        "floatadm: %s has no numpy, which python3 -m floatadm report needs: install it for "
        "that interpreter (Debian: apt-get install python3-numpy)\n" % sys.executable)
    assert done.stdout == "" and not (tmp_path / "r.html").exists()


def test_names_are_shown_on_one_line():
    """A name as messages, tables and pages show it: as it is where it is printable,
    else quoted with escapes (a byte that is not UTF-8 as \\xNN); never two alike."""
    from floatadm._names import shown
    assert shown("clip 1.mkv") == "clip 1.mkv" and shown("Bob's.mkv") == "Bob's.mkv"
    assert shown(b"\xff.y4m") == shown("\udcff.y4m") == "'\\xff.y4m'"
    assert shown("new\nline.mkv") == "'new\\nline.mkv'"
    assert shown("a\0b") == "'a\\x00b'" and shown("'a'") == "'\\'a\\''"
    names = ["\\xff", "\udcff", "'\\xff'", "a\nb", "a\\nb", "'a\\nb'", "\u2028", "\\u2028",
             "\x85", "\udc85"]
    assert len({shown(n) for n in names}) == len(names)
    assert all(shown(n).isprintable() for n in names)


def test_names_in_messages_keep_them_one_line(ffmpeg, tmp_path, capsys):
    """A name with a newline, a NUL or a byte that is not UTF-8, in a message made here
    or by the library: one line on stderr, the name escaped."""
    fifo = tmp_path / "fi\nfo.mkv"
    os.mkfifo(fifo)
    (tmp_path / "src.y4m").write_bytes(b"YUV4MPEG2 W32 H32 F25:1 C420jpeg\nFRAME\n" +
                                       bytes(32 * 32 * 3 // 2))
    manifest = tmp_path / "rungs.csv"
    manifest.write_bytes(b"source,ladder,file\nsrc.y4m,vp8,d\0is.webm\n")
    for args, said in (
            (["score", "-r", str(tmp_path / "src.y4m"), "-d", str(tmp_path / "x\ny.y4m")],
             "x\\ny.y4m: cannot open"),
            (["score", "-r", str(tmp_path / "src.y4m"), "-d", os.fsdecode(
                os.path.join(os.fsencode(str(tmp_path)), b"\xff.y4m"))],
             "\\xff.y4m: cannot open"),
            (["score", "--video", "-r", str(tmp_path / "src.y4m"), "-d", str(fifo)],
             "'%s/fi\\nfo.mkv' is a pipe" % tmp_path),
            (["report", str(tmp_path / "no\nsuch.json"), "-o", str(tmp_path / "r.html")],
             "no\\nsuch.json: cannot read"),
            (["ladder", str(manifest), "-o", str(tmp_path / "out")],
             "the encode '%s/d\\x00is.webm' is not a file" % tmp_path),
            (["ladder", "--source", str(tmp_path / "src.y4m"), "--ladder", "a=new\nline.webm",
              "-o", str(tmp_path / "out")], "the encode 'new\\nline.webm' is not a file")):
        assert main(args + ["--quiet"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "\0" not in err and said in err, err
