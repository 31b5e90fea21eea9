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

"""python3 -m floatadm score | report | catalogue (see --help of each).

The inputs are named as vmaf names them, -r/--reference and -d/--distorted: the
float_adm filter's first input is the distorted one, so an order by position is
a trap.  Progress is drawn on stderr (when it is a terminal, or --progress),
whatever --quiet does to stdout."""

import argparse
import importlib
import os
import sys
import time
import warnings

from ._names import shown


# What the commands import beyond the standard library, and Debian's package of it.
DEBIAN_PACKAGES = {"numpy": "python3-numpy", "distributed": "python3-distributed"}


def _options(pairs):
    options = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit("floatadm: --option takes NAME=VALUE, not %r" % pair)
        options[name] = value
    return options


def _run_files(args):
    """score's files told to the library before anything is read or written: the
    inputs (those on this machine: ffmpeg may read others), then each output begun
    (its temporary made and locked for the run), so that an input, another output's
    file, stdout twice, or a file another run writes now is refused at once.
    (files, {"json", "record", "maps", "csv": Output})."""
    from . import _lib
    from .distributed import begin_log
    from .results import RunFiles, maps_path
    files = RunFiles()
    for flag, path in (("-r", args.reference), ("-d", args.distorted)):
        if path == "-" or os.path.exists(path):
            files.add_input(path, flag)
    outputs = {}
    if args.json:
        outputs["json"], outputs["record"] = begin_log(files, args.json, "--json")
        if args.maps and outputs["record"] is not None:
            outputs["maps"] = files.begin_output(maps_path(args.json), _lib.FLOAT_ADM_OUTPUT_MAP,
                                                 "--maps")
    if args.csv:
        outputs["csv"] = files.begin_output(args.csv, _lib.FLOAT_ADM_OUTPUT_LOG, "--csv")
    return files, outputs


def _score(args):
    from . import _lib, score_files, score_video
    from .distributed import FILE_EXTENSIONS, scored_log_record, write_log_and_record
    if args.inputs:
        raise SystemExit("floatadm: score names its inputs as vmaf does: -r/--reference REF "
                         "-d/--distorted DIS (not %s)" % " ".join(args.inputs))
    if not args.reference or not args.distorted:
        raise SystemExit("floatadm: score needs -r/--reference REF and -d/--distorted DIS")
    options = _options(args.option)
    if args.maps and (not args.json or args.json == "-"):
        raise SystemExit("floatadm: --maps writes the maps beside the --json log; give "
                         "--json FILE")
    scaled = args.scale is not None or args.scale_size is not None
    is_files = not args.video and not scaled and (
        args.width or args.height or args.pix_fmt or
        all(p.lower().endswith(FILE_EXTENSIONS) for p in (args.reference, args.distorted)))
    if is_files and args.decoder:
        raise SystemExit("floatadm: --decoder chooses who decodes videos; %s and %s are read "
                         "as raw or y4m files (--video reads them with ffmpeg)"
                         % (args.reference, args.distorted))
    job = {"reference": args.reference, "distorted": args.distorted, "options": options,
           "kind": "files" if is_files else "video"}
    files, outputs = _run_files(args)
    # Warnings as the tool's own lines, without a Python source line.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if is_files:
            results = score_files(reference=args.reference, distorted=args.distorted,
                                  width=args.width, height=args.height, pix_fmt=args.pix_fmt,
                                  frames=args.frames, start_frame=args.start_frame,
                                  end_frame=args.end_frame, threads=args.threads,
                                  backend=args.backend or "cpu", progress=args.progress,
                                  map=args.maps, **options)
            job.update(width=args.width, height=args.height, pix_fmt=args.pix_fmt,
                       backend=args.backend)
        else:
            end = args.end_frame
            if end is None and args.frames is not None:
                end = args.start_frame + args.frames
            results = score_video(reference=args.reference, distorted=args.distorted,
                                  ffmpeg=args.ffmpeg,
                                  start_frame=args.start_frame, end_frame=end,
                                  backend=args.backend, threads=args.threads if args.threads > 1
                                  else None, progress=args.progress, scale=args.scale,
                                  scale_size=args.scale_size, map=args.maps,
                                  accept_doubtful_pairs=args.accept_doubtful_pairs,
                                  decoder=args.decoder or "auto", **options)
            job.update(backend=args.backend, ffmpeg=args.ffmpeg, scale=args.scale,
                       scale_size=args.scale_size, decoder=args.decoder or "auto")
    for warning in caught:
        print("floatadm: warning: %s" % warning.message, file=sys.stderr)
    # Every output written to its temporary, then all of them renamed into place.
    if args.json:
        job.update(name="score", frames=args.frames)
        record = scored_log_record(job, results,
                                   {"start": args.start_frame, "end": args.end_frame})
        write_log_and_record(results, outputs["json"], outputs["record"], record)
        if "maps" in outputs:
            results.save_maps_to(outputs["maps"])
    if args.csv:
        results.write_log_to(outputs["csv"], _lib.FLOAT_ADM_LOG_CSV)
    files.commit()
    # A log on stdout, under any name, has stdout to itself.
    if not args.quiet and not files.stdout_taken:
        print("%6s  %-10s  %-10s  %-10s" % ("frame", "adm2", "aim", "adm3"))
        for f in results.frames:
            if "skipped" in f:
                print("%6d  skipped: %s" % (f["frame"], f["skipped"]))
            else:
                print("%6d  %.8f  %.8f  %.8f" % (f["frame"], f["adm2"], f["aim"], f["adm3"]))
        print()
        for name, pooled in results.pooled.items():
            print("%-14s mean %.8f  harmonic_mean %.8f  min %.8f  max %.8f" % (
                name, pooled["mean"], pooled["harmonic_mean"], pooled["min"], pooled["max"]))
    return 0


