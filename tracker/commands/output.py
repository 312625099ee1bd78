"""Standard output that cannot be written is one line and status 1, not a
crash: :class:`GuardedOutput` turns a failed write into :class:`OutputError`,
which the last resort can tell from a bug's ``OSError``."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

T = TypeVar("T")


class OutputError(OSError):
    """Writing standard output failed (a full disk, an I/O error)."""


class GuardedOutput:
    """A text stream whose failed write or flush raises :class:`OutputError`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return _guarded(lambda: self.stream.write(text))

    def flush(self) -> None:
        _guarded(self.stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _guarded(call: Callable[[], T]) -> T:
    try:
        return call()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.errno, exc.strerror) from None


def silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
