"""``combat-tracker`` / ``combat-tracker open NAME`` (a name or unique
prefix): the Textual app, imported only here.  A database or encounter that
cannot be opened is one line on stderr and status 1; recovery notices are
shown inside the app."""

from __future__ import annotations

import argparse
import gc
import io
import random
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.text import visible
from tracker.commands.common import Subparsers, add_common, fail, resolve_name

if TYPE_CHECKING:
    from tracker.app import CombatTrackerApp


def register(subparsers: Subparsers) -> None:
    """Add ``open NAME``."""
    parser = subparsers.add_parser("open", help="open one encounter in the tracker")
    parser.add_argument(
        "name", metavar="NAME", help="the encounter to open (or a unique prefix of its name)"
    )
    add_common(parser)
    from tracker.cli import LAN_HELP

    parser.add_argument("--lan", action="store_true", default=argparse.SUPPRESS, help=LAN_HELP)


def _fail(message: str) -> int:
    fail(message)
    return 1


class StartError(Exception):
    """Why the app cannot start: one line for stderr."""


def build_app(
    args: argparse.Namespace, hold_gc: bool = True, phase: Callable[[str], None] | None = None
) -> CombatTrackerApp:
    """Open the store (and the encounter for ``open NAME``), read the config
    and build the app; the caller runs it and closes ``app.store``.
    *hold_gc* turns the collector off until the first frame: everything
    start-up builds stays alive, so collecting it only wastes time.
    *phase* is called with each start-up step's name as it ends.  Raises
    StartError (the collector then as it was)."""
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

    seed = getattr(args, "seed", None)
    rng = random.Random(seed) if seed is not None else random.Random()
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
    """Open the store (and the encounter for ``open NAME``), run the app.  An
    unexpected error inside it becomes a crash report and status 70
    (:mod:`tracker.commands.crash`), not Textual's traceback."""
    try:
        app = build_app(args)
    except StartError as exc:
        return _fail(str(exc))
    details = _capture_errors(app)
    try:
        app.run()
    finally:
        if app.store is not None:  # build_app always opens one
            app.store.close()
    note = getattr(app, "close_note", None)  # what closing the fight could not do
    if note:
        sys.stderr.write(visible(note) + "\n")
    if not app.return_code and not getattr(app, "panicked", False):  # the GM quit
        if details.getvalue():  # a message passed to app.exit(): still the GM's to read
            lines = details.getvalue().rstrip("\n").splitlines()
            sys.stderr.write("".join(visible(line) + "\n" for line in lines))
        return 0
    text = details.getvalue() or f"the app exited with return code {app.return_code}"
    error = getattr(app, "panic_error", None)
    if error is not None and error[0] == "UnicodeDecodeError" and "run_input_thread" in error[1]:
        # Not a bug of ours: the terminal is not set to UTF-8 (a Latin-1
        # terminal sends one byte for "é"), and Textual's input reader
        # stops on such a byte.  The GM can fix that; a report would not.
        return _fail(
            "the terminal sent bytes that are not UTF-8 text, and the tracker "
            "stopped; set the terminal's character encoding to UTF-8 and start it "
            "again (everything acknowledged is saved)"
        )
    from tracker.commands.crash import report_crash

    return report_crash(text, _error_name(text))


def _capture_errors(app: CombatTrackerApp) -> io.StringIO:
    """Send what Textual prints after a crash into a buffer for the crash
    report, not onto the GM's terminal."""
    from rich.console import Console

    buffer = io.StringIO()
    app.error_console = Console(
        file=buffer, markup=False, highlight=False, color_system=None, width=120
    )
    return buffer


def _error_name(traceback: str) -> str:
    """``RuntimeError`` from a rendered traceback's last line
    (``RuntimeError: boom``); a generic name when there is none."""
    lines = [line.strip() for line in traceback.splitlines() if line.strip()]
    match = re.match(r"([A-Za-z_][\w.]*)(:|$)", lines[-1]) if lines else None
    return match.group(1) if match else "an error in the app"
