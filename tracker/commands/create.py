"""``new``: create an encounter, empty or from a prepared TOML file
(``--from``), with its ruleset and rule options."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from tracker.commands.common import (
    CommandError,
    Subparsers,
    add_common,
    check_title,
    one_line,
    quoted,
    rng_from,
    run_with_store,
)

if TYPE_CHECKING:
    from saves.store import Store

#: far above any real prepared file: ``--from /dev/zero`` must not fill the memory
MAX_PREPARED_BYTES = 4 * 1024 * 1024


def register(sub: Subparsers) -> None:
    p = sub.add_parser("new", help="create an encounter", description="Create an encounter.")
    p.add_argument("name")
    p.add_argument("--from", dest="from_file", metavar="FILE.toml", help="a prepared encounter")
    p.add_argument("--ruleset", choices=["core", "forge", "cinematic"], help="default: core")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one rule option (repeatable)",
    )
    add_common(p)


def run(args: argparse.Namespace) -> int:
    return run_with_store(args, _new)


def _read_prepared(path: str) -> str:
    """The prepared file's text, or a CommandError: missing, too large or not UTF-8."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_PREPARED_BYTES + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_PREPARED_BYTES:
        raise CommandError(f"{path}: too large for a prepared encounter (over 4 MB)")
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is fine
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CommandError(
            f"{path}: not UTF-8 text (the byte 0x{raw[exc.start]:02X} at line {line}, "
            f"column {column}); save the file as UTF-8"
        ) from None


def _new(args: argparse.Namespace, store: Store) -> int:
    from rules.errors import ActionError
    from rules.prepared import PreparedError, parse_prepared
    from rules.rulesets import RulesetError, ruleset
    from saves.live import LiveEncounter

    name = check_title("encounter name", args.name)
    prepared = None
    if args.from_file:
        text = _read_prepared(args.from_file)
        try:
            prepared = parse_prepared(text)
        except PreparedError as exc:
            raise CommandError(f"{args.from_file}: {exc}") from None
    rules_name = args.ruleset or (prepared.ruleset if prepared else "core")
    options: dict[str, Any] = dict(prepared.options) if prepared else {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise CommandError(f"--option {quoted(item)}: write it as KEY=VALUE")
        options[key.strip()] = value.strip()
    try:
        rules = ruleset(rules_name, **options)
    except RulesetError as exc:
        raise CommandError(str(exc)) from None
    if store.exists(name):
        raise CommandError(f"an encounter named {quoted(name)} already exists")
    actions: list[dict[str, Any]] = []
    if prepared:
        from rules.prepared import add_actions

        actions = list(add_actions(prepared))
    try:
        # all or nothing: the prepared combatants are added in memory first
        live = LiveEncounter.create(store, name, rules, rng=rng_from(args), actions=actions)
    except (ActionError, ValueError) as exc:
        raise CommandError(f"{args.from_file}: {exc}") from None
    count = len(live.encounter.combatants)
    print(one_line(f"created {quoted(live.name)} ({rules.name} rules, {count} combatants)"))
    return 0
