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

"""Scoring across machines with Dask distributed.

score_catalogue() scores one job per reference/distorted pair, each job's log
written atomically (a temporary file and a rename) into an output directory, so
that a file there is always a finished job, with NAME.spec.json beside it: what
made it (the inputs with their size and modification time, the options as the
library holds them, the settings, the library's version).  A rerun skips a job
whose record matches and rescores one whose record differs or is missing,
with a warning naming the job and what changed.  Dask runs the
jobs: a job whose worker dies is given to another worker by the scheduler, one
that raises is retried (retries=), and its file is only there once it is whole.

score_segments() splits one title into frame ranges scored in parallel and merges
them.  Each frame's scores depend on that frame alone, and the pooled values are
recomputed over the merged frames in frame order with the same double sums as
one run, so the merged Results equal a single process's bit for bit.  Raw and y4m
files are read from the segment's first frame on (by frame size).  A video's
distorted input is cut by frame number and its reference left whole, so that the
filter pairs each frame by time as in one run, whatever the frame rates
(score_video); a segment that does not get all its frames is an error.

Workers need the package and the library (PYTHONPATH=build/python, or
`make install`) and the files at the same paths.  GPUs: one worker per GPU, each
started with its CUDA_VISIBLE_DEVICES and a GPU resource, jobs submitted with
backend="cuda" and resources={"GPU": 1} (docs/python.md).
"""

import hashlib
import json
import math
import os
import re
import stat
import warnings

from ._input import parse_json
from ._names import shown
from .results import Results

FILE_EXTENSIONS = (".yuv", ".y4m", ".raw")


class RescoreWarning(UserWarning):
    """A finished job is scored again: what made its log differs from the job now."""


class CatalogueError(RuntimeError):
    """Some jobs failed after their retries; .failed lists (job name, error)."""

    def __init__(self, failed):
        super().__init__("%d job(s) failed: %s" % (len(failed), "; ".join(
            "%s: %s" % (name, error) for name, error in failed)))
        self.failed = failed


def _kind(spec):
    kind = spec.get("kind")
    if kind:
        if kind not in ("files", "video"):
            raise ValueError("kind must be 'files' or 'video', not %r" % kind)
        return kind
    paths = (os.fspath(spec["reference"]), os.fspath(spec["distorted"]))
    if any(spec.get(k) for k in ("width", "height", "pix_fmt")) or \
            all(p.lower().endswith(FILE_EXTENSIONS) for p in paths):
        return "files"
    return "video"


_JOB_KEYS = ("reference", "distorted", "name", "kind", "width", "height", "pix_fmt",
             "frames", "options", "backend", "threads", "ffmpeg", "reference_args",
             "distorted_args", "scale", "scale_size", "beside", "beside_ffmpeg", "decoder")
# The settings a log's scores depend on (threads do not change a bit).
_RECORDED_KEYS = ("kind", "width", "height", "pix_fmt", "frames", "backend", "ffmpeg",
                  "reference_args", "distorted_args", "scale", "scale_size", "beside",
                  "beside_ffmpeg")
# A record's members besides what made the log: the frames asked for, what the run found.
_FOUND_KEYS = ("scaled", "resolution", "frames", "beside_pooled", "beside_frames", "stream",
               "decoded",
               "doubtful_pairs")
SPEC_SUFFIX = ".spec.json"
# The member that makes a JSON file a spec file of this project (the library's
# output policy recognises it by "float_adm_spec": 1).
SPEC_VERSION = 1


