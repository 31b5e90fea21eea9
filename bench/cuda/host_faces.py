#!/usr/bin/env python3
# Frames from host memory through every face, GPU against the CPU at all its threads,
# one or more builds in the same run.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

"""The faces of float_adm on frames from host memory: Scorer.score_frames on arrays in
memory, score_files and float_adm_score on raw yuv420p files (in /dev/shm), each on the
CUDA device and on the CPU at all the host's threads, for each build given (the same
frames, in the same run), and the same frames' scores, bit for bit, across every face,
backend and build.  Then, with --corpus, the faces' parity on the corpus: float_adm_score
and score_files on the GPU against the CPU, and Scorer.score_frames with its arrays pinned
in place and copied.

Each row: ms a pair of wall time and of CPU time (getrusage: the process's, every
thread; float_adm_score's through wait4), their ratio (cores), the speed against
the CPU path of the same build and face, and the fastest and slowest of the runs (the
figures are the runs' medians; a target is met only where the slowest run meets it).  Arrays are timed inside one process after a
warm-up; files over two lengths, whose difference leaves out a process's start (the
CUDA driver's, the files' first reads).

  host_faces.py --build new=DIR [--build base=DIR] [--sizes 3840x2160,1920x1080]
                [--dir /dev/shm] [--runs 2] [--corpus tests/corpus] [--json OUT]

A build DIR holds bin/float_adm_score, lib/shared/libfloatadm.so.1 (and
libfloatadm_cuda.so.1) and python/floatadm.  Exit 1 where any scores differ or a face
fails; the timings are reported, not judged, but for the targets' line.  Needs python3
with numpy (no pytest).
"""

import argparse
import hashlib
import json
import lzma
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

PAIRS = 8  # distinct frame pairs; frame k of every face is pair k % PAIRS
WARMUP = 10
# (width, height): frames of arrays timed, files' two lengths.  The lengths differ by
# about half a second of a GPU face's time: a process's start (the driver's, the
# context's) moves by tens of ms from run to run, which a tenth of a second (96 frames
# at 4K) turned into 30 % between runs of the same build.
FRAMES = {(3840, 2160): (400, (16, 416)), (1920, 1080): (1000, (32, 1232))}
TARGETS = {"arrays_ms": 0.9, "files_ms": 1.5, "speedup": 2.0, "cores": 1.0}


def make_pairs(width, height):
    """PAIRS (reference, distorted) 8-bit luma pairs: a texture and noise, the distorted
    softened and noisier; the same in every process."""
    rng = np.random.default_rng(20261206)
    x = np.arange(width, dtype=np.float32)
    y = np.arange(height, dtype=np.float32)
    pairs = []
    for k in range(PAIRS):
        texture = 128 + 70 * np.outer(np.cos(y * (0.021 + 0.003 * k)),
                                      np.sin(x * (0.013 + 0.002 * k)))
        ref = np.clip(texture + rng.normal(0, 10, (height, width)), 0, 255).astype(np.uint8)
        soft = (ref.astype(np.float32) + np.roll(ref, 1, 0) + np.roll(ref, 1, 1) +
                np.roll(ref, -1, 1)) / 4
        dis = np.clip(soft + rng.normal(0, 3, (height, width)), 0, 255).astype(np.uint8)
        pairs.append((ref, dis))
    return pairs


def digest(frames, names=None):
    """sha256 of every frame's outputs, by name, as doubles (NaN and null alike)."""
    h = hashlib.sha256()
    for frame in frames:
        for name in sorted(names or (n for n in frame if n not in ("frame", "frameNum"))):
            value = frame.get(name)
            if value is None or value != value:
                h.update(b"nan")
            else:
                h.update(struct.pack("<d", float(value)))
    return h.hexdigest()[:16]


def cpu_seconds(usage):
    return usage.ru_utime + usage.ru_stime


# ---- children: each face of one build, run with that build's package and libraries ----

