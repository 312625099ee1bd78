"""Checksummed JSON documents and the append-only action journal
(issue 3, Saves: "autosave after every action, crash-safe").

Sealed documents
    Every file the store writes beside the TinyDB index (journal lines,
    snapshots, save points) is one JSON object whose first member is a
    CRC-32 of the rest: ``{"crc":"1a2b3c4d","schema":1,...}``.  The
    checksum covers the exact bytes ``{"schema":1,...}``, so a torn write,
    a zero-filled block after a power cut or a flipped bit is detected
    without trusting the JSON parser to notice.

Journal
    One sealed line per acknowledged action:
    ``{"crc":…,"schema":1,"seq":N,"t":ISO-time,"summary":{…},"record":{…}}``.
    Sequence numbers are consecutive.  A damaged line with no valid line
    after it is a torn tail (its append never returned) and is ignored and
    cut off before the next append; a damaged line *followed* by valid lines
    is damage in the middle: the records before it are kept and the caller
    moves the journal aside (a read-only store only reports it).  A reader
    in another process sees an append still in progress the same way, as a
    torn tail that is not there yet, so reading never needs a lock.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saves.errors import CorruptData, SaveError
from saves.fsutil import write_all
from saves.migrations import SCHEMA_VERSION, migrate

_HEAD = b'{"crc":"'
_HEAD_LEN = len(_HEAD) + 8 + 2  # {"crc":"xxxxxxxx",


def dumps(obj: Any, what: str) -> bytes:
    """Compact UTF-8 JSON; a value that is not plain JSON is a SaveError
    naming ``what`` (never a traceback)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SaveError(f"The {what} cannot be saved: it is not plain JSON data ({exc}).") from None
    return text.encode("utf-8")


def seal(obj: dict[str, Any], what: str = "document") -> bytes:
    """Serialise a non-empty dict with its CRC-32 as first member."""
    if not obj:
        raise ValueError("cannot seal an empty document")
    body = dumps(obj, what)
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]


def unseal(data: bytes) -> dict[str, Any]:
    """Check and parse a sealed document; any defect raises CorruptData."""
    if len(data) < _HEAD_LEN + 1 or not data.startswith(_HEAD) or data[16:18] != b'",':
        raise CorruptData("no checksum header")
    try:
        expected = int(data[8:16], 16)
    except ValueError:
        raise CorruptData("unreadable checksum") from None
    body = b"{" + data[_HEAD_LEN:]
    if zlib.crc32(body) != expected:
        raise CorruptData("checksum mismatch")
    try:
        obj = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise CorruptData("not JSON although the checksum matches") from None
    if not isinstance(obj, dict):
        raise CorruptData("not a JSON object")
    return obj


@dataclass(frozen=True)
class Entry:
    """One journal line: an acknowledged action record."""

    seq: int
    t: str
    summary: dict[str, Any]
    record: dict[str, Any]


def encode_entry(seq: int, t: str, summary: dict[str, Any], record: dict[str, Any]) -> bytes:
    """The journal line (with newline) for one record."""
    doc = {"schema": SCHEMA_VERSION, "seq": seq, "t": t, "summary": summary, "record": record}
    return seal(doc, "action record or summary") + b"\n"


def decode_entry(line: bytes) -> Entry:
    """Parse one journal line (without its newline); CorruptData if bad."""
    doc, _ = migrate("journal", unseal(line))
    seq, t, summary, record = doc.get("seq"), doc.get("t"), doc.get("summary"), doc.get("record")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise CorruptData("bad sequence number")
    if not isinstance(t, str) or not isinstance(summary, dict) or not isinstance(record, dict):
        raise CorruptData("missing fields")
    return Entry(seq, t, summary, record)


@dataclass(frozen=True)
class Damage:
    """A damaged line with valid lines after it."""

    line: int  # 1-based line number of the first bad line
    offset: int  # byte offset of that line
    reason: str
    dropped_lines: int  # complete lines from the bad one to the end


@dataclass
class JournalScan:
    """What a journal holds after ``after_seq`` (the snapshot's sequence)."""

    entries: list[Entry] = field(default_factory=list)
    last_seq: int = 0  # highest sequence number acknowledged (>= after_seq)
    good_end: int = 0  # byte offset just past the last good line
    torn_bytes: int = 0  # ignored bytes at the end (an unacknowledged write)
    damage: Damage | None = None


def _later_valid_line(data: bytes, pos: int) -> bool:
    while True:
        nl = data.find(b"\n", pos)
        if nl == -1:
            return False
        try:
            unseal(data[pos:nl])
            return True
        except CorruptData:
            pos = nl + 1


def scan(data: bytes, after_seq: int) -> JournalScan:
    """Read a journal's bytes: keep the consecutive entries after
    ``after_seq``, find where good data ends, and classify any defect as a
    torn tail or damage in the middle.  Never raises on bad bytes."""
    result = JournalScan(last_seq=after_seq)
    pos = 0
    line_no = 0
    prev: int | None = None
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl == -1:
            result.torn_bytes = len(data) - pos
            break
        line_no += 1
        try:
            entry = decode_entry(data[pos:nl])
            if prev is not None and entry.seq != prev + 1:
                raise CorruptData(f"sequence jumps from {prev} to {entry.seq}")
            if prev is None and entry.seq > after_seq + 1:
                raise CorruptData(f"starts at action {entry.seq}, expected {after_seq + 1}")
        except CorruptData as exc:
            if _later_valid_line(data, nl + 1):
                dropped = data.count(b"\n", pos)
                result.damage = Damage(line_no, pos, exc.message, dropped)
            else:
                result.torn_bytes = len(data) - pos
            break
        prev = entry.seq
        if entry.seq > after_seq:
            result.entries.append(entry)
            result.last_seq = entry.seq
        pos = nl + 1
        result.good_end = pos
    return result


def read_tail(
    path: Path, *, chunk: int = 65536, limit: int = 4 << 20, missing_ok: bool = True
) -> Entry | None:
    """The last valid entry of a journal, reading backwards from the end
    (at most ``limit`` bytes), so listing encounters never reads whole
    journals.  None if the journal is empty, missing or unreadable; with
    ``missing_ok=False`` a missing journal raises FileNotFoundError instead
    (a reader uses this to tell "compacted away since the index was read"
    from "empty").  Once the file is open, a writer deleting it does not
    matter: it is read whole."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        pos = size
        buf = b""
        while pos > 0 and size - pos < limit:
            step = min(chunk, pos)
            pos -= step
            buf = os.pread(fd, step, pos) + buf
            lines = buf.split(b"\n")[:-1]  # the piece after the last newline is torn
            if pos > 0:
                lines = lines[1:]  # may be cut at the chunk boundary
            for line in reversed(lines):
                with contextlib.suppress(CorruptData):
                    return decode_entry(line)
        return None
    finally:
        os.close(fd)


class JournalWriter:
    """An open journal: appends one line, fsyncs, and returns only then.

    A failed append cuts the file back to its last good length so a later
    append never lands behind half a line.
    """

    def __init__(self, path: Path, size: int, last_seq: int, last: Entry | None) -> None:
        self.path = path
        self.fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)
        self.size = size
        self.last_seq = last_seq
        self.last = last

    def append(self, line: bytes) -> None:
        if self.fd is None:
            raise SaveError(f"The journal {self.path} was closed after an earlier write error.")
        try:
            write_all(self.fd, line)
            os.fsync(self.fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.size)
                os.fsync(self.fd)
            self.close()
            raise SaveError(
                f"The action could not be saved to {self.path}: {exc.strerror or exc}."
            ) from None
        self.size += len(line)

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None
