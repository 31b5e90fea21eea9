#!/usr/bin/env python3
# Regenerate patches/ffmpeg-<version>/ from a pristine FFmpeg release: a
# series that `git am` applies to the release tree, carrying the filter's own
# files (libavfilter/vf_float_adm*, the FATE tests and refs) as new files.
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-gen-patches.py PRISTINE_TREE_OR_TARBALL OUT_DIR
# Each edit of an FFmpeg file is anchored on a line every supported release
# has; the script fails loudly when an anchor is missing rather than guess.
# The output depends only on its inputs (fixed author and date), so a check
# can regenerate it and compare (make check-patches).

import difflib
import glob
import os
import re
import sys
import tarfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AUTHOR = "float_adm authors <float-adm@users.noreply.github.com>"
DATE = "Mon, 30 Nov 2026 00:00:00 +0000"

FILTER_DOC = r"""@anchor{float_adm}
@section float_adm

Compute Netflix VMAF's float ADM features (the Additive Detail Metric of
the VMAF model: @code{adm2}, @code{aim}, @code{adm3} and the four per-scale
scores) between two video streams, bit-exact with libvmaf's
@code{float_adm} feature extractor.

To enable compilation of this filter you need to configure FFmpeg with
@code{--enable-libfloatadm}.  libfloatadm is a static C++ library: configure
with @code{--pkg-config-flags=--static} so that its private dependencies
(@code{-lstdc++ -lm -lpthread}) are linked.

The first input is the distorted video ("main"), the second the reference.
Both must have the same width, height and bit depth; their chroma layouts
may differ, as only luma is read.  The first input's frames pass through
unchanged.  A resolution change mid-stream is an error; with
@command{ffmpeg}'s default @option{-reinit_filter} the filtergraph is rebuilt
instead, and the new filter instance goes on writing the same log, with frame
numbers that go on counting.

Each frame of the first input is paired with the reference frame nearest in
time (the framesync option @option{ts_sync_mode} defaults to @samp{nearest}
here), so that inputs whose timestamps are rounded differently (a loopback
decoder's milliseconds against a 1/24 s source) still pair frame by frame.
The filter warns when the inputs' time bases differ, and counts the pairs
that are more than half a frame apart.

For each scored frame the filter sets the frame metadata keys
@code{lavfi.float_adm.adm2}, @code{lavfi.float_adm.aim},
@code{lavfi.float_adm.adm3} and @code{lavfi.float_adm.adm_scale0} to
@code{lavfi.float_adm.adm_scale3}, and with @option{debug} also
@code{adm}, @code{adm_num}, @code{adm_den}, @code{adm_num_scale0} to
@code{adm_num_scale3} and @code{adm_den_scale0} to @code{adm_den_scale3},
each printed with 17 significant digits so that it parses back to the same
double.  At the end it logs the mean, minimum, maximum and harmonic mean of
each output.

The filter uses FFmpeg's filter threads; the scores do not depend on their
number.

It accepts the following options:

@table @option
@item debug
Also output the 11 debug features. Default is disabled.

@item adm_enhn_gain_limit, egl
Enhancement gain limit, in [1, 100]. Default is 100.

@item adm_norm_view_dist, nvd
Normalized viewing distance (viewing distance over display height), in
[0.75, 24]. Default is 3.

@item adm_noise_weight, nw
Noise weight, in [0, 1500]. Default is 0.03125.

@item adm_csf_scale, scf
@itemx adm_csf_diag_scale, scfd
Scale of the CSF and of its diagonal band, in [0, 50]. Default is 1.

@item adm_ref_display_height, rdf
Reference display height in pixels, in [1, 4320]. Default is 1080.

@item adm_csf_mode, csf
Contrast sensitivity function, in [0, 9]. Default is 0 (Watson).

@item adm_bypass_cm, bcm
Bypass contrast masking, in [0, 1]. Default is 0.

@item adm_adm3_apply_hm, aah
Apply the harmonic mean in @code{adm3}. Default is disabled.

@item adm_p_norm, apn
Exponent of the spatial pooling, in [1, 20]. Default is 3.

@item adm_dlm_weight, dlmw
Weight of the detail loss in @code{adm3}, in [0, 1]. Default is 0.5.

@item adm_min_val, min
Lower bound of @code{adm3}, in [0, 1]. Default is 0.

@item adm_f1s0, f1s0 @dots{} adm_f1s3, f1s3
@itemx adm_f2s0, f2s0 @dots{} adm_f2s3, f2s3
Per-scale band factors, in [-1, 10]. Default is -1: derived from the CSF.

@item adm_skip_aim_scale, sasc
Leave this scale out of @code{aim}, in [-1, 3]; -1 keeps all. Default is -1.

@item adm_skip_scale0, ssz
Leave scale 0 out of @code{adm2}. Default is disabled.

@item log_path
Write the per-frame scores and the pooled scores to this file (@samp{-}:
standard output).  Each frame is written and flushed as it is scored, and a
failed write fails that frame, so @command{ffmpeg} exits with an error.  A
path that is open in the process (one of the inputs or outputs) is refused,
as is one that another float_adm instance writes.

@item on_corrupt
What to do with frames the decoder flagged as corrupt:
@table @samp
@item score
Score them as decoded, with one warning per run of such frames.  The default:
measuring that damage is what the metric is for.
@item skip
Pass them on without scores; the log has an entry saying the frame was
skipped.
@item fail
Stop with an error.
@end table

@item log_fmt
Format of the log: @samp{json} (libvmaf's JSON layout, the default),
@samp{csv} or @samp{xml} (libvmaf's layouts too).

@item n_subsample
Score every @var{n}-th frame only; the other frames pass without metadata.
Default is 1.

@item metadata_prefix
Prefix of the frame metadata keys.  Give each of several chained instances its
own, so that their keys do not overwrite each other.  Default is
@samp{lavfi.float_adm}.

@item backend
Where the scores are computed:
@table @samp
@item auto
On the GPU for CUDA frames (@code{AV_PIX_FMT_CUDA}, from @code{hwupload_cuda}
or NVDEC), on the CPU for software frames.  The default.
@item cpu
On the CPU; CUDA frames are an error (add @code{hwdownload}).
@item cuda
On the GPU; software frames have their luma copied to the device
(@option{filter_hw_device}, or the default CUDA device).  Where no CUDA
device is usable, or FFmpeg was built without libfloatadm's CUDA backend
(@code{floatadm_cuda}, found by @command{configure} with
@code{--enable-cuda}), this is an error.
@end table
The GPU returns the CPU's scores bit for bit.  CUDA frames are scored on
their own device, CUDA context and stream, without copies to the host; both
inputs must be CUDA frames of one device.  Frames of two CUDA contexts (each
@code{hwupload_cuda} makes its own) have the reference's luma copied through
the host; @code{hwupload} with @option{filter_hw_device} shares one context.  A few frames are kept in
flight, so their scores arrive asynchronously; frames leave in order, each
with its metadata, and stay CUDA frames.
@end table

This filter also supports the @ref{framesync} options.

@subsection Examples
@itemize
@item
Score @file{distorted.mpg} against @file{reference.mpg} and print the
per-frame scores:
@example
ffmpeg -i distorted.mpg -i reference.mpg -lavfi "[0:v][1:v]float_adm,metadata=print" -f null -
@end example

@item
Write every output of every frame into a JSON log, as libvmaf does:
@example
ffmpeg -i distorted.mpg -i reference.mpg -lavfi "[0:v][1:v]float_adm=debug=1:log_fmt=json:log_path=adm.json" -f null -
@end example

@item
Score on the GPU frames decoded by NVDEC:
@example
ffmpeg -hwaccel cuda -hwaccel_output_format cuda -i distorted.mp4 -hwaccel cuda -hwaccel_output_format cuda -i reference.mp4 -lavfi "[0:v][1:v]float_adm" -f null -
@end example

@item
Score on the GPU frames decoded in software:
@example
ffmpeg -i distorted.mp4 -i reference.mp4 -init_hw_device cuda=gpu -filter_hw_device gpu -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda[r];[d][r]float_adm" -f null -
@end example

@item
Score a transcode while it runs: the loopback decoder @code{dec:0} decodes
what the encoder of output 0 wrote, and the scored stream must be mapped to
another output (an unlabeled filtergraph output would go to the first
output file and close a cycle):
@example
ffmpeg -i src.mkv -map 0:v -c:v mpeg2video out.mkv -dec 0:0 -filter_complex "[dec:0][0:v]float_adm=log_path=out.json[scored]" -map "[scored]" -f null -
@end example
@end itemize

"""

