#!/usr/bin/env python3
# Generate the project's own FATE tests of the golden corpus, bit for bit:
# tests/fate/corpus/float_adm_corpus.mak and its refs.  They run in the
# embedded FFmpeg only (make check-fate), beside the series' own tests
# (the refcmp tests in filter-video.mak, which need no samples and hold on any processor).
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage:
#   scripts/ffmpeg-fate-gen.py                       rewrite tests/fate/corpus/
#   scripts/ffmpeg-fate-gen.py --refs DIR [VALUES]   only the score refs, into DIR, with the
#                                                    frames of VALUES (a tests/corpus/hosts/*.json)
#
# libvmaf's float ADM depends on the processor's reciprocal estimate (RCPSS):
# the committed refs hold golden.json's values (its host's fingerprint); for a
# host whose fingerprint has a hosts/<fingerprint>.json, mk/ffmpeg.mk writes
# that host's refs into the FFmpeg tree instead; for a host with neither, it
# sets FLOAT_ADM_RELTOL and the scores are compared within that relative
# tolerance (tests/fate/corpus/float_adm_reltol.awk).  Values are printed with
# as the filter prints them (17 significant digits, no exponent), so a ref equals
# golden bit for bit.

import json
import math
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(TOP, "tests", "corpus")
OUTPUTS = ["adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3",
           "adm", "adm_num", "adm_den", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1",
           "adm_den_scale1", "adm_num_scale2", "adm_den_scale2", "adm_num_scale3",
           "adm_den_scale3"]
RATE = 25  # rawvideo's default frame rate: pts n, time base 1/25
# The kinds of pairs in doubt the filter counts at the end of its JSON and XML logs
# (float_adm_pair_doubt_name's order): the inputs here pair frame for frame, none.
PAIR_DOUBTS = ["apart", "reference_repeated", "main_repeated", "no_reference",
               "reference_after_main"]


def g17(x):
    """A value as the filter prints it: 17 significant digits, in plain decimals."""
    text = "%.17g" % x
    if "e" in text:
        text = "%.*f" % (max(0, 16 - math.floor(math.log10(abs(x)))), x)
    return text


def ts_time(pts):
    """libavutil's av_ts_make_time_string2() for time base 1/RATE."""
    val = (1.0 / RATE) * pts
    if val == 0:
        precision = 6
    else:
        import math
        log = math.floor(math.log10(abs(val)))
        precision = -log + 5 if log < 0 else 6
    s = "%.*f" % (precision, val)
    s = s.rstrip("0")
    return s.rstrip(".") or "0"


def option_text(value):
    if isinstance(value, str):
        return value
    return repr(value)


def slug(text):
    return text.replace("_", "-").lower()


def load_cases(values_path=None):
    with open(os.path.join(CORPUS, "golden.json")) as f:
        golden = json.load(f)
    cases = golden["cases"]
    if values_path:
        with open(values_path) as f:
            host = json.load(f)["cases"]
        if len(host) != len(cases):
            sys.exit(f"{values_path}: case count differs from golden.json")
        for case, hcase in zip(cases, host):
            if hcase["fixture"] != case["fixture"] or len(hcase["frames"]) != len(case["frames"]):
                sys.exit(f"{values_path}: case {case['fixture']} is not golden.json's")
            case["frames"] = hcase["frames"]
    fixtures = {f["name"]: f for f in golden["fixtures"]}
    return cases, fixtures


def frame_values(frame, debug):
    # libvmaf leaves aim undefined where adm_den is 0 (null in golden); the core reports 0.
    names = OUTPUTS if debug else OUTPUTS[:7]
    return [(n, 0.0 if frame[n] is None else frame[n]) for n in names]


def metadata_ref(frames, debug=True, subsample=1):
    lines = []
    for n, frame in enumerate(frames):
        if n % subsample:
            continue
        lines.append("frame:%-4d pts:%-7s pts_time:%s" % (n, n, ts_time(n)))
        lines += ["lavfi.float_adm.%s=%s" % (k, g17(v)) for k, v in frame_values(frame, debug)]
    return "\n".join(lines) + "\n"


def pooled(values):
    s, inv = 0.0, 0.0
    for v in values:
        s += v
        inv += 1.0 / (v + 1.0)
    n = len(values)
    return [("min", min(values)), ("max", max(values)), ("mean", s / n),
            ("harmonic_mean", n / inv - 1.0)]


