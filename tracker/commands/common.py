"""Pieces every subcommand shares: ``--db`` / ``--seed`` everywhere, opening
the store with one clear message on failure, the seeded random source."""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from saves.store import Store


class CommandError(Exception):
    """A failure to report as one line on stderr (exit status in ``status``)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def add_common(parser: argparse.ArgumentParser) -> None:
    """Accept ``--db`` and ``--seed`` after the subcommand too (the top-level
    parser has them as well; SUPPRESS keeps a top-level value)."""
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="database file (default: user data dir; env COMBAT_TRACKER_DB)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        default=argparse.SUPPRESS,
        help="make every roll reproducible",
    )


def rng_from(args: argparse.Namespace) -> random.Random:
    """The one random source of this run: seeded by ``--seed`` if given."""
    seed = getattr(args, "seed", None)
    return random.Random(seed) if seed is not None else random.Random()


def open_store(args: argparse.Namespace, read_only: bool = False) -> Store:
    """Open the database, printing recovery notices once; a locked or
    unreadable database becomes a CommandError (one line, no traceback)."""
    from saves.store import SaveError, Store

    try:
        store = Store(getattr(args, "db", None), read_only=read_only)
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot open the database: {exc.strerror or exc}") from None
    for notice in store.take_notices():
        fail(notice)
    return store


def fail(message: str) -> None:
    sys.stderr.write(f"combat-tracker: {message}\n")