TRANSCODE_FUNC = r"""# $1: a lavfi source; $2: the container of the source file made from it (mkv
# or y4m); the rest: encoder options.  The transcode of the source file is
# scored in the loop (loopback decoder) and, afterwards, the written file
# against the source file paired by timestamp: both must equal pairing frame
# by frame (setpts=N/TB on both inputs).
float_adm_transcode(){
    src=$1
    container=$2
    shift 2
    srcfile="${outdir}/${test}.src.${container}"
    encfile="${outdir}/${test}.mkv"
    inloopfile="${outdir}/${test}.inloop"
    afterfile="${outdir}/${test}.after"
    indexfile="${outdir}/${test}.index"
    cleanfiles="$cleanfiles $srcfile $encfile $inloopfile $afterfile $indexfile"
    case $container in
        y4m) srcenc="-c:v wrapped_avframe -f yuv4mpegpipe" ;;
        *)   srcenc="-c:v ffv1 -f matroska" ;;
    esac
    ffmpeg -f lavfi -i "$src" $srcenc -y $(target_path $srcfile) || return
    ffmpeg -i $(target_path $srcfile) $ENC_OPTS "$@" -map 0:v -y -f matroska $(target_path $encfile) \
        -dec 0:0 -filter_complex "[dec:0][0:v]float_adm=debug=1,metadata=print:file=$(target_path $inloopfile)[scored]" \
        -map "[scored]" -f null - || return
    ffmpeg -i $(target_path $encfile) -i $(target_path $srcfile) \
        -lavfi "[0:v][1:v]float_adm=debug=1,metadata=print:file=$(target_path $afterfile)" \
        -f null - || return
    ffmpeg -i $(target_path $encfile) -i $(target_path $srcfile) \
        -lavfi "[0:v]setpts=N/TB[d];[1:v]setpts=N/TB[r];[d][r]float_adm=debug=1,metadata=print:file=$(target_path $indexfile)" \
        -f null - || return
    grep '^lavfi\.float_adm\.' $indexfile > $indexfile.scores
    grep '^lavfi\.float_adm\.' $inloopfile | diff - $indexfile.scores >&2 || return
    grep '^lavfi\.float_adm\.' $afterfile | diff - $indexfile.scores >&2 || return
    echo "$(grep -c '^lavfi\.float_adm\.adm2=' $indexfile.scores) frames: in-loop and timestamp-paired scores equal frame-by-frame scores"
    rm -f $indexfile.scores
}

float_adm_fail(){
    errlog="${outdir}/${test}.log"
    cleanfiles="$cleanfiles $errlog"
    ffmpeg -v error "$@" -f null - 2>$errlog && { echo "ffmpeg succeeded"; return 1; }
    sed -n 's/^\[Parsed_float_adm_[0-9]* @ [^]]*\] //p; /float_adm/p' $errlog | head -n 1
}

float_adm_fail_without_cuda(){
    CUDA_VISIBLE_DEVICES=-1
    export CUDA_VISIBLE_DEVICES
    float_adm_fail "$@"
}

"""


