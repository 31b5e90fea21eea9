#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Peak memory and speed of ffmpeg builds with and without the scheduler patch
(patches/ffmpeg-sched/), on the same inputs, runs of the builds interleaved.

  ffmpeg_sched.py memory --ffmpeg base=PATH --ffmpeg patched=PATH --clips DIR [--nvdec]
  ffmpeg_sched.py speed  --ffmpeg base=PATH --ffmpeg patched=PATH --clips DIR
                         [--nvdec] [--streams 1,8] [--runs 3] [--cases h264_1080p,...]
  ffmpeg_sched.py slope  --ffmpeg NAME=PATH... --clips DIR [--nvdec] [--runs 3] ...

DIR holds the pairs scripts/cuda/make_decoder_clips.sh makes (48 frames each).
memory: each case at two lengths; peak resident memory of the process (wait4's
ru_maxrss) and, with --nvdec, the GPU's peak memory in use (nvidia-smi, polled)
less what was in use before.  A case whose filters or formats a build lacks is
left out and said so.
speed: pairs per second over the wall time of N ffmpegs started at once, median
of the runs; "decode" is the two decoders alone, into two null outputs.
slope: one ffmpeg, the rate while it runs: the least-squares slope of the frames
it reports done (-progress, every 50 ms) against the time they were reported,
between 15 % and 90 % of its frames, median of the runs.  Whole-run times of NVDEC
runs fall on steps of about 0.25 s, which a slope does not see, nor the start and
the end; "decode" is then both decoders into one null output (its muxer takes the
pairs in step, as a filter does).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def parse_builds(values):
    builds = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not os.access(path, os.X_OK):
            sys.exit(f"--ffmpeg wants NAME=PATH of an executable, got {value!r}")
        builds.append((name, os.path.abspath(path)))
    return builds


def capabilities(ffmpeg):
    def names(option):
        out = subprocess.run([ffmpeg, "-hide_banner", option], capture_output=True,
                             text=True).stdout
        return {word for line in out.splitlines() for word in line.split()[1:2]}
    return names("-filters") | names("-demuxers") | names("-devices")


def gpu_memory_used_mib():
    out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used",
                          "--format=csv,noheader,nounits"], capture_output=True, text=True)
    return int(out.stdout.split()[0]) if out.returncode == 0 else None


def run_measured(argv, poll_gpu):
    """Runs argv; returns (seconds, peak RSS in MiB, peak GPU MiB above idle or None)."""
    idle = gpu_memory_used_mib() if poll_gpu else None
    peak = [idle]
    done = threading.Event()

    def poll():
        while not done.wait(0.05):
            used = gpu_memory_used_mib()
            if used is not None:
                peak[0] = max(peak[0], used)

    poller = threading.Thread(target=poll) if poll_gpu else None
    start = time.monotonic()
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=null, stderr=err)
        if poller:
            poller.start()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        done.set()
        if poller:
            poller.join()
        if proc.returncode != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"{' '.join(argv)}: exit {proc.returncode}: {' | '.join(tail)}")
    gpu = peak[0] - idle if poll_gpu and idle is not None else None
    return seconds, usage.ru_maxrss / 1024, gpu


def nvdec_opts():
    return ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda", "-extra_hw_frames", "8"]


def memory_cases(clips, work, loops):
    """(name, needs, input/graph arguments) for one length (loops of the 48 frames)."""
    ref = os.path.join(clips, "h264_1080p_ref.mp4")
    dist = os.path.join(clips, "h264_1080p_dist.mp4")
    y4m = os.path.join(work, "ref_1080p.y4m")
    image = os.path.join(work, "overlay.png")
    seconds = 48 * (loops + 1) / 30
    loop = ["-stream_loop", str(loops)]
    return [
        ("concat of two inputs", {"concat"},
         loop + ["-i", ref] + loop + ["-i", dist] +
         ["-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0", "-f", "null", "-"]),
        ("overlay on a -loop 1 image", {"overlay"},
         loop + ["-i", ref, "-loop", "1", "-i", image] +
         ["-filter_complex", "[0:v][1:v]overlay=shortest=1", "-f", "null", "-"]),
        ("amix, inputs of 3:1 lengths", {"amix", "sine", "lavfi"},
         ["-f", "lavfi", "-i", f"sine=frequency=440:duration={3 * seconds}",
          "-f", "lavfi", "-i", f"sine=frequency=660:duration={seconds}",
          "-filter_complex", "amix=inputs=2:duration=longest", "-f", "null", "-"]),
        ("psnr, H.264 one thread against a color source", {"psnr", "color", "lavfi"},
         ["-threads", "1"] + loop + ["-i", dist,
          "-f", "lavfi", "-i", "color=c=gray:s=1920x1080:r=30",
          "-lavfi", "[0:v][1:v]psnr=shortest=1", "-f", "null", "-"]),
        ("psnr, H.264 one thread against y4m", {"psnr"},
         ["-threads", "1"] + loop + ["-i", dist] + loop + ["-i", y4m] +
         ["-lavfi", "[0:v][1:v]psnr", "-f", "null", "-"]),
        ("float_adm, H.264 one thread against y4m", {"float_adm"},
         ["-threads", "1"] + loop + ["-i", dist] + loop + ["-i", y4m] +
         ["-lavfi", "[0:v][1:v]float_adm", "-f", "null", "-"]),
    ]


