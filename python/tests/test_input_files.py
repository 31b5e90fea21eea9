# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the package is given to read, and the interpreter it runs under: a file that
is not what it should be (bytes that are not UTF-8, an integer no double holds,
nesting deeper than Python's parser goes) is one line naming it and what was expected;
an interpreter without numpy is named, with what to install."""
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