def _report(args):
    from .report import SkippedFile, write_report
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkippedFile)
        write_report(args.logs, args.output, title=args.title, labels=args.label,
                     progress=args.progress)
    for warning in caught:
        print("floatadm: %s" % warning.message, file=sys.stderr)
    skipped = sum(len(w.message.paths) for w in caught if issubclass(w.category, SkippedFile))
    if not args.quiet:
        logs = len(args.logs) - skipped
        print("floatadm: wrote %s (%d log%s)" % (shown(args.output), logs,
                                                 "" if logs == 1 else "s"),
              file=sys.stderr if args.output == "-" else sys.stdout)
    return 0


def _catalogue(args):
    from distributed import Client, LocalCluster
    from ._input import load_json
    from .distributed import RescoreWarning, score_catalogue
    from .video import doubts_text
    jobs = load_json(args.jobs, "a JSON list of jobs")
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0")
        client = Client(cluster)
    try:
        began = time.monotonic()
        with warnings.catch_warnings():
            # Said below, from the summaries, without a warning's source line.
            warnings.simplefilter("ignore", RescoreWarning)
            summaries = score_catalogue(jobs, client, args.output_dir,
                                        retries=args.retries, raise_errors=False,
                                        progress=args.progress, jobs_file=args.jobs,
                                        accept_doubtful_pairs=args.accept_doubtful_pairs)
        elapsed = time.monotonic() - began
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    scored = [s for s in summaries if s["status"] == "scored"]
    frames = sum(s.get("frames", 0) for s in scored)
    failed = [s for s in summaries if s["status"] == "failed"]
    print("floatadm: %d jobs: %d scored (%d frames, %.1f frames/s over %.1f s), %d skipped, "
          "%d failed" % (len(summaries), len(scored), frames, frames / elapsed if elapsed else 0,
                         elapsed, len(summaries) - len(scored) - len(failed), len(failed)))
    for s in summaries:
        if s.get("changed"):
            print("floatadm: %s scored again, its log was made from something else: %s"
                  % (shown(s["name"]), "; ".join(s["changed"])), file=sys.stderr)
    for s in scored:
        if s.get("doubtful_pairs"):
            print("floatadm: warning: %s: pairs in doubt, scored as asked: %s"
                  % (shown(s["name"]), doubts_text(s["doubtful_pairs"])), file=sys.stderr)
    for s in failed:
        print("  %s: %s" % (shown(s["name"]), s["error"]), file=sys.stderr)
    return 1 if failed else 0


