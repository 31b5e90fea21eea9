# floatadm: Python bindings of libfloatadm (Netflix VMAF's float ADM, bit-exact).
#
# Copyright (c) 2026 the float_adm authors
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

"""A one-line progress bar on stderr: done / expected, and the rate.

It goes to stderr, never stdout, so that a table or a log on stdout stays clean
whatever is drawn; by default only when stderr is a terminal (a log file or a
pipe gets no carriage returns).  Quieting stdout (--quiet) does not hide it.
"""

import sys
import time


class ProgressBar:
    """enabled: None (the default) draws only when the stream is a terminal; True
    draws anyway; False never.  total None: the count alone, no bar."""

    WIDTH = 30

    def __init__(self, total, enabled=None, stream=None, label="frames"):
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = bool(enabled)
        self.total = total
        self.label = label
        self.done = 0
        self._began = time.monotonic()
        self._last = 0.0
        self._drawn = None  # the count last drawn
        self._width = 0  # the characters last drawn, to blank a shorter line

    def update(self, done, force=False):
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if done == self._drawn or (not force and now - self._last < 0.1 and
                                   done != self.total):
            return
        self._last = now
        elapsed = now - self._began
        rate = " %.1f/s" % (done / elapsed) if elapsed > 0 and done else ""
        if self.total:
            filled = min(self.WIDTH, self.WIDTH * done // self.total)
            line = "[%s%s] %d/%d %s%s" % ("#" * filled, "." * (self.WIDTH - filled), done,
                                         self.total, self.label, rate)
        else:
            line = "%d %s%s" % (done, self.label, rate)
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)
        self._drawn = done

    def close(self):
        if self.enabled:
            self.update(self.done, force=True)
            if self._drawn is not None:
                self.stream.write("\n")
                self.stream.flush()
