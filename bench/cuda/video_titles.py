#!/usr/bin/env python3
"""Encoded titles on a machine with an NVIDIA GPU: score_video(backend="cuda")'s bits
against the CPU's, its rate against its ffmpeg's NVDEC decoding, and a catalogue of
titles on one node with Dask: CPU workers alone against one GPU worker.  A benchmark,
not a test: it prints tables."""
#
# Usage (from the repository root, after make; the package and library of the build):
#   PYTHONPATH=build/python python3 bench/cuda/video_titles.py --clips CLIPS \
#       [--title h264_2160p] [--loops 19] [--titles 8] [--title-loops 4] [--runs 2]
#       [--gpu-threads N] [--gpu-decoders auto,cpu] [--check h264_1080p,hevc10_1080p]
#       [--work DIR] [--skip-catalogue]
# CLIPS: the pairs scripts/cuda/make_decoder_clips.sh makes (CASE_dist.mp4 and
# CASE_ref.mp4, 48 frames).  The ffmpeg: $FLOATADM_FFMPEG or the build's.
# --loops: the single title is the clip played loops + 1 times (stream copy);
# --titles, --title-loops: the catalogue's titles, each its own copy of the clip
# played title-loops + 1 times.  --gpu-threads: the titles the GPU worker scores at
# once (default: all); --gpu-decoders: its jobs' decoder settings tried.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import floatadm
from floatadm import video


def title(ffmpeg, clips, case, loops, out_dir, name):
    """The case's pair played loops + 1 times, stream-copied: (reference, distorted)."""
    paths = []
    for kind in ("ref", "dist"):
        path = os.path.join(out_dir, "%s_%s.mp4" % (name, kind))
        subprocess.run([ffmpeg, "-hide_banner", "-v", "error", "-nostdin", "-y",
                        "-stream_loop", str(loops), "-i",
                        os.path.join(clips, "%s_%s.mp4" % (case, kind)), "-map", "0:v",
                        "-c", "copy", path], check=True)
        paths.append(path)
    return tuple(paths)


def ffmpeg_nvdec_seconds(ffmpeg, ref, dis, graph):
    """Wall seconds of one ffmpeg on NVDEC frames, both inputs on one device: decoding
    alone (graph None) or into a graph."""
    run, each = video.cuda_options("nvdec")
    argv = [ffmpeg, "-hide_banner", "-nostdin", "-v", "error", *run,
            *each, "-i", dis, *each, "-i", ref]
    argv += (["-map", "0:v", "-map", "1:v"] if graph is None else ["-lavfi", graph])
    began = time.monotonic()
    subprocess.run(argv + ["-f", "null", "-"], check=True)
    return time.monotonic() - began


def score_seconds(ref, dis, **kwargs):
    began = time.monotonic()
    results = floatadm.score_video(reference=ref, distorted=dis, **kwargs)
    return time.monotonic() - began, results


def differing(a, b):
    """Values of a's frames that are not b's, bit for bit (a count), and the total."""
    count = total = 0
    if len(a.frames) != len(b.frames):
        return -1, 0
    for fa, fb in zip(a.frames, b.frames):
        for name in a.names:
            total += 1
            count += not (fa[name] == fb[name] or (fa[name] != fa[name] and fb[name] != fb[name]))
    return count, total