def nvdec_memory_cases(clips, loops):
    loop = ["-stream_loop", str(loops)]
    pair = []
    for kind in ("dist", "ref"):
        pair += loop + nvdec_opts() + ["-i", os.path.join(clips, f"h264_2160p_{kind}.mp4")]
    cheap = loop + nvdec_opts() + ["-i", os.path.join(clips, "hevc_2160p_ref.mp4")]
    return [
        ("NVDEC 2160p float_adm_cuda", {"float_adm_cuda"},
         pair + ["-lavfi", "[0:v][1:v]float_adm_cuda", "-f", "null", "-"]),
        ("NVDEC 2160p float_adm_cuda, H.264 one thread against HEVC", {"float_adm_cuda"},
         ["-threads", "1"] + loop + nvdec_opts() +
         ["-i", os.path.join(clips, "h264_2160p_dist.mp4")] + cheap +
         ["-lavfi", "[0:v][1:v]float_adm_cuda", "-f", "null", "-"]),
    ]


def memory(args, builds):
    work = tempfile.mkdtemp(prefix="ffmpeg-sched-")
    maker = builds[0][1]
    subprocess.run([maker, "-v", "error", "-i", os.path.join(args.clips, "h264_1080p_ref.mp4"),
                    "-f", "yuv4mpegpipe", os.path.join(work, "ref_1080p.y4m")], check=True)
    subprocess.run([maker, "-v", "error", "-i", os.path.join(args.clips, "h264_1080p_ref.mp4"),
                    "-frames:v", "1", "-vf", "scale=640:360", os.path.join(work, "overlay.png")],
                   check=True)
    caps = {name: capabilities(path) for name, path in builds}
    header = "| case | frames | " + " | ".join(f"{n} RSS MiB" for n, _ in builds)
    if args.nvdec:
        header += " | " + " | ".join(f"{n} GPU MiB" for n, _ in builds)
    print(header + " |")
    print("|---" * (header.count("|") - 1) + "|")
    for loops in args.lengths:
        cases = memory_cases(args.clips, work, loops)
        if args.nvdec:
            cases += nvdec_memory_cases(args.clips, loops)
        for name, needs, graph in cases:
            row, gpus = [], []
            for build, path in builds:
                have = caps[build]
                if not needs <= have:
                    row.append(f"({', '.join(sorted(needs - have))} missing)")
                    gpus.append("")
                    continue
                _, rss, gpu = run_measured([path, "-hide_banner", "-nostdin", "-v", "error"] +
                                           graph, args.nvdec)
                row.append(f"{rss:.0f}")
                gpus.append("" if gpu is None else f"{gpu:.0f}")
            line = f"| {name} | {48 * (loops + 1)} | " + " | ".join(row)
            if args.nvdec:
                line += " | " + " | ".join(gpus)
            print(line + " |", flush=True)


def speed_graph(graph, nvdec):
    """The graph's arguments; float_adm scores NVDEC's CUDA frames as float_adm_cuda,
    "maps" is float_adm with map_path (a PFM file a frame, into the directory ffmpeg
    runs in: a relative name keeps the path out of the filtergraph), the software
    filters (float_adm_map, psnr, ssim) take CUDA frames downloaded."""
    if graph == "decode":
        return ["-map", "0:v", "-f", "null", "-", "-map", "1:v", "-f", "null", "-"]
    if graph in ("float_adm", "maps"):
        options = "=map_path=%d.pfm" if graph == "maps" else ""
        return ["-lavfi", f"[0:v][1:v]float_adm{'_cuda' if nvdec else ''}{options}",
                "-f", "null", "-"]
    if nvdec:
        return ["-lavfi", f"[0:v]hwdownload,format=nv12[a];[1:v]hwdownload,format=nv12[b];"
                f"[a][b]{graph}", "-f", "null", "-"]
    return ["-lavfi", f"[0:v][1:v]{graph}", "-f", "null", "-"]


