#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Whole-process time of float_adm_score and the filter per thread count, against vmaf's float_adm.

Generates a 1920x1080 pair (96 frames) and a 3840x2160 pair (24 frames) of yuv420p
(smooth noise that moves, and its blurred, noisier copy; numpy only), then times each
given float_adm_score binary with --threads 1, 2, 4, 8, 16 (and vmaf with --threads N
--feature float_adm -n, where --vmaf names it; with --ffmpeg, an ffmpeg with the filter
under -filter_complex_threads N, and its psnr filter on the same pair for comparison)
on the same inputs in one run,
interleaved, each the median of --runs runs.  With --independent, also N copies of the
first binary at one thread each, started at once (the same work with nothing shared:
how far threads are from what the host's cores give), and N copies of a compute loop
(the host's own ceiling: what N cores give N programs that share nothing, not even
memory traffic).  Prints a Markdown table per size:
milliseconds per frame, and each tool's speed-up over its own one thread.  The scores
of every float_adm_score run are checked to be identical, byte for byte (CSV logs),
and so are those of every filter run.

    bench/cpu_threads.py --label before=old/float_adm_score \\
        --label after=build/bin/float_adm_score --vmaf /usr/local/bin/vmaf \\
        --ffmpeg build/bin/ffmpeg

Run it on an idle machine with at least as many cores as the largest thread count.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time



def generate(path_ref, path_dist, width, height, frames):
    """A yuv420p pair: moving smooth noise plus grain; the distorted one blurred."""
    import numpy as np

    rng = np.random.default_rng(width * 7919 + frames)
    coarse = rng.random((height // 8 + 2, width // 8 + 2), dtype=np.float32)
    base = np.kron(coarse, np.ones((8, 8), dtype=np.float32))
    for _ in range(2):  # soften the blocks
        base = (base + np.roll(base, 4, 0) + np.roll(base, 4, 1) + np.roll(base, 4, (0, 1))) / 4
    chroma = np.full(width * height // 2, 128, dtype=np.uint8).tobytes()
    with open(path_ref, "wb") as ref, open(path_dist, "wb") as dist:
        for f in range(frames):
            shifted = base[f % 8 : f % 8 + height, 2 * f % 16 : 2 * f % 16 + width]
            grain = rng.normal(0, 6, (height, width)).astype(np.float32)
            luma = np.clip(40 + 170 * shifted + grain, 0, 255)
            blurred = (luma + np.roll(luma, 1, 0) + np.roll(luma, 1, 1) + np.roll(luma, -1, 1)) / 4
            noisy = blurred + rng.normal(0, 3, (height, width)).astype(np.float32)
            ref.write(luma.astype(np.uint8).tobytes() + chroma)
            dist.write(np.clip(noisy, 0, 255).astype(np.uint8).tobytes() + chroma)


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def timed_together(commands):
    """Seconds from starting all the commands at once until the last one ends."""
    start = time.perf_counter()
    processes = [subprocess.Popen(command, stdout=subprocess.DEVNULL) for command in commands]
    for process, command in zip(processes, commands):
        if process.wait() != 0:
            raise subprocess.CalledProcessError(process.returncode, command)
    return time.perf_counter() - start


# A loop of arithmetic alone (no memory traffic, one core): how much N of them at once
# get from N cores of this host, the most any program can.
COMPUTE_LOOP = "s = 0\nfor i in range(6000000):\n    s += i * i\n"


def host_ceiling(threads, runs):
    """Speed-up of N copies of a compute loop run at once, over one, for each N."""
    alone = statistics.median(timed([sys.executable, "-c", COMPUTE_LOOP]) for _ in range(runs))
    return {t: t * alone / statistics.median(
        timed_together([[sys.executable, "-c", COMPUTE_LOOP]] * t) for _ in range(runs))
        for t in threads}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--label", action="append", required=True,
                        help="NAME=PATH of a float_adm_score binary (repeatable)")
    parser.add_argument("--vmaf", help="a vmaf binary (libvmaf's tool), run beside them")
    parser.add_argument("--ffmpeg", help="an ffmpeg with the float_adm filter, run beside them")
    parser.add_argument("--independent", action="store_true",
                        help="also run N copies of the first binary at --threads 1 at once "
                        "(what N cores give whole-frame work with nothing shared), and N "
                        "copies of a compute loop (what they give any program)")
    parser.add_argument("--threads", default="1,2,4,8,16")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1920x1080x96,3840x2160x24",
                        help="WIDTHxHEIGHTxFRAMES,... of the generated pairs")
    parser.add_argument("--work", default="/dev/shm" if os.path.isdir("/dev/shm") else None,
                        help="where the inputs are written (default /dev/shm)")
    args = parser.parse_args()
    tools = [tuple(label.split("=", 1)) for label in args.label]
    threads = [int(t) for t in args.threads.split(",")]
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    work = tempfile.mkdtemp(prefix="float_adm_bench.", dir=args.work)
    print(f"cores: {os.cpu_count()}; inputs in {work}; medians of {args.runs}", flush=True)
    try:
        if args.independent:
            ceiling = host_ceiling(threads, args.runs)
            print("\ncompute loop, N copies at once over one: " +
                  ", ".join(f"{t}: {r:.1f}x" for t, r in ceiling.items()), flush=True)
        for width, height, frames in sizes:
            ref = os.path.join(work, f"ref_{width}x{height}.yuv")
            dist = os.path.join(work, f"dist_{width}x{height}.yuv")
            generate(ref, dist, width, height, frames)
            independent = f"{tools[0][0]}, N processes of 1 thread"
            columns = [name for name, _ in tools] + ([independent] if args.independent else []) + (
                ["vmaf"] if args.vmaf else []) + (
                ["filter", "ffmpeg psnr"] if args.ffmpeg else [])
            raw = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{width}x{height}"]
            filter_logs = set()
            times = {(c, t): [] for c in columns for t in threads}
            logs = {}
            for run in range(args.runs):
                for t in threads:
                    for name, binary in tools:
                        csv = os.path.join(work, f"{name}_{t}.csv")
                        times[(name, t)].append(timed([
                            binary, "--reference", ref, "--distorted", dist, "--width",
                            str(width), "--height", str(height), "--pix-fmt", "yuv420p",
                            "--threads", str(t), "--csv", csv, "--quiet"]))
                        with open(csv, "rb") as log:
                            logs.setdefault(log.read(), []).append(f"{name} --threads {t}")
                    if args.independent:
                        name, binary = tools[0]
                        csvs = [os.path.join(work, f"independent_{i}.csv") for i in range(t)]
                        together = timed_together([[
                            binary, "--reference", ref, "--distorted", dist, "--width",
                            str(width), "--height", str(height), "--pix-fmt", "yuv420p",
                            "--threads", "1", "--csv", csv, "--quiet"] for csv in csvs])
                        times[(independent, t)].append(together / t)
                        for i, csv in enumerate(csvs):
                            with open(csv, "rb") as log:
                                logs.setdefault(log.read(), []).append(f"{name} copy {i}")
                    if args.vmaf:
                        times[("vmaf", t)].append(timed([
                            args.vmaf, "-r", ref, "-d", dist, "-w", str(width), "-h",
                            str(height), "-p", "420", "-b", "8", "--threads", str(t),
                            "--feature", "float_adm", "-n", "-q", "-o", os.devnull]))
                    if args.ffmpeg:
                        ffmpeg = [args.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
                                  "-filter_complex_threads", str(t), *raw, "-i", dist, *raw,
                                  "-i", ref, "-filter_complex"]
                        csv = os.path.join(work, f"filter_{t}.csv")
                        times[("filter", t)].append(timed(ffmpeg + [
                            f"[0][1]float_adm=log_path={csv}:log_fmt=csv", "-f", "null", "-"]))
                        with open(csv, "rb") as log:
                            filter_logs.add(log.read())
                        times[("ffmpeg psnr", t)].append(timed(ffmpeg + [
                            "[0][1]psnr", "-f", "null", "-"]))
            print(f"\n### {width}x{height}, {frames} frames: ms per frame (speed-up over 1 thread)\n")
            print("| threads | " + " | ".join(columns) + " |")
            print("|---" * (len(columns) + 1) + "|")
            for t in threads:
                cells = []
                for c in columns:
                    ms = statistics.median(times[(c, t)]) * 1000 / frames
                    one = statistics.median(times[(c, threads[0])]) * 1000 / frames
                    cells.append(f"{ms:.2f} ({one / ms:.1f}x)")
                print(f"| {t} | " + " | ".join(cells) + " |")
            if args.vmaf:
                for name, _ in tools:
                    ratios = [statistics.median(times[("vmaf", t)]) /
                              statistics.median(times[(name, t)]) for t in threads]
                    print(f"\n{name} vs vmaf: " +
                          ", ".join(f"{t}: {r:.1f}x" for t, r in zip(threads, ratios)))
            if len(logs) != 1:
                print("\nSCORES DIFFER between runs:", list(logs.values()))
                return 1
            if len(filter_logs) > 1:
                print("\nSCORES DIFFER between filter runs")
                return 1
            print("\nscores: identical CSV logs in every float_adm_score run" +
                  (", and in every filter run" if args.ffmpeg else ""))
            os.remove(ref)
            os.remove(dist)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