def catalogue(client, jobs, out_dir):
    from floatadm.distributed import score_catalogue
    began = time.monotonic()
    summaries = score_catalogue(jobs, client, out_dir, retries=0, progress=False,
                                resources={"GPU": 1} if jobs[0].get("backend") == "cuda"
                                else None)
    seconds = time.monotonic() - began
    logs = {}
    for s in summaries:
        with open(s["path"], encoding="utf-8") as f:
            logs[s["name"]] = json.load(f)["frames"]
    return seconds, logs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clips", required=True)
    parser.add_argument("--title", default="h264_2160p")
    parser.add_argument("--loops", type=int, default=19)
    parser.add_argument("--titles", type=int, default=8)
    parser.add_argument("--title-loops", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--gpu-threads", type=int)
    parser.add_argument("--gpu-decoders", default="auto,cpu")
    parser.add_argument("--check", default="h264_1080p,hevc10_1080p")
    parser.add_argument("--work")
    parser.add_argument("--skip-catalogue", action="store_true")
    args = parser.parse_args()
    ffmpeg = video.find_ffmpeg()
    work = args.work or tempfile.mkdtemp(prefix="video-titles-")
    os.makedirs(work, exist_ok=True)
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout
    print("GPU: %s; host: %d cores; ffmpeg %s" % (gpu.strip(), os.cpu_count(), ffmpeg))

    # Bits: NVDEC's frames and uploaded frames against the CPU, every value.
    print("\n| clip | frames | decoder | values differing from backend='cpu' |")
    print("|---|---|---|---|")
    for case in filter(None, args.check.split(",")):
        ref = os.path.join(args.clips, case + "_ref.mp4")
        dis = os.path.join(args.clips, case + "_dist.mp4")
        cpu = floatadm.score_video(reference=ref, distorted=dis, backend="cpu")
        for decoder in video.DECODERS:
            got = floatadm.score_video(reference=ref, distorted=dis, backend="cuda",
                                       decoder=decoder)
            bad, total = differing(got, cpu)
            print("| %s | %d | %s (%s) | %d of %d |" % (case, len(cpu.frames), got.decoder,
                                                      got.decoder_reason, bad, total),
                  flush=True)

    # One title: score_video against its ffmpeg's NVDEC decoding alone and with the filter.
    ref, dis = title(ffmpeg, args.clips, args.title, args.loops, work, "one")
    pairs = video.count_frames(ffmpeg, dis)
    clip = video.count_frames(ffmpeg, os.path.join(args.clips, args.title + "_dist.mp4"))
    rows = {"ffmpeg, NVDEC decoding alone": [], "ffmpeg, NVDEC + float_adm_cuda": [],
            "score_video(backend='cuda')": [], "score_video(backend='cuda', decoder='cpu')": [],
            "score_video(backend='cpu')": []}
    decoders = {}
    for _ in range(args.runs):
        rows["ffmpeg, NVDEC decoding alone"].append(ffmpeg_nvdec_seconds(ffmpeg, ref, dis, None))
        rows["ffmpeg, NVDEC + float_adm_cuda"].append(
            ffmpeg_nvdec_seconds(ffmpeg, ref, dis, "[0:v][1:v]float_adm_cuda"))
        for label, kwargs in (("score_video(backend='cuda')", {"backend": "cuda"}),
                              ("score_video(backend='cuda', decoder='cpu')",
                               {"backend": "cuda", "decoder": "cpu"}),
                              ("score_video(backend='cpu')", {"backend": "cpu"})):
            seconds, results = score_seconds(ref, dis, **kwargs)
            rows[label].append(seconds)
            decoders[label] = results.decoder
    decode = statistics.median(rows["ffmpeg, NVDEC decoding alone"])
    print("\n%s, %d pairs (the %d-frame clip %d times), wall time of the whole call, "
          "median of %d:" % (args.title, pairs, clip, args.loops + 1, args.runs))
    print("\n| run | seconds (runs) | pairs/s | of NVDEC decoding |")
    print("|---|---|---|---|")
    for label, times in rows.items():
        med = statistics.median(times)
        print("| %s%s | %.3f (%s) | %.0f | %.1f %% |" % (
            label, " [%s]" % decoders[label] if label in decoders else "", med,
            ", ".join("%.3f" % t for t in times), pairs / med, 100 * decode / med), flush=True)

    if args.skip_catalogue:
        return
    # A catalogue on this node: each title its own files.
    from distributed import Client, LocalCluster
    titles = [title(ffmpeg, args.clips, args.title, args.title_loops, work, "t%d" % i)
              for i in range(args.titles)]
    total = args.titles * video.count_frames(ffmpeg, titles[0][1])
    cores = os.cpu_count()

    def jobs(**settings):
        return [dict(reference=r, distorted=d, name="t%d" % i, kind="video", **settings)
                for i, (r, d) in enumerate(titles)]

    results = []
    with LocalCluster(n_workers=args.titles, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        seconds, cpu_logs = catalogue(client, jobs(backend="cpu"),
                                      os.path.join(work, "cat-cpu"))
        results.append(("%d CPU workers, float_adm" % args.titles, seconds, 0))
    at_once = args.gpu_threads or args.titles
    with LocalCluster(n_workers=1, threads_per_worker=at_once, processes=True,
                      resources={"GPU": at_once}, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for decoder in filter(None, args.gpu_decoders.split(",")):
            seconds, logs = catalogue(client, jobs(backend="cuda", decoder=decoder),
                                      os.path.join(work, "cat-gpu-%s" % decoder))
            bad = sum(logs[n] != cpu_logs[n] for n in cpu_logs)
            results.append(("1 GPU worker, %d titles at once, decoder=%r" % (at_once, decoder),
                            seconds, bad))
    print("\nCatalogue: %d titles of %s, %d pairs in all, on %d cores; score_catalogue's "
          "wall time (the cluster's start left out):" % (args.titles, args.title, total, cores))
    print("\n| workers | seconds | pairs/s | against the CPU workers | logs not the CPU's |")
    print("|---|---|---|---|---|")
    base = results[0][1]
    for label, seconds, bad in results:
        print("| %s | %.2f | %.0f | %.2fx | %d |" % (label, seconds, total / seconds,
                                                    base / seconds, bad), flush=True)


if __name__ == "__main__":
    main()