def insert_before(text, anchor, new, path):
    if anchor not in text:
        sys.exit(f"{path}: anchor not found: {anchor!r}")
    return text.replace(anchor, new + anchor, 1)


def insert_after(text, anchor, new, path):
    if anchor not in text:
        sys.exit(f"{path}: anchor not found: {anchor!r}")
    return text.replace(anchor, anchor + new, 1)


def edit_configure(t, p):
    t = insert_after(t, "  --enable-libflite        enable flite (voice synthesis) support via libflite [no]\n",
                     "  --enable-libfloatadm     enable the float_adm filter via libfloatadm [no]\n", p)
    t = insert_after(t, "    libflite\n", "    libfloatadm\n", p)
    t = insert_after(t, "    libdrm_getfb2\n", "    libfloatadm_cuda\n", p)
    t = insert_before(t, 'flite_filter_deps="libflite threads"\n',
                      'float_adm_filter_deps="libfloatadm"\n'
                      'float_adm_filter_suggest="libfloatadm_cuda"\n'
                      'libfloatadm_cuda_deps="cuda"\n', p)
    m = re.search(r"^enabled libflite .*\n", t, re.M)
    if not m:
        sys.exit(f"{p}: anchor not found: enabled libflite")
    # The CUDA backend where libfloatadm has one and FFmpeg has the CUDA hwcontext.
    return t[:m.end()] + \
        "enabled libfloatadm       && require_pkg_config libfloatadm floatadm float_adm.h float_adm_version\n" + \
        "enabled libfloatadm       && { enabled cuda && check_pkg_config libfloatadm_cuda floatadm_cuda float_adm_cuda.h float_adm_cuda_device_count || disable libfloatadm_cuda; }\n" + \
        t[m.end():]


def edit_makefile(t, p):
    return insert_before(t, "OBJS-$(CONFIG_FLOODFILL_FILTER)",
                         "OBJS-$(CONFIG_FLOAT_ADM_FILTER)              += vf_float_adm.o vf_float_adm_cuda.o vf_float_adm_pairs.o framesync.o\n", p)


