"""Durable file-system primitives (issue 3): each completes and is on disk
when it returns, or raises; none leaves a half-written file under a real
name."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import time
from pathlib import Path

#: in the name of every temp file: ``state.json.tmp-1234`` (stray ones are
#: removed by the process holding the lock)
TEMP_MARK = ".tmp-"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (new, renamed or removed names) to disk."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - platforms that cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on dirs
        pass
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (os.write may write less)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash at any moment leaves
    either the old or the new content: temp file, fsync, os.replace, fsync
    of the directory."""
    tmp = path.with_name(f"{path.name}{TEMP_MARK}{os.getpid()}")
    # A leftover of a crashed process with our PID, or a planted link: the
    # temp file is always a new file of our own (O_EXCL never follows a link).
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
    try:
        write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def read_regular(path: Path, limit: int = 1 << 28, follow: bool = False) -> bytes:
    """The bytes of the regular file *path*, never a FIFO or a device, nor
    through a link unless *follow* (OSError for those, and for a file over
    *limit* bytes): a planted file must not hang or exhaust the tracker.
    The GM's own files (config, history) may be links into a dotfiles
    folder: they *follow*."""
    flags = os.O_RDONLY | NONBLOCK | (0 if follow else NOFOLLOW)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"{path} is not a regular file")
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"{path} is too large")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def make_dirs(path: Path) -> None:
    """Create ``path`` (and parents) durably: each new entry's parent is fsynced."""
    missing: list[Path] = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):
            directory.mkdir()
        fsync_dir(directory.parent)


def timestamp() -> str:
    """Local time as used in moved-aside names: ``20261130-071500``."""
    return time.strftime("%Y%m%d-%H%M%S")


def aside_path(path: Path, tag: str) -> Path:
    """A free name beside ``path``: ``<name>.<tag>-<timestamp>[-N]``."""
    base = f"{path.name}.{tag}-{timestamp()}"
    candidate = path.with_name(base)
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{base}-{n}")
        n += 1
    return candidate


def move_aside(path: Path, tag: str) -> Path:
    """Rename ``path`` (file or directory) to a timestamped free name beside
    it and make the rename durable; returns the new path."""
    target = aside_path(path, tag)
    os.rename(path, target)
    fsync_dir(path.parent)
    return target


def keep_copy_aside(path: Path, tag: str) -> Path:
    """Keep a copy of ``path`` under a timestamped name beside it, leaving
    ``path`` itself in place to be repaired (a copy, never a hard link: the
    repair must not reach the copy)."""
    target = aside_path(path, tag)
    shutil.copy2(path, target)
    fd = os.open(target, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(path.parent)
    return target


def remove_temp_files(directory: Path) -> int:
    """Remove the temp files a crashed writer left in *directory* (the
    caller holds the lock, so none is being written); how many."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if TEMP_MARK in entry.name and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += 1
    if removed:
        fsync_dir(directory)
    return removed
