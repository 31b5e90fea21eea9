#!/usr/bin/env python3
# Write every text made from the option table (FLOAT_ADM_OPTIONS in
# include/float_adm.h) between its markers: the members of FloatAdmOptions in
# the header and in the Python package's ctypes copy (python/floatadm/_lib.py),
# README.md's and docs/ffmpeg.md's options tables, the filter's
# texinfo @items (the series doc edit, patches/src/0001-*/edits/doc/filters.texi) and the man page's FLOAT_ADM
# OPTIONS (docs/man/float_adm_score.1).  Changing an option is one edit of the
# table, then `make option-docs`.
#
# The table is read by the C preprocessor, as every other consumer reads it.
# FloatAdmOptions keeps its members where libfloatadm 1.0 put them (the ABI):
# each member's type and array length come from its rows, and a field the
# table gains is appended at the end; a member whose rows are gone is an error.
#
# Usage: gen-options.py [--check] [--root DIR]
#   --check  write nothing; name each stale file and fail (make check-option-docs)
#   --root   the source tree to read and write (default: this script's)
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import ast
import os
import re
import subprocess
import sys

HEADER = "include/float_adm.h"


class Option:
    def __init__(self, name, alias, field, kind, default, lo, hi, help):
        self.name, self.alias, self.field, self.help = name, alias, field, help
        self.kind = kind.lower()  # bool, int, double
        self.default, self.min, self.max = default, lo, hi


def fail(msg):
    sys.exit("gen-options: " + msg)


def read_table(root):
    """The rows of FLOAT_ADM_OPTIONS, in the table's order."""
    source = ("#define ROW(name, alias, field, kind, def, lo, hi, help) "
              "(name, alias, #field, #kind, #def, #lo, #hi, help),\n"
              "#undef NULL\n#define NULL None\n"
              "@@TABLE@@ [FLOAT_ADM_OPTIONS(ROW, ROW)]\n")
    cpp = subprocess.run([os.environ.get("CC", "cc"), "-E", "-P", "-x", "c",
                          "-include", os.path.join(root, HEADER), "-"],
                         input=source, capture_output=True, text=True)
    if cpp.returncode:
        fail(f"the C preprocessor failed on {HEADER}:\n{cpp.stderr}")
    rows = ast.literal_eval(cpp.stdout.split("@@TABLE@@", 1)[1].strip())
    table = []
    for name, alias, field, kind, default, lo, hi, help in rows:
        table.append(Option(name, alias, field, kind, number(default), number(lo),
                            number(hi), help))
    if not table:
        fail(f"{HEADER}: the option table is empty")
    return table


def number(literal):
    """A C literal of the table as the value it stands for (1 and 1.0 alike)."""
    value = float(literal.replace(" ", ""))
    return int(value) if value == int(value) else value


def fmt(value):
    return "%g" % value


# ---- FloatAdmOptions ----

MEMBER = re.compile(r"^    (int|double) (\w+)(?:\[(\d+)\])?;$")


def struct_members(table, current, path):
    """The member lines: the current members in their order, each typed by its
    rows, then the fields the struct does not have yet."""
    fields = {}  # base name -> (C type, array length or None), in table order
    for o in table:
        m = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", o.field.replace(" ", ""))
        if not m:
            fail(f"{HEADER}: {o.name}: field {o.field} is neither a name nor an array element")
        base, index = m.group(1), m.group(2)
        ctype = "double" if o.kind == "double" else "int"
        if base in fields:
            if fields[base][0] != ctype or index is None or fields[base][1] is None:
                fail(f"{HEADER}: {o.name}: field {base} is given twice or with two types")
            fields[base] = (ctype, max(fields[base][1], int(index) + 1))
        else:
            fields[base] = (ctype, None if index is None else int(index) + 1)
    order = []
    for line in current:
        m = MEMBER.match(line)
        if not m:
            fail(f"{path}: not a member of FloatAdmOptions: {line!r}")
        if m.group(2) not in fields:
            fail(f"{path}: member {m.group(2)} has no row in the option table; "
                 "removing it would break the ABI")
        order.append(m.group(2))
    order += [f for f in fields if f not in order]
    out = []
    for f in order:
        ctype, length = fields[f]
        out.append(f"    {ctype} {f}" + (f"[{length}]" if length else "") + ";")
    return out


