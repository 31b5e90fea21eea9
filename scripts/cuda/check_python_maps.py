# The Python package's CUDA maps against its CPU maps, on a machine with an NVIDIA GPU:
# floatadm.Scorer(backend="cuda").score(map=True) and score_files(backend="cuda",
# map=True) give every block's loss and every scale's sums with the CPU's 64 (32) bits,
# and the same scores, over corpus clips (8, 10 and 12 bits, partial blocks at the
# edges), with default options and with adm_enhn_gain_limit=1.2.  Needs python3 and
# numpy only; run by check_python_maps.sh, which says where the libraries are.
# Prints one line per clip and option set, then SUMMARY; exits 1 on any difference.
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import lzma
import os
import shutil
import struct
import sys
import tempfile

import floatadm
from floatadm.files import open_pair

CLIPS = ("astronaut_576x324_yuv420p_x264", "coins_384x304_yuv420p10le_x265",
         "camera_512x384_yuv444p12le_noise", "brick_63x65_yuv444p10le_scale")
OPTION_SETS = ({}, {"adm_enhn_gain_limit": 1.2})


def decompress(corpus, clip, work):
    paths = []
    for kind in ("ref", "dis"):
        path = os.path.join(work, "%s.%s.yuv" % (clip, kind))
        with lzma.open(os.path.join(corpus, "%s.%s.yuv.xz" % (clip, kind))) as src, \
                open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        paths.append(path)
    return paths


def same_scores(a, b):
    return list(a) == list(b) and all(struct.pack("<d", a[k]) == struct.pack("<d", b[k])
                                      for k in a)


def differences(cpu_map, gpu_map):
    """What differs between two FrameMaps, as text; empty where every bit agrees."""
    found = []
    if cpu_map.loss.tobytes() != gpu_map.loss.tobytes():
        found.append("loss (%d of %d blocks)" % ((cpu_map.loss.view("<u4") !=
                                                  gpu_map.loss.view("<u4")).sum(),
                                                 cpu_map.loss.size))
    for scale in range(4):
        for name in ("num", "den"):
            if getattr(cpu_map, name)[scale].tobytes() != getattr(gpu_map, name)[scale].tobytes():
                found.append("%s of scale %d" % (name, scale))
    if cpu_map.lost.tobytes() != gpu_map.lost.tobytes():
        found.append("lost detail")
    return found


def fixture(corpus, clip):
    """A corpus clip's entry of golden.json: its size and pixel format."""
    with open(os.path.join(corpus, "golden.json"), encoding="utf-8") as f:
        return next(x for x in json.load(f)["fixtures"] if x["name"] == clip)


def check_clip(corpus, clip, options, work):
    """Frame by frame through Scorer, then the whole clip through score_files."""
    f = fixture(corpus, clip)
    reference, distorted = decompress(corpus, clip, work)
    problems, blocks = [], None
    ref, dis, geometry = open_pair(reference, distorted, f["width"], f["height"], f["pix_fmt"])
    with ref, dis, \
            floatadm.Scorer(geometry.width, geometry.height, geometry.bit_depth,
                            **options) as cpu, \
            floatadm.Scorer(geometry.width, geometry.height, geometry.bit_depth,
                            backend="cuda", **options) as gpu:
        if gpu.map_shape != cpu.map_shape:
            problems.append("map_shape %s, the CPU's %s" % (gpu.map_shape, cpu.map_shape))
        for index in range(ref.frame_count):
            planes = ref.read_luma(index), dis.read_luma(index)
            want, want_map = cpu.score(*planes, map=True)
            got, got_map = gpu.score(*planes, map=True)
            blocks = want_map.loss.size
            if not same_scores(got, want):
                problems.append("frame %d: scores differ" % index)
            for what in differences(want_map, got_map):
                problems.append("frame %d: %s" % (index, what))
        frames = ref.frame_count
    args = dict(reference=reference, distorted=distorted, width=f["width"],
                height=f["height"], pix_fmt=f["pix_fmt"])
    want = floatadm.score_files(**args, map=True, **options)
    got = floatadm.score_files(**args, map=True, backend="cuda", **options)
    if got.maps.tobytes() != want.maps.tobytes():
        problems.append("score_files: maps differ")
    if got.lost.tobytes() != want.lost.tobytes():
        problems.append("score_files: lost detail differs")
    if any(not same_scores({n: g[n] for n in got.names}, {n: w[n] for n in want.names})
           for g, w in zip(got.frames, want.frames)):
        problems.append("score_files: scores differ")
    return frames, blocks, problems


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join("tests", "corpus")
    count = floatadm.cuda_device_count()
    if count == 0:
        print("FAIL: no CUDA device: %s" % floatadm.cuda_device_count.why)
        return 1
    print("floatadm %s, %d CUDA device(s)" % (floatadm.version(), count))
    failed = checked = 0
    with tempfile.TemporaryDirectory(prefix="floatadm-maps-") as work:
        for clip in CLIPS:
            for options in OPTION_SETS:
                frames, blocks, problems = check_clip(corpus, clip, options, work)
                label = " ".join("%s=%s" % kv for kv in options.items()) or "defaults"
                checked += 1
                if problems:
                    failed += 1
                    print("%s %s: DIFFERENT: %s" % (clip, label, "; ".join(problems)))
                else:
                    print("%s %s: %d frames, %d blocks each: loss, sums and scores identical"
                          % (clip, label, frames, blocks))
    print("SUMMARY: %d of %d cases identical (CPU vs CUDA maps through floatadm)"
          % (checked - failed, checked))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
