#!/usr/bin/env python3
# Generate patches/ffmpeg-<version>/ from a pristine FFmpeg release: the
# series as ffmpeg-devel takes it, made by `git format-patch` on the release's
# files with the project's files added and the edits below; and, in its
# extras/ folder, the project's own patches that go on top of the series (the
# embedded ffmpeg is the series plus the extras).
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: scripts/ffmpeg-gen-patches.py RELEASE_TREE_OR_TARBALL OUT_DIR
#        scripts/ffmpeg-gen-patches.py --filter-sources FFMPEG_TREE
#          (the filter's files as that release's series and extras leave them,
#          written into the tree where they differ: the embedded build's sync step)
#
# What the patches are made from, all real files of this repository:
#   patches/src/series, extras   the patches' folders, in order: the series, then
#                                the extras
#   patches/src/<patch>/message.txt  its commit message
#   patches/src/<patch>/files    the project's files it adds, one path a line:
#                                libavfilter/..., tests/fate/ref/NAME (FFmpeg's
#                                tests/ref/fate/NAME); a filter source's
#                                LIBAVFILTER_VERSION_MAJOR conditionals are settled
#                                for the release, and the option table of
#                                include/float_adm.h is spelled out (a newer
#                                libfloatadm cannot change the options)
#   patches/src/<patch>/edits/<path>  the lines it adds to FFmpeg's <path>, each
#                                block under the line it goes before or after,
#                                or (an extra changing the series' text) the
#                                lines it replaces
#   patches/src/<patch>/changes.diff  (extras) its changes to the filter's sources
#                                as the earlier patches leave them (git apply)
# Each edit of an FFmpeg file is anchored on a line every supported release
# has; the script fails loudly when an anchor is missing rather than guess.
# What is computed, not written out: libavfilter/version.h's minor version
# bump, in each patch that adds a filter (edits libavfilter/allfilters.c).
# The output depends only on its inputs (fixed author, dates and commit ids),
# so that `make check-patches` can regenerate it and compare.

import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AUTHOR_NAME = "float_adm authors"
AUTHOR_EMAIL = "float-adm@users.noreply.github.com"
DATE = "2026-11-30T00:00:00+0000"

SRC = "patches/src"


def fail(msg):
    sys.exit("ffmpeg-gen-patches: " + msg)


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8") as f:
        return f.read()


def insert_before(text, anchor, new, path):
    if anchor not in text:
        fail(f"{path}: anchor not found: {anchor!r}")
    return text.replace(anchor, new + anchor, 1)


def library_version():
    v = {}
    for line in read("include/float_adm.h").splitlines():
        m = re.match(r"#define FLOAT_ADM_VERSION_(MAJOR|MINOR|PATCH) (\d+)", line)
        if m:
            v[m.group(1)] = m.group(2)
    return "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])


# ---- the filter's sources, as one release carries them ----

def drop_comment_above(lines):
    """Drop the comment that ends on the last of lines, if it stands alone."""
    if not lines or not lines[-1].rstrip().endswith("*/"):
        return
    first = len(lines) - 1
    while not lines[first].lstrip().startswith("/*"):
        if first == 0 or not lines[first].lstrip().startswith("*"):
            return
        first -= 1
    del lines[first:]


VERSION_IF = re.compile(r"#if LIBAVFILTER_VERSION_MAJOR\s*(<|<=|>|>=|==)\s*(\d+)\s*$")


def settle_version_conditionals(text, major, path):
    """Keep the branch of each `#if LIBAVFILTER_VERSION_MAJOR op N` that the
    release takes; drop the conditional and the comment just above it."""
    ops = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "==": int.__eq__}
    out = []
    stack = []  # per open #if: None (not ours) or [taking this branch, took it already]
    for line in text.splitlines(True):
        s = line.strip()
        m = VERSION_IF.match(s)
        if m:
            taken = ops[m.group(1)](major, int(m.group(2)))
            stack.append([taken, taken])
            drop_comment_above(out)
            continue
        if s.startswith(("#if", "#ifdef", "#ifndef")):
            stack.append(None)
        elif s.startswith("#el") and stack and stack[-1] is not None:
            if not s.startswith("#else"):
                fail(f"{path}: #elif in a LIBAVFILTER_VERSION_MAJOR conditional")
            stack[-1][0] = not stack[-1][1]
            continue
        elif s.startswith("#endif"):
            if not stack:
                fail(f"{path}: unbalanced #endif")
            if stack.pop() is not None:
                continue
        if all(c is None or c[0] for c in stack):
            out.append(line)
    if stack:
        fail(f"{path}: unterminated #if")
    return "".join(out)


