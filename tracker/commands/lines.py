"""``do``'s input: the action lines from the argument or stdin, decoded one
at a time (a line that is not UTF-8 fails alone) and bounded (a stream with
no newline cannot fill the memory)."""

from __future__ import annotations

import codecs
import re
import shlex
import sys
from collections.abc import Iterator, Sequence
from typing import BinaryIO

from rules.limits import MAX_LINE

#: the longest stdin line read: a line of MAX_LINE characters, each of the
#: four bytes UTF-8 takes at most, and its CR LF (a longer one is too long
#: in characters too, so it is refused unread, with the action parser's bound)
MAX_LINE_BYTES = 4 * MAX_LINE + len(b"\r\n")

#: only a newline ends a line: ``str.splitlines`` would also split at form
#: feeds and U+2028, which belong in an error message
_NEWLINE = re.compile(r"\r?\n")

Line = tuple[str, str | None]  # (the line, or "" when there is a problem; the problem)


def action_lines(words: Sequence[str]) -> Iterator[Line]:
    """The lines of ``do NAME [ACTION…]``: one argument, several words, or stdin."""
    if len(words) == 1:
        for line in _NEWLINE.split(words[0]):
            yield line, None
    elif words:
        yield shlex.join(words), None
    else:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stream stands in for stdin (an embedding, a test)
            for line in sys.stdin:
                yield line.rstrip("\r\n"), None
        else:
            yield from decoded_lines(buffer)


def decoded_lines(stream: BinaryIO) -> Iterator[Line]:
    """Each line of *stream* decoded as UTF-8, or a problem naming the line."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            _skip_rest_of_line(stream)
            yield "", f"line {number} is too long (more than {MAX_LINE:,} characters)"
            continue
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)  # a Windows editor's mark
        try:
            yield raw.decode("utf-8"), None
        except UnicodeDecodeError as exc:
            byte = f"the byte 0x{raw[exc.start]:02X} at byte {exc.start + 1}"
            yield "", f"line {number} is not UTF-8 text ({byte})"


def _skip_rest_of_line(stream: BinaryIO) -> None:
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            return
