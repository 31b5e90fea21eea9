#!/usr/bin/env python3
# The option table (FLOAT_ADM_OPTIONS in include/float_adm.h, as printed by
# float_adm_score --list-options) against every place that documents it:
# README.md's and docs/ffmpeg.md's options tables, the filter's texinfo @items in
# doc/float_adm.texi, and `ffmpeg -h filter=float_adm` where an ffmpeg
# is given.  Each must list every option of the table, in its order, with its
# alias, default and range (and type, where it gives one); a documented adm_*
# option that the table lacks is an error too.  Options of the filter alone
# (log_path, ...) are not the table's and are left alone.
#
# Usage: check_option_docs.py --score FLOAT_ADM_SCORE [--ffmpeg FFMPEG] [--self-test]
# --self-test also checks that each source, changed in a few ways (a default, an
# alias, a range, a missing option), fails: the check itself cannot go blind.
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Option:
    """One option as a source gives it; None where the source does not say."""

    def __init__(self, name, alias, kind, default, bounds, where):
        self.name, self.alias, self.kind = name, alias, kind
        self.default = default  # a number (bools: 0 or 1)
        self.bounds = bounds    # (min, max), "bool", or None
        self.where = where


def load_table(score):
    out = subprocess.run([score, "--list-options"], check=True, capture_output=True,
                         text=True).stdout
    table = []
    for line in out.splitlines():
        name, alias, kind, default, lo, hi = line.split("\t")
        bounds = "bool" if kind == "bool" else (float(lo), float(hi))
        table.append(Option(name, alias or None, kind, float(default), bounds, "table"))
    if not table:
        sys.exit(f"{score} --list-options printed no options")
    return table


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


def series(first, last=None, count=None):
    """adm_f1s0 ... adm_f1s3: the names from first to last (or count names from first)."""
    m = re.fullmatch(r"(.*?)(\d+)", first)
    if not m:
        return [first]
    start = int(m.group(2))
    if last is not None:
        n = re.fullmatch(re.escape(m.group(1)) + r"(\d+)", last)
        if not n:
            return [first, last]
        count = int(n.group(1)) - start + 1
    return [m.group(1) + str(start + k) for k in range(count or 1)]


# ---- Markdown: the first table after a "## Options" heading ----

def parse_markdown(text, label):
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "## Options")
    except StopIteration:
        return [], [f"{label}: no '## Options' section"]
    rows = []
    header = None
    for i in range(start + 1, len(lines)):
        line = lines[i].strip()
        if not line.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
        elif not set(line) <= set("|-: "):
            rows.append((i + 1, dict(zip(header, cells))))
    options = []
    for lineno, row in rows:
        where = f"{label}:{lineno}"
        names = re.findall(r"`([^`]+)`", row.get("option", ""))
        if not names:
            continue
        aliases = re.findall(r"`([^`]+)`", row.get("alias", ""))
        if "…" in row.get("option", "") and len(names) == 2:
            names = series(names[0], names[1])
        if len(aliases) == 2 and "…" in row.get("alias", ""):
            aliases = series(aliases[0], aliases[1])
        elif len(aliases) == 1 and len(names) > 1:
            aliases = series(aliases[0], count=len(names))
        kind = row.get("type")
        bounds = row.get("range", "").strip()
        if bounds == "bool" or (not bounds and kind == "bool"):
            bounds = "bool"
        else:
            m = re.fullmatch(r"(-?[\d.]+)\s*[–—]\s*(-?[\d.]+)", bounds)
            bounds = (float(m.group(1)), float(m.group(2))) if m else bounds or None
        for k, name in enumerate(names):
            alias = aliases[k] if k < len(aliases) else None
            options.append(Option(name, alias, kind, number(row.get("default", "")), bounds,
                                  where))
    return options, []


# ---- Texinfo: the @items of the filter's @table @option ----

def filter_doc():
    with open(os.path.join(ROOT, "doc", "float_adm.texi"), encoding="utf-8") as f:
        return f.read()


