# Fault injection for the Dask tests: a worker plugin that kills its own worker
# process while it runs a chosen task (Linux: it looks at /proc/self/fd).  A module of
# its own, so that worker processes can import it (the tests put python/tests on their
# PYTHONPATH).
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import signal
import threading
import time

from distributed.diagnostics.plugin import WorkerPlugin


class _KillWorkerOnce(WorkerPlugin):
    """The common part of the plugins below: once for the whole cluster (the marker
    file, created exclusively, says it happened), when a task whose key starts with
    key_prefix starts executing, a thread waits until ready() gives what to record,
    writes it to the marker and SIGKILLs the worker process."""

    def __init__(self, key_prefix, marker):
        self.key_prefix = key_prefix
        self.marker = marker

    def setup(self, worker):
        self.worker = worker

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not str(key).startswith(self.key_prefix):
            return
        try:
            fd = os.open(self.marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return
        os.close(fd)

        def kill():
            record = self.ready(time.monotonic() + 60)
            with open(self.marker, "w", encoding="utf-8") as f:
                json.dump(dict(record, key=str(key), pid=os.getpid()), f)
            os.kill(os.getpid(), signal.SIGKILL)

        threading.Thread(target=kill, daemon=True).start()


class KillWorkerOnce(_KillWorkerOnce):
    """SIGKILLs the worker process while it runs a task whose key starts with
    key_prefix, once for the whole cluster (the marker file, created exclusively,
    says it happened): as soon as the task has opened `reading` (its input), that
    is while it scores.  Just before the kill the marker records the key, the
    process and whether watch_path (the job's log) existed: it must not."""

    name = "kill-worker-once"

    def __init__(self, key_prefix, marker, reading, watch_path):
        super().__init__(key_prefix, marker)
        self.reading = os.path.realpath(reading)
        self.watch_path = watch_path

    def _reading(self):
        for fd in os.listdir("/proc/self/fd"):
            try:
                if os.readlink("/proc/self/fd/" + fd) == self.reading:
                    return True
            except OSError:
                pass
        return False

    def ready(self, deadline):
        while not self._reading() and time.monotonic() < deadline:
            time.sleep(0.002)
        return {"was_reading": self._reading(), "log_existed": os.path.exists(self.watch_path)}


def _children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


class KillWorkerWhileFFmpegRuns(_KillWorkerOnce):
    """SIGKILLs the worker process once for the whole cluster, while a task whose key
    starts with key_prefix has its ffmpeg scoring (a child process running a
    filtergraph); the marker records the key, the worker and ffmpeg's process ids."""

    name = "kill-worker-ffmpeg"

    def _ffmpeg(self):
        for pid in _children(os.getpid()):
            try:
                with open("/proc/%d/cmdline" % pid, "rb") as f:
                    if b"-filter_complex" in f.read():
                        return pid
            except OSError:
                pass
        return None

    def ready(self, deadline):
        ffmpeg = None
        while ffmpeg is None and time.monotonic() < deadline:
            ffmpeg = self._ffmpeg()
            time.sleep(0.002)
        time.sleep(0.2)  # well into scoring
        return {"ffmpeg": ffmpeg}