def log_ref(fmt, frames, width, height, debug):
    names = OUTPUTS if debug else OUTPUTS[:7]
    rows = [frame_values(f, debug) for f in frames]
    columns = {name: [row[i][1] for row in rows] for i, name in enumerate(names)}
    out = []
    if fmt == "json":
        # The log goes to stdout, where its fps (timing) is never filled in: null.
        out.append('{\n  "version": "float_adm @VERSION@",\n  "fps": null,\n  "frames": [')
        for n, row in enumerate(rows):
            out.append((",\n" if n else "\n") + '    {\n      "frameNum": %d,\n      "metrics": {\n' % n)
            out.append(",\n".join('        "%s": %s' % (k, g17(v)) for k, v in row) + "\n")
            out.append("      }\n    }")
        out.append('\n  ],\n  "pooled_metrics": {')
        for i, name in enumerate(names):
            out.append((",\n" if i else "\n") + '    "%s": {' % name)
            out.append(",".join('\n      "%s": %s' % (k, g17(v)) for k, v in pooled(columns[name])))
            out.append("\n    }")
        out.append('\n  },\n  "aggregate_metrics": {\n  },\n  "pairing": {\n    "pairs": %d'
                   % len(frames))
        out.append("".join(',\n    "%s": 0' % kind for kind in PAIR_DOUBTS) + "\n  }\n}\n")
    elif fmt == "csv":
        out.append("Frame," + "".join(n + "," for n in names) + "\n")
        for n, row in enumerate(rows):
            out.append("%d," % n + "".join(g17(v) + "," for _, v in row) + "\n")
    else:
        out.append('<VMAF version="float_adm @VERSION@">\n'
                   '  <params qualityWidth="%d" qualityHeight="%d" />\n'
                   '  <fyi fps="nan" />\n  <frames>\n' % (width, height))
        for n, row in enumerate(rows):
            out.append('    <frame frameNum="%d" ' % n +
                       "".join('%s="%s" ' % (k, g17(v)) for k, v in row) + "/>\n")
        out.append("  </frames>\n  <pooled_metrics>\n")
        for name in names:
            out.append('    <metric name="%s" ' % name +
                       "".join('%s="%s" ' % (k, g17(v)) for k, v in pooled(columns[name])) + "/>\n")
        out.append("  </pooled_metrics>\n  <aggregate_metrics />\n")
        out.append('  <pairing pairs="%d" ' % len(frames) +
                   "".join('%s="0" ' % kind for kind in PAIR_DOUBTS) + "/>\n</VMAF>\n")
    return "".join(out)


def find_case(cases, fixture, option_set):
    for c in cases:
        if c["fixture"] == fixture and c["option_set"] == option_set:
            return c
    sys.exit(f"golden.json has no case {fixture} {option_set}")


ASTRONAUT = "astronaut_576x324_yuv420p_x264"
COINS = "coins_384x304_yuv420p10le_x265"
FLAT = "flat_576x324_yuv420p16le_onestep"
HD = "rocket_1920x1080_yuv420p_vp9"

# name: (fixture, option set of the expected scores, dist filters, ref filters, options, global opts)
# yuvj420p is read as such by rawvideo (fmt-yuvj420p): swscale would convert the range.
# Both inputs of one format: the filter takes one, as psnr does, and FFmpeg converts
# the other input to it.
FORMAT_TESTS = [
    ("fmt-nv12", ASTRONAUT, "default", "scale,format=nv12", "scale,format=nv12", "", ""),
    ("fmt-gray", ASTRONAUT, "default", "extractplanes=y", "extractplanes=y", "", ""),

    ("fmt-p010", COINS, "default", "scale,format=p010", "scale,format=p010", "", ""),
    ("fmt-gray10", COINS, "default", "extractplanes=y", "extractplanes=y", "", ""),
    ("fmt-p016", FLAT, "default", "scale,format=p016", "scale,format=p016", "", ""),
    ("threads-1", HD, "default", "", "", "", "-filter_threads 1"),
    ("threads-5", HD, "default", "", "", "", "-filter_threads 5"),
]

LOG_TESTS = [("log-json", "json", "testsrc2_576x324_yuv420p_mpeg2", True),
             ("log-csv", "csv", COINS, False),
             ("log-xml", "xml", "grass_322x182_yuv420p_vp9", True)]

