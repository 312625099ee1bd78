"""``combat-tracker`` / ``combat-tracker open NAME`` (or a unique prefix): the
Textual app, imported only here.  A database or encounter that cannot be
opened is one line on stderr and status 1; recovery notices show in the app."""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.text import visible
from tracker.commands.common import Subparsers, add_common, fail, resolve_name, rng_from

if TYPE_CHECKING:
    from tracker.app import CombatTrackerApp


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("open", help="open one encounter in the tracker")
    parser.add_argument(
        "name", metavar="NAME", help="the encounter to open (or a unique prefix of its name)"
    )
    add_common(parser)
    from tracker.cli import LAN_HELP

    parser.add_argument("--lan", action="store_true", default=argparse.SUPPRESS, help=LAN_HELP)


class StartError(Exception):
    """Why the app cannot start: one line for stderr."""


def build_app(
    args: argparse.Namespace, hold_gc: bool = True, phase: Callable[[str], None] | None = None
) -> CombatTrackerApp:
    """Open the store (and ``open NAME``'s encounter), read the config and build
    the app; the caller runs it and closes ``app.store``.  *hold_gc*: no
    collection until the first frame; *phase* is told each start-up step's name.
    Raises StartError, the collector then as it was."""
    was_enabled = gc.isenabled()
    if hold_gc:
        gc.disable()
    try:
        return _build_app(args, hold_gc and was_enabled, phase or (lambda _name: None))
    except BaseException:
        if was_enabled:
            gc.enable()
        raise


def _build_app(
    args: argparse.Namespace, resume_gc: bool, phase: Callable[[str], None]
) -> CombatTrackerApp:
    from saves.live import LiveEncounter, open_store
    from saves.store import SaveError

    phase("import rules + saves")

    rng = rng_from(args)
    try:
        store = open_store(getattr(args, "db", None))
    except SaveError as exc:
        raise StartError(str(exc)) from None
    except OSError as exc:
        raise StartError(f"cannot open the database: {exc.strerror or exc}") from None
    phase("open the store")
    try:
        live = None
        name = getattr(args, "name", None)
        notices = store.take_notices()  # what opening the database found
        if name is not None:
            try:
                name = resolve_name(name, [s.name for s in store.list()])
                live = LiveEncounter.open(store, name, rng=rng)
            except (ValueError, SaveError) as exc:
                raise StartError(str(exc)) from None
            notices += store.take_notices()  # what loading it found
        phase("open the encounter (list, read, parse, from_dict)")
        from tracker.app import CombatTrackerApp
        from tracker.bindings import key_ids
        from tracker.config import load_config

        phase("import textual + rich + tracker")
        config = load_config(known_ids=key_ids())
        lan = True if getattr(args, "lan", False) else None  # else as the encounter keeps it
        app = CombatTrackerApp(
            store, live, config, rng, notices=notices, resume_gc=resume_gc, lan=lan
        )
        phase("read the config, construct the app")
        return app
    except BaseException:
        store.close()
        raise


def run(args: argparse.Namespace) -> int:
    """Build and run the app; an unexpected error in it is a crash report and status 70."""
    try:
        app = build_app(args)
    except StartError as exc:
        fail(str(exc))
        return 1
    details = _capture_errors(app)
    try:
        app.run()
    finally:
        if app.store is not None:  # build_app always opens one
            app.store.close()
    note = getattr(app, "close_note", None)  # what closing the fight could not do
    if note:
        sys.stderr.write(visible(note) + "\n")
    signum = getattr(app, "stopped_by", None)
    if signum is not None:  # kill, or the terminal window closed: not a quit, not a crash
        import signal

        with contextlib.suppress(OSError):  # a closed terminal may take stderr with it
            fail(f"stopped by {signal.Signals(signum).name}; everything acknowledged is saved")
        return 128 + signum
    if not app.return_code and not getattr(app, "panicked", False):  # the GM quit
        if details.getvalue():  # a message passed to app.exit(): still the GM's to read
            lines = details.getvalue().rstrip("\n").splitlines()
            sys.stderr.write("".join(visible(line) + "\n" for line in lines))
        return 0
    text = details.getvalue() or f"the app exited with return code {app.return_code}"
    error = getattr(app, "panic_error", None)
    if error is not None and error[0] == "UnicodeDecodeError" and "run_input_thread" in error[1]:
        # not our bug: a Latin-1 terminal (one byte for "é") stops Textual's
        # input reader; the GM can fix that, a report would not
        fail(
            "the terminal sent bytes that are not UTF-8 text, and the tracker "
            "stopped; set the terminal's character encoding to UTF-8 and start it "
            "again (everything acknowledged is saved)"
        )
        return 1
    from tracker.commands.crash import report_crash

    return report_crash(text, _error_name(text))


def _capture_errors(app: CombatTrackerApp) -> io.StringIO:
    """What Textual prints after a crash, kept for the report, not shown."""
    from rich.console import Console

    buffer = io.StringIO()
    app.error_console = Console(
        file=buffer, markup=False, highlight=False, color_system=None, width=120
    )
    return buffer


def _error_name(traceback: str) -> str:
    """``RuntimeError`` from a traceback ending ``RuntimeError: boom``."""
    lines = [line.strip() for line in traceback.splitlines() if line.strip()]
    match = re.match(r"([A-Za-z_][\w.]*)(:|$)", lines[-1]) if lines else None
    return match.group(1) if match else "an error in the app"