def normalise_job(job):
    """A job as a plain dict: reference, distorted, name, kind, options, and the
    file or video settings it has.  A name not given is the distorted file's stem
    and a hash of the job, so it is the same in every run."""
    if isinstance(job, (tuple, list)):
        job = {"reference": job[0], "distorted": job[1]}
    spec = {k: v for k, v in dict(job).items() if v is not None}
    unknown = set(spec) - set(_JOB_KEYS)
    if unknown:
        raise ValueError("unknown job keys: %s" % ", ".join(sorted(unknown)))
    for key in ("reference", "distorted"):
        if key not in spec:
            raise ValueError("a job needs %s: %r" % (key, job))
        spec[key] = os.path.abspath(os.fspath(spec[key]))
    spec["kind"] = _kind(spec)
    spec["options"] = dict(spec.get("options", {}))
    if "name" not in spec:
        digest = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode())
        stem = os.path.basename(spec["distorted"]).split(".")[0] or "job"
        spec["name"] = "%s-%s" % (stem, digest.hexdigest()[:10])
    name = spec["name"]
    if not isinstance(name, str) or not name or "/" in name or name.startswith(".") or \
            re.search(r"[\x00-\x1f\x7f]", name):
        raise ValueError("job name %r: a file name is needed (no '/', no control "
                         "characters, not hidden)" % (name,))
    for key in ("width", "height", "frames", "threads"):
        if key in spec and (isinstance(spec[key], bool) or
                            not isinstance(spec[key], int) or spec[key] < 0):
            raise ValueError("job %s: %s must be a whole number, not %r"
                             % (shown(name), key, spec[key]))
    return spec


def _task_hash(spec, accept_doubtful_pairs):
    """A short hash of everything a job's task gives depends on (its scores, and
    whether pairs in doubt fail it): part of its task keys, so that Dask never takes
    one task's result for another's."""
    task = dict(spec, accept_doubtful_pairs=accept_doubtful_pairs)
    return hashlib.sha256(json.dumps(task, sort_keys=True, default=str).encode()).hexdigest()[:12]


def score_job(spec, start_frame=0, end_frame=None, progress=False, accept_doubtful_pairs=False):
    """Scores one job (or frames [start, end) of it) in this process; Results.
    accept_doubtful_pairs: a video's pairs in doubt are scored all the same
    (score_video's), not a DoubtfulPairsError."""
    common = dict(spec["options"])
    for key in ("backend", "threads"):
        if key in spec:
            common[key] = spec[key]
    if spec["kind"] == "files":
        if any(spec.get(key) for key in ("scale", "scale_size", "beside")) or \
                spec.get("decoder", "auto") != "auto":
            raise ValueError("job %s: scaling, metrics beside and decoder=%r need kind "
                             "\"video\" (ffmpeg's filters)" % (shown(spec["name"]),
                                                            spec.get("decoder", "auto")))
        return _files().score_files(
            reference=spec["reference"], distorted=spec["distorted"], width=spec.get("width"),
            height=spec.get("height"), pix_fmt=spec.get("pix_fmt"), frames=spec.get("frames"),
            start_frame=start_frame, end_frame=end_frame, progress=progress, **common)
    from .video import score_video
    if end_frame is None and spec.get("frames") is not None:
        end_frame = int(spec["frames"])
    return score_video(reference=spec["reference"], distorted=spec["distorted"],
                       ffmpeg=spec.get("ffmpeg"),
                       start_frame=start_frame, end_frame=end_frame,
                       reference_args=spec.get("reference_args", ()),
                       distorted_args=spec.get("distorted_args", ()), progress=progress,
                       scale=spec.get("scale"), scale_size=spec.get("scale_size"),
                       beside=spec.get("beside", ()), beside_ffmpeg=spec.get("beside_ffmpeg"),
                       decoder=spec.get("decoder", "auto"),
                       accept_doubtful_pairs=accept_doubtful_pairs, **common)


def _files():
    from . import files
    return files


def _regular_json(path):
    """The JSON in path where it is a regular file of its own (_read_regular), else
    None."""
    data = _read_regular(path)
    try:
        return parse_json(data, path, "a JSON file") if data is not None else None
    except ValueError:
        return None


