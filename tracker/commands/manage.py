"""``delete``, ``save`` and ``restore``: deleting an encounter, a named save
point beside the autosave, and a new encounter from a save point."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tracker.commands.common import (
    CommandError,
    Subparsers,
    add_common,
    check_arg,
    check_title,
    one_line,
    open_live,
    quoted,
    resolve,
    rng_from,
    run_with_store,
)

if TYPE_CHECKING:
    from saves.store import Store


def register(sub: Subparsers) -> None:
    p = sub.add_parser("delete", help="delete an encounter")
    p.add_argument("name", help="the encounter (or a unique prefix of its name)")
    add_common(p)

    p = sub.add_parser("save", help="a named save point of an encounter (beside the autosave)")
    p.add_argument("name")
    p.add_argument("label")
    p.add_argument(
        "--replace", action="store_true", help="overwrite a save point with the same label"
    )
    add_common(p)

    p = sub.add_parser(
        "restore",
        help="a new encounter from a save point",
        description="Create a new encounter from a save point; the original is left as it is.",
    )
    p.add_argument("name")
    p.add_argument("label")
    p.add_argument("--as", dest="new_name", metavar="NEW", help='default: "NAME (LABEL)"')
    add_common(p)


def run(args: argparse.Namespace) -> int:
    handler = {"delete": _delete, "save": _save, "restore": _restore}[args.command]
    return run_with_store(args, handler)


def _delete(args: argparse.Namespace, store: Store) -> int:
    from saves.store import EncounterNotFound

    name = resolve(args, store)
    try:
        store.delete(name)
    except EncounterNotFound:
        raise CommandError(f"no encounter named {quoted(name)}") from None
    print(one_line(f"deleted {quoted(name)}"))
    return 0


def _save(args: argparse.Namespace, store: Store) -> int:
    from saves.errors import SavePointExists

    label = check_title("save point label", args.label)
    live = open_live(args, store)
    try:
        live.save_point(label, replace=args.replace)
    except SavePointExists as exc:
        raise CommandError(f"{exc} (--replace overwrites it)") from None
    print(one_line(f"saved {quoted(live.name)} as {quoted(label)}"))
    return 0


def _restore(args: argparse.Namespace, store: Store) -> int:
    """A save point becomes a new encounter, undo history included (:mod:`tracker.restore`)."""
    from saves.store import EncounterExists, EncounterNotFound
    from tracker.restore import default_name, restore_save_point

    name = check_arg("encounter name", args.name)
    label = check_arg("save point label", args.label)
    if args.new_name:
        new_name = check_title("name given with --as", args.new_name)
    else:
        try:
            new_name = check_title("new encounter name", default_name(name, label))
        except CommandError as exc:
            raise CommandError(f"{exc}: choose one with --as NEW") from None
    try:
        restore_save_point(store, name, label, new_name, rng=rng_from(args))
    except EncounterExists:
        raise CommandError(
            f"an encounter named {quoted(new_name)} already exists (use --as NEW)"
        ) from None
    except EncounterNotFound:
        raise CommandError(f"no encounter named {quoted(name)}") from None
    print(one_line(f"restored {quoted(name)} save point {quoted(label)} as {quoted(new_name)}"))
    return 0
