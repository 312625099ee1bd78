"""``combat-tracker`` / ``combat-tracker open NAME``: the Textual app.

The module top stays cheap (no Textual import) so other subcommands and
``--help`` never pay for it.  A locked, unreadable or missing database or
encounter is one clear line on stderr and exit status 1; recovery notices
from the store are shown inside the app.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``open NAME``."""
    parser = subparsers.add_parser("open", help="open one encounter in the tracker")
    parser.add_argument("name", metavar="NAME", help="the encounter to open")
    parser.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help="database file")
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        default=argparse.SUPPRESS,
        help="make every roll reproducible",
    )


def _fail(message: str) -> int:
    sys.stderr.write(f"combat-tracker: {message}\n")
    return 1


def run(args: argparse.Namespace) -> int:
    """Open the store (and the encounter for ``open NAME``), run the app."""
    from saves.live import LiveEncounter, open_store
    from saves.store import SaveError

    seed = getattr(args, "seed", None)
    rng = random.Random(seed) if seed is not None else random.Random()
    try:
        store = open_store(getattr(args, "db", None))
    except SaveError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot open the database: {exc.strerror or exc}")
    try:
        live = None
        name = getattr(args, "name", None)
        if name is not None:
            try:
                live = LiveEncounter.open(store, name, rng=rng)
            except SaveError as exc:
                return _fail(str(exc))
        from tracker.app import CombatTrackerApp
        from tracker.bindings import key_ids
        from tracker.config import load_config

        config = load_config(known_ids=key_ids())
        app = CombatTrackerApp(store, live, config, rng, notices=list(store.notices))
        app.run()
        return 0
    finally:
        store.close()