def _read_regular(path):
    """The bytes of path where it is a regular file of its own (no link, FIFO or
    device is opened to be read: /dev/stdout, a FIFO would block), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a directory cannot even be fdopen'd
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            return f.read()
        except OSError:
            return None


def _finished(path):
    """The digest (log_digest) of the finished job's log at path (written whole by a
    rename, by a run that did not fail), else None."""
    data = _read_regular(path)
    try:
        log = parse_json(data, path, "a JSON log") if data is not None else None
    except ValueError:
        return None
    # A failed run's log ends "incomplete" (float_adm_log_abandon), without pooled values.
    if not isinstance(log, dict) or "pooled_metrics" not in log or "incomplete" in log:
        return None
    return log_digest(data)


def spec_path(log_path):
    """Where the record of what made a log lies: beside it, NAME.spec.json."""
    log_path = os.fspath(log_path)
    stem = log_path[:-5] if log_path.endswith(".json") else log_path
    return stem + SPEC_SUFFIX


def job_record(spec):
    """What a job's scores are made from: its inputs (path, size, modification time),
    float_adm's options as the library holds them (by full name), the settings that
    change scores, and the library's version."""
    from .scorer import make_options, options_dict, version
    inputs = {}
    for key in ("reference", "distorted"):
        try:
            st = os.stat(spec[key])
            inputs[key] = {"path": spec[key], "size": st.st_size, "mtime_ns": st.st_mtime_ns}
        except OSError:
            inputs[key] = {"path": spec[key]}
    settings = {k: spec[k] for k in _RECORDED_KEYS if k in spec}
    if spec.get("beside"):
        # How the metrics beside were paired: a log of another rule is scored again.
        from .video import PAIRING
        settings["beside_pairing"] = PAIRING
    record = {"inputs": inputs, "options": options_dict(make_options(spec["options"])),
              "settings": settings, "library": version()}
    return json.loads(json.dumps(record, default=str))  # as read back: lists, not tuples


def read_record(log_path):
    """The record beside a log, or None."""
    record = _regular_json(spec_path(log_path))
    return record if isinstance(record, dict) else None


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        flat = {}
        for key, item in value.items():
            flat.update(_flatten(item, "%s.%s" % (prefix, key) if prefix else key))
        return flat
    return {prefix: value}


