"""What every subcommand shares: ``--db`` / ``--seed``, opening the store and
the encounter with one line on failure, the seeded random source, and how a
user's text is quoted in a message."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from rules.errors import ActionError
from rules.text import MAX_TITLE, check_text, describe, name_key, shorten

if TYPE_CHECKING:
    from saves.live import LiveEncounter
    from saves.store import Store

#: what each command's ``register`` adds its subcommand to
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: a message quoting a huge field (a hand-edited file) is cut, not flooding the terminal
MAX_MESSAGE = 2000


class CommandError(Exception):
    """A failure to report as one line on stderr (exit status in ``status``)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def add_common(parser: argparse.ArgumentParser, default: object = argparse.SUPPRESS) -> None:
    """``--db`` and ``--seed``: before the subcommand (the main parser's,
    *default* None) and after it too (SUPPRESS keeps a value given before)."""
    help_db = "database file (default: user data dir; env COMBAT_TRACKER_DB)"
    parser.add_argument("--db", metavar="PATH", default=default, help=help_db)
    parser.add_argument(
        "--seed", type=int, metavar="N", default=default, help="make every roll reproducible"
    )


def rng_from(args: argparse.Namespace) -> random.Random:
    seed = getattr(args, "seed", None)
    return random.Random(seed) if seed is not None else random.Random()


def quoted(text: str, limit: int = 100) -> str:
    """``'Goblin ambush'``: a name quoted in a message, visible and cut short."""
    return f"'{shorten(text, limit)}'"


def one_line(message: str) -> str:
    return shorten(message, MAX_MESSAGE)


def check_arg(what: str, value: str) -> str:
    """A name to look up, from the command line: a byte that is not UTF-8
    (argv hands it over as a surrogate) is named, not "no such encounter"."""
    for ch in value:
        if 0xDC80 <= ord(ch) <= 0xDCFF:
            raise CommandError(f"the {what} cannot contain {describe(ch)}")
    return value


def check_title(what: str, value: str) -> str:
    """A new encounter name or save-point label, or a CommandError saying why not."""
    try:
        text = check_text(f"the {what}", value, MAX_TITLE).strip()
    except ActionError as exc:
        raise CommandError(str(exc)) from None
    if not text:
        raise CommandError(f"the {what} cannot be empty")
    return text


def open_store(args: argparse.Namespace, read_only: bool = False) -> Store:
    """The database, its recovery notices printed (CommandError: locked or unreadable)."""
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


def resolve_name(typed: str, names: list[str]) -> str:
    """The saved encounter *typed* names, or the one it is a prefix of
    (ignoring case); ValueError lists the candidates or the saved names."""
    wanted = name_key(typed.strip())
    for name in names:
        if name_key(name) == wanted:
            return name
    matches = [name for name in names if name_key(name).startswith(wanted)] if wanted else []
    if len(matches) == 1:
        return matches[0]
    listed = ", ".join(repr(n) for n in (matches or names))
    if len(matches) > 1:
        raise ValueError(f"{typed!r} could be any of {listed}: type more of the name")
    if not names:
        raise ValueError(f"no encounter named {typed!r}: the database has none yet")
    raise ValueError(f"no encounter named {typed!r}; saved: {listed}")


def resolve(args: argparse.Namespace, store: Store) -> str:
    typed = check_arg("encounter name", args.name)
    try:
        return resolve_name(typed, [s.name for s in store.list()])
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def open_live(args: argparse.Namespace, store: Store, prefix: bool = False) -> LiveEncounter:
    """The encounter ``args.name`` (*prefix*: or the one it is a unique prefix of)."""
    from saves.live import LiveEncounter
    from saves.store import EncounterNotFound

    name = resolve(args, store) if prefix else check_arg("encounter name", args.name)
    try:
        live = LiveEncounter.open(store, name, rng=rng_from(args))
    except EncounterNotFound:
        raise CommandError(
            f"no encounter named {quoted(name)} (see: combat-tracker list)"
        ) from None
    for notice in store.take_notices():
        fail(notice)
    return live


def run_with_store(
    args: argparse.Namespace,
    handler: Callable[[argparse.Namespace, Store], int],
    read_only: bool = False,
) -> int:
    """*handler* with the store open; a CommandError or SaveError is one line on stderr."""
    from saves.store import SaveError

    try:
        store = open_store(args, read_only=read_only)
    except CommandError as exc:
        fail(str(exc))
        return exc.status
    try:
        return handler(args, store)
    except (CommandError, SaveError) as exc:  # SaveError: a refused name, a failed write
        fail(str(exc))
        return getattr(exc, "status", 1)
    finally:
        store.close()


def fail(message: str) -> None:
    sys.stderr.write(f"combat-tracker: {one_line(message)}\n")
