#!/usr/bin/env python3
# The option table (FLOAT_ADM_OPTIONS in include/float_adm.h) against what is made
# from it: the texts scripts/gen-options.py writes (FloatAdmOptions, README.md's and
# docs/ffmpeg.md's tables, the filter's texinfo, the man page) must be what it writes
# now; `float_adm_score --list-options` must print the table with its aliases; and,
# where an ffmpeg is given, `ffmpeg -h filter=float_adm` (and `-h filter=float_adm_cuda`
# where that ffmpeg has the CUDA filter) must list every option of the table, in its
# order, under its full name only (the filters take no alias, as FFmpeg's filters name
# an option once), with its type, default and range (the filter's own options, log_path
# and the rest, are not the table's and are left alone).
#
# Usage: check_option_docs.py --score FLOAT_ADM_SCORE [--ffmpeg FFMPEG] [--self-test]
# --self-test also checks that each listing, changed in a few ways (a default, an
# alias added or changed, a range, a missing option), fails: the check itself cannot go
# blind.
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "scripts", "gen-options.py")
HEADER = "include/float_adm.h"


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_options", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Option:
    """One option as a source gives it; None where the source does not say."""

    def __init__(self, name, alias, kind, default, bounds, where):
        self.name, self.alias, self.kind = name, alias, kind
        self.default = default  # a number (bools: 0 or 1)
        self.bounds = bounds    # (min, max), "bool", or None
        self.where = where


def header_table():
    """The table as the header defines it (read as gen-options.py reads it)."""
    return [Option(o.name, o.alias, o.kind, float(o.default),
                   "bool" if o.kind == "bool" else (float(o.min), float(o.max)), HEADER)
            for o in load_generator().read_table(ROOT)]


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def parse_list_options(text, label):
    listed = []
    for lineno, line in enumerate(text.splitlines(), 1):
        name, alias, kind, default, lo, hi = line.split("\t")
        bounds = "bool" if kind == "bool" else (float(lo), float(hi))
        listed.append(Option(name, alias or None, kind, float(default), bounds,
                             f"{label}:{lineno}"))
    return listed, []


def number(text):
    """A documented value: a number, or a boolean word."""
    text = text.strip().strip("`").lower()
    words = {"false": 0.0, "disabled": 0.0, "true": 1.0, "enabled": 1.0}
    if text in words:
        return words[text]
    try:
        return float(text)
    except ValueError:
        return None


# ---- ffmpeg -h filter=float_adm ----

# The filters whose options are the table's: float_adm, and float_adm_cuda where the
# ffmpeg has it.
FILTERS = ("float_adm", "float_adm_cuda")


def parse_ffmpeg_help(text, label):
    """One Option per row of the filter's own AVOptions section (the first; framesync's
    follows it).  The filter takes each option under its full name only: a row named
    as the table's alias is a row of its own, which compare() reports."""
    rows = []
    section = False
    for lineno, line in enumerate(text.splitlines(), 1):
        if not section and re.match(r"\S+ AVOptions:$", line):
            section = True
            continue
        if section and line and not line.startswith(" "):
            break
        m = re.match(r"\s+(\S+)\s+<(\w+)>\s+\S+\s?(.*)$", line) if section else None
        if not m:
            continue
        key, kind, rest = m.groups()
        kind = {"boolean": "bool"}.get(kind, kind)
        r = re.search(r"\(from (\S+) to (\S+)\)", rest)
        d = re.search(r"\(default ([^)]*)\)\s*$", rest)
        bounds = (number(r.group(1)), number(r.group(2))) if r else ("bool" if kind == "bool" else None)
        rows.append(Option(key, None, kind, number(d.group(1)) if d else None, bounds,
                           f"{label}:{lineno}"))
    if not section:
        return [], [f"{label}: no 'AVOptions:' section"]
    return rows, []


def refuse_aliases(rows, table):
    """The filter's rows less those named as an alias of the table, each an error: the
    filter takes libvmaf's options under their full names only."""
    alias_of = {o.alias: o.name for o in table if o.alias}
    names = {o.name for o in table}
    kept, errors = [], []
    for row in rows:
        if row.name not in names and row.name in alias_of:
            errors.append(f"{row.where}: {row.name}: an alias of {alias_of[row.name]}; the "
                          f"filter takes the full name only")
        else:
            kept.append(row)
    return kept, errors


# ---- The comparison ----

def show(bounds):
    return bounds if isinstance(bounds, str) or bounds is None else f"[{bounds[0]:g}, {bounds[1]:g}]"