def child_score_frames(args):
    import floatadm
    # Each plane an allocation of its own, as a caller's arrays are: pinned in place, two
    # planes sharing a page could not both be.  Three copies of the pairs, as new arrays:
    # pinned in place, the scorer holds a frame's arrays a few frames after its scores,
    # and arrays still pinned could not be pinned again.
    loaded = np.load(args.pairs)["pairs"]
    pairs = [(np.array(ref), np.array(dis)) for _ in range(3) for ref, dis in loaded]
    height, width = pairs[0][0].shape
    extra = {"upload": args.upload} if args.upload else {}
    with floatadm.Scorer(width, height, 8, backend=args.backend, threads=args.threads,
                         **extra) as scorer:
        list(scorer.score_frames(pairs[k % len(pairs)] for k in range(WARMUP)))
        began, usage = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
        scores = list(scorer.score_frames(pairs[k % len(pairs)] for k in range(args.frames)))
        wall = time.monotonic() - began
        cpu = cpu_seconds(resource.getrusage(resource.RUSAGE_SELF)) - cpu_seconds(usage)
        backend = scorer.backend
    return {"ms": wall * 1e3 / args.frames, "cpu_ms": cpu * 1e3 / args.frames,
            "digest": digest(scores), "backend": backend}


def child_score_files(args):
    import floatadm
    short, long = args.lengths
    geometry = dict(width=args.width, height=args.height, pix_fmt="yuv420p")

    def run(frames):
        began, usage = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
        results = floatadm.score_files(reference=args.ref, distorted=args.dis, frames=frames,
                                       backend=args.backend, threads=args.threads, **geometry)
        return (time.monotonic() - began,
                cpu_seconds(resource.getrusage(resource.RUSAGE_SELF)) - cpu_seconds(usage),
                results)

    run(4)  # the driver, the kernels, the files' pages
    wall_short, cpu_short, _ = run(short)
    wall_long, cpu_long, results = run(long)
    frames = long - short
    return {"ms": (wall_long - wall_short) * 1e3 / frames,
            "cpu_ms": (cpu_long - cpu_short) * 1e3 / frames,
            "digest": digest(results.frames, results.names)}


def child_parity(args):
    """Every corpus clip through score_files and Scorer.score_frames on both backends."""
    import floatadm
    from floatadm.files import Geometry, VideoFile
    with open(args.golden, encoding="utf-8") as f:
        fixtures = json.load(f)["fixtures"]
    report = []
    for fx in fixtures:
        name, width, height, pix_fmt = fx["name"], fx["width"], fx["height"], fx["pix_fmt"]
        ref = os.path.join(args.corpus_dir, name + ".ref.yuv")
        dis = os.path.join(args.corpus_dir, name + ".dis.yuv")
        geometry = dict(width=width, height=height, pix_fmt=pix_fmt)
        cpu = floatadm.score_files(reference=ref, distorted=dis, debug=True, **geometry)
        want = digest(cpu.frames, cpu.names)
        got = {"score_files cuda": floatadm.score_files(reference=ref, distorted=dis,
                                                         backend="cuda", debug=True,
                                                         **geometry)}
        g = Geometry(width, height, pix_fmt)
        arrays = []
        with VideoFile(ref) as r, VideoFile(dis) as d:
            r.start(g)
            d.start(g)
            arrays = [(r.read_luma(k), d.read_luma(k)) for k in range(r.frame_count)]
        for upload in ("in_place", "copy"):
            with floatadm.Scorer(width, height, g.bit_depth, backend="cuda", debug=True,
                                 upload=upload) as scorer:
                frames = list(scorer.score_frames(arrays * 3))
            got["score_frames cuda %s x3" % upload] = frames
        for face, result in got.items():
            frames = result.frames if hasattr(result, "frames") else result
            expected = want if face.startswith("score_files") else \
                digest(cpu.frames * 3, cpu.names)
            report.append({"clip": name, "face": face, "frames": len(frames),
                           "same": digest(frames, cpu.names) == expected})
    return report


# ---- the parent ----

