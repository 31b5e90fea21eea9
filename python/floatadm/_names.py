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

"""Names (of files, rungs, ladders, jobs) where the package writes them for people:
in its messages, its tables and its pages.  A Linux file name is bytes: Python holds
one that is not UTF-8 with each such byte as a lone surrogate (os.fsdecode), which
no UTF-8 text can carry, and a name may hold a newline or any control character.
shown() makes any name one printable line of UTF-8, one_line() a message that names
one as it is; url_path() makes a name a URL path."""

import os
import urllib.parse

_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _text(name):
    name = os.fspath(name)
    return os.fsdecode(name) if isinstance(name, bytes) else str(name)


def _escaped(char):
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (os.fsdecode)
        return "\\x%02x" % (code - 0xDC00)
    if char.isprintable():
        return char
    if code < 0x80:  # from 0x80 on, \xNN is a byte that is not UTF-8 (above)
        return "\\x%02x" % code
    return "\\u%04x" % code if code < 0x10000 else "\\U%08x" % code


def shown(name):
    """A name (text, bytes or a path) as a message, a table or a page shows it: as it
    is where it is one line of printable characters and does not begin with a quote;
    else between single quotes, each byte that is not UTF-8 as \\xNN, a newline, tab
    or other control character as \\n, \\t, \\xNN, and \\ and ' backslashed
    ('\\xff.y4m', 'new\\nline.mkv').  Two names are never shown alike."""
    text = _text(name)
    if text.isprintable() and not text.startswith("'"):
        return text
    return "'%s'" % "".join(_escaped(c) for c in text)


def one_line(text):
    """Text made elsewhere (a message of the library's, which names a path as it was
    given) as one printable line: a newline, tab or other control character as \\n,
    \\t, \\xNN, a byte that is not UTF-8 as \\xNN, the rest as it is."""
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def url_path(path):
    """A relative or absolute path as a URL path: its bytes percent-encoded (a byte
    that is not UTF-8 too), '/' kept."""
    return urllib.parse.quote(os.fsencode(os.fspath(path)))
