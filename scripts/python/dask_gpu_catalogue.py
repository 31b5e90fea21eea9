#!/usr/bin/env python3
# Scores the corpus as a catalogue on a Dask cluster with one worker per GPU and some
# CPU workers, and a split title on the GPU workers; checks every log against
# float_adm_score's (bit for bit) and prints titles/s and frames/s of each run.
#
# Usage (from the repository root, after make):
#   PYTHONPATH=build/python python3 scripts/python/dask_gpu_catalogue.py \
#       [--gpus N] [--cpu-workers M] [--copies K] [--work DIR]
# --gpus N: one worker per GPU, CUDA_VISIBLE_DEVICES=0..N-1, each offering GPU=1.
# --copies K: the catalogue holds each corpus clip K times (distinct names), so that
# the run is long enough to time.  A machine without Dask can use the interpreter of
# scripts/python/offline-dask-env.sh.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import lzma
import os
import shutil
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "corpus")


def unpack_corpus(work):
    """The corpus's raw pairs in work/corpus; [(name, width, height, pix_fmt, ref, dis)]."""
    with open(os.path.join(CORPUS, "golden.json"), encoding="utf-8") as f:
        fixtures = json.load(f)["fixtures"]
    out = os.path.join(work, "corpus")
    os.makedirs(out, exist_ok=True)
    clips = []
    for fx in fixtures:
        paths = []
        for side in ("ref", "dis"):
            path = os.path.join(out, fx[side][:-3])
            if not os.path.exists(path):
                with lzma.open(os.path.join(CORPUS, fx[side])) as src, open(path, "wb") as dst:
                    shutil.copyfileobj(src, dst)
            paths.append(path)
        clips.append((fx["name"], fx["width"], fx["height"], fx["pix_fmt"], *paths))
    return clips


def cli_log(score_bin, clip, out):
    name, width, height, pix_fmt, ref, dis = clip
    subprocess.run([score_bin, "--reference", ref, "--distorted", dis, "--width", str(width),
                    "--height", str(height), "--pix-fmt", pix_fmt, "--json", out, "--quiet",
                    "--backend", "cpu"], check=True, capture_output=True)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def bits(value):
    return struct.pack("<d", float(value))


def differing_values(log, want):
    """How many per-frame and pooled values of log differ in any bit from want's."""
    diff = 0
    if len(log["frames"]) != len(want["frames"]):
        return max(len(log["frames"]), len(want["frames"]))
    for got_frame, want_frame in zip(log["frames"], want["frames"]):
        for name, value in want_frame["metrics"].items():
            diff += bits(got_frame["metrics"].get(name, "nan")) != bits(value)
    for name, stats in want["pooled_metrics"].items():
        for key, value in stats.items():
            diff += bits(log["pooled_metrics"].get(name, {}).get(key, "nan")) != bits(value)
    return diff


def start_gpu_workers(address, gpus):
    workers = []
    for gpu in range(gpus):
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu))
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
             "--nthreads", "1", "--resources", "GPU=1", "--name", "gpu%d" % gpu,
             "--no-dashboard"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return workers


def timed_catalogue(client, jobs, out, resources):
    from floatadm.distributed import score_catalogue
    start = time.perf_counter()
    summaries = score_catalogue(jobs, client, out, resources=resources, progress=False)
    seconds = time.perf_counter() - start
    frames = sum(s.get("frames", 0) for s in summaries)
    return summaries, seconds, frames


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gpus", type=int, default=1)
    parser.add_argument("--cpu-workers", type=int, default=2)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--work", default="/tmp/floatadm-dask-gpu")
    parser.add_argument("--score-bin", default=os.path.join(ROOT, "build", "bin",
                                                           "float_adm_score"))
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    os.makedirs(args.work, exist_ok=True)
    clips = unpack_corpus(args.work)
    want = {clip[0]: cli_log(args.score_bin, clip, os.path.join(args.work, clip[0] + ".cli.json"))
            for clip in clips}

    cluster = LocalCluster(n_workers=args.cpu_workers, threads_per_worker=1,
                           processes=True, dashboard_address=None)
    client = Client(cluster)
    gpu_workers = start_gpu_workers(cluster.scheduler_address, args.gpus)
    client.wait_for_workers(args.cpu_workers + args.gpus, timeout=120)
    failures = 0
    try:
        runs = [("cpu", "cpu", None)]
        if args.gpus:
            runs.insert(0, ("gpu", "cuda", {"GPU": 1}))
        for label, backend, resources in runs:
            jobs = [{"reference": ref, "distorted": dis, "width": w, "height": h,
                     "pix_fmt": fmt, "backend": backend, "name": "%s-%d" % (name, copy)}
                    for copy in range(args.copies) for name, w, h, fmt, ref, dis in clips]
            out = os.path.join(args.work, label)
            shutil.rmtree(out, ignore_errors=True)
            summaries, seconds, frames = timed_catalogue(client, jobs, out, resources)
            differing = 0
            for summary in summaries:
                with open(summary["path"], encoding="utf-8") as f:
                    differing += differing_values(json.load(f),
                                                  want[summary["name"].rsplit("-", 1)[0]])
            failures += differing != 0
            print("%s catalogue: %d titles, %d frames in %.2f s: %.2f titles/s, %.1f frames/s; "
                  "%d values differ from float_adm_score" % (
                      label, len(jobs), frames, seconds, len(jobs) / seconds, frames / seconds,
                      differing))

        from floatadm.distributed import score_segments
        name, w, h, fmt, ref, dis = next(c for c in clips if c[0] == "rocket_1920x1080_yuv420p_vp9")
        merged = score_segments(ref, dis, client, 1, resources={"GPU": 1} if args.gpus else None,
                                width=w, height=h, pix_fmt=fmt,
                                backend="cuda" if args.gpus else "cpu", progress=False,
                                output=os.path.join(args.work, "split.json"))
        with open(os.path.join(args.work, "split.json"), encoding="utf-8") as f:
            differing = differing_values(json.load(f), want[name])
        failures += differing != 0
        print("split title %s: %d frames in segments of 1; %d values differ "
              "from float_adm_score" % (name, len(merged.frames), differing))
    finally:
        client.close()
        cluster.close()
        for worker in gpu_workers:
            worker.terminate()
            worker.wait()
    print("dask_gpu_catalogue: %s" % ("exact" if failures == 0 else "DIFFERENCES"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
