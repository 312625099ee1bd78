"""One writer per database (issue 3): ``fcntl.flock`` on ``<db>.lock``,
which holds the owner's PID so a second process can say who has it.  The
kernel drops a flock when its holder dies, so a killed tracker never leaves
a stale lock.  A read-only store takes none (``saves.store`` says why)."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from saves.errors import DatabaseLocked, SaveError
from saves.fsutil import NOFOLLOW

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
            fd = os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW, 0o644)
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