def _ladder(args):
    from . import ladder
    if bool(args.manifest) == bool(args.source):
        raise SystemExit("floatadm: ladder takes a MANIFEST.csv, or --source SRC with "
                         "--ladder NAME=ENCODES...")
    if args.manifest:
        if args.ladder:
            raise SystemExit("floatadm: --ladder goes with --source, not with a manifest")
        rungs = ladder.read_manifest(args.manifest)
    else:
        ladders = {}
        for spec in args.ladder or []:
            name, sep, files = spec.partition("=")
            if not sep or not name or not files:
                raise SystemExit("floatadm: --ladder NAME=ENCODES (files or glob patterns "
                                 "separated by ','), not %r" % spec)
            ladders.setdefault(name, []).extend(f for f in files.split(",") if f)
        if not ladders:
            raise SystemExit("floatadm: --source needs at least one --ladder NAME=ENCODES")
        rungs = ladder.rungs_of(args.source, ladders)
    if args.jobs is not None and args.jobs < 1:
        raise ladder.LadderError("--jobs takes a number of rungs at once, 1 or more")
    options = _options(args.option)
    if args.metric is not None:
        ladder.metric_name(args.metric, options)
    pairs = ladder.comparison_pairs(rungs, args.compare or [])
    log_dir = os.path.join(args.output_dir, "logs")
    ladder.check_outputs(args.output_dir, rungs, args.manifest, log_dir)
    from .video import BESIDE, find_ffmpeg
    ffmpeg = find_ffmpeg(args.ffmpeg)
    moved = [f for f in (args.metrics_ffmpeg_for or "").split(",") if f]
    if moved and not args.metrics_ffmpeg:
        raise ladder.LadderError("--metrics-ffmpeg-for goes with --metrics-ffmpeg")
    beside, elsewhere, lacking = ladder.beside_measured(ffmpeg, None, args.metrics_ffmpeg,
                                                        moved)
    measured = [m for m in ladder.BESIDE_METRICS if any(m in BESIDE[f] for f in beside)]
    metric = args.metric or ladder.default_metric(measured)
    named = ladder.metric_name(metric, options)
    rules = ladder.ladder_rules(named, args.min_rate_ratio, args.quality_step, args.rungs)
    for name in lacking:
        print("floatadm: %s has no %s filter%s: the tables leave %s out%s" % (
            shown(ffmpeg), name,
            ", nor has %s" % shown(args.metrics_ffmpeg) if args.metrics_ffmpeg else "",
            ", ".join(BESIDE[name]),
            "; an ffmpeg that has it measures it with --metrics-ffmpeg, or build libvmaf into "
            "this one (docs/ladder.md, \"VMAF\")" if name == "libvmaf" else ""),
            file=sys.stderr)
    if elsewhere and not args.quiet:
        print("floatadm: %s measured by %s, on the frames %s decodes and scales, paired as "
              "float_adm pairs them" % (", ".join(elsewhere), shown(args.metrics_ffmpeg),
                                        shown(ffmpeg)),
              file=sys.stderr)
    if args.metric is None and metric != "vmaf":
        print("floatadm: the hulls and recommended ladders are by %s: no VMAF was measured "
              "(--metric picks another)" % named, file=sys.stderr)
    began = time.monotonic()
    # Warnings (of every rung's thread) as the tool's own lines, each once, those before a
    # failure too.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rows = ladder.score_ladder(
                rungs, log_dir=log_dir, ffmpeg=ffmpeg, scale=args.scale, progress=args.progress,
                metric=metric, jobs=args.jobs, beside=beside, beside_ffmpeg=elsewhere,
                cache=None if args.no_cache else ladder.cache_directory(),
                accept_doubtful_pairs=args.accept_doubtful_pairs, **options)
            # The rungs' reports before the page, which links those that are there.
            reports = ladder.write_reports(rows, progress=False, metric=named)
        finally:
            for warning in sorted({str(w.message) for w in caught}):
                print("floatadm: warning: %s" % warning, file=sys.stderr)
    comparisons = ladder.compare_all(rows, pairs, named)
    paths = ladder.write_tables(args.output_dir, rows, comparisons, rules=rules)
    names = ladder.source_names(rows)
    others = [m for m in ladder.BESIDE_METRICS if m + "_mean" in rows[0] and m != named]
    out = []
    if not args.quiet:
        out.append(("%-16s %-12s %-20s %-9s %9s %6s %11s" + " %9s" * len(others) + " %-4s %s")
                   % ("source", "ladder", "rung", "size", "kbit/s", "frames", named + " mean",
                      *others, "hull", "log"))
        for r in rows:
            out.append(("%-16s %-12s %-20s %-9s %9.1f %6d %11s" + " %9s" * len(others) +
                        " %-4s %s") % (
                names[r["source"]][-16:], r["ladder"][:12], r["label"][:20],
                "%dx%d" % (r["width"], r["height"]), r["bitrate_kbps"], r["frames"],
                "-" if r[named + "_mean"] is None else "%.6f" % r[named + "_mean"],
                *("-" if r[m + "_mean"] is None else "%.4f" % r[m + "_mean"] for m in others),
                "yes" if r["on_hull"] else "",
                "cached" if r["cached"] else "reused" if r["reused"] else "scored"))
        for r in rows:
            for column, why in r.get("not_taken", {}).items():
                out.append("  %s %s %s: %s not taken: %s" % (
                    names[r["source"]], r["ladder"], r["label"],
                    column.replace("_mean", " mean"), why))
        out.append("Recommended ladders by %s: %s" % (named, ladder.rules_text(rules)))
        for title in ladder.titles(rows, named, rules):
            for d in title["ladders"]:
                out.append("  %s, %s: %s" % (names[title["source"]], d["ladder"], ", ".join(
                    "%s (%dx%d, %.0f kbit/s, %s %.4g)" % (
                        p["label"], p["width"], p["height"], p["bitrate_kbps"], named,
                        p[named + "_mean"]) for p in d["recommended_rungs"]) or "none"))
                out += ["      %s" % note for note in d["notes"]]
                out += ["      %s over %s from %.0f kbit/s" % (c["to"], c["from"],
                                                              c["bitrate_kbps"])
                        if c["bitrate_kbps"] is not None else
                        "      %s over %s: no crossover, %s" % (c["to"], c["from"], c["why"])
                        for c in d["crossovers"]]

    def figure(value, text):
        return "not taken" if value is None else text % value
    failed = False
    for comparison in comparisons:
        # Every figure not taken, with why, on stderr whatever --quiet says: the exit
        # status is 1 then.
        for line in comparison["figures_not_taken"]:
            print("floatadm: %s" % line, file=sys.stderr)
            failed = True
        if args.quiet:
            continue
        out.append("BD %s against %s (BD-rate < 0: %s needs fewer bits for the same quality):"
                   % (comparison["test"], comparison["anchor"], comparison["test"]))
        for m, c in comparison["by_metric"].items():
            for s in c["sources"]:
                out.append("  %-11s %-16s BD-rate %9s  BD-quality %11s  hull points %d, %d" % (
                    m, names[s["source"]][-16:], figure(s["bd_rate_percent"], "%+.2f %%"),
                    figure(s["bd_quality"], "%+.6g"), *s["hull_points"]))
                for key, why in s.get("not_taken", {}).items():
                    out.append("      %s not taken: %s" % (ladder.FIGURES[key], why))
        out.append("BD-rate %s against %s, mean over the sources where it was taken:"
                   % (comparison["test"], comparison["anchor"]))
        for m, c in comparison["by_metric"].items():
            out.append("  %-11s %9s  %s" % (
                m, figure(c["bd_rate_percent"], "%+.2f %%"),
                c["not_taken"]["bd_rate_percent"] if c["bd_rate_percent"] is None else
                "over " + ladder.mean_over(c, "bd_rate_percent", names)))
        out += ["note: %s" % note for note in comparison["notes"]]
    if not args.quiet:
        reused = sum(1 for r in rows if r["reused"] and not r["cached"])
        cached = sum(1 for r in rows if r["cached"])
        out.append("floatadm: %d rung(s) in %.1f s: %d scored, %d reused (their logs were made "
                   "from the same files, options and scaler), %d from the score cache" % (
                       len(rows), time.monotonic() - began, len(rows) - reused - cached,
                       reused, cached))
        out.append("floatadm: wrote %s, and %d rung report(s) beside the logs" % (
            ", ".join(shown(p) for p in paths.values()), len(reports)))
        # The whole table at once: an interrupted run prints none of it.
        sys.stdout.write("\n".join(out) + "\n")
    return 1 if failed else 0