OPTIONS_CALL = "    FLOAT_ADM_OPTIONS(ADM_OPTION, ADM_OPTION)\n"


def macro_definitions(text, prefix):
    """The #define blocks (with their continuation lines) of macros named
    prefix*, and the text without them and without the comment above them."""
    lines = text.splitlines(True)
    defs, out, i = [], [], 0
    while i < len(lines):
        if lines[i].startswith("#define " + prefix):
            if not defs:
                drop_comment_above(out)
            while lines[i].rstrip().endswith("\\"):
                defs.append(lines[i])
                i += 1
            defs.append(lines[i])
        else:
            out.append(lines[i])
        i += 1
    return "".join(defs), "".join(out)


def split_initializers(text):
    """`{ ... }, { ... },` into its top-level braces."""
    items, depth, start, quoted, i = [], 0, None, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                items.append(re.sub(r"\s+(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", " ", text[start:i + 1]))
        i += 1
    return items


def spell_out_options(text, path):
    """Replace FLOAT_ADM_OPTIONS(...) by the AVOption rows it expands to with
    the pinned libfloatadm's table, expanded by the C preprocessor with the
    filter's own ADM_* macros."""
    if OPTIONS_CALL not in text:
        fail(f"{path}: no {OPTIONS_CALL.strip()!r} to spell out")
    defs, text = macro_definitions(text, "ADM_")
    if not defs:
        fail(f"{path}: no ADM_* option macros")
    source = defs + "@@OPTIONS@@\n" + OPTIONS_CALL
    cpp = subprocess.run([os.environ.get("CC", "cc"), "-E", "-P", "-x", "c",
                          "-include", os.path.join(TOP, "include", "float_adm.h"), "-"],
                         input=source, capture_output=True, text=True)
    if cpp.returncode:
        fail(f"the C preprocessor failed on the option table:\n{cpp.stderr}")
    rows = split_initializers(cpp.stdout.split("@@OPTIONS@@", 1)[1])
    if not rows:
        fail("the option table expanded to nothing")
    spelled = ("    /* libvmaf's float_adm options as libfloatadm %s lists them\n"
               "     * (FLOAT_ADM_OPTIONS, float_adm.h), under libvmaf's names. */\n"
               % library_version())
    spelled += "".join("    %s,\n" % row for row in rows)
    return text.replace(OPTIONS_CALL, spelled, 1)


def settle_source(path, original, major):
    """A filter source as the release carries it."""
    text = settle_version_conditionals(original, major, path)
    if OPTIONS_CALL in text:
        text = spell_out_options(text, path)
    if "\n\n\n" not in original:
        text = re.sub(r"\n{3,}", "\n\n", text)  # where a block was dropped
    return text


def tree_path(path):
    """Where a project file goes in FFmpeg's tree."""
    if path.startswith("tests/fate/ref/"):
        return "tests/ref/fate/" + os.path.basename(path)
    return path


# ---- the patches ----

class Patch:
    def __init__(self, name):
        self.name = name
        self.dir = f"{SRC}/{name}"
        self.message = os.path.join(TOP, self.dir, "message.txt")
        if not os.path.isfile(self.message):
            fail(f"{self.dir}: no message.txt")
        files = os.path.join(TOP, self.dir, "files")
        self.files = read(f"{self.dir}/files").split() if os.path.isfile(files) else []
        edits = os.path.join(TOP, self.dir, "edits")
        self.edits = sorted(os.path.relpath(os.path.join(d, f), edits)
                            for d, _, fs in os.walk(edits) for f in fs)
        diff = os.path.join(TOP, self.dir, "changes.diff")
        self.diff = diff if os.path.isfile(diff) else None


