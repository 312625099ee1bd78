"""Standard output that cannot be written is the GM's problem to see, not a
crash: ``combat-tracker show Crypt > /dev/full`` says "cannot write the
output: No space left on device", status 1.

A failed write surfaces as a plain ``OSError`` from ``print`` or Rich, which
the last resort could not tell from a bug; :class:`GuardedOutput` wraps the
stream so a write or flush that fails raises :class:`OutputError` instead.
A reader that went away (``BrokenPipeError``) stays what it is: a quiet stop.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, TextIO


class OutputError(OSError):
    """Writing standard output failed (a full disk, an I/O error)."""


class GuardedOutput:
    """A text stream's stand-in: every attribute is the stream's, but a
    failed write or flush raises :class:`OutputError`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def silence_stdout() -> None:
    """Point the standard output descriptor at /dev/null, so the
    interpreter's last flush of what could not be written does not fail a
    second time (and turn the exit status into 120)."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