def current_members(root):
    """The member lines of FloatAdmOptions as the header has them now."""
    path, begin, end = HEADER, HEADER_BEGIN, HEADER_END
    with open(os.path.join(root, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        first = lines.index(begin)
        return lines[first + 1:lines.index(end, first)]
    except ValueError:
        fail(f"{path}: no '{begin}' ... '{end}' block")


def ctypes_fields(members):
    out = []
    for line in members:
        ctype, name, length = MEMBER.match(line).groups()
        field = f"ctypes.c_{ctype}" + (f" * {length}" if length else "")
        out.append(f'        ("{name}", {field}),')
    return out


# ---- the documents ----

def md_table(table):
    out = ["| option | alias | type | default | range | meaning |",
           "|---|---|---|---|---|---|"]
    for o in table:
        alias = f"`{o.alias}`" if o.alias else ""
        if o.kind == "bool":
            default, bounds = ("true" if o.default else "false"), ""
        else:
            default, bounds = fmt(o.default), f"{fmt(o.min)} – {fmt(o.max)}"
        out.append(f"| `{o.name}` | {alias} | {o.kind} | {default} | {bounds} | {o.help} |")
    return out


def texi_escape(text):
    return re.sub(r"([@{}])", r"@\1", text)


def sentence(help):
    """help as a sentence starts: capitalized, unless its first word is a name
    ("adm3", "p") that must keep its case."""
    first = help.split(" ", 1)[0]
    return help[:1].upper() + help[1:] if len(first) > 1 and first.isalpha() else help


def texi_items(table):
    out = []
    for o in table:
        out.append(f"@item {o.name}")  # the filter takes libvmaf's names, not the aliases
        help = texi_escape(sentence(o.help))
        if o.kind == "bool":
            out.append(f"{help}. Default is {'enabled' if o.default else 'disabled'}.")
        else:
            out.append(f"{help}, in [{fmt(o.min)}, {fmt(o.max)}]. Default is {fmt(o.default)}.")
        out.append("")
    return out[:-1]


def roff_escape(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


def man_items(table):
    out = []
    for o in table:
        out.append(".TP")
        if o.alias:
            out.append(f'.BR {roff_escape(o.name)} ", " {roff_escape(o.alias)}')
        else:
            out.append(f".B {roff_escape(o.name)}")
        help = o.help if not o.help.startswith(".") else "\\&" + o.help
        if o.kind == "bool":
            text = f"{help}; boolean, default {fmt(o.default)}."
        else:
            text = f"{help}; [{fmt(o.min)}, {fmt(o.max)}], default {fmt(o.default)}."
        out.append(roff_escape(text))
    return out


GENERATED = "generated from FLOAT_ADM_OPTIONS in include/float_adm.h by `make option-docs`"
HEADER_BEGIN = "    /* begin: " + GENERATED + " */"
HEADER_END = "    /* end: generated */"


def blocks(table, members):
    """(path, begin marker, end marker, the lines between them) of each text."""
    return [
        (HEADER, HEADER_BEGIN, HEADER_END, members),
        ("python/floatadm/_lib.py", "        # begin: " + GENERATED, "        # end: generated",
         ctypes_fields(members)),
        ("README.md", f"<!-- begin: {GENERATED} -->", "<!-- end: generated -->", md_table(table)),
        ("docs/ffmpeg.md", f"<!-- begin: {GENERATED} -->", "<!-- end: generated -->",
         md_table(table)),
        ("patches/src/0001-avfilter-add-float_adm-filter/edits/doc/filters.texi", "@c begin: " + GENERATED, "@c end: generated",
         texi_items(table)),
        ("docs/man/float_adm_score.1", '.\\" begin: ' + GENERATED, '.\\" end: generated',
         man_items(table)),
    ]


def regenerate(text, path, begin, end, lines):
    """text with the lines between its markers replaced."""
    old = text.split("\n")
    try:
        first = old.index(begin)
        last = old.index(end, first)
    except ValueError:
        fail(f"{path}: no '{begin}' ... '{end}' block")
    return "\n".join(old[:first + 1] + lines + old[last:])


def main():
    ap = argparse.ArgumentParser(description="Write the texts made from the option table.")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail naming each stale file")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    table = read_table(args.root)
    members = struct_members(table, current_members(args.root), HEADER)
    texts = blocks(table, members)
    stale = []
    for path, begin, end, lines in texts:
        full = os.path.join(args.root, path)
        with open(full, encoding="utf-8") as f:
            text = f.read()
        new = regenerate(text, path, begin, end, lines)
        if new == text:
            continue
        if args.check:
            stale.append(path)
        else:
            with open(full, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"gen-options: wrote {path}")
    for path in stale:
        print(f"FAIL: {path}: its option block is not what the option table "
              f"({HEADER}) makes; run `make option-docs`", file=sys.stderr)
    if args.check and not stale:
        print(f"ok: {len(texts)} files hold the option table's {len(table)} options")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