def patch_list(kind):
    return [Patch(n) for n in read(f"{SRC}/{kind}").split()]


def edits_of(patch, path):
    """The insertions patches/src/<patch>/edits/PATH makes in the release's PATH:
    after its description, blocks of `@@ before REGEX` or `@@ after REGEX` and the
    lines to insert, or `@@ replace REGEX` and the lines that take the place of
    those it matches, where REGEX matches whole lines of the file (\\n between
    them) as the earlier patches leave it,
    \\1... in the lines stand for its groups and @FLOAT_ADM_VERSION@ for the
    library's version.  Texinfo comment lines that mark a generated block
    (scripts/gen-options.py's) are this repository's alone and left out."""
    text = read(f"{patch.dir}/edits/{path}")
    text = "".join(line for line in text.splitlines(True)
                   if not line.startswith(("@c begin: generated", "@c end: generated")))
    parts = re.split(r"^@@ (before|after|replace) (.*)\n", text, flags=re.M)
    if len(parts) < 4:
        fail(f"{patch.dir}/edits/{path}: no @@ before/after/replace block")
    return [(parts[i], parts[i + 1], parts[i + 2]) for i in range(1, len(parts), 3)]


def edit_file(t, patch, path):
    for where, anchor, new in edits_of(patch, path):
        m = re.search(r"^(?:%s)\n" % anchor, t, re.M)
        if not m:
            fail(f"{path}: no line matches the anchor {anchor!r} of {patch.dir}/edits/{path}")
        new = re.sub(r"\\(\d)", lambda g: m.group(int(g.group(1))), new)
        new = new.replace("@FLOAT_ADM_VERSION@", library_version())
        if where == "replace":
            t = t[:m.start()] + new + t[m.end():]
            continue
        at = m.start() if where == "before" else m.end()
        t = t[:at] + new + t[at:]
    return t


def edit_version(t, p):
    m = re.search(r"^(#define LIBAVFILTER_VERSION_MINOR\s+)(\d+)$", t, re.M)
    n = re.search(r"^(#define LIBAVFILTER_VERSION_MICRO\s+)(\d+)$", t, re.M)
    if not m or not n:
        fail(f"{p}: no LIBAVFILTER_VERSION_MINOR/MICRO")
    minor = str(int(m.group(2)) + 1)
    t = t[:m.start(2)] + " " * (len(m.group(2)) - len(minor)) + minor + t[m.end(2):]
    n = re.search(r"^(#define LIBAVFILTER_VERSION_MICRO\s+)(\d+)$", t, re.M)
    return t[:n.start(2)] + "100" + t[n.end(2):]


VERSION_H = "libavfilter/version.h"


def apply_diff(sources, patch):
    """sources (path: text) with patch's changes.diff applied."""
    work = tempfile.mkdtemp(prefix="ffmpeg-gen-patches.diff.")
    try:
        for path, text in sources.items():
            write(work, path, text)
        with open(patch.diff, encoding="utf-8") as f:
            r = subprocess.run(["git", "apply", "-p1", "-"], cwd=work,
                               stdin=f, capture_output=True, text=True)
        if r.returncode:
            fail(f"{patch.dir}/changes.diff does not apply:\n{r.stdout}{r.stderr}")
        out = {}
        for d, _, fs in os.walk(work):
            for f in fs:
                full = os.path.join(d, f)
                with open(full, encoding="utf-8") as fh:
                    out[os.path.relpath(full, work)] = fh.read()
        return out
    finally:
        shutil.rmtree(work)


def patch_states(patches, major):
    """Per patch: (path in the tree, text) of every file it writes; the project's
    files as the earlier patches and its own leave them."""
    sources, states = {}, []
    for patch in patches:
        for path in patch.files:
            sources[path] = read(path)
        if patch.diff:
            sources = apply_diff(sources, patch)
        states.append([(tree_path(p), settle_source(p, t, major) if p.startswith("libavfilter/") else t)
                       for p, t in sorted(sources.items())])
    return states


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

    def executable(self, path):
        if self.tree:
            return os.access(os.path.join(self.tree, path), os.X_OK)
        return bool(self.tar.getmember(f"{self.prefix}/{path}").mode & 0o100)

    def libavfilter_major(self):
        m = re.search(r"#define LIBAVFILTER_VERSION_MAJOR\s+(\d+)",
                      self.read("libavfilter/version_major.h"))
        if not m:
            fail("the release has no LIBAVFILTER_VERSION_MAJOR")
        return int(m.group(1))