def _progress_flags(parser):
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", action="store_true", default=None,
                       help="draw the progress bar on stderr [when stderr is a terminal]")
    group.add_argument("--no-progress", action="store_false", dest="progress",
                       help="no progress bar")


def _accept_flag(parser, which=""):
    parser.add_argument("--accept-doubtful-pairs", action="store_true",
                        help=which + "keep the scores where the float_adm filter pairs frames "
                        "in doubt (a frame scored again, pairs more than half a frame apart, "
                        "an input that ended early), with a warning and the doubts in the "
                        "log's record; without it such a run fails")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m floatadm",
                                     description="Netflix VMAF's float ADM, bit-exact.")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score a reference/distorted pair",
                           description="Score raw YUV / y4m files (as float_adm_score) or "
                           "any videos (through ffmpeg's float_adm filter).")
    score.add_argument("-r", "--reference", help="the reference video")
    score.add_argument("-d", "--distorted", help="the distorted video")
    score.add_argument("inputs", nargs="*", help=argparse.SUPPRESS)
    score.add_argument("--width", type=int)
    score.add_argument("--height", type=int)
    score.add_argument("--pix-fmt")
    score.add_argument("--option", action="append", metavar="NAME=VALUE",
                       help="a float_adm option by libvmaf name or alias; repeatable")
    score.add_argument("--frames", type=int, help="score the first N frames")
    score.add_argument("--start-frame", type=int, default=0)
    score.add_argument("--end-frame", type=int)
    score.add_argument("--threads", type=int, default=1)
    score.add_argument("--backend", choices=("cpu", "cuda", "auto"),
                       help="cpu (default), cuda or auto (cuda where there is a device); "
                       "videos: cpu is the float_adm filter, cuda float_adm_cuda on "
                       "NVDEC's frames or frames uploaded")
    score.add_argument("--decoder", metavar="DECODER",
                       help="videos with --backend cuda: auto (the default: NVDEC where "
                       "the codec and the ffmpeg allow it) or cpu (ffmpeg's software "
                       "decoders, the frames uploaded)")
    score.add_argument("--video", action="store_true",
                       help="read the inputs with ffmpeg, whatever their names")
    score.add_argument("--ffmpeg", help="an ffmpeg with the float_adm filter")
    score.add_argument("--scale", nargs="?", const="bicubic", metavar="SCALER",
                       help="videos: scale the distorted to the reference's size with "
                       "ffmpeg's scale filter (SCALER: bicubic, the default, bilinear, "
                       "lanczos, spline, ...)")
    score.add_argument("--scale-size", metavar="WxH",
                       help="videos: scale both inputs to WxH (with --scale's scaler)")
    _accept_flag(score, "videos: ")
    score.add_argument("--json", help="write libvmaf's JSON layout here")
    score.add_argument("--maps", action="store_true",
                       help="with --json OUT, write each frame's map "
                       "(docs/maps.md) to OUT.maps.npz beside the log, which the report "
                       "draws")
    score.add_argument("--csv", help="write libvmaf's CSV layout here")
    score.add_argument("-q", "--quiet", action="store_true",
                       help="print nothing on stdout (the progress bar is on stderr)")
    _progress_flags(score)
    score.set_defaults(run=_score, needs=("numpy",))

    report = sub.add_parser("report", help="an HTML report of JSON logs",
                            description="One self-contained HTML file: per-frame charts, "
                            "pooled values and the worst frames of each log.")
    report.add_argument("logs", nargs="+", metavar="LOG.json")
    report.add_argument("-o", "--output", required=True, metavar="REPORT.html")
    report.add_argument("--title", default="float_adm report")
    report.add_argument("--label", action="append", metavar="NAME",
                        help="the next log's name in the report (in the order of the "
                        "logs; the file name past them); repeatable")
    report.add_argument("-q", "--quiet", action="store_true")
    _progress_flags(report)
    report.set_defaults(run=_report, needs=("numpy",))

    catalogue = sub.add_parser("catalogue", help="score a catalogue on Dask",
                               description="Score the jobs of a JSON list (objects with "
                               "reference, distorted, ...) on a Dask cluster, one JSON log "
                               "per job in the output directory; finished jobs are skipped.")
    catalogue.add_argument("jobs", metavar="JOBS.json")
    catalogue.add_argument("-o", "--output-dir", required=True)
    catalogue.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786)")
    catalogue.add_argument("--workers", type=int, default=2,
                           help="without --scheduler: local worker processes [2]")
    catalogue.add_argument("--retries", type=int, default=2)
    _accept_flag(catalogue, "video jobs: ")
    catalogue.add_argument("-q", "--quiet", action="store_true")
    _progress_flags(catalogue)
    catalogue.set_defaults(run=_catalogue, needs=("numpy", "distributed"))

    lad = sub.add_parser("ladder", help="score encoding ladders, BD-rate between two",
                         description="Score every rung of one or more encoding ladders "
                         "against its source (scaled to the source's size), with the bitrate "
                         "of its whole video stream; write the table (ladder.json, "
                         "ladder.csv), a page with the rate-quality plots (ladder.html) and "
                         "each rung's log (logs/) in OUTPUT_DIR, PSNR, SSIM and VMAF beside "
                         "float_adm where ffmpeg has their filters, each ladder's convex hull; "
                         "a rung whose log is up to date is not scored again; with --compare, "
                         "BD-rate and BD-quality of one ladder against another "
                         "(docs/ladder.md).",
                         epilog="Exit status: 0 where every figure of every --compare was "
                         "taken; 1 where any was not (by any metric, for a source or a "
                         "mean, or a source one ladder lacks), each named with why on "
                         "stderr and the tables written all the same; 1 also where the "
                         "ladder cannot be scored (nothing written); 130 where it is "
                         "interrupted (Ctrl-C: one line, no table).")
    lad.add_argument("manifest", nargs="?", metavar="MANIFEST.csv",
                     help="rungs as CSV: source,ladder,file[,label] (paths relative to it)")
    lad.add_argument("--source", help="one source, with its ladders as --ladder")
    lad.add_argument("--ladder", action="append", metavar="NAME=ENCODES",
                     help="a ladder of --source: files or glob patterns, separated by ','; "
                     "repeatable")
    lad.add_argument("-o", "--output-dir", required=True)
    lad.add_argument("--compare", nargs="+", action="append", metavar="LADDER",
                     help="ANCHOR TEST: BD-rate and BD-quality of ladder TEST against ladder "
                     "ANCHOR, by each metric; repeatable; all: every pair of ladders")
    lad.add_argument("--metric",
                     help="the metric of the hulls, the recommended ladders, the page's first "
                     "view and the first BD figures, one that grows with quality: adm2, adm3, "
                     "adm_scale0..3, psnr_y, psnr_avg, ssim_y, ssim, vmaf [vmaf where it is "
                     "measured, else adm2]")
    lad.add_argument("--metrics-ffmpeg", metavar="FFMPEG",
                     help="another ffmpeg (a distribution's, a static build with libvmaf) that "
                     "measures the metrics beside float_adm that --ffmpeg lacks (psnr, ssim, "
                     "libvmaf), on the frames --ffmpeg decodes and scales, paired as "
                     "float_adm pairs them")
    lad.add_argument("--metrics-ffmpeg-for", metavar="FILTERS",
                     help="with --metrics-ffmpeg: these filters too (psnr, ssim, libvmaf, "
                     "separated by ','; all: every one it has) [those --ffmpeg lacks]")
    lad.add_argument("--min-rate-ratio", type=float, metavar="R",
                     help="recommended ladders: each rung at least R times the bitrate of the "
                     "one below [%g]" % 1.5)
    lad.add_argument("--quality-step", type=float, metavar="Q",
                     help="recommended ladders: rungs at least Q apart in the hull metric "
                     "[vmaf 6, adm2 0.025; other metrics none]")
    lad.add_argument("--rungs", type=int, metavar="N",
                     help="recommended ladders of N rungs, as far apart in quality as the "
                     "other rules let them (instead of --quality-step)")
    lad.add_argument("--no-cache", action="store_true",
                     help="neither read nor keep scores in the score cache "
                     "($XDG_CACHE_HOME/floatadm/ladder, ~/.cache/floatadm/ladder)")
    lad.add_argument("-j", "--jobs", type=int, metavar="N",
                     help="rungs scored at once, each by its own ffmpeg [the cores]")
    lad.add_argument("--scale", default="bicubic", metavar="SCALER",
                     help="ffmpeg's scaler that brings each rung to its source's size "
                     "[bicubic]")
    lad.add_argument("--ffmpeg", help="an ffmpeg with the float_adm filter")
    _accept_flag(lad)
    lad.add_argument("--option", action="append", metavar="NAME=VALUE",
                     help="a float_adm option by libvmaf name or alias; repeatable")
    lad.add_argument("-q", "--quiet", action="store_true")
    _progress_flags(lad)
    lad.set_defaults(run=_ladder, needs=("numpy",))

    args = parser.parse_args(argv)
    for module in args.needs:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
            print("floatadm: %s has no %s, which python3 -m floatadm %s needs: install it for "
                  "that interpreter (Debian: apt-get install %s)"
                  % (sys.executable, module, args.command, DEBIAN_PACKAGES[module]),
                  file=sys.stderr)
            return 1
    from .files import FileError
    from .scorer import Error
    from .video import FFmpegError
    try:
        return args.run(args)
    except (Error, FileError, FFmpegError, OSError, ValueError) as error:
        print("floatadm: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # The ffmpegs are stopped on the way out; a line, not a traceback.
        print("floatadm: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