def record_changes(old, new):
    """What differs between a log's record and the job's now: ["options.egl...: 100.0
    -> 1.2", ...]; ["no record of what made it"] without one."""
    if old is None:
        return ["no record of what made it"]
    before = _flatten({k: v for k, v in old.items()
                       if k not in _FOUND_KEYS + ("float_adm_spec", "log_sha256")})
    after = _flatten(new)
    return ["%s: %s -> %s" % (key, json.dumps(before.get(key)), json.dumps(after.get(key)))
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def _up_to_date(spec, path, accept_doubtful_pairs=False):
    """[] where path holds a finished log made from what the job is now, its record
    the one written with it (the log's digest), its pairs in doubt (if any) accepted
    now too; else what changed."""
    digest = _finished(path)
    if digest is None:
        return None
    record = read_record(path)
    if record is not None and record.get("log_sha256") != digest:
        return ["the record beside the log was written with another log" if "log_sha256"
                in record else "the record does not say which log it was written with"]
    changes = record_changes(record, job_record(spec))
    if not changes and not accept_doubtful_pairs and record.get("doubtful_pairs"):
        return ["doubtful_pairs: accepted when the log was made, not now"]
    return changes


def _finite(value):
    return value if value is not None and math.isfinite(value) else None


def add_results_to_record(record, results):
    """What scoring found out to a job's record: the size scored, the scaling done,
    and of the metrics measured beside float_adm, on the frames it scored, each frame's
    values (beside_frames: [{"frame": N, METRIC: value, ...}, ...]) and their pooled
    values (beside_pooled), each null where it is not finite (PSNR of a frame
    identical to its reference); the pairs in doubt scored as asked
    (accept_doubtful_pairs: Results.doubtful_pairs); which decoded a video's frames and
    why (decoded: {"by": "nvdec" or "cpu", "why": ...})."""
    from .results import pool
    if results.width and results.height:
        record["resolution"] = [results.width, results.height]
    if getattr(results, "scale", None):
        record["scaled"] = results.scale
    beside = getattr(results, "beside", None)
    if beside:
        record["beside_pooled"] = {
            name: {k: _finite(v) for k, v in pool(measured).items()}
            for name, measured in ((name, [v for v in values if v is not None])
                                   for name, values in beside.items()) if measured}
        record["beside_frames"] = [
            {"frame": f["frame"], **{name: _finite(values[i]) for name, values in beside.items()}}
            for i, f in enumerate(results.frames) if "skipped" not in f]
    if getattr(results, "doubtful_pairs", None):
        record["doubtful_pairs"] = results.doubtful_pairs
    if getattr(results, "decoder", None):
        record["decoded"] = {"by": results.decoder, "why": results.decoder_reason}


def scored_log_record(job, results, frames=None):
    """The record of a log scored outside a catalogue (score --json, a ladder's
    rung): the job's (job_record), the frames asked for, and what the run found."""
    record = job_record(normalise_job(dict(job, name=job.get("name", "score"))))
    if frames is not None:
        record["frames"] = frames
    add_results_to_record(record, results)
    return record


def log_digest(data):
    """The digest a record keeps of its log's bytes ("log_sha256"), by which a reader
    knows the log beside it is the one the record was written with."""
    return hashlib.sha256(data).hexdigest()


def begin_log(files, path, label="the log"):
    """A log and its record begun in a run's files (RunFiles.begin_output: each
    temporary made and locked, so that another run writing them is refused now):
    (log, record), the record None where the log goes to stdout or /dev/null."""
    from . import _lib
    log = files.begin_output(path, _lib.FLOAT_ADM_OUTPUT_LOG, label)
    if log.target in (_lib.FLOAT_ADM_TARGET_STDOUT, _lib.FLOAT_ADM_TARGET_DISCARD):
        return log, None
    return log, files.begin_output(spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC,
                                   label + "'s record")


def write_log_and_record(results, log, spec, record):
    """The JSON log of results to log and, where spec is given, record to spec, with
    the log's digest (log_digest) in it: they land together when their run commits."""
    results.write_log_to(log)
    if spec is not None:
        spec.write((json.dumps(dict(record, float_adm_spec=SPEC_VERSION,
                                    log_sha256=log_digest(log.written())),
                               indent=2, sort_keys=True) + "\n").encode("utf-8"))


def write_log(results, path, record):
    """A log and its record, each where the output policy lets it go (a record is a
    spec file: it says "float_adm_spec": 1, as the library recognises one), written
    to their locked temporaries and renamed into place together; the record keeps the
    log's digest, so that a log is never taken for what made another.  A log written
    to stdout or /dev/null has no record."""
    from .results import RunFiles
    inputs = [entry["path"] for entry in record.get("inputs", {}).values()
              if isinstance(entry, dict) and entry.get("path")]
    with RunFiles() as files:
        files.add_inputs(inputs)
        log, spec = begin_log(files, path)
        write_log_and_record(results, log, spec, record)
        files.commit()


def run_job(spec, path, accept_doubtful_pairs=False):
    """The task: score a job and write its log to path, with its record, unless a
    finished log made from the same is there already.  The log and record are begun
    (locked) before scoring and land together at the end: another run writing them is
    refused at once.  Returns a small summary (status, frames, pooled adm2, the pairs
    in doubt accepted)."""
    from .results import RunFiles
    if _up_to_date(spec, path, accept_doubtful_pairs) == []:
        return {"name": spec["name"], "status": "skipped", "path": path}
    from .video import DoubtfulPairsError
    record = job_record(spec)  # the inputs as they are when scoring begins
    with RunFiles() as files:
        files.add_inputs([spec["reference"], spec["distorted"]])
        log, record_output = begin_log(files, path, "job %s's log" % spec["name"])
        try:
            results = score_job(spec, accept_doubtful_pairs=accept_doubtful_pairs)
        except DoubtfulPairsError as error:
            # The same inputs give the same doubts: a failure to report, not to retry.
            return {"name": spec["name"], "status": "failed",
                    "error": "%s: %s" % (type(error).__name__, error)}
        add_results_to_record(record, results)
        write_log_and_record(results, log, record_output, record)
        files.commit()
    pooled = results.pooled.get("adm2", {})
    return {"name": spec["name"], "status": "scored", "path": path,
            "frames": len(results.frames), "adm2_mean": pooled.get("mean"),
            "doubtful_pairs": results.doubtful_pairs, "pid": os.getpid()}


def _remove_stale_temporaries(output_dir, names):
    """Temporaries of attempts that died before their rename: only those no writer
    holds (a run writing into the same directory keeps its own)."""
    from .results import remove_stale_temporary
    for name in names:
        for suffix in (".json", SPEC_SUFFIX):
            remove_stale_temporary(os.path.join(output_dir, name + suffix))


def _wait(futures, progress, label):
    """Waits for every future; progress (None: when stderr is a terminal) draws a bar
    of those finished (scored or failed) on stderr."""
    from distributed import as_completed, wait
    from ._progress import ProgressBar
    bar = ProgressBar(len(futures), enabled=progress, label=label)
    if bar.enabled and futures:
        for done, _ in enumerate(as_completed(futures), 1):
            bar.update(done)
        bar.close()
    wait(futures)


def _register_files(specs, output_dir, jobs_file):
    """The catalogue's files, as one run's: every input on this machine, then every log
    and record (see score_catalogue)."""
    from . import _lib
    from .results import RunFiles
    files = RunFiles()
    if jobs_file is not None:
        files.add_input(jobs_file, "the jobs")
    for spec in specs:
        for key in ("reference", "distorted"):
            if os.path.exists(spec[key]):  # ffmpeg may read what is no file here
                files.add_input(spec[key], "job %s's %s" % (spec["name"], key))
    for spec in specs:
        path = os.path.join(output_dir, spec["name"] + ".json")
        files.add_output(path, _lib.FLOAT_ADM_OUTPUT_LOG, "job %s's log" % spec["name"])
        files.add_output(spec_path(path), _lib.FLOAT_ADM_OUTPUT_SPEC,
                         "job %s's record" % spec["name"])


def score_catalogue(jobs, client, output_dir, retries=2, resources=None, progress=None,
                    raise_errors=True, jobs_file=None, accept_doubtful_pairs=False):
    """Scores a catalogue on a Dask cluster, one task per job; returns one summary
    dict per job, in the jobs' order ("status": "scored", "skipped" or "failed").

    jobs: dicts with reference, distorted and optionally name, kind ("files" or
    "video"; default: files for .yuv/.y4m or when width/height/pix_fmt are given),
    width, height, pix_fmt, frames, options ({name: value}), backend, threads,
    ffmpeg, reference_args, distorted_args, scale, scale_size, decoder; or (reference,
    distorted) pairs.  client: a distributed.Client.  output_dir: each job's JSON log goes to
    output_dir/NAME.json, written atomically, with output_dir/NAME.spec.json (what
    made it); a job whose log is there, made from what the job is now, is not scored
    again; one made from something else is scored again with a RescoreWarning
    naming what changed (its summary's "changed").  retries: how often Dask
    retries a job that raised (a job whose worker died is rescheduled by Dask in
    any case).  resources: Dask resources per job, e.g. {"GPU": 1}.  progress: a
    bar of jobs finished on stderr (None: when stderr is a terminal).
    raise_errors: raise CatalogueError at the end if a job failed
    (the others are finished all the same).  jobs_file: the file the jobs were read
    from, an input too.  accept_doubtful_pairs: a video job whose pairs the filter
    says are in doubt is scored all the same, the doubts in its record and summary
    (score_video's), and a log whose record lists doubts is up to date; by default
    such a log is scored again, and the job fails at once (the same inputs give the same
    doubts: no retry), its summary's error a DoubtfulPairsError's.  Every job's
    inputs and every log and record are told to the library as one run's (RunFiles)
    before any job is submitted: a log that would be an input, or another job's log
    or record, under any name, is refused (OutputRefused).
    """
    output_dir = os.path.abspath(os.fspath(output_dir))
    os.makedirs(output_dir, exist_ok=True)
    specs = [normalise_job(job) for job in jobs]
    names = [spec["name"] for spec in specs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError("job names must differ: %s" % ", ".join(map(shown, duplicates)))
    _register_files(specs, output_dir, jobs_file)
    summaries = [None] * len(specs)
    futures, where, changes = [], [], {}
    for i, spec in enumerate(specs):
        path = os.path.join(output_dir, spec["name"] + ".json")
        changed = _up_to_date(spec, path, accept_doubtful_pairs)
        if changed == []:
            summaries[i] = {"name": spec["name"], "status": "skipped", "path": path}
            continue
        if changed:
            changes[i] = changed
            warnings.warn("job %s: scored again, its log was made from something else: %s"
                          % (shown(spec["name"]), "; ".join(changed)), RescoreWarning,
                          stacklevel=2)
        key = "floatadm-job-%s-%s" % (spec["name"], _task_hash(spec, accept_doubtful_pairs))
        futures.append(client.submit(run_job, spec, path, accept_doubtful_pairs, key=key,
                                     retries=retries, resources=resources, pure=False))
        where.append(i)
    _wait(futures, progress, "jobs")
    failed = []
    for i, future in zip(where, futures):
        if future.status == "finished":
            summaries[i] = future.result()
            if i in changes:
                summaries[i]["changed"] = changes[i]
            if summaries[i]["status"] == "failed":
                failed.append((specs[i]["name"], summaries[i]["error"]))
        else:
            error = future.exception()
            summaries[i] = {"name": specs[i]["name"], "status": "failed",
                            "error": "%s: %s" % (type(error).__name__, error)}
            failed.append((specs[i]["name"], summaries[i]["error"]))
        future.release()
    _remove_stale_temporaries(output_dir, names)
    if failed and raise_errors:
        raise CatalogueError(failed)
    return summaries


def _count_frames(spec):
    """The title's frames: exact for files; for videos ffprobe's count (the last
    segment is open-ended, so a count that is short loses nothing)."""
    if spec["kind"] == "files":
        if spec.get("frames") is not None:
            return int(spec["frames"])
        return _files().frame_count(spec["reference"], spec["distorted"], spec.get("width"),
                                    spec.get("height"), spec.get("pix_fmt"))
    from .video import count_frames, find_ffmpeg
    if spec.get("frames") is not None:
        return int(spec["frames"])
    return count_frames(find_ffmpeg(spec.get("ffmpeg")), spec["distorted"],
                        spec.get("distorted_args", ()))


def _score_segment(spec, start, end, accept_doubtful_pairs):
    """A segment's Results, or its DoubtfulPairsError returned, not raised: the same
    inputs give the same doubts, which a retry would only say again."""
    from .video import DoubtfulPairsError
    try:
        return score_job(spec, start_frame=start, end_frame=end,
                         accept_doubtful_pairs=accept_doubtful_pairs)
    except DoubtfulPairsError as error:
        return error


def score_segments(reference, distorted, client, segment_frames, retries=2, resources=None,
                   progress=None, output=None, accept_doubtful_pairs=False, **kwargs):
    """Scores one title in segments of segment_frames frames in parallel on a Dask
    cluster and merges them; returns Results bit-identical to one process's.

    kwargs: a job's settings (kind, width, height, pix_fmt, frames, backend, threads,
    ffmpeg, reference_args, distorted_args) and float_adm's options by name or
    alias.  output: also write the merged JSON log there (atomically).
    accept_doubtful_pairs: as score_video's; the merged Results' doubtful_pairs are
    the segments'.
    """
    segment_frames = int(segment_frames)
    if segment_frames < 1:
        raise ValueError("segment_frames must be at least 1")
    job = {"reference": reference, "distorted": distorted}
    options = {}
    for key, value in kwargs.items():
        if key in _JOB_KEYS:
            job[key] = value
        else:
            options[key] = value
    job["options"] = options
    spec = normalise_job(job)
    if spec.get("beside"):
        raise ValueError("score_segments: metrics beside float_adm are measured over a "
                         "whole run (score_video), not merged from segments")
    total = client.submit(_count_frames, spec, pure=False, retries=retries,
                          resources=resources).result()
    if total is None:
        raise ValueError("%s: the frame count is unknown: give frames=N"
                         % shown(spec["distorted"]))
    starts = list(range(0, max(total, 1), segment_frames))
    futures = []
    for n, start in enumerate(starts):
        last = n + 1 == len(starts)
        end = None if last and spec["kind"] == "video" else min(start + segment_frames, total)
        key = "floatadm-segment-%s-%s-%d-%s" % (spec["name"],
                                                _task_hash(spec, accept_doubtful_pairs),
                                                start, end)
        futures.append(client.submit(_score_segment, spec, start, end, accept_doubtful_pairs,
                                     retries=retries, resources=resources, pure=False,
                                     key=key))
    _wait(futures, progress, "segments")
    parts = [f.result() for f in futures]
    for part in parts:
        if isinstance(part, Exception):
            raise part
    merged = Results.merge(parts)
    numbers = [f["frame"] for f in merged.frames]
    if numbers != list(range(len(numbers))) or (spec["kind"] == "files" and
                                                len(numbers) != total):
        raise RuntimeError("the segments do not make up frames 0..%d: got %d frames"
                           % (total - 1, len(numbers)))
    if output is not None:
        merged.to_json(output)
    return merged
