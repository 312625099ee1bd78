"""One encounter's history: its append-only steps file, ``steps.jsonl``.

Every line is one sealed JSON object (``saves.seal``) and line *N* holds
sequence number *N*:

- line 0, the origin: ``{"crc":…,"schema":1,"seq":0,"t":…,"id":…,"name":…,
  "origin":{…}}`` (the encounter as created: name, ruleset with every
  option, any combatants a prepared file brought), so the steps file alone
  can rebuild the encounter;
- every later line, one step: ``{"crc":…,"seq":N,"t":…,"summary":{…},
  "record":{"step":{…},"ui":{…}}}`` (``summary`` is what ``list`` shows).

A line is appended and fsynced before the step is acknowledged, and the
file is never rewritten.  A bad line with no valid line after it is a torn
tail (its append never returned): it is cut before the next append.  A
bad line *followed* by valid lines is damage in the middle: the lines
before it are kept, the damaged file is kept beside it, and the caller is
told.  A reader in another process sees an append in progress as a torn
tail that is not there yet, so reading needs no lock.

Reading older steps (an undo below what is in memory, an export) goes by
sequence number through an offset table built backwards, on first use,
from the newest line whose place is known, so it reads only the lines it
needs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from saves.errors import CorruptData, SaveError
from saves.fsutil import fsync_dir, keep_copy_aside, write_all
from saves.migrations import SCHEMA_VERSION, migrate
from saves.seal import seal, unseal

STEPS_FILE = "steps.jsonl"
_CHUNK = 1 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: the first line (the origin) is never longer than this
_ORIGIN_MAX = 64 << 20


class Line(NamedTuple):
    """One line of a steps file: its number, time, and content (the origin
    for line 0, else the step's record and the summary after it)."""

    seq: int
    t: str
    summary: dict[str, Any] | None
    record: dict[str, Any]


def origin_line(enc_id: str, name: str, t: str, origin: dict[str, Any]) -> bytes:
    doc = {"schema": SCHEMA_VERSION, "seq": 0, "t": t, "id": enc_id, "name": name}
    return seal({**doc, "origin": origin}, "new encounter") + b"\n"


def step_line(seq: int, t: str, summary: dict[str, Any], record: dict[str, Any]) -> bytes:
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
    offset: int
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
                damage = Damage(expect, at + pos, exc.message)
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


class StepsFile:
    """An open steps file: appends (the writer) and reads by number.

    :meth:`open` reads the lines after a snapshot, or every line when
    there is no usable snapshot; then :meth:`append` adds one and
    :meth:`read` reads older ones.  ``notices`` says what opening repaired.
    """

    def __init__(self, path: Path, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self.fd: int | None = None
        self.size = 0  # just past the last good line
        self.last_seq = -1
        self.notices: list[str] = []
        self._starts: dict[int, int] = {}  # seq -> offset, for seq >= _low
        self._low = 0

    # -- opening --------------------------------------------------------------

    def open(self, after: tuple[int, int] | None) -> list[Line]:
        """Open the file and read its lines after *after* = ``(seq, end)``
        (a snapshot covering up to *seq*, whose line ends at offset *end*),
        or every line from the origin when *after* is None.  CorruptData:
        the file does not fit *after* (or has no origin), so the caller
        must not trust that snapshot."""
        flags = (os.O_RDONLY if self.read_only else os.O_RDWR) | _NOFOLLOW | _NONBLOCK
        try:
            self.fd = os.open(self.path, flags)
            if not stat.S_ISREG(os.fstat(self.fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
        except OSError as exc:
            self.close()
            raise SaveError(f"Cannot open {self.path}: {exc.strerror or exc}.") from None
        try:
            return self._read_after(after)
        except OSError as exc:
            self.close()
            raise SaveError(f"Cannot read {self.path}: {exc.strerror or exc}.") from None
        except BaseException:
            self.close()
            raise

    def _read_after(self, after: tuple[int, int] | None) -> list[Line]:
        size = os.fstat(self._fd()).st_size
        seq, end = after if after is not None else (-1, 0)
        if end > size:
            raise CorruptData(f"{self.path} is shorter than its snapshot says")
        self._low = seq + 1
        self._starts[seq + 1] = end
        if after is not None:
            self._index_down_to(seq)
            try:
                self._line(seq)
            except CorruptData as exc:
                # the snapshot ends exactly on a line: it fits, though that
                # line (only needed to undo further back) is damaged
                self.notices.append(
                    f"Action {seq} in {self.path} is damaged ({exc.message}); the fight "
                    "is as it was saved, but undo cannot go back past that action."
                )
        found = scan(self._pread(end, size - end), end, seq + 1)
        if after is None and not found.lines:
            raise CorruptData(f"{self.path} has no first line")
        for line, start in zip(found.lines, found.starts, strict=True):
            self._starts[line.seq] = start
        self.last_seq = seq + len(found.lines)
        self.size = found.end
        self._starts[self.last_seq + 1] = self.size
        if found.damage is not None:
            self._damaged(found.damage, size)
        elif size > self.size and not self.read_only:
            self._truncate()  # a torn tail: an append that never returned
        return found.lines

    def _damaged(self, damage: Damage, size: int) -> None:
        self._repair(damage.seq, f"is damaged from action {damage.seq} on ({damage.reason})")

    def cut(self, seq: int, reason: str) -> None:
        """Keep a copy, then cut the file before line *seq* (a step that is
        sealed but does not fit the fight): later steps follow the ones kept."""
        self._repair(seq, f"does not replay from action {seq} on ({reason})")

    def _repair(self, seq: int, problem: str) -> None:
        """Cut the file before line *seq*, a copy of it kept beside it (a
        reader only says what it found)."""
        if self.read_only:
            self.notices.append(
                f"The steps file {self.path} {problem}; opened read-only, so it was "
                f"left as it is and the {seq - 1} actions before it are shown."
            )
            self.size, self.last_seq = self._starts[seq], seq - 1
            return
        try:
            aside = keep_copy_aside(self.path, "corrupt")
        except OSError as exc:
            raise SaveError(
                f"The steps file {self.path} {problem}, and a copy could not be kept "
                f"before repairing it ({exc.strerror or exc}); nothing was changed."
            ) from None
        self.size, self.last_seq = self._starts[seq], seq - 1
        self._truncate()
        self.notices.append(
            f"The steps file {self.path} {problem}: the {seq - 1} actions before it were "
            f"kept, and the whole file was kept as {aside}."
        )

    def _truncate(self) -> None:
        try:
            os.ftruncate(self._fd(), self.size)
            os.fsync(self._fd())
        except OSError as exc:
            raise SaveError(f"Cannot repair {self.path}: {exc.strerror or exc}.") from None

    # -- writing ----------------------------------------------------------------

    @staticmethod
    def create(path: Path, first: bytes, lines: Sequence[bytes] = ()) -> None:
        """Write a new steps file (its origin and any first steps), durably."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        try:
            write_all(fd, b"".join((first, *lines)))
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(path.parent)

    def append(self, seq: int, line: bytes) -> None:
        """Append step *seq*'s line and fsync it; SaveError (and the file
        as it was) if that fails."""
        if seq != self.last_seq + 1:
            raise SaveError(f"Action {seq} does not follow action {self.last_seq} in {self.path}.")
        fd = self._fd()
        try:
            os.lseek(fd, self.size, os.SEEK_SET)
            write_all(fd, line)
            os.fsync(fd)
        except OSError as exc:
            try:
                self._truncate()
            except SaveError:
                self.close()  # the next open cuts the torn tail
            raise SaveError(
                f"The action could not be saved to {self.path}: {exc.strerror or exc}."
            ) from None
        self._starts[seq] = self.size
        self.size += len(line)
        self.last_seq = seq
        self._starts[seq + 1] = self.size

    # -- reading ----------------------------------------------------------------

    def read(self, seqs: Sequence[int]) -> list[dict[str, Any]]:
        """The records of steps *seqs* (all on file), in that order;
        CorruptData if one cannot be read."""
        if not seqs:
            return []
        if min(seqs) < 1 or max(seqs) > self.last_seq:
            raise CorruptData(f"{self.path} holds actions 1 to {self.last_seq} only")
        self._index_down_to(min(seqs))
        return [self._line(seq).record for seq in seqs]

    def end_of(self, seq: int) -> int:
        """The offset just past line *seq* (on file)."""
        if not 0 <= seq <= self.last_seq:
            raise CorruptData(f"{self.path} holds actions 0 to {self.last_seq} only")
        self._index_down_to(seq + 1)
        return self._starts[seq + 1]

    def raw_lines(self, first: int, last: int) -> bytes:
        """The bytes of lines *first* … *last*, as they are on file."""
        if last < first:
            return b""
        if first < 0 or last > self.last_seq:
            raise CorruptData(f"{self.path} holds actions 0 to {self.last_seq} only")
        self._index_down_to(first)
        start = self._starts[first]
        return self._pread(start, self.end_of(last) - start)

    def first_line(self) -> Line:
        """Line 0 (the origin), read from the start of the file."""
        fd, data = self._fd(), bytearray()
        while (nl := data.find(b"\n")) == -1:
            part = os.pread(fd, 1 << 16, len(data))
            if not part or len(data) > _ORIGIN_MAX:
                raise CorruptData(f"{self.path} has no first line")
            data += part
        line = decode(bytes(data[:nl]))
        if line.seq != 0:
            raise CorruptData(f"{self.path} does not start with the encounter's origin")
        return line

    def origin(self) -> dict[str, Any]:
        """The origin line's content."""
        self._index_down_to(0)
        return self._line(0).record

    def _line(self, seq: int) -> Line:
        start, end = self._starts[seq], self._starts[seq + 1]
        line = decode(self._pread(start, end - start).rstrip(b"\n"))
        if line.seq != seq:
            raise CorruptData(f"line {seq} of {self.path} is numbered {line.seq}")
        return line

    def _index_down_to(self, seq: int) -> None:
        """Find where lines *seq* … ``_low - 1`` start, reading backwards."""
        chunk = _CHUNK
        while self._low > seq:
            end = self._starts[self._low]  # line _low - 1 ends just before it
            lo = max(0, end - chunk)
            data = self._pread(lo, end - lo)
            if not data.endswith(b"\n"):
                raise CorruptData(f"{self.path} does not end a line where expected")
            i, progress = len(data) - 1, False
            while self._low > seq:
                j = data.rfind(b"\n", 0, i)
                if j == -1 and lo > 0:
                    break  # the line starts before this chunk
                self._low -= 1
                self._starts[self._low] = lo + j + 1
                i, progress = j, True
                if j == -1:
                    break
            if self._low > seq and self._starts[self._low] == 0:
                raise CorruptData(f"{self.path} has fewer lines than expected")
            chunk = _CHUNK if progress else chunk * 2

    def _pread(self, at: int, size: int) -> bytes:
        parts, fd = [], self._fd()
        while size > 0:
            part = os.pread(fd, min(size, 1 << 24), at)
            if not part:
                break
            parts.append(part)
            at += len(part)
            size -= len(part)
        return b"".join(parts)

    def _fd(self) -> int:
        if self.fd is None:
            raise SaveError(f"The steps file {self.path} is closed after an earlier error.")
        return self.fd

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


def read_tail(path: Path, limit: int = 4 << 20) -> Line | None:
    """The last valid line of a steps file, reading backwards from its end,
    so listing encounters never reads whole files.  None when the file has
    no valid line; OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        size = info.st_size
        pos, buf = size, b""
        while pos > 0 and size - pos < limit:
            step = min(_CHUNK // 16, pos)
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