def edit_allfilters(t, p):
    m = re.search(r"^extern const (\w+) ff_vf_floodfill;\n", t, re.M)
    if not m:
        sys.exit(f"{p}: anchor not found: ff_vf_floodfill")
    return t[:m.start()] + f"extern const {m.group(1)} ff_vf_float_adm;\n" + t[m.start():]


def edit_doc(t, p):
    return insert_before(t, "@section floodfill\n", FILTER_DOC, p)


def edit_tests_makefile(t, p):
    return insert_after(t, "include $(SRC_PATH)/tests/fate/flac.mak\n",
                        "-include $(SRC_PATH)/tests/fate/float_adm.mak\n", p)


def edit_fate_run(t, p):
    return insert_before(t, "pixfmt_conversion(){\n", TRANSCODE_FUNC, p)


def own_files(*patterns):
    """The project's files that the patch adds to the FFmpeg tree: (path in
    the tree, path here), sorted."""
    files = []
    for pattern, tree_dir in patterns:
        for here in sorted(glob.glob(os.path.join(TOP, pattern))):
            files.append((os.path.join(tree_dir, os.path.basename(here)), here))
    return files


FILTER_FILES = [("libavfilter/vf_float_adm*.[ch]", "libavfilter")]
FATE_FILES = [("tests/fate/float_adm.mak", "tests/fate"),
              ("tests/fate/float_adm_reltol.awk", "tests/fate"),
              ("tests/fate/ref/*", "tests/ref/fate")]

# (file name, subject, edits of FFmpeg files, the project's files added)
PATCHES = [
    ("0001-configure-add-enable-libfloatadm.patch",
     "configure: add --enable-libfloatadm", [("configure", edit_configure)], []),
    ("0002-lavfi-add-float_adm-filter.patch",
     "lavfi: add the float_adm filter",
     [("libavfilter/Makefile", edit_makefile), ("libavfilter/allfilters.c", edit_allfilters)],
     FILTER_FILES),
    ("0003-doc-filters-document-float_adm.patch",
     "doc/filters: document float_adm", [("doc/filters.texi", edit_doc)], []),
    ("0004-fate-add-float_adm-tests.patch",
     "fate: add the float_adm tests",
     [("tests/Makefile", edit_tests_makefile), ("tests/fate-run.sh", edit_fate_run)],
     FATE_FILES),
]


class Release:
    """Reads files of a pristine release, from its tree or its tarball."""

    def __init__(self, source):
        self.tar = tarfile.open(source) if os.path.isfile(source) else None
        self.tree = None if self.tar else source
        if self.tar:
            self.prefix = self.tar.getnames()[0].split("/")[0]

    def read(self, path):
        if self.tree:
            with open(os.path.join(self.tree, path), encoding="utf-8") as f:
                return f.read()
        return self.tar.extractfile(f"{self.prefix}/{path}").read().decode("utf-8")


def file_diff(path, old, new):
    """A git diff of one file; old None: a new file."""
    head = [f"diff --git a/{path} b/{path}\n"]
    if old is None:
        head.append("new file mode 100644\n")
    lines = list(difflib.unified_diff(
        [] if old is None else old.splitlines(True), new.splitlines(True),
        "/dev/null" if old is None else f"a/{path}", f"b/{path}", n=3))
    if lines and not new.endswith("\n"):
        sys.exit(f"{path}: no newline at the end of the file")
    # difflib writes "@@ -0,0 +1,N @@" for a new file as git does.
    return head + lines


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ffmpeg-gen-patches.py PRISTINE_TREE_OR_TARBALL OUT_DIR")
    release, out = Release(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "*.patch")):
        os.remove(old)
    series = []
    for number, (name, subject, edits, added) in enumerate(PATCHES, 1):
        body = ["From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n",
                f"From: {AUTHOR}\n", f"Date: {DATE}\n",
                f"Subject: [PATCH {number}/{len(PATCHES)}] {subject}\n", "\n", "---\n"]
        for path, edit in edits:
            old = release.read(path)
            body += file_diff(path, old, edit(old, path))
        for path, here in own_files(*added):
            with open(here, encoding="utf-8") as f:
                body += file_diff(path, None, f.read())
        body.append("-- \nfloat_adm\n\n")
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.writelines(body)
        series.append(name)
    with open(os.path.join(out, "series"), "w", encoding="utf-8") as f:
        f.write("\n".join(series) + "\n")


if __name__ == "__main__":
    main()
