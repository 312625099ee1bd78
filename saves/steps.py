"""One encounter's history, its steps file ``steps.jsonl``, opened: line 0
creates the encounter and line *N* is step *N* (``saves.step_lines``).  A
line is appended and fsynced before the step is acknowledged, and the file
is never rewritten: a torn tail is cut before the next append, and damage
in the middle keeps the lines before it, the damaged file kept beside it
and the caller told.  A reader in another process sees an append in
progress as a torn tail that is not there yet, so reading needs no lock.
Older steps (an undo below what is in memory, an export) are read by
sequence number through an offset table built backwards, on first use,
from the newest line whose place is known, so only the lines needed are
read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from saves.errors import CorruptData, SaveError
from saves.fsutil import NOFOLLOW, NONBLOCK, fsync_dir, keep_copy_aside, write_all
from saves.step_lines import Line, decode, read_first, scan

STEPS_FILE = "steps.jsonl"
_CHUNK = 1 << 20


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
        flags = (os.O_RDONLY if self.read_only else os.O_RDWR) | NOFOLLOW | NONBLOCK
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
            damage = found.damage
            self._repair(damage.seq, f"is damaged from action {damage.seq} on ({damage.reason})")
        elif size > self.size and not self.read_only:
            self._truncate()  # a torn tail: an append that never returned
        return found.lines

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
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
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
        return read_first(self._fd(), self.path)

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
