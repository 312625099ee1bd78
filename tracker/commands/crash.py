"""The last resort: a bug never puts a traceback in front of the GM nor exits
0; it is a crash report in the user's state directory (or
``$COMBAT_TRACKER_STATE``), one sentence on stderr and :data:`EX_SOFTWARE`.
Import-light: it runs when something already failed."""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

from rules.text import visible

EX_SOFTWARE = 70  # sysexits.h: an internal software error
STATE_ENV = "COMBAT_TRACKER_STATE"
APP_NAME = "combat-tracker"


def state_dir() -> Path:
    """Where crash reports (and the other state files) are written."""
    env = os.environ.get(STATE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_state_dir

    return Path(user_state_dir(APP_NAME))


def _version() -> str:
    try:
        from importlib.metadata import version

        return version(APP_NAME)
    except Exception:  # not installed (a source checkout): the report still helps
        return "unknown"


def report_text(details: str, argv: list[str] | None = None) -> str:
    """What ran, where, when, and the traceback *details*, made visible (a GM may cat it)."""
    words = sys.argv if argv is None else argv
    lines = [
        f"combat-tracker {_version()} crash report",
        f"time: {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"command: {visible(' '.join(words))}",
        f"python: {visible(sys.version)} ({platform.platform()})",
        "",
        # keep the traceback's own line breaks, make everything else visible
        *(visible(line) for line in details.splitlines()),
    ]
    return "\n".join(lines) + "\n"


def write_report(details: str, argv: list[str] | None = None) -> Path:
    """Write a new crash report and return its path (OSError if it cannot)."""
    directory = state_dir()
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    body = report_text(details, argv).encode("utf-8", "backslashreplace")
    for attempt in range(100):
        path = directory / f"crash-{stamp}-{os.getpid()}{f'-{attempt}' if attempt else ''}.txt"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as file:
            file.write(body)
        return path
    raise FileExistsError(f"no free crash report name in {directory}")


def report_crash(details: str, what: str, argv: list[str] | None = None) -> int:
    """Write the report for the error *what* and say so in one sentence on
    stderr (or that it could not be written); return EX_SOFTWARE, never raise."""
    saved = "everything already acknowledged is saved on disk"
    try:
        path = write_report(details, argv)
    except Exception as exc:  # the disk is full, the directory unwritable …
        reason = visible(getattr(exc, "strerror", None) or type(exc).__name__)
        sentence = (
            f"combat-tracker stopped on an internal error ({visible(what)}) and could not "
            f"write a crash report ({reason}); {saved}."
        )
    else:
        sentence = (
            f"combat-tracker stopped on an internal error ({visible(what)}); {saved}, "
            f"and the details are in {visible(str(path))} (please include it in a bug report)."
        )
    try:
        sys.stderr.write(sentence + "\n")
        sys.stderr.flush()
    except Exception:  # stderr is gone too: the exit status still tells
        pass
    return EX_SOFTWARE


def report_exception(exc: BaseException, argv: list[str] | None = None) -> int:
    """:func:`report_crash` for an exception caught by the last resort."""
    try:
        import traceback

        details = "".join(traceback.format_exception(exc))
    except Exception:  # formatting it failed too (a broken __str__ …)
        details = f"{type(exc).__name__} (the traceback could not be formatted)"
    return report_crash(details, type(exc).__name__, argv)