def corpus_tests(cases):
    """(test name, fixture, expected case, dist filters, ref filters, options, global opts, kind)."""
    tests = []
    for c in cases:
        opts = ":".join("%s=%s" % (k, option_text(v)) for k, v in c["options"].items())
        tests.append(("%s-%s" % (slug(c["fixture"]), slug(c["option_set"])), c["fixture"], c,
                      "", "", opts, ""))
    for name, fixture, option_set, dist_f, ref_f, opts, gopts in FORMAT_TESTS:
        tests.append((name, fixture, find_case(cases, fixture, option_set), dist_f, ref_f, opts, gopts))
    tests.append(("fmt-yuvj420p", ASTRONAUT, find_case(cases, ASTRONAUT, "default"), "", "", "", ""))
    return tests


def score_refs(cases, fixtures):
    refs = {}
    for name, _fixture, case, *_ in corpus_tests(cases):
        refs["float-adm-corpus-" + name] = metadata_ref(case["frames"])
    astronaut = find_case(cases, ASTRONAUT, "default")
    refs["float-adm-corpus-nodebug"] = metadata_ref(astronaut["frames"], debug=False)
    refs["float-adm-corpus-subsample"] = metadata_ref(astronaut["frames"], subsample=2)
    for name, fmt, fixture, debug in LOG_TESTS:
        fx = fixtures[fixture]
        refs["float-adm-corpus-" + name] = log_ref(fmt, find_case(cases, fixture, "default")["frames"],
                                            fx["width"], fx["height"], debug)
    return refs


def write_refs(refs, out_dir, version):
    os.makedirs(out_dir, exist_ok=True)
    for name, text in refs.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text.replace("@VERSION@", version))


def core_version():
    with open(os.path.join(TOP, "include", "float_adm.h")) as f:
        v = {}
        for line in f:
            for part in ("MAJOR", "MINOR", "PATCH"):
                if line.startswith("#define FLOAT_ADM_VERSION_" + part):
                    v[part] = line.split()[2]
    return "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])


MAK_HEAD = """\
# The golden corpus through the float_adm filter, bit for bit: the project's
# own FATE tests, beside the series' (float_adm.mak).  Generated by
# scripts/ffmpeg-fate-gen.py from tests/corpus/golden.json: edit that script.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The tests read $(TARGET_SAMPLES)/float_adm/<fixture>.{dis,ref}.yuv (the
# corpus decompressed) and print all 18 outputs of every frame; their refs
# hold the golden values with 17 significant digits.  Run: make fate-float-adm-corpus SAMPLES=DIR
#
# The scores belong to the processor's reciprocal estimate (RCPSS), so they are
# compared bit for bit only where the refs hold this processor's values.  For a
# processor without recorded values, the project's build writes
# float_adm_host.mak with FLOAT_ADM_RELTOL: every number is then compared within
# that relative tolerance (float_adm_reltol.awk), and a failing ffmpeg adds a
# line to its output so that the test still fails.
-include $(SRC_PATH)/tests/fate/float_adm_host.mak

FLOAT_ADM_COMMA := ,
FLOAT_ADM_RAW = -f rawvideo -pix_fmt $(2) -s $(3) -i $(TARGET_SAMPLES)/float_adm/$(1)

# $(1): an ffmpeg command that prints scores
FLOAT_ADM_SCORES = $(if $(FLOAT_ADM_RELTOL),{ $(1) || echo "ffmpeg failed: $$?"; } \\
    | awk -v ref=$$ref -v tol=$(FLOAT_ADM_RELTOL) -f $(SRC_PATH)/tests/fate/float_adm_reltol.awk,$(1))

# $(1): fixture, $(2): pix_fmt, $(3): size, $(4): dist filters, $(5): ref filters,
# $(6): options after debug=1, $(7): global options
FLOAT_ADM_CORPUS = $(call FLOAT_ADM_SCORES,ffmpeg $(7) $(call FLOAT_ADM_RAW,$(1).dis.yuv,$(2),$(3)) $(call FLOAT_ADM_RAW,$(1).ref.yuv,$(2),$(3)) \\
    -lavfi "[0:v]$(or $(4),null)[dist];[1:v]$(or $(5),null)[ref];[dist][ref]float_adm=debug=1$(6)$(FLOAT_ADM_COMMA)metadata=print:file=-" -f null -)

FLOAT_ADM_DEPS = FLOAT_ADM_FILTER METADATA_FILTER NULL_FILTER RAWVIDEO_DEMUXER RAWVIDEO_DECODER \\
                 FILE_PROTOCOL NULL_MUXER WRAPPED_AVFRAME_ENCODER

"""

