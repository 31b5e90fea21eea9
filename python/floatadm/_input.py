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

"""The text files the package is given to read (logs and their records for the
report, catalogues, ladder manifests): UTF-8 text, and JSON whose every number a
double holds.  One that is not is an InputError naming the file and what was
expected of it, never a traceback."""

import json
import sys

from ._names import shown


class InputError(ValueError):
    """A file the package reads is not what it should be: "PATH: not EXPECTED
    (why)"."""

    def __init__(self, path, expected, why):
        super().__init__("%s: not %s (%s)" % (shown(path), expected, why))


def decode(data, path, expected, encoding="utf-8"):
    """data (bytes read from path) as text; InputError where it is not UTF-8
    ("utf-8-sig" also drops a byte-order mark)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise InputError(path, expected, "byte %d, 0x%02x, is not UTF-8"
                         % (error.start, data[error.start])) from None


def read_text(path, expected, encoding="utf-8"):
    """The text of path (decode); OSError as open() raises it."""
    with open(path, "rb") as f:
        return decode(f.read(), path, expected, encoding)


class _BeyondDouble(Exception):
    pass


def _integer(text):
    """A JSON integer that a double holds: the readers take numbers as doubles, and
    float() of a larger one raises.  DBL_MAX has 309 digits: a longer text is never
    converted (int() refuses 4300)."""
    if len(text) <= 310:
        value = int(text)
        if abs(value) <= sys.float_info.max:
            return value
    raise _BeyondDouble(text)


def parse_json(data, path, expected):
    """The JSON document in data (bytes read from path); InputError where it is not
    UTF-8 JSON, holds a number no double holds, or nests deeper than Python's parser
    goes."""
    text = decode(data, path, expected)
    try:
        return json.loads(text, parse_int=_integer)
    except _BeyondDouble as error:
        digits = error.args[0]
        raise InputError(path, expected, "the number %s%s is beyond the range of a double" % (
            digits[:12], "... (%d digits)" % len(digits.lstrip("-")) if len(digits) > 12
            else "")) from None
    except RecursionError:
        raise InputError(path, expected, "its arrays or objects nest too deeply") from None
    except ValueError as error:
        raise InputError(path, expected, error) from None


def load_json(path, expected):
    """The JSON document in path (parse_json); OSError as open() raises it."""
    with open(path, "rb") as f:
        return parse_json(f.read(), path, expected)
