#!/usr/bin/env python3
# float_adm_score's logs against libvmaf 3.2.0's own (tests/data/libvmaf-logs): the same
# vmaf command lines on the same clip must give the same layouts, keys and their order,
# nesting, feature names and number formats in JSON, XML, CSV and sub; on the golden host
# (tests/corpus/golden.json's RCPSS fingerprint) the same values bit for bit, elsewhere the
# values are not compared (their bits belong to the processor, docs/exactness.md).
#
# Usage: check_libvmaf_logs.py FLOAT_ADM_SCORE CORPUS_DIR LOG_DIR WORK_DIR
# FLOAT_ADM_TEST_FINGERPRINT, if set, stands in for the host's fingerprint.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

CLIP = "astronaut_576x324_yuv420p_x264"
# Reference log stem, float_adm's --feature argument, whether libvmaf's log holds other
# features too (FFmpeg's libvmaf filter always adds the VMAF model's).
CASES = [
    ("vmaf_cli_default", "float_adm", False),
    ("vmaf_cli_egl1.2_apn2_csf1_debug",
     "float_adm=adm_enhn_gain_limit=1.2:adm_p_norm=2:adm_csf_mode=1:debug=true", False),
    ("ffmpeg_libvmaf_egl1.2", "float_adm=adm_enhn_gain_limit=1.2", True),
]
FORMATS = ["json", "xml", "csv", "sub"]
POOL_METHODS = ["min", "max", "mean", "harmonic_mean"]
FPS = re.compile(r"^[0-9]+\.[0-9]{2}$")

errors = []


def check(condition, message):
    if not condition:
        errors.append(message)
    return condition


def is_g17(text):
    """A score as both writers print it: %.17g, which reads back as the same double."""
    try:
        return "%.17g" % float(text) == text
    except ValueError:
        return False


class ComparedLog:
    """One log reduced to what is compared: per frame (number, [(name, text)]), and the
    pooled [(name, [(method, text)])]; the layout checks run while reading."""

    def __init__(self, label):
        self.label = label
        self.frames = []
        self.pooled = []

    def restrict(self, names):
        """libvmaf's outputs that float_adm has, in libvmaf's order."""
        keep = set(names)
        self.frames = [(n, [m for m in metrics if m[0] in keep]) for n, metrics in self.frames]
        self.pooled = [p for p in self.pooled if p[0] in keep]


def read_json(path, label):
    log = ComparedLog(label)
    text = open(path).read()
    doc = json.loads(text, parse_float=str, parse_int=str,
                     object_pairs_hook=lambda pairs: pairs)
    keys = [key for key, _ in doc]
    check(keys == ["version", "fps", "frames", "pooled_metrics", "aggregate_metrics"],
          f"{label}: top-level keys {keys}")
    top = dict(doc)
    check(isinstance(top.get("version"), str), f"{label}: version is no string")
    check(re.search(r'\n  "fps": [0-9]+\.[0-9]{2} *,\n', text) is not None,
          f"{label}: fps is no %.2f number")
    for frame in top.get("frames", []):
        check([key for key, _ in frame] == ["frameNum", "metrics"],
              f"{label}: frame keys {[key for key, _ in frame]}")
        fields = dict(frame)
        log.frames.append((fields["frameNum"], list(fields["metrics"])))
    for name, methods in top.get("pooled_metrics", []):
        log.pooled.append((name, list(methods)))
    check(top.get("aggregate_metrics") == [], f"{label}: aggregate_metrics is not {{}}")
    return log


def read_xml(path, label):
    log = ComparedLog(label)
    root = ElementTree.parse(path).getroot()
    check(root.tag == "VMAF" and list(root.attrib) == ["version"],
          f"{label}: root <{root.tag} {list(root.attrib)}>")
    tags = [child.tag for child in root]
    check(tags == ["params", "fyi", "frames", "pooled_metrics", "aggregate_metrics"],
          f"{label}: elements {tags}")
    children = {child.tag: child for child in root}
    params = children.get("params")
    check(params is not None and params.attrib == {"qualityWidth": "576",
                                                   "qualityHeight": "324"},
          f"{label}: params {params.attrib if params is not None else None}")
    fyi = children.get("fyi")
    check(fyi is not None and list(fyi.attrib) == ["fps"] and FPS.match(fyi.attrib["fps"]),
          f"{label}: fyi {fyi.attrib if fyi is not None else None}")
    for frame in children.get("frames", []):
        attributes = list(frame.attrib.items())
        check(frame.tag == "frame" and attributes[0][0] == "frameNum",
              f"{label}: <{frame.tag} {attributes[:1]}>")
        log.frames.append((attributes[0][1], attributes[1:]))
    for metric in children.get("pooled_metrics", []):
        attributes = list(metric.attrib.items())
        check(metric.tag == "metric" and attributes[0][0] == "name",
              f"{label}: <{metric.tag} {attributes[:1]}>")
        log.pooled.append((attributes[0][1], attributes[1:]))
    aggregate = children.get("aggregate_metrics")
    check(aggregate is not None and not aggregate.attrib and not len(aggregate),
          f"{label}: aggregate_metrics is not empty")
    return log


def read_csv(path, label):
    log = ComparedLog(label)
    lines = open(path).read().split("\n")
    check(lines[-1] == "", f"{label}: no newline at the end")
    header = lines[0].split(",")
    check(header[0] == "Frame" and header[-1] == "", f"{label}: header {lines[0]}")
    names = header[1:-1]
    for line in lines[1:-1]:
        fields = line.split(",")
        if not check(len(fields) == len(header) and fields[-1] == "",
                     f"{label}: row {line}"):
            continue
        log.frames.append((fields[0], list(zip(names, fields[1:-1]))))
    return log