def parse_texinfo(text, label):
    options = []
    depth = 0
    group = []        # (name, alias, line) of the @item/@itemx lines being described
    described = []   # their description
    def flush():
        if not group:
            return
        body = re.sub(r"@\w+\{([^}]*)\}", r"\1", " ".join(described))
        m = re.search(r"in \[(-?[\d.]+), (-?[\d.]+)\]", body)
        bounds = (float(m.group(1)), float(m.group(2))) if m else None
        m = re.search(r"Default is (-?\d+(?:\.\d+)?|disabled|enabled)", body)
        default = number(m.group(1)) if m else None
        if bounds is None and m and m.group(1) in ("disabled", "enabled"):
            bounds = "bool"
        for name, alias, lineno in group:
            options.append(Option(name, alias, None, default, bounds, f"{label}:{lineno}"))
        group.clear()
        described.clear()
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("@table"):
            depth += 1
            if depth == 1:
                continue
        elif line.startswith("@end table"):
            depth -= 1
            if depth == 0:
                flush()
                break
        if depth != 1:
            if depth > 1:
                described.append(line)
            continue
        m = re.match(r"@itemx? (.*)$", line)
        if m:
            if described:
                flush()
            parts = [p.strip() for p in m.group(1).split("@dots{}")]
            pairs = [[x.strip() for x in p.split(",")] for p in parts]
            names = [p[0] for p in pairs]
            aliases = [p[1] if len(p) > 1 else None for p in pairs]
            if len(pairs) == 2:
                names = series(names[0], names[1])
                aliases = series(aliases[0], aliases[1]) if aliases[0] else [None] * len(names)
            for name, alias in zip(names, aliases):
                group.append((name, alias, lineno))
        elif line.strip():
            described.append(line)
    return options, []


# ---- ffmpeg -h filter=float_adm ----

def ffmpeg_help(ffmpeg):
    return subprocess.run([ffmpeg, "-hide_banner", "-h", "filter=float_adm"], check=True,
                          capture_output=True, text=True).stdout


def parse_ffmpeg_help(text, label):
    """One Option per name; a row whose key is the table's alias of the row before is
    that row's alias (the filter lists each name, then its alias)."""
    rows = []
    section = False
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("float_adm AVOptions:"):
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
        return [], [f"{label}: no 'float_adm AVOptions:' section"]
    return rows, []


def merge_aliases(rows, table):
    """The filter's rows are keys: fold each alias row into its name's option."""
    alias_of = {o.alias: o.name for o in table if o.alias}
    names = {o.name for o in table}
    options, errors = [], []
    for row in rows:
        if row.name in names or row.name not in alias_of:
            options.append(row)
            continue
        owner = next((o for o in options if o.name == alias_of[row.name]), None)
        if owner is None or owner.alias is not None:
            errors.append(f"{row.where}: {row.name}: not right after its option "
                          f"{alias_of[row.name]}")
            continue
        owner.alias = row.name
        if (row.kind, row.default, row.bounds) != (owner.kind, owner.default, owner.bounds):
            errors.append(f"{row.where}: alias {row.name} differs from {owner.name}")
    return options, errors


# ---- The comparison ----

def show(bounds):
    return bounds if isinstance(bounds, str) or bounds is None else f"[{bounds[0]:g}, {bounds[1]:g}]"


def compare(label, documented, table):
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
        if d.alias != t.alias:
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


def sources(ffmpeg):
    """(label, text, parser) of each place that documents the options."""
    out = []
    for path in ("README.md", "docs/ffmpeg.md"):
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            out.append((path, f.read(), parse_markdown))
    out.append(("doc/float_adm.texi", filter_doc(), parse_texinfo))
    if ffmpeg:
        out.append((f"{ffmpeg} -h filter=float_adm", ffmpeg_help(ffmpeg), parse_ffmpeg_help))
    return out


def check(label, text, parser, table):
    options, errors = parser(text, label)
    if parser is parse_ffmpeg_help:
        options, more = merge_aliases(options, table)
        errors += more
    return errors + compare(label, options, table)


# Each must make every source fail: a default, an alias, a range, a missing option.
MUTATIONS = [
    ("a default", lambda t: t.replace("0.03125", "0.0625", 1)),
    ("an alias", lambda t: re.sub(r"\bdlmw\b", "dlw", t)),
    ("a range", lambda t: t.replace("4320", "4321")),
    ("a missing option", lambda t: "\n".join(l for l in t.splitlines() if "adm_p_norm" not in l)),
]


def main():
    ap = argparse.ArgumentParser(description="Check the option docs against the table.")
    ap.add_argument("--score", required=True, help="float_adm_score (for --list-options)")
    ap.add_argument("--ffmpeg", help="an ffmpeg with the float_adm filter")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    table = load_table(args.score)
    failed = False
    for label, text, parser in sources(args.ffmpeg):
        errors = check(label, text, parser, table)
        for e in errors:
            print(f"FAIL: {e}")
        failed |= bool(errors)
        if not errors:
            print(f"ok: {label}: {len(table)} options as the table says")
        if args.self_test:
            for what, mutate in MUTATIONS:
                changed = mutate(text)
                if changed == text or not check(label, changed, parser, table):
                    print(f"FAIL: self-test: {label} with {what} changed still passes")
                    failed = True
    if args.self_test and not failed:
        print(f"ok: self-test: {len(MUTATIONS)} changes to each source are caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