MAK_TAIL = """
FATE_FLOAT_ADM_CORPUS-$(call ALLYES, $(FLOAT_ADM_DEPS) SCALE_FILTER FORMAT_FILTER EXTRACTPLANES_FILTER) += $(FATE_FLOAT_ADM_CORPUS)
FATE_SAMPLES_FFMPEG += $(FATE_FLOAT_ADM_CORPUS-yes)
fate-float-adm-corpus: $(FATE_FLOAT_ADM_CORPUS-yes)
"""


def write_mak(cases, fixtures, path):
    out = [MAK_HEAD]
    for name, fixture, _case, dist_f, ref_f, opts, gopts in corpus_tests(cases):
        fx = fixtures[fixture]
        size = "%dx%d" % (fx["width"], fx["height"])
        out.append("FATE_FLOAT_ADM_CORPUS += fate-float-adm-corpus-%s\n" % name)
        pix_fmt = "yuvj420p" if name == "fmt-yuvj420p" else fx["pix_fmt"]
        out.append("fate-float-adm-corpus-%s: CMD = $(call FLOAT_ADM_CORPUS,%s,%s,%s,%s,%s,%s,%s)\n"
                   % (name, fixture, pix_fmt, size, dist_f.replace(",", "$(FLOAT_ADM_COMMA)"),
                      ref_f.replace(",", "$(FLOAT_ADM_COMMA)"), ":" + opts if opts else "", gopts))
    a = fixtures[ASTRONAUT]
    asize = "%dx%d" % (a["width"], a["height"])
    out.append("\n# Without debug: the 7 outputs; n_subsample=2: frames 0, 2, 4.\n")
    out.append("FATE_FLOAT_ADM_CORPUS += fate-float-adm-corpus-nodebug fate-float-adm-corpus-subsample\n")
    out.append("fate-float-adm-corpus-nodebug: CMD = $(call FLOAT_ADM_SCORES,ffmpeg $(call FLOAT_ADM_RAW,%s.dis.yuv,yuv420p,%s) "
               "$(call FLOAT_ADM_RAW,%s.ref.yuv,yuv420p,%s) -lavfi \"[0:v][1:v]float_adm$(FLOAT_ADM_COMMA)metadata=print:file=-\" -f null -)\n"
               % (ASTRONAUT, asize, ASTRONAUT, asize))
    out.append("fate-float-adm-corpus-subsample: CMD = $(call FLOAT_ADM_CORPUS,%s,yuv420p,%s,,,:n_subsample=2,)\n"
               % (ASTRONAUT, asize))
    out.append("\n# The log file in libvmaf's layouts, written to stdout.\n")
    for name, fmt, fixture, debug in LOG_TESTS:
        fx = fixtures[fixture]
        size = "%dx%d" % (fx["width"], fx["height"])
        out.append("FATE_FLOAT_ADM_CORPUS += fate-float-adm-corpus-%s\n" % name)
        out.append("fate-float-adm-corpus-%s: CMD = $(call FLOAT_ADM_SCORES,ffmpeg $(call FLOAT_ADM_RAW,%s.dis.yuv,%s,%s) "
                   "$(call FLOAT_ADM_RAW,%s.ref.yuv,%s,%s) -lavfi \"[0:v][1:v]float_adm=%slog_fmt=%s:log_path=-\" -f null -)\n"
                   % (name, fixture, fx["pix_fmt"], size, fixture, fx["pix_fmt"], size,
                      "debug=1:" if debug else "", fmt))
    out.append(MAK_TAIL)
    with open(path, "w") as f:
        f.write("".join(out))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--refs":
        cases, fixtures = load_cases(args[2] if len(args) > 2 else None)
        write_refs(score_refs(cases, fixtures), args[1], core_version())
        return
    cases, fixtures = load_cases()
    out_dir = os.path.join(TOP, "tests", "fate", "corpus")
    write_refs(score_refs(cases, fixtures), os.path.join(out_dir, "ref"), core_version())
    write_mak(cases, fixtures, os.path.join(out_dir, "float_adm_corpus.mak"))


if __name__ == "__main__":
    main()