def git(repo, *args, **kw):
    env = {"PATH": os.environ["PATH"], "HOME": repo, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "TZ": "UTC", "LC_ALL": "C",
           "GIT_AUTHOR_NAME": AUTHOR_NAME, "GIT_AUTHOR_EMAIL": AUTHOR_EMAIL,
           "GIT_COMMITTER_NAME": AUTHOR_NAME, "GIT_COMMITTER_EMAIL": AUTHOR_EMAIL,
           "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}
    return subprocess.run(["git", "-C", repo, "-c", "core.abbrev=10", "-c", "diff.algorithm=myers",
                           *args], env=env, check=True, capture_output=True, text=True, **kw).stdout


def write(repo, path, text):
    full = os.path.join(repo, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if not text.endswith("\n"):
        fail(f"{path}: no newline at the end of the file")
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def commit_patches(repo, release, patches, states):
    for patch, files in zip(patches, states):
        for path in patch.edits:
            with open(os.path.join(repo, path), encoding="utf-8") as f:
                old = f.read()
            write(repo, path, edit_file(old, patch, path))
        if "libavfilter/allfilters.c" in patch.edits:
            with open(os.path.join(repo, VERSION_H), encoding="utf-8") as f:
                write(repo, VERSION_H, edit_version(f.read(), VERSION_H))
        for path, text in files:
            write(repo, path, text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-F", patch.message)


def format_patches(repo, count, out, start):
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "*.patch")) + glob.glob(os.path.join(out, "series")):
        os.remove(old)
    names = git(repo, "format-patch", "--zero-commit", "--no-signature", "--numbered",
                "--start-number", str(start), "--stat=80", "-o", os.path.abspath(out),
                "HEAD~%d" % count).split()
    with open(os.path.join(out, "series"), "w", encoding="utf-8") as f:
        f.write("".join(os.path.basename(n) + "\n" for n in names))


def generate(source, out):
    release = Release(source)
    series, extras = patch_list("series"), patch_list("extras")
    states = patch_states(series + extras, release.libavfilter_major())
    edited = sorted({p for patch in series + extras for p in patch.edits} | {VERSION_H})
    repo = tempfile.mkdtemp(prefix="ffmpeg-gen-patches.")
    try:
        git(repo, "init", "-q")
        for path in edited:
            write(repo, path, release.read(path))
            if release.executable(path):
                os.chmod(os.path.join(repo, path), 0o755)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "release")
        commit_patches(repo, release, series, states[:len(series)])
        format_patches(repo, len(series), out, 1)
        if extras:
            commit_patches(repo, release, extras, states[len(series):])
            format_patches(repo, len(extras), os.path.join(out, "extras"), len(series) + 1)
    finally:
        shutil.rmtree(repo)


def write_filter_sources(tree):
    """The filter's files as the series and the extras leave them for the release
    in tree, written there where they differ (the embedded build compiles the
    working copies, not the committed patches)."""
    patches = patch_list("series") + patch_list("extras")
    for path, text in patch_states(patches, Release(tree).libavfilter_major())[-1]:
        full = os.path.join(tree, path)
        if os.path.exists(full):
            with open(full, encoding="utf-8") as f:
                if f.read() == text:
                    continue
        write(tree, path, text)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--filter-sources":
        write_filter_sources(args[1])
    elif len(args) == 2:
        generate(args[0], args[1])
    else:
        sys.exit("usage: ffmpeg-gen-patches.py RELEASE_TREE_OR_TARBALL OUT_DIR\n"
                 "       ffmpeg-gen-patches.py --filter-sources FFMPEG_TREE")


if __name__ == "__main__":
    main()