def compare(label, documented, table, aliases=True):
    """Each documented option against the table's; aliases=False: a source that names
    no alias (the filters)."""
    errors = []
    by_name = {o.name: o for o in table}
    seen = []
    for d in documented:
        t = by_name.get(d.name)
        if t is None:
            if d.name.startswith("adm_") or d.name == "debug":
                errors.append(f"{d.where}: {d.name} is not in the option table")
            continue
        if d.name in seen:
            errors.append(f"{d.where}: {d.name} documented twice")
            continue
        seen.append(d.name)
        if aliases and d.alias != t.alias:
            errors.append(f"{d.where}: {d.name}: alias {d.alias} (the table: {t.alias})")
        if d.kind is not None and d.kind != t.kind:
            errors.append(f"{d.where}: {d.name}: type {d.kind} (the table: {t.kind})")
        if d.default != t.default:
            errors.append(f"{d.where}: {d.name}: default {d.default} (the table: {t.default:g})")
        if d.bounds != t.bounds:
            errors.append(f"{d.where}: {d.name}: range {show(d.bounds)} (the table: {show(t.bounds)})")
    missing = [o.name for o in table if o.name not in seen]
    if missing:
        errors.append(f"{label}: missing {', '.join(missing)}")
    order = [o.name for o in table if o.name in seen]
    if seen != order:
        k = next(i for i, (a, b) in enumerate(zip(seen, order)) if a != b)
        errors.append(f"{label}: {seen[k]} where the table has {order[k]} "
                      f"(the documentation follows the table's order)")
    return errors


def check(label, text, parser, table):
    options, errors = parser(text, label)
    if parser is parse_ffmpeg_help:
        options, more = refuse_aliases(options, table)
        return errors + more + compare(label, options, table, aliases=False)
    return errors + compare(label, options, table)


def alias_mutation(text):
    """A listing with dlmw's alias changed where it names aliases (--list-options), or
    with a row of the alias added after its option's where it names none (the filter)."""
    if re.search(r"\bdlmw\b", text):
        return re.sub(r"\bdlmw\b", "dlw", text)
    lines = []
    for line in text.splitlines():
        lines.append(line)
        if re.match(r"\s+adm_dlm_weight\s", line):
            lines.append(line.replace("adm_dlm_weight", "dlmw", 1))
    return "\n".join(lines)


# Each must make every program's listing fail: a default, an alias, a range, a missing
# option.
MUTATIONS = [
    ("a default", lambda t: t.replace("0.03125", "0.0625", 1)),
    ("an alias", alias_mutation),
    ("a range", lambda t: t.replace("4320", "4321")),
    ("a missing option", lambda t: "\n".join(l for l in t.splitlines() if "adm_p_norm" not in l)),
]


def filter_help(ffmpeg, name):
    """ffmpeg -h filter=NAME, or None where ffmpeg has no such filter."""
    text = run(ffmpeg, "-hide_banner", "-h", f"filter={name}")
    return text if re.search(rf"^Filter {re.escape(name)}$", text, re.M) else None


def main():
    ap = argparse.ArgumentParser(description="Check what is made from the option table.")
    ap.add_argument("--score", required=True, help="float_adm_score (for --list-options)")
    ap.add_argument("--ffmpeg", help="an ffmpeg with the float_adm filter")
    ap.add_argument("--self-test", action="store_true",
                    help="also check that each listing, changed in a few ways, fails")
    args = ap.parse_args()
    failed = subprocess.run([sys.executable, GEN, "--check"]).returncode != 0
    table = header_table()
    sources = [(f"{args.score} --list-options", run(args.score, "--list-options"),
                parse_list_options)]
    for name in FILTERS if args.ffmpeg else ():
        text = filter_help(args.ffmpeg, name)
        if text is None and name == FILTERS[0]:
            print(f"FAIL: {args.ffmpeg} has no {name} filter")
            failed = True
        elif text is not None:
            sources.append((f"{args.ffmpeg} -h filter={name}", text, parse_ffmpeg_help))
    for label, text, parser in sources:
        errors = check(label, text, parser, table)
        for e in errors:
            print(f"FAIL: {e}")
        if not errors:
            print(f"ok: {label}: {len(table)} options as the table says")
        failed |= bool(errors)
        for what, mutate in MUTATIONS if args.self_test else []:
            changed = mutate(text)
            if changed == text or not check(label, changed, parser, table):
                print(f"FAIL: self-test: {label} with {what} changed still passes")
                failed = True
    if args.self_test and not failed:
        print(f"ok: self-test: {len(MUTATIONS)} changes to each listing are caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
