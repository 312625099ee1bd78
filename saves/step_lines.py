"""The lines of a steps file, one sealed JSON object each (``saves.seal``),
line *N* holding sequence number *N*: how a line is written and decoded,
how raw bytes are scanned into lines (telling a torn tail, an append that
never returned, from damage in the middle, a bad line with valid lines
after it), and the first and last lines read straight from a file, so
adopting a folder or listing encounters never reads a whole file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from saves.errors import CorruptData
from saves.fsutil import NOFOLLOW, NONBLOCK
from saves.migrations import SCHEMA_VERSION, migrate
from saves.seal import seal, unseal

#: the first line (the origin) is never longer than this
_ORIGIN_MAX = 64 << 20
#: how much of a file's end :func:`read_tail` reads at a time
_TAIL_CHUNK = 1 << 16


class Line(NamedTuple):
    """One line of a steps file: its number, time, and content (the origin
    for line 0, else the step's record and the summary after it)."""

    seq: int
    t: str
    summary: dict[str, Any] | None
    record: dict[str, Any]


def origin_line(enc_id: str, name: str, t: str, origin: dict[str, Any]) -> bytes:
    """Line 0: ``{"crc":…,"schema":1,"seq":0,"t":…,"id":…,"name":…,"origin":{…}}``,
    the encounter as created (name, ruleset with every option, any
    combatants a prepared file brought), so the steps file alone can
    rebuild the encounter."""
    doc = {"schema": SCHEMA_VERSION, "seq": 0, "t": t, "id": enc_id, "name": name}
    return seal({**doc, "origin": origin}, "new encounter") + b"\n"


def step_line(seq: int, t: str, summary: dict[str, Any], record: dict[str, Any]) -> bytes:
    """Line *seq*, one step: ``{"crc":…,"seq":N,"t":…,"summary":{…},
    "record":{"step":{…},"ui":{…}}}`` (``summary`` is what ``list`` shows)."""
    return seal({"seq": seq, "t": t, "summary": summary, "record": record}, "action") + b"\n"


def decode(raw: bytes) -> Line:
    """One line (without its newline); CorruptData if it is not one."""
    doc = unseal(raw)
    seq, t = doc.get("seq"), doc.get("t")
    if type(seq) is not int or seq < 0 or not isinstance(t, str):
        raise CorruptData("bad sequence number or time")
    if seq == 0:
        doc, _ = migrate("steps", doc)
        if not isinstance(doc.get("origin"), dict) or not isinstance(doc.get("name"), str):
            raise CorruptData("the first line does not create an encounter")
        if not isinstance(doc.get("id"), str):
            raise CorruptData("the first line has no encounter id")
        return Line(0, t, None, doc)
    summary, record = doc.get("summary"), doc.get("record")
    if not isinstance(summary, dict) or not isinstance(record, dict):
        raise CorruptData("missing fields")
    return Line(seq, t, summary, record)


class Damage(NamedTuple):
    """A bad line with valid lines after it."""

    seq: int  # the number the bad line should have had
    reason: str


class Scan(NamedTuple):
    lines: list[Line]
    starts: list[int]  # the offset of each line
    end: int  # just past the last good line
    damage: Damage | None


def scan(data: bytes, at: int, first_seq: int) -> Scan:
    """Read the lines in *data* (the file's bytes from offset *at*), which
    must number on from *first_seq*; never raises on bad bytes."""
    lines: list[Line] = []
    starts: list[int] = []
    pos, expect, damage = 0, first_seq, None
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl == -1:
            break  # a torn tail
        try:
            line = decode(data[pos:nl])
            if line.seq != expect:
                raise CorruptData(f"line {expect} is numbered {line.seq}")
        except CorruptData as exc:
            # a kill leaves a line without its newline (or zeros): that is a
            # torn tail; a whole line that fails its checksum is damage
            if not _torn(data[pos:nl]) or _valid_line_after(data, nl + 1):
                damage = Damage(expect, exc.message)
            break
        lines.append(line)
        starts.append(at + pos)
        expect += 1
        pos = nl + 1
    return Scan(lines, starts, at + pos, damage)


def _torn(raw: bytes) -> bool:
    """Whether a bad line looks like an append cut short: zeros, or not
    even a whole sealed object."""
    return not raw.strip(b"\0") or not raw.endswith(b"}")


def _valid_line_after(data: bytes, pos: int) -> bool:
    while (nl := data.find(b"\n", pos)) != -1:
        with contextlib.suppress(CorruptData):
            unseal(data[pos:nl])
            return True
        pos = nl + 1
    return False


def read_first(fd: int, path: Path) -> Line:
    """Line 0 (the origin), read from the start of the open file *fd* at *path*."""
    data = bytearray()
    while (nl := data.find(b"\n")) == -1:
        part = os.pread(fd, 1 << 16, len(data))
        if not part or len(data) > _ORIGIN_MAX:
            raise CorruptData(f"{path} has no first line")
        data += part
    line = decode(bytes(data[:nl]))
    if line.seq != 0:
        raise CorruptData(f"{path} does not start with the encounter's origin")
    return line


def read_head(path: Path) -> Line:
    """Line 0 of the steps file at *path*; CorruptData when it is not a
    regular file or has no origin, OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CorruptData("it is not a regular file")
        return read_first(fd, path)
    finally:
        os.close(fd)


def read_tail(path: Path, limit: int = 4 << 20) -> Line | None:
    """The last valid line of a steps file, reading backwards from its end,
    so listing encounters never reads whole files.  None when the file has
    no valid line; OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        size = info.st_size
        pos, buf = size, b""
        while pos > 0 and size - pos < limit:
            step = min(_TAIL_CHUNK, pos)
            pos -= step
            buf = os.pread(fd, step, pos) + buf
            lines = buf.split(b"\n")[:-1]  # the piece after the last newline is torn
            if pos > 0:
                lines = lines[1:]  # may be cut at the chunk's start
            for raw in reversed(lines):
                with contextlib.suppress(CorruptData):
                    return decode(raw)
        return None
    finally:
        os.close(fd)
