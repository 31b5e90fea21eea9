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

"""A few frames of a video, by the numbers score_video gave them: for the report,
which draws a map over the frame it was computed on.

score_video numbers the distorted input's frames as its decoder gives them (a range
is cut with trim, never a seek), so frame N is the decoder's N-th frame of the first
video stream, read with the same input options and scaled as the scoring was.  ffmpeg
decodes up to the last frame asked for, selects the frames by that number, and writes
their luma plane (extractplanes: the samples, not a conversion) as y4m into a private
directory, with each frame's time; the library's reader reads them back.  As
score_video, ffmpeg gets the input as a file: URL or the URL it is, options from
INPUT_OPTIONS, filter values escaped, and no shell.
"""

import os
import subprocess

from .files import FileError, VideoFile
from .video import (FFmpegError, _child_setup, filter_value, find_ffmpeg, frame_times,
                    input_options, input_url, remove_stale_work_dirs, scale_filter,
                    work_directory)


class Frame:
    """A decoded frame: .luma (height, width) uint8 or uint16, .bit_depth, and
    .timestamp (seconds, its pts_time; None where it has none)."""

    def __init__(self, luma, bit_depth, timestamp):
        self.luma, self.bit_depth, self.timestamp = luma, bit_depth, timestamp


# How long ffmpeg may take to decode the frames a report draws (an input option such
# as -readrate could make it take for ever).
READ_TIMEOUT = 300


def read_frames(distorted, numbers, ffmpeg=None, distorted_args=(), scaling=None,
                timeout=READ_TIMEOUT):
    """{number: Frame} of the frames numbers of a video as score_video numbers them.
    distorted, ffmpeg and distorted_args as score_video's; scaling: its Results.scale
    (scaler, width, height), the size the frames were scored at.  FFmpegError where
    ffmpeg fails, takes longer than timeout seconds (it is then stopped), or gives
    fewer frames than asked for."""
    wanted = sorted({int(n) for n in numbers})
    if not wanted:
        return {}
    if wanted[0] < 0:
        raise ValueError("frame numbers from 0, not %d" % wanted[0])
    ffmpeg = find_ffmpeg(ffmpeg)
    url, args = input_url(distorted), input_options(distorted_args, "distorted")
    chain = ["select=expr=" + filter_value("+".join("eq(n,%d)" % n for n in wanted)),
             "extractplanes=y"]
    if scaling:
        chain.append(scale_filter(scaling))
    remove_stale_work_dirs()
    with work_directory() as work:
        frames_path = os.path.join(work, "frames.y4m")
        meta = os.path.join(work, "metadata.txt")
        # metadata prints the time of a frame that has metadata: one key added first.
        chain += ["metadata=mode=add:key=floatadm.frame:value=1",
                  "metadata=mode=print:file=" + filter_value(meta)]
        command = [ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error",
                   *args, "-i", url, "-filter_complex", "[0:v]" + ",".join(chain),
                   "-fps_mode", "passthrough", "-frames:v", str(len(wanted)),
                   # y4m names gray10le etc. (mono10) only as an extension.
                   "-strict", "-1", "-f", "yuv4mpegpipe", "file:" + frames_path]
        try:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, errors="replace", preexec_fn=_child_setup(),
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise FFmpegError("ffmpeg did not decode frames %s of %s within its time limit "
                              "of %g s, and was stopped: %s" % (
                                  _numbers_text(wanted), distorted, timeout,
                                  " ".join(command)))
        if done.returncode != 0:
            raise FFmpegError("ffmpeg could not decode frames %s of %s (exit status %d): %s"
                              % (_numbers_text(wanted), distorted, done.returncode,
                                 done.stderr.strip()[-1000:]))
        times = frame_times(meta)
        if len(times) != len(wanted):
            raise FFmpegError("%s ends before frame %d (of frames %s)" % (
                distorted, wanted[min(len(times), len(wanted) - 1)], _numbers_text(wanted)))
        try:
            with VideoFile(frames_path) as video:
                video.start(video.header)
                if video.frame_count != len(wanted):
                    raise FFmpegError("%s holds %d frames, not the %d selected"
                                      % (frames_path, video.frame_count, len(wanted)))
                return {n: Frame(video.read_luma(i), video.geometry.bit_depth, times.get(i))
                        for i, n in enumerate(wanted)}
        except FileError as error:
            raise FFmpegError("the frames ffmpeg decoded from %s: %s" % (distorted, error))


def _numbers_text(numbers):
    return ", ".join("%d" % n for n in numbers)
