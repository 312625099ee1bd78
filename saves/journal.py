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

Deferred sections
    A snapshot or save-point file may keep some values of its document (the
    undo history of the session, the older part of its log) as sections
    that are read back unparsed.  Each section is a header and the value,
    one after the other at the front of the file::

        {"crc":…,"deferred_len":"000001010418","deferred":[…],
         "deferred_len":"000000421337","deferred":{…},"schema":3,…,
         "deferred_at":["snapshot","session","undo"],
         "deferred_also_at":[["snapshot","session","log_head"]]}

    A section's length (12 digits, so each header has a fixed layout) says
    where the next header, or the rest of the document, starts;
    ``deferred_at`` names the member the first section belongs to and
    ``deferred_also_at`` (only with more than one) those of the others, in
    order; :func:`unseal` puts a :class:`Deferred` holding each section's
    bytes there.  (The first path keeps the one-section form, so a program
    that knows one section reads such a file far enough to see its schema
    and refuse it as newer, instead of calling it damaged.)  The whole file
    is still one JSON object and the CRC still covers every byte, so damage
    anywhere is found at open; only the parsing waits until the value is
    called.  :func:`seal_document` writes every :class:`Deferred` found
    among the members of nested objects as a section.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from saves.errors import CorruptData, SaveError
from saves.fsutil import write_all
from saves.migrations import SCHEMA_VERSION, migrate

_HEAD = b'{"crc":"'
_HEAD_LEN = len(_HEAD) + 8 + 2  # {"crc":"xxxxxxxx",
_CRC_OF_BRACE = zlib.crc32(b"{")


_DEFERRED_LEN = "deferred_len"
_DEFERRED = "deferred"
_DEFERRED_AT = "deferred_at"
_DEFERRED_ALSO_AT = "deferred_also_at"
_RESERVED = frozenset((_DEFERRED_LEN, _DEFERRED, _DEFERRED_AT, _DEFERRED_ALSO_AT))
_DEFERRED_HEAD = b'"deferred_len":"'
_DEFERRED_DIGITS = 12
_DEFERRED_MID = b'","deferred":'
#: a section's header: ``"deferred_len":"000001010418","deferred":``
_SECTION_HEADER_LEN = len(_DEFERRED_HEAD) + _DEFERRED_DIGITS + len(_DEFERRED_MID)


_UNSET: Any = object()


