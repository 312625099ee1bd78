"""One process per database (issue 3, Saves).

The lock is ``fcntl.flock`` on ``<db>.lock``; the file holds the owner's PID
so the second process can say who has it.  The kernel drops a flock when its
holder dies, so a crashed or killed tracker never leaves a stale lock (the
PID left in the file is just overwritten by the next owner).

Only writers lock.  A read-only store (``Store(path, read_only=True)``)
neither takes nor creates the lock: see "Read-only access" in
``saves.store`` for why it needs none.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from saves.errors import DatabaseLocked, SaveError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class FileLock:
    """An exclusive, non-blocking lock on ``path`` holding our PID."""

    def __init__(self, path: Path, database: Path) -> None:
        self.path = path
        self.fd: int | None = None
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise SaveError(f"Cannot open the lock file {path}: {exc.strerror or exc}.") from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                pid = _read_pid(fd)
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EACCES, errno.EAGAIN):
                    raise DatabaseLocked(pid, database) from None
                raise SaveError(f"Cannot lock {path}: {exc.strerror or exc}.") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)  # closing the descriptor drops the flock
            self.fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None