def library_env(build):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(build, "python")
    for name, variable in (("libfloatadm", "FLOATADM_LIBRARY"),
                           ("libfloatadm_cuda", "FLOATADM_CUDA_LIBRARY")):
        path = os.path.join(build, "lib", "shared", name + ".so.1")
        if os.path.exists(path):
            env[variable] = os.path.abspath(path)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_child(build, mode, arguments, timeout=300):
    command = [sys.executable, os.path.abspath(__file__), "--child", mode] + arguments
    out = subprocess.run(command, env=library_env(build), capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or ["(nothing on stderr)"]
        raise RuntimeError("%s: exit %d: %s" % (mode, out.returncode, lines[-1]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_cli(build, ref, dis, width, height, frames, backend, threads, out_json):
    """float_adm_score once: (wall s, CPU s of the process and its threads, its JSON)."""
    command = [os.path.join(build, "bin", "float_adm_score"), "--reference", ref,
               "--distorted", dis, "--width", str(width), "--height", str(height),
               "--pix-fmt", "yuv420p", "--frames", str(frames), "--backend", backend,
               "--threads", str(threads), "--quiet", "--json", out_json]
    began = time.monotonic()
    with open(out_json + ".err", "w") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - began
    code = process.returncode = os.waitstatus_to_exitcode(status)
    if code != 0:
        with open(out_json + ".err") as err:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(command), code, err.read().strip()))
    with open(out_json) as f:
        log = json.load(f)
    return wall, cpu_seconds(usage), [f["metrics"] for f in log["frames"]]


def write_yuv(path, planes, frames, width, height):
    chroma = bytes([128]) * (2 * ((width + 1) // 2) * ((height + 1) // 2))
    with open(path, "wb") as f:
        for k in range(frames):
            f.write(planes[k % PAIRS].tobytes())
            f.write(chroma)


def median_row(rows):
    """The runs' medians, and the fastest and slowest run: one face's runs on one host
    spread by more than most changes move it."""
    return {"ms": statistics.median(r["ms"] for r in rows),
            "ms_min": min(r["ms"] for r in rows), "ms_max": max(r["ms"] for r in rows),
            "cpu_ms": statistics.median(r["cpu_ms"] for r in rows),
            "digest": rows[0]["digest"], "digests": {r["digest"] for r in rows}}


def bench_size(builds, width, height, work, runs, threads, log):
    arrays_frames, (short, long) = FRAMES.get((width, height), (96, (32, 96)))
    pairs = make_pairs(width, height)
    pairs_file = os.path.join(work, "pairs.npz")
    np.savez(pairs_file, pairs=np.array(pairs))
    ref, dis = os.path.join(work, "ref.yuv"), os.path.join(work, "dis.yuv")
    write_yuv(ref, [p[0] for p in pairs], long, width, height)
    write_yuv(dis, [p[1] for p in pairs], long, width, height)
    rows = []

    def record(face, build, backend, measure, extra=""):
        label = "%s %s" % (backend, extra) if extra else backend
        try:
            results = [measure() for _ in range(runs)]
            row = dict(median_row(results), face=face, build=build, backend=label, error=None)
        except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as error:
            row = dict(face=face, build=build, backend=label, error=str(error))
        rows.append(row)
        log("  %-22s %-6s %-22s %s" % (face, build, label, "FAILED: " + row["error"]
                                        if row["error"] else "%.3f ms, %.3f CPU ms" %
                                        (row["ms"], row["cpu_ms"])))

    for name, build in builds:
        cpu = "cpu %d threads" % threads
        # The new build's arrays in both of its upload modes; an older build has none.
        modes = ("in_place", "copy") if name == builds[0][0] else (None,)
        for backend, upload in [("cuda", mode) for mode in modes] + [("cpu", None)]:
            arguments = ["--pairs", pairs_file, "--frames", str(arrays_frames), "--backend",
                         backend, "--threads", str(threads if backend == "cpu" else 1)]
            if upload:
                arguments += ["--upload", upload]
            record("arrays score_frames", name, cpu if backend == "cpu" else backend,
                   lambda a=arguments, b=build: run_child(b, "score_frames", a), upload)
        for backend in ("cuda", "cpu"):
            arguments = ["--ref", ref, "--dis", dis, "--width", str(width), "--height",
                         str(height), "--lengths", "%d,%d" % (short, long), "--backend",
                         backend, "--threads", str(threads if backend == "cpu" else 1)]
            record("files score_files", name, cpu if backend == "cpu" else backend,
                   lambda a=arguments, b=build: run_child(b, "score_files", a))
        for backend in ("cuda", "cpu"):
            t = threads if backend == "cpu" else 1

            def cli(b=build, backend=backend, t=t):
                out = os.path.join(work, "cli.json")
                run_cli(b, ref, dis, width, height, 4, backend, t, out)  # page cache, JIT cache
                wall_s, cpu_s, _ = run_cli(b, ref, dis, width, height, short, backend, t, out)
                wall_l, cpu_l, frames = run_cli(b, ref, dis, width, height, long, backend, t, out)
                return {"ms": (wall_l - wall_s) * 1e3 / (long - short),
                        "cpu_ms": (cpu_l - cpu_s) * 1e3 / (long - short),
                        "digest": digest(frames)}
            record("files float_adm_score", name, cpu if backend == "cpu" else backend, cli)
    for path in (ref, dis, pairs_file):
        os.unlink(path)
    return rows, long, arrays_frames


def check_bits(rows, long, arrays_frames, log):
    """Every face's frames are pairs k % PAIRS: the arrays' frames and the files' longer
    run are each one digest, whatever the face, backend or build."""
    failures = 0
    for face_kind, frames in (("arrays", arrays_frames), ("files", long)):
        digests = {}
        for row in rows:
            if row["error"] is None and row["face"].startswith(face_kind):
                for d in row["digests"]:
                    digests.setdefault(d, []).append("%s %s %s" % (row["face"], row["build"],
                                                                   row["backend"]))
        if len(digests) > 1:
            failures += 1
            log("  DIFFERENT %s scores of %d frames: %s" % (
                face_kind, frames, "; ".join("%s: %s" % (d, ", ".join(w))
                                             for d, w in digests.items())))
        elif digests:
            log("  same bits: %d %s rows, %d frames each (%s)" % (
                sum(len(w) for w in digests.values()), face_kind, frames, next(iter(digests))))
    return failures


def print_table(size, rows, threads, out):
    out("\n%s 8-bit, CPU at %d threads          build   backend              ms/pair  "
        "CPU ms/pair  cores   vs CPU  runs' range" % (size, threads))
    cpu_ms = {(r["face"], r["build"]): r["ms"] for r in rows
              if r["error"] is None and r["backend"].startswith("cpu")}
    for r in rows:
        if r["error"]:
            out("  %-34s %-7s %-20s FAILED: %s" % (r["face"], r["build"], r["backend"],
                                                   r["error"][-160:]))
            continue
        base = cpu_ms.get((r["face"], r["build"]))
        out("  %-34s %-7s %-20s %7.3f %11.3f %6.2f %7.2fx  %.3f-%.3f" % (
            r["face"], r["build"], r["backend"], r["ms"], r["cpu_ms"], r["cpu_ms"] / r["ms"],
            base / r["ms"] if base else 0, r["ms_min"], r["ms_max"]))


def targets(size, rows, new, out):
    """The targets' line for the new build at 3840x2160: arrays <= 0.9 ms, files <= 1.5 ms,
    each >= 2x the CPU at all threads and at most a core a stream."""
    cpu = {r["face"]: r["ms"] for r in rows if r["build"] == new and r["error"] is None
           and r["backend"].startswith("cpu")}
    for r in rows:
        if r["build"] != new or r["error"] or not r["backend"].startswith("cuda"):
            continue
        limit = TARGETS["arrays_ms" if r["face"].startswith("arrays") else "files_ms"]
        speedup = cpu.get(r["face"], 0) / r["ms"]
        cores = r["cpu_ms"] / r["ms"]
        verdict = ("met" if r["ms_max"] <= limit and speedup >= TARGETS["speedup"] and
                   cores <= TARGETS["cores"] else "NOT met")
        out("  target %-9s %-22s %-18s <= %.1f ms: %.3f (slowest run %.3f), >= 2x CPU: %.2fx, "
            "<= 1 core: %.2f: %s" % (size, r["face"], r["backend"], limit, r["ms"], r["ms_max"],
                                     speedup, cores, verdict))


def parity(builds, corpus, work, log):
    """The corpus through float_adm_score (GPU against CPU) and, in one process of the
    new build, through score_files and Scorer.score_frames."""
    with open(os.path.join(corpus, "golden.json"), encoding="utf-8") as f:
        fixtures = json.load(f)["fixtures"]
    clips = os.path.join(work, "corpus")
    os.makedirs(clips, exist_ok=True)
    for name in os.listdir(corpus):
        if name.endswith(".yuv.xz"):
            with lzma.open(os.path.join(corpus, name)) as src, \
                    open(os.path.join(clips, name[:-3]), "wb") as dst:
                shutil.copyfileobj(src, dst)
    name, build = builds[0]
    failures = 0
    for fx in fixtures:
        ref = os.path.join(clips, fx["name"] + ".ref.yuv")
        dis = os.path.join(clips, fx["name"] + ".dis.yuv")
        logs = {}
        for backend in ("cpu", "cuda"):
            out = os.path.join(work, "parity_%s.json" % backend)
            command = [os.path.join(build, "bin", "float_adm_score"), "--reference", ref,
                       "--distorted", dis, "--width", str(fx["width"]), "--height",
                       str(fx["height"]), "--pix-fmt", fx["pix_fmt"], "--backend", backend,
                       "--feature", "float_adm=debug=1", "--quiet", "--json", out]
            done = subprocess.run(command, capture_output=True, text=True, timeout=120)
            if done.returncode == 0:
                with open(out) as f:
                    logs[backend] = [frame["metrics"] for frame in json.load(f)["frames"]]
            else:
                logs[backend] = done.stderr.strip()
        same = isinstance(logs["cuda"], list) and logs["cuda"] and \
            digest(logs["cuda"]) == digest(logs["cpu"])
        failures += not same
        log("  %-4s %-40s float_adm_score cuda vs cpu: %s" % (
            "ok" if same else "FAIL", fx["name"],
            "%d frames, 0 bits" % len(logs["cuda"]) if same else str(logs["cuda"])[:300]))
    try:
        report = run_child(build, "parity", ["--corpus-dir", clips, "--golden",
                                             os.path.join(corpus, "golden.json")], timeout=600)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        log("  FAIL Python faces: %s" % error)
        return failures + 1
    for entry in report:
        failures += not entry["same"]
        log("  %-4s %-40s %-30s %d frames%s" % ("ok" if entry["same"] else "FAIL", entry["clip"],
                                               entry["face"], entry["frames"],
                                               ", 0 bits" if entry["same"] else ": DIFFERENT"))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--build", action="append", default=[], metavar="NAME=DIR",
                        help="a build to time; the first is the new one")
    parser.add_argument("--sizes", default="3840x2160,1920x1080")
    parser.add_argument("--dir", default="/dev/shm", help="where the raw files are written")
    parser.add_argument("--runs", type=int, default=2, help="runs of each row (median)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(),
                        help="the CPU path's threads (default: all)")
    parser.add_argument("--corpus", help="tests/corpus: the faces' parity on it")
    parser.add_argument("--json", help="every row, as JSON, here")
    # The children's arguments.
    parser.add_argument("--pairs")
    parser.add_argument("--frames", type=int)
    parser.add_argument("--backend")
    parser.add_argument("--upload")
    parser.add_argument("--ref")
    parser.add_argument("--dis")
    parser.add_argument("--width", type=int)
    parser.add_argument("--height", type=int)
    parser.add_argument("--lengths", type=lambda t: [int(v) for v in t.split(",")])
    parser.add_argument("--corpus-dir")
    parser.add_argument("--golden")
    args = parser.parse_args()
    if args.child:
        args.threads = args.threads or 1
        child = {"score_frames": child_score_frames, "score_files": child_score_files,
                 "parity": child_parity}[args.child]
        print(json.dumps(child(args)))
        return 0

    builds = []
    for given in args.build:
        name, _, path = given.partition("=")
        if not os.path.isdir(path):
            parser.error("--build %s: no such directory" % given)
        builds.append((name, os.path.abspath(path)))
    if not builds:
        parser.error("--build NAME=DIR: at least one")

    def log(text):
        print(text, flush=True)

    work = tempfile.mkdtemp(prefix="host_faces.", dir=args.dir)
    failures = 0
    everything = {}
    try:
        free = os.statvfs(args.dir)
        log("files in %s (%.1f GB free); CPU path on %d threads; %d runs a row; builds: %s" % (
            args.dir, free.f_bavail * free.f_frsize / 1e9, args.threads, args.runs,
            ", ".join("%s=%s" % b for b in builds)))
        tables = []
        for size in args.sizes.split(","):
            width, height = (int(v) for v in size.split("x"))
            log("\n== %s" % size)
            rows, long, arrays_frames = bench_size(builds, width, height, work, args.runs,
                                                   args.threads, log)
            failures += check_bits(rows, long, arrays_frames, log)
            failures += sum(r["error"] is not None for r in rows)
            tables.append((size, rows))
            everything[size] = [{k: v for k, v in r.items() if k != "digests"} for r in rows]
        if args.corpus:
            log("\n== the corpus through the faces (%s build)" % builds[0][0])
            failures += parity(builds, args.corpus, work, log)
        for size, rows in tables:
            print_table(size, rows, args.threads, log)
        log("")
        for size, rows in tables:
            if size == "3840x2160":  # where the targets are set
                targets(size, rows, builds[0][0], log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1)
    log("\nFACES: %s" % ("every face gave the same bits" if not failures
                         else "%d FAILURES (different scores or failed runs)" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