SUB_LINE = re.compile(r"^\{([0-9]+)\}\{([0-9]+)\}frame: ([0-9]+)\|(.*)$")


def read_sub(path, label):
    log = ComparedLog(label)
    lines = open(path).read().split("\n")
    check(lines[-1] == "", f"{label}: no newline at the end")
    for line in lines[:-1]:
        match = SUB_LINE.match(line)
        if not check(match is not None, f"{label}: line {line[:60]}"):
            continue
        start, end, number, rest = match.groups()
        check(int(end) == int(start) + 1 and start == number, f"{label}: {line[:40]}")
        fields = rest.split("|")
        check(fields[-1] == "", f"{label}: no '|' after the last value")
        metrics = []
        for field in fields[:-1]:
            name, separator, value = field.partition(": ")
            check(separator == ": ", f"{label}: field {field}")
            metrics.append((name, value))
        log.frames.append((number, metrics))
    return log


READERS = {"json": read_json, "xml": read_xml, "csv": read_csv, "sub": read_sub}


def compare(ours, theirs, exact):
    label = ours.label
    check([n for n, _ in ours.frames] == [n for n, _ in theirs.frames],
          f"{label}: frame numbers {[n for n, _ in ours.frames]} vs "
          f"{[n for n, _ in theirs.frames]}")
    for (number, got), (_, want) in zip(ours.frames, theirs.frames):
        if not check([name for name, _ in got] == [name for name, _ in want],
                     f"{label} frame {number}: names {[name for name, _ in got]} vs "
                     f"libvmaf's {[name for name, _ in want]}"):
            continue
        for (name, value), (_, reference) in zip(got, want):
            check(is_g17(value) and is_g17(reference),
                  f"{label} frame {number} {name}: {value} / {reference} not %.17g")
            if exact:
                check(float(value) == float(reference),
                      f"{label} frame {number} {name}: {value} != libvmaf's {reference}")
    if not check([name for name, _ in ours.pooled] == [name for name, _ in theirs.pooled],
                 f"{label}: pooled names {[n for n, _ in ours.pooled]} vs "
                 f"{[n for n, _ in theirs.pooled]}"):
        return
    for (name, got), (_, want) in zip(ours.pooled, theirs.pooled):
        check([m for m, _ in got] == POOL_METHODS and [m for m, _ in want] == POOL_METHODS,
              f"{label} pooled {name}: {[m for m, _ in got]} vs {[m for m, _ in want]}")
        for (method, value), (_, reference) in zip(got, want):
            check(is_g17(value) and is_g17(reference),
                  f"{label} pooled {name} {method}: {value} / {reference} not %.17g")
            if exact:
                check(float(value) == float(reference),
                      f"{label} pooled {name} {method}: {value} != libvmaf's {reference}")


def main():
    binary, corpus, log_dir, work = sys.argv[1:5]
    golden = json.load(open(os.path.join(corpus, "golden.json")))
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    fingerprint = (os.environ.get("FLOAT_ADM_TEST_FINGERPRINT") or
                   version.split("rcpss fingerprint: ")[-1].split()[0])
    exact = fingerprint == golden["reference"]["rcpss_sha256"]
    if not exact:
        print(f"NOTE: RCPSS fingerprint {fingerprint} is not the golden host's: libvmaf's "
              "logs compared for layout and names, not values", file=sys.stderr)
    inputs = {}
    for kind in ("ref", "dis"):
        inputs[kind] = os.path.join(work, f"{CLIP}.{kind}.yuv")
        if not os.path.exists(inputs[kind]):
            with open(inputs[kind], "wb") as out:
                subprocess.run(["xz", "-dc", os.path.join(corpus, f"{CLIP}.{kind}.yuv.xz")],
                               stdout=out, check=True)
    compared = 0
    for stem, feature, other_features in CASES:
        for fmt in FORMATS:
            label = f"{stem}.{fmt}"
            output = os.path.join(work, f"ours_{label}")
            # libvmaf's command line, as the README of the logs gives it.
            command = [binary, "-r", inputs["ref"], "-d", inputs["dis"], "-w", "576",
                       "-h", "324", "-p", "420", "-b", "8", "-n", "-q", "--feature", feature,
                       f"--{fmt}", "-o", output]
            run = subprocess.run(command, capture_output=True, text=True)
            if not check(run.returncode == 0 and run.stdout == "",
                         f"{label}: exit {run.returncode}, stdout {run.stdout!r}: "
                         f"{run.stderr.strip()}"):
                continue
            ours = READERS[fmt](output, label)
            theirs = READERS[fmt](os.path.join(log_dir, label), label + " (libvmaf)")
            names = {name for _, metrics in ours.frames for name, _ in metrics}
            before = len(theirs.frames[0][1]) if theirs.frames else 0
            theirs.restrict(names)
            after = len(theirs.frames[0][1]) if theirs.frames else 0
            check(other_features or before == after,
                  f"{label}: libvmaf's log has outputs float_adm_score's lacks")
            check(after > 0, f"{label}: no float_adm output of libvmaf's found")
            compare(ours, theirs, exact)
            compared += 1
    shown = 40
    for message in errors[:shown]:
        print(message, file=sys.stderr)
    if len(errors) > shown:
        print(f"... and {len(errors) - shown} more", file=sys.stderr)
    what = "values bit for bit" if exact else "layout and names"
    print(f"libvmaf logs: {compared} logs compared ({what}), {len(errors)} differences",
          file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