class Deferred:
    """One JSON value of a sealed document kept as its encoded bytes: each
    call parses it (CorruptData if the bytes are not JSON).

    ``Deferred(raw)`` is what :func:`unseal` puts in place of a deferred
    section; ``Deferred.of(value)`` wraps a value to be written as one (a
    call returns that value itself).  ``raw`` is the encoded bytes (given
    as a view into the file read, they are copied out only when needed:
    a long fight's history is most of its snapshot).
    """

    __slots__ = ("_raw", "_value")

    def __init__(self, raw: bytes | memoryview) -> None:
        self._raw: bytes | memoryview | None = raw
        self._value: Any = _UNSET

    @classmethod
    def of(cls, value: Any) -> Deferred:
        made = cls(b"")
        made._raw, made._value = None, value
        return made

    @property
    def raw(self) -> bytes:
        if self._raw is None:
            self._raw = dumps(self._value, "deferred value")
        elif isinstance(self._raw, memoryview):
            self._raw = self._raw.tobytes()
        return self._raw

    def __call__(self) -> Any:
        if self._value is not _UNSET:
            return self._value
        try:
            return json.loads(self.raw)
        except (UnicodeDecodeError, ValueError):
            raise CorruptData("its deferred section is not JSON") from None

    def extended(self, items: list[Any]) -> Deferred | None:
        """This value (a list) followed by *items*, spliced as bytes without
        parsing this one; None if it is not a JSON array as written."""
        if not items:
            return self
        raw = self.raw
        if not (raw.startswith(b"[") and raw.endswith(b"]")):
            return None
        tail = dumps(items, "deferred value")
        if raw.strip(b"[] ") == b"":
            return Deferred(tail)
        return Deferred(raw[:-1] + b"," + tail[1:])

    def __eq__(self, other: object) -> bool:
        """Equal values (for tests and comparisons: this parses)."""
        return bool(self() == (other() if isinstance(other, Deferred) else other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        size = "unencoded" if self._raw is None else f"{len(self._raw)} bytes"
        return f"Deferred({size})"


def _inline(value: Any) -> Any:
    """``json.dumps`` default: a Deferred not written as a section is
    written as its value."""
    if isinstance(value, Deferred):
        return value()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(obj: Any, what: str) -> bytes:
    """Compact UTF-8 JSON; a value that is not plain JSON is a SaveError
    naming ``what`` (never a traceback)."""
    try:
        text = json.dumps(
            obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_inline
        )
    except (TypeError, ValueError) as exc:
        raise SaveError(f"The {what} cannot be saved: it is not plain JSON data ({exc}).") from None
    return text.encode("utf-8")


def seal(obj: dict[str, Any], what: str = "document") -> bytes:
    """Serialise a non-empty dict with its CRC-32 as first member."""
    if not obj:
        raise ValueError("cannot seal an empty document")
    if _DEFERRED_LEN in obj:
        raise ValueError(f"{_DEFERRED_LEN!r} is reserved for the deferred section's header")
    body = dumps(obj, what)
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]


def _find_deferred(obj: dict[str, Any], above: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The member paths of every Deferred among nested objects' members,
    in document order."""
    found: list[tuple[str, ...]] = []
    for key, value in obj.items():
        if isinstance(value, Deferred):
            found.append((*above, key))
        elif isinstance(value, dict):
            found.extend(_find_deferred(value, (*above, key)))
    return found


def seal_document(obj: dict[str, Any], what: str = "document") -> bytes:
    """:func:`seal`, writing every :class:`Deferred` member found as one of
    the document's deferred sections (see "Deferred sections").  Without
    one it is exactly :func:`seal`."""
    paths = _find_deferred(obj)
    if not paths:
        return seal(obj, what)
    if _RESERVED & obj.keys():
        raise ValueError(f"{sorted(_RESERVED)} are reserved for the deferred sections")
    main = dict(obj)
    parts = [b"{"]
    copied: set[tuple[str, ...]] = set()
    for path in paths:
        parent = main
        for depth, key in enumerate(path[:-1], 1):
            if path[:depth] not in copied:  # copy each object on the way once
                parent[key] = dict(parent[key])
                copied.add(path[:depth])
            parent = parent[key]
        section = parent.pop(path[-1]).raw
        if len(section) >= 10**_DEFERRED_DIGITS:
            raise SaveError(f"The {what} cannot be saved: its deferred section is too long.")
        length = b"%0*d" % (_DEFERRED_DIGITS, len(section))
        parts += (_DEFERRED_HEAD, length, _DEFERRED_MID, section, b",")
    main[_DEFERRED_AT] = list(paths[0])
    if len(paths) > 1:
        main[_DEFERRED_ALSO_AT] = [list(path) for path in paths[1:]]
    parts.append(dumps(main, what)[1:])
    body = b"".join(parts)
    return b'{"crc":"%08x",' % zlib.crc32(body) + body[1:]


def unseal(data: bytes) -> dict[str, Any]:
    """Check and parse a sealed document; any defect raises CorruptData."""
    if len(data) < _HEAD_LEN + 1 or not data.startswith(_HEAD) or data[16:18] != b'",':
        raise CorruptData("no checksum header")
    try:
        expected = int(data[8:16], 16)
    except ValueError:
        raise CorruptData("unreadable checksum") from None
    # The CRC covers ``{`` + everything after the header; the bytes are
    # read through a view, not copied (a 1.4 MB snapshot copied twice costs
    # more than its CRC).
    view = memoryview(data)
    if zlib.crc32(view[_HEAD_LEN:], _CRC_OF_BRACE) != expected:
        raise CorruptData("checksum mismatch")
    sections, rest = _split_sections(data)
    body = b"".join((b"{", view[rest:]))
    try:
        obj = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise CorruptData("not JSON although the checksum matches") from None
    if not isinstance(obj, dict):
        raise CorruptData("not a JSON object")
    if sections:
        _place_deferred(obj, sections)
    return obj


def _split_sections(data: bytes) -> tuple[list[memoryview], int]:
    """(the deferred sections, as views into *data*; where the rest of the
    document's members start)."""
    view = memoryview(data)
    sections = []
    pos = _HEAD_LEN
    while data.startswith(_DEFERRED_HEAD, pos):
        digits_at = pos + len(_DEFERRED_HEAD)
        digits = data[digits_at : digits_at + _DEFERRED_DIGITS]
        if not (digits.isdigit() and data.startswith(_DEFERRED_MID, digits_at + _DEFERRED_DIGITS)):
            raise CorruptData("its deferred section's header is damaged")
        start = pos + _SECTION_HEADER_LEN
        end = start + int(digits)
        if data[end : end + 1] != b",":
            raise CorruptData("its deferred section's length is wrong")
        sections.append(view[start:end])
        pos = end + 1
    return sections, pos


def _is_path(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(k, str) for k in value)


def _place_deferred(obj: dict[str, Any], sections: list[memoryview]) -> None:
    """Put each section back, as a Deferred, at the member its path names
    (``deferred_at``, then ``deferred_also_at``)."""
    first = obj.pop(_DEFERRED_AT, None)
    others = obj.pop(_DEFERRED_ALSO_AT, [])
    if not (_is_path(first) and isinstance(others, list) and all(map(_is_path, others))):
        raise CorruptData("its deferred section has no place")
    paths = [first, *others]
    if len(paths) != len(sections):
        raise CorruptData(f"it names {len(paths)} places for {len(sections)} deferred sections")
    for path, section in zip(paths, sections, strict=True):
        parent = obj
        for key in path[:-1]:
            child = parent.get(key)
            if not isinstance(child, dict):
                raise CorruptData("its deferred section's place is missing")
            parent = child
        if path[-1] in parent:
            raise CorruptData("its deferred section's place is taken")
        parent[path[-1]] = Deferred(section)


class Entry(NamedTuple):
    """One journal line: an acknowledged action record.

    (The small records read at start-up are named tuples: a frozen
    dataclass costs the start-up ~0.6 ms to create, a named tuple ~0.1 ms.)"""

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


class Damage(NamedTuple):
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