def run_wall(argv, streams, cwd=None):
    """Seconds from starting N copies of argv at once to the last one's exit."""
    start = time.monotonic()
    procs = [subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
             for _ in range(streams)]
    for proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            sys.exit(f"{' '.join(argv)}: {err.decode()[-300:]}")
    return time.monotonic() - start


def run_slope(argv, cwd=None):
    """Frames per second of argv while it runs (the module's docstring, "slope")."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv + ["-progress", "pipe:1", "-stats_period", "0.05"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                text=True, cwd=cwd)
        points, frame = [], 0
        for line in proc.stdout:
            key, _, value = line.strip().partition("=")
            if key == "frame":
                frame = int(value)
            elif key == "progress":
                points.append((time.monotonic(), frame))
        if proc.wait() != 0:
            err.seek(0)
            sys.exit(f"{' '.join(argv)}: {err.read().decode(errors='replace')[-300:]}")
    if not points:
        sys.exit(f"{' '.join(argv)}: no progress reported")
    total = points[-1][1]
    window = [(t, f) for t, f in points if 0.15 * total <= f <= 0.9 * total]
    if len(window) < 10:
        sys.exit(f"{' '.join(argv)}: too short to measure a rate ({len(window)} reports)")
    mean_t = statistics.fmean(t for t, _ in window)
    mean_f = statistics.fmean(f for _, f in window)
    return (sum((t - mean_t) * (f - mean_f) for t, f in window) /
            sum((t - mean_t) ** 2 for t, _ in window))


def slope(args, builds):
    graphs = args.graphs.split(",")
    against = "decode" in graphs
    print("| case | graph | " + " | ".join(f"{n} pairs/s (runs)" for n, _ in builds) +
          "".join(f" | {n} / decode" for n, _ in builds if against) + " |")
    print("|---" * (2 + (2 if against else 1) * len(builds)) + "|")
    for case in args.cases.split(","):
        loops = (args.loops_1080p if case.endswith("1080p") else args.loops_2160p)[-1]
        inputs = []
        for kind in ("dist", "ref"):
            inputs += (["-stream_loop", str(loops)] + (nvdec_opts() if args.nvdec else []) +
                       ["-i", os.path.join(args.clips, f"{case}_{kind}.mp4")])
        rates = {(graph, name): [] for graph in graphs for name, _ in builds}
        for _ in range(args.runs):
            for graph in graphs:
                for name, path in builds:
                    maps_dir = tempfile.mkdtemp(prefix="ffmpeg-sched-maps-")
                    args_graph = (["-map", "0:v", "-map", "1:v", "-f", "null", "-"]
                                  if graph == "decode" else speed_graph(graph, args.nvdec))
                    rates[(graph, name)].append(run_slope(
                        [path, "-hide_banner", "-nostdin", "-v", "error", "-nostats"] +
                        inputs + args_graph, cwd=maps_dir))
                    shutil.rmtree(maps_dir)
        for graph in graphs:
            med = {n: statistics.median(rates[(graph, n)]) for n, _ in builds}
            cells = [f"{med[n]:.0f} ({', '.join(f'{r:.0f}' for r in rates[(graph, n)])})"
                     for n, _ in builds]
            if "decode" in graphs:
                cells += [f"{med[n] / statistics.median(rates[('decode', n)]):.1%}"
                          for n, _ in builds]
            print(f"| {case}{' NVDEC' if args.nvdec else ''}, {48 * (loops + 1)} pairs | "
                  f"{graph} | " + " | ".join(cells) + " |", flush=True)


def speed(args, builds):
    """Pairs per second over the wall time; with two lengths (--loops-2160p 9,39), the
    steady rate between them, (pairs_long - pairs_short) / (t_long - t_short), which
    leaves out what a process spends once (start, device set-up, the last frames'
    drain), and that once-cost beside it."""
    graphs = args.graphs.split(",")
    steady = len(args.loops_1080p) == 2
    print("| case | streams | graph | " + " | ".join(f"{n} pairs/s" for n, _ in builds) +
          " | " + " | ".join(f"{n} / decode" for n, _ in builds) +
          ("".join(f" | {n} once, s" for n, _ in builds) +
           "".join(f" | {n} long runs, s" for n, _ in builds) if steady else "") + " |")
    print("|---" * (3 + (4 if steady else 2) * len(builds)) + "|")
    for case in args.cases.split(","):
        lengths = args.loops_1080p if case.endswith("1080p") else args.loops_2160p
        pairs = [48 * (loops + 1) for loops in lengths]
        for streams in args.streams:
            rates, once = {}, {}
            times = {(graph, name, p): [] for graph in graphs for name, _ in builds
                     for p in pairs}
            # Runs interleave the graphs, lengths and builds: a drift of the host's
            # clocks falls on all of them alike.
            for _ in range(args.runs):
                for graph in graphs:
                    for loops, p in zip(lengths, pairs):
                        inputs = []
                        for kind in ("dist", "ref"):
                            inputs += (["-stream_loop", str(loops)] +
                                       (nvdec_opts() if args.nvdec else []) +
                                       ["-i", os.path.join(args.clips, f"{case}_{kind}.mp4")])
                        for name, path in builds:
                            maps_dir = tempfile.mkdtemp(prefix="ffmpeg-sched-maps-")
                            argv = ([path, "-hide_banner", "-nostdin", "-v", "error"] +
                                    inputs + speed_graph(graph, args.nvdec))
                            times[(graph, name, p)].append(run_wall(argv, streams, maps_dir))
                            shutil.rmtree(maps_dir)
            for graph in graphs:
                rates[graph], once[graph] = {}, {}
                for name, _ in builds:
                    t = [statistics.median(times[(graph, name, p)]) for p in pairs]
                    if steady:
                        rates[graph][name] = streams * (pairs[1] - pairs[0]) / (t[1] - t[0])
                        once[graph][name] = t[0] - streams * pairs[0] / rates[graph][name]
                    else:
                        rates[graph][name] = streams * pairs[0] / t[0]
                cells = [f"{rates[graph][n]:.0f}" for n, _ in builds]
                cells += ([f"{rates[graph][n] / rates['decode'][n]:.0%}" for n, _ in builds]
                          if "decode" in rates else [""] * len(builds))
                if steady:
                    cells += [f"{once[graph][n]:.2f}" for n, _ in builds]
                    cells += [", ".join(f"{v:.2f}" for v in times[(graph, n, pairs[1])])
                              for n, _ in builds]
                label = f"{pairs[0]}-{pairs[1]} pairs, steady" if steady else f"{pairs[0]} pairs"
                print(f"| {case}{' NVDEC' if args.nvdec else ''}, {label} | {streams} | "
                      f"{graph} | " + " | ".join(cells) + " |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["memory", "speed", "slope"])
    parser.add_argument("--ffmpeg", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--clips", required=True)
    parser.add_argument("--nvdec", action="store_true")
    parser.add_argument("--lengths", default="4,16",
                        help="memory: times each 48-frame clip is played again")
    parser.add_argument("--streams", default="1,8")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default="h264_1080p,h264_2160p,hevc_1080p,hevc_2160p")
    parser.add_argument("--graphs", default="decode,float_adm,psnr,ssim")
    parser.add_argument("--loops-1080p", default="19",
                        help="speed: times the 48 frames are played again; two (19,79): "
                             "the steady rate between the two lengths")
    parser.add_argument("--loops-2160p", default="9")
    args = parser.parse_args()
    args.clips = os.path.abspath(args.clips)  # ffmpeg runs in a directory of its own
    args.lengths = [int(v) for v in args.lengths.split(",")]
    args.streams = [int(v) for v in args.streams.split(",")]
    args.loops_1080p = [int(v) for v in args.loops_1080p.split(",")]
    args.loops_2160p = [int(v) for v in args.loops_2160p.split(",")]
    if len(args.loops_1080p) != len(args.loops_2160p) or len(args.loops_1080p) > 2:
        sys.exit("--loops-1080p and --loops-2160p: one length each, or two each")
    builds = parse_builds(args.ffmpeg)
    if "maps" in args.graphs.split(",") and args.what == "speed" and max(args.streams) > 1:
        sys.exit("--graphs maps: one stream only (the ffmpegs of a run would write the same maps)")
    {"memory": memory, "speed": speed, "slope": slope}[args.what](args, builds)


if __name__ == "__main__":
    main()
